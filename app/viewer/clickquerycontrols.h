// SPDX-License-Identifier: MIT
// The main toolbar's click-to-query section: which operations a click on the plane asks for and the
// address window around a clicked point where no access is under the cursor, remembered in the
// settings. The window places it in its toolbar and asks it for the settings of each click.
#pragma once

#include "clickquery.h"

#include <QObject>

class QAction;
class QActionGroup;
class QSpinBox;
class QToolBar;
class QWidget;

namespace memhist::viewer {

class ClickQueryControls : public QObject
{
    Q_OBJECT
public:
    // The spin box and the actions are children of `window` until a toolbar takes them.
    explicit ClickQueryControls(QWidget *window);

    ClickQuerySettings settings() const;
    void setSettings(const ClickQuerySettings &settings);
    // The settings the user left last time (or the defaults: reads and writes, 64 bytes).
    void restoreSettings();

    // "Click:" Reads | Writes | Reads + Writes, Executes (a toggle that adds them) "within"
    // ± N B, at the end of `bar`.
    void addTo(QToolBar *bar);

private:
    QActionGroup *m_operationsGroup = nullptr;
    QAction *m_readsAction = nullptr;
    QAction *m_writesAction = nullptr;
    QAction *m_bothAction = nullptr;
    QAction *m_executesAction = nullptr;
    QSpinBox *m_windowSpin = nullptr;
};

} // namespace memhist::viewer
