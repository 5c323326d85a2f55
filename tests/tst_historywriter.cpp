// SPDX-License-Identifier: MIT
// The writer: what it rejects (exact messages), that its output is atomic, that its memory stays
// bounded on the two streams that would grow a naive slice without limit, that slices planned on
// the planner thread and context rows flushed between them keep their order, that the indexes it
// builds at the end spill their sort beside the output and leave nothing behind, and what meta
// records.

#include "core/checker/historychecker.h"
#include "core/context/contextreader.h"
#include "core/storage/historydatabase.h"
#include "core/storage/sqlite.h"
#include "core/writer/historywriter.h"

#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <unistd.h>

using namespace memhist;

namespace {

Access read(std::uint64_t transition, std::uint64_t address, std::uint32_t size = 8, Operation op = Operation::Read)
{
    Access a;
    a.transition = Transition { transition };
    a.physical = Address { address };
    a.linear = Address { address };
    a.size = size;
    a.operation = op;
    return a;
}

QStringList entries(const QString &dir)
{
    return QDir(dir).entryList(QDir::Files | QDir::Hidden);
}

} // namespace

class TestHistoryWriter : public QObject
{
    Q_OBJECT

private slots:
    void rejectsBadAccesses_data();
    void rejectsBadAccesses();
    void outputIsAtomic();
    void replacesAnExistingFileOnlyOnSuccess();
    void finishStopsWhenInterrupted();
    void hotAddressStaysBounded();
    void wideSweepStaysBounded();
    void slicesAndFlushedContextKeepTheirOrder();
    void largeIndexSortLeavesNothingBehind();
    void temporaryFilesGoToTheChosenDirectory();
    void recordsMeta();
};

void TestHistoryWriter::rejectsBadAccesses_data()
{
    QTest::addColumn<Access>("bad");
    QTest::addColumn<QString>("message");
    QTest::newRow("size 0") << read(5, 0x1000, 0) << QStringLiteral("access at 0x1000, transition 5 has size 0");
    QTest::newRow("address wraps") << read(5, 0xfffffffffffffffcull,
        8) << QStringLiteral("access at 0xfffffffffffffffc of 8 bytes wraps past 0xffffffffffffffff");
    QTest::newRow("straddles 2^63")
        << read(5, 0x7ffffffffffffffcull, 8)
        << QStringLiteral("access at 0x7ffffffffffffffc of 8 bytes straddles 0x8000000000000000, which no canonical "
                          "64-bit address range does");
    QTest::newRow("transition decreases")
        << read(3, 0x1000) << QStringLiteral("transition 3 comes after transition 4: accesses must be in trace order");
    QTest::newRow("bad operation") << read(5, 0x1000, 8, Operation(3))
                                   << QStringLiteral("operation code 3 is not 1 (execute), 2 (write) or 4 (read)");
    QTest::newRow("transition out of range") << read(0x8000000000000000ull,
        0x1000) << QStringLiteral("transition 9223372036854775808 is out of range (at most 2^63-1)");
}

void TestHistoryWriter::rejectsBadAccesses()
{
    QFETCH(Access, bad);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("out.memhist"));
    HistoryWriter writer(path);
    QVERIFY(writer.open());
    QVERIFY(writer.add(read(4, 0x2000)));
    QVERIFY(!writer.add(bad));
    QCOMPARE(writer.errorString(), message);
    QVERIFY(!writer.add(read(9, 0x2000))); // unusable after a failure
    QVERIFY(!writer.finish());
    QCOMPARE(writer.errorString(), message);
    QVERIFY(!QFile::exists(path));
}

