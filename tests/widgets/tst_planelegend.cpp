// SPDX-License-Identifier: MIT
// The plane legend's description of the image, fitted to the room beside the colours and threads:
// whole, then without its hints, then elided, then nothing (issue 29.9: at 1024x700 it was drawn
// from the middle of a word, "+3 unks (zoom in…").
#include "widgets/plane/planelegend.h"

#include <QFontDatabase>
#include <QFontMetrics>
#include <QTest>

using namespace memhist::plane;

class TestPlaneLegend : public QObject
{
    Q_OBJECT

private slots:
    void fitsTheRoomLeft_data()
    {
        QTest::addColumn<QString>("detail");
        QTest::addColumn<QString>("room"); // the text whose width is the room
        QTest::addColumn<QString>("shown");
        const QString chunks = QStringLiteral("chunks (zoom in to see accesses) · rendering…");
        QTest::newRow("room for all") << chunks << chunks << chunks;
        QTest::newRow("room for all but the hint")
            << chunks << QStringLiteral("chunks (zoom in to see") << QStringLiteral("chunks · rendering…");
        QTest::newRow("the hint goes before anything is elided")
            << chunks << QStringLiteral("chunks · rendering…") << QStringLiteral("chunks · rendering…");
        QTest::newRow("elided at the right, never cut in a word's middle at the left")
            << chunks << QStringLiteral("chunks · rend") << QStringLiteral("elided");
        QTest::newRow("no room for a word: nothing") << chunks << QStringLiteral("chu") << QString();
        QTest::newRow("no hint to drop") << QStringLiteral("accesses as size bars")
                                         << QStringLiteral("accesses as size") << QStringLiteral("elided");
        QTest::newRow("empty") << QString() << QString() << QString();
    }

    void fitsTheRoomLeft()
    {
        QFETCH(QString, detail);
        QFETCH(QString, room);
        QFETCH(QString, shown);
        const QFontMetrics metrics(QFontDatabase::systemFont(QFontDatabase::GeneralFont));
        const int width = metrics.horizontalAdvance(room);
        const QString fitted = fittedLegendDetail(detail, width, metrics);
        QVERIFY2(metrics.horizontalAdvance(fitted) <= width, qPrintable(fitted));
        if (shown == QStringLiteral("elided")) {
            QVERIFY2(fitted.endsWith(u'…') && fitted.size() > 1, qPrintable(fitted));
            QString withoutHint = detail;
            withoutHint.remove(QStringLiteral(" (zoom in to see accesses)"));
            QVERIFY2(withoutHint.startsWith(fitted.chopped(1)), qPrintable(fitted));
        } else {
            QCOMPARE(fitted, shown);
        }
    }
};

QTEST_MAIN(TestPlaneLegend)
#include "tst_planelegend.moc"
