// SPDX-License-Identifier: MIT
// The Valgrind Lackey importer (core/importers/lackeyimporter.h): the exact counts of the real logs
// in tests/data/lackey, the transitions it gives, the cache-lab subset, and every way a log can be
// broken or cut, each with its exact message and nothing left at the output path.
#include "core/checker/historychecker.h"
#include "core/importers/accesssink.h"
#include "core/importers/lackeyimporter.h"
#include "core/importers/lackeyparser.h"
#include "core/importers/traceformats.h"
#include "core/storage/historydatabase.h"
#include "core/writer/historywriter.h"
#include "testsupport.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <zlib.h>

using namespace memhist;
using namespace memhist::test;

namespace {

QString dataPath(const QString &name)
{
    return QFINDTESTDATA(QStringLiteral("data/lackey/") + name);
}

constexpr Operation R = Operation::Read;
constexpr Operation W = Operation::Write;
constexpr Operation X = Operation::Execute;

} // namespace

class TestLackeyImporter : public QObject
{
    Q_OBJECT

private slots:
    void realLogs_data();
    void realLogs();
    void recognised_data();
    void recognised();
    void transitions_data();
    void transitions();
    void errors_data();
    void errors();
    void earlyEnds_data();
    void earlyEnds();
    void cancelled();
    void parserFedInPieces_data();
    void parserFedInPieces();
    void instructionLimitStopsBeforeTheNextInstruction();

private:
    QString write(const QString &name, const QByteArray &content);
    QTemporaryDir m_dir;
};

QString TestLackeyImporter::write(const QString &name, const QByteArray &content)
{
    const QString path = m_dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(content) != content.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

// The counts of /work/shared/traces/README.md: reads = L + M, writes = S + M, transitions = I lines.
void TestLackeyImporter::realLogs_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("withExecute");
    QTest::addColumn<qint64>("instructions");
    QTest::addColumn<qint64>("reads");
    QTest::addColumn<qint64>("writes");
    QTest::addColumn<qint64>("valgrindMessages");
    QTest::addColumn<qint64>("otherLines");
    QTest::addColumn<quint64>("firstTransition"); // of the first access stored
    QTest::addColumn<quint64>("lastTransition");

    QTest::newRow("true.tiny.lackey") << QStringLiteral("true.tiny.lackey") << false << 131068ll << 30027ll << 11770ll
                                      << 25ll << 0ll << 1ull << 131062ull;
    QTest::newRow("true.tiny.lackey.gz, the same log gzipped")
        << QStringLiteral("true.tiny.lackey.gz") << false << 131068ll << 30027ll << 11770ll << 25ll << 0ll << 1ull
        << 131062ull;
    QTest::newRow("with-exec: every I line an execute at its own transition")
        << QStringLiteral("true.tiny.lackey.gz") << true << 131068ll << 30027ll << 11770ll << 25ll << 0ll << 0ull
        << 131067ull;
    QTest::newRow("echo_hello.small.lackey.gz") << QStringLiteral("echo_hello.small.lackey.gz") << false << 308469ll
                                                << 72777ll << 31710ll << 25ll << 0ll << 1ull << 308463ull;
    QTest::newRow("noisy: -v messages and the program's output skipped and counted")
        << QStringLiteral("echo_verbose_logfd1.noisy.lackey.gz") << false << 308504ll << 72826ll << 31723ll << 64ll
        << 1ll << 1ull << 308498ull;
}

