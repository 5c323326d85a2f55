// SPDX-License-Identifier: MIT
#include "core/storage/addresssummarybuilder.h"

#include "core/model/types.h"
#include "core/storage/addresssummarystatements.h"
#include "core/storage/historystatements.h"
#include "core/storage/schema.h"

#include <algorithm>
#include <array>
#include <ctime>
#include <optional>
#include <unordered_map>
#include <vector>

namespace memhist::addresssummary {

namespace {

// What one entry of the block map costs besides its bytes (node, hash bucket, array header).
constexpr qint64 entryOverhead = 96;

// One block's slices as they arrive: the ascending ones as a varint list (the first id, then the
// gaps minus one), and any that arrive out of order (chunks not in slice order: not a memhist
// file, but `memhist check` rebuilds the summary of whatever it is given) apart, sorted at the end.
struct BlockSlices
{
    std::int64_t last = 0;
    QByteArray list;
    std::vector<std::int64_t> unordered;
};

bool isStrictlyAscending(const std::vector<std::int64_t> &ids)
{
    return std::adjacent_find(ids.begin(), ids.end(), [](std::int64_t a, std::int64_t b) { return a >= b; })
        == ids.end();
}

void sortUnique(std::vector<std::int64_t> *ids)
{
    if (isStrictlyAscending(*ids))
        return;
    std::sort(ids->begin(), ids->end());
    ids->erase(std::unique(ids->begin(), ids->end()), ids->end());
}

// Appends the ids of a varint list (ours: always well formed).
void appendList(const QByteArray &list, std::vector<std::int64_t> *ids)
{
    const auto *data = reinterpret_cast<const uchar *>(list.constData());
    qsizetype position = 0;
    std::uint64_t value = 0;
    bool first = true;
    std::int64_t id = 0;
    while (position < list.size() && readVarint(data, list.size(), &position, &value)) {
        id = first ? std::int64_t(value) : id + std::int64_t(value) + 1;
        first = false;
        ids->push_back(id);
    }
}

QByteArray listOf(const std::vector<std::int64_t> &ids)
{
    QByteArray list;
    for (std::size_t i = 0; i < ids.size(); ++i)
        appendVarint(&list, i == 0 ? std::uint64_t(ids[0]) : std::uint64_t(ids[i] - ids[i - 1] - 1));
    return list;
}

// One level of the summary while the finest blocks go by in ascending order: per operation, the
// union of the slices of its current block, and the row being filled.
struct Level
{
    int shift = 0;
    bool blockActive = false;
    std::int64_t block = 0;
    std::array<std::vector<std::int64_t>, operationCount> ids;
    std::array<std::size_t, operationCount> uniqueSize {}; // ids[op].size() after the last sortUnique
    bool rowActive = false;
    std::int64_t rowBlock = 0;
    std::int64_t previousBlock = 0;
    QByteArray postings;
};

// The block map's key: the finest block and the operation index (blocks are below 2^62: the
// finest shift is at least 2), so that key order is entry order.
std::uint64_t keyOf(std::int64_t block, int operation)
{
    return std::uint64_t(block) << 2 | std::uint64_t(operation);
}

// Completes the rows the levels emit, in key order, with each level's header row and each row's
// `next` and checksum: a row is held until the next one (or the level's end) is known.
class RowChain
{
public:
    RowChain(const Parameters &parameters, const std::function<bool(const Row &)> &sink)
        : m_parameters(parameters)
        , m_sink(sink)
    { }

    bool add(Row row)
    {
        while (m_level < m_parameters.levels && m_parameters.shift(m_level) < row.shift) {
            if (!endLevel())
                return false;
        }
        if (!m_pending)
            m_pending = Row { row.shift, headerBlock, 0, 0, {} };
        if (!emitPending(row.block))
            return false;
        m_pending = std::move(row);
        return true;
    }

