// SPDX-License-Identifier: MIT
// The drmemtrace importer against DynamoRIO's own test traces (tests/data/drmemtrace, see
// shared/traces/README.md for where the expected counts come from): exact counts for every file and
// directory, per thread, thread spans, the checker on every result, every container, the damaged
// inputs with their exact messages, progress and cancellation, and the command line. Then the
// limits: records written here for bundles, size-0 accesses and scatter/gather references, and
// directories of more thread files than the importer may keep open.
#include "core/checker/historychecker.h"
#include "core/importers/accesssink.h"
#include "core/importers/drmemtrace/crc32c.h"
#include "core/importers/drmemtrace/zipchunkstream.h"
#include "core/importers/drmemtraceimporter.h"
#include "core/importers/traceformats.h"
#include "core/storage/historydatabase.h"
#include "core/storage/threadspans.h"
#include "core/writer/historywriter.h"
#include "drmemtracewriter.h"
#include "historycontents.h"
#include "testsupport.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QtEndian>
#include <set>
#include <snappy-c.h>
#include <sys/resource.h>
#include <zlib.h>

using namespace memhist;
using namespace memhist::test;

Q_DECLARE_METATYPE(std::optional<quint64>)

namespace {

QString dataPath(const QString &name)
{
    return QFINDTESTDATA(QStringLiteral("data/drmemtrace/") + name);
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool writeAll(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

// The snappy framing format, written the long way: a stream identifier, then chunks of `chunkSize`
// bytes, compressed ones and (every third) stored ones, with a padding chunk among them.
QByteArray snappyFramed(const QByteArray &bytes, qsizetype chunkSize)
{
    const auto header = [](uchar type, qsizetype length) {
        QByteArray h(4, Qt::Uninitialized);
        h[0] = char(type);
        h[1] = char(length & 0xff);
        h[2] = char((length >> 8) & 0xff);
        h[3] = char((length >> 16) & 0xff);
        return h;
    };
    QByteArray out = QByteArray("\xff\x06\x00\x00sNaPpY", 10);
    int index = 0;
    for (qsizetype pos = 0; pos < bytes.size(); pos += chunkSize, ++index) {
        const QByteArray data = bytes.mid(pos, chunkSize);
        char crc[4];
        qToLittleEndian(drmemtrace::maskCrc32c(drmemtrace::crc32c(data.constData(), data.size())), crc);
        if (index % 3 == 2) {
            out += header(0x01, data.size() + 4) + QByteArray(crc, 4) + data;
        } else {
            size_t length = snappy_max_compressed_length(size_t(data.size()));
            QByteArray compressed(qsizetype(length), Qt::Uninitialized);
            snappy_compress(data.constData(), size_t(data.size()), compressed.data(), &length);
            compressed.truncate(qsizetype(length));
            out += header(0x00, compressed.size() + 4) + QByteArray(crc, 4) + compressed;
        }
        if (index == 1)
            out += header(0xfe, 3) + QByteArray(3, '\0'); // padding
    }
    return out;
}

struct Imported
{
    bool ok = false;
    QString error;
    ImportReport report;
    WriterStats stats;
};

Imported importInto(
    const QString &trace, const QString &output, ImportOptions options = {}, const ImportProgress &progress = {})
{
    Imported result;
    HistoryWriter writer(output);
    WriterSink sink(writer);
    if (!writer.open()) {
        result.error = writer.errorString();
        return result;
    }
    DrMemtraceImporter importer;
    result.ok = importer.run(trace, sink, options, &result.report, &result.error, progress);
    if (!result.ok) {
        writer.cancel();
        return result;
    }
    result.ok = writer.finish();
    if (!result.ok)
        result.error = writer.errorString();
    result.stats = writer.stats();
    return result;
}

} // namespace

class TestDrMemtraceImporter : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void counts_data();
    void counts();
    void perThread_data();
    void perThread();
    void interleavingCoversTheTimelineInOrder();
    void withExecuteAndFirstTransition();
    void containersGiveTheSameHistory_data();
    void containersGiveTheSameHistory();
    void crc32cKnownValue();
    void recognisedByContent_data();
    void recognisedByContent();
    void errors_data();
    void errors();
    void missingFooterWarns();
    void progressAndCancel();
    void commandLine();
    void recordsOfEveryKind_data();
    void recordsOfEveryKind();
    void manyThreadFilesStayUnderTheOpenFileBound();
    void manyThreadFilesUnderALowOpenFileLimit();
    void zipOfMoreMembersThanAClassicDirectoryCounts();
    void zip64MemberSizesComeFromTheExtraField();

private:
    // `count` thread files made from the start of a real thread (872805), each with its own thread
    // id, half raw and half zipped, in a new directory; *each gets the counts of one of them.
    QString writeManyThreads(const QString &name, int count, memhist::test::RecordCounts *each);

private:
    QTemporaryDir m_dir;
};

void TestDrMemtraceImporter::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY(QFile::exists(dataPath(QStringLiteral("LICENSE-DynamoRIO-BSD.txt"))));
}

void TestDrMemtraceImporter::counts_data()
{
    QTest::addColumn<QString>("trace");
    QTest::addColumn<qint64>("reads");
    QTest::addColumn<qint64>("writes");
    QTest::addColumn<qint64>("instructions");
    QTest::addColumn<int>("threads");
    QTest::addColumn<qint64>("sideFiles");

    QTest::newRow("zip, one chunk, version 4 with encodings")
        << "drmemtrace.simple_app.trace.zip" << qint64(31507) << qint64(12338) << qint64(136051) << 1 << qint64(0);
    QTest::newRow("directory, zip of 58 chunks: chunk footers, ordinals, repeated headers")
        << "as_traced.x64.tracedir" << qint64(11178) << qint64(4064) << qint64(57812) << 1 << qint64(2);
    QTest::newRow("directory of 9 threads interleaved by timestamps")
        << "threadsig.x64.tracedir" << qint64(172208) << qint64(100150) << qint64(650576) << 9 << qint64(2);
    QTest::newRow("one thread file of a directory alone")
        << "threadsig.x64.tracedir/drmemtrace.threadsig.872805.4975.trace.zip" << qint64(6303) << qint64(3559)
        << qint64(22052) << 1 << qint64(0);
    QTest::newRow("directory of 4 gzip threads, legacy version 1")
        << "legacy-gz.x64.tracedir" << qint64(33029) << qint64(37486) << qint64(38067) << 4 << qint64(0);
    QTest::newRow("one gzip thread alone") << "legacy-gz.x64.tracedir/drmemtrace.threadsig.10506.7343.trace.gz"
                                           << qint64(1130) << qint64(1073) << qint64(4421) << 1 << qint64(0);
    QTest::newRow("raw, legacy version 1 without version or filetype markers")
        << "drmemtrace.small.x64.trace" << qint64(42) << qint64(14) << qint64(173) << 1 << qint64(0);
}

