// SPDX-License-Identifier: MIT
#include "widgets/query/resultsmodel.h"

#include "core/csv/csvaccessformat.h"
#include "core/model/numbertext.h"
#include "widgets/query/resultsworker.h"

#include <QFontDatabase>
#include <algorithm>

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
{
    m_thread->onProgress([this](const JobProgress &progress) { emit searchProgress(progress.fraction); });
}

// A page being computed is finished (the engine has no cancellation point), later ones skipped.
ResultsModel::~ResultsModel() = default;

void ResultsModel::startOver(bool loading)
{
    m_thread->cancel();
    beginResetModel();
    m_accesses.clear();
    m_threads.clear();
    m_context.clear();
    m_resumePoint.reset();
    m_size.reset();
    m_resultSize = 0;
    m_resultSizeExact = false;
    m_windowStart = 0;
    m_positionsExact = true;
    m_atStart = true;
    // A view (or QAbstractItemModelTester) fetches more on the reset: not while the page that
    // replaces the rows is on its way.
    m_loading = loading;
    m_exhausted = false;
    m_failed = false;
    m_cancelled = false;
    endResetModel();
}

void ResultsModel::setHistory(const QString &path)
{
    m_historyPath = path;
    m_query.reset();
    m_valueSearch.reset();
    m_hasThreads = false;
    m_hasContext = false;
    m_hasValues = false;
    m_contextColumnsWithData.clear();
    startOver();
    emit headerDataChanged(Qt::Horizontal, ThreadColumn, BeforeColumn);
}

void ResultsModel::setQuery(const HalfAxisQuery &query)
{
    m_query = query;
    m_valueSearch.reset();
    startOver();
    requestPage();
}

void ResultsModel::setValueSearch(const ValueSearch &search)
{
    m_query = search.query;
    m_valueSearch = search;
    startOver();
    requestPage();
}

void ResultsModel::cancelSearch()
{
    if (!m_valueSearch || m_cancelled || !m_loading)
        return;
    // Said at once: a page not started yet is skipped and never answers; one running stops at its
    // next step, and what it still delivers is dropped.
    m_thread->stop();
    m_loading = false;
    m_cancelled = true;
    emit searchCancelled(int(m_accesses.size()));
}

void ResultsModel::setPageSize(int rows)
{
    m_pageSize = qMax(1, rows);
}

void ResultsModel::requestPage()
{
    if (!m_query || m_loading || m_exhausted || m_failed || m_cancelled || m_historyPath.isEmpty())
        return;
    PageRequest request;
    request.query = *m_query;
    if (m_resumePoint)
        request.query.resumeAfter = m_resumePoint;
    request.query.limit = quint64(m_pageSize);
    post(PageKind::Next, request);
}

void ResultsModel::post(PageKind kind, const PageRequest &request)
{
    m_loading = true;
    // A page of a query the user has replaced is skipped, or dropped when it arrives.
    m_thread->post(
        m_thread->current(),
        [path = m_historyPath, request, search = m_valueSearch](
            ResultsWorker &worker, const JobTicket &ticket) { return worker.fetchPage(path, request, search, ticket); },
        [this, kind](const ResultsPage &page) { receivePage(kind, page); });
}

void ResultsModel::requestSize()
{
    // After the first page, so that the rows show first: the estimate runs a few probes. The worker
    // answers in order, so a page asked for meanwhile waits for it; a new query drops it.
    PageRequest request;
    request.query = *m_query;
    request.query.limit = quint64(m_pageSize);
    request.withSize = true;
    m_thread->post(
        m_thread->current(),
        [path = m_historyPath, request](ResultsWorker &worker, const JobTicket &ticket) {
            return worker.fetchPage(path, request, std::nullopt, ticket);
        },
        [this](const ResultsPage &page) {
            if (!page.size || !page.error.isEmpty() || m_size)
                return; // the first page's rows stay; only jumps need the size
            m_size = page.size;
            if (!(m_atStart && m_exhausted)) {
                m_resultSize = page.size->rows;
                m_resultSizeExact = page.size->exact;
                updateResultSize();
            }
            emit resultSizeChanged();
        });
}

bool ResultsModel::canJump() const
{
    return m_query && !m_valueSearch && m_size && !m_failed && !m_historyPath.isEmpty();
}

void ResultsModel::showEnd()
{
    jump(PageKind::End, 0);
}

