// SPDX-License-Identifier: MIT
#include "widgets/detail/originview.h"

#include "core/model/numbertext.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace memhist {

namespace {

// A request shows its busy bar only when it takes longer than this: most trees come in a few
// milliseconds, and a bar that flashes is noise.
constexpr int busyDelayMs = 250;

constexpr int hopRole = Qt::UserRole;

QString accessText(const Access &access)
{
    return OriginView::tr("the %1 %2 at transition %3 (row %4)")
        .arg(bytesText(access.size),
            access.operation == Operation::Write ? OriginView::tr("written") : OriginView::tr("read"),
            countText(access.transition.value), countText(quint64(access.rowId.value)));
}

QString askedText(const Access &root, Direction direction)
{
    return direction == Direction::Backward ? OriginView::tr("Where %1 came from").arg(accessText(root))
                                            : OriginView::tr("Where %1 went").arg(accessText(root));
}

// "wordfreq.c:21" for "/home/me/src/wordfreq.c:21": the pane is narrow; the tooltip has the path.
QString shortSource(const QString &source)
{
    const qsizetype slash = source.lastIndexOf(u'/');
    return slash < 0 ? source : source.mid(slash + 1);
}

QStringList cellsOf(const OriginHop &hop)
{
    QStringList cells(OriginView::ColumnCount);
    cells[OriginView::KindColumn] = hopKindText(hop.kind);
    cells[OriginView::FunctionColumn] = hop.function;
    cells[OriginView::SourceColumn] = shortSource(hop.source);
    cells[OriginView::PlaceColumn] = hop.address ? hexText(hop.address->value) : hop.registerName;
    cells[OriginView::ValueColumn] = byteValuesText(hop.value);
    cells[OriginView::ConfidenceColumn] = confidenceText(hop.confidence);
    cells[OriginView::TransitionColumn] = hop.transition ? countText(hop.transition->value) : QString();
    cells[OriginView::RowColumn] = hop.rowId ? countText(quint64(hop.rowId->value)) : QString();
    cells[OriginView::NoteColumn] = hop.note;
    return cells;
}

} // namespace

QString hopKindText(HopKind kind)
{
    switch (kind) {
    case HopKind::Access:
        return OriginView::tr("access");
    case HopKind::LastWrite:
        return OriginView::tr("last write");
    case HopKind::Register:
        return OriginView::tr("register");
    case HopKind::Load:
        return OriginView::tr("load");
    case HopKind::Computed:
        return OriginView::tr("computed");
    case HopKind::Kernel:
        return OriginView::tr("kernel");
    case HopKind::Initial:
        return OriginView::tr("initial");
    case HopKind::Unknown:
        break;
    }
    return OriginView::tr("unknown");
}

QString confidenceText(Confidence confidence)
{
    switch (confidence) {
    case Confidence::Exact:
        return OriginView::tr("exact");
    case Confidence::Computed:
        return OriginView::tr("computed");
    case Confidence::Unchecked:
        break;
    }
    return OriginView::tr("unchecked");
}

OriginView::OriginView(QWidget *parent)
    : QWidget(parent)
    , m_thread(std::make_unique<ConnectionThread<OriginWorker>>(this, QStringLiteral("memhist origin")))
    , m_summary(new QLabel(this))
    , m_busyRow(new QWidget(this))
    , m_busyBar(new QProgressBar(m_busyRow))
    , m_cancel(new QPushButton(tr("Cancel"), m_busyRow))
    , m_busyDelay(new QTimer(this))
    , m_tree(new QTreeWidget(this))
{
    m_summary->setObjectName(QStringLiteral("originSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setContentsMargins(4, 4, 4, 4);
    m_busyBar->setRange(0, 0); // the finder reports no fraction: busy, not a percentage
    m_busyBar->setTextVisible(false);
    m_cancel->setObjectName(QStringLiteral("originCancel"));
    auto *busyLayout = new QHBoxLayout(m_busyRow);
    busyLayout->setContentsMargins(4, 0, 4, 0);
    busyLayout->addWidget(m_busyBar, 1);
    busyLayout->addWidget(m_cancel);
    m_busyRow->hide();
    m_busyDelay->setSingleShot(true);
    m_busyDelay->setInterval(busyDelayMs);
    connect(m_busyDelay, &QTimer::timeout, m_busyRow, &QWidget::show);
    connect(m_cancel, &QPushButton::clicked, this, &OriginView::cancel);

    m_tree->setObjectName(QStringLiteral("originTree"));
    m_tree->setColumnCount(ColumnCount);
    m_tree->setHeaderLabels({ tr("Kind"), tr("Function"), tr("Source"), tr("Place"), tr("Value"), tr("Confidence"),
        tr("Transition"), tr("Row"), tr("Note") });
    m_tree->setUniformRowHeights(true);
    m_tree->setIndentation(fontMetrics().averageCharWidth() * 3 / 2);
    m_tree->setAllColumnsShowFocus(true);
    m_tree->header()->setStretchLastSection(true);
    connect(m_tree, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem *item) { activate(item); });
    connect(m_tree, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem *item) { activate(item); });

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_summary);
    layout->addWidget(m_busyRow);
    layout->addWidget(m_tree, 1);
    m_summary->setText(tr("Select an access, then Where Did This Come From? or Where Did It Go? (in the context "
                          "menu of the results or of the Detail tab, or in the Go menu)."));
}

