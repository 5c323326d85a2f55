// SPDX-License-Identifier: MIT
// The Tenet importer (core/importers/tenetimporter.h): the exact counts of the sample trace in
// tests/data/tenet, the convention that a line's memory fields belong to the instruction of the line
// before it (checked on a call's pushed return address), and malformed or cut traces.
#include "core/checker/historychecker.h"
#include "core/importers/accesssink.h"
#include "core/importers/tenetimporter.h"
#include "core/importers/tenetparser.h"
#include "core/importers/traceformats.h"
#include "core/storage/historydatabase.h"
#include "core/writer/historywriter.h"
#include "testsupport.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <zlib.h>

using namespace memhist;
using namespace memhist::test;

Q_DECLARE_METATYPE(std::optional<quint64>)

namespace {

QString samplePath()
{
    return QFINDTESTDATA("data/tenet/boombox.trace.0.log");
}

constexpr Operation R = Operation::Read;
constexpr Operation W = Operation::Write;
constexpr Operation X = Operation::Execute;

// Keeps the program context the parser hands over along with the accesses.
class ContextSink final : public AccessSink
{
public:
    bool add(const Access &access) override
    {
        accesses << access;
        values << QByteArray();
        return true;
    }
    QString errorString() const override { return {}; }
    bool addInstruction(Transition transition, Address pc, quint8 size) override
    {
        pcs << QList<quint64> { transition.value, pc.value, size };
        return true;
    }
    void addValue(const AccessValueView &value) override
    {
        if (values.isEmpty() || !values.last().isEmpty() || !value.before.isEmpty() || value.kernelSyscall)
            qFatal("a value without an access, a second value for one, or a before or kernel mark from Tenet");
        values.last() = value.bytes.toByteArray();
    }

    QList<Access> accesses;
    QList<QByteArray> values; // parallel to accesses; empty when none was given
    QList<QList<quint64>> pcs; // transition, pc, size
};

// What the sample holds, read here with regular expressions rather than the parser: the rip of
// every line, and every memory field as (transition, operation, address, size) with its bytes, the
// fields of line k at transition k - 1 (the first line's at 0).
struct SampleOracle
{
    QList<quint64> rips;
    QList<Access> accesses;
    QList<QByteArray> values;
};

SampleOracle readSample()
{
    SampleOracle oracle;
    const QList<QByteArray> lines = readFile(samplePath()).split('\n');
    static const QRegularExpression rip(QStringLiteral("(?:^|,)rip=0x([0-9a-f]+)"));
    static const QRegularExpression memory(QStringLiteral("(?:^|,)(mr|mw)=0x([0-9a-f]+):([0-9a-f]+)"));
    for (qsizetype k = 0; k < lines.size(); ++k) {
        const QString line = QString::fromLatin1(lines[k]);
        if (line.isEmpty())
            continue;
        const QRegularExpressionMatch pc = rip.match(line);
        oracle.rips << (pc.hasMatch() ? pc.captured(1).toULongLong(nullptr, 16) : oracle.rips.last());
        for (auto it = memory.globalMatch(line); it.hasNext();) {
            const QRegularExpressionMatch field = it.next();
            const QByteArray bytes = QByteArray::fromHex(field.captured(3).toLatin1());
            oracle.accesses << userAccess(k > 0 ? k - 1 : 0, field.captured(1) == QLatin1String("mr") ? R : W,
                field.captured(2).toULongLong(nullptr, 16), std::uint32_t(bytes.size()));
            oracle.values << bytes;
        }
    }
    return oracle;
}

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
    void pcsOfTheSample();
    void valuesOfTheSample();
    void pcsAndValuesInAWindow_data();
    void pcsAndValuesInAWindow();
    void pcsOfRepeatedAndCutLines();
    void queryAndAtShowValues();

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
    WriterSink sink(writer);
    QVERIFY(writer.open());
    ImportOptions options;
    options.withExecute = withExecute;
    ImportReport report;
    QString error;
    QVERIFY2(TenetImporter().run(samplePath(), sink, options, &report, &error, {}), qPrintable(error));
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
    QVERIFY2(TenetImporter().run(samplePath(), sink, options, &report, &error, {}), qPrintable(error));
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
    WriterSink sink(writer);
    QVERIFY(writer.open());
    ImportReport report;
    QString error;
    QVERIFY(!TenetImporter().run(path, sink, {}, &report, &error, {}));
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
    QVERIFY2(TenetImporter().run(path, sink, {}, &report, &error, {}), qPrintable(error));
    QCOMPARE(
        sink.accesses, QList<Access> { userAccess(0, W, 0x2000, 8) } + QList<Access> { userAccess(1, R, 0x3000, 1) });
    QCOMPARE(report.warnings,
        QStringList { path
            + QStringLiteral(":3: no newline at the end of the file: the last line was imported, but it may be cut") });

