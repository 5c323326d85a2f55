// SPDX-License-Identifier: MIT
// The checker's part for values (`memhist check` on a history that has them): replays the values in
// rowid order through a sparse image of memory (4 KiB pages, only those touched) and finds
// - what breaks the values' own properties: a damaged block, a value whose length is not its
//   access's size, before bytes on a read;
// - reads whose bytes differ from the last write (program or kernel) of those bytes: memory that
//   changed behind the trace's back (another process, a device, a kernel effect the recorder is
//   not told of, such as the thread-id word the kernel clears when a thread exits). These are
//   findings, not violations: the history stores what was read.
#pragma once

#include "core/model/types.h"
#include "core/storage/sqlite.h"
#include "core/values/valueblock.h"

#include <QList>
#include <QString>
#include <functional>
#include <memory>
#include <unordered_map>

namespace memhist {

class ValueCheck
{
public:
    // The properties of values, quoted in brackets in the violations, as checkmessages.h does.
    static constexpr auto blocksReadable = "value blocks describe their bytes";
    static constexpr auto valueSize = "a value is as long as its access";
    // At most this many pages of the image (4 KiB each, plus 512 bytes of flags): past it the
    // replay stops, with a note.
    static constexpr std::size_t maxPages = 1 << 16;
    // The mismatches named one by one.
    static constexpr int namedMismatches = 5;

    // Called for each violation: its property and the whole message.
    using Report = std::function<void(const char *property, const QString &message)>;

    ValueCheck(sqlite::Connection &connection, Report report);
    ~ValueCheck();

    // The history has value blocks (older per-access values are not replayed).
    bool available() const { return m_available; }
    // The next access in rowid order (its own properties already checked by the caller).
    void visit(qint64 rowId, std::int64_t transition, Operation operation, std::uint64_t address, std::int64_t size);
    // What the replay found, for the check's notes: empty when every read matched.
    QStringList notes() const;
    qint64 readsCompared() const { return m_readsCompared; }
    qint64 mismatches() const { return m_mismatches; }

private:
    struct Page;
    // Makes m_block the block holding `rowId`, if one does.
    void seekBlock(qint64 rowId);
    Page *page(std::uint64_t number);

    Report m_report;
    sqlite::Statement m_blocks;
    bool m_available = false;
    bool m_blocksDone = false;
    DecodedValueBlock m_block;
    bool m_haveBlock = false;
    std::unordered_map<std::uint64_t, std::unique_ptr<Page>> m_pages;
    bool m_imageFull = false;
    std::optional<qint64> m_stoppedAt; // the rowid the replay stopped at, when the image was full
    qint64 m_readsCompared = 0;
    qint64 m_mismatches = 0;
    QStringList m_named;
};

} // namespace memhist
