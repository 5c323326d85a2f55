#include "widgets/query/resultsmodel.h"

#include "core/csv/csvaccessformat.h"
#include "core/model/numbertext.h"
#include "widgets/query/resultsworker.h"

#include <QFontDatabase>

namespace memhist {

namespace {

QString operationName(Operation operation)
{
    switch (operation) {
    case Operation::Read:
        return ResultsModel::tr("Read");
    case Operation::Write:
        return ResultsModel::tr("Write");
    case Operation::Execute:
        return ResultsModel::tr("Execute");
    }
    return {};
}

} // namespace

ResultsModel::ResultsModel(QObject *parent)
    : QAbstractTableModel(parent)
    , m_thread(std::make_unique<ConnectionThread<ResultsWorker>>(this, QStringLiteral("memhist results")))
{ }

// A page being computed is finished (the engine has no cancellation point), later ones skipped.
ResultsModel::~ResultsModel() = default;

void ResultsModel::startOver()
{
    m_thread->cancel();
    beginResetModel();
    m_accesses.clear();
    m_threads.clear();
    m_resumePoint.reset();
    m_loading = false;
    m_exhausted = false;
    m_failed = false;
    endResetModel();
}

void ResultsModel::setHistory(const QString &path)
{
    m_historyPath = path;
    m_query.reset();
    m_hasThreads = false;
    startOver();
    emit headerDataChanged(Qt::Horizontal, ThreadColumn, ThreadColumn);
}

void ResultsModel::setQuery(const HalfAxisQuery &query)
{
    m_query = query;
    startOver();
    requestPage();
}

void ResultsModel::setPageSize(int rows)
{
    m_pageSize = qMax(1, rows);
}

void ResultsModel::requestPage()
{
    if (!m_query || m_loading || m_exhausted || m_failed || m_historyPath.isEmpty())
        return;
    HalfAxisQuery query = *m_query;
    if (m_resumePoint)
        query.resumeAfter = m_resumePoint;
    query.limit = quint64(m_pageSize);
    m_loading = true;
    // A page of a query the user has replaced is skipped, or dropped when it arrives.
    m_thread->post(
        m_thread->current(),
        [path = m_historyPath, query](
            ResultsWorker &worker, const JobTicket &) { return worker.fetchPage(path, query); },
        [this](const ResultsPage &page) { receivePage(page); });
}

void ResultsModel::receivePage(const ResultsPage &page)
{
    m_loading = false;
    if (!page.error.isEmpty()) {
        m_failed = true;
        emit queryFailed(page.error);
        return;
    }
    if (page.threadsAvailable != m_hasThreads) {
        m_hasThreads = page.threadsAvailable;
        emit headerDataChanged(Qt::Horizontal, ThreadColumn, ThreadColumn);
    }
    m_exhausted = page.exhausted;
    if (!page.accesses.isEmpty()) {
        m_resumePoint = page.accesses.constLast().rowId;
        const int first = int(m_accesses.size());
        beginInsertRows({}, first, first + int(page.accesses.size()) - 1);
        m_accesses.append(page.accesses);
        if (m_hasThreads)
            m_threads.append(page.threads);
        endInsertRows();
    }
    emit pageLoaded(int(m_accesses.size()), m_exhausted);
    if (!page.accesses.isEmpty())
        emit accessesAppended(page.accesses);
}

int ResultsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_accesses.size());
}

int ResultsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ResultsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Access &access = m_accesses.at(index.row());
    const auto column = Columns(index.column());

    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case RowIdColumn:
            return QString::number(access.rowId.value);
        case TransitionColumn:
            return QString::number(access.transition.value);
        case OperationColumn:
            return QString(QLatin1Char(csv::operationLetter(access.operation)));
        case AddressColumn:
            return hexText(access.physical.value);
        case LinearColumn:
            return access.linear ? hexText(access.linear->value) : QString();
        case SizeColumn:
            return QString::number(access.size);
        case ThreadColumn: {
            const std::optional<qint64> thread = m_hasThreads ? m_threads.value(index.row()) : std::nullopt;
            return thread ? QString::number(*thread) : QString();
        }
        case ColumnCount:
            break;
        }
        return {};
    case Qt::ToolTipRole:
        if (column == OperationColumn)
            return operationName(access.operation);
        if (column == SizeColumn)
            return access.size == 1 ? tr("1 byte at %1").arg(hexText(access.physical.value))
                                    : tr("%1 bytes, %2 to %3")
                                          .arg(QString::number(access.size), hexText(access.physical.value),
                                              hexText(access.lastByte().value));
        return {};
    case Qt::FontRole:
        // Digits of equal width line up down the column.
        return QFontDatabase::systemFont(QFontDatabase::FixedFont);
    case Qt::TextAlignmentRole:
        if (column == OperationColumn)
            return QVariant::fromValue(Qt::AlignCenter);
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    case AccessRole:
        return QVariant::fromValue(access);
    default:
        return {};
    }
}

QVariant ResultsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole) {
        switch (Columns(section)) {
        case RowIdColumn:
            return tr("Row");
        case TransitionColumn:
            return tr("Transition");
        case OperationColumn:
            return tr("Op");
        case AddressColumn:
            return tr("Address");
        case LinearColumn:
            return tr("Linear");
        case SizeColumn:
            return tr("Size");
        case ThreadColumn:
            return tr("Thread");
        case ColumnCount:
            break;
        }
    } else if (role == Qt::ToolTipRole) {
        switch (Columns(section)) {
        case RowIdColumn:
            return tr("The access's row id: its position in trace order");
        case TransitionColumn:
            return tr("The index of the instruction that made the access");
        case OperationColumn:
            return tr("R read, W write, X instruction fetch");
        case AddressColumn:
            return tr("First byte (physical address)");
        case LinearColumn:
            return tr("First byte (linear address), empty when the trace did not record it");
        case SizeColumn:
            return tr("Bytes accessed");
        case ThreadColumn:
            return m_hasThreads ? tr("The thread that ran the transition") : tr("This history records no threads");
        case ColumnCount:
            break;
        }
    } else if (role == Qt::TextAlignmentRole) {
        return QVariant::fromValue(section == OperationColumn ? Qt::AlignCenter : Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

bool ResultsModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && m_query && !m_exhausted && !m_failed && !m_historyPath.isEmpty();
}

void ResultsModel::fetchMore(const QModelIndex &parent)
{
    if (!parent.isValid())
        requestPage();
}

} // namespace memhist