void TestLackeyImporter::realLogs()
{
    QFETCH(QString, file);
    QFETCH(bool, withExecute);
    QFETCH(qint64, instructions);
    QFETCH(qint64, reads);
    QFETCH(qint64, writes);
    QFETCH(qint64, valgrindMessages);
    QFETCH(qint64, otherLines);
    QFETCH(quint64, firstTransition);
    QFETCH(quint64, lastTransition);

    const QString output = m_dir.filePath(QStringLiteral("real.memhist"));
    HistoryWriter writer(output);
    WriterSink sink(writer);
    QVERIFY2(writer.open(), qPrintable(writer.errorString()));
    ImportOptions options;
    options.withExecute = withExecute;
    ImportReport report;
    QString error;
    QVERIFY2(LackeyImporter().run(dataPath(file), sink, options, &report, &error, {}), qPrintable(error));
    QVERIFY2(writer.finish(), qPrintable(writer.errorString()));

    const qint64 executes = withExecute ? instructions : 0;
    QCOMPARE(report.instructions, instructions);
    QCOMPARE(report.reads, reads);
    QCOMPARE(report.writes, writes);
    QCOMPARE(report.executes, executes);
    QCOMPARE(report.accesses, reads + writes + executes);
    QCOMPARE(report.nextTransition.value, quint64(instructions));
    QCOMPARE(report.skipped.value(QStringLiteral("valgrind messages")), valgrindMessages);
    QCOMPARE(report.skipped.value(QStringLiteral("other lines (program output)")), otherLines);
    QCOMPARE(report.warnings, QStringList());

    const WriterStats &stats = writer.stats();
    QCOMPARE(stats.accesses, reads + writes + executes);
    QCOMPARE(stats.reads, reads);
    QCOMPARE(stats.writes, writes);
    QCOMPARE(stats.executes, executes);
    QCOMPARE(stats.firstTransition->value, firstTransition);
    QCOMPARE(stats.lastTransition->value, lastTransition);

    const auto database = HistoryDatabase::open(output, &error);
    QVERIFY2(database, qPrintable(error));
    const CheckReport check = HistoryChecker(*database).run();
    QVERIFY2(check.ok, qPrintable(check.violation));
    QCOMPARE(check.accesses, reads + writes + executes);
}

void TestLackeyImporter::recognised_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QByteArray>("content"); // written to `path` in the temporary directory when not empty

    for (const char *file : { "true.tiny.lackey", "true.tiny.lackey.gz", "echo_hello.small.lackey.gz",
             "echo_verbose_logfd1.noisy.lackey.gz" })
        QTest::newRow(file) << dataPath(QString::fromLatin1(file)) << QByteArray();
    QTest::newRow("cache-lab subset, no I lines, no header")
        << QStringLiteral("cachelab.trace") << QByteArray(" L 10,1\n M 20,1\n L 22,1\n S 18,1\n");
    QTest::newRow("cache-lab subset with I lines and CRLF")
        << QStringLiteral("cachelab-i.trace") << QByteArray("I 0400d7d4,8\r\n M 0421c7f0,4\r\n L 04f6b868,8\r\n");
    QTest::newRow("program output first, then the trace")
        << QStringLiteral("output-first.lackey") << QByteArray("hello\nI  0401ab70,3\n S 1fff000608,8\n");
}

void TestLackeyImporter::recognised()
{
    QFETCH(QString, path);
    QFETCH(QByteArray, content);
    if (!content.isEmpty())
        path = write(path, content);
    TraceFormat format = TraceFormat::Csv;
    QString error;
    QVERIFY2(detectTraceFormat(path, &format, &error), qPrintable(error));
    QCOMPARE(traceFormatName(format), QStringLiteral("lackey"));
}

void TestLackeyImporter::transitions_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<bool>("withExecute");
    QTest::addColumn<QList<Access>>("expected");
    QTest::addColumn<qint64>("instructions");

    // firstTransition is 100 in every row.
    QTest::newRow("data lines belong to the I line before them; M reads then writes")
        << QByteArray("I  00001000,3\n L 2000,8\nI  00001003,2\nI  00001005,4\n S 2008,4\n M 3000,1\n") << false
        << QList<Access> { userAccess(100, R, 0x2000, 8), userAccess(102, W, 0x2008, 4), userAccess(102, R, 0x3000, 1),
               userAccess(102, W, 0x3000, 1) }
        << 3ll;
    QTest::newRow("with-exec: I lines are executes at their own transition, before its data")
        << QByteArray("I  00001000,3\n L 2000,8\nI  00001003,2\n") << true
        << QList<Access> { userAccess(100, X, 0x1000, 3), userAccess(100, R, 0x2000, 8), userAccess(101, X, 0x1003, 2) }
        << 2ll;
    QTest::newRow("cache-lab subset: each data line its own transition, CRLF and stray spaces")
        << QByteArray(" L 10,1\r\n  M   20 , 2 \r\nL 7ff0005c8,8\r\n\r\n S 18,1\r\n") << false
        << QList<Access> { userAccess(100, R, 0x10, 1), userAccess(101, R, 0x20, 2), userAccess(101, W, 0x20, 2),
               userAccess(102, R, 0x7ff0005c8, 8), userAccess(103, W, 0x18, 1) }
        << 4ll;
    QTest::newRow("valgrind messages and program output between lines change nothing")
        << QByteArray("==1== Lackey, an example Valgrind tool\nI  00001000,3\nHELLO\n--1-- note\n L 2000,8\n"
                      "I am not a trace line\n==1== Exit code:       0\n")
        << false << QList<Access> { userAccess(100, R, 0x2000, 8) } << 1ll;
}

