#include "commandline.h"

#include <cstdio>

namespace memhist::cli {

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
        return usageError(help.name, parserMessage(parser.errorText()));
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
    std::fwrite(text.data(), 1, size_t(text.size()), stdout);
}

void writeErr(const QString &text)
{
    std::fflush(stdout);
    const QByteArray encoded = text.toLocal8Bit();
    std::fwrite(encoded.constData(), 1, size_t(encoded.size()), stderr);
}

} // namespace memhist::cli
