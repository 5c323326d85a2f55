// SPDX-License-Identifier: MIT
// "When did this instruction run": every execution of the selected access's instruction (its PC,
// ContextReader::pcAt), in time order, as `memhist query --pc` lists them. Pages of transitions are
// read off the GUI thread (ContextReader::executionsOf) as the list scrolls (canFetchMore /
// fetchMore, resumed after the last transition). Picking one emits transitionActivated() (the plane
// goes to its time), then, once its accesses are read off the GUI thread, accessesFound() with the
// bytes they span (the plane goes to them too: framedOnExecution()).
#pragma once

#include "core/model/types.h"
#include "core/model/viewrange.h"
#include "widgets/common/jobtracker.h"

#include <QAbstractListModel>
#include <QList>
#include <QWidget>
#include <optional>

class QLabel;
class QListView;

namespace memhist::viewer {

// `current` moved so that transition `t` is at its centre and the bytes [first, last] an execution
// accessed are in view: centred on them at the current address span, narrowed to the occupied region
// holding them as Go to Address does (centredOnAddress), and widened to them plus an eighth on
// either side (at least 16 bytes) when they do not fit.
ViewRange framedOnExecution(
    const ViewRange &current, Transition t, Address first, Address last, const QList<ViewRange> &regions);

class ExecutionsModel : public QAbstractListModel
{
    Q_OBJECT

public:
    enum Roles {
        TransitionRole = Qt::UserRole + 1, // the row's transition, as a quint64
    };

    explicit ExecutionsModel(QObject *parent = nullptr);

    // Lists the executions of the instruction that ran at `at` in `historyPath`: finds its PC, then
    // loads the first page. pcFound() (or failed()) says what it is.
    void showInstructionAt(const QString &historyPath, Transition at);
    void clear();
    QString historyPath() const { return m_path; }

    void setPageSize(int transitions) { m_pageSize = transitions; }
    std::optional<Address> pc() const { return m_pc; }
    // The transition showInstructionAt() was given: the execution the user came from.
    Transition at() const { return m_at; }
    QString description() const { return m_description; }
    bool isLoading() const { return m_loading; }
    bool isExhausted() const { return m_exhausted; }
    const QList<Transition> &transitions() const { return m_transitions; }

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

signals:
    void pcFound(memhist::Address pc, const QString &description);
    void pageLoaded(int rowsSoFar, bool exhausted);
    void failed(const QString &message);

private:
    struct Page
    {
        std::optional<Address> pc;
        QString description;
        QList<Transition> transitions;
        bool exhausted = false; // the history has no more
        QString error;
    };
    void requestPage();
    void receivePage(const Page &page);

    JobTracker m_jobs { this };
    QString m_path;
    Transition m_at;
    std::optional<Address> m_pc;
    QString m_description;
    QList<Transition> m_transitions;
    int m_pageSize = 500;
    bool m_loading = false;
    bool m_exhausted = true;
};

class ExecutionsPanel : public QWidget
{
    Q_OBJECT

public:
    explicit ExecutionsPanel(QWidget *parent = nullptr);

    ExecutionsModel *model() const { return m_model; }
    void showInstructionAt(const QString &historyPath, Transition at);
    void clear();
    // Emits transitionActivated for `row`.
    void activate(int row);
    // The row selected: the execution the user came from once the first page is in, else the one
    // picked since; -1 for none.
    int currentRow() const;

signals:
    void transitionActivated(memhist::Transition transition);
    // The accesses of the execution picked at `transition` span bytes [first, last] (not emitted when
    // it made none, or another was picked meanwhile).
    void accessesFound(memhist::Transition transition, memhist::Address first, memhist::Address last);

private:
    void updateHeader();
    // Selects and scrolls to the execution the user came from, without activating it (it is where
    // the viewer is already).
    void selectCurrentExecution();

    ExecutionsModel *m_model = nullptr;
    JobTracker m_accessLookup { this }; // of the execution picked last
    QLabel *m_header = nullptr;
    QListView *m_view = nullptr;
    QString m_message;
    bool m_selectPending = false; // until the first page is in
    bool m_selecting = false; // a selection of ours: no transitionActivated
};

} // namespace memhist::viewer
