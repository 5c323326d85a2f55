// SPDX-License-Identifier: MIT
#include "core/importers/textpiecereader.h"

#include "core/importers/progressthrottle.h"
#include "core/importers/tracefilereader.h"

#include <cstring>

namespace memhist {

namespace {
// Large reads keep the parser parsing rather than waiting on system calls; the buffer holds one
// read plus the longest line the parser accepts, which bounds memory whatever the input.
constexpr qsizetype readSize = 1 << 20;
} // namespace

TextPieceEnd readInPieces(const TextPieceInput &input, qsizetype maxLineLength, const TextPieceParser &parser,
    QByteArray *buffer, QByteArrayView *rest)
{
    buffer->resize(readSize + maxLineLength);
    char *const data = buffer->data();
    qsizetype filled = 0;
    for (;;) {
        const qint64 n = input.read(data + filled, buffer->size() - filled);
        if (n == TextPieceInput::stop)
            return TextPieceEnd::Stopped;
        if (n < 0)
            return TextPieceEnd::Failed;
        if (n == 0)
            break;
        filled += n;
        const qsizetype consumed = parser.consume(data, filled);
        if (consumed < 0)
            return TextPieceEnd::Failed;
        if (input.parsed && !input.parsed(QByteArrayView(data, consumed)))
            return TextPieceEnd::Failed;
        filled -= consumed;
        std::memmove(data, data + consumed, size_t(filled));
        if (parser.done && parser.done()) {
            *rest = QByteArrayView(data, filled);
            return TextPieceEnd::ParserDone;
        }
        if (input.proceed && !input.proceed())
            return TextPieceEnd::Stopped;
    }
    *rest = QByteArrayView(data, filled);
    return TextPieceEnd::InputEnd;
}

bool readTextInPieces(TraceFileReader &reader, const QString &path, qsizetype maxLineLength,
    const TextPieceParser &parser, ProgressThrottle &throttle, QByteArray *buffer, QByteArrayView *rest, QString *error)
{
    bool anyInput = false;
    const TextPieceInput input {
        [&](char *data, qsizetype size) {
            const qint64 n = reader.read(data, size);
            if (n < 0) {
                // The complete lines before the error are parsed: the data stops in the next one.
                *error = reader.errorString(parser.linesParsed() + 1);
                return qint64(-1);
            }
            anyInput = anyInput || n > 0;
            return n;
        },
        {},
        [&] { return throttle.update(reader.inputPosition(), reader.inputSize()); },
    };
    switch (readInPieces(input, maxLineLength, parser, buffer, rest)) {
    case TextPieceEnd::Failed:
        return false;
    case TextPieceEnd::Stopped:
        *error = path + QStringLiteral(": import cancelled");
        return false;
    case TextPieceEnd::ParserDone:
        return true;
    case TextPieceEnd::InputEnd:
        break;
    }
    if (!anyInput) {
        *error = path + QStringLiteral(": empty file");
        return false;
    }
    return true;
}

} // namespace memhist
