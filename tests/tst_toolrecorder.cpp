// SPDX-License-Identifier: MIT
// `memhist record` with memhist's own Valgrind tool, on a program of known memory effects
// (data/recorder/knownvalues.c): every value, before, PC, function and source line asserted for
// stores of 1 to 32 bytes to globals, the stack and the heap, `rep movsb`, the atomics, a second
// thread, the kernel's write of read()'s buffer, and a program that segfaults.
#include "core/context/contextreader.h"
#include "core/memory/memoryreader.h"
#include "core/query/halfaxisquery.h"
#include "core/recorder/toolrecorder.h"
#include "core/recorder/valgrindprocess.h"
#include "core/search/valuesearch.h"
#include "core/storage/historydatabase.h"
#include "core/storage/threadspans.h"
#include "testsupport.h"
#include "toolchain.h"

#include <QFile>
#include <QHash>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace memhist;
using namespace memhist::test;

class tst_ToolRecorder : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void storesAndLoads_data();
    void storesAndLoads();
    void memoryAndSearchFindTheConstants_data();
    void memoryAndSearchFindTheConstants();
    void repMovsbIsOneReadAndOneWritePerByte();
    void atomics_data();
    void atomics();
    void secondThreadHasItsOwnId();
    void kernelWriteOfReadHoldsTheFile();
    void checkReplaysTheValues();
    void streamKeptImportsToTheSameHistory();
    void segfaultKeepsWhatWasRecorded();
    void skipAndStartAt();

private:
    QString path(const QString &name) const { return m_dir.filePath(name); }
    // The accesses of [address, address + size - 1], of `operations`, in time order.
    QList<Access> accessesAt(HistoryDatabase &database, std::uint64_t address, std::uint32_t size,
        Operations operations = Operations(Operation::Read) | Operation::Write);
    // The line of knownvalues.c that holds "mark:NAME".
    int markLine(const QString &name) const;

    QTemporaryDir m_dir;
    QString m_program;
    QString m_source;
    QString m_history;
    QString m_stream;
    QHash<QString, std::uint64_t> m_addresses; // as the program printed them
    bool m_avx = false;
    std::unique_ptr<HistoryDatabase> m_database;
};

namespace {

const QByteArray fileBytes = QByteArrayLiteral("0123456789abcdef and what read() leaves");

QByteArray repeated(char byte, int count)
{
    return QByteArray(count, byte);
}

} // namespace

void tst_ToolRecorder::initTestCase()
{
    if (ValgrindProcess::findValgrind().isEmpty())
        QSKIP("valgrind is not installed");
    QString why;
    QVERIFY2(!ToolRecorder::toolDirectory(&why).isEmpty(), qPrintable(why));
    QVERIFY(m_dir.isValid());
    m_source = path(QStringLiteral("knownvalues.c"));
    QVERIFY(QFile::copy(QFINDTESTDATA("data/recorder/knownvalues.c"), m_source));
    m_program = path(QStringLiteral("knownvalues"));
    QVERIFY(runStep(
        QStringLiteral("gcc"), { "-g", "-O0", "-pthread", "-o", "knownvalues", "knownvalues.c" }, m_dir.path()));
    QFile data(path(QStringLiteral("data.txt")));
    QVERIFY(data.open(QIODevice::WriteOnly));
    data.write(fileBytes);
    data.close();

    m_history = path(QStringLiteral("known.memhist"));
    m_stream = path(QStringLiteral("known.mhstream"));
    const CliResult record = runCli({ QStringLiteral("record"), QStringLiteral("-o"), m_history,
        QStringLiteral("--keep-stream"), m_stream, QStringLiteral("--"), m_program, path(QStringLiteral("data.txt")) });
    QVERIFY2(record.exitCode == 0, record.err.constData());
    QVERIFY2(record.err.contains("memhist record: program exited with status 0; recorded "), record.err.constData());
    static const QRegularExpression line(QStringLiteral("^(\\w+)=(0x[0-9a-f]+|\\d)$"));
    for (const QByteArray &text : record.out.split('\n')) {
        const QRegularExpressionMatch match = line.match(QString::fromLatin1(text));
        if (match.hasMatch())
            m_addresses.insert(match.captured(1), match.captured(2).toULongLong(nullptr, 0));
    }
    QCOMPARE(m_addresses.size(), 18);
    m_avx = m_addresses.value(QStringLiteral("avx")) == 1;
    QString error;
    m_database = HistoryDatabase::open(m_history, &error);
    QVERIFY2(m_database, qPrintable(error));
}

