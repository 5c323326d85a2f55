// SPDX-License-Identifier: MIT
#include "core/checker/addresssummarycheck.h"

#include "core/model/numbertext.h"
#include "core/storage/addresssummarystatements.h"

#include <QStringList>
#include <algorithm>
#include <optional>
#include <set>
#include <vector>

namespace memhist::check {

namespace {

// At most this many slice ids in a message, then "and N more".
constexpr std::size_t idsShown = 5;

// One (block, operation) of a level and its slices; shift -1 is the info row's wide postings.
struct Entry
{
    int shift = 0;
    std::int64_t rowBlock = 0; // the row it was read from
    std::int64_t block = 0;
    int operation = 0; // an index: 0, 1, 2
    std::vector<std::int64_t> ids;
};

bool keyBefore(const Entry &a, const Entry &b)
{
    if (a.shift != b.shift)
        return a.shift < b.shift;
    if (a.block != b.block)
        return a.block < b.block;
    return a.operation < b.operation;
}

bool sameKey(const Entry &a, const Entry &b)
{
    return a.shift == b.shift && a.block == b.block && a.operation == b.operation;
}

QString idList(const std::vector<std::int64_t> &ids)
{
    QStringList shown;
    for (std::size_t i = 0; i < ids.size() && i < idsShown; ++i)
        shown << QString::number(ids[i]);
    QString text = shown.join(QStringLiteral(", "));
    if (ids.size() > idsShown)
        text += QStringLiteral(" and %1 more").arg(ids.size() - idsShown);
    return text;
}

QString slicesNamed(const std::vector<std::int64_t> &ids)
{
    return (ids.size() == 1 ? QStringLiteral("slice ") : QStringLiteral("slices ")) + idList(ids);
}

QString rowName(const Entry &entry)
{
    return entry.shift < 0 ? QStringLiteral("address_summary_info wide_postings")
                           : describeSummaryRow(entry.shift, entry.rowBlock);
}

QString entryName(const Entry &entry)
{
    const QString operation = operationName(addresssummary::operationCode(entry.operation));
    return entry.shift < 0 ? QStringLiteral("chunks of %1 over more blocks than max_span").arg(operation)
                           : QStringLiteral("%1 in %2").arg(operation, describeSummaryBlock(entry.shift, entry.block));
}

// Blocks of 2^shift bytes in the 64-bit address space (2^(64 - shift)).
std::uint64_t blocksAt(int shift)
{
    return std::uint64_t(1) << (64 - shift);
}

// Reads every entry of a row (or of the wide postings, a row of block 0); false with *problem when
// the bytes are malformed (the entries read before stay in *entries).
bool readEntries(const QByteArray &postings, int shift, std::int64_t rowBlock, std::uint64_t endBlock,
    std::vector<Entry> *entries, QString *problem)
{
    addresssummary::PostingsReader reader(postings, rowBlock, endBlock);
    while (reader.next()) {
        Entry entry { shift, rowBlock, reader.block(), reader.operation(), {} };
        if (!reader.slices(&entry.ids))
            break;
        entries->push_back(std::move(entry));
    }
    *problem = reader.error();
    return problem->isEmpty();
}

// The stored rows' entries in key order, one row read ahead (a row's entries must stay below the
// next row's block). Rows that cannot be read are reported and skipped.
class StoredEntries
{
public:
    StoredEntries(
        sqlite::Connection &db, const addresssummary::Parameters &parameters, const AddressSummaryCheck::Report &report)
        : m_db(db)
        , m_parameters(parameters)
        , m_report(report)
    { }

    bool open()
    {
        m_rows = m_db.prepare(statements::addressSummaryAllRows);
        if (!m_rows.isValid()) {
            m_rc = m_db.lastErrorCode();
            return false;
        }
        return fetch(&m_next) && advance();
    }

    // The current entry, or null after the last.
    const Entry *current() const { return m_position < m_entries.size() ? &m_entries[m_position] : nullptr; }
    // False on a database error.
    bool pop()
    {
        ++m_position;
        return m_position < m_entries.size() || advance();
    }
    int errorCode() const { return m_rc; }

private:
    struct StoredRow
    {
        int shift = 0;
        std::int64_t block = 0;
        std::int64_t next = 0;
        std::int64_t checksum = 0;
        QByteArray postings;
    };

