// SPDX-License-Identifier: MIT
#include "coreschedule.h"

#include <deque>

namespace memhist::test {

using namespace drmemtrace;

namespace {

constexpr quint16 versionMarker = 12;
constexpr quint64 invalidId = ~quint64(0); // -1: record_filter's idle thread and invalid pid

struct Thread
{
    const Records *records = nullptr;
    size_t bodyStart = 0; // after the header block
    size_t position = 0;
    quint64 tid = 0;
    quint64 pid = 0;
    bool started = false;
    bool done = false;
    int sleepsUntil = -1; // the round it is ready again, while asleep
};

// The header block ends with the CPU_ID marker after the first TIMESTAMP.
size_t headerEnd(const Records &records)
{
    bool sawTimestamp = false;
    for (size_t i = 0; i < records.size(); ++i) {
        const TraceRecord &r = records[i];
        if (r.type == type::marker && r.size == marker::timestamp)
            sawTimestamp = true;
        else if (sawTimestamp && r.type == type::marker && r.size == marker::cpuId)
            return i + 1;
    }
    return 0;
}

quint64 firstOf(const Records &records, quint16 recordType)
{
    for (const TraceRecord &r : records) {
        if (r.type == recordType)
            return r.addr;
    }
    return 0;
}

class Scheduler
{
public:
    Scheduler(const std::vector<Records> &threads, const CoreScheduleOptions &options)
        : m_options(options)
        , m_cores(size_t(options.cores))
        , m_seed(options.seed)
    {
        for (const Records &records : threads) {
            Thread thread;
            thread.records = &records;
            thread.bodyStart = thread.position = headerEnd(records);
            thread.tid = firstOf(records, type::thread);
            thread.pid = firstOf(records, type::pid);
            m_threads.push_back(thread);
        }
        // The synthetic header of an idle core takes the version and file type of the trace.
        for (const TraceRecord &r : threads.front()) {
            if (r.type == type::header)
                m_version = r.addr;
            else if (r.type == type::marker && r.size == marker::fileType)
                m_fileType = r.addr | fileType::coreSharded;
        }
    }

    std::vector<Records> run()
    {
        std::deque<size_t> ready;
        for (size_t t = 0; t < m_threads.size(); ++t)
            ready.push_back(t);
        for (int round = 0; !allDone(); ++round) {
            for (size_t t = 0; t < m_threads.size(); ++t) {
                if (m_threads[t].sleepsUntil == round) {
                    m_threads[t].sleepsUntil = -1;
                    ready.push_back(t);
                }
            }
            for (size_t core = 0; core < m_cores.size(); ++core) {
                const bool startsIdle = core + 1 == m_cores.size() && round < m_options.idleRoundsAtStart;
                if (startsIdle || ready.empty()) {
                    idle(core);
                    continue;
                }
                const size_t t = ready.front();
                ready.pop_front();
                runSlice(core, m_threads[t]);
                if (m_threads[t].done)
                    continue;
                if (nextRandom() % quint32(m_options.sleepOneIn) == 0)
                    m_threads[t].sleepsUntil = round + m_options.sleepRounds;
                else
                    ready.push_back(t);
            }
        }
        for (size_t core = 0; core < m_cores.size(); ++core) {
            Records &records = m_cores[core];
            if (records.empty())
                idle(core);
            if (records.back().type != type::footer)
                records.push_back(record(type::footer, 0, 0));
        }
        return m_cores;
    }

private:
    bool allDone() const
    {
        for (const Thread &thread : m_threads) {
            if (!thread.done)
                return false;
        }
        return true;
    }

    quint32 nextRandom()
    {
        m_seed = m_seed * 1103515245u + 12345u;
        return m_seed >> 16;
    }

    void put(size_t core, TraceRecord r)
    {
        if (r.type == type::marker && r.size == marker::fileType)
            r.addr |= fileType::coreSharded;
        else if (r.type == type::marker && r.size == marker::cpuId)
            r.addr = core;
        m_cores[core].push_back(r);
    }

    void idle(size_t core)
    {
        Records &records = m_cores[core];
        if (records.empty()) {
            records.push_back(record(type::header, 0, m_version));
            records.push_back(marker(versionMarker, m_version));
            records.push_back(marker(marker::fileType, m_fileType));
            records.push_back(record(type::thread, 8, invalidId));
            records.push_back(record(type::pid, 8, invalidId));
            records.push_back(marker(marker::timestamp, invalidId));
            records.push_back(marker(marker::cpuId, invalidId));
        }
        for (int i = 0; i < m_options.idleMarkersPerRound; ++i)
            records.push_back(marker(marker::coreIdle, 0));
    }

    void runSlice(size_t core, Thread &thread)
    {
        const Records &records = *thread.records;
        if (!thread.started) {
            for (size_t i = 0; i < thread.bodyStart; ++i)
                put(core, records[i]);
            thread.started = true;
        } else {
            m_cores[core].push_back(record(type::thread, 0, thread.tid));
            m_cores[core].push_back(record(type::pid, 0, thread.pid));
        }
        quint64 instructions = 0;
        size_t &i = thread.position;
        for (; i < records.size(); ++i) {
            if (instructions >= m_options.quantum && startsInstructionGroup(records, i))
                return;
            put(core, records[i]);
            if (isFetchedInstruction(records[i]))
                ++instructions;
        }
        thread.done = true;
    }

    CoreScheduleOptions m_options;
    std::vector<Thread> m_threads;
    std::vector<Records> m_cores;
    quint64 m_version = 0;
    quint64 m_fileType = fileType::coreSharded;
    quint32 m_seed;
};

} // namespace

std::vector<Records> scheduleOnCores(const std::vector<Records> &threads, const CoreScheduleOptions &options)
{
    return Scheduler(threads, options).run();
}

} // namespace memhist::test
