// SPDX-License-Identifier: MIT
// ResultsModel: pages fetched in the background, appended once each, stale pages dropped, the
// same rows as the query engine and the memhist command line, forward and backward.
#include "core/csv/csvaccessformat.h"
#include "core/search/valuesearch.h"
#include "core/storage/historydatabase.h"
#include "core/storage/sqlite.h"
#include "core/writer/historywriter.h"
#include "testsupport.h"
#include "widgets/query/resultsmodel.h"

#include <QAbstractItemModelTester>
#include <QFontDatabase>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace memhist;
using namespace memhist::test;

namespace {

QString smallCsv()
{
    return QFINDTESTDATA("../data/csv/small.csv");
}

// A deterministic history of 3000 accesses with small caps, so that a query crosses many slices
// and chunks: reads, writes and executes over three regions, some without a linear address.
bool writeSyntheticHistory(const QString &path, bool withThreads)
{
    WriterOptions options;
    options.sliceAccessCap = 200;
    options.chunkAccessCap = 50;
    options.chunkTargetAccesses = 8;
    HistoryWriter writer(path, options);
    if (!writer.open())
        return false;
    for (int i = 0; i < 3000; ++i) {
        Access access;
        access.transition = Transition { std::uint64_t(i / 3) };
        access.operation = i % 7 == 0 ? Operation::Execute : (i % 3 == 1 ? Operation::Write : Operation::Read);
        const std::uint64_t base = i % 5 == 0 ? 0x401000 : (i % 5 < 3 ? 0x7ffc0000 : 0x601000);
        access.physical = Address { base + std::uint64_t((i * 13) % 512) };
        if (i % 11 != 0)
            access.linear = access.physical;
        access.size = 1u << (i % 4);
        if (!writer.add(access))
            return false;
    }
    if (withThreads) {
        writer.addThreadSpan(101, Transition { 0 }, Transition { 499 });
        writer.addThreadSpan(202, Transition { 500 }, Transition { 999 });
    }
    return writer.finish();
}

// Every match of `query`, from the engine in one run.
QList<Access> everyMatch(const QString &path, HalfAxisQuery query)
{
    QString error;
    const auto database = HistoryDatabase::open(path, &error);
    if (!database)
        return {};
    HalfAxisQueryEngine engine(*database);
    query.limit = 1'000'000;
    QueryPage page;
    if (!engine.run(query, &page, &error))
        return {};
    return page.accesses;
}

// Drives the model like a view scrolled to the end: fetchMore whenever it can, until exhausted.
bool loadEverything(ResultsModel &model, QSignalSpy &pageSpy)
{
    for (int guard = 0; guard < 10000; ++guard) {
        if (model.isExhausted())
            return true;
        if (!model.isLoading())
            model.fetchMore({});
        if (!pageSpy.wait(10000))
            return false;
    }
    return false;
}

HalfAxisQuery makeQuery(Direction direction, std::optional<std::uint64_t> at, std::uint64_t first, std::uint64_t last,
    Operations operations)
{
    HalfAxisQuery query;
    query.direction = direction;
    if (at)
        query.at = Transition { *at };
    query.first = Address { first };
    query.last = Address { last };
    query.operations = operations;
    return query;
}

} // namespace

class TestResultsModel : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();

    void fetchesEveryRowExactlyOnce_data();
    void fetchesEveryRowExactlyOnce();
    void matchesCommandLine_data();
    void matchesCommandLine();
    void repeatedFetchMoreWhileLoadingAddsNothing();
    void newQueryDropsStalePages();
    void displayRoles();
    void threadColumn();
    void missingHistoryFails();
    void damagedHistoryFailsWithTheEnginesMessage();
    void valueSearchPagesLikeAQuery_data();
    void valueSearchPagesLikeAQuery();
    void cancelledValueSearchKeepsItsRows();
    void jumpsShowTheExactRows_data();
    void jumpsShowTheExactRows();
    void newQueryOvertakesAJump();

private:
    QTemporaryDir m_dir;
    QString m_synthetic;
    QString m_withThreads;
    QString m_small;
};