QList<Access> tst_ToolRecorder::accessesAt(
    HistoryDatabase &database, std::uint64_t address, std::uint32_t size, Operations operations)
{
    HalfAxisQueryEngine engine(database);
    HalfAxisQuery query;
    query.first = Address { address };
    query.last = Address { address + size - 1 };
    query.operations = operations;
    query.limit = 1000;
    QueryPage page;
    QString error;
    if (!engine.run(query, &page, &error))
        qFatal("query failed: %s", qPrintable(error));
    return page.accesses;
}

int tst_ToolRecorder::markLine(const QString &name) const
{
    const QList<QByteArray> lines = readFile(m_source).split('\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (lines[i].contains(QByteArray("/* mark:" + name.toLatin1() + " */")))
            return int(i + 1);
    }
    qFatal("no mark %s", qPrintable(name));
}

void tst_ToolRecorder::storesAndLoads_data()
{
    QTest::addColumn<QString>("object");
    QTest::addColumn<int>("size");
    QTest::addColumn<QByteArray>("value"); // what the store writes, in memory order
    QTest::addColumn<QString>("function");
    QTest::addColumn<bool>("readBack"); // a later read returns the same bytes

    QTest::newRow("1 byte, global") << QStringLiteral("g1") << 1 << QByteArray::fromHex("11")
                                    << QStringLiteral("storeGlobals") << true;
    QTest::newRow("2 bytes, global") << QStringLiteral("g2") << 2 << QByteArray::fromHex("2222")
                                     << QStringLiteral("storeGlobals") << true;
    QTest::newRow("4 bytes, global") << QStringLiteral("g4") << 4 << QByteArray::fromHex("44444444")
                                     << QStringLiteral("storeGlobals") << true;
    QTest::newRow("8 bytes, global") << QStringLiteral("g8") << 8 << repeated('\x88', 8)
                                     << QStringLiteral("storeGlobals") << true;
    QTest::newRow("16 bytes (SSE), global")
        << QStringLiteral("g16") << 16 << repeated('\x16', 16) << QStringLiteral("storeGlobals") << false;
    QTest::newRow("32 bytes (AVX), global")
        << QStringLiteral("g32") << 32 << repeated('\x32', 32) << QStringLiteral("storeWide") << false;
    QTest::newRow("8 bytes, stack") << QStringLiteral("stack") << 8 << repeated('\x55', 8)
                                    << QStringLiteral("stackAndHeap") << true;
    QTest::newRow("8 bytes, heap") << QStringLiteral("heap") << 8 << repeated('\x66', 8)
                                   << QStringLiteral("stackAndHeap") << true;
}

void tst_ToolRecorder::storesAndLoads()
{
    QFETCH(QString, object);
    QFETCH(int, size);
    QFETCH(QByteArray, value);
    QFETCH(QString, function);
    QFETCH(bool, readBack);
    if (object == QLatin1String("g32") && !m_avx)
        QSKIP("this processor has no AVX");

    const std::uint64_t address = m_addresses.value(object);
    QVERIFY(address != 0);
    QList<Access> writes;
    for (const Access &access : accessesAt(*m_database, address, std::uint32_t(size), Operation::Write)) {
        if (access.physical.value == address && access.size == std::uint32_t(size))
            writes << access;
    }
    // The stack and heap bytes may be written again later (other frames, malloc's own use): the
    // first write of the constant is the one of the marked line.
    ContextReader reader(*m_database);
    std::optional<Access> store;
    for (const Access &write : std::as_const(writes)) {
        if (reader.value(write.rowId).value_or(AccessValue()).bytes == value) {
            store = write;
            break;
        }
    }
    QVERIFY2(store,
        qPrintable(QStringLiteral("no write of %1 bytes of %2 at %3")
                       .arg(size)
                       .arg(QString::fromLatin1(value.toHex()), QString::number(address, 16))));
    const AccessValue stored = *reader.value(store->rowId);
    QCOMPARE(stored.before.size(), size);
    QCOMPARE(stored.kernelSyscall, std::nullopt);
    if (object.startsWith(u'g'))
        QCOMPARE(stored.before, QByteArray(size, '\0')); // .bss before its first store
    const std::optional<Address> pc = reader.pcAt(store->transition);
    QVERIFY(pc);
    const CodeDescription code = reader.describeCode(*pc, store->transition);
    QCOMPARE(code.function, function);
    QCOMPARE(code.line, markLine(object));
    QVERIFY2(code.sourceFile.endsWith(QLatin1String("knownvalues.c")), qPrintable(code.sourceFile));

    if (readBack) {
        bool found = false;
        for (const Access &read : accessesAt(*m_database, address, std::uint32_t(size), Operation::Read)) {
            if (read.rowId > store->rowId && read.physical.value == address && read.size == std::uint32_t(size)) {
                QCOMPARE(reader.value(read.rowId)->bytes, value);
                QCOMPARE(reader.value(read.rowId)->before, QByteArray());
                found = true;
                break;
            }
        }
        QVERIFY(found);
    }
}

