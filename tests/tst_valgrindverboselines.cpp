// SPDX-License-Identifier: MIT
// Valgrind's verbose lines in a Lackey log (-v -v, --trace-syscalls=yes) as the parser turns them
// into the sink's context calls, exactly: a load with its bias, build-id and the mappings of its
// program headers at the transition of the next instruction; valgrind's own tool left out; a log
// from plain -v (no avma) and a missing file; a message inside a syscall line; "Discarding syms";
// the brk heap growing and shrinking; anonymous mmap and munmap; the client stack line of a log
// kept by memhist record; and how these lines are counted.
#include "core/importers/lackeyparser.h"
#include "programhistory.h"
#include "toolchain.h"

#include <QCoreApplication>
#include <QTest>

using namespace memhist;
using namespace memhist::test;

namespace {

QString hex(std::uint64_t value)
{
    return QStringLiteral("0x") + QString::number(value, 16);
}

// Writes each context call as one line of text.
class EventSink final : public AccessSink
{
public:
    QStringList events;

    bool add(const Access &) override { return true; }
    QString errorString() const override { return {}; }
    void addMapping(Transition from, const Mapping &mapping) override
    {
        events << QStringLiteral("map %1 %2-%3 %4 %5 %6")
                      .arg(QString::number(from.value), hex(mapping.first.value), hex(mapping.last.value),
                          mapping.permissions, hex(mapping.fileOffset), mapping.path);
    }
    void removeMapping(Transition from, Address first, Address last) override
    {
        events << QStringLiteral("unmap %1 %2-%3").arg(QString::number(from.value), hex(first.value), hex(last.value));
    }
    void addModule(const LoadedModule &module) override
    {
        events << QStringLiteral("module %1 %2 %3 %4")
                      .arg(module.path, hex(module.bias),
                          module.buildId.isEmpty() ? QStringLiteral("-") : module.buildId,
                          QString::number(module.first.value));
    }
};

// The events of a load of `binary` at `bias` announced at `from`: the module, then its mappings.
QStringList loadEvents(const QString &binary, std::uint64_t bias, std::uint64_t from, const QString &buildId = {})
{
    EventSink sink;
    LoadedModule module;
    module.path = binary;
    module.bias = bias;
    module.buildId = buildId;
    module.first = Transition { from };
    sink.addModule(module);
    for (const Mapping &mapping : loadMappings(binary, bias))
        sink.addMapping(Transition { from }, mapping);
    return sink.events;
}

QStringList parse(const QByteArray &log, ImportReport *report = nullptr)
{
    EventSink sink;
    LackeyParser parser(QStringLiteral("t.lackey"), sink, ImportOptions {});
    const qsizetype consumed = parser.parse(log.constData(), log.size());
    if (consumed < 0 || !parser.finish(QByteArrayView(log).sliced(consumed), false))
        return { parser.errorString() };
    if (report)
        parser.fillReport(report);
    return sink.events;
}

} // namespace

class tst_ValgrindVerboseLines : public QObject
{
    Q_OBJECT

private slots:
    void events_data();
    void events();
    void verboseLinesAreCountedAsValgrinds();
};

