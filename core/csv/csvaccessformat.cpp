// SPDX-License-Identifier: MIT
#include "core/csv/csvaccessformat.h"

#include "core/model/numbertext.h"

#include <cstring>
#include <limits>

namespace memhist::csv {

namespace {

constexpr int fieldCount = 6;
constexpr const char *fieldNames[fieldCount] = { "rowid", "transition", "operation", "address", "linear", "size" };

// The offending text as it appears in an error message, shortened so that a binary file fed by
// mistake does not flood the terminal.
QString quoted(QByteArrayView text)
{
    constexpr qsizetype maxShown = 40;
    QString shown = QString::fromUtf8(text.first(std::min(text.size(), maxShown)));
    if (text.size() > maxShown)
        shown += QStringLiteral("...");
    return u'\'' + shown + u'\'';
}

QString fieldPrefix(int index)
{
    return QStringLiteral("field %1 (%2): ").arg(index + 1).arg(QLatin1String(fieldNames[index]));
}

bool fail(QString *error, int index, const QString &reason)
{
    if (error)
        *error = fieldPrefix(index) + reason;
    return false;
}

// Parses a required number field and reports why it is not one.
bool numberField(QByteArrayView text, int index, std::uint64_t *value, QString *error)
{
    switch (parseNumber(text, value)) {
    case NumberStatus::Ok:
        return true;
    case NumberStatus::Empty:
        return fail(error, index, QStringLiteral("empty, expected a number"));
    case NumberStatus::NotANumber:
        return fail(error, index, quoted(text) + QStringLiteral(" is not a number"));
    case NumberStatus::TooLarge:
        return fail(error, index, quoted(text) + QStringLiteral(" is out of range (more than 64 bits)"));
    }
    return false;
}

char *appendDecimal(char *out, std::uint64_t value)
{
    char digits[20];
    int n = 0;
    do {
        digits[n++] = char('0' + value % 10);
        value /= 10;
    } while (value);
    while (n)
        *out++ = digits[--n];
    return out;
}

} // namespace

QByteArray header()
{
    return QByteArrayLiteral("rowid,transition,operation,address,linear,size");
}

bool hasColumnsAfterTheSix(QByteArrayView headerLine)
{
    const QByteArray six = header();
    return headerLine.startsWith(six) && headerLine.sliced(six.size()).startsWith(',');
}

char operationLetter(Operation operation)
{
    switch (operation) {
    case Operation::Read:
        return 'R';
    case Operation::Write:
        return 'W';
    case Operation::Execute:
        return 'X';
    }
    return '?';
}

QByteArray formatRow(const Access &access)
{
    // Longest row: 19 + 20 + 1 + 18 + 18 + 10 characters and 5 commas.
    char buffer[128];
    char *out = buffer;
    out = appendDecimal(out, std::uint64_t(access.rowId.value));
    *out++ = ',';
    out = appendDecimal(out, access.transition.value);
    *out++ = ',';
    *out++ = operationLetter(access.operation);
    *out++ = ',';
    out = appendHex(out, access.physical.value);
    *out++ = ',';
    if (access.linear)
        out = appendHex(out, access.linear->value);
    *out++ = ',';
    out = appendDecimal(out, access.size);
    return QByteArray(buffer, out - buffer);
}

bool parseRow(QByteArrayView line, Access *access, QString *error)
{
    if (!line.isEmpty() && line.back() == '\r')
        line.chop(1);

    // Split on commas without allocating: the format has no quoting, so every comma separates.
    QByteArrayView fields[fieldCount];
    int found = 0;
    const char *begin = line.data();
    const char *end = begin + line.size();
    for (;;) {
        const auto *comma = static_cast<const char *>(std::memchr(begin, ',', size_t(end - begin)));
        const char *fieldEnd = comma ? comma : end;
        if (found < fieldCount)
            fields[found] = QByteArrayView(begin, fieldEnd - begin);
        ++found;
        if (!comma)
            break;
        begin = comma + 1;
    }
    if (found != fieldCount) {
        if (error)
            *error = QStringLiteral("expected %1 fields (%2), found %3")
                         .arg(fieldCount)
                         .arg(QString::fromLatin1(header()))
                         .arg(found);
        return false;
    }

    Access result;
    std::uint64_t number = 0;

    // The row id is informational (the writer assigns its own), so it may be left empty.
    if (!fields[0].isEmpty()) {
        if (!numberField(fields[0], 0, &number, error))
            return false;
        if (number > std::uint64_t(std::numeric_limits<std::int64_t>::max()))
            return fail(error, 0, quoted(fields[0]) + QStringLiteral(" is out of range (more than 2^63-1)"));
        result.rowId = RowId { std::int64_t(number) };
    }

    if (!numberField(fields[1], 1, &number, error))
        return false;
    result.transition = Transition { number };

    const QByteArrayView op = fields[2];
    if (op.isEmpty())
        return fail(error, 2, QStringLiteral("empty, expected R, W or X"));
    if (op.size() != 1 || (op[0] != 'R' && op[0] != 'W' && op[0] != 'X'))
        return fail(error, 2, quoted(op) + QStringLiteral(" is not an operation (must be R, W or X)"));
    result.operation = op[0] == 'R' ? Operation::Read : op[0] == 'W' ? Operation::Write : Operation::Execute;

    if (!numberField(fields[3], 3, &number, error))
        return false;
    result.physical = Address { number };

    if (!fields[4].isEmpty()) {
        if (!numberField(fields[4], 4, &number, error))
            return false;
        result.linear = Address { number };
    }

    if (fields[5].isEmpty())
        return fail(error, 5, QStringLiteral("empty, expected a size"));
    const NumberStatus sizeStatus = parseNumber(fields[5], &number);
    if (sizeStatus == NumberStatus::NotANumber)
        return fail(error, 5, quoted(fields[5]) + QStringLiteral(" is not a number"));
    if (sizeStatus == NumberStatus::TooLarge || number > std::numeric_limits<std::uint32_t>::max())
        return fail(error, 5, quoted(fields[5]) + QStringLiteral(" is not a size (must be at most 4294967295)"));
    if (number == 0)
        return fail(error, 5, quoted(fields[5]) + QStringLiteral(" is not a size (must be at least 1)"));
    result.size = std::uint32_t(number);

    *access = result;
    return true;
}

QByteArray quoteField(QByteArrayView field)
{
    bool needsQuotes = false;
    for (const char c : field)
        needsQuotes |= c == ',' || c == '"' || c == '\r' || c == '\n';
    if (!needsQuotes)
        return field.toByteArray();
    QByteArray quoted = "\"";
    for (const char c : field) {
        if (c == '"')
            quoted += '"';
        quoted += c;
    }
    quoted += '"';
    return quoted;
}

} // namespace memhist::csv