void TestResultsModel::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_synthetic = m_dir.filePath(QStringLiteral("synthetic.memhist"));
    m_withThreads = m_dir.filePath(QStringLiteral("threads.memhist"));
    m_small = m_dir.filePath(QStringLiteral("small.memhist"));
    QVERIFY(writeSyntheticHistory(m_synthetic, false));
    QVERIFY(writeSyntheticHistory(m_withThreads, true));
    QVERIFY(!cliOutput({ QStringLiteral("import"), smallCsv(), QStringLiteral("-o"), m_small }).isEmpty());
}

void TestResultsModel::fetchesEveryRowExactlyOnce_data()
{
    QTest::addColumn<HalfAxisQuery>("query");
    QTest::addColumn<int>("pageSize");
    QTest::addColumn<int>("expectedRows");

    const Operations rw = Operations(Operation::Read) | Operation::Write;
    const std::uint64_t all = ~std::uint64_t(0);
    // 3000 accesses; executes are i % 7 == 0 (429 of them), so reads and writes are 2571.
    QTest::newRow("forward, everything, pages of 500") << makeQuery(Direction::Forward, {}, 0, all, rw) << 500 << 2571;
    QTest::newRow("backward, everything, pages of 500")
        << makeQuery(Direction::Backward, {}, 0, all, rw) << 500 << 2571;
    QTest::newRow("forward, all operations, pages of 1000 (exact multiple: one empty last page)")
        << makeQuery(Direction::Forward, {}, 0, all, allOperations()) << 1000 << 3000;
    QTest::newRow("forward from 400, stack window, pages of 37")
        << makeQuery(Direction::Forward, 400, 0x7ffc0000, 0x7ffc00ff, rw) << 37 << -1;
    QTest::newRow("backward from 700, stack window, pages of 37")
        << makeQuery(Direction::Backward, 700, 0x7ffc0000, 0x7ffc00ff, rw) << 37 << -1;
    QTest::newRow("backward, executes only, pages of 7")
        << makeQuery(Direction::Backward, {}, 0, all, Operations(Operation::Execute)) << 7 << 429;
    QTest::newRow("window with no match") << makeQuery(Direction::Forward, {}, 0x10, 0x20, rw) << 500 << 0;
}

void TestResultsModel::fetchesEveryRowExactlyOnce()
{
    QFETCH(HalfAxisQuery, query);
    QFETCH(int, pageSize);
    QFETCH(int, expectedRows);

    const QList<Access> expected = everyMatch(m_synthetic, query);
    if (expectedRows >= 0)
        QCOMPARE(expected.size(), expectedRows);
    else
        QVERIFY(expected.size() > 3 * pageSize); // several pages

    ResultsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy pageSpy(&model, &ResultsModel::pageLoaded);
    QSignalSpy appendedSpy(&model, &ResultsModel::accessesAppended);
    QSignalSpy failedSpy(&model, &ResultsModel::queryFailed);
    model.setHistory(m_synthetic);
    model.setPageSize(pageSize);
    model.setQuery(query);
    QVERIFY(model.isLoading());
    QCOMPARE(model.rowCount(), 0); // nothing is inserted before the page arrives
    QVERIFY(loadEverything(model, pageSpy));

    QCOMPARE(model.loadedAccesses(), expected);
    QCOMPARE(model.rowCount(), expected.size());
    QVERIFY(!model.canFetchMore({}));
    QVERIFY(!model.isLoading());
    // Full pages, then one short (possibly empty) page that says "exhausted".
    const int pages = int(expected.size()) / pageSize + 1;
    QCOMPARE(pageSpy.size(), pages);
    for (int i = 0; i < pages; ++i) {
        const int rowsSoFar = std::min<int>(int(expected.size()), (i + 1) * pageSize);
        QCOMPARE(pageSpy.at(i).at(0).toInt(), rowsSoFar);
        QCOMPARE(pageSpy.at(i).at(1).toBool(), i == pages - 1);
    }
    QList<Access> appended;
    for (const QList<QVariant> &arguments : std::as_const(appendedSpy))
        appended += arguments.at(0).value<QList<Access>>();
    QCOMPARE(appended, expected);
    QCOMPARE(appendedSpy.size(), int(expected.size() + pageSize - 1) / pageSize);
    QCOMPARE(failedSpy.size(), 0);
}

