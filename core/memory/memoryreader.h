// SPDX-License-Identifier: MIT
// Memory at any moment (`memhist memory`, the viewer's Memory pane): the bytes of an address range
// after transition T, each with how it is known, from half-axis queries in both directions (the
// engine every time/address question goes through):
// - backward from T: each byte's last access at or before T gives its value, a write's bytes (known
//   by "write") or a read's (known by "read");
// - forward from T + 1, for the bytes no access at or before T touched: a byte whose first later
//   access is a read held the bytes read at T already (no write came between): "later read"; one
//   first written, or never accessed, is unknown.
// Both are byte walks (core/query/bytewalk.h): they stop as soon as every byte of the range is
// decided and narrow the engine's work to the bytes still undecided as they go.
#pragma once

#include "core/model/types.h"

#include <QList>
#include <QString>
#include <memory>

namespace memhist {

class HistoryDatabase;

enum class KnownBy : std::uint8_t {
    Write, // the last access at or before T wrote it
    Read, // the last access at or before T read it
    LaterRead, // no access at or before T; the first one after T read it
    Unknown, // none of those (or the access that decides it has no value)
};

struct MemoryByte
{
    std::uint8_t value = 0; // meaningless when Unknown
    KnownBy knownBy = KnownBy::Unknown;
    Transition transition; // of the access that tells, when known
    RowId rowId;

    friend bool operator==(const MemoryByte &, const MemoryByte &) = default;
};

class MemoryReader
{
public:
    // The largest range read at once.
    static constexpr std::uint64_t maxBytes = 64 * 1024;

    // Reads through `database`, which must outlive this object.
    explicit MemoryReader(HistoryDatabase &database);
    ~MemoryReader();

    // The history keeps values (else every byte would be unknown).
    bool hasValues() const;
    // The bytes [first, last] after transition `at` (its own accesses included), one per address.
    // False + *error on a range larger than maxBytes, first > last, or a database error.
    bool read(Transition at, Address first, Address last, QList<MemoryByte> *bytes, QString *error);

private:
    class Private;
    std::unique_ptr<Private> d;
};

} // namespace memhist
