// SPDX-License-Identifier: MIT
// Draws one view of the plane into a QImage on a worker thread, reading only what that view needs
// from the worker's own read-only connection: a level-of-detail plan (planedetail.h), then the read
// passes it asks for (planereads.h), then the paint passes (planepainting.h), stopping as soon as a
// newer view is requested.
#pragma once

#include "core/model/types.h"
#include "widgets/common/connectionthread.h"
#include "widgets/plane/planecoordinates.h"
#include "widgets/plane/planedetail.h"
#include "widgets/plane/planeoverview.h"
#include "widgets/plane/planepainting.h"
#include "widgets/plane/planethreadfilter.h"

#include <QImage>
#include <QObject>
#include <functional>
#include <memory>
#include <vector>

namespace memhist::sqlite {
class Connection;
}

namespace memhist::plane {

struct RenderRequest
{
    quint64 generation = 0;
    std::shared_ptr<const HistoryOverview> overview;
    PlaneViewport view;
    QSize pixels; // device pixels of the image
    PlaneColors colors;
    DetailLimits limits; // the level-of-detail thresholds (tests lower them)
    // The thread filter (planethreadfilter.h): only these threads' accesses are drawn, other
    // threads' transitions are dimmed under them. Empty: every thread, at no extra cost.
    QList<qint64> threads;
};

struct RenderResult
{
    quint64 generation = 0;
    PlaneViewport view; // what `image` shows
    QImage image;
    DetailPlan plan; // the level of detail `image` was drawn at
    bool accessDetail = false; // individual accesses drawn (and listed in `accesses`)
    bool accessesStandOut = false; // and not faded into the chunks behind them (accessesStandOut())
    // The accesses drawn, in rowid order (= transition order), for hit tests on the GUI thread.
    std::vector<Access> accesses;
    // The transitions the request's thread filter keeps in the view (everything without a filter).
    KeptTransitions kept;
    qint64 chunksRead = 0;
    qint64 accessesRead = 0;
    qint64 estimatedAccesses = 0;
    qint64 estimatedChunks = 0;
    qint64 summaryCellsRead = 0; // cells of the display summary read (0 without one)
    qint64 milliseconds = 0; // time spent rendering on the worker
    // Why there is no image: the display summary the view is drawn from is damaged (a file and
    // the reason). Empty when `image` is the view.
    QString error;
};

// Renders `request` synchronously with `db`. A history drawn from a summary kept in another file
// (HistoryOverview::summaryPath) needs `summaryDb` open on that file. Returns null when
// `cancelled()` turns true (checked every few hundred rows), on a database error, or when the
// request has no history; a result without an image and with `error` when a block of the summary
// is damaged.
std::shared_ptr<RenderResult> renderPlane(const RenderRequest &request, sqlite::Connection &db,
    const std::function<bool()> &cancelled, sqlite::Connection *summaryDb = nullptr);

class RenderWorker;

// Runs renderPlane() on one worker thread that keeps its own connection (a ConnectionThread). A new
// request supersedes every older one: a stale request still queued is skipped, one being read is
// cancelled between rows, and nothing older than the newest request is ever delivered.
class PlaneRenderer : public QObject
{
    Q_OBJECT

public:
    explicit PlaneRenderer(QObject *parent = nullptr);
    ~PlaneRenderer() override;

    void render(RenderRequest request);
    // Drops whatever is queued or running (e.g. before switching histories).
    void cancel();

signals:
    // Delivered on the thread that owns the PlaneRenderer.
    void rendered(const std::shared_ptr<const memhist::plane::RenderResult> &result);

private:
    std::unique_ptr<ConnectionThread<RenderWorker>> m_thread;
};

} // namespace memhist::plane
