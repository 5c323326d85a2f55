// SPDX-License-Identifier: MIT
#include "widgets/sql/sqlconsole.h"

#include "core/model/numbertext.h"
#include "widgets/sql/sqlexamples.h"
#include "widgets/sql/sqlresultsmodel.h"
#include "widgets/sql/sqlworker.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QShortcut>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>
#include <utility>

namespace memhist {

namespace {

int connectionCounter = 0;

// Widest a column grows when sized to its contents: a long text value must not push the others away.
constexpr int maxColumnWidth = 360;
// How often the "Running… n s" status moves while a statement runs.
constexpr int elapsedUpdateMilliseconds = 200;

} // namespace

SqlConsole::SqlConsole(QWidget *parent)
    : QWidget(parent)
    , m_connectionName(QStringLiteral("memhist-sqlconsole-%1").arg(++connectionCounter))
{
    const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);

    m_examplesCombo = new QComboBox(this);
    m_examplesCombo->setObjectName(QStringLiteral("examplesCombo"));
    m_examplesCombo->addItem(tr("Examples…"));
    for (const sqlexamples::Example &example : sqlexamples::examples)
        m_examplesCombo->addItem(tr(example.title), QString::fromUtf8(example.statement));
    connect(m_examplesCombo, &QComboBox::activated, this, [this](int index) {
        const QString sql = m_examplesCombo->itemData(index).toString();
        if (!sql.isEmpty())
            setStatement(sql);
        m_examplesCombo->setCurrentIndex(0);
    });

    m_runButton = new QPushButton(tr("Run"), this);
    m_runButton->setObjectName(QStringLiteral("runButton"));
    m_runButton->setToolTip(tr("Run the statement (Ctrl+Return)"));
    connect(m_runButton, &QPushButton::clicked, this, &SqlConsole::runStatement);
    m_stopButton = new QPushButton(tr("Stop"), this);
    m_stopButton->setObjectName(QStringLiteral("stopButton"));
    m_stopButton->setToolTip(tr("Interrupt the running statement"));
    connect(m_stopButton, &QPushButton::clicked, this, &SqlConsole::stop);

    // Addresses as the rest of the viewer shows them; remembered by the console for its next result.
    m_hexCheck = new QCheckBox(tr("Addresses in hex"), this);
    m_hexCheck->setObjectName(QStringLiteral("hexCheck"));
    m_hexCheck->setToolTip(tr("Show as 0x hex the integers of columns named like addresses (phy_first, phy_last, "
                              "linear, pc, names with “addr”) and of their min() and max(); not other "
                              "expressions, nor an alias named otherwise"));
    m_hexCheck->setChecked(true);

    m_editor = new QPlainTextEdit(this);
    m_editor->setObjectName(QStringLiteral("statementEditor"));
    m_editor->setFont(fixed);
    m_editor->setPlaceholderText(tr("SELECT … FROM accesses …   (read-only; Ctrl+Return runs)"));
    m_editor->setTabChangesFocus(true);
    m_editor->setMinimumHeight(QFontMetrics(fixed).lineSpacing() * 3 + 12);
    for (const QKeySequence &keys :
        { QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter) }) {
        auto *shortcut = new QShortcut(keys, this);
        shortcut->setContext(Qt::WidgetWithChildrenShortcut);
        connect(shortcut, &QShortcut::activated, this, &SqlConsole::runStatement);
    }

    m_messageLabel = new QLabel(this);
    m_messageLabel->setObjectName(QStringLiteral("messageLabel"));
    m_messageLabel->setWordWrap(true);
    m_messageLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_messageLabel->setFrameShape(QFrame::StyledPanel);
    m_messageLabel->setMargin(4);
    m_messageLabel->hide();

    m_model = new SqlResultsModel(this);
    m_model->setHexAddresses(m_hexCheck->isChecked());
    connect(m_hexCheck, &QCheckBox::toggled, m_model, &SqlResultsModel::setHexAddresses);
    connect(m_model, &SqlResultsModel::fetchRequested, this, &SqlConsole::requestMoreRows);
    m_view = new QTableView(this);
    m_view->setObjectName(QStringLiteral("sqlResultsView"));
    m_view->setModel(m_model);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->setFont(fixed);
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->verticalHeader()->setDefaultSectionSize(QFontMetrics(fixed).height() + 6);
    m_view->verticalHeader()->hide();

    m_statusLabel = new QLabel(this);
    m_statusLabel->setObjectName(QStringLiteral("statusLabel"));

    // The statement above, the results below, the border between them where the user wants it.
    auto *top = new QWidget(this);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_examplesCombo);
    buttons->addWidget(m_hexCheck);
    buttons->addStretch(1);
    buttons->addWidget(m_stopButton);
    buttons->addWidget(m_runButton);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(m_editor, 1);
    topLayout->addLayout(buttons);
    topLayout->addWidget(m_messageLabel);
    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->setChildrenCollapsible(false);
    splitter->addWidget(top);
    splitter->addWidget(m_view);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    // The editor starts at its few lines, the results get the rest: a statement is short, its
    // answer is what is read.
    splitter->setSizes({ top->minimumSizeHint().height(), 4000 });
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(splitter, 1);
    layout->addWidget(m_statusLabel);

    m_elapsedTimer = new QTimer(this);
    m_elapsedTimer->setInterval(elapsedUpdateMilliseconds);
    connect(m_elapsedTimer, &QTimer::timeout, this, [this] {
        m_statusLabel->setText(
            tr("Running… %1 s").arg(QLocale().toString(double(m_runTimer.elapsed()) / 1000.0, 'f', 1)));
    });

    // The worker and its connection: created, used and closed in their own thread only.
    m_thread
        = std::make_unique<ConnectionThread<SqlWorker>>(this, QStringLiteral("SqlConsoleWorker"), m_connectionName);

    setHistory(QString());
}

