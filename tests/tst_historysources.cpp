// SPDX-License-Identifier: MIT
// The `sources` meta value (core/storage/historysources.h): what the writer writes and what
// `memhist info` and the viewer read back.
#include "core/storage/historysources.h"

#include <QTest>

using namespace memhist;

class TestHistorySources : public QObject
{
    Q_OBJECT

private slots:
    void roundTrip();
    void foreignLines();
};

void TestHistorySources::roundTrip()
{
    const QList<SourceDescription> sources { { QStringLiteral("lackey"), QStringLiteral("/tmp/a b.lackey.gz") },
        { QStringLiteral("csv"), QStringLiteral("rel/x.csv") } };
    const QString text = sourcesMetaText(sources);
    QCOMPARE(text, QStringLiteral("lackey\t/tmp/a b.lackey.gz\ncsv\trel/x.csv"));
    const QList<SourceDescription> back = parseSourcesMeta(text);
    QCOMPARE(back.size(), 2);
    QCOMPARE(back[0].format, QStringLiteral("lackey"));
    QCOMPARE(back[0].path, QStringLiteral("/tmp/a b.lackey.gz"));
    QCOMPARE(back[1].format, QStringLiteral("csv"));
    QCOMPARE(back[1].path, QStringLiteral("rel/x.csv"));
    QCOMPARE(sourcesMetaText({}), QString());
    QCOMPARE(parseSourcesMeta(QString()).size(), 0);
}

void TestHistorySources::foreignLines()
{
    // Another writer's value: a bare path, an empty line, a path holding a tab after the format's.
    const QList<SourceDescription> sources = parseSourcesMeta(QStringLiteral("trace.bin\n\ntenet\tdir\tname.log\n"));
    QCOMPARE(sources.size(), 2);
    QCOMPARE(sources[0].format, QString());
    QCOMPARE(sources[0].path, QStringLiteral("trace.bin"));
    QCOMPARE(sources[1].format, QStringLiteral("tenet"));
    QCOMPARE(sources[1].path, QStringLiteral("dir\tname.log"));
}

QTEST_GUILESS_MAIN(TestHistorySources)
#include "tst_historysources.moc"
