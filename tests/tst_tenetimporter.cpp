// The Tenet importer (core/importers/tenetimporter.h): the exact counts of the sample trace in
// tests/data/tenet, the convention that a line's memory fields belong to the instruction of the line
// before it (checked on a call's pushed return address), and malformed or cut traces.
#include "checker/historychecker.h"
#include "importers/tenetimporter.h"
#include "importers/tenetparser.h"
#include "importers/traceformats.h"
#include "storage/historydatabase.h"
#include "testsupport.h"
#include "writer/historywriter.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <zlib.h>

using namespace memhist;
using namespace memhist::test;

namespace {

QString samplePath()
{
    return QStringLiteral(MEMHIST_TEST_DATA_DIR "/tenet/boombox.trace.0.log");
}

constexpr Operation R = Operation::Read;
constexpr Operation W = Operation::Write;
constexpr Operation X = Operation::Execute;

} // namespace

class TestTenetImporter : public QObject
{
    Q_OBJECT

private slots:
    void sample_data();
    void sample();
    void memoryBelongsToThePreviousLine_data();
    void memoryBelongsToThePreviousLine();
    void recognised();
    void errors_data();
    void errors();
    void cutLastLineWarns();
    void parserFedInPieces_data();
    void parserFedInPieces();

private:
    QString write(const QString &name, const QByteArray &content);
    QTemporaryDir m_dir;
};

