// SPDX-License-Identifier: MIT
// The SQL that reads the optional thread_spans table (written by HistoryWriter::addThreadSpan; its
// definition is in storage/schema.h), in one reviewed place.
#pragma once

#include "core/storage/statementlist.h"

namespace memhist::statements {

inline constexpr const char *threadSpansTableExists
    = "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'thread_spans'";

// The span holding ?1, if any: spans of one timeline never overlap, so the first span ending at or
// after ?1 (idx_thread_spans_1) is the only candidate; the caller checks that it starts at or before.
inline constexpr const char *threadSpanEndingAtOrAfter
    = "SELECT thread_id, transition_first, transition_last FROM thread_spans "
      "WHERE transition_last >= ?1 ORDER BY transition_last LIMIT 1";

// The spans overlapping [?1, ?2], in time order.
inline constexpr const char *threadSpansOverlapping
    = "SELECT thread_id, transition_first, transition_last FROM thread_spans "
      "WHERE transition_last >= ?1 AND transition_first <= ?2 ORDER BY transition_last";

// The half-axis query's thread filter walks the spans in batches of ?2, in its direction: forward
// the spans ending at or after ?1, backward those ending at or before ?1 (the span straddling the
// start comes from threadSpanEndingAtOrAfter). Both are one index range read (idx_thread_spans_1).
inline constexpr const char *threadSpansEndingFrom
    = "SELECT thread_id, transition_first, transition_last FROM thread_spans "
      "WHERE transition_last >= ?1 ORDER BY transition_last LIMIT ?2";
inline constexpr const char *threadSpansEndingUpTo
    = "SELECT thread_id, transition_first, transition_last FROM thread_spans "
      "WHERE transition_last <= ?1 ORDER BY transition_last DESC LIMIT ?2";

// One row per thread: its spans, the transitions it ran, its first and last transition.
inline constexpr const char *threadSummaries
    = "SELECT thread_id, count(*), sum(transition_last - transition_first + 1), min(transition_first), "
      "max(transition_last) FROM thread_spans GROUP BY thread_id ORDER BY thread_id";

// How many threads ran (`memhist info`, the viewer's history line).
inline constexpr const char *threadCount = "SELECT count(DISTINCT thread_id) FROM thread_spans";

inline constexpr NamedStatement threadSpanStatements[] = {
    MEMHIST_STATEMENT(threadSpansTableExists),
    MEMHIST_STATEMENT(threadSpanEndingAtOrAfter),
    MEMHIST_STATEMENT(threadSpansOverlapping),
    MEMHIST_STATEMENT(threadSpansEndingFrom),
    MEMHIST_STATEMENT(threadSpansEndingUpTo),
    MEMHIST_STATEMENT(threadSummaries),
    MEMHIST_STATEMENT(threadCount),
};

} // namespace memhist::statements