// A statement in progress ends at its next VM instruction (interrupted); then the connection closes
// in its own thread, and only then does the thread stop (~ConnectionThread).
SqlConsole::~SqlConsole() = default;

void SqlConsole::setHistory(const QString &path)
{
    if (m_running) {
        m_thread->worker().interrupt();
        setRunning(false);
        emit statementFinished(false, tr("Stopped: another history was opened"));
    } else if (m_model->isFetching()) {
        m_thread->worker().interrupt();
    }
    // Whatever the worker still sends for the previous history is stale from here on.
    m_thread->cancel();
    m_model->clear();
    m_historyPath = path;
    m_stopRequested = false;
    m_historyOpen = false;
    m_openFailed = false;
    m_lastError.clear();
    m_messageLabel->hide();
    // Answered whatever runs meanwhile: receiveOpened() checks that the path is still this one.
    m_thread->post([path](SqlWorker &worker) { return worker.open(path); },
        [this](const SqlOpenResult &result) { receiveOpened(result); });
    m_statusLabel->setText(path.isEmpty() ? tr("No history open") : tr("Opening %1…").arg(path));
    updateButtons();
}

void SqlConsole::receiveOpened(const SqlOpenResult &result)
{
    // An answer for a history that has since been replaced.
    if (result.path != m_historyPath)
        return;
    m_historyOpen = result.ok && !result.path.isEmpty();
    m_openFailed = !result.ok;
    if (result.path.isEmpty())
        return;
    QString message;
    if (result.ok) {
        message = tr("Read-only connection to %1").arg(result.path);
        if (!m_running)
            m_statusLabel->setText(message);
    } else {
        message = tr("Cannot open %1: %2").arg(result.path, result.error);
        showError(message);
        m_statusLabel->setText(tr("No history open"));
    }
    updateButtons();
    emit historyOpened(result.ok, message);
}

void SqlConsole::setStatement(const QString &sql)
{
    m_editor->setPlainText(sql);
}

QString SqlConsole::statement() const
{
    return m_editor->toPlainText();
}

void SqlConsole::setRunning(bool running)
{
    m_running = running;
    if (running)
        m_elapsedTimer->start();
    else
        m_elapsedTimer->stop();
    updateButtons();
}

void SqlConsole::updateButtons()
{
    m_stopButton->setEnabled(m_running || m_model->isFetching());
    // Enabled while the history is still opening: the worker handles requests in order.
    const bool usable = !m_historyPath.isEmpty() && !m_openFailed;
    m_runButton->setEnabled(!m_running && usable);
    m_editor->setReadOnly(m_running);
    m_examplesCombo->setEnabled(!m_running);
}

void SqlConsole::showError(const QString &message)
{
    // A red that stays legible on light and dark backgrounds.
    const bool dark = palette().color(QPalette::Window).lightness() < 128;
    QPalette palette = m_messageLabel->palette();
    palette.setColor(QPalette::WindowText, dark ? QColor(0xff, 0x8a, 0x80) : QColor(0xb7, 0x1c, 0x1c));
    m_messageLabel->setPalette(palette);
    m_lastError = message;
    m_messageIsError = true;
    m_messageLabel->setText(message);
    m_messageLabel->show();
}