    // After the last row: the levels still open end, and those never met get their header.
    bool finish()
    {
        while (m_level < m_parameters.levels) {
            if (!endLevel())
                return false;
        }
        return true;
    }

private:
    bool endLevel()
    {
        const int shift = m_parameters.shift(m_level);
        if (!m_pending)
            m_pending = Row { shift, headerBlock, 0, 0, {} };
        const bool ok = emitPending(levelEnd(shift));
        m_pending.reset();
        ++m_level;
        return ok;
    }

    bool emitPending(std::int64_t next)
    {
        m_pending->next = next;
        m_pending->checksum = rowChecksum(m_pending->shift, m_pending->block, next, m_pending->postings);
        return m_sink(*m_pending);
    }

    const Parameters &m_parameters;
    const std::function<bool(const Row &)> &m_sink;
    int m_level = 0;
    std::optional<Row> m_pending;
};

} // namespace

class Builder::State
{
public:
    State(sqlite::Connection &db, const Parameters &parameters, qint64 memoryBudget)
        : m_history(db)
        , m_scratch(&db)
        , m_parameters(parameters)
        , m_memoryBudget(memoryBudget)
    {
        if (const QString problem = parameters.problem(); !problem.isEmpty()) {
            m_error = QStringLiteral("invalid summary parameters: ") + problem;
            return;
        }
        m_levels.resize(std::size_t(parameters.levels));
        for (int level = 0; level < parameters.levels; ++level)
            m_levels[std::size_t(level)].shift = parameters.shift(level);
    }

    bool addChunk(std::int64_t slice, std::int64_t operationCode, std::uint64_t first, std::uint64_t last)
    {
        if (!m_error.isEmpty())
            return false;
        const int operation = operationIndex(operationCode);
        if (operation < 0)
            return true; // no query reaches a chunk of another code
        const int shift = m_parameters.finestShift;
        // A chunk over many blocks (or a broken one, ending before it starts) is in no block: its
        // slice is a candidate everywhere.
        if (first > last || (last >> shift) - (first >> shift) > std::uint64_t(m_parameters.maxSpan)) {
            m_wide[std::size_t(operation)].push_back(slice);
            return true;
        }
        for (std::uint64_t block = first >> shift; block <= last >> shift; ++block) {
            const std::uint64_t key = keyOf(std::int64_t(block), operation);
            // A slice's chunks come by operation, then address: neighbours often share a block.
            if (slice == m_lastSlice && key == m_lastKey)
                continue;
            m_lastSlice = slice;
            m_lastKey = key;
            add(key, slice);
        }
        return m_memory <= m_memoryBudget || spill();
    }

    bool finish(const std::function<bool(const Row &)> &sink, Totals *totals)
    {
        if (!m_error.isEmpty())
            return false;
        RowChain chain(m_parameters, sink);
        m_chain = &chain;
        const bool ok = prepareScratch() && (m_runs == 0 ? emitFromMemory() : spill() && emitFromRuns())
            && finishLevels() && emitCoarseRows() && chain.finish() && readTotals(totals);
        m_chain = nullptr;
        m_insertRun = {};
        m_insertCoarse = {};
        if (ok && !m_scratch->execute(statements::clearAddressSummaryScratch))
            return databaseError("cannot empty the summary's scratch tables", m_scratch->lastErrorCode());
        return ok;
    }

    const QString &error() const { return m_error; }
    int spilledRuns() const { return m_runs; }
    void setScratch(sqlite::Connection &scratch) { m_scratch = &scratch; }

private:
    bool databaseError(const char *what, int rc, const sqlite::Connection *connection = nullptr)
    {
        if (m_error.isEmpty())
            m_error = QStringLiteral("%1: %2").arg(
                QLatin1String(what), (connection ? connection : m_scratch)->errorFor(rc));
        return false;
    }

    // The scratch tables, made the first time they are needed (a spill, or the end).
    bool prepareScratch()
    {
        if (m_insertRun.isValid())
            return true;
        if (!m_scratch->execute(statements::createAddressSummaryScratch))
            return databaseError("cannot create the summary's scratch tables", m_scratch->lastErrorCode());
        m_insertRun = m_scratch->prepare(statements::insertAddressSummaryRun);
        m_insertCoarse = m_scratch->prepare(statements::insertAddressSummaryCoarse);
        if (!m_insertRun.isValid() || !m_insertCoarse.isValid())
            return databaseError("cannot prepare the summary's statements", m_scratch->lastErrorCode());
        return true;
    }

