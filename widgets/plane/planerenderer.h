// Draws one view of the plane into a QImage on a worker thread, reading only what that view needs
// from the worker's own read-only connection.
//
// Level of detail: the visible chunks are always read (through idx_chunks_1, one scan per slice and
// operation, stopping past the window). From their count the renderer estimates how many accesses
// the view holds; below a limit it also reads those accesses (through idx_accesses_1, per chunk and
// transition range) and draws each as a size bar, otherwise it draws the chunks, coalesced per
// pixel row within each slice band so that a view costs about one fillRect per pixel run.
#pragma once

#include "model/types.h"
#include "plane/planecoordinates.h"
#include "plane/planeoverview.h"

#include <QColor>
#include <QImage>
#include <QObject>
#include <QThread>
#include <atomic>
#include <functional>
#include <memory>
#include <vector>

namespace memhist::sqlite {
class Connection;
}

namespace memhist::plane {

// The colours of the data, chosen by the widget from its palette.
struct PlaneColors
{
    QColor background;
    QColor alternateBackground; // every other slice band
    QColor sliceEdge;
    QColor read;
    QColor write;
    QColor execute;
};

struct RenderRequest
{
    quint64 generation = 0;
    std::shared_ptr<const HistoryOverview> overview;
    PlaneViewport view;
    QSize pixels; // device pixels of the image
    PlaneColors colors;
    // Individual accesses are drawn when the view is estimated to hold at most this many.
    qint64 accessDetailLimit = 150000;
};

struct RenderResult
{
    quint64 generation = 0;
    PlaneViewport view; // what `image` shows
    QImage image;
    bool accessDetail = false; // individual accesses drawn (and listed in `accesses`)
    // The accesses drawn, in rowid order (= transition order), for hit tests on the GUI thread.
    std::vector<Access> accesses;
    qint64 chunksRead = 0;
    qint64 accessesRead = 0;
    qint64 estimatedAccesses = 0;
    qint64 estimatedChunks = 0;
    qint64 milliseconds = 0; // time spent rendering on the worker
};

// Renders `request` synchronously with `db`. Returns null when `cancelled()` turns true (checked
// every few hundred rows) or when the request has no history.
std::shared_ptr<RenderResult> renderPlane(
    const RenderRequest &request, sqlite::Connection &db, const std::function<bool()> &cancelled);

// The pixel rectangle of an access's size bar in `mapping` (the same rounding the renderer uses, so
// hit tests agree with what is drawn).
QRect accessBarRect(const Access &access, const PixelMapping &mapping, const AddressFold &fold);

// Runs renderPlane() on one worker thread that keeps its own connection. A new request supersedes
// every older one: a stale request still queued is skipped, one being read is cancelled between
// rows, and nothing older than the newest request is ever delivered.
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
    QThread m_thread;
    QObject *m_worker = nullptr; // lives in m_thread
    std::shared_ptr<std::atomic<quint64>> m_latest;
};

} // namespace memhist::plane
