// SPDX-License-Identifier: MIT
// The CSV form of accesses (core/csv/csvaccessformat.h), line by line as the importer reads it.
// Every row that parses must format back to a row that parses to the same access, and formatting
// that again must give the same text: `memhist export` then `memhist import` keeps every access.
#include "core/csv/csvaccessformat.h"
#include "core/model/numbertext.h"
#include "fuzzsupport.h"

using namespace memhist;
using namespace memhist::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArrayView input(data, qsizetype(size));
    for (qsizetype start = 0; start <= input.size();) {
        qsizetype end = input.indexOf('\n', start);
        if (end < 0)
            end = input.size();
        const QByteArrayView line = input.sliced(start, end - start);
        start = end + 1;

        std::uint64_t number;
        memhist::parseUnsigned(line, &number);
        Access access;
        QString error;
        if (!csv::parseRow(line, &access, &error)) {
            if (error.isEmpty())
                propertyBroken(QStringLiteral("a row is refused without a reason"));
            continue;
        }
        const QByteArray formatted = csv::formatRow(access);
        Access again;
        if (!csv::parseRow(formatted, &again, &error))
            propertyBroken(
                QStringLiteral("the formatted row '%1' does not parse: %2").arg(QString::fromLatin1(formatted), error));
        if (!(again == access))
            propertyBroken(
                QStringLiteral("the formatted row '%1' parses to another access").arg(QString::fromLatin1(formatted)));
        if (csv::formatRow(again) != formatted)
            propertyBroken(QStringLiteral("the row '%1' formats differently once parsed back")
                               .arg(QString::fromLatin1(formatted)));
    }
    return 0;
}
