// SPDX-License-Identifier: MIT
#include "core/importers/csvimporter.h"

#include "core/csv/csvaccessformat.h"
#include "core/importers/accesssink.h"
#include "core/importers/progressthrottle.h"
#include "core/importers/tracefilereader.h"
#include "core/model/numbertext.h"

#include <cstring>

namespace memhist {

namespace {

// Large reads keep the importer parsing rather than waiting on system calls.
constexpr qsizetype readSize = 4 << 20;
// No valid row comes near this; a longer line means the input is not our CSV, and bounding it
// keeps memory bounded whatever the input.
constexpr qsizetype maxLineLength = 64 << 10;
// How often (in lines) the importer looks at how far it has come, for the progress callback.
constexpr qint64 progressLineInterval = 8192;

QByteArrayView withoutCarriageReturn(QByteArrayView line)
{
    if (!line.isEmpty() && line.back() == '\r')
        line.chop(1);
    return line;
}

} // namespace

bool CsvImporter::run(const QString &path, AccessSink &sink, const ImportOptions &options, ImportReport *report,
    QString *error, const ImportProgress &progress)
{
    ImportReport localReport;
    ImportReport &counts = report ? *report : localReport;
    counts = {};
    const auto failAt = [&](qint64 line, const QString &reason) {
        *error = path + u':' + QString::number(line) + QStringLiteral(": ") + reason;
        return false;
    };
    const auto failFile = [&](const QString &reason) {
        *error = path + QStringLiteral(": ") + reason;
        return false;
    };

    // Plain or gzipped (`memhist export ... -o /dev/stdout | gzip`), read in bounded memory.
    TraceFileReader reader(path);
    if (!reader.open()) {
        *error = reader.errorString();
        return false;
    }

    QByteArray buffer(readSize + maxLineLength, Qt::Uninitialized);
    char *const data = buffer.data();
    qsizetype filled = 0; // bytes of data[] holding input
    qint64 lineNumber = 0;
    bool sawHeader = false;
    bool anyInput = false;
    Access access;
    QString rowError;
    // The window is on the file's own transitions; the rows are in transition order (the writer
    // refuses anything else), so the first row after the window ends the import.
    const TransitionWindow window = TransitionWindow::of(options);
    const bool windowed = options.skipInstructions > 0 || options.maxInstructions;
    bool atWindowEnd = false;
    qint64 rowsBefore = 0;

    ProgressThrottle throttle(progress);

    // Returns false (with *error set) to stop the import.
    const auto handleLine = [&](QByteArrayView line) {
        counts.linesRead = ++lineNumber;
        if (!sawHeader) {
            line = withoutCarriageReturn(line);
            // A UTF-8 byte order mark, as some spreadsheet programs write.
            if (line.startsWith("\xEF\xBB\xBF"))
                line = line.sliced(3);
            if (csv::hasColumnsAfterTheSix(line))
                return failAt(lineNumber,
                    QStringLiteral("columns after the six of '%1' (the thread or context columns of export "
                                   "--thread-column or --context): import reads the six-column form, which export "
                                   "writes without those options")
                        .arg(QString::fromLatin1(csv::header())));
            if (line != QByteArrayView(csv::header()))
                return failAt(
                    lineNumber, QStringLiteral("expected the header '") + QString::fromLatin1(csv::header()) + u'\'');
            sawHeader = true;
            return true;
        }
        // A blank line (e.g. an editor's extra newline at the end) carries no access.
        if (withoutCarriageReturn(line).isEmpty())
            return true;
        if (windowed) {
            // The fast path outside the window: the transition field alone (the second), no access.
            const qsizetype first = line.indexOf(',');
            const qsizetype second = first < 0 ? -1 : line.indexOf(',', first + 1);
            std::uint64_t transition = 0;
            if (second > first && parseUnsigned(line.sliced(first + 1, second - first - 1), &transition)) {
                if (transition < window.begin) {
                    ++rowsBefore;
                    counts.nextTransition = Transition { transition + 1 };
                    return true;
                }
                if (transition >= window.end) {
                    atWindowEnd = true;
                    return true;
                }
            }
        }
        if (!csv::parseRow(line, &access, &rowError))
            return failAt(lineNumber, rowError);
        if (!sink.add(access))
            return failAt(lineNumber, sink.errorString());
        ++counts.accesses;
        counts.reads += access.operation == Operation::Read;
        counts.writes += access.operation == Operation::Write;
        counts.executes += access.operation == Operation::Execute;
        counts.nextTransition = Transition { access.transition.value + 1 };
        return true;
    };

    bool atEnd = false;
    while (!atEnd) {
        const qint64 n = reader.read(data + filled, readSize + maxLineLength - filled);
        if (n < 0) {
            *error = reader.errorString(lineNumber + 1);
            return false;
        }
        if (n == 0)
            atEnd = true;
        filled += n;
        anyInput = anyInput || filled > 0;

        qsizetype pos = 0;
        for (;;) {
            const auto *newline = static_cast<const char *>(std::memchr(data + pos, '\n', size_t(filled - pos)));
            if (!newline)
                break;
            if (!handleLine(QByteArrayView(data + pos, newline - (data + pos))))
                return false;
            if (atWindowEnd)
                break;
            pos = newline - data + 1;
            if (lineNumber % progressLineInterval == 0 && !throttle.update(reader.inputPosition(), reader.inputSize()))
                return failFile(QStringLiteral("import cancelled"));
        }

        if (atWindowEnd)
            break;
        if (atEnd) {
            // The last line may lack its newline.
            if (pos < filled && !handleLine(QByteArrayView(data + pos, filled - pos)))
                return false;
            break;
        }
        const qsizetype rest = filled - pos;
        if (rest > maxLineLength)
            return failAt(lineNumber + 1, QStringLiteral("line too long (more than %1 bytes)").arg(maxLineLength));
        std::memmove(data, data + pos, size_t(rest));
        filled = rest;
    }

    if (!anyInput)
        return failFile(QStringLiteral("empty file"));
    if (rowsBefore > 0)
        counts.skipped[QStringLiteral("rows before the window")] = rowsBefore;
    counts.reachedWindowEnd = atWindowEnd;
    if (!throttle.finish())
        return failFile(QStringLiteral("import cancelled"));
    return true;
}

} // namespace memhist