void ResultsModel::showStart()
{
    jump(PageKind::Position, 0);
}

void ResultsModel::showPosition(qint64 position)
{
    jump(PageKind::Position, std::max<qint64>(0, position));
}

void ResultsModel::jump(PageKind kind, qint64 position)
{
    if (!canJump())
        return;
    // The window starts over; what is known of the result stays.
    const std::optional<ResultSize> size = m_size;
    const qint64 resultSize = m_resultSize;
    const bool resultSizeExact = m_resultSizeExact;
    startOver(true);
    m_size = size;
    m_resultSize = resultSize;
    m_resultSizeExact = resultSizeExact;

    PageRequest request;
    request.query = *m_query;
    request.query.limit = quint64(m_pageSize);
    if (kind == PageKind::End) {
        request.walksFromEnd = *m_query;
        request.query = reversedFromEnd(*m_query);
        request.query.limit = quint64(m_pageSize);
    } else if (position > 0) {
        // Next to the rowid where the row at `position` lies, within the query's own start point.
        const Direction direction = m_query->direction;
        const qint64 rowId = m_size->rowIdAt(position, direction);
        const RowId resume { direction == Direction::Forward ? rowId - 1 : rowId + 1 };
        const std::optional<RowId> &own = m_query->resumeAfter;
        request.query.resumeAfter = !own      ? resume
            : direction == Direction::Forward ? std::max(*own, resume)
                                              : std::min(*own, resume);
    }
    m_jumpPosition = position;
    post(kind, request);
}

bool ResultsModel::canFetchPrevious() const
{
    return canJump() && !m_atStart && !m_accesses.isEmpty();
}

void ResultsModel::fetchPrevious()
{
    if (!canFetchPrevious() || m_loading)
        return;
    PageRequest request;
    request.query = reversedFromEnd(*m_query);
    request.query.resumeAfter = m_accesses.constFirst().rowId;
    request.query.limit = quint64(m_pageSize);
    request.walksFromEnd = *m_query;
    post(PageKind::Previous, request);
}

void ResultsModel::receivePage(PageKind kind, const ResultsPage &page)
{
    if (m_cancelled)
        return; // cancelSearch() has said so already
    m_loading = false;
    if (!page.error.isEmpty()) {
        m_failed = true;
        emit queryFailed(page.error);
        return;
    }
    // Where the next page starts, before anything is emitted: a view (or QAbstractItemModelTester)
    // may fetch more from the header change below, and must not ask for this page again.
    switch (kind) {
    case PageKind::Next:
        m_exhausted = page.exhausted;
        if (!page.accesses.isEmpty())
            m_resumePoint = page.accesses.constLast().rowId;
        break;
    case PageKind::Previous:
        m_atStart = page.reachedStart;
        // Counted from the first row itself once the window holds it; from the estimate before (a
        // row before the window is at position 1 at least).
        m_windowStart = m_atStart ? 0 : std::max<qint64>(1, m_windowStart - page.accesses.size());
        m_positionsExact = m_positionsExact || m_atStart;
        break;
    case PageKind::End:
        m_exhausted = true;
        m_atStart = page.reachedStart;
        m_windowStart = m_atStart ? 0 : std::max<qint64>(1, m_resultSize - page.accesses.size());
        m_positionsExact = m_atStart || m_resultSizeExact;
        break;
    case PageKind::Position:
        m_exhausted = page.exhausted;
        m_atStart = m_jumpPosition == 0;
        m_windowStart = m_jumpPosition;
        m_positionsExact = m_atStart || m_resultSizeExact;
        if (!page.accesses.isEmpty())
            m_resumePoint = page.accesses.constLast().rowId;
        break;
    }
    if (page.size) {
        m_size = page.size;
        m_resultSize = page.size->rows;
        m_resultSizeExact = page.size->exact;
    }
    if (page.threadsAvailable != m_hasThreads || page.contextAvailable != m_hasContext
        || page.valuesAvailable != m_hasValues || page.contextColumnsWithData != m_contextColumnsWithData) {
        m_hasThreads = page.threadsAvailable;
        m_hasContext = page.contextAvailable;
        m_hasValues = page.valuesAvailable;
        m_contextColumnsWithData = page.contextColumnsWithData;
        emit headerDataChanged(Qt::Horizontal, ThreadColumn, BeforeColumn);
    }
    if (kind == PageKind::Position && page.accesses.isEmpty() && m_jumpPosition > 0) {
        // The result ends before the estimated position: its last page is the nearest.
        jump(PageKind::End, 0);
        return;
    }
    if (kind == PageKind::Previous) {
        insertRows(0, page);
    } else {
        insertRows(int(m_accesses.size()), page);
    }
    updateResultSize();
    if (kind == PageKind::Next && !m_size && !m_valueSearch && !m_exhausted && m_atStart
        && m_accesses.size() == page.accesses.size())
        requestSize();
    emit pageLoaded(int(m_accesses.size()), m_exhausted);
    if (!page.accesses.isEmpty())
        emit accessesAppended(page.accesses);
    if (kind == PageKind::Previous && !page.accesses.isEmpty())
        emit rowsPrepended(int(page.accesses.size()));
    if (kind == PageKind::End || kind == PageKind::Position)
        emit jumped();
}

