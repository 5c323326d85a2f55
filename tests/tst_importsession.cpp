// SPDX-License-Identifier: MIT
// importTraces()'s progress (core/importers/importsession.h): the traces' fractions, then the
// finishing phase (indexes, summaries, context), and a Cancel honoured in either, leaving nothing.
#include "core/importers/importsession.h"
#include "core/importers/traceformats.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

using namespace memhist;

class TestImportSession : public QObject
{
    Q_OBJECT

private slots:
    void finishingComesLastAndIsReported();
    void cancelWhileFinishingLeavesNothing();

private:
    static QList<TraceInput> echoTrace();
};

QList<TraceInput> TestImportSession::echoTrace()
{
    QList<TraceInput> inputs;
    QString error;
    if (!recogniseTraces({ QFINDTESTDATA("data/lackey/echo_hello.small.lackey.gz") }, std::nullopt, &inputs, &error))
        qWarning("%s", qPrintable(error));
    return inputs;
}

void TestImportSession::finishingComesLastAndIsReported()
{
    QTemporaryDir dir;
    const QString output = dir.filePath(QStringLiteral("echo.memhist"));
    QList<ImportSessionProgress> reports;
    ImportSummary summary;
    QString error;
    const bool ok = importTraces(
        echoTrace(), output, {},
        [&reports](const ImportSessionProgress &progress) {
            reports << progress;
            return true;
        },
        &summary, &error);
    QVERIFY2(ok, qPrintable(error));
    QCOMPARE(summary.stats.accesses, 104487);
    const auto firstFinishing
        = std::find_if(reports.cbegin(), reports.cend(), [](const ImportSessionProgress &p) { return p.finishing; });
    QVERIFY(firstFinishing != reports.cend());
    QVERIFY(firstFinishing != reports.cbegin()); // the trace's own reports come first
    // From the first finishing report on, every report is one: all accesses stored, fraction 1.
    for (auto it = firstFinishing; it != reports.cend(); ++it) {
        QVERIFY(it->finishing);
        QCOMPARE(it->accesses, 104487);
        QCOMPARE(it->fraction, 1.0);
        QCOMPARE(it->traceCount, 1);
    }
}

void TestImportSession::cancelWhileFinishingLeavesNothing()
{
    QTemporaryDir dir;
    const QString output = dir.filePath(QStringLiteral("echo.memhist"));
    // Cancelled at the first report of the finishing phase. It is the only one for these 104,487
    // accesses: the accesses' index is appended while they are stored, so finish() sorts only the
    // chunks' keys. tst_historywriter stops a larger finish() at a later report
    // (finishStopsWhenInterrupted).
    for (const int cancelAt : { 1 }) {
        int finishingReports = 0;
        ImportSummary summary;
        QString error;
        const bool ok = importTraces(
            echoTrace(), output, {},
            [&](const ImportSessionProgress &progress) {
                finishingReports += progress.finishing;
                return finishingReports < cancelAt;
            },
            &summary, &error);
        QVERIFY(!ok);
        QCOMPARE(error, output + QStringLiteral(": import cancelled"));
        QCOMPARE(finishingReports, cancelAt);
        QVERIFY2(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).isEmpty(),
            qPrintable(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).join(u' ')));
    }
}

QTEST_GUILESS_MAIN(TestImportSession)
#include "tst_importsession.moc"
