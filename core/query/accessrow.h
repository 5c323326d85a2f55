// SPDX-License-Identifier: MIT
// The one decoder of access rows. Every statement that reads accesses (the query engine's in
// querystatements.h, the plane's in planestatements.h) selects the same columns in the same order:
//   rowid, transition, operation, phy_first, linear, size
// so that one function turns any of their rows into an Access.
#pragma once

#include "core/model/types.h"
#include "core/query/rowchecks.h"

namespace memhist::sqlite {
class Statement;
}

namespace memhist::query {

// The columns of an access row, as stored (nothing checked).
AccessRow readAccessRow(const sqlite::Statement &row);

// The Access of a row, operation code and size taken as they are: for a row whose checks passed
// (rowchecks.h), or whose operation and size the caller has made valid.
Access toAccess(const AccessRow &row);

} // namespace memhist::query
