// SPDX-License-Identifier: MIT
// The rows of the context tables (contextschema.h) as the collector builds them and the table
// writer stores them: plain values, run-time addresses, ids as stored.
#pragma once

#include "core/context/codetrace.h"
#include "core/context/contexttypes.h"
#include "core/context/processmap.h"
#include "core/values/valueblock.h"

#include <QByteArray>
#include <QString>
#include <vector>

namespace memhist {

// memory_map: one mapping and its lifetime; moduleId 0 = no module.
struct MemoryMapRow
{
    Transition first;
    Transition last;
    Mapping mapping;
    qint64 moduleId = 0;

    friend bool operator==(const MemoryMapRow &, const MemoryMapRow &) = default;
};

// modules: id from 1, the load (first/last are the stored lifetime).
struct ModuleRow
{
    qint64 id = 0;
    LoadedModule module;

    friend bool operator==(const ModuleRow &, const ModuleRow &) = default;
};

struct ModuleSectionRow
{
    qint64 moduleId = 0;
    SectionRange section;
};

struct FunctionRow
{
    qint64 id = 0;
    qint64 moduleId = 0;
    QString name;
    AddressRange range;

    friend bool operator==(const FunctionRow &, const FunctionRow &) = default;
};

struct DataObjectRow
{
    qint64 moduleId = 0;
    DataObject object;
};

struct SourceFileRow
{
    qint64 id = 0;
    QString path;

    friend bool operator==(const SourceFileRow &, const SourceFileRow &) = default;
};

struct SourceLineRow
{
    AddressRange range;
    qint64 fileId = 0;
    int line = 0;

    friend bool operator==(const SourceLineRow &, const SourceLineRow &) = default;
};

struct InstructionRow
{
    Address pc;
    QByteArray bytes;
    QString text;

    friend bool operator==(const InstructionRow &, const InstructionRow &) = default;
};

// Rows of the code resolved while the trace is read (codepreparer.h), stored as they come. The
// end stores what its own resolution says where they differ (ContextCollector::writeResolved).
struct EarlyCodeRows
{
    std::vector<InstructionRow> instructions;
    std::vector<SourceFileRow> sourceFiles;
    std::vector<SourceLineRow> sourceLines;

    bool isEmpty() const { return instructions.empty() && sourceFiles.empty() && sourceLines.empty(); }
    std::size_t size() const { return instructions.size() + sourceFiles.size() + sourceLines.size(); }
    void append(EarlyCodeRows &&other)
    {
        const auto move = [](auto &to, auto &from) { to.insert(to.end(), from.begin(), from.end()); };
        move(instructions, other.instructions);
        move(sourceFiles, other.sourceFiles);
        move(sourceLines, other.sourceLines);
    }
};

// Early rows the end found wrong or not to be there: deleted before the end's rows go in. Lines
// have no key the table is searched by before its index exists, so any wrong line deletes them
// all, and the end stores all of its own.
struct EarlyCodeDeletions
{
    std::vector<Address> instructions; // by pc
    std::vector<qint64> sourceFiles; // by id
    bool allSourceLines = false;

    bool isEmpty() const { return instructions.empty() && sourceFiles.empty() && !allSourceLines; }
};

// What the collector hands over while the trace is read: completed code_trace rows, access
// values and early code rows, stored by the writer's store thread with the slice they arrived
// with.
struct ContextBatch
{
    std::vector<CodeTraceRow> codeTrace;
    std::vector<ValueBlock> values; // access_value_blocks rows
    EarlyCodeRows code;

    bool isEmpty() const { return codeTrace.empty() && values.empty() && code.isEmpty(); }
};

// Everything resolved at the end of a recording or import.
struct ResolvedContext
{
    std::vector<CodeRun> codeRuns; // id = index + 1
    std::vector<MemoryMapRow> memoryMap;
    std::vector<ModuleRow> modules;
    std::vector<ModuleSectionRow> sections;
    std::vector<FunctionRow> functions;
    std::vector<DataObjectRow> dataObjects;
    std::vector<SourceFileRow> sourceFiles;
    std::vector<SourceLineRow> sourceLines;
    std::vector<InstructionRow> instructions;
};

} // namespace memhist
