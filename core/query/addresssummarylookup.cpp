#include "addresssummarylookup.h"

#include "checker/checkmessages.h"
#include "storage/addresssummarystatements.h"

#include <algorithm>

namespace memhist {

namespace {

using namespace memhist::check;

constexpr auto infoTable = "address_summary_info";

// Blocks of 2^shift bytes in the 64-bit address space (2^(64 - shift), saturated for shift 0).
std::uint64_t blocksAt(int shift)
{
    return shift == 0 ? ~std::uint64_t(0) : std::uint64_t(1) << (64 - shift);
}

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
    sqlite::Statement lastChunk = m_db.prepare(statements::addressSummaryLastChunk);
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
    m_rows.bind(2, firstBlock);
    m_rows.bind(3, lastBlock);
    // Rows are read last first: a row's blocks end before the next row's first block.
    std::uint64_t end = blocksAt(shift);
    int rc = SQLITE_DONE;
    bool ok = true;
    while (ok && (rc = m_rows.step()) == SQLITE_ROW) {
        const std::int64_t rowBlock = m_rows.int64(0);
        if (!m_rows.isInteger(0) || !m_rows.isBlob(1) || rowBlock < 0 || std::uint64_t(rowBlock) >= end) {
            ok = failure.violation(violation(describeRow(shift, rowBlock),
                QStringLiteral("is not a row of the level: its block is not a number below %1, or its postings not a "
                               "blob")
                    .arg(hex(end)),
                property::addressSummary));
            break;
        }
        addresssummary::PostingsReader reader(m_rows.blob(1), rowBlock, end);
        bool any = false;
        while (ok && reader.next()) {
            any = true;
            if (reader.block() > lastBlock)
                break; // the row's later blocks are after the window too
            if (reader.block() >= firstBlock && asked[std::size_t(reader.operation())])
                ok = markEntry(reader, candidates, shift, rowBlock, failure);
        }
        if (ok && (!reader.error().isEmpty() || !any)) {
            ok = failure.violation(violation(describeRow(shift, rowBlock),
                reader.error().isEmpty() ? QStringLiteral("holds no entry")
                                         : QStringLiteral("cannot be read: %1").arg(reader.error()),
                property::addressSummary));
        }
        if (rowBlock <= firstBlock)
            break; // every block of the window is in the rows read
        end = std::uint64_t(rowBlock);
    }
    if (ok && rc != SQLITE_ROW && rc != SQLITE_DONE)
        ok = failure.database(QStringLiteral("cannot read the address summary"), m_db, rc);
    m_rows.reset();
    *used = ok;
    return ok;
}

} // namespace memhist
