// SPDX-License-Identifier: MIT
// The program context of valgrind-based input: `memhist record` of small programs compiled here
// (gcc -g) gives every access its function, source line, instruction and region, checked against
// nm, addr2line and objdump; the stack, the heap and mmap()ed memory are named; C++ names are demangled; a library
// dlopen()ed halfway is a module from its load to its dlclose(); a stripped binary gives
// module+offset. Lackey logs: without valgrind's verbose lines PCs only, with them (a log kept by
// record) the same context, with --maps the map and symbols; bad maps files and a verbose line
// naming a missing file. Skipped when valgrind is missing.
#include "core/storage/sqlite.h"
#include "programhistory.h"
#include "testsupport.h"
#include "toolchain.h"

#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>

using namespace memhist;
using namespace memhist::test;

namespace {

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

// One CSV row split as RFC 4180 quotes it.
QStringList csvFields(const QString &row)
{
    QStringList fields;
    QString field;
    bool quoted = false;
    for (qsizetype i = 0; i < row.size(); ++i) {
        const QChar c = row[i];
        if (quoted) {
            if (c == u'"' && i + 1 < row.size() && row[i + 1] == u'"') {
                field += u'"';
                ++i;
            } else if (c == u'"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == u'"') {
            quoted = true;
        } else if (c == u',') {
            fields << field;
            field.clear();
        } else {
            field += c;
        }
    }
    fields << field;
    return fields;
}

enum Column { TransitionColumn = 1, Address = 3, Pc = 6, Function = 7, Source = 8, Instruction = 9, Region = 10 };

// An object valgrind announced in a kept log: its bias and the transitions it was loaded for.
struct AnnouncedLoad
{
    std::uint64_t bias = 0;
    std::uint64_t first = 0; // the transition of the next instruction after "Reading syms from"
    std::optional<std::uint64_t> last; // before the instruction after "Discarding syms"
};

// The objects of a Lackey log from valgrind -v -v, by path (valgrind's own tool left out), and the
// transitions of the `I` lines by PC.
struct KeptLog
{
    QMap<QString, AnnouncedLoad> loads;
    QHash<std::uint64_t, QList<std::uint64_t>> transitionsOfPc;
};

KeptLog readKeptLog(const QString &path)
{
    KeptLog log;
    std::uint64_t transition = 0;
    QString pending;
    static const QRegularExpression reading(QStringLiteral("Reading syms from (\\S+)"));
    static const QRegularExpression avma(QStringLiteral("svma (0x[0-9a-f]+), avma (0x[0-9a-f]+)"));
    static const QRegularExpression discarding(QStringLiteral("Discarding syms at \\S+ in (\\S+)"));
    for (const QByteArray &line : readFile(path).split('\n')) {
        if (line.startsWith("I  ")) {
            log.transitionsOfPc[line.mid(3, line.indexOf(',') - 3).toULongLong(nullptr, 16)] << transition++;
            continue;
        }
        const QString text = QString::fromUtf8(line);
        if (const QRegularExpressionMatch match = reading.match(text); match.hasMatch()) {
            pending = match.captured(1);
        } else if (const QRegularExpressionMatch match = avma.match(text); match.hasMatch() && !pending.isEmpty()) {
            if (!pending.contains(QStringLiteral("/valgrind/")) || pending.contains(QStringLiteral("vgpreload_"))) {
                log.loads[pending] = AnnouncedLoad { match.captured(2).toULongLong(nullptr, 16)
                        - match.captured(1).toULongLong(nullptr, 16),
                    transition, std::nullopt };
            }
            pending.clear();
        }
        if (const QRegularExpressionMatch match = discarding.match(text); match.hasMatch())
            log.loads[match.captured(1)].last = transition - 1;
    }
    return log;
}

// The rows of a query with --context, as fields, without the header.
QList<QStringList> contextRows(const QString &history, const QStringList &arguments)
{
    QList<QStringList> rows;
    const QStringList text = lines(cliOutput(
        QStringList { QStringLiteral("query"), history, QStringLiteral("--context"), QStringLiteral("--format"),
            QStringLiteral("csv"), QStringLiteral("--limit"), QStringLiteral("1000000") }
        + arguments));
    for (qsizetype i = 1; i < text.size(); ++i)
        rows << csvFields(text[i]);
    return rows;
}

QList<QStringList> rowsWhere(const QList<QStringList> &rows, Column column, const QString &value)
{
    QList<QStringList> found;
    for (const QStringList &row : rows) {
        if (row.value(column) == value)
            found << row;
    }
    return found;
}

} // namespace

class tst_RecordContext : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void globalWriteHasItsFunctionLineInstructionAndName();
    void frameWritesAreTheStackAndMallocWritesTheHeap();
    void cppFunctionsAreDemangled();
    void libraryOpenedHalfwayIsAModuleFromItsLoad();
    void strippedBinaryGivesModuleAndOffset();
    void lackeyLogWithoutVerboseLinesHasPcsOnly();
    void lackeyLogWithVerboseLinesHasTheRecordingsContext();
    void lackeyLogWithMapsHasSymbols();
    void badMapsFiles_data();
    void badMapsFiles();
    void verboseLineNamingAMissingFile();

private:
    QString path(const QString &name) const { return m_dir.filePath(name); }
    bool record(const QString &program, const QString &history, const QString &log, QStringList *summary = nullptr);
    // The write to `counter` in regions.c's bump, from `history`.
    QStringList counterWrite(const QString &history, const QString &binary);

