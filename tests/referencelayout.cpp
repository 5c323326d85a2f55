// SPDX-License-Identifier: MIT
#include "referencelayout.h"

#include "core/storage/sqlite.h"

#include <QFile>
#include <algorithm>
#include <map>
#include <vector>

namespace memhist::test {

namespace {

// The reference writer's schema, in its order: the readers' metadata table first (its resource
// database creates it on open), then the tables, then the indexes, all before any row.
constexpr const char *createReferenceSchema = R"sql(
CREATE TABLE _metadata(metadata_version int, type int, format_version text, tool_name text, tool_version text,
                       tool_info text, generation_date int8);
CREATE TABLE slices(transition_first int8 not null, transition_last int8 not null);
CREATE TABLE chunks(slice_id int8 not null, phy_first int8 not null, phy_last int8 not null, operation int not null);
CREATE TABLE accesses(chunk_id int8 not null, transition int8 not null, linear int8, phy_first int8 not null,
                      size int not null, operation int not null);
CREATE INDEX idx_slices_1 ON slices(transition_last);
CREATE INDEX idx_chunks_1 ON chunks(operation, slice_id, phy_last);
CREATE INDEX idx_accesses_1 ON accesses(chunk_id, transition);
CREATE INDEX idx_accesses_2 ON accesses(transition);
)sql";
// Metadata version 1, type 3 (memory history), format 1.0.0.
constexpr const char *insertMetadata = "INSERT INTO _metadata VALUES(1, 3, '1.0.0', 'memhist-tests', '1.0.0', "
                                       "'reference layout - using rvnmemhistwriter 1.1.0', 1700000000)";
constexpr const char *insertSlice = "INSERT INTO slices VALUES(?1, ?2)";
constexpr const char *insertChunk = "INSERT INTO chunks VALUES(?1, ?2, ?3, ?4)";
constexpr const char *insertAccess = "INSERT INTO accesses VALUES(?1, ?2, ?3, ?4, ?5, ?6)";
// discard_after(N): the accesses at or after N of the first slice that reaches N and of every
// later one (their chunks have larger rowids).
constexpr const char *discardAfterStatement
    = "DELETE FROM accesses WHERE chunk_id >= (SELECT min(rowid) FROM chunks WHERE slice_id = "
      "(SELECT rowid FROM slices WHERE transition_last >= ?1 ORDER BY transition_last LIMIT 1)) "
      "AND transition >= ?1";
constexpr const char *storedRowIds = "SELECT rowid FROM accesses ORDER BY rowid";

// A chunk being built: its byte range and the accesses (indexes into the pending list) it holds.
struct PendingChunk
{
    std::uint64_t first = 0;
    std::uint64_t last = 0;
    std::vector<std::size_t> accesses;
};

bool overlaps(const PendingChunk &a, std::uint64_t first, std::uint64_t last)
{
    return a.first <= last && first <= a.last;
}

// One operation's half of the slice being built.
class SliceSide
{
public:
    explicit SliceSide(const ReferenceLimits &limits)
        : m_limits(limits)
    { }

    bool isEmpty() const { return m_chunks.empty(); }
    std::uint64_t first() const { return m_first; }
    std::uint64_t last() const { return m_last; }
    const std::map<std::uint64_t, PendingChunk> &chunks() const { return m_chunks; }

    // False when the access must start a new slice. A side never refuses an access on a transition
    // it already holds (a transition is never split over slices); it refuses the first access of a
    // later transition once a limit was reached.
    bool insert(std::uint64_t transition, std::uint64_t address, std::uint32_t size, std::size_t index)
    {
        if (m_stopAtNextTransition && transition > m_last)
            return false;
        if (m_limits.sideAccessLimit && m_count >= m_limits.sideAccessLimit) {
            if (transition > m_last)
                return false;
            m_stopAtNextTransition = true;
        }
        PendingChunk merged { address, address + size - 1, { index } };
        std::vector<std::map<std::uint64_t, PendingChunk>::iterator> overlapping;
        std::size_t total = 1;
        auto next = m_chunks.upper_bound(address);
        if (next != m_chunks.begin() && overlaps(std::prev(next)->second, merged.first, merged.last)) {
            overlapping.push_back(std::prev(next));
            total += std::prev(next)->second.accesses.size();
        }
        for (; next != m_chunks.end() && overlaps(next->second, merged.first, merged.last); ++next) {
            overlapping.push_back(next);
            total += next->second.accesses.size();
        }
        if (m_limits.chunkOverlapLimit && total > m_limits.chunkOverlapLimit) {
            if (transition > m_last)
                return false;
            m_stopAtNextTransition = true;
        }
        if (m_chunks.empty())
            m_first = transition;
        for (const auto &it : overlapping) {
            merged.first = std::min(merged.first, it->second.first);
            merged.last = std::max(merged.last, it->second.last);
            merged.accesses.insert(merged.accesses.end(), it->second.accesses.begin(), it->second.accesses.end());
            m_chunks.erase(it);
        }
        m_last = transition;
        ++m_count;
        m_chunks.emplace(merged.first, std::move(merged));
        return true;
    }