void TestHistoryWriter::outputIsAtomic()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("out.memhist"));
    {
        HistoryWriter writer(path);
        QVERIFY(writer.open());
        QVERIFY(writer.add(read(1, 0x1000)));
        // While writing, only a temporary file exists, beside the target.
        QCOMPARE(entries(dir.path()).size(), 1);
        QVERIFY(entries(dir.path()).constFirst().endsWith(QLatin1String(".partial")));
        // Named for this process, so that a later writer can tell it is not stale.
        QVERIFY(QRegularExpression(QStringLiteral("^out\\.memhist\\.%1\\.[A-Za-z0-9]{6}\\.partial$").arg(::getpid()))
                    .match(entries(dir.path()).constFirst())
                    .hasMatch());
        QVERIFY(!QFile::exists(path));
        writer.cancel();
        QVERIFY(entries(dir.path()).isEmpty());
    }
    {
        HistoryWriter writer(path);
        QVERIFY(writer.open());
        QVERIFY(writer.add(read(1, 0x1000)));
        // Destroyed without finish(): same as cancel.
    }
    QVERIFY(entries(dir.path()).isEmpty());
    {
        HistoryWriter writer(path);
        QVERIFY(writer.open());
        QVERIFY(writer.add(read(1, 0x1000)));
        QVERIFY(writer.finish());
    }
    QCOMPARE(entries(dir.path()), QStringList { QStringLiteral("out.memhist") });

    HistoryWriter intoMissingDir(dir.filePath(QStringLiteral("no/such/dir/out.memhist")));
    QVERIFY(!intoMissingDir.open());
    QVERIFY2(intoMissingDir.errorString().startsWith(
                 dir.filePath(QStringLiteral("no/such/dir/out.memhist: cannot create a file in "))),
        qPrintable(intoMissingDir.errorString()));
}

void TestHistoryWriter::replacesAnExistingFileOnlyOnSuccess()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("out.memhist"));
    {
        QFile previous(path);
        QVERIFY(previous.open(QIODevice::WriteOnly));
        previous.write("previous contents");
    }
    {
        HistoryWriter writer(path);
        QVERIFY(writer.open());
        QVERIFY(writer.add(read(2, 0x1000)));
        QVERIFY(!writer.add(read(1, 0x1000)));
    }
    QFile kept(path);
    QVERIFY(kept.open(QIODevice::ReadOnly));
    QCOMPARE(kept.readAll(), QByteArray("previous contents"));
    kept.close();

    HistoryWriter writer(path);
    QVERIFY(writer.open());
    QVERIFY(writer.add(read(2, 0x1000)));
    QVERIFY(writer.finish());
    QString error;
    auto db = HistoryDatabase::open(path, &error);
    QVERIFY2(db, qPrintable(error));
    QCOMPARE(db->summary().accesses, 1);
}

void TestHistoryWriter::hotAddressStaysBounded()
{
    // One loop counter read and written 300,000 times: a slice holding it would grow without limit
    // if slices only closed on their access count.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("hot.memhist"));
    WriterOptions options;
    options.sliceAccessCap = 1u << 30; // effectively unlimited: only the chunk cap can close slices
    options.chunkAccessCap = 4096;
    HistoryWriter writer(path, options);
    QVERIFY(writer.open());
    for (std::uint64_t t = 0; t < 150000; ++t) {
        QVERIFY(writer.add(read(t, 0x7ffd00001000ull)));
        QVERIFY(writer.add(read(t, 0x7ffd00001000ull, 8, Operation::Write)));
    }
    QVERIFY2(writer.finish(), qPrintable(writer.errorString()));
    QVERIFY(writer.stats().peakBufferedAccesses <= 2 * 4096);
    QCOMPARE(writer.stats().slices, 150000 / 4096 + 1);

    QString error;
    auto db = HistoryDatabase::open(path, &error);
    QVERIFY2(db, qPrintable(error));
    const CheckReport report = HistoryChecker(*db).run();
    QVERIFY2(report.ok, qPrintable(report.violation));
    QCOMPARE(report.largestChunk, 4096);
}

void TestHistoryWriter::wideSweepStaysBounded()
{
    // One access per transition over a huge address range: every access is its own chunk.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("sweep.memhist"));
    WriterOptions options;
    options.sliceAccessCap = 10000;
    HistoryWriter writer(path, options);
    QVERIFY(writer.open());
    for (std::uint64_t t = 0; t < 100000; ++t)
        QVERIFY(writer.add(read(t, t * 0x10000000ull)));
    QVERIFY2(writer.finish(), qPrintable(writer.errorString()));
    QCOMPARE(writer.stats().peakBufferedAccesses, 10000);
    QCOMPARE(writer.stats().slices, 10);
    QCOMPARE(writer.stats().chunks, 100000);

    QString error;
    auto db = HistoryDatabase::open(path, &error);
    QVERIFY2(db, qPrintable(error));
    const CheckReport report = HistoryChecker(*db).run();
    QVERIFY2(report.ok, qPrintable(report.violation));
}

