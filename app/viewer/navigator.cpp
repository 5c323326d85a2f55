// SPDX-License-Identifier: MIT
#include "navigator.h"

#include "bookmarks.h"
#include "bookmarkspanel.h"
#include "core/model/numbertext.h"
#include "core/query/halfaxisquery.h"
#include "core/storage/historydatabase.h"
#include "executionspanel.h"
#include "gotodialog.h"
#include "historyinfo.h"
#include "widgets/plane/planewidget.h"
#include "widgets/query/querypanel.h"
#include "widgets/query/resultsmodel.h"

#include <QAction>
#include <QCompleter>
#include <QDockWidget>
#include <QInputDialog>
#include <QStringListModel>

namespace memhist::viewer {

namespace {

// The narrowest address span centredOnAddress() zooms to.
constexpr std::uint64_t minimumAddressSpan = 255;

struct StepResult
{
    std::optional<Access> found;
    QString error;
};

// The nearest access of `operation` to `from`'s bytes, before or after it in rowid order.
StepResult findNeighbour(const QString &path, const Access &from, Operation operation, Direction direction)
{
    StepResult result;
    const std::unique_ptr<HistoryDatabase> database = HistoryDatabase::open(path, &result.error);
    if (!database)
        return result;
    HalfAxisQueryEngine engine(*database);
    HalfAxisQuery query;
    query.direction = direction;
    query.resumeAfter = from.rowId;
    query.first = from.physical;
    query.last = from.lastByte();
    query.operations = operation;
    query.limit = 1;
    QueryPage page;
    if (engine.run(query, &page, &result.error) && !page.accesses.isEmpty())
        result.found = page.accesses.constFirst();
    return result;
}

// "write to", "read of": what a step looks for, before "these bytes" or an address.
QString operationNoun(Operation operation)
{
    switch (operation) {
    case Operation::Write:
        return Navigator::tr("write to");
    case Operation::Read:
        return Navigator::tr("read of");
    case Operation::Execute:
        return Navigator::tr("execution of");
    }
    return {};
}

std::uint64_t saturatingSub(std::uint64_t value, std::uint64_t minus)
{
    return value > minus ? value - minus : 0;
}

std::uint64_t saturatingAdd(std::uint64_t value, std::uint64_t plus)
{
    return value > ~std::uint64_t(0) - plus ? ~std::uint64_t(0) : value + plus;
}

} // namespace

ViewRange centredOnTransition(const ViewRange &current, Transition t)
{
    ViewRange range = current;
    const std::uint64_t width = current.lastTransition.value - current.firstTransition.value;
    range.firstTransition = Transition { saturatingSub(t.value, width / 2) };
    range.lastTransition = Transition { saturatingAdd(range.firstTransition.value, width) };
    return range;
}

ViewRange centredOnAddress(const ViewRange &current, Address a, const QList<ViewRange> &regions)
{
    ViewRange range = current;
    std::uint64_t span = current.lastAddress.value - current.firstAddress.value;
    for (const ViewRange &region : regions) {
        if (region.firstAddress <= a && a <= region.lastAddress) {
            span = std::min(span, std::max(minimumAddressSpan, region.lastAddress.value - region.firstAddress.value));
            break;
        }
    }
    range.firstAddress = Address { saturatingSub(a.value, span / 2) };
    range.lastAddress = Address { saturatingAdd(range.firstAddress.value, span) };
    return range;
}

ViewRange framedOnAccesses(Transition firstTransition, Transition lastTransition, Address first, Address last)
{
    const std::uint64_t transitionMargin
        = std::max<std::uint64_t>((lastTransition.value - firstTransition.value) / 10, 8);
    const std::uint64_t addressMargin = std::max<std::uint64_t>((last.value - first.value) / 10, 16);
    return ViewRange { Transition { saturatingSub(firstTransition.value, transitionMargin) },
        Transition { saturatingAdd(lastTransition.value, transitionMargin) },
        Address { saturatingSub(first.value, addressMargin) }, Address { saturatingAdd(last.value, addressMargin) } };
}

QString noneFoundText(Operation operation, Direction direction)
{
    if (direction == Direction::Backward)
        return Navigator::tr("No earlier %1 these bytes").arg(operationNoun(operation));
    return Navigator::tr("No later %1 these bytes").arg(operationNoun(operation));
}

Navigator::Navigator(PlaneWidget *plane, QueryPanel *queryPanel, QWidget *window)
    : QObject(window)
    , m_plane(plane)
    , m_queryPanel(queryPanel)
    , m_window(window)
    , m_symbolNames(new QStringListModel(this))
    , m_completer(new QCompleter(m_symbolNames, this))
    , m_executions(new ExecutionsPanel(window))
    , m_bookmarks(new BookmarksPanel(window))
{
    m_completer->setCaseSensitivity(Qt::CaseInsensitive);
    m_completer->setFilterMode(Qt::MatchContains);
    m_completer->setMaxVisibleItems(16);
    m_executions->setObjectName(QStringLiteral("executionsPanel"));
    m_bookmarks->setObjectName(QStringLiteral("bookmarksPanel"));
    createActions();

    connect(m_queryPanel, &QueryPanel::accessSelected, this, [this](const std::optional<Access> &access) {
        m_selected = access;
        updateActions();
    });
    // A step's access becomes the current row as soon as the results' first page holds it.
    connect(m_queryPanel->resultsModel(), &ResultsModel::pageLoaded, this, [this] {
        if (m_pendingSelection && m_queryPanel->selectAccessRow(m_pendingSelection->rowId))
            m_pendingSelection.reset();
    });
    connect(m_executions, &ExecutionsPanel::transitionActivated, this, &Navigator::goToTransition);
    connect(m_bookmarks, &BookmarksPanel::bookmarkActivated, this, &Navigator::goToBookmark);
    connect(m_bookmarks, &BookmarksPanel::statusMessage, this, &Navigator::statusMessage);
    updateActions();
}

Navigator::~Navigator() = default;

void Navigator::createActions()
{
    struct Spec
    {
        QString text;
        QString iconText;
        QKeySequence key;
        QString tip;
    };
    const Spec specs[] = {
        { tr("Previous &Write"), tr("◂ Write"), QKeySequence(Qt::Key_F7),
            tr("The last write to the selected access's bytes before it") },
        { tr("&Next Write"), tr("Write ▸"), QKeySequence(Qt::Key_F8),
            tr("The first write to the selected access's bytes after it") },
        { tr("Previous &Read"), tr("◂ Read"), QKeySequence(Qt::SHIFT | Qt::Key_F7),
            tr("The last read of the selected access's bytes before it") },
        { tr("Next R&ead"), tr("Read ▸"), QKeySequence(Qt::SHIFT | Qt::Key_F8),
            tr("The first read of the selected access's bytes after it") },
        { tr("Go to &Transition…"), tr("Transition"), QKeySequence(Qt::CTRL | Qt::Key_G),
            tr("Centre the plane on a transition") },
        { tr("Go to &Address or Symbol…"), tr("Address"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_G),
            tr("Centre the plane on an address, a function or a data object") },
        { tr("E&xecutions of This Instruction"), tr("Executions"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E),
            tr("Every transition at which the selected access's instruction ran") },
        { tr("Add &Bookmark…"), tr("Bookmark"), QKeySequence(Qt::CTRL | Qt::Key_D),
            tr("Bookmark the selected access (else the centre of the plane) with a note") },
    };
    for (const Spec &spec : specs) {
        auto *action = new QAction(spec.text, this);
        action->setIconText(spec.iconText);
        action->setShortcut(spec.key);
        action->setShortcutContext(Qt::WindowShortcut);
        action->setToolTip(QStringLiteral("%1 (%2)").arg(spec.tip, spec.key.toString(QKeySequence::NativeText)));
        action->setStatusTip(spec.tip);
        m_window->addAction(action);
        m_actions << action;
    }
    const auto connectStep = [this](Action which, Operation operation, Direction direction) {
        connect(action(which), &QAction::triggered, this, [this, operation, direction] { step(operation, direction); });
    };
    connectStep(Action::PreviousWrite, Operation::Write, Direction::Backward);
    connectStep(Action::NextWrite, Operation::Write, Direction::Forward);
    connectStep(Action::PreviousRead, Operation::Read, Direction::Backward);
    connectStep(Action::NextRead, Operation::Read, Direction::Forward);
    connect(action(Action::GoToTransition), &QAction::triggered, this, [this] { askAndGo(Action::GoToTransition); });
    connect(action(Action::GoToAddress), &QAction::triggered, this, [this] { askAndGo(Action::GoToAddress); });
    connect(action(Action::Executions), &QAction::triggered, this, &Navigator::showExecutions);
    connect(action(Action::AddBookmark), &QAction::triggered, this, &Navigator::addBookmark);
}

void Navigator::setInteractive(bool interactive)
{
    m_interactive = interactive;
    m_bookmarks->setInteractive(interactive);
}

QAction *Navigator::action(Action which) const
{
    return m_actions.at(int(which));
}

QList<QAction *> Navigator::menuActions() const
{
    return { action(Action::PreviousWrite), action(Action::NextWrite), action(Action::PreviousRead),
        action(Action::NextRead), nullptr, action(Action::GoToTransition), action(Action::GoToAddress), nullptr,
        action(Action::Executions), action(Action::AddBookmark) };
}

QList<QAction *> Navigator::toolBarActions() const
{
    return { action(Action::PreviousWrite), action(Action::NextWrite), action(Action::PreviousRead),
        action(Action::NextRead) };
}

void Navigator::setHistory(const QString &path)
{
    m_path = path;
    m_selected.reset();
    m_pendingSelection.reset();
    m_steps.cancel();
    m_symbols.clear();
    m_symbolsRead = false;
    m_symbolNames->setStringList({});
    m_executions->clear();
    m_bookmarks->setHistory(path);
    updateActions();
    if (path.isEmpty())
        return;
    m_symbolLoader.start(
        [path](const JobTicket &ticket) {
            QString error;
            const std::unique_ptr<HistoryDatabase> database = HistoryDatabase::open(path, &error);
            if (!database)
                return QList<NamedRange>();
            ContextReader reader(*database);
            reader.setCancelCheck([ticket] { return ticket.cancelled(); });
            return reader.namedRanges();
        },
        [this](const QList<NamedRange> &symbols) {
            m_symbols = symbols;
            m_symbolsRead = true;
            QStringList names;
            for (const NamedRange &symbol : symbols)
                names << symbol.name;
            names.removeDuplicates();
            names.sort(Qt::CaseInsensitive);
            m_symbolNames->setStringList(names);
            emit symbolsLoaded();
        });
}

void Navigator::updateActions()
{
    const bool open = !m_path.isEmpty();
    for (const Action which :
        { Action::PreviousWrite, Action::NextWrite, Action::PreviousRead, Action::NextRead, Action::Executions })
        action(which)->setEnabled(open && m_selected.has_value());
    for (const Action which : { Action::GoToTransition, Action::GoToAddress, Action::AddBookmark })
        action(which)->setEnabled(open);
}

void Navigator::raisePanel(QWidget *panel)
{
    for (QWidget *widget = panel; widget; widget = widget->parentWidget()) {
        if (auto *dock = qobject_cast<QDockWidget *>(widget)) {
            dock->show();
            dock->raise();
            return;
        }
    }
}

// --- Steps ---------------------------------------------------------------------------------------

void Navigator::step(Operation operation, Direction direction)
{
    if (m_path.isEmpty() || !m_selected) {
        emit statusMessage(tr("Select an access in the results first"));
        return;
    }
    const QString path = m_path;
    const Access from = *m_selected;
    m_steps.start([path, from, operation, direction](
                      const JobTicket &) { return findNeighbour(path, from, operation, direction); },
        [this, operation, direction](const StepResult &result) {
            if (!result.error.isEmpty()) {
                emit statusMessage(tr("The step failed: %1").arg(result.error));
            } else if (!result.found) {
                emit statusMessage(noneFoundText(operation, direction));
            } else {
                const Access &found = *result.found;
                emit statusMessage(
                    tr("%1 %2 %3 (%4) at transition %5, row %6")
                        .arg(direction == Direction::Backward ? tr("Previous") : tr("Next"), operationNoun(operation),
                            hexText(found.physical.value), bytesText(found.size), countText(found.transition.value),
                            countText(quint64(found.rowId.value))));
                selectAccess(found, direction);
            }
            emit stepFinished(result.found);
        });
}

void Navigator::selectAccess(const Access &access, Direction direction)
{
    HalfAxisQuery query = queryFromAccess(access, direction);
    // Only shown: the query panel's Transition field says where the results start (the engine goes by
    // the resume point, which the panel shows beside it).
    query.at = access.transition;
    query.operations = Operations(Operation::Read) | Operation::Write | access.operation;
    m_pendingSelection = access;
    m_queryPanel->runQuery(query);
    raisePanel(m_queryPanel);
}

// --- Go to ---------------------------------------------------------------------------------------

void Navigator::goToTransition(Transition t)
{
    m_plane->setVisibleRange(centredOnTransition(m_plane->visibleRange(), t));
    m_plane->setCurrentTransition(t);
    emit transitionShown(t);
    emit statusMessage(tr("Transition %1").arg(countText(t.value)));
}

void Navigator::goToAddress(Address a)
{
    // A byte alone: centred at the current zoom (framing it would zoom to the limit), outlined.
    m_functionFinder.cancel();
    m_plane->setVisibleRange(centredOnAddress(m_plane->visibleRange(), a, m_plane->occupiedRegions()));
    const ViewRange shown = m_plane->visibleRange();
    m_plane->markTarget(ViewRange { shown.firstTransition, shown.lastTransition, a, a });
    emit statusMessage(tr("Address %1").arg(hexText(a.value)));
}

void Navigator::setTransitionRange(std::optional<std::pair<Transition, Transition>> firstAndLast)
{
    m_transitions = firstAndLast;
}

bool Navigator::goToTransitionText(const QString &text, QString *error)
{
    std::uint64_t value = 0;
    if (!parseTypedNumber(text, &value)) {
        *error = tr("“%1” is not a transition: type a number (150218, 150,218 or 0x24aca).").arg(text);
        return false;
    }
    if (m_transitions) {
        if (const QString outside = transitionOutOfRange(value, m_transitions->first, m_transitions->second);
            !outside.isEmpty()) {
            *error = outside;
            return false;
        }
    }
    goToTransition(Transition { value });
    return true;
}

bool Navigator::addressOfText(const QString &text, Address *address, QString *description, QString *error) const
{
    std::uint64_t value = 0;
    if (parseTypedNumber(text, &value)) {
        *address = Address { value };
        if (description)
            description->clear();
        return true;
    }
    // "name" or "name+offset".
    QString name = text;
    std::uint64_t offset = 0;
    const qsizetype plus = text.lastIndexOf(u'+');
    if (plus > 0 && parseTypedNumber(QStringView(text).mid(plus + 1), &offset))
        name = text.left(plus);
    for (const NamedRange &symbol : std::as_const(m_symbols)) {
        if (symbol.name == name) {
            *address = Address { saturatingAdd(symbol.range.first.value, offset) };
            if (description)
                *description = symbol.kind == NamedRange::Kind::Function ? tr("function") : tr("data object");
            return true;
        }
    }
    if (!m_symbolsRead) {
        *error = tr("“%1” is not an address, and the history's symbols are still being read: try again in a "
                    "moment.")
                     .arg(text);
        return false;
    }
    *error = m_symbols.isEmpty()
        ? tr("“%1” is not an address, and this history names no functions or data objects: type an address "
             "(0x4a1b140).")
              .arg(text)
        : tr("“%1” is neither an address nor a function or data object of this history.").arg(text);
    return false;
}

bool Navigator::goToAddressText(const QString &text, QString *error)
{
    Address address;
    QString description;
    if (!addressOfText(text, &address, &description, error))
        return false;
    if (description.isEmpty()) {
        // An address inside a data object frames the object; elsewhere the byte.
        if (const std::optional<NamedRange> object = dataObjectAt(address)) {
            goToBytes(object->range.first, object->range.last,
                tr("Address %1, in %2 (%3 at %4)")
                    .arg(hexText(address.value), object->name,
                        bytesText(object->range.last.value - object->range.first.value + 1),
                        hexText(object->range.first.value)));
        } else {
            goToAddress(address);
        }
        return true;
    }
    const NamedRange *symbol = nullptr;
    for (const NamedRange &named : std::as_const(m_symbols)) {
        if (named.name == text) {
            symbol = &named;
            break;
        }
    }
    if (!symbol) {
        // name+offset: that byte.
        goToAddress(address);
        emit statusMessage(tr("%1 (%2) at %3").arg(text, description, hexText(address.value)));
        return true;
    }
    if (symbol->kind == NamedRange::Kind::Function) {
        // The function's bytes are code: the plane shows its accesses instead, once found.
        goToFunctionAccesses(symbol->name);
        emit statusMessage(tr("%1 (function at %2): finding its memory accesses…").arg(text, hexText(address.value)));
        return true;
    }
    goToBytes(symbol->range.first, symbol->range.last,
        tr("%1 (%2, %3) at %4")
            .arg(text, description, bytesText(symbol->range.last.value - symbol->range.first.value + 1),
                hexText(address.value)));
    return true;
}

std::optional<NamedRange> Navigator::dataObjectAt(Address a) const
{
    std::optional<NamedRange> found;
    for (const NamedRange &symbol : std::as_const(m_symbols)) {
        if (symbol.kind == NamedRange::Kind::DataObject && symbol.range.contains(a)
            && (!found
                || symbol.range.last.value - symbol.range.first.value
                    < found->range.last.value - found->range.first.value))
            found = symbol;
    }
    return found;
}

void Navigator::goToBytes(Address first, Address last, const QString &message)
{
    m_functionFinder.cancel();
    m_plane->frameBytes(first, last);
    const ViewRange shown = m_plane->visibleRange();
    m_plane->markTarget(ViewRange { shown.firstTransition, shown.lastTransition, first, last });
    emit statusMessage(message);
}

namespace {

// Where the accesses of a function's instructions are: the first Navigator::functionAccessLimit.
struct FunctionAccesses
{
    qint64 count = 0;
    bool complete = true; // every access of the function was seen
    Transition firstTransition { ~std::uint64_t(0) };
    Transition lastTransition { 0 };
    Address first { ~std::uint64_t(0) };
    Address last { 0 };
    QString error;
};

FunctionAccesses findFunctionAccesses(const QString &path, const QString &name, const JobTicket &ticket)
{
    FunctionAccesses result;
    const std::unique_ptr<HistoryDatabase> database = HistoryDatabase::open(path, &result.error);
    if (!database || ticket.cancelled())
        return result;
    HalfAxisQueryEngine engine(*database);
    HalfAxisQuery query;
    query.function.name = name;
    query.operations = Operations(Operation::Read) | Operation::Write;
    query.limit = Navigator::functionAccessLimit;
    QueryPage page;
    if (!engine.run(query, &page, &result.error))
        return result;
    result.complete = page.exhausted;
    for (const Access &access : std::as_const(page.accesses)) {
        ++result.count;
        result.firstTransition = std::min(result.firstTransition, access.transition);
        result.lastTransition = std::max(result.lastTransition, access.transition);
        result.first = std::min(result.first, access.physical);
        result.last = std::max(result.last, access.lastByte());
    }
    return result;
}

} // namespace

void Navigator::goToFunctionAccesses(const QString &name)
{
    const QString path = m_path;
    m_functionFinder.start([path, name](const JobTicket &ticket) { return findFunctionAccesses(path, name, ticket); },
        [this, name](const FunctionAccesses &found) {
            if (!found.error.isEmpty()) {
                emit statusMessage(tr("Cannot find the memory accesses of %1: %2").arg(name, found.error));
            } else if (found.count == 0) {
                emit statusMessage(tr("Function %1 made no memory accesses").arg(name));
            } else {
                const ViewRange frame
                    = framedOnAccesses(found.firstTransition, found.lastTransition, found.first, found.last);
                m_plane->setVisibleRange(frame);
                m_plane->markTarget(ViewRange { found.firstTransition, found.lastTransition, found.first, found.last });
                const QString where
                    = tr("at %1..%2, transitions %3..%4")
                          .arg(hexText(found.first.value), hexText(found.last.value),
                              countText(found.firstTransition.value), countText(found.lastTransition.value));
                emit statusMessage(found.complete ? tr("Function %1 made %2 memory accesses, %3")
                                                        .arg(name, countText(quint64(found.count)), where)
                                                  : tr("Function %1: its first %2 memory accesses, %3")
                                                        .arg(name, countText(quint64(found.count)), where));
            }
            emit functionFramed();
        });
}

void Navigator::askAndGo(Action which)
{
    if (m_path.isEmpty() || !m_interactive)
        return;
    const bool transition = which == Action::GoToTransition;
    GoToDialog dialog(
        transition ? tr("Go to Transition") : tr("Go to Address or Symbol"),
        transition ? tr("Transition (decimal, 0x hex, or as the viewer shows it):")
                   : tr("Address, function or data object (name or name+offset):"),
        transition ? (m_transitions ? transitionPlaceholder(m_transitions->first, m_transitions->second) : QString())
                   : QStringLiteral("0x4a1b140 · main · counter"),
        [this, transition](const QString &text, QString *error) {
            return transition ? goToTransitionText(text, error) : goToAddressText(text, error);
        },
        m_window);
    if (!transition)
        dialog.setCompleter(m_completer);
    dialog.exec();
}

// --- Executions and bookmarks --------------------------------------------------------------------

void Navigator::showExecutions()
{
    if (m_path.isEmpty() || !m_selected) {
        emit statusMessage(tr("Select an access in the results first"));
        return;
    }
    m_executions->showInstructionAt(m_path, m_selected->transition);
    raisePanel(m_executions);
}

void Navigator::addBookmark()
{
    if (m_path.isEmpty())
        return;
    Bookmark bookmark;
    if (m_selected) {
        bookmark = bookmarkOf(*m_selected, {});
    } else {
        // A point: the centre of the view.
        const ViewRange range = m_plane->visibleRange();
        bookmark.transition = Transition { range.firstTransition.value
            + (range.lastTransition.value - range.firstTransition.value) / 2 };
        bookmark.address
            = Address { range.firstAddress.value + (range.lastAddress.value - range.firstAddress.value) / 2 };
    }
    if (m_interactive) {
        bool ok = false;
        bookmark.note = QInputDialog::getText(m_window, tr("Add Bookmark"),
            tr("Note for transition %1, address %2:")
                .arg(countText(bookmark.transition.value), hexText(bookmark.address.value)),
            QLineEdit::Normal, {}, &ok);
        if (!ok)
            return;
    }
    m_bookmarks->add(bookmark);
    raisePanel(m_bookmarks);
    emit statusMessage(tr("Bookmarked transition %1, address %2")
                           .arg(countText(bookmark.transition.value), hexText(bookmark.address.value)));
}

void Navigator::goToBookmark(const Bookmark &bookmark)
{
    if (bookmark.rowId && bookmark.operation) {
        selectAccess(Access {
            *bookmark.rowId, bookmark.transition, *bookmark.operation, bookmark.address, std::nullopt, bookmark.size });
        return;
    }
    m_plane->setVisibleRange(centredOnAddress(centredOnTransition(m_plane->visibleRange(), bookmark.transition),
        bookmark.address, m_plane->occupiedRegions()));
    emit statusMessage(
        tr("Transition %1, address %2").arg(countText(bookmark.transition.value), hexText(bookmark.address.value)));
}

} // namespace memhist::viewer
