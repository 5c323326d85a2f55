// SPDX-License-Identifier: MIT
// A SQL console on the open history: one statement at a time on the console's own read-only
// connection, results in a table that fetches more rows as it scrolls.
//
// Why a worker thread: a statement such as a GROUP BY over 10^7 accesses takes seconds inside its
// first sqlite3_step(). Running it in the GUI thread means either a frozen window or re-entering
// the event loop from inside SQLite, where a repaint reads a model whose statement is mid-step
// (the crash this design replaces). So the connection lives in a SqlWorker, in a thread of the
// console's own, and is opened, used and closed only there. The worker sends rows in batches
// (the first batchSize, then one batch per fetchMore() of the view) as plain values; the model in
// the GUI thread never touches SQLite. Each statement has a ticket (ConnectionThread): answers for
// an older one (after setHistory() or a new run) are dropped. Stop calls sqlite3_interrupt(), the one SQLite
// call documented as safe from another thread.
#pragma once

#include <QElapsedTimer>
#include <QWidget>
#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableView;
class QTimer;

namespace memhist {

template<typename Worker> class ConnectionThread;
class SqlResultsModel;
class SqlWorker;
struct SqlBatch;
struct SqlOpenResult;

class SqlConsole : public QWidget
{
    Q_OBJECT

public:
    // Rows per delivery: the first screenfuls at once, the rest as the view scrolls.
    static constexpr int batchSize = 1000;

    explicit SqlConsole(QWidget *parent = nullptr);
    ~SqlConsole() override;

    // Opens `path` read-only on a connection of this console alone (an empty path closes it), in
    // the background: historyOpened reports the outcome. A running statement is stopped first and
    // reported as stopped.
    void setHistory(const QString &path);
    QString history() const { return m_historyPath; }
    // The Qt SQL connection name, unique to this console.
    QString connectionName() const { return m_connectionName; }

    void setStatement(const QString &sql);
    QString statement() const;

    // Starts the editor's statement (what Run and Ctrl+Return do) in the background. Returns false
    // when it cannot start (no history, an empty editor, a statement already running);
    // statementFinished reports the outcome either way, once the first rows are in the table.
    bool runStatement();
    // Interrupts the running statement, or a fetch of more rows, if any.
    void stop();
    bool isRunning() const { return m_running; }

    SqlResultsModel *resultsModel() const { return m_model; }
    // SQLite's message for the last failure, empty after a success.
    QString lastError() const { return m_lastError; }
    // Whether the message under the editor is an error (red) or a note (a user's Stop).
    bool messageIsError() const { return m_messageIsError; }

signals:
    void statementFinished(bool ok, const QString &message);
    void historyOpened(bool ok, const QString &message);

private:
    void receiveOpened(const memhist::SqlOpenResult &result);
    void receiveBatch(const memhist::SqlBatch &batch);
    void requestMoreRows();
    void setRunning(bool running);
    void updateButtons();
    void showError(const QString &message);
    // A neutral message in the error's place: what the user asked for happened (Stop).
    void showNote(const QString &message);
    void updateRowStatus();

    QString m_historyPath;
    QString m_connectionName;
    bool m_historyOpen = false; // the worker reported the current history open
    bool m_openFailed = false;
    bool m_running = false;
    bool m_stopRequested = false; // the user's Stop, until the statement or fetch it stopped ends
    bool m_messageIsError = false;
    QElapsedTimer m_runTimer;
    QString m_lastError;

    // The connection's thread; its current ticket is the statement the model shows or will show.
    std::unique_ptr<ConnectionThread<SqlWorker>> m_thread;
    QTimer *m_elapsedTimer = nullptr;

    QComboBox *m_examplesCombo = nullptr;
    QPlainTextEdit *m_editor = nullptr;
    QPushButton *m_runButton = nullptr;
    QPushButton *m_stopButton = nullptr;
    QCheckBox *m_hexCheck = nullptr;
    QLabel *m_messageLabel = nullptr;
    QTableView *m_view = nullptr;
    QLabel *m_statusLabel = nullptr;
    SqlResultsModel *m_model = nullptr;
};

} // namespace memhist
