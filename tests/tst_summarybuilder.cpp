// SPDX-License-Identifier: MIT
// The display summary the writer builds (core/summary): every stored block against a brute-force
// count of the history's rows at its levels, the tile reader's replacements against the same count,
// the cell codec's round trip and the damage it refuses, and the first pass's spool and fragments.
#include "core/storage/sqlite.h"
#include "core/summary/slicefragment.h"
#include "core/summary/slicespool.h"
#include "core/summary/summarybuilder.h"
#include "core/summary/tilecodec.h"
#include "core/summary/tilereader.h"
#include "core/writer/historywriter.h"
#include "summaryoracle.h"
#include "testsupport.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <random>
#include <set>
#include <zlib.h>

using namespace memhist;
using namespace memhist::summary;
using namespace memhist::test;

namespace {

struct StreamShape
{
    std::uint32_t seed = 1;
    int accesses = 2000;
    int regions = 3; // far apart, so that the fold folds the gaps between them
    std::uint32_t largestSize = 8; // sizes are 1, 2, 4, ... up to this
};

// A random stream over `regions` regions of 64 KiB to 1 MiB, 1 to 3 accesses a transition.
QList<Access> randomStream(const StreamShape &shape)
{
    std::mt19937_64 random(shape.seed);
    const auto below
        = [&random](std::uint64_t bound) { return std::uniform_int_distribution<std::uint64_t>(0, bound - 1)(random); };
    std::vector<std::pair<std::uint64_t, std::uint64_t>> regions; // base, bytes
    for (int r = 0; r < shape.regions; ++r)
        regions.emplace_back(0x10000000ull * std::uint64_t(r + 1) + 0x1000 * below(16), 0x10000 << below(5));
    std::vector<std::uint32_t> sizes;
    for (std::uint32_t size = 1; size <= shape.largestSize; size *= 2)
        sizes.push_back(size);
    static const Operation operations[] = { Operation::Read, Operation::Write, Operation::Execute };
    QList<Access> stream;
    std::uint64_t transition = 0;
    while (stream.size() < shape.accesses) {
        const int count = 1 + int(below(3));
        for (int i = 0; i < count && stream.size() < shape.accesses; ++i) {
            const auto &[base, bytes] = regions[below(regions.size())];
            const std::uint32_t size = sizes[below(sizes.size())];
            // Half the accesses in a hot corner, the rest anywhere in the region.
            const std::uint64_t span = below(2) ? 256 : bytes - size;
            stream << userAccess(transition, operations[below(3)], base + below(span), size);
        }
        transition += 1 + below(2);
    }
    return stream;
}

bool writeHistory(const QString &path, const QList<Access> &stream, const WriterOptions &options)
{
    HistoryWriter writer(path, options);
    if (!writer.open())
        return false;
    for (const Access &access : stream) {
        if (!writer.add(access))
            return false;
    }
    return writer.finish();
}

QString describe(const Cell &cell)
{
    return QStringLiteral("bin %1 accesses %2/%3/%4 chunks %5/%6/%7")
        .arg(cell.bin)
        .arg(cell.accesses[0])
        .arg(cell.accesses[1])
        .arg(cell.accesses[2])
        .arg(cell.chunks[0])
        .arg(cell.chunks[1])
        .arg(cell.chunks[2]);
}

// Raw deflate of `raw`, behind its length: a hand-made block.
QByteArray deflated(const QByteArray &raw)
{
    QByteArray out;
    out.append(char(raw.size())); // one varint byte: the test blocks are short
    z_stream stream {};
    deflateInit2(&stream, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
    QByteArray body(int(deflateBound(&stream, uLong(raw.size()))), Qt::Uninitialized);
    stream.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(raw.constData()));
    stream.avail_in = uInt(raw.size());
    stream.next_out = reinterpret_cast<Bytef *>(body.data());
    stream.avail_out = uInt(body.size());
    deflate(&stream, Z_FINISH);
    body.resize(qsizetype(stream.total_out));
    deflateEnd(&stream);
    return out + body;
}

} // namespace