void TestDrMemtraceImporter::counts()
{
    QFETCH(QString, trace);
    QFETCH(qint64, reads);
    QFETCH(qint64, writes);
    QFETCH(qint64, instructions);
    QFETCH(int, threads);
    QFETCH(qint64, sideFiles);

    const QString output = m_dir.filePath(QStringLiteral("counts.memhist"));
    QFile::remove(output);
    const Imported imported = importInto(dataPath(trace), output);
    QVERIFY2(imported.ok, qPrintable(imported.error));
    QCOMPARE(imported.report.reads, reads);
    QCOMPARE(imported.report.writes, writes);
    QCOMPARE(imported.report.instructions, instructions);
    QCOMPARE(imported.report.executes, 0);
    QCOMPARE(imported.report.nextTransition, Transition(quint64(instructions)));
    QCOMPARE(imported.report.skipped.value(QStringLiteral("instruction fetches")), instructions);
    QCOMPARE(imported.report.skipped.value(QStringLiteral("schedule side files")), sideFiles);
    QVERIFY2(imported.report.warnings.isEmpty(), qPrintable(imported.report.warnings.join(u'\n')));
    QCOMPARE(imported.stats.reads, reads);
    QCOMPARE(imported.stats.writes, writes);

    QString error;
    const auto database = HistoryDatabase::open(output, &error);
    QVERIFY2(database, qPrintable(error));
    const CheckReport check = HistoryChecker(*database).run();
    QVERIFY2(check.ok, qPrintable(check.violation));
    QCOMPARE(check.accesses, reads + writes);

    const ThreadSpans spans(*database);
    QVERIFY(spans.available());
    const QList<ThreadSummary> summaries = spans.threads();
    QCOMPARE(summaries.size(), threads);
    qint64 covered = 0;
    for (const ThreadSummary &summary : summaries)
        covered += summary.transitions;
    QCOMPARE(covered, instructions);
}

void TestDrMemtraceImporter::perThread_data()
{
    QTest::addColumn<QString>("directory");
    QTest::addColumn<qint64>("thread");
    QTest::addColumn<qint64>("reads");
    QTest::addColumn<qint64>("writes");
    QTest::addColumn<qint64>("instructions");

    const QString threadsig = QStringLiteral("threadsig.x64.tracedir");
    QTest::newRow("threadsig 872805") << threadsig << qint64(872805) << qint64(6303) << qint64(3559) << qint64(22052);
    QTest::newRow("threadsig 872884") << threadsig << qint64(872884) << qint64(41274) << qint64(24168)
                                      << qint64(156381);
    QTest::newRow("threadsig 872894") << threadsig << qint64(872894) << qint64(32775) << qint64(19174)
                                      << qint64(123958);
    QTest::newRow("threadsig 872901") << threadsig << qint64(872901) << qint64(12833) << qint64(7400) << qint64(48615);
    QTest::newRow("threadsig 872902") << threadsig << qint64(872902) << qint64(16232) << qint64(9388) << qint64(61550);
    QTest::newRow("threadsig 872903") << threadsig << qint64(872903) << qint64(20590) << qint64(11964) << qint64(78051);
    QTest::newRow("threadsig 872904") << threadsig << qint64(872904) << qint64(11990) << qint64(6910) << qint64(45355);
    QTest::newRow("threadsig 872905") << threadsig << qint64(872905) << qint64(17160) << qint64(9997) << qint64(65121);
    QTest::newRow("threadsig 872906") << threadsig << qint64(872906) << qint64(13051) << qint64(7590) << qint64(49493);
    const QString legacy = QStringLiteral("legacy-gz.x64.tracedir");
    QTest::newRow("legacy-gz 10506") << legacy << qint64(10506) << qint64(1130) << qint64(1073) << qint64(4421);
    QTest::newRow("legacy-gz 10510") << legacy << qint64(10510) << qint64(1156) << qint64(1280) << qint64(1388);
    QTest::newRow("legacy-gz 10511") << legacy << qint64(10511) << qint64(19108) << qint64(21815) << qint64(20069);
    QTest::newRow("legacy-gz 10512") << legacy << qint64(10512) << qint64(11635) << qint64(13318) << qint64(12189);
}

void TestDrMemtraceImporter::perThread()
{
    QFETCH(QString, directory);
    QFETCH(qint64, thread);
    QFETCH(qint64, reads);
    QFETCH(qint64, writes);
    QFETCH(qint64, instructions);

    // One import per directory, shared by its rows.
    const QString output = m_dir.filePath(directory + QStringLiteral(".memhist"));
    if (!QFile::exists(output)) {
        const Imported imported = importInto(dataPath(directory), output);
        QVERIFY2(imported.ok, qPrintable(imported.error));
    }
    QString error;
    const auto database = HistoryDatabase::open(output, &error);
    QVERIFY2(database, qPrintable(error));
    const QMap<qint64, ThreadCounts> counts = countsPerThread(*database);
    QVERIFY(counts.contains(thread));
    QCOMPARE(counts[thread].instructions, instructions);
    QCOMPARE(counts[thread].reads, reads);
    QCOMPARE(counts[thread].writes, writes);
}

void TestDrMemtraceImporter::interleavingCoversTheTimelineInOrder()
{
    const QString output = m_dir.filePath(QStringLiteral("timeline.memhist"));
    const Imported imported = importInto(dataPath(QStringLiteral("threadsig.x64.tracedir")), output);
    QVERIFY2(imported.ok, qPrintable(imported.error));
    QString error;
    const auto database = HistoryDatabase::open(output, &error);
    QVERIFY2(database, qPrintable(error));
    const ThreadSpans spans(*database);
    const QList<ThreadSpan> timeline = spans.spansBetween(Transition { 0 }, Transition { 1u << 30 });
    // Spans tile [0, 650575] with no gap and no overlap, and consecutive spans are different threads
    // (the writer merges a thread's consecutive spans).
    QVERIFY(timeline.size() > 9);
    QCOMPARE(timeline.first().first, Transition { 0 });
    QCOMPARE(timeline.last().last, Transition { 650575 });
    for (qsizetype i = 1; i < timeline.size(); ++i) {
        QCOMPARE(timeline[i].first.value, timeline[i - 1].last.value + 1);
        QVERIFY(timeline[i].threadId != timeline[i - 1].threadId);
    }
    // The lookup the viewer uses agrees with the spans, at their edges and inside.
    for (const ThreadSpan &span : timeline) {
        QCOMPARE(spans.threadAt(span.first), std::optional<qint64>(span.threadId));
        QCOMPARE(spans.threadAt(span.last), std::optional<qint64>(span.threadId));
    }
    QCOMPARE(spans.threadAt(Transition { 650576 }), std::nullopt);
    // All nine threads' first timestamps are equal: the tie goes to the smallest thread id whose
    // first segment holds instructions (872805's first timestamp is followed at once by a later one).
    QCOMPARE(timeline.first().threadId, qint64(872894));
}

