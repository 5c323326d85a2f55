// SPDX-License-Identifier: MIT
// File > Record Program...: which program to run, with which arguments, for how long, whether
// instruction fetches are stored too, and where the history goes — the choices of `memhist record`
// (which has no --skip-instructions: a recording starts with the program).
#pragma once

#include "importoutput.h"
#include "recordjob.h"

#include <QDialog>

class QCheckBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace memhist::viewer {

// Splits `text` into words as a POSIX shell would, without expansions: blanks separate words,
// '…' quotes literally, "…" quotes with a backslash escaping \\, ", $ and `, and a backslash
// outside quotes escapes the next character. Sets `*ok` to false (and returns what it has) on an unclosed quote.
QStringList splitShellWords(const QString &text, bool *ok = nullptr);

class RecordDialog : public QDialog
{
    Q_OBJECT
public:
    explicit RecordDialog(QWidget *parent = nullptr);

    // With replaceConfirmed set when accept() asked about this output and the user said yes.
    RecordRequest request() const;

    // As the Import dialog: the history open in the window is named as such when the recording
    // would replace it, and the question is asked by `confirmer` (a message box by default).
    void setOpenHistory(const QString &path) { m_replace.setOpenHistory(path); }
    void setReplaceConfirmer(ReplaceConfirmer confirmer) { m_replace.setConfirmer(std::move(confirmer)); }

    // Record: when the output exists, asks first; a "no" keeps the dialog open to choose another name.
    void accept() override;

private:
    void browseProgram();
    void browseOutput();
    void updateOutputFromProgram();
    void validate();

    QLineEdit *m_program;
    QLineEdit *m_arguments;
    QCheckBox *m_limit;
    QSpinBox *m_maxMillions;
    QCheckBox *m_withExecute;
    QLineEdit *m_output;
    QLabel *m_problem;
    QDialogButtonBox *m_buttons;
    bool m_outputEdited = false;
    ReplaceConfirmation m_replace;
};

} // namespace memhist::viewer
