// SPDX-License-Identifier: MIT
// The display summary's blocks of a view read on the render thread while another thread visits
// them. Reading a block (an SQLite row, inflate, decoding its cells) and rasterising it cost about
// the same on a whole-history view, so on two cores the view takes about the longer of the two
// instead of their sum. The GUI thread is idle meanwhile: it waits for the image.
#pragma once

#include "widgets/plane/planereads.h"

namespace memhist::plane {

// readSummaryBlocks(), with `visit` called on a thread of its own pool: one block at a time, in
// the order read, so that what it builds is exactly what the plain read builds. Every call to
// `visit` has returned when this returns. Visits on the calling thread when the window is small
// (under 2^16 tiles x bins) or the pool has no free thread. False, as readSummaryBlocks() says, when cancelled or on an
// error: the blocks read but not yet visited are then dropped.
bool readSummaryBlocksAlongside(sqlite::Connection &summaryDb, const HistoryOverview &overview,
    const summary::TileWindow &window, const std::function<bool()> &cancelled,
    const summary::TileReader::Visitor &visit, QString *error);

} // namespace memhist::plane