void SqlConsole::showNote(const QString &message)
{
    m_messageLabel->setPalette(QPalette());
    m_messageIsError = false;
    m_messageLabel->setText(message);
    m_messageLabel->show();
}

bool SqlConsole::runStatement()
{
    if (m_running)
        return false;
    const QString sql = statement().trimmed();
    QString message;
    if (m_historyPath.isEmpty() || m_openFailed)
        message = tr("No history open");
    else if (sql.isEmpty())
        message = tr("Type a statement first, or pick one of the examples");
    if (!message.isEmpty()) {
        showError(message);
        emit statementFinished(false, message);
        return false;
    }

    m_messageLabel->hide();
    m_lastError.clear();
    m_stopRequested = false;
    // The previous result goes now: its rows are not this statement's.
    m_model->clear();
    m_runTimer.start();
    setRunning(true);
    m_statusLabel->setText(tr("Running…"));
    m_thread->post(
        m_thread->supersede(),
        [sql](SqlWorker &worker, const JobTicket &ticket) { return worker.run(ticket.generation(), sql, batchSize); },
        [this](const SqlBatch &batch) { receiveBatch(batch); });
    return true;
}

void SqlConsole::stop()
{
    if (m_running || m_model->isFetching()) {
        m_stopRequested = true;
        m_thread->worker().interrupt();
    }
}

void SqlConsole::requestMoreRows()
{
    m_thread->post(
        m_thread->current(),
        [](SqlWorker &worker, const JobTicket &ticket) { return worker.fetch(ticket.generation(), batchSize); },
        [this](const std::optional<SqlBatch> &batch) {
            if (batch)
                receiveBatch(*batch);
        });
    updateButtons();
    updateRowStatus();
}

void SqlConsole::receiveBatch(const SqlBatch &batch)
{
    // Only batches of the statement the console shows arrive here: the ticket drops the others.
    // SQLite ends an interrupted statement with "interrupted": after the user's Stop, that is no error.
    const bool stopRequested = std::exchange(m_stopRequested, false);
    const bool stopped = !batch.ok && stopRequested && batch.error == QLatin1String("interrupted");
    if (!batch.first) {
        m_model->appendRows(batch.rows, batch.ok && batch.more);
        if (stopped)
            showNote(tr("Stopped: no more rows fetched"));
        else if (!batch.ok)
            showError(tr("Error while fetching more rows: %1").arg(batch.error));
        updateButtons();
        updateRowStatus();
        return;
    }

    const qint64 milliseconds = m_runTimer.elapsed();
    setRunning(false);
    if (!batch.ok) {
        // SQLite's own words ("attempt to write a readonly database", "no such table: x").
        const QString message = tr("Error: %1").arg(batch.error);
        m_model->clear();
        if (stopped) {
            m_lastError = message;
            showNote(tr("Stopped: the statement was interrupted, as asked"));
            m_statusLabel->setText(tr("Stopped after %1 ms").arg(milliseconds));
        } else {
            showError(message);
            m_statusLabel->setText(tr("Failed after %1 ms").arg(milliseconds));
        }
        emit statementFinished(false, message);
        return;
    }
    m_model->setResult(batch.columns, batch.rows, batch.more);
    m_view->resizeColumnsToContents();
    for (int column = 0; column < m_model->columnCount(); ++column)
        m_view->setColumnWidth(column, std::min(m_view->columnWidth(column), maxColumnWidth));
    updateButtons();
    updateRowStatus();
    emit statementFinished(true, tr("Done in %1 ms").arg(milliseconds));
}

void SqlConsole::updateRowStatus()
{
    if (m_running)
        return;
    const int rows = m_model->rowCount();
    const int columns = m_model->columnCount();
    if (columns == 0) {
        m_statusLabel->setText(tr("Statement done, no result rows"));
        return;
    }
    const QString count = rows == 1 ? tr("1 row") : tr("%1 rows").arg(countText(quint64(rows)));
    if (m_model->isFetching())
        m_statusLabel->setText(tr("%1 shown, fetching more…").arg(count));
    else if (m_model->hasMore())
        m_statusLabel->setText(tr("%1 shown, more on scroll").arg(count));
    else
        m_statusLabel->setText(count);
}

} // namespace memhist
