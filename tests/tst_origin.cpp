// SPDX-License-Identifier: MIT
// The origin tree (core/origin/originfinder.h, `memhist origin`) on a program of known value paths
// recorded with `memhist record` (data/origin/chains.c): a constant through a global, a register,
// an XOR, the heap and memcpy to the read that ends it, backward and forward; bytes read() from a
// file; a byte never written; a value passed between threads; rep movsb; a register another thread
// writes meanwhile; a register not written for over 10^6 transitions; a history without code trace
// or values; the command line's CSV and refusals.
#include "core/origin/originfinder.h"
#include "core/query/halfaxisquery.h"
#include "core/recorder/toolrecorder.h"
#include "core/recorder/valgrindprocess.h"
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

class tst_Origin : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void chainToTheFirstStore();
    void depthBoundsTheTree();
    void kernelWroteTheBytes();
    void neverWrittenIsInitial();
    void chainAcrossThreads();
    void repMovsbCopies();
    void registerStaysInItsThread();
    void farRegisterIsUnknown();
    void forwardReachesTheFinalRead();
    void rowNotInTheHistory();
    void cliCsv();
    void cliRefusals_data();
    void cliRefusals();
    void withoutCodeTraceOrValues();

private:
    QString path(const QString &name) const { return m_dir.filePath(name); }
    // The line of chains.c that holds "mark:NAME".
    int markLine(const QString &name) const;
    // The last access of `operation` to the byte at `address`.
    Access lastAccess(std::uint64_t address, Operation operation);
    OriginTree originOf(RowId row, Direction direction = Direction::Backward, int depth = 16);

    QTemporaryDir m_dir;
    QString m_source;
    QString m_history;
    QHash<QString, std::uint64_t> m_addresses; // as the program printed them
    std::unique_ptr<HistoryDatabase> m_database;
};

namespace {

const QByteArray fileBytes = QByteArrayLiteral("0123456789abcdef and more");

// One hop as the tests spell it: kind, function (without its offset) and line ("" and 0: none).
struct HopText
{
    QString kind;
    QString function;
    int line = 0;
    friend bool operator==(const HopText &, const HopText &) = default;
};

char *toString(const HopText &hop)
{
    return QTest::toString(QStringLiteral("%1 %2:%3").arg(hop.kind, hop.function).arg(hop.line));
}

HopText textOf(const OriginHop &hop)
{
    const QString function = hop.function.section(u'+', 0, 0);
    const int colon = int(hop.source.lastIndexOf(u':'));
    const int line = hop.source.endsWith(QLatin1String(".S"), Qt::CaseInsensitive) || colon < 0
        ? 0
        : hop.source.mid(colon + 1).toInt();
    return HopText { QLatin1String(hopKindName(hop.kind)), function,
        hop.source.contains(QLatin1String("chains.c")) ? line : 0 };
}

// The hops from the root down to hop `index`, root first.
QList<OriginHop> pathTo(const OriginTree &tree, int index)
{
    QList<OriginHop> path;
    for (int i = index; i >= 0; i = tree.hops[i].parent)
        path.prepend(tree.hops[i]);
    return path;
}

QList<HopText> textsOf(const QList<OriginHop> &hops)
{
    QList<HopText> texts;
    for (const OriginHop &hop : hops)
        texts << textOf(hop);
    return texts;
}

// memcpy's hops name whichever variant the C library chose ("__memcpy_avx_unaligned_erms").
HopText inMemcpy(const char *kind)
{
    return HopText { QLatin1String(kind), QStringLiteral("memcpy"), 0 };
}

QList<HopText> withMemcpyNamed(QList<HopText> texts)
{
    for (HopText &text : texts) {
        if (text.function.startsWith(QLatin1String("__mem")) && text.line == 0)
            text.function = QStringLiteral("memcpy");
    }
    return texts;
}

} // namespace

