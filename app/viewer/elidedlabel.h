// SPDX-License-Identifier: MIT
// A one-line label for texts longer than the room they get (the status line's hover text): what
// does not fit ends in "…", and the tooltip holds the whole text.
#pragma once

#include <QFrame>

namespace memhist::viewer {

class ElidedLabel : public QFrame
{
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget *parent = nullptr);

    // The whole text (its first line is shown; the tooltip has all of it).
    void setText(const QString &text);
    QString text() const { return m_text; }
    // What is painted: the first line, elided to the width.
    QString shownText() const;
    bool isElided() const { return shownText() != m_text.section(u'\n', 0, 0); }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void updateToolTip();

    QString m_text;
};

} // namespace memhist::viewer