void tst_ToolRecorder::memoryAndSearchFindTheConstants_data()
{
    storesAndLoads_data();
}

void tst_ToolRecorder::memoryAndSearchFindTheConstants()
{
    QFETCH(QString, object);
    QFETCH(int, size);
    QFETCH(QByteArray, value);
    if (object == QLatin1String("g32") && !m_avx)
        QSKIP("this processor has no AVX");
    const std::uint64_t address = m_addresses.value(object);

    // The first write of the constant to the object, found by value search over the whole history
    // (no window: through the value index) and through the object's window: the same access.
    ValueSearchEngine search(*m_database);
    QVERIFY(search.hasIndex());
    ValueSearch bySearch;
    bySearch.value = value;
    bySearch.query.operations = Operation::Write;
    bySearch.query.limit = 1;
    ValueSearch inWindow = bySearch;
    inWindow.query.first = Address { address };
    inWindow.query.last = Address { address + std::uint64_t(size) - 1 };
    QueryPage page;
    QString error;
    QVERIFY2(search.run(inWindow, &page, &error), qPrintable(error));
    QCOMPARE(page.accesses.size(), 1);
    const Access store = page.accesses.constFirst();
    QCOMPARE(store.physical.value, address);
    QCOMPARE(store.size, std::uint32_t(size));
    if (object == QLatin1String("g2") || object == QLatin1String("g4") || object == QLatin1String("g8")) {
        // These constants are written nowhere before their own store (0x11 is a common byte; the
        // vectors are built on the stack first, at -O0).
        QVERIFY2(search.run(bySearch, &page, &error), qPrintable(error));
        QCOMPARE(page.accesses.size(), 1);
        QCOMPARE(page.accesses.constFirst().rowId, store.rowId);
    }

    // Memory after the store's transition holds the constant, every byte known by that write.
    MemoryReader memory(*m_database);
    QList<MemoryByte> bytes;
    QVERIFY2(memory.read(store.transition, store.physical, store.lastByte(), &bytes, &error), qPrintable(error));
    QCOMPARE(bytes.size(), size);
    for (qsizetype i = 0; i < bytes.size(); ++i) {
        QCOMPARE(bytes[i].knownBy, KnownBy::Write);
        QCOMPARE(bytes[i].rowId, store.rowId);
        QCOMPARE(char(bytes[i].value), value[i]);
    }
    // Just before it, a global held its zeros, which no access read: unknown.
    if (object.startsWith(u'g')) {
        QVERIFY2(
            memory.read(Transition { store.transition.value - 1 }, store.physical, store.lastByte(), &bytes, &error),
            qPrintable(error));
        for (const MemoryByte &byte : std::as_const(bytes))
            QCOMPARE(byte.knownBy, KnownBy::Unknown);
    }
}

