// SPDX-License-Identifier: MIT
#include "core/query/accessrow.h"

#include "core/storage/sqlite.h"

namespace memhist::query {

AccessRow readAccessRow(const sqlite::Statement &row)
{
    AccessRow access { row.int64(0), row.int64(1), row.int64(2), row.int64(3), row.int64(5),
        row.isNull(4) ? std::nullopt : std::optional<std::int64_t>(row.int64(4)) };
    static constexpr const char *columns[] = { "rowid", "transition", "operation", "phy_first", "linear", "size" };
    for (int column = 1; column < 6; ++column) {
        if (!row.isInteger(column) && !(column == 4 && row.isNull(column))) {
            access.notInteger = columns[column];
            break;
        }
    }
    return access;
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
