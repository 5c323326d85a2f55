// SPDX-License-Identifier: MIT
#include "commandline.h"

#include <QFile>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sys/stat.h>

namespace memhist::cli {

namespace {

// The reason the first write to standard output failed (errno), or 0.
int outputError = 0;

// Qt names an unknown option without its dashes ("unknown option 'bogus'", "unknown option '1'"
// for "-1"): name it as typed, and say why a negative number is one.
QString unknownOptionMessage(const QCommandLineParser &parser, const QStringList &arguments)
{
    const QStringList unknown = parser.unknownOptionNames();
    if (unknown.isEmpty())
        return parserMessage(parser.errorText());
    const QString &name = unknown.constFirst();
    for (const QString &argument : arguments.mid(1)) {
        if (argument == QLatin1String("--"))
            break;
        const QString typed = argument.section(u'=', 0, 0);
        if (!typed.startsWith(u'-') || !typed.endsWith(name) || typed.size() - name.size() > 2)
            continue;
        bool number = false;
        typed.mid(1).toULongLong(&number, 0);
        if (number)
            return QStringLiteral("'%1': negative numbers are not accepted here").arg(typed);
        return QStringLiteral("unknown option '%1'").arg(typed);
    }
    return parserMessage(parser.errorText());
}

} // namespace

std::optional<int> parseCommandLine(QCommandLineParser &parser, const QStringList &arguments, const CommandHelp &help)
{
    const QCommandLineOption helpOption(
        { QStringLiteral("h"), QStringLiteral("help") }, QStringLiteral("Show this help and exit."));
    parser.addOption(helpOption);
    parser.setApplicationDescription(help.description);

    const bool parsed = parser.parse(arguments);
    // --help wins over any other mistake on the line, as users expect.
    if (parser.isSet(helpOption) || arguments.contains(QStringLiteral("--help"))
        || arguments.contains(QStringLiteral("-h"))) {
        // Qt's usage line names the executable's full path; ours names the command.
        QString text = parser.helpText();
        text = QStringLiteral("Usage: memhist ") + help.name + u' ' + help.synopsis + text.mid(text.indexOf(u'\n'));
        writeOut(text.toLocal8Bit());
        return ExitSuccess;
    }
    if (!parsed)
        return usageError(help.name, unknownOptionMessage(parser, arguments));
    return std::nullopt;
}

int usageError(const QString &command, const QString &message)
{
    writeErr(QStringLiteral("memhist %1: %2\nTry 'memhist %1 --help' for more information.\n").arg(command, message));
    return ExitUsage;
}

int inputError(const QString &message)
{
    writeErr(message + u'\n');
    return ExitFailure;
}

bool sameFile(const QString &a, const QString &b)
{
    struct stat first;
    struct stat second;
    return ::stat(QFile::encodeName(a).constData(), &first) == 0
        && ::stat(QFile::encodeName(b).constData(), &second) == 0 && first.st_dev == second.st_dev
        && first.st_ino == second.st_ino;
}

std::optional<QString> inputReplacedBy(const QString &output, const QStringList &inputs)
{
    for (const QString &input : inputs) {
        if (sameFile(output, input))
            return input;
    }
    return std::nullopt;
}

QString parserMessage(const QString &qtMessage)
{
    QString message = qtMessage.trimmed();
    if (message.endsWith(u'.'))
        message.chop(1);
    if (!message.isEmpty())
        message[0] = message[0].toLower();
    return message;
}

void writeOut(QByteArrayView text)
{
    if (std::fwrite(text.data(), 1, size_t(text.size()), stdout) != size_t(text.size()) && outputError == 0)
        outputError = errno != 0 ? errno : EIO;
}

int finishOutput(const QString &command, int status)
{
    if (std::fflush(stdout) != 0 && outputError == 0)
        outputError = errno != 0 ? errno : EIO;
    if (outputError == 0)
        return status;
    // A full disk or a closed file behind a redirection: the output is cut short, which a script
    // must not take for the whole answer. (A closed pipe ends the process with SIGPIPE first.)
    const QString reason = QString::fromLocal8Bit(std::strerror(outputError));
    const QString name = command.isEmpty() ? QStringLiteral("memhist") : QStringLiteral("memhist ") + command;
    writeErr(QStringLiteral("%1: cannot write the output: %2\n").arg(name, reason));
    return status == ExitSuccess ? ExitFailure : status;
}

void writeErr(const QString &text)
{
    std::fflush(stdout);
    const QByteArray encoded = text.toLocal8Bit();
    std::fwrite(encoded.constData(), 1, size_t(encoded.size()), stderr);
}

} // namespace memhist::cli