void tst_ToolRecorder::repMovsbIsOneReadAndOneWritePerByte()
{
    ContextReader reader(*m_database);
    const std::uint64_t source = m_addresses.value(QStringLiteral("movsbsource"));
    const std::uint64_t target = m_addresses.value(QStringLiteral("movsbtarget"));
    const QList<Access> reads = accessesAt(*m_database, source, 5, Operation::Read);
    const QList<Access> writes = accessesAt(*m_database, target, 5, Operation::Write);
    QCOMPARE(reads.size(), 5);
    QCOMPARE(writes.size(), 5);
    const QByteArray copied("memhi");
    for (int i = 0; i < 5; ++i) {
        QCOMPARE(reads[i].physical.value, source + std::uint64_t(i));
        QCOMPARE(reads[i].size, 1u);
        QCOMPARE(writes[i].physical.value, target + std::uint64_t(i));
        QCOMPARE(writes[i].size, 1u);
        // One iteration a transition: its read, then its write.
        QCOMPARE(reads[i].transition, writes[i].transition);
        QVERIFY(reads[i].rowId < writes[i].rowId);
        if (i > 0)
            QCOMPARE(writes[i].transition.value, writes[i - 1].transition.value + 1);
        QCOMPARE(reader.value(reads[i].rowId)->bytes, copied.mid(i, 1));
        QCOMPARE(reader.value(writes[i].rowId)->bytes, copied.mid(i, 1));
        QCOMPARE(reader.value(writes[i].rowId)->before, QByteArray(1, '\0'));
        const CodeDescription code = reader.describeCode(*reader.pcAt(writes[i].transition), writes[i].transition);
        QCOMPARE(code.function, QStringLiteral("copyBytes"));
        QCOMPARE(code.line, markLine(QStringLiteral("movsb")));
    }
}

void tst_ToolRecorder::atomics_data()
{
    QTest::addColumn<QString>("object");
    QTest::addColumn<QByteArray>("read");
    QTest::addColumn<QByteArray>("written"); // empty: no write
    QTest::addColumn<QString>("mark");

    QTest::newRow("xchg") << QStringLiteral("xchg") << QByteArray::fromHex("11111111")
                          << QByteArray::fromHex("22222222") << QStringLiteral("xchg");
    QTest::newRow("lock xadd") << QStringLiteral("xadd") << QByteArray::fromHex("0a000000")
                               << QByteArray::fromHex("0f000000") << QStringLiteral("xadd");
    QTest::newRow("lock cmpxchg that succeeds") << QStringLiteral("casok") << QByteArray::fromHex("0f000000")
                                                << QByteArray::fromHex("19000000") << QStringLiteral("casok");
    QTest::newRow("lock cmpxchg that fails: the read only")
        << QStringLiteral("casfail") << QByteArray::fromHex("14000000") << QByteArray() << QStringLiteral("casfail");
}

void tst_ToolRecorder::atomics()
{
    QFETCH(QString, object);
    QFETCH(QByteArray, read);
    QFETCH(QByteArray, written);
    QFETCH(QString, mark);
    ContextReader reader(*m_database);
    const QList<Access> accesses = accessesAt(*m_database, m_addresses.value(object), 4);
    QCOMPARE(accesses.size(), written.isEmpty() ? 1 : 2);
    QCOMPARE(accesses[0].operation, Operation::Read);
    QCOMPARE(accesses[0].size, 4u);
    QCOMPARE(reader.value(accesses[0].rowId)->bytes, read);
    const CodeDescription code = reader.describeCode(*reader.pcAt(accesses[0].transition), accesses[0].transition);
    QCOMPARE(code.function, QStringLiteral("atomics"));
    QCOMPARE(code.line, markLine(mark));
    if (!written.isEmpty()) {
        QCOMPARE(accesses[1].operation, Operation::Write);
        QCOMPARE(accesses[1].transition, accesses[0].transition);
        QCOMPARE(reader.value(accesses[1].rowId), std::optional(AccessValue { written, read, std::nullopt }));
    }
}

void tst_ToolRecorder::secondThreadHasItsOwnId()
{
    const ThreadSpans threads(*m_database);
    QVERIFY(threads.available());
    const QList<Access> threadWrites = accessesAt(*m_database, m_addresses.value(QStringLiteral("thread")), 8);
    QCOMPARE(threadWrites.size(), 1);
    const QList<Access> mainWrites
        = accessesAt(*m_database, m_addresses.value(QStringLiteral("g1")), 1, Operation::Write);
    QCOMPARE(mainWrites.size(), 1);
    const std::optional<qint64> second = threads.threadAt(threadWrites[0].transition);
    const std::optional<qint64> main = threads.threadAt(mainWrites[0].transition);
    QVERIFY(second && main);
    QVERIFY(*second != *main);
    QCOMPARE(threads.threadCount(), std::optional<qint64>(2));
    ContextReader reader(*m_database);
    QCOMPARE(reader.value(threadWrites[0].rowId)->bytes, repeated('\x77', 8));
}

