// SPDX-License-Identifier: MIT
// The Memory pane (widgets/memory/) on a small hand-made history with values: the exact rows and each
// byte's shade after a position change, the painted colours of a byte written now and of an unknown
// one, the newest of two positions winning, a click on a byte naming the exact row (the pane alone,
// then in the real window, where it becomes the selection), a history without values saying so
// instead of a grid, and how long a redraw takes after the position moves on a larger history.
#include "core/model/numbertext.h"
#include "mainwindow.h"
#include "navigator.h"
#include "testsupport.h"
#include "widgets/memory/memorypane.h"
#include "widgets/memory/memoryshades.h"
#include "widgets/memory/memoryview.h"
#include "widgets/plane/planeoverlays.h"
#include "widgets/plane/planewidget.h"
#include "widgets/query/querypanel.h"

#include <QElapsedTimer>
#include <QLineEdit>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>

using namespace memhist;
using namespace memhist::test;

namespace {

// A pane of a fixed size (at least 8 rows) showing `history`, once it knows whether the history has
// values.
std::unique_ptr<MemoryPane> openPane(const QString &history)
{
    auto pane = std::make_unique<MemoryPane>();
    pane->resize(640, 400);
    pane->show();
    pane->setHistory(history);
    // Laid out (its rows known) and told whether the history has values.
    if (!QTest::qWaitForWindowExposed(pane.get())
        || !QTest::qWaitFor([&] { return pane->hasValues().has_value() && pane->view()->rowCount() >= 8; }, 10000))
        return nullptr;
    return pane;
}

// Moves `pane` to transition `t` and waits for its bytes.
bool showAt(MemoryPane &pane, std::uint64_t t)
{
    QSignalSpy shown(&pane, &MemoryPane::memoryShown);
    pane.showTransition(Transition { t });
    return shown.wait(10000) && pane.view()->snapshot().at == Transition { t };
}

QList<ByteShade> shadesOf(const MemoryView &view, std::uint64_t first, std::uint64_t last)
{
    QList<ByteShade> shades;
    for (std::uint64_t address = first; address <= last; ++address)
        shades << byteShade(view.snapshot().byteAt(Address { address }), view.snapshot().at);
    return shades;
}

// The colour painted in the byte's hex cell, beside its digits (at the cell's left edge).
QRgb paintedFill(MemoryView &view, std::uint64_t address)
{
    const QImage image = view.grab().toImage();
    const QRect cell = view.hexRect(Address { address });
    return image.pixelColor(cell.left() + 1, cell.top() + 1).rgb();
}

} // namespace

class TestMemoryPane : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void rowsAndShadesAfterAPositionChange();
    void paintedColours();
    void newestPositionWins();
    void addressTyped();
    void clickOnAByteNamesItsRow_data();
    void clickOnAByteNamesItsRow();
    void clickInTheWindowSelectsTheRow();
    void historyWithoutValues();
    void redrawLatency();

private:
    QTemporaryDir m_dir;
    QString m_small;
};

void TestMemoryPane::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // Rows 1..8: at 5 "ABCD" written at 0x1000; at 7 two bytes read at 0x1004; at 9 "xy" written
    // over 0x1001..0x1002; at 12 0x1006 read (first accessed after 9); at 14 0x1007 written (unknown
    // before); at 15,000, 19,950 and 20,000 one byte written at 0x1009, 0x100a and 0x1008, so that at
    // 20,000 the bytes of every write age are there.
    const QList<ValuedAccess> stream {
        { userAccess(5, Operation::Write, 0x1000, 4), "ABCD" },
        { userAccess(7, Operation::Read, 0x1004, 2), memhist::test::byteArrayOf({ 0x00, 0xff }) },
        { userAccess(9, Operation::Write, 0x1001, 2), "xy" },
        { userAccess(12, Operation::Read, 0x1006, 1), "!" },
        { userAccess(14, Operation::Write, 0x1007, 1), "?" },
        { userAccess(15000, Operation::Write, 0x1009, 1), "E" },
        { userAccess(19950, Operation::Write, 0x100a, 1), "R" },
        { userAccess(20000, Operation::Write, 0x1008, 1), "N" },
    };
    m_small = m_dir.filePath(QStringLiteral("small.memhist"));
    QVERIFY(writeHistoryWithValues(m_small, stream));
}

