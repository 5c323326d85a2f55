// SPDX-License-Identifier: MIT
// The program context of drmemtrace imports: the PC of every transition (whole traces, windows,
// directories of threads, core-sharded schedules), instruction bytes from encoding records
// disassembled, traces without encodings, and the modules of DynamoRIO's modules.log (parsed,
// named to the history, symbolized from the binaries on this machine, a missing one noted, a
// malformed list a warning).
#include "core/context/contextreader.h"
#include "core/importers/accesssink.h"
#include "core/importers/drmemtrace/modulelist.h"
#include "core/importers/drmemtraceimporter.h"
#include "core/storage/historydatabase.h"
#include "core/storage/sqlite.h"
#include "core/writer/historywriter.h"
#include "coreschedule.h"
#include "drmemtracewriter.h"
#include "historycontents.h"
#include "programhistory.h"
#include "testsupport.h"
#include "toolchain.h"

#include <QDir>
#include <QFile>
#include <QHash>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace memhist;
using namespace memhist::test;
using drmemtrace::ModuleList;
using drmemtrace::ModuleListEntry;
namespace type = drmemtrace::type;

Q_DECLARE_METATYPE(std::optional<quint64>)
Q_DECLARE_METATYPE(QList<ModuleListEntry>)

namespace {

QString dataPath(const QString &name)
{
    return QFINDTESTDATA(QStringLiteral("data/drmemtrace/") + name);
}

QString simpleApp()
{
    return dataPath(QStringLiteral("drmemtrace.simple_app.trace.zip"));
}

struct Imported
{
    bool ok = false;
    QString error;
    ImportReport report;
    WriterStats stats;
};

Imported importInto(const QString &trace, const QString &output, ImportOptions options = {})
{
    Imported result;
    QFile::remove(output);
    HistoryWriter writer(output);
    WriterSink sink(writer);
    if (!writer.open()) {
        result.error = writer.errorString();
        return result;
    }
    result.ok = DrMemtraceImporter().run(trace, sink, options, &result.report, &result.error, {});
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

// What a thread's records say, read here without the importer: the PCs of its fetched
// instructions, and the bytes of the encoding records just before an instruction, per PC (the
// first ones seen).
struct RecordOracle
{
    QSet<quint64> fetchedPcs;
    QHash<quint64, QByteArray> encodings;
};

RecordOracle readOracle(const QString &path)
{
    Records records;
    QString error;
    if (!readTraceRecords(path, &records, &error))
        qFatal("%s", qPrintable(error));
    RecordOracle oracle;
    QByteArray pending;
    for (const drmemtrace::TraceRecord &record : records) {
        if (record.type == type::encoding) {
            for (int i = 0; i < record.size; ++i)
                pending += char((record.addr >> (8 * i)) & 0xff);
            continue;
        }
        const bool fetched = isFetchedInstruction(record);
        if (fetched || record.type == type::instructionNoFetch) {
            if (!pending.isEmpty() && !oracle.encodings.contains(record.addr))
                oracle.encodings.insert(record.addr, pending);
            pending.clear();
        }
        if (fetched)
            oracle.fetchedPcs.insert(record.addr);
    }
    return oracle;
}

// objdump's Intel text of the instructions in `code`, decoded one after the other, by offset.
QHash<quint64, QString> objdumpTexts(const QByteArray &code, const QString &folder)
{
    const QString file = QDir(folder).filePath(QStringLiteral("instructions.bin"));
    QFile out(file);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate) || out.write(code) != code.size())
        qFatal("cannot write %s", qPrintable(file));
    out.close();
    const ToolRun run = runTool(QStringLiteral("objdump"),
        { QStringLiteral("-D"), QStringLiteral("-w"), QStringLiteral("-b"), QStringLiteral("binary"),
            QStringLiteral("-m"), QStringLiteral("i386:x86-64"), QStringLiteral("-M"), QStringLiteral("intel"), file });
    static const QRegularExpression line(QStringLiteral("^\\s*([0-9a-f]+):\\t[0-9a-f ]+\\t(.*)$"));
    QHash<quint64, QString> texts;
    for (const QString &text : QString::fromUtf8(run.out).split(u'\n')) {
        const QRegularExpressionMatch match = line.match(text);
        if (match.hasMatch())
            texts.insert(match.captured(1).toULongLong(nullptr, 16), match.captured(2).trimmed());
    }
    return texts;
}

QStringList outputLines(const QByteArray &text)
{
    QStringList result = QString::fromUtf8(text).split(u'\n');
    if (!result.isEmpty() && result.last().isEmpty())
        result.removeLast();
    return result;
}

