// SPDX-License-Identifier: MIT
// The read loop of the text traces: the text is read in large pieces into one bounded buffer and
// its complete lines are handed to the format's parser, whatever the size of the input. The
// importers (Lackey, Tenet) read a trace file with it, plain or gzipped; `memhist record` reads
// valgrind's log from a pipe with it.
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
    // reading stops there, before the end of the input.
    std::function<bool()> done = {};
};

// Where the text comes from, and what the loop does between pieces besides parsing them.
struct TextPieceInput
{
    // What read() returns to stop reading at once, keeping what was parsed (a stop request).
    static constexpr qint64 stop = -2;

    // Reads at most `size` bytes into `data` (waiting for them if it must): how many, 0 at the end
    // of the input, -1 after setting the error, or `stop`.
    std::function<qint64(char *data, qsizetype size)> read;
    // Optional: the bytes the parser used of each piece, before they are dropped (the recorder
    // keeps a copy of the log). False after setting the error fails the loop.
    std::function<bool(QByteArrayView parsed)> parsed = {};
    // Optional: asked after each piece; false stops reading (cancellation).
    std::function<bool()> proceed = {};
};

enum class TextPieceEnd {
    InputEnd, // read() returned 0: *rest is the text after the last newline (the last line, cut)
    ParserDone, // TextPieceParser::done(): *rest is what the parser left unparsed
    Stopped, // read() returned TextPieceInput::stop or proceed() false; *rest is not set
    Failed, // read(), consume() or parsed() failed and set the error; *rest is not set
};

// Reads `input` through `parser` until one of the ends above, with a buffer (*buffer, which *rest
// points into) of about 1 MiB plus `maxLineLength`.
TextPieceEnd readInPieces(const TextPieceInput &input, qsizetype maxLineLength, const TextPieceParser &parser,
    QByteArray *buffer, QByteArrayView *rest);

// Reads `reader` (opened, for `path`) to its end through `parser` (readInPieces()), and reports
// progress through `throttle`. False with *error set on a read error (e.g. "t.gz:53084: truncated
// gzip data: ..."), a parser error, cancellation ("PATH: import cancelled") or an empty file ("PATH:
// empty file"). On success *rest is the text after the last newline (the last line, when the file
// does not end with one), pointing into *buffer; when the parser was done early, what it left
// unparsed.
bool readTextInPieces(TraceFileReader &reader, const QString &path, qsizetype maxLineLength,
    const TextPieceParser &parser, ProgressThrottle &throttle, QByteArray *buffer, QByteArrayView *rest,
    QString *error);

} // namespace memhist
