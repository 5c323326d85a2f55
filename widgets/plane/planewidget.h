// SPDX-License-Identifier: MIT
// The transition x address plane: a history's slices as bands, chunks as rectangles and, zoomed in,
// accesses as size bars, with empty address ranges folded away.
//
// Interaction:
// - wheel: zoom both axes, anchored at the cursor; Ctrl+wheel: transitions (x) only; Shift+wheel:
//   addresses (y) only. A burst of wheel steps is one entry of the zoom history;
// - left drag: pan; a left click without drag: pointClicked();
// - right drag, or Shift+left drag: rubber band, zooms to the rectangle (a rectangle thinner than a
//   few pixels in one direction zooms the other direction only);
// - Home key: everything; Backspace, Alt+Left or the mouse's back button: back; Alt+Right or the
//   forward button: forward; +/-: zoom at the centre;
// - hovering: hoverTextChanged() and a tooltip name the transition, the address (and its region or
//   folded gap) and the access under the cursor when accesses are drawn; where the history has
//   program context, then the access's instruction, function, source line, thread and what its
//   address is, read in the background (planecontext.h) and added when they arrive.
//
// Where the history has context, the address axis names its regions and, zoomed in until they fit,
// its data symbols; with more than one thread a strip along the bottom shows which ran when, in the
// legend's thread colours. The selected access's transition has a line down the plot.
//
// A thread filter (setThreadFilter(), the query panel's choice) keeps only the chosen threads'
// accesses where single accesses are drawn, and dims the other threads' transitions where chunks
// are (planethreadfilter.h); hover and clicks then never pick another thread's access.
//
// Everything heavy runs off the GUI thread: opening the history (its slices and display summary) in
// a JobTracker job, each view in PlaneRenderer's worker; the widget shows the previous image scaled
// to the new view until the new one arrives. A history without a display summary (another tool's,
// an older memhist's) is summarised once, in the background with its progress shown and a Cancel
// button, into a summary file in the cache directory (never into the history), which the next
// opening of the same, unchanged file reuses.
//
// The widget keeps the events, the loading and the render scheduling; the view and its zoom history
// are a PlaneViewState, hit tests and hover texts are planehittest's, the axes, folds, markers and
// legend are placed by planeaxes and painted by planeoverlays.
#pragma once

#include "core/model/types.h"
#include "core/model/viewrange.h"
#include "core/origin/originfinder.h"
#include "core/storage/threadspans.h"
#include "widgets/common/jobtracker.h"
#include "widgets/plane/planeaxes.h"
#include "widgets/plane/planecoordinates.h"
#include "widgets/plane/planeviewstate.h"

#include <QElapsedTimer>
#include <QImage>
#include <QList>
#include <QPushButton>
#include <QTimer>
#include <QWidget>
#include <memory>
#include <optional>

namespace memhist {

namespace plane {
struct AddressNames;
class PlaneContext;
struct HistoryOverview;
struct RenderResult;
class PlaneRenderer;
} // namespace plane

class PlaneWidget : public QWidget
{
    Q_OBJECT

public:
    explicit PlaneWidget(QWidget *parent = nullptr);
    ~PlaneWidget() override;

    // Opens `databasePath` read-only in background workers (never on the GUI thread) and shows all
    // of it once loaded (historyLoaded()). An empty path clears the plane.
    void setHistory(const QString &databasePath);

    // Where summaries of histories without one are kept (by default the application's cache
    // location, "summaries" in it). Empty: none are made; such a history is then scanned for a
    // fold and coverage of its own each time it is opened.
    void setSummaryCacheDirectory(const QString &directory) { m_cacheDirectory = directory; }
    QString summaryCacheDirectory() const { return m_cacheDirectory; }
    // The file the plane draws the history's summary from: the history itself, a summary file in
    // the cache, or empty (no summary: drawn from a scan of its own).
    QString summaryPath() const;
    bool isSummarising() const { return m_summarising; }
    // Why the history's own summary tables are not used (damaged, another version, another tool's,
    // out of date), naming the file; empty when they are used or there are none.
    QString summaryNotice() const { return m_summaryNotice; }
    // Why the current view has no image (its summary is damaged); empty when it has one.
    QString renderError() const;
    // Stops summarising; the plane then offers to start again.
    void cancelSummary();
    QString historyPath() const { return m_path; }
    bool isHistoryLoaded() const;

    // The query results loaded so far: a marker at each (repaints throttled to 25 Hz).
    void setMarkedAccesses(const QList<memhist::Access> &accesses);
    // Draws only the accesses of the transitions `threads` ran (empty: every thread), as the query
    // panel's thread filter chooses; cleared by setHistory().
    void setThreadFilter(const QList<qint64> &threads);
    QList<qint64> threadFilter() const { return m_threadFilter; }

