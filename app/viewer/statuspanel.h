// SPDX-License-Identifier: MIT
// The main window's status area, two lines: the hover text (or the last message, or the status tip
// of the toolbar button or menu item under the mouse), elided with the whole in its tooltip, and the
// click gestures beside it, which it never replaces; below them the open history's import warnings
// (an icon and the first, elided, all in the tooltip) and its summary.
#pragma once

#include <QWidget>

class QLabel;
class QTimer;

namespace memhist::viewer {

class ElidedLabel;

class StatusPanel : public QWidget
{
    Q_OBJECT
public:
    explicit StatusPanel(QWidget *parent = nullptr);

    // The whole text (its first line is shown); an empty text shows the default hover text. Ends a
    // status tip.
    void setHoverText(const QString &text);
    // What the first line shows: the hover text, or the status tip over it.
    QString hoverText() const;
    // A status tip (QStatusTipEvent) in the hover text's place while the mouse is over its button
    // or menu item; empty (the mouse left) shows the hover text again. Nothing else of the two
    // lines changes. A tip whose widget is no longer under the mouse, when the leave was missed
    // (the button was disabled or hidden under it), goes within a fraction of a second.
    void showStatusTip(const QString &tip);
    QString statusTip() const { return m_tip; }
    // The summary line; where the window is too narrow for it, it ends in "…" and its tooltip
    // starts with the whole text.
    void setSummary(const QString &text, const QString &toolTip);
    // The warnings of the import that made the open history; none hides them.
    void setImportWarnings(const QStringList &warnings);
    QStringList importWarnings() const { return m_warnings; }

    static QString defaultHoverText();
    static QString clickHintText();

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    // Shows as much of the summary as the line has room for.
    void fitSummary();
    // Ends the tip when no widget under the mouse has it (a menu's items keep theirs).
    void checkStatusTip();

    ElidedLabel *m_hover;
    QLabel *m_hint;
    QWidget *m_warningsBox;
    ElidedLabel *m_warningsText;
    QLabel *m_summary;
    QString m_summaryText; // as set
    QString m_summaryToolTip;
    QStringList m_warnings;
    QString m_hoverText; // as set, the default when empty
    QString m_tip;
    QTimer *m_tipCheck;
};

} // namespace memhist::viewer