void ResultsModel::insertRows(int at, const ResultsPage &page)
{
    if (page.accesses.isEmpty())
        return;
    beginInsertRows({}, at, at + int(page.accesses.size()) - 1);
    m_accesses.insert(at, page.accesses.size(), Access {});
    std::copy(page.accesses.cbegin(), page.accesses.cend(), m_accesses.begin() + at);
    if (m_hasThreads) {
        m_threads.insert(at, page.threads.size(), std::nullopt);
        std::copy(page.threads.cbegin(), page.threads.cend(), m_threads.begin() + at);
    }
    if (m_hasContext) {
        m_context.insert(at, page.context.size(), QStringList());
        std::copy(page.context.cbegin(), page.context.cend(), m_context.begin() + at);
    }
    endInsertRows();
}

void ResultsModel::updateResultSize()
{
    const qint64 rows = m_accesses.size();
    if (m_valueSearch || !m_size) {
        // No estimate: what is loaded, and one more while more may come.
        m_resultSize = rows + (m_exhausted ? 0 : 1);
        m_resultSizeExact = m_exhausted;
    } else if (m_atStart && m_exhausted) {
        m_resultSize = rows;
        m_resultSizeExact = true;
    } else if (m_exhausted) {
        // The window's last row is the result's: the result ends where the window does (exactly
        // where the positions are).
        m_resultSize = m_windowStart + rows;
    } else {
        // More rows follow the window.
        m_resultSize = std::max(m_resultSize, m_windowStart + rows + 1);
    }
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
        // The export's texts, except where the viewer writes a number its own way: row ids and
        // transitions grouped as on the status line ("34,563"), a value's bytes spaced as in the
        // Detail pane ("06 1f 93"). Copy and the export take csvCell(), the plain numbers.
        switch (column) {
        case RowIdColumn:
            return countText(quint64(access.rowId.value));
        case TransitionColumn:
            return countText(access.transition.value);
        case ValueColumn:
        case BeforeColumn:
            return byteValuesText(QByteArray::fromHex(contextCell(index.row(), column).toLatin1()));
        case PcColumn:
        case FunctionColumn:
        case SourceColumn:
        case InstructionColumn:
        case RegionColumn:
            return contextCell(index.row(), column);
        default:
            return QString::fromLatin1(csvCell(index.row(), column));
        }
    case Qt::ToolTipRole:
        if (column == OperationColumn)
            return operationName(access.operation);
        if (column == SizeColumn)
            return access.size == 1 ? tr("1 byte at %1").arg(hexText(access.physical.value))
                                    : tr("%1 bytes, %2 to %3")
                                          .arg(QString::number(access.size), hexText(access.physical.value),
                                              hexText(access.lastByte().value));
        if (column >= FunctionColumn && column <= RegionColumn) {
            // Long names and instructions are cut by the column's width.
            const QString text = contextCell(index.row(), column);
            return text.isEmpty() ? QVariant() : QVariant(text);
        }
        return {};
    case Qt::FontRole:
        // Digits of equal width line up down the column.
        return QFontDatabase::systemFont(QFontDatabase::FixedFont);
    case Qt::TextAlignmentRole:
        if (column == OperationColumn)
            return QVariant::fromValue(Qt::AlignCenter);
        if (column >= FunctionColumn && column <= RegionColumn)
            return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    case AccessRole:
        return QVariant::fromValue(access);
    case CsvRole:
        return csvCell(index.row(), column);
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
        case PcColumn:
            return tr("PC");
        case FunctionColumn:
            return tr("Function");
        case SourceColumn:
            return tr("Source");
        case InstructionColumn:
            return tr("Instruction");
        case RegionColumn:
            return tr("Region");
        case ValueColumn:
            return tr("Value");
        case BeforeColumn:
            return tr("Before");
        case ColumnCount:
            break;
        }
    } else if (role == CsvRole) {
        return columnKey(section);
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
        case PcColumn:
            return tr("The address of the instruction that made the access");
        case FunctionColumn:
            return tr("The function holding that instruction, and the instruction's offset in it");
        case SourceColumn:
            return tr("The source line of that instruction (file:line)");
        case InstructionColumn:
            return tr("The instruction's disassembly");
        case RegionColumn:
            return tr("What the address is: a global or static object, else the region holding it");
        case ValueColumn:
            return m_hasValues ? tr("The bytes read or written, in memory order")
                               : tr("This history records no values");
        case BeforeColumn:
            return m_hasValues ? tr("For a write, the bytes it overwrote, in memory order")
                               : tr("This history records no values");
        case ColumnCount:
            break;
        }
    } else if (role == Qt::TextAlignmentRole) {
        if (section == OperationColumn)
            return QVariant::fromValue(Qt::AlignCenter);
        if (section >= FunctionColumn && section <= RegionColumn)
            return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

bool ResultsModel::hasColumnData(int column) const
{
    switch (column) {
    case ThreadColumn:
        return m_hasThreads;
    case PcColumn:
    case FunctionColumn:
    case SourceColumn:
    case InstructionColumn:
    case RegionColumn:
    case ValueColumn:
    case BeforeColumn:
        return m_hasContext && m_contextColumnsWithData.contains(columnKey(column));
    default:
        return column >= 0 && column < ColumnCount;
    }
}

QByteArray ResultsModel::columnKey(int column)
{
    // The names of csv::header(), "thread" (ExportColumns) and ContextColumns::names().
    static const QByteArray keys[ColumnCount] = { "rowid", "transition", "operation", "address", "linear", "size",
        "thread", "pc", "function", "source", "instruction", "region", "value", "before" };
    return column >= 0 && column < ColumnCount ? keys[column] : QByteArray();
}

QString ResultsModel::contextCell(int row, int column) const
{
    if (!m_hasContext)
        return {};
    // The cells of a row are pc, function, source, instruction, region (and value, before).
    return m_context.value(row).value(column - PcColumn);
}

QByteArray ResultsModel::csvCell(int row, int column) const
{
    const Access &access = m_accesses.at(row);
    switch (Columns(column)) {
    case RowIdColumn:
        return QByteArray::number(qint64(access.rowId.value));
    case TransitionColumn:
        return QByteArray::number(quint64(access.transition.value));
    case OperationColumn:
        return QByteArray(1, csv::operationLetter(access.operation));
    case AddressColumn:
        return hexBytes(access.physical.value);
    case LinearColumn:
        return access.linear ? hexBytes(access.linear->value) : QByteArray();
    case SizeColumn:
        return QByteArray::number(access.size);
    case ThreadColumn: {
        const std::optional<qint64> thread = m_hasThreads ? m_threads.value(row) : std::nullopt;
        return thread ? QByteArray::number(*thread) : QByteArray();
    }
    case PcColumn:
    case FunctionColumn:
    case SourceColumn:
    case InstructionColumn:
    case RegionColumn:
    case ValueColumn:
    case BeforeColumn:
        return csv::quoteField(contextCell(row, column).toUtf8());
    case ColumnCount:
        break;
    }
    return {};
}

QByteArray ResultsModel::rowsAsCsv(const QList<int> &rows, const QList<int> &columns) const
{
    QByteArray text;
    for (qsizetype i = 0; i < columns.size(); ++i)
        text += (i > 0 ? "," : "") + columnKey(columns[i]);
    text += '\n';
    for (const int row : rows) {
        if (row < 0 || row >= m_accesses.size())
            continue;
        for (qsizetype i = 0; i < columns.size(); ++i) {
            if (i > 0)
                text += ',';
            text += csvCell(row, columns[i]);
        }
        text += '\n';
    }
    return text;
}

bool ResultsModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && m_query && !m_exhausted && !m_failed && !m_cancelled && !m_historyPath.isEmpty();
}

void ResultsModel::fetchMore(const QModelIndex &parent)
{
    if (!parent.isValid())
        requestPage();
}

} // namespace memhist