    bool isLevel(std::int64_t shift) const
    {
        for (int level = 0; level < m_parameters.levels; ++level) {
            if (shift == m_parameters.shift(level))
                return true;
        }
        return false;
    }

    // The next row whose key is usable, into *row (nullopt at the end); false on a database error.
    bool fetch(std::optional<StoredRow> *row)
    {
        row->reset();
        int rc;
        while ((rc = m_rows.step()) == SQLITE_ROW) {
            const std::int64_t shift = m_rows.int64(0);
            const std::int64_t block = m_rows.int64(1);
            const QString name = describeSummaryRow(int(std::clamp<std::int64_t>(shift, -1, 64)), block);
            if (!m_rows.isInteger(0) || !isLevel(shift)) {
                m_report(violation(name,
                    QStringLiteral("is of no level of the summary (shift %1 + k * %2, k < %3)")
                        .arg(m_parameters.finestShift)
                        .arg(m_parameters.levelStep)
                        .arg(m_parameters.levels),
                    property::addressSummary));
                continue;
            }
            if (!m_rows.isInteger(1) || block < addresssummary::headerBlock
                || (block >= 0 && std::uint64_t(block) >= blocksAt(int(shift)))) {
                m_report(violation(name,
                    QStringLiteral("is not a row of the level: its block is not a number below %1")
                        .arg(hexText(blocksAt(int(shift)))),
                    property::addressSummary));
                continue;
            }
            if (!m_rows.isInteger(2) || !m_rows.isInteger(3) || !m_rows.isBlob(4)) {
                m_report(violation(name,
                    QStringLiteral("is not a row of the summary: block, next and checksum must be integers, postings "
                                   "a blob"),
                    property::addressSummary));
                continue;
            }
            *row = StoredRow { int(shift), block, m_rows.int64(2), m_rows.int64(3), m_rows.blob(4) };
            return true;
        }
        if (rc != SQLITE_DONE) {
            m_rc = rc;
            return false;
        }
        return true;
    }

    // Reads rows until one holds entries (or none is left).
    bool advance()
    {
        m_entries.clear();
        m_position = 0;
        while (m_entries.empty() && m_next) {
            const StoredRow row = std::move(*m_next);
            if (!fetch(&m_next))
                return false;
            const std::uint64_t end
                = m_next && m_next->shift == row.shift ? std::uint64_t(m_next->block) : blocksAt(row.shift);
            QString problem;
            const QString name = describeSummaryRow(row.shift, row.block);
            checkFrame(row, std::int64_t(end));
            if (row.block == addresssummary::headerBlock) {
                if (!row.postings.isEmpty()) {
                    m_report(
                        violation(name, QStringLiteral("is a header row with postings"), property::addressSummary));
                }
            } else if (!readEntries(row.postings, row.shift, row.block, end, &m_entries, &problem)) {
                m_report(violation(name, QStringLiteral("cannot be read: %1").arg(problem), property::addressSummary));
            } else if (m_entries.empty()) {
                m_report(violation(name, QStringLiteral("holds no entry"), property::addressSummary));
            }
        }
        if (!m_next && !m_endChecked) {
            m_endChecked = true;
            for (int level = 0; level < m_parameters.levels; ++level) {
                const int shift = m_parameters.shift(level);
                if (!m_headers.contains(shift) && !m_levelsWithoutHeader.contains(shift))
                    reportNoHeader(shift);
            }
        }
        return true;
    }

    void reportNoHeader(int shift)
    {
        m_report(violation(QStringLiteral("address_summary (shift %1)").arg(shift),
            QStringLiteral("has no header row (block -1): rows are missing"), property::addressSummary));
    }

