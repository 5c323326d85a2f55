// SPDX-License-Identifier: MIT
#include "core/importers/drmemtrace/modulelist.h"

#include "core/model/numbertext.h"

#include <QStringList>

namespace memhist::drmemtrace {

namespace {

constexpr int firstVersion = 2;
constexpr int lastVersion = 5;

enum class Column {
    Id,
    ContainingId,
    Start,
    End,
    Entry,
    Offset,
    PreferredBase,
    Checksum,
    Timestamp,
    Custom,
};

std::optional<Column> columnNamed(QByteArrayView name)
{
    if (name == "id")
        return Column::Id;
    if (name == "containing_id")
        return Column::ContainingId;
    if (name == "start" || name == "base")
        return Column::Start;
    if (name == "end")
        return Column::End;
    if (name == "entry")
        return Column::Entry;
    if (name == "offset")
        return Column::Offset;
    if (name == "preferred_base")
        return Column::PreferredBase;
    if (name == "checksum")
        return Column::Checksum;
    if (name == "timestamp")
        return Column::Timestamp;
    if (name == "(custom fields)")
        return Column::Custom;
    return std::nullopt;
}

QString printable(QByteArrayView text)
{
    QString result;
    for (const char c : text.first(std::min<qsizetype>(text.size(), 40)))
        result += (c >= 0x20 && c < 0x7f) ? QLatin1Char(c) : QLatin1Char('?');
    if (text.size() > 40)
        result += QStringLiteral("...");
    return result;
}

std::optional<std::uint64_t> parseNumber(QByteArrayView text, int base)
{
    if (base == 16 && (text.startsWith("0x") || text.startsWith("0X")))
        text = text.sliced(2);
    if (text.isEmpty() || text.size() > (base == 16 ? 16 : 19))
        return std::nullopt;
    std::uint64_t value = 0;
    for (const char c : text) {
        int digit;
        if (c >= '0' && c <= '9')
            digit = c - '0';
        else if (base == 16 && (c | 0x20) >= 'a' && (c | 0x20) <= 'f')
            digit = (c | 0x20) - 'a' + 10;
        else
            return std::nullopt;
        value = value * std::uint64_t(base) + std::uint64_t(digit);
    }
    return value;
}

// Reads the text line by line and field by field, counting lines (raw custom contents included).
class Cursor
{
public:
    Cursor(QByteArrayView text)
        : m_text(text)
    { }

    int line() const { return m_line; }
    bool atEnd() const { return m_position >= m_text.size(); }

    // The rest of the current line without its end ("\n", "\r\n"); moves to the next line.
    QByteArrayView takeLine()
    {
        qsizetype end = m_text.indexOf('\n', m_position);
        const bool hasNewline = end >= 0;
        if (!hasNewline)
            end = m_text.size();
        QByteArrayView line = m_text.sliced(m_position, end - m_position);
        if (line.endsWith('\r'))
            line.chop(1);
        m_position = hasNewline ? end + 1 : end;
        if (hasNewline)
            ++m_line;
        return line;
    }

    void skipBlanks()
    {
        while (m_position < m_text.size() && (m_text[m_position] == ' ' || m_text[m_position] == '\t'))
            ++m_position;
    }

    // The field up to the next comma on this line (blanks around it dropped); none when the line
    // ends first.
    std::optional<QByteArrayView> takeField()
    {
        skipBlanks();
        qsizetype end = m_position;
        while (end < m_text.size() && m_text[end] != ',' && m_text[end] != '\n')
            ++end;
        if (end >= m_text.size() || m_text[end] != ',')
            return std::nullopt;
        QByteArrayView field = m_text.sliced(m_position, end - m_position);
        while (field.endsWith(' ') || field.endsWith('\t'))
            field.chop(1);
        m_position = end + 1;
        return field;
    }

    bool startsWith(QByteArrayView prefix) const { return m_text.sliced(m_position).startsWith(prefix); }

