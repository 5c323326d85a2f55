// SPDX-License-Identifier: MIT
#include "bookmarkspanel.h"

#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QPushButton>
#include <QSaveFile>
#include <QTableView>
#include <QVBoxLayout>

namespace memhist::viewer {

BookmarksPanel::BookmarksPanel(QWidget *parent)
    : QWidget(parent)
    , m_model(new BookmarksModel(this))
{
    m_view = new QTableView(this);
    m_view->setObjectName(QStringLiteral("bookmarksView"));
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::EditKeyPressed | QAbstractItemView::SelectedClicked);
    m_view->setAlternatingRowColors(true);
    m_view->setShowGrid(false);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->horizontalHeader()->setHighlightSections(false);
    m_view->setColumnWidth(BookmarksModel::TransitionColumn, 120);
    m_view->setColumnWidth(BookmarksModel::AddressColumn, 160);
    m_view->setColumnWidth(BookmarksModel::OperationColumn, 110);

    m_emptyLabel = new QLabel(
        tr("No bookmarks. Select an access and press Ctrl+D (Go ▸ Add Bookmark) to keep it here with a note."), this);
    m_emptyLabel->setWordWrap(true);
    m_emptyLabel->setEnabled(false);

    const auto makeButton = [this](const QString &text, const QString &name, const QString &tip) {
        auto *button = new QPushButton(text, this);
        button->setObjectName(name);
        button->setToolTip(tip);
        return button;
    };
    m_goButton = makeButton(tr("&Go"), QStringLiteral("bookmarkGo"), tr("Show the bookmarked access on the plane"));
    m_editButton = makeButton(tr("Edit &Note…"), QStringLiteral("bookmarkEdit"), tr("Change the bookmark's note"));
    m_deleteButton = makeButton(tr("&Delete"), QStringLiteral("bookmarkDelete"), tr("Remove the bookmark"));
    m_exportButton
        = makeButton(tr("&Export…"), QStringLiteral("bookmarkExport"), tr("Write the bookmarks to a CSV or JSON file"));

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_goButton);
    buttons->addWidget(m_editButton);
    buttons->addWidget(m_deleteButton);
    buttons->addStretch();
    buttons->addWidget(m_exportButton);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_emptyLabel);
    layout->addWidget(m_view, 1);
    layout->addLayout(buttons);

    connect(m_view, &QAbstractItemView::doubleClicked, this, [this](const QModelIndex &index) {
        if (index.column() != BookmarksModel::NoteColumn)
            activate(index.row());
    });
    connect(m_view, &QAbstractItemView::activated, this, [this](const QModelIndex &index) { activate(index.row()); });
    connect(m_goButton, &QPushButton::clicked, this, [this] { activate(currentRow()); });
    connect(m_editButton, &QPushButton::clicked, this, &BookmarksPanel::editCurrentNote);
    connect(m_deleteButton, &QPushButton::clicked, this, [this] { remove(currentRow()); });
    connect(m_exportButton, &QPushButton::clicked, this, &BookmarksPanel::exportInteractively);
    connect(m_model, &BookmarksModel::bookmarksEdited, this, &BookmarksPanel::save);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &BookmarksPanel::updateButtons);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, &BookmarksPanel::updateButtons);
    connect(m_model, &QAbstractItemModel::modelReset, this, &BookmarksPanel::updateButtons);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &BookmarksPanel::updateButtons);
    updateButtons();
}

void BookmarksPanel::setHistory(const QString &historyPath)
{
    m_historyPath = historyPath;
    m_storePath.clear();
    QList<Bookmark> bookmarks;
    if (!historyPath.isEmpty()) {
        QString error;
        m_storePath = bookmarksFileFor(historyPath, &error);
        if (m_storePath.isEmpty() || !loadBookmarks(m_storePath, &bookmarks, &error))
            emit statusMessage(tr("Bookmarks unavailable: %1").arg(error));
    }
    m_loading = true;
    m_model->setBookmarks(bookmarks);
    m_loading = false;
}

void BookmarksPanel::add(const Bookmark &bookmark)
{
    m_model->append(bookmark);
    m_view->setCurrentIndex(m_model->index(m_model->rowCount() - 1, 0));
}

void BookmarksPanel::remove(int row)
{
    m_model->removeAt(row);
}

void BookmarksPanel::setNote(int row, const QString &note)
{
    m_model->setNote(row, note);
}

void BookmarksPanel::activate(int row)
{
    if (row >= 0 && row < m_model->rowCount())
        emit bookmarkActivated(m_model->bookmarks().at(row));
}

bool BookmarksPanel::exportTo(const QString &path, QString *error) const
{
    const bool json = path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)
        || file.write(json ? bookmarksJson(m_historyPath, bookmarks()) : bookmarksCsv(bookmarks())) < 0
        || !file.commit()) {
        *error = tr("%1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

void BookmarksPanel::save()
{
    if (m_loading || m_storePath.isEmpty())
        return;
    QString error;
    if (!saveBookmarks(m_storePath, m_historyPath, bookmarks(), &error))
        emit statusMessage(tr("The bookmarks could not be saved: %1").arg(error));
}

void BookmarksPanel::updateButtons()
{
    const bool hasCurrent = currentRow() >= 0;
    m_goButton->setEnabled(hasCurrent);
    m_editButton->setEnabled(hasCurrent);
    m_deleteButton->setEnabled(hasCurrent);
    m_exportButton->setEnabled(m_model->rowCount() > 0);
    m_emptyLabel->setVisible(m_model->rowCount() == 0);
}

int BookmarksPanel::currentRow() const
{
    const QModelIndex current = m_view->selectionModel()->currentIndex();
    return current.isValid() ? current.row() : -1;
}

void BookmarksPanel::editCurrentNote()
{
    const int row = currentRow();
    if (row < 0 || !m_interactive)
        return;
    bool ok = false;
    const QString note = QInputDialog::getText(
        this, tr("Bookmark Note"), tr("Note:"), QLineEdit::Normal, m_model->bookmarks().at(row).note, &ok);
    if (ok)
        setNote(row, note);
}

void BookmarksPanel::exportInteractively()
{
    QString filter;
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Bookmarks"),
        QFileInfo(m_historyPath).absolutePath() + u'/' + QFileInfo(m_historyPath).completeBaseName()
            + QStringLiteral("-bookmarks.csv"),
        tr("CSV (*.csv);;JSON (*.json)"), &filter);
    if (path.isEmpty())
        return;
    QString error;
    if (exportTo(path, &error))
        emit statusMessage(tr("Exported the bookmarks to %1").arg(path));
    else
        emit statusMessage(tr("Export failed: %1").arg(error));
}

} // namespace memhist::viewer