Q_DECLARE_METATYPE(memhist::test::SummaryRows)
using Intervals = std::vector<AddressInterval>;
Q_DECLARE_METATYPE(Intervals)

class TestSummaryBuilder : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void tilesAreExactAtEveryLevel_data()
    {
        QTest::addColumn<int>("seed");
        QTest::addColumn<int>("accesses");
        QTest::addColumn<int>("regions");
        QTest::addColumn<int>("largestSize");
        QTest::addColumn<int>("sliceCap");
        QTest::addColumn<int>("chunkTarget");
        QTest::addColumn<int>("expectedSlices"); // -1: several, as the caps make them
        QTest::newRow("one slice, three regions") << 1 << 300 << 3 << 8 << 65536 << 16 << 1;
        QTest::newRow("seven slices: not a power of two") << 2 << 1400 << 3 << 8 << 200 << 16 << 7;
        QTest::newRow("many slices, one chunk per access") << 3 << 3000 << 4 << 8 << 100 << 1 << -1;
        QTest::newRow("wide accesses spanning many bins") << 4 << 1500 << 2 << 65536 << 150 << 16 << -1;
        QTest::newRow("one region, bytes everywhere") << 5 << 2500 << 1 << 16 << 128 << 4 << -1;
    }
    void tilesAreExactAtEveryLevel()
    {
        QFETCH(int, seed);
        QFETCH(int, accesses);
        QFETCH(int, regions);
        QFETCH(int, largestSize);
        QFETCH(int, sliceCap);
        QFETCH(int, chunkTarget);
        QFETCH(int, expectedSlices);
        const QString path = m_dir.filePath(QStringLiteral("exact-%1.memhist").arg(seed));
        WriterOptions options;
        options.sliceAccessCap = quint32(sliceCap);
        options.chunkTargetAccesses = quint32(chunkTarget);
        const QList<Access> stream
            = randomStream({ std::uint32_t(seed), accesses, regions, std::uint32_t(largestSize) });
        QVERIFY(writeHistory(path, stream, options));

        sqlite::Connection db;
        QVERIFY(db.open(path, sqlite::Connection::Mode::ReadOnly));
        QString why;
        const std::optional<SummaryInfo> info = readSummaryInfo(db, &why);
        QVERIFY2(info, qPrintable(why));
        const SummaryRows rows = readSummaryRows(path);
        if (expectedSlices >= 0)
            QCOMPARE(qint64(rows.slices.size()), qint64(expectedSlices));
        else
            QVERIFY(rows.slices.size() > 8);
        QCOMPARE(info->levels.slices, qint64(rows.slices.size()));
        QCOMPARE(info->accesses, qint64(accesses));
        QCOMPARE(info->chunks, qint64(rows.chunks.size()));
        QCOMPARE(
            info->shape, (HistoryShape { qint64(rows.slices.size()), qint64(rows.chunks.size()), qint64(accesses) }));
        QVERIFY(info->sourceIdentity.isEmpty());

        // The fold is the one of every chunk range.
        OccupiedRegionsBuilder regionsBuilder;
        for (const SummaryRows::Row &chunk : rows.chunks)
            regionsBuilder.add(chunk.first, chunk.last);
        QCOMPARE(info->regions, regionsBuilder.finish());
        // The gaps between the stream's areas (256 MiB apart) are all folded, and so, up to the cap
        // on regions, are the holes between the accesses scattered in an area that are larger than
        // the few KiB the chunks cover (FoldOptions).
        QVERIFY2(int(info->regions.size()) >= regions, qPrintable(QString::number(info->regions.size())));
        QVERIFY(int(info->regions.size()) <= FoldOptions {}.maxRegions);
        for (const AddressInterval &region : info->regions)
            QCOMPARE(region.first >> 28, region.last >> 28);

        // Every stored block holds exactly the cells of its tile in its bins.
        const AddressFold fold = info->fold();
        const OracleTiles oracle = oracleTiles(rows, fold, info->levels);
        bool decoded = false;
        const auto blocks = storedBlocks(db, &decoded);
        QVERIFY(decoded);
        QVERIFY(!blocks.empty());
        std::set<std::tuple<int, int, std::int64_t>> storedTiles;
        for (const auto &[stored, cells] : blocks) {
            const TileKey key = tileKeyOf(stored);
            storedTiles.insert({ key.timeLevel, key.addressLevel, key.tile });
            const auto tile = oracle.find({ key.timeLevel, key.addressLevel, key.tile });
            QVERIFY2(tile != oracle.end(), "a stored block of an empty tile");
            std::vector<Cell> expected;
            for (const auto &[bin, cell] : tile->second) {
                if (blockOf(bin) == key.block)
                    expected.push_back(cell);
            }
            QVERIFY2(!cells.empty(), "an empty block is never stored");
            QCOMPARE(cells.size(), expected.size());
            for (std::size_t i = 0; i < cells.size(); ++i)
                QVERIFY2(cells[i] == expected[i],
                    qPrintable(QStringLiteral("t %1 a %2 tile %3: %4, expected %5")
                                   .arg(key.timeLevel)
                                   .arg(key.addressLevel)
                                   .arg(key.tile)
                                   .arg(describe(cells[i]), describe(expected[i]))));
        }
        // Every slice's finest level is stored, block by block.
        for (std::int64_t slice = 0; slice < qint64(rows.slices.size()); ++slice) {
            const auto tile = oracle.find({ 0, info->levels.maxAddressLevel, slice });
            QVERIFY(tile != oracle.end());
            std::set<std::int64_t> expectedBlocks;
            for (const auto &[bin, cell] : tile->second)
                expectedBlocks.insert(blockOf(bin));
            for (const std::int64_t block : expectedBlocks)
                QVERIFY(blocks.count(storedTileKey({ 0, info->levels.maxAddressLevel, block, slice })));
        }

        // Reading any tile at any levels, whole or a band of its bins, gives its coverage and its
        // chunks exactly, wherever the blocks come from.
        TileReader reader(db, *info);
        const SummaryLevels &levels = info->levels;
        for (int t = 0; t <= levels.topTimeLevel(); ++t) {
            for (int a = levels.minAddressLevel; a <= levels.maxAddressLevel; ++a) {
                const std::uint32_t bins = std::uint32_t(1) << a;
                for (const auto &[firstBin, lastBin] :
                    { std::pair<std::uint32_t, std::uint32_t>(0, bins - 1), { bins / 3, bins / 3 + bins / 5 } }) {
                    for (std::int64_t k = 0; k < levels.tilesAt(t); ++k) {
                        std::map<std::uint32_t, Cell> seen; // by bin of level a: coverage and chunks
                        const qint64 cellsBefore = reader.cellsRead();
                        const bool read = reader.read(
                            { t, a, k, k, firstBin, lastBin }, [] { return false; },
                            [&](const TileKey &key, std::span<const Cell> cells) {
                                for (const Cell &cell : cells) {
                                    const std::uint32_t bin = cell.bin >> (key.addressLevel - a);
                                    Cell &sum = seen[bin];
                                    sum.bin = bin;
                                    for (int op = 0; op < operationSlots; ++op) {
                                        sum.accesses[op] = sum.accesses[op] || cell.accesses[op];
                                        sum.chunks[op] += cell.chunks[op];
                                    }
                                }
                            });
                        QVERIFY2(read, qPrintable(reader.errorString()));
                        std::map<std::uint32_t, Cell> expected;
                        const auto tile = oracle.find({ t, a, k });
                        if (tile != oracle.end()) {
                            for (const auto &[bin, cell] : tile->second) {
                                Cell covered = cell;
                                for (int op = 0; op < operationSlots; ++op)
                                    covered.accesses[op] = covered.accesses[op] != 0;
                                expected[bin] = covered;
                            }
                        }
                        // The pyramid rule's bound: whatever replaces the window's blocks has at most
                        // 1 / compactness (4) times their cells.
                        qint64 blockCells = 0;
                        if (tile != oracle.end()) {
                            for (const auto &[bin, cell] : tile->second)
                                blockCells += blockOf(bin) >= blockOf(firstBin) && blockOf(bin) <= blockOf(lastBin);
                        }
                        QVERIFY2(reader.cellsRead() - cellsBefore <= 4 * blockCells,
                            qPrintable(QStringLiteral("t %1 a %2 tile %3: %4 cells read for %5")
                                           .arg(t)
                                           .arg(a)
                                           .arg(k)
                                           .arg(reader.cellsRead() - cellsBefore)
                                           .arg(blockCells)));
                        // Blocks cover whole blocks: compare within the window's bins.
                        const auto inWindow = [&](std::map<std::uint32_t, Cell> cells) {
                            std::erase_if(cells,
                                [&](const auto &entry) { return entry.first < firstBin || entry.first > lastBin; });
                            return cells;
                        };
                        QVERIFY2(inWindow(seen) == inWindow(expected),
                            qPrintable(QStringLiteral("t %1 a %2 tile %3 bins %4..%5")
                                           .arg(t)
                                           .arg(a)
                                           .arg(k)
                                           .arg(firstBin)
                                           .arg(lastBin)));
                    }
                }
            }
        }
        // The pyramid stores less than a copy of the finest level per level would.
        QVERIFY(storedTiles.size() < std::size_t(levels.topTimeLevel() + 1)
                * std::size_t(levels.maxAddressLevel - levels.minAddressLevel + 1) * std::size_t(rows.slices.size()));
    }

    // The regions a written history stores: four blocks of 8-byte accesses, one block after the
    // other in time, 8 KiB apart. Folded when the blocks cover 8 KiB in all (the gap floor is the
    // footprint), not when they cover 128 KiB (the floor is then 64 KiB).
    void storesTheFoldOfItsFootprint_data()
    {
        QTest::addColumn<quint64>("blockBytes");
        QTest::addColumn<Intervals>("expected");
        QTest::newRow("8 KiB footprint: 8 KiB gaps folded")
            << quint64(0x800)
            << Intervals { { 0x600000, 0x6007ff }, { 0x602800, 0x602fff }, { 0x605000, 0x6057ff },
                   { 0x607800, 0x607fff } };
        QTest::newRow("128 KiB footprint: 8 KiB gaps kept") << quint64(0x8000) << Intervals { { 0x600000, 0x625fff } };
    }
    void storesTheFoldOfItsFootprint()
    {
        QFETCH(quint64, blockBytes);
        QFETCH(Intervals, expected);
        QList<Access> stream;
        std::uint64_t transition = 0;
        for (std::uint64_t block = 0; block < 4; ++block) {
            const std::uint64_t base = 0x600000 + block * (blockBytes + 0x2000);
            for (std::uint64_t offset = 0; offset < blockBytes; offset += 8)
                stream << userAccess(transition++, Operation::Read, base + offset, 8);
        }
        const QString path = m_dir.filePath(QStringLiteral("fold-%1.memhist").arg(blockBytes));
        QVERIFY(writeHistory(path, stream, {}));
        sqlite::Connection db;
        QVERIFY(db.open(path, sqlite::Connection::Mode::ReadOnly));
        QString why;
        const std::optional<SummaryInfo> info = readSummaryInfo(db, &why);
        QVERIFY2(info, qPrintable(why));
        QCOMPARE(info->regions, expected);
    }

    void emptyHistory()
    {
        const QString path = m_dir.filePath(QStringLiteral("empty.memhist"));
        QVERIFY(writeHistory(path, {}, {}));
        sqlite::Connection db;
        QVERIFY(db.open(path, sqlite::Connection::Mode::ReadOnly));
        QString why;
        const std::optional<SummaryInfo> info = readSummaryInfo(db, &why);
        QVERIFY2(info, qPrintable(why));
        QCOMPARE(info->levels.slices, 0);
        QVERIFY(info->regions.empty());
        bool decoded = false;
        QVERIFY(storedBlocks(db, &decoded).empty());
        QVERIFY(decoded);
        int visited = 0;
        TileReader reader(db, *info);
        QVERIFY(reader.read(
            { 0, 10, 0, 0, 0, 1023 }, [] { return false; },
            [&visited](const TileKey &, std::span<const Cell>) { ++visited; }));
        QCOMPARE(visited, 0);
    }

    void readerStopsWhenCancelled()
    {
        const QString path = m_dir.filePath(QStringLiteral("cancel.memhist"));
        WriterOptions options;
        options.sliceAccessCap = 100;
        QVERIFY(writeHistory(path, randomStream({ 7, 2000, 2, 8 }), options));
        sqlite::Connection db;
        QVERIFY(db.open(path, sqlite::Connection::Mode::ReadOnly));
        QString why;
        const std::optional<SummaryInfo> info = readSummaryInfo(db, &why);
        QVERIFY(info);
        TileReader reader(db, *info);
        int visited = 0;
        int checks = 0;
        const TileWindow all { 0, info->levels.maxAddressLevel, 0, info->levels.slices - 1, 0, 0xffff };
        QVERIFY(!reader.read(
            all, [&checks] { return ++checks > 3; },
            [&visited](const TileKey &, std::span<const Cell>) { ++visited; }));
        QCOMPARE(visited, 3); // a check before each block
        QVERIFY(reader.errorString().isEmpty());
    }

    // A dense region (the same 64 bins of the finest level in each of 8 slices, like a stack):
    // exactly which blocks the rule stores, seen as the cells each whole-history view reads.
    // Per slice: 64 cells at address level 12, 32 at 11, 16 at 10; merging slices merges nothing
    // away. Stored beyond the slices' finest blocks: level 10 of the slices (16 <= 64 / 4), level 11
    // of pairs (32 <= 128 / 4), level 12 (64 <= 256 / 4) and level 10 (16 <= 64 / 4) of quadruples,
    // level 11 of the whole (32 <= 128 / 4).
    void viewsReadBoundedCells_data()
    {
        QTest::addColumn<double>("cellsPerBin");
        QTest::addColumn<int>("timeLevel");
        QTest::addColumn<int>("addressLevel");
        QTest::addColumn<qint64>("cellsRead");
        QTest::addColumn<qint64>("idealCells"); // the view's own tiles at its levels
        QTest::newRow("slices, finest: as stored") << 0.0 << 0 << 12 << qint64(512) << qint64(512);
        QTest::newRow("slices, level 11: the finest in its place") << 0.0 << 0 << 11 << qint64(512) << qint64(256);
        QTest::newRow("slices, coarsest: stored") << 0.0 << 0 << 10 << qint64(128) << qint64(128);
        QTest::newRow("pairs, finest: the slices in its place") << 0.0 << 1 << 12 << qint64(512) << qint64(256);
        QTest::newRow("pairs, level 11: stored") << 0.0 << 1 << 11 << qint64(128) << qint64(128);
        QTest::newRow("pairs, coarsest: level 11 in its place") << 0.0 << 1 << 10 << qint64(128) << qint64(64);
        QTest::newRow("quadruples, finest: stored") << 0.0 << 2 << 12 << qint64(128) << qint64(128);
        QTest::newRow("quadruples, level 11: the finest in its place") << 0.0 << 2 << 11 << qint64(128) << qint64(64);
        QTest::newRow("quadruples, coarsest: stored") << 0.0 << 2 << 10 << qint64(32) << qint64(32);
        QTest::newRow("whole, finest: the quadruples in its place") << 0.0 << 3 << 12 << qint64(128) << qint64(64);
        QTest::newRow("whole, level 11: stored") << 0.0 << 3 << 11 << qint64(32) << qint64(32);
        QTest::newRow("whole, coarsest: level 11 in its place") << 0.0 << 3 << 10 << qint64(32) << qint64(16);
        // The rule before it was tightened: too few cells per bin to store any coarser block, so a
        // view of the whole history at the coarsest level read every slice's finest cells.
        QTest::newRow("8 cells per bin: whole, coarsest reads every slice")
            << 8.0 << 3 << 10 << qint64(512) << qint64(16);
    }
    void viewsReadBoundedCells()
    {
        QFETCH(double, cellsPerBin);
        QFETCH(int, timeLevel);
        QFETCH(int, addressLevel);
        QFETCH(qint64, cellsRead);
        QFETCH(qint64, idealCells);
        sqlite::Connection db;
        QVERIFY(db.open(QStringLiteral(":memory:"), sqlite::Connection::Mode::ReadWriteCreate));
        QVERIFY(createSummaryTables(db));
        SummaryInfo info;
        info.levels.minAddressLevel = 10;
        info.levels.maxAddressLevel = 12;
        info.levels.slices = 8;
        {
            TileWriter tiles(db);
            QVERIFY(tiles.isValid());
            TilePyramid pyramid(info.levels, { 0.25, cellsPerBin },
                [&tiles](const TileKey &key, std::span<const Cell> cells) { return tiles.write(key, cells); });
            for (int slice = 0; slice < 8; ++slice) {
                std::vector<std::vector<Cell>> levels(3);
                for (int level = 0; level < 3; ++level) {
                    for (std::uint32_t bin = 0; bin < (16u << level); ++bin) {
                        Cell cell;
                        cell.bin = bin;
                        cell.accesses[1] = 1;
                        levels[std::size_t(level)].push_back(cell);
                    }
                }
                QVERIFY(pyramid.addSlice(std::move(levels)));
            }
            QVERIFY(pyramid.finish());
        }
        TileReader reader(db, info);
        const std::uint32_t lastBin = (std::uint32_t(1) << addressLevel) - 1;
        qint64 cells = 0;
        QVERIFY(reader.read(
            { timeLevel, addressLevel, 0, info.levels.tilesAt(timeLevel) - 1, 0, lastBin }, [] { return false; },
            [&cells](const TileKey &, std::span<const Cell> read) { cells += qint64(read.size()); }));
        QCOMPARE(reader.cellsRead(), cellsRead);
        QCOMPARE(cells, cellsRead);
        QCOMPARE(qint64(info.levels.tilesAt(timeLevel)) * (qint64(16) << (addressLevel - 10)), idealCells);
        if (cellsPerBin == 0)
            QVERIFY(cellsRead <= 4 * idealCells);
    }

    void cellsRoundTrip()
    {
        std::mt19937 random(11);
        std::vector<Cell> cells;
        std::uint32_t bin = 0;
        for (int i = 0; i < 3000; ++i) {
            bin += 1 + random() % 40;
            Cell cell;
            cell.bin = bin;
            const int op = int(random() % 3);
            cell.accesses[op] = 1 + random() % 5;
            cell.chunks[op] = random() % 4;
            if (i % 7 == 0)
                cell.accesses[(op + 1) % 3] = 0xffffffffu; // saturated
            if (i % 11 == 0)
                cell.chunks[(op + 2) % 3] = 70000; // a chunk count without accesses
            cells.push_back(cell);
        }
        const QByteArray data = encodeCells(cells);
        std::vector<Cell> decoded { Cell {} }; // decoding appends
        QVERIFY(decodeCells(data.constData(), data.size(), bin + 1, &decoded));
        QCOMPARE(decoded.size(), cells.size() + 1);
        QVERIFY(std::equal(cells.begin(), cells.end(), decoded.begin() + 1));
        QVERIFY(data.size() < qsizetype(cells.size()) * 4);
    }

    void damagedBlocksAreRefused_data()
    {
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<int>("binCount");
        Cell cell;
        cell.bin = 100;
        cell.accesses[1] = 3;
        const QByteArray good = encodeCells(std::vector<Cell> { cell });
        QTest::newRow("the control: a good block") << good << 128;
        QTest::newRow("empty") << QByteArray() << 128;
        QTest::newRow("truncated") << good.left(good.size() - 1) << 128;
        QTest::newRow("not deflate") << QByteArray("\x05\xff\xff\xff\xff\xff", 6) << 128;
        QTest::newRow("more raw bytes than a block can have") << QByteArray("\xff\xff\xff\xff\x0f", 5) << 128;
        QTest::newRow("a bin beyond the level's bins") << good << 100;
        // Raw: 1 cell, 1 delta byte, delta 5, mask 0 (no operation), no counts.
        QTest::newRow("a cell without operations") << deflated(QByteArray("\x01\x01\x05\x00", 4)) << 128;
        // Raw: 1 cell, delta 5, mask 2 (read), a count, then a stray byte.
        QTest::newRow("bytes after the last count") << deflated(QByteArray("\x01\x01\x05\x02\x08\x07", 6)) << 128;
    }
    void damagedBlocksAreRefused()
    {
        QFETCH(QByteArray, data);
        QFETCH(int, binCount);
        std::vector<Cell> cells;
        const bool control = QByteArray(QTest::currentDataTag()).startsWith("the control");
        QCOMPARE(decodeCells(data.constData(), data.size(), std::uint32_t(binCount), &cells), control);
        QCOMPARE(cells.size(), std::size_t(control ? 1 : 0));
    }

    void spoolGathersEachSlicesFragments()
    {
        SliceSpool spool;
        QVERIFY(spool.open(m_dir.path()));
        QVERIFY(spool.append(2, "c"));
        QVERIFY(spool.append(0, "a"));
        QVERIFY(spool.append(2, "d"));
        QVERIFY(spool.append(1, QByteArray(5 << 20, 'b'))); // larger than the write buffer
        QVERIFY(spool.finishWriting());
        QCOMPARE(spool.bytesWritten(), qint64(3 + (5 << 20)));
        std::vector<QByteArray> fragments;
        QVERIFY(spool.readSlice(0, &fragments));
        QCOMPARE(fragments, std::vector<QByteArray> { "a" });
        QVERIFY(spool.readSlice(1, &fragments));
        QCOMPARE(fragments, std::vector<QByteArray> { QByteArray(5 << 20, 'b') });
        QVERIFY(spool.readSlice(2, &fragments));
        QCOMPARE(fragments, (std::vector<QByteArray> { "c", "d" }));
        QVERIFY(spool.readSlice(3, &fragments));
        QVERIFY(fragments.empty());
        // Nothing of it is visible in the directory.
        QCOMPARE(QDir(m_dir.path()).entryList({ QStringLiteral(".memhist-summary-*") }, QDir::Files | QDir::Hidden),
            QStringList());
    }

    // The writer bins the tiles apart (binTiles(), no connection) and writes them later
    // (writeTiles()): the same rows as finish() writes at once; a cancel stops the binning.
    void tilesBinnedApartAreTheSameAsFinished()
    {
        std::mt19937_64 random(5);
        std::vector<std::vector<BufferedAccess>> slices(40);
        std::uint64_t transition = 0;
        for (std::vector<BufferedAccess> &slice : slices) {
            for (int i = 0; i < 300; ++i) {
                const std::uint64_t address = (random() % 3) * 0x1000000 + (random() % 0x4000);
                const std::uint8_t operation = std::uint8_t(1) << (random() % 3);
                slice.push_back({ transition++, address, 0, std::uint32_t(1 + random() % 8), operation, false });
            }
        }
        const auto feed = [&](SummaryBuilder *builder) {
            qint64 chunks = 0;
            for (std::size_t index = 0; index < slices.size(); ++index) {
                const SlicePlan plan = planSlice(slices[index], {});
                if (plan.accessCount != slices[index].size()
                    || !builder->addSlice(qint64(index), slices[index], plan.chunks, plan.chunkOfAccess))
                    return HistoryShape {};
                chunks += qint64(plan.chunks.size());
            }
            return HistoryShape { qint64(slices.size()), chunks, qint64(transition) };
        };
        const auto tiles = [](sqlite::Connection &db) {
            QStringList rows;
            sqlite::Statement select = db.prepare("SELECT key, cells, hex(data) FROM summary_tiles ORDER BY key");
            while (select.step() == SQLITE_ROW)
                rows << QStringLiteral("%1 %2 %3").arg(select.int64(0)).arg(select.int64(1)).arg(select.text(2));
            return rows;
        };
        const auto info = [](sqlite::Connection &db) {
            QStringList rows;
            sqlite::Statement select = db.prepare("SELECT * FROM summary_info ORDER BY 1");
            while (select.step() == SQLITE_ROW)
                rows << select.text(0) + u'=' + select.text(1);
            return rows.filter(QRegularExpression(QStringLiteral("^(?!build_cpu)")));
        };

        SummaryBuilder atOnce;
        QVERIFY(atOnce.open(m_dir.path()));
        const HistoryShape shape = feed(&atOnce);
        QCOMPARE(shape.slices, 40);
        sqlite::Connection finished;
        QVERIFY(finished.open(QStringLiteral(":memory:"), sqlite::Connection::Mode::ReadWriteCreate));
        QVERIFY2(atOnce.finish(finished, shape), qPrintable(atOnce.errorString()));

        SummaryBuilder apart;
        QVERIFY(apart.open(m_dir.path()));
        QCOMPARE(feed(&apart), shape);
        QVERIFY2(apart.binTiles(shape), qPrintable(apart.errorString()));
        sqlite::Connection written;
        QVERIFY(written.open(QStringLiteral(":memory:"), sqlite::Connection::Mode::ReadWriteCreate));
        QVERIFY2(apart.writeTiles(written), qPrintable(apart.errorString()));
        QVERIFY(tiles(finished).size() > 40);
        QCOMPARE(tiles(written), tiles(finished));
        QVERIFY(info(finished).size() > 5);
        QCOMPARE(info(written), info(finished));
        QCOMPARE(apart.stats().tileBytes, atOnce.stats().tileBytes);

        SummaryBuilder cancelled;
        QVERIFY(cancelled.open(m_dir.path()));
        QCOMPARE(feed(&cancelled), shape);
        QVERIFY(!cancelled.binTiles(shape, [](double) { return false; }));
        QCOMPARE(cancelled.errorString(), QStringLiteral("cancelled"));
        sqlite::Connection none;
        QVERIFY(none.open(QStringLiteral(":memory:"), sqlite::Connection::Mode::ReadWriteCreate));
        QVERIFY(!cancelled.writeTiles(none));
        QVERIFY(!none.prepare("SELECT 1 FROM summary_tiles").isValid());
    }

    void spoolInAMissingDirectoryFails()
    {
        SliceSpool spool;
        QVERIFY(!spool.open(m_dir.filePath(QStringLiteral("no/such/dir"))));
        QCOMPARE(spool.errorString(), QStringLiteral("No such file or directory"));
        SummaryBuilder builder;
        QVERIFY(!builder.open(m_dir.filePath(QStringLiteral("no/such/dir"))));
        QCOMPARE(builder.errorString(), QStringLiteral("No such file or directory"));
    }

    void fragmentsCountDistinctRecords()
    {
        SliceFragment fragment;
        fragment.addAccess(4, 0x2000, 8);
        fragment.addAccess(2, 0x1000, 4);
        fragment.addAccess(4, 0x2000, 8);
        fragment.addAccess(4, 0x2000, 4);
        fragment.addAccess(1, 0x3000, 2);
        fragment.addChunk(4, 0x2000);
        fragment.addChunk(4, 0x2000);
        fragment.addChunk(2, 0x1000);
        QCOMPARE(fragment.accessCount(), 5);
        QCOMPARE(fragment.chunkCount(), 3);
        const QByteArray encoded = fragment.take();
        QVERIFY(fragment.isEmpty());
        QStringList records;
        QVERIFY(SliceFragment::read(
            encoded,
            [&records](std::uint8_t code, std::uint64_t address, std::uint32_t size, std::uint64_t count) {
                records << QStringLiteral("access %1 %2 %3 x%4").arg(code).arg(address, 0, 16).arg(size).arg(count);
            },
            [&records](std::uint8_t code, std::uint64_t first, std::uint64_t count) {
                records << QStringLiteral("chunk %1 %2 x%3").arg(code).arg(first, 0, 16).arg(count);
            }));
        QCOMPARE(records,
            (QStringList { QStringLiteral("access 1 3000 2 x1"), QStringLiteral("access 2 1000 4 x1"),
                QStringLiteral("access 4 2000 4 x1"), QStringLiteral("access 4 2000 8 x2"),
                QStringLiteral("chunk 2 1000 x1"), QStringLiteral("chunk 4 2000 x2") }));
        QVERIFY(!SliceFragment::read(
            encoded.left(encoded.size() - 1), [](auto...) {}, [](auto...) {}));
    }
};

QTEST_GUILESS_MAIN(TestSummaryBuilder)
#include "tst_summarybuilder.moc"
