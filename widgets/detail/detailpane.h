// SPDX-License-Identifier: MIT
// The detail pane: what the selected access is, in full. Its operation, bytes, transition, thread
// and value; the instruction that made it among the instructions the history knows around it, with
// its function and module; its source line among the file's lines when the file is on this
// machine; what the address is (an object, a region). Read in a background thread (DetailWorker,
// its own connection), never on the GUI thread; a newer selection drops the older read.
#pragma once

#include "core/model/types.h"
#include "widgets/detail/accessdetail.h"

#include <QWidget>
#include <memory>
#include <optional>

class QTextBrowser;

namespace memhist {

template<typename Worker> class ConnectionThread;
class DetailWorker;

class DetailPane : public QWidget
{
    Q_OBJECT

public:
    explicit DetailPane(QWidget *parent = nullptr);
    ~DetailPane() override;

    // Forgets the access shown; the next showAccess reads `path`.
    void setHistory(const QString &path);
    QString history() const { return m_historyPath; }

    // Reads `access` in the background and shows it (detailShown); none: says nothing is selected.
    void showAccess(std::optional<memhist::Access> access);

    // What the pane shows (detailShown has been emitted for it).
    const std::optional<AccessDetail> &detail() const { return m_detail; }
    // The pane's text, as a person reads it (for tests and copying).
    QString text() const;

    // The HTML of the pane for `detail`.
    static QString html(const AccessDetail &detail);

signals:
    void detailShown();

private:
    void showMessage(const QString &message);

    std::unique_ptr<ConnectionThread<DetailWorker>> m_thread;
    QString m_historyPath;
    std::optional<AccessDetail> m_detail;
    QTextBrowser *m_browser = nullptr;
};

} // namespace memhist
