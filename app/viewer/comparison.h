// SPDX-License-Identifier: MIT
// The viewer's comparison of the open history (A, the top plane) with a second one (B, the
// bottom plane) — File ▸ Compare With…: B's plane is opened, the two runs are compared off the
// GUI thread (comparejob.h) with the Differences tab's progress bar and Cancel, and the entries
// found fill the tab. Picking an entry moves each plane to its own run's side of it (A's
// transitions and bytes on the top plane, B's on the bottom one), outlines it and marks its
// differing accesses on both; the planes stay time aligned (PlaneAlignment) as either is zoomed or
// scrolled.
#pragma once

#include "comparejob.h"
#include "core/diff/diffresult.h"
#include "core/model/types.h"
#include "widgets/common/jobtracker.h"

#include <QObject>
#include <functional>
#include <optional>

namespace memhist {
class DiffPanel;
class PlaneAlignment;
class PlaneWidget;
} // namespace memhist

namespace memhist::viewer {

class Comparison : public QObject
{
    Q_OBJECT
public:
    // `bottom` is hidden until a comparison starts, and hidden again when it closes.
    Comparison(PlaneWidget *top, PlaneWidget *bottom, DiffPanel *panel, QObject *parent = nullptr);
    ~Comparison() override;

    // Compares history `a` (shown on the top plane; its last transition `aLast` measures the
    // progress) with `b`, leaving out what differs between A and `baseline` when one is given
    // (compareHistories()): opens B's plane and starts the comparison. Replaces a comparison open.
    void start(const QString &a, const QString &b, std::optional<Transition> aLast, const QString &baseline = {});
    // Stops the comparison running; the tab says it was cancelled, B's plane stays.
    void cancel();
    // No comparison any more: B's plane and the entries go, a running comparison is dropped.
    void close();

    bool isOpen() const { return !m_second.isEmpty(); }
    bool isRunning() const { return m_job.isRunning(); }
    QString secondPath() const { return m_second; }
    // The last comparison's result (empty before one finished).
    const DiffResult &result() const { return m_result; }

    // Both planes to the entry's sides, its accesses marked (what a row of the tab does).
    void pick(const DiffEntry &entry);
    // A click on B's plane at (t, a): the entry listed there (entryAt()) becomes the tab's current
    // row and is picked; where none is, the status line says so. (A click on A's plane runs a
    // query: the query panel is A's.)
    void pickOnBottomPlane(Transition t, Address a, const std::optional<Access> &accessUnderCursor);

    // What the background job runs: compareHistories() by default. Tests wrap it (to hold it
    // until they have clicked Cancel); it runs off the GUI thread and must not touch the window.
    using CompareFunction = std::function<CompareOutcome(const QString &a, const QString &b, const QString &baseline,
        std::size_t limit, const std::function<bool(Transition)> &progress)>;
    void setCompareFunction(CompareFunction function) { m_compare = std::move(function); }

signals:
    // The comparison ended: ok with its result in the tab, or not (refused, failed, cancelled)
    // with `message` there.
    void finished(bool ok, const QString &message);
    // It was refused or failed (not cancelled): the window says so in a message box too.
    void failed(const QString &message);
    void statusMessage(const QString &message);
    // A click on B's plane picked an entry: the window shows the Differences tab.
    void entryPickedOnPlane();

private:
    void done(const CompareOutcome &outcome);

    PlaneWidget *m_top;
    PlaneWidget *m_bottom;
    DiffPanel *m_panel;
    PlaneAlignment *m_alignment;
    JobTracker m_job { this };
    QString m_second;
    DiffResult m_result;
    CompareFunction m_compare;
    bool m_picked = false; // the top plane's markers are a picked entry's, not the query's
};

} // namespace memhist::viewer
