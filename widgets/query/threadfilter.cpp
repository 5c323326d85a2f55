// SPDX-License-Identifier: MIT
#include "widgets/query/threadfilter.h"

#include "core/model/numbertext.h"
#include "core/query/threadaccesscounts.h"
#include "core/storage/historydatabase.h"

namespace memhist {

struct ThreadFilter::Loaded
{
    bool ok = false;
    QList<ThreadAccessCount> counts;
    QString error;
};

namespace {

QString threadsText(const QList<qint64> &threads)
{
    QStringList ids;
    for (const qint64 thread : threads)
        ids << QString::number(thread);
    return ids.join(QStringLiteral(", "));
}

} // namespace

ThreadFilter::ThreadFilter(QWidget *parent)
    : QComboBox(parent)
{
    setObjectName(QStringLiteral("threadFilter"));
    setSizeAdjustPolicy(QComboBox::AdjustToContents);
    addItem(tr("All threads"), QVariant::fromValue(QList<qint64> {}));
    setEnabled(false);
    setToolTip(tr("Open a history to filter by thread"));
    connect(this, &QComboBox::activated, this, [this] { emit threadsChanged(threads()); });
}

void ThreadFilter::setHistory(const QString &path)
{
    m_job.cancel();
    clear();
    addItem(tr("All threads"), QVariant::fromValue(QList<qint64> {}));
    m_wanted.clear();
    setEnabled(false);
    if (path.isEmpty()) {
        m_loading = false;
        setToolTip(tr("Open a history to filter by thread"));
        return;
    }
    m_loading = true;
    setToolTip(tr("Reading the history's threads…"));
    m_job.start(
        [path](const JobTicket &) {
            Loaded loaded;
            const auto database = HistoryDatabase::open(path, &loaded.error);
            if (database)
                loaded.ok = threadAccessCounts(*database, &loaded.counts, &loaded.error);
            return loaded;
        },
        [this](const Loaded &loaded) { showLoaded(loaded); });
}

void ThreadFilter::showLoaded(const Loaded &loaded)
{
    m_loading = false;
    if (!loaded.ok) {
        setToolTip(tr("The history's threads could not be read: %1").arg(loaded.error));
        emit threadsLoaded(0, loaded.error);
        return;
    }
    if (loaded.counts.isEmpty()) {
        setToolTip(tr("This history records no threads (drmemtrace imports do)"));
        emit threadsLoaded(0, {});
        return;
    }
    for (const ThreadAccessCount &count : loaded.counts) {
        const QString accesses
            = count.accesses == 1 ? tr("1 access") : tr("%1 accesses").arg(countText(quint64(count.accesses)));
        addItem(tr("Thread %1 (%2)").arg(count.threadId).arg(accesses),
            QVariant::fromValue(QList<qint64> { count.threadId }));
    }
    setEnabled(true);
    setToolTip(tr("Show only the accesses of the transitions this thread ran"));
    const QList<qint64> wanted = m_wanted;
    m_wanted.clear();
    setThreads(wanted);
    emit threadsLoaded(int(loaded.counts.size()), {});
}

QList<qint64> ThreadFilter::threads() const
{
    if (m_loading)
        return m_wanted;
    return currentData().value<QList<qint64>>();
}

void ThreadFilter::setThreads(const QList<qint64> &threads)
{
    if (m_loading) {
        m_wanted = threads;
        return;
    }
    int index = indexOfThreads(threads);
    if (index < 0) {
        addItem(tr("Threads %1").arg(threadsText(threads)), QVariant::fromValue(threads));
        index = count() - 1;
    }
    setCurrentIndex(index);
}

int ThreadFilter::indexOfThreads(const QList<qint64> &threads) const
{
    for (int i = 0; i < count(); ++i) {
        if (itemData(i).value<QList<qint64>>() == threads)
            return i;
    }
    return -1;
}

} // namespace memhist
