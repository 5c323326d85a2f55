// SPDX-License-Identifier: MIT
// Find Value… (Ctrl+F): the dialog's fields become the exact search (integer or hex bytes, range,
// operations, direction) or say what is wrong; the search fills the Results tab with exactly the
// matching rows, in order, the status line naming the value; Run ends it; Export stays off.
#include "findvaluedialog.h"
#include "mainwindow.h"
#include "testsupport.h"
#include "widgets/plane/planewidget.h"
#include "widgets/query/querypanel.h"
#include "widgets/query/resultsmodel.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace memhist;
using namespace memhist::test;

class TestFindValue : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void dialogBuildsTheSearch();
    void dialogSaysWhatIsWrong_data();
    void dialogSaysWhatIsWrong();
    void searchFillsTheResults();

private:
    QTemporaryDir m_dir;
    QString m_history;
};

namespace {

bool numbers(const QString &text, std::uint64_t *address, QString *error)
{
    bool ok = false;
    *address = text.toULongLong(&ok, 0);
    if (!ok)
        *error = QStringLiteral("'%1' is no address").arg(text);
    return ok;
}

} // namespace

void TestFindValue::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // A counter at 0x1000 written 1, 2, 3 and read back as 3; "hello" at 0x2000, read as "ell".
    m_history = m_dir.filePath(QStringLiteral("values.memhist"));
    QVERIFY(writeHistoryWithValues(m_history,
        {
            { userAccess(10, Operation::Write, 0x1000, 4), byteArrayOf({ 1, 0, 0, 0 }) },
            { userAccess(20, Operation::Write, 0x1000, 4), byteArrayOf({ 2, 0, 0, 0 }) },
            { userAccess(25, Operation::Write, 0x2000, 5), "hello" },
            { userAccess(30, Operation::Write, 0x1000, 4), byteArrayOf({ 3, 0, 0, 0 }) },
            { userAccess(31, Operation::Read, 0x1000, 4), byteArrayOf({ 3, 0, 0, 0 }) },
            { userAccess(32, Operation::Read, 0x2001, 3), "ell" },
        }));
}

void TestFindValue::dialogBuildsTheSearch()
{
    viewer::FindValueDialog dialog(numbers);
    dialog.valueEdit()->setText(QStringLiteral("-2"));
    dialog.sizeCombo()->setCurrentIndex(1); // 2 bytes
    dialog.fromEdit()->setText(QStringLiteral("0x1000"));
    dialog.writesCheck()->setChecked(false);
    dialog.directionCombo()->setCurrentIndex(1);
    dialog.transitionEdit()->setText(QStringLiteral("1,000"));
    dialog.accept();
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    QCOMPARE(dialog.search().value, byteArrayOf({ 0xfe, 0xff }));
    QCOMPARE(dialog.search().query.first, Address { 0x1000 });
    QCOMPARE(dialog.search().query.last, Address { 0x1001 }); // the value's size from the first address
    QCOMPARE(dialog.search().query.operations, Operations(Operation::Read));
    QCOMPARE(dialog.search().query.direction, Direction::Backward);
    QCOMPARE(dialog.search().query.at, std::optional<Transition>(Transition { 1000 }));

    viewer::FindValueDialog hex(numbers);
    hex.kindCombo()->setCurrentIndex(1);
    QVERIFY(!hex.sizeCombo()->isEnabled());
    hex.valueEdit()->setText(QStringLiteral("68 65:6c"));
    hex.accept();
    QCOMPARE(hex.result(), int(QDialog::Accepted));
    QCOMPARE(hex.search().value, QByteArray("hel"));
    QCOMPARE(hex.search().query.first, Address { 0 });
    QCOMPARE(hex.search().query.last, Address { ~std::uint64_t(0) });
    QCOMPARE(hex.search().query.operations, Operations(Operation::Read) | Operation::Write);
    QCOMPARE(hex.search().query.at, std::nullopt);
}