void tst_ToolRecorder::kernelWriteOfReadHoldsTheFile()
{
    ContextReader reader(*m_database);
    const std::uint64_t buffer = m_addresses.value(QStringLiteral("buffer"));
    const QList<Access> writes = accessesAt(*m_database, buffer, 16, Operation::Write);
    std::optional<Access> kernel;
    for (const Access &write : writes) {
        if (reader.value(write.rowId)->kernelSyscall)
            kernel = write;
    }
    QVERIFY(kernel);
    QCOMPARE(kernel->physical.value, buffer);
    QCOMPARE(kernel->size, 16u);
    const AccessValue value = *reader.value(kernel->rowId);
    QCOMPARE(value.bytes, fileBytes.first(16));
    QCOMPARE(value.kernelSyscall, std::optional<quint32>(0)); // read()
    // At the transition of the syscall instruction, in read()'s code (libc), after the marked call.
    const CodeDescription code = reader.describeCode(*reader.pcAt(kernel->transition), kernel->transition);
    QVERIFY2(code.instruction.startsWith(QLatin1String("syscall")), qPrintable(code.instruction));
}

void tst_ToolRecorder::checkReplaysTheValues()
{
    const CliResult check = runCli({ QStringLiteral("check"), m_history });
    QVERIFY2(check.exitCode == 0, check.err.constData());
    QVERIFY2(check.out.contains("\nnote: values: every one of the "), check.out.constData());

    // What makes it so with threads: the kernel clears the second thread's id word when it exits
    // (CLONE_CHILD_CLEARTID, for pthread_join), which Valgrind does not report; the tool records
    // it as a write of exit(), before bytes the thread's id.
    const ThreadSpans threads(*m_database);
    const QList<Access> threadWrites = accessesAt(*m_database, m_addresses.value(QStringLiteral("thread")), 8);
    QCOMPARE(threadWrites.size(), 1);
    const quint32 secondThread = quint32(*threads.threadAt(threadWrites[0].transition));
    ContextReader reader(*m_database);
    HalfAxisQueryEngine engine(*m_database);
    HalfAxisQuery query;
    query.operations = Operation::Write;
    query.limit = 100000;
    QueryPage page;
    QString error;
    QVERIFY2(engine.run(query, &page, &error), qPrintable(error));
    QVERIFY(page.exhausted);
    QList<AccessValue> exits;
    for (const Access &write : std::as_const(page.accesses)) {
        const std::optional<AccessValue> value = reader.value(write.rowId);
        if (value && value->kernelSyscall == std::optional<quint32>(60))
            exits << *value;
    }
    QCOMPARE(exits.size(), 1);
    QCOMPARE(exits[0].bytes, QByteArray(4, '\0'));
    QCOMPARE(exits[0].before, QByteArray(reinterpret_cast<const char *>(&secondThread), 4));
}

void tst_ToolRecorder::streamKeptImportsToTheSameHistory()
{
    const QString imported = path(QStringLiteral("imported.memhist"));
    const CliResult import = runCli({ QStringLiteral("import"), m_stream, QStringLiteral("-o"), imported });
    QVERIFY2(import.exitCode == 0, import.err.constData());
    const QStringList exportOptions { QStringLiteral("--ops"), QStringLiteral("rwx"), QStringLiteral("--context") };
    const QString recordedCsv = path(QStringLiteral("recorded.csv"));
    const QString importedCsv = path(QStringLiteral("imported.csv"));
    QCOMPARE(
        runCli(QStringList { QStringLiteral("export"), m_history, QStringLiteral("-o"), recordedCsv } + exportOptions)
            .exitCode,
        0);
    QCOMPARE(
        runCli(QStringList { QStringLiteral("export"), imported, QStringLiteral("-o"), importedCsv } + exportOptions)
            .exitCode,
        0);
    const QByteArray recorded = readFile(recordedCsv);
    QVERIFY(recorded.count('\n') > 1000);
    QVERIFY(recorded.startsWith("rowid,transition,operation,address,linear,size,pc,function,source,instruction,region,"
                                "value,before\n"));
    QCOMPARE(readFile(importedCsv), recorded);
}