// A search in progress is finished in the worker thread; its result is dropped.
OriginView::~OriginView() = default;

void OriginView::setHistory(const QString &path)
{
    m_historyPath = path;
    m_thread->cancel();
    setBusy(false);
    m_result.reset();
    m_tree->clear();
    m_summary->setText(path.isEmpty() ? tr("No history open")
                                      : tr("Select an access, then Where Did This Come From? or Where Did It Go?"));
}

void OriginView::showOrigin(const Access &root, Direction direction)
{
    if (m_historyPath.isEmpty())
        return;
    const JobTicket ticket = m_thread->supersede();
    setBusy(true);
    m_summary->setText(askedText(root, direction) + QStringLiteral(" …"));
    m_thread->post(
        ticket,
        [path = m_historyPath, root, direction](
            OriginWorker &worker, const JobTicket &) { return worker.find(path, root, direction); },
        [this](const OriginResult &result) { show(result); });
}

void OriginView::cancel()
{
    if (!m_busy)
        return;
    m_thread->cancel();
    setBusy(false);
    m_summary->setText(
        m_result ? tr("Cancelled; still showing: %1").arg(summary()) : tr("Cancelled before the tree was found."));
}

bool OriginView::isBusy() const
{
    return m_busy;
}

QString OriginView::summary() const
{
    if (!m_result)
        return m_summary->text();
    const OriginResult &result = *m_result;
    if (!result.error.isEmpty())
        return tr("Cannot find it: %1").arg(result.error);
    const qsizetype hops = result.tree.hops.size();
    QStringList lines { (hops == 1 ? tr("%1: 1 hop.") : tr("%1: %2 hops.").arg(QStringLiteral("%1"), countText(hops)))
                            .arg(askedText(result.root, result.direction)) };
    if (result.tree.truncated)
        lines << tr("Stopped at %1 hops; ask again from a hop of this tree.").arg(hops);
    // The core's words (those of memhist origin) for what the history lacks.
    if (!result.hasCode)
        lines << tr("No code trace (the instruction of each transition), so only memory hops are followed, not "
                    "registers.");
    if (!result.hasValues)
        lines << tr("No values (the bytes of each access), so no hop can be checked: all are unchecked.");
    return lines.join(u'\n');
}

void OriginView::show(const OriginResult &result)
{
    setBusy(false);
    m_result = result;
    m_tree->clear();
    QList<QTreeWidgetItem *> items;
    items.reserve(result.tree.hops.size());
    for (qsizetype i = 0; i < result.tree.hops.size(); ++i) {
        const OriginHop &hop = result.tree.hops[i];
        auto *item = new QTreeWidgetItem(cellsOf(hop));
        item->setData(KindColumn, hopRole, int(i));
        for (const int column : { TransitionColumn, RowColumn })
            item->setTextAlignment(column, Qt::AlignRight | Qt::AlignVCenter);
        if (!hop.source.isEmpty())
            item->setToolTip(SourceColumn, hop.source);
        if (!hop.note.isEmpty())
            item->setToolTip(NoteColumn, hop.note);
        if (!result.accesses.value(i))
            item->setToolTip(KindColumn, tr("Not an access: nothing to select"));
        if (hop.parent >= 0 && hop.parent < items.size())
            items[hop.parent]->addChild(item);
        else
            m_tree->addTopLevelItem(item);
        items << item;
    }
    m_tree->expandAll();
    // A chain nests deeply: no column (the Kind column's indentation above all) may push the
    // function, source line and value out of a narrow pane.
    const int widest = std::max(m_tree->viewport()->width() / 3, fontMetrics().averageCharWidth() * 16);
    for (int column = 0; column < NoteColumn; ++column) {
        m_tree->resizeColumnToContents(column);
        m_tree->setColumnWidth(column, std::min(m_tree->columnWidth(column), widest));
    }
    m_summary->setText(summary());
    emit originShown();
}

void OriginView::setBusy(bool busy)
{
    m_busy = busy;
    if (busy) {
        m_busyDelay->start();
    } else {
        m_busyDelay->stop();
        m_busyRow->hide();
    }
}

void OriginView::activate(QTreeWidgetItem *item)
{
    if (!item || !m_result)
        return;
    const int hop = item->data(KindColumn, hopRole).toInt();
    if (const std::optional<Access> &access = m_result->accesses.value(hop))
        emit hopActivated(*access);
}

} // namespace memhist