void TestResultsModel::matchesCommandLine_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<HalfAxisQuery>("query");
    QTest::addColumn<int>("rows");

    const Operations rw = Operations(Operation::Read) | Operation::Write;
    const std::uint64_t all = ~std::uint64_t(0);
    QTest::newRow("forward, default operations")
        << QStringList {} << makeQuery(Direction::Forward, {}, 0, all, rw) << 15;
    QTest::newRow("backward, default operations")
        << QStringList { QStringLiteral("--backward") } << makeQuery(Direction::Backward, {}, 0, all, rw) << 15;
    QTest::newRow("forward from 5 in 0x601000..0x601007, rwx")
        << QStringList { QStringLiteral("--at"), QStringLiteral("5"), QStringLiteral("--from"),
               QStringLiteral("0x601000"), QStringLiteral("--to"), QStringLiteral("0x601007"), QStringLiteral("--ops"),
               QStringLiteral("rwx") }
        << makeQuery(Direction::Forward, 5, 0x601000, 0x601007, allOperations()) << 3;
    QTest::newRow("backward from 9, reads only")
        << QStringList { QStringLiteral("--backward"), QStringLiteral("--at"), QStringLiteral("9"),
               QStringLiteral("--ops"), QStringLiteral("r") }
        << makeQuery(Direction::Backward, 9, 0, all, Operations(Operation::Read)) << 7;
}

void TestResultsModel::matchesCommandLine()
{
    QFETCH(QStringList, options);
    QFETCH(HalfAxisQuery, query);
    QFETCH(int, rows);

    const QByteArray cli = cliOutput(QStringList { QStringLiteral("query"), m_small, QStringLiteral("--format"),
                                         QStringLiteral("csv"), QStringLiteral("--limit"), QStringLiteral("1000") }
        + options);
    QVERIFY(!cli.isEmpty());

    ResultsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy pageSpy(&model, &ResultsModel::pageLoaded);
    model.setHistory(m_small);
    model.setPageSize(4); // several pages over 20 rows
    model.setQuery(query);
    QVERIFY(loadEverything(model, pageSpy));
    QCOMPARE(pageSpy.size(), rows / 4 + 1);
    QCOMPARE(model.rowCount(), rows);

    QByteArray text = csv::header() + '\n';
    for (const Access &access : model.loadedAccesses())
        text += csv::formatRow(access) + '\n';
    QCOMPARE(text, cli);
}

void TestResultsModel::repeatedFetchMoreWhileLoadingAddsNothing()
{
    ResultsModel model;
    QSignalSpy pageSpy(&model, &ResultsModel::pageLoaded);
    model.setHistory(m_synthetic);
    model.setPageSize(100);
    model.setQuery(HalfAxisQuery {});
    // A view scrolled to the bottom calls fetchMore on every layout: only one page may be queued.
    for (int i = 0; i < 20; ++i)
        model.fetchMore({});
    QVERIFY(pageSpy.wait());
    QCOMPARE(pageSpy.size(), 1);
    QCOMPARE(pageSpy.at(0).at(0).toInt(), 100);
    QCOMPARE(model.rowCount(), 100);
    QCOMPARE(model.loadedAccesses(), everyMatch(m_synthetic, HalfAxisQuery {}).mid(0, 100));
    // One more page, asked for now: the worker answers in order, so a duplicate request queued by
    // the calls above would have been answered before it.
    QVERIFY(!model.isLoading());
    model.fetchMore({});
    QVERIFY(pageSpy.wait());
    QCOMPARE(pageSpy.size(), 2);
    QCOMPARE(pageSpy.at(1).at(0).toInt(), 200);
    QCOMPARE(model.rowCount(), 200);
    QCOMPARE(model.loadedAccesses(), everyMatch(m_synthetic, HalfAxisQuery {}).mid(0, 200));
}