    QTemporaryDir m_dir;
    QString m_regions;
    QString m_history;
    QString m_log;
    QStringList m_summary;
    KeptLog m_kept;
};

bool tst_RecordContext::record(const QString &program, const QString &history, const QString &log, QStringList *summary)
{
    const CliResult result
        = runCli({ QStringLiteral("record"), QStringLiteral("-o"), history, QStringLiteral("--backend"),
            QStringLiteral("lackey"), QStringLiteral("--keep-log"), log, QStringLiteral("--"), program });
    if (summary)
        *summary = lines(result.err);
    if (result.exitCode != 0)
        qWarning().noquote() << result.err;
    return result.exitCode == 0;
}

void tst_RecordContext::initTestCase()
{
    if (QStandardPaths::findExecutable(QStringLiteral("valgrind")).isEmpty())
        QSKIP("valgrind is not installed");
    QVERIFY(m_dir.isValid());
    for (const char *name : { "regions.c", "shapes.cpp", "shared.c", "loader.c" }) {
        const QString file = QString::fromLatin1(name);
        QVERIFY(QFile::copy(QFINDTESTDATA(QStringLiteral("data/programs/") + file), path(file)));
    }
    QVERIFY(runStep(QStringLiteral("gcc"), { "-g", "-O0", "-o", "regions", "regions.c" }, m_dir.path()));
    QVERIFY(runStep(QStringLiteral("cp"), { "regions", "regions-stripped" }, m_dir.path()));
    QVERIFY(runStep(QStringLiteral("strip"), { "regions-stripped" }, m_dir.path()));
    QVERIFY(runStep(QStringLiteral("g++"), { "-g", "-O0", "-o", "shapes", "shapes.cpp" }, m_dir.path()));
    QVERIFY(
        runStep(QStringLiteral("gcc"), { "-g", "-shared", "-fPIC", "-o", "libshared.so", "shared.c" }, m_dir.path()));
    QVERIFY(runStep(QStringLiteral("gcc"), { "-g", "-O0", "-o", "loader", "loader.c", "-ldl" }, m_dir.path()));

    m_regions = path(QStringLiteral("regions"));
    m_history = path(QStringLiteral("regions.memhist"));
    m_log = path(QStringLiteral("regions.lackey"));
    QVERIFY(record(m_regions, m_history, m_log, &m_summary));
    m_kept = readKeptLog(m_log);
    QVERIFY2(m_kept.loads.contains(m_regions), qPrintable(m_kept.loads.keys().join(u' ')));
}

QStringList tst_RecordContext::counterWrite(const QString &history, const QString &binary)
{
    const auto counter = nmSymbol(m_regions, QStringLiteral("counter"));
    if (!counter)
        return {};
    const std::uint64_t address = counter->address + m_kept.loads.value(binary).bias;
    const QList<QStringList> rows = contextRows(history,
        { QStringLiteral("--ops"), QStringLiteral("w"), QStringLiteral("--from"), hex(address), QStringLiteral("--to"),
            hex(address + 3) });
    return rows.size() == 1 ? rows[0] : QStringList();
}

