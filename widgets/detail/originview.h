// SPDX-License-Identifier: MIT
// The Origin tab of the detail pane: where the bytes of an access came from (or went), as the tree
// of hops core/origin finds (the hops of `memhist origin`), one row per hop with its kind, function,
// source line, place, value and confidence. Found in a background thread (OriginWorker, its own
// connection), never on the GUI thread; a newer request drops the older one, and a request that
// takes long shows a busy bar with Cancel. A click on a hop that is an access asks for it to be
// selected (hopActivated).
#pragma once

#include "core/model/types.h"
#include "widgets/detail/originworker.h"

#include <QWidget>
#include <memory>
#include <optional>

class QLabel;
class QProgressBar;
class QPushButton;
class QTimer;
class QTreeWidget;
class QTreeWidgetItem;

namespace memhist {

template<typename Worker> class ConnectionThread;

class OriginView : public QWidget
{
    Q_OBJECT

public:
    enum Columns {
        KindColumn,
        FunctionColumn,
        SourceColumn,
        PlaceColumn,
        ValueColumn,
        ConfidenceColumn,
        TransitionColumn,
        RowColumn,
        NoteColumn,
        ColumnCount
    };

    explicit OriginView(QWidget *parent = nullptr);
    ~OriginView() override;

    // Forgets the tree shown; the next showOrigin reads `path`.
    void setHistory(const QString &path);
    // Finds the origin tree of `root` (backward: where its bytes came from; forward: where they
    // went) in the background and shows it (originShown).
    void showOrigin(const Access &root, Direction direction);
    // Drops the request in progress; the tree shown before it stays.
    void cancel();
    bool isBusy() const;

    // What the view shows (originShown has been emitted for it).
    const std::optional<OriginResult> &result() const { return m_result; }
    QTreeWidget *tree() const { return m_tree; }
    // The line above the tree: what was asked, and what the history lacks.
    QString summary() const;

signals:
    void originShown();
    // A hop that is a stored access was clicked.
    void hopActivated(const memhist::Access &access);

private:
    void show(const OriginResult &result);
    void setBusy(bool busy);
    void activate(QTreeWidgetItem *item);

    std::unique_ptr<ConnectionThread<OriginWorker>> m_thread;
    QString m_historyPath;
    std::optional<OriginResult> m_result;
    QLabel *m_summary = nullptr;
    QWidget *m_busyRow = nullptr;
    QProgressBar *m_busyBar = nullptr;
    QPushButton *m_cancel = nullptr;
    QTimer *m_busyDelay = nullptr;
    QTreeWidget *m_tree = nullptr;
    bool m_busy = false;
};

// The words of a hop's kind and confidence as the tab shows them ("last write", "exact").
QString hopKindText(HopKind kind);
QString confidenceText(Confidence confidence);

} // namespace memhist