void TestMemoryPane::rowsAndShadesAfterAPositionChange()
{
    const std::unique_ptr<MemoryPane> pane = openPane(m_small);
    QVERIFY(pane);
    QCOMPARE(pane->hasValues(), std::optional<bool>(true));
    // No position yet: a message, not a grid.
    QVERIFY(pane->message().contains(QStringLiteral("Select an access")));

    QString error;
    QVERIFY2(pane->goToText(QStringLiteral("0x1000"), &error), qPrintable(error));
    QVERIFY(showAt(*pane, 9));
    QVERIFY(pane->message().isEmpty());
    QVERIFY(pane->view()->rowCount() >= 3);
    const QStringList rows = pane->view()->text().split(u'\n');
    QVERIFY(rows.contains(
        QStringLiteral("    0x1000  41 78 79 44 00 ff 21 ??  ?? ?? ?? ?? ?? ?? ?? ??  AxyD..!?????????")));
    QVERIFY(rows.contains(
        QStringLiteral("    0x1010  ?? ?? ?? ?? ?? ?? ?? ??  ?? ?? ?? ?? ?? ?? ?? ??  ????????????????")));
    QCOMPARE(shadesOf(*pane->view(), 0x1000, 0x1008),
        (QList<ByteShade> { ByteShade::WrittenRecently, ByteShade::WrittenNow, ByteShade::WrittenNow,
            ByteShade::WrittenRecently, ByteShade::Read, ByteShade::Read, ByteShade::LaterRead, ByteShade::Unknown,
            ByteShade::Unknown }));
    QVERIFY(pane->caption().startsWith(QStringLiteral("After transition 9 · ")));

    // The position moves on: the same rows, the bytes as they are after 20,000.
    QVERIFY(showAt(*pane, 20000));
    QVERIFY(pane->view()->text().split(u'\n').contains(
        QStringLiteral("    0x1000  41 78 79 44 00 ff 21 3f  4e 45 52 ?? ?? ?? ?? ??  AxyD..!?NER?????")));
    QCOMPARE(shadesOf(*pane->view(), 0x1000, 0x100b),
        (QList<ByteShade> { ByteShade::WrittenLongAgo, ByteShade::WrittenLongAgo, ByteShade::WrittenLongAgo,
            ByteShade::WrittenLongAgo, ByteShade::Read, ByteShade::Read, ByteShade::Read, ByteShade::WrittenLongAgo,
            ByteShade::WrittenNow, ByteShade::WrittenEarlier, ByteShade::WrittenRecently, ByteShade::Unknown }));
    // What the tooltip says of a byte written at the transition itself, and of one written before.
    QCOMPARE(pane->view()->describeByte(Address { 0x1008 }),
        QStringLiteral("0x1008: 4e, written at transition 20,000 itself (row 8).\nClick: select that write."));
    QCOMPARE(pane->view()->describeByte(Address { 0x100a }),
        QStringLiteral("0x100a: 52, written at transition 19,950, 50 transitions before 20,000 (row 7).\n"
                       "Click: select that write."));
}

void TestMemoryPane::paintedColours()
{
    const std::unique_ptr<MemoryPane> pane = openPane(m_small);
    QVERIFY(pane);
    QString error;
    QVERIFY(pane->goToText(QStringLiteral("0x1000"), &error));
    QVERIFY(showAt(*pane, 20000));
    const MemoryShadeColors colors = memoryShadeColors(pane->view()->palette());
    // Written now: the plane's write colour; unknown: no fill (the base colour).
    QCOMPARE(paintedFill(*pane->view(), 0x1008), plane::planeColors(pane->view()->palette()).write.rgb());
    QCOMPARE(paintedFill(*pane->view(), 0x1008), colors.of(ByteShade::WrittenNow).fill.rgb());
    QCOMPARE(paintedFill(*pane->view(), 0x1009), colors.of(ByteShade::WrittenEarlier).fill.rgb());
    QCOMPARE(paintedFill(*pane->view(), 0x100a), colors.of(ByteShade::WrittenRecently).fill.rgb());
    QCOMPARE(paintedFill(*pane->view(), 0x100b), pane->view()->palette().color(QPalette::Base).rgb());
    // Written long ago: paler than earlier, which is paler than recently.
    QCOMPARE(paintedFill(*pane->view(), 0x1000), colors.of(ByteShade::WrittenLongAgo).fill.rgb());
    QVERIFY(
        colors.of(ByteShade::WrittenLongAgo).fill.lightness() > colors.of(ByteShade::WrittenEarlier).fill.lightness());
    QVERIFY(
        colors.of(ByteShade::WrittenEarlier).fill.lightness() > colors.of(ByteShade::WrittenRecently).fill.lightness());
}

void TestMemoryPane::newestPositionWins()
{
    const std::unique_ptr<MemoryPane> pane = openPane(m_small);
    QVERIFY(pane);
    QString error;
    QVERIFY(pane->goToText(QStringLiteral("0x1000"), &error));
    QSignalSpy shown(pane.get(), &MemoryPane::memoryShown);
    // Each in its own pass of the event loop, so that each is a read of its own: the older ones are
    // skipped or dropped, only the newest is shown.
    for (const std::uint64_t t : { 5, 7, 9, 12, 14 }) {
        pane->showTransition(Transition { t });
        QCoreApplication::processEvents();
    }
    QVERIFY(QTest::qWaitFor([&] { return pane->view()->snapshot().at == Transition { 14 }; }, 10000));
    QTest::qWait(100);
    QCOMPARE(pane->view()->snapshot().at, Transition { 14 });
    QVERIFY(shown.count() >= 1);
    QCOMPARE(pane->position(), std::optional<Transition>(Transition { 14 }));
}

