// SPDX-License-Identifier: MIT
// `memhist-viewer --screenshot FILE`: sets up a scene on the real window (a history, optionally a
// zoom, a click-to-query and a panel), waits until the plane has rendered it and the panels have
// settled, saves a picture of the window and quits. Used by scripts/screenshots.sh under Xvfb.
#pragma once

#include "core/model/types.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>
#include <optional>

namespace memhist::viewer {

class MainWindow;

struct ScreenshotScene
{
    QString outputPath;
    // A click on the plane at this point, forward or (backward) backward, after the history loaded.
    std::optional<Transition> clickTransition;
    Address clickAddress;
    bool clickBackward = false;
    // Zoom the plane to these transitions and addresses before clicking.
    std::optional<Transition> zoomFirstTransition;
    Transition zoomLastTransition;
    Address zoomFirstAddress;
    Address zoomLastAddress;
    // "results", "charts" or "sql"; "memory": the results, and the Memory pane beside them.
    QString panel = QStringLiteral("results");
    // The results row to select once loaded (1 = the first; 0: none), for the detail pane and the
    // plane's position line.
    int selectRow = 0;
    // A statement to run in the SQL console.
    QString sql;
    // Once the selected row's detail is shown: Where did this come from? (backward) or Where did it
    // go? (forward), in the Detail pane's Origin tab.
    std::optional<Direction> origin;
};

class ScreenshotDirector : public QObject
{
    Q_OBJECT
public:
    ScreenshotDirector(MainWindow *window, ScreenshotScene scene, QObject *parent = nullptr);

    // Starts once the window shows a history (MainWindow::historyOpened).
    void start();

signals:
    // Saved (or failed, with the reason); the caller quits with the matching status.
    void screenshotFinished(bool ok, const QString &message);

private:
    void historyLoaded();
    void stage();
    void somethingChanged();
    void selectRowWhenLoaded();
    void settled();
    void fail(const QString &message);

    MainWindow *m_window;
    ScreenshotScene m_scene;
    QTimer m_settle; // restarted by every render and every page of results
    QTimer m_timeout;
    bool m_windowOpened = false;
    bool m_stagingQueued = false;
    bool m_staged = false;
    bool m_renderedAfterStaging = false;
    bool m_rowSelected = false;
    bool m_originAsked = false;
    bool m_originShown = false;
    bool m_done = false;
};

} // namespace memhist::viewer