void tst_RecordContext::globalWriteHasItsFunctionLineInstructionAndName()
{
    QCOMPARE(m_summary.value(m_summary.size() - 1),
        QStringLiteral("memhist record: context: pcs, map, modules, symbols, lines, disassembly"));
    const std::uint64_t bias = m_kept.loads.value(m_regions).bias;
    const QStringList write = counterWrite(m_history, m_regions);
    QCOMPARE(write.size(), 11);
    const std::uint64_t pc = write[Pc].mid(2).toULongLong(nullptr, 16);
    const std::uint64_t elfPc = pc - bias;
    const auto bump = nmSymbol(m_regions, QStringLiteral("bump"));
    QVERIFY(bump && elfPc >= bump->address && elfPc < bump->address + bump->size);
    // The transition is the one at which the log ran that PC (bump runs once).
    QCOMPARE(m_kept.transitionsOfPc.value(pc),
        QList<std::uint64_t>({ std::uint64_t(write[TransitionColumn].toULongLong()) }));
    QCOMPARE(write[Function], QStringLiteral("bump+") + hex(elfPc - bump->address));
    const QString line = QStringLiteral("%1:%2")
                             .arg(path(QStringLiteral("regions.c")))
                             .arg(markedLine(path(QStringLiteral("regions.c")), QStringLiteral("counter")));
    QCOMPARE(write[Source], line);
    QCOMPARE(addr2line(m_regions, elfPc), line);
    const QList<ObjdumpInstruction> store = instructionsIn(objdumpInstructions(m_regions), elfPc, 1);
    QCOMPARE(store.size(), 1);
    QCOMPARE(write[Instruction].section(u' ', 0, 0), store[0].text.section(u' ', 0, 0));
    QCOMPARE(
        comparableInstruction(write[Instruction]), comparableInstruction(objdumpTextAtRunTime(store[0].text, bias)));
    QCOMPARE(write[Region], QStringLiteral("counter"));

    // memhist at says the same.
    const QStringList at = lines(cliOutput({ QStringLiteral("at"), m_history, write[TransitionColumn] }));
    QVERIFY(at.contains(QStringLiteral("function:    ") + write[Function]));
    QVERIFY(at.contains(QStringLiteral("source:      ") + line));
    QVERIFY(at.contains(QStringLiteral("module:      regions+") + hex(elfPc)));
}

void tst_RecordContext::frameWritesAreTheStackAndMallocWritesTheHeap()
{
    const QList<QStringList> writes = contextRows(m_history, { QStringLiteral("--ops"), QStringLiteral("w") });
    const QString source = path(QStringLiteral("regions.c")) + u':';
    const QList<QStringList> frame = rowsWhere(writes, Source,
        source + QString::number(markedLine(path(QStringLiteral("regions.c")), QStringLiteral("frame"))));
    QCOMPARE(frame.size(), 1);
    QCOMPARE(frame[0][Region], QStringLiteral("[stack]"));
    const QList<QStringList> heap = rowsWhere(writes, Source,
        source + QString::number(markedLine(path(QStringLiteral("regions.c")), QStringLiteral("heap"))));
    QCOMPARE(heap.size(), 1);
    QCOMPARE(heap[0][Region], QStringLiteral("[heap]"));
    const QList<QStringList> mapped = rowsWhere(writes, Source,
        source + QString::number(markedLine(path(QStringLiteral("regions.c")), QStringLiteral("mapped"))));
    QCOMPARE(mapped.size(), 1);
    QCOMPARE(mapped[0][Region], QStringLiteral("[anon]"));
    // Every write of the program's own code is named: its frames, its heap block, its global.
    int named = 0;
    for (const QStringList &row : writes) {
        if (row[Source].startsWith(source)) {
            QVERIFY2(!row[Region].isEmpty(), qPrintable(row.join(u',')));
            ++named;
        }
    }
    QVERIFY(named >= 4);
}

void tst_RecordContext::cppFunctionsAreDemangled()
{
    const QString history = path(QStringLiteral("shapes.memhist"));
    QVERIFY(record(path(QStringLiteral("shapes")), history, path(QStringLiteral("shapes.lackey"))));
    for (const QString &name :
        { QStringLiteral("geometry::Rectangle::area() const"), QStringLiteral("int geometry::twice<int>(int)"),
            QStringLiteral("double geometry::twice<double>(double)") }) {
        const QStringList rows = lines(cliOutput({ QStringLiteral("query"), history, QStringLiteral("--function"), name,
            QStringLiteral("--format"), QStringLiteral("csv") }));
        QCOMPARE(rows.size(), 2);
        QCOMPARE(csvFields(rows[1]).value(3), name);
    }
}