void TestDrMemtraceImporter::withExecuteAndFirstTransition()
{
    const QString output = m_dir.filePath(QStringLiteral("exec.memhist"));
    ImportOptions options;
    options.withExecute = true;
    options.firstTransition = Transition { 1000 };
    const Imported imported = importInto(dataPath(QStringLiteral("drmemtrace.simple_app.trace.zip")), output, options);
    QVERIFY2(imported.ok, qPrintable(imported.error));
    QCOMPARE(imported.report.executes, 136051);
    QCOMPARE(imported.report.accesses, 31507 + 12338 + 136051);
    QVERIFY(!imported.report.skipped.contains(QStringLiteral("instruction fetches")));
    QCOMPARE(imported.stats.firstTransition, std::optional(Transition { 1000 }));
    QCOMPARE(imported.stats.lastTransition, std::optional(Transition { 1000 + 136051 - 1 }));
    QCOMPARE(imported.report.nextTransition, Transition { 1000 + 136051 });

    QString error;
    const auto database = HistoryDatabase::open(output, &error);
    QVERIFY2(database, qPrintable(error));
    QVERIFY(HistoryChecker(*database).run().ok);
    // The first instruction of the trace: an execute access at transition 1000, its pc and length.
    sqlite::Statement first = database->connection().prepare(
        "SELECT transition, operation, phy_first, linear, size FROM accesses ORDER BY rowid LIMIT 1");
    QCOMPARE(first.step(), SQLITE_ROW);
    QCOMPARE(first.int64(0), 1000);
    QCOMPARE(first.int64(1), int(Operation::Execute));
    QCOMPARE(first.int64(2), 0x7fbbbede5940);
    QCOMPARE(first.int64(3), 0x7fbbbede5940);
    QCOMPARE(first.int64(4), 3);
    // xsavec/xrstor accesses have size 0 in the trace: stored as one byte, and said so in meta.
    QCOMPARE(database->meta().value(QStringLiteral("drmemtrace: accesses of unknown size stored as 1 byte")),
        QStringLiteral("8"));
}

void TestDrMemtraceImporter::containersGiveTheSameHistory_data()
{
    QTest::addColumn<QString>("container");
    QTest::newRow("gzip") << "gz";
    QTest::newRow("snappy framing, compressed, stored and padding chunks") << "sz";
}

void TestDrMemtraceImporter::containersGiveTheSameHistory()
{
    QFETCH(QString, container);
    // The records of the zip, as one raw file: imported raw, it is the reference.
    const QString rawPath = m_dir.filePath(QStringLiteral("simple.trace"));
    if (!QFile::exists(rawPath)) {
        drmemtrace::ZipChunkStream zip(dataPath(QStringLiteral("drmemtrace.simple_app.trace.zip")));
        QVERIFY(zip.open());
        QByteArray unpacked;
        while (zip.nextPart()) {
            char buffer[65536];
            qint64 n;
            while ((n = zip.read(buffer, sizeof buffer)) > 0)
                unpacked.append(buffer, n);
            QCOMPARE(n, 0);
        }
        QVERIFY(zip.errorString().isEmpty());
        QVERIFY(writeAll(rawPath, unpacked));
    }
    const QByteArray records = readAll(rawPath);
    QCOMPARE(records.size() % 12, 0);

    const QString packed = m_dir.filePath(QStringLiteral("simple.trace.") + container);
    QVERIFY(writeAll(packed, container == QLatin1String("gz") ? gzip(records) : snappyFramed(records, 65536)));

    const QString referenceOutput = m_dir.filePath(QStringLiteral("reference.memhist"));
    const QString packedOutput = m_dir.filePath(QStringLiteral("packed-") + container + QStringLiteral(".memhist"));
    QFile::remove(referenceOutput);
    const Imported reference = importInto(rawPath, referenceOutput);
    QVERIFY2(reference.ok, qPrintable(reference.error));
    const Imported imported = importInto(packed, packedOutput);
    QVERIFY2(imported.ok, qPrintable(imported.error));
    QCOMPARE(imported.report.reads, 31507);
    QCOMPARE(imported.report.instructions, 136051);

    QString error;
    const auto a = HistoryDatabase::open(referenceOutput, &error);
    const auto b = HistoryDatabase::open(packedOutput, &error);
    QVERIFY(a && b);
    QCOMPARE(allAccesses(*b), allAccesses(*a));
}

void TestDrMemtraceImporter::crc32cKnownValue()
{
    // The check value of CRC-32C (RFC 3720, B.4) and a long input that crosses the 8-byte steps.
    QCOMPARE(drmemtrace::crc32c("123456789", 9), 0xe3069283u);
    QCOMPARE(drmemtrace::crc32c(QByteArray(32, '\0').constData(), 32), 0x8a9136aau);
}

void TestDrMemtraceImporter::recognisedByContent_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<bool>("drmemtrace");
    QTest::newRow("zip of chunks") << dataPath(QStringLiteral("drmemtrace.simple_app.trace.zip")) << true;
    QTest::newRow("raw records") << dataPath(QStringLiteral("drmemtrace.small.x64.trace")) << true;
    QTest::newRow("gzip") << dataPath(QStringLiteral("legacy-gz.x64.tracedir/drmemtrace.threadsig.10510.0155.trace.gz"))
                          << true;
    QTest::newRow("trace directory") << dataPath(QStringLiteral("threadsig.x64.tracedir")) << true;
    QTest::newRow("schedule side file (zip of other members)")
        << dataPath(QStringLiteral("threadsig.x64.tracedir/cpu_schedule.bin.zip")) << false;
    QTest::newRow("schedule side file (gzip of other records)")
        << dataPath(QStringLiteral("threadsig.x64.tracedir/serial_schedule.bin.gz")) << false;
    QTest::newRow("licence text") << dataPath(QStringLiteral("LICENSE-DynamoRIO-BSD.txt")) << false;
}

