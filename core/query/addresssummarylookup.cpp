// SPDX-License-Identifier: MIT
#include "core/query/addresssummarylookup.h"

#include "core/checker/checkmessages.h"
#include "core/storage/addresssummarystatements.h"
#include "core/storage/historystatements.h"

#include <algorithm>
#include <optional>

namespace memhist {

namespace {

using namespace memhist::check;

constexpr auto infoTable = "address_summary_info";

void setBit(std::vector<std::uint64_t> *bits, std::int64_t index)
{
    (*bits)[std::size_t(index) / 64] |= std::uint64_t(1) << (index % 64);
}

} // namespace

AddressSummaryLookup::AddressSummaryLookup(sqlite::Connection &db)
    : m_db(db)
{ }

std::int64_t AddressSummaryLookup::ordinalOf(std::int64_t id) const
{
    if (m_sliceIds.empty())
        return -1;
    if (m_contiguousIds) {
        // Unsigned: an id below the first wraps to a huge value, and both ends fail one test.
        const std::uint64_t ordinal = std::uint64_t(id) - std::uint64_t(m_sliceIds.front());
        return ordinal < m_sliceIds.size() ? std::int64_t(ordinal) : -1;
    }
    const auto it = std::lower_bound(m_sliceIds.begin(), m_sliceIds.end(), id);
    return it != m_sliceIds.end() && *it == id ? std::int64_t(it - m_sliceIds.begin()) : -1;
}

bool AddressSummaryLookup::load(const std::vector<qint64> &sliceIds, QueryFailure &failure)
{
    m_available = false;
    m_sliceIds = sliceIds;
    m_contiguousIds = m_sliceIds.empty() || m_sliceIds.back() - m_sliceIds.front() + 1 == qint64(m_sliceIds.size());
    m_rows = {};

    addresssummary::Presence presence;
    QString error;
    if (!addresssummary::readPresence(m_db, &presence, &error))
        return failure.described(error);
    using State = addresssummary::Presence::State;
    if (presence.state == State::Absent || presence.state == State::OtherVersion)
        return true;
    if (presence.state == State::Damaged)
        return failure.violation(violation(presence.object, presence.problem, property::addressSummary));

    const addresssummary::Info &info = presence.info;
    sqlite::Statement lastChunk = m_db.prepare(statements::lastChunkRowId);
    if (!lastChunk.isValid())
        return failure.preparation(QStringLiteral("cannot prepare queries"), m_db);
    const int rc = lastChunk.step();
    if (rc != SQLITE_ROW)
        return failure.database(QStringLiteral("cannot read chunks"), m_db, rc);
    const std::int64_t lastChunkId = lastChunk.int64(0);
    if (info.slices != std::int64_t(m_sliceIds.size()) || info.lastChunk != lastChunkId) {
        return failure.violation(violation(QLatin1String(infoTable),
            describeSummaryOrigin(info.slices, info.lastChunk, std::int64_t(m_sliceIds.size()), lastChunkId),
            property::addressSummary));
    }
    // Block 0 of a row of its own: an entry of another block would pass the row's end.
    addresssummary::PostingsReader wide(info.widePostings, 0, 1);
    for (auto &bits : m_wide)
        bits.assign((m_sliceIds.size() + 63) / 64, 0);
    while (wide.next()) {
        if (!markEntry(wide, &m_wide, -1, 0, failure))
            return false;
    }
    if (!wide.error().isEmpty()) {
        return failure.violation(violation(
            describeRow(-1, 0), QStringLiteral("cannot be read: %1").arg(wide.error()), property::addressSummary));
    }
    m_rows = m_db.prepare(statements::addressSummaryRowsDown);
    if (!m_rows.isValid())
        return failure.preparation(QStringLiteral("cannot prepare queries"), m_db);
    m_parameters = info.parameters;
    m_available = true;
    return true;
}

QString AddressSummaryLookup::describeRow(int shift, std::int64_t rowBlock)
{
    return shift < 0 ? QStringLiteral("address_summary_info wide_postings") : describeSummaryRow(shift, rowBlock);
}

bool AddressSummaryLookup::markEntry(addresssummary::PostingsReader &reader, Candidates *candidates, int shift,
    std::int64_t rowBlock, QueryFailure &failure)
{
    std::vector<std::uint64_t> *bits = &(*candidates)[std::size_t(reader.operation())];
    const bool read = reader.forEachSlice([&](std::int64_t id) {
        const std::int64_t ordinal = ordinalOf(id);
        if (ordinal < 0) {
            const QString where
                = shift < 0 ? QString() : QStringLiteral(" for ") + describeSummaryBlock(shift, reader.block());
            failure.violation(violation(describeRow(shift, rowBlock),
                QStringLiteral("lists slice %1%2, and the history holds no such slice").arg(QString::number(id), where),
                property::addressSummary));
            return false;
        }
        setBit(bits, ordinal);
        return true;
    });
    if (!read) {
        return failure.violation(violation(describeRow(shift, rowBlock),
            QStringLiteral("cannot be read: %1").arg(reader.error()), property::addressSummary));
    }
    return !failure.failed();
}

bool AddressSummaryLookup::candidates(std::uint64_t first, std::uint64_t last, Operations operations,
    Candidates *candidates, bool *used, QueryFailure &failure)
{
    *used = false;
    if (!m_available)
        return true;
    // The finest level where the window spans at most 2^level_step blocks: at the next level it
    // would span at most two, so a coarser level only adds slices.
    const std::uint64_t mostBlocks = std::uint64_t(1) << m_parameters.levelStep;
    int shift = -1;
    for (int level = 0; level < m_parameters.levels; ++level) {
        const int candidate = m_parameters.shift(level);
        if ((last >> candidate) - (first >> candidate) < mostBlocks) {
            shift = candidate;
            break;
        }
    }
    if (shift < 0)
        return true;

    std::array<bool, addresssummary::operationCount> asked {};
    for (int op = 0; op < addresssummary::operationCount; ++op) {
        asked[std::size_t(op)] = operations.testFlag(Operation(addresssummary::operationCode(op)));
        if (asked[std::size_t(op)])
            (*candidates)[std::size_t(op)] = m_wide[std::size_t(op)];
        else
            (*candidates)[std::size_t(op)].assign(m_wide[std::size_t(op)].size(), 0);
    }
    const auto firstBlock = std::int64_t(first >> shift);
    const auto lastBlock = std::int64_t(last >> shift);
    m_rows.bind(1, std::int64_t(shift));
    m_rows.bind(2, lastBlock);
    // Rows are read last first. Each row's `next` must be the row read before it (for the first
    // one: past the window), so that a row removed or added is noticed, and its checksum must match:
    // a row that lost a slice would make the query skip it. The level's header row ends the walk at
    // the latest.
    std::optional<std::int64_t> above; // the block of the row read before
    int rc = SQLITE_DONE;
    bool ok = true;
    bool reachedWindowStart = false;
    while (ok && (rc = m_rows.step()) == SQLITE_ROW) {
        const std::int64_t rowBlock = m_rows.int64(0);
        const std::int64_t next = m_rows.int64(1);
        const QString name = describeRow(shift, rowBlock);
        if (!m_rows.isInteger(0) || !m_rows.isInteger(1) || !m_rows.isInteger(2) || !m_rows.isBlob(3)) {
            ok = failure.violation(violation(name,
                QStringLiteral("is not a row of the summary: block, next and checksum must be integers, postings a "
                               "blob"),
                property::addressSummary));
            break;
        }
        const QByteArray postings = m_rows.blob(3);
        if (const std::int64_t expected = addresssummary::rowChecksum(shift, rowBlock, next, postings);
            m_rows.int64(2) != expected) {
            ok = failure.violation(violation(name,
                QStringLiteral("its checksum %1 is not that of its contents, %2")
                    .arg(QString::number(m_rows.int64(2)), QString::number(expected)),
                property::addressSummary));
            break;
        }
        if (above ? next != *above : next <= lastBlock || next > addresssummary::levelEnd(shift)) {
            ok = failure.violation(violation(name,
                above ? QStringLiteral("says the next row starts at block %1, but the next row is at block %2: a row "
                                       "is missing or was added")
                            .arg(QString::number(next), QString::number(*above))
                      : QStringLiteral("says the next row starts at block %1, but no row of the level starts in "
                                       "blocks %2..%3: a row is missing")
                            .arg(QString::number(next), QString::number(rowBlock + 1), QString::number(lastBlock)),
                property::addressSummary));
            break;
        }
        above = rowBlock;
        if (rowBlock == addresssummary::headerBlock) {
            if (!postings.isEmpty())
                ok = failure.violation(
                    violation(name, QStringLiteral("is a header row with postings"), property::addressSummary));
            reachedWindowStart = true;
            break;
        }
        if (rowBlock < 0) {
            ok = failure.violation(
                violation(name, QStringLiteral("starts below the level's header row"), property::addressSummary));
            break;
        }
        addresssummary::PostingsReader reader(postings, rowBlock, std::uint64_t(next));
        bool any = false;
        while (ok && reader.next()) {
            any = true;
            if (reader.block() > lastBlock)
                break; // the row's later blocks are after the window too
            if (reader.block() >= firstBlock && asked[std::size_t(reader.operation())])
                ok = markEntry(reader, candidates, shift, rowBlock, failure);
        }
        if (ok && (!reader.error().isEmpty() || !any)) {
            ok = failure.violation(violation(name,
                reader.error().isEmpty() ? QStringLiteral("holds no entry")
                                         : QStringLiteral("cannot be read: %1").arg(reader.error()),
                property::addressSummary));
        }
        if (rowBlock <= firstBlock) {
            reachedWindowStart = true;
            break; // every block of the window is in the rows read
        }
    }
    if (ok && rc == SQLITE_DONE && !reachedWindowStart) {
        ok = failure.violation(violation(QStringLiteral("address_summary (shift %1)").arg(shift),
            QStringLiteral("has no header row (block -1): rows are missing"), property::addressSummary));
    }
    if (ok && rc != SQLITE_ROW && rc != SQLITE_DONE)
        ok = failure.database(QStringLiteral("cannot read the address summary"), m_db, rc);
    m_rows.reset();
    *used = ok;
    return ok;
}

} // namespace memhist
