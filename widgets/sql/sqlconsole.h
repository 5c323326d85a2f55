// A SQL console on the open history: one statement at a time on the console's own read-only
// connection, results in a table that fetches more rows as it scrolls.
//
// Why the statement runs in the GUI thread: QSqlQueryModel fetches rows lazily from a live
// statement, and a Qt SQL connection may only be used by the thread that opened it, so the rows
// cannot come from a worker's connection without copying every one of them. Instead, while a
// statement runs, a SQLite progress handler on the console's connection lets the event loop run
// (at most 25 times a second), so the window repaints and Stop stays clickable; Stop calls
// sqlite3_interrupt() on the connection's handle and the statement ends with "interrupted". The
// console's other inputs are disabled meanwhile, so nothing re-enters the running statement.
// What this covers: the statement's first step, where SQLite does the work of a GROUP BY, ORDER BY
// or aggregate. Not covered: rows fetched later as the table scrolls (QSqlQueryModel::fetchMore
// runs without the handler), so a sparse filter over a huge table can still pause a scroll.
#pragma once

#include <QElapsedTimer>
#include <QSqlDatabase>
#include <QWidget>
#include <optional>

struct sqlite3;

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QSqlQueryModel;
class QTableView;

namespace memhist {

class SqlConsole : public QWidget
{
    Q_OBJECT

public:
    explicit SqlConsole(QWidget *parent = nullptr);
    ~SqlConsole() override;

    // Opens `path` read-only on a connection of this console alone (an empty path closes it). If a
    // statement is running it is stopped first.
    void setHistory(const QString &path);
    QString history() const { return m_historyPath; }
    // The Qt SQL connection name, unique to this console.
    QString connectionName() const { return m_connectionName; }

    void setStatement(const QString &sql);
    QString statement() const;

    // Runs the editor's statement (what Run and Ctrl+Return do). Returns when its first rows are
    // in the table or it failed; statementFinished reports the outcome either way.
    bool runStatement();
    // Interrupts the running statement, if any.
    void stop();
    bool isRunning() const { return m_running; }

    QSqlQueryModel *resultsModel() const { return m_model; }
    // SQLite's message for the last failure, empty after a success.
    QString lastError() const { return m_lastError; }

signals:
    void statementFinished(bool ok, const QString &message);

private:
    static int progressHandler(void *console);
    void keepResponsive();
    void setRunning(bool running);
    void showError(const QString &message);
    void updateRowStatus();
    void closeDatabase();

    QString m_historyPath;
    QString m_connectionName;
    QSqlDatabase m_database;
    sqlite3 *m_handle = nullptr;
    bool m_running = false;
    bool m_modelResetting = false;
    std::optional<QString> m_deferredHistory; // setHistory() during a run applies when it ends
    QElapsedTimer m_runTimer;
    qint64 m_lastEventsAt = 0;
    QString m_lastError;

    QComboBox *m_examplesCombo = nullptr;
    QPlainTextEdit *m_editor = nullptr;
    QPushButton *m_runButton = nullptr;
    QPushButton *m_stopButton = nullptr;
    QLabel *m_messageLabel = nullptr;
    QTableView *m_view = nullptr;
    QLabel *m_statusLabel = nullptr;
    QSqlQueryModel *m_model = nullptr;
};

} // namespace memhist