void TestResultsModel::newQueryDropsStalePages()
{
    ResultsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy pageSpy(&model, &ResultsModel::pageLoaded);
    QSignalSpy appendedSpy(&model, &ResultsModel::accessesAppended);
    model.setHistory(m_synthetic);
    model.setPageSize(5000);
    HalfAxisQuery backward;
    backward.direction = Direction::Backward;
    model.setQuery(HalfAxisQuery {}); // replaced before its page can arrive
    model.setQuery(backward);
    // The worker answers in order: the replaced query's page, had it been delivered, would have
    // come before this one.
    QVERIFY(pageSpy.wait());
    QCOMPARE(pageSpy.size(), 1);
    QCOMPARE(pageSpy.at(0).at(0).toInt(), 2571);
    QCOMPARE(pageSpy.at(0).at(1).toBool(), true);
    QCOMPARE(appendedSpy.size(), 1);
    QCOMPARE(model.loadedAccesses(), everyMatch(m_synthetic, backward));
    QCOMPARE(model.loadedAccesses().constFirst().rowId, RowId { 3000 });
}

void TestResultsModel::displayRoles()
{
    ResultsModel model;
    QSignalSpy pageSpy(&model, &ResultsModel::pageLoaded);
    model.setHistory(m_small);
    model.setQuery(HalfAxisQuery {});
    QVERIFY(pageSpy.wait());
    QCOMPARE(pageSpy.size(), 1);
    QCOMPARE(model.rowCount(), 15);
    QVERIFY(!model.hasThreads());

    const auto text = [&](int row, int column) { return model.index(row, column).data().toString(); };
    // small.csv row 2: 2,0,W,0x7ffc0000,0x7ffc0000,8
    QCOMPARE(text(0, ResultsModel::RowIdColumn), QStringLiteral("2"));
    QCOMPARE(text(0, ResultsModel::TransitionColumn), QStringLiteral("0"));
    QCOMPARE(text(0, ResultsModel::OperationColumn), QStringLiteral("W"));
    QCOMPARE(text(0, ResultsModel::AddressColumn), QStringLiteral("0x7ffc0000"));
    QCOMPARE(text(0, ResultsModel::LinearColumn), QStringLiteral("0x7ffc0000"));
    QCOMPARE(text(0, ResultsModel::SizeColumn), QStringLiteral("8"));
    QCOMPARE(text(0, ResultsModel::ThreadColumn), QString());
    // small.csv row 8: 8,3,R,0x601004,,4 (no linear address)
    QCOMPARE(text(4, ResultsModel::RowIdColumn), QStringLiteral("8"));
    QCOMPARE(text(4, ResultsModel::LinearColumn), QString());
    // small.csv row 12: the highest address
    QCOMPARE(text(7, ResultsModel::AddressColumn), QStringLiteral("0xfffffffffffffff8"));

    const Access access = model.index(4, 0).data(ResultsModel::AccessRole).value<Access>();
    QCOMPARE(access.rowId, RowId { 8 });
    QCOMPARE(access.transition, Transition { 3 });
    QCOMPARE(access.operation, Operation::Read);
    QCOMPARE(access.physical, Address { 0x601004 });
    QVERIFY(!access.linear);
    QCOMPARE(access.size, 4u);

    QCOMPARE(model.index(0, ResultsModel::AddressColumn).data(Qt::FontRole).value<QFont>().family(),
        QFontDatabase::systemFont(QFontDatabase::FixedFont).family());
    QCOMPARE(model.index(0, ResultsModel::SizeColumn).data(Qt::TextAlignmentRole).value<Qt::Alignment>(),
        Qt::AlignRight | Qt::AlignVCenter);
    QCOMPARE(model.index(0, ResultsModel::OperationColumn).data(Qt::ToolTipRole).toString(), QStringLiteral("Write"));
    QCOMPARE(model.headerData(ResultsModel::AddressColumn, Qt::Horizontal).toString(), QStringLiteral("Address"));
}

