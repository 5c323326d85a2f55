// SPDX-License-Identifier: MIT
// The "Go to transition" and "Go to address or symbol" dialogs: one line edit (with completion when
// given a completer) and an inline message, wrapped and whole however long; OK runs `go`, which says
// why the text is refused (the dialog then stays open) or goes there.
#pragma once

#include "core/model/types.h"

#include <QDialog>
#include <functional>

class QCompleter;
class QLabel;
class QLineEdit;

namespace memhist::viewer {

// Why transition `value` is not one of a history's, whose transitions are first..last: "150,000 is
// after the last transition (149,092)." or "… before the first transition (1)."; empty inside.
QString transitionOutOfRange(std::uint64_t value, Transition first, Transition last);
// What the Go to Transition field suggests for a history of transitions first..last: the middle
// one, as the viewer shows transitions ("74,546").
QString transitionPlaceholder(Transition first, Transition last);

class GoToDialog : public QDialog
{
    Q_OBJECT

public:
    // `go(text, &error)`: true when it went there.
    using Go = std::function<bool(const QString &text, QString *error)>;

    GoToDialog(
        const QString &title, const QString &label, const QString &placeholder, Go go, QWidget *parent = nullptr);

    void setCompleter(QCompleter *completer);
    QLineEdit *edit() const { return m_edit; }
    QString errorText() const;

    void accept() override;

private:
    // The refusal `error` under the field, whole: the dialog grows to the wrapped text's height.
    void showError(const QString &error);

    Go m_go;
    QLineEdit *m_edit = nullptr;
    QLabel *m_error = nullptr;
};

} // namespace memhist::viewer
