// SPDX-License-Identifier: MIT
// The plane's view state and actions without a widget: steps recorded or not, back, forward, home,
// the cap of the zoom history, clamping, and what wheel turns, rubber bands and drags ask for.
#include "widgets/plane/planeviewstate.h"

#include <QTest>
#include <cmath>

using namespace memhist;
using namespace memhist::plane;

Q_DECLARE_METATYPE(memhist::plane::PlaneViewport)

namespace {

// 1000 transitions over one region of 4096 bytes (4096 display units).
PlaneExtent testExtent()
{
    return extentFor(
        Transition { 0 }, Transition { 999 }, AddressFold(std::vector<AddressInterval> { { 0x1000, 0x1fff } }));
}

// Named views for the scripts below.
PlaneViewport named(const QString &name)
{
    if (name == QLatin1String("a"))
        return { 100, 200, 0, 1024 };
    if (name == QLatin1String("b"))
        return { 300, 400, 1024, 2048 };
    if (name == QLatin1String("c"))
        return { 500, 600, 2048, 3072 };
    if (name == QLatin1String("far right")) // beyond the last transition: shifted back inside
        return { 950, 1050, 0, 1024 };
    if (name == QLatin1String("far right, clamped"))
        return { 900, 1000, 0, 1024 };
    return testExtent().bounds; // "all"
}

} // namespace

class TestPlaneViewState : public QObject
{
    Q_OBJECT

private slots:
    void script_data()
    {
        // Actions: "x" shows view x as a step, "~x" without recording, "<" back, ">" forward,
        // "home", "record all" records the whole view as a step (the end of a drag).
        QTest::addColumn<QStringList>("actions");
        QTest::addColumn<QList<bool>>("changed"); // what each action reported
        QTest::addColumn<QString>("view");
        QTest::addColumn<int>("backSteps");
        QTest::addColumn<bool>("canGoForward");
        const auto s = [](std::initializer_list<const char *> list) {
            QStringList result;
            for (const char *item : list)
                result << QString::fromUtf8(item);
            return result;
        };
        QTest::newRow("a step is recorded") << s({ "a" }) << QList<bool> { true } << "a" << 1 << false;
        QTest::newRow("a quiet change is not") << s({ "~a" }) << QList<bool> { true } << "a" << 0 << false;
        QTest::newRow("back returns to the view before")
            << s({ "a", "b", "<" }) << QList<bool> { true, true, true } << "a" << 1 << true;
        QTest::newRow("forward after back")
            << s({ "a", "b", "<", ">" }) << QList<bool> { true, true, true, true } << "b" << 2 << false;
        QTest::newRow("a new step drops the steps forward")
            << s({ "a", "b", "<", "c" }) << QList<bool> { true, true, true, true } << "c" << 2 << false;
        QTest::newRow("back with no step: nothing") << s({ "<" }) << QList<bool> { false } << "all" << 0 << false;
        QTest::newRow("forward with no step: nothing")
            << s({ "a", ">" }) << QList<bool> { true, false } << "a" << 1 << false;
        QTest::newRow("home is a step") << s({ "a", "home" }) << QList<bool> { true, true } << "all" << 2 << false;
        QTest::newRow("home at home: nothing") << s({ "home" }) << QList<bool> { false } << "all" << 0 << false;
        QTest::newRow("the same view again: no step")
            << s({ "a", "a" }) << QList<bool> { true, false } << "a" << 1 << false;
        QTest::newRow("past the history: shifted back inside")
            << s({ "far right" }) << QList<bool> { true } << "far right, clamped" << 1 << false;
        QTest::newRow("a drag is one step, recorded at its end")
            << s({ "~a", "~b", "record all" }) << QList<bool> { true, true, true } << "b" << 1 << false;
    }
    void script()
    {
        QFETCH(QStringList, actions);
        QFETCH(QList<bool>, changed);
        QFETCH(QString, view);
        PlaneViewState state;
        state.reset(testExtent());
        QList<bool> reported;
        for (const QString &action : std::as_const(actions)) {
            if (action == QLatin1String("<"))
                reported << state.back();
            else if (action == QLatin1String(">"))
                reported << state.forward();
            else if (action == QLatin1String("home"))
                reported << state.home();
            else if (action == QLatin1String("record all")) {
                state.record(named(QStringLiteral("all")));
                reported << true;
            } else if (action.startsWith(u'~'))
                reported << state.show(named(action.mid(1)), false);
            else
                reported << state.show(named(action), true);
        }
        QCOMPARE(reported, changed);
        QCOMPARE(state.view(), named(view));
        QTEST(state.backSteps(), "backSteps");
        QCOMPARE(state.canGoBack(), state.backSteps() > 0);
        QTEST(state.canGoForward(), "canGoForward");
    }

    void resetForgetsTheSteps()
    {
        PlaneViewState state;
        state.reset(testExtent());
        state.show(named(QStringLiteral("a")), true);
        state.show(named(QStringLiteral("b")), true);
        state.back();
        state.reset(testExtent());
        QCOMPARE(state.view(), testExtent().bounds);
        QVERIFY(!state.canGoBack());
        QVERIFY(!state.canGoForward());
    }