void writeFile(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(content) != content.size())
        qFatal("cannot write %s", qPrintable(path));
}

} // namespace

class TestDrMemtraceContext : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void moduleListParsed_data();
    void moduleListParsed();
    void malformedModuleList_data();
    void malformedModuleList();
    void simpleAppDisassembledFromItsEncodings();
    void pcsAlignedWithTransitions_data();
    void pcsAlignedWithTransitions();
    void traceWithoutEncodings();
    void modulesFromModulesLog();
    void malformedModulesLogIsAWarning();
    void architectureChoosesTheDisassembly_data();
    void architectureChoosesTheDisassembly();

private:
    QString path(const QString &name) const { return m_dir.filePath(name); }
    QTemporaryDir m_dir;
};

void TestDrMemtraceContext::initTestCase()
{
    QVERIFY(m_dir.isValid());
}

void TestDrMemtraceContext::moduleListParsed_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("version");
    QTest::addColumn<QList<ModuleListEntry>>("entries");

    // As drmemtrace writes it on Linux: a module of two segments, the vdso with its 6 bytes of
    // contents (a newline and a comma among them) in the custom field, code in no file.
    QTest::newRow("version 5, custom fields, vdso contents, a second segment")
        << QByteArray("Module Table: version 5, count 4\n"
                      "Columns: id, containing_id, start, end, entry, offset, preferred_base, (custom fields), path\n"
                      "  0,   0, 0x0000555555554000, 0x0000555555555000, 0x0000555555555040, 0000000000000000, "
                      "0x0000000000000000, v#1,0,  /usr/bin/app\n"
                      "  1,   0, 0x0000555555555000, 0x0000555555556000, 0x0000555555555040, 0000000000001000, "
                      "0x0000000000000000, v#1,0,  /usr/bin/app\n"
                      "  2,   2, 0x00007ffff7fc1000, 0x00007ffff7fc3000, 0x0000000000000000, 0000000000000000, "
                      "0x0000000000000000, v#1,6,\x7f"
                      "E\n,LF  [vdso]\r\n"
                      "  3,   3, 0x00007ffff0000000, 0x00007ffff0001000, 0x0000000000000000, 0000000000000000, "
                      "0x0000000000000000, v#1,0,  <unknown>\n")
        << 5
        << QList<ModuleListEntry> {
               { 0, 0, 0x555555554000, 0x555555555000, 0, 0, QStringLiteral("/usr/bin/app") },
               { 1, 0, 0x555555555000, 0x555555556000, 0x1000, 0, QStringLiteral("/usr/bin/app") },
               { 2, 2, 0x7ffff7fc1000, 0x7ffff7fc3000, 0, 0, QStringLiteral("[vdso]") },
               { 3, 3, 0x7ffff0000000, 0x7ffff0001000, 0, 0, QStringLiteral("<unknown>") },
           };
    QTest::newRow("version 4: offsets, no preferred base, no custom fields")
        << QByteArray("Module Table: version 4, count 1\n"
                      "Columns: id, containing_id, start, end, entry, offset, path\n"
                      "  0,   0, 0x00007f0000000000, 0x00007f0000021000, 0x00007f0000001100, 0000000000000000, "
                      "/lib/x86_64-linux-gnu/libm.so.6\n")
        << 4
        << QList<ModuleListEntry> { { 0, 0, 0x7f0000000000, 0x7f0000021000, 0, std::nullopt,
               QStringLiteral("/lib/x86_64-linux-gnu/libm.so.6") } };
    QTest::newRow("version 3 on Windows: checksum and timestamp")
        << QByteArray("Module Table: version 3, count 2\n"
                      "Columns: id, containing_id, start, end, entry, checksum, timestamp, path\n"
                      "  0,   0, 0x010d0000, 0x010da000, 0x010d1b80, 0x0000f752, 0xb5fe3575,  C:\\Windows\\calc.exe\n"
                      "  1,   1, 0x6d4c0000, 0x6d621000, 0x6d563940, 0x00136d65, 0x59ce1b0b,  C:\\dr\\dynamorio.dll\n")
        << 3
        << QList<ModuleListEntry> {
               { 0, 0, 0x010d0000, 0x010da000, 0, std::nullopt, QStringLiteral("C:\\Windows\\calc.exe") },
               { 1, 1, 0x6d4c0000, 0x6d621000, 0, std::nullopt, QStringLiteral("C:\\dr\\dynamorio.dll") },
           };
    QTest::newRow("version 2: base instead of start, no containing id")
        << QByteArray("Module Table: version 2, count 1\nColumns: id, base, end, entry, path\n"
                      "  0, 0x400000, 0x401000, 0x400100, /bin/old\n")
        << 2 << QList<ModuleListEntry> { { 0, 0, 0x400000, 0x401000, 0, std::nullopt, QStringLiteral("/bin/old") } };
}