void tst_RecordContext::libraryOpenedHalfwayIsAModuleFromItsLoad()
{
    const QString history = path(QStringLiteral("loader.memhist"));
    const QString log = path(QStringLiteral("loader.lackey"));
    // loader opens ./libshared.so: run it from its folder.
    QVERIFY(QDir::setCurrent(m_dir.path()));
    QVERIFY(record(path(QStringLiteral("loader")), history, log));
    const KeptLog kept = readKeptLog(log);
    const QString library = path(QStringLiteral("libshared.so"));
    QVERIFY(kept.loads.contains(library));
    const AnnouncedLoad load = kept.loads.value(library);
    QVERIFY(load.first > 0 && load.last && *load.last > load.first);

    const QStringList info = lines(cliOutput({ QStringLiteral("info"), history }));
    QVERIFY(info.contains(QString(18, u' ')
        + QStringLiteral("%1  %2  %3  %4..%5")
              .arg(library, hex(load.bias), readelfBuildId(library))
              .arg(load.first)
              .arg(*load.last)));
    // Its function ran in its lifetime, and its global is named.
    const QStringList calls = lines(cliOutput({ QStringLiteral("query"), history, QStringLiteral("--function"),
        QStringLiteral("shared_add"), QStringLiteral("--format"), QStringLiteral("csv") }));
    QCOMPARE(calls.size(), 2);
    const std::uint64_t call = csvFields(calls[1]).value(0).toULongLong();
    QVERIFY(call > load.first && call < *load.last);
    const auto total = nmSymbol(library, QStringLiteral("shared_total"));
    QVERIFY(total);
    const QList<QStringList> writes = contextRows(history,
        { QStringLiteral("--ops"), QStringLiteral("w"), QStringLiteral("--from"), hex(total->address + load.bias),
            QStringLiteral("--to"), hex(total->address + load.bias + 3) });
    // shared_add's own write (the others touch the bytes beside it: crtstuff's completed.0).
    QList<QStringList> own;
    for (const QStringList &row : writes) {
        if (row[Function].startsWith(QStringLiteral("shared_add+")))
            own << row;
    }
    QCOMPARE(own.size(), 1);
    QCOMPARE(own[0][Region], QStringLiteral("shared_total"));
    QCOMPARE(own[0][Source],
        QStringLiteral("%1:%2")
            .arg(path(QStringLiteral("shared.c")))
            .arg(markedLine(path(QStringLiteral("shared.c")), QStringLiteral("shared_total"))));
    // Before its load, the same addresses were no part of it.
    const QStringList before = lines(cliOutput({ QStringLiteral("at"), history, QString::number(load.first - 1) }));
    QVERIFY(!before.join(u'\n').contains(QStringLiteral("libshared")));
}

void tst_RecordContext::strippedBinaryGivesModuleAndOffset()
{
    const QString binary = path(QStringLiteral("regions-stripped"));
    const QString history = path(QStringLiteral("stripped.memhist"));
    const QString log = path(QStringLiteral("stripped.lackey"));
    QVERIFY(record(binary, history, log));
    const KeptLog kept = readKeptLog(log);
    const std::uint64_t bias = kept.loads.value(binary).bias;
    QCOMPARE(bias, m_kept.loads.value(m_regions).bias);
    const std::uint64_t address = nmSymbol(m_regions, QStringLiteral("counter"))->address + bias;
    const QList<QStringList> rows = contextRows(history,
        { QStringLiteral("--ops"), QStringLiteral("w"), QStringLiteral("--from"), hex(address), QStringLiteral("--to"),
            hex(address + 3) });
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows[0][Function], QString());
    QCOMPARE(rows[0][Source], QString());
    QCOMPARE(rows[0][Region], QStringLiteral("regions-stripped .bss"));
    const std::uint64_t elfPc = rows[0][Pc].mid(2).toULongLong(nullptr, 16) - bias;
    const QStringList at = lines(cliOutput({ QStringLiteral("at"), history, rows[0][TransitionColumn] }));
    QVERIFY(at.contains(QStringLiteral("module:      regions-stripped+") + hex(elfPc)));
    QVERIFY(at.contains(QStringLiteral("function:    unknown")));
}

