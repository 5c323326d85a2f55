// The main window's status area, two lines: the hover text (or the last message), elided with the
// whole in its tooltip, and the click gestures beside it, which it never replaces; below them the
// open history's import warnings (an icon and the first, elided, all in the tooltip) and its summary.
#pragma once

#include <QWidget>

class QLabel;

namespace memhist::viewer {

class ElidedLabel;

class StatusPanel : public QWidget
{
    Q_OBJECT
public:
    explicit StatusPanel(QWidget *parent = nullptr);

    // The whole text (its first line is shown); an empty text shows the default hover text.
    void setHoverText(const QString &text);
    QString hoverText() const;
    void setSummary(const QString &text, const QString &toolTip);
    // The warnings of the import that made the open history; none hides them.
    void setImportWarnings(const QStringList &warnings);
    QStringList importWarnings() const { return m_warnings; }

    static QString defaultHoverText();
    static QString clickHintText();

private:
    ElidedLabel *m_hover;
    QLabel *m_hint;
    QWidget *m_warningsBox;
    ElidedLabel *m_warningsText;
    QLabel *m_summary;
    QStringList m_warnings;
};

} // namespace memhist::viewer
