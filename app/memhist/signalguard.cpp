// SPDX-License-Identifier: MIT
#include "signalguard.h"

#include "core/writer/partialfile.h"
#include "progressline.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <iterator>
#include <unistd.h>

namespace memhist::cli {

namespace {

constexpr int handledSignals[] = { SIGINT, SIGTERM, SIGHUP };
constexpr const char *signalNames[] = { "SIGINT", "SIGTERM", "SIGHUP" };
constexpr int handledCount = int(std::size(handledSignals));

struct Message
{
    const char *text = nullptr;
    std::size_t size = 0;
};

// What the handler reads: plain pointers and sizes prepared before it is installed.
struct HandlerState
{
    SignalActions actions;
    std::atomic<bool> interruptedOnce { false };
    // By signal, then by whether a temporary file was removed.
    Message messages[handledCount][2];
};
HandlerState handlerState;
static_assert(std::atomic<bool>::is_always_lock_free);

// The texts behind handlerState.messages, and the dispositions to restore.
QByteArray messageTexts[handledCount][2];
struct sigaction previousActions[handledCount];
struct sigaction previousFileSizeAction;

int indexOf(int signal)
{
    for (int i = 0; i < handledCount; ++i) {
        if (handledSignals[i] == signal)
            return i;
    }
    return 0;
}

void onSignal(int signal)
{
    const int savedErrno = errno;
    if (signal == SIGINT && handlerState.actions.firstInterrupt && !handlerState.interruptedOnce.exchange(true)) {
        handlerState.actions.firstInterrupt();
        errno = savedErrno;
        return;
    }
    if (handlerState.actions.beforeExit)
        handlerState.actions.beforeExit();
    const bool removed = PartialFile::removeAllNow() > 0;
    const Message &message = handlerState.messages[indexOf(signal)][removed ? 1 : 0];
    [[maybe_unused]] const ssize_t written = ::write(STDERR_FILENO, message.text, message.size);
    ::_exit(128 + signal);
}

} // namespace

SignalGuard::SignalGuard(const QString &command, const QString &outputPath, SignalActions actions)
{
    handlerState.actions = actions;
    handlerState.interruptedOnce.store(false);
    // A progress line may be on screen: erase it first.
    const QString erase = ProgressLine::isEnabled() ? ProgressLine::eraseText() : QString();
    for (int i = 0; i < handledCount; ++i) {
        const QString interrupted
            = QStringLiteral("%1memhist %2: interrupted by %3").arg(erase, command, QLatin1StringView(signalNames[i]));
        messageTexts[i][0] = (interrupted + u'\n').toLocal8Bit();
        messageTexts[i][1] = (interrupted + QStringLiteral("; %1 left as it was\n").arg(outputPath)).toLocal8Bit();
        for (int removed = 0; removed < 2; ++removed)
            handlerState.messages[i][removed]
                = { messageTexts[i][removed].constData(), std::size_t(messageTexts[i][removed].size()) };
    }

    struct sigaction action
    {
    };
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    for (int signal : handledSignals)
        sigaddset(&action.sa_mask, signal); // one handler at a time
    action.sa_flags = SA_RESTART;
    for (int i = 0; i < handledCount; ++i) {
        // A signal ignored on entry stays ignored: `nohup memhist ...` must survive a hangup, and a
        // background job of a shell script (SIGINT ignored) the terminal's Ctrl-C.
        sigaction(handledSignals[i], nullptr, &previousActions[i]);
        if (previousActions[i].sa_handler != SIG_IGN)
            sigaction(handledSignals[i], &action, nullptr);
    }

    struct sigaction ignore
    {
    };
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGXFSZ, &ignore, &previousFileSizeAction);
}

SignalGuard::~SignalGuard()
{
    for (int i = 0; i < handledCount; ++i)
        sigaction(handledSignals[i], &previousActions[i], nullptr);
    sigaction(SIGXFSZ, &previousFileSizeAction, nullptr);
}

} // namespace memhist::cli
