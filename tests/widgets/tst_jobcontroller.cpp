// SPDX-License-Identifier: MIT
// The viewer's job controller without its window: a newer open replaces an older one, a missing
// history says why, the output chooser decides where an import goes (and may not overwrite the
// trace), an import or a recording replaces an existing history only when confirmed, Cancel in the
// status bar stops an import and leaves nothing behind, and one import or recording runs at a time
// (the recording is the real `memhist record`, ended by Cancel).
#include "core/storage/sqlite.h"
#include "historyinfo.h"
#include "jobcontroller.h"
#include "jobprogresswidget.h"
#include "recordjob.h"
#include "testsupport.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>
#include <csignal>

using namespace memhist;
using namespace memhist::test;
using namespace memhist::viewer;

Q_DECLARE_METATYPE(memhist::viewer::HistoryInfo)

namespace {

QString smallCsv()
{
    return QFINDTESTDATA("../data/csv/small.csv");
}

bool importSmallCsv(const QString &output)
{
    return runCli({ QStringLiteral("import"), smallCsv(), QStringLiteral("-o"), output }).exitCode == 0;
}

// small.csv copied into `directory`, so that what is written beside it stays there.
QString copySmallCsv(const QTemporaryDir &directory)
{
    const QString trace = directory.filePath(QStringLiteral("small.csv"));
    return QFile::copy(smallCsv(), trace) ? trace : QString();
}

// A CSV trace of `rows` accesses: long enough that its importer reports progress many times.
bool writeLongCsv(const QString &path, int rows)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return false;
    QByteArray text = "rowid,transition,operation,address,linear,size\n";
    for (int i = 0; i < rows; ++i)
        text += QByteArray::number(i + 1) + ',' + QByteArray::number(i) + ",R,0x"
            + QByteArray::number(0x601000 + 8 * (i % 512), 16) + ",0x"
            + QByteArray::number(0x601000 + 8 * (i % 512), 16) + ",8\n";
    return file.write(text) == text.size();
}

QStringList entries(const QTemporaryDir &directory)
{
    return QDir(directory.path()).entryList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden, QDir::Name);
}

} // namespace