void TestDrMemtraceImporter::recognisedByContent()
{
    QFETCH(QString, path);
    QFETCH(bool, drmemtrace);
    // A copy under a neutral name: the content decides, not the name.
    QString probe = path;
    if (!QFileInfo(path).isDir()) {
        probe = m_dir.filePath(QStringLiteral("anonymous.bin"));
        QFile::remove(probe);
        QVERIFY(QFile::copy(path, probe));
    }
    TraceFormat format = TraceFormat::Csv;
    QString error;
    const bool recognised = detectTraceFormat(probe, &format, &error);
    QCOMPARE(recognised && format == TraceFormat::DrMemtrace, drmemtrace);
}

void TestDrMemtraceImporter::errors_data()
{
    QTest::addColumn<QString>("damage");
    QTest::addColumn<QString>("message"); // %1: the damaged file

    QTest::newRow("truncated zip") << "truncated-zip"
                                   << "%1: not a readable zip archive: truncated or corrupt (no central directory)";
    QTest::newRow("zip member size not a multiple of 12")
        << "member-size"
        << "%1: zip member chunk.0001: size 1817 is not a multiple of the 12-byte record size";
    // Found when the member is read to its end: placed there, the member named once.
    QTest::newRow("zip member CRC mismatch")
        << "zip-crc"
        << "%1: zip member chunk.0000: record 191901 (offset 2302812): CRC mismatch (corrupt data)";
    QTest::newRow("unknown record type") << "unknown-type"
                                         << "%1: record 20 (offset 240): unknown record type 200";
    QTest::newRow("truncated gzip")
        << "truncated-gzip"
        << "%1: record 1834 (offset 22008): truncated gzip data: the file ends after 5000 bytes, before the end of "
           "the compressed stream";
    QTest::newRow("raw record cut in two")
        << "cut-record"
        << "%1: record 250 (offset 3000): incomplete record: the data ends after 7 of its 12 bytes";
    QTest::newRow("snappy checksum mismatch")
        << "snappy-crc"
        << "%1: record 0 (offset 0): snappy chunk checksum mismatch (corrupt data) (chunk at byte 10)";
    QTest::newRow("snappy cut inside a padding chunk")
        << "snappy-cut-padding"
        << "%1: record 251 (offset 3012): truncated snappy stream: the file ends after %2 bytes, inside a "
           "skippable chunk";
    QTest::newRow("empty file") << "empty"
                                << "%1: empty file";
    QTest::newRow("directory with no trace") << "no-trace-dir"
                                             << "%1: no drmemtrace trace files in this directory";
    QTest::newRow("damaged thread file in a directory")
        << "damaged-in-dir"
        << "%1: not a readable zip archive: truncated or corrupt (no central directory)";
}

void TestDrMemtraceImporter::errors()
{
    QFETCH(QString, damage);
    QFETCH(QString, message);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QByteArray small = readAll(dataPath(QStringLiteral("drmemtrace.small.x64.trace")));
    QCOMPARE(small.size(), 3012);
    QString input = dir.filePath(QStringLiteral("damaged.trace"));
    QString named = input; // the file the message names
    if (damage == QLatin1String("truncated-zip")) {
        input = named = dir.filePath(QStringLiteral("damaged.trace.zip"));
        QVERIFY(writeAll(input, readAll(dataPath(QStringLiteral("drmemtrace.simple_app.trace.zip"))).first(100000)));
    } else if (damage == QLatin1String("zip-crc")) {
        // The member's CRC, in its local header and in the central directory, no longer matches its
        // data, which still inflates.
        input = named = dir.filePath(QStringLiteral("damaged.trace.zip"));
        QByteArray zip = readAll(dataPath(QStringLiteral("drmemtrace.simple_app.trace.zip")));
        QVERIFY(zip.startsWith("PK\x03\x04"));
        const qsizetype central = zip.indexOf(QByteArrayView("PK\x01\x02", 4));
        QVERIFY(central > 0);
        zip[14] = char(zip[14] ^ 0xff);
        zip[central + 16] = char(zip[central + 16] ^ 0xff);
        QVERIFY(writeAll(input, zip));
    } else if (damage == QLatin1String("member-size")) {
        input = named = dataPath(QStringLiteral("bad/chunk-size-not-multiple.trace.zip"));
    } else if (damage == QLatin1String("unknown-type")) {
        QByteArray patched = small;
        qToLittleEndian(quint16(200), patched.data() + 20 * 12);
        QVERIFY(writeAll(input, patched));
    } else if (damage == QLatin1String("truncated-gzip")) {
        input = named = dir.filePath(QStringLiteral("damaged.trace.gz"));
        const QByteArray gz
            = readAll(dataPath(QStringLiteral("legacy-gz.x64.tracedir/drmemtrace.threadsig.10506.7343.trace.gz")));
        QVERIFY(writeAll(input, gz.first(5000)));
    } else if (damage == QLatin1String("cut-record")) {
        QVERIFY(writeAll(input, small.first(small.size() - 5)));
    } else if (damage == QLatin1String("snappy-crc")) {
        input = named = dir.filePath(QStringLiteral("damaged.trace.sz"));
        QByteArray framed = snappyFramed(small, 65536);
        framed[14] = char(framed[14] ^ 0x55); // the first data chunk's checksum
        QVERIFY(writeAll(input, framed));
    } else if (damage == QLatin1String("snappy-cut-padding")) {
        // A padding chunk that says 100 bytes and holds 3: the file was cut after the data.
        input = named = dir.filePath(QStringLiteral("damaged.trace.sz"));
        const QByteArray framed = snappyFramed(small, 65536) + QByteArray("\xfe\x64\x00\x00\x00\x00\x00", 7);
        QVERIFY(writeAll(input, framed));
        message.replace(QStringLiteral("%2"), QString::number(framed.size()));
    } else if (damage == QLatin1String("empty")) {
        QVERIFY(writeAll(input, {}));
    } else if (damage == QLatin1String("no-trace-dir")) {
        input = named = dir.filePath(QStringLiteral("notrace"));
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("notrace")));
        QVERIFY(writeAll(input + QStringLiteral("/notes.txt"), "not a trace\n"));
    } else if (damage == QLatin1String("damaged-in-dir")) {
        input = dir.filePath(QStringLiteral("tracedir"));
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("tracedir")));
        QVERIFY(writeAll(input + QStringLiteral("/drmemtrace.app.1.2.trace"), small));
        named = input + QStringLiteral("/drmemtrace.app.3.4.trace.zip");
        QVERIFY(writeAll(named, readAll(dataPath(QStringLiteral("drmemtrace.simple_app.trace.zip"))).first(50000)));
    } else {
        QFAIL("unknown damage");
    }

    const QString output = dir.filePath(QStringLiteral("out.memhist"));
    const Imported imported = importInto(input, output);
    QVERIFY(!imported.ok);
    QCOMPARE(imported.error, message.arg(named));
    QVERIFY(!QFile::exists(output));
    QCOMPARE(QDir(dir.path()).entryList({ QStringLiteral("*.memhist*") }, QDir::Files), QStringList());
}

