// SPDX-License-Identifier: MIT
// The statements of value search (valuesearch.h) that are not the value tables' own
// (core/values/valuestatements.h).
#pragma once

#include "core/storage/statementlist.h"

namespace memhist::searchstatements {

// The accesses of rowids ?1..?2 (those of a value block with a match), in the columns every access
// statement selects (core/query/accessrow.h).
inline constexpr const char *accessesBetween = "SELECT rowid, transition, operation, phy_first, linear, size "
                                               "FROM accesses WHERE rowid BETWEEN ?1 AND ?2 ORDER BY rowid";
// The first rowid of the value block that holds rowid ?1, if one may: the last starting at or before it.
inline constexpr const char *blockStartAtOrBefore
    = "SELECT access_first FROM access_value_blocks WHERE access_first <= ?1 ORDER BY access_first DESC LIMIT 1";

inline constexpr memhist::statements::NamedStatement searchStatements[] = {
    MEMHIST_STATEMENT(accessesBetween),
    MEMHIST_STATEMENT(blockStartAtOrBefore),
};

} // namespace memhist::searchstatements
