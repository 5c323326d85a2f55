// SPDX-License-Identifier: MIT
#include "core/search/valuetext.h"

#include <algorithm>
#include <cstdint>

namespace memhist {

bool parseHexValue(const QString &option, const QString &text, QByteArray *value, QString *error)
{
    QString digits = text;
    digits.remove(u' ').remove(u':').remove(u'-');
    if (digits.startsWith(QLatin1String("0x"), Qt::CaseInsensitive))
        digits = digits.mid(2);
    const bool allHex = std::all_of(digits.cbegin(), digits.cend(), [](QChar c) { return isxdigit(c.toLatin1()); });
    if (digits.isEmpty() || digits.size() % 2 != 0 || !allHex) {
        *error = QStringLiteral("%1: '%2' is not hex bytes in memory order (pairs of hex digits, e.g. 2a00)")
                     .arg(option, text);
        return false;
    }
    *value = QByteArray::fromHex(digits.toLatin1());
    return true;
}

bool integerValue(const QString &option, const QString &text, int size, QByteArray *value, QString *error)
{
    const QString trimmed = text.trimmed();
    const bool negative = trimmed.startsWith(u'-');
    const QString digits = negative ? trimmed.mid(1) : trimmed;
    bool ok = false;
    const std::uint64_t magnitude = digits.startsWith(QLatin1String("0x"), Qt::CaseInsensitive)
        ? digits.mid(2).toULongLong(&ok, 16)
        : digits.toULongLong(&ok, 10);
    if (!ok || digits.startsWith(u'+') || digits.startsWith(u'-')) {
        *error = QStringLiteral("%1: '%2' is not a number").arg(option, text);
        return false;
    }
    const int bits = size * 8;
    const std::uint64_t largest = bits == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << bits) - 1;
    const std::uint64_t smallestNegative = std::uint64_t(1) << (bits - 1); // the magnitude of -2^(bits-1)
    if (negative ? magnitude > smallestNegative : magnitude > largest) {
        *error = QStringLiteral("%1: %2 does not fit in %3 %4")
                     .arg(option, text)
                     .arg(size)
                     .arg(size == 1 ? QStringLiteral("byte") : QStringLiteral("bytes"));
        return false;
    }
    const std::uint64_t bitsOfValue = negative ? ~magnitude + 1 : magnitude;
    value->clear();
    for (int i = 0; i < size; ++i)
        value->append(char((bitsOfValue >> (8 * i)) & 0xff));
    return true;
}

} // namespace memhist