// A Cancel while finish() builds the indexes (a third of an import's time at 10^8 accesses): the
// interrupt check is asked while SQLite works, finish() fails with "cancelled" and nothing is left,
// neither at the output path nor beside it.
void TestHistoryWriter::finishStopsWhenInterrupted()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("interrupted.memhist"));
    struct Finished
    {
        bool ok = false;
        QString error;
        bool interrupted = false;
        int asked = 0; // how often finish() asked the interrupt check
    };
    // The same 600,000 reads each time; the check says stop at its `stopAt`-th call (0: never). The
    // writer is gone on return: a failed one has removed its temporary file. (The accesses' index
    // is appended while they are stored, so finish() sorts only the chunks' and slices' keys:
    // 200,000 reads asked the check twice in all.)
    const auto writeAndFinish = [&path](int stopAt) {
        Finished result;
        HistoryWriter writer(path);
        bool added = writer.open();
        for (std::uint64_t t = 0; added && t < 600000; ++t)
            added = writer.add(read(t, 0x600000 + ((t * 40503) % 65536) * 8));
        writer.setInterruptCheck([&result, stopAt] { return ++result.asked == stopAt; });
        result.ok = added && writer.finish();
        result.error = writer.errorString();
        result.interrupted = writer.interrupted();
        return result;
    };

    const Finished interrupted = writeAndFinish(3);
    QVERIFY(!interrupted.ok);
    QCOMPARE(interrupted.error, QStringLiteral("cancelled"));
    QVERIFY(interrupted.interrupted);
    QCOMPARE(interrupted.asked, 3);
    QVERIFY(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).isEmpty());

    // Never interrupted: the same history is written whole.
    const Finished whole = writeAndFinish(0);
    QVERIFY2(whole.ok, qPrintable(whole.error));
    QVERIFY(!whole.interrupted);
    QVERIFY(whole.asked > 3);
    QCOMPARE(
        QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList { QStringLiteral("interrupted.memhist") });
}

void TestHistoryWriter::slicesAndFlushedContextKeepTheirOrder()
{
    // Slices of 1,000 accesses cut on the planner thread, and between them stretches of 600,000
    // instructions without accesses, whose code rows the writer flushes before the next slice is
    // closed (256 rows of 1,024 pairs fill at 524,288 instructions of this 2-instruction loop).
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("interleaved.memhist"));
    WriterOptions options;
    options.sliceAccessCap = 1000;
    HistoryWriter writer(path, options);
    QVERIFY(writer.open());
    std::vector<std::pair<std::uint64_t, std::uint64_t>> written; // (transition, address)
    std::uint64_t t = 0;
    for (int stretch = 0; stretch < 3; ++stretch) {
        for (int i = 0; i < 2500; ++i, ++t) {
            QVERIFY(writer.addInstruction(Transition { t }, Address { 0x401000 + (t % 2) * 2 }, 2));
            const std::uint64_t address = 0x600000 + ((t * 40503) % 65536) * 8;
            QVERIFY(writer.add(read(t, address)));
            written.emplace_back(t, address);
        }
        for (int i = 0; i < 600000; ++i, ++t)
            QVERIFY(writer.addInstruction(Transition { t }, Address { 0x401000 + (t % 2) * 2 }, 2));
    }
    QVERIFY2(writer.finish(), qPrintable(writer.errorString()));

    QString error;
    auto db = HistoryDatabase::open(path, &error);
    QVERIFY2(db, qPrintable(error));
    const CheckReport report = HistoryChecker(*db).run();
    QVERIFY2(report.ok, qPrintable(report.violation));
    QCOMPARE(report.slices, writer.stats().slices);
    // Slices close at the first transition with an access once 1,000 are buffered: the 500 left of
    // a stretch wait through the next run of instructions (and its flushed rows) for the next.
    QCOMPARE(writer.stats().slices, qint64(8));
    sqlite::Statement chunks = db->connection().prepare("SELECT count(*) FROM chunks");
    QCOMPARE(chunks.step(), SQLITE_ROW);
    QCOMPARE(chunks.int64(0), writer.stats().chunks);
    sqlite::Statement rows = db->connection().prepare("SELECT transition, phy_first FROM accesses ORDER BY rowid");
    for (const auto &[transition, address] : written) {
        QCOMPARE(rows.step(), SQLITE_ROW);
        QCOMPARE(std::uint64_t(rows.int64(0)), transition);
        QCOMPARE(std::uint64_t(rows.int64(1)), address);
    }
    QCOMPARE(rows.step(), SQLITE_DONE);

    ContextReader context(*db);
    QCOMPARE(writer.stats().context.instructions, qint64(t));
    for (const std::uint64_t at : { std::uint64_t(0), std::uint64_t(2499), std::uint64_t(2500), std::uint64_t(602499),
             std::uint64_t(602500), std::uint64_t(1205001), t - 1 })
        QCOMPARE(context.pcAt(Transition { at }), std::optional<Address>(Address { 0x401000 + (at % 2) * 2 }));
    QCOMPARE(context.pcAt(Transition { t }), std::nullopt);
}