void tst_Origin::initTestCase()
{
    if (ValgrindProcess::findValgrind().isEmpty())
        QSKIP("valgrind is not installed");
    QString why;
    QVERIFY2(!ToolRecorder::toolDirectory(&why).isEmpty(), qPrintable(why));
    QVERIFY(m_dir.isValid());
    m_source = path(QStringLiteral("chains.c"));
    QVERIFY(QFile::copy(QFINDTESTDATA("data/origin/chains.c"), m_source));
    QVERIFY(runStep(QStringLiteral("gcc"), { "-g", "-O0", "-pthread", "-o", "chains", "chains.c" }, m_dir.path()));
    QFile data(path(QStringLiteral("data.txt")));
    QVERIFY(data.open(QIODevice::WriteOnly));
    data.write(fileBytes);
    data.close();

    m_history = path(QStringLiteral("chains.memhist"));
    const CliResult record = runCli({ QStringLiteral("record"), QStringLiteral("-o"), m_history, QStringLiteral("--"),
        path(QStringLiteral("chains")), path(QStringLiteral("data.txt")) });
    QVERIFY2(record.exitCode == 0, record.err.constData());
    static const QRegularExpression line(QStringLiteral("^(\\w+)=(0x[0-9a-f]+)$"));
    for (const QByteArray &text : record.out.split('\n')) {
        const QRegularExpressionMatch match = line.match(QString::fromLatin1(text));
        if (match.hasMatch())
            m_addresses.insert(match.captured(1), match.captured(2).toULongLong(nullptr, 16));
    }
    QCOMPARE(m_addresses.size(), 17);
    QString error;
    m_database = HistoryDatabase::open(m_history, &error);
    QVERIFY2(m_database, qPrintable(error));
}

int tst_Origin::markLine(const QString &name) const
{
    const QList<QByteArray> lines = readFile(m_source).split('\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (lines[i].contains(QByteArray("/* mark:" + name.toLatin1() + " */")))
            return int(i + 1);
    }
    qFatal("no mark %s", qPrintable(name));
}

Access tst_Origin::lastAccess(std::uint64_t address, Operation operation)
{
    HalfAxisQueryEngine engine(*m_database);
    HalfAxisQuery query;
    query.direction = Direction::Backward;
    query.first = Address { address };
    query.last = Address { address };
    query.operations = operation;
    query.limit = 1;
    QueryPage page;
    QString error;
    if (!engine.run(query, &page, &error) || page.accesses.isEmpty())
        qFatal("no access to 0x%llx: %s", qulonglong(address), qPrintable(error));
    return page.accesses.constFirst();
}

OriginTree tst_Origin::originOf(RowId row, Direction direction, int depth)
{
    OriginFinder finder(*m_database);
    OriginRequest request;
    request.row = row;
    request.direction = direction;
    request.depth = depth;
    OriginTree tree;
    QString error;
    if (!finder.find(request, &tree, &error))
        qFatal("origin of row %lld failed: %s", qlonglong(row.value), qPrintable(error));
    return tree;
}