void TestDrMemtraceContext::moduleListParsed()
{
    QFETCH(QByteArray, text);
    QFETCH(int, version);
    QFETCH(QList<ModuleListEntry>, entries);
    ModuleList list;
    QString error;
    QVERIFY2(drmemtrace::parseModuleList(text, QStringLiteral("modules.log"), &list, &error), qPrintable(error));
    QCOMPARE(list.version, version);
    QCOMPARE(list.entries.size(), entries.size());
    for (qsizetype i = 0; i < entries.size(); ++i) {
        QCOMPARE(list.entries[i].id, entries[i].id);
        QCOMPARE(list.entries[i].containingId, entries[i].containingId);
        QCOMPARE(list.entries[i].start, entries[i].start);
        QCOMPARE(list.entries[i].end, entries[i].end);
        QCOMPARE(list.entries[i].fileOffset, entries[i].fileOffset);
        QCOMPARE(list.entries[i].preferredBase, entries[i].preferredBase);
        QCOMPARE(list.entries[i].path, entries[i].path);
    }
}

void TestDrMemtraceContext::malformedModuleList_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("error");

    const QByteArray header = "Module Table: version 5, count 2\n"
                              "Columns: id, containing_id, start, end, entry, offset, preferred_base, path\n";
    const QByteArray first = "  0,   0, 0x1000, 0x2000, 0x1000, 0000000000000000, 0x0, /bin/a\n";
    QTest::newRow("not a module list") << QByteArray("hello\n")
                                       << "modules.log:1: 'hello' is not a module list header (expected 'Module "
                                          "Table: version V, count N')";
    QTest::newRow("version 1 has no addresses") << QByteArray("Module Table: 2\n0, 4096, /bin/a\n")
                                                << "modules.log:1: a version 1 module list (sizes, no addresses): not "
                                                   "supported";
    QTest::newRow("a version from the future")
        << QByteArray("Module Table: version 9, count 1\n")
        << "modules.log:1: module list version 9 (this reader knows versions 2 to 5)";
    QTest::newRow("no columns line") << QByteArray("Module Table: version 5, count 1\n  0, 0, 0x1000\n")
                                     << "modules.log:2: '  0, 0, 0x1000' is not the columns line (expected 'Columns: "
                                        "id, ..., path')";
    QTest::newRow("an unknown column") << QByteArray("Module Table: version 5, count 1\nColumns: id, colour, path\n")
                                       << "modules.log:2: unknown column 'colour'";
    QTest::newRow("start is not hex") << header + "  0,   0, 0xzz, 0x2000, 0x1000, 0, 0x0, /bin/a\n"
                                      << "modules.log:3: module 0: field 'start': '0xzz' is not a hex number";
    QTest::newRow("a line cut before its path") << header + "  0,   0, 0x1000, 0x2000\n"
                                                << "modules.log:3: module 0: the line ends before the field 'end'";
    QTest::newRow("end before start") << header + "  0,   0, 0x2000, 0x1000, 0x1000, 0, 0x0, /bin/a\n"
                                      << "modules.log:3: module 0: end 0x1000 is not after start 0x2000";
    QTest::newRow("ids out of order") << header + first + "  5,   5, 0x3000, 0x4000, 0x3000, 0, 0x0, /bin/b\n"
                                      << "modules.log:4: module id 5 where 1 was expected (ids count from 0, in order)";
    QTest::newRow("a containing id ahead")
        << header + first + "  1,   7, 0x3000, 0x4000, 0x3000, 0, 0x0, /bin/b\n"
        << "modules.log:4: module 1: containing id 7 names no earlier module's first segment";
    QTest::newRow("fewer modules than counted")
        << header + first << "modules.log:4: the list ends after 1 of its 2 modules";
    QTest::newRow("contents longer than the file")
        << QByteArray("Module Table: version 5, count 1\n"
                      "Columns: id, containing_id, start, end, entry, offset, preferred_base, (custom fields), path\n"
                      "  0,   0, 0x1000, 0x2000, 0x1000, 0, 0x0, v#1,4096,abc\n")
        << "modules.log:3: module 0: the file ends inside its 4096 bytes of contents";
}

void TestDrMemtraceContext::malformedModuleList()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, error);
    ModuleList list;
    QString message;
    QVERIFY(!drmemtrace::parseModuleList(text, QStringLiteral("modules.log"), &list, &message));
    QCOMPARE(message, error);
}

