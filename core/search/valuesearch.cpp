// SPDX-License-Identifier: MIT
#include "core/search/valuesearch.h"

#include "core/query/accessrow.h"
#include "core/query/rowchecks.h"
#include "core/query/rowidsearch.h"
#include "core/search/lastwrites.h"
#include "core/search/searchstatements.h"
#include "core/storage/historydatabase.h"
#include "core/storage/historystatements.h"
#include "core/values/accessvaluereader.h"
#include "core/values/valuefilter.h"
#include "core/values/valuegroups.h"
#include "core/values/valuestatements.h"

#include <ctime>
#include <limits>

namespace memhist {

namespace {

enum class Way {
    Window,
    Values,
};

// The searching thread's CPU time: what a step cost, whatever else the machine runs (wall-clock
// time on a loaded machine charged a step for the time it waited for a processor, and made the
// search take the slower way for a while).
std::int64_t threadCpuNs()
{
    timespec now {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return std::int64_t(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

// What a rowid cost on one way, over its recent steps (each older step weighs half as much as the
// next), so that one odd step does not switch the way.
struct WayCost
{
    double ns = 0;
    double rows = 0;

    bool measured() const { return rows > 0; }
    double perRow() const { return ns / rows; }
    void add(double stepNs, double stepRows)
    {
        ns = ns / 2 + stepNs;
        rows = rows / 2 + stepRows;
    }
};

} // namespace

class ValueSearchEngine::Private
{
public:
    Private(HistoryDatabase &database, ValueSearchTuning tuning)
        : tuning(tuning)
        , database(database)
        , connection(database.connection())
        , engine(database)
        , values(connection)
        , lastWrites(database)
        , rowIds(connection)
    {
        filtersAfter = connection.prepare(valueschema::filtersAfter);
        filtersBefore = connection.prepare(valueschema::filtersBefore);
        blocksAfter = connection.prepare(valueschema::blocksAfter);
        blocksBefore = connection.prepare(valueschema::blocksBefore);
        blockAt = connection.prepare(valueschema::blockAt);
        accessesBetween = connection.prepare(searchstatements::accessesBetween);
        blockStart = connection.prepare(searchstatements::blockStartAtOrBefore);
        firstAccess = connection.prepare(statements::firstAccess);
        lastAccess = connection.prepare(statements::lastAccess);
        indexed = filtersAfter.isValid() && filtersBefore.isValid();
        // The second level (valuegroups.h), when the history has it: its info row gives the group size.
        groupBits = connection.prepare(valueschema::groupBits);
        if (indexed && groupBits.isValid()) {
            groupBits.bind(1, valuegroups::infoKey);
            if (groupBits.step() == SQLITE_ROW && groupBits.blobView(0).size() == 1) {
                const int shift = std::uint8_t(groupBits.blobView(0)[0]);
                groupShift = shift >= 1 && shift <= 40 ? shift : 0;
            }
            groupBits.reset();
        }
    }

    // One search: the page being filled and the frontier, the rowid up to which (forward; down to
    // which, backward) every access has been decided.
    struct Walk
    {
        const ValueSearch *search = nullptr;
        bool forward = true;
        std::int64_t frontier = 0;
        std::int64_t start = 0;
        std::int64_t end = 0; // the last rowid to decide (forward), the first (backward)
        QueryPage *page = nullptr;
        bool done = false;
        // The value's pairs and windows (valuegroups.h; empty: groups are not used), and which
        // groups of the span last read may hold it.
        std::vector<std::uint32_t> needleSlots;
        std::int64_t span = -1;
        std::uint64_t spanGroups[8] = {};

        bool full() const { return quint64(page->accesses.size()) >= search->query.limit; }
        double share() const
        {
            const double span = double(forward ? end - start : start - end);
            return span <= 0 ? 1.0 : std::min(1.0, double(forward ? frontier - start : start - frontier) / span);
        }
    };

    bool begin(const ValueSearch &search, QueryPage *page, Walk *walk, QString *error);
    bool windowStep(Walk &walk, QString *error);
    bool valuesStep(Walk &walk, QString *error);
    // Which groups of `span` may hold the walk's value, into walk.spanGroups; false on an error.
    bool readSpan(Walk &walk, std::int64_t span, QString *error);
    // When the group of the next rowid to decide cannot hold the value: moves the frontier to the
    // next group that may (or the span's end) and returns true. The group's first and last rowid.
    bool skipGroups(Walk &walk, std::int64_t *groupFirst, std::int64_t *groupLast, QString *error, bool *failed);
    bool matchesValue(const Walk &walk, const Access &access);
    // The accesses of rowids [first, last] that the walk's window, operations and value select,
    // appended in its order while the page has room; `bytesOf` gives each rowid's value.
    template<typename BytesOf>
    bool takeBlockMatches(Walk &walk, std::int64_t first, std::int64_t last, const BytesOf &bytesOf, QString *error);
    QString databaseError(const QString &what) const
    {
        return QStringLiteral("cannot %1: %2").arg(what, connection.lastError());
    }

    const ValueSearchTuning tuning;
    HistoryDatabase &database;
    sqlite::Connection &connection;
    HalfAxisQueryEngine engine;
    AccessValueReader values;
    LastWrites lastWrites;
    RowIdSearch rowIds;
    bool rowIdsLoaded = false;
    sqlite::Statement filtersAfter;
    sqlite::Statement filtersBefore;
    sqlite::Statement blocksAfter;
    sqlite::Statement blocksBefore;
    sqlite::Statement blockAt;
    sqlite::Statement accessesBetween;
    sqlite::Statement blockStart;
    sqlite::Statement groupBits;
    sqlite::Statement firstAccess;
    sqlite::Statement lastAccess;
    bool indexed = false;
    int groupShift = 0; // 0: no second level
    DecodedValueBlock block;
    ValueSearchStats stats;
};

ValueSearchEngine::ValueSearchEngine(HistoryDatabase &database, ValueSearchTuning tuning)
    : d(std::make_unique<Private>(database, tuning))
{ }

ValueSearchEngine::~ValueSearchEngine() = default;

bool ValueSearchEngine::hasValues() const
{
    return d->values.available();
}

bool ValueSearchEngine::hasIndex() const
{
    return d->indexed;
}

const ValueSearchStats &ValueSearchEngine::lastStats() const
{
    return d->stats;
}

QString ValueSearchEngine::cancelledMessage()
{
    return QStringLiteral("the search was cancelled");
}

bool ValueSearchEngine::Private::begin(const ValueSearch &search, QueryPage *page, Walk *walk, QString *error)
{
    const HalfAxisQuery &query = search.query;
    if (!values.available()) {
        *error = QStringLiteral("this history has no values (record the program with `memhist record`, or import a "
                                "trace that has them)");
        return false;
    }
    if (search.unexplained ? !query.operations.testFlag(Operation::Read) : search.value.isEmpty()) {
        *error = search.unexplained ? QStringLiteral("an unexplained-read search needs reads (--ops r or rw)")
                                    : QStringLiteral("the value to search for is empty");
        return false;
    }
    if (query.first.value > query.last.value || query.operations == Operations() || query.limit == 0) {
        *error = query.limit == 0 ? QStringLiteral("the limit must be at least 1")
                                  : QStringLiteral("the window is empty (first address above the last) or no "
                                                   "operation is selected");
        return false;
    }
    if (!rowIdsLoaded && !rowIds.load()) {
        *error = rowIds.failure().message(database.path());
        return false;
    }
    rowIdsLoaded = true;
    page->accesses.clear();
    page->exhausted = false;
    walk->search = &search;
    walk->page = page;
    walk->needleSlots = groupShift > 0 ? valuegroups::slotsOf(search.value) : std::vector<std::uint32_t> {};
    walk->span = -1;
    walk->forward = query.direction == Direction::Forward;
    // The first and last rowids (the history's own statements: the ends of the rowid b-tree).
    std::int64_t firstRow = 0;
    std::int64_t lastRow = 0;
    for (const auto &[end, row] : { std::pair { &firstAccess, &firstRow }, std::pair { &lastAccess, &lastRow } }) {
        const int rc = end->isValid() ? end->step() : SQLITE_ERROR;
        const std::int64_t rowId = rc == SQLITE_ROW ? end->int64(0) : 0;
        end->reset();
        if (rc == SQLITE_DONE) {
            walk->done = true; // no accesses at all
            return true;
        }
        if (rc != SQLITE_ROW) {
            *error = databaseError(QStringLiteral("read the accesses' rowids"));
            return false;
        }
        *row = rowId;
    }
    if (walk->forward) {
        std::int64_t frontier = firstRow - 1;
        if (query.at)
            frontier = std::max(frontier, rowIds.firstRowIdAtOrAfter(toStored(query.at->value)) - 1);
        if (query.resumeAfter)
            frontier = std::max(frontier, query.resumeAfter->value);
        walk->frontier = walk->start = frontier;
        walk->end = lastRow;
        walk->done = frontier >= lastRow;
    } else {
        std::int64_t frontier = lastRow + 1;
        if (query.at)
            frontier = std::min(frontier, rowIds.lastRowIdAtOrBefore(toStored(query.at->value)) + 1);
        if (query.resumeAfter)
            frontier = std::min(frontier, query.resumeAfter->value);
        walk->frontier = walk->start = frontier;
        walk->end = firstRow;
        walk->done = frontier <= firstRow;
    }
    if (rowIds.failed()) {
        *error = rowIds.failure().message(database.path());
        rowIds.clearFailure();
        return false;
    }
    return true;
}

bool ValueSearchEngine::Private::matchesValue(const Walk &walk, const Access &access)
{
    if (walk.search->unexplained)
        return access.operation == Operation::Read && lastWrites.differs(access, values.value(access.rowId));
    const std::optional<AccessValue> value = values.value(access.rowId);
    return value && value->bytes.contains(walk.search->value);
}

bool ValueSearchEngine::Private::windowStep(Walk &walk, QString *error)
{
    HalfAxisQuery query = walk.search->query;
    query.resumeAfter = RowId { walk.frontier };
    if (walk.search->unexplained)
        query.operations = Operation::Read;
    query.limit = tuning.windowStepRows;
    QueryPage rows;
    if (!engine.run(query, &rows, error))
        return false;
    for (const Access &access : std::as_const(rows.accesses)) {
        walk.frontier = access.rowId.value;
        if (matchesValue(walk, access)) {
            walk.page->accesses << access;
            if (walk.full())
                return true;
        }
    }
    if (lastWrites.failed(error))
        return false;
    if (rows.exhausted) {
        walk.frontier = walk.end;
        walk.done = true;
    }
    return true;
}

template<typename BytesOf>
bool ValueSearchEngine::Private::takeBlockMatches(
    Walk &walk, std::int64_t first, std::int64_t last, const BytesOf &bytesOf, QString *error)
{
    // Only the block's rowids on the walk's side of the frontier.
    first = walk.forward ? std::max(first, walk.frontier + 1) : first;
    last = walk.forward ? last : std::min(last, walk.frontier - 1);
    // Only the accesses from the first value that holds it to the last are read.
    std::int64_t firstMatch = -1;
    std::int64_t lastMatch = -1;
    for (std::int64_t id = first; id <= last; ++id) {
        if (bytesOf(id).contains(walk.search->value)) {
            firstMatch = firstMatch < 0 ? id : firstMatch;
            lastMatch = id;
        }
    }
    if (firstMatch < 0)
        return true;
    first = firstMatch;
    last = lastMatch;
    ++stats.blocksMatched;
    const HalfAxisQuery &query = walk.search->query;
    QList<Access> matches;
    accessesBetween.bind(1, first);
    accessesBetween.bind(2, last);
    int rc = SQLITE_ROW;
    while ((rc = accessesBetween.step()) == SQLITE_ROW) {
        const query::AccessRow row = query::readAccessRow(accessesBetween);
        const QString problem = query::scannedAccessProblem(row, 0, std::numeric_limits<std::int64_t>::max());
        if (!problem.isEmpty()) {
            accessesBetween.reset();
            *error = problem + QStringLiteral("; the database is damaged: run 'memhist check %1'").arg(database.path());
            return false;
        }
        const Access access = query::toAccess(row);
        if (query.operations.testFlag(access.operation) && access.physical.value <= query.last.value
            && access.lastByte().value >= query.first.value && bytesOf(access.rowId.value).contains(walk.search->value))
            matches << access;
    }
    accessesBetween.reset();
    if (rc != SQLITE_DONE) {
        *error = databaseError(QStringLiteral("read accesses %1 to %2").arg(first).arg(last));
        return false;
    }
    if (!walk.forward)
        std::reverse(matches.begin(), matches.end());
    for (const Access &access : std::as_const(matches)) {
        walk.page->accesses << access;
        if (walk.full()) {
            walk.frontier = access.rowId.value;
            return true;
        }
    }
    return true;
}

bool ValueSearchEngine::Private::readSpan(Walk &walk, std::int64_t span, QString *error)
{
    std::fill(std::begin(walk.spanGroups), std::end(walk.spanGroups), ~std::uint64_t(0));
    for (const std::uint32_t slot : walk.needleSlots) {
        groupBits.bind(1, valuegroups::keyOf(slot, span));
        const int rc = groupBits.step();
        ++stats.groupRowsRead;
        if (rc == SQLITE_ROW) {
            // A row of another size is damaged: it rules nothing out.
            const QByteArrayView bits = groupBits.blobView(0);
            if (bits.size() == valuegroups::spanBytes) {
                for (int w = 0; w < 8; ++w) {
                    std::uint64_t word = 0;
                    for (int b = 7; b >= 0; --b)
                        word = (word << 8) | std::uint8_t(bits[w * 8 + b]);
                    walk.spanGroups[w] &= word;
                }
            }
        } else if (rc == SQLITE_DONE) {
            std::fill(std::begin(walk.spanGroups), std::end(walk.spanGroups), 0); // no value of the span has it
        } else {
            groupBits.reset();
            *error = databaseError(QStringLiteral("read the value index"));
            return false;
        }
        groupBits.reset();
        if (std::all_of(std::begin(walk.spanGroups), std::end(walk.spanGroups), [](std::uint64_t w) { return w == 0; }))
            break;
    }
    walk.span = span;
    return true;
}

bool ValueSearchEngine::Private::skipGroups(
    Walk &walk, std::int64_t *groupFirst, std::int64_t *groupLast, QString *error, bool *failed)
{
    const std::int64_t next = walk.forward ? walk.frontier + 1 : walk.frontier - 1; // the next rowid to decide
    const std::int64_t group = next >> groupShift;
    *groupFirst = group << groupShift;
    *groupLast = ((group + 1) << groupShift) - 1;
    const std::int64_t span = group >> valuegroups::spanShift;
    if (span != walk.span && !readSpan(walk, span, error)) {
        *failed = true;
        return true;
    }
    const auto mayHold = [&walk](std::int64_t g) {
        const unsigned bit = unsigned(g & ((1 << valuegroups::spanShift) - 1));
        return ((walk.spanGroups[bit >> 6] >> (bit & 63)) & 1u) != 0;
    };
    if (mayHold(group))
        return false;
    // Every rowid up to the next group that may hold the value (or the span's end) is decided.
    const std::int64_t spanFirst = span << valuegroups::spanShift;
    const std::int64_t spanLast = spanFirst + (1 << valuegroups::spanShift) - 1;
    std::int64_t g = group;
    if (walk.forward) {
        do
            ++g;
        while (g <= spanLast && !mayHold(g));
        walk.frontier = std::min((g << groupShift) - 1, walk.end);
        walk.done = walk.frontier >= walk.end;
    } else {
        do
            --g;
        while (g >= spanFirst && !mayHold(g));
        walk.frontier = std::max((g + 1) << groupShift, walk.end);
        walk.done = walk.frontier <= walk.end;
    }
    stats.groupsSkipped += quint64(std::abs(g - group));
    return true;
}

bool ValueSearchEngine::Private::valuesStep(Walk &walk, QString *error)
{
    // With the index's second level: past the groups that cannot hold the value, then the blocks
    // of one group that may (forward, those starting in it; backward, down to the first starting
    // at or before its first rowid).
    std::int64_t groupFirst = std::numeric_limits<std::int64_t>::min();
    std::int64_t groupLast = std::numeric_limits<std::int64_t>::max();
    if (indexed && groupShift > 0 && !walk.needleSlots.empty()) {
        bool failed = false;
        if (skipGroups(walk, &groupFirst, &groupLast, error, &failed))
            return !failed;
    }
    // The blocks from the one that holds the rowid next to the frontier (forward, it may start
    // before the frontier) in the walk's direction.
    std::int64_t from = walk.frontier;
    if (walk.forward) {
        blockStart.bind(1, walk.frontier + 1);
        if (blockStart.step() == SQLITE_ROW)
            from = std::min(from, blockStart.int64(0) - 1);
        blockStart.reset();
    }
    sqlite::Statement &blocks
        = indexed ? (walk.forward ? filtersAfter : filtersBefore) : (walk.forward ? blocksAfter : blocksBefore);
    blocks.bind(1, walk.forward ? from : walk.frontier);
    const auto bytesOf = [this](std::int64_t id) { return block.bytesOf(id); };
    int rc = SQLITE_ROW;
    int taken = 0;
    bool ok = true;
    bool leftGroup = false;
    while (ok && taken < tuning.valueStepBlocks && !walk.full() && (rc = blocks.step()) == SQLITE_ROW) {
        const std::int64_t first = blocks.int64(0);
        if (walk.forward && first > groupLast) {
            leftGroup = true;
            break;
        }
        ++taken;
        // The last rowid this block decides, forward: its own last when its values were read, else
        // its first (the next step starts from it again).
        std::int64_t decided = first;
        // A block row (access_first, access_last, layout, bytes): its bytes hold each value whole, so
        // a block whose bytes do not hold the value is decided without decoding it. A block that
        // does not decode holds no value a search can trust: `memhist check` names it.
        const auto takeBlock = [&](sqlite::Statement &row) {
            ++stats.blocksRead;
            if (row.blobView(3).indexOf(walk.search->value) < 0) {
                decided = std::max(first, row.int64(1));
                return true;
            }
            ++stats.blocksDecoded;
            if (!block.decode(first, row.int64(1), row.blobView(2), row.blob(3)))
                return true;
            decided = block.last();
            return false;
        };
        bool decode = false;
        if (indexed) {
            ValueFilter filter;
            ++stats.filtersRead;
            if (!filter.read(blocks.blobView(1)) || filter.mayContain(walk.search->value)) {
                blockAt.bind(1, first);
                decode = blockAt.step() == SQLITE_ROW && !takeBlock(blockAt);
                blockAt.reset();
            }
        } else {
            decode = !takeBlock(blocks);
        }
        if (decode)
            ok = takeBlockMatches(walk, block.first(), block.last(), bytesOf, error);
        if (!walk.full()) {
            // Every rowid of this block (and of the gap before it, which has no values) is decided.
            walk.frontier = walk.forward ? std::max<std::int64_t>(walk.frontier, decided) : first;
        }
        if (!walk.forward && first <= groupFirst) {
            leftGroup = true;
            break;
        }
    }
    blocks.reset();
    if (!ok)
        return false;
    // Forward, every block starting in the group was taken: its rowids after them hold no values.
    if (leftGroup && walk.forward && !walk.full())
        walk.frontier = std::max(walk.frontier, groupLast);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        *error = databaseError(QStringLiteral("read the value blocks"));
        return false;
    }
    if (rc == SQLITE_DONE && !walk.full()) {
        walk.frontier = walk.end;
        walk.done = true;
    }
    return true;
}

bool ValueSearchEngine::run(const ValueSearch &search, QueryPage *page, QString *error, const Progress &progress)
{
    // One read transaction for the page, as HalfAxisQueryEngine::run takes (its own BEGIN then
    // fails and it reads in this one): otherwise SQLite takes and releases its file lock around
    // each of the many small statements of a walk through the values.
    sqlite::Transaction readTransaction(d->connection);
    Private::Walk walk;
    d->stats = {};
    if (!d->begin(search, page, &walk, error))
        return false;

    // The ways this search may take, and what a rowid cost on each over its recent steps.
    using Ways = ValueSearchTuning::Ways;
    const bool valuesPossible = !search.unexplained && search.query.threads.isEmpty() && d->blocksAfter.isValid()
        && d->tuning.ways != Ways::WindowOnly;
    const bool wholeSpace = search.query.first.value == 0 && search.query.last.value == ~std::uint64_t(0);
    WayCost cost[2];
    Way way = valuesPossible && (wholeSpace || d->tuning.ways == Ways::ValuesOnly) ? Way::Values : Way::Window;
    int stepsOnWay = 0;
    int retryAfter = d->tuning.stepsBeforeRetry;
    bool retrying = false;
    while (!walk.done && !walk.full()) {
        const std::int64_t before = walk.frontier;
        const std::int64_t started = threadCpuNs();
        ++(way == Way::Window ? d->stats.windowSteps : d->stats.valueSteps);
        if (!(way == Way::Window ? d->windowStep(walk, error) : d->valuesStep(walk, error)))
            return false;
        const double rows = double(
            std::max<std::int64_t>(1, walk.frontier > before ? walk.frontier - before : before - walk.frontier));
        cost[int(way)].add(double(threadCpuNs() - started), rows);
        if (progress && !progress(walk.share())) {
            *error = cancelledMessage();
            return false;
        }
        // Over the whole address space every access is in the window, so walking it reads each
        // access and its value block, which walking the values reads at most: no need to measure.
        if (!valuesPossible || d->tuning.ways != Ways::Cheaper || wholeSpace)
            continue;
        const Way other = way == Way::Window ? Way::Values : Way::Window;
        if (retrying) {
            // The step just taken tried the way that had lost. Lost again: back, and wait twice as
            // long before the next try (a retry costs a step of the slower way).
            retrying = false;
            stepsOnWay = 0;
            if (cost[int(way)].perRow() >= cost[int(other)].perRow()) {
                way = other;
                retryAfter = std::min(retryAfter * 2, 1024);
            } else {
                retryAfter = d->tuning.stepsBeforeRetry;
            }
        } else if (!cost[int(other)].measured() || ++stepsOnWay >= retryAfter) {
            // Not measured yet, or measured long ago: try it.
            way = other;
            stepsOnWay = 0;
            retrying = true;
        } else if (cost[int(other)].perRow() < cost[int(way)].perRow()) {
            way = other;
            stepsOnWay = 0;
        }
    }
    page->exhausted = !walk.full();
    return true;
}

} // namespace memhist
