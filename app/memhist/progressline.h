// SPDX-License-Identifier: MIT
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

    // Replaces the line, unless it already says `text` (a caller may report far more often than
    // the text changes).
    void show(const QString &text);
    void clear();

    // Whether progress lines are shown at all (stderr is a terminal), and the text that erases one:
    // for a message written where no ProgressLine is at hand (a signal handler's, prepared ahead).
    static bool isEnabled();
    static QString eraseText();

private:
    bool m_enabled = false;
    bool m_shown = false;
    QString m_text; // what the line says, while shown
};

} // namespace memhist::cli