// Every distinct PC of simple_app is stored, and those the trace encodes are disassembled from
// their encodings: the text objdump gives for the same bytes.
void TestDrMemtraceContext::simpleAppDisassembledFromItsEncodings()
{
    const RecordOracle oracle = readOracle(simpleApp());
    QVERIFY(!oracle.encodings.isEmpty());
    const QString output = path(QStringLiteral("simple_app.memhist"));
    const Imported imported = importInto(simpleApp(), output);
    QVERIFY2(imported.ok, qPrintable(imported.error));
    const ContextSummary &context = imported.stats.context;
    QCOMPARE(context.parts, (QStringList { QStringLiteral("pcs"), QStringLiteral("disassembly") }));
    QCOMPARE(context.instructions, 136051);
    QCOMPARE(context.distinctPcs, qint64(oracle.fetchedPcs.size()));
    qint64 encodedFetched = 0;
    for (const quint64 pc : oracle.fetchedPcs)
        encodedFetched += oracle.encodings.contains(pc);
    QCOMPARE(encodedFetched, qint64(oracle.fetchedPcs.size())); // a version 4 trace encodes every instruction
    QCOMPARE(context.disassembled, encodedFetched);
    QCOMPARE(imported.report.context.size(), 1);
    QVERIFY2(imported.report.context[0].startsWith(simpleApp()
                 + QStringLiteral(": pcs of 136051 transitions, "
                                  "instruction bytes from ")),
        qPrintable(imported.report.context[0]));

    QString error;
    const auto database = HistoryDatabase::open(output, &error);
    QVERIFY2(database, qPrintable(error));
    ContextReader reader(*database);
    // Every PC against objdump, which decodes all the encodings back to back in one run: the same
    // mnemonic (objdump writes a segment prefix as a word of its own: "cs nop"). Debian's capstone
    // 4.0 does not know AVX-512 (EVEX encodings, mask registers): those are "(bad)", and only those.
    QList<quint64> pcs(oracle.fetchedPcs.cbegin(), oracle.fetchedPcs.cend());
    std::sort(pcs.begin(), pcs.end());
    QByteArray all;
    QHash<quint64, quint64> pcAtOffset;
    for (const quint64 pc : std::as_const(pcs)) {
        pcAtOffset.insert(quint64(all.size()), pc);
        all += oracle.encodings.value(pc);
    }
    const QHash<quint64, QString> objdump = objdumpTexts(all, m_dir.path());
    int compared = 0;
    int avx512 = 0;
    for (auto it = pcAtOffset.cbegin(); it != pcAtOffset.cend(); ++it) {
        const quint64 pc = it.value();
        const CodeDescription code = reader.describeCode(Address { pc });
        QCOMPARE(code.bytes, oracle.encodings.value(pc));
        const QString text = objdump.value(it.key());
        QVERIFY2(!text.isEmpty(), qPrintable(QString::number(pc, 16)));
        const QStringList words = text.toLower().split(u' ', Qt::SkipEmptyParts);
        if (code.instruction == QLatin1String("(bad)")) {
            static const QRegularExpression maskRegister(QStringLiteral("\\bk[0-7]\\b"));
            QVERIFY2(text.contains(maskRegister), qPrintable(QString::number(pc, 16) + u' ' + text));
            ++avx512;
            continue;
        }
        const QString mnemonic = code.instruction.section(u' ', 0, 0);
        // objdump writes prefixes as words of their own ("data16 cs nop", "rep stos").
        // 66 90 is "nop" to capstone, "xchg ax,ax" to objdump.
        const bool synonym = mnemonic == QLatin1String("nop") && words.join(u' ') == QLatin1String("xchg ax,ax");
        QVERIFY2(words.mid(0, 3).contains(mnemonic) || synonym,
            qPrintable(QStringLiteral("0x%1: %2 / objdump: %3").arg(QString::number(pc, 16), code.instruction, text)));
        ++compared;
    }
    QCOMPARE(compared + avx512, pcs.size());
    QCOMPARE(avx512, 6);
    // The first instructions of the trace, read by hand: the call's target is its end + 0xcb8.
    const QList<QStringList> expected {
        { QStringLiteral("0x7fbbbede5940"), QStringLiteral("mov rdi, rsp"), QStringLiteral("48 89 e7") },
        { QStringLiteral("0x7fbbbede5943"), QStringLiteral("call 0x7fbbbede6600"), QStringLiteral("e8 b8 0c 00 00") },
        { QStringLiteral("0x7fbbbede6600"), QStringLiteral("push rbp"), QStringLiteral("55") },
    };
    for (qsizetype t = 0; t < expected.size(); ++t) {
        const std::optional<Address> pc = reader.pcAt(Transition { quint64(t) });
        QVERIFY(pc);
        const CodeDescription code = reader.describeCode(*pc);
        QCOMPARE((QStringList { QStringLiteral("0x") + QString::number(pc->value, 16), code.instruction,
                     QString::fromLatin1(code.bytes.toHex(' ')) }),
            expected[t]);
    }
}

