// SPDX-License-Identifier: MIT
// Starting an import at a window far into a chunked trace without inflating the chunks before it
// (DynamoRIO's fast-forward, its issue #5538). Every chunk of a thread's zip but the last holds
// exactly chunk_instr_count fetched instructions (the CHUNK_INSTR_COUNT marker of its header), and
// every chunk after the first starts by restating the thread's last timestamp. So:
// - one thread: instruction k is in chunk k / chunk_instr_count; the import starts there.
// - several threads: the timeline is the merge of the threads' segments by their keys (timestamp,
//   thread id, file), each thread's keys increasing. The restated timestamp at the top of chunk c of
//   thread u is the key of u's instruction c * chunk_instr_count, which therefore has exactly c *
//   chunk_instr_count instructions of u before it, and between c_v and c_v + 1 chunks of every other
//   thread v, where c_v is v's last chunk whose top key is smaller. The plan takes the latest such
//   chunk top whose worst case still lies at or before the window's start: u starts at chunk c, each
//   v at chunk c_v, and what v holds before the cut key (at most one chunk) is read and counted
//   without being stored, until every thread is past the cut; from there the timeline is the full
//   import's, at a known transition.
// Files that are not zips of such chunks, and core-sharded files (a chunk does not restate which
// thread runs), start at their beginning.
#pragma once

#include "core/importers/drmemtrace/recordreader.h"
#include "core/importers/drmemtrace/threadinterleaver.h"

#include <optional>
#include <vector>

namespace memhist::drmemtrace {

// What a thread's zip says about its chunks, from the central directory and the first records of
// its members, without inflating the rest.
struct ThreadChunks
{
    qint64 threadId = -1;
    bool coreSharded = false;
    bool seekable = false; // a zip of chunks with its chunk_instr_count (and, with tops, every top read)
    quint64 chunkInstructions = 0;
    int chunkCount = 0;
    // The timestamp restated at the top of chunk c, for c >= 1 (element 0 is unused).
    std::vector<quint64> topTimestamps;
};

// Reads what seeking needs from a thread file whose reader is open and has read nothing: the header
// at the start of chunk 0 and, when `withTops`, the first records of every later chunk. The reader
// must then be moved with seekPart() before it is read. False + *error on a read error; a file that
// cannot seek is no error (seekable stays false).
bool readThreadChunks(RecordReader &reader, bool withTops, ThreadChunks *chunks, QString *error);

struct SeekPlan
{
    std::vector<int> startChunk; // per thread, 0 for the ones read from their start
    // The instructions in the chunks left unread: the timeline position of the cut, before the
    // instructions counted on the way to it.
    quint64 instructionsBefore = 0;
    // Several threads: the cut key (see above). None when the threads start exactly at the cut (one
    // thread) or at their beginnings.
    std::optional<SegmentKey> cut;
};

// Where each of `threads` (listed as the interleaver lists them) starts so that at most `skip`
// instructions of the timeline lie before the cut, as many as the chunk boundaries allow.
SeekPlan planChunkSeek(const std::vector<ThreadChunks> &threads, quint64 skip);

} // namespace memhist::drmemtrace