void TestResultsModel::threadColumn()
{
    ResultsModel model;
    QSignalSpy pageSpy(&model, &ResultsModel::pageLoaded);
    QSignalSpy headerSpy(&model, &QAbstractItemModel::headerDataChanged);
    model.setHistory(m_withThreads);
    QCOMPARE(headerSpy.size(), 1); // setHistory: no threads known yet
    model.setPageSize(3000);
    model.setQuery(makeQuery(Direction::Forward, {}, 0, ~std::uint64_t(0), allOperations()));
    QVERIFY(pageSpy.wait());
    QCOMPARE(pageSpy.size(), 1);
    QVERIFY(model.hasThreads());
    QCOMPARE(headerSpy.size(), 2);
    QCOMPARE(model.rowCount(), 3000);
    // Transition = row / 3: spans [0, 499] -> 101, [500, 999] -> 202.
    QCOMPARE(model.index(0, ResultsModel::ThreadColumn).data().toString(), QStringLiteral("101"));
    QCOMPARE(model.index(1499, ResultsModel::ThreadColumn).data().toString(), QStringLiteral("101"));
    QCOMPARE(model.index(1500, ResultsModel::ThreadColumn).data().toString(), QStringLiteral("202"));
    QCOMPARE(model.index(2999, ResultsModel::ThreadColumn).data().toString(), QStringLiteral("202"));
    // Row ids shown grouped as on the status line; copy and export (CsvRole) keep the plain number.
    QCOMPARE(model.index(2999, 0).data(ResultsModel::AccessRole).value<Access>().rowId, RowId { 3000 });
    QCOMPARE(model.index(2999, ResultsModel::RowIdColumn).data().toString(), QStringLiteral("3,000"));
    QCOMPARE(model.index(2999, ResultsModel::RowIdColumn).data(ResultsModel::CsvRole).toByteArray(), "3000");
    QCOMPARE(model.rowsAsCsv({ 2999 }, { ResultsModel::RowIdColumn }), QByteArray("rowid\n3000\n"));
}

void TestResultsModel::missingHistoryFails()
{
    ResultsModel model;
    QSignalSpy failedSpy(&model, &ResultsModel::queryFailed);
    QSignalSpy pageSpy(&model, &ResultsModel::pageLoaded);
    const QString missing = m_dir.filePath(QStringLiteral("missing.memhist"));
    model.setHistory(missing);
    model.setQuery(HalfAxisQuery {});
    QVERIFY(failedSpy.wait());
    QCOMPARE(failedSpy.size(), 1);
    QCOMPARE(failedSpy.at(0).at(0).toString(), missing + QStringLiteral(": no such file"));
    QCOMPARE(pageSpy.size(), 0);
    QVERIFY(model.hasFailed());
    QVERIFY(!model.canFetchMore({}));
    QCOMPARE(model.rowCount(), 0);
}

// A property violation the engine meets reaches the view as the engine words it, and no row is shown.
void TestResultsModel::damagedHistoryFailsWithTheEnginesMessage()
{
    const QString damaged = m_dir.filePath(QStringLiteral("damaged.memhist"));
    QVERIFY(QFile::copy(m_synthetic, damaged));
    {
        sqlite::Connection db;
        QVERIFY(db.open(damaged, sqlite::Connection::Mode::ReadWriteCreate));
        QVERIFY(db.execute("UPDATE accesses SET operation = 3 WHERE rowid = 2"));
    }
    const HalfAxisQuery query = makeQuery(Direction::Forward, {}, 0, ~std::uint64_t(0), allOperations());
    QString expected;
    {
        QString error;
        const auto database = HistoryDatabase::open(damaged, &error);
        QVERIFY2(database, qPrintable(error));
        HalfAxisQueryEngine engine(*database);
        HalfAxisQuery first = query;
        first.limit = 500; // the model's page size
        QueryPage page;
        QVERIFY(!engine.run(first, &page, &expected));
    }
    QVERIFY2(expected.startsWith(QStringLiteral("access 2 (transition 0): ")), qPrintable(expected));
    QVERIFY2(expected.endsWith(QStringLiteral("; the database is damaged: run 'memhist check %1'").arg(damaged)),
        qPrintable(expected));

    ResultsModel model;
    QSignalSpy failedSpy(&model, &ResultsModel::queryFailed);
    QSignalSpy pageSpy(&model, &ResultsModel::pageLoaded);
    model.setHistory(damaged);
    model.setQuery(query);
    QVERIFY(failedSpy.wait());
    QCOMPARE(failedSpy.size(), 1);
    QCOMPARE(failedSpy.at(0).at(0).toString(), expected);
    QCOMPARE(pageSpy.size(), 0);
    QVERIFY(model.hasFailed());
    QCOMPARE(model.rowCount(), 0);
}

