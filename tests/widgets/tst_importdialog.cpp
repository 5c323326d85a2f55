// SPDX-License-Identifier: MIT
// The import dialog: its window fields read as `memhist import` reads --skip-instructions and
// --max-instructions, and the choice it returns is what the user filled in; an existing history is
// replaced only after a question that says whether it is the open one.
#include "importdialog.h"
#include "importoutput.h"
#include "mainwindow.h"
#include "traceselection.h"
#include "widgets/plane/planewidget.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace memhist;
using namespace memhist::viewer;

class TestImportDialog : public QObject
{
    Q_OBJECT
private slots:
    // Issue 29.8: the files of a drmemtrace directory, selected in Import Trace…, are the directory.
    void filesOfATraceDirectoryAreTheDirectory_data()
    {
        QTest::addColumn<QStringList>("names"); // in the fixture directory threadsig.x64.tracedir
        QTest::addColumn<bool>("directory"); // imported as the directory, else as they are
        const QString thread = QStringLiteral("drmemtrace.threadsig.%1.trace.zip");
        QStringList threads;
        for (const char *id : { "872805.4975", "872884.3060", "872894.3824", "872901.9125", "872902.5666",
                 "872903.3218", "872904.7848", "872905.5783", "872906.1041" })
            threads << thread.arg(QLatin1String(id));
        const QStringList schedules { QStringLiteral("cpu_schedule.bin.zip"),
            QStringLiteral("serial_schedule.bin.gz") };
        QTest::newRow("every file") << schedules + threads << true;
        QTest::newRow("every thread") << threads << true;
        QTest::newRow("a schedule and one thread") << QStringList { schedules[0], threads[3] } << true;
        QTest::newRow("two threads: a choice of threads") << threads.mid(0, 2) << false;
        QTest::newRow("one thread") << threads.mid(0, 1) << false;
        QTest::newRow("the schedules alone") << schedules << false;
        QTest::newRow("a file not in the directory")
            << QStringList { threads[0], QStringLiteral("../nothing") } << false;
    }
    void filesOfATraceDirectoryAreTheDirectory()
    {
        QFETCH(QStringList, names);
        QFETCH(bool, directory);
        const QString fixture
            = QFileInfo(QFINDTESTDATA("../data/drmemtrace/threadsig.x64.tracedir")).absoluteFilePath();
        QVERIFY(!fixture.isEmpty());
        QStringList paths;
        for (const QString &name : std::as_const(names))
            paths << QDir(fixture).filePath(name);
        QCOMPARE(tracesToImport(paths), directory ? QStringList { fixture } : paths);
    }

