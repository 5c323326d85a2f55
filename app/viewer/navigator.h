// SPDX-License-Identifier: MIT
// Navigation in the viewer's Go menu, as users of time-travel debuggers (TTD, Tenet) expect it:
// the previous or next write or read of the selected access's bytes, go to a transition, go to an
// address or symbol (with completion), every execution of the selected access's instruction, and
// bookmarks. The main window creates one Navigator, adds its actions to the Go menu and the toolbar
// and its two panels (executions, bookmarks) to docks; everything else happens here.
//
// Shortcuts (window-wide; Alt+Left/Alt+Right stay Back/Forward, Home and +/- the plane's). The
// defaults are keys that no common desktop (Openbox, GNOME, KDE, Xfce) takes and no text field uses:
// Alt+Shift+arrows and Ctrl+Alt+arrows, the first choice, move windows between desktops there and
// never reached the application. Help > Keyboard Shortcuts changes any of them.
//   F7 / F8                             previous / next write of the selected access's bytes
//   Shift+F7 / Shift+F8                 previous / next read of them
//   Ctrl+G                              go to transition
//   Ctrl+Shift+G                        go to address or symbol
//   Ctrl+Shift+E                        executions of the selected access's instruction
//   Ctrl+D                              bookmark the selected access (else the centre of the view)
//
// A step runs one half-axis query off the GUI thread: a window equal to the access's bytes
// [address, address + size), the one operation, from the access's row exclusive of itself (by rowid:
// a read and a write at the same transition are one step apart), limit 1. The access found becomes
// the selection: the results show the accesses to those bytes from it in the step's direction
// (Previous: it, then the earlier ones, as one who looks for who wrote a value goes on looking back;
// Next: it, then the later ones), with it as the current row (which marks it on the plane and brings
// it into view). The query panel shows that query (its transition, "starting at row N"), so that Run
// and Export give the same rows.
#pragma once

#include "core/context/contextreader.h"
#include "core/model/types.h"
#include "core/model/viewrange.h"
#include "widgets/common/jobtracker.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <optional>

class QAction;
class QCompleter;
class QMenu;
class QStringListModel;
class QToolBar;
class QWidget;

namespace memhist {
class PlaneWidget;
class QueryPanel;
} // namespace memhist

namespace memhist::viewer {

class BookmarksPanel;
class ExecutionsPanel;
struct Bookmark;

// `current` moved so that transition `t` is at its centre, at the same width (x zoom) and the same
// addresses; the first transition saturates at 0.
ViewRange centredOnTransition(const ViewRange &current, Transition t);
// `current` moved so that address `a` is at its centre, at the same transitions. Its address span
// stays, except that it shrinks to the occupied region holding `a` (from `regions`, at least 256
// bytes wide) when it is wider: a view spanning folded gaps would not put `a` at its centre.
ViewRange centredOnAddress(const ViewRange &current, Address a, const QList<ViewRange> &regions);

// The view round the accesses of a function, [first, last] transitions and addresses (inclusive):
// a tenth of each span more on either side (at least 8 transitions, 16 bytes).
ViewRange framedOnAccesses(Transition firstTransition, Transition lastTransition, Address first, Address last);

// The status line after a step that found nothing: "No earlier write to these bytes", "No later
// read of these bytes".
QString noneFoundText(Operation operation, Direction direction);

class Navigator : public QObject
{
    Q_OBJECT

public:
    enum class Action {
        PreviousWrite,
        NextWrite,
        PreviousRead,
        NextRead,
        GoToTransition,
        GoToAddress,
        Executions,
        AddBookmark,
    };

    Navigator(PlaneWidget *plane, QueryPanel *queryPanel, QWidget *window);
    ~Navigator() override;

    // A newly opened history: forgets the selection, reads its symbols in the background, shows its
    // bookmarks.
    void setHistory(const QString &path);
    QString history() const { return m_path; }
    // The transitions of the open history (from its summary), which Go to Transition suggests and
    // keeps to; unset for a history without accesses.
    void setTransitionRange(std::optional<std::pair<Transition, Transition>> firstAndLast);

    // Interactive navigators ask for bookmark notes and show dialogs; tests turn this off.
    void setInteractive(bool interactive);