namespace {

// 600 accesses with values over 64 bytes: every seventh access's bytes hold "AB" (its first row is
// 1, then 8, 15, …); the others hold bytes without an 'A'.
QString writeValuedHistory(const QString &path, QList<qint64> *matching)
{
    QList<ValuedAccess> stream;
    for (int i = 0; i < 600; ++i) {
        const Operation operation = i % 2 == 0 ? Operation::Write : Operation::Read;
        QByteArray value = i % 7 == 0 ? QByteArrayLiteral("xABy") : QByteArrayLiteral("wxyz");
        stream << ValuedAccess { userAccess(std::uint64_t(i) * 2, operation, 0x2000 + std::uint64_t(i % 16) * 4, 4),
            value };
        if (i % 7 == 0)
            matching->append(i + 1);
    }
    return writeHistoryWithValues(path, stream) ? path : QString();
}

QList<qint64> rowIdsOf(const ResultsModel &model)
{
    QList<qint64> rowIds;
    for (const Access &access : model.loadedAccesses())
        rowIds << access.rowId.value;
    return rowIds;
}

} // namespace

void TestResultsModel::valueSearchPagesLikeAQuery_data()
{
    QTest::addColumn<int>("direction");
    QTest::addColumn<int>("pageSize");
    QTest::newRow("forward, pages of 5") << int(Direction::Forward) << 5;
    QTest::newRow("backward, pages of 3") << int(Direction::Backward) << 3;
    QTest::newRow("forward, one page") << int(Direction::Forward) << 1000;
}

void TestResultsModel::valueSearchPagesLikeAQuery()
{
    QFETCH(int, direction);
    QFETCH(int, pageSize);
    QList<qint64> matching;
    const QString path
        = writeValuedHistory(m_dir.filePath(QStringLiteral("valued-%1.memhist").arg(pageSize)), &matching);
    QVERIFY(!path.isEmpty());
    if (Direction(direction) == Direction::Backward)
        std::reverse(matching.begin(), matching.end());

    ResultsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setHistory(path);
    model.setPageSize(pageSize);
    ValueSearch search;
    search.query.direction = Direction(direction);
    search.value = QByteArrayLiteral("AB");
    QSignalSpy pages(&model, &ResultsModel::pageLoaded);
    model.setValueSearch(search);
    QVERIFY(model.valueSearch().has_value());
    // Scrolled to the end page by page, as the table does.
    QVERIFY(QTest::qWaitFor(
        [&] {
            if (!model.isLoading() && model.canFetchMore({}))
                model.fetchMore({});
            return model.isExhausted() || model.hasFailed();
        },
        20000));
    QVERIFY(!model.hasFailed());
    QCOMPARE(rowIdsOf(model), matching);
    QVERIFY(pages.count() >= int((matching.size() + pageSize - 1) / pageSize));

    // A query afterwards is a query again.
    HalfAxisQuery query;
    query.first = Address { 0x2000 };
    query.last = Address { 0x2003 };
    model.setQuery(query);
    QVERIFY(!model.valueSearch());
    QVERIFY(QTest::qWaitFor([&] { return !model.isLoading(); }, 20000));
    QCOMPARE(model.accessAt(0).rowId, RowId { 1 });
    QCOMPARE(model.accessAt(1).rowId, RowId { 17 });
}

void TestResultsModel::cancelledValueSearchKeepsItsRows()
{
    QList<qint64> matching;
    const QString path = writeValuedHistory(m_dir.filePath(QStringLiteral("valued-cancel.memhist")), &matching);
    QVERIFY(!path.isEmpty());
    ResultsModel model;
    model.setHistory(path);
    model.setPageSize(4);
    ValueSearch search;
    search.value = QByteArrayLiteral("AB");
    model.setValueSearch(search);
    QVERIFY(QTest::qWaitFor([&] { return !model.isLoading(); }, 20000));
    QCOMPARE(rowIdsOf(model), matching.mid(0, 4));
    // The next page is asked for and cancelled at once: the four rows stay, nothing more comes.
    QSignalSpy cancelled(&model, &ResultsModel::searchCancelled);
    model.fetchMore({});
    QVERIFY(model.isLoading());
    model.cancelSearch();
    QCOMPARE(cancelled.count(), 1);
    QCOMPARE(cancelled.at(0).at(0).toInt(), 4);
    QVERIFY(model.isCancelled());
    QVERIFY(!model.isLoading());
    QVERIFY(!model.canFetchMore({}));
    QTest::qWait(200);
    QCOMPARE(rowIdsOf(model), matching.mid(0, 4));
    // A new search starts over.
    model.setValueSearch(search);
    QVERIFY(!model.isCancelled());
    QVERIFY(QTest::qWaitFor([&] { return !model.isLoading(); }, 20000));
    QCOMPARE(rowIdsOf(model), matching.mid(0, 4));
}