void TestLackeyImporter::transitions()
{
    QFETCH(QByteArray, content);
    QFETCH(bool, withExecute);
    QFETCH(QList<Access>, expected);
    QFETCH(qint64, instructions);

    const QString path = write(QStringLiteral("transitions.lackey"), content);
    CollectingSink sink;
    ImportOptions options;
    options.firstTransition = Transition { 100 };
    options.withExecute = withExecute;
    ImportReport report;
    QString error;
    QVERIFY2(LackeyImporter().run(path, sink, options, &report, &error, {}), qPrintable(error));
    QCOMPARE(sink.accesses, expected);
    QCOMPARE(report.instructions, instructions);
    QCOMPARE(report.nextTransition.value, quint64(100 + instructions));
    QCOMPARE(report.warnings, QStringList());
}

void TestLackeyImporter::errors_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("expected"); // FILE stands for the path

    const QByteArray start = "==7== Lackey, an example Valgrind tool\nI  00001000,3\n L 2000,8\n";
    const QByteArray end = "I  00001003,2\n==7== Exit code:       0\n";
    QTest::newRow("malformed line in the middle")
        << start + " L 7ff0zz,8\n" + end
        << QStringLiteral("FILE:4: malformed Lackey line \" L 7ff0zz,8\": '7ff0zz' is not a hexadecimal address");
    QTest::newRow("store without size") << start + " S 1234\n"
            + end << QStringLiteral("FILE:4: malformed Lackey line \" S 1234\": expected ',SIZE' after the address");
    QTest::newRow("size 0") << start + " L 2000,0\n" + end
                            << QStringLiteral(
                                   "FILE:4: malformed Lackey line \" L 2000,0\": size 0 (an access covers at "
                                   "least 1 byte)");
    QTest::newRow("size not decimal") << start + " S 2000,8x\n"
            + end << QStringLiteral("FILE:4: malformed Lackey line \" S 2000,8x\": '8x' is not a decimal size");
    QTest::newRow("address longer than 64 bits")
        << start + " M 12345678123456781,4\n" + end
        << QStringLiteral("FILE:4: malformed Lackey line \" M 12345678123456781,4\": address '12345678123456781' is "
                          "longer than 64 bits");
    QTest::newRow("binary junk") << start
            + QByteArray("\x7f"
                         "ELF\x02\x01\x01\0\0\0\n",
                12)
            + end << QStringLiteral("FILE:4: binary data (a NUL byte), not a Lackey trace");
    QTest::newRow("binary junk without newlines") << start + QByteArray(100000, 'x')
            + end << QStringLiteral("FILE:4: line longer than 65536 bytes: binary data, not a Lackey trace");
    QTest::newRow("empty file") << QByteArray() << QStringLiteral("FILE: empty file");
    QTest::newRow("no trace line at all")
        << QByteArray("==7== Lackey, an example Valgrind tool\nhello\n\n")
        << QStringLiteral("FILE: no Lackey trace lines (I, L, S or M) in 3 lines: not a Lackey trace");
    const QByteArray log = readFile(dataPath(QStringLiteral("true.tiny.lackey.gz")));
    QByteArray corrupt = log;
    corrupt[2] = 7; // the compression method: 8 (deflate) is the only one
    QTest::newRow("corrupt gzip header") << corrupt
                                         << QStringLiteral(
                                                "FILE: offset 4: corrupt gzip data (unknown compression method)");
    QByteArray badChecksum = gzip("I  00001000,3\n L 2000,8\n");
    badChecksum[badChecksum.size() - 8] = char(badChecksum[badChecksum.size() - 8] ^ 1); // the CRC-32
    QTest::newRow("gzip with a wrong checksum")
        << badChecksum
        << QStringLiteral("FILE: offset %1: corrupt gzip data (incorrect data check)").arg(badChecksum.size() - 4);
    // A gzip stream without its end is a damaged copy, not a killed tracer (which leaves complete
    // gzip data of cut content): an error, as for drmemtrace. The first 40000 bytes decompress to
    // 53083 complete lines and a cut one (`head -c 40000 true.tiny.lackey.gz | zcat | wc -l`).
    QTest::newRow("truncated gzip") << log.first(40000)
                                    << QStringLiteral("FILE:53084: truncated gzip data: the file ends after 40000 "
                                                      "bytes, before the end of the compressed stream");
    QTest::newRow("gzip cut inside its header")
        << log.first(10)
        << QStringLiteral(
               "FILE:1: truncated gzip data: the file ends after 10 bytes, before the end of the compressed stream");
    const QByteArray first = gzip("I  00001000,3\n L 2000,8\n");
    QTest::newRow("concatenated gzip, the second member truncated")
        << first + gzip("I  00001003,2\n S 2000,8\n").first(14)
        << QStringLiteral("FILE:3: truncated gzip data: the file ends after %1 bytes, before the end of the "
                          "compressed stream")
               .arg(first.size() + 14);
}

