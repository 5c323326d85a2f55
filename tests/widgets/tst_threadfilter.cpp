// SPDX-License-Identifier: MIT
// ThreadFilter: the history's threads with their access counts, read in the background; a history
// without threads keeps "All threads" alone and disabled; and the query panel builds its queries
// through it, so that choosing a thread reruns the query with that thread's accesses only, the
// rows `memhist query --thread` prints.
#include "testsupport.h"
#include "widgets/query/querypanel.h"
#include "widgets/query/resultsmodel.h"
#include "widgets/query/threadfilter.h"

#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace memhist;
using namespace memhist::test;

namespace {

QStringList itemTexts(const QComboBox &combo)
{
    QStringList texts;
    for (int i = 0; i < combo.count(); ++i)
        texts << combo.itemText(i);
    return texts;
}

bool waitForThreads(ThreadFilter *filter)
{
    QSignalSpy spy(filter, &ThreadFilter::threadsLoaded);
    return !filter->isLoading() || spy.wait(10000);
}

// The model's rows as the command line's CSV, through the cells' copy form (CsvRole: the display
// groups the digits of row ids and transitions).
QByteArray rowsAsCsv(const ResultsModel &model, int rows)
{
    QByteArray text = "rowid,transition,operation,address,linear,size\n";
    for (int row = 0; row < std::min(rows, model.rowCount()); ++row) {
        QByteArrayList fields;
        for (int column = ResultsModel::RowIdColumn; column <= ResultsModel::SizeColumn; ++column)
            fields << model.index(row, column).data(ResultsModel::CsvRole).toByteArray();
        text += fields.join(',') + '\n';
    }
    return text;
}

} // namespace

class TestThreadFilter : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();

    void listsEachThreadWithItsAccesses();
    void historyWithoutThreadsKeepsAllThreads();
    void choiceBeforeTheListArrivesIsKept();
    void choosingAThreadRerunsThePanelsQuery();
    void runQueryShowsItsThreads();

private:
    QTemporaryDir m_dir;
    QString m_threads; // tests/data/drmemtrace/legacy-gz.x64.tracedir: threads 10506, 10510, 10511, 10512
    QString m_small; // tests/data/csv/small.csv: no threads
};

void TestThreadFilter::initTestCase()
{
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    QVERIFY(m_dir.isValid());
    m_threads = m_dir.filePath(QStringLiteral("threads.memhist"));
    m_small = m_dir.filePath(QStringLiteral("small.memhist"));
    QVERIFY(!cliOutput({ QStringLiteral("import"), QFINDTESTDATA("../data/drmemtrace/legacy-gz.x64.tracedir"),
                           QStringLiteral("-o"), m_threads })
                 .isEmpty());
    QVERIFY(
        !cliOutput({ QStringLiteral("import"), QFINDTESTDATA("../data/csv/small.csv"), QStringLiteral("-o"), m_small })
             .isEmpty());
}

// The counts are each thread's reads plus writes as tst_drmemtraceimporter counts them.
void TestThreadFilter::listsEachThreadWithItsAccesses()
{
    ThreadFilter filter;
    QVERIFY(!filter.isEnabled());
    QSignalSpy loaded(&filter, &ThreadFilter::threadsLoaded);
    filter.setHistory(m_threads);
    QVERIFY(filter.isLoading());
    QCOMPARE(itemTexts(filter), QStringList { QStringLiteral("All threads") });
    QVERIFY(loaded.wait(10000));
    QCOMPARE(loaded.size(), 1);
    QCOMPARE(loaded.at(0).at(0).toInt(), 4);
    QCOMPARE(loaded.at(0).at(1).toString(), QString());
    QCOMPARE(itemTexts(filter),
        (QStringList { QStringLiteral("All threads"), QStringLiteral("Thread 10506 (2,203 accesses)"),
            QStringLiteral("Thread 10510 (2,436 accesses)"), QStringLiteral("Thread 10511 (40,923 accesses)"),
            QStringLiteral("Thread 10512 (24,953 accesses)") }));
    QVERIFY(filter.isEnabled());
    QCOMPARE(filter.threads(), QList<qint64>());
    QCOMPARE(filter.toolTip(), QStringLiteral("Show only the accesses of the transitions this thread ran"));

    QSignalSpy changed(&filter, &ThreadFilter::threadsChanged);
    filter.setFocus();
    QTest::keyClick(&filter, Qt::Key_Down);
    QTest::keyClick(&filter, Qt::Key_Down);
    QCOMPARE(filter.currentText(), QStringLiteral("Thread 10510 (2,436 accesses)"));
    QCOMPARE(filter.threads(), QList<qint64> { 10510 });
    QCOMPARE(changed.size(), 2);
    QCOMPARE(changed.at(1).at(0).value<QList<qint64>>(), QList<qint64> { 10510 });
    HalfAxisQuery query;
    query.limit = 7;
    const HalfAxisQuery filtered = filter.applyTo(query);
    QCOMPARE(filtered.threads, QList<qint64> { 10510 });
    QCOMPARE(filtered.limit, quint64(7));

    // Another history: back to "All threads" until its list arrives.
    filter.setHistory(m_small);
    QCOMPARE(filter.threads(), QList<qint64>());
    QCOMPARE(itemTexts(filter), QStringList { QStringLiteral("All threads") });
    QVERIFY(waitForThreads(&filter));
}