void tst_RecordContext::lackeyLogWithoutVerboseLinesHasPcsOnly()
{
    const QString log = path(QStringLiteral("plain.lackey"));
    QVERIFY(runStep(QStringLiteral("valgrind"),
        { QStringLiteral("--tool=lackey"), QStringLiteral("--trace-mem=yes"), QStringLiteral("--log-file=") + log,
            m_regions }));
    const QString history = path(QStringLiteral("plain.memhist"));
    const QStringList summary = lines(cliOutput({ QStringLiteral("import"), log, QStringLiteral("-o"), history }));
    QCOMPARE(summary.last(), QStringLiteral("context: pcs only (no memory map or modules: no symbols)"));
    const QStringList write = counterWrite(history, m_regions);
    QCOMPARE(write.size(), 11);
    QCOMPARE(write.mid(Pc), (QStringList { counterWrite(m_history, m_regions)[Pc], {}, {}, {}, {} }));
}

void tst_RecordContext::lackeyLogWithVerboseLinesHasTheRecordingsContext()
{
    const QString history = path(QStringLiteral("kept.memhist"));
    const QStringList summary = lines(cliOutput({ QStringLiteral("import"), m_log, QStringLiteral("-o"), history }));
    QCOMPARE(summary.last(), QStringLiteral("context: pcs, map, modules, symbols, lines, disassembly"));
    QCOMPARE(counterWrite(history, m_regions), counterWrite(m_history, m_regions));
    // The heap comes from the log's brk() lines; the stack from the line the recorder added to the
    // log it kept (clientstacksink.h): every write, the stack's included, reads the same.
    const QList<QStringList> recorded = contextRows(m_history, { QStringLiteral("--ops"), QStringLiteral("w") });
    const QList<QStringList> imported = contextRows(history, { QStringLiteral("--ops"), QStringLiteral("w") });
    QVERIFY(std::any_of(recorded.cbegin(), recorded.cend(),
        [](const QStringList &row) { return row[Region] == QLatin1String("[stack]"); }));
    QCOMPARE(imported, recorded);
    const QByteArray log = readFile(m_log);
    QCOMPARE(log.count("memhist record: client stack 0x"), 1);
    // The whole memory map over time, row for row.
    const auto mapOf = [](const QString &path) {
        QStringList rows;
        sqlite::Connection db;
        if (!db.open(path, sqlite::Connection::Mode::ReadOnly))
            return QStringList { QStringLiteral("cannot open ") + path };
        sqlite::Statement select = db.prepare("SELECT transition_first, transition_last, addr_first, addr_last, "
                                              "permissions, file_offset, path FROM memory_map ORDER BY "
                                              "transition_first, addr_first");
        while (select.step() == SQLITE_ROW) {
            QStringList row;
            for (int column = 0; column < 7; ++column)
                row << select.text(column);
            rows << row.join(u' ');
        }
        return rows;
    };
    const QStringList recordedMap = mapOf(m_history);
    QVERIFY(recordedMap.filter(QStringLiteral(" [stack]")).size() == 1);
    QCOMPARE(mapOf(history), recordedMap);
}

void tst_RecordContext::lackeyLogWithMapsHasSymbols()
{
    // A /proc/PID/maps dump of the valgrind process as it ran regions: every object valgrind
    // loaded for it, where it loaded them (the same places in every run of the same program).
    QByteArray maps;
    for (auto it = m_kept.loads.cbegin(); it != m_kept.loads.cend(); ++it) {
        for (const Mapping &mapping : loadMappings(it.key(), it->bias)) {
            maps += QStringLiteral("%1-%2 %3 %4 fe:00 1234 %5\n")
                        .arg(QString::number(mapping.first.value, 16), QString::number(mapping.last.value + 1, 16),
                            mapping.permissions, QString::number(mapping.fileOffset, 16), mapping.path)
                        .toUtf8();
        }
    }
    const QString mapsFile = path(QStringLiteral("regions.maps"));
    QFile file(mapsFile);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(maps);
    file.close();
    const QString log = path(QStringLiteral("plain-for-maps.lackey"));
    QVERIFY(runStep(QStringLiteral("valgrind"),
        { QStringLiteral("--tool=lackey"), QStringLiteral("--trace-mem=yes"), QStringLiteral("--log-file=") + log,
            m_regions }));
    const QString history = path(QStringLiteral("maps.memhist"));
    const QStringList summary = lines(cliOutput(
        { QStringLiteral("import"), log, QStringLiteral("--maps"), mapsFile, QStringLiteral("-o"), history }));
    QCOMPARE(summary.last(), QStringLiteral("context: pcs, map, modules, symbols, lines, disassembly"));
    const QStringList write = counterWrite(history, m_regions);
    QCOMPARE(write.mid(Pc), counterWrite(m_history, m_regions).mid(Pc));
}

