// SPDX-License-Identifier: MIT
// The toolbar's click-to-query section: its defaults, settings set and read back (the window clamped
// to what the spin box holds), what the next window remembers, and what it adds to a toolbar.
#include "clickquerycontrols.h"

#include <QAction>
#include <QLabel>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTest>
#include <QToolBar>

using namespace memhist;
using namespace memhist::viewer;

namespace {

int operationsOf(const ClickQuerySettings &settings)
{
    return int(settings.operations.toInt());
}

const int readsAndWrites = int((Operations(Operation::Read) | Operation::Write).toInt());
const int writes = int(Operations(Operation::Write).toInt());

QAction *actionNamed(QWidget &window, const QString &text)
{
    for (QAction *action : window.findChildren<QAction *>()) {
        if (action->text() == text)
            return action;
    }
    return nullptr;
}

} // namespace

class TestClickQueryControls : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("memhist-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_clickquerycontrols"));
    }
    void init() { QSettings().clear(); }

    void defaultsAndRoundTrip()
    {
        QWidget window;
        ClickQueryControls controls(&window);
        QCOMPARE(operationsOf(controls.settings()), readsAndWrites);
        QCOMPARE(controls.settings().windowBytes, quint64(64));
        controls.setSettings({ Operation::Write, 4096 });
        QCOMPARE(operationsOf(controls.settings()), writes);
        QCOMPARE(controls.settings().windowBytes, quint64(4096));
        controls.setSettings({ Operation::Read, quint64(1) << 30 }); // more than the spin box holds
        QCOMPARE(operationsOf(controls.settings()), int(Operations(Operation::Read).toInt()));
        QCOMPARE(controls.settings().windowBytes, quint64(1) << 24);
        controls.setSettings({ Operations(), 0 }); // neither: both, as a click must ask something
        QCOMPARE(operationsOf(controls.settings()), readsAndWrites);
        QCOMPARE(controls.settings().windowBytes, quint64(0));
    }

    void theNextWindowRemembers_data()
    {
        QTest::addColumn<bool>("userPicksWrites");
        QTest::addColumn<int>("windowBytes"); // typed by the user, or -1
        QTest::addColumn<int>("operations");
        QTest::addColumn<quint64>("rememberedWindow");
        QTest::newRow("nothing changed: the defaults") << false << -1 << readsAndWrites << quint64(64);
        QTest::newRow("the user picks Writes") << true << -1 << writes << quint64(64);
        QTest::newRow("the user types a window") << false << 16 << readsAndWrites << quint64(16);
        QTest::newRow("both") << true << 256 << writes << quint64(256);
    }
    void theNextWindowRemembers()
    {
        QFETCH(bool, userPicksWrites);
        QFETCH(int, windowBytes);
        {
            QWidget window;
            ClickQueryControls controls(&window);
            controls.restoreSettings();
            if (userPicksWrites) {
                QAction *writesAction = actionNamed(window, QStringLiteral("Writes"));
                QVERIFY(writesAction);
                writesAction->trigger();
            }
            if (windowBytes >= 0)
                window.findChild<QSpinBox *>(QStringLiteral("queryWindow"))->setValue(windowBytes);
        }
        QWidget window;
        ClickQueryControls controls(&window);
        controls.restoreSettings();
        QTEST(operationsOf(controls.settings()), "operations");
        QTEST(controls.settings().windowBytes, "rememberedWindow");
    }

    void settingsSetByCodeRememberTheWindowOnly()
    {
        // Only a user's pick of operations is remembered; the window is remembered as it changes.
        {
            QWidget window;
            ClickQueryControls controls(&window);
            controls.setSettings({ Operation::Write, 32 });
        }
        QWidget window;
        ClickQueryControls controls(&window);
        controls.restoreSettings();
        QCOMPARE(operationsOf(controls.settings()), readsAndWrites);
        QCOMPARE(controls.settings().windowBytes, quint64(32));
    }

    // Issue 13 item 4d: Executes adds executes to whichever of the three is chosen, and is remembered.
    void executesAddToTheChoice()
    {
        const int all = int(allOperations().toInt());
        const int writesAndExecutes = int((Operations(Operation::Write) | Operation::Execute).toInt());
        {
            QWidget window;
            ClickQueryControls controls(&window);
            QAction *executes = actionNamed(window, QStringLiteral("Executes"));
            QVERIFY(executes);
            QVERIFY(executes->isCheckable());
            QVERIFY(!executes->isChecked());
            QCOMPARE(executes->toolTip(),
                QStringLiteral("A click on the plane also queries executes (when the code there ran)\nClick on the "
                               "plane: the accesses from the clicked one on; Ctrl+click: the accesses before it"));
            for (const QString &name :
                { QStringLiteral("Reads"), QStringLiteral("Writes"), QStringLiteral("Reads + Writes") })
                QVERIFY(actionNamed(window, name)
                            ->toolTip()
                            .endsWith(QStringLiteral("; Ctrl+click: the accesses before it")));
            QVERIFY(window.findChild<QSpinBox *>(QStringLiteral("queryWindow"))
                        ->toolTip()
                        .endsWith(QStringLiteral("; Ctrl+click: the accesses before it")));
            executes->trigger();
            QCOMPARE(operationsOf(controls.settings()), all);
            actionNamed(window, QStringLiteral("Writes"))->trigger();
            QCOMPARE(operationsOf(controls.settings()), writesAndExecutes);
            controls.setSettings({ Operation::Read, 8 });
            QVERIFY(!executes->isChecked());
            controls.setSettings({ Operations(Operation::Read) | Operation::Execute, 8 });
            QVERIFY(executes->isChecked());
            QCOMPARE(
                operationsOf(controls.settings()), int((Operations(Operation::Read) | Operation::Execute).toInt()));
        }
        // The user's last pick (Writes + Executes) is what the next window starts with.
        QWidget window;
        ClickQueryControls controls(&window);
        controls.restoreSettings();
        QCOMPARE(operationsOf(controls.settings()), writesAndExecutes);
    }

    void anEmptyClickQueryHintsWhatToDo()
    {
        // A click where no access is under the cursor asks a window around the point.
        QCOMPARE(clickQueryNoRowsHint(std::nullopt), QStringLiteral("zoom in, or widen “within” on the toolbar"));
        // A click on an access asks from it: it is the first row, there is always one.
        QCOMPARE(clickQueryNoRowsHint(Access {
                     RowId { 7 }, Transition { 2 }, Operation::Write, Address { 0x7ffc0000 }, std::nullopt, 8 }),
            QString());
    }

    void addsItsSectionToAToolbar()
    {
        QWidget window;
        ClickQueryControls controls(&window);
        QToolBar bar;
        controls.addTo(&bar);
        QStringList texts;
        for (QAction *action : bar.actions()) {
            QWidget *widget = bar.widgetForAction(action);
            if (auto *label = qobject_cast<QLabel *>(widget))
                texts << label->text();
            else if (qobject_cast<QSpinBox *>(widget))
                texts << widget->objectName();
            else
                texts << action->text();
        }
        QCOMPARE(texts,
            (QStringList { QStringLiteral("Click: "), QStringLiteral("Reads"), QStringLiteral("Writes"),
                QStringLiteral("Reads + Writes"), QStringLiteral("Executes"), QStringLiteral("within "),
                QStringLiteral("queryWindow") }));
    }
};

QTEST_MAIN(TestClickQueryControls)
#include "tst_clickquerycontrols.moc"
