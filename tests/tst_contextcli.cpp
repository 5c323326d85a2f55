// SPDX-License-Identifier: MIT
// The command line's program context: query and export --context (the columns, RFC 4180 quoting,
// empty cells where nothing is known), query --pc and --function with their pages, memhist at, the
// context and modules of memhist info, the context line of import, and the usage errors.
#include "programhistory.h"
#include "testsupport.h"
#include "toolchain.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace memhist;
using namespace memhist::test;

namespace {

constexpr std::uint64_t pieBias = 0x555555554000;

QString hex(std::uint64_t value)
{
    return QStringLiteral("0x") + QString::number(value, 16);
}

QStringList lines(const QByteArray &text)
{
    QStringList result = QString::fromUtf8(text).split(u'\n');
    if (!result.isEmpty() && result.last().isEmpty())
        result.removeLast();
    return result;
}

// The transition of every `I` line of the log that ran `pc`.
QList<quint64> transitionsOf(const QString &log, std::uint64_t pc)
{
    const ToolRun run = runTool(QStringLiteral("gzip"), { QStringLiteral("-dcf"), log });
    QList<quint64> transitions;
    quint64 transition = 0;
    for (const QByteArray &line : run.out.split('\n')) {
        if (!line.startsWith("I  "))
            continue;
        if (line.mid(3, line.indexOf(',') - 3).toULongLong(nullptr, 16) == pc)
            transitions << transition;
        ++transition;
    }
    return transitions;
}

QStringList strings(std::initializer_list<const char *> texts)
{
    QStringList list;
    for (const char *text : texts)
        list << QString::fromUtf8(text);
    return list;
}

} // namespace

class tst_ContextCli : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void queryWithContext();
    void exportWithContextEqualsTheQuery();
    void contextColumnsOfAHistoryWithoutContext();
    void executionsOfAPc();
    void callsOfAFunction();
    void executionQueryErrors_data();
    void executionQueryErrors();
    void describeATransition();
    void describeATransitionWithoutPcs();
    void infoListsContextAndModules();
    void importSaysWhatContextItStored();

private:
    QString path(const QString &name) const { return m_dir.filePath(name); }

    QTemporaryDir m_dir;
    QString m_program;
    QString m_history; // counter run at pieBias
    CounterHistory m_counter;
    QString m_lackeyLog;
    QString m_lackeyHistory; // PCs only
};

void tst_ContextCli::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY(QFile::copy(QFINDTESTDATA("data/programs/counter.c"), path(QStringLiteral("counter.c"))));
    QVERIFY(runStep(QStringLiteral("gcc"), { "-g", "-O0", "-o", "counter", "counter.c" }, m_dir.path()));
    m_program = path(QStringLiteral("counter"));
    m_history = path(QStringLiteral("counter.memhist"));
    QVERIFY(writeCounterHistory(m_program, pieBias, m_history, &m_counter));
    m_lackeyLog = QFINDTESTDATA("data/lackey/true.tiny.lackey");
    m_lackeyHistory = path(QStringLiteral("true.memhist"));
    QVERIFY(!cliOutput({ QStringLiteral("import"), m_lackeyLog, QStringLiteral("-o"), m_lackeyHistory }).isEmpty());
}