namespace {

// Waits for the jump in flight to land.
bool waitForJump(QSignalSpy &jumpSpy, qsizetype jumpsBefore)
{
    return jumpSpy.size() > jumpsBefore || jumpSpy.wait(10000);
}

// Grows the window back to the result's first row, a page at a time, as a view scrolled up does.
bool loadBackToStart(ResultsModel &model, QSignalSpy &pageSpy)
{
    for (int guard = 0; guard < 10000; ++guard) {
        if (model.isAtStart())
            return true;
        model.fetchPrevious();
        if (!pageSpy.wait(10000))
            return false;
    }
    return false;
}

} // namespace

void TestResultsModel::jumpsShowTheExactRows_data()
{
    QTest::addColumn<HalfAxisQuery>("query");
    QTest::addColumn<bool>("exactSize");

    const Operations rw = Operations(Operation::Read) | Operation::Write;
    const std::uint64_t all = ~std::uint64_t(0);
    // Every row of the history matches: the size is counted, row N is rowid N + 1.
    QTest::newRow("forward, every operation and address")
        << makeQuery(Direction::Forward, {}, 0, all, allOperations()) << true;
    QTest::newRow("backward from 800, every operation and address")
        << makeQuery(Direction::Backward, 800, 0, all, allOperations()) << true;
    // Some rows of the range match: the size is an estimate, the jumps land near the row asked for.
    QTest::newRow("forward, reads and writes") << makeQuery(Direction::Forward, {}, 0, all, rw) << false;
    QTest::newRow("forward from 400, stack window")
        << makeQuery(Direction::Forward, 400, 0x7ffc0000, 0x7ffc00ff, rw) << false;
    QTest::newRow("backward from 700, stack window")
        << makeQuery(Direction::Backward, 700, 0x7ffc0000, 0x7ffc00ff, rw) << false;
    HalfAxisQuery resumed = makeQuery(Direction::Forward, 100, 0, all, allOperations());
    resumed.resumeAfter = RowId { 1000 };
    QTest::newRow("forward from 100 resumed after row 1000 (the resume point bounds it)") << resumed << true;
}

