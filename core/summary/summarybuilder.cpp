// SPDX-License-Identifier: MIT
#include "core/summary/summarybuilder.h"

#include "core/storage/sqlite.h"
#include "core/summary/slicebinning.h"
#include "core/summary/tilecodec.h"
#include "core/summary/tilepyramid.h"

#include <cstring>
#include <ctime>

namespace memhist::summary {

qint64 threadCpuNanoseconds()
{
    timespec now {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return qint64(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

namespace {

// Slices binned between two progress reports (and cancellation checks).
constexpr std::int64_t slicesPerProgress = 16;

} // namespace

SummaryBuilder::SummaryBuilder(SummaryOptions options)
    : m_options(options)
    , m_regions(options.fold)
{ }

SummaryBuilder::~SummaryBuilder() = default;

bool SummaryBuilder::fail(const QString &message)
{
    if (m_error.isEmpty())
        m_error = message;
    return false;
}

bool SummaryBuilder::databaseFail(sqlite::Connection &db)
{
    m_databaseFailed = m_error.isEmpty();
    return fail(db.lastError());
}

bool SummaryBuilder::open(const QString &directory)
{
    if (!m_spool.open(directory) || !m_tileSpool.open(directory))
        return fail(m_spool.errorString() + m_tileSpool.errorString());
    return true;
}

bool SummaryBuilder::addSlice(std::int64_t slice, std::span<const BufferedAccess> accesses,
    std::span<const PlannedChunk> chunks, std::span<const std::uint32_t> chunkOfAccess)
{
    const qint64 cpuStart = threadCpuNanoseconds();
    // The accesses chunk by chunk (the chunks are in operation, then address order, and disjoint
    // per operation), each chunk's by address: the fragment then needs no sort.
    m_chunkStarts.assign(chunks.size() + 1, 0);
    for (const std::uint32_t chunk : chunkOfAccess)
        ++m_chunkStarts[chunk + 1];
    for (std::size_t c = 1; c < m_chunkStarts.size(); ++c)
        m_chunkStarts[c] += m_chunkStarts[c - 1];
    m_order.resize(chunkOfAccess.size());
    {
        std::vector<std::uint32_t> next(m_chunkStarts.begin(), m_chunkStarts.end() - 1);
        for (std::uint32_t i = 0; i < std::uint32_t(chunkOfAccess.size()); ++i)
            m_order[next[chunkOfAccess[i]]++] = i;
    }
    const auto byAddress = [&accesses](std::uint32_t a, std::uint32_t b) {
        return accesses[a].physical != accesses[b].physical ? accesses[a].physical < accesses[b].physical
                                                            : accesses[a].size < accesses[b].size;
    };
    for (std::size_t c = 0; c < chunks.size(); ++c) {
        const auto begin = m_order.begin() + std::ptrdiff_t(m_chunkStarts[c]);
        const auto end = m_order.begin() + std::ptrdiff_t(m_chunkStarts[c + 1]);
        if (end - begin > 1)
            std::sort(begin, end, byAddress);
        for (auto it = begin; it != end; ++it) {
            m_fragment.addAccess(accesses[*it].operation, accesses[*it].physical, accesses[*it].size);
            m_regions.addAccess(accesses[*it].physical, accesses[*it].size);
        }
        m_fragment.addChunk(chunks[c].operation, chunks[c].first);
        m_regions.add(chunks[c].first, chunks[c].last);
    }
    const bool added = addFragment(slice, m_fragment);
    m_cpuNs += threadCpuNanoseconds() - cpuStart;
    return added;
}

bool SummaryBuilder::addFragment(std::int64_t slice, SliceFragment &fragment)
{
    m_accesses += fragment.accessCount();
    m_chunks += fragment.chunkCount();
    if (!m_spool.append(slice, fragment.take()))
        return fail(m_spool.errorString());
    return true;
}

bool SummaryBuilder::finish(sqlite::Connection &db, const HistoryShape &shape,
    const std::function<bool(double)> &progress, const QString &sourceIdentity)
{
    return writeTables(db, [&](TileWriter &tiles) {
        const auto write
            = [&tiles](const TileKey &key, std::span<const Cell> cells) { return tiles.write(key, cells); };
        return bin(shape, progress, sourceIdentity, write, [&] { databaseFail(db); });
    });
}

bool SummaryBuilder::binTiles(
    const HistoryShape &shape, const std::function<bool(double)> &progress, const QString &sourceIdentity)
{
    if (!m_error.isEmpty())
        return false;
    const auto spool = [&](const TileKey &key, std::span<const Cell> cells) {
        // The tile's stored key and cell count, then its encoded cells.
        QByteArray record(2 * sizeof(qint64), Qt::Uninitialized);
        const qint64 header[2] = { storedTileKey(key), qint64(cells.size()) };
        std::memcpy(record.data(), header, sizeof header);
        record += encodeCells(cells);
        return m_tileSpool.append(m_spooledTiles++, record);
    };
    return bin(shape, progress, sourceIdentity, spool, [&] { fail(m_tileSpool.errorString()); })
        && (m_tileSpool.finishWriting() || fail(m_tileSpool.errorString()));
}

bool SummaryBuilder::writeTiles(sqlite::Connection &db)
{
    return writeTables(db, [&](TileWriter &tiles) {
        std::vector<QByteArray> records;
        for (std::int64_t tile = 0; tile < m_spooledTiles; ++tile) {
            if (!m_tileSpool.readSlice(tile, &records))
                return fail(m_tileSpool.errorString());
            if (records.size() != 1 || records.front().size() < qsizetype(2 * sizeof(qint64)))
                return fail(QStringLiteral("the summary's temporary file is damaged (tile %1)").arg(tile));
            qint64 header[2];
            std::memcpy(header, records.front().constData(), sizeof header);
            if (!tiles.write(tileKeyOf(header[0]), header[1], QByteArrayView(records.front()).sliced(sizeof header)))
                return databaseFail(db);
        }
        return true;
    });
}

bool SummaryBuilder::writeTables(sqlite::Connection &db, const std::function<bool(TileWriter &)> &fill)
{
    if (!m_error.isEmpty())
        return false;
    if (!createSummaryTables(db))
        return databaseFail(db);
    TileWriter tiles(db);
    if (!tiles.isValid())
        return databaseFail(db);
    if (!fill(tiles))
        return false;
    if (!writeSummaryInfo(db, m_info))
        return databaseFail(db);
    m_stats.tileBytes = tiles.bytes();
    return true;
}

bool SummaryBuilder::bin(const HistoryShape &shape, const std::function<bool(double)> &progress,
    const QString &sourceIdentity, const TilePyramid::Sink &sink, const std::function<void()> &sinkFailed)
{
    const qint64 cpuStart = threadCpuNanoseconds();
    if (!m_spool.finishWriting())
        return fail(m_spool.errorString());
    m_stats.spoolBytes = m_spool.bytesWritten();

    m_info = {};
    m_info.levels.minAddressLevel = m_options.minAddressLevel;
    m_info.levels.maxAddressLevel = m_options.maxAddressLevel;
    m_info.levels.slices = shape.slices;
    m_info.rule = m_options.rule;
    m_info.regions = m_regions.finish();
    m_info.hotspots = m_regions.hotspots();
    m_info.accesses = m_accesses;
    m_info.chunks = m_chunks;
    m_info.shape = shape;
    m_info.sourceIdentity = sourceIdentity;
    const AddressFold fold = m_info.fold();

    TilePyramid pyramid(m_info.levels, m_options.rule, sink);
    SliceBinning binning(fold, m_info.levels);
    std::vector<QByteArray> fragments;
    const auto sinkFailure = [&] {
        sinkFailed();
        return false;
    };
    for (std::int64_t slice = 0; slice < shape.slices; ++slice) {
        if (progress && slice % slicesPerProgress == 0 && !progress(double(slice) / double(shape.slices)))
            return fail(QStringLiteral("cancelled"));
        if (!m_spool.readSlice(slice, &fragments))
            return fail(m_spool.errorString());
        for (const QByteArray &fragment : fragments) {
            if (!binning.add(fragment))
                return fail(QStringLiteral("the summary's temporary file is damaged (slice %1)").arg(slice));
        }
        if (!pyramid.addSlice(binning.take()))
            return sinkFailure();
    }
    if (!pyramid.finish())
        return sinkFailure();
    m_info.buildCpuMilliseconds = (m_cpuNs + threadCpuNanoseconds() - cpuStart) / 1'000'000;
    m_stats.storedBlocks = pyramid.storedBlocks();
    m_stats.storedCells = pyramid.storedCells();
    return true;
}

} // namespace memhist::summary