void tst_Origin::chainToTheFirstStore()
{
    const Access read = lastAccess(m_addresses.value(QStringLiteral("copiedWord")), Operation::Read);
    const OriginTree tree = originOf(read.rowId);
    QVERIFY(!tree.truncated);
    // One source per hop all the way: the tree is a chain, each hop the child of the one before.
    for (qsizetype i = 0; i < tree.hops.size(); ++i)
        QCOMPARE(tree.hops[i].parent, int(i) - 1);
    const auto at = [this](const char *kind, const char *function, const char *mark) {
        return HopText { QLatin1String(kind), QLatin1String(function), markLine(QLatin1String(mark)) };
    };
    const QList<HopText> expected {
        at("access", "readCopy", "read"),
        inMemcpy("last_write"),
        inMemcpy("register"),
        inMemcpy("load"),
        at("last_write", "loadXorStore", "heap"), // *heapWord = value, from the stack slot of value
        at("register", "loadXorStore", "heap"),
        at("load", "loadXorStore", "heap"),
        at("last_write", "loadXorStore", "xor"), // value ^= ...: xor on the stack slot itself
        at("computed", "loadXorStore", "xor"),
        at("load", "loadXorStore", "xor"),
        at("last_write", "loadXorStore", "load"), // value = constantWord, through eax
        at("register", "loadXorStore", "load"),
        at("load", "loadXorStore", "load"),
        at("last_write", "storeConstant", "store"),
    };
    QCOMPARE(withMemcpyNamed(textsOf(tree.hops)), expected);

    const QByteArray xored = QByteArray::fromHex("220c6e48"); // 0x12345678 ^ 0x5a5a5a5a, little-endian
    const QByteArray constant = QByteArray::fromHex("78563412");
    QCOMPARE(tree.hops[0].value, xored);
    QCOMPARE(tree.hops[9].value, constant);
    QCOMPARE(tree.hops[13].value, constant);
    QCOMPARE(tree.hops[13].address, Address { m_addresses.value(QStringLiteral("constantWord")) });
    QCOMPARE(tree.hops[3].address, Address { m_addresses.value(QStringLiteral("heapWord")) });
    QCOMPARE(tree.hops[11].registerName, QStringLiteral("eax"));
    QCOMPARE(tree.hops[8].note, QStringLiteral("xor dword ptr [rbp - 4], 0x5a5a5a5a"));
    // Copies whose bytes match are exact; the XOR and the read it computes from are computed.
    for (qsizetype i = 0; i < tree.hops.size(); ++i) {
        const Confidence expectedConfidence = i == 8 || i == 9 ? Confidence::Computed : Confidence::Exact;
        QVERIFY2(tree.hops[i].confidence == expectedConfidence, qPrintable(QStringLiteral("hop %1").arg(i)));
    }
    // Rowids and transitions go back in time along the chain.
    for (qsizetype i = 1; i < tree.hops.size(); ++i)
        QVERIFY(*tree.hops[i].transition <= *tree.hops[i - 1].transition);
}

void tst_Origin::depthBoundsTheTree()
{
    const Access read = lastAccess(m_addresses.value(QStringLiteral("copiedWord")), Operation::Read);
    const OriginTree tree = originOf(read.rowId, Direction::Backward, 3);
    QCOMPARE(tree.hops.size(), 4);
    QCOMPARE(tree.hops.constLast().depth, 3);
    QCOMPARE(textOf(tree.hops.constLast()).kind, QStringLiteral("load"));
}

void tst_Origin::kernelWroteTheBytes()
{
    const std::uint64_t buffer = m_addresses.value(QStringLiteral("fileBuffer"));
    const Access read = lastAccess(buffer + 3, Operation::Read);
    const OriginTree tree = originOf(read.rowId);
    QCOMPARE(textsOf(tree.hops),
        (QList<HopText> {
            { QStringLiteral("access"), QStringLiteral("readFile"), markLine(QStringLiteral("fileread")) },
            { QStringLiteral("kernel"), QStringLiteral("read"), 0 } }));
    QCOMPARE(tree.hops[1].note, QStringLiteral("read()"));
    QCOMPARE(tree.hops[1].address, Address { buffer });
    QCOMPARE(tree.hops[1].value, fileBytes.left(16));
    QCOMPARE(tree.hops[1].confidence, Confidence::Exact);
    QCOMPARE(tree.hops[0].value, QByteArray("3"));

    // Asked about the kernel's write itself: its source is the system call, not an instruction.
    const OriginTree write = originOf(*tree.hops[1].rowId);
    QCOMPARE(write.hops.size(), 2);
    QCOMPARE(write.hops[1].kind, HopKind::Kernel);
    QCOMPARE(write.hops[1].note, QStringLiteral("read()"));
    QCOMPARE(write.hops[1].transition, tree.hops[1].transition);
}

void tst_Origin::neverWrittenIsInitial()
{
    const std::uint64_t address = m_addresses.value(QStringLiteral("neverWritten")) + 2;
    const Access read = lastAccess(address, Operation::Read);
    const OriginTree tree = originOf(read.rowId);
    QCOMPARE(tree.hops.size(), 2);
    QCOMPARE(textOf(tree.hops[1]), (HopText { QStringLiteral("initial"), QString(), 0 }));
    QCOMPARE(tree.hops[1].address, Address { address });
    QCOMPARE(tree.hops[1].size, 1u);
    QCOMPARE(tree.hops[1].value, QByteArray("\x07"));
    QCOMPARE(tree.hops[1].rowId, std::nullopt);
}

