// SPDX-License-Identifier: MIT
// Helpers of the context tests: build small programs with the system's gcc/g++ at test time and
// ask binutils (nm, addr2line, objdump, readelf) what they say about them, as the oracle the
// symbolizer and the disassembler are compared with. Header-only: the tests' CMake compiles
// tst_*.cpp and testsupport.cpp only.
#pragma once

#include <QByteArray>
#include <QDebug>
#include <QFile>
#include <QList>
#include <QMap>
#include <QProcess>
#include <QRegularExpression>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <initializer_list>
#include <optional>

namespace memhist::test {

struct ToolRun
{
    int exitCode = -1; // -1 when it could not start, crashed or ran over a minute
    QByteArray out;
    QByteArray err;
};

// Runs `program` (found on PATH) in `folder` with no standard input, in the C locale.
inline ToolRun runTool(const QString &program, const QStringList &arguments, const QString &folder = {})
{
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("LC_ALL"), QStringLiteral("C"));
    process.setProcessEnvironment(environment);
    if (!folder.isEmpty())
        process.setWorkingDirectory(folder);
    process.setStandardInputFile(QProcess::nullDevice());
    process.start(program, arguments);
    ToolRun run;
    if (!process.waitForFinished(60000)) {
        process.kill();
        process.waitForFinished();
        return run;
    }
    run.out = process.readAllStandardOutput();
    run.err = process.readAllStandardError();
    if (process.exitStatus() == QProcess::NormalExit)
        run.exitCode = process.exitCode();
    return run;
}

// For set-up steps that must succeed: true, or false with the tool's stderr as a warning.
inline bool runStep(const QString &program, const QStringList &arguments, const QString &folder = {})
{
    const ToolRun run = runTool(program, arguments, folder);
    if (run.exitCode != 0)
        qWarning().noquote() << program << arguments.join(QLatin1Char(' ')) << "failed:" << run.err;
    return run.exitCode == 0;
}

inline bool runStep(const QString &program, std::initializer_list<const char *> arguments, const QString &folder = {})
{
    QStringList list;
    for (const char *argument : arguments)
        list << QString::fromUtf8(argument);
    return runStep(program, list, folder);
}

// A symbol as `nm -S` lists it: ELF address and size (0 when nm gives none).
struct NmSymbol
{
    std::uint64_t address = 0;
    std::uint64_t size = 0;
};

// The defined symbol `name` of `binary` (`dynamic`: from .dynsym, nm -D). With `demangled`, `name`
// is the demangled name nm -C prints. Versioned .dynsym names match without their "@@VERSION".
inline std::optional<NmSymbol> nmSymbol(
    const QString &binary, const QString &name, bool demangled = false, bool dynamic = false)
{
    QStringList arguments { QStringLiteral("-S"), QStringLiteral("--defined-only") };
    if (demangled)
        arguments << QStringLiteral("-C");
    if (dynamic)
        arguments << QStringLiteral("-D");
    arguments << binary;
    const ToolRun run = runTool(QStringLiteral("nm"), arguments);
    // "0000000000001139 0000000000000023 T bump", or without the size column.
    static const QRegularExpression line(QStringLiteral("^([0-9a-f]+) (?:([0-9a-f]+) )?\\S (.+)$"));
    for (const QString &text : QString::fromUtf8(run.out).split(QLatin1Char('\n'))) {
        const QRegularExpressionMatch match = line.match(text);
        if (!match.hasMatch())
            continue;
        QString symbol = match.captured(3);
        symbol = symbol.left(
            symbol.indexOf(QStringLiteral("@@")) >= 0 ? symbol.indexOf(QStringLiteral("@@")) : symbol.size());
        if (symbol == name)
            return NmSymbol { match.captured(1).toULongLong(nullptr, 16), match.captured(2).toULongLong(nullptr, 16) };
    }
    return std::nullopt;
}