void TestDrMemtraceImporter::missingFooterWarns()
{
    // A tracer killed before the end leaves no footer record: what is there is imported, with a warning.
    const QByteArray small = readAll(dataPath(QStringLiteral("drmemtrace.small.x64.trace")));
    const QString input = m_dir.filePath(QStringLiteral("nofooter.trace"));
    QVERIFY(writeAll(input, small.first(small.size() - 12)));
    const QString output = m_dir.filePath(QStringLiteral("nofooter.memhist"));
    const Imported imported = importInto(input, output);
    QVERIFY2(imported.ok, qPrintable(imported.error));
    QCOMPARE(imported.report.reads, 42);
    QCOMPARE(imported.report.writes, 14);
    QCOMPARE(imported.report.instructions, 173);
    QCOMPARE(imported.report.warnings,
        QStringList { input
            + QStringLiteral(": the trace ends early after 250 records, without its footer record (the tracer was "
                             "stopped?): imported what it holds") });
}

void TestDrMemtraceImporter::progressAndCancel()
{
    const QString trace = dataPath(QStringLiteral("threadsig.x64.tracedir"));
    QList<double> fractions;
    const QString output = m_dir.filePath(QStringLiteral("progress.memhist"));
    const Imported imported = importInto(trace, output, {}, [&](double fraction) {
        fractions << fraction;
        return true;
    });
    QVERIFY2(imported.ok, qPrintable(imported.error));
    QVERIFY(fractions.size() > 2);
    QVERIFY(std::is_sorted(fractions.cbegin(), fractions.cend()));
    QCOMPARE(fractions.last(), 1.0);

    const QString cancelledOutput = m_dir.filePath(QStringLiteral("cancelled.memhist"));
    int calls = 0;
    const Imported cancelled = importInto(trace, cancelledOutput, {}, [&](double) { return ++calls < 2; });
    QVERIFY(!cancelled.ok);
    QCOMPARE(calls, 2);
    QVERIFY2(cancelled.error.endsWith(QStringLiteral(": import cancelled")), qPrintable(cancelled.error));
    QVERIFY(!QFile::exists(cancelledOutput));
}

void TestDrMemtraceImporter::commandLine()
{
    const QString output = m_dir.filePath(QStringLiteral("cli.memhist"));
    QProcess import;
    import.start(QStringLiteral(MEMHIST_CLI_PATH),
        { QStringLiteral("import"), dataPath(QStringLiteral("threadsig.x64.tracedir")), QStringLiteral("-o"), output });
    QVERIFY(import.waitForFinished(120000));
    QCOMPARE(import.exitCode(), 0);
    const QString out = QString::fromLocal8Bit(import.readAllStandardOutput());
    QVERIFY2(out.contains(QStringLiteral("imported 272358 accesses (172208 reads, 100150 writes, 0 executes; "
                                         "transitions 0..650571)")),
        qPrintable(out));
    QVERIFY2(out.contains(QStringLiteral("2 schedule side files")), qPrintable(out));

    QProcess info;
    info.start(QStringLiteral(MEMHIST_CLI_PATH), { QStringLiteral("info"), output });
    QVERIFY(info.waitForFinished(120000));
    QCOMPARE(info.exitCode(), 0);
    const QString text = QString::fromLocal8Bit(info.readAllStandardOutput());
    QVERIFY2(text.contains(QStringLiteral("threads:          9 (thread id: times scheduled, transitions run)\n")),
        qPrintable(text));
    QVERIFY2(text.contains(QRegularExpression(QStringLiteral("\n {18}872884: \\d+ spans, 156381 transitions \\("))),
        qPrintable(text));

    // A directory with no trace is not recognised; named as drmemtrace, it is refused with the reason.
    QTemporaryDir empty;
    QProcess refused;
    refused.start(QStringLiteral(MEMHIST_CLI_PATH),
        { QStringLiteral("import"), empty.path(), QStringLiteral("--format"), QStringLiteral("drmemtrace"),
            QStringLiteral("-o"), empty.filePath(QStringLiteral("x.memhist")) });
    QVERIFY(refused.waitForFinished(120000));
    QCOMPARE(refused.exitCode(), 1);
    QCOMPARE(QString::fromLocal8Bit(refused.readAllStandardError()).trimmed(),
        empty.path() + QStringLiteral(": no drmemtrace trace files in this directory"));
    QVERIFY(!QFile::exists(empty.filePath(QStringLiteral("x.memhist"))));
}

namespace {

using drmemtrace::TraceRecord;
namespace type = drmemtrace::type;
namespace markerType = drmemtrace::marker;

// A thread written record by record: one of each kind the importer must decode or count.
memhist::test::Records everyKindOfRecord()
{
    constexpr quint16 versionMarker = 12;
    constexpr quint16 cacheLineMarker = 10;
    return {
        record(type::header, 0, 7),
        marker(versionMarker, 7),
        marker(markerType::fileType, 0x240),
        record(type::thread, 4, 4242),
        record(type::pid, 4, 4242),
        marker(cacheLineMarker, 64),
        marker(markerType::timestamp, 1000),
        marker(markerType::cpuId, 0),
        record(type::instruction, 4, 0x1000), // 0
        record(type::read, 8, 0x7000),
        record(type::instruction, 2, 0x1004), // 1
        // A bundle: three more instructions after the one before, 3, 1 and 5 bytes long (2, 3, 4).
        record(type::instructionBundle, 3, 0x050103),
        record(type::write, 4, 0x7100), // the bundle's last instruction's
        // xsave: the size of its references depends on processor state, and says 0.
        record(type::instruction, 4, 0x1010), // 5
        record(type::write, 0, 0x8000),
        record(type::read, 0, 0x8040),
        // A gather of 8 lanes with lane 5 masked off: one read per lane loaded.
        record(type::instruction, 6, 0x1020), // 6
        record(type::read, 4, 0x9000),
        record(type::read, 4, 0x9100),
        record(type::read, 4, 0x9010),
        record(type::read, 4, 0x9300),
        record(type::read, 4, 0x9004),
        record(type::read, 4, 0x9020),
        record(type::read, 4, 0x9f00),
        // A scatter of 3 lanes.
        record(type::instruction, 6, 0x1030), // 7
        record(type::write, 8, 0xa000),
        record(type::write, 8, 0xa800),
        record(type::write, 8, 0xa010),
        // A rep-string iteration without a fetch: its read belongs to the scatter's transition.
        record(type::instructionNoFetch, 2, 0x1036),
        record(type::read, 1, 0xb000),
        record(type::instructionTakenJump, 2, 0x1040), // 8
        record(type::threadExit, 4, 4242),
        record(type::footer, 0, 0),
    };
}

} // namespace

