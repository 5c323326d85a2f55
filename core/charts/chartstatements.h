// SPDX-License-Identifier: MIT
// The SQL of the charts (chartdata.cpp), in one reviewed place.
#pragma once

#include "core/storage/statementlist.h"

namespace memhist::charts::statements {

// The only row read of the charts: consecutive rows of the accesses table by rowid, a range scan of
// the table's own b-tree.
inline constexpr const char *rowsInRowIdRange = "SELECT transition, operation, phy_first, size FROM accesses "
                                                "WHERE rowid >= ?1 AND rowid < ?2 ORDER BY rowid";

inline constexpr memhist::statements::NamedStatement chartStatements[] = {
    MEMHIST_STATEMENT(rowsInRowIdRange),
};

} // namespace memhist::charts::statements
