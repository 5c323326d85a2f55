// SPDX-License-Identifier: MIT
// Core-sharded drmemtrace traces (drmemtrace.core.NNNNNN.trace.zip, FILETYPE bit 0x10000), built
// from the nine real threadsig thread files by scheduling their records onto cores as DynamoRIO's
// scheduler and record_filter write them (coreschedule.h): every access of every thread is
// imported, each thread's reads, writes and instructions equal the unsharded import's (and
// shared/traces/README.md's), its accesses are the same ones, the spans tile one timeline, and the
// generated files really hold what the issue lists (mid-file headers, resumes, exits, idle time,
// migrations, chunks that do not restate the thread).
#include "core/checker/historychecker.h"
#include "core/importers/accesssink.h"
#include "core/importers/drmemtraceimporter.h"
#include "core/importers/traceformats.h"
#include "core/storage/historydatabase.h"
#include "core/storage/threadspans.h"
#include "core/writer/historywriter.h"
#include "coreschedule.h"
#include "drmemtracewriter.h"
#include "historycontents.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <set>

using namespace memhist;
using namespace memhist::test;
using namespace memhist::drmemtrace;

namespace {

QString threadsigDirectory()
{
    return QFINDTESTDATA("data/drmemtrace/threadsig.x64.tracedir");
}

struct Layout
{
    CoreScheduleOptions schedule;
    quint64 chunkInstructions = 0; // 0: one chunk per core
};

struct Imported
{
    bool ok = false;
    QString error;
    ImportReport report;
};

Imported importInto(const QString &trace, const QString &output)
{
    Imported result;
    HistoryWriter writer(output);
    WriterSink sink(writer);
    if (!writer.open()) {
        result.error = writer.errorString();
        return result;
    }
    result.ok = DrMemtraceImporter().run(trace, sink, {}, &result.report, &result.error, {});
    if (!result.ok) {
        writer.cancel();
        return result;
    }
    result.ok = writer.finish();
    if (!result.ok)
        result.error = writer.errorString();
    return result;
}

bool isMarkerOf(const TraceRecord &r, quint16 markerType)
{
    return r.type == type::marker && r.size == markerType;
}

} // namespace

class TestDrMemtraceCoreSharded : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void generatedFilesHaveTheScheduleFeatures();
    void counts_data();
    void counts();
    void perThread_data();
    void perThread();
    void sameAccessesPerThreadAsUnsharded();
    void spansTileOneTimeline();
    void coreFileWithoutItsFooterWarns();
    void commandLine();

private:
    // Writes the layout's core files into a new directory and returns it.
    QString writeLayout(const QString &name, const Layout &layout);
    // The layout imported (once, shared by the tests): the history's path, or empty on failure.
    QString importedLayout(const QString &layout);

    QTemporaryDir m_dir;
    std::vector<Records> m_threads;
    QMap<QString, QString> m_layouts; // row name -> directory
    QMap<QString, Imported> m_imports; // row name -> its import into m_layouts[name] + ".memhist"
    QMap<QString, std::vector<Records>> m_coreRecords;
    QMap<QString, std::vector<std::vector<Records>>> m_coreChunks;
    QString m_unsharded; // the threadsig directory imported as it is
};

QString TestDrMemtraceCoreSharded::writeLayout(const QString &name, const Layout &layout)
{
    const QString directory = m_dir.filePath(name);
    if (!QDir().mkpath(directory))
        return {};
    const std::vector<Records> cores = scheduleOnCores(m_threads, layout.schedule);
    std::vector<std::vector<Records>> chunked;
    for (size_t core = 0; core < cores.size(); ++core) {
        chunked.push_back(layout.chunkInstructions > 0 ? splitIntoChunks(cores[core], layout.chunkInstructions)
                                                       : std::vector<Records> { cores[core] });
        const QString file = QDir(directory).filePath(
            QStringLiteral("drmemtrace.core.%1.trace.zip").arg(core, 6, 10, QLatin1Char('0')));
        QString error;
        if (!writeChunkedZip(file, chunked.back(), &error)) {
            qWarning("%s", qPrintable(error));
            return {};
        }
    }
    m_coreRecords[name] = cores;
    m_coreChunks[name] = chunked;
    return directory;
}

QString TestDrMemtraceCoreSharded::importedLayout(const QString &layout)
{
    const QString output = m_layouts[layout] + QStringLiteral(".memhist");
    if (!m_imports.contains(layout))
        m_imports[layout] = importInto(m_layouts[layout], output);
    if (!m_imports[layout].ok) {
        qWarning("%s", qPrintable(m_imports[layout].error));
        return {};
    }
    return output;
}