void tst_Origin::chainAcrossThreads()
{
    const Access read = lastAccess(m_addresses.value(QStringLiteral("joinedWord")), Operation::Read);
    const OriginTree tree = originOf(read.rowId);
    const auto at = [this](const char *kind, const char *function, const char *mark) {
        return HopText { QLatin1String(kind), QLatin1String(function), markLine(QLatin1String(mark)) };
    };
    QCOMPARE(textsOf(tree.hops),
        (QList<HopText> {
            at("access", "acrossThreads", "joinread"), at("last_write", "acrossThreads", "joinstore"),
            at("register", "acrossThreads", "joinstore"), at("load", "acrossThreads", "joinstore"),
            at("last_write", "acrossThreads", "joinload"), at("register", "acrossThreads", "joinload"),
            at("load", "acrossThreads", "joinload"), at("last_write", "storeFromThread", "thread"),
            at("register", "storeFromThread", "thread"), // movabs rax, 0x123456789abcdef
        }));
    const ThreadSpans threads(*m_database);
    QVERIFY(threads.available());
    const std::optional<qint64> reader = threads.threadAt(*tree.hops[0].transition);
    const std::optional<qint64> writer = threads.threadAt(*tree.hops[8].transition);
    QVERIFY(reader && writer);
    QVERIFY(*reader != *writer);
    QCOMPARE(tree.hops[8].confidence, Confidence::Exact); // the immediate is the bytes stored
    QCOMPARE(tree.hops[7].value, QByteArray::fromHex("efcdab8967452301"));
}

void tst_Origin::repMovsbCopies()
{
    const std::uint64_t target = m_addresses.value(QStringLiteral("movsTarget")) + 3;
    const Access read = lastAccess(target, Operation::Read);
    const OriginTree tree = originOf(read.rowId);
    QCOMPARE(textsOf(tree.hops),
        (QList<HopText> {
            { QStringLiteral("access"), QStringLiteral("repMovsb"), markLine(QStringLiteral("movsread")) },
            { QStringLiteral("last_write"), QStringLiteral("repMovsb"), markLine(QStringLiteral("movsb")) },
            { QStringLiteral("load"), QStringLiteral("repMovsb"), markLine(QStringLiteral("movsb")) },
            { QStringLiteral("initial"), QString(), 0 } }));
    // The byte rep movsb read in the same iteration (transition) as it wrote the copy.
    QCOMPARE(tree.hops[2].address, Address { m_addresses.value(QStringLiteral("movsSource")) + 3 });
    QCOMPARE(tree.hops[2].transition, tree.hops[1].transition);
    QCOMPARE(tree.hops[2].value, QByteArray("g"));
    QCOMPARE(tree.hops[2].confidence, Confidence::Exact);
    QCOMPARE(tree.hops[2].note, QStringLiteral("rep movsb byte ptr [rdi], byte ptr [rsi]"));
}

void tst_Origin::registerStaysInItsThread()
{
    const Access store = lastAccess(m_addresses.value(QStringLiteral("r14Word")), Operation::Write);
    const Access other = lastAccess(m_addresses.value(QStringLiteral("otherR14Word")), Operation::Write);
    const OriginTree tree = originOf(store.rowId);
    const HopText access { QStringLiteral("access"), QStringLiteral("registerStaysInItsThread"),
        markLine(QStringLiteral("r14")) };
    const HopText set { QStringLiteral("register"), QStringLiteral("registerStaysInItsThread"),
        markLine(QStringLiteral("r14")) };
    QCOMPARE(textsOf(tree.hops), (QList<HopText> { access, set }));
    QCOMPARE(tree.hops[1].note, QStringLiteral("mov r14d, 0x11"));
    QCOMPARE(tree.hops[1].confidence, Confidence::Exact); // the immediate is the bytes stored
    // The second thread wrote its own r14 (and stored it) between the two: the walk passed over it.
    QVERIFY(*tree.hops[1].transition < other.transition);
    QVERIFY(other.transition < store.transition);
    const ThreadSpans threads(*m_database);
    QVERIFY(threads.threadAt(other.transition) != threads.threadAt(store.transition));
}