void tst_ContextCli::queryWithContext()
{
    const CliResult csv = runCli({ QStringLiteral("query"), m_history, QStringLiteral("--context"),
        QStringLiteral("--format"), QStringLiteral("csv") });
    QCOMPARE(csv.exitCode, 0);
    QCOMPARE(csv.err, QByteArray());
    const QStringList rows = lines(csv.out);
    QCOMPARE(rows.size(), 5);
    QCOMPARE(rows[0],
        QStringLiteral("rowid,transition,operation,address,linear,size,pc,function,source,instruction,"
                       "region,value,before"));

    const std::uint64_t elfPc = m_counter.storePc - pieBias;
    const auto bump = nmSymbol(m_program, QStringLiteral("bump"));
    const QList<ObjdumpInstruction> store = instructionsIn(objdumpInstructions(m_program), elfPc, 1);
    QCOMPARE(store.size(), 1);
    // The instruction's text holds a comma: the field is quoted (RFC 4180).
    const QString prefix = QStringLiteral("%1,W,%2,%2,4,%3,bump+0x%4,%5,\"")
                               .arg(m_counter.storeTransition)
                               .arg(hex(m_counter.counterAddress), hex(m_counter.storePc))
                               .arg(QString::number(elfPc - bump->address, 16), addr2line(m_program, elfPc));
    QVERIFY2(rows[1].startsWith(QStringLiteral("1,") + prefix), qPrintable(rows[1]));
    const QString rest = rows[1].mid(2 + prefix.size());
    const qsizetype closing = rest.indexOf(QStringLiteral("\","));
    QVERIFY(closing > 0);
    const QString instruction = rest.left(closing);
    QVERIFY(instruction.contains(QStringLiteral(", ")));
    QCOMPARE(comparableInstruction(instruction), comparableInstruction(objdumpTextAtRunTime(store[0].text, pieBias)));
    QCOMPARE(rest.mid(closing + 2), QStringLiteral("counter,11111111,")); // no before bytes
    // The other three writes of that instruction: same code columns, their own region and value.
    const QString code = rows[1].section(u',', 6, 9 + int(instruction.count(u',')));
    for (const auto &[row, region] : { std::pair { 2, QStringLiteral("table+0x3,22,") },
             std::pair { 3, QStringLiteral("[stack],3333333333333333,") },
             std::pair { 4, QStringLiteral("[heap],4444444444444444,") } })
        QVERIFY2(rows[row].endsWith(u',' + code + u',' + region), qPrintable(rows[row]));

    // The table: the same cells, aligned, the context after the six columns.
    const CliResult table = runCli({ QStringLiteral("query"), m_history, QStringLiteral("--context") });
    QCOMPARE(table.exitCode, 0);
    const QStringList tableRows = lines(table.out);
    QCOMPARE(tableRows.size(), 6);
    QVERIFY(tableRows[0].startsWith(QStringLiteral("rowid  transition  op")));
    const qsizetype regionColumn = tableRows[0].indexOf(QStringLiteral("region"));
    QCOMPARE(tableRows[1].mid(regionColumn).section(u' ', 0, 0), QStringLiteral("counter"));
    QCOMPARE(tableRows[3].mid(regionColumn).section(u' ', 0, 0), QStringLiteral("[stack]"));
    QVERIFY(tableRows[1].contains(instruction));
    QCOMPARE(tableRows[5], QStringLiteral("-- 4 rows"));
}

void tst_ContextCli::exportWithContextEqualsTheQuery()
{
    const QString output = path(QStringLiteral("context.csv"));
    const CliResult result = runCli({ QStringLiteral("export"), m_history, QStringLiteral("-o"), output,
        QStringLiteral("--context"), QStringLiteral("--ops"), QStringLiteral("w") });
    QCOMPARE(result.exitCode, 0);
    QCOMPARE(result.out, QByteArray("wrote 4 rows to ") + output.toUtf8() + '\n');
    QCOMPARE(readFile(output),
        cliOutput({ QStringLiteral("query"), m_history, QStringLiteral("--context"), QStringLiteral("--ops"),
            QStringLiteral("w"), QStringLiteral("--format"), QStringLiteral("csv") }));
}

void tst_ContextCli::contextColumnsOfAHistoryWithoutContext()
{
    // PCs only (a Lackey log): the pc column, nothing else; no value column.
    const QStringList rows = lines(cliOutput({ QStringLiteral("query"), m_lackeyHistory, QStringLiteral("--context"),
        QStringLiteral("--limit"), QStringLiteral("2"), QStringLiteral("--format"), QStringLiteral("csv") }));
    QCOMPARE(rows,
        (QStringList { QStringLiteral("rowid,transition,operation,address,linear,size,pc,function,source,instruction,"
                                      "region"),
            QStringLiteral("1,1,W,0x1fff000608,0x1fff000608,8,0x401ab73,,,,"),
            QStringLiteral("2,2,W,0x1fff000600,0x1fff000600,8,0x401b770,,,,") }));

    // No context tables at all (another writer's file): empty cells.
    const QString foreign = path(QStringLiteral("foreign.memhist"));
    QVERIFY(writeForeignDatabase(foreign, { { 5, 5 } }, { { 1, 0x1000, 0x1003, Operation::Read } },
        { { 1, 5, 0x1000, 0x1000, 4, Operation::Read } }));
    QCOMPARE(lines(cliOutput({ QStringLiteral("query"), foreign, QStringLiteral("--context"),
                 QStringLiteral("--format"), QStringLiteral("csv") })),
        (QStringList { QStringLiteral("rowid,transition,operation,address,linear,size,pc,function,source,instruction,"
                                      "region"),
            QStringLiteral("1,5,R,0x1000,0x1000,4,,,,,") }));
}

