// SPDX-License-Identifier: MIT
// Importing a window of a trace (ImportOptions::skipInstructions/maxInstructions, importTraces,
// `memhist import --skip-instructions N --max-instructions M`): for every format, a window's
// accesses are exactly the full import's accesses with transitions in [N, N+M) — same transitions,
// same order — and its thread spans are the full import's cut to the window. drmemtrace zips start
// in the chunk that holds the window: an early chunk damaged on purpose is never inflated. Windows
// sit at, inside and across chunk boundaries, on DynamoRIO's as_traced trace (chunks of 1,000
// instructions), on the threadsig directory, on threadsig re-chunked into 1,000-instruction chunks
// (nine threads: seeking by chunk timestamps), on a core-sharded schedule of it, and on Lackey,
// Tenet and CSV traces, one of them a session of two traces.
#include "core/importers/importsession.h"
#include "core/importers/traceformats.h"
#include "core/storage/historydatabase.h"
#include "core/storage/threadspans.h"
#include "coreschedule.h"
#include "drmemtracewriter.h"
#include "historycontents.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <QtEndian>
#include <limits>

using namespace memhist;
using namespace memhist::test;
using namespace memhist::drmemtrace;

Q_DECLARE_METATYPE(std::optional<quint64>)

namespace {

QString dataPath(const QString &name)
{
    return QFINDTESTDATA(QStringLiteral("data/") + name);
}

constexpr quint64 noEnd = std::numeric_limits<quint64>::max();

struct Session
{
    bool ok = false;
    QString error;
    ImportSummary summary;
};

Session importSession(const QStringList &traces, const QString &output, quint64 skip, std::optional<quint64> max)
{
    Session session;
    QList<TraceInput> inputs;
    if (!recogniseTraces(traces, std::nullopt, &inputs, &session.error))
        return session;
    ImportOptions options;
    options.skipInstructions = skip;
    options.maxInstructions = max;
    QFile::remove(output);
    session.ok = importTraces(inputs, output, options, {}, &session.summary, &session.error);
    return session;
}

// The spans of `spans` cut to [first, end).
QList<ThreadSpan> clipped(const QList<ThreadSpan> &spans, quint64 first, quint64 end)
{
    QList<ThreadSpan> result;
    for (ThreadSpan span : spans) {
        if (span.last.value < first || span.first.value >= end)
            continue;
        span.first.value = std::max<std::uint64_t>(span.first.value, first);
        span.last.value = std::min<std::uint64_t>(span.last.value, end - 1);
        result.append(span);
    }
    return result;
}

bool sameSpans(const QList<ThreadSpan> &a, const QList<ThreadSpan> &b)
{
    if (a.size() != b.size())
        return false;
    for (qsizetype i = 0; i < a.size(); ++i) {
        if (a[i].threadId != b[i].threadId || a[i].first != b[i].first || a[i].last != b[i].last)
            return false;
    }
    return true;
}

// Overwrites a few bytes in the middle of zip member `member`'s compressed data: inflating it fails
// (or its CRC does), while the archive's directory and every other member stay intact.
bool damageZipMember(const QString &path, const QByteArray &member)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadWrite))
        return false;
    QByteArray bytes = file.readAll();
    for (qsizetype at = bytes.indexOf("PK\x03\x04"); at >= 0; at = bytes.indexOf("PK\x03\x04", at + 4)) {
        const quint32 compressed = qFromLittleEndian<quint32>(bytes.constData() + at + 18);
        const quint16 nameLength = qFromLittleEndian<quint16>(bytes.constData() + at + 26);
        const quint16 extraLength = qFromLittleEndian<quint16>(bytes.constData() + at + 28);
        if (bytes.mid(at + 30, nameLength) != member)
            continue;
        const qsizetype data = at + 30 + nameLength + extraLength;
        for (qsizetype i = compressed / 2; i < compressed / 2 + 16 && i < compressed; ++i)
            bytes[data + i] = char(bytes[data + i] ^ 0x5a);
        file.seek(0);
        return file.write(bytes) == bytes.size();
    }
    return false;
}

} // namespace

class TestImportWindow : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void windowEqualsTheFullImportsWindow_data();
    void windowEqualsTheFullImportsWindow();
    void rechunkedDirectoryImportsAsTheOriginal();
    void chunksBeforeTheWindowAreNotInflated_data();
    void chunksBeforeTheWindowAreNotInflated();
    void commandLine_data();
    void commandLine();