void TestDrMemtraceCoreSharded::initTestCase()
{
    QVERIFY(m_dir.isValid());
    const QStringList files
        = QDir(threadsigDirectory())
              .entryList({ QStringLiteral("drmemtrace.threadsig.*.trace.zip") }, QDir::Files, QDir::Name);
    QCOMPARE(files.size(), 9);
    for (const QString &file : files) {
        Records records;
        QString error;
        QVERIFY2(readTraceRecords(QDir(threadsigDirectory()).filePath(file), &records, &error), qPrintable(error));
        m_threads.push_back(withoutChunkRecords(records));
    }

    Layout three;
    three.schedule.cores = 3;
    three.chunkInstructions = 2000;
    Layout two;
    two.schedule.cores = 2;
    two.schedule.quantum = 20000;
    two.schedule.idleRoundsAtStart = 0;
    two.schedule.sleepOneIn = 2;
    Layout four;
    four.schedule.cores = 4;
    four.schedule.quantum = 700;
    four.schedule.sleepOneIn = 3;
    four.schedule.seed = 7;
    four.chunkInstructions = 500;
    for (const auto &[name, layout] : { std::pair { QStringLiteral("three cores, chunks of 2000"), three },
             std::pair { QStringLiteral("two cores, one chunk each"), two },
             std::pair { QStringLiteral("four cores, quantum 700, chunks of 500"), four } }) {
        const QString directory = writeLayout(QString(name).replace(u' ', u'-').remove(u','), layout);
        QVERIFY(!directory.isEmpty());
        m_layouts[name] = directory;
    }

    m_unsharded = m_dir.filePath(QStringLiteral("unsharded.memhist"));
    const Imported imported = importInto(threadsigDirectory(), m_unsharded);
    QVERIFY2(imported.ok, qPrintable(imported.error));
}

void TestDrMemtraceCoreSharded::generatedFilesHaveTheScheduleFeatures()
{
    // Without these the other tests would prove less than they claim.
    for (auto it = m_coreRecords.cbegin(); it != m_coreRecords.cend(); ++it) {
        const std::vector<Records> &cores = it.value();
        std::set<quint64> threadsOnCore[8];
        int midFileHeaders = 0;
        int resumes = 0;
        int midFileExits = 0;
        int idleMarkers = 0;
        for (size_t core = 0; core < cores.size(); ++core) {
            const Records &records = cores[core];
            QCOMPARE(records.front().type, type::header);
            QCOMPARE(records.back().type, type::footer);
            for (size_t i = 0; i < records.size(); ++i) {
                const TraceRecord &r = records[i];
                if (r.type == type::header && i > 0)
                    ++midFileHeaders;
                if (r.type == type::thread && r.size == 0) {
                    ++resumes;
                    QCOMPARE(records[i + 1].type, type::pid);
                    QCOMPARE(records[i + 1].size, quint16(0));
                    // Straight on with the thread's instructions: no new timestamp.
                    QVERIFY(!isMarkerOf(records[i + 2], marker::timestamp));
                }
                if (r.type == type::thread && r.addr != ~quint64(0))
                    threadsOnCore[core].insert(r.addr);
                if (r.type == type::threadExit && i + 2 < records.size()) {
                    QCOMPARE(records[i + 1].type, type::footer);
                    ++midFileExits;
                }
                if (isMarkerOf(r, marker::coreIdle))
                    ++idleMarkers;
                if (isMarkerOf(r, marker::cpuId) && r.addr != ~quint64(0))
                    QCOMPARE(r.addr, quint64(core));
                if (isMarkerOf(r, marker::fileType))
                    QVERIFY(r.addr & fileType::coreSharded);
            }
        }
        QVERIFY2(midFileHeaders > 0, qPrintable(it.key()));
        QVERIFY2(resumes > 0, qPrintable(it.key()));
        QVERIFY2(midFileExits > 0, qPrintable(it.key()));
        QVERIFY2(idleMarkers > 0, qPrintable(it.key()));
        // Some thread ran on more than one core.
        int migrated = 0;
        for (const Records &thread : m_threads) {
            QCOMPARE(thread[3].type, type::thread);
            const quint64 tid = thread[3].addr;
            int coresRun = 0;
            for (size_t core = 0; core < cores.size(); ++core)
                coresRun += threadsOnCore[core].count(tid) ? 1 : 0;
            migrated += coresRun > 1;
        }
        QVERIFY2(migrated > 0, qPrintable(it.key()));
    }
    // Chunked cores: chunks after the first start with their restated context, and some of them run
    // a thread that was switched to in an earlier chunk, which they do not name before their first
    // instruction.
    const std::vector<std::vector<Records>> &chunked
        = m_coreChunks[QStringLiteral("four-cores-quantum-700-chunks-of-500")];
    int chunksNotRestatingTheThread = 0;
    for (const std::vector<Records> &chunks : chunked) {
        QVERIFY(chunks.size() > 1);
        std::set<quint64> threadsSoFar;
        quint64 current = ~quint64(0);
        for (size_t c = 0; c < chunks.size(); ++c) {
            if (c > 0) {
                QVERIFY(isMarkerOf(chunks[c][0], marker::recordOrdinal));
                QVERIFY(isMarkerOf(chunks[c][1], marker::timestamp));
                QVERIFY(isMarkerOf(chunks[c][2], marker::cpuId));
                bool named = false;
                for (const TraceRecord &r : chunks[c]) {
                    if (r.type == type::thread)
                        named = true;
                    if (isFetchedInstruction(r))
                        break;
                }
                chunksNotRestatingTheThread += !named && threadsSoFar.size() > 1;
            }
            for (const TraceRecord &r : chunks[c]) {
                if (r.type == type::thread && r.addr != ~quint64(0)) {
                    current = r.addr;
                    threadsSoFar.insert(current);
                }
            }
        }
    }
    QVERIFY(chunksNotRestatingTheThread > 0);
}

