// SPDX-License-Identifier: MIT
#include "core/query/rowchecks.h"

#include "core/checker/checkmessages.h"
#include "core/model/numbertext.h"
#include "core/model/types.h"

namespace memhist::query {

namespace {

using namespace memhist::check;

// Field by field: the record's types are the checker's to choose (stored or unsigned values).
SliceRecord record(const SliceRow &slice)
{
    SliceRecord result;
    result.id = slice.id;
    result.first = decltype(result.first)(slice.first);
    result.last = decltype(result.last)(slice.last);
    return result;
}

ChunkRecord record(const ChunkRow &chunk)
{
    return { chunk.id, chunk.sliceId, fromStored(chunk.first), fromStored(chunk.last), chunk.operation };
}

QString describe(const AccessRow &access)
{
    return describeAccess(access.rowId, access.transition);
}

// Size, wrap: what an access needs before its bytes can be compared with anything.
QString byteProblem(const AccessRow &access)
{
    if (access.notInteger) {
        return violation(describe(access),
            QStringLiteral("%1 is not stored as an integer").arg(QLatin1String(access.notInteger)),
            property::integerColumns);
    }
    if (access.size < 1)
        return violation(describe(access), QStringLiteral("size is %1").arg(access.size), property::accessSize);
    if (access.size > std::int64_t(0xffffffff)) {
        return violation(
            describe(access), QStringLiteral("size is %1, past 32 bits").arg(access.size), property::accessSizeWidth);
    }
    const std::uint64_t first = fromStored(access.first);
    if (first + std::uint64_t(access.size - 1) < first) {
        return violation(describe(access),
            QStringLiteral("%1 bytes at %2 wrap past 0xffffffffffffffff").arg(access.size).arg(hexText(first)),
            property::accessWrap);
    }
    return {};
}

} // namespace

QString sliceProblem(const SliceRow &slice, const SliceRow *previous)
{
    if (slice.first < 0) {
        return violation(describe(record(slice)), describeNegativeTransition("transition_first", slice.first),
            property::transitionRange);
    }
    if (slice.last < 0) {
        return violation(describe(record(slice)), describeNegativeTransition("transition_last", slice.last),
            property::transitionRange);
    }
    if (slice.first > slice.last) {
        return violation(describe(record(slice)),
            QStringLiteral("transition_first %1 is after transition_last %2").arg(slice.first).arg(slice.last),
            property::sliceBounds);
    }
    if (previous && slice.first < previous->last) {
        return violation(describe(record(slice)),
            QStringLiteral("starts at transition %1, before the end of the previous %2")
                .arg(QString::number(slice.first), describe(record(*previous))),
            property::slicesDisjoint);
    }
    return {};
}

QString chunkOperationProblem(const ChunkRow &chunk)
{
    if (isValidOperationCode(chunk.operation))
        return {};
    return violation(describe(record(chunk)), QStringLiteral("operation %1 is none of 1, 2, 4").arg(chunk.operation),
        property::chunkOperation);
}

QString chunkProblem(const ChunkRow &chunk, const ChunkRow *previous)
{
    const std::uint64_t first = fromStored(chunk.first);
    const std::uint64_t last = fromStored(chunk.last);
    if (first > last) {
        return violation(describe(record(chunk)),
            QStringLiteral("phy_first %1 is after phy_last %2").arg(hexText(first), hexText(last)),
            property::chunkBounds);
    }
    if (chunk.first > chunk.last) {
        return violation(describe(record(chunk)),
            QStringLiteral("contains both %1 and %2: idx_chunks_1 orders phy_last as signed, where this chunk ends "
                           "before it starts")
                .arg(hexText(signBoundary - 1), hexText(signBoundary)),
            property::chunkSign);
    }
    // Index order is signed order: that is the order in which chunks must not overlap.
    if (previous && chunk.first <= previous->last) {
        return violation(describe(record(chunk)),
            QStringLiteral("starts at %1, not after the end of %2, the chunk before it in idx_chunks_1 order")
                .arg(hexText(first), describe(record(*previous))),
            property::chunksDisjoint);
    }
    return {};
}

QString accessInChunkProblem(const AccessRow &access, const ChunkRow &chunk, const SliceRow &slice)
{
    if (access.transition < 0) {
        return violation(
            describe(access), describeNegativeTransition("transition", access.transition), property::transitionRange);
    }
    if (access.operation != chunk.operation) {
        return violation(describe(access),
            QStringLiteral("is %1 but its chunk %2 is %3")
                .arg(operationName(access.operation), QString::number(chunk.id), operationName(chunk.operation)),
            property::accessOperation);
    }
    if (QString problem = byteProblem(access); !problem.isEmpty())
        return problem;
    const std::uint64_t first = fromStored(access.first);
    const std::uint64_t last = first + std::uint64_t(access.size - 1);
    if (first < fromStored(chunk.first) || last > fromStored(chunk.last)) {
        return violation(describe(access),
            QStringLiteral("bytes %1..%2 reach outside its %3")
                .arg(hexText(first), hexText(last), describe(record(chunk))),
            property::accessInChunk);
    }
    if (access.transition < slice.first || access.transition > slice.last) {
        return violation(describe(access),
            QStringLiteral("transition %1 is outside its %2")
                .arg(QString::number(access.transition), describe(record(slice))),
            property::accessInSlice);
    }
    return {};
}

QString scannedAccessProblem(const AccessRow &access, std::int64_t lowest, std::int64_t highest)
{
    if (access.transition < 0) {
        return violation(
            describe(access), describeNegativeTransition("transition", access.transition), property::transitionRange);
    }
    if (!isValidOperationCode(access.operation)) {
        return violation(describe(access),
            QStringLiteral("operation %1 is none of 1, 2, 4, so it is not its chunk's").arg(access.operation),
            property::accessOperation);
    }
    if (QString problem = byteProblem(access); !problem.isEmpty())
        return problem;
    if (access.transition < lowest || access.transition > highest) {
        return violation(describe(access),
            QStringLiteral("lies among the rows of transitions %1..%2 (found by binary search over rowids), so "
                           "transitions decrease with rowid next to it")
                .arg(lowest)
                .arg(highest),
            property::accessOrder);
    }
    return {};
}

QString orderProblem(
    qint64 earlierRowId, std::int64_t earlierTransition, qint64 laterRowId, std::int64_t laterTransition)
{
    if (laterTransition >= earlierTransition)
        return {};
    return violation(describeAccess(laterRowId, laterTransition),
        QStringLiteral("transition %1 is before transition %2 of the earlier access %3")
            .arg(laterTransition)
            .arg(earlierTransition)
            .arg(earlierRowId),
        property::accessOrder);
}

QString negativeTransitionProblem(qint64 rowId, std::int64_t transition)
{
    if (transition >= 0)
        return {};
    return violation(describeAccess(rowId, transition), describeNegativeTransition("transition", transition),
        property::transitionRange);
}

} // namespace memhist::query
