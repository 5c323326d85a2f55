// SPDX-License-Identifier: MIT
// The plane with a history of a compiled program (tests/programhistory.h): hovering an access names
// its instruction, function, source line and what its address is, read in the background and equal
// to what `memhist query --context` prints for it; the address axis names the regions and, zoomed in
// until they fit, the data symbols. Without context the hover text stays as it was.
#include "planestreams.h"
#include "programhistory.h"
#include "testsupport.h"
#include "toolchain.h"
#include "widgets/plane/planeaxes.h"
#include "widgets/plane/planecontext.h"
#include "widgets/plane/planewidget.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace memhist;
using namespace memhist::plane;
using namespace memhist::test;

namespace {

constexpr std::uint64_t pieBias = 0x555555554000;

QStringList textsOf(const std::vector<RangeLabel> &labels)
{
    QStringList texts;
    for (const RangeLabel &label : labels)
        texts << label.text;
    return texts;
}

// The CSV cells of the row of `csv` (a `memhist query --context --format csv` answer) whose address
// column is `address` in 0x hex.
QStringList csvRowAt(const QByteArray &csv, std::uint64_t address)
{
    const QString wanted = QStringLiteral("0x") + QString::number(address, 16);
    for (const QByteArray &line : csv.split('\n')) {
        QStringList cells;
        QString cell;
        bool quoted = false;
        for (const char c : line) {
            if (c == '"')
                quoted = !quoted;
            else if (c == ',' && !quoted)
                cells << std::exchange(cell, QString());
            else
                cell += QLatin1Char(c);
        }
        cells << cell;
        if (cells.size() > 3 && cells[3] == wanted)
            return cells;
    }
    return {};
}

} // namespace

