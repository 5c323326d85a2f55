// The "Go to transition" and "Go to address or symbol" dialogs: one line edit (with completion when
// given a completer) and an inline message; OK runs `go`, which says why the text is refused (the
// dialog then stays open) or goes there.
#pragma once

#include <QDialog>
#include <functional>

class QCompleter;
class QLabel;
class QLineEdit;

namespace memhist::viewer {

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
    Go m_go;
    QLineEdit *m_edit = nullptr;
    QLabel *m_error = nullptr;
};

} // namespace memhist::viewer
