// SPDX-License-Identifier: MIT
// Summarising a history that has no display summary of its own: a memhist history whose summary
// tables were dropped gives exactly the summary the writer wrote; a file laid out as the reference
// writer lays them out (slices sharing a transition, descending chunks, no meta) gives the
// brute-force count; the summary goes to a file of its own, complete or not at all (cancelled,
// unreadable history); the cache serves it for the same file only.
#include "core/storage/sqlite.h"
#include "core/summary/historysummarizer.h"
#include "core/summary/summarycache.h"
#include "core/summary/tilereader.h"
#include "core/writer/historywriter.h"
#include "referencelayout.h"
#include "summaryoracle.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <random>

using namespace memhist;
using namespace memhist::summary;
using namespace memhist::test;

namespace {

// Reads and writes over three regions, several slices.
QList<Access> stream(std::uint64_t seed, int count)
{
    std::mt19937_64 random(seed);
    const auto below = [&](std::uint64_t n) { return std::uniform_int_distribution<std::uint64_t>(0, n - 1)(random); };
    static const std::uint64_t bases[] = { 0x401000, 0x5555'0000'0000, 0x7ffd'0000'0000 };
    QList<Access> accesses;
    std::uint64_t transition = 0;
    while (accesses.size() < count) {
        const std::uint64_t base = bases[below(3)];
        accesses << userAccess(transition, below(3) ? Operation::Read : Operation::Write, base + 8 * below(4096), 8);
        transition += below(3);
    }
    return accesses;
}

bool writeHistory(const QString &path, const QList<Access> &accesses)
{
    WriterOptions options;
    options.sliceAccessCap = 300;
    HistoryWriter writer(path, options);
    if (!writer.open())
        return false;
    for (const Access &access : accesses) {
        if (!writer.add(access))
            return false;
    }
    return writer.finish();
}

// `path`'s summary tables, row by row, as text (tiles, then info).
QStringList summaryRows(const QString &path)
{
    sqlite::Connection db;
    if (!db.open(path, sqlite::Connection::Mode::ReadOnly))
        return {};
    QStringList rows;
    sqlite::Statement tiles = db.prepare("SELECT key, cells, hex(data) FROM summary_tiles ORDER BY key");
    while (tiles.step() == SQLITE_ROW)
        rows << QStringLiteral("%1 %2 %3").arg(tiles.int64(0)).arg(tiles.int64(1)).arg(tiles.text(2));
    sqlite::Statement info = db.prepare("SELECT key, value FROM summary_info ORDER BY key");
    while (info.step() == SQLITE_ROW)
        rows << info.text(0) + u'=' + info.text(1);
    return rows;
}

bool execute(const QString &path, const char *sql)
{
    sqlite::Connection db;
    return db.open(path, sqlite::Connection::Mode::ReadWriteCreate) && db.execute(sql);
}

} // namespace

