// SPDX-License-Identifier: MIT
// How the checker names what it found: the object (slice, chunk, access, meta key), what is wrong
// with it, and the storage-model property it breaks. Tests and scripts match these texts exactly,
// so every wording lives here.
#pragma once

#include "core/checker/chunkcoverage.h"

#include <QString>
#include <cstdint>

namespace memhist::check {

// The property each violation breaks, quoted in brackets at the end of its message.
namespace property {
inline constexpr auto sqliteIntegrity = "the file passes SQLite's own integrity check (PRAGMA integrity_check)";
// Transitions are stored as int8 and read as signed everywhere (checker, query engine): a writer
// that stored a transition of 2^63 or more wrote a negative value, which no reader can order.
inline constexpr auto transitionRange = "transitions are in [0, 2^63-1]";
inline constexpr auto sliceBounds = "a slice's first transition is not after its last";
inline constexpr auto slicesDisjoint = "slices are stored in transition order and do not overlap";
inline constexpr auto chunkSlice = "a chunk belongs to an existing slice";
inline constexpr auto chunkOperation = "a chunk holds one operation: 1 (X), 2 (W) or 4 (R)";
inline constexpr auto chunkBounds = "a chunk's first address is not after its last";
inline constexpr auto chunkSign = "a chunk does not cross 2^63";
// Readers walk a slice's chunks in idx_chunks_1 order (operation, slice_id, phy_last): the property
// holds in that order, whatever the rowid order (the reference writer inserts them descending).
inline constexpr auto chunksDisjoint = "chunks of one operation in a slice do not overlap in idx_chunks_1 order";
inline constexpr auto accessChunk = "an access belongs to an existing chunk";
inline constexpr auto accessSize = "an access covers at least one byte";
inline constexpr auto accessWrap = "an access does not wrap past 0xffffffffffffffff";
inline constexpr auto accessSizeWidth = "an access covers at most 2^32-1 bytes";
inline constexpr auto integerColumns = "numbers are stored as integers";
inline constexpr auto accessOperation = "an access has its chunk's operation";
inline constexpr auto accessInChunk = "an access lies inside its chunk's address range";
inline constexpr auto accessInSlice = "an access lies in its chunk's slice";
inline constexpr auto accessOrder = "accesses are stored in trace order: transitions never decrease with rowid";
inline constexpr auto chunkCovered = "every byte of a chunk is covered by an access";
inline constexpr auto chunkNotEmpty = "every chunk holds at least one access";
inline constexpr auto chunkCap = "the accesses of a chunk are capped, except within a single transition";
// The optional address summary (storage/addresssummaryformat.h): readers skip the slices it does
// not list, so it must list every slice with a chunk in each block, and be well formed.
inline constexpr auto addressSummary = "the address summary lists exactly the slices with a chunk in each block";
inline constexpr auto threadSpans = "thread spans cover first..last with first <= last and never overlap";
inline constexpr auto metaNumber = "meta values are numbers";
inline constexpr auto metaCount = "meta counts match the database";
} // namespace property

// One row of the slices table, transitions as stored (signed; valid ones are >= 0).
struct SliceRecord
{
    qint64 id = 0;
    std::int64_t first = 0;
    std::int64_t last = 0;
};

// One row of the chunks table, addresses as unsigned values; operation as stored (maybe invalid).
struct ChunkRecord
{
    qint64 id = 0;
    qint64 sliceId = 0;
    std::uint64_t first = 0;
    std::uint64_t last = 0;
    std::int64_t operation = 0;
};

// "X", "W", "R", or "operation 3" for a code that is none of them.
QString operationName(std::int64_t code);

// "slice 2 [10..20]"
QString describe(const SliceRecord &slice);
// "chunk 12 (slice 3, W, 0x1000..0x1007)"
QString describe(const ChunkRecord &chunk);
// "access 57 (transition 9)"
QString describeAccess(qint64 rowId, std::int64_t transition);
// "transition_first -2 is negative: 18446744073709551614 (2^63 or more) stored as its two's complement",
// for a stored transition below 0; `column` names it.
QString describeNegativeTransition(const char *column, std::int64_t stored);
// "address_summary row (shift 9, block 0x2aaaaab3)" for the row whose first block is `block`;
// "address_summary header row (shift 9)" for block -1.
QString describeSummaryRow(int shift, std::int64_t block);
// "block 0x2aaaaab3 (0x555555666000..0x5555556661ff)": a block of 2^shift bytes and its addresses.
QString describeSummaryBlock(int shift, std::int64_t block);
// Why an address summary does not describe the history it is in (rows were added or removed after
// it was built): "was built from 3 slices and chunks up to rowid 40, but the history holds 4 slices
// and chunks up to rowid 52".
QString describeSummaryOrigin(
    std::int64_t builtSlices, std::int64_t builtLastChunk, std::int64_t slices, std::int64_t lastChunk);
// "byte 0x1004 is" or "bytes 0x1004..0x1005 are", to start a sentence about a range.
QString describeBytes(ByteRange range);

// "OBJECT: PROBLEM [PROPERTY]"
QString violation(const QString &object, const QString &problem, const char *property);

// "1 chunk holds" / "3 chunks hold": a count with its noun and verb agreeing.
QString countOf(qint64 count, const char *singular, const char *plural);

} // namespace memhist::check
