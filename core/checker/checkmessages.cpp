// SPDX-License-Identifier: MIT
#include "core/checker/checkmessages.h"

#include "core/model/numbertext.h"
#include "core/model/types.h"

namespace memhist::check {

QString operationName(std::int64_t code)
{
    switch (code) {
    case std::int64_t(Operation::Execute):
        return QStringLiteral("X");
    case std::int64_t(Operation::Write):
        return QStringLiteral("W");
    case std::int64_t(Operation::Read):
        return QStringLiteral("R");
    default:
        return QStringLiteral("operation ") + QString::number(code);
    }
}

QString describe(const SliceRecord &slice)
{
    return QStringLiteral("slice %1 [%2..%3]").arg(slice.id).arg(slice.first).arg(slice.last);
}

QString describe(const ChunkRecord &chunk)
{
    return QStringLiteral("chunk %1 (slice %2, %3, %4..%5)")
        .arg(QString::number(chunk.id), QString::number(chunk.sliceId), operationName(chunk.operation),
            hexText(chunk.first), hexText(chunk.last));
}

QString describeAccess(qint64 rowId, std::int64_t transition)
{
    return QStringLiteral("access %1 (transition %2)").arg(rowId).arg(transition);
}

QString describeNegativeTransition(const char *column, std::int64_t stored)
{
    return QStringLiteral("%1 %2 is negative: %3 (2^63 or more) stored as its two's complement")
        .arg(QLatin1String(column), QString::number(stored), QString::number(fromStored(stored)));
}

QString describeSummaryRow(int shift, std::int64_t block)
{
    if (block == -1)
        return QStringLiteral("address_summary header row (shift %1)").arg(shift);
    return QStringLiteral("address_summary row (shift %1, block %2)").arg(shift).arg(hexText(fromStored(block)));
}

QString describeSummaryBlock(int shift, std::int64_t block)
{
    const std::uint64_t first = fromStored(block) << shift;
    const std::uint64_t last = first + ((std::uint64_t(1) << shift) - 1);
    return QStringLiteral("block %1 (%2..%3)").arg(hexText(fromStored(block)), hexText(first), hexText(last));
}

QString describeSummaryOrigin(
    std::int64_t builtSlices, std::int64_t builtLastChunk, std::int64_t slices, std::int64_t lastChunk)
{
    return QStringLiteral("was built from %1 slices and chunks up to rowid %2, but the history holds %3 slices and "
                          "chunks up to rowid %4")
        .arg(builtSlices)
        .arg(builtLastChunk)
        .arg(slices)
        .arg(lastChunk);
}

QString describeBytes(ByteRange range)
{
    if (range.first == range.last)
        return QStringLiteral("byte %1 is").arg(hexText(range.first));
    return QStringLiteral("bytes %1..%2 are").arg(hexText(range.first), hexText(range.last));
}

QString violation(const QString &object, const QString &problem, const char *property)
{
    return object + QStringLiteral(": ") + problem + QStringLiteral(" [") + QLatin1String(property) + u']';
}

QString countOf(qint64 count, const char *singular, const char *plural)
{
    return QString::number(count) + u' ' + QLatin1String(count == 1 ? singular : plural);
}

} // namespace memhist::check
