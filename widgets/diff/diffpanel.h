// SPDX-License-Identifier: MIT
// The Differences tab of a comparison (the viewer's Compare With…): a header line with what was
// found (diffsummary.h), a progress bar and a Cancel button while the comparison runs, and the
// table of its entries (DiffEntriesModel). The row made current is the entry picked: the window
// moves both planes to it.
#pragma once

#include "core/diff/diffresult.h"

#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;
class QTableView;

namespace memhist {

class DiffEntriesModel;

class DiffPanel : public QWidget
{
    Q_OBJECT
public:
    explicit DiffPanel(QWidget *parent = nullptr);

    // A comparison started: `text` in the header, an empty table, the progress bar (busy until
    // setProgress()) and Cancel.
    void startComparing(const QString &text);
    // 0..1 of the comparison.
    void setProgress(double fraction);
    // What the comparison found: the header and the rows, the first row not yet picked.
    void showResult(const DiffResult &result);
    // The comparison failed, was refused or cancelled: `message` in the header, no rows.
    void showMessage(const QString &message);
    // No comparison.
    void clear();
    // Which history is which: "A: a.memhist (above) · B: b.memhist (below)", over the header;
    // empty: none.
    void setSides(const QString &text);
    QString sidesText() const;

    bool isComparing() const;
    QString headerText() const;
    DiffEntriesModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }

signals:
    void cancelClicked();
    // The row made current (clicked, or moved to with the keys).
    void entryPicked(const memhist::DiffEntry &entry);

private:
    void fitColumns();

    QLabel *m_sides;
    QLabel *m_header;
    QProgressBar *m_progress;
    QPushButton *m_cancel;
    QTableView *m_view;
    DiffEntriesModel *m_model;
};

} // namespace memhist