// What `addr2line -e BINARY ADDRESS...` prints for each address ("/tmp/x/counter.c:13"), in one run.
inline QStringList addr2line(const QString &binary, const QList<std::uint64_t> &addresses)
{
    QStringList arguments { QStringLiteral("-e"), binary };
    for (const std::uint64_t address : addresses)
        arguments << QStringLiteral("0x") + QString::number(address, 16);
    const ToolRun run = runTool(QStringLiteral("addr2line"), arguments);
    QStringList lines = QString::fromUtf8(run.out).split(QLatin1Char('\n'));
    if (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();
    return lines;
}

inline QString addr2line(const QString &binary, std::uint64_t address)
{
    return addr2line(binary, QList<std::uint64_t> { address }).value(0);
}

// One instruction of `objdump -d -w -M intel`: address, raw bytes and text.
struct ObjdumpInstruction
{
    std::uint64_t address = 0;
    QByteArray bytes;
    QString text; // as objdump writes it, comments included
};

// The instructions of `binary`'s executable sections, in address order.
inline QList<ObjdumpInstruction> objdumpInstructions(const QString &binary)
{
    const ToolRun run = runTool(QStringLiteral("objdump"),
        { QStringLiteral("-d"), QStringLiteral("-w"), QStringLiteral("-M"), QStringLiteral("intel"), binary });
    // "    1139:\t55                   \tpush   rbp"
    static const QRegularExpression line(QStringLiteral("^\\s*([0-9a-f]+):\\t([0-9a-f ]+)\\t(.*)$"));
    QList<ObjdumpInstruction> instructions;
    for (const QString &text : QString::fromUtf8(run.out).split(QLatin1Char('\n'))) {
        const QRegularExpressionMatch match = line.match(text);
        if (match.hasMatch()) {
            instructions << ObjdumpInstruction { match.captured(1).toULongLong(nullptr, 16),
                QByteArray::fromHex(match.captured(2).toLatin1()), match.captured(3).trimmed() };
        }
    }
    return instructions;
}

// The instructions objdump lists in [first, first + size).
inline QList<ObjdumpInstruction> instructionsIn(
    const QList<ObjdumpInstruction> &all, std::uint64_t first, std::uint64_t size)
{
    QList<ObjdumpInstruction> inside;
    for (const ObjdumpInstruction &instruction : all) {
        if (instruction.address >= first && instruction.address < first + size)
            inside << instruction;
    }
    return inside;
}

// An Intel-syntax instruction written so that objdump's and capstone's spellings of the same
// instruction compare equal: objdump's "# comment" dropped, a branch target "1139 <bump>" written
// as the number it is, letters lowercase, blanks removed, objdump's scale "*1" and displacement
// "+0x0" dropped, its absolute "fs:0x..." bracketed as capstone writes it ("ds:" for no override
// dropped), and every number (capstone writes 0-9 in decimal, objdump always in hex) as hex.
inline QString comparableInstruction(QString text)
{
    const qsizetype comment = text.indexOf(QLatin1Char('#'));
    if (comment >= 0)
        text.truncate(comment);
    static const QRegularExpression target(QStringLiteral("\\b([0-9a-f]+) <[^>]*>"));
    text.replace(target, QStringLiteral("0x\\1"));
    text = text.toLower();
    static const QRegularExpression absolute(QStringLiteral("\\b([cdefgs]s):(0x[0-9a-f]+)"));
    text.replace(absolute, QStringLiteral("\\1:[\\2]"));
    text.remove(QRegularExpression(QStringLiteral("\\s+")));
    text.replace(QStringLiteral("*1]"), QStringLiteral("]"));
    text.replace(QStringLiteral("*1+"), QStringLiteral("+"));
    text.replace(QStringLiteral("*1-"), QStringLiteral("-"));
    text.replace(QStringLiteral("ds:["), QStringLiteral("["));
    static const QRegularExpression number(QStringLiteral("(?<![\\w])(0x[0-9a-f]+|[0-9]+)(?![\\w])"));
    QString result;
    qsizetype copied = 0;
    for (auto it = number.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch match = it.next();
        result += text.mid(copied, match.capturedStart() - copied);
        const QString digits = match.captured(1);
        const bool isHex = digits.startsWith(QStringLiteral("0x"));
        const std::uint64_t value = isHex ? digits.mid(2).toULongLong(nullptr, 16) : digits.toULongLong();
        result += QStringLiteral("0x") + QString::number(value, 16);
        copied = match.capturedEnd();
    }
    result += text.mid(copied);
    // objdump writes a zero displacement ("nop DWORD PTR [rax+0x0]"), capstone leaves it out.
    result.replace(QStringLiteral("+0x0]"), QStringLiteral("]"));
    return result;
}

// An allocated section as `objdump -h -w` lists it.
struct ObjdumpSection
{
    QString name;
    std::uint64_t address = 0;
    std::uint64_t size = 0;
};

// The sections of `binary` whose flags include ALLOC, in objdump's (file) order.
inline QList<ObjdumpSection> allocatedSections(const QString &binary)
{
    const ToolRun run = runTool(QStringLiteral("objdump"), { QStringLiteral("-h"), QStringLiteral("-w"), binary });
    // "  3 .text         00000185  0000000000001040  0000000000001040  00001040  2**4  CONTENTS, ALLOC, ..."
    static const QRegularExpression line(
        QStringLiteral("^\\s*\\d+\\s+(\\S+)\\s+([0-9a-f]+)\\s+([0-9a-f]+)\\s+[0-9a-f]+\\s+[0-9a-f]+\\s+\\S+\\s+(.*)$"));
    QList<ObjdumpSection> sections;
    for (const QString &text : QString::fromUtf8(run.out).split(QLatin1Char('\n'))) {
        const QRegularExpressionMatch match = line.match(text);
        if (match.hasMatch() && match.captured(4).contains(QStringLiteral("ALLOC"))) {
            sections << ObjdumpSection { match.captured(1), match.captured(3).toULongLong(nullptr, 16),
                match.captured(2).toULongLong(nullptr, 16) };
        }
    }
    return sections;
}

// The GNU build-id `readelf -n` prints for `binary`, lowercase hex; empty when none.
inline QString readelfBuildId(const QString &binary)
{
    const ToolRun run = runTool(QStringLiteral("readelf"), { QStringLiteral("-n"), binary });
    static const QRegularExpression line(QStringLiteral("Build ID: ([0-9a-f]+)"));
    return line.match(QString::fromUtf8(run.out)).captured(1);
}

// The 1-based number of the line of `sourceFile` holding the marker "line: NAME".
inline int markedLine(const QString &sourceFile, const QString &name)
{
    QFile file(sourceFile);
    if (!file.open(QIODevice::ReadOnly))
        return 0;
    const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'));
    const QRegularExpression marker(
        QStringLiteral("line: ") + QRegularExpression::escape(name) + QStringLiteral("\\b"));
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (marker.match(lines.at(i)).hasMatch())
            return int(i) + 1;
    }
    return 0;
}

