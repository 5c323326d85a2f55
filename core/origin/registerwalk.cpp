// SPDX-License-Identifier: MIT
#include "core/origin/registerwalk.h"

#include "core/storage/historydatabase.h"
#include "core/storage/threadspans.h"

#include <algorithm>

namespace memhist {

namespace {

// Caches stay small next to a history: cleared when they reach this many entries.
constexpr qsizetype maxCachedRuns = 1 << 14;

} // namespace

RegisterWalk::RegisterWalk(HistoryDatabase &database, InstructionFlowReader &flows)
    : m_database(database)
    , m_flows(flows)
    , m_code(database.connection())
{ }

std::optional<Address> RegisterWalk::pcAt(Transition transition)
{
    CodeStretch stretch;
    if (!m_code.seek(transition, &stretch) || !stretch.run)
        return std::nullopt;
    return pcInRun(*stretch.run, qsizetype(transition.value - stretch.first));
}

const RegisterWalk::RunFamilies &RegisterWalk::familiesOf(const CodeStretch &stretch)
{
    if (m_runs.size() >= maxCachedRuns && !m_runs.contains(stretch.runId))
        m_runs.clear();
    RunFamilies &families = m_runs[stretch.runId];
    const std::size_t wanted = std::size_t(stretch.count);
    if (families.written.size() >= wanted)
        return families;
    std::uint64_t pc = pcInRun(*stretch.run, qsizetype(families.written.size())).value;
    for (std::size_t i = families.written.size(); i < wanted; ++i) {
        const InstructionFlow &flow = m_flows.flowAt(Address { pc });
        // An instruction the walk cannot read may have written anything: it stops every walk.
        const std::uint64_t written = flow.kind == FlowKind::Unknown ? ~std::uint64_t(0) : flow.writtenFamilies;
        const std::uint64_t touched = written | flow.sourceFamilies();
        families.written.push_back(written);
        families.touched.push_back(touched);
        families.writtenPrefix.push_back(written | (i > 0 ? families.writtenPrefix[i - 1] : 0));
        families.touchedPrefix.push_back(touched | (i > 0 ? families.touchedPrefix[i - 1] : 0));
        pc += static_cast<unsigned char>(stretch.run->sizes[qsizetype(i)]);
    }
    return families;
}

std::vector<std::pair<std::uint64_t, std::uint64_t>> RegisterWalk::threadWindow(
    Transition transition, std::uint64_t first, std::uint64_t last)
{
    std::vector<std::pair<std::uint64_t, std::uint64_t>> window;
    const ThreadSpans spans(m_database);
    const std::optional<qint64> thread = spans.available() ? spans.threadAt(transition) : std::nullopt;
    if (!thread) {
        window.emplace_back(first, last);
        return window;
    }
    for (const ThreadSpan &span : spans.spansBetween(Transition { first }, Transition { last })) {
        if (span.threadId == *thread)
            window.emplace_back(std::max(span.first.value, first), std::min(span.last.value, last));
    }
    return window;
}

RegisterStep RegisterWalk::lastWriteBefore(Transition before, std::uint64_t families)
{
    RegisterStep step;
    if (before.value == 0)
        return step;
    const std::uint64_t last = before.value - 1;
    const std::uint64_t first = before.value > maxDistance ? before.value - maxDistance : 0;
    const auto window = threadWindow(before, first, last);
    const RegisterStep end { first > 0 ? RegisterStep::Outcome::TooFar : RegisterStep::Outcome::TraceEnd,
        Transition { first }, Address {} };
    if (window.empty())
        return end;
    CodeStretch stretch;
    if (!m_code.seek(Transition { window.back().second }, &stretch))
        return step;
    std::ptrdiff_t span = std::ptrdiff_t(window.size()) - 1;
    for (;;) {
        const std::uint64_t stretchLast = stretch.first + stretch.count - 1;
        while (span >= 0 && window[std::size_t(span)].first > stretchLast)
            --span;
        if (span < 0)
            return end;
        // The thread's parts of this stretch, latest first.
        for (std::ptrdiff_t k = span; k >= 0 && window[std::size_t(k)].second >= stretch.first; --k) {
            const std::uint64_t from = std::max(stretch.first, window[std::size_t(k)].first);
            const std::uint64_t to = std::min(stretchLast, window[std::size_t(k)].second);
            if (from > to)
                continue;
            if (!stretch.run)
                return { RegisterStep::Outcome::UnknownCode, Transition { to }, Address {} };
            const RunFamilies &run = familiesOf(stretch);
            const std::size_t high = std::size_t(to - stretch.first);
            if ((run.writtenPrefix[high] & families) == 0)
                continue;
            for (std::size_t i = high + 1; i-- > std::size_t(from - stretch.first);) {
                if (run.written[i] & families)
                    return { RegisterStep::Outcome::Found, Transition { stretch.first + i },
                        pcInRun(*stretch.run, qsizetype(i)) };
            }
        }
        if (stretch.first <= first || !m_code.previous(&stretch))
            return end;
    }
}

RegisterStep RegisterWalk::scanAfter(
    Transition after, std::uint64_t families, const std::function<bool(Transition, Address)> &visit)
{
    RegisterStep step;
    const std::uint64_t first = after.value + 1;
    const std::uint64_t last = after.value + maxDistance;
    const auto window = threadWindow(after, first, last);
    const RegisterStep tooFar { RegisterStep::Outcome::TooFar, Transition { last }, Address {} };
    if (window.empty())
        return tooFar;
    CodeStretch stretch;
    if (!m_code.seek(Transition { window.front().first }, &stretch))
        return step;
    std::size_t span = 0;
    for (;;) {
        const std::uint64_t stretchLast = stretch.first + stretch.count - 1;
        while (span < window.size() && window[span].second < stretch.first)
            ++span;
        if (span == window.size())
            return tooFar;
        for (std::size_t k = span; k < window.size() && window[k].first <= stretchLast; ++k) {
            const std::uint64_t from = std::max(stretch.first, window[k].first);
            const std::uint64_t to = std::min(stretchLast, window[k].second);
            if (from > to)
                continue;
            if (!stretch.run)
                return { RegisterStep::Outcome::UnknownCode, Transition { from }, Address {} };
            const RunFamilies &run = familiesOf(stretch);
            if ((run.touchedPrefix[std::size_t(to - stretch.first)] & families) == 0)
                continue;
            for (std::size_t i = std::size_t(from - stretch.first); i <= std::size_t(to - stretch.first); ++i) {
                if ((run.touched[i] & families) == 0)
                    continue;
                const Transition transition { stretch.first + i };
                const Address pc = pcInRun(*stretch.run, qsizetype(i));
                if (!visit(transition, pc))
                    return { RegisterStep::Outcome::Found, transition, pc };
            }
        }
        if (stretchLast >= last || !m_code.next(&stretch))
            return tooFar.transition.value <= stretchLast ? tooFar : step;
    }
}

} // namespace memhist
