// SPDX-License-Identifier: MIT
#include "widgets/detail/accessdetail.h"

#include "core/storage/threadspans.h"

#include <QFile>
#include <QTextStream>

namespace memhist {

namespace {

// Lines first..last (1-based, inclusive, clipped to the file) of a text file; false when it cannot
// be read.
bool readLines(const QString &path, int first, int last, int *firstRead, QStringList *lines)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return false;
    QTextStream stream(&file);
    int number = 0;
    *firstRead = 0;
    while (!stream.atEnd() && number < last) {
        const QString line = stream.readLine();
        ++number;
        if (number < first)
            continue;
        if (*firstRead == 0)
            *firstRead = number;
        lines->append(line);
    }
    return true;
}

} // namespace

AccessDetail readAccessDetail(ContextReader &reader, const ThreadSpans &threads, const Access &access)
{
    AccessDetail detail;
    detail.access = access;
    detail.threadsKnown = threads.available();
    if (detail.threadsKnown)
        detail.thread = threads.threadAt(access.transition);
    detail.value = reader.value(access.rowId);
    detail.pc = reader.pcAt(access.transition);
    if (detail.pc) {
        detail.code = reader.describeCode(*detail.pc, access.transition);
        detail.instructions = reader.instructionsAround(*detail.pc, instructionContext, instructionContext);
        if (detail.code.line > 0 && !detail.code.sourceFile.isEmpty()) {
            detail.sourceFound = readLines(detail.code.sourceFile, std::max(1, detail.code.line - sourceContext),
                detail.code.line + sourceContext, &detail.firstSourceLine, &detail.sourceLines);
            // A file shorter than the line is not the file the program was built from.
            if (detail.sourceFound && detail.firstSourceLine + detail.sourceLines.size() - 1 < detail.code.line) {
                detail.sourceFound = false;
                detail.sourceLines.clear();
                detail.firstSourceLine = 0;
            }
        }
    }
    detail.address = reader.describeAddress(access.physical, access.transition);
    return detail;
}

} // namespace memhist