void TestDrMemtraceCoreSharded::counts_data()
{
    QTest::addColumn<QString>("layout");
    for (const QString &name : m_layouts.keys())
        QTest::newRow(qPrintable(name)) << name;
}

void TestDrMemtraceCoreSharded::counts()
{
    QFETCH(QString, layout);
    const QString output = importedLayout(layout);
    QVERIFY(!output.isEmpty());
    const Imported &imported = m_imports[layout];
    // The whole threadsig trace (shared/traces/README.md), and not a record after a thread's footer
    // left out.
    QCOMPARE(imported.report.reads, 172208);
    QCOMPARE(imported.report.writes, 100150);
    QCOMPARE(imported.report.instructions, 650576);
    QCOMPARE(imported.report.nextTransition, Transition { 650576 });
    QVERIFY2(imported.report.warnings.isEmpty(), qPrintable(imported.report.warnings.join(u'\n')));
    QVERIFY(imported.report.skipped.value(QStringLiteral("core idle markers")) > 0);

    QString error;
    const auto database = HistoryDatabase::open(output, &error);
    QVERIFY2(database, qPrintable(error));
    const CheckReport check = HistoryChecker(*database).run();
    QVERIFY2(check.ok, qPrintable(check.violation));
    QCOMPARE(check.accesses, 172208 + 100150);
    const ThreadSpans spans(*database);
    QCOMPARE(spans.threads().size(), 9);
}

void TestDrMemtraceCoreSharded::perThread_data()
{
    QTest::addColumn<QString>("layout");
    QTest::addColumn<qint64>("thread");
    QTest::addColumn<qint64>("reads");
    QTest::addColumn<qint64>("writes");
    QTest::addColumn<qint64>("instructions");
    const struct
    {
        qint64 thread, reads, writes, instructions;
    } expected[] = {
        { 872805, 6303, 3559, 22052 },
        { 872884, 41274, 24168, 156381 },
        { 872894, 32775, 19174, 123958 },
        { 872901, 12833, 7400, 48615 },
        { 872902, 16232, 9388, 61550 },
        { 872903, 20590, 11964, 78051 },
        { 872904, 11990, 6910, 45355 },
        { 872905, 17160, 9997, 65121 },
        { 872906, 13051, 7590, 49493 },
    };
    for (const QString &layout : m_layouts.keys()) {
        for (const auto &thread : expected)
            QTest::addRow("%s, thread %lld", qPrintable(layout), thread.thread)
                << layout << thread.thread << thread.reads << thread.writes << thread.instructions;
    }
}

void TestDrMemtraceCoreSharded::perThread()
{
    QFETCH(QString, layout);
    QFETCH(qint64, thread);
    QFETCH(qint64, reads);
    QFETCH(qint64, writes);
    QFETCH(qint64, instructions);
    const QString output = importedLayout(layout);
    QVERIFY(!output.isEmpty());
    QString error;
    const auto database = HistoryDatabase::open(output, &error);
    QVERIFY2(database, qPrintable(error));
    const QMap<qint64, ThreadCounts> counts = countsPerThread(*database);
    QCOMPARE(counts.size(), 9);
    QCOMPARE(counts[thread].instructions, instructions);
    QCOMPARE(counts[thread].reads, reads);
    QCOMPARE(counts[thread].writes, writes);
}