void tst_ContextCli::executionsOfAPc()
{
    // 0x401b770 (an early instruction of ld.so in the log) and every time it ran.
    const std::uint64_t pc = 0x401b770;
    const QList<quint64> all = transitionsOf(m_lackeyLog, pc);
    QVERIFY(all.size() >= 1);
    const auto expected = [&](const QList<quint64> &transitions) {
        QStringList text { QStringLiteral("transition,thread,pc,function,source") };
        for (const quint64 transition : transitions)
            text << QStringLiteral("%1,,0x401b770,,").arg(transition);
        return text;
    };
    QCOMPARE(
        lines(cliOutput({ QStringLiteral("query"), m_lackeyHistory, QStringLiteral("--pc"), hex(pc),
            QStringLiteral("--format"), QStringLiteral("csv"), QStringLiteral("--limit"), QStringLiteral("1000") })),
        expected(all));

    // A PC that ran often, in pages: forward with --resume, and backward from the end.
    QHash<quint64, QList<quint64>> byPc;
    {
        const ToolRun run = runTool(QStringLiteral("gzip"), { QStringLiteral("-dcf"), m_lackeyLog });
        quint64 transition = 0;
        for (const QByteArray &line : run.out.split('\n')) {
            if (line.startsWith("I  "))
                byPc[line.mid(3, line.indexOf(',') - 3).toULongLong(nullptr, 16)] << transition++;
        }
    }
    quint64 busiest = 0;
    for (auto it = byPc.cbegin(); it != byPc.cend(); ++it) {
        if (it->size() > byPc.value(busiest).size())
            busiest = it.key();
    }
    const QList<quint64> busy = byPc.value(busiest);
    QVERIFY(busy.size() > 20);
    const QStringList first = lines(cliOutput({ QStringLiteral("query"), m_lackeyHistory, QStringLiteral("--pc"),
        hex(busiest), QStringLiteral("--limit"), QStringLiteral("3") }));
    QCOMPARE(first.size(), 5);
    QCOMPARE(first[0].split(u' ', Qt::SkipEmptyParts), strings({ "transition", "pc", "function", "source" }));
    QCOMPARE(first[1].split(u' ', Qt::SkipEmptyParts).value(0), QString::number(busy[0]));
    QCOMPARE(first[3].split(u' ', Qt::SkipEmptyParts).value(0), QString::number(busy[2]));
    QCOMPARE(first[4], QStringLiteral("-- 3 executions; next page: --resume %1").arg(busy[2]));
    const QStringList second = lines(cliOutput({ QStringLiteral("query"), m_lackeyHistory, QStringLiteral("--pc"),
        hex(busiest), QStringLiteral("--limit"), QStringLiteral("3"), QStringLiteral("--resume"),
        QString::number(busy[2]), QStringLiteral("--format"), QStringLiteral("csv") }));
    QCOMPARE(second.size(), 4);
    QCOMPARE(second[1].section(u',', 0, 0), QString::number(busy[3]));
    QCOMPARE(second[3].section(u',', 0, 0), QString::number(busy[5]));
    // With --at too, both hold: the later of the two starts.
    const auto firstExecution = [&](quint64 at, quint64 resume) {
        const QStringList rows = lines(cliOutput({ QStringLiteral("query"), m_lackeyHistory, QStringLiteral("--pc"),
            hex(busiest), QStringLiteral("--limit"), QStringLiteral("1"), QStringLiteral("--at"), QString::number(at),
            QStringLiteral("--resume"), QString::number(resume), QStringLiteral("--format"), QStringLiteral("csv") }));
        return rows.value(1).section(u',', 0, 0);
    };
    QCOMPARE(firstExecution(busy[4], busy[1]), QString::number(busy[4]));
    QCOMPARE(firstExecution(busy[1], busy[2]), QString::number(busy[3]));
    const QStringList backward = lines(cliOutput(
        { QStringLiteral("query"), m_lackeyHistory, QStringLiteral("--pc"), hex(busiest), QStringLiteral("--backward"),
            QStringLiteral("--limit"), QStringLiteral("2"), QStringLiteral("--format"), QStringLiteral("csv") }));
    QCOMPARE(backward.size(), 3);
    QCOMPARE(backward[1].section(u',', 0, 0), QString::number(busy.last()));
    QCOMPARE(backward[2].section(u',', 0, 0), QString::number(busy[busy.size() - 2]));
    const QStringList before = lines(cliOutput(
        { QStringLiteral("query"), m_lackeyHistory, QStringLiteral("--pc"), hex(busiest), QStringLiteral("--backward"),
            QStringLiteral("--at"), QString::number(busy[4] - 1), QStringLiteral("--format"), QStringLiteral("csv") }));
    QCOMPARE(before.size(), 5);
    QCOMPARE(before[1].section(u',', 0, 0), QString::number(busy[3]));
    QCOMPARE(before[4].section(u',', 0, 0), QString::number(busy[0]));
    // A PC that never ran: no rows, success.
    QCOMPARE(lines(cliOutput(
                 { QStringLiteral("query"), m_lackeyHistory, QStringLiteral("--pc"), QStringLiteral("0x12345") })),
        (QStringList { QStringLiteral("transition  pc  function  source"), QStringLiteral("-- 0 executions") }));
}