void TestDrMemtraceImporter::recordsOfEveryKind_data()
{
    QTest::addColumn<quint64>("skip");
    QTest::addColumn<std::optional<quint64>>("max");
    QTest::addColumn<QList<QList<qint64>>>("accesses"); // transition, operation, address, size
    QTest::addColumn<qint64>("instructions");
    QTest::addColumn<QString>("bundled"); // the meta counts, empty when absent
    QTest::addColumn<QString>("unknownSize");
    QTest::addColumn<QString>("multiReference");
    QTest::addColumn<qint64>("noFetch");

    const int R = int(Operation::Read);
    const int W = int(Operation::Write);
    const QList<QList<qint64>> all {
        { 0, R, 0x7000, 8 },
        { 4, W, 0x7100, 4 },
        { 5, W, 0x8000, 1 },
        { 5, R, 0x8040, 1 },
        { 6, R, 0x9000, 4 },
        { 6, R, 0x9100, 4 },
        { 6, R, 0x9010, 4 },
        { 6, R, 0x9300, 4 },
        { 6, R, 0x9004, 4 },
        { 6, R, 0x9020, 4 },
        { 6, R, 0x9f00, 4 },
        { 7, W, 0xa000, 8 },
        { 7, W, 0xa800, 8 },
        { 7, W, 0xa010, 8 },
        { 7, R, 0xb000, 1 },
    };
    QTest::newRow("the whole thread") << quint64(0) << std::optional<quint64>() << all << qint64(9) << "3"
                                      << "2"
                                      << "2" << qint64(1);
    QTest::newRow("a window starting inside the bundle")
        << quint64(3) << std::optional<quint64>(3) << all.mid(1, 3) << qint64(3) << "2"
        << "2" << QString() << qint64(0);
    QTest::newRow("a window ending inside the bundle") << quint64(0) << std::optional<quint64>(3) << all.mid(0, 1)
                                                       << qint64(3) << "1" << QString() << QString() << qint64(0);
    QTest::newRow("a window of the gather and the scatter") << quint64(6) << std::optional<quint64>(2) << all.mid(4)
                                                            << qint64(2) << QString() << QString() << "2" << qint64(1);
}

void TestDrMemtraceImporter::recordsOfEveryKind()
{
    QFETCH(quint64, skip);
    QFETCH(std::optional<quint64>, max);
    QFETCH(QList<QList<qint64>>, accesses);
    QFETCH(qint64, instructions);
    QFETCH(QString, bundled);
    QFETCH(QString, unknownSize);
    QFETCH(QString, multiReference);
    QFETCH(qint64, noFetch);

    const QString trace = m_dir.filePath(QStringLiteral("every-kind.trace"));
    QVERIFY(writeAll(trace, memhist::test::recordBytes(everyKindOfRecord())));
    const QString output = m_dir.filePath(QStringLiteral("every-kind.memhist"));
    QFile::remove(output);
    ImportOptions options;
    options.skipInstructions = skip;
    options.maxInstructions = max;
    const Imported imported = importInto(trace, output, options);
    QVERIFY2(imported.ok, qPrintable(imported.error));
    QCOMPARE(imported.report.instructions, instructions);
    QCOMPARE(imported.report.skipped.value(QStringLiteral("non-fetched instructions")), noFetch);
    QVERIFY2(imported.report.warnings.isEmpty(), qPrintable(imported.report.warnings.join(u'\n')));

    QString error;
    const auto database = HistoryDatabase::open(output, &error);
    QVERIFY2(database, qPrintable(error));
    QList<QList<qint64>> stored;
    for (const QList<qint64> &row : allAccesses(*database)) {
        QCOMPARE(row[2], row[3]); // virtual addresses: physical = linear
        stored.append({ row[0], row[1], row[2], row[4] });
    }
    QCOMPARE(stored, accesses);
    const QMap<QString, QString> meta = database->meta();
    QCOMPARE(meta.value(QStringLiteral("drmemtrace: instructions from bundle records")), bundled);
    QCOMPARE(meta.value(QStringLiteral("drmemtrace: accesses of unknown size stored as 1 byte")), unknownSize);
    QCOMPARE(meta.value(QStringLiteral(
                 "drmemtrace: instructions with more than two data references (scatter, gather, string)")),
        multiReference);
}

QString TestDrMemtraceImporter::writeManyThreads(const QString &name, int count, memhist::test::RecordCounts *each)
{
    using namespace memhist::test;
    Records real;
    QString error;
    if (!readTraceRecords(dataPath(QStringLiteral("threadsig.x64.tracedir/drmemtrace.threadsig.872805.4975.trace.zip")),
            &real, &error)) {
        qWarning("%s", qPrintable(error));
        return {};
    }
    // The start of the thread, cut before an instruction once 300 have gone by, then its end.
    Records start;
    qint64 instructions = 0;
    for (size_t i = 0; i < real.size(); ++i) {
        if (instructions >= 300 && startsInstructionGroup(real, i))
            break;
        start.push_back(real[i]);
        instructions += isFetchedInstruction(real[i]);
    }
    start.push_back(record(type::threadExit, 4, 0));
    start.push_back(record(type::footer, 0, 0));
    *each = countRecords(start);

    const QString directory = m_dir.filePath(name);
    if (!QDir().mkpath(directory))
        return {};
    for (int i = 0; i < count; ++i) {
        Records thread = start;
        const quint64 tid = 1000000 + quint64(i);
        for (TraceRecord &r : thread) {
            if (r.type == type::thread || r.type == type::threadExit)
                r.addr = tid;
        }
        const QString base = QDir(directory).filePath(QStringLiteral("drmemtrace.many.%1.0000.trace").arg(tid));
        const bool written = i % 2 == 0 ? writeAll(base, recordBytes(thread))
                                        : writeChunkedZip(base + QStringLiteral(".zip"), { thread }, &error);
        if (!written) {
            qWarning("cannot write %s: %s", qPrintable(base), qPrintable(error));
            return {};
        }
    }
    return directory;
}