// A PT_LOAD or PT_TLS program header as `readelf -lW` lists it.
struct ReadelfSegment
{
    QString type;
    std::uint64_t fileOffset = 0;
    std::uint64_t address = 0;
    std::uint64_t fileSize = 0;
    std::uint64_t memorySize = 0;
    QString flags; // "R E", "RW", ...
};

inline QList<ReadelfSegment> loadSegments(const QString &binary)
{
    const ToolRun run = runTool(QStringLiteral("readelf"), { QStringLiteral("-lW"), binary });
    // "  LOAD           0x001000 0x0000000000001000 0x0000000000001000 0x0001e1 0x0001e1 R E 0x1000"
    static const QRegularExpression line(QStringLiteral("^\\s*(LOAD|TLS)\\s+0x([0-9a-f]+) 0x([0-9a-f]+) 0x[0-9a-f]+ "
                                                        "0x([0-9a-f]+) 0x([0-9a-f]+) (.*) 0x[0-9a-f]+$"));
    QList<ReadelfSegment> segments;
    for (const QString &text : QString::fromUtf8(run.out).split(QLatin1Char('\n'))) {
        const QRegularExpressionMatch match = line.match(text);
        if (match.hasMatch()) {
            segments << ReadelfSegment { match.captured(1), match.captured(2).toULongLong(nullptr, 16),
                match.captured(3).toULongLong(nullptr, 16), match.captured(4).toULongLong(nullptr, 16),
                match.captured(5).toULongLong(nullptr, 16), match.captured(6).trimmed() };
        }
    }
    return segments;
}

// A symbol of the .symtab section as `readelf -sW` lists it.
struct ReadelfSymbol
{
    std::uint64_t value = 0;
    std::uint64_t size = 0;
    QString type; // FUNC, OBJECT, TLS, NOTYPE, ...
    QString section; // the Ndx column: a number, UND or ABS
    QString name;
};

inline QList<ReadelfSymbol> symtabSymbols(const QString &binary)
{
    const ToolRun run = runTool(QStringLiteral("readelf"), { QStringLiteral("-sW"), binary });
    //  "    12: 0000000000004040    16 OBJECT  LOCAL  DEFAULT   27 table"
    static const QRegularExpression line(
        QStringLiteral("^\\s*\\d+: ([0-9a-f]+)\\s+(\\d+) (\\S+)\\s+\\S+\\s+\\S+\\s+(\\S+) (.+)$"));
    QList<ReadelfSymbol> symbols;
    bool inSymtab = false;
    for (const QString &text : QString::fromUtf8(run.out).split(QLatin1Char('\n'))) {
        if (text.startsWith(QStringLiteral("Symbol table")))
            inSymtab = text.contains(QStringLiteral("'.symtab'"));
        const QRegularExpressionMatch match = line.match(text);
        if (inSymtab && match.hasMatch()) {
            symbols << ReadelfSymbol { match.captured(1).toULongLong(nullptr, 16), match.captured(2).toULongLong(),
                match.captured(3), match.captured(4), match.captured(5) };
        }
    }
    return symbols;
}

} // namespace memhist::test