void TestLackeyImporter::errors()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, expected);

    const QString path = write(QStringLiteral("broken.lackey"), content);
    const QString output = m_dir.filePath(QStringLiteral("broken.memhist"));
    QFile::remove(output);
    HistoryWriter writer(output);
    WriterSink sink(writer);
    QVERIFY(writer.open());
    ImportReport report;
    QString error;
    QVERIFY(!LackeyImporter().run(path, sink, {}, &report, &error, {}));
    writer.cancel();
    QVERIFY(!QFile::exists(output));
    QVERIFY(QDir(m_dir.path()).entryList({ QStringLiteral("broken.memhist*") }, QDir::Files | QDir::Hidden).isEmpty());

    expected.replace(QStringLiteral("FILE"), path);
    QCOMPARE(error, expected);
}

void TestLackeyImporter::earlyEnds_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<qint64>("accesses");
    QTest::addColumn<QStringList>("warnings"); // FILE stands for the path

    const QByteArray header = "==7== Lackey, an example Valgrind tool\n";
    QTest::newRow("cut last line warns")
        << header + "I  00001000,3\n L 2000,8\nI  00001003,2\n S 1fff0006" << 1ll
        << QStringList { QStringLiteral("FILE:5: the last line is cut (\" S 1fff0006\"): the trace ends early (was "
                                        "the tracer killed?); imported the complete lines before it") };
    QTest::newRow("valid last line without newline is kept, with a warning")
        << QByteArray("I  00001000,3\n L 2000,8\n S 2000,16") << 2ll
        << QStringList { QStringLiteral(
               "FILE:3: no newline at the end of the file: the last line was imported, but it may be cut") };
    QTest::newRow("missing valgrind summary warns")
        << header + "I  00001000,3\n L 2000,8\n"
        << 1ll
        << QStringList { QStringLiteral("FILE: valgrind's summary (\"Exit code:\") is missing at the end: the trace "
                                        "ends early (was the program killed?); imported what it holds") };
    // Complete gzip data whose content is cut, as gzip leaves it when the tracer writing through it
    // is killed: the same as the plain log.
    QTest::newRow("gzipped log with a cut last line warns the same")
        << gzip(header + "I  00001000,3\n L 2000,8\nI  00001003,2\n S 1fff0006") << 1ll
        << QStringList { QStringLiteral("FILE:5: the last line is cut (\" S 1fff0006\"): the trace ends early (was "
                                        "the tracer killed?); imported the complete lines before it") };
}