    void add(std::uint64_t key, std::int64_t slice)
    {
        auto [it, inserted] = m_blocks.try_emplace(key);
        BlockSlices &entry = it->second;
        const qsizetype before = entry.list.size();
        if (inserted) {
            m_memory += entryOverhead;
            appendVarint(&entry.list, std::uint64_t(slice));
            entry.last = slice;
        } else if (slice == entry.last) {
            return; // another chunk of the same slice
        } else if (slice > entry.last && entry.unordered.empty()) {
            appendVarint(&entry.list, std::uint64_t(slice - entry.last - 1));
            entry.last = slice;
        } else {
            entry.unordered.push_back(slice);
            m_memory += qint64(sizeof(std::int64_t));
        }
        m_memory += entry.list.size() - before;
    }

    static std::vector<std::int64_t> idsOf(const BlockSlices &entry)
    {
        std::vector<std::int64_t> ids;
        appendList(entry.list, &ids);
        ids.insert(ids.end(), entry.unordered.begin(), entry.unordered.end());
        sortUnique(&ids);
        return ids;
    }

    // The postings held so far become a run in the temporary database.
    bool spill()
    {
        if (!prepareScratch())
            return false;
        for (const auto &[key, entry] : m_blocks) {
            m_insertRun.bind(1, std::int64_t(key >> 2));
            m_insertRun.bind(2, std::int64_t(key & 3));
            m_insertRun.bind(3, std::int64_t(m_runs));
            m_insertRun.bindBlob(4, entry.unordered.empty() ? entry.list : listOf(idsOf(entry)));
            if (!m_insertRun.run())
                return databaseError("cannot spill the summary's postings", m_scratch->lastErrorCode());
        }
        m_blocks.clear();
        m_memory = 0;
        ++m_runs;
        return true;
    }

    bool emitFromMemory()
    {
        std::vector<std::uint64_t> keys;
        keys.reserve(m_blocks.size());
        for (const auto &[key, entry] : m_blocks)
            keys.push_back(key);
        std::sort(keys.begin(), keys.end());
        for (const std::uint64_t key : keys) {
            auto it = m_blocks.find(key);
            const std::vector<std::int64_t> ids = idsOf(it->second);
            m_blocks.erase(it);
            if (!addToLevel(0, std::int64_t(key >> 2), int(key & 3), ids))
                return false;
        }
        return true;
    }

    // Runs in (block, operation) order, each entry's runs in run (so slice) order: a slice cut by a
    // spill may end one run and start the next, and a file whose chunks are not in slice order
    // mixes them.
    bool emitFromRuns()
    {
        sqlite::Statement runs = m_scratch->prepare(statements::addressSummaryRunsInOrder);
        if (!runs.isValid())
            return databaseError("cannot read the summary's spilled postings", m_scratch->lastErrorCode());
        std::vector<std::int64_t> ids;
        std::uint64_t key = 0;
        int rc;
        while ((rc = runs.step()) == SQLITE_ROW) {
            const std::uint64_t next = keyOf(runs.int64(0), int(runs.int64(1)));
            if (!ids.empty() && next != key) {
                sortUnique(&ids);
                if (!addToLevel(0, std::int64_t(key >> 2), int(key & 3), ids))
                    return false;
                ids.clear();
            }
            key = next;
            appendList(runs.blob(2), &ids);
        }
        if (rc != SQLITE_DONE)
            return databaseError("cannot read the summary's spilled postings", rc);
        if (!ids.empty()) {
            sortUnique(&ids);
            return addToLevel(0, std::int64_t(key >> 2), int(key & 3), ids);
        }
        return true;
    }

