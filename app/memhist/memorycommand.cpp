// SPDX-License-Identifier: MIT
// memhist memory DB --at T --from A --to B [--format hex|csv] | --batch FILE: the memory of [A, B]
// after transition T, byte by byte, with how each byte is known (core/memory/memoryreader.h).
#include "boundedfile.h"
#include "commandline.h"
#include "commands.h"
#include "core/memory/memoryreader.h"
#include "core/model/numbertext.h"
#include "historyargument.h"
#include "querybatch.h"
#include "queryoptions.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>

namespace memhist::cli {

namespace {

const CommandHelp help {
    QStringLiteral("memory"),
    QStringLiteral("DB --at T --from A --to B [--format hex|csv] | DB --batch FILE [--format hex|csv]"),
    QStringLiteral("Show the memory of [A, B] (at most 65536 bytes) after transition T, T's own accesses\n"
                   "included, byte by byte: each byte's last access at or before T (a write's bytes, or a\n"
                   "read's), else the first later access when it is a read; '?\?' when neither tells. hex lays\n"
                   "the bytes out 16 a line as xxd does, then a legend of how they are known; csv writes\n"
                   "address,value,known_by,transition,rowid per byte. --batch runs one '--at T --from A --to B'\n"
                   "per line of FILE. Needs a history with values (memhist record, a Tenet trace)."),
};

struct MemoryRequest
{
    int line = 0; // of the batch file; 0 on the command line
    Transition at;
    Address first;
    Address last;
};

const char *knownByName(KnownBy knownBy)
{
    switch (knownBy) {
    case KnownBy::Write:
        return "write";
    case KnownBy::Read:
        return "read";
    case KnownBy::LaterRead:
        return "later_read";
    case KnownBy::Unknown:
        break;
    }
    return "unknown";
}

void addMemoryOptions(QCommandLineParser &parser)
{
    parser.addOption({ QStringLiteral("at"), QStringLiteral("The memory after transition T."), QStringLiteral("T") });
    parser.addOption({ QStringLiteral("from"), QStringLiteral("The first address."), QStringLiteral("A") });
    parser.addOption({ QStringLiteral("to"), QStringLiteral("The last address (inclusive)."), QStringLiteral("B") });
}

// --at, --from and --to of a parsed command line or batch line; false + *error (a usage message).
bool readMemoryOptions(const QCommandLineParser &parser, MemoryRequest *request, QString *error)
{
    std::uint64_t values[3] = {};
    const QString names[3] = { QStringLiteral("at"), QStringLiteral("from"), QStringLiteral("to") };
    for (int i = 0; i < 3; ++i) {
        const QString &name = names[i];
        if (!parser.isSet(name)) {
            *error = QStringLiteral("missing --%1 (memory needs --at T --from A --to B)").arg(name);
            return false;
        }
        if (!parseNumberOption(name, parser.value(name), &values[i], error))
            return false;
    }
    if (values[0] >= signBoundary) {
        *error = QStringLiteral("--at: '%1' is out of range (transitions end at 2^63-1)").arg(parser.value(names[0]));
        return false;
    }
    if (values[1] > values[2]) {
        *error = QStringLiteral("--from %1 is after --to %2").arg(parser.value(names[1]), parser.value(names[2]));
        return false;
    }
    if (values[2] - values[1] >= MemoryReader::maxBytes) {
        *error = QStringLiteral("--from %1 --to %2 is %3 bytes; memory shows at most %4 at once")
                     .arg(parser.value(names[1]), parser.value(names[2]))
                     .arg(values[2] - values[1] + 1)
                     .arg(MemoryReader::maxBytes);
        return false;
    }
    request->at = Transition { values[0] };
    request->first = Address { values[1] };
    request->last = Address { values[2] };
    return true;
}

// Every line of the batch file, read before any runs (as query --batch does).
bool readMemoryBatch(const QString &path, QList<MemoryRequest> *requests, QString *error, int *exitStatus)
{
    QStringList lines;
    if (!readBoundedLines(path, maxBatchLines, maxBatchLineBytes, &lines, error)) {
        *exitStatus = ExitFailure;
        return false;
    }
    static const QRegularExpression whitespace(QStringLiteral("\\s+"));
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString line = lines[i].trimmed();
        if (line.isEmpty() || line.startsWith(u'#'))
            continue;
        QCommandLineParser parser;
        addMemoryOptions(parser);
        MemoryRequest request;
        request.line = int(i + 1);
        QString reason;
        if (!parser.parse(QStringList { QStringLiteral("batch") } + line.split(whitespace, Qt::SkipEmptyParts)))
            reason = parserMessage(parser.errorText());
        else if (!parser.positionalArguments().isEmpty())
            reason = QStringLiteral("unexpected argument '%1' (a line holds --at, --from and --to only)")
                         .arg(parser.positionalArguments().constFirst());
        else
            readMemoryOptions(parser, &request, &reason);
        if (!reason.isEmpty()) {
            *error = path + u':' + QString::number(i + 1) + QStringLiteral(": ") + reason;
            *exitStatus = ExitUsage;
            return false;
        }
        requests->append(request);
    }
    return true;
}

// 16 bytes a line as xxd lays them out (pairs of bytes, then the printable characters), '??' and
// '?' for the unknown ones, then how the bytes are known.
QByteArray hexLines(const MemoryRequest &request, const QList<MemoryByte> &bytes)
{
    QByteArray out;
    qint64 counts[4] = {};
    // Every line's address as wide as the last one's, so that the columns line up.
    const qsizetype width = QByteArray::number(request.last.value, 16).size();
    for (qsizetype line = 0; line < bytes.size(); line += 16) {
        out += "0x" + QByteArray::number(request.first.value + std::uint64_t(line), 16).rightJustified(width, '0')
            + ':';
        QByteArray text;
        for (qsizetype i = line; i < line + 16; ++i) {
            if ((i - line) % 2 == 0)
                out += ' ';
            if (i >= bytes.size()) {
                out += "  ";
                continue;
            }
            const MemoryByte &byte = bytes[i];
            if (byte.knownBy == KnownBy::Unknown) {
                out += "??";
                text += '?';
            } else {
                out += QByteArray::number(byte.value, 16).rightJustified(2, '0');
                text += byte.value >= 0x20 && byte.value < 0x7f ? char(byte.value) : '.';
            }
        }
        out += "  " + text + '\n';
    }
    for (const MemoryByte &byte : bytes)
        ++counts[int(byte.knownBy)];
    out += QStringLiteral("-- %1 bytes after transition %2: %3 known by a write, %4 by a read, %5 by a later read, "
                          "%6 unknown (?\?)\n")
               .arg(bytes.size())
               .arg(request.at.value)
               .arg(counts[int(KnownBy::Write)])
               .arg(counts[int(KnownBy::Read)])
               .arg(counts[int(KnownBy::LaterRead)])
               .arg(counts[int(KnownBy::Unknown)])
               .toUtf8();
    return out;
}

QByteArray csvLines(const MemoryRequest &request, const QList<MemoryByte> &bytes)
{
    QByteArray out;
    for (qsizetype i = 0; i < bytes.size(); ++i) {
        const MemoryByte &byte = bytes[i];
        out += hexBytes(request.first.value + std::uint64_t(i)) + ',';
        if (byte.knownBy != KnownBy::Unknown) {
            out += QByteArray::number(byte.value, 16).rightJustified(2, '0') + ',' + knownByName(byte.knownBy) + ','
                + QByteArray::number(byte.transition.value) + ',' + QByteArray::number(byte.rowId.value) + '\n';
        } else {
            out += ",unknown,,\n";
        }
    }
    return out;
}

} // namespace

