// SPDX-License-Identifier: MIT
// The Memory pane's hex view: as many rows of 16 bytes as its height holds, from an address aligned
// to 16 (the top), each row its address, the bytes as hex and as characters. Each byte is shaded by
// byteShade(): the write colour of the plane, deepest for the bytes written at the current
// transition (bold, on a full fill), paler the longer ago they were written; bytes known by a read
// are plain, by a later read italic, unknown ones a grey "??". The selected access's bytes are
// framed. It only paints what MemoryPane gives it (reading happens there, off the GUI thread): a
// row the snapshot does not hold (while a read for a new top is on its way) stays blank. Instead of
// the rows it may show a message (setMessage()).
//
// The wheel, the arrow keys and Page Up/Down ask the pane to scroll (scrollRequested); a click on a
// byte is byteClicked; hovering a byte tells how it is known in a tooltip.
#pragma once

#include "widgets/memory/memoryrows.h"

#include <QWidget>
#include <optional>

namespace memhist {

class MemoryView : public QWidget
{
    Q_OBJECT

public:
    explicit MemoryView(QWidget *parent = nullptr);

    // The first row's address (aligned down to 16).
    void setTop(Address top);
    Address top() const { return m_top; }
    // The rows the widget's height holds (at least 1).
    int rowCount() const;
    // The last byte of the last row shown, saturating at 2^64 - 1.
    Address lastShown() const;

    void setSnapshot(const MemorySnapshot &snapshot);
    const MemorySnapshot &snapshot() const { return m_snapshot; }
    // The selected access's bytes, framed; none: no frame.
    void setSelection(std::optional<std::pair<Address, Address>> bytes);
    std::optional<std::pair<Address, Address>> selection() const { return m_selection; }
    // A message drawn instead of the rows (no history, no values, no position yet); empty: the rows.
    // The view stays in place, so that it keeps its size and row count for the first read.
    void setMessage(const QString &message);
    const QString &message() const { return m_message; }

    // The byte whose hex digits or character is at `position`, if any (only bytes of the snapshot,
    // and none while a message is shown).
    std::optional<Address> byteAt(QPointF position) const;
    // The hex cell of the byte at `address`: its digits and half the space on each side (empty when
    // its row is not shown).
    QRect hexRect(Address address) const;
    // The rows shown, as text (rowText()), those the snapshot holds; empty while a message is shown.
    QString text() const;
    // The tooltip of the byte at `address` of the snapshot.
    QString describeByte(Address address) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    // The height changed the number of rows shown.
    void rowCountChanged();
    // The user asked to move the top by `rows` rows (negative: towards lower addresses).
    void scrollRequested(qint64 rows);
    void byteClicked(memhist::Address address);

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;

private:
    // Where the columns are, in pixels, for the current font and address width. Horizontal positions
    // are fractional: the font's true advance, so that a row is no wider than its characters.
    struct Geometry
    {
        int margin = 3;
        qreal charWidth = 8;
        int lineHeight = 16;
        int headerHeight = 16;
        int addressDigits = 8;
        qreal hexLeft = 0;
        qreal charsLeft = 0;
        int width = 0;

        qreal hexX(int column) const;
        // The pixel columns [left, right) of a byte's hex cell: its digits and half the space on
        // each side, so that the cells of neighbouring bytes meet without a gap.
        QRect hexCell(int column, int y) const;
        QRect charCell(int column, int y) const;
        int rowY(int row) const { return margin + headerHeight + row * lineHeight; }
    };
    Geometry geometry() const;
    void updateGeometryHint();

    Address m_top;
    int m_rows = 1;
    MemorySnapshot m_snapshot;
    std::optional<std::pair<Address, Address>> m_selection;
    QString m_message;
    QFont m_messageFont; // the widgets' font (the rows have the fixed one)
    qreal m_wheelRemainder = 0;
};

} // namespace memhist