    // `ids`: slices with a chunk of `operation` in `block`, strictly ascending. Blocks come in
    // ascending order (a block's operations in a row).
    bool addToLevel(std::size_t index, std::int64_t block, int operation, const std::vector<std::int64_t> &ids)
    {
        Level &level = m_levels[index];
        if (level.blockActive && level.block != block && !flushBlock(index))
            return false;
        if (!level.blockActive) {
            level.blockActive = true;
            level.block = block;
            for (int op = 0; op < operationCount; ++op) {
                level.ids[std::size_t(op)].clear();
                level.uniqueSize[std::size_t(op)] = 0;
            }
        }
        std::vector<std::int64_t> &union_ = level.ids[std::size_t(operation)];
        union_.insert(union_.end(), ids.begin(), ids.end());
        // Up to 2^level_step children each bring their slices: keep the union from growing past
        // about twice its size.
        std::size_t &uniqueSize = level.uniqueSize[std::size_t(operation)];
        if (union_.size() > 2 * uniqueSize + 4096) {
            sortUnique(&union_);
            uniqueSize = union_.size();
        }
        return true;
    }

    // The level's current block is complete: into its row, and into the next level's block.
    bool flushBlock(std::size_t index)
    {
        Level &level = m_levels[index];
        level.blockActive = false;
        if (!level.rowActive) {
            level.rowActive = true;
            level.rowBlock = level.block;
            level.previousBlock = level.block;
            level.postings.clear();
        }
        for (int op = 0; op < operationCount; ++op) {
            std::vector<std::int64_t> &ids = level.ids[std::size_t(op)];
            if (ids.empty())
                continue;
            sortUnique(&ids);
            appendEntry(&level.postings, level.previousBlock, level.block, op, ids);
            level.previousBlock = level.block;
        }
        // Rows end between blocks: a block's entries share its row.
        if (level.postings.size() >= m_parameters.rowBytes && !emitRow(index))
            return false;
        if (index + 1 == m_levels.size())
            return true;
        for (int op = 0; op < operationCount; ++op) {
            const std::vector<std::int64_t> &ids = level.ids[std::size_t(op)];
            if (!ids.empty() && !addToLevel(index + 1, level.block >> m_parameters.levelStep, op, ids))
                return false;
        }
        return true;
    }

    // The finest level's rows go to the sink at once (they come in key order); the coarser ones
    // are complete only at the end, so they wait in the temporary database.
    bool emitRow(std::size_t index)
    {
        Level &level = m_levels[index];
        level.rowActive = false;
        if (index == 0)
            return m_chain->add({ level.shift, level.rowBlock, 0, 0, level.postings });
        m_insertCoarse.bind(1, std::int64_t(level.shift));
        m_insertCoarse.bind(2, level.rowBlock);
        m_insertCoarse.bindBlob(3, level.postings);
        if (!m_insertCoarse.run())
            return databaseError("cannot keep the summary's coarse rows", m_scratch->lastErrorCode());
        return true;
    }

    bool finishLevels()
    {
        for (std::size_t index = 0; index < m_levels.size(); ++index) {
            if (m_levels[index].blockActive && !flushBlock(index))
                return false;
        }
        for (std::size_t index = 0; index < m_levels.size(); ++index) {
            if (m_levels[index].rowActive && !emitRow(index))
                return false;
        }
        return true;
    }

    bool emitCoarseRows()
    {
        sqlite::Statement rows = m_scratch->prepare(statements::addressSummaryCoarseInOrder);
        if (!rows.isValid())
            return databaseError("cannot read the summary's coarse rows", m_scratch->lastErrorCode());
        int rc;
        while ((rc = rows.step()) == SQLITE_ROW) {
            if (!m_chain->add({ int(rows.int64(0)), rows.int64(1), 0, 0, rows.blob(2) }))
                return false;
        }
        if (rc != SQLITE_DONE)
            return databaseError("cannot read the summary's coarse rows", rc);
        return true;
    }