// With --with-exec each transition's execute access is at its instruction's PC: pcAt must say the
// same for every transition, in windows (chunk seeks included), across interleaved threads and on
// core-sharded schedules.
void TestDrMemtraceContext::pcsAlignedWithTransitions_data()
{
    QTest::addColumn<QString>("trace");
    QTest::addColumn<quint64>("skip");
    QTest::addColumn<std::optional<quint64>>("max");
    QTest::addColumn<qint64>("instructions");

    QTest::newRow("simple_app whole") << simpleApp() << quint64(0) << std::optional<quint64>() << qint64(136051);
    QTest::newRow("simple_app, a window in the middle")
        << simpleApp() << quint64(50000) << std::optional<quint64>(1234) << qint64(1234);
    QTest::newRow("58 chunks, a window seeking into chunk 40")
        << dataPath(QStringLiteral("as_traced.x64.tracedir")) << quint64(40500) << std::optional<quint64>(3000)
        << qint64(3000);
    QTest::newRow("9 threads interleaved") << dataPath(QStringLiteral("threadsig.x64.tracedir")) << quint64(0)
                                           << std::optional<quint64>() << qint64(650576);
    QTest::newRow("9 threads, a window") << dataPath(QStringLiteral("threadsig.x64.tracedir")) << quint64(300000)
                                         << std::optional<quint64>(20000) << qint64(20000);
    QTest::newRow("core-sharded: 3 cores, chunks of 2000")
        << QStringLiteral("CORES") << quint64(0) << std::optional<quint64>() << qint64(650576);
    QTest::newRow("core-sharded, a window")
        << QStringLiteral("CORES") << quint64(123456) << std::optional<quint64>(7000) << qint64(7000);
    QTest::newRow("legacy gzip threads without encodings") << dataPath(QStringLiteral("legacy-gz.x64.tracedir"))
                                                           << quint64(0) << std::optional<quint64>() << qint64(38067);
}

void TestDrMemtraceContext::pcsAlignedWithTransitions()
{
    QFETCH(QString, trace);
    QFETCH(quint64, skip);
    QFETCH(std::optional<quint64>, max);
    QFETCH(qint64, instructions);
    if (trace == QLatin1String("CORES")) {
        trace = path(QStringLiteral("cores"));
        if (!QFileInfo::exists(trace)) {
            std::vector<Records> threads;
            const QDir threadsig(dataPath(QStringLiteral("threadsig.x64.tracedir")));
            for (const QString &file :
                threadsig.entryList({ QStringLiteral("drmemtrace.threadsig.*.trace.zip") }, QDir::Files, QDir::Name)) {
                Records records;
                QString error;
                QVERIFY2(readTraceRecords(threadsig.filePath(file), &records, &error), qPrintable(error));
                threads.push_back(withoutChunkRecords(records));
            }
            QCOMPARE(threads.size(), size_t(9));
            const std::vector<Records> cores = scheduleOnCores(threads, CoreScheduleOptions {});
            QVERIFY(QDir().mkpath(trace));
            for (size_t core = 0; core < cores.size(); ++core) {
                QString error;
                QVERIFY2(writeChunkedZip(QDir(trace).filePath(QStringLiteral("drmemtrace.core.%1.trace.zip").arg(core)),
                             splitIntoChunks(cores[core], 2000), &error),
                    qPrintable(error));
            }
        }
    }
    ImportOptions options;
    options.withExecute = true;
    options.skipInstructions = skip;
    options.maxInstructions = max;
    const QString output = path(QStringLiteral("aligned.memhist"));
    const Imported imported = importInto(trace, output, options);
    QVERIFY2(imported.ok, qPrintable(imported.error));
    QCOMPARE(imported.report.instructions, instructions);
    QCOMPARE(imported.stats.context.instructions, instructions);

    QString error;
    const auto database = HistoryDatabase::open(output, &error);
    QVERIFY2(database, qPrintable(error));
    ContextReader reader(*database);
    qint64 executes = 0;
    for (const AccessRow &row : allAccesses(*database)) {
        if (row[1] != qint64(Operation::Execute))
            continue;
        ++executes;
        const std::optional<Address> pc = reader.pcAt(Transition { quint64(row[0]) });
        QVERIFY2(pc && qint64(pc->value) == row[2],
            qPrintable(QStringLiteral("transition %1: execute at 0x%2, pc %3")
                           .arg(row[0])
                           .arg(QString::number(quint64(row[2]), 16),
                               pc ? QString::number(pc->value, 16) : QStringLiteral("unknown"))));
    }
    QCOMPARE(executes, instructions);
    // No PC outside the window.
    QVERIFY(!reader.pcAt(Transition { skip + quint64(instructions) }));
    if (skip > 0)
        QVERIFY(!reader.pcAt(Transition { skip - 1 }));
}