void TestDrMemtraceCoreSharded::sameAccessesPerThreadAsUnsharded()
{
    QString error;
    const auto unsharded = HistoryDatabase::open(m_unsharded, &error);
    QVERIFY2(unsharded, qPrintable(error));
    const QMap<qint64, QList<AccessRow>> expected = sortedAccessesPerThread(*unsharded);
    QCOMPARE(expected.size(), 9);
    for (auto it = m_layouts.cbegin(); it != m_layouts.cend(); ++it) {
        const QString output = importedLayout(it.key());
        QVERIFY(!output.isEmpty());
        const auto sharded = HistoryDatabase::open(output, &error);
        QVERIFY2(sharded, qPrintable(error));
        const QMap<qint64, QList<AccessRow>> actual = sortedAccessesPerThread(*sharded);
        QCOMPARE(actual.keys(), expected.keys());
        for (const qint64 thread : expected.keys())
            QVERIFY2(actual[thread] == expected[thread],
                qPrintable(QStringLiteral("%1, thread %2").arg(it.key()).arg(thread)));
    }
}

void TestDrMemtraceCoreSharded::spansTileOneTimeline()
{
    const QString output = importedLayout(QStringLiteral("three cores, chunks of 2000"));
    QVERIFY(!output.isEmpty());
    QString error;
    const auto database = HistoryDatabase::open(output, &error);
    QVERIFY2(database, qPrintable(error));
    const QList<ThreadSpan> timeline = allSpans(*database);
    // More spans than threads: the cores interleave, and threads come back after switches.
    QVERIFY(timeline.size() > 3 * 9);
    QCOMPARE(timeline.first().first, Transition { 0 });
    QCOMPARE(timeline.last().last, Transition { 650575 });
    std::set<qint64> threads;
    for (qsizetype i = 0; i < timeline.size(); ++i) {
        threads.insert(timeline[i].threadId);
        if (i > 0) {
            QCOMPARE(timeline[i].first.value, timeline[i - 1].last.value + 1);
            QVERIFY(timeline[i].threadId != timeline[i - 1].threadId);
        }
    }
    // The idle thread (-1) runs nothing.
    QCOMPARE(threads.size(), size_t(9));
    QVERIFY(!threads.count(-1));
}

void TestDrMemtraceCoreSharded::coreFileWithoutItsFooterWarns()
{
    // A core file cut before its last record: what it holds is imported, with a warning; a thread's
    // footer in the middle of a core file is not its end.
    const QString directory = m_dir.filePath(QStringLiteral("cut"));
    QVERIFY(QDir().mkpath(directory));
    const std::vector<Records> &cores = m_coreRecords[QStringLiteral("two-cores-one-chunk-each")];
    QString error;
    Records cut = cores[0];
    cut.pop_back();
    const QString first = QDir(directory).filePath(QStringLiteral("drmemtrace.core.000000.trace.zip"));
    QVERIFY2(writeChunkedZip(first, { cut }, &error), qPrintable(error));
    QVERIFY2(writeChunkedZip(
                 QDir(directory).filePath(QStringLiteral("drmemtrace.core.000001.trace.zip")), { cores[1] }, &error),
        qPrintable(error));
    const Imported imported = importInto(directory, m_dir.filePath(QStringLiteral("cut.memhist")));
    QVERIFY2(imported.ok, qPrintable(imported.error));
    QCOMPARE(imported.report.instructions, 650576);
    QCOMPARE(imported.report.warnings,
        QStringList { first
            + QStringLiteral(": the trace ends early after %1 records, without its footer record (the tracer was "
                             "stopped?): imported what it holds")
                  .arg(cut.size()) });
}

void TestDrMemtraceCoreSharded::commandLine()
{
    const QString directory = m_layouts[QStringLiteral("four cores, quantum 700, chunks of 500")];
    TraceFormat format = TraceFormat::Csv;
    QString error;
    QVERIFY2(detectTraceFormat(directory, &format, &error), qPrintable(error));
    QCOMPARE(format, TraceFormat::DrMemtrace);
    const QString output = m_dir.filePath(QStringLiteral("cli.memhist"));
    const CliResult imported = runCli({ QStringLiteral("import"), directory, QStringLiteral("-o"), output });
    QCOMPARE(imported.exitCode, 0);
    QVERIFY2(
        imported.out.startsWith("imported 272358 accesses (172208 reads, 100150 writes, 0 executes; transitions 0.."),
        imported.out.constData());
    QCOMPARE(imported.err, QByteArray());
    const CliResult info = runCli({ QStringLiteral("info"), output });
    QVERIFY2(
        info.out.contains("threads:          9 (thread id: times scheduled, transitions run)\n"), info.out.constData());
}

QTEST_GUILESS_MAIN(TestDrMemtraceCoreSharded)
#include "tst_drmemtracecoresharded.moc"