void TestMemoryPane::addressTyped()
{
    const std::unique_ptr<MemoryPane> pane = openPane(m_small);
    QVERIFY(pane);
    QVERIFY(showAt(*pane, 9));
    QString error;
    QVERIFY(!pane->goToText(QStringLiteral("no such thing"), &error));
    QCOMPARE(error, QStringLiteral("“no such thing” is not an address: type a number (0x4a1b140)."));
    QSignalSpy shown(pane.get(), &MemoryPane::memoryShown);
    pane->addressEdit()->setText(QStringLiteral("0x2000"));
    QTest::keyClick(pane->addressEdit(), Qt::Key_Return);
    QVERIFY(shown.wait(10000));
    // The address a third of the rows down.
    const int above = pane->view()->rowCount() / 3;
    QCOMPARE(pane->view()->top(), Address { 0x2000 - std::uint64_t(above) * 16 });
    QVERIFY(pane->view()->snapshot().contains(Address { 0x2000 }));
}

void TestMemoryPane::clickOnAByteNamesItsRow_data()
{
    QTest::addColumn<quint64>("at");
    QTest::addColumn<quint64>("address");
    QTest::addColumn<qint64>("rowId"); // 0: no access
    QTest::addColumn<int>("knownBy");

    QTest::newRow("a byte written at the transition: that write")
        << quint64(9) << quint64(0x1002) << qint64(3) << int(KnownBy::Write);
    QTest::newRow("a byte written before: its last write")
        << quint64(12) << quint64(0x1000) << qint64(1) << int(KnownBy::Write);
    QTest::newRow("a byte last read") << quint64(12) << quint64(0x1005) << qint64(2) << int(KnownBy::Read);
    QTest::newRow("a byte known by a later read: that read")
        << quint64(9) << quint64(0x1006) << qint64(4) << int(KnownBy::LaterRead);
    QTest::newRow("an unknown byte: nothing") << quint64(9) << quint64(0x1007) << qint64(0) << int(KnownBy::Unknown);
}

void TestMemoryPane::clickOnAByteNamesItsRow()
{
    QFETCH(quint64, at);
    QFETCH(quint64, address);
    QFETCH(qint64, rowId);
    QFETCH(int, knownBy);

    const std::unique_ptr<MemoryPane> pane = openPane(m_small);
    QVERIFY(pane);
    QString error;
    QVERIFY(pane->goToText(QStringLiteral("0x1000"), &error));
    QVERIFY(showAt(*pane, at));
    QSignalSpy picked(pane.get(), &MemoryPane::accessPicked);
    QSignalSpy status(pane.get(), &MemoryPane::statusMessage);
    const QRect cell = pane->view()->hexRect(Address { address });
    QVERIFY(!cell.isEmpty());
    QTest::mouseClick(pane->view(), Qt::LeftButton, {}, cell.center());
    if (rowId == 0) {
        QCOMPARE(status.count(), 1);
        QCOMPARE(status.at(0).at(0).toString(),
            QStringLiteral("%1 is unknown after transition %2: no access tells it").arg(hexText(address)).arg(at));
        QTest::qWait(100);
        QCOMPARE(picked.count(), 0);
        return;
    }
    QVERIFY(picked.wait(10000));
    QCOMPARE(picked.count(), 1);
    const auto access = picked.at(0).at(0).value<Access>();
    QCOMPARE(access.rowId, RowId { rowId });
    QVERIFY(access.physical.value <= address && address <= access.lastByte().value);
    QCOMPARE(int(picked.at(0).at(1).value<KnownBy>()), knownBy);
}