void tst_Origin::farRegisterIsUnknown()
{
    const Access write = lastAccess(m_addresses.value(QStringLiteral("farWord")), Operation::Write);
    const OriginTree tree = originOf(write.rowId);
    QCOMPARE(tree.hops.size(), 2);
    QCOMPARE(textOf(tree.hops[0]),
        (HopText { QStringLiteral("access"), QStringLiteral("farRegister"), markLine(QStringLiteral("far")) }));
    QCOMPARE(tree.hops[1].kind, HopKind::Unknown);
    QCOMPARE(tree.hops[1].registerName, QStringLiteral("r15"));
    QCOMPARE(tree.hops[1].note,
        QStringLiteral("r15: no write by this thread in the 1000000 transitions before %1; not searched further")
            .arg(write.transition.value));
    QCOMPARE(tree.hops[1].transition, Transition { write.transition.value - 1000000 });
}

void tst_Origin::forwardReachesTheFinalRead()
{
    const Access store = lastAccess(m_addresses.value(QStringLiteral("constantWord")), Operation::Write);
    const Access finalRead = lastAccess(m_addresses.value(QStringLiteral("copiedWord")), Operation::Read);
    const OriginTree tree = originOf(store.rowId, Direction::Forward);
    int found = -1;
    for (qsizetype i = 0; i < tree.hops.size(); ++i) {
        if (tree.hops[i].rowId == finalRead.rowId && tree.hops[i].kind == HopKind::Load)
            found = int(i);
    }
    QVERIFY2(found > 0, "the forward tree of the first store does not reach the final read");
    const auto at = [this](const char *kind, const char *function, const char *mark) {
        return HopText { QLatin1String(kind), QLatin1String(function), markLine(QLatin1String(mark)) };
    };
    QCOMPARE(withMemcpyNamed(textsOf(pathTo(tree, found))),
        (QList<HopText> {
            at("access", "storeConstant", "store"),
            at("load", "loadXorStore", "load"),
            at("register", "loadXorStore", "load"),
            at("last_write", "loadXorStore", "load"),
            at("load", "loadXorStore", "xor"),
            at("computed", "loadXorStore", "xor"),
            at("last_write", "loadXorStore", "xor"),
            at("load", "loadXorStore", "heap"),
            at("register", "loadXorStore", "heap"),
            at("last_write", "loadXorStore", "heap"),
            inMemcpy("load"),
            inMemcpy("register"),
            inMemcpy("last_write"),
            at("load", "readCopy", "read"),
        }));
}

void tst_Origin::rowNotInTheHistory()
{
    OriginFinder finder(*m_database);
    OriginRequest request;
    request.row = RowId { 1 << 30 };
    OriginTree tree;
    QString error;
    QVERIFY(!finder.find(request, &tree, &error));
    QCOMPARE(error, QStringLiteral("no access has rowid 1073741824"));
}

void tst_Origin::cliCsv()
{
    const Access read = lastAccess(m_addresses.value(QStringLiteral("neverWritten")) + 2, Operation::Read);
    const CliResult result = runCli({ QStringLiteral("origin"), m_history, QStringLiteral("--row"),
        QString::number(read.rowId.value), QStringLiteral("--format"), QStringLiteral("csv") });
    QCOMPARE(result.exitCode, 0);
    QCOMPARE(result.err, QByteArray());
    const QList<QByteArray> lines = result.out.split('\n');
    QCOMPARE(lines.size(), 4); // header, two hops, the empty piece after the last newline
    QCOMPARE(
        lines[0], QByteArray("step,parent,kind,rowid,transition,pc,function,source,address,size,value,confidence"));
    const QByteArray address = "0x" + QByteArray::number(read.physical.value, 16);
    const QByteArray rootStart
        = "0,,access," + QByteArray::number(read.rowId.value) + ',' + QByteArray::number(read.transition.value) + ",0x";
    const QByteArray rootEnd = "," + address + ",1,07,exact";
    QVERIFY2(lines[1].startsWith(rootStart), lines[1].constData());
    QVERIFY2(lines[1].endsWith(rootEnd), lines[1].constData());
    QCOMPARE(lines[2], QByteArray("1,0,initial,,,,,," + address + ",1,07,unchecked"));
}

