// SPDX-License-Identifier: MIT
// Tenet traces (core/importers/tenetparser.h): the whole input at once and again in pieces, as the
// importer's buffer hands them over; both must give the same accesses and fail on the same line.
// Also the line recogniser format detection uses.
#include "core/importers/tenetparser.h"
#include "fuzzsupport.h"

using namespace memhist;
using namespace memhist::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArrayView input(data, qsizetype(size));
    TenetParser::isTenetLine(firstLine(input));

    const auto parse = [&](qsizetype pieceSize) {
        ImportOptions options;
        options.withExecute = true;
        DigestSink sink;
        TenetParser parser(QStringLiteral("tenet"), sink, options);
        return feedInPieces(parser, sink, input, pieceSize, [&](QByteArrayView rest) { return parser.finish(rest); });
    };
    const qsizetype pieceSize = 1 + qsizetype(size % 61);
    requireSameOutcome(parse(std::max<qsizetype>(input.size(), 1)), parse(pieceSize), pieceSize);
    return 0;
}