private:
    // The full import of `traces` (a session), made once.
    QString fullImport(const QStringList &traces);

    QTemporaryDir m_dir;
    QMap<QStringList, QString> m_full;
    QString m_rechunked; // threadsig, nine threads in chunks of 1,000 instructions
    QString m_coreSharded; // threadsig scheduled onto three cores
    QString m_csv; // the Lackey sample exported
};

QString TestImportWindow::fullImport(const QStringList &traces)
{
    if (!m_full.contains(traces)) {
        const QString output = m_dir.filePath(QStringLiteral("full-%1.memhist").arg(m_full.size()));
        const Session session = importSession(traces, output, 0, std::nullopt);
        if (!session.ok) {
            qWarning("%s", qPrintable(session.error));
            return {};
        }
        m_full[traces] = output;
    }
    return m_full[traces];
}

void TestImportWindow::initTestCase()
{
    QVERIFY(m_dir.isValid());
    qRegisterMetaType<std::optional<quint64>>();
    const QDir threadsig(dataPath(QStringLiteral("drmemtrace/threadsig.x64.tracedir")));
    const QStringList files
        = threadsig.entryList({ QStringLiteral("drmemtrace.threadsig.*.trace.zip") }, QDir::Files, QDir::Name);
    QCOMPARE(files.size(), 9);
    m_rechunked = m_dir.filePath(QStringLiteral("rechunked"));
    m_coreSharded = m_dir.filePath(QStringLiteral("cores"));
    QVERIFY(QDir().mkpath(m_rechunked) && QDir().mkpath(m_coreSharded));
    std::vector<Records> threads;
    for (const QString &file : files) {
        Records records;
        QString error;
        QVERIFY2(readTraceRecords(threadsig.filePath(file), &records, &error), qPrintable(error));
        threads.push_back(withoutChunkRecords(records));
        const std::vector<Records> chunks = splitIntoChunks(threads.back(), 1000);
        QVERIFY(chunks.size() > 20);
        QVERIFY2(writeChunkedZip(QDir(m_rechunked).filePath(file), chunks, &error), qPrintable(error));
    }
    CoreScheduleOptions schedule;
    schedule.cores = 3;
    const std::vector<Records> cores = scheduleOnCores(threads, schedule);
    for (size_t core = 0; core < cores.size(); ++core) {
        QString error;
        QVERIFY2(writeChunkedZip(
                     QDir(m_coreSharded)
                         .filePath(QStringLiteral("drmemtrace.core.%1.trace.zip").arg(core, 6, 10, QLatin1Char('0'))),
                     splitIntoChunks(cores[core], 1000), &error),
            qPrintable(error));
    }

    const QString lackey = fullImport({ dataPath(QStringLiteral("lackey/true.tiny.lackey")) });
    QVERIFY(!lackey.isEmpty());
    m_csv = m_dir.filePath(QStringLiteral("true.csv"));
    const CliResult exported = runCli({ QStringLiteral("export"), lackey, QStringLiteral("-o"), m_csv });
    QCOMPARE(exported.exitCode, 0);
}

