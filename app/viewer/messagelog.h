// SPDX-License-Identifier: MIT
// The Log panel: what the viewer must not lose when the status line moves on — an import's warnings,
// a recorded program's output — each under a heading with the time it came, newest last.
#pragma once

#include <QWidget>

class QPlainTextEdit;

namespace memhist::viewer {

class MessageLog : public QWidget
{
    Q_OBJECT
public:
    explicit MessageLog(QWidget *parent = nullptr);

    // Appends "[hh:mm:ss] heading" and `text` below it, and scrolls to them.
    void append(const QString &heading, const QString &text);
    // Everything logged, as shown.
    QString text() const;

signals:
    void appended(const QString &heading);

private:
    QPlainTextEdit *m_view;
};

} // namespace memhist::viewer