void tst_ContextCli::callsOfAFunction()
{
    const auto bump = nmSymbol(m_program, QStringLiteral("bump"));
    const QStringList rows = lines(cliOutput({ QStringLiteral("query"), m_history, QStringLiteral("--function"),
        QStringLiteral("bump"), QStringLiteral("--format"), QStringLiteral("csv") }));
    QCOMPARE(rows,
        (QStringList { QStringLiteral("transition,thread,pc,function,source"),
            QStringLiteral("%1,,%2,bump,%3")
                .arg(m_counter.bumpEntryTransition)
                .arg(hex(bump->address + pieBias), addr2line(m_program, bump->address)) }));
}

void tst_ContextCli::executionQueryErrors_data()
{
    QTest::addColumn<QStringList>("arguments"); // after "query DB"
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("error"); // the first line of stderr; DB stands for the history's path
    QTest::newRow("--pc with --from") << strings({ "--pc", "0x1000", "--from", "0x10" }) << 2
                                      << "memhist query: --from does not apply to --pc or --function (they list "
                                         "transitions, not accesses)";
    QTest::newRow("--function with --context")
        << strings({ "--function", "bump", "--context" }) << 2
        << "memhist query: --context does not apply to --pc or --function (they list transitions, not accesses)";
    QTest::newRow("--pc and --function") << strings({ "--pc", "0x1000", "--function", "bump" }) << 2
                                         << "memhist query: give --pc or --function, not both";
    QTest::newRow("--pc not a number") << strings({ "--pc", "main" }) << 2
                                       << "memhist query: --pc: 'main' is not a number (decimal or 0x hex)";
    QTest::newRow("a function that never ran") << strings({ "--function", "printf" }) << 1
                                               << "DB: no function named 'printf' ran (the history names only the "
                                                  "functions that ran)";
}

void tst_ContextCli::executionQueryErrors()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, exitCode);
    QFETCH(QString, error);
    const CliResult result = runCli(QStringList { QStringLiteral("query"), m_history } + arguments);
    QCOMPARE(result.exitCode, exitCode);
    QCOMPARE(result.out, QByteArray());
    QCOMPARE(lines(result.err).value(0), QString(error).replace(QStringLiteral("DB"), m_history));
}

void tst_ContextCli::describeATransition()
{
    const std::uint64_t elfPc = m_counter.storePc - pieBias;
    const auto bump = nmSymbol(m_program, QStringLiteral("bump"));
    const QList<ObjdumpInstruction> store = instructionsIn(objdumpInstructions(m_program), elfPc, 1);
    QCOMPARE(store.size(), 1);
    const CliResult result = runCli({ QStringLiteral("at"), m_history, QString::number(m_counter.storeTransition) });
    QCOMPARE(result.exitCode, 0);
    const QStringList text = lines(result.out);
    QCOMPARE(text.size(), 12);
    QCOMPARE(text[0], QStringLiteral("transition:  %1").arg(m_counter.storeTransition));
    QCOMPARE(text[1], QStringLiteral("pc:          ") + hex(m_counter.storePc));
    QCOMPARE(text[2], QStringLiteral("module:      counter+") + hex(elfPc));
    QCOMPARE(text[3], QStringLiteral("function:    bump+") + hex(elfPc - bump->address));
    QCOMPARE(text[4], QStringLiteral("source:      ") + addr2line(m_program, elfPc));
    QVERIFY(text[5].startsWith(QStringLiteral("instruction: ")));
    const QString instruction = text[5].mid(13).section(QStringLiteral(" ("), 0, 0);
    QCOMPARE(comparableInstruction(instruction), comparableInstruction(objdumpTextAtRunTime(store[0].text, pieBias)));
    QVERIFY(text[5].endsWith(QStringLiteral(" (") + QString::fromLatin1(store[0].bytes.toHex(' ')) + u')'));
    QCOMPARE(text[6], QStringLiteral("accesses:    4"));
    QCOMPARE(text[7].split(u' ', Qt::SkipEmptyParts),
        strings({ "rowid", "op", "address", "size", "region", "value", "before" }));
    QCOMPARE(text[8].split(u' ', Qt::SkipEmptyParts),
        (QStringList { QStringLiteral("1"), QStringLiteral("W"), hex(m_counter.counterAddress), QStringLiteral("4"),
            QStringLiteral("counter"), QStringLiteral("11111111") }));
    QCOMPARE(text[9].split(u' ', Qt::SkipEmptyParts).value(4), QStringLiteral("table+0x3"));
    QCOMPARE(text[10].split(u' ', Qt::SkipEmptyParts).value(4), QStringLiteral("[stack]"));
    QCOMPARE(text[11].split(u' ', Qt::SkipEmptyParts).value(4), QStringLiteral("[heap]"));

    // A transition without accesses.
    QCOMPARE(lines(cliOutput({ QStringLiteral("at"), m_history, QStringLiteral("0") })).value(6),
        QStringLiteral("accesses:    0"));
}