void TestImportWindow::windowEqualsTheFullImportsWindow_data()
{
    QTest::addColumn<QStringList>("traces");
    QTest::addColumn<quint64>("skip");
    QTest::addColumn<std::optional<quint64>>("max");
    QTest::addColumn<qint64>("total"); // instructions of the whole session

    const auto row = [](const char *name, const QStringList &traces, quint64 skip, std::optional<quint64> max,
                         qint64 total) { QTest::newRow(name) << traces << skip << max << total; };
    const QStringList asTraced { dataPath(QStringLiteral("drmemtrace/as_traced.x64.tracedir")) };
    const qint64 asTracedTotal = 57812;
    row("as_traced: the first chunk", asTraced, 0, 1000, asTracedTotal);
    row("as_traced: exactly the second chunk", asTraced, 1000, 1000, asTracedTotal);
    row("as_traced: the last instruction of a chunk and the first of the next", asTraced, 999, 2, asTracedTotal);
    row("as_traced: the first instruction of a chunk", asTraced, 1000, 1, asTracedTotal);
    row("as_traced: the last instruction of a chunk", asTraced, 1999, 1, asTracedTotal);
    row("as_traced: inside a chunk", asTraced, 1500, 200, asTracedTotal);
    row("as_traced: across several chunks", asTraced, 2999, 2002, asTracedTotal);
    row("as_traced: far in, inside a chunk", asTraced, 30123, 456, asTracedTotal);
    row("as_traced: from the last chunk's start to the end", asTraced, 57000, std::nullopt, asTracedTotal);
    row("as_traced: beyond the end of the last chunk", asTraced, 56999, 100000, asTracedTotal);
    row("as_traced: the last instruction", asTraced, 57811, 1, asTracedTotal);
    row("as_traced: after the end (empty)", asTraced, 57812, 10, asTracedTotal);
    row("as_traced: from the start, bounded", asTraced, 0, 12345, asTracedTotal);

    const QStringList threadsig { dataPath(QStringLiteral("drmemtrace/threadsig.x64.tracedir")) };
    const qint64 threadsigTotal = 650576;
    row("threadsig: the start", threadsig, 0, 1000, threadsigTotal);
    row("threadsig: the middle", threadsig, 325000, 1000, threadsigTotal);
    row("threadsig: a wide window", threadsig, 100000, 200000, threadsigTotal);
    row("threadsig: to the end", threadsig, 650000, std::nullopt, threadsigTotal);
    row("threadsig: the last instruction", threadsig, 650575, 1, threadsigTotal);

    row("threadsig in 1,000-instruction chunks: the second chunk of the timeline", { QStringLiteral("rechunked") },
        1000, 1000, threadsigTotal);
    row("threadsig in 1,000-instruction chunks: across a chunk boundary", { QStringLiteral("rechunked") }, 122999, 5002,
        threadsigTotal);
    row("threadsig in 1,000-instruction chunks: the middle", { QStringLiteral("rechunked") }, 400000, 1000,
        threadsigTotal);
    row("threadsig in 1,000-instruction chunks: one instruction", { QStringLiteral("rechunked") }, 512345, 1,
        threadsigTotal);
    row("threadsig in 1,000-instruction chunks: to the end", { QStringLiteral("rechunked") }, 649000, std::nullopt,
        threadsigTotal);
    row("threadsig on three cores: the middle", { QStringLiteral("cores") }, 300000, 2000, threadsigTotal);
    row("threadsig on three cores: to the end", { QStringLiteral("cores") }, 650000, std::nullopt, threadsigTotal);

    const QStringList lackey { dataPath(QStringLiteral("lackey/true.tiny.lackey")) };
    const qint64 lackeyTotal = 131068;
    row("lackey: the start", lackey, 0, 100, lackeyTotal);
    row("lackey: the middle", lackey, 65000, 1000, lackeyTotal);
    row("lackey: to the end", lackey, 131000, std::nullopt, lackeyTotal);
    row("lackey: the last instruction", lackey, 131067, 1, lackeyTotal);
    row("lackey: after the end (empty)", lackey, 131068, 5, lackeyTotal);
    row("lackey, gzipped: the middle", { dataPath(QStringLiteral("lackey/true.tiny.lackey.gz")) }, 77777, 777,
        lackeyTotal);

    const QStringList tenet { dataPath(QStringLiteral("tenet/boombox.trace.0.log")) };
    const qint64 tenetTotal = 2163;
    row("tenet: the first line (its memory fields are stored at the first transition)", tenet, 0, 1, tenetTotal);
    row("tenet: from the second line", tenet, 1, 10, tenetTotal);
    row("tenet: the middle", tenet, 100, 500, tenetTotal);
    row("tenet: the last line", tenet, 2162, 1, tenetTotal);
    row("tenet: after the end (empty)", tenet, 2163, 5, tenetTotal);

    row("csv: the middle", { QStringLiteral("csv") }, 65000, 1000, -1);
    row("csv: the start", { QStringLiteral("csv") }, 0, 10, -1);
    row("csv: to the end", { QStringLiteral("csv") }, 131000, std::nullopt, -1);

    const QStringList session { dataPath(QStringLiteral("lackey/true.tiny.lackey")),
        dataPath(QStringLiteral("tenet/boombox.trace.0.log")) };
    row("two traces: a window across the second's start", session, 131000, 200, lackeyTotal + tenetTotal);
    row("two traces: a window in the second only", session, 132000, 100, lackeyTotal + tenetTotal);
    row("two traces: a window in the first only", session, 1000, 100, lackeyTotal + tenetTotal);
}