    // What lets a reader trust a row it reads: its checksum, its `next` (the level's next row, or
    // the level's end), and the level's header row before it.
    void checkFrame(const StoredRow &row, std::int64_t end)
    {
        const QString name = describeSummaryRow(row.shift, row.block);
        if (const std::int64_t expected = addresssummary::rowChecksum(row.shift, row.block, row.next, row.postings);
            row.checksum != expected) {
            m_report(violation(name,
                QStringLiteral("its checksum %1 is not that of its contents, %2")
                    .arg(QString::number(row.checksum), QString::number(expected)),
                property::addressSummary));
        }
        if (row.next != end) {
            m_report(violation(name,
                end == addresssummary::levelEnd(row.shift)
                    ? QStringLiteral("says the next row starts at block %1, but it is the last row of the level: a "
                                     "row is missing")
                          .arg(QString::number(row.next))
                    : QStringLiteral("says the next row starts at block %1, but the next row is at block %2: a row is "
                                     "missing or was added")
                          .arg(QString::number(row.next), QString::number(end)),
                property::addressSummary));
        }
        if (row.block == addresssummary::headerBlock)
            m_headers.insert(row.shift);
        else if (!m_headers.contains(row.shift) && m_levelsWithoutHeader.insert(row.shift).second)
            reportNoHeader(row.shift);
    }

