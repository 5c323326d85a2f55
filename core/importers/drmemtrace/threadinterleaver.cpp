// SPDX-License-Identifier: MIT
#include "core/importers/drmemtrace/threadinterleaver.h"

#include <functional>
#include <queue>

namespace memhist::drmemtrace {

InterleaveEnd interleaveThreads(std::vector<std::unique_ptr<ThreadDecoder>> &threads, DecodeContext &context,
    const std::optional<InterleaveCut> &cut, QString *error)
{
    std::priority_queue<SegmentKey, std::vector<SegmentKey>, std::greater<SegmentKey>> ready;
    context.beforeCut = cut.has_value();
    // Each file's first run reads its header up to its first instruction: that gives its thread id
    // and the timestamp of its first segment.
    const auto runThread = [&](size_t index) {
        ThreadDecoder &thread = *threads[index];
        switch (thread.run(context)) {
        case ThreadDecoder::Stop::Yield:
            ready.push({ thread.nextTimestamp(), thread.threadId(), index });
            return InterleaveEnd::Complete;
        case ThreadDecoder::Stop::End:
            return InterleaveEnd::Complete;
        case ThreadDecoder::Stop::WindowEnd:
            return InterleaveEnd::WindowEnd;
        case ThreadDecoder::Stop::Failed:
            *error = thread.error();
            return InterleaveEnd::Failed;
        }
        return InterleaveEnd::Failed;
    };
    for (size_t i = 0; i < threads.size(); ++i) {
        if (const InterleaveEnd end = runThread(i); end != InterleaveEnd::Complete)
            return end;
    }
    while (!ready.empty()) {
        const SegmentKey next = ready.top();
        ready.pop();
        if (context.beforeCut && !(next < cut->key)) {
            // Every segment before the cut has run: from here on the timeline is the full import's.
            context.beforeCut = false;
            context.next = Transition { cut->transitionAtCut + quint64(context.instructionsBeforeCut) };
        }
        if (const InterleaveEnd end = runThread(next.index); end != InterleaveEnd::Complete)
            return end;
    }
    return InterleaveEnd::Complete;
}

} // namespace memhist::drmemtrace