void TestImportWindow::windowEqualsTheFullImportsWindow()
{
    QFETCH(QStringList, traces);
    QFETCH(quint64, skip);
    QFETCH(std::optional<quint64>, max);
    QFETCH(qint64, total);
    for (QString &trace : traces) {
        if (trace == QLatin1String("rechunked"))
            trace = m_rechunked;
        else if (trace == QLatin1String("cores"))
            trace = m_coreSharded;
        else if (trace == QLatin1String("csv"))
            trace = m_csv;
    }
    const QString full = fullImport(traces);
    QVERIFY(!full.isEmpty());
    const quint64 end = max ? skip + *max : noEnd;

    const QString output = m_dir.filePath(QStringLiteral("window.memhist"));
    const Session window = importSession(traces, output, skip, max);
    QVERIFY2(window.ok, qPrintable(window.error));
    const QList<AccessRow> expected = accessesBetween(full, skip, end);
    const QList<AccessRow> actual = accessesBetween(output, 0, noEnd);
    QCOMPARE(actual.size(), expected.size());
    QVERIFY(actual == expected);
    if (total >= 0) {
        // What was read before the window is counted, and only that.
        QCOMPARE(window.summary.skipped.value(beforeWindowKind()), std::min<qint64>(qint64(skip), total));
    }

    QString error;
    const auto fullDatabase = HistoryDatabase::open(full, &error);
    const auto windowDatabase = HistoryDatabase::open(output, &error);
    QVERIFY2(fullDatabase && windowDatabase, qPrintable(error));
    const QList<ThreadSpan> expectedSpans = clipped(allSpans(*fullDatabase), skip, end);
    QVERIFY(sameSpans(allSpans(*windowDatabase), expectedSpans));
    QCOMPARE(windowDatabase->meta().value(QStringLiteral("import window")),
        max ? QStringLiteral("transitions %1..%2").arg(skip).arg(end - 1)
            : QStringLiteral("transitions %1..").arg(skip));
}

void TestImportWindow::rechunkedDirectoryImportsAsTheOriginal()
{
    // The re-chunked files are the same trace: their full import is the original's, access for
    // access and span for span (so the windows above compare against the right timeline).
    const QString original = fullImport({ dataPath(QStringLiteral("drmemtrace/threadsig.x64.tracedir")) });
    const QString rechunked = fullImport({ m_rechunked });
    QVERIFY(!original.isEmpty() && !rechunked.isEmpty());
    QString error;
    const auto a = HistoryDatabase::open(original, &error);
    const auto b = HistoryDatabase::open(rechunked, &error);
    QVERIFY2(a && b, qPrintable(error));
    QVERIFY(allAccesses(*a) == allAccesses(*b));
    QVERIFY(sameSpans(allSpans(*a), allSpans(*b)));
}

void TestImportWindow::chunksBeforeTheWindowAreNotInflated_data()
{
    QTest::addColumn<QString>("trace"); // a directory, copied, then damaged
    QTest::addColumn<QString>("damaged"); // the file whose member chunk.0003 is damaged
    QTest::addColumn<quint64>("skip");
    QTest::addColumn<quint64>("max");

    QTest::newRow("one thread: the window starts at chunk 10")
        << dataPath(QStringLiteral("drmemtrace/as_traced.x64.tracedir"))
        << QStringLiteral("drmemtrace.simple_app.1674735.1533.trace.zip") << quint64(10000) << quint64(2000);
    QTest::newRow("one thread: the window starts inside chunk 40")
        << dataPath(QStringLiteral("drmemtrace/as_traced.x64.tracedir"))
        << QStringLiteral("drmemtrace.simple_app.1674735.1533.trace.zip") << quint64(40500) << quint64(100);
    QTest::newRow("nine threads: the busiest thread's early chunk")
        << QStringLiteral("rechunked") << QStringLiteral("drmemtrace.threadsig.872884.3060.trace.zip")
        << quint64(500000) << quint64(3000);
}

