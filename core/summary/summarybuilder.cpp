#include "core/summary/summarybuilder.h"

#include "core/storage/sqlite.h"
#include "core/summary/slicebinning.h"
#include "core/summary/tilepyramid.h"

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
    if (!m_spool.open(directory))
        return fail(m_spool.errorString());
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
        for (auto it = begin; it != end; ++it)
            m_fragment.addAccess(accesses[*it].operation, accesses[*it].physical, accesses[*it].size);
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
    if (!m_error.isEmpty())
        return false;
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
    m_info.accesses = m_accesses;
    m_info.chunks = m_chunks;
    m_info.shape = shape;
    m_info.sourceIdentity = sourceIdentity;
    const AddressFold fold = m_info.fold();

    if (!createSummaryTables(db))
        return databaseFail(db);
    TileWriter tiles(db);
    if (!tiles.isValid())
        return databaseFail(db);
    TilePyramid pyramid(m_info.levels, m_options.rule,
        [&tiles](const TileKey &key, std::span<const Cell> cells) { return tiles.write(key, cells); });
    SliceBinning binning(fold, m_info.levels);
    std::vector<QByteArray> fragments;
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
            return databaseFail(db);
    }
    if (!pyramid.finish())
        return databaseFail(db);
    m_info.buildCpuMilliseconds = (m_cpuNs + threadCpuNanoseconds() - cpuStart) / 1'000'000;
    if (!writeSummaryInfo(db, m_info))
        return databaseFail(db);
    m_stats.storedBlocks = pyramid.storedBlocks();
    m_stats.storedCells = pyramid.storedCells();
    m_stats.tileBytes = tiles.bytes();
    return true;
}

} // namespace memhist::summary
