#include "executionspanel.h"

#include "core/context/contextreader.h"
#include "core/model/numbertext.h"
#include "core/storage/historydatabase.h"
#include "historyinfo.h"

#include <QFontDatabase>
#include <QLabel>
#include <QListView>
#include <QVBoxLayout>

namespace memhist::viewer {

namespace {

QString describe(const CodeDescription &code)
{
    QStringList parts { hexText(code.pc.value) };
    for (const QString &part : { code.functionText(), code.sourceText(), code.instruction }) {
        if (!part.isEmpty())
            parts << part;
    }
    return parts.join(QStringLiteral(" · "));
}

} // namespace

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
    m_jobs.start(
        [path, at, knownPc, resume, limit](const JobTicket &) {
            Page page;
            const std::unique_ptr<HistoryDatabase> database = HistoryDatabase::open(path, &page.error);
            if (!database)
                return page;
            ContextReader reader(*database);
            page.pc = knownPc ? knownPc : reader.pcAt(at);
            if (!page.pc) {
                page.error = tr("The history does not know which instruction ran at transition %1.")
                                 .arg(formatCount(qint64(at.value)));
                return page;
            }
            if (!knownPc)
                page.description = describe(reader.describeCode(*page.pc, at));
            page.transitions = reader.executionsOf({ *page.pc }, resume, Direction::Forward, limit);
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
    m_exhausted = page.transitions.size() < m_pageSize;
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
        return tr("transition %1").arg(formatCount(qint64(transition.value)));
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
            if (current.isValid())
                activate(current.row());
        });
    connect(m_model, &ExecutionsModel::pcFound, this, &ExecutionsPanel::updateHeader);
    connect(m_model, &ExecutionsModel::pageLoaded, this, &ExecutionsPanel::updateHeader);
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
    updateHeader();
}

void ExecutionsPanel::clear()
{
    m_message.clear();
    m_model->clear();
    updateHeader();
}

void ExecutionsPanel::activate(int row)
{
    if (row >= 0 && row < m_model->rowCount())
        emit transitionActivated(m_model->transitions().at(row));
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
        ? (rows == 1 ? tr("1 execution") : tr("%1 executions").arg(formatCount(rows)))
        : tr("%1 executions so far (scroll for more)").arg(formatCount(rows));
    m_header->setText(tr("%1 — %2").arg(m_model->description(), count));
}

} // namespace memhist::viewer