void tst_ToolRecorder::segfaultKeepsWhatWasRecorded()
{
    const QString history = path(QStringLiteral("crash.memhist"));
    const CliResult record = runCli({ QStringLiteral("record"), QStringLiteral("-o"), history, QStringLiteral("--"),
        m_program, path(QStringLiteral("data.txt")), QStringLiteral("crash") });
    QVERIFY2(record.exitCode == 0, record.err.constData());
    QVERIFY2(record.err.contains("memhist record: program killed by signal 11; recorded "), record.err.constData());
    std::uint64_t crashWord = 0;
    for (const QByteArray &text : record.out.split('\n')) {
        if (text.startsWith("crash="))
            crashWord = text.mid(6).toULongLong(nullptr, 0);
    }
    QVERIFY(crashWord != 0);
    QString error;
    const auto database = HistoryDatabase::open(history, &error);
    QVERIFY2(database, qPrintable(error));
    const QList<Access> writes = accessesAt(*database, crashWord, 8, Operation::Write);
    QCOMPARE(writes.size(), 1);
    ContextReader reader(*database);
    QCOMPARE(reader.value(writes[0].rowId)->bytes, repeated('\x42', 8));
    QCOMPARE(reader.describeCode(*reader.pcAt(writes[0].transition), writes[0].transition).line,
        markLine(QStringLiteral("crash")));
    QCOMPARE(runCli({ QStringLiteral("check"), history }).exitCode, 0);
}

void tst_ToolRecorder::skipAndStartAt()
{
    // --start-at atomics: the globals stored before it are not recorded, the atomics are, with
    // their transitions as in the whole run.
    const QString history = path(QStringLiteral("startat.memhist"));
    const CliResult record
        = runCli({ QStringLiteral("record"), QStringLiteral("-o"), history, QStringLiteral("--start-at"),
            QStringLiteral("atomics"), QStringLiteral("--"), m_program, path(QStringLiteral("data.txt")) });
    QVERIFY2(record.exitCode == 0, record.err.constData());
    QVERIFY2(record.err.contains(" instructions (--start-at atomics); recorded "), record.err.constData());
    QString error;
    const auto database = HistoryDatabase::open(history, &error);
    QVERIFY2(database, qPrintable(error));
    QCOMPARE(accessesAt(*database, m_addresses.value(QStringLiteral("g4")), 4, Operation::Write).size(), 0);
    const QList<Access> xchg = accessesAt(*database, m_addresses.value(QStringLiteral("xchg")), 4);
    QCOMPARE(xchg.size(), 2);
    // The same transition as in the whole recording.
    const QList<Access> whole = accessesAt(*m_database, m_addresses.value(QStringLiteral("xchg")), 4);
    QCOMPARE(xchg[0].transition, whole[0].transition);

    // --skip-instructions N --max-instructions M: exactly the transitions [N, N + M).
    const QString window = path(QStringLiteral("window.memhist"));
    const CliResult windowed = runCli({ QStringLiteral("record"), QStringLiteral("-o"), window,
        QStringLiteral("--skip-instructions"), QStringLiteral("1000"), QStringLiteral("--max-instructions"),
        QStringLiteral("5000"), QStringLiteral("--"), m_program });
    QVERIFY2(windowed.exitCode == 0, windowed.err.constData());
    QVERIFY2(windowed.err.contains("stopped the program after 5000 instructions (--max-instructions); skipped the "
                                   "first 1000 instructions (--skip-instructions 1000)"),
        windowed.err.constData());
    const auto windowDatabase = HistoryDatabase::open(window, &error);
    QVERIFY2(windowDatabase, qPrintable(error));
    ContextReader reader(*windowDatabase);
    QVERIFY(!reader.pcAt(Transition { 999 }));
    QVERIFY(reader.pcAt(Transition { 1000 }));
    QVERIFY(reader.pcAt(Transition { 5999 }));
    QVERIFY(!reader.pcAt(Transition { 6000 }));
}

QTEST_GUILESS_MAIN(tst_ToolRecorder)
#include "tst_toolrecorder.moc"