    // ... and the window imports it: nine threads, the schedule files skipped, not "unknown format".
    void importingEveryFileOfATraceDirectoryImportsIt()
    {
        QTemporaryDir scratch;
        const QString source = QFINDTESTDATA("../data/drmemtrace/threadsig.x64.tracedir");
        const QString copy = scratch.filePath(QStringLiteral("threadsig.x64.tracedir"));
        QVERIFY(QDir().mkpath(copy));
        QStringList files;
        for (const QString &name : QDir(source).entryList(QDir::Files, QDir::Name)) {
            QVERIFY(QFile::copy(QDir(source).filePath(name), QDir(copy).filePath(name)));
            files << QDir(copy).filePath(name);
        }
        QCOMPARE(files.size(), 11);
        MainWindow window;
        window.setInteractive(false);
        QSignalSpy finished(&window, &MainWindow::importFinished);
        QSignalSpy opened(&window, &MainWindow::historyOpened);
        window.importTraces(files, true);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(1).toString()));
        QTRY_COMPARE(opened.count(), 1);
        QCOMPARE(window.lastError(), QString());
        QCOMPARE(window.historyInfo()->threads, std::optional<qint64>(9));
        QVERIFY2(window.summaryText().contains(QStringLiteral("source threadsig.x64.tracedir (drmemtrace)")),
            qPrintable(window.summaryText()));
    }

    void parsesTheWindow_data()
    {
        QTest::addColumn<QString>("skip");
        QTest::addColumn<QString>("atMost");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<quint64>("skipped");
        QTest::addColumn<qint64>("limit"); // -1: no limit
        QTest::addColumn<QString>("error");
        QTest::newRow("both empty: the whole trace") << QString() << QString() << true << 0ULL << -1LL << QString();
        QTest::newRow("decimal") << QStringLiteral("1000") << QStringLiteral("250") << true << 1000ULL << 250LL
                                 << QString();
        QTest::newRow("hex, blanks around")
            << QStringLiteral(" 0x10 ") << QStringLiteral("0x100") << true << 16ULL << 256LL << QString();
        QTest::newRow("010 is ten, not octal")
            << QStringLiteral("010") << QString() << true << 10ULL << -1LL << QString();
        QTest::newRow("largest skip") << QStringLiteral("18446744073709551615") << QString() << true
                                      << 18446744073709551615ULL << -1LL << QString();
        QTest::newRow("at most 0 is a window of nothing")
            << QString() << QStringLiteral("0") << true << 0ULL << 0LL << QString();
        QTest::newRow("negative skip") << QStringLiteral("-5") << QString() << false << 0ULL << -1LL
                                       << QStringLiteral("Skip: '-5' is not a number of instructions (decimal or 0x "
                                                         "hex, up to 2^64-1)");
        QTest::newRow("words in at most")
            << QString() << QStringLiteral("ten") << false << 0ULL << -1LL
            << QStringLiteral("At most: 'ten' is not a number of instructions (decimal or 0x hex, up to 2^64-1)");
        QTest::newRow("skip past 64 bits")
            << QStringLiteral("18446744073709551616") << QString() << false << 0ULL << -1LL
            << QStringLiteral("Skip: '18446744073709551616' is not a number of instructions (decimal or 0x hex, up "
                              "to 2^64-1)");
    }
    void parsesTheWindow()
    {
        QFETCH(QString, skip);
        QFETCH(QString, atMost);
        QFETCH(bool, ok);
        QFETCH(quint64, skipped);
        QFETCH(qint64, limit);
        QFETCH(QString, error);
        ImportOptions options;
        QString message;
        QCOMPARE(parseImportWindow(skip, atMost, &options, &message), ok);
        QCOMPARE(message, error);
        if (!ok)
            return;
        QCOMPARE(options.skipInstructions, skipped);
        QCOMPARE(options.maxInstructions.has_value(), limit >= 0);
        if (limit >= 0)
            QCOMPARE(*options.maxInstructions, quint64(limit));
    }

    // Filled as a user would: the choice holds the fields; a bad field disables Import and says why.
    void theChoiceIsWhatWasFilledIn()
    {
        ImportDialog dialog({ QStringLiteral("/traces/a.lackey.gz") }, QStringLiteral("/tmp/a.memhist"));
        auto *output = dialog.findChild<QLineEdit *>(QStringLiteral("outputEdit"));
        auto *withExecute = dialog.findChild<QCheckBox *>(QStringLiteral("withExecuteCheck"));
        auto *skip = dialog.findChild<QLineEdit *>(QStringLiteral("skipEdit"));
        auto *atMost = dialog.findChild<QLineEdit *>(QStringLiteral("atMostEdit"));
        auto *problem = dialog.findChild<QLabel *>(QStringLiteral("problemLabel"));
        auto *buttons = dialog.findChild<QDialogButtonBox *>();
        QVERIFY(output && withExecute && skip && atMost && problem && buttons);
        QPushButton *import = nullptr;
        for (QAbstractButton *button : buttons->buttons()) {
            if (buttons->buttonRole(button) == QDialogButtonBox::AcceptRole)
                import = qobject_cast<QPushButton *>(button);
        }
        QVERIFY(import);

        QCOMPARE(output->text(), QStringLiteral("/tmp/a.memhist"));
        QVERIFY(import->isEnabled());
        ImportChoice choice = dialog.choice();
        QCOMPARE(choice.output, QStringLiteral("/tmp/a.memhist"));
        QCOMPARE(choice.options.withExecute, false);
        QCOMPARE(choice.options.skipInstructions, 0u);
        QVERIFY(!choice.options.maxInstructions);

        QTest::keyClicks(skip, QStringLiteral("x1"));
        QVERIFY(!import->isEnabled());
        QCOMPARE(problem->text(),
            QStringLiteral("Skip: 'x1' is not a number of instructions (decimal or 0x hex, up to 2^64-1)"));
        skip->clear();
        QTest::keyClicks(skip, QStringLiteral("0x1000"));
        QTest::keyClicks(atMost, QStringLiteral("500"));
        withExecute->setChecked(true);
        output->setText(QStringLiteral("/tmp/window"));
        QVERIFY(import->isEnabled());
        QCOMPARE(problem->text(), QString());
        choice = dialog.choice();
        QCOMPARE(choice.output, QStringLiteral("/tmp/window.memhist"));
        QCOMPARE(choice.options.withExecute, true);
        QCOMPARE(choice.options.skipInstructions, 4096u);
        QCOMPARE(choice.options.maxInstructions, std::optional<std::uint64_t>(500));

        output->clear();
        QVERIFY(!import->isEnabled());
        QCOMPARE(problem->text(), QStringLiteral("Choose where the history is written."));
    }

    // The default output never names an existing file: NAME-2, NAME-3, ... beside it.
    void theDefaultOutputIsAFreeName()
    {
        QTemporaryDir directory;
        const QString taken = directory.filePath(QStringLiteral("big.memhist"));
        QCOMPARE(freeHistoryPath(taken), taken);
        QVERIFY(touch(taken));
        QCOMPARE(freeHistoryPath(taken), directory.filePath(QStringLiteral("big-2.memhist")));
        QVERIFY(touch(directory.filePath(QStringLiteral("big-2.memhist"))));
        QCOMPARE(freeHistoryPath(taken), directory.filePath(QStringLiteral("big-3.memhist")));
    }

    void theReplaceQuestion_data()
    {
        QTest::addColumn<QString>("output"); // in the directory, which holds a.memhist and b.memhist
        QTest::addColumn<QString>("open"); // the history open in the window ("" = none)
        QTest::addColumn<QString>("question");
        QTest::newRow("a new file: no question")
            << QStringLiteral("new.memhist") << QStringLiteral("a.memhist") << QString();
        QTest::newRow("an existing file") << QStringLiteral("b.memhist") << QStringLiteral("a.memhist")
                                          << QStringLiteral("b.memhist exists — Replace it?");
        QTest::newRow("an existing file, nothing open")
            << QStringLiteral("b.memhist") << QString() << QStringLiteral("b.memhist exists — Replace it?");
        QTest::newRow("the open history") << QStringLiteral("a.memhist") << QStringLiteral("a.memhist")
                                          << QStringLiteral("a.memhist is the history open in this window — Replace "
                                                            "it with this import?");
        QTest::newRow("the open history, by another path")
            << QStringLiteral("./sub/../a.memhist") << QStringLiteral("a.memhist")
            << QStringLiteral("a.memhist is the history open in this window — Replace it with this import?");
    }
    void theReplaceQuestion()
    {
        QFETCH(QString, output);
        QFETCH(QString, open);
        QFETCH(QString, question);
        QTemporaryDir directory;
        QVERIFY(QDir(directory.path()).mkdir(QStringLiteral("sub")));
        QVERIFY(touch(directory.filePath(QStringLiteral("a.memhist"))));
        QVERIFY(touch(directory.filePath(QStringLiteral("b.memhist"))));
        QCOMPARE(replaceQuestion(directory.filePath(output), open.isEmpty() ? QString() : directory.filePath(open)),
            question);
    }

    // Import on an existing output asks first; "no" keeps the dialog open, "yes" is in the choice.
    void importAsksBeforeReplacing()
    {
        QTemporaryDir directory;
        const QString open = directory.filePath(QStringLiteral("a.memhist"));
        QVERIFY(touch(open));
        ImportDialog dialog({ QStringLiteral("/traces/a.lackey.gz") }, open);
        dialog.setOpenHistory(open);
        QStringList asked;
        bool answer = false;
        dialog.setReplaceConfirmer([&](QWidget *, const QString &question) {
            asked << question;
            return answer;
        });
        dialog.show();
        dialog.accept();
        QCOMPARE(asked,
            QStringList {
                QStringLiteral("a.memhist is the history open in this window — Replace it with this import?") });
        QVERIFY(dialog.isVisible());
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
        QCOMPARE(dialog.choice().replaceConfirmed, false);

        answer = true;
        dialog.accept();
        QCOMPARE(asked.size(), 2);
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QCOMPARE(dialog.choice().output, open);
        QCOMPARE(dialog.choice().replaceConfirmed, true);

        // Another name afterwards: the confirmation was for the first one only; a free name asks nothing.
        auto *output = dialog.findChild<QLineEdit *>(QStringLiteral("outputEdit"));
        output->setText(directory.filePath(QStringLiteral("new.memhist")));
        QCOMPARE(dialog.choice().replaceConfirmed, false);
        dialog.show();
        dialog.accept();
        QCOMPARE(asked.size(), 2);
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
    }

private:
    static bool touch(const QString &path)
    {
        QFile file(path);
        return file.open(QIODevice::WriteOnly) && file.write("x") == 1;
    }
};

QTEST_MAIN(TestImportDialog)
#include "tst_importdialog.moc"