    QAction *action(Action which) const;
    // The step, go-to, executions and bookmark actions, in the Go menu's order (nullptr: a separator).
    QList<QAction *> menuActions() const;
    // The step actions, for the toolbar.
    QList<QAction *> toolBarActions() const;

    ExecutionsPanel *executionsPanel() const { return m_executions; }
    BookmarksPanel *bookmarksPanel() const { return m_bookmarks; }

    // The results row that is current, as QueryPanel::accessSelected said.
    std::optional<Access> selectedAccess() const { return m_selected; }

    // The previous or next access of `operation` to the selected access's bytes (see above).
    void step(Operation operation, Direction direction);
    // Shows `access` as the selection: the results from it over its bytes in `direction`, it current.
    void selectAccess(const Access &access, Direction direction = Direction::Forward);

    // The plane centred on `t` at the current zoom; the status line names the position.
    void goToTransition(Transition t);
    void goToAddress(Address a);
    // A number in the viewer's formats (parseTypedNumber), within the history's transitions: false +
    // *error otherwise ("999,999,999 is after the last transition (149,092).": the plane would
    // clamp it silently).
    bool goToTransitionText(const QString &text, QString *error);
    // A number in the viewer's formats, else the name of a function or data object of the history:
    // false + *error otherwise. The target is framed (PlaneWidget::frameBytes()) and outlined on the
    // plane for a moment (PlaneWidget::markTarget()): a data object's bytes (also when an address typed lies in one),
    // else the byte. A function's own bytes are code, where the plane shows nothing: its accesses are
    // looked for off the GUI thread (the first functionAccessLimit of them, by its instructions) and
    // the plane framed on the data they touched, or the status line says it made none
    // (functionFramed()).
    bool goToAddressText(const QString &text, QString *error);
    static constexpr int functionAccessLimit = 100000;
    // What goToAddressText() goes to: the address of a number, or of a function or data object
    // (name or name+offset), with *description "function" or "data object" (empty for a number);
    // false + *error otherwise. The one symbol lookup of the viewer (the Memory pane's field too).
    bool addressOfText(const QString &text, Address *address, QString *description, QString *error) const;

    // The functions and data objects of the open history, once read (symbolsLoaded()).
    const QList<NamedRange> &symbols() const { return m_symbols; }
    bool symbolsRead() const { return m_symbolsRead; }
    QCompleter *symbolCompleter() const { return m_completer; }

    // Lists every execution of the selected access's instruction in the executions panel.
    void showExecutions();
    // Bookmarks the selected access, else the centre of the view (with a note asked for when
    // interactive, else none).
    void addBookmark();

signals:
    // What the status line should say.
    void statusMessage(const QString &message);
    // A step ended: the access found, or nothing (statusMessage says "No earlier ..."), or an error.
    void stepFinished(std::optional<memhist::Access> found);
    // The position line moved to a transition without an access (goToTransition()).
    void transitionShown(memhist::Transition t);
    void symbolsLoaded();
    // Going to a function found its accesses (or none, or failed: statusMessage says which).
    void functionFramed();

private:
    void createActions();
    void updateActions();
    void raisePanel(QWidget *panel);
    void goToBookmark(const Bookmark &bookmark);
    void askAndGo(Action which);
    // The data object of the history holding `a`, if any (the smallest when they nest).
    std::optional<NamedRange> dataObjectAt(Address a) const;
    void goToBytes(Address first, Address last, const QString &message);
    void goToFunctionAccesses(const QString &name);

    QPointer<PlaneWidget> m_plane;
    QPointer<QueryPanel> m_queryPanel;
    QWidget *m_window = nullptr;
    QString m_path;
    std::optional<std::pair<Transition, Transition>> m_transitions; // first and last
    bool m_interactive = true;
    std::optional<Access> m_selected;
    // The access a step found, to be made current once the results' first page arrives.
    std::optional<Access> m_pendingSelection;

    QList<QAction *> m_actions; // by Action
    JobTracker m_steps { this };
    JobTracker m_symbolLoader { this };
    JobTracker m_functionFinder { this }; // the accesses of the function gone to
    QList<NamedRange> m_symbols;
    bool m_symbolsRead = false;
    QStringListModel *m_symbolNames = nullptr;
    QCompleter *m_completer = nullptr;
    ExecutionsPanel *m_executions = nullptr;
    BookmarksPanel *m_bookmarks = nullptr;
};

} // namespace memhist::viewer
