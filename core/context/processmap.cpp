// SPDX-License-Identifier: MIT
#include "core/context/processmap.h"

#include "core/model/numbertext.h"

#include <optional>

namespace memhist {

namespace {

bool isBlank(char c)
{
    return c == ' ' || c == '\t';
}

std::optional<std::uint64_t> parseHex(QByteArrayView text)
{
    if (text.isEmpty() || text.size() > 16)
        return std::nullopt;
    std::uint64_t value = 0;
    for (const char c : text) {
        const int digit = hexDigitValue(c);
        if (digit < 0)
            return std::nullopt;
        value = (value << 4) | std::uint64_t(digit);
    }
    return value;
}

bool isDecimal(QByteArrayView text)
{
    if (text.isEmpty())
        return false;
    for (const char c : text) {
        if (c < '0' || c > '9')
            return false;
    }
    return true;
}

bool isPermissions(QByteArrayView text)
{
    return text.size() == 4 && (text[0] == 'r' || text[0] == '-') && (text[1] == 'w' || text[1] == '-')
        && (text[2] == 'x' || text[2] == '-') && (text[3] == 'p' || text[3] == 's');
}

QString shown(QByteArrayView text)
{
    return QString::fromUtf8(text.first(std::min<qsizetype>(text.size(), 60)));
}

// Reads one line into *mapping; an empty reason means success.
QString parseLine(QByteArrayView line, Mapping *mapping)
{
    QByteArrayView fields[5];
    qsizetype position = 0;
    const auto skipBlanks = [&] {
        while (position < line.size() && isBlank(line[position]))
            ++position;
    };
    for (int i = 0; i < 5; ++i) {
        skipBlanks();
        const qsizetype begin = position;
        while (position < line.size() && !isBlank(line[position]))
            ++position;
        if (position == begin)
            return QStringLiteral("expected START-END PERMS OFFSET DEV INODE [PATH], found %1 fields").arg(i);
        fields[i] = line.sliced(begin, position - begin);
    }
    skipBlanks();
    const QByteArrayView path = line.sliced(position);

    const qsizetype dash = fields[0].indexOf('-');
    const auto start = dash > 0 ? parseHex(fields[0].first(dash)) : std::nullopt;
    const auto end = dash > 0 ? parseHex(fields[0].sliced(dash + 1)) : std::nullopt;
    if (!start || !end)
        return QStringLiteral("'%1' is not an address range (START-END in hex)").arg(shown(fields[0]));
    if (*end <= *start)
        return QStringLiteral("address range '%1' is empty or ends before it starts").arg(shown(fields[0]));
    if (!isPermissions(fields[1]))
        return QStringLiteral("'%1' are not permissions (4 characters such as r-xp)").arg(shown(fields[1]));
    const auto offset = parseHex(fields[2]);
    if (!offset)
        return QStringLiteral("'%1' is not a file offset (hex)").arg(shown(fields[2]));
    const qsizetype colon = fields[3].indexOf(':');
    if (colon <= 0 || !parseHex(fields[3].first(colon)) || !parseHex(fields[3].sliced(colon + 1)))
        return QStringLiteral("'%1' is not a device (MAJOR:MINOR in hex)").arg(shown(fields[3]));
    if (!isDecimal(fields[4]))
        return QStringLiteral("'%1' is not an inode (decimal)").arg(shown(fields[4]));

    mapping->first = Address { *start };
    mapping->last = Address { *end - 1 };
    mapping->permissions = QString::fromLatin1(fields[1]);
    mapping->fileOffset = *offset;
    mapping->path = path.isEmpty() ? anonymousMappingPath() : QString::fromUtf8(path);
    return {};
}

} // namespace

bool parseProcessMaps(QByteArrayView text, const QString &sourceName, QList<Mapping> *mappings, QString *error)
{
    qint64 lineNumber = 0;
    qsizetype position = 0;
    while (position < text.size()) {
        qsizetype end = text.indexOf('\n', position);
        if (end < 0)
            end = text.size();
        QByteArrayView line = text.sliced(position, end - position);
        position = end + 1;
        ++lineNumber;
        while (!line.isEmpty() && (line.back() == '\r' || isBlank(line.back())))
            line.chop(1);
        if (line.trimmed().isEmpty())
            continue;
        Mapping mapping;
        const QString reason = parseLine(line, &mapping);
        if (!reason.isEmpty()) {
            *error = sourceName + u':' + QString::number(lineNumber) + QStringLiteral(": ") + reason;
            return false;
        }
        mappings->append(mapping);
    }
    return true;
}

} // namespace memhist