void TestImportWindow::chunksBeforeTheWindowAreNotInflated()
{
    QFETCH(QString, trace);
    QFETCH(QString, damaged);
    QFETCH(quint64, skip);
    QFETCH(quint64, max);
    if (trace == QLatin1String("rechunked"))
        trace = m_rechunked;
    const QString full = fullImport({ trace });
    QVERIFY(!full.isEmpty());

    QTemporaryDir copy;
    QVERIFY(copy.isValid());
    for (const QString &file : QDir(trace).entryList(QDir::Files))
        QVERIFY(QFile::copy(QDir(trace).filePath(file), copy.filePath(file)));
    QVERIFY(damageZipMember(copy.filePath(damaged), "chunk.0003"));

    // The whole trace cannot be read any more...
    const QString output = m_dir.filePath(QStringLiteral("damaged.memhist"));
    const Session whole = importSession({ copy.path() }, output, 0, std::nullopt);
    QVERIFY(!whole.ok);
    QVERIFY2(whole.error.startsWith(copy.filePath(damaged) + QStringLiteral(": zip member chunk.0003")),
        qPrintable(whole.error));
    // ...but the window, after it, is read without inflating it, and is the full import's window.
    const Session window = importSession({ copy.path() }, output, skip, max);
    QVERIFY2(window.ok, qPrintable(window.error));
    const QList<AccessRow> expected = accessesBetween(full, skip, skip + max);
    QVERIFY(!expected.isEmpty());
    QVERIFY(accessesBetween(output, 0, noEnd) == expected);
}

void TestImportWindow::commandLine_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QByteArray>("out"); // the start of stdout
    QTest::addColumn<QByteArray>("err");

    QTest::newRow("a window of as_traced")
        << QStringList { QStringLiteral("--skip-instructions"), QStringLiteral("20000"),
               QStringLiteral("--max-instructions"), QStringLiteral("5000") }
        << 0 << QByteArray("imported 993 accesses (993 reads, 0 writes, 0 executes; transitions 20005..24996)")
        << QByteArray();
    QTest::newRow("hex numbers") << QStringList { QStringLiteral("--skip-instructions"), QStringLiteral("0x4e20"),
        QStringLiteral("--max-instructions"), QStringLiteral("0x1388") }
                                 << 0
                                 << QByteArray("imported 993 accesses (993 reads, 0 writes, 0 executes; transitions "
                                               "20005..24996)")
                                 << QByteArray();
    QTest::newRow("the first instructions only")
        << QStringList { QStringLiteral("--max-instructions"), QStringLiteral("100") } << 0
        << QByteArray("imported 28 accesses (8 reads, 20 writes, 0 executes; transitions 1..99)") << QByteArray();
    QTest::newRow("error: no instructions")
        << QStringList { QStringLiteral("--max-instructions"), QStringLiteral("0") } << 2 << QByteArray()
        << QByteArray("memhist import: --max-instructions: '0' is not a number of instructions (at least 1)\n");
    QTest::newRow("error: not a number")
        << QStringList { QStringLiteral("--skip-instructions"), QStringLiteral("many") } << 2 << QByteArray()
        << QByteArray("memhist import: --skip-instructions: 'many' is not a number (decimal or 0x hex)\n");
    QTest::newRow("error: beyond the last transition")
        << QStringList { QStringLiteral("--skip-instructions"), QStringLiteral("9223372036854775808") } << 2
        << QByteArray()
        << QByteArray(
               "memhist import: --skip-instructions: '9223372036854775808' is beyond the last transition (2^63-1)\n");
}

void TestImportWindow::commandLine()
{
    QFETCH(QStringList, options);
    QFETCH(int, exitCode);
    QFETCH(QByteArray, out);
    QFETCH(QByteArray, err);
    const QString output = m_dir.filePath(QStringLiteral("cli.memhist"));
    QFile::remove(output);
    const CliResult result
        = runCli(QStringList { QStringLiteral("import"), dataPath(QStringLiteral("drmemtrace/as_traced.x64.tracedir")),
                     QStringLiteral("-o"), output }
            + options);
    QCOMPARE(result.exitCode, exitCode);
    QVERIFY2(result.out.startsWith(out), result.out.constData());
    if (exitCode == 0) {
        QCOMPARE(result.err, QByteArray());
    } else {
        QVERIFY2(result.err.startsWith(err), result.err.constData());
        QVERIFY(!QFile::exists(output));
    }
}

QTEST_GUILESS_MAIN(TestImportWindow)
#include "tst_importwindow.moc"