void TestHistoryWriter::largeIndexSortLeavesNothingBehind()
{
    // Enough accesses that CREATE INDEX's sorter exceeds its in-memory run (the cache size) and
    // spills sorted runs to temporary files; the database must come out complete and checked, with
    // the required indexes, and the directory must hold the output alone. The accesses' index is
    // not sorted but appended while they are stored, as a table of its keys that finish() makes
    // the index: over these 19 slices of scattered addresses, it must be that index exactly (SQLite's
    // integrity check compares every entry with its row) and the table must be gone.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("large.memhist"));
    HistoryWriter writer(path);
    QVERIFY(writer.open());
    std::uint64_t state = 1;
    for (std::uint64_t t = 0; t < 1'200'000; ++t) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        const std::uint64_t address = 0x7ffd00000000ull + ((state >> 33) % 4096) * 8;
        QVERIFY(writer.add(read(t, address, 8, (state >> 20) & 1 ? Operation::Read : Operation::Write)));
    }
    QVERIFY2(writer.finish(), qPrintable(writer.errorString()));
    QCOMPARE(entries(dir.path()), QStringList { QStringLiteral("large.memhist") });

    QString error;
    auto db = HistoryDatabase::open(path, &error); // fails if an index is missing
    QVERIFY2(db, qPrintable(error));
    QCOMPARE(db->summary().accesses, 1'200'000);
    const CheckReport report = HistoryChecker(*db).run();
    QVERIFY2(report.ok, qPrintable(report.violation));
    QCOMPARE(db->summary().slices, 19);

    sqlite::Connection raw;
    QVERIFY(raw.open(path, sqlite::Connection::Mode::ReadOnly));
    QStringList schema;
    sqlite::Statement rows = raw.prepare("SELECT type, name, tbl_name, sql FROM sqlite_schema "
                                         "WHERE name LIKE '%accesses%' ORDER BY name");
    while (rows.step() == SQLITE_ROW)
        schema << rows.text(0) + u'|' + rows.text(1) + u'|' + rows.text(2) + u'|' + rows.text(3);
    QCOMPARE(schema,
        QStringList({ QStringLiteral("table|accesses|accesses|CREATE TABLE accesses(chunk_id int8 not null, transition "
                                     "int8 not null, linear int8, phy_first int8 not null, size int not null, "
                                     "operation int not null)"),
            QStringLiteral("index|idx_accesses_1|accesses|CREATE INDEX idx_accesses_1 ON accesses(chunk_id, "
                           "transition)") }));
    sqlite::Statement integrity = raw.prepare("PRAGMA integrity_check");
    QCOMPARE(integrity.step(), SQLITE_ROW);
    QCOMPARE(integrity.text(0), QStringLiteral("ok"));
    QCOMPARE(integrity.step(), SQLITE_DONE);
}

void TestHistoryWriter::temporaryFilesGoToTheChosenDirectory()
{
    // A temporary table lives in a temporary file, as the sorter's spills do: it must be created
    // in the chosen directory and unlinked at once (still open, but no longer in the directory).
    if (!QFileInfo::exists(QStringLiteral("/proc/self/fd")))
        QSKIP("no /proc/self/fd to see open files");
    QTemporaryDir dir;
    QTemporaryDir spillDir;
    sqlite::Connection db;
    QVERIFY(
        db.open(dir.filePath(QStringLiteral("t.sqlite")), sqlite::Connection::Mode::ReadWriteCreate, spillDir.path()));
    // A two-page cache for the temporary schema, so that its pages spill to the file at once.
    QVERIFY(db.execute("PRAGMA temp_store = FILE; PRAGMA temp.cache_size = 2; CREATE TEMP TABLE t(x);"
                       "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) "
                       "INSERT INTO t SELECT randomblob(100) FROM n;"));
    QStringList spills;
    QDirIterator fds(QStringLiteral("/proc/self/fd"), QDir::Files | QDir::System);
    while (fds.hasNext()) {
        const QString target = QFileInfo(fds.next()).symLinkTarget();
        if (target.startsWith(QDir(spillDir.path()).canonicalPath() + QStringLiteral("/.memhist-temporary-")))
            spills << target;
    }
    QCOMPARE(spills.size(), 1);
    QVERIFY(entries(spillDir.path()).isEmpty());
    db.close();
    QCOMPARE(entries(dir.path()), QStringList { QStringLiteral("t.sqlite") });
}

