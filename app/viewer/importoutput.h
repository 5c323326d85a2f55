// SPDX-License-Identifier: MIT
// Where a history imported or recorded by the viewer goes when the user is not asked.
#pragma once

#include <QObject>
#include <QString>
#include <functional>

class QWidget;

namespace memhist::viewer {

// "echo_hello.small.lackey.gz" -> "echo_hello.small", "run.tracedir" -> "run": the trace's name
// without its compression and trace-format suffixes.
QString historyBaseName(const QString &tracePath);

// NAME.memhist in `preferredDirectory` when it is writable, else in the application's data
// directory (QStandardPaths::AppDataLocation, created when missing).
QString defaultHistoryPath(const QString &baseName, const QString &preferredDirectory);

// The default output of importing `firstTrace` (and the traces after it): beside the first trace.
QString defaultImportOutput(const QString &firstTrace);

// `path` when nothing is there, else the first free "NAME-2.memhist", "NAME-3.memhist", ... beside
// it: the default output of an import or a recording never replaces an existing history.
QString freeHistoryPath(const QString &path);

// What to ask before an import or a recording writes `output`: empty when nothing is there,
// "NAME.memhist exists — Replace it?" when a file is, and "NAME.memhist is the history open in this
// window — Replace it with `replacement`?" when it is `openHistory`.
QString replaceQuestion(
    const QString &output, const QString &openHistory, const QString &replacement = QObject::tr("this import"));

// The same file, even through a symbolic link or a relative path (by their absolute paths when
// either does not exist).
bool sameFile(const QString &a, const QString &b);

// Asks replaceQuestion()'s question; true means replace. The Import and Record dialogs use
// askToReplace() unless a test answers instead.
using ReplaceConfirmer = std::function<bool(QWidget *parent, const QString &question)>;
// Asks `question` in a message box with Replace and Cancel (Cancel the default); true: replace.
bool askToReplace(QWidget *parent, const QString &question);

// The Import and Record dialogs' side of replacing a history: when the user accepts and the output
// exists, replaceQuestion()'s question is asked, and a yes is remembered for that output (the
// dialog's choice carries it, and JobController refuses to replace a file without it).
class ReplaceConfirmation
{
public:
    // The history open in the window, named as such in the question.
    void setOpenHistory(const QString &path) { m_openHistory = path; }
    // Who answers the question: askToReplace() unless a test answers instead.
    void setConfirmer(ReplaceConfirmer confirmer) { m_confirm = std::move(confirmer); }

    // True when nothing is at `output`, or when the user agreed to replace it with `replacement`
    // ("this import"); false when they did not.
    bool ask(QWidget *parent, const QString &output, const QString &replacement);
    // The user agreed to replace `output`.
    bool confirmed(const QString &output) const { return !m_confirmedOutput.isEmpty() && output == m_confirmedOutput; }

private:
    QString m_openHistory;
    QString m_confirmedOutput;
    ReplaceConfirmer m_confirm = askToReplace;
};

} // namespace memhist::viewer