void TestMemoryPane::clickInTheWindowSelectsTheRow()
{
    viewer::MainWindow window;
    window.setInteractive(false);
    window.resize(1400, 900);
    window.show();
    QSignalSpy planeLoaded(window.plane(), &PlaneWidget::historyLoaded);
    window.openHistory(m_small);
    QVERIFY(planeLoaded.wait(20000) || planeLoaded.count() == 1);
    window.showMemoryPane();
    MemoryPane *pane = window.memoryPane();
    QVERIFY(QTest::qWaitFor([&] { return pane->hasValues() == std::optional<bool>(true); }, 10000));

    // Go to Transition moves the pane as it moves the position line.
    QString error;
    QVERIFY(pane->goToText(QStringLiteral("0x1000"), &error));
    QSignalSpy shown(pane, &MemoryPane::memoryShown);
    QVERIFY(window.navigator()->goToTransitionText(QStringLiteral("12"), &error));
    QVERIFY(QTest::qWaitFor([&] { return pane->view()->snapshot().at == Transition { 12 }; }, 10000));

    // A click on 0x1001 (last written at 9, row 3) selects row 3: the current results row, the
    // Detail pane's access and the plane's position line; the pane follows it to transition 9 with
    // the access's two bytes framed.
    QTest::mouseClick(pane->view(), Qt::LeftButton, {}, pane->view()->hexRect(Address { 0x1001 }).center());
    QVERIFY(QTest::qWaitFor(
        [&] {
            return window.navigator()->selectedAccess() && window.navigator()->selectedAccess()->rowId == RowId { 3 };
        },
        10000));
    QCOMPARE(window.queryPanel()->currentQuery().direction, Direction::Backward);
    QCOMPARE(window.navigator()->selectedAccess()->physical, Address { 0x1001 });
    QCOMPARE(window.plane()->currentLineX().has_value(), true);
    QVERIFY(QTest::qWaitFor([&] { return pane->view()->snapshot().at == Transition { 9 }; }, 10000));
    QCOMPARE(pane->position(), std::optional<Transition>(Transition { 9 }));
}

void TestMemoryPane::historyWithoutValues()
{
    const QString path = m_dir.filePath(QStringLiteral("novalues.memhist"));
    QString error;
    QVERIFY2(
        writeHistory(path, { userAccess(5, Operation::Write, 0x1000, 4), userAccess(7, Operation::Read, 0x1000, 4) },
            WriterOptions {}, &error),
        qPrintable(error));
    const std::unique_ptr<MemoryPane> pane = openPane(path);
    QVERIFY(pane);
    QCOMPARE(pane->hasValues(), std::optional<bool>(false));
    QVERIFY(pane->message().startsWith(QStringLiteral("This history keeps no values")));
    // A position changes nothing: still the message, no grid of "??".
    pane->showTransition(Transition { 5 });
    QTest::qWait(50);
    QVERIFY(pane->message().startsWith(QStringLiteral("This history keeps no values")));
    QVERIFY(pane->view()->snapshot().bytes.isEmpty());
    QVERIFY(pane->view()->text().isEmpty());
}

void TestMemoryPane::redrawLatency()
{
    // 200,000 accesses over 4 KiB, every one with its value: each byte has a long history to walk.
    QList<ValuedAccess> stream;
    QRandomGenerator random(27);
    for (int i = 0; i < 200000; ++i) {
        const std::uint32_t size = 1u << random.bounded(4);
        const std::uint64_t address = 0x10000 + random.bounded(4096 / size) * size;
        QByteArray value(int(size), '\0');
        for (char &byte : value)
            byte = char(random.bounded(256));
        stream << ValuedAccess {
            userAccess(std::uint64_t(i) * 3, i % 3 == 0 ? Operation::Write : Operation::Read, address, size), value
        };
    }
    const QString path = m_dir.filePath(QStringLiteral("large.memhist"));
    QVERIFY(writeHistoryWithValues(path, stream));
    const std::unique_ptr<MemoryPane> pane = openPane(path);
    QVERIFY(pane);
    QString error;
    QVERIFY(pane->goToText(QStringLiteral("0x10400"), &error));
    QVERIFY(showAt(*pane, 1));

    // The GUI thread's share of a step is the call itself; the read is the worker's.
    QList<qint64> latencies;
    qint64 longestCall = 0;
    for (int step = 0; step < 40; ++step) {
        const std::uint64_t t = std::uint64_t(random.bounded(600000));
        QSignalSpy shown(pane.get(), &MemoryPane::memoryShown);
        QElapsedTimer clock;
        clock.start();
        pane->showTransition(Transition { t });
        longestCall = std::max(longestCall, clock.elapsed());
        // The read is not the GUI thread's: nothing is shown before the event loop delivers it.
        QCOMPARE(shown.count(), 0);
        QVERIFY(shown.wait(10000));
        latencies << clock.elapsed();
        QCOMPARE(pane->view()->snapshot().at, Transition { t });
    }
    std::sort(latencies.begin(), latencies.end());
    qInfo("Memory pane: %lld rows of 16 bytes; redraw after a position change: median %lld ms, max %lld ms "
          "(wall-clock, 40 steps over 200,000 accesses on 4 KiB); longest GUI-thread call %lld ms",
        qint64(pane->view()->rowCount()), latencies.at(latencies.size() / 2), latencies.constLast(), longestCall);
    // Generous: a loaded test machine runs tests in parallel. The target (≤ 50 ms) is measured above.
    QVERIFY(latencies.at(latencies.size() / 2) < 500);
}

QTEST_MAIN(TestMemoryPane)
#include "tst_memorypane.moc"