    // The selected result: highlighted, and brought into view (panned to the centre, at the current
    // zoom) when it is outside the visible range.
    void setCurrentAccess(const std::optional<memhist::Access> &access);
    // The current position without an access (Go to Transition, an execution picked in the
    // Executions tab): the position line moves to `transition`, the selected access keeps its
    // highlight. The next setCurrentAccess() moves the line back to its access.
    void setCurrentTransition(memhist::Transition transition);

    // The memory hops of an origin tree (those with a transition and an address; a register hop has
    // no place on the plane) drawn as a connected path: each joined to its nearest ancestor on the
    // plane. An empty tree clears it; so does setHistory().
    void setOriginPath(const memhist::OriginTree &tree);
    // The path's points as (access, index of the point it joins; -1 for none), in the tree's order.
    const QList<std::pair<memhist::Access, int>> &originPath() const { return m_originPath; }

    // Frames the bytes [first, last] (planecoordinates.h framedViewport()) at the same transitions,
    // as one step of the zoom history.
    void frameBytes(memhist::Address first, memhist::Address last);
    // Outlines `target` (its transitions and bytes, inclusive) on the plane for `milliseconds`: where
    // Go to Address or Symbol went, so that a small object is found at a glance. A later target
    // replaces it; setHistory() clears it.
    void markTarget(const memhist::ViewRange &target, int milliseconds = targetOutlineMs);
    std::optional<memhist::ViewRange> markedTarget() const { return m_target; }
    // The outline of the marked target in widget coordinates, clipped to the plot, at least a few
    // pixels tall however few bytes it has; nullopt without a target or when it is out of view.
    std::optional<QRect> targetOutline() const;
    static constexpr int targetOutlineMs = 3000;
    // The plot's rectangle in the widget (inside the axes), for tests.
    QRect plotRectangle() const { return plotRect(); }

    memhist::ViewRange visibleRange() const;
    // Shows `range` (clamped to the history), as one step of the zoom history unless
    // `recordHistory` is false (a plane that follows another's moves: Back undoes the user's own).
    void setVisibleRange(const memhist::ViewRange &range, bool recordHistory = true);
    // The occupied address regions (the fold's unfolded segments), in address order.
    QList<memhist::ViewRange> occupiedRegions() const;

    // The widget position of the centre of transition t at address a (for tests and overlays);
    // nullopt outside the plot.
    std::optional<QPointF> positionOf(memhist::Transition t, memhist::Address a) const;

    bool canGoBack() const { return m_state.canGoBack(); }
    bool canGoForward() const { return m_state.canGoForward(); }

    // The text of the last hover, as hoverTextChanged() sent it.
    QString hoverText() const { return m_hoverText; }
    // Whether the image shown draws individual accesses (else chunks: zoomed out too far).
    bool showsAccesses() const;
    // The access drawn at a widget position, if accesses are drawn there (with a thread filter,
    // only one of the chosen threads', and none until the image drawn with that filter arrives).
    std::optional<memhist::Access> accessAt(QPointF position) const;
    // The query markers drawn and picked: with a thread filter, only the chosen threads' (as the
    // image drawn with that filter keeps them); all of them meanwhile.
    QList<memhist::Access> shownMarkers() const;
    // The accesses the image shown draws, in rowid order (empty when it draws chunks only).
    std::vector<memhist::Access> drawnAccesses() const;

    // The widget column of the current position's line (the current access's transition, or the
    // transition setCurrentTransition() gave since), none without a position or when it is out of
    // view.
    std::optional<int> currentLineX() const;
    // The names of the address axis and the threads, once read (null before, and for a history
    // without context: then empty lists).
    std::shared_ptr<const plane::AddressNames> addressNames() const { return m_names; }
    // The thread spans of the view's transitions (read for a history with more than one thread).
    const QList<ThreadSpan> &threadSpans() const { return m_threadSpans; }
    // The names the address axis shows in the current view (plot pixels), as painted.
    std::vector<plane::RangeLabel> regionLabels() const;
    std::vector<plane::RangeLabel> symbolLabels() const;

