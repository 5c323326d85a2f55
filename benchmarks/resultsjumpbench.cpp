// SPDX-License-Identifier: MIT
// The results table on a large history: the wall time from Ctrl+End in the table to its last rows
// shown (the query run backward from the end), and from Go to Row N to row N shown, each measured
// through the real QueryPanel with key events (needs a display or QT_QPA_PLATFORM=offscreen).
//
//   memhist-results-jump-bench HISTORY [ROW [PICTURE.png [FIRST LAST]]]
// With PICTURE, the panel as it shows row ROW is saved there (to look at, not measured; "-" for
// none). With FIRST and LAST (addresses, decimal or 0x hex), the query keeps the accesses to those
// bytes: a result whose size is estimated.
#include "widgets/query/querypanel.h"
#include "widgets/query/resultsmodel.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <cstdio>

using namespace memhist;

namespace {

double millisecondsSince(const QElapsedTimer &timer)
{
    return double(timer.nsecsElapsed()) / 1e6;
}

// Waits for `spy` to hold more than `before` signals, up to a minute. False on a timeout.
bool waitFor(QSignalSpy &spy, qsizetype before)
{
    return spy.size() > before || QTest::qWaitFor([&] { return spy.size() > before; }, 60000);
}

QString rowText(const ResultsModel &model, int row)
{
    const Access access = model.accessAt(row);
    return QStringLiteral("rowid %1, transition %2").arg(access.rowId.value).arg(access.transition.value);
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    const QStringList arguments = app.arguments();
    if (arguments.size() < 2) {
        std::fprintf(stderr, "usage: memhist-results-jump-bench HISTORY [ROW]\n");
        return 2;
    }
    const QString path = arguments.at(1);
    QueryPanel panel;
    panel.resize(1000, 700);
    panel.show();
    ResultsModel *model = panel.resultsModel();
    QSignalSpy pages(model, &ResultsModel::pageLoaded);
    QSignalSpy jumps(model, &ResultsModel::jumped);
    QSignalSpy failures(model, &ResultsModel::queryFailed);

    QElapsedTimer timer;
    timer.start();
    if (arguments.size() > 5) {
        HalfAxisQuery window;
        window.first = Address { arguments.at(4).toULongLong(nullptr, 0) };
        window.last = Address { arguments.at(5).toULongLong(nullptr, 0) };
        panel.setRunsDefaultQuery(false);
        panel.setHistory(path);
        panel.runQuery(window);
    } else {
        panel.setHistory(path); // the default query: reads and writes, forward from the first
    }
    if (!waitFor(pages, 0) || !failures.isEmpty()) {
        std::fprintf(stderr, "%s: the first page did not arrive\n", qPrintable(path));
        return 1;
    }
    std::printf("first page     %8.1f ms  (%d rows)\n", millisecondsSince(timer), model->rowCount());
    QSignalSpy sizes(model, &ResultsModel::resultSizeChanged);
    if (!model->canJump() && !waitFor(sizes, 0)) {
        std::fprintf(stderr, "%s: the result's size did not arrive\n", qPrintable(path));
        return 1;
    }
    std::printf("size known     %8.1f ms  (the result: %s%lld rows)\n", millisecondsSince(timer),
        model->isResultSizeExact() ? "" : "about ", qlonglong(model->resultSize()));

    QTableView *view = panel.resultsView();
    view->setFocus();
    const qsizetype jumpsBefore = jumps.size();
    timer.restart();
    QTest::keyClick(view, Qt::Key_End, Qt::ControlModifier);
    if (!waitFor(jumps, jumpsBefore) || !failures.isEmpty()) {
        std::fprintf(stderr, "%s: Ctrl+End did not land\n", qPrintable(path));
        return 1;
    }
    QCoreApplication::processEvents(); // the view lays out and paints the rows
    const double end = millisecondsSince(timer);
    const int current = view->currentIndex().row();
    std::printf("Ctrl+End       %8.1f ms  (rows %lld to %lld shown, current %s)\n", end,
        qlonglong(model->windowStart() + 1), qlonglong(model->windowStart() + model->rowCount()),
        qPrintable(rowText(*model, current)));

    const qint64 row = arguments.size() > 2 ? arguments.at(2).toLongLong() : model->resultSize() / 2;
    const qsizetype before = jumps.size();
    timer.restart();
    panel.goToRow(row);
    if (!waitFor(jumps, before) || !failures.isEmpty()) {
        std::fprintf(stderr, "%s: Go to Row did not land\n", qPrintable(path));
        return 1;
    }
    QCoreApplication::processEvents();
    std::printf("Go to Row %lld %8.1f ms  (%s; current %s)\n", qlonglong(row), millisecondsSince(timer),
        model->arePositionsExact() ? "exact" : "estimated position: about that row",
        qPrintable(rowText(*model, view->currentIndex().row())));
    if (arguments.size() > 3 && arguments.at(3) != QStringLiteral("-") && !panel.grab().save(arguments.at(3))) {
        std::fprintf(stderr, "%s: cannot write the picture\n", qPrintable(arguments.at(3)));
        return 1;
    }
    return 0;
}