void tst_ContextCli::describeATransitionWithoutPcs()
{
    const QString foreign = path(QStringLiteral("foreign-at.memhist"));
    QVERIFY(writeForeignDatabase(foreign, { { 5, 5 } }, { { 1, 0x1000, 0x1003, Operation::Read } },
        { { 1, 5, 0x1000, 0x1000, 4, Operation::Read } }));
    QCOMPARE(lines(cliOutput({ QStringLiteral("at"), foreign, QStringLiteral("5") })),
        (QStringList { QStringLiteral("transition:  5"),
            QStringLiteral("pc:          unknown (the history has no PCs; context: none)"),
            QStringLiteral("accesses:    1"), QStringLiteral("  rowid  op  address  size  region"),
            QStringLiteral("      1  R    0x1000     4") }));
    const CliResult bad = runCli({ QStringLiteral("at"), foreign, QStringLiteral("five") });
    QCOMPARE(bad.exitCode, 2);
    QCOMPARE(lines(bad.err).value(0), QStringLiteral("memhist at: T: 'five' is not a number (decimal or 0x hex)"));
    const CliResult missing = runCli({ QStringLiteral("at"), foreign });
    QCOMPARE(missing.exitCode, 2);
    QCOMPARE(lines(missing.err).value(0), QStringLiteral("memhist at: missing the transition argument (T)"));
}

void tst_ContextCli::infoListsContextAndModules()
{
    const QStringList text = lines(cliOutput({ QStringLiteral("info"), m_history }));
    QVERIFY(text.contains(QStringLiteral("context:          pcs, map, modules, symbols, lines, disassembly, values")));
    const qsizetype modules
        = text.indexOf(QStringLiteral("modules:          1 (path, load bias, build-id, transitions)"));
    QVERIFY(modules > 0);
    QCOMPARE(text.value(modules + 1),
        QString(18, u' ')
            + QStringLiteral("%1  0x%2  %3  0..%4")
                  .arg(m_program, QString::number(pieBias, 16), readelfBuildId(m_program))
                  .arg(m_counter.instructions - 1));
    QVERIFY(lines(cliOutput({ QStringLiteral("info"), m_lackeyHistory }))
                .contains(QStringLiteral("context:          pcs only (no memory map or modules: no symbols)")));
}

void tst_ContextCli::importSaysWhatContextItStored()
{
    const QString output = path(QStringLiteral("summary.memhist"));
    const QStringList text = lines(cliOutput({ QStringLiteral("import"), m_lackeyLog, QStringLiteral("-o"), output }));
    QCOMPARE(text.last(), QStringLiteral("context: pcs only (no memory map or modules: no symbols)"));
    // A CSV trace has no instructions: no context.
    const QString csv = path(QStringLiteral("plain.csv"));
    QFile file(csv);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("rowid,transition,operation,address,linear,size\n,0,R,0x1000,0x1000,4\n");
    file.close();
    QCOMPARE(
        lines(cliOutput({ QStringLiteral("import"), csv, QStringLiteral("-o"), path(QStringLiteral("plain.memhist")) }))
            .last(),
        QStringLiteral("context: none"));
}

QTEST_GUILESS_MAIN(tst_ContextCli)
#include "tst_contextcli.moc"
