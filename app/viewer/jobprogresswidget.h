// SPDX-License-Identifier: MIT
// The status bar's view of a running background job (an import or a recording): what it is doing,
// a progress bar (busy when the job cannot tell how far it is) and a Cancel button.
#pragma once

#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;

namespace memhist::viewer {

class JobProgressWidget : public QWidget
{
    Q_OBJECT
public:
    explicit JobProgressWidget(QWidget *parent = nullptr);

    // Shows the widget for a new job; `fraction` < 0 means "cannot tell" (a busy bar).
    void begin(const QString &text);
    void setProgress(double fraction, const QString &text);
    void end();

signals:
    void cancelClicked();

private:
    QLabel *m_label;
    QProgressBar *m_bar;
    QPushButton *m_cancel;
};

} // namespace memhist::viewer