QString TestTenetImporter::write(const QString &name, const QByteArray &content)
{
    const QString path = m_dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(content) != content.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

// 2,163 lines, 969 mr= and 570 mw= fields, no mrw= (/work/shared/traces/README.md).
void TestTenetImporter::sample_data()
{
    QTest::addColumn<bool>("withExecute");
    QTest::newRow("memory only") << false;
    QTest::newRow("with-exec: one execute per line") << true;
}

void TestTenetImporter::sample()
{
    QFETCH(bool, withExecute);
    const QString output = m_dir.filePath(QStringLiteral("boombox.memhist"));
    HistoryWriter writer(output);
    QVERIFY(writer.open());
    ImportOptions options;
    options.withExecute = withExecute;
    ImportReport report;
    QString error;
    QVERIFY2(TenetImporter().run(samplePath(), writer, options, &report, &error, {}), qPrintable(error));
    QVERIFY2(writer.finish(), qPrintable(writer.errorString()));

    const qint64 executes = withExecute ? 2163 : 0;
    QCOMPARE(report.linesRead, 2163);
    QCOMPARE(report.instructions, 2163);
    QCOMPARE(report.reads, 969);
    QCOMPARE(report.writes, 570);
    QCOMPARE(report.executes, executes);
    QCOMPARE(report.accesses, 969 + 570 + executes);
    QCOMPARE(report.nextTransition.value, 2163u);
    QCOMPARE(report.warnings, QStringList());
    QCOMPARE(writer.stats().firstTransition->value, 0u);
    QCOMPARE(writer.stats().lastTransition->value, withExecute ? 2162u : 2161u);

    const auto database = HistoryDatabase::open(output, &error);
    QVERIFY2(database, qPrintable(error));
    const CheckReport check = HistoryChecker(*database).run();
    QVERIFY2(check.ok, qPrintable(check.violation));
    QCOMPARE(check.accesses, 969 + 570 + executes);
}

void TestTenetImporter::memoryBelongsToThePreviousLine_data()
{
    QTest::addColumn<bool>("withExecute");
    QTest::addColumn<QList<Access>>("expected"); // the first accesses of the sample, transitions from 10

    // Line 0 (rip=0x14000419c) carries mr/mw of 0x13ff58: effects of an instruction before the
    // trace, stored at the first transition. Line 1 is rip=0x1400041a0, a 5-byte call; line 2
    // carries its push of the return address 0x1400041a5 at 0x13ff28: transition 11, the call's.
    QTest::newRow("memory only") << false
                                 << QList<Access> { userAccess(10, R, 0x13ff58, 8), userAccess(10, W, 0x13ff58, 8),
                                        userAccess(11, W, 0x13ff28, 8), userAccess(12, W, 0x13ff48, 8),
                                        userAccess(13, W, 0x13ff20, 8) };
    QTest::newRow("with-exec: executes of 1 byte at the line's rip, after its memory")
        << true
        << QList<Access> { userAccess(10, R, 0x13ff58, 8), userAccess(10, W, 0x13ff58, 8),
               userAccess(10, X, 0x14000419c, 1), userAccess(11, X, 0x1400041a0, 1), userAccess(11, W, 0x13ff28, 8),
               userAccess(12, X, 0x1400045dc, 1) };
}

void TestTenetImporter::memoryBelongsToThePreviousLine()
{
    QFETCH(bool, withExecute);
    QFETCH(QList<Access>, expected);
    CollectingSink sink;
    ImportOptions options;
    options.firstTransition = Transition { 10 };
    options.withExecute = withExecute;
    ImportReport report;
    QString error;
    QVERIFY2(TenetImporter::runInto(samplePath(), sink, options, &report, &error, {}), qPrintable(error));
    QCOMPARE(sink.accesses.first(expected.size()), expected);
    // The pushed value is the return address right after the call.
    QFile file(samplePath());
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = file.readAll().split('\n');
    QVERIFY(lines[1].contains("rip=0x1400041a0"));
    QVERIFY(lines[2].contains("mw=0x13ff28:a541004001000000")); // 0x1400041a5 = 0x1400041a0 + 5, little-endian
}

void TestTenetImporter::recognised()
{
    TraceFormat format = TraceFormat::Csv;
    QString error;
    QVERIFY2(detectTraceFormat(samplePath(), &format, &error), qPrintable(error));
    QCOMPARE(traceFormatName(format), QStringLiteral("tenet"));
}

void TestTenetImporter::errors_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("expected"); // FILE stands for the path

    const QByteArray start = "rip=0x1000,rsp=0x2000\nrip=0x1004,mw=0x2000:0011223344556677\n";
    const QByteArray end = "rip=0x1010\n";
    QTest::newRow("odd number of hex digits") << start + "rip=0x1008,mr=0x3000:abc\n"
            + end << QStringLiteral("FILE:3: field 2 'mr=0x3000:abc': odd number of hex digits (3) in the bytes");
    QTest::newRow("memory without bytes") << start + "rip=0x1008,mw=0x3000:\n"
            + end << QStringLiteral("FILE:3: field 2 'mw=0x3000:': no bytes after the address (size 0)");
    QTest::newRow("memory without colon")
        << start + "mrw=0x3000\n" + end << QStringLiteral("FILE:3: field 1 'mrw=0x3000': expected ADDRESS:HEXBYTES");
    QTest::newRow("malformed line in the middle")
        << start + "hello world\n" + end << QStringLiteral("FILE:3: field 1 'hello world': not NAME=VALUE");
    QTest::newRow("register not hex") << start + "rax=12\n" + end
                                      << QStringLiteral("FILE:3: field 1 'rax=12': '12' is not a 0x hex value");
    QTest::newRow("binary junk") << start + QByteArray("rip=\0\0\n", 7) + end
                                 << QStringLiteral("FILE:3: a NUL byte: binary data, not a Tenet trace");
    QTest::newRow("empty file") << QByteArray() << QStringLiteral("FILE: empty file");
    QTest::newRow("only blank lines") << QByteArray("\n\r\n")
                                      << QStringLiteral("FILE: no Tenet lines in it: not a Tenet trace");
    // A gzip stream without its end is a damaged copy of the file, not a trace that ends early, even
    // when only the trailer (CRC-32 and size, 8 bytes) is missing: its content cannot be verified.
    const QByteArray gzipped = gzip(start + end);
    QTest::newRow("gzip without its trailer")
        << gzipped.first(gzipped.size() - 8)
        << QStringLiteral("FILE:4: truncated gzip data: the file ends after %1 bytes, before the end of the "
                          "compressed stream")
               .arg(gzipped.size() - 8);
    QTest::newRow("gzip cut inside its header")
        << gzipped.first(10)
        << QStringLiteral(
               "FILE:1: truncated gzip data: the file ends after 10 bytes, before the end of the compressed stream");
}

void TestTenetImporter::errors()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, expected);
    const QString path = write(QStringLiteral("broken.trace"), content);
    const QString output = m_dir.filePath(QStringLiteral("broken.memhist"));
    HistoryWriter writer(output);
    QVERIFY(writer.open());
    ImportReport report;
    QString error;
    QVERIFY(!TenetImporter().run(path, writer, {}, &report, &error, {}));
    writer.cancel();
    QCOMPARE(error, expected.replace(QStringLiteral("FILE"), path));
    QVERIFY(!QFile::exists(output));
}

