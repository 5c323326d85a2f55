// SPDX-License-Identifier: MIT
#include "core/summary/summarystore.h"

#include "core/storage/sqlite.h"
#include "core/summary/summarystatements.h"
#include "core/summary/tilecodec.h"

#include <QMap>
#include <QStringList>

namespace memhist::summary {

namespace {

// The keys of summary_info.
namespace key {
constexpr const char *version = "version";
constexpr const char *minAddressLevel = "min_address_level";
constexpr const char *maxAddressLevel = "max_address_level";
constexpr const char *slices = "slices";
constexpr const char *compactness = "compactness";
constexpr const char *cellsPerBin = "cells_per_bin";
constexpr const char *regions = "fold_regions"; // "first-last" in hex, space-separated
constexpr const char *minRegionShare = "fold_min_region_share";
constexpr const char *foldShare = "fold_gap_share";
// Version 2: "first-last:share" in hex and exact decimal, space-separated, and their layout.
constexpr const char *hotspots = "fold_hotspots";
constexpr const char *hotAccessWeight = "fold_hot_access_weight";
constexpr const char *minHotShare = "fold_min_hot_share";
constexpr const char *accesses = "accesses";
constexpr const char *chunks = "chunks";
constexpr const char *historySlices = "history_slices";
constexpr const char *historyLastChunk = "history_last_chunk_rowid";
constexpr const char *historyLastAccess = "history_last_access_rowid";
constexpr const char *sourceIdentity = "source_identity";
constexpr const char *buildCpuMs = "build_cpu_ms";
} // namespace key

// Doubles as text that reads back to the same double.
QString exactText(double value)
{
    return QString::number(value, 'g', 17);
}

} // namespace

std::optional<HistoryShape> readHistoryShape(sqlite::Connection &db)
{
    sqlite::Statement shape = db.prepare(statements::historyShape);
    if (!shape.isValid() || shape.step() != SQLITE_ROW)
        return std::nullopt;
    return HistoryShape { shape.int64(0), shape.int64(1), shape.int64(2) };
}

bool createSummaryTables(sqlite::Connection &db)
{
    return db.execute(statements::createTables);
}

bool writeSummaryInfo(sqlite::Connection &db, const SummaryInfo &info)
{
    QStringList regions;
    for (const AddressInterval &region : info.regions)
        regions << QString::number(region.first, 16) + u'-' + QString::number(region.last, 16);
    QStringList hotspots;
    for (const AccessHotspot &hotspot : info.hotspots)
        hotspots << QString::number(hotspot.addresses.first, 16) + u'-' + QString::number(hotspot.addresses.last, 16)
                + u':' + exactText(hotspot.share);
    const std::pair<const char *, QString> rows[] = {
        { key::version, QString::number(formatVersion) },
        { key::minAddressLevel, QString::number(info.levels.minAddressLevel) },
        { key::maxAddressLevel, QString::number(info.levels.maxAddressLevel) },
        { key::slices, QString::number(info.levels.slices) },
        { key::compactness, exactText(info.rule.compactness) },
        { key::cellsPerBin, exactText(info.rule.cellsPerBin) },
        { key::regions, regions.join(u' ') },
        { key::minRegionShare, exactText(info.layout.minRegionShare) },
        { key::foldShare, exactText(info.layout.foldShare) },
        { key::hotspots, hotspots.join(u' ') },
        { key::hotAccessWeight, exactText(info.layout.hotAccessWeight) },
        { key::minHotShare, exactText(info.layout.minHotShare) },
        { key::accesses, QString::number(info.accesses) },
        { key::chunks, QString::number(info.chunks) },
        { key::historySlices, QString::number(info.shape.slices) },
        { key::historyLastChunk, QString::number(info.shape.lastChunkRowId) },
        { key::historyLastAccess, QString::number(info.shape.lastAccessRowId) },
        { key::sourceIdentity, info.sourceIdentity },
        { key::buildCpuMs, QString::number(info.buildCpuMilliseconds) },
    };
    sqlite::Statement insert = db.prepare(statements::insertInfo);
    if (!insert.isValid())
        return false;
    for (const auto &[name, value] : rows) {
        insert.reset();
        insert.bind(1, QString::fromLatin1(name));
        insert.bind(2, value);
        if (!insert.run())
            return false;
    }
    return true;
}

std::optional<SummaryInfo> readSummaryInfo(sqlite::Connection &db, QString *why)
{
    why->clear();
    sqlite::Statement has = db.prepare(statements::hasTables);
    if (!has.isValid() || has.step() != SQLITE_ROW || has.int64(0) != 2)
        return std::nullopt;
    QMap<QString, QString> values;
    sqlite::Statement select = db.prepare(statements::selectInfo);
    int rc = SQLITE_ROW;
    while (select.isValid() && (rc = select.step()) == SQLITE_ROW)
        values.insert(select.text(0), select.text(1));
    if (!select.isValid() || rc != SQLITE_DONE) {
        *why = QStringLiteral("cannot read summary_info: ") + db.lastError();
        return std::nullopt;
    }

    bool allOk = true;
    const auto integer = [&](const char *name) {
        bool ok = false;
        const qint64 value = values.value(QLatin1String(name)).toLongLong(&ok);
        allOk = allOk && ok;
        return value;
    };
    const auto real = [&](const char *name) {
        bool ok = false;
        const double value = values.value(QLatin1String(name)).toDouble(&ok);
        allOk = allOk && ok;
        return value;
    };
    const qint64 version = integer(key::version);
    if (allOk && (version < oldestReadableFormatVersion || version > formatVersion)) {
        *why = QStringLiteral("the summary is of version %1, this viewer reads version %2")
                   .arg(version)
                   .arg(formatVersion);
        return std::nullopt;
    }
    SummaryInfo info;
    info.levels.minAddressLevel = int(integer(key::minAddressLevel));
    info.levels.maxAddressLevel = int(integer(key::maxAddressLevel));
    info.levels.slices = integer(key::slices);
    info.rule.compactness = real(key::compactness);
    info.rule.cellsPerBin = real(key::cellsPerBin);
    info.layout.minRegionShare = real(key::minRegionShare);
    info.layout.foldShare = real(key::foldShare);
    info.accesses = integer(key::accesses);
    info.chunks = integer(key::chunks);
    info.shape.slices = integer(key::historySlices);
    info.shape.lastChunkRowId = integer(key::historyLastChunk);
    info.shape.lastAccessRowId = integer(key::historyLastAccess);
    info.sourceIdentity = values.value(QLatin1String(key::sourceIdentity));
    info.buildCpuMilliseconds = values.value(QLatin1String(key::buildCpuMs)).toLongLong();
    const QString regions = values.value(QLatin1String(key::regions));
    for (const QStringView text : QStringView(regions).tokenize(u' ', Qt::SkipEmptyParts)) {
        if (info.regions.size() == std::size_t(maxFoldRegions)) {
            // Its tiles are binned on a fold AddressFold would not make (it merges the smallest gaps
            // beyond this), and no builder writes so many.
            *why = QStringLiteral("summary_info names more than %1 fold regions").arg(maxFoldRegions);
            return std::nullopt;
        }
        const qsizetype dash = text.indexOf(u'-');
        bool firstOk = false;
        bool lastOk = false;
        AddressInterval region;
        if (dash > 0) {
            region.first = text.left(dash).toULongLong(&firstOk, 16);
            region.last = text.mid(dash + 1).toULongLong(&lastOk, 16);
        }
        if (!firstOk || !lastOk || region.first > region.last
            || (!info.regions.empty() && region.first <= info.regions.back().last)) {
            allOk = false;
            break;
        }
        info.regions.push_back(region);
    }
    if (allOk && version >= 2) {
        info.layout.hotAccessWeight = real(key::hotAccessWeight);
        info.layout.minHotShare = real(key::minHotShare);
        const QString hotspots = values.value(QLatin1String(key::hotspots));
        for (const QStringView text : QStringView(hotspots).tokenize(u' ', Qt::SkipEmptyParts)) {
            const qsizetype dash = text.indexOf(u'-');
            const qsizetype colon = text.indexOf(u':');
            bool firstOk = false;
            bool lastOk = false;
            bool shareOk = false;
            AccessHotspot hotspot;
            if (dash > 0 && colon > dash) {
                hotspot.addresses.first = text.left(dash).toULongLong(&firstOk, 16);
                hotspot.addresses.last = text.mid(dash + 1, colon - dash - 1).toULongLong(&lastOk, 16);
                hotspot.share = text.mid(colon + 1).toDouble(&shareOk);
            }
            if (!firstOk || !lastOk || !shareOk || hotspot.addresses.first > hotspot.addresses.last
                || !(hotspot.share > 0 && hotspot.share <= 1)
                || info.hotspots.size() >= std::size_t(HotspotOptions {}.maxCount)
                || (!info.hotspots.empty() && hotspot.addresses.first <= info.hotspots.back().addresses.last)) {
                allOk = false;
                break;
            }
            info.hotspots.push_back(hotspot);
        }
        allOk = allOk && values.contains(QLatin1String(key::hotspots)) && info.layout.hotAccessWeight >= 0
            && info.layout.hotAccessWeight <= 16 && info.layout.minHotShare >= 0 && info.layout.minHotShare <= 1;
    }
    if (!allOk || !info.levels.isValid() || !values.contains(QLatin1String(key::regions))) {
        *why = QStringLiteral("summary_info is incomplete or damaged");
        return std::nullopt;
    }
    return info;
}

TileWriter::TileWriter(sqlite::Connection &db)
    : m_insert(std::make_unique<sqlite::Statement>(db.prepare(statements::insertTile)))
{ }

TileWriter::~TileWriter() = default;

bool TileWriter::isValid() const
{
    return m_insert->isValid();
}

bool TileWriter::write(const TileKey &key, std::span<const Cell> cells)
{
    return write(key, qint64(cells.size()), encodeCells(cells));
}

bool TileWriter::write(const TileKey &key, qint64 cellCount, QByteArrayView data)
{
    m_bytes += data.size();
    m_insert->reset();
    m_insert->bind(1, storedTileKey(key));
    m_insert->bind(2, cellCount);
    sqlite3_bind_blob(m_insert->handle(), 3, data.constData(), int(data.size()), SQLITE_TRANSIENT);
    return m_insert->run();
}

std::int64_t storedTileKey(const TileKey &key)
{
    return (std::int64_t(key.timeLevel) << 58) | (std::int64_t(key.addressLevel) << 53) | (key.block << 40) | key.tile;
}

TileKey tileKeyOf(std::int64_t stored)
{
    return { int(stored >> 58), int((stored >> 53) & 31), (stored >> 40) & 8191,
        stored & ((std::int64_t(1) << 40) - 1) };
}

bool readStoredTiles(sqlite::Statement &select, int timeLevel, int addressLevel, std::int64_t block, std::int64_t first,
    std::int64_t last, const TileVisitor &tile)
{
    select.reset();
    select.bind(1, storedTileKey({ timeLevel, addressLevel, block, first }));
    select.bind(2, storedTileKey({ timeLevel, addressLevel, block, last }));
    int rc = SQLITE_ROW;
    while ((rc = select.step()) == SQLITE_ROW) {
        const auto *data = static_cast<const char *>(sqlite3_column_blob(select.handle(), 2));
        const int size = sqlite3_column_bytes(select.handle(), 2);
        if (!tile(tileKeyOf(select.int64(0)).tile, select.int64(1), data, size)) {
            select.reset();
            return true;
        }
    }
    select.reset();
    return rc == SQLITE_DONE;
}

} // namespace memhist::summary
