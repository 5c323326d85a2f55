// SPDX-License-Identifier: MIT
#include "progressline.h"

#include "commandline.h"

#include <cstdio>
#include <unistd.h>

namespace memhist::cli {

namespace {
// Carriage return, then erase to the end of the line: a shorter text leaves nothing behind.
const QString eraseLine = QStringLiteral("\r\033[K");
} // namespace

ProgressLine::ProgressLine()
    : m_enabled(isEnabled())
{ }

ProgressLine::~ProgressLine()
{
    clear();
}

void ProgressLine::show(const QString &text)
{
    if (!m_enabled || (m_shown && text == m_text))
        return;
    writeErr(eraseLine + text);
    m_shown = true;
    m_text = text;
}

bool ProgressLine::isEnabled()
{
    return isatty(fileno(stderr)) != 0;
}

QString ProgressLine::eraseText()
{
    return eraseLine;
}

void ProgressLine::clear()
{
    if (m_shown)
        writeErr(eraseLine);
    m_shown = false;
}

} // namespace memhist::cli
