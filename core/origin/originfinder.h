// SPDX-License-Identifier: MIT
// Where the bytes of an access came from (or, forward, where they went): the origin tree of
// `memhist origin` and, later, of the viewer's "Where did this come from?".
//
// Backward, a read leads to the last write of each of its bytes (LastWrites), a write to the
// sources of its instruction: a read the same instruction made (movs, push [m]), or a register,
// which leads to the last earlier instruction of the same thread that wrote it (RegisterWalk),
// and on through that instruction's own sources. Forward, a write leads to the later reads of its
// bytes before they are overwritten, a read to what its instruction wrote: memory at the same
// transition, and registers, followed to the instructions that use them until they are
// overwritten. Without a code trace only the memory hops are made.
#pragma once

#include "core/origin/originhop.h"

#include <QList>
#include <QString>
#include <memory>
#include <optional>

namespace memhist {

class HistoryDatabase;
class OriginTreeBuilder;

struct OriginRequest
{
    RowId row;
    Direction direction = Direction::Backward;
    int depth = 16; // hops below the root, at most
    // Hops in the whole tree, at most: computed values fan out (each source is followed).
    int maxHops = 512;
    // Forward: later reads of one write's bytes followed, at most.
    int maxReadsPerWrite = 16;
};

struct OriginTree
{
    QList<OriginHop> hops; // depth-first; hops[0] is the root
    bool truncated = false; // maxHops was reached
};

class OriginFinder
{
public:
    // Reads through `database`, which must outlive this object. One thread at a time.
    explicit OriginFinder(HistoryDatabase &database);
    ~OriginFinder();
    OriginFinder(const OriginFinder &) = delete;
    OriginFinder &operator=(const OriginFinder &) = delete;

    // The history has a code trace and its instructions: register hops can be made.
    bool hasCode() const;
    // The history has the bytes of its accesses: hops can be checked.
    bool hasValues() const;

    // The tree of `request`. False + *error when the row is not in the history or on a database
    // error ("no access has rowid 7").
    bool find(const OriginRequest &request, OriginTree *tree, QString *error);

    // The access stored at `row` (a hop's rowId), for a viewer that selects hops; none when no
    // access has that rowid.
    std::optional<Access> accessAt(RowId row);

private:
    std::unique_ptr<OriginTreeBuilder> d;
};

} // namespace memhist
