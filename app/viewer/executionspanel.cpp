// SPDX-License-Identifier: MIT
#include "executionspanel.h"

#include "core/context/contextreader.h"
#include "core/model/numbertext.h"
#include "core/query/halfaxisquery.h"
#include "core/storage/historydatabase.h"
#include "navigator.h"

#include <QFontDatabase>
#include <QItemSelectionModel>
#include <QLabel>
#include <QListView>
#include <QVBoxLayout>
#include <algorithm>
#include <utility>

namespace memhist::viewer {

namespace {

// The first page stops growing past this many executions even short of the current one: a list of
// a million transitions is no list to read, and each costs 8 bytes.
constexpr qsizetype maxFirstPage = 1 << 20;

QString describe(const CodeDescription &code)
{
    QStringList parts { hexText(code.pc.value) };
    for (const QString &part : { code.functionText(), code.sourceText(), code.instruction }) {
        if (!part.isEmpty())
            parts << part;
    }
    return parts.join(QStringLiteral(" · "));
}

// One instruction makes a few accesses (a rep movs a few thousand): the page that reads them stops
// here, the extent of those read standing for all.
constexpr quint64 maxAccessesOfOneExecution = 4096;

} // namespace

ViewRange framedOnExecution(
    const ViewRange &current, Transition t, Address first, Address last, const QList<ViewRange> &regions)
{
    const std::uint64_t middle = first.value + (last.value - first.value) / 2;
    ViewRange range = centredOnAddress(centredOnTransition(current, t), Address { middle }, regions);
    if (range.firstAddress <= first && last <= range.lastAddress)
        return range;
    const std::uint64_t margin = std::max<std::uint64_t>((last.value - first.value) / 8, 16);
    range.firstAddress = Address { first.value >= margin ? first.value - margin : 0 };
    range.lastAddress = Address { last.value <= ~std::uint64_t(0) - margin ? last.value + margin : ~std::uint64_t(0) };
    return range;
}

ExecutionsModel::ExecutionsModel(QObject *parent)
    : QAbstractListModel(parent)
{ }

void ExecutionsModel::showInstructionAt(const QString &historyPath, Transition at)
{
    m_jobs.cancel();
    beginResetModel();
    m_path = historyPath;
    m_at = at;
    m_pc.reset();
    m_description.clear();
    m_transitions.clear();
    m_exhausted = false;
    endResetModel();
    requestPage();
}

void ExecutionsModel::clear()
{
    m_jobs.cancel();
    beginResetModel();
    m_path.clear();
    m_pc.reset();
    m_description.clear();
    m_transitions.clear();
    m_exhausted = true;
    m_loading = false;
    endResetModel();
}

void ExecutionsModel::requestPage()
{
    if (m_loading || m_exhausted || m_path.isEmpty())
        return;
    m_loading = true;
    const QString path = m_path;
    const Transition at = m_at;
    const std::optional<Address> knownPc = m_pc;
    // Resumed after the last transition listed (executionsOf's contract).
    const Transition resume
        = m_transitions.isEmpty() ? Transition { 0 } : Transition { m_transitions.constLast().value + 1 };
    const int limit = m_pageSize;
    // The first page reaches the execution the user came from (`at`), so that the list can open on
    // it: pages of doubling size (each executionsOf() call reads every code run once) until one
    // passes it.
    const bool reachAt = m_transitions.isEmpty();
    m_jobs.start(
        [path, at, knownPc, resume, limit, reachAt](const JobTicket &ticket) {
            Page page;
            const std::unique_ptr<HistoryDatabase> database = HistoryDatabase::open(path, &page.error);
            if (!database)
                return page;
            ContextReader reader(*database);
            // A walk of a long code trace stops when the list moves on or the history closes.
            reader.setCancelCheck([ticket] { return ticket.cancelled(); });
            page.pc = knownPc ? knownPc : reader.pcAt(at);
            if (!page.pc) {
                page.error
                    = tr("The history does not know which instruction ran at transition %1.").arg(countText(at.value));
                return page;
            }
            if (!knownPc)
                page.description = describe(reader.describeCode(*page.pc, at));
            QString readError;
            page.transitions = reader.executionsOf({ *page.pc }, resume, Direction::Forward, limit, &readError);
            page.exhausted = page.transitions.size() < limit;
            for (int next = limit; reachAt && !page.exhausted && readError.isEmpty()
                 && page.transitions.constLast().value < at.value && page.transitions.size() < maxFirstPage
                 && !ticket.cancelled();) {
                next *= 2;
                const QList<Transition> more = reader.executionsOf({ *page.pc },
                    Transition { page.transitions.constLast().value + 1 }, Direction::Forward, next, &readError);
                page.exhausted = more.size() < next;
                page.transitions << more;
            }
            // A short list would look complete: say the file is damaged instead.
            if (!readError.isEmpty())
                page.error = path + QStringLiteral(": ") + readError;
            return page;
        },
        [this](const Page &page) { receivePage(page); });
}

void ExecutionsModel::receivePage(const Page &page)
{
    m_loading = false;
    if (!page.error.isEmpty()) {
        m_exhausted = true;
        emit failed(page.error);
        return;
    }
    if (!m_pc) {
        m_pc = page.pc;
        m_description = page.description;
        emit pcFound(*m_pc, m_description);
    }
    m_exhausted = page.exhausted;
    if (!page.transitions.isEmpty()) {
        const int first = int(m_transitions.size());
        beginInsertRows({}, first, first + int(page.transitions.size()) - 1);
        m_transitions << page.transitions;
        endInsertRows();
    }
    emit pageLoaded(int(m_transitions.size()), m_exhausted);
}

int ExecutionsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_transitions.size());
}

