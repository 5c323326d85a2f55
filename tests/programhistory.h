// SPDX-License-Identifier: MIT
// Histories of a program compiled by a test, written by hand through HistoryWriter as a recording
// would: its PT_LOAD segments mapped as ld.so maps them (at a load bias, or at its ELF addresses
// for a non-PIE build), a stack and a heap, its instructions as transitions, and writes with their
// values. Header-only, like toolchain.h (the tests' CMake compiles tst_*.cpp and testsupport.cpp).
#pragma once

#include "core/context/processmap.h"
#include "core/writer/historywriter.h"
#include "testsupport.h"
#include "toolchain.h"

#include <QList>
#include <QString>
#include <cstdint>

namespace memhist::test {

inline constexpr std::uint64_t programStackFirst = 0x7ffffffde000;
inline constexpr std::uint64_t programStackLast = 0x7fffffffefff;
inline constexpr std::uint64_t programHeapFirst = 0x555555600000;
inline constexpr std::uint64_t programHeapLast = 0x555555620fff;

// A load of `path` at `bias`, alive from transition 0 to 1000, with the build-id a trace gave.
inline LoadedModule moduleLoad(const QString &path, std::uint64_t bias, const QString &buildId = {})
{
    LoadedModule load;
    load.path = path;
    load.bias = bias;
    load.buildId = buildId;
    load.first = Transition { 0 };
    load.last = Transition { 1000 };
    return load;
}

// The mappings ld.so makes for `binary` loaded at `bias`: each PT_LOAD from its page, with the page
// offset of its file offset, and /proc's permissions ("r-xp").
inline QList<Mapping> loadMappings(const QString &binary, std::uint64_t bias)
{
    QList<Mapping> mappings;
    for (const ReadelfSegment &segment : loadSegments(binary)) {
        if (segment.type != QLatin1String("LOAD"))
            continue;
        QString permissions = QStringLiteral("---p");
        if (segment.flags.contains(u'R'))
            permissions[0] = u'r';
        if (segment.flags.contains(u'W'))
            permissions[1] = u'w';
        if (segment.flags.contains(u'E'))
            permissions[2] = u'x';
        mappings << Mapping { Address { (segment.address & ~0xfffull) + bias },
            Address { ((segment.address + segment.memorySize + 0xfff) & ~0xfffull) + bias - 1 }, permissions,
            segment.fileOffset & ~0xfffull, binary };
    }
    return mappings;
}

// objdump's text of an instruction at an ELF address, its branch target moved by `bias` as the
// instruction reads at run time ("call 1139 <bump>" -> "call 555555555139 <bump>").
inline QString objdumpTextAtRunTime(QString text, std::uint64_t bias)
{
    static const QRegularExpression target(QStringLiteral("^(\\S+\\s+)([0-9a-f]+)( <[^>]*>)$"));
    const QRegularExpressionMatch match = target.match(text);
    if (match.hasMatch())
        text = match.captured(1) + QString::number(match.captured(2).toULongLong(nullptr, 16) + bias, 16)
            + match.captured(3);
    return text;
}

// What writeCounterHistory wrote.
struct CounterHistory
{
    std::uint64_t storeTransition = 0; // the store to `counter` in bump ("mov dword ptr [rip + ...], eax")
    std::uint64_t storePc = 0;
    std::uint64_t bumpEntryTransition = 0; // bump's first instruction
    std::uint64_t instructions = 0; // transitions 0 .. instructions - 1
    std::uint64_t counterAddress = 0; // run-time addresses of the four writes at storeTransition
    std::uint64_t tableAddress = 0; // table + 3
    std::uint64_t stackAddress = 0;
    std::uint64_t heapAddress = 0;
    QList<QByteArray> values; // of the four writes: 11111111, 22, 3333333333333333, 4444444444444444 (hex)
};

// A history of counter.c's `binary` run at `bias`: its mappings, a stack and a heap at transition
// 0, every instruction of main and then of bump as transitions 0, 1, ..., and at the store to
// `counter` four writes (counter, table[3], the stack, the heap), each with a value of its own
// (CounterHistory::values). False when a tool or the writer failed.
inline bool writeCounterHistory(
    const QString &binary, std::uint64_t bias, const QString &output, CounterHistory *history)
{
    const auto counter = nmSymbol(binary, QStringLiteral("counter"));
    const auto table = nmSymbol(binary, QStringLiteral("table"));
    const auto bump = nmSymbol(binary, QStringLiteral("bump"));
    const auto mainFunction = nmSymbol(binary, QStringLiteral("main"));
    if (!counter || !table || !bump || !mainFunction)
        return false;
    HistoryWriter writer(output);
    if (!writer.open())
        return false;
    for (const Mapping &mapping : loadMappings(binary, bias))
        writer.addMapping(Transition { 0 }, mapping);
    writer.addMapping(Transition { 0 },
        Mapping { Address { programHeapFirst }, Address { programHeapLast }, QStringLiteral("rw-p"), 0,
            QStringLiteral("[heap]") });
    writer.addMapping(Transition { 0 },
        Mapping { Address { programStackFirst }, Address { programStackLast }, QStringLiteral("rw-p"), 0,
            QStringLiteral("[stack]") });

    *history = {};
    history->counterAddress = counter->address + bias;
    history->tableAddress = table->address + 3 + bias;
    history->stackAddress = programStackLast - 0x17;
    history->heapAddress = programHeapFirst + 0x2a0;
    const QList<ObjdumpInstruction> all = objdumpInstructions(binary);
    static const QRegularExpression store(
        QStringLiteral("^mov\\s+DWORD PTR \\[rip\\+0x[0-9a-f]+\\],eax\\s+# [0-9a-f]+ <counter>$"));
    std::uint64_t transition = 0;
    for (const auto *function : { &*mainFunction, &*bump }) {
        if (function == &*bump)
            history->bumpEntryTransition = transition;
        for (const ObjdumpInstruction &instruction : instructionsIn(all, function->address, function->size)) {
            const std::uint64_t pc = instruction.address + bias;
            if (!writer.addInstruction(Transition { transition }, Address { pc }, quint8(instruction.bytes.size())))
                return false;
            if (function == &*bump && store.match(instruction.text).hasMatch() && history->storePc == 0) {
                history->storeTransition = transition;
                history->storePc = pc;
                char fill = 0x11;
                for (const auto &[address, size] :
                    { std::pair { history->counterAddress, 4u }, std::pair { history->tableAddress, 1u },
                        std::pair { history->stackAddress, 8u }, std::pair { history->heapAddress, 8u } }) {
                    if (!writer.add(userAccess(transition, Operation::Write, address, size)))
                        return false;
                    history->values << QByteArray(qsizetype(size), fill);
                    writer.addValue({ history->values.last(), {}, std::nullopt });
                    fill = char(fill + 0x11);
                }
            }
            ++transition;
        }
    }
    history->instructions = transition;
    return history->storePc != 0 && writer.finish();
}

} // namespace memhist::test