// The last page, a page in the middle and every page back to the first are the engine's rows, in
// order, each once; the positions and the size are exact where the size is counted.
void TestResultsModel::jumpsShowTheExactRows()
{
    QFETCH(HalfAxisQuery, query);
    QFETCH(bool, exactSize);
    const QList<Access> expected = everyMatch(m_synthetic, query);
    const int pageSize = 37;
    QVERIFY(expected.size() > 4 * pageSize);

    ResultsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy pageSpy(&model, &ResultsModel::pageLoaded);
    QSignalSpy jumpSpy(&model, &ResultsModel::jumped);
    QSignalSpy prependSpy(&model, &ResultsModel::rowsPrepended);
    QSignalSpy failedSpy(&model, &ResultsModel::queryFailed);
    model.setHistory(m_synthetic);
    model.setPageSize(pageSize);
    QVERIFY(!model.canJump());
    QSignalSpy sizeSpy(&model, &ResultsModel::resultSizeChanged);
    model.setQuery(query);
    QVERIFY(pageSpy.wait());
    // The size follows the first page.
    QVERIFY(sizeSpy.wait());
    QCOMPARE(sizeSpy.size(), 1);
    QVERIFY(model.canJump());
    QCOMPARE(model.isResultSizeExact(), exactSize);
    if (exactSize)
        QCOMPARE(model.resultSize(), expected.size());
    else // an estimate of the right order
        QVERIFY2(model.resultSize() > expected.size() / 3 && model.resultSize() < expected.size() * 3,
            qPrintable(QString::number(model.resultSize())));

    // The end: the last page, without the rows between.
    model.showEnd();
    QVERIFY(waitForJump(jumpSpy, 0));
    QCOMPARE(jumpSpy.size(), 1);
    QCOMPARE(model.loadedAccesses(), expected.mid(expected.size() - pageSize));
    QVERIFY(model.isExhausted());
    QVERIFY(!model.isAtStart());
    QVERIFY(!model.canFetchMore({}));
    QCOMPARE(model.arePositionsExact(), exactSize);
    if (exactSize)
        QCOMPARE(model.windowStart(), expected.size() - pageSize);
    QCOMPARE(model.windowStart() + model.rowCount(), model.resultSize());

    // Back up to the first row: every row once, in order, the positions then exact.
    QVERIFY(loadBackToStart(model, pageSpy));
    QCOMPARE(model.loadedAccesses(), expected);
    QCOMPARE(model.windowStart(), 0);
    QVERIFY(model.arePositionsExact());
    QCOMPARE(model.resultSize(), expected.size());
    QVERIFY(model.isResultSizeExact());
    int prepended = 0;
    for (const QList<QVariant> &arguments : std::as_const(prependSpy))
        prepended += arguments.at(0).toInt();
    QCOMPARE(prepended, expected.size() - pageSize);

    // The middle: a page starting at (exactly, or near) the row asked for, growing both ways.
    const qint64 middle = expected.size() / 2;
    model.showPosition(middle);
    QVERIFY(waitForJump(jumpSpy, 1));
    QCOMPARE(model.rowCount(), pageSize);
    const qsizetype landed = expected.indexOf(model.accessAt(0));
    QVERIFY(landed > 0);
    if (exactSize)
        QCOMPARE(landed, middle);
    else
        QVERIFY2(qAbs(landed - middle) < expected.size() / 3, qPrintable(QString::number(landed)));
    QCOMPARE(model.windowStart(), middle);
    QCOMPARE(model.loadedAccesses(), expected.mid(landed, pageSize));
    QVERIFY(loadEverything(model, pageSpy));
    QCOMPARE(model.loadedAccesses(), expected.mid(landed));
    QVERIFY(loadBackToStart(model, pageSpy));
    QCOMPARE(model.loadedAccesses(), expected);
    QCOMPARE(model.resultSize(), expected.size());

    // The start again.
    model.showStart();
    QVERIFY(waitForJump(jumpSpy, 2));
    QCOMPARE(model.loadedAccesses(), expected.mid(0, pageSize));
    QVERIFY(model.isAtStart());
    QCOMPARE(model.windowStart(), 0);
    QCOMPARE(failedSpy.size(), 0);
}

void TestResultsModel::newQueryOvertakesAJump()
{
    ResultsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy pageSpy(&model, &ResultsModel::pageLoaded);
    QSignalSpy jumpSpy(&model, &ResultsModel::jumped);
    model.setHistory(m_synthetic);
    model.setPageSize(10);
    QSignalSpy sizeSpy(&model, &ResultsModel::resultSizeChanged);
    model.setQuery(HalfAxisQuery {});
    QVERIFY(sizeSpy.wait());
    QVERIFY(model.canJump());
    model.showEnd();
    HalfAxisQuery backward;
    backward.direction = Direction::Backward;
    model.setQuery(backward); // before the end's page arrives
    QVERIFY(pageSpy.wait());
    QTest::qWait(100);
    // The end's page never lands: the rows are the new query's from its first (the tester fetches
    // more as it checks each insertion).
    QCOMPARE(jumpSpy.size(), 0);
    QVERIFY(model.rowCount() >= 10);
    QCOMPARE(model.loadedAccesses(), everyMatch(m_synthetic, backward).mid(0, model.rowCount()));
    QVERIFY(model.isAtStart());
    QCOMPARE(model.windowStart(), 0);
}

QTEST_MAIN(TestResultsModel)
#include "tst_resultsmodel.moc"