class TestHistorySummarizer : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void sameSummaryAsTheWriter()
    {
        const QString history = m_dir.filePath(QStringLiteral("own.memhist"));
        QVERIFY(writeHistory(history, stream(1, 4000)));
        const QString stripped = m_dir.filePath(QStringLiteral("stripped.memhist"));
        QVERIFY(QFile::copy(history, stripped));
        QVERIFY(execute(stripped, "DROP TABLE summary_info; DROP TABLE summary_tiles;"));

        const QString output = m_dir.filePath(QStringLiteral("stripped.summary"));
        QList<double> progress;
        SummarizeOptions options;
        options.sourceIdentity = QStringLiteral("the stripped copy");
        options.progress = [&progress](double fraction) {
            progress << fraction;
            return true;
        };
        QString error;
        QVERIFY2(summarizeHistory(stripped, output, options, &error), qPrintable(error));
        QVERIFY(error.isEmpty());

        // The same tiles, the same info but what it was made from.
        QStringList expected = summaryRows(history);
        QStringList actual = summaryRows(output);
        QVERIFY(expected.size() > 20);
        QVERIFY(expected.removeOne(QStringLiteral("source_identity=")));
        QVERIFY(actual.removeOne(QStringLiteral("source_identity=the stripped copy")));
        // The time each took to build is theirs.
        const auto withoutBuildTime = [](QStringList rows) {
            const qsizetype removed
                = rows.removeIf([](const QString &row) { return row.startsWith(u"build_cpu_ms="); });
            return removed == 1 ? rows : QStringList();
        };
        QCOMPARE(withoutBuildTime(actual), withoutBuildTime(expected));
        QVERIFY(!withoutBuildTime(expected).isEmpty());

        // Progress from the start to the end, never backwards.
        QVERIFY(progress.size() >= 3);
        QCOMPARE(progress.last(), 1.0);
        QVERIFY(std::is_sorted(progress.begin(), progress.end()));
        // Nothing else was left beside the output.
        QCOMPARE(QDir(m_dir.path()).entryList(QDir::Files | QDir::Hidden),
            (QStringList { QStringLiteral("own.memhist"), QStringLiteral("stripped.memhist"),
                QStringLiteral("stripped.summary") }));
    }

    void referenceLayoutMatchesTheCount()
    {
        const QString path = m_dir.filePath(QStringLiteral("reference.memhist"));
        ReferenceLayout layout;
        QString error;
        // Small read and write sides: many slices, some sharing a transition with the next.
        QVERIFY2(writeReferenceLayout(path, stream(2, 3000), { 100000, 1000, 150 }, std::nullopt, &layout, &error),
            qPrintable(error));
        QVERIFY(layout.slices > 8);

        const SummaryCache cache(m_dir.filePath(QStringLiteral("cache")));
        QVERIFY(cache.prepare(&error));
        const std::optional<SummaryCache::Entry> entry = cache.entryFor(path, &error);
        QVERIFY2(entry, qPrintable(error));
        QVERIFY(!cache.isValid(*entry));
        SummarizeOptions options;
        options.sourceIdentity = entry->identity.toString();
        QVERIFY2(summarizeHistory(path, entry->path, options, &error), qPrintable(error));
        QVERIFY(cache.isValid(*entry));

        sqlite::Connection db;
        QVERIFY(db.open(entry->path, sqlite::Connection::Mode::ReadOnly));
        QString why;
        const std::optional<SummaryInfo> info = readSummaryInfo(db, &why);
        QVERIFY2(info, qPrintable(why));
        QCOMPARE(info->sourceIdentity, entry->identity.toString());
        QCOMPARE(info->levels.slices, layout.slices);
        QCOMPARE(info->accesses, qint64(layout.stored.size()));
        QCOMPARE(info->chunks, layout.chunks);

        const SummaryRows rows = readSummaryRows(path);
        const OracleTiles oracle = oracleTiles(rows, info->fold(), info->levels);
        bool decoded = false;
        const auto blocks = storedBlocks(db, &decoded);
        QVERIFY(decoded);
        QVERIFY(!blocks.empty());
        for (const auto &[stored, cells] : blocks) {
            const TileKey key = tileKeyOf(stored);
            const auto tile = oracle.find({ key.timeLevel, key.addressLevel, key.tile });
            QVERIFY(tile != oracle.end());
            std::vector<Cell> expected;
            for (const auto &[bin, cell] : tile->second) {
                if (blockOf(bin) == key.block)
                    expected.push_back(cell);
            }
            QVERIFY(cells == expected);
        }
    }

    void cancelledLeavesNothing()
    {
        const QString history = m_dir.filePath(QStringLiteral("cancel.memhist"));
        QVERIFY(writeHistory(history, stream(3, 2000)));
        const QString directory = m_dir.filePath(QStringLiteral("cancelled"));
        QVERIFY(QDir().mkpath(directory));
        const QString output = directory + QStringLiteral("/out.summary");
        SummarizeOptions options;
        int calls = 0;
        options.progress = [&calls](double) {
            ++calls;
            return false;
        };
        QString error;
        QVERIFY(!summarizeHistory(history, output, options, &error));
        QCOMPARE(error, QStringLiteral("cancelled"));
        QCOMPARE(calls, 1);
        QCOMPARE(QDir(directory).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList());
    }

    void unreadableHistoryIsNamed()
    {
        const QString missing = m_dir.filePath(QStringLiteral("missing.memhist"));
        QString error;
        QVERIFY(!summarizeHistory(missing, m_dir.filePath(QStringLiteral("missing.summary")), {}, &error));
        QCOMPARE(error, missing + QStringLiteral(": no such file"));
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("missing.summary"))));
    }

    // A changed file is never served the summary of what it was.
    void changedHistoryIsNotServed_data()
    {
        QTest::addColumn<QString>("change");
        QTest::newRow("touched: a new modification time") << QStringLiteral("touch");
        QTest::newRow("rewritten in place, same size, time put back") << QStringLiteral("rewrite");
        QTest::newRow("replaced by another file (rename)") << QStringLiteral("replace");
        QTest::newRow("grown") << QStringLiteral("append");
    }
    void changedHistoryIsNotServed()
    {
        QFETCH(QString, change);
        QTemporaryDir dir;
        const QString history = dir.filePath(QStringLiteral("h.memhist"));
        QVERIFY(writeHistory(history, stream(4, 1500)));
        const SummaryCache cache(dir.filePath(QStringLiteral("cache")));
        QString error;
        QVERIFY(cache.prepare(&error));
        const std::optional<SummaryCache::Entry> before = cache.entryFor(history, &error);
        QVERIFY(before);
        SummarizeOptions options;
        options.sourceIdentity = before->identity.toString();
        QVERIFY2(summarizeHistory(history, before->path, options, &error), qPrintable(error));
        QVERIFY(cache.isValid(*before));
        // Asked again for the same file: the same entry, still valid.
        const std::optional<SummaryCache::Entry> again = cache.entryFor(history, &error);
        QVERIFY(again);
        QCOMPARE(again->path, before->path);
        QVERIFY(cache.isValid(*again));

        QFile file(history);
        const QDateTime modified = QFileInfo(history).lastModified();
        if (change == QLatin1String("touch")) {
            QVERIFY(file.open(QIODevice::ReadWrite));
            QVERIFY(file.setFileTime(modified.addSecs(5), QFileDevice::FileModificationTime));
            file.close();
        } else if (change == QLatin1String("rewrite")) {
            // An SQLite write that keeps the size (the file change counter moves), then the old
            // modification time put back.
            const qint64 size = QFileInfo(history).size();
            QVERIFY(execute(history, "UPDATE slices SET transition_last = transition_last WHERE rowid = 1"));
            QCOMPARE(QFileInfo(history).size(), size);
            QVERIFY(file.open(QIODevice::ReadWrite));
            QVERIFY(file.setFileTime(modified, QFileDevice::FileModificationTime));
            file.close();
            QCOMPARE(QFileInfo(history).lastModified(), modified);
        } else if (change == QLatin1String("replace")) {
            const QString other = dir.filePath(QStringLiteral("other.memhist"));
            QVERIFY(QFile::copy(history, other));
            QVERIFY(QFile::remove(history));
            QVERIFY(QFile::rename(other, history));
        } else {
            QVERIFY(file.open(QIODevice::Append));
            QCOMPARE(file.write("x"), 1);
            file.close();
        }
        const std::optional<SummaryCache::Entry> after = cache.entryFor(history, &error);
        QVERIFY(after);
        QVERIFY(!(after->identity == before->identity));
        QVERIFY(after->path != before->path);
        QVERIFY(!cache.isValid(*after));
        QVERIFY(QFile::exists(before->path)); // still there, but for the old file only

        // Summarised again: the old summary goes.
        options.sourceIdentity = after->identity.toString();
        if (change != QLatin1String("append")) { // an appended byte makes it no database
            QVERIFY2(summarizeHistory(history, after->path, options, &error), qPrintable(error));
            QVERIFY(cache.isValid(*after));
        }
        QCOMPARE(cache.removeStale(*after), 1);
        QVERIFY(!QFile::exists(before->path));
    }

    void identityOfAMissingFile()
    {
        QString error;
        QVERIFY(!fileIdentity(m_dir.filePath(QStringLiteral("nothing")), &error));
        QCOMPARE(error, m_dir.filePath(QStringLiteral("nothing")) + QStringLiteral(": No such file or directory"));
    }
};

QTEST_GUILESS_MAIN(TestHistorySummarizer)
#include "tst_historysummarizer.moc"