class TestPlaneContext : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_path;
    CounterHistory m_history;

    std::unique_ptr<PlaneWidget> openedPlane(const QString &path)
    {
        auto plane = std::make_unique<PlaneWidget>();
        plane->setSummaryCacheDirectory(QString());
        plane->resize(1000, 700);
        plane->show();
        QSignalSpy loaded(plane.get(), &PlaneWidget::historyLoaded);
        QSignalSpy rendered(plane.get(), &PlaneWidget::renderFinished);
        QSignalSpy named(plane.get(), &PlaneWidget::addressNamesRead);
        plane->setHistory(path);
        if (!loaded.wait(10000) || (rendered.isEmpty() && !rendered.wait(10000))
            || (named.isEmpty() && !named.wait(10000)))
            return nullptr;
        return plane;
    }

    // The hover text's part without context, about `access` (planehittest's text, which
    // tst_planehittest checks): up to its row.
    static QString hoverTextOf(const PlaneWidget &plane, const Access &access)
    {
        const QString text = plane.hoverText();
        const QString mark = QStringLiteral(" (row %1)").arg(access.rowId.value);
        const qsizetype end = text.indexOf(mark);
        return end < 0 ? QString() : text.left(end + mark.size());
    }

    // Shows transitions [t - 20, t + 20] over addresses [a - 64, a + 64] and waits for the image.
    static bool zoomTo(PlaneWidget &plane, std::uint64_t t, std::uint64_t a)
    {
        QSignalSpy rendered(&plane, &PlaneWidget::renderFinished);
        ViewRange range = plane.visibleRange();
        range.firstTransition = Transition { t > 20 ? t - 20 : 0 };
        range.lastTransition = Transition { t + 20 };
        range.firstAddress = Address { a - 64 };
        range.lastAddress = Address { a + 64 };
        plane.setVisibleRange(range);
        return rendered.wait(10000) && plane.showsAccesses();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(QFile::copy(QFINDTESTDATA("../data/programs/counter.c"), m_dir.filePath(QStringLiteral("counter.c"))));
        QVERIFY(runStep(QStringLiteral("gcc"), { "-g", "-O0", "-o", "counter", "counter.c" }, m_dir.path()));
        m_path = m_dir.filePath(QStringLiteral("counter.memhist"));
        QVERIFY(writeCounterHistory(m_dir.filePath(QStringLiteral("counter")), pieBias, m_path, &m_history));
    }

    void hoverNamesTheAccessContext_data()
    {
        QTest::addColumn<int>("write"); // which of the four writes at the store
        QTest::newRow("a global: counter") << 0;
        QTest::newRow("inside an array: table+0x3") << 1;
        QTest::newRow("the stack") << 2;
        QTest::newRow("the heap") << 3;
    }
    void hoverNamesTheAccessContext()
    {
        QFETCH(int, write);
        const std::uint64_t address = QList<std::uint64_t> { m_history.counterAddress, m_history.tableAddress,
            m_history.stackAddress, m_history.heapAddress }[write];
        auto plane = openedPlane(m_path);
        QVERIFY(plane);
        QVERIFY(zoomTo(*plane, m_history.storeTransition, address));
        const std::optional<QPointF> at
            = plane->positionOf(Transition { m_history.storeTransition }, Address { address });
        QVERIFY(at);
        const std::optional<Access> access = plane->accessAt(*at);
        QVERIFY(access);
        QCOMPARE(access->physical.value, address);

        // What the CLI prints for the same access is the oracle.
        const QByteArray csv = cliOutput({ QStringLiteral("query"), m_path, QStringLiteral("--at"),
            QString::number(m_history.storeTransition), QStringLiteral("--context"), QStringLiteral("--format"),
            QStringLiteral("csv"), QStringLiteral("--limit"), QStringLiteral("4") });
        const QStringList row = csvRowAt(csv, address);
        QCOMPARE(row.size(), 13); // rowid..size, pc, function, source, instruction, region, value, before
        const QString expectedContext
            = QStringLiteral("instruction %1 · in %2 · at %3 · accessed: %4").arg(row[9], row[7], row[8], row[10]);

        QSignalSpy hovered(plane.get(), &PlaneWidget::hoverTextChanged);
        QTest::mouseMove(plane.get(), at->toPoint());
        // Today's text, then the context appended when it arrives (hoverTextChanged again).
        const QString plain = hoverTextOf(*plane, *access);
        QVERIFY(plain.startsWith(QStringLiteral("transition %1 · address ").arg(m_history.storeTransition)));
        QTRY_COMPARE_WITH_TIMEOUT(plane->hoverText(), plain + QStringLiteral(" · ") + expectedContext, 5000);
        QVERIFY(!hovered.isEmpty());
        QCOMPARE(hovered.last().first().toString(), plane->hoverText());
    }

    void axisNamesRegionsAndSymbols()
    {
        auto plane = openedPlane(m_path);
        QVERIFY(plane);
        const auto names = plane->addressNames();
        QVERIFY(names);
        const auto has = [](const std::vector<NamedRange> &ranges, const NamedRange &range) {
            return std::find(ranges.begin(), ranges.end(), range) != ranges.end();
        };
        QVERIFY(has(names->regions, { programHeapFirst, programHeapLast, QStringLiteral("[heap]") }));
        QVERIFY(has(names->regions, { programStackFirst, programStackLast, QStringLiteral("[stack]") }));
        QVERIFY(
            has(names->symbols, { m_history.counterAddress, m_history.counterAddress + 3, QStringLiteral("counter") }));
        QVERIFY(names->threads.isEmpty());

        // The whole history: the fold gives each of its few used ranges a good share of the axis.
        QCOMPARE(textsOf(plane->regionLabels()),
            QStringList({ QStringLiteral("[stack]"), QStringLiteral("[heap]"), QStringLiteral("counter .bss") }));
        QCOMPARE(textsOf(plane->symbolLabels()), QStringList({ QStringLiteral("table"), QStringLiteral("counter") }));

        // Zoomed in on `counter`: its name.
        QVERIFY(zoomTo(*plane, m_history.storeTransition, m_history.counterAddress));
        QCOMPARE(textsOf(plane->regionLabels()), QStringList({ QStringLiteral("counter .bss") }));
        QCOMPARE(textsOf(plane->symbolLabels()), QStringList({ QStringLiteral("table"), QStringLiteral("counter") }));
    }

    void withoutContextTheHoverTextStays()
    {
        const QString path = m_dir.filePath(QStringLiteral("plain.memhist"));
        HistoryWriter writer(path);
        QVERIFY(writer.open());
        for (const Access &access : smallPlaneStream())
            QVERIFY(writer.add(access));
        QVERIFY(writer.finish());
        auto plane = openedPlane(path);
        QVERIFY(plane);
        QVERIFY(plane->addressNames()->regions.empty());
        QVERIFY(plane->addressNames()->symbols.empty());
        QVERIFY(zoomTo(*plane, 10, planeHeapBase + 8 * 10));
        const std::optional<QPointF> at = plane->positionOf(Transition { 10 }, Address { planeHeapBase + 8 * 10 });
        QVERIFY(at);
        QTest::mouseMove(plane.get(), at->toPoint());
        QTRY_VERIFY(!plane->hoverText().isEmpty());
        const QString plain = plane->hoverText();
        QTest::qWait(300); // the (empty) context has come back meanwhile: nothing is added
        QCOMPARE(plane->hoverText(), plain);
        QVERIFY(plain.endsWith(QStringLiteral("read of 8 bytes at 0x601050, transition 10 (row 19)")));
    }
};

QTEST_MAIN(TestPlaneContext)
#include "tst_planecontext.moc"