void TestDrMemtraceImporter::manyThreadFilesStayUnderTheOpenFileBound()
{
    // 200 thread files, all at the same timestamps: the interleaver switches between all of them at
    // every scheduling point, and each must reopen where it was. The process may open only 48 more
    // files: a bound of 8 imports them all, no bound fails. (With 24 the test failed now and then
    // on a loaded machine: besides the 8 traces, the writer's threads and SQLite's sorter, whose
    // spill files at the index build depend on how its threads are scheduled, need descriptors too.)
    memhist::test::RecordCounts each;
    const QString directory = writeManyThreads(QStringLiteral("many"), 200, &each);
    QVERIFY(!directory.isEmpty());
    // The lowest descriptor numbers are the ones open() hands out: the limit leaves 48 of them free.
    std::set<int> openDescriptors;
    QDirIterator descriptors(QStringLiteral("/proc/self/fd"), QDir::System | QDir::Files | QDir::NoDotAndDotDot);
    while (descriptors.hasNext())
        openDescriptors.insert(QFileInfo(descriptors.next()).fileName().toInt());
    int limit = 0;
    for (int free = 0; free < 48; ++limit)
        free += openDescriptors.count(limit) ? 0 : 1;
    rlimit saved {};
    QCOMPARE(getrlimit(RLIMIT_NOFILE, &saved), 0);
    rlimit low = saved;
    low.rlim_cur = rlim_t(limit);
    const auto importUnderTheLimit = [&](int maxOpenFiles, const QString &output) {
        Imported result;
        if (setrlimit(RLIMIT_NOFILE, &low) != 0) {
            result.error = QStringLiteral("setrlimit failed");
            return result;
        }
        HistoryWriter writer(output);
        WriterSink sink(writer);
        result.ok = writer.open()
            && DrMemtraceImporter(maxOpenFiles).run(directory, sink, {}, &result.report, &result.error, {});
        result.ok = result.ok && writer.finish();
        if (!result.ok)
            writer.cancel();
        if (setrlimit(RLIMIT_NOFILE, &saved) != 0)
            qFatal("cannot restore RLIMIT_NOFILE");
        return result;
    };

    const Imported unbounded = importUnderTheLimit(1000, m_dir.filePath(QStringLiteral("unbounded.memhist")));
    QVERIFY(!unbounded.ok);
    QVERIFY2(
        unbounded.error.endsWith(QStringLiteral(": cannot open: Too many open files")), qPrintable(unbounded.error));

    const QString output = m_dir.filePath(QStringLiteral("many.memhist"));
    const Imported bounded = importUnderTheLimit(8, output);
    QVERIFY2(bounded.ok, qPrintable(bounded.error));
    QCOMPARE(bounded.report.instructions, 200 * each.instructions);
    QCOMPARE(bounded.report.reads, 200 * each.reads);
    QCOMPARE(bounded.report.writes, 200 * each.writes);
    QVERIFY2(bounded.report.warnings.isEmpty(), qPrintable(bounded.report.warnings.join(u'\n')));

    QString error;
    const auto database = HistoryDatabase::open(output, &error);
    QVERIFY2(database, qPrintable(error));
    const QMap<qint64, memhist::test::ThreadCounts> counts = memhist::test::countsPerThread(*database);
    QCOMPARE(counts.size(), 200);
    for (auto it = counts.cbegin(); it != counts.cend(); ++it) {
        QCOMPARE(it.value().instructions, each.instructions);
        QCOMPARE(it.value().reads, each.reads);
        QCOMPARE(it.value().writes, each.writes);
    }
}

void TestDrMemtraceImporter::manyThreadFilesUnderALowOpenFileLimit()
{
    // 1,024 thread files under `ulimit -n 64`: keeping each open would fail after sixty of them.
    memhist::test::RecordCounts each;
    const QString directory = writeManyThreads(QStringLiteral("thousand"), 1024, &each);
    QVERIFY(!directory.isEmpty());
    const QString output = m_dir.filePath(QStringLiteral("thousand.memhist"));
    QProcess import;
    import.start(QStringLiteral("/bin/sh"),
        { QStringLiteral("-c"), QStringLiteral("ulimit -n 64 && exec \"$0\" \"$@\""), QStringLiteral(MEMHIST_CLI_PATH),
            QStringLiteral("import"), directory, QStringLiteral("-o"), output });
    QVERIFY(import.waitForFinished(300000));
    const QString err = QString::fromLocal8Bit(import.readAllStandardError());
    QVERIFY2(import.exitCode() == 0, qPrintable(err));
    const QString out = QString::fromLocal8Bit(import.readAllStandardOutput());
    QVERIFY2(out.startsWith(QStringLiteral("imported %1 accesses (%2 reads, %3 writes, 0 executes;")
                                .arg(1024 * (each.reads + each.writes))
                                .arg(1024 * each.reads)
                                .arg(1024 * each.writes)),
        qPrintable(out));
    QProcess info;
    info.start(QStringLiteral(MEMHIST_CLI_PATH), { QStringLiteral("info"), output });
    QVERIFY(info.waitForFinished(120000));
    QVERIFY(QString::fromLocal8Bit(info.readAllStandardOutput())
                .contains(QStringLiteral("threads:          1024 (thread id: times scheduled, transitions run)\n")));
}

void TestDrMemtraceImporter::zipOfMoreMembersThanAClassicDirectoryCounts()
{
    // 70,000 chunks of one instruction: minizip writes 0xffff as the member count and no zip64 end
    // records (as DynamoRIO's writer does), so the list ends where the end record is.
    using namespace memhist::test;
    Records records { record(type::header, 0, 7), record(type::thread, 4, 7), record(type::pid, 4, 7),
        marker(markerType::chunkInstructionCount, 1), marker(markerType::timestamp, 100),
        marker(markerType::cpuId, 0) };
    for (quint64 i = 0; i < 70000; ++i) {
        records.push_back(record(type::instruction, 4, 0x1000 + 4 * i));
        records.push_back(record(type::write, 8, 0x8000 + 8 * i));
    }
    records.push_back(record(type::threadExit, 4, 7));
    records.push_back(record(type::footer, 0, 0));
    const std::vector<Records> chunks = splitIntoChunks(records, 1);
    // The thread exit opens a last chunk of its own.
    QCOMPARE(chunks.size(), size_t(70001));
    const QString trace = m_dir.filePath(QStringLiteral("many-chunks.trace.zip"));
    QString error;
    QVERIFY2(writeChunkedZip(trace, chunks, &error), qPrintable(error));
    QCOMPARE(qFromLittleEndian<quint16>(readAll(trace).right(22).constData() + 10), quint16(0xffff));

    const QString output = m_dir.filePath(QStringLiteral("many-chunks.memhist"));
    const Imported whole = importInto(trace, output);
    QVERIFY2(whole.ok, qPrintable(whole.error));
    QCOMPARE(whole.report.instructions, 70000);
    QCOMPARE(whole.report.writes, 70000);
    QVERIFY2(whole.report.warnings.isEmpty(), qPrintable(whole.report.warnings.join(u'\n')));

    // The window at the end starts in member 69,990, found in the directory past the 65,535th: the
    // members 69,990 to 70,000 are read, each restating the timestamp and cpu.
    QFile::remove(output);
    ImportOptions options;
    options.skipInstructions = 69990;
    const Imported window = importInto(trace, output, options);
    QVERIFY2(window.ok, qPrintable(window.error));
    QCOMPARE(window.report.instructions, 10);
    QCOMPARE(window.report.skipped.value(beforeWindowKind()), 69990);
    QCOMPARE(window.report.skipped.value(QStringLiteral("repeated chunk headers (timestamp, cpu)")), 22);
    QString openError;
    const auto database = HistoryDatabase::open(output, &openError);
    QVERIFY2(database, qPrintable(openError));
    const QList<AccessRow> rows = allAccesses(*database);
    QCOMPARE(rows.size(), 10);
    QCOMPARE(rows.first(), (AccessRow { 69990, int(Operation::Write), 0x8000 + 8 * 69990, 0x8000 + 8 * 69990, 8 }));
}

