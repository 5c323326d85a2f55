// SPDX-License-Identifier: MIT
#include "comparison.h"

#include "comparejob.h"
#include "core/model/numbertext.h"
#include "executionspanel.h"
#include "widgets/diff/diffentriesmodel.h"
#include "widgets/diff/diffentrytargets.h"
#include "widgets/diff/diffpanel.h"
#include "widgets/diff/diffsummary.h"
#include "widgets/diff/planealignment.h"
#include "widgets/plane/planewidget.h"

#include <QFileInfo>
#include <QTableView>

namespace memhist::viewer {

namespace {

// The transitions an entry is shown with: its own and as many again on either side, at least
// this many (a single access then shows with its neighbours, drawn one by one).
constexpr std::uint64_t leastPickedSpan = 256;
// The bytes shown on either side of a picked entry's accesses.
constexpr std::uint64_t pickedBytesAround = 256;
// How long a picked entry's outline shows (its accesses stay marked).
constexpr int pickedOutlineMs = 5000;

// The view of one side of a picked entry: its transitions centred in `span` transitions, its
// bytes framed (as an execution picked in the Executions tab is), or the current addresses for a
// control hunk.
ViewRange viewOf(PlaneWidget *plane, const DiffTarget &target, std::uint64_t span)
{
    ViewRange range = plane->visibleRange();
    const std::uint64_t middle
        = target.firstTransition.value + (target.lastTransition.value - target.firstTransition.value) / 2;
    range.firstTransition = Transition { middle >= span / 2 ? middle - span / 2 : 0 };
    range.lastTransition = Transition { range.firstTransition.value + span - 1 };
    if (target.firstAddress && target.lastAddress) {
        // A few hundred bytes around them: the object and its neighbours legible, not a sliver of
        // the whole address axis.
        const std::uint64_t first = target.firstAddress->value, last = target.lastAddress->value;
        range.firstAddress = Address { first >= pickedBytesAround ? first - pickedBytesAround : 0 };
        range.lastAddress
            = Address { last <= ~std::uint64_t(0) - pickedBytesAround ? last + pickedBytesAround : ~std::uint64_t(0) };
        range = framedOnExecution(
            range, Transition { middle }, *target.firstAddress, *target.lastAddress, plane->occupiedRegions());
    }
    return range;
}

} // namespace

Comparison::Comparison(PlaneWidget *top, PlaneWidget *bottom, DiffPanel *panel, QObject *parent)
    : QObject(parent)
    , m_top(top)
    , m_bottom(bottom)
    , m_panel(panel)
    , m_alignment(new PlaneAlignment(top, bottom, this))
    , m_compare(compareHistories)
{
    m_bottom->hide();
    m_job.onProgress([this](const JobProgress &progress) {
        if (progress.fraction >= 0)
            m_panel->setProgress(progress.fraction);
    });
    connect(m_panel, &DiffPanel::cancelClicked, this, &Comparison::cancel);
    connect(m_panel, &DiffPanel::entryPicked, this, &Comparison::pick);
    connect(m_bottom, &PlaneWidget::pointClicked, this,
        [this](Transition t, Address a, const std::optional<Access> &access) { pickOnBottomPlane(t, a, access); });
    // B's plane follows A's transitions from the moment it can show them.
    connect(m_bottom, &PlaneWidget::historyLoaded, m_alignment, &PlaneAlignment::alignBottom);
}

Comparison::~Comparison() = default;

void Comparison::start(const QString &a, const QString &b, std::optional<Transition> aLast, const QString &baseline)
{
    m_job.cancel();
    m_second = QFileInfo(b).absoluteFilePath();
    m_result = DiffResult {};
    m_alignment->setOffset(0);
    m_bottom->setHistory(m_second);
    m_bottom->show();
    const QString sides
        = tr("A: %1 (the plane above) · B: %2 (the plane below)").arg(QFileInfo(a).fileName(), QFileInfo(b).fileName());
    m_panel->setSides(baseline.isEmpty() ? sides
                                         : sides
                + tr(" · baseline: %1 (what differs between A and it is left out)")
                      .arg(QFileInfo(baseline).fileName()));
    m_panel->startComparing(
        tr("Comparing %1 (A, above) with %2 (B, below)…").arg(QFileInfo(a).fileName(), QFileInfo(b).fileName()));
    const std::uint64_t total = aLast ? std::max<std::uint64_t>(aLast->value, 1) : 0;
    m_job.start(
        [a, b = m_second, baseline, total, compare = m_compare](const JobTicket &ticket) {
            return compare(a, b, baseline, compareEntryLimit, [&ticket, total](Transition reached) {
                if (total > 0)
                    ticket.report(JobProgress {
                        std::min(1.0, double(reached.value) / double(total)), qint64(reached.value), QString() });
                return !ticket.cancelled();
            });
        },
        [this](const CompareOutcome &outcome) { done(outcome); });
}

void Comparison::done(const CompareOutcome &outcome)
{
    if (outcome.ok) {
        m_result = outcome.result;
        m_panel->showResult(m_result);
        const QString counts = diffCountsText(m_result);
        emit statusMessage(tr("Compared with %1: %2").arg(QFileInfo(m_second).fileName(), counts));
        emit finished(true, counts);
        return;
    }
    m_panel->showMessage(outcome.error);
    if (!outcome.cancelled) {
        // Nothing of B to look at beside A: a file that is not a history, another program's run.
        m_bottom->setHistory(QString());
        m_bottom->hide();
        m_second.clear();
        m_panel->setSides(QString());
        emit failed(outcome.error);
    }
    emit finished(false, outcome.error);
}

void Comparison::cancel()
{
    if (m_job.isRunning())
        m_job.stop();
}

void Comparison::close()
{
    m_job.cancel();
    m_second.clear();
    m_result = DiffResult {};
    m_bottom->setHistory(QString());
    m_bottom->hide();
    // The query's markers stay; a picked entry's go with the comparison.
    if (m_picked)
        m_top->setMarkedAccesses({});
    m_picked = false;
    m_panel->clear();
}

void Comparison::pick(const DiffEntry &entry)
{
    const std::optional<DiffTarget> a = diffTarget(entry, DiffSide::A);
    const std::optional<DiffTarget> b = diffTarget(entry, DiffSide::B);
    // A side with nothing there (B's access that A did not make) is shown where the other side's is.
    const DiffTarget &anyTarget = a ? *a : *b;
    std::uint64_t span = leastPickedSpan;
    for (const std::optional<DiffTarget> &target : { a, b })
        if (target)
            span = std::max(span, 3 * (target->lastTransition.value - target->firstTransition.value + 1));
    const DiffTarget &aTarget = a ? *a : anyTarget;
    const DiffTarget &bTarget = b ? *b : anyTarget;
    const ViewRange aView = viewOf(m_top, aTarget, span);
    const ViewRange bView = viewOf(m_bottom, bTarget, span);
    m_alignment->show(aView, bView);
    const auto mark = [](PlaneWidget *plane, const std::optional<DiffTarget> &target, const ViewRange &view) {
        plane->setMarkedAccesses(target ? target->accesses : QList<Access> {});
        if (!target)
            return;
        plane->setCurrentTransition(target->firstTransition);
        plane->markTarget(
            ViewRange { target->firstTransition, target->lastTransition,
                target->firstAddress.value_or(view.firstAddress), target->lastAddress.value_or(view.lastAddress) },
            pickedOutlineMs);
    };
    mark(m_top, a, aView);
    m_picked = true;
    mark(m_bottom, b, bView);
    emit statusMessage(tr("A at transition %1, B at transition %2")
                           .arg(a ? countText(a->firstTransition.value) : tr("none"),
                               b ? countText(b->firstTransition.value) : tr("none")));
}

void Comparison::pickOnBottomPlane(Transition t, Address a, const std::optional<Access> &accessUnderCursor)
{
    const DiffEntriesModel *model = m_panel->model();
    const std::optional<qsizetype> row = entryAt(model->entries(), DiffSide::B, t, a, accessUnderCursor);
    if (!row) {
        emit statusMessage(m_job.isRunning()
                ? tr("B: the comparison is still running; its differences can be picked when it ends")
                : tr("B: no difference listed at transition %1, address %2").arg(countText(t.value), hexText(a.value)));
        return;
    }
    QTableView *view = m_panel->view();
    const QModelIndex index = model->index(int(*row), 0);
    view->scrollTo(index);
    // Picked as a row of the tab is; the row current already is picked again (the planes may have
    // moved since).
    if (view->currentIndex().row() == index.row())
        pick(model->entry(index.row()));
    else
        view->setCurrentIndex(index);
    emit entryPickedOnPlane();
}

} // namespace memhist::viewer
