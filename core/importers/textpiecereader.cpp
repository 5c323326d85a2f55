#include "core/importers/textpiecereader.h"

#include "core/importers/progressthrottle.h"
#include "core/importers/tracefilereader.h"

#include <cstring>

namespace memhist {

namespace {
// Large reads keep the importer parsing rather than waiting on system calls; the buffer holds one
// read plus the longest line the parser accepts, which bounds memory whatever the input.
constexpr qsizetype readSize = 1 << 20;
} // namespace

bool readTextInPieces(TraceFileReader &reader, const QString &path, qsizetype maxLineLength,
    const TextPieceParser &parser, ProgressThrottle &throttle, QByteArray *buffer, QByteArrayView *rest, QString *error)
{
    buffer->resize(readSize + maxLineLength);
    char *const data = buffer->data();
    qsizetype filled = 0;
    bool anyInput = false;
    for (;;) {
        const qint64 n = reader.read(data + filled, buffer->size() - filled);
        if (n < 0) {
            // The complete lines before the error are parsed: the data stops in the next one.
            *error = reader.errorString(parser.linesParsed() + 1);
            return false;
        }
        if (n == 0)
            break;
        anyInput = true;
        filled += n;
        const qsizetype consumed = parser.consume(data, filled);
        if (consumed < 0)
            return false;
        filled -= consumed;
        std::memmove(data, data + consumed, size_t(filled));
        if (parser.done && parser.done())
            break;
        if (!throttle.update(reader.inputPosition(), reader.inputSize())) {
            *error = path + QStringLiteral(": import cancelled");
            return false;
        }
    }
    if (!anyInput) {
        *error = path + QStringLiteral(": empty file");
        return false;
    }
    *rest = QByteArrayView(data, filled);
    return true;
}

} // namespace memhist