    const QString broken = write(QStringLiteral("cut2.trace"),
        "rip=0x1000,rsp=0x2000\nrip=0x1004,mw=0x2000:0011223344556677\nrip=0x1008,mr=0x3000:abc");
    sink.accesses.clear();
    QVERIFY2(TenetImporter().run(broken, sink, {}, &report, &error, {}), qPrintable(error));
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
    QVERIFY2(TenetImporter().run(gzipped, sink, {}, &report, &error, {}), qPrintable(error));
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
    QVERIFY2(TenetImporter().run(samplePath(), whole, options, &report, &error, {}), qPrintable(error));

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

// The PC of every transition is its line's rip; the size is the step to the next line's rip when
// that is 1..15 bytes, else 0.
void TestTenetImporter::pcsOfTheSample()
{
    ContextSink sink;
    ImportReport report;
    QString error;
    QVERIFY2(TenetImporter().run(samplePath(), sink, {}, &report, &error, {}), qPrintable(error));
    // The first lines, read by hand: a 4-byte instruction, a call (0x1400041a0 -> 0x1400045dc: size
    // unknown), then 5, 1 and 3 bytes (call target, push, mov).
    QCOMPARE(sink.pcs.first(5),
        (QList<QList<quint64>> { { 0, 0x14000419c, 4 }, { 1, 0x1400041a0, 0 }, { 2, 0x1400045dc, 5 },
            { 3, 0x1400045e1, 1 }, { 4, 0x1400045e2, 3 } }));
    const SampleOracle oracle = readSample();
    QCOMPARE(sink.pcs.size(), 2163);
    for (qsizetype t = 0; t < sink.pcs.size(); ++t) {
        const quint64 step = t + 1 < oracle.rips.size() ? oracle.rips[t + 1] - oracle.rips[t] : 0;
        const QList<quint64> expected { quint64(t), oracle.rips[t], step >= 1 && step <= 15 ? step : 0 };
        QVERIFY2(sink.pcs[t] == expected, qPrintable(QStringLiteral("transition %1").arg(t)));
    }
    QCOMPARE(report.context,
        QStringList { samplePath()
            + QStringLiteral(": pcs of 2163 transitions, values of 1539 accesses (a Tenet trace has no modules and no "
                             "instruction bytes)") });
}

// Every read and write carries the bytes of its field, in access order.
void TestTenetImporter::valuesOfTheSample()
{
    ContextSink sink;
    ImportReport report;
    QString error;
    QVERIFY2(TenetImporter().run(samplePath(), sink, {}, &report, &error, {}), qPrintable(error));
    const SampleOracle oracle = readSample();
    QCOMPARE(oracle.accesses.size(), 969 + 570);
    QCOMPARE(sink.accesses, oracle.accesses);
    QCOMPARE(sink.values, oracle.values);
    // Read by hand: line 7's read of 0x140007000 (rax becomes 0xd6bdee99ed73) is the instruction of
    // line 6, at 0x1400045e9, 7 bytes before line 7's rip.
    const qsizetype read = sink.accesses.indexOf(userAccess(6, R, 0x140007000, 8));
    QVERIFY(read >= 0);
    QCOMPARE(sink.values[read].toHex(), QByteArray("73ed99eebdd60000"));
    QCOMPARE(sink.pcs[6], (QList<quint64> { 6, 0x1400045e9, 7 }));
    // With --with-exec the executes have no value; the reads and writes keep theirs.
    ContextSink withExec;
    ImportOptions options;
    options.withExecute = true;
    QVERIFY2(TenetImporter().run(samplePath(), withExec, options, &report, &error, {}), qPrintable(error));
    QList<QByteArray> dataValues;
    for (qsizetype i = 0; i < withExec.accesses.size(); ++i) {
        if (withExec.accesses[i].operation == X)
            QVERIFY(withExec.values[i].isEmpty());
        else
            dataValues << withExec.values[i];
    }
    QCOMPARE(dataValues, oracle.values);
}

// A window keeps the PCs of its transitions, with the sizes of the full import, and the values of
// its accesses.
void TestTenetImporter::pcsAndValuesInAWindow_data()
{
    QTest::addColumn<quint64>("skip");
    QTest::addColumn<std::optional<quint64>>("max");
    QTest::newRow("transitions 10..14") << quint64(10) << std::optional<quint64>(5);
    QTest::newRow("the first transition alone") << quint64(0) << std::optional<quint64>(1);
    QTest::newRow("a window ending after a call (its size unknown)") << quint64(0) << std::optional<quint64>(2);
    QTest::newRow("the last three transitions") << quint64(2160) << std::optional<quint64>();
    QTest::newRow("the last transition alone") << quint64(2162) << std::optional<quint64>(1);
    QTest::newRow("a window past the end") << quint64(2163) << std::optional<quint64>(10);
}

void TestTenetImporter::pcsAndValuesInAWindow()
{
    QFETCH(quint64, skip);
    QFETCH(std::optional<quint64>, max);
    ContextSink full;
    ImportReport report;
    QString error;
    QVERIFY2(TenetImporter().run(samplePath(), full, {}, &report, &error, {}), qPrintable(error));
    ImportOptions options;
    options.skipInstructions = skip;
    options.maxInstructions = max;
    const TransitionWindow window = TransitionWindow::of(options);
    ContextSink sink;
    QVERIFY2(TenetImporter().run(samplePath(), sink, options, &report, &error, {}), qPrintable(error));

    QList<QList<quint64>> pcs;
    for (const QList<quint64> &pc : std::as_const(full.pcs)) {
        if (window.contains(pc[0]))
            pcs << pc;
    }
    QList<Access> accesses;
    QList<QByteArray> values;
    for (qsizetype i = 0; i < full.accesses.size(); ++i) {
        if (window.contains(full.accesses[i].transition.value)) {
            accesses << full.accesses[i];
            values << full.values[i];
        }
    }
    QCOMPARE(sink.pcs, pcs);
    QCOMPARE(sink.accesses, accesses);
    QCOMPARE(sink.values, values);
}

// A line without rip (a rep-prefixed instruction repeating) runs at the previous PC, size unknown;
// a cut last line that is dropped gives no PC, and the line before it ends with size 0.
void TestTenetImporter::pcsOfRepeatedAndCutLines()
{
    const QString path = write(QStringLiteral("repeat.trace"),
        "rip=0x1000,rsp=0x2000\nrip=0x1002,mr=0x2000:01\nrcx=0x3,mw=0x3000:aabb\nrip=0x1005\nrip=0x1008,mr=0x3000:abc");
    ContextSink sink;
    ImportReport report;
    QString error;
    QVERIFY2(TenetImporter().run(path, sink, {}, &report, &error, {}), qPrintable(error));
    QCOMPARE(
        sink.pcs, (QList<QList<quint64>> { { 0, 0x1000, 2 }, { 1, 0x1002, 0 }, { 2, 0x1002, 3 }, { 3, 0x1005, 0 } }));
    QCOMPARE(sink.accesses, (QList<Access> { userAccess(0, R, 0x2000, 1), userAccess(1, W, 0x3000, 2) }));
    QCOMPARE(sink.values, (QList<QByteArray> { QByteArray("\x01"), QByteArray("\xaa\xbb") }));
    QCOMPARE(report.context,
        QStringList { path
            + QStringLiteral(": pcs of 4 transitions, values of 2 accesses (a Tenet trace has no modules and no "
                             "instruction bytes)") });
}

// The command line: the value column of query --context and the accesses of memhist at, at
// transitions read by hand in the trace.
void TestTenetImporter::queryAndAtShowValues()
{
    const QString output = m_dir.filePath(QStringLiteral("values.memhist"));
    const QStringList imported
        = QString::fromUtf8(cliOutput({ QStringLiteral("import"), samplePath(), QStringLiteral("-o"), output }))
              .split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(imported.mid(imported.size() - 2),
        (QStringList { QStringLiteral("context: pcs, values (no memory map or modules: no symbols)"),
            QStringLiteral("context: ") + samplePath()
                + QStringLiteral(": pcs of 2163 transitions, values of 1539 accesses (a Tenet trace has no modules "
                                 "and no instruction bytes)") }));
    const QStringList rows = QString::fromUtf8(cliOutput({ QStringLiteral("query"), output, QStringLiteral("--context"),
                                                   QStringLiteral("--format"), QStringLiteral("csv") }))
                                 .split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(rows.size(), 1 + 100); // the first page
    QCOMPARE(rows[0],
        QStringLiteral(
            "rowid,transition,operation,address,linear,size,pc,function,source,instruction,region,value,before"));
    // The call at 0x1400041a0 pushes its return address 0x1400041a5 (line 2).
    QCOMPARE(rows[3], QStringLiteral("3,1,W,0x13ff28,0x13ff28,8,0x1400041a0,,,,,a541004001000000,")); // no before
    // The 7-byte load at 0x1400045e9 reads rax's new value 0xd6bdee99ed73 (line 7).
    QCOMPARE(rows[6], QStringLiteral("6,6,R,0x140007000,0x140007000,8,0x1400045e9,,,,,73ed99eebdd60000,"));
    // pop rbp at 0x140004686 reads 0 (line 16: rbp=0x0).
    QCOMPARE(rows[11], QStringLiteral("11,15,R,0x13ff20,0x13ff20,8,0x140004686,,,,,0000000000000000,"));
    // The ret at 0x140004687 reads the return address pushed at transition 1 (line 17: rip=0x1400041a5).
    QCOMPARE(QString::fromUtf8(cliOutput({ QStringLiteral("at"), output, QStringLiteral("16") }))
                 .split(u'\n', Qt::SkipEmptyParts),
        (QStringList { QStringLiteral("transition:  16"), QStringLiteral("pc:          0x140004687"),
            QStringLiteral("module:      unknown"), QStringLiteral("function:    unknown"),
            QStringLiteral("source:      unknown"), QStringLiteral("instruction: unknown"),
            QStringLiteral("accesses:    1"),
            QStringLiteral("  rowid  op   address  size  region  value             before"),
            QStringLiteral("     12  R   0x13ff28     8          a541004001000000") }));
}

QTEST_GUILESS_MAIN(TestTenetImporter)
#include "tst_tenetimporter.moc"