void TestHistoryWriter::recordsMeta()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("meta.memhist"));
    HistoryWriter writer(path);
    QVERIFY(writer.open());
    writer.setSources({ { QStringLiteral("csv"), QStringLiteral("/tmp/a.csv") },
        { QStringLiteral("csv"), QStringLiteral("/tmp/b.csv") } });
    writer.setMetaValue(QStringLiteral("import.skipped_lines"), QStringLiteral("3"));
    QVERIFY(writer.add(read(7, 0x1000)));
    QVERIFY(writer.add(read(7, 0x1000, 4, Operation::Write)));
    QVERIFY(writer.add(read(9, 0x400000, 4, Operation::Execute)));
    QVERIFY(writer.finish());

    QString error;
    auto db = HistoryDatabase::open(path, &error);
    QVERIFY2(db, qPrintable(error));
    const auto &meta = db->meta();
    QCOMPARE(meta.value(QStringLiteral("format_version")), QStringLiteral("1"));
    QCOMPARE(meta.value(QStringLiteral("writer")), QStringLiteral("memhist"));
    QCOMPARE(meta.value(QStringLiteral("writer_version")), QStringLiteral(MEMHIST_VERSION));
    QCOMPARE(meta.value(QStringLiteral("sources")), QStringLiteral("csv\t/tmp/a.csv\ncsv\t/tmp/b.csv"));
    QCOMPARE(meta.value(QStringLiteral("accesses")), QStringLiteral("3"));
    QCOMPARE(meta.value(QStringLiteral("reads")), QStringLiteral("1"));
    QCOMPARE(meta.value(QStringLiteral("writes")), QStringLiteral("1"));
    QCOMPARE(meta.value(QStringLiteral("executes")), QStringLiteral("1"));
    QCOMPARE(meta.value(QStringLiteral("slices")), QStringLiteral("1"));
    QCOMPARE(meta.value(QStringLiteral("chunks")), QStringLiteral("3"));
    QCOMPARE(meta.value(QStringLiteral("transition_first")), QStringLiteral("7"));
    QCOMPARE(meta.value(QStringLiteral("transition_last")), QStringLiteral("9"));
    QCOMPARE(meta.value(QStringLiteral("chunk_access_cap")), QStringLiteral("4096"));
    QCOMPARE(meta.value(QStringLiteral("import.skipped_lines")), QStringLiteral("3"));
    QVERIFY(!meta.value(QStringLiteral("created_at")).isEmpty());
    QCOMPARE(db->summary().lastTransition, std::optional<Transition>(Transition { 9 }));

    // The reference readers' row, written at the same second as meta's creation time.
    sqlite::Connection connection;
    QVERIFY(connection.open(path, sqlite::Connection::Mode::ReadOnly));
    sqlite::Statement row = connection.prepare("SELECT metadata_version, type, format_version, tool_name, "
                                               "tool_version, tool_info, generation_date FROM _metadata");
    QCOMPARE(row.step(), SQLITE_ROW);
    QCOMPARE(row.int64(0), 1);
    QCOMPARE(row.int64(1), 3);
    QCOMPARE(row.text(2), QStringLiteral("1.0.0"));
    QCOMPARE(row.text(3), QStringLiteral("memhist"));
    QCOMPARE(row.text(4), QStringLiteral(MEMHIST_VERSION));
    QCOMPARE(row.text(5), QStringLiteral("memhist " MEMHIST_VERSION ", format 1, from csv /tmp/a.csv; csv /tmp/b.csv"));
    QCOMPARE(
        row.int64(6), QDateTime::fromString(meta.value(QStringLiteral("created_at")), Qt::ISODate).toSecsSinceEpoch());
    QCOMPARE(row.step(), SQLITE_DONE);
}

QTEST_GUILESS_MAIN(TestHistoryWriter)
#include "tst_historywriter.moc"
