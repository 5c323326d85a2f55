// SPDX-License-Identifier: MIT
// The SQL of the origin search (originfinder.h): the access asked about, by its rowid. (The
// accesses of one instruction are a rowid range: search's accessesBetween.) The columns are those
// every access statement selects (core/query/accessrow.h).
#pragma once

#include "core/storage/statementlist.h"

namespace memhist::originstatements {

inline constexpr const char *accessByRowId
    = "SELECT rowid, transition, operation, phy_first, linear, size FROM accesses WHERE rowid = ?1";

inline constexpr memhist::statements::NamedStatement originStatements[] = {
    MEMHIST_STATEMENT(accessByRowId),
};

} // namespace memhist::originstatements