void tst_RecordContext::badMapsFiles_data()
{
    QTest::addColumn<QByteArray>("maps");
    QTest::addColumn<QString>("error"); // MAPS stands for the file's path
    const QByteArray good = "00108000-00109000 r--p 00000000 fe:00 12 /bin/true\n";
    QTest::newRow("address range not hex") << good + "00109000-0010z000 r-xp 00001000 fe:00 12 /bin/true\n"
                                           << "MAPS:2: '00109000-0010z000' is not an address range (START-END in hex)";
    QTest::newRow("permissions") << good + "00109000-0010a000 rwx 00001000 fe:00 12 /bin/true\n"
                                 << "MAPS:2: 'rwx' are not permissions (4 characters such as r-xp)";
    QTest::newRow("offset") << QByteArray("00108000-00109000 r--p 0x0g fe:00 12 /bin/true\n")
                            << "MAPS:1: '0x0g' is not a file offset (hex)";
    QTest::newRow("too few fields") << good + good + "00109000-0010a000 r-xp\n"
                                    << "MAPS:3: expected START-END PERMS OFFSET DEV INODE [PATH], found 2 fields";
}

void tst_RecordContext::badMapsFiles()
{
    QFETCH(QByteArray, maps);
    QFETCH(QString, error);
    const QString mapsFile = path(QStringLiteral("bad.maps"));
    QFile file(mapsFile);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(maps);
    file.close();
    const QString history = path(QStringLiteral("bad.memhist"));
    const CliResult result = runCli(
        { QStringLiteral("import"), m_log, QStringLiteral("--maps"), mapsFile, QStringLiteral("-o"), history });
    QCOMPARE(result.exitCode, 1);
    QCOMPARE(result.out, QByteArray());
    QCOMPARE(lines(result.err), QStringList { QString(error).replace(QStringLiteral("MAPS"), mapsFile) });
    QVERIFY(!QFile::exists(history));

    // A maps file that is not there.
    const QString missing = path(QStringLiteral("missing.maps"));
    const CliResult absent
        = runCli({ QStringLiteral("import"), m_log, QStringLiteral("--maps"), missing, QStringLiteral("-o"), history });
    QCOMPARE(absent.exitCode, 1);
    QCOMPARE(lines(absent.err), QStringList { missing + QStringLiteral(": cannot open: No such file or directory") });
    QVERIFY(!QFile::exists(history));
}

void tst_RecordContext::verboseLineNamingAMissingFile()
{
    // The executable's "Reading syms from" names a file that is not there (the log from another
    // machine): the import goes on, says so, and the other objects keep their symbols.
    QByteArray log = readFile(m_log);
    const QByteArray announcement = "Reading syms from " + m_regions.toUtf8() + '\n';
    QVERIFY(log.contains(announcement));
    log.replace(announcement, "Reading syms from /nonexistent/regions\n");
    const QString edited = path(QStringLiteral("missing-file.lackey"));
    QFile file(edited);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(log);
    file.close();
    const QString history = path(QStringLiteral("missing-file.memhist"));
    const CliResult result = runCli({ QStringLiteral("import"), edited, QStringLiteral("-o"), history });
    QCOMPARE(result.exitCode, 0);
    const QStringList summary = lines(result.out);
    QVERIFY(summary.contains(QStringLiteral("context: pcs, map, modules, symbols, lines, disassembly")));
    QVERIFY(summary.contains(QStringLiteral("context: no symbols for /nonexistent/regions: not found")));
    const QStringList write = counterWrite(history, m_regions);
    QCOMPARE(write.size(), 11);
    QCOMPARE(write[Function], QString());
    QVERIFY(!rowsWhere(
        contextRows(history, { QStringLiteral("--ops"), QStringLiteral("w") }), Region, QStringLiteral("[heap]"))
                 .isEmpty());
}

QTEST_GUILESS_MAIN(tst_RecordContext)
#include "tst_recordcontext.moc"