// A trace without encoding records gives the PCs only, and says so.
void TestDrMemtraceContext::traceWithoutEncodings()
{
    const QString trace = dataPath(QStringLiteral("legacy-gz.x64.tracedir/drmemtrace.threadsig.10506.7343.trace.gz"));
    const QString output = path(QStringLiteral("legacy.memhist"));
    const CliResult result = runCli({ QStringLiteral("import"), trace, QStringLiteral("-o"), output });
    QCOMPARE(result.exitCode, 0);
    const QStringList lines = outputLines(result.out);
    QCOMPARE(lines.mid(lines.size() - 2),
        (QStringList { QStringLiteral("context: pcs only (no memory map or modules: no symbols)"),
            QStringLiteral("context: ") + trace
                + QStringLiteral(": pcs of 4421 transitions, no encoding records (traces before version 4 have none): "
                                 "no instruction bytes, no modules.log beside the trace (nor in raw/): no modules") }));
    QString error;
    const auto database = HistoryDatabase::open(output, &error);
    QVERIFY2(database, qPrintable(error));
    ContextReader reader(*database);
    QCOMPARE(reader.parts(), QStringList { QStringLiteral("pcs") });
    const std::optional<Address> pc = reader.pcAt(Transition { 0 });
    QVERIFY(pc);
    QCOMPARE(reader.describeCode(*pc).instruction, QString());
}

