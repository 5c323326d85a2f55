// SPDX-License-Identifier: MIT
// Passes an importer's progress to its ImportProgress callback only when the fraction has moved by
// at least 0.1 %, and always at the end, so that a progress bar is never flooded (STYLE.md 9).
#pragma once

#include "core/importers/traceimporter.h"

#include <algorithm>

namespace memhist {

class ProgressThrottle
{
public:
    explicit ProgressThrottle(const ImportProgress &progress)
        : m_progress(progress)
    { }

    // `consumed` of `total` input bytes read. False when the callback asked to cancel. Without a
    // callback, or for an input of unknown size, there is nothing to report.
    bool update(qint64 consumed, qint64 total)
    {
        if (!m_progress || total <= 0)
            return true;
        const double fraction = std::min(1.0, double(consumed) / double(total));
        if (fraction - m_last < 0.001)
            return true;
        m_last = fraction;
        return m_progress(fraction);
    }

    // The whole input read. False when the callback asked to cancel.
    bool finish()
    {
        if (!m_progress)
            return true;
        m_last = 1.0;
        return m_progress(1.0);
    }

private:
    const ImportProgress &m_progress;
    double m_last = 0;
};

} // namespace memhist
