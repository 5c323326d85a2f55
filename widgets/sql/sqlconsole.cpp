#include "sqlconsole.h"

#include "sqlexamples.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QShortcut>
#include <QSplitter>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlQueryModel>
#include <QTableView>
#include <QVBoxLayout>
#include <sqlite3.h>

namespace memhist {

namespace {

// SQLite calls the progress handler every this many virtual machine instructions (~a millisecond).
constexpr int progressInstructions = 20000;
// The event loop runs at most this often during a statement: repaints at 25 Hz.
constexpr qint64 eventIntervalMilliseconds = 40;

int connectionCounter = 0;

// Numbers right-aligned, as in every other table of the viewer; the rest as QSqlQueryModel shows it.
class ConsoleQueryModel : public QSqlQueryModel
{
public:
    using QSqlQueryModel::QSqlQueryModel;

    QVariant data(const QModelIndex &index, int role) const override
    {
        if (role == Qt::TextAlignmentRole) {
            const int type = QSqlQueryModel::data(index, Qt::DisplayRole).typeId();
            const bool number = type == QMetaType::LongLong || type == QMetaType::Int || type == QMetaType::Double;
            return QVariant::fromValue(number ? Qt::AlignRight | Qt::AlignVCenter : Qt::AlignLeft | Qt::AlignVCenter);
        }
        return QSqlQueryModel::data(index, role);
    }
};

// Widest a column grows when sized to its contents: a long text value must not push the others away.
constexpr int maxColumnWidth = 360;

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
    m_stopButton->setEnabled(false);
    connect(m_stopButton, &QPushButton::clicked, this, &SqlConsole::stop);

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

    m_model = new ConsoleQueryModel(this);
    m_view = new QTableView(this);
    m_view->setObjectName(QStringLiteral("sqlResultsView"));
    m_view->setModel(m_model);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->setFont(fixed);
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->verticalHeader()->setDefaultSectionSize(QFontMetrics(fixed).height() + 6);
    m_view->verticalHeader()->hide();
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &SqlConsole::updateRowStatus);
    connect(m_model, &QAbstractItemModel::modelAboutToBeReset, this, [this] { m_modelResetting = true; });
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] { m_modelResetting = false; });

    m_statusLabel = new QLabel(this);
    m_statusLabel->setObjectName(QStringLiteral("statusLabel"));

    // The statement above, the results below, the border between them where the user wants it.
    auto *top = new QWidget(this);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_examplesCombo);
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
    splitter->setSizes({ QFontMetrics(fixed).lineSpacing() * 8 + 60, 400 });
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(splitter, 1);
    layout->addWidget(m_statusLabel);

    setHistory(QString());
}

SqlConsole::~SqlConsole()
{
    stop();
    closeDatabase();
}

void SqlConsole::closeDatabase()
{
    // The model's statement must be finalized before the connection closes.
    m_model->clear();
    m_handle = nullptr;
    if (m_database.isValid()) {
        m_database.close();
        m_database = QSqlDatabase();
        QSqlDatabase::removeDatabase(m_connectionName);
    }
}

void SqlConsole::setHistory(const QString &path)
{
    if (m_running) {
        m_deferredHistory = path;
        stop();
        return;
    }
    closeDatabase();
    m_historyPath = path;
    m_lastError.clear();
    m_messageLabel->hide();
    const bool open = !path.isEmpty();
    if (open) {
        m_database = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connectionName);
        m_database.setDatabaseName(path);
        // Read-only at the SQLite level: no statement typed here can change the history.
        m_database.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY"));
        if (!m_database.open()) {
            showError(tr("Cannot open %1: %2").arg(path, m_database.lastError().text()));
        } else {
            const QVariant handle = m_database.driver()->handle();
            if (handle.isValid() && qstrcmp(handle.typeName(), "sqlite3*") == 0)
                m_handle = *static_cast<sqlite3 *const *>(handle.constData());
        }
    }
    m_runButton->setEnabled(open && m_database.isOpen());
    m_statusLabel->setText(open ? tr("Read-only connection to %1").arg(path) : tr("No history open"));
}

void SqlConsole::setStatement(const QString &sql)
{
    m_editor->setPlainText(sql);
}

