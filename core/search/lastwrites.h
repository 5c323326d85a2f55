// SPDX-License-Identifier: MIT
// Whether a read is explained by the writes before it: each of its bytes compared with the value
// the last earlier write of that byte left (a byte walk, core/query/bytewalk.h, of the writes
// backward from the read's row, as MemoryReader walks memory at T). What `memhist
// search --unexplained` asks of every read it passes; `memhist check` finds the same reads by
// replaying the whole history instead (core/values/valuecheck.h).
#pragma once

#include "core/query/bytewalk.h"
#include "core/query/halfaxisquery.h"
#include "core/values/accessvalue.h"
#include "core/values/accessvaluereader.h"

#include <QList>
#include <QString>

namespace memhist {

// A write that left some bytes of a later access: `write`, and the bytes [first, last] of the
// access it explains.
struct LastWrite
{
    Access write;
    Address first;
    Address last;
};

class LastWrites
{
public:
    // Reads through `database`, which must outlive this object.
    explicit LastWrites(HistoryDatabase &database);

    // True when a byte of `read` (whose value is `value`) differs from the byte the last write of
    // it before `read` left. False when they all agree, when no earlier write (with a value) of its
    // bytes exists, when `read` has no value, or on a database error (see failed()).
    bool differs(const Access &read, const std::optional<AccessValue> &value);
    // The last write before `access` (a row of the history) of each of its bytes, newest first (a
    // write that explains several bytes listed once), and in *unwritten the byte ranges that no
    // earlier write covers, in address order. What `memhist origin` follows. False on a database
    // error (see failed()).
    bool lastWritesOf(const Access &access, QList<LastWrite> *writes, QList<LastWrite> *unwritten);
    // True (and *error set, once) when a query of differs() failed since the last call.
    bool failed(QString *error);

private:
    HalfAxisQueryEngine m_engine;
    ByteWalk m_walk;
    AccessValueReader m_values;
    QString m_error;
};

} // namespace memhist
