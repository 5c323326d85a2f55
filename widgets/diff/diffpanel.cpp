// SPDX-License-Identifier: MIT
#include "diffpanel.h"

#include "diffentriesmodel.h"
#include "diffsummary.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace memhist {

DiffPanel::DiffPanel(QWidget *parent)
    : QWidget(parent)
    , m_sides(new QLabel(this))
    , m_header(new QLabel(this))
    , m_progress(new QProgressBar(this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
    , m_view(new QTableView(this))
    , m_model(new DiffEntriesModel(this))
{
    m_sides->setObjectName(QStringLiteral("diffSides"));
    m_sides->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_header->setObjectName(QStringLiteral("diffHeader"));
    m_header->setWordWrap(true);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_progress->setObjectName(QStringLiteral("diffProgress"));
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_cancel->setObjectName(QStringLiteral("diffCancel"));
    m_cancel->setToolTip(tr("Stop comparing the two histories"));
    connect(m_cancel, &QPushButton::clicked, this, &DiffPanel::cancelClicked);

    m_view->setObjectName(QStringLiteral("diffView"));
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setTabKeyNavigation(false);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->horizontalHeader()->setHighlightSections(false);
    connect(
        m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex &current) {
            if (current.isValid())
                emit entryPicked(m_model->entry(current.row()));
        });

    auto *top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(m_header, 1);
    top->addWidget(m_progress);
    top->addWidget(m_cancel);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_sides);
    layout->addLayout(top);
    layout->addWidget(m_view, 1);
    clear();
}

void DiffPanel::startComparing(const QString &text)
{
    m_model->setEntries({});
    m_header->setText(text);
    m_progress->setRange(0, 0); // busy until the first progress
    m_progress->show();
    m_cancel->show();
}

void DiffPanel::setProgress(double fraction)
{
    m_progress->setRange(0, 1000);
    m_progress->setValue(int(std::clamp(fraction, 0.0, 1.0) * 1000));
}

void DiffPanel::showResult(const DiffResult &result)
{
    m_progress->hide();
    m_cancel->hide();
    m_header->setText(diffSummaryText(result));
    m_model->setEntries(result.entries);
    fitColumns();
}

void DiffPanel::showMessage(const QString &message)
{
    m_progress->hide();
    m_cancel->hide();
    m_model->setEntries({});
    m_header->setText(message);
}

void DiffPanel::setSides(const QString &text)
{
    m_sides->setText(text);
    m_sides->setVisible(!text.isEmpty());
}

QString DiffPanel::sidesText() const
{
    return m_sides->text();
}

void DiffPanel::clear()
{
    setSides(QString());
    showMessage(tr("No comparison: File ▸ Compare With… compares another history of the same program with "
                   "this one."));
}

bool DiffPanel::isComparing() const
{
    return !m_cancel->isHidden();
}

QString DiffPanel::headerText() const
{
    return m_header->text();
}

void DiffPanel::fitColumns()
{
    // The short columns to their texts (over the first rows: thousands would take long), the
    // runs' descriptions share the rest; a long one shows whole in its tooltip.
    QHeaderView *header = m_view->horizontalHeader();
    const QFontMetrics metrics = m_view->fontMetrics();
    const int rows = std::min(m_model->rowCount(), 200);
    const int padding = metrics.averageCharWidth() * 2;
    for (int column = 0; column < DiffEntriesModel::ColumnCount; ++column) {
        int width = metrics.horizontalAdvance(m_model->headerData(column, Qt::Horizontal).toString()) + padding * 2;
        for (int row = 0; row < rows; ++row)
            width = std::max(width, metrics.horizontalAdvance(m_model->index(row, column).data().toString()) + padding);
        const int most = column == DiffEntriesModel::WhereColumn ? metrics.averageCharWidth() * 40
            : column >= DiffEntriesModel::AColumn                ? metrics.averageCharWidth() * 60
                                                                 : metrics.averageCharWidth() * 24;
        header->resizeSection(column, std::min(width, most));
    }
}

} // namespace memhist
