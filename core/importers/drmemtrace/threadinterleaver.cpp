#include "threadinterleaver.h"

#include <functional>
#include <queue>
#include <tuple>

namespace memhist::drmemtrace {

namespace {

struct Ready
{
    quint64 timestamp;
    qint64 threadId;
    size_t index;

    friend bool operator>(const Ready &a, const Ready &b)
    {
        return std::tie(a.timestamp, a.threadId, a.index) > std::tie(b.timestamp, b.threadId, b.index);
    }
};

} // namespace

bool interleaveThreads(std::vector<std::unique_ptr<ThreadDecoder>> &threads, DecodeContext &context, QString *error)
{
    std::priority_queue<Ready, std::vector<Ready>, std::greater<Ready>> ready;
    // Each thread's first run reads its header up to its first instruction: that gives its thread
    // id and the timestamp of its first segment.
    const auto runThread = [&](size_t index) {
        ThreadDecoder &thread = *threads[index];
        switch (thread.run(context)) {
        case ThreadDecoder::Stop::Yield:
            ready.push({ thread.nextTimestamp(), thread.threadId(), index });
            return true;
        case ThreadDecoder::Stop::End:
            return true;
        case ThreadDecoder::Stop::Failed:
            *error = thread.error();
            return false;
        }
        return false;
    };
    for (size_t i = 0; i < threads.size(); ++i) {
        if (!runThread(i))
            return false;
    }
    while (!ready.empty()) {
        const Ready next = ready.top();
        ready.pop();
        if (!runThread(next.index))
            return false;
    }
    return true;
}

} // namespace memhist::drmemtrace