    void theZoomHistoryKeepsTheNewestSteps()
    {
        PlaneViewState state;
        state.reset(testExtent());
        // 150 steps: views [i, i + 100) for i = 1..150, each replacing the one before.
        for (int i = 1; i <= 150; ++i)
            QVERIFY(state.show({ double(i), double(i + 100), 0, 4096 }, true));
        QCOMPARE(state.backSteps(), PlaneViewState::maxHistory);
        int steps = 0;
        while (state.back())
            ++steps;
        QCOMPARE(steps, PlaneViewState::maxHistory);
        // The oldest steps (the whole view and views 1..49) are gone: view 50 is the first kept.
        QCOMPARE(state.view(), (PlaneViewport { 50, 150, 0, 4096 }));
    }

    void zoomedAndCentred()
    {
        PlaneViewState state;
        state.reset(testExtent());
        state.show(named(QStringLiteral("b")), false); // [300, 400) x [1024, 2048)
        QCOMPARE(state.zoomed(QPointF(0, 0), 2, 2), (PlaneViewport { 300, 350, 1024, 1536 }));
        QCOMPARE(state.zoomed(QPointF(1, 1), 2, 1), (PlaneViewport { 350, 400, 1024, 2048 }));
        QCOMPARE(state.centredOn(500, 3000), (PlaneViewport { 450, 550, 2488, 3512 }));
    }

    void wheelZoomFactors_data()
    {
        QTest::addColumn<int>("angle");
        QTest::addColumn<int>("modifiers");
        QTest::addColumn<double>("x");
        QTest::addColumn<double>("y");
        QTest::newRow("one notch in: both axes") << 120 << int(Qt::NoModifier) << 1.25 << 1.25;
        QTest::newRow("two notches out") << -240 << int(Qt::NoModifier) << 0.64 << 0.64;
        QTest::newRow("half a notch (a touchpad)") << 60 << int(Qt::NoModifier) << std::sqrt(1.25) << std::sqrt(1.25);
        QTest::newRow("Ctrl: transitions only") << 120 << int(Qt::ControlModifier) << 1.25 << 1.0;
        QTest::newRow("Shift: addresses only") << 120 << int(Qt::ShiftModifier) << 1.0 << 1.25;
        QTest::newRow("Ctrl+Shift: neither") << 120 << int(Qt::ControlModifier | Qt::ShiftModifier) << 1.0 << 1.0;
    }
    void wheelZoomFactors()
    {
        QFETCH(int, angle);
        QFETCH(int, modifiers);
        const ZoomFactors factors = plane::wheelZoomFactors(angle, Qt::KeyboardModifiers(modifiers));
        QTEST(factors.x, "x");
        QTEST(factors.y, "y");
    }

    void rubberBand_data()
    {
        QTest::addColumn<QPointF>("from");
        QTest::addColumn<QPointF>("to");
        QTest::addColumn<bool>("zooms");
        QTest::addColumn<PlaneViewport>("view");
        // The view [0, 100) x [0, 100) over 100 x 100 pixels; pixel y grows downward.
        QTest::newRow("a rectangle: both spans")
            << QPointF(10, 10) << QPointF(30, 40) << true << PlaneViewport { 10, 30, 60, 90 };
        QTest::newRow("drawn backwards: the same")
            << QPointF(30, 40) << QPointF(10, 10) << true << PlaneViewport { 10, 30, 60, 90 };
        QTest::newRow("4 px wide: addresses only")
            << QPointF(10, 10) << QPointF(14, 40) << true << PlaneViewport { 0, 100, 60, 90 };
        QTest::newRow("4 px tall: transitions only")
            << QPointF(10, 10) << QPointF(30, 14) << true << PlaneViewport { 10, 30, 0, 100 };
        QTest::newRow("5 px both ways: still a band")
            << QPointF(10, 10) << QPointF(15, 15) << true << PlaneViewport { 10, 15, 85, 90 };
        QTest::newRow("4 px both ways: a click, no zoom")
            << QPointF(10, 10) << QPointF(14, 14) << false << PlaneViewport {};
    }
    void rubberBand()
    {
        QFETCH(QPointF, from);
        QFETCH(QPointF, to);
        QFETCH(bool, zooms);
        const PixelMapping mapping({ 0, 100, 0, 100 }, QSizeF(100, 100));
        const std::optional<PlaneViewport> view = rubberBandViewport(mapping, from, to);
        QCOMPARE(view.has_value(), zooms);
        if (zooms)
            QTEST(*view, "view");
    }

    void dragPans_data()
    {
        QTest::addColumn<QPoint>("delta");
        QTest::addColumn<QPointF>("fractions");
        QTest::newRow("right: earlier transitions") << QPoint(50, 0) << QPointF(-0.5, 0);
        QTest::newRow("up: lower addresses") << QPoint(0, -50) << QPointF(0, -0.25);
        QTest::newRow("nowhere") << QPoint(0, 0) << QPointF(0, 0);
    }
    void dragPans()
    {
        QFETCH(QPoint, delta);
        QTEST(dragPanFractions(delta, QSize(100, 200)), "fractions");
    }
};

QTEST_GUILESS_MAIN(TestPlaneViewState)
#include "tst_planeviewstate.moc"
