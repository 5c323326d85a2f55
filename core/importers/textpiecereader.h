// The read loop of the text importers (Lackey, Tenet): the trace is read in large pieces into one
// bounded buffer and its complete lines are handed to the format's parser, whatever the size of
// the file and whether it is gzipped.
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>
#include <functional>

namespace memhist {

class ProgressThrottle;
class TraceFileReader;

struct TextPieceParser
{
    // Parses the complete lines at the start of [data, data + size) and returns how many bytes it
    // used, or -1 after setting the error. What it leaves is kept for the next call; leaving more
    // than the longest line allowed must be reported as an error by the parser itself.
    std::function<qsizetype(const char *data, qsizetype size)> consume;
    // How many lines have been parsed so far: a read error is reported on the line after them.
    std::function<qint64()> linesParsed;
    // Optional: true once the parser wants no more input (it reached the end of an import window);
    // reading stops there, before the end of the file.
    std::function<bool()> done = {};
};

// Reads `reader` (opened, for `path`) to its end through `parser`, with a buffer of about 1 MiB plus
// `maxLineLength`, and reports progress through `throttle`. False with *error set on a read error
// (e.g. "t.gz:53084: truncated gzip data: ..."), a parser error, cancellation ("PATH: import
// cancelled") or an empty file ("PATH: empty file"). On success *rest is the text after the last
// newline (the last line, when the file does not end with one), pointing into *buffer; when the
// parser was done early, what it left unparsed.
bool readTextInPieces(TraceFileReader &reader, const QString &path, qsizetype maxLineLength,
    const TextPieceParser &parser, ProgressThrottle &throttle, QByteArray *buffer, QByteArrayView *rest,
    QString *error);

} // namespace memhist