namespace {

void appendLe(QByteArray *out, quint64 value, int bytes)
{
    for (int i = 0; i < bytes; ++i)
        out->append(char((value >> (8 * i)) & 0xff));
}

// A zip of one deflated member in the zip64 form Python's zipfile writes for members from 2 GiB
// on: 0xffffffff in both size fields of both headers, the sizes in a zip64 extra field (id 1).
// `extraSizes`: how many of the two sizes the central directory's extra field holds.
QByteArray zip64Archive(const QByteArray &name, const QByteArray &data, int extraSizes = 2)
{
    QByteArray deflated(int(compressBound(uLong(data.size()))) + 64, Qt::Uninitialized);
    z_stream stream {};
    deflateInit2(&stream, 6, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
    stream.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data.constData()));
    stream.avail_in = uInt(data.size());
    stream.next_out = reinterpret_cast<Bytef *>(deflated.data());
    stream.avail_out = uInt(deflated.size());
    deflate(&stream, Z_FINISH);
    deflated.truncate(qsizetype(stream.total_out));
    deflateEnd(&stream);
    const quint32 crc = quint32(crc32(0, reinterpret_cast<const Bytef *>(data.constData()), uInt(data.size())));
    const auto extra = [&](int sizes) {
        QByteArray field;
        appendLe(&field, 1, 2);
        appendLe(&field, quint64(8 * sizes), 2);
        if (sizes > 0)
            appendLe(&field, quint64(data.size()), 8);
        if (sizes > 1)
            appendLe(&field, quint64(deflated.size()), 8);
        return field;
    };
    const auto fixedPart = [&](QByteArray *out, const QByteArray &extraField) {
        appendLe(out, 45, 2); // version needed: 4.5, zip64
        appendLe(out, 0, 2); // flags
        appendLe(out, 8, 2); // deflated
        appendLe(out, 0, 4); // time and date
        appendLe(out, crc, 4);
        appendLe(out, 0xffffffff, 4);
        appendLe(out, 0xffffffff, 4);
        appendLe(out, quint64(name.size()), 2);
        appendLe(out, quint64(extraField.size()), 2);
    };
    QByteArray zip;
    appendLe(&zip, 0x04034b50, 4);
    fixedPart(&zip, extra(2));
    zip += name + extra(2) + deflated;
    const qsizetype directory = zip.size();
    appendLe(&zip, 0x02014b50, 4);
    appendLe(&zip, 0x032d, 2); // made by
    const QByteArray centralExtra = extra(extraSizes);
    fixedPart(&zip, centralExtra);
    appendLe(&zip, 0, 2); // comment length
    appendLe(&zip, 0, 2); // disk
    appendLe(&zip, 0, 2); // internal attributes
    appendLe(&zip, 0, 4); // external attributes
    appendLe(&zip, 0, 4); // local header offset
    zip += name + centralExtra;
    const qsizetype directorySize = zip.size() - directory;
    appendLe(&zip, 0x06054b50, 4);
    appendLe(&zip, 0, 4);
    appendLe(&zip, 1, 2);
    appendLe(&zip, 1, 2);
    appendLe(&zip, quint64(directorySize), 4);
    appendLe(&zip, quint64(directory), 4);
    appendLe(&zip, 0, 2);
    return zip;
}

} // namespace

void TestDrMemtraceImporter::zip64MemberSizesComeFromTheExtraField()
{
    // minizip 1.1 left these sizes at 4294967295 ("size 4294967295 is not a multiple of the
    // 12-byte record size"); the member is read as the classic zip of the same records is.
    QByteArray chunk;
    {
        drmemtrace::ZipChunkStream zip(dataPath(QStringLiteral("drmemtrace.simple_app.trace.zip")));
        QVERIFY(zip.open());
        QVERIFY(zip.nextPart());
        char buffer[65536];
        qint64 n = 0;
        while ((n = zip.read(buffer, sizeof buffer)) > 0)
            chunk.append(buffer, n);
        QCOMPARE(n, 0);
    }
    QCOMPARE(chunk.size(), 2302812);
    const QString trace = m_dir.filePath(QStringLiteral("zip64.trace.zip"));
    QVERIFY(writeAll(trace, zip64Archive("chunk.0000", chunk)));
    drmemtrace::ZipChunkStream zip(trace);
    QVERIFY(zip.open());
    QCOMPARE(zip.partCount(), 1);
    QCOMPARE(zip.partSizeAt(0), qint64(2302812));

    const QString output = m_dir.filePath(QStringLiteral("zip64.memhist"));
    const Imported imported = importInto(trace, output);
    QVERIFY2(imported.ok, qPrintable(imported.error));
    QCOMPARE(imported.report.reads, 31507);
    QCOMPARE(imported.report.writes, 12338);
    QCOMPARE(imported.report.instructions, 136051);

    // The directory marks the compressed size as zip64 but its extra field holds only the size.
    const QString damaged = m_dir.filePath(QStringLiteral("zip64-damaged.trace.zip"));
    QVERIFY(writeAll(damaged, zip64Archive("chunk.0000", chunk, 1)));
    const Imported refused = importInto(damaged, m_dir.filePath(QStringLiteral("zip64-damaged.memhist")));
    QVERIFY(!refused.ok);
    QCOMPARE(refused.error,
        damaged + QStringLiteral(": corrupt zip directory (zip64 sizes missing) after member the start"));
}

QTEST_GUILESS_MAIN(TestDrMemtraceImporter)
#include "tst_drmemtraceimporter.moc"