    // When the slice is written: touching chunks merge while the result stays within the limit.
    void mergeTouching()
    {
        if (m_chunks.empty())
            return;
        auto current = m_chunks.begin();
        for (auto next = std::next(current); next != m_chunks.end();) {
            const bool fits = !m_limits.chunkTouchLimit
                || current->second.accesses.size() + next->second.accesses.size() <= m_limits.chunkTouchLimit;
            if (current->second.last + 1 == next->second.first && fits) {
                current->second.last = next->second.last;
                current->second.accesses.insert(
                    current->second.accesses.end(), next->second.accesses.begin(), next->second.accesses.end());
                next = m_chunks.erase(next);
            } else {
                current = next++;
            }
        }
    }

private:
    ReferenceLimits m_limits;
    std::map<std::uint64_t, PendingChunk> m_chunks; // by first address
    std::uint64_t m_first = 0;
    std::uint64_t m_last = 0;
    std::size_t m_count = 0;
    bool m_stopAtNextTransition = false;
};

class ReferenceWriter
{
public:
    ReferenceWriter(const ReferenceLimits &limits, QString *error)
        : m_limits(limits)
        , m_error(error)
        , m_reads(limits)
        , m_writes(limits)
    { }

    bool open(const QString &path)
    {
        QFile::remove(path);
        if (!m_db.open(path, sqlite::Connection::Mode::ReadWriteCreate) || !m_db.execute(createReferenceSchema)
            || !m_db.execute(insertMetadata))
            return fail();
        m_insertSlice = m_db.prepare(insertSlice);
        m_insertChunk = m_db.prepare(insertChunk);
        m_insertAccess = m_db.prepare(insertAccess);
        return m_insertSlice.isValid() && m_insertChunk.isValid() && m_insertAccess.isValid() ? true : fail();
    }

    bool push(const Access &access)
    {
        if (access.operation == Operation::Execute) {
            *m_error = QStringLiteral("the reference writer does not store executes");
            return false;
        }
        if (!side(access.operation)
                 .insert(access.transition.value, access.physical.value, access.size, m_pending.size())) {
            if (!writeSlice())
                return false;
            // The access is the first of the new slice.
            if (!side(access.operation)
                     .insert(access.transition.value, access.physical.value, access.size, m_pending.size())) {
                *m_error = QStringLiteral("an empty slice refused an access");
                return false;
            }
        }
        m_pending.push_back(access);
        return true;
    }