void tst_ValgrindVerboseLines::events_data()
{
    // This test's own executable: a file whose program headers readelf can tell.
    const QString binary = QCoreApplication::applicationFilePath();
    const QByteArray bin = binary.toUtf8();
    QTest::addColumn<QByteArray>("log");
    QTest::addColumn<QStringList>("expected");

    QTest::newRow("a load: bias from svma/avma, build-id from the debug file considered")
        << QByteArray("--7-- Reading syms from " + bin
               + "\n--7--    svma 0x0000001050, avma 0x0000109050\n"
                 "--7--   Considering /usr/lib/debug/.build-id/ab/cdef01.debug ..\n"
                 "--7--   .. build-id is valid\nI  00109050,4\n")
        << loadEvents(binary, 0x108000, 0, QStringLiteral("abcdef01"));
    QTest::newRow("announced after two instructions: from the third")
        << QByteArray("I  04000000,4\nI  04000004,4\n--7-- Reading syms from " + bin
               + "\n--7--    svma 0x0000001050, avma 0x0000109050\nI  04000008,4\n")
        << loadEvents(binary, 0x108000, 2);
    QTest::newRow("valgrind's own tool left out, its preload kept (not on disk: no mappings)")
        << QByteArray("--7-- Valgrind library directory: /nonexistent/valgrind\n"
                      "--7-- Reading syms from /nonexistent/valgrind/lackey-amd64-linux\n"
                      "--7--    svma 0x0058001000, avma 0x0058001000\n"
                      "--7-- Reading syms from /nonexistent/valgrind/vgpreload_core-amd64-linux.so\n"
                      "--7--    svma 0x0000001050, avma 0x0004838050\n")
        << QStringList { QStringLiteral("module /nonexistent/valgrind/vgpreload_core-amd64-linux.so 0x4837000 - 0") };
    QTest::newRow("plain -v: no avma, no module")
        << QByteArray("--7-- Reading syms from " + bin + "\nI  04000000,4\n") << QStringList();
    QTest::newRow("a load announced inside an mmap's syscall line") << QByteArray(
        "I  04000000,4\nSYSCALL[7,1](9) sys_mmap ( 0x10a000, 4096, 5, 2066, 3, 4096 )--7-- Reading syms "
        "from "
        + bin
        + "\n--7--    svma 0x0000001050, avma 0x0000109050\n --> [pre-success] Success(0x10a000) \n"
          "I  04000002,4\n") << loadEvents(binary, 0x108000, 1);
    // The munmap comes first: valgrind discards the object's symbols while it runs.
    QStringList discarded
        = loadEvents(binary, 0x108000, 0) + QStringList { QStringLiteral("unmap 2 0x4000000-0x4000fff") };
    for (const Mapping &mapping : loadMappings(binary, 0x108000))
        discarded << QStringLiteral("unmap 2 %1-%2").arg(hex(mapping.first.value), hex(mapping.last.value));
    QTest::newRow("Discarding syms ends its mappings") << QByteArray("--7-- Reading syms from " + bin
        + "\n--7--    svma 0x0000001050, avma 0x0000109050\nI  04000000,4\nI  04000004,4\n"
          "SYSCALL[7,1](11) sys_munmap ( 0x4000000, 16 )[sync] --> Success(0x0) --7-- Discarding syms at "
          "0x109050-0x109100 in "
        + bin + " (have_dinfo 1)\nI  04000008,4\n") << discarded;
    QTest::newRow("the brk heap: its start, growing, shrinking, gone")
        << QByteArray("I  04000000,4\nSYSCALL[7,1](12) sys_brk ( 0x0 ) --> [pre-success] Success(0x4035000) \n"
                      "I  04000004,4\nSYSCALL[7,1](12) sys_brk ( 0x4056000 ) --> [pre-success] Success(0x4056000) \n"
                      "I  04000008,4\nSYSCALL[7,1](12) sys_brk ( 0x4040000 ) --> [pre-success] Success(0x4040000) \n"
                      "I  0400000c,4\nSYSCALL[7,1](12) sys_brk ( 0x4035000 ) --> [pre-success] Success(0x4035000) \n")
        << QStringList { QStringLiteral("map 2 0x4035000-0x4055fff rw-p 0x0 [heap]"),
               QStringLiteral("map 3 0x4035000-0x403ffff rw-p 0x0 [heap]"),
               QStringLiteral("unmap 3 0x4040000-0x4055fff"), QStringLiteral("unmap 4 0x4035000-0x403ffff") };
    QTest::newRow("anonymous mmap and munmap; a file's mmap and a failure left out")
        << QByteArray("I  04000000,4\n"
                      "SYSCALL[7,1](9) sys_mmap ( 0x0, 8192, 3, 34, 4294967295, 0 ) --> [pre-success] "
                      "Success(0x4835000) \n"
                      "SYSCALL[7,1](9) sys_mmap ( 0x0, 5000, 5, 33, 4294967295, 0 ) --> [pre-success] "
                      "Success(0x4900000) \n"
                      "SYSCALL[7,1](9) sys_mmap ( 0x0, 16400, 1, 2050, 3, 0 ) --> [pre-success] Success(0x4837000) \n"
                      "SYSCALL[7,1](9) sys_mmap ( 0x0, 4096, 3, 34, 4294967295, 0 ) --> [pre-fail] Failure(0xc) \n"
                      "I  04000004,4\nSYSCALL[7,1](11) sys_munmap ( 0x4835000, 4096 )[sync] --> Success(0x0) \n")
        << QStringList { QStringLiteral("map 1 0x4835000-0x4836fff rw-p 0x0 [anon]"),
               QStringLiteral("map 1 0x4900000-0x4901fff r-xs 0x0 [anon]"),
               QStringLiteral("unmap 2 0x4835000-0x4835fff") };
    QTest::newRow("memhist record's client stack line: from the instruction of the access after it")
        << QByteArray("I  04000000,4\nI  04000004,5\n--7-- memhist record: client stack 0x1ffe801000-0x1fff000fff\n"
                      " S 1fff0006e8,8\nI  04000009,4\n")
        << QStringList { QStringLiteral("map 1 0x1ffe801000-0x1fff000fff rw-p 0x0 [stack]") };
    QTest::newRow("a client stack line that does not parse names nothing")
        << QByteArray("I  04000000,4\n--7-- memhist record: client stack 0x1fff000fff-0x1ffe801000\n"
                      "--7-- memhist record: client stack 0x1ffe801000\n"
                      "--7-- memhist record: client stack 0x1ffe801000-0x1fff000fff and more\n S 1fff0006e8,8\n")
        << QStringList();
    // getuid() and friends print an empty argument list, " ( )": nothing to read, nothing mapped.
    QTest::newRow("a syscall without arguments")
        << QByteArray("I  04000000,4\nSYSCALL[7,1](102) sys_getuid ( )[sync] --> Success(0x0) \n"
                      "SYSCALL[7,1](9) sys_mmap ( )[sync] --> Success(0x4835000) \nI  04000004,4\n")
        << QStringList();
}