void tst_Origin::cliRefusals_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message"); // %1: the history's path

    QTest::newRow("row not in the history") << QStringList { QStringLiteral("--row"),
        QStringLiteral("1073741824") } << 1 << QStringLiteral("memhist origin: %1: no access has rowid 1073741824\n");
    QTest::newRow("no --row") << QStringList {} << 2
                              << QStringLiteral("memhist origin: missing --row (origin needs --row R, a rowid)\n");
    QTest::newRow("row 0") << QStringList { QStringLiteral("--row"), QStringLiteral("0") } << 2
                           << QStringLiteral("memhist origin: --row: '0' is not a rowid (rowids start at 1)\n");
    QTest::newRow("depth 0") << QStringList { QStringLiteral("--row"), QStringLiteral("1"), QStringLiteral("--depth"),
        QStringLiteral("0") } << 2
                             << QStringLiteral("memhist origin: --depth: '0' is not between 1 and 1000\n");
    QTest::newRow("format xml") << QStringList {
        QStringLiteral("--row"), QStringLiteral("1"), QStringLiteral("--format"), QStringLiteral("xml")
    } << 2 << QStringLiteral("memhist origin: --format: 'xml' is not an output format (csv or table)\n");
}

void tst_Origin::cliRefusals()
{
    QFETCH(QStringList, options);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    const CliResult result = runCli(QStringList { QStringLiteral("origin"), m_history } + options);
    QCOMPARE(result.exitCode, exitCode);
    QCOMPARE(result.out, QByteArray());
    QVERIFY2(QString::fromUtf8(result.err).startsWith(message.arg(m_history)), result.err.constData());
}

void tst_Origin::withoutCodeTraceOrValues()
{
    // A CSV of the accesses alone, imported: no code trace, no values.
    const QString csv = path(QStringLiteral("chains.csv"));
    const QString imported = path(QStringLiteral("imported.memhist"));
    QCOMPARE(runCli({ QStringLiteral("export"), m_history, QStringLiteral("-o"), csv }).exitCode, 0);
    QCOMPARE(runCli({ QStringLiteral("import"), csv, QStringLiteral("-o"), imported }).exitCode, 0);
    const Access read = lastAccess(m_addresses.value(QStringLiteral("copiedWord")), Operation::Read);
    const CliResult result = runCli({ QStringLiteral("origin"), imported, QStringLiteral("--row"),
        QString::number(read.rowId.value), QStringLiteral("--format"), QStringLiteral("csv") });
    QCOMPARE(result.exitCode, 0);
    QCOMPARE(QString::fromUtf8(result.err),
        QStringLiteral("memhist origin: %1: no code trace (the instruction of each transition), so only memory hops "
                       "are followed, not registers\n"
                       "memhist origin: %1: no values (the bytes of each access), so no hop can be checked: all are "
                       "unchecked\n")
            .arg(imported));
    const QList<QByteArray> lines = result.out.split('\n');
    QCOMPARE(lines.size(), 4);
    QVERIFY2(lines[1].startsWith("0,,access,"), lines[1].constData());
    QVERIFY2(lines[1].endsWith(",unchecked"), lines[1].constData());
    QVERIFY2(lines[2].startsWith("1,0,last_write,"), lines[2].constData());
    QVERIFY2(lines[2].endsWith(",4,,unchecked"), lines[2].constData());
}

QTEST_GUILESS_MAIN(tst_Origin)
#include "tst_origin.moc"