    sqlite::Connection &m_db;
    const addresssummary::Parameters &m_parameters;
    const AddressSummaryCheck::Report &m_report;
    sqlite::Statement m_rows;
    std::optional<StoredRow> m_next;
    std::vector<Entry> m_entries; // the current row's
    std::size_t m_position = 0;
    int m_rc = SQLITE_OK;
    std::set<int> m_headers; // the levels whose header row was read
    std::set<int> m_levelsWithoutHeader; // reported
    bool m_endChecked = false;
};

// Compares a stored entry with the rebuilt one of the same key.
void compareIds(const Entry &stored, const Entry &rebuilt, const AddressSummaryCheck::Report &report)
{
    std::vector<std::int64_t> missing;
    std::vector<std::int64_t> extra;
    std::set_difference(
        rebuilt.ids.begin(), rebuilt.ids.end(), stored.ids.begin(), stored.ids.end(), std::back_inserter(missing));
    std::set_difference(
        stored.ids.begin(), stored.ids.end(), rebuilt.ids.begin(), rebuilt.ids.end(), std::back_inserter(extra));
    if (!missing.empty()) {
        report(violation(rowName(stored),
            QStringLiteral("lacks %1 for %2, where the chunks put it: a query there would skip it")
                .arg(slicesNamed(missing), entryName(stored)),
            property::addressSummary));
    }
    if (!extra.empty()) {
        report(violation(rowName(stored),
            QStringLiteral("lists %1 for %2, where the chunks do not put it")
                .arg(slicesNamed(extra), entryName(stored)),
            property::addressSummary));
    }
}

void reportMissing(const Entry &rebuilt, const AddressSummaryCheck::Report &report)
{
    const QString object
        = rebuilt.shift < 0 ? rowName(rebuilt) : QStringLiteral("address_summary (shift %1)").arg(rebuilt.shift);
    report(violation(object,
        QStringLiteral("has no entry for %1, where the chunks put %2: a query there would skip it")
            .arg(entryName(rebuilt), slicesNamed(rebuilt.ids)),
        property::addressSummary));
}

void reportExtra(const Entry &stored, const AddressSummaryCheck::Report &report)
{
    report(violation(rowName(stored),
        QStringLiteral("lists %1 for %2, where the chunks put none").arg(slicesNamed(stored.ids), entryName(stored)),
        property::addressSummary));
}

// Compares two sequences of entries in key order: the stored side through `nextStored` /
// `currentStored`, the rebuilt side one entry at a time.
template<typename Stored> class EntryComparison
{
public:
    EntryComparison(Stored &stored, const AddressSummaryCheck::Report &report)
        : m_stored(stored)
        , m_report(report)
    { }

    bool add(const Entry &rebuilt)
    {
        while (m_stored.current() && keyBefore(*m_stored.current(), rebuilt)) {
            reportExtra(*m_stored.current(), m_report);
            if (!m_stored.pop())
                return false;
        }
        if (m_stored.current() && sameKey(*m_stored.current(), rebuilt)) {
            compareIds(*m_stored.current(), rebuilt, m_report);
            return m_stored.pop();
        }
        reportMissing(rebuilt, m_report);
        return true;
    }

    bool end()
    {
        while (m_stored.current()) {
            reportExtra(*m_stored.current(), m_report);
            if (!m_stored.pop())
                return false;
        }
        return true;
    }

private:
    Stored &m_stored;
    const AddressSummaryCheck::Report &m_report;
};

// The wide postings as a sequence with the same interface as StoredEntries.
class EntryList
{
public:
    explicit EntryList(std::vector<Entry> entries)
        : m_entries(std::move(entries))
    { }
    const Entry *current() const { return m_position < m_entries.size() ? &m_entries[m_position] : nullptr; }
    bool pop()
    {
        ++m_position;
        return true;
    }

private:
    std::vector<Entry> m_entries;
    std::size_t m_position = 0;
};

} // namespace

AddressSummaryCheck::AddressSummaryCheck(sqlite::Connection &db)
    : m_db(db)
{ }

AddressSummaryCheck::~AddressSummaryCheck() = default;

bool AddressSummaryCheck::start(const Report &report, QString *error)
{
    addresssummary::Presence presence;
    if (!addresssummary::readPresence(m_db, &presence, error))
        return false;
    using State = addresssummary::Presence::State;
    switch (presence.state) {
    case State::Absent:
        break;
    case State::OtherVersion:
        m_note = QStringLiteral("the address summary is of version %1, which this memhist does not read (it reads "
                                "version %2): queries visit every slice")
                     .arg(presence.info.version)
                     .arg(addresssummary::formatVersion);
        break;
    case State::Damaged:
        report(violation(presence.object, presence.problem, property::addressSummary));
        break;
    case State::Present:
        m_info = presence.info;
        m_builder = std::make_unique<addresssummary::Builder>(m_db, m_info.parameters);
        break;
    }
    return true;
}

void AddressSummaryCheck::addChunk(const ChunkRecord &chunk)
{
    if (m_builder && !m_builderFailed)
        m_builderFailed = !m_builder->addChunk(chunk.sliceId, chunk.operation, chunk.first, chunk.last);
}

bool AddressSummaryCheck::finish(const Report &report, QString *error)
{
    if (!m_builder)
        return true;
    if (m_builderFailed) {
        *error = m_builder->error();
        return false;
    }
    StoredEntries stored(m_db, m_info.parameters, report);
    if (!stored.open()) {
        *error = QStringLiteral("cannot read address_summary: %1").arg(m_db.errorFor(stored.errorCode()));
        return false;
    }
    EntryComparison comparison(stored, report);
    std::vector<Entry> entries;
    QString problem;
    addresssummary::Totals totals;
    const bool built = m_builder->finish(
        [&](const addresssummary::Row &row) {
            entries.clear();
            // Rows the builder made are well formed: read to the level's end.
            readEntries(row.postings, row.shift, row.block, blocksAt(row.shift), &entries, &problem);
            for (const Entry &entry : entries) {
                if (!comparison.add(entry))
                    return false;
            }
            return true;
        },
        &totals);
    if (!built || !comparison.end()) {
        *error = !m_builder->error().isEmpty()
            ? m_builder->error()
            : QStringLiteral("cannot read address_summary: %1").arg(m_db.errorFor(stored.errorCode()));
        return false;
    }

    if (m_info.slices != totals.slices || m_info.lastChunk != totals.lastChunk) {
        report(violation(QStringLiteral("address_summary_info"),
            describeSummaryOrigin(m_info.slices, m_info.lastChunk, totals.slices, totals.lastChunk),
            property::addressSummary));
    }
    std::vector<Entry> storedWide;
    const Entry wideRow { -1, 0, 0, 0, {} };
    if (!readEntries(m_info.widePostings, -1, 0, 1, &storedWide, &problem)) {
        report(
            violation(rowName(wideRow), QStringLiteral("cannot be read: %1").arg(problem), property::addressSummary));
    }
    std::vector<Entry> rebuiltWide;
    readEntries(totals.widePostings, -1, 0, 1, &rebuiltWide, &problem);
    EntryList storedWideList(std::move(storedWide));
    EntryComparison wide(storedWideList, report);
    for (const Entry &entry : rebuiltWide)
        wide.add(entry);
    wide.end();
    return true;
}

} // namespace memhist::check