// A modules.log in raw/ beside the trace's directory names the program (compiled here) and a
// library that is not on this machine: the program's PCs get its functions and lines, the missing
// library is noted.
void TestDrMemtraceContext::modulesFromModulesLog()
{
    const QString build = path(QStringLiteral("program"));
    QVERIFY(QDir().mkpath(build));
    QVERIFY(QFile::copy(QFINDTESTDATA("data/programs/counter.c"), QDir(build).filePath(QStringLiteral("counter.c"))));
    QVERIFY(runStep(QStringLiteral("gcc"), { "-g", "-O0", "-o", "counter", "counter.c" }, build));
    const QString program = QDir(build).filePath(QStringLiteral("counter"));
    const auto bump = nmSymbol(program, QStringLiteral("bump"));
    QVERIFY(bump);
    const QList<ObjdumpInstruction> code = instructionsIn(objdumpInstructions(program), bump->address, 12);
    QVERIFY(code.size() >= 3);

    // A thread that runs bump's first three instructions, with their encodings, at a PIE bias.
    constexpr quint64 bias = 0x555555554000;
    Records records { record(type::header, 0, 7), marker(12, 7), marker(drmemtrace::marker::fileType, 0x240),
        record(type::thread, 4, 77), record(type::pid, 4, 77), marker(drmemtrace::marker::timestamp, 1),
        marker(drmemtrace::marker::cpuId, 0) };
    for (const ObjdumpInstruction &instruction : code.first(3)) {
        for (qsizetype at = 0; at < instruction.bytes.size(); at += 8) {
            const QByteArray piece = instruction.bytes.mid(at, 8);
            quint64 value = 0;
            for (qsizetype i = 0; i < piece.size(); ++i)
                value |= quint64(quint8(piece[i])) << (8 * i);
            records.push_back(record(type::encoding, quint16(piece.size()), value));
        }
        records.push_back(record(type::instruction, quint16(instruction.bytes.size()), bias + instruction.address));
    }
    records.push_back(record(type::threadExit, 4, 77));
    records.push_back(record(type::footer, 0, 0));
    const QString top = path(QStringLiteral("drmemtrace.counter.77.1234.dir"));
    writeFile(QDir(top).filePath(QStringLiteral("trace/drmemtrace.counter.77.1234.trace")), recordBytes(records));
    const QString modulesLog = QDir(top).filePath(QStringLiteral("raw/modules.log"));
    writeFile(modulesLog,
        QStringLiteral("Module Table: version 5, count 2\n"
                       "Columns: id, containing_id, start, end, entry, offset, preferred_base, (custom fields), path\n"
                       "  0,   0, 0x%1, 0x%2, 0x%1, 0000000000000000, 0x0000000000000000, v#1,0,  %3\n"
                       "  1,   1, 0x00007ffff7c00000, 0x00007ffff7c28000, 0x00007ffff7c00000, 0000000000000000, "
                       "0x0000000000000000, v#1,0,  /nonexistent/libgone.so.1\n")
            .arg(QString::number(bias, 16), QString::number(bias + 0x5000, 16), program)
            .toUtf8());

    const QString output = path(QStringLiteral("counter-drmemtrace.memhist"));
    const QString traceDirectory = QDir(top).filePath(QStringLiteral("trace"));
    // The memory map: the program's segments as readelf gives them, with their permissions; the
    // missing library's segment as the list gives it, permissions unknown.
    const QList<Mapping> programMappings = loadMappings(program, bias);
    QVERIFY(programMappings.size() >= 4);
    const CliResult result = runCli({ QStringLiteral("import"), traceDirectory, QStringLiteral("-o"), output });
    QCOMPARE(result.exitCode, 0);
    QCOMPARE(result.err, QByteArray());
    const QStringList lines = outputLines(result.out);
    QCOMPARE(lines.mid(lines.size() - 3),
        (QStringList { QStringLiteral("context: pcs, map, modules, symbols, lines, disassembly"),
            QStringLiteral("context: ") + traceDirectory
                + QStringLiteral(": pcs of 3 transitions, instruction bytes from 3 encoded instruction records, 2 "
                                 "modules and %1 mappings from ")
                      .arg(programMappings.size() + 1)
                + QDir::cleanPath(modulesLog),
            QStringLiteral("context: no symbols for /nonexistent/libgone.so.1: not found") }));

    {
        sqlite::Connection db;
        QVERIFY(db.open(output, sqlite::Connection::Mode::ReadOnly));
        sqlite::Statement rows = db.prepare("SELECT transition_first, transition_last, addr_first, addr_last, "
                                            "permissions, file_offset, path, module_id FROM memory_map ORDER BY rowid");
        QList<Mapping> mapped;
        while (rows.step() == SQLITE_ROW) {
            QCOMPARE(rows.int64(0), 0);
            QCOMPARE(rows.int64(1), 2);
            mapped << Mapping { Address { quint64(rows.int64(2)) }, Address { quint64(rows.int64(3)) }, rows.text(4),
                quint64(rows.int64(5)), rows.text(6) };
            QCOMPARE(rows.int64(7), mapped.size() <= programMappings.size() ? 1 : 2);
        }
        const Mapping librarySegment { Address { 0x7ffff7c00000 }, Address { 0x7ffff7c27fff }, QString(), 0,
            QStringLiteral("/nonexistent/libgone.so.1") };
        QCOMPARE(mapped, programMappings + QList<Mapping> { librarySegment });
    }

    const QStringList at = outputLines(cliOutput({ QStringLiteral("at"), output, QStringLiteral("1") }));
    const quint64 pc = bias + code[1].address;
    QCOMPARE(at.value(1), QStringLiteral("thread:      77"));
    QCOMPARE(at.value(2), QStringLiteral("pc:          0x") + QString::number(pc, 16));
    QCOMPARE(at.value(3), QStringLiteral("module:      counter+0x") + QString::number(code[1].address, 16));
    QCOMPARE(
        at.value(4), QStringLiteral("function:    bump+0x") + QString::number(code[1].address - bump->address, 16));
    QCOMPARE(at.value(5), QStringLiteral("source:      ") + addr2line(program, code[1].address));
    QVERIFY(at.value(6).startsWith(QStringLiteral("instruction: ")));
    QCOMPARE(comparableInstruction(at.value(6).mid(13).section(QStringLiteral(" ("), 0, 0)),
        comparableInstruction(objdumpTextAtRunTime(code[1].text, bias)));

    const QStringList info = outputLines(cliOutput({ QStringLiteral("info"), output }));
    const qsizetype modules
        = info.indexOf(QStringLiteral("modules:          2 (path, load bias, build-id, transitions)"));
    QVERIFY2(modules > 0, qPrintable(info.join(u'\n')));
    QCOMPARE(info.value(modules + 1),
        QString(18, u' ')
            + QStringLiteral("%1  0x%2  %3  0..2").arg(program, QString::number(bias, 16), readelfBuildId(program)));
}

