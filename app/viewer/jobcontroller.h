// SPDX-License-Identifier: MIT
// The viewer's background jobs and their order: opening a history (its summary read off the GUI
// thread), importing traces, recording a program. One import or recording at a time, its progress
// and its Cancel button in the status bar's JobProgressWidget. The controller shows no dialog: the
// window chooses where an import goes (through a callback), shows the errors and loads the panels
// when a history is ready.
#pragma once

#include "historyinfo.h"
#include "importdialog.h"
#include "widgets/common/jobtracker.h"

#include <QObject>
#include <QPointer>
#include <functional>
#include <optional>

namespace memhist::viewer {

class ImportJob;
class JobProgressWidget;
class RecordJob;
struct ImportResult;
struct RecordRequest;

class JobController : public QObject
{
    Q_OBJECT
public:
    // Drives `progress` (begin, progress, end) and stops the job when its Cancel is clicked.
    explicit JobController(JobProgressWidget *progress, QObject *parent = nullptr);
    ~JobController() override;

    // The `memhist` command line that record() runs. Empty (the default) means findMemhistCli():
    // beside memhist-viewer or in PATH.
    void setMemhistCli(const QString &path) { m_memhistCli = path; }
    QString memhistCli() const;
    // Asked where an import goes and which part of the traces it holds, when the caller wants the
    // user asked: gets the traces and the default output, returns the choice, or nothing when the
    // user changed their mind.
    using ImportChooser
        = std::function<std::optional<ImportChoice>(const QStringList &traces, const QString &suggestedOutput)>;
    void setImportChooser(ImportChooser chooser) { m_chooseImport = std::move(chooser); }

    // A .memhist (recognised by the SQLite magic, whatever its name) opens; anything else is taken
    // for a trace and imported beside it.
    void openPath(const QString &path);
    // Reads the history's summary in the background, then historyReady(). A newer open request
    // replaces an older one still reading. `openedStatus`, when given, is what the status line
    // should say once it is open (a recording's summary), instead of "Opened …".
    void openHistory(const QString &path, const QString &openedStatus = QString());
    // Imports `traces` (files or trace directories) in the background into one history, in order,
    // then opens it. With `askForOutput` the output chooser picks where it goes, else it goes
    // beside the first trace (see importoutput.h).
    void importTraces(const QStringList &traces, bool askForOutput);
    // Runs `memhist record` in the background, then opens what it recorded. As an import, it
    // replaces an existing file only with `request.replaceConfirmed` (the Record dialog asked the
    // user); without it, an existing output is refused (failed()) and nothing runs.
    void record(const RecordRequest &request);

    // An import or a recording is running.
    bool isBusy() const;
    // Stops the import (nothing is left behind) or the recording (what it recorded is kept).
    void cancel();

signals:
    // The summary of `path` (absolute) has been read: the window loads it.
    void historyReady(const QString &path, const memhist::viewer::HistoryInfo &info, const QString &openedStatus);
    // Something went wrong: the window says so (`title` for a dialog, `message` the reason).
    void failed(const QString &title, const QString &message);
    // A line for the status bar.
    void statusChanged(const QString &message);
    void importFinished(bool ok, const QString &message);
    void recordFinished(bool ok, const QString &message);
    // The import into `historyPath` succeeded with these warnings (sent before historyReady()).
    void importWarned(const QString &historyPath, const QStringList &warnings);
    // Something to keep in the window's log: a recorded program's output, an import's warnings.
    void logged(const QString &heading, const QString &text);

private:
    // True, after failed(title, …), when `output` exists and replacing it was not confirmed.
    bool refusesToReplace(const QString &title, const QString &output, bool replaceConfirmed);
    void importDone(const ImportResult &result);
    void recordDone(bool ok, const QString &message);

    JobProgressWidget *m_progress;
    JobTracker m_opening { this }; // the summary of the history being opened
    QPointer<ImportJob> m_importJob;
    QPointer<RecordJob> m_recordJob;
    QString m_memhistCli;
    ImportChooser m_chooseImport;
};

} // namespace memhist::viewer