class TestJobController : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(!smallCsv().isEmpty());
        qRegisterMetaType<HistoryInfo>();
    }

    void aNewerOpenReplacesAnOlderOne()
    {
        QTemporaryDir directory;
        const QString first = directory.filePath(QStringLiteral("first.memhist"));
        const QString second = directory.filePath(QStringLiteral("second.memhist"));
        QVERIFY(importSmallCsv(first));
        QVERIFY(importSmallCsv(second));
        JobProgressWidget progress;
        JobController jobs(&progress);
        QSignalSpy ready(&jobs, &JobController::historyReady);
        QSignalSpy status(&jobs, &JobController::statusChanged);
        jobs.openHistory(first);
        jobs.openHistory(second, QStringLiteral("recorded"));
        QTRY_COMPARE(ready.count(), 1);
        QThreadPool::globalInstance()->waitForDone();
        QCoreApplication::processEvents(); // the first summary, read too, is dropped
        QCOMPARE(ready.count(), 1);
        QCOMPARE(ready.first().at(0).toString(), second);
        QCOMPARE(ready.first().at(1).value<HistoryInfo>().summary.accesses, 20);
        QCOMPARE(ready.first().at(2).toString(), QStringLiteral("recorded"));
        QCOMPARE(status.count(), 2);
        QCOMPARE(status.last().at(0).toString(), QStringLiteral("Opening %1…").arg(QDir::toNativeSeparators(second)));
    }

    void aMissingHistorySaysWhy()
    {
        QTemporaryDir directory;
        const QString missing = directory.filePath(QStringLiteral("missing.memhist"));
        JobProgressWidget progress;
        JobController jobs(&progress);
        QSignalSpy failed(&jobs, &JobController::failed);
        QSignalSpy ready(&jobs, &JobController::historyReady);
        jobs.openHistory(missing);
        QTRY_COMPARE(failed.count(), 1);
        QCOMPARE(failed.first().at(0).toString(), QStringLiteral("Cannot open the history"));
        QVERIFY2(failed.first().at(1).toString().startsWith(missing + QStringLiteral(": ")),
            qPrintable(failed.first().at(1).toString()));
        QCOMPARE(ready.count(), 0);
    }

    void theOutputChooserDecides_data()
    {
        QTest::addColumn<bool>("ask");
        QTest::addColumn<QString>("chosen"); // what the chooser answers ("" = the user cancelled)
        QTest::addColumn<QStringList>("files"); // in the directory afterwards
        QTest::newRow("not asked: beside the trace")
            << false << QStringLiteral("unused.memhist")
            << QStringList { QStringLiteral("small.csv"), QStringLiteral("small.memhist") };
        QTest::newRow("asked: where the user says")
            << true << QStringLiteral("chosen.memhist")
            << QStringList { QStringLiteral("chosen.memhist"), QStringLiteral("small.csv") };
        QTest::newRow("asked, the user cancels: nothing")
            << true << QString() << QStringList { QStringLiteral("small.csv") };
    }
    void theOutputChooserDecides()
    {
        QFETCH(bool, ask);
        QFETCH(QString, chosen);
        QFETCH(QStringList, files);
        QTemporaryDir directory;
        const QString trace = copySmallCsv(directory);
        QVERIFY(!trace.isEmpty());
        JobProgressWidget progress;
        JobController jobs(&progress);
        QStringList suggested;
        jobs.setImportChooser([&](const QStringList &traces, const QString &suggestion) -> std::optional<ImportChoice> {
            if (traces != QStringList { trace })
                return ImportChoice { QStringLiteral("wrong traces"), {} };
            suggested << suggestion;
            if (chosen.isEmpty())
                return std::nullopt;
            return ImportChoice { directory.filePath(chosen), {} };
        });
        QSignalSpy imported(&jobs, &JobController::importFinished);
        QSignalSpy ready(&jobs, &JobController::historyReady);
        QSignalSpy failed(&jobs, &JobController::failed);
        jobs.importTraces({ trace }, ask);
        QCOMPARE(suggested, ask ? QStringList { directory.filePath(QStringLiteral("small.memhist")) } : QStringList {});
        if (chosen.isEmpty()) {
            QVERIFY(!jobs.isBusy());
        } else {
            QTRY_COMPARE(imported.count(), 1);
            QVERIFY2(imported.first().at(0).toBool(), qPrintable(imported.first().at(1).toString()));
            const QString message = imported.first().at(1).toString();
            QVERIFY(message.startsWith(QStringLiteral("Imported 20 accesses into ")));
            // The time in ms under a second ("in 0.0 s" said nothing); the rate a whole count, grouped
            // as every count ("826,213 accesses/s"), never "826 k" or "1.5 M".
            static const QRegularExpression rate(
                QStringLiteral(R"( in (\d{1,4} ms|\d+\.\d s) \(\d{1,3}(,\d{3})* accesses/s\)$)"));
            QVERIFY2(rate.match(message).hasMatch(), qPrintable(message));
            QTRY_COMPARE(ready.count(), 1); // then opened, with the import's summary as its status
            QCOMPARE(ready.first().at(2).toString(), imported.first().at(1).toString());
        }
        QCOMPARE(failed.count(), 0);
        QCOMPARE(entries(directory), files);
    }

    // The import dialog's window (Skip the first / Import at most) reaches the importer: small.csv's
    // rows at transitions 5..8, as `memhist import --skip-instructions 5 --max-instructions 4` keeps.
    void theChosenWindowIsImported()
    {
        QTemporaryDir directory;
        const QString trace = copySmallCsv(directory);
        QVERIFY(!trace.isEmpty());
        const QString output = directory.filePath(QStringLiteral("window.memhist"));
        JobProgressWidget progress;
        JobController jobs(&progress);
        jobs.setImportChooser([&](const QStringList &, const QString &) {
            ImportChoice choice { output, {} };
            choice.options.skipInstructions = 5;
            choice.options.maxInstructions = 4;
            return choice;
        });
        QSignalSpy imported(&jobs, &JobController::importFinished);
        jobs.importTraces({ trace }, true);
        QTRY_COMPARE(imported.count(), 1);
        QVERIFY2(imported.first().at(0).toBool(), qPrintable(imported.first().at(1).toString()));
        QVERIFY2(imported.first().at(1).toString().startsWith(QStringLiteral("Imported 6 accesses into ")),
            qPrintable(imported.first().at(1).toString()));
        sqlite::Connection db;
        QVERIFY(db.open(output, sqlite::Connection::Mode::ReadOnly));
        sqlite::Statement rows
            = db.prepare("SELECT count(*), min(transition), max(transition), group_concat(operation) FROM "
                         "(SELECT transition, operation FROM accesses ORDER BY transition, operation)");
        QCOMPARE(rows.step(), SQLITE_ROW);
        QCOMPARE(rows.int64(0), 6);
        QCOMPARE(rows.int64(1), 5);
        QCOMPARE(rows.int64(2), 8);
        QCOMPARE(rows.text(3), QStringLiteral("1,2,4,2,4,2"));
    }

    void anImportMayNotReplaceItsTrace()
    {
        QTemporaryDir directory;
        const QString trace = copySmallCsv(directory);
        QVERIFY(!trace.isEmpty());
        JobProgressWidget progress;
        JobController jobs(&progress);
        jobs.setImportChooser([&](const QStringList &, const QString &) { return ImportChoice { trace, {} }; });
        QSignalSpy failed(&jobs, &JobController::failed);
        jobs.importTraces({ trace }, true);
        QCOMPARE(failed.count(), 1);
        QCOMPARE(failed.first().at(0).toString(), QStringLiteral("Cannot import"));
        QCOMPARE(
            failed.first().at(1).toString(), trace + QStringLiteral(" would replace the trace it is imported from"));
        QVERIFY(!jobs.isBusy());
    }

    // An existing history is replaced only when the user said so: the default output is a free
    // name, and a choice that names an existing file without the confirmation is refused.
    void anExistingHistoryIsReplacedOnlyWhenConfirmed()
    {
        QTemporaryDir directory;
        const QString trace = copySmallCsv(directory);
        QVERIFY(!trace.isEmpty());
        const QString existing = directory.filePath(QStringLiteral("small.memhist"));
        {
            QFile file(existing);
            QVERIFY(file.open(QIODevice::WriteOnly));
            QCOMPARE(file.write("the older history"), 17);
        }
        JobProgressWidget progress;
        JobController jobs(&progress);
        QStringList suggested;
        bool confirmed = false;
        jobs.setImportChooser([&](const QStringList &, const QString &suggestion) {
            suggested << suggestion;
            ImportChoice choice { existing, {} };
            choice.replaceConfirmed = confirmed;
            return choice;
        });
        QSignalSpy failed(&jobs, &JobController::failed);
        QSignalSpy imported(&jobs, &JobController::importFinished);

        // Not asked (a trace opened from the command line): beside it, under a free name.
        jobs.importTraces({ trace }, false);
        QTRY_COMPARE(imported.count(), 1);
        QVERIFY2(imported.first().at(0).toBool(), qPrintable(imported.first().at(1).toString()));
        QVERIFY(QFileInfo::exists(directory.filePath(QStringLiteral("small-2.memhist"))));

        // Asked: the suggestion is the next free name; an unconfirmed existing choice is refused.
        jobs.importTraces({ trace }, true);
        QCOMPARE(suggested, QStringList { directory.filePath(QStringLiteral("small-3.memhist")) });
        QCOMPARE(failed.count(), 1);
        QCOMPARE(failed.first().at(0).toString(), QStringLiteral("Cannot import"));
        QCOMPARE(failed.first().at(1).toString(),
            QStringLiteral(
                "%1 exists and was not replaced; choose another name, or confirm that it should be replaced.")
                .arg(QDir::toNativeSeparators(existing)));
        QVERIFY(!jobs.isBusy());
        QCOMPARE(QFileInfo(existing).size(), 17);

        // Confirmed: replaced.
        confirmed = true;
        jobs.importTraces({ trace }, true);
        QTRY_COMPARE(imported.count(), 2);
        QVERIFY2(imported.last().at(0).toBool(), qPrintable(imported.last().at(1).toString()));
        QVERIFY(isSqliteDatabase(existing));
        QCOMPARE(failed.count(), 1);
        QCOMPARE(entries(directory),
            (QStringList {
                QStringLiteral("small-2.memhist"), QStringLiteral("small.csv"), QStringLiteral("small.memhist") }));
    }

    // A recording is held to the import's rule: an existing output is replaced only when the user
    // confirmed it (the Record dialog asked); unconfirmed, nothing runs and the file is kept.
    void aRecordingReplacesAnExistingHistoryOnlyWhenConfirmed()
    {
        QTemporaryDir directory;
        const QString existing = directory.filePath(QStringLiteral("true.memhist"));
        {
            QFile file(existing);
            QVERIFY(file.open(QIODevice::WriteOnly));
            QCOMPARE(file.write("the older history"), 17);
        }
        JobProgressWidget progress;
        JobController jobs(&progress);
        jobs.setMemhistCli(QStringLiteral(MEMHIST_CLI_PATH));
        QSignalSpy failed(&jobs, &JobController::failed);
        QSignalSpy recorded(&jobs, &JobController::recordFinished);
        RecordRequest request;
        request.program = QStringLiteral("/bin/true");
        request.outputPath = existing;

        jobs.record(request);
        QCOMPARE(failed.count(), 1);
        QCOMPARE(failed.first(),
            (QList<QVariant> { QStringLiteral("Cannot record"),
                QStringLiteral(
                    "%1 exists and was not replaced; choose another name, or confirm that it should be replaced.")
                    .arg(QDir::toNativeSeparators(existing)) }));
        QVERIFY(!jobs.isBusy());
        QCOMPARE(recorded.count(), 0);
        QCOMPARE(QFileInfo(existing).size(), 17);
        QCOMPARE(entries(directory), QStringList { QStringLiteral("true.memhist") });

        if (QStandardPaths::findExecutable(QStringLiteral("valgrind")).isEmpty())
            QSKIP("valgrind is not installed: the confirmed recording cannot run");
        request.replaceConfirmed = true;
        jobs.record(request);
        QVERIFY(jobs.isBusy());
        QTRY_COMPARE_WITH_TIMEOUT(recorded.count(), 1, 60000);
        QVERIFY2(recorded.first().at(0).toBool(), qPrintable(recorded.first().at(1).toString()));
        QCOMPARE(failed.count(), 1);
        QVERIFY(isSqliteDatabase(existing));
        QCOMPARE(entries(directory), QStringList { QStringLiteral("true.memhist") });
    }

    void cancelStopsAnImportAndLeavesNothing()
    {
        QTemporaryDir directory;
        const QString trace = directory.filePath(QStringLiteral("long.csv"));
        QVERIFY(writeLongCsv(trace, 200000));
        JobProgressWidget progress;
        JobController jobs(&progress);
        QSignalSpy imported(&jobs, &JobController::importFinished);
        QSignalSpy status(&jobs, &JobController::statusChanged);
        QSignalSpy failed(&jobs, &JobController::failed);
        jobs.importTraces({ trace }, false);
        QVERIFY(jobs.isBusy());
        QVERIFY(progress.isVisible());
        // As the user would: Cancel in the status bar.
        progress.findChild<QPushButton *>(QStringLiteral("cancelJobButton"))->click();
        QTRY_COMPARE(imported.count(), 1);
        const QString message = QStringLiteral("Import cancelled; nothing was written to %1")
                                    .arg(QDir::toNativeSeparators(directory.filePath(QStringLiteral("long.memhist"))));
        QCOMPARE(imported.first().at(0).toBool(), false);
        QCOMPARE(imported.first().at(1).toString(), message);
        QCOMPARE(status.last().at(0).toString(), message);
        QCOMPARE(failed.count(), 0);
        QVERIFY(!jobs.isBusy());
        QVERIFY(progress.isHidden());
        QCOMPARE(entries(directory), QStringList { QStringLiteral("long.csv") });
    }

    // The status line's "source ...": a trace by its file name, a recording by its program.
    void sourceLabels_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("recorded");
        QTest::addColumn<QString>("label");
        QTest::newRow("an imported trace") << QStringLiteral("lackey") << QStringLiteral("/tmp/a/synth.lackey") << false
                                           << QStringLiteral("synth.lackey (lackey)");
        QTest::newRow("a trace from another writer")
            << QString() << QStringLiteral("/tmp/a/true.csv") << false << QStringLiteral("true.csv");
        QTest::newRow("a recording: the program, not its last argument")
            << QStringLiteral("lackey") << QStringLiteral("/usr/bin/sha256sum /tmp/audit-gui2/synth.lackey") << true
            << QStringLiteral("sha256sum /tmp/audit-gui2/synth.lackey (recorded)");
        QTest::newRow("a recording without arguments")
            << QStringLiteral("lackey") << QStringLiteral("/bin/true") << true << QStringLiteral("true (recorded)");
        QTest::newRow("a recording of a quoted program path")
            << QStringLiteral("lackey") << QStringLiteral("'/opt/my tools/it'\\''s' -v") << true
            << QStringLiteral("it's -v (recorded)");
    }
    void sourceLabels()
    {
        QFETCH(QString, format);
        QFETCH(QString, path);
        QFETCH(bool, recorded);
        QFETCH(QString, label);
        QCOMPARE(sourceLabel(SourceDescription { format, path }, recorded), label);
    }

    // A viewer started as a script's background job has SIGINT ignored (bash sets it so); the
    // recording it starts must not inherit that, or Cancel would never stop it.
    void cancelStopsARecordingWhenTheViewerIgnoresSigint()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("valgrind")).isEmpty())
            QSKIP("valgrind is not installed");
        QTemporaryDir directory;
        JobProgressWidget progress;
        JobController jobs(&progress);
        jobs.setMemhistCli(QStringLiteral(MEMHIST_CLI_PATH));
        QSignalSpy recorded(&jobs, &JobController::recordFinished);
        QSignalSpy ready(&jobs, &JobController::historyReady);
        RecordRequest request;
        request.program = QStringLiteral("/bin/sh");
        request.arguments = { QStringLiteral("-c"), QStringLiteral("while :; do :; done") }; // only Cancel ends it
        request.outputPath = directory.filePath(QStringLiteral("ignored.memhist"));
        const auto previous = std::signal(SIGINT, SIG_IGN);
        QVERIFY(previous != SIG_ERR);
        jobs.record(request);
        std::signal(SIGINT, previous);
        QVERIFY(jobs.isBusy());
        QTest::qWait(1500); // recording, not still starting
        QElapsedTimer cancelled;
        cancelled.start();
        progress.findChild<QPushButton *>(QStringLiteral("cancelJobButton"))->click();
        QTRY_COMPARE_WITH_TIMEOUT(recorded.count(), 1, 15000);
        QVERIFY2(cancelled.elapsed() < 10000, qPrintable(QString::number(cancelled.elapsed())));
        const QString message = recorded.first().at(1).toString();
        QVERIFY2(recorded.first().at(0).toBool(), qPrintable(message));
        QVERIFY2(message.startsWith(QStringLiteral("interrupted: stopped the program after ")), qPrintable(message));
        QVERIFY(QFileInfo::exists(request.outputPath));
        // Opened, named after the program it ran.
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 30000);
        const HistoryInfo info = ready.first().at(1).value<HistoryInfo>();
        QCOMPARE(info.sources, QStringList { QStringLiteral("sh -c 'while :; do :; done' (recorded)") });
    }

    void oneJobAtATime()
    {
        QTemporaryDir directory;
        const QString trace = copySmallCsv(directory);
        QVERIFY(!trace.isEmpty());
        JobProgressWidget progress;
        JobController jobs(&progress);
        jobs.setMemhistCli(QStringLiteral(MEMHIST_CLI_PATH));
        QSignalSpy failed(&jobs, &JobController::failed);
        QSignalSpy recorded(&jobs, &JobController::recordFinished);
        QSignalSpy ready(&jobs, &JobController::historyReady);
        RecordRequest request;
        request.program = QStringLiteral("/bin/sh");
        // Endless under valgrind: only Cancel ends it.
        request.arguments = { QStringLiteral("-c"), QStringLiteral("while :; do :; done") };
        request.outputPath = directory.filePath(QStringLiteral("loop.memhist"));
        jobs.record(request);
        QVERIFY(jobs.isBusy());

        const QString busy = QStringLiteral("Another import or recording is running; wait for it or cancel it.");
        jobs.importTraces({ trace }, false);
        jobs.record(request);
        QCOMPARE(failed.count(), 2);
        QCOMPARE(failed.at(0), (QList<QVariant> { QStringLiteral("Cannot import now"), busy }));
        QCOMPARE(failed.at(1), (QList<QVariant> { QStringLiteral("Cannot record now"), busy }));

        jobs.cancel();
        QTRY_COMPARE_WITH_TIMEOUT(recorded.count(), 1, 30000);
        const QString message = recorded.first().at(1).toString();
        QVERIFY2(recorded.first().at(0).toBool(), qPrintable(message));
        QVERIFY2(message.startsWith(QStringLiteral("interrupted: stopped the program after ")), qPrintable(message));
        QVERIFY(!jobs.isBusy());
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 30000);
        QCOMPARE(ready.first().at(0).toString(), request.outputPath);
        QCOMPARE(
            ready.first().at(2).toString(), QStringLiteral("Recording stopped; kept what was recorded: ") + message);
        QCOMPARE(entries(directory), (QStringList { QStringLiteral("loop.memhist"), QStringLiteral("small.csv") }));
    }
};

QTEST_MAIN(TestJobController)
#include "tst_jobcontroller.moc"