void TestFindValue::dialogSaysWhatIsWrong_data()
{
    QTest::addColumn<int>("kind"); // 0 integer, 1 hex
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("to");
    QTest::addColumn<QString>("message");
    QTest::newRow("nothing") << 0 << QString() << QString() << QString() << QStringLiteral("Type the value to find.");
    QTest::newRow("too large") << 0 << QStringLiteral("4294967296") << QString() << QString()
                               << QStringLiteral("Value: 4294967296 does not fit in 4 bytes");
    QTest::newRow("odd hex") << 1 << QStringLiteral("abc") << QString() << QString()
                             << QStringLiteral("Value: 'abc' is not hex bytes in memory order (pairs of hex digits, "
                                               "e.g. 2a00)");
    QTest::newRow("reversed range") << 0 << QStringLiteral("1") << QStringLiteral("0x2000") << QStringLiteral("0x1000")
                                    << QStringLiteral("The last address is before the first.");
    QTest::newRow("no such address") << 0 << QStringLiteral("1") << QStringLiteral("counter") << QString()
                                     << QStringLiteral("'counter' is no address");
}

void TestFindValue::dialogSaysWhatIsWrong()
{
    QFETCH(int, kind);
    QFETCH(QString, value);
    QFETCH(QString, from);
    QFETCH(QString, to);
    QFETCH(QString, message);
    viewer::FindValueDialog dialog(numbers);
    dialog.kindCombo()->setCurrentIndex(kind);
    dialog.valueEdit()->setText(value);
    dialog.fromEdit()->setText(from);
    dialog.toEdit()->setText(to);
    dialog.accept();
    QCOMPARE(dialog.result(), int(QDialog::Rejected));
    QCOMPARE(dialog.errorText(), message);
}

void TestFindValue::searchFillsTheResults()
{
    viewer::MainWindow window;
    window.setInteractive(false);
    window.resize(1400, 900);
    window.show();
    QSignalSpy planeLoaded(window.plane(), &PlaneWidget::historyLoaded);
    window.openHistory(m_history);
    QVERIFY(planeLoaded.wait(20000) || planeLoaded.count() == 1);
    auto *action = window.findChild<QAction *>(QStringLiteral("findValueAction"));
    QVERIFY(action);
    QCOMPARE(action->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_F));

    QueryPanel *panel = window.queryPanel();
    ValueSearch search;
    search.value = byteArrayOf({ 3, 0, 0, 0 });
    panel->runValueSearch(search);
    QVERIFY(QTest::qWaitFor([&] { return panel->resultsModel()->isExhausted(); }, 10000));
    const QList<Access> rows = panel->resultsModel()->loadedAccesses();
    QCOMPARE(rows.size(), 2);
    QCOMPARE(rows[0].rowId, RowId { 4 });
    QCOMPARE(rows[1].rowId, RowId { 5 });
    auto *status = panel->findChild<QLabel *>(QStringLiteral("statusLabel"));
    QCOMPARE(status->text(), QStringLiteral("2 rows holding 03 00 00 00: 2 rows loaded (all)"));
    QVERIFY(!panel->exportAction()->isEnabled());

    search.value = QByteArray("xyz");
    panel->runValueSearch(search);
    QVERIFY(QTest::qWaitFor([&] { return panel->resultsModel()->isExhausted(); }, 10000));
    QCOMPARE(panel->resultsModel()->rowCount(), 0);
    QCOMPARE(status->text(), QStringLiteral("No access holds 78 79 7a in this window and time"));

    // Any query ends the search: its rows, and Export back.
    HalfAxisQuery query;
    panel->runQuery(query);
    QVERIFY(QTest::qWaitFor([&] { return panel->resultsModel()->isExhausted(); }, 10000));
    QCOMPARE(panel->resultsModel()->rowCount(), 6);
    QVERIFY(!panel->valueSearch());
    QVERIFY(panel->exportAction()->isEnabled());

    // A history without values: the search fails with the engine's words.
    const QString plain = m_dir.filePath(QStringLiteral("plain.memhist"));
    QString error;
    QVERIFY2(writeHistory(plain, { userAccess(1, Operation::Read, 0x10, 4) }, {}, &error), qPrintable(error));
    QSignalSpy loaded(window.plane(), &PlaneWidget::historyLoaded);
    window.openHistory(plain);
    QVERIFY(loaded.wait(20000) || loaded.count() == 1);
    panel->runValueSearch(search);
    auto *inputError = panel->findChild<QLabel *>(QStringLiteral("inputErrorLabel"));
    QVERIFY(inputError);
    QVERIFY(QTest::qWaitFor([&] { return panel->resultsModel()->hasFailed(); }, 10000));
    QCOMPARE(inputError->text(),
        QStringLiteral("The query failed: this history has no values (record the program with `memhist record`, or "
                       "import a trace that has them)"));
}

QTEST_MAIN(TestFindValue)
#include "tst_findvalue.moc"
