// SPDX-License-Identifier: MIT
#include "core/importers/valgrindverboselines.h"

#include "core/context/elfloadmappings.h"
#include "core/model/numbertext.h"

#include <QFileInfo>
#include <QRegularExpression>

namespace memhist {

namespace {

// The text of a message after its "--PID-- " prefix (one space kept off), or the whole line.
QByteArrayView messageText(QByteArrayView line)
{
    if (line.size() < 2)
        return line;
    const char fence = line[0];
    qsizetype i = 2;
    while (i < line.size() && line[i] >= '0' && line[i] <= '9')
        ++i;
    if (i + 2 > line.size() || line[i] != fence || line[i + 1] != fence)
        return line;
    i += 2;
    if (i < line.size() && line[i] == ' ')
        ++i;
    return line.sliced(i);
}

// "0x0000001050" at the start of `text` (after blanks); the value, and *rest after it.
std::optional<std::uint64_t> hexNumber(QByteArrayView text, QByteArrayView *rest)
{
    qsizetype i = 0;
    while (i < text.size() && text[i] == ' ')
        ++i;
    if (text.size() - i < 3 || text[i] != '0' || (text[i + 1] != 'x' && text[i + 1] != 'X'))
        return std::nullopt;
    i += 2;
    const qsizetype digits = i;
    std::uint64_t value = 0;
    while (i < text.size() && i - digits < 16) {
        const char c = text[i];
        const int digit = hexDigitValue(c);
        if (digit < 0)
            break;
        value = (value << 4) | std::uint64_t(digit);
        ++i;
    }
    if (i == digits)
        return std::nullopt;
    *rest = text.sliced(i);
    return value;
}

QString decoded(QByteArrayView bytes)
{
    return QString::fromUtf8(bytes).trimmed();
}

} // namespace

bool ValgrindVerboseLines::isValgrindsOwn(const QString &path) const
{
    const QFileInfo file(path);
    if (file.fileName().startsWith(QLatin1String("vgpreload_")))
        return false;
    if (!m_libraryDirectory.isEmpty())
        return file.absolutePath() == m_libraryDirectory;
    return file.absolutePath().endsWith(QLatin1String("/valgrind"));
}

void ValgrindVerboseLines::flush()
{
    if (!m_pending)
        return;
    PendingLoad load = *std::move(m_pending);
    m_pending.reset();
    // Without its avma line (a log from plain -v) there is no bias: nothing to place it with.
    if (!load.bias)
        return;
    LoadedModule module;
    module.path = load.path;
    module.bias = *load.bias;
    module.buildId = load.buildId;
    module.first = load.from;
    m_sink.addModule(module);
    ++m_modules;
    // A file that cannot be read here is still a module: its PCs get module+offset, and the
    // history's context notes say why it has no symbols.
    QList<Mapping> mappings;
    QString error;
    if (elfLoadMappings(load.path, load.bias.value(), &mappings, &error)) {
        for (const Mapping &mapping : std::as_const(mappings))
            m_sink.addMapping(load.from, mapping);
    }
    m_loaded.insert(load.path, mappings);
}

void ValgrindVerboseLines::handleMessage(QByteArrayView line, Transition next)
{
    const QByteArrayView text = messageText(line);
    // Lines of a load's block are indented; anything else ends the block.
    const bool indented = text.startsWith(' ');
    if (!indented)
        flush();
    static constexpr QByteArrayView reading("Reading syms from ");
    static constexpr QByteArrayView libraryDirectory("Valgrind library directory: ");
    static constexpr QByteArrayView considering("Considering ");
    static constexpr QByteArrayView buildIdFolder("/.build-id/");
    static constexpr QByteArrayView discarding("Discarding syms at ");
    if (text.startsWith(reading)) {
        const QString path = decoded(text.sliced(reading.size()));
        if (!path.isEmpty() && !isValgrindsOwn(path))
            m_pending = PendingLoad { path, next, std::nullopt, QString() };
        return;
    }
    if (text.startsWith(discarding)) {
        // "Discarding syms at 0x483d040-0x483d139 in /tmp/libshared.so (have_dinfo 1)"
        const qsizetype in = text.indexOf(" in ");
        if (in < 0)
            return;
        QByteArrayView name = text.sliced(in + 4);
        const qsizetype detail = name.lastIndexOf(" (");
        if (detail >= 0)
            name = name.first(detail);
        const QList<Mapping> mappings = m_loaded.take(decoded(name));
        for (const Mapping &mapping : mappings)
            m_sink.removeMapping(next, mapping.first, mapping.last);
        return;
    }
    if (text.startsWith(libraryDirectory)) {
        m_libraryDirectory = decoded(text.sliced(libraryDirectory.size()));
        return;
    }
    if (text.startsWith(clientStackLinePrefix)) {
        // "memhist record: client stack 0x1ffe801000-0x1fff000fff", before the line of the
        // program's first access: the stack from that access's instruction on, as recorded.
        QByteArrayView rest;
        const auto first = hexNumber(text.sliced(clientStackLinePrefix.size()), &rest);
        if (!first || !rest.startsWith('-'))
            return;
        const auto last = hexNumber(rest.sliced(1), &rest);
        if (!last || *last < *first || !rest.trimmed().isEmpty())
            return;
        const Transition at { next.value > 0 ? next.value - 1 : 0 };
        m_sink.addMapping(at, clientStackMapping(Address { *first }, Address { *last }));
        return;
    }
    if (!m_pending || !indented)
        return;
    const QByteArrayView body = text.trimmed();
    if (body.startsWith("svma ")) {
        // "svma 0x0000001050, avma 0x0000109050": an ELF address and where it is at run time.
        QByteArrayView rest;
        const auto svma = hexNumber(body.sliced(5), &rest);
        if (!svma || !rest.startsWith(", avma "))
            return;
        const auto avma = hexNumber(rest.sliced(7), &rest);
        if (avma)
            m_pending->bias = *avma - *svma;
        return;
    }
    if (body.startsWith(considering)) {
        // ".../.build-id/7e/bc65...a9.debug ..": the build-id valgrind looks for is the object's.
        const qsizetype folder = body.indexOf(buildIdFolder);
        if (folder < 0)
            return;
        const QByteArrayView name = body.sliced(folder + buildIdFolder.size());
        const qsizetype dot = name.indexOf(".debug");
        if (dot < 3 || name[2] != '/')
            return;
        const QString id = QString::fromLatin1(name.first(2)) + QString::fromLatin1(name.sliced(3, dot - 3));
        static const QRegularExpression hexDigits(QStringLiteral("^[0-9a-f]+$"));
        if (hexDigits.match(id).hasMatch())
            m_pending->buildId = id;
    }
}

void ValgrindVerboseLines::handleSyscall(QByteArrayView line, Transition next)
{
    flush();
    static constexpr QByteArrayView success("Success(");
    const qsizetype result = line.lastIndexOf(success);
    if (result < 0)
        return;
    QByteArrayView rest;
    const auto value = hexNumber(line.sliced(result + success.size()), &rest);
    if (!value)
        return;
    // The arguments as valgrind prints them: "( 0x0, 8192, 3, 34, 4294967295, 0 )".
    const qsizetype open = line.indexOf(" ( ");
    const qsizetype close = line.indexOf(" )", open + 1);
    QList<QByteArray> arguments;
    if (open >= 0 && close >= open + 3) { // " ( )": no arguments
        for (const QByteArray &argument : line.sliced(open + 3, close - open - 3).toByteArray().split(','))
            arguments << argument.trimmed();
    }
    const auto number = [&](qsizetype index) -> std::optional<std::uint64_t> {
        if (index >= arguments.size())
            return std::nullopt;
        std::uint64_t parsed = 0;
        return parseUnsigned(arguments[index], &parsed) ? std::optional(parsed) : std::nullopt;
    };
    constexpr std::uint64_t pageSize = 0x1000;
    const auto pages = [](std::uint64_t length) { return (length + pageSize - 1) & ~(pageSize - 1); };

    if (line.contains(" sys_brk ")) {
        handleBreak(*value, next);
    } else if (line.contains(" sys_mmap ")) {
        // Anonymous memory (MAP_ANONYMOUS): large malloc() blocks, thread stacks, the loader's own.
        // Files are announced by "Reading syms from" when they hold code; other files are left out.
        constexpr std::uint64_t mapAnonymous = 0x20;
        const auto length = number(1);
        const auto protection = number(2);
        const auto flags = number(3);
        if (!length || !protection || !flags || !(*flags & mapAnonymous) || *length == 0)
            return;
        QString permissions = QStringLiteral("---p");
        if (*protection & 1)
            permissions[0] = u'r';
        if (*protection & 2)
            permissions[1] = u'w';
        if (*protection & 4)
            permissions[2] = u'x';
        if (*flags & 1) // MAP_SHARED
            permissions[3] = u's';
        m_sink.addMapping(next,
            Mapping {
                Address { *value }, Address { *value + pages(*length) - 1 }, permissions, 0, anonymousMappingPath() });
    } else if (line.contains(" sys_munmap ")) {
        const auto address = number(0);
        const auto length = number(1);
        if (address && length && *length > 0)
            m_sink.removeMapping(next, Address { *address }, Address { *address + pages(*length) - 1 });
    }
}

void ValgrindVerboseLines::handleBreak(std::uint64_t value, Transition next)
{
    // The first brk() tells where the heap starts (valgrind places it, not the kernel); each later
    // one where it ends now.
    if (!m_heapFirst) {
        m_heapFirst = value;
        m_heapEnd = value;
        return;
    }
    if (value == m_heapEnd)
        return;
    if (value > *m_heapFirst) {
        m_sink.addMapping(next,
            Mapping {
                Address { *m_heapFirst }, Address { value - 1 }, QStringLiteral("rw-p"), 0, QStringLiteral("[heap]") });
        if (value < m_heapEnd)
            m_sink.removeMapping(next, Address { value }, Address { m_heapEnd - 1 });
    } else if (m_heapEnd > *m_heapFirst) {
        m_sink.removeMapping(next, Address { *m_heapFirst }, Address { m_heapEnd - 1 });
    }
    m_heapEnd = std::max(value, *m_heapFirst);
}

void ValgrindVerboseLines::finish()
{
    flush();
}

} // namespace memhist