    QSize sizeHint() const override { return { 900, 600 }; }
    QSize minimumSizeHint() const override { return { 320, 200 }; }

public slots:
    void home();
    void back();
    void forward();
    // What + and - do: zoom both axes at the centre, one step of the zoom history.
    void zoomIn();
    void zoomOut();

signals:
    void historyLoaded();
    void historyFailed(const QString &message);
    void visibleRangeChanged(const memhist::ViewRange &range);
    void pointClicked(memhist::Transition t, memhist::Address a, std::optional<memhist::Access> accessUnderCursor,
        Qt::KeyboardModifiers modifiers);
    void navigationChanged();
    void hoverTextChanged(const QString &text);
    void renderFinished(qint64 milliseconds);
    // The names of the address axis and the threads were read (addressNames()); the thread spans of
    // the view were read (threadSpans()).
    void addressNamesRead();
    void threadSpansRead();
    // The view could not be drawn: `message` names the damaged summary file and the reason (shown
    // in the plane instead of a picture).
    void renderFailed(const QString &message);
    // Summarising a history without a summary: started, how far (0..1, when it moves by 0.1 % or
    // more), finished (ok false: failed or cancelled, `message` says why).
    void summaryStarted();
    void summaryProgress(double fraction);
    void summaryFinished(bool ok, const QString &message);

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void leaveEvent(QEvent *event) override;

private:
    enum class Drag {
        None,
        Pan,
        RubberBand,
    };

    // Whether the image shown was drawn with the current thread filter (an older one may show other
    // threads' accesses).
    bool imageHasThreadFilter() const;
    // After openOverview(): shows it, or summarises the history first, or scans it.
    void overviewOpened(std::shared_ptr<const plane::HistoryOverview> overview);
    void startSummary(const QString &target);
    void summaryEnded(bool ok, const QString &message);
    void scanHistory(const QString &reason);
    // `text` after the summary notice, if any.
    QString summaryStatus(const QString &text) const;
    void applyOverview(std::shared_ptr<const plane::HistoryOverview> overview);
    void placeSummaryButton();
    void onRendered(const std::shared_ptr<const plane::RenderResult> &result);
    // Makes `view` current: clamps it, optionally records the previous view in the zoom history,
    // schedules a render and the throttled visibleRangeChanged().
    void setViewport(const plane::PlaneViewport &view, bool recordHistory);
    // After back() or forward() moved the view.
    void viewStepped();
    void requestRender();
    void startRender();
    void updateHover(QPointF position);
    void accessDescribed(const memhist::Access &access, const QString &text);
    void requestThreadSpans();
    QString describePoint(QPointF position) const;

    QRect plotRect() const;
    plane::PixelMapping mapping() const;
    bool hasHistory() const;

    // What the legend says about the image: accesses or chunks, and whether a newer one renders.
    QString legendDetail() const;

    QString m_path;
    std::shared_ptr<const plane::HistoryOverview> m_overview;
    JobTracker m_loader { this }; // the overview of the history being opened
    JobTracker m_summarizer { this }; // the summary of a history without one
    QString m_cacheDirectory;
    bool m_summarising = false;
    QString m_summaryToMake; // the summary file the last summarising was making
    QString m_summaryNotice; // why the history's own summary is not used
    double m_shownProgress = -1;
    QPushButton *m_summaryButton = nullptr; // Cancel while summarising, Summarise after a cancel
    QString m_status; // shown instead of the plane while loading or after an error

    plane::PlaneViewState m_state;

    plane::PlaneRenderer *m_renderer = nullptr;
    QTimer m_renderTimer; // coalesces the view changes of one event-loop pass into one request
    quint64 m_requestedGeneration = 0;
    quint64 m_shownGeneration = 0;
    QElapsedTimer m_renderClock; // since the newest request
    std::shared_ptr<const plane::RenderResult> m_result; // the image shown (maybe for an older view)

    QList<qint64> m_threadFilter;
    QList<Access> m_marked;
    QTimer m_markerTimer; // at most 25 repaints a second while results stream in
    bool m_markersDirty = false;
    std::optional<Access> m_current;
    QList<std::pair<Access, int>> m_originPath;
    std::optional<ViewRange> m_target; // markTarget()'s, until m_targetTimer ends it
    QTimer m_targetTimer;
    std::optional<Transition> m_position; // where the position line is: m_current's or a transition

    QTimer m_rangeTimer; // throttles visibleRangeChanged()
    QElapsedTimer m_lastWheel; // a wheel burst is one zoom-history entry

    Drag m_drag = Drag::None;
    QPoint m_pressPosition;
    QPoint m_dragPosition;
    plane::PlaneViewport m_pressView;
    bool m_dragMoved = false;

    QString m_hoverText;

    plane::PlaneContext *m_context = nullptr;
    std::shared_ptr<const plane::AddressNames> m_names;
    QList<ThreadSpan> m_threadSpans; // of the view's transitions when last read
    std::optional<Access> m_describedAccess; // the access m_describedText is about
    QString m_describedText;
    std::optional<Access> m_describing; // asked for, not yet described
    std::optional<QPointF> m_hoverPosition; // the cursor's, while it hovers the widget
};

} // namespace memhist
