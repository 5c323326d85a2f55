// SPDX-License-Identifier: MIT
// Calls a progress callback about every 0.1 % of an estimated amount of work (STYLE.md §9), so
// that a check of 10^8 rows reports about a thousand times, and lets the callback cancel.
#pragma once

#include <QtGlobal>
#include <algorithm>
#include <functional>

namespace memhist::check {

class ProgressMeter
{
public:
    // `callback` may be empty; it must outlive the meter. `total` is an estimate: fractions are
    // clamped to 1 if the work turns out larger.
    ProgressMeter(const std::function<bool(double)> &callback, qint64 total)
        : m_callback(callback)
        , m_total(std::max<qint64>(total, 1))
        , m_step(std::max<qint64>(m_total / 1000, 1))
        , m_next(m_step)
    { }

    // Units of work between two reports.
    qint64 step() const { return m_step; }
    qint64 done() const { return m_done; }

    // Counts one unit of work; false when the callback asked to stop.
    bool advance() { return ++m_done < m_next || report(); }
    // Reports now, with `done` units done (never less than before): for work that calls back about
    // once per step on its own (SQLite's progress handler). False when the callback asked to stop.
    bool reportAt(qint64 done)
    {
        m_done = std::max(m_done, done);
        return report();
    }
    // Moves to `done` units without reporting: the end of a phase whose estimate was too large.
    void skipTo(qint64 done)
    {
        m_done = std::max(m_done, done);
        m_next = m_done + m_step;
    }
    // Reports 1 (the work is done); false when the callback asked to stop.
    bool finish()
    {
        m_done = m_total;
        return report();
    }

private:
    bool report()
    {
        m_next = m_done + m_step;
        return !m_callback || m_callback(std::min(1.0, double(m_done) / double(m_total)));
    }

    const std::function<bool(double)> &m_callback;
    qint64 m_total;
    qint64 m_step;
    qint64 m_next;
    qint64 m_done = 0;
};

} // namespace memhist::check
