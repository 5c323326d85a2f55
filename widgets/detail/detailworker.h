// SPDX-License-Identifier: MIT
// The background half of DetailPane: lives in the pane's ConnectionThread and owns that thread's
// connection and readers (one ContextReader per connection). Internal to widgets/detail.
#pragma once

#include "widgets/common/connectionthread.h"
#include "widgets/detail/accessdetail.h"

#include <memory>

namespace memhist {

class HistoryDatabase;
class ThreadSpans;

class DetailWorker : public ConnectionWorker
{
public:
    DetailWorker();
    ~DetailWorker() override;

    // Runs in the worker thread. Opens `historyPath` if it is not the open one.
    AccessDetail read(const QString &historyPath, const Access &access);

protected:
    bool openConnection(const QString &path, QString *error) override;
    void closeConnection() override;

private:
    std::unique_ptr<HistoryDatabase> m_database;
    std::unique_ptr<ContextReader> m_reader;
    std::unique_ptr<ThreadSpans> m_threads;
};

} // namespace memhist
