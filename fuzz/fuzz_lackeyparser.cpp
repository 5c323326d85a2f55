// SPDX-License-Identifier: MIT
// Lackey logs (core/importers/lackeyparser.h): the whole input at once, as `memhist import` hands
// over its buffer, and again in pieces, as `memhist record` feeds a pipe's reads (for some inputs
// with record's instruction limit); both must give the same accesses and fail on the same line.
// Also the line recognisers format detection uses.
#include "core/importers/lackeyparser.h"
#include "fuzzsupport.h"

using namespace memhist;
using namespace memhist::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArrayView input(data, qsizetype(size));
    LackeyParser::isTraceLine(firstLine(input));
    LackeyParser::isValgrindMessage(firstLine(input));

    const auto parse = [&](qsizetype pieceSize) {
        ImportOptions options;
        options.withExecute = true;
        DigestSink sink;
        LackeyParser parser(QStringLiteral("lackey"), sink, options);
        if (size % 4 == 0)
            parser.setInstructionLimit(qint64(size % 97));
        return feedInPieces(
            parser, sink, input, pieceSize, [&](QByteArrayView rest) { return parser.finish(rest, false); });
    };
    const qsizetype pieceSize = 1 + qsizetype(size % 61);
    requireSameOutcome(parse(std::max<qsizetype>(input.size(), 1)), parse(pieceSize), pieceSize);
    return 0;
}
