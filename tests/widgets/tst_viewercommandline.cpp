// SPDX-License-Identifier: MIT
// memhist-viewer's --help and --version answer where there is no display (over ssh, in a package
// build), instead of aborting in QApplication's constructor as they did; its --select-row selects
// the row asked for in a screenshot, or says at once that the results have fewer.
#include "testsupport.h"

#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>
#include <sys/stat.h>

class TestViewerCommandLine : public QObject
{
    Q_OBJECT

private slots:
    void answersWithoutADisplay_data();
    void answersWithoutADisplay();
    void selectRowShotOrSaysWhyNot_data();
    void selectRowShotOrSaysWhyNot();
    void screenshotOfAFileThatCannotOpenEnds_data();
    void screenshotOfAFileThatCannotOpenEnds();
};

void TestViewerCommandLine::answersWithoutADisplay_data()
{
    QTest::addColumn<QString>("argument");
    QTest::addColumn<QString>("expectedStart");
    QTest::addColumn<QString>("expectedToo");

    QTest::newRow("--help") << QStringLiteral("--help") << QStringLiteral("Usage: ")
                            << QStringLiteral("--screenshot <FILE>");
    QTest::newRow("-h") << QStringLiteral("-h") << QStringLiteral("Usage: ") << QStringLiteral("[FILE]");
    QTest::newRow("--version") << QStringLiteral("--version") << QStringLiteral("memhist-viewer " MEMHIST_VERSION "\n")
                               << QString();
}

void TestViewerCommandLine::answersWithoutADisplay()
{
    QFETCH(QString, argument);
    QFETCH(QString, expectedStart);
    QFETCH(QString, expectedToo);

    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const QString &name :
        { QStringLiteral("DISPLAY"), QStringLiteral("WAYLAND_DISPLAY"), QStringLiteral("QT_QPA_PLATFORM") })
        environment.remove(name);
    QProcess viewer;
    viewer.setProcessEnvironment(environment);
    viewer.start(QStringLiteral(MEMHIST_VIEWER_PATH), { argument });
    QVERIFY2(viewer.waitForFinished(60000), "memhist-viewer did not finish");
    QCOMPARE(viewer.exitStatus(), QProcess::NormalExit);
    QCOMPARE(viewer.exitCode(), 0);
    const QString output = QString::fromLocal8Bit(viewer.readAllStandardOutput());
    QVERIFY2(output.startsWith(expectedStart), qPrintable(output));
    QVERIFY2(output.contains(expectedToo), qPrintable(output));
}

void TestViewerCommandLine::selectRowShotOrSaysWhyNot_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");
    // The history: 10 writes of 8 bytes at 0x1000, one per transition 0..9. A click at transition 0
    // on them lists all 10 from there.
    const QStringList click { QStringLiteral("--click"), QStringLiteral("0,0x1000") };
    QTest::newRow("the tenth of ten rows")
        << (click + QStringList { QStringLiteral("--select-row"), QStringLiteral("10") }) << 0
        << QStringLiteral("memhist-viewer: saved ");
    QTest::newRow("the eleventh of ten")
        << (click + QStringList { QStringLiteral("--select-row"), QStringLiteral("11") }) << 1
        << QStringLiteral("memhist-viewer: --select-row 11: the results have 10 rows\n");
    QTest::newRow("no query") << QStringList {
        QStringLiteral("--select-row"), QStringLiteral("1")
    } << 1 << QStringLiteral("memhist-viewer: --select-row 1: the results have 0 rows (no query ran: give --click)\n");
}

void TestViewerCommandLine::selectRowShotOrSaysWhyNot()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, exitCode);
    QFETCH(QString, message);

    QTemporaryDir dir;
    const QString history = dir.filePath(QStringLiteral("ten.memhist"));
    QList<memhist::Access> stream;
    for (std::uint64_t t = 0; t < 10; ++t)
        stream << memhist::test::userAccess(t, memhist::Operation::Write, 0x1000, 8);
    QString error;
    QVERIFY2(memhist::test::writeHistory(history, stream, {}, &error), qPrintable(error));
    const QString shot = dir.filePath(QStringLiteral("shot.png"));

    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
    environment.insert(QStringLiteral("XDG_DATA_HOME"), dir.filePath(QStringLiteral("data")));
    QProcess viewer;
    viewer.setProcessEnvironment(environment);
    viewer.start(QStringLiteral(MEMHIST_VIEWER_PATH),
        QStringList { QStringLiteral("--screenshot"), shot } + arguments + QStringList { history });
    QVERIFY2(viewer.waitForFinished(60000), "memhist-viewer did not finish");
    QCOMPARE(viewer.exitStatus(), QProcess::NormalExit);
    const QString output
        = QString::fromLocal8Bit(exitCode == 0 ? viewer.readAllStandardOutput() : viewer.readAllStandardError());
    QVERIFY2(exitCode == 0 ? output.startsWith(message) : output.endsWith(message), qPrintable(output));
    QCOMPARE(viewer.exitCode(), exitCode);
    QCOMPARE(QFileInfo::exists(shot), exitCode == 0);
}

void TestViewerCommandLine::screenshotOfAFileThatCannotOpenEnds_data()
{
    // What the file is; its error message after "memhist-viewer: PATH".
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("message");
    QTest::newRow("nonexistent") << QStringLiteral("nonexistent")
                                 << QStringLiteral(": cannot open: No such file or directory\n");
    QTest::newRow("empty") << QStringLiteral("empty")
                           << QStringLiteral(" is not a memhist history: it does not start with the SQLite header "
                                             "that every history has.\n");
    QTest::newRow("FIFO") << QStringLiteral("fifo")
                          << QStringLiteral(" is not a regular file (a FIFO, device or socket): histories and traces "
                                            "are read from regular files and directories.\n");
}

void TestViewerCommandLine::screenshotOfAFileThatCannotOpenEnds()
{
    // These ran forever: the error came before the event loop, and the exit it asked for was lost.
    QFETCH(QString, kind);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("history.memhist"));
    if (kind == QLatin1String("empty")) {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
    } else if (kind == QLatin1String("fifo")) {
        QCOMPARE(mkfifo(QFile::encodeName(path).constData(), 0600), 0);
    }
    const QString shot = dir.filePath(QStringLiteral("shot.png"));
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
    environment.insert(QStringLiteral("XDG_DATA_HOME"), dir.filePath(QStringLiteral("data")));
    QProcess viewer;
    viewer.setProcessEnvironment(environment);
    viewer.start(QStringLiteral(MEMHIST_VIEWER_PATH), { QStringLiteral("--screenshot"), shot, path });
    if (!viewer.waitForFinished(30000)) {
        viewer.kill();
        viewer.waitForFinished();
        QFAIL("memhist-viewer did not end");
    }
    QCOMPARE(viewer.exitStatus(), QProcess::NormalExit);
    QCOMPARE(viewer.exitCode(), 1);
    const QString error = QString::fromLocal8Bit(viewer.readAllStandardError());
    QVERIFY2(error.endsWith(QStringLiteral("memhist-viewer: ") + path + message), qPrintable(error));
    QVERIFY(!QFileInfo::exists(shot));
}

QTEST_GUILESS_MAIN(TestViewerCommandLine)
#include "tst_viewercommandline.moc"
