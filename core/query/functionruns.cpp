// SPDX-License-Identifier: MIT
#include "core/query/functionruns.h"

#include "core/context/contextschema.h"
#include "core/context/contextstatements.h"
#include "core/model/numbertext.h"
#include "core/storage/historydatabase.h"

#include <QStringList>
#include <algorithm>
#include <optional>

namespace memhist {

namespace {

// Names that contain the one asked for (LIKE: ASCII case folded), shortest first: the "did you
// mean" of an unknown name. A scan of the functions table, which holds the executed functions only.
constexpr const char *functionNamesContaining
    = "SELECT DISTINCT name FROM functions WHERE name LIKE '%' || ?1 || '%' ESCAPE '\\' "
      "ORDER BY length(name), name LIMIT 5";

// Kept small next to a history: cleared when it reaches this many runs.
constexpr qsizetype maxCachedRuns = 1 << 16;

QString likePattern(QString text)
{
    text.replace(u'\\', QStringLiteral("\\\\"));
    text.replace(u'%', QStringLiteral("\\%"));
    text.replace(u'_', QStringLiteral("\\_"));
    return text;
}

} // namespace

FunctionRuns::FunctionRuns(HistoryDatabase &database, FunctionFilter filter)
    : m_database(database)
    , m_filter(std::move(filter))
{ }

FunctionRuns::~FunctionRuns() = default;

bool FunctionRuns::load(QString *error)
{
    if (!m_loaded) {
        m_loaded = true;
        ContextReader reader(m_database);
        if (!reader.has(contextschema::part::pcs)) {
            m_loadError = QStringLiteral(
                "the history has no PCs, so no accesses by function (import a trace with instructions: a Lackey "
                "log, a drmemtrace or Tenet trace, or memhist record)");
        } else if (!reader.has(contextschema::part::symbols)) {
            m_loadError = QStringLiteral("the history has no symbols (no memory map or modules), so no function names");
        } else {
            m_functions = reader.functionsNamed(m_filter.name);
            if (m_functions.isEmpty()) {
                QStringList close;
                sqlite::Statement names = m_database.connection().prepare(functionNamesContaining);
                // A word of the name is enough: "fil" finds "fill", "fill_rows".
                const QString key = m_filter.name.section(u'(', 0, 0).trimmed();
                if (names.isValid() && !key.isEmpty()) {
                    names.bind(1, likePattern(key));
                    while (names.step() == SQLITE_ROW)
                        close << names.text(0);
                }
                m_loadError = QStringLiteral("no function named '%1' ran (the history names only the functions that "
                                             "ran%2)")
                                  .arg(m_filter.name,
                                      close.isEmpty()
                                          ? QString()
                                          : QStringLiteral("; did you mean %1?").arg(close.join(QStringLiteral(", "))));
            }
        }
        if (m_loadError.isEmpty()) {
            for (const FunctionInfo &function : std::as_const(m_functions))
                m_ranges.push_back(function.range);
            std::sort(m_ranges.begin(), m_ranges.end(),
                [](const AddressRange &a, const AddressRange &b) { return a.first < b.first; });
            m_walk = std::make_unique<CodeTraceWalk>(m_database.connection());
            if (m_filter.withCallees) {
                findExecutions();
                m_loadError = this->error();
                if (m_loadError.isEmpty() && m_executions.size() > m_maxExecutions) {
                    m_loadError = QStringLiteral("%1 ran more than %2 times: too many executions to follow its "
                                                 "callees (query its own accesses, without --callees)")
                                      .arg(m_filter.name, countText(m_maxExecutions));
                    m_executions = {};
                }
            }
        }
    }
    if (!m_loadError.isEmpty())
        *error = m_loadError;
    return m_loadError.isEmpty();
}

bool FunctionRuns::inFunctions(std::uint64_t pc) const
{
    // A name has one function per module (and per overload): a handful of ranges.
    for (const AddressRange &range : m_ranges) {
        if (range.contains(Address { pc }))
            return true;
    }
    return false;
}

const std::vector<std::pair<std::uint32_t, std::uint32_t>> &FunctionRuns::insideOf(std::uint64_t id, const CodeRun &run)
{
    const auto known = m_inside.constFind(id);
    if (known != m_inside.constEnd())
        return *known;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> intervals;
    std::uint64_t pc = run.pc.value;
    for (qsizetype i = 0; i < run.sizes.size(); ++i) {
        if (inFunctions(pc)) {
            if (!intervals.empty() && intervals.back().second == std::uint32_t(i))
                ++intervals.back().second;
            else
                intervals.emplace_back(std::uint32_t(i), std::uint32_t(i + 1));
        }
        pc += static_cast<unsigned char>(run.sizes[i]);
    }
    if (m_inside.size() >= maxCachedRuns)
        m_inside.clear();
    return *m_inside.insert(id, std::move(intervals));
}

bool FunctionRuns::seekStretch(std::int64_t transition, CodeStretch *stretch)
{
    if (transition >= 0 && m_walk->seek(Transition { std::uint64_t(transition) }, stretch))
        return true;
    sqlite::Connection &connection = m_database.connection();
    if (m_forward) {
        // Before the trace's first row (or in a gap): the first row after.
        sqlite::Statement after = connection.prepare(contextstatements::codeTraceRowAtOrAfter);
        after.bind(1, std::max<std::int64_t>(transition, 0));
        if (!after.isValid() || !stepped(after))
            return false;
        return m_walk->seek(Transition { fromStored(after.int64(0)) }, stretch);
    }
    // Past the trace's end: its last stretch. The walk is placed again on it, since a next() that
    // ran off the end leaves the walk without a row.
    if (transition < 0)
        return false;
    sqlite::Statement before = connection.prepare(contextstatements::codeTraceRowAtOrBefore);
    before.bind(1, transition);
    if (!before.isValid() || !stepped(before))
        return false;
    CodeStretch last;
    if (!m_walk->seek(Transition { fromStored(before.int64(0)) }, &last))
        return false;
    CodeStretch following;
    while (m_walk->next(&following) && following.first <= std::uint64_t(transition))
        last = following;
    return m_walk->seek(Transition { last.first }, stretch);
}

void FunctionRuns::queueStretch(const CodeStretch &stretch)
{
    if (!stretch.run)
        return;
    const auto &intervals = insideOf(stretch.runId, *stretch.run);
    const auto add = [&](const std::pair<std::uint32_t, std::uint32_t> &interval) {
        if (interval.first >= stretch.count)
            return;
        std::int64_t first = std::int64_t(stretch.first + interval.first);
        std::int64_t last = std::int64_t(stretch.first + std::min<std::uint64_t>(interval.second, stretch.count)) - 1;
        if (m_forward) {
            if (last < m_start)
                return;
            first = std::max(first, m_start);
        } else {
            if (first > m_start)
                return;
            last = std::min(last, m_start);
        }
        m_pending.emplace_back(first, last);
    };
    if (m_forward)
        std::for_each(intervals.begin(), intervals.end(), add);
    else
        std::for_each(intervals.rbegin(), intervals.rend(), add);
}

void FunctionRuns::start(bool forward, std::int64_t start)
{
    m_forward = forward;
    m_start = start;
    m_started = false;
    m_ended = false;
    m_pending.clear();
    if (m_filter.withCallees) {
        // Forward: the first execution that ends at or after the start; backward: the last that
        // begins at or before it (stored as index + 1, 0 = none).
        const auto found = forward ? std::partition_point(m_executions.begin(), m_executions.end(),
                               [start](const Interval &e) { return e.second < start; })
                                   : std::partition_point(m_executions.begin(), m_executions.end(),
                                       [start](const Interval &e) { return e.first <= start; });
        m_nextExecution = std::size_t(found - m_executions.begin());
    }
}

const QString &FunctionRuns::error() const
{
    static const QString none;
    if (!m_readError.isEmpty())
        return m_readError;
    return m_walk ? m_walk->error() : none;
}

bool FunctionRuns::stepped(sqlite::Statement &statement)
{
    const int rc = statement.step();
    if (rc != SQLITE_ROW && rc != SQLITE_DONE && m_readError.isEmpty())
        m_readError = QStringLiteral("cannot read the code trace: ") + m_database.connection().errorFor(rc);
    return rc == SQLITE_ROW;
}

bool FunctionRuns::next(std::int64_t *first, std::int64_t *last, bool *found)
{
    *found = false;
    if (m_filter.withCallees) {
        if (m_forward) {
            if (m_nextExecution >= m_executions.size())
                return true;
            const Interval &execution = m_executions[m_nextExecution++];
            *first = std::max(execution.first, m_start);
            *last = execution.second;
        } else {
            if (m_nextExecution == 0)
                return true;
            const Interval &execution = m_executions[--m_nextExecution];
            *first = execution.first;
            *last = std::min(execution.second, m_start);
        }
        *found = true;
        return true;
    }
    if (!m_walk)
        return true;
    // One stretch more of the code walk (none past its end).
    const auto pull = [this] {
        CodeStretch stretch;
        bool more = false;
        if (!m_started) {
            m_started = true;
            more = seekStretch(m_start, &stretch);
        } else if (!m_ended) {
            more = m_forward ? m_walk->next(&stretch) : m_walk->previous(&stretch);
        }
        if (!more) {
            m_ended = true;
            return;
        }
        queueStretch(stretch);
    };
    while (m_pending.empty() && !m_ended)
        pull();
    if (m_pending.empty())
        return error().isEmpty();
    Interval run = m_pending.front();
    m_pending.pop_front();
    // Runs that touch are one: the stretch after a run (one pull, not a search) may continue it.
    for (;;) {
        if (m_pending.empty() && !m_ended)
            pull();
        if (m_pending.empty())
            break;
        const Interval &following = m_pending.front();
        if (m_forward ? following.first != run.second + 1 : following.second + 1 != run.first)
            break;
        (m_forward ? run.second : run.first) = m_forward ? following.second : following.first;
        m_pending.pop_front();
    }
    *first = run.first;
    *last = run.second;
    *found = true;
    return error().isEmpty();
}

void FunctionRuns::findExecutions()
{
    std::vector<std::uint64_t> entries;
    for (const FunctionInfo &function : std::as_const(m_functions))
        entries.push_back(function.range.first.value);
    const auto isEntry
        = [&entries](std::uint64_t pc) { return std::find(entries.begin(), entries.end(), pc) != entries.end(); };
    // The walk's state: the outermost execution running, if any.
    bool active = false;
    std::int64_t executionStart = 0;
    std::optional<std::uint64_t> callSite; // of the outermost execution's call
    std::optional<std::uint64_t> returnTo;
    std::uint64_t depth = 0;
    // The stretch before, for the instruction before an entry at the start of a stretch.
    std::optional<CodeStretch> previous;
    std::int64_t traceEnd = 0;

    m_forward = true;
    CodeStretch stretch;
    bool more = seekStretch(0, &stretch);
    for (; more; more = m_walk->next(&stretch)) {
        traceEnd = std::int64_t(stretch.first + stretch.count);
        const CodeRun *run = stretch.run;
        if (!run) {
            previous.reset();
            continue;
        }
        // Most stretches have nothing to say: no entry, and not the caller's code being returned to.
        const qsizetype count = qsizetype(std::min<std::uint64_t>(stretch.count, std::uint64_t(run->sizes.size())));
        bool interesting = false;
        {
            std::uint64_t pc = run->pc.value;
            const std::uint64_t firstPc = pc;
            for (qsizetype i = 0; i < count && !interesting; ++i) {
                interesting = isEntry(pc);
                pc += static_cast<unsigned char>(run->sizes[i]);
            }
            if (!interesting && active && returnTo)
                interesting = firstPc <= *returnTo && *returnTo < pc;
        }
        if (interesting) {
            // The instruction before index 0: the last of the stretch before, when it ends here.
            std::optional<std::uint64_t> previousPc;
            std::uint64_t previousSize = 0;
            if (previous && previous->run && previous->first + previous->count == stretch.first) {
                std::uint64_t pc = previous->run->pc.value;
                for (std::uint64_t i = 0; i + 1 < previous->count; ++i)
                    pc += static_cast<unsigned char>(previous->run->sizes[qsizetype(i)]);
                previousPc = pc;
                previousSize = static_cast<unsigned char>(previous->run->sizes[qsizetype(previous->count - 1)]);
            }
            std::uint64_t pc = run->pc.value;
            for (qsizetype i = 0; i < count; ++i) {
                const auto transition = std::int64_t(stretch.first + std::uint64_t(i));
                if (!active) {
                    if (isEntry(pc)) {
                        active = true;
                        depth = 1;
                        executionStart = transition;
                        callSite = previousPc;
                        returnTo.reset();
                        if (previousPc && previousSize != 0)
                            returnTo = *previousPc + previousSize;
                    }
                } else if (isEntry(pc) && callSite && previousPc == callSite) {
                    ++depth; // called again from the same site: its return is not the outer one's
                } else if (returnTo && pc == *returnTo && --depth == 0) {
                    m_executions.emplace_back(executionStart, transition - 1);
                    active = false;
                    if (m_executions.size() > m_maxExecutions)
                        return; // refused by load()
                }
                previousPc = pc;
                previousSize = static_cast<unsigned char>(run->sizes[i]);
                pc += previousSize;
            }
        }
        previous = stretch;
    }
    if (active)
        m_executions.emplace_back(executionStart, traceEnd - 1);
}

} // namespace memhist