    bool readTotals(Totals *totals)
    {
        totals->widePostings.clear();
        for (int op = 0; op < operationCount; ++op) {
            std::vector<std::int64_t> &wide = m_wide[std::size_t(op)];
            sortUnique(&wide);
            if (!wide.empty())
                appendEntry(&totals->widePostings, 0, 0, op, wide);
        }
        const auto single = [&](const char *sql, std::int64_t *value) {
            sqlite::Statement statement = m_history.prepare(sql);
            if (!statement.isValid())
                return databaseError("cannot count slices and chunks", m_history.lastErrorCode(), &m_history);
            const int rc = statement.step();
            if (rc != SQLITE_ROW)
                return databaseError("cannot count slices and chunks", rc, &m_history);
            *value = statement.int64(0); // max() of no rows is NULL: 0
            return true;
        };
        return single(statements::sliceCount, &totals->slices)
            && single(statements::lastChunkRowId, &totals->lastChunk);
    }

    sqlite::Connection &m_history; // counted in finish()
    sqlite::Connection *m_scratch; // its temporary database holds the spilled runs and coarse rows
    const Parameters m_parameters;
    qint64 m_memoryBudget;
    RowChain *m_chain = nullptr; // during finish()
    QString m_error;
    std::unordered_map<std::uint64_t, BlockSlices> m_blocks;
    qint64 m_memory = 0;
    std::int64_t m_lastSlice = -1;
    std::uint64_t m_lastKey = ~std::uint64_t(0); // no block has this key: its operation would be 3
    int m_runs = 0;
    std::array<std::vector<std::int64_t>, operationCount> m_wide;
    std::vector<Level> m_levels;
    sqlite::Statement m_insertRun;
    sqlite::Statement m_insertCoarse;
};

Builder::Builder(sqlite::Connection &db, const Parameters &parameters, qint64 memoryBudget)
    : m_parameters(parameters)
    , m_state(std::make_unique<State>(db, parameters, memoryBudget))
{ }

Builder::~Builder() = default;

void Builder::setScratch(sqlite::Connection &scratch)
{
    m_state->setScratch(scratch);
}

bool Builder::addChunk(std::int64_t slice, std::int64_t operation, std::uint64_t first, std::uint64_t last)
{
    return m_state->addChunk(slice, operation, first, last);
}

bool Builder::finish(const std::function<bool(const Row &)> &sink, Totals *totals)
{
    const qint64 start = threadCpuNanoseconds();
    const bool ok = m_state->finish(sink, totals);
    m_cpuNanoseconds += threadCpuNanoseconds() - start;
    return ok;
}

qint64 Builder::threadCpuNanoseconds()
{
    timespec now {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return qint64(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

const QString &Builder::error() const
{
    return m_state->error();
}

int Builder::spilledRuns() const
{
    return m_state->spilledRuns();
}

bool writeSummary(sqlite::Connection &db, Builder &builder)
{
    if (!db.execute(schema::createAddressSummaryTables))
        return false;
    sqlite::Statement insertRow = db.prepare(schema::insertAddressSummaryRow);
    sqlite::Statement insertInfo = db.prepare(schema::insertAddressSummaryInfo);
    if (!insertRow.isValid() || !insertInfo.isValid())
        return false;
    const Parameters &parameters = builder.parameters();
    Totals totals;
    const bool built = builder.finish(
        [&](const Row &row) {
            insertRow.bind(1, std::int64_t(row.shift));
            insertRow.bind(2, row.block);
            insertRow.bind(3, row.next);
            insertRow.bind(4, row.checksum);
            insertRow.bindBlob(5, row.postings);
            return insertRow.run();
        },
        &totals);
    if (!built)
        return false;
    insertInfo.bind(1, std::int64_t(formatVersion));
    insertInfo.bind(2, std::int64_t(parameters.finestShift));
    insertInfo.bind(3, std::int64_t(parameters.levelStep));
    insertInfo.bind(4, std::int64_t(parameters.levels));
    insertInfo.bind(5, std::int64_t(parameters.rowBytes));
    insertInfo.bind(6, std::int64_t(parameters.maxSpan));
    insertInfo.bind(7, totals.slices);
    insertInfo.bind(8, totals.lastChunk);
    insertInfo.bindBlob(9, totals.widePostings);
    insertInfo.bind(10, infoChecksum(formatVersion, parameters, totals.slices, totals.lastChunk, totals.widePostings));
    return insertInfo.run();
}

} // namespace memhist::addresssummary
