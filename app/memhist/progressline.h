// A progress line on stderr, only for a person watching a terminal: scripts and tests that capture
// stderr see the messages alone. Each show() replaces the line; clear() (or the destructor) erases
// it before the command prints its result.
#pragma once

#include <QString>

namespace memhist::cli {

class ProgressLine
{
public:
    ProgressLine();
    ~ProgressLine();
    ProgressLine(const ProgressLine &) = delete;
    ProgressLine &operator=(const ProgressLine &) = delete;

    void show(const QString &text);
    void clear();

private:
    bool m_enabled = false;
    bool m_shown = false;
};

} // namespace memhist::cli
