// memhist-viewer's --help and --version answer where there is no display (over ssh, in a package
// build), instead of aborting in QApplication's constructor as they did.
#include <QProcess>
#include <QProcessEnvironment>
#include <QTest>

class TestViewerCommandLine : public QObject
{
    Q_OBJECT

private slots:
    void answersWithoutADisplay_data();
    void answersWithoutADisplay();
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

QTEST_GUILESS_MAIN(TestViewerCommandLine)
#include "tst_viewercommandline.moc"