void tst_ValgrindVerboseLines::events()
{
    QFETCH(QByteArray, log);
    QFETCH(QStringList, expected);
    QVERIFY(!loadMappings(QCoreApplication::applicationFilePath(), 0).isEmpty());
    QCOMPARE(parse(log), expected);
}

void tst_ValgrindVerboseLines::verboseLinesAreCountedAsValgrinds()
{
    // A -v -v CFI message continues on a line without valgrind's prefix; syscall lines and their
    // results have none either: all of them are valgrind's, none the program's output.
    ImportReport report;
    parse(QByteArray("--7-- summarise_context(loc_start = 0x10): cannot summarise(why=1):   \n"
                     "0x30a: [0]={ 56(r3) { u  u  u  c-56 u  u }\n"
                     "I  04000000,4\n"
                     "SYSCALL[7,1](0) sys_read ( 4, 0x1ffeffecd8, 832 ) --> [async] ... \n"
                     "SYSCALL[7,1](0) ... [async] --> Success(0x340) \n"
                     "SYSCALL[7,1](9) sys_mmap ( 0x0, 4096, 5, 2066, 3, 0 )--7-- object doesn't have a symbol table\n"
                     " --> [pre-success] Success(0x4838000) \n"
                     "hello from the program\n"
                     "0x30a: not a continuation\n"),
        &report);
    QCOMPARE(report.skipped.value(QStringLiteral("valgrind messages")), 7);
    QCOMPARE(report.skipped.value(QStringLiteral("other lines (program output)")), 2);
    QCOMPARE(report.instructions, 1);
}

QTEST_GUILESS_MAIN(tst_ValgrindVerboseLines)
#include "tst_valgrindverboselines.moc"
