// SPDX-License-Identifier: MIT
// How the command line and the viewer say what context a history holds: "pcs, map, modules,
// symbols, lines, disassembly", "pcs only (no memory map or modules: no symbols)", "none".
#pragma once

#include <QString>
#include <QStringList>

namespace memhist {

// `parts`: names from contextschema::part, in their order (ContextSummary::parts,
// ContextReader::parts()).
QString contextPartsText(const QStringList &parts);

} // namespace memhist
