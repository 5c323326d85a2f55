// SPDX-License-Identifier: MIT
// File > Import Traces...: where the history goes and which part of the traces it holds — the
// same choices as `memhist import` (-o, --with-exec, --skip-instructions, --max-instructions).
#pragma once

#include "core/importers/traceimporter.h"
#include "importoutput.h"

#include <QDialog>
#include <optional>

class QCheckBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;

namespace memhist::viewer {

// What the user chose for one import.
struct ImportChoice
{
    QString output;
    ImportOptions options;
    // The user was told that `output` exists (and whether it is the history open in the window) and
    // chose to replace it. Without it an import never replaces a file (JobController refuses).
    bool replaceConfirmed = false;
};

// Reads the window's two fields as `memhist import` reads its options: decimal or 0x hex, the
// full 64-bit range; an empty "skip" is 0 and an empty "at most" is no limit. False + *error (naming
// the field and the reason) otherwise.
bool parseImportWindow(const QString &skip, const QString &atMost, ImportOptions *options, QString *error);

class ImportDialog : public QDialog
{
    Q_OBJECT
public:
    ImportDialog(const QStringList &traces, const QString &suggestedOutput, QWidget *parent = nullptr);

    // Valid once the dialog was accepted (its Import button is enabled only for valid fields).
    ImportChoice choice() const;

    // The history open in the window, named as such when the user is about to replace it.
    void setOpenHistory(const QString &path) { m_replace.setOpenHistory(path); }
    // Asks replaceQuestion()'s question (askToReplace() unless a test answers instead).
    void setReplaceConfirmer(ReplaceConfirmer confirmer) { m_replace.setConfirmer(std::move(confirmer)); }

    // Import: when the output exists, asks first; a "no" keeps the dialog open to choose another name.
    void accept() override;

private:
    void browseOutput();
    void validate();

    QLineEdit *m_output;
    QCheckBox *m_withExecute;
    QLineEdit *m_skip;
    QLineEdit *m_atMost;
    QLabel *m_problem;
    QDialogButtonBox *m_buttons;
    ReplaceConfirmation m_replace;
};

} // namespace memhist::viewer