    // Writes the slice being built (both sides) with its chunks and accesses, then starts anew.
    bool writeSlice()
    {
        if (m_pending.empty())
            return true;
        m_reads.mergeTouching();
        m_writes.mergeTouching();
        std::uint64_t first = std::min(m_reads.first(), m_writes.first());
        std::uint64_t last = std::max(m_reads.last(), m_writes.last());
        if (m_reads.isEmpty()) {
            first = m_writes.first();
            last = m_writes.last();
        } else if (m_writes.isEmpty()) {
            first = m_reads.first();
            last = m_reads.last();
        }
        sqlite::Transaction transaction(m_db);
        m_insertSlice.reset();
        m_insertSlice.bind(1, toStored(first));
        m_insertSlice.bind(2, toStored(last));
        if (!m_insertSlice.run())
            return fail();
        const qint64 sliceId = sqlite3_last_insert_rowid(m_db.handle());
        ++m_slices;

        struct Described
        {
            Operation operation;
            const PendingChunk *chunk;
        };
        std::vector<Described> chunks;
        for (const auto &[address, chunk] : m_reads.chunks())
            chunks.push_back({ Operation::Read, &chunk });
        for (const auto &[address, chunk] : m_writes.chunks())
            chunks.push_back({ Operation::Write, &chunk });
        // Descending first address; equal ones keep reads before writes.
        std::stable_sort(chunks.begin(), chunks.end(),
            [](const Described &a, const Described &b) { return a.chunk->first > b.chunk->first; });
        std::vector<qint64> chunkOfAccess(m_pending.size(), 0);
        for (const Described &described : chunks) {
            m_insertChunk.reset();
            m_insertChunk.bind(1, sliceId);
            m_insertChunk.bind(2, toStored(described.chunk->first));
            m_insertChunk.bind(3, toStored(described.chunk->last));
            m_insertChunk.bind(4, std::int64_t(described.operation));
            if (!m_insertChunk.run())
                return fail();
            const qint64 chunkId = sqlite3_last_insert_rowid(m_db.handle());
            ++m_chunks;
            for (const std::size_t index : described.chunk->accesses)
                chunkOfAccess[index] = chunkId;
        }
        for (std::size_t i = 0; i < m_pending.size(); ++i) {
            const Access &access = m_pending[i];
            m_insertAccess.reset();
            m_insertAccess.bind(1, chunkOfAccess[i]);
            m_insertAccess.bind(2, toStored(access.transition.value));
            if (access.linear)
                m_insertAccess.bind(3, toStored(access.linear->value));
            else
                m_insertAccess.bindNull(3);
            m_insertAccess.bind(4, toStored(access.physical.value));
            m_insertAccess.bind(5, access.size);
            m_insertAccess.bind(6, std::int64_t(access.operation));
            if (!m_insertAccess.run())
                return fail();
            Access stored = access;
            stored.rowId = RowId { sqlite3_last_insert_rowid(m_db.handle()) };
            m_written.append(stored);
        }
        if (!transaction.commit())
            return fail();
        m_pending.clear();
        m_reads = SliceSide(m_limits);
        m_writes = SliceSide(m_limits);
        return true;
    }

    bool discardAfter(std::uint64_t transition)
    {
        if (!writeSlice())
            return false;
        sqlite::Statement discard = m_db.prepare(discardAfterStatement);
        discard.bind(1, toStored(transition));
        return discard.run() ? true : fail();
    }

    bool finish(ReferenceLayout *layout)
    {
        if (!writeSlice())
            return false;
        layout->slices = m_slices;
        layout->chunks = m_chunks;
        layout->stored.clear();
        sqlite::Statement rows = m_db.prepare(storedRowIds);
        qsizetype next = 0;
        while (rows.isValid() && rows.step() == SQLITE_ROW) {
            const qint64 rowId = rows.int64(0);
            while (next < m_written.size() && m_written[next].rowId.value < rowId)
                ++next;
            if (next == m_written.size())
                return fail();
            layout->stored.append(m_written[next]);
        }
        return true;
    }

private:
    SliceSide &side(Operation operation) { return operation == Operation::Read ? m_reads : m_writes; }

    bool fail()
    {
        if (m_error->isEmpty())
            *m_error = m_db.lastError();
        return false;
    }

    const ReferenceLimits &m_limits;
    QString *m_error;
    sqlite::Connection m_db;
    sqlite::Statement m_insertSlice;
    sqlite::Statement m_insertChunk;
    sqlite::Statement m_insertAccess;
    SliceSide m_reads;
    SliceSide m_writes;
    std::vector<Access> m_pending; // the accesses of the slice being built, in trace order
    QList<Access> m_written; // every access written, with its rowid
    qint64 m_slices = 0;
    qint64 m_chunks = 0;
};

} // namespace

bool writeReferenceLayout(const QString &path, const QList<Access> &stream, const ReferenceLimits &limits,
    std::optional<std::uint64_t> discardAfter, ReferenceLayout *layout, QString *error)
{
    error->clear();
    ReferenceWriter writer(limits, error);
    if (!writer.open(path))
        return false;
    for (const Access &access : stream) {
        if (!writer.push(access))
            return false;
    }
    if (discardAfter && !writer.discardAfter(*discardAfter))
        return false;
    return writer.finish(layout);
}

} // namespace memhist::test
