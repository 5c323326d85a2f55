// SPDX-License-Identifier: MIT
#include "core/model/numbertext.h"

#include <limits>

namespace memhist {

// By hand rather than through QByteArray::toULongLong: the importers' hot path parses four numbers
// per line, toULongLong(…, 0) would read a leading 0 as octal, and this tells "not a number" from
// "more than 64 bits" for the error message.
NumberStatus parseNumber(QByteArrayView text, std::uint64_t *value)
{
    const char *p = text.data();
    const qsizetype n = text.size();
    if (n == 0)
        return NumberStatus::Empty;
    std::uint64_t result = 0;
    if (n > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        for (qsizetype i = 2; i < n; ++i) {
            const int digit = hexDigitValue(p[i]);
            if (digit < 0)
                return NumberStatus::NotANumber;
            if (result >> 60) {
                // Keep scanning: "0x1ffffffffffffffffZ" is not a number rather than too large.
                for (qsizetype j = i + 1; j < n; ++j) {
                    if (hexDigitValue(p[j]) < 0)
                        return NumberStatus::NotANumber;
                }
                return NumberStatus::TooLarge;
            }
            result = (result << 4) | std::uint64_t(digit);
        }
        *value = result;
        return NumberStatus::Ok;
    }
    bool tooLarge = false;
    for (qsizetype i = 0; i < n; ++i) {
        const unsigned digit = unsigned(p[i]) - unsigned('0');
        if (digit > 9)
            return NumberStatus::NotANumber;
        if (result > (std::numeric_limits<std::uint64_t>::max() - digit) / 10)
            tooLarge = true;
        result = result * 10 + digit;
    }
    if (tooLarge)
        return NumberStatus::TooLarge;
    *value = result;
    return NumberStatus::Ok;
}

bool parseUnsigned(QByteArrayView text, std::uint64_t *value)
{
    return parseNumber(text, value) == NumberStatus::Ok;
}

bool parseTypedNumber(QStringView text, std::uint64_t *value)
{
    const bool hex = text.size() > 2 && text[0] == u'0' && (text[1] == u'x' || text[1] == u'X');
    const auto isDigit
        = [hex](QChar c) { return c.unicode() < 0x80 && (hex ? hexDigitValue(char(c.unicode())) >= 0 : c.isDigit()); };
    QByteArray digits;
    digits.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (c == u'\'' || c == u',') {
            const qsizetype firstDigit = hex ? 2 : 0;
            if (i == firstDigit || i + 1 >= text.size() || !isDigit(text[i - 1]) || !isDigit(text[i + 1]))
                return false;
            continue;
        }
        if (c.unicode() >= 0x80)
            return false;
        digits += char(c.unicode());
    }
    return parseUnsigned(digits, value);
}

char *appendHex(char *out, std::uint64_t value)
{
    static constexpr char hexDigits[] = "0123456789abcdef";
    *out++ = '0';
    *out++ = 'x';
    char digits[16];
    int n = 0;
    do {
        digits[n++] = hexDigits[value & 0xf];
        value >>= 4;
    } while (value);
    while (n)
        *out++ = digits[--n];
    return out;
}

QByteArray hexBytes(std::uint64_t value)
{
    char buffer[18];
    return QByteArray(buffer, appendHex(buffer, value) - buffer);
}

QString hexText(std::uint64_t value)
{
    return QString::fromLatin1(hexBytes(value));
}

QString bytesText(std::uint64_t size)
{
    return size == 1 ? QStringLiteral("1 byte") : QStringLiteral("%1 bytes").arg(size);
}

QString countText(std::uint64_t value)
{
    char digits[20];
    int count = 0;
    do {
        digits[count++] = char('0' + value % 10);
        value /= 10;
    } while (value != 0);
    QString text;
    text.reserve(count + (count - 1) / 3);
    for (int i = count - 1; i >= 0; --i) {
        text += QLatin1Char(digits[i]);
        if (i > 0 && i % 3 == 0)
            text += u',';
    }
    return text;
}

QString byteValuesText(QByteArrayView bytes)
{
    return QString::fromLatin1(bytes.toByteArray().toHex(' '));
}

} // namespace memhist
