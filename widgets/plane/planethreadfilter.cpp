// SPDX-License-Identifier: MIT
#include "widgets/plane/planethreadfilter.h"

#include "core/storage/sqlite.h"
#include "core/storage/threadspanstatements.h"

#include <QCoreApplication>
#include <QPainter>
#include <algorithm>
#include <cmath>

namespace memhist::plane {

namespace {

// The texts are the plane widget's (one translation context for everything it shows).
QString tr(const char *text)
{
    return QCoreApplication::translate("memhist::PlaneWidget", text);
}

} // namespace

bool KeptTransitions::keeps(Transition t) const
{
    if (!isFiltered())
        return true;
    const auto span = std::lower_bound(
        spans.cbegin(), spans.cend(), t, [](const ThreadSpan &s, Transition value) { return s.last < value; });
    return span != spans.cend() && span->first <= t;
}

std::optional<KeptTransitions> readKeptTransitions(sqlite::Connection &db, const QList<qint64> &threads,
    const TransitionWindow &window, const std::function<bool()> &cancelled)
{
    KeptTransitions kept;
    kept.threads = threads;
    if (threads.isEmpty())
        return kept;
    sqlite::Statement exists = db.prepare(memhist::statements::threadSpansTableExists);
    if (!exists.isValid())
        return std::nullopt;
    if (exists.step() != SQLITE_ROW)
        return kept; // no threads recorded: nothing is kept
    sqlite::Statement rows = db.prepare(memhist::statements::threadSpansOverlapping);
    if (!rows.isValid())
        return std::nullopt;
    rows.bind(1, toStored(window.first));
    rows.bind(2, toStored(window.last));
    int step;
    qint64 read = 0;
    while ((step = rows.step()) == SQLITE_ROW) {
        if (++read % spanRowsPerCancelCheck == 0 && cancelled())
            return std::nullopt;
        if (threads.contains(rows.int64(0)))
            kept.spans.push_back(
                { rows.int64(0), Transition { fromStored(rows.int64(1)) }, Transition { fromStored(rows.int64(2)) } });
    }
    if (step != SQLITE_DONE)
        return std::nullopt;
    return kept;
}

void keepThreadAccesses(std::vector<Access> *accesses, const KeptTransitions &kept)
{
    if (!kept.isFiltered())
        return;
    std::erase_if(*accesses, [&kept](const Access &access) { return !kept.keeps(access.transition); });
}

std::vector<double> keptShareByColumn(const KeptTransitions &kept, const PixelMapping &mapping, int columns)
{
    std::vector<double> share(std::size_t(std::max(columns, 0)), kept.isFiltered() ? 0.0 : 1.0);
    if (!kept.isFiltered())
        return share;
    for (const ThreadSpan &span : kept.spans) {
        // Transition t covers [t, t + 1) on the x axis.
        const double left = std::max(0.0, mapping.xToPixel(double(span.first.value)));
        const double right = std::min(double(columns), mapping.xToPixel(double(span.last.value) + 1));
        for (int column = int(std::floor(left)); column < columns && column < right; ++column)
            share[std::size_t(column)] += std::min(right, column + 1.0) - std::max(left, double(column));
    }
    for (double &value : share)
        value = std::clamp(value, 0.0, 1.0);
    return share;
}

void dimOtherThreads(QPainter &painter, const KeptTransitions &kept, const PixelMapping &mapping, QColor background)
{
    if (!kept.isFiltered())
        return;
    const int columns = int(std::ceil(mapping.pixels().width()));
    const int height = int(std::ceil(mapping.pixels().height()));
    const std::vector<double> share = keptShareByColumn(kept, mapping, columns);
    const auto alphaAt
        = [&share](int column) { return int(std::lround(otherThreadsDimAlpha * (1 - share[std::size_t(column)]))); };
    for (int column = 0; column < columns;) {
        const int alpha = alphaAt(column);
        int end = column + 1;
        while (end < columns && alphaAt(end) == alpha)
            ++end;
        if (alpha > 0) {
            QColor dim = background;
            dim.setAlpha(alpha);
            painter.fillRect(QRect(column, 0, end - column, height), dim);
        }
        column = end;
    }
}

QString threadFilterLegend(const QList<qint64> &threads, bool accessDetail)
{
    if (threads.isEmpty())
        return {};
    QStringList ids;
    for (const qint64 thread : threads)
        ids << QString::number(thread);
    const QString which
        = threads.size() == 1 ? tr("thread %1").arg(ids.front()) : tr("threads %1").arg(ids.join(QStringLiteral(", ")));
    return accessDetail ? tr("%1 only").arg(which) : tr("%1: other threads dimmed").arg(which);
}

} // namespace memhist::plane
