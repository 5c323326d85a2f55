// SPDX-License-Identifier: MIT
// The context columns of an access, as `memhist query --context` and `memhist export --context`
// print them after the six columns of DESIGN.md §3: pc (0x hex), function ("name+0xoff"), source
// ("file:line"), instruction (disassembly), region (the data object or region accessed), and, when
// the history has values, value (the bytes moved, in hex, memory order) and before (the bytes a
// write overwrote, when known). Unknown is an empty cell.
#pragma once

#include "core/model/types.h"

#include <QByteArray>
#include <QList>

namespace memhist {

class ContextReader;

class ContextColumns
{
public:
    // Reads through `reader`, which must outlive this object.
    explicit ContextColumns(ContextReader &reader);

    const QList<QByteArray> &names() const { return m_names; }
    // One cell per name, for `access`.
    QList<QByteArray> cells(const Access &access);

    // The same for CSV, each column preceded by a comma (they follow the six columns), cells
    // quoted as RFC 4180 says.
    QByteArray csvHeader() const;
    QByteArray csvCells(const Access &access);

private:
    ContextReader &m_reader;
    QList<QByteArray> m_names;
    bool m_values = false;
};

} // namespace memhist