void TestTenetImporter::cutLastLineWarns()
{
    const QString path = write(QStringLiteral("cut.trace"),
        "rip=0x1000,rsp=0x2000\nrip=0x1004,mw=0x2000:0011223344556677\nrip=0x1008,mr=0x3000:ab");
    CollectingSink sink;
    ImportReport report;
    QString error;
    QVERIFY2(TenetImporter::runInto(path, sink, {}, &report, &error, {}), qPrintable(error));
    QCOMPARE(
        sink.accesses, QList<Access> { userAccess(0, W, 0x2000, 8) } + QList<Access> { userAccess(1, R, 0x3000, 1) });
    QCOMPARE(report.warnings,
        QStringList { path
            + QStringLiteral(":3: no newline at the end of the file: the last line was imported, but it may be cut") });

    const QString broken = write(QStringLiteral("cut2.trace"),
        "rip=0x1000,rsp=0x2000\nrip=0x1004,mw=0x2000:0011223344556677\nrip=0x1008,mr=0x3000:abc");
    sink.accesses.clear();
    QVERIFY2(TenetImporter::runInto(broken, sink, {}, &report, &error, {}), qPrintable(error));
    QCOMPARE(sink.accesses, QList<Access> { userAccess(0, W, 0x2000, 8) });
    QCOMPARE(report.instructions, 2);
    QCOMPARE(report.warnings,
        QStringList { broken
            + QStringLiteral(":3: the last line is cut: the trace ends early (was the tracer killed?); imported the "
                             "complete lines before it") });

    // Complete gzip data of cut content (gzip finishing its stream after the tracer was killed):
    // the same warning as the plain trace.
    const QString gzipped = write(QStringLiteral("cut3.trace.gz"),
        gzip("rip=0x1000,rsp=0x2000\nrip=0x1004,mw=0x2000:0011223344556677\nrip=0x1008,mr=0x3000:abc"));
    sink.accesses.clear();
    QVERIFY2(TenetImporter::runInto(gzipped, sink, {}, &report, &error, {}), qPrintable(error));
    QCOMPARE(sink.accesses, QList<Access> { userAccess(0, W, 0x2000, 8) });
    QCOMPARE(report.warnings,
        QStringList { gzipped
            + QStringLiteral(":3: the last line is cut: the trace ends early (was the tracer killed?); imported the "
                             "complete lines before it") });
}

// The importer hands the parser whatever its buffer holds: any split of the bytes must give the
// accesses and counts of the whole file.
void TestTenetImporter::parserFedInPieces_data()
{
    QTest::addColumn<int>("pieceSize");
    QTest::newRow("1 byte at a time") << 1;
    QTest::newRow("7 bytes") << 7;
    QTest::newRow("4 KiB") << 4096;
    QTest::newRow("the whole file at once") << (1 << 20);
}

void TestTenetImporter::parserFedInPieces()
{
    QFETCH(int, pieceSize);
    ImportOptions options;
    options.withExecute = true;
    CollectingSink whole;
    ImportReport report;
    QString error;
    QVERIFY2(TenetImporter::runInto(samplePath(), whole, options, &report, &error, {}), qPrintable(error));

    const QByteArray all = readFile(samplePath());
    CollectingSink pieces;
    TenetParser parser(QStringLiteral("pieces"), pieces, options);
    QByteArray pending;
    for (qsizetype pos = 0; pos < all.size(); pos += pieceSize) {
        pending += all.mid(pos, pieceSize);
        const qsizetype consumed = parser.parse(pending.constData(), pending.size());
        QVERIFY2(consumed >= 0, qPrintable(parser.errorString()));
        pending.remove(0, consumed);
    }
    QVERIFY2(parser.finish(pending), qPrintable(parser.errorString()));
    QCOMPARE(pieces.accesses.size(), 969 + 570 + 2163);
    QVERIFY(pieces.accesses == whole.accesses);
    ImportReport piecesReport;
    parser.fillReport(&piecesReport);
    QCOMPARE(piecesReport.linesRead, 2163);
    QCOMPARE(piecesReport.instructions, 2163);
    QCOMPARE(piecesReport.warnings, QStringList());
}

QTEST_GUILESS_MAIN(TestTenetImporter)
#include "tst_tenetimporter.moc"
