// SPDX-License-Identifier: MIT
// Reading the small text files a command takes beside its history (a --batch file, a --maps
// file) with bounds: a 4 GiB file given by mistake, or a FIFO, must be refused in a moment with a
// message, not read whole into memory.
#pragma once

#include <QStringList>

namespace memhist::cli {

// The lines of `path`, streamed: at most `maxLines` lines of at most `maxLineBytes` bytes each.
// False + *error naming the file (and the line, when one is too long) otherwise, or when the file
// cannot be opened or is not a regular file.
bool readBoundedLines(const QString &path, qsizetype maxLines, qint64 maxLineBytes, QStringList *lines, QString *error);

// The whole of `path`, when it is a regular file of at most `maxBytes` bytes.
bool readBoundedFile(const QString &path, qint64 maxBytes, QByteArray *contents, QString *error);

} // namespace memhist::cli