QString SqlConsole::statement() const
{
    return m_editor->toPlainText();
}

int SqlConsole::progressHandler(void *console)
{
    static_cast<SqlConsole *>(console)->keepResponsive();
    return 0; // never aborts by itself: Stop uses sqlite3_interrupt()
}

void SqlConsole::keepResponsive()
{
    // Not while the model is being reset around its first rows: views must not read a model
    // between beginResetModel() and endResetModel().
    if (m_modelResetting)
        return;
    const qint64 now = m_runTimer.elapsed();
    if (now - m_lastEventsAt < eventIntervalMilliseconds)
        return;
    m_lastEventsAt = now;
    m_statusLabel->setText(tr("Running… %1 s").arg(QLocale().toString(double(now) / 1000.0, 'f', 1)));
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
}

void SqlConsole::setRunning(bool running)
{
    m_running = running;
    m_stopButton->setEnabled(running);
    m_runButton->setEnabled(!running && m_database.isOpen());
    m_editor->setReadOnly(running);
    m_examplesCombo->setEnabled(!running);
}

void SqlConsole::showError(const QString &message)
{
    // A red that stays legible on light and dark backgrounds.
    const bool dark = palette().color(QPalette::Window).lightness() < 128;
    QPalette palette = m_messageLabel->palette();
    palette.setColor(QPalette::WindowText, dark ? QColor(0xff, 0x8a, 0x80) : QColor(0xb7, 0x1c, 0x1c));
    m_messageLabel->setPalette(palette);
    m_lastError = message;
    m_messageLabel->setText(message);
    m_messageLabel->show();
}

bool SqlConsole::runStatement()
{
    if (m_running)
        return false;
    const QString sql = statement().trimmed();
    QString message;
    if (!m_database.isOpen()) {
        message = tr("No history open");
        showError(message);
        emit statementFinished(false, message);
        return false;
    }
    if (sql.isEmpty()) {
        message = tr("Type a statement first, or pick one of the examples");
        showError(message);
        emit statementFinished(false, message);
        return false;
    }

    setRunning(true);
    m_messageLabel->hide();
    m_lastError.clear();
    // Finalizes the previous statement before the next one starts.
    m_model->clear();
    m_runTimer.start();
    m_lastEventsAt = 0;
    if (m_handle) {
        sqlite3_progress_handler(m_handle, progressInstructions, &SqlConsole::progressHandler, this);
    }

    QSqlQuery query(m_database);
    bool ok = query.exec(sql);
    QSqlError error = query.lastError();
    if (ok && query.isSelect()) {
        // The model steps the statement for its first rows: still under the progress handler.
        m_model->setQuery(std::move(query));
        error = m_model->lastError();
        ok = !error.isValid();
    }
    if (m_handle)
        sqlite3_progress_handler(m_handle, 0, nullptr, nullptr);
    const qint64 milliseconds = m_runTimer.elapsed();
    setRunning(false);

    if (!ok) {
        // SQLite's own words ("attempt to write a readonly database", "no such table: x").
        const QString reason = error.databaseText().isEmpty() ? error.text() : error.databaseText();
        message = tr("Error: %1").arg(reason);
        m_model->clear();
        showError(message);
        m_statusLabel->setText(tr("Failed after %1 ms").arg(milliseconds));
    } else {
        message = tr("Done in %1 ms").arg(milliseconds);
        m_view->resizeColumnsToContents();
        for (int column = 0; column < m_model->columnCount(); ++column)
            m_view->setColumnWidth(column, std::min(m_view->columnWidth(column), maxColumnWidth));
        updateRowStatus();
    }
    if (m_deferredHistory) {
        const QString path = *m_deferredHistory;
        m_deferredHistory.reset();
        setHistory(path);
    }
    emit statementFinished(ok, message);
    return ok;
}

void SqlConsole::stop()
{
    if (m_running && m_handle)
        sqlite3_interrupt(m_handle);
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
    const QString count = rows == 1 ? tr("1 row") : tr("%1 rows").arg(QLocale().toString(rows));
    if (m_model->canFetchMore())
        m_statusLabel->setText(tr("%1 shown, more on scroll").arg(count));
    else
        m_statusLabel->setText(count);
}

} // namespace memhist