// A modules.log that cannot be parsed: a warning naming it, its line and the reason; the accesses
// and PCs are imported without modules.
void TestDrMemtraceContext::malformedModulesLogIsAWarning()
{
    const QString directory = path(QStringLiteral("broken-modules"));
    QVERIFY(QDir().mkpath(directory));
    const QString trace = QDir(directory).filePath(QStringLiteral("drmemtrace.simple_app.trace.zip"));
    QVERIFY(QFile::copy(simpleApp(), trace));
    const QString modulesLog = QDir(directory).filePath(QStringLiteral("modules.log"));
    writeFile(modulesLog,
        "Module Table: version 5, count 1\n"
        "Columns: id, containing_id, start, end, entry, offset, preferred_base, path\n"
        "  0,   0, 0x1000, 0x0800, 0x1000, 0000000000000000, 0x0, /bin/a\n");
    const QString output = path(QStringLiteral("broken-modules.memhist"));
    const CliResult result = runCli({ QStringLiteral("import"), trace, QStringLiteral("-o"), output });
    QCOMPARE(result.exitCode, 0);
    QCOMPARE(QString::fromLocal8Bit(result.err),
        QStringLiteral("memhist import: warning: ") + modulesLog
            + QStringLiteral(":3: module 0: end 0x800 is not after start 0x1000: imported without modules\n"));
    const QStringList lines = outputLines(result.out);
    QCOMPARE(lines.value(lines.size() - 2),
        QStringLiteral("context: pcs, disassembly (no memory map or modules: no symbols)"));
    QVERIFY2(lines.last().endsWith(QStringLiteral(", no modules (%1 is malformed)").arg(modulesLog)),
        qPrintable(lines.last()));
}

QTEST_GUILESS_MAIN(TestDrMemtraceContext)
// The file type's architecture decides how the encodings are decoded: AArch64 and 32-bit x86
// bytes come back as those instructions, not as x86-64; 32-bit ARM is not decoded, and said so.
void TestDrMemtraceContext::architectureChoosesTheDisassembly_data()
{
    QTest::addColumn<quint64>("fileType");
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("instruction");
    QTest::addColumn<QString>("note");
    constexpr quint64 encodings = 0x200;
    // e0 03 01 aa: AArch64's mov x0, x1 (orr x0, xzr, x1); as x86-64 it would be "loopne 0x...".
    QTest::newRow("AArch64") << (encodings | 0x08) << QByteArray::fromHex("e00301aa")
                             << QStringLiteral("instruction: mov x0, x1 (e0 03 01 aa)") << QString();
    // 48: dec eax in 32-bit code, a lone REX prefix (no instruction) in 64-bit code.
    QTest::newRow("x86 32-bit") << (encodings | 0x20) << QByteArray::fromHex("48")
                                << QStringLiteral("instruction: dec eax (48)") << QString();
    QTest::newRow("ARM 32-bit")
        << (encodings | 0x10) << QByteArray::fromHex("e00301aa") << QStringLiteral("instruction: unknown")
        << QStringLiteral("context: no disassembly of 32-bit ARM code (ARM and Thumb cannot be told apart)");
}

void TestDrMemtraceContext::architectureChoosesTheDisassembly()
{
    QFETCH(quint64, fileType);
    QFETCH(QByteArray, bytes);
    QFETCH(QString, instruction);
    QFETCH(QString, note);
    quint64 encoded = 0;
    for (qsizetype i = 0; i < bytes.size(); ++i)
        encoded |= quint64(quint8(bytes[i])) << (8 * i);
    constexpr quint64 pc = 0x400000;
    const Records records { record(type::header, 0, 7), marker(12, 7), marker(drmemtrace::marker::fileType, fileType),
        record(type::thread, 4, 5), record(type::pid, 4, 5), marker(drmemtrace::marker::timestamp, 1),
        marker(drmemtrace::marker::cpuId, 0), record(type::encoding, quint16(bytes.size()), encoded),
        record(type::instruction, quint16(bytes.size()), pc), record(type::threadExit, 4, 5),
        record(type::footer, 0, 0) };
    const QString tag = QString::fromLatin1(QTest::currentDataTag()).replace(u' ', u'-');
    const QString trace = path(QStringLiteral("arch-%1/drmemtrace.app.5.1.trace").arg(tag));
    writeFile(trace, recordBytes(records));
    const QString output = path(QStringLiteral("arch-%1.memhist").arg(tag));
    const CliResult result = runCli({ QStringLiteral("import"), trace, QStringLiteral("-o"), output });
    QCOMPARE(result.exitCode, 0);
    const QStringList lines = outputLines(result.out);
    QCOMPARE(lines.filter(QStringLiteral("disassembly of")), note.isEmpty() ? QStringList() : QStringList { note });

    const QStringList at = outputLines(cliOutput({ QStringLiteral("at"), output, QStringLiteral("0") }));
    QCOMPARE(at.value(2), QStringLiteral("pc:          0x400000"));
    QCOMPARE(at.filter(QRegularExpression(QStringLiteral("^instruction:"))), QStringList { instruction });
}

#include "tst_drmemtracecontext.moc"