void TestLackeyImporter::earlyEnds()
{
    QFETCH(QByteArray, content);
    QFETCH(qint64, accesses);
    QFETCH(QStringList, warnings);

    const QString path = write(QStringLiteral("early.lackey"), content);
    const QString output = m_dir.filePath(QStringLiteral("early.memhist"));
    HistoryWriter writer(output);
    WriterSink sink(writer);
    QVERIFY(writer.open());
    ImportReport report;
    QString error;
    QVERIFY2(LackeyImporter().run(path, sink, {}, &report, &error, {}), qPrintable(error));
    QVERIFY2(writer.finish(), qPrintable(writer.errorString()));
    for (QString &warning : warnings)
        warning.replace(QStringLiteral("FILE"), path);
    QCOMPARE(report.warnings, warnings);
    QCOMPARE(report.accesses, accesses);
    const auto database = HistoryDatabase::open(output, &error);
    QVERIFY2(database, qPrintable(error));
    const CheckReport check = HistoryChecker(*database).run();
    QVERIFY2(check.ok, qPrintable(check.violation));
    QCOMPARE(check.accesses, report.accesses);
}

void TestLackeyImporter::cancelled()
{
    const QString output = m_dir.filePath(QStringLiteral("cancelled.memhist"));
    HistoryWriter writer(output);
    WriterSink sink(writer);
    QVERIFY(writer.open());
    ImportReport report;
    QString error;
    int calls = 0;
    const QString path = dataPath(QStringLiteral("true.tiny.lackey"));
    QVERIFY(!LackeyImporter().run(path, sink, {}, &report, &error, [&](double fraction) {
        ++calls;
        return fraction < 0.3;
    }));
    writer.cancel();
    QCOMPARE(error, path + QStringLiteral(": import cancelled"));
    QVERIFY(calls >= 1);
    QVERIFY(!QFile::exists(output));
}

// `memhist record` feeds the parser whatever a pipe read returns: any split of the bytes must give
// the accesses of the whole file.
void TestLackeyImporter::parserFedInPieces_data()
{
    QTest::addColumn<int>("pieceSize");
    QTest::newRow("1 byte at a time") << 1;
    QTest::newRow("7 bytes") << 7;
    QTest::newRow("4 KiB (a pipe read)") << 4096;
    QTest::newRow("1 MiB") << (1 << 20);
}

void TestLackeyImporter::parserFedInPieces()
{
    QFETCH(int, pieceSize);
    const QString path = dataPath(QStringLiteral("true.tiny.lackey"));
    ImportOptions options;
    options.withExecute = true;
    CollectingSink whole;
    ImportReport report;
    QString error;
    QVERIFY2(LackeyImporter().run(path, whole, options, &report, &error, {}), qPrintable(error));

    const QByteArray all = readFile(path);
    CollectingSink pieces;
    LackeyParser parser(QStringLiteral("pipe"), pieces, options);
    QByteArray pending;
    for (qsizetype pos = 0; pos < all.size(); pos += pieceSize) {
        pending += all.mid(pos, pieceSize);
        const qsizetype consumed = parser.parse(pending.constData(), pending.size());
        QVERIFY2(consumed >= 0, qPrintable(parser.errorString()));
        pending.remove(0, consumed);
    }
    QVERIFY(parser.finish(pending, false));
    QCOMPARE(pieces.accesses.size(), whole.accesses.size());
    QVERIFY(pieces.accesses == whole.accesses);
    QCOMPARE(parser.instructions(), 131068);
}

void TestLackeyImporter::instructionLimitStopsBeforeTheNextInstruction()
{
    const QByteArray all = readFile(dataPath(QStringLiteral("true.tiny.lackey")));
    CollectingSink sink;
    LackeyParser parser(QStringLiteral("pipe"), sink, {});
    parser.setInstructionLimit(1000);
    const qsizetype consumed = parser.parse(all.constData(), all.size());
    QVERIFY(parser.stopped());
    QCOMPARE(parser.instructions(), 1000);
    // The bytes parsed end with a whole line, and the next line is the 1001st instruction.
    QVERIFY(all.at(consumed - 1) == '\n');
    QVERIFY(all.mid(consumed, 3) == "I  ");
    QCOMPARE(qsizetype(all.left(consumed).count("\nI  ")), 1000);
    QVERIFY(!sink.accesses.isEmpty());
    QVERIFY(sink.accesses.last().transition.value <= 999);
}

QTEST_GUILESS_MAIN(TestLackeyImporter)
#include "tst_lackeyimporter.moc"
