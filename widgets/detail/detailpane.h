// SPDX-License-Identifier: MIT
// The detail pane: what the selected access is, in full. Its operation, bytes, transition, thread
// and value; the instruction that made it among the instructions the history knows around it, with
// its function and module; its source line among the file's lines when the file is on this
// machine; what the address is (an object, a region). Read in a background thread (DetailWorker,
// its own connection), never on the GUI thread; a newer selection drops the older read. Its Origin
// tab (OriginView) shows where the bytes of the selected access came from, or went, on request.
#pragma once

#include "core/model/types.h"
#include "widgets/detail/accessdetail.h"

#include <QWidget>
#include <memory>
#include <optional>

class QAction;
class QTabWidget;
class QTextBrowser;

namespace memhist {

template<typename Worker> class ConnectionThread;
class DetailWorker;
class OriginView;

class DetailPane : public QWidget
{
    Q_OBJECT

public:
    explicit DetailPane(QWidget *parent = nullptr);
    ~DetailPane() override;

    // Forgets the access shown; the next showAccess reads `path`.
    void setHistory(const QString &path);
    QString history() const { return m_historyPath; }

    // Reads `access` in the background and shows it (detailShown); none: says nothing is selected.
    void showAccess(std::optional<memhist::Access> access);

    // What the pane shows (detailShown has been emitted for it).
    const std::optional<AccessDetail> &detail() const { return m_detail; }
    // The pane's text, as a person reads it (for tests and copying).
    QString text() const;

    // Where did this come from? / Where did it go?: the origin tree of the selected access in the
    // Origin tab, found in the background. Enabled while an access is selected; in the pane's
    // context menu, for the main window's menus and the results' context menu too.
    QAction *comeFromAction() const { return m_comeFromAction; }
    QAction *wentToAction() const { return m_wentToAction; }
    // Raises the Origin tab and finds the tree of the selected access, if one is.
    void showOrigin(memhist::Direction direction);
    OriginView *originView() const { return m_origin; }
    // The Access tab or the Origin tab is the one shown.
    bool showsOrigin() const;

    // The HTML of the pane for `detail`.
    static QString html(const AccessDetail &detail);

signals:
    void detailShown();
    // A hop of the origin tree that is a stored access was clicked.
    void hopActivated(const memhist::Access &access);

private:
    void showMessage(const QString &message);

    std::unique_ptr<ConnectionThread<DetailWorker>> m_thread;
    QString m_historyPath;
    std::optional<AccessDetail> m_detail;
    std::optional<Access> m_selected;
    QTabWidget *m_tabs = nullptr;
    QTextBrowser *m_browser = nullptr;
    OriginView *m_origin = nullptr;
    QAction *m_comeFromAction = nullptr;
    QAction *m_wentToAction = nullptr;
};

} // namespace memhist
