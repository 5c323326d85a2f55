// SPDX-License-Identifier: MIT
// The background half of OriginView: lives in the view's ConnectionThread and owns that thread's
// connection and OriginFinder. Internal to widgets/detail.
#pragma once

#include "core/origin/originfinder.h"
#include "widgets/common/connectionthread.h"

#include <QList>
#include <QMetaType>
#include <memory>
#include <optional>

namespace memhist {

class HistoryDatabase;

// An origin tree as the view shows it: the hops, the stored access of each hop that is one (for
// selecting it), and what the history lacks.
struct OriginResult
{
    Access root;
    Direction direction = Direction::Backward;
    OriginTree tree;
    QList<std::optional<Access>> accesses; // one per hop of tree.hops
    bool hasCode = false;
    bool hasValues = false;
    QString error; // the history cannot be opened, or the finder refused the row
};

class OriginWorker : public ConnectionWorker
{
public:
    OriginWorker();
    ~OriginWorker() override;

    // Runs in the worker thread. Opens `historyPath` if it is not the open one.
    OriginResult find(const QString &historyPath, const Access &root, Direction direction);

protected:
    bool openConnection(const QString &path, QString *error) override;
    void closeConnection() override;

private:
    std::unique_ptr<HistoryDatabase> m_database;
    std::unique_ptr<OriginFinder> m_finder;
};

} // namespace memhist