int runMemory(const QStringList &arguments)
{
    QCommandLineParser parser;
    addMemoryOptions(parser);
    const QCommandLineOption formatOption(QStringLiteral("format"), QStringLiteral("hex (default) or csv."),
        QStringLiteral("FORMAT"), QStringLiteral("hex"));
    const QCommandLineOption batchOption(QStringLiteral("batch"),
        QStringLiteral("Read one '--at T --from A --to B' per line of FILE; each result is followed by its time."),
        QStringLiteral("FILE"));
    parser.addOption(formatOption);
    parser.addOption(batchOption);
    QStringList positional;
    if (const auto status = parseDatabaseCommandLine(parser, arguments, help, &positional))
        return *status;
    const QString format = parser.value(formatOption);
    if (format != QLatin1String("hex") && format != QLatin1String("csv"))
        return usageError(help.name, QStringLiteral("--format: '%1' is not a format (hex or csv)").arg(format));

    QList<MemoryRequest> requests;
    QString error;
    if (parser.isSet(batchOption)) {
        for (const char *option : { "at", "from", "to" }) {
            if (parser.isSet(QLatin1String(option)))
                return usageError(help.name,
                    QStringLiteral("--batch takes its --at, --from and --to from its file, "
                                   "not from the command line (--%1)")
                        .arg(QLatin1String(option)));
        }
        int exitStatus = ExitUsage;
        if (!readMemoryBatch(parser.value(batchOption), &requests, &error, &exitStatus))
            return exitStatus == ExitUsage ? usageError(help.name, error)
                                           : inputError(QStringLiteral("memhist memory: ") + error);
    } else {
        MemoryRequest request;
        if (!readMemoryOptions(parser, &request, &error))
            return usageError(help.name, error);
        requests << request;
    }

    const auto database = openDatabaseArgument(positional[0]);
    if (!database)
        return ExitFailure;
    MemoryReader reader(*database);
    if (!reader.hasValues())
        return inputError(QStringLiteral("memhist memory: %1: this history has no values (the bytes its accesses "
                                         "moved), so its memory cannot be shown; record the program with memhist "
                                         "record, or import a trace that has them (Tenet)")
                              .arg(database->path()));
    const bool batch = parser.isSet(batchOption);
    if (format == QLatin1String("csv"))
        writeOut("address,value,known_by,transition,rowid\n");
    for (qsizetype i = 0; i < requests.size(); ++i) {
        const MemoryRequest &request = requests[i];
        QElapsedTimer timer;
        timer.start();
        QList<MemoryByte> bytes;
        if (!reader.read(request.at, request.first, request.last, &bytes, &error))
            return inputError(QStringLiteral("memhist memory: %1: %2").arg(database->path(), error));
        const double milliseconds = double(timer.nsecsElapsed()) / 1e6;
        writeOut(format == QLatin1String("csv") ? csvLines(request, bytes) : hexLines(request, bytes));
        if (batch)
            writeOut(
                QStringLiteral("# query %1: %2 in %3 ms\n")
                    .arg(i + 1)
                    .arg(bytes.size() == 1 ? QStringLiteral("1 byte") : QStringLiteral("%1 bytes").arg(bytes.size()))
                    .arg(milliseconds, 0, 'f', 3)
                    .toUtf8());
    }
    return finishOutput(help.name, ExitSuccess);
}

} // namespace memhist::cli