void TestThreadFilter::historyWithoutThreadsKeepsAllThreads()
{
    ThreadFilter filter;
    QSignalSpy loaded(&filter, &ThreadFilter::threadsLoaded);
    filter.setHistory(m_small);
    QVERIFY(loaded.wait(10000));
    QCOMPARE(loaded.size(), 1);
    QCOMPARE(loaded.at(0).at(0).toInt(), 0);
    QCOMPARE(loaded.at(0).at(1).toString(), QString());
    QCOMPARE(itemTexts(filter), QStringList { QStringLiteral("All threads") });
    QVERIFY(!filter.isEnabled());
    QCOMPARE(filter.toolTip(), QStringLiteral("This history records no threads (drmemtrace imports do)"));
    QCOMPARE(filter.threads(), QList<qint64>());

    filter.setHistory(QString());
    QVERIFY(!filter.isLoading());
    QCOMPARE(filter.toolTip(), QStringLiteral("Open a history to filter by thread"));
}

void TestThreadFilter::choiceBeforeTheListArrivesIsKept()
{
    ThreadFilter filter;
    QSignalSpy changed(&filter, &ThreadFilter::threadsChanged);
    filter.setHistory(m_threads);
    filter.setThreads({ 10511 });
    QCOMPARE(filter.threads(), QList<qint64> { 10511 });
    QVERIFY(waitForThreads(&filter));
    QCOMPARE(filter.currentText(), QStringLiteral("Thread 10511 (40,923 accesses)"));
    QCOMPARE(filter.threads(), QList<qint64> { 10511 });
    // A set of threads gets an entry of its own.
    filter.setThreads({ 10511, 10512 });
    QCOMPARE(filter.currentText(), QStringLiteral("Threads 10511, 10512"));
    QCOMPARE(filter.threads(), (QList<qint64> { 10511, 10512 }));
    QCOMPARE(filter.count(), 6);
    filter.setThreads({});
    QCOMPARE(filter.currentText(), QStringLiteral("All threads"));
    QCOMPARE(changed.size(), 0); // only the user's choices are signalled
}

// Thread 10510 ran [194, 1290], then 10506 [1291, 1366], then 10510 again from 1367.
void TestThreadFilter::choosingAThreadRerunsThePanelsQuery()
{
    QueryPanel panel;
    panel.setHistory(m_threads);
    auto *filter = panel.findChild<ThreadFilter *>(QStringLiteral("threadFilter"));
    QVERIFY(filter);
    QVERIFY(waitForThreads(filter));
    // The default query's first page first, so that the page awaited below is the filtered one.
    QSignalSpy defaultPage(panel.resultsModel(), &ResultsModel::pageLoaded);
    QVERIFY(panel.resultsModel()->rowCount() > 0 || defaultPage.wait(10000));
    panel.findChild<QLineEdit *>(QStringLiteral("transitionEdit"))->setText(QStringLiteral("1290"));
    QSignalSpy pages(panel.resultsModel(), &ResultsModel::pageLoaded);
    filter->setFocus();
    QTest::keyClick(filter, Qt::Key_Down);
    QTest::keyClick(filter, Qt::Key_Down);
    QCOMPARE(filter->threads(), QList<qint64> { 10510 });
    QCOMPARE(panel.currentQuery().threads, QList<qint64> { 10510 });
    QVERIFY(pages.wait(10000));
    const QByteArray expected = cliOutput({ QStringLiteral("query"), m_threads, QStringLiteral("--thread"),
        QStringLiteral("10510"), QStringLiteral("--at"), QStringLiteral("1290"), QStringLiteral("--limit"),
        QStringLiteral("4"), QStringLiteral("--format"), QStringLiteral("csv") });
    QCOMPARE(rowsAsCsv(*panel.resultsModel(), 4), expected);
    QCOMPARE(panel.resultsModel()->accessAt(0).transition, Transition { 1370 });

    // Back to every thread: 10506's access at 1291 comes first.
    QTest::keyClick(filter, Qt::Key_Home);
    QCOMPARE(panel.currentQuery().threads, QList<qint64>());
    QVERIFY(pages.wait(10000));
    QCOMPARE(panel.resultsModel()->accessAt(0).transition, Transition { 1291 });
}

void TestThreadFilter::runQueryShowsItsThreads()
{
    QueryPanel panel;
    panel.setHistory(m_threads);
    auto *filter = panel.findChild<ThreadFilter *>(QStringLiteral("threadFilter"));
    QVERIFY(waitForThreads(filter));
    HalfAxisQuery query;
    query.setThreads({ 10506 });
    panel.runQuery(query);
    QCOMPARE(filter->currentText(), QStringLiteral("Thread 10506 (2,203 accesses)"));
    // Run builds the query from the inputs, the filter included.
    panel.findChild<QPushButton *>(QStringLiteral("runButton"))->click();
    QCOMPARE(panel.currentQuery().threads, QList<qint64> { 10506 });

    // A query made elsewhere (a click on the plane) keeps the chosen thread through the panel's filter.
    HalfAxisQuery click;
    click.direction = Direction::Backward;
    click.at = Transition { 200 };
    QCOMPARE(panel.threadFilter(), filter);
    panel.runQuery(panel.threadFilter()->applyTo(click));
    QCOMPARE(panel.currentQuery().threads, QList<qint64> { 10506 });
    QCOMPARE(panel.currentQuery().at, std::optional<Transition>(Transition { 200 }));
    QCOMPARE(filter->currentText(), QStringLiteral("Thread 10506 (2,203 accesses)"));
    QSignalSpy pages(panel.resultsModel(), &ResultsModel::pageLoaded);
    QVERIFY(panel.resultsModel()->rowCount() > 0 || pages.wait(10000));
    // Transition 200 is 10510's; 10506's last access before it is at 191 (row 112).
    QCOMPARE(panel.resultsModel()->accessAt(0).rowId, RowId { 112 });
}

QTEST_MAIN(TestThreadFilter)
#include "tst_threadfilter.moc"