    // Skips `count` raw bytes, counting the newlines among them. False when fewer remain.
    bool skipRaw(std::uint64_t count)
    {
        if (count > std::uint64_t(m_text.size() - m_position))
            return false;
        const QByteArrayView raw = m_text.sliced(m_position, qsizetype(count));
        m_line += int(raw.count('\n'));
        m_position += qsizetype(count);
        return true;
    }

private:
    QByteArrayView m_text;
    qsizetype m_position = 0;
    int m_line = 1;
};

} // namespace

bool parseModuleList(QByteArrayView text, const QString &sourceName, ModuleList *list, QString *error)
{
    *list = {};
    Cursor cursor(text);
    int line = 1;
    const auto fail = [&](const QString &reason) {
        *error = sourceName + u':' + QString::number(line) + QStringLiteral(": ") + reason;
        return false;
    };

    const QByteArrayView header = cursor.takeLine();
    constexpr QByteArrayView tablePrefix("Module Table: ");
    if (!header.startsWith(tablePrefix))
        return fail(QStringLiteral("'%1' is not a module list header (expected 'Module Table: version V, count N')")
                        .arg(printable(header)));
    const QByteArrayView afterPrefix = header.sliced(tablePrefix.size());
    if (parseNumber(afterPrefix, 10))
        return fail(QStringLiteral("a version 1 module list (sizes, no addresses): not supported"));
    const qsizetype comma = afterPrefix.indexOf(", count ");
    std::optional<std::uint64_t> version;
    std::optional<std::uint64_t> count;
    if (afterPrefix.startsWith("version ") && comma > 0) {
        version = parseNumber(afterPrefix.sliced(8, comma - 8), 10);
        count = parseNumber(afterPrefix.sliced(comma + 8), 10);
    }
    if (!version || !count)
        return fail(QStringLiteral("'%1' is not a module list header (expected 'Module Table: version V, count N')")
                        .arg(printable(header)));
    if (*version < firstVersion || *version > lastVersion)
        return fail(QStringLiteral("module list version %1 (this reader knows versions %2 to %3)")
                        .arg(*version)
                        .arg(firstVersion)
                        .arg(lastVersion));
    if (*count > 1000000)
        return fail(QStringLiteral("a count of %1 modules (at most 1000000)").arg(*count));
    list->version = int(*version);

    line = cursor.line();
    const QByteArrayView columnsLine = cursor.takeLine();
    if (!columnsLine.startsWith("Columns: "))
        return fail(QStringLiteral("'%1' is not the columns line (expected 'Columns: id, ..., path')")
                        .arg(printable(columnsLine)));
    QList<Column> columns;
    QStringList names;
    const QList<QByteArray> parts = columnsLine.sliced(9).toByteArray().split(',');
    for (qsizetype i = 0; i < parts.size(); ++i) {
        const QByteArray name = parts[i].trimmed();
        if (i == parts.size() - 1) {
            if (name != "path")
                return fail(QStringLiteral("the last column is '%1', not 'path'").arg(printable(name)));
            break;
        }
        const std::optional<Column> column = columnNamed(name);
        if (!column)
            return fail(QStringLiteral("unknown column '%1'").arg(printable(name)));
        columns << *column;
        names << QString::fromLatin1(name);
    }
    if (columns.value(0) != Column::Id || !columns.contains(Column::Start) || !columns.contains(Column::End))
        return fail(QStringLiteral("the columns do not start with id or lack start or end"));

    for (std::uint64_t index = 0; index < *count; ++index) {
        line = cursor.line();
        if (cursor.atEnd())
            return fail(QStringLiteral("the list ends after %1 of its %2 modules").arg(index).arg(*count));
        ModuleListEntry entry;
        std::optional<std::uint64_t> containing;
        for (qsizetype c = 0; c < columns.size(); ++c) {
            const Column column = columns[c];
            if (column == Column::Custom) {
                cursor.skipBlanks();
                // drmemtrace's own field: "v#VERSION,SIZE," and SIZE raw bytes. A list written without
                // it goes on with the path.
                if (!cursor.startsWith("v#"))
                    continue;
                const std::optional<QByteArrayView> tag = cursor.takeField();
                const std::optional<QByteArrayView> size = tag ? cursor.takeField() : std::nullopt;
                const std::optional<std::uint64_t> bytes = size ? parseNumber(*size, 10) : std::nullopt;
                if (!bytes)
                    return fail(QStringLiteral("module %1: custom field without 'v#VERSION,SIZE,'").arg(index));
                if (!cursor.skipRaw(*bytes))
                    return fail(QStringLiteral("module %1: the file ends inside its %2 bytes of contents")
                                    .arg(index)
                                    .arg(*bytes));
                continue;
            }
            const std::optional<QByteArrayView> field = cursor.takeField();
            if (!field)
                return fail(QStringLiteral("module %1: the line ends before the field '%2'").arg(index).arg(names[c]));
            const bool decimal = column == Column::Id || column == Column::ContainingId;
            const std::optional<std::uint64_t> value = parseNumber(*field, decimal ? 10 : 16);
            if (!value)
                return fail(
                    QStringLiteral("module %1: field '%2': '%3' is not a %4 number")
                        .arg(index)
                        .arg(names[c], printable(*field), decimal ? QStringLiteral("decimal") : QStringLiteral("hex")));
            switch (column) {
            case Column::Id:
                if (*value != index)
                    return fail(QStringLiteral("module id %1 where %2 was expected (ids count from 0, in order)")
                                    .arg(*value)
                                    .arg(index));
                entry.id = int(index);
                break;
            case Column::ContainingId:
                containing = *value;
                break;
            case Column::Start:
                entry.start = *value;
                break;
            case Column::End:
                entry.end = *value;
                break;
            case Column::Offset:
                entry.fileOffset = *value;
                break;
            case Column::PreferredBase:
                entry.preferredBase = *value;
                break;
            case Column::Entry:
            case Column::Checksum:
            case Column::Timestamp:
            case Column::Custom:
                break;
            }
        }
        cursor.skipBlanks();
        entry.path = QString::fromUtf8(cursor.takeLine());
        if (entry.path.isEmpty())
            return fail(QStringLiteral("module %1: no path").arg(index));
        if (entry.end <= entry.start)
            return fail(QStringLiteral("module %1: end %2 is not after start %3")
                            .arg(index)
                            .arg(hexText(entry.end), hexText(entry.start)));
        entry.containingId = containing ? int(std::min<std::uint64_t>(*containing, index + 1)) : entry.id;
        if (entry.containingId > entry.id || !list->entries.value(entry.containingId, entry).isFirstSegment())
            return fail(QStringLiteral("module %1: containing id %2 names no earlier module's first segment")
                            .arg(index)
                            .arg(*containing));
        list->entries << entry;
    }
    return true;
}

std::uint64_t moduleBias(const ModuleListEntry &first)
{
    if (first.preferredBase)
        return first.start - *first.preferredBase;
    return first.start - (first.fileOffset & ~std::uint64_t(0xfff));
}

} // namespace memhist::drmemtrace