QVariant ExecutionsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_transitions.size())
        return {};
    const Transition transition = m_transitions.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return tr("transition %1").arg(countText(transition.value));
    case Qt::FontRole:
        return QFontDatabase::systemFont(QFontDatabase::FixedFont);
    case TransitionRole:
        return QVariant::fromValue<quint64>(transition.value);
    }
    return {};
}

bool ExecutionsModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && !m_exhausted && !m_loading && !m_transitions.isEmpty();
}

void ExecutionsModel::fetchMore(const QModelIndex &parent)
{
    if (canFetchMore(parent))
        requestPage();
}

// --- The panel -----------------------------------------------------------------------------------

ExecutionsPanel::ExecutionsPanel(QWidget *parent)
    : QWidget(parent)
    , m_model(new ExecutionsModel(this))
{
    m_header = new QLabel(this);
    m_header->setObjectName(QStringLiteral("executionsHeader"));
    m_header->setWordWrap(true);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_view = new QListView(this);
    m_view->setObjectName(QStringLiteral("executionsView"));
    m_view->setModel(m_model);
    m_view->setUniformItemSizes(true);
    m_view->setAlternatingRowColors(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_header);
    layout->addWidget(m_view, 1);

    connect(m_view, &QAbstractItemView::activated, this, [this](const QModelIndex &index) { activate(index.row()); });
    connect(
        m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex &current) {
            if (current.isValid() && !m_selecting)
                activate(current.row());
        });
    connect(m_model, &ExecutionsModel::pcFound, this, &ExecutionsPanel::updateHeader);
    connect(m_model, &ExecutionsModel::pageLoaded, this, &ExecutionsPanel::updateHeader);
    connect(m_model, &ExecutionsModel::pageLoaded, this, [this] {
        if (std::exchange(m_selectPending, false))
            selectCurrentExecution();
    });
    connect(m_model, &ExecutionsModel::failed, this, [this](const QString &message) {
        m_message = message;
        updateHeader();
    });
    updateHeader();
}

void ExecutionsPanel::showInstructionAt(const QString &historyPath, Transition at)
{
    m_message.clear();
    m_model->showInstructionAt(historyPath, at);
    m_selectPending = true;
    updateHeader();
}

void ExecutionsPanel::clear()
{
    m_message.clear();
    m_selectPending = false;
    m_model->clear();
    updateHeader();
}

int ExecutionsPanel::currentRow() const
{
    const QModelIndex current = m_view->selectionModel()->currentIndex();
    return current.isValid() && m_view->selectionModel()->isSelected(current) ? current.row() : -1;
}

void ExecutionsPanel::selectCurrentExecution()
{
    const QList<Transition> &transitions = m_model->transitions();
    const auto found = std::lower_bound(transitions.cbegin(), transitions.cend(), m_model->at());
    if (found == transitions.cend() || *found != m_model->at())
        return; // past the first page's cap
    const QModelIndex index = m_model->index(int(found - transitions.cbegin()));
    m_selecting = true;
    m_view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect);
    m_selecting = false;
    // Also while its tab is hidden: the view scrolls there once it is laid out.
    m_view->scrollTo(index, QAbstractItemView::PositionAtCenter);
}

void ExecutionsPanel::activate(int row)
{
    if (row < 0 || row >= m_model->rowCount())
        return;
    const Transition transition = m_model->transitions().at(row);
    emit transitionActivated(transition);
    // Then the bytes its accesses span, from the history (a query from the transition on, stopped
    // at the next transition).
    struct Extent
    {
        bool found = false;
        Address first;
        Address last;
    };
    const QString path = m_model->historyPath();
    m_accessLookup.start(
        [path, transition](const JobTicket &) {
            Extent extent;
            QString error;
            const std::unique_ptr<HistoryDatabase> database = HistoryDatabase::open(path, &error);
            if (!database)
                return extent;
            HalfAxisQuery query;
            query.at = transition;
            QueryPage page;
            HalfAxisQueryEngine engine(*database);
            query.limit = 16;
            // Pages of 16, then more while they stay at the transition.
            for (quint64 read = 0; read < maxAccessesOfOneExecution;) {
                if (!engine.run(query, &page, &error))
                    return extent;
                for (const Access &access : std::as_const(page.accesses)) {
                    if (access.transition != transition)
                        return extent;
                    extent.first = extent.found ? std::min(extent.first, access.physical) : access.physical;
                    extent.last = extent.found ? std::max(extent.last, access.lastByte()) : access.lastByte();
                    extent.found = true;
                }
                read += quint64(page.accesses.size());
                if (!page.resumePoint())
                    return extent;
                query.resumeAfter = page.resumePoint();
            }
            return extent;
        },
        [this, transition](const Extent &extent) {
            if (extent.found)
                emit accessesFound(transition, extent.first, extent.last);
        });
}

void ExecutionsPanel::updateHeader()
{
    if (!m_message.isEmpty()) {
        m_header->setText(m_message);
        return;
    }
    if (!m_model->pc()) {
        m_header->setText(m_model->isLoading()
                ? tr("Finding the instruction…")
                : tr("Select an access, then Go ▸ Executions of This Instruction (Ctrl+Shift+E): every time its "
                     "instruction ran."));
        return;
    }
    const int rows = m_model->rowCount();
    const QString count = m_model->isExhausted()
        ? (rows == 1 ? tr("1 execution") : tr("%1 executions").arg(countText(quint64(rows))))
        : tr("%1 executions so far (scroll for more)").arg(countText(quint64(rows)));
    m_header->setText(tr("%1 — %2").arg(m_model->description(), count));
}

} // namespace memhist::viewer
