// SPDX-License-Identifier: MIT
// What SIGINT, SIGTERM and SIGHUP do to a command while it writes its output: the handler removes
// every unfinished temporary file of memhist (PartialFile::removeAllNow()), says so on stderr and
// ends memhist with status 128 + the signal's number (SIGINT 130, SIGTERM 143, SIGHUP 129). The
// output path is left as it was. The handler does it all itself, with async-signal-safe calls only,
// rather than setting a flag for the command to look at: an import blocked reading a slow input (a
// pipe, a FIFO) would never get to look.
//
// A signal ignored when memhist starts (nohup, a shell's background job) stays ignored.
//
// A command may take SIGINT's first delivery for itself (`record`: stop the program and keep what
// was recorded); a second SIGINT then ends memhist as above. While a guard lives, SIGXFSZ is ignored
// so that a write beyond the file size limit (`ulimit -f`) fails with "File too large", which the
// command reports, instead of killing memhist without a word.
#pragma once

#include <QByteArray>
#include <QString>

namespace memhist::cli {

// What a command adds to the handler. Both are called from the handler: async-signal-safe only.
struct SignalActions
{
    // Called on the first SIGINT instead of ending memhist.
    void (*firstInterrupt)() = nullptr;
    // Called before the temporary files are removed.
    void (*beforeExit)() noexcept = nullptr;
};

class SignalGuard
{
public:
    // `command` and `outputPath` name what was interrupted in the message.
    SignalGuard(const QString &command, const QString &outputPath, SignalActions actions = {});
    // Restores the previous dispositions.
    ~SignalGuard();
    SignalGuard(const SignalGuard &) = delete;
    SignalGuard &operator=(const SignalGuard &) = delete;
};

} // namespace memhist::cli
