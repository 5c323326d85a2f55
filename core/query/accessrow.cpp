// SPDX-License-Identifier: MIT
#include "core/query/accessrow.h"

#include "core/storage/sqlite.h"

namespace memhist::query {

AccessRow readAccessRow(const sqlite::Statement &row)
{
    return { row.int64(0), row.int64(1), row.int64(2), row.int64(3), row.int64(5),
        row.isNull(4) ? std::nullopt : std::optional<std::int64_t>(row.int64(4)) };
}

Access toAccess(const AccessRow &row)
{
    Access access;
    access.rowId = RowId { row.rowId };
    access.transition = Transition { fromStored(row.transition) };
    access.operation = Operation(row.operation);
    access.physical = Address { fromStored(row.first) };
    if (row.linear)
        access.linear = Address { fromStored(*row.linear) };
    access.size = std::uint32_t(row.size);
    return access;
}

} // namespace memhist::query
