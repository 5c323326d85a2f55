// SPDX-License-Identifier: MIT
// The read side of a history's program context (the optional tables of contextschema.h): the PC
// of a transition, what a PC is (module, function, source line, instruction), the known
// instructions around it, what an accessed address is (a data object, else a region), the bytes an
// access moved, when an instruction ran, and functions by name. A history without some or all of the tables answers
// "unknown" (empty descriptions, no PC), never an error.
//
// One reader per connection, used on that connection's thread: it keeps prepared statements and
// small caches (the last code_trace row decoded, runs, descriptions of PCs).
#pragma once

#include "core/context/codetrace.h"
#include "core/context/contextrows.h"
#include "core/model/types.h"
#include "core/storage/sqlite.h"
#include "core/values/accessvaluereader.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>
#include <functional>
#include <optional>
#include <vector>

namespace memhist {

class HistoryDatabase;

// What a PC is. Every field may be unknown (empty, 0) on its own.
struct CodeDescription
{
    Address pc;
    QString modulePath; // empty when no module holds the PC
    Address moduleOffset; // the PC's ELF address in that module (PC - bias)
    QString function; // demangled; empty when unknown
    std::uint64_t functionOffset = 0;
    QString sourceFile; // empty when no line is known
    int line = 0;
    QString instruction; // Intel syntax; empty when the bytes are not known
    QByteArray bytes;

    bool hasModule() const { return !modulePath.isEmpty(); }
    // "main+0x1c", "bump"; empty without a function.
    QString functionText() const;
    // "counter.c:13"; empty without a line.
    QString sourceText() const;
    // "libc.so.6+0x2a1c0" (the module's file name and the ELF address); empty without a module.
    QString moduleText() const;
};

// What an accessed address is: a global or static data object, else the region holding it.
struct AddressDescription
{
    QString object; // empty when no data object holds the address
    std::uint64_t objectOffset = 0;
    // "[stack]", "[heap]", "[anon]", "[vdso]", "libc.so.6 .bss" (a module's section), or a mapped
    // file's name; empty when unknown.
    QString region;

    // "counter", "table+0x3", else the region; empty when nothing is known.
    QString text() const;
};

// An instruction of the instructions table (one that ran, disassembled).
struct KnownInstruction
{
    Address pc;
    QByteArray bytes;
    QString text; // Intel syntax
};

// A function of the functions table (run-time addresses).
struct FunctionInfo
{
    qint64 id = 0;
    qint64 moduleId = 0;
    QString name;
    AddressRange range;
};

// A named function or data object and its run-time range (what "Go to symbol" offers).
struct NamedRange
{
    enum class Kind {
        Function,
        DataObject,
    };
    QString name;
    AddressRange range;
    Kind kind = Kind::Function;
    friend bool operator==(const NamedRange &, const NamedRange &) = default;
};

class ContextReader
{
public:
    // What a reader keeps in memory at most, whatever a file holds: more modules than any process
    // maps, more names than a completion list can offer, are left out (the rest answer "unknown").
    static constexpr int maxModules = 65536;
    static constexpr int maxNamedRanges = 1 << 20;
    static constexpr qint64 maxNamedRangeBytes = qint64(64) << 20; // of names

    explicit ContextReader(HistoryDatabase &database);
    ~ContextReader();

    // Makes the reads cancellable (a viewer job whose history was closed, the viewer quitting):
    // SQLite asks `cancelled` every few thousand steps of a statement and stops it when it says
    // so, and the long walks (executionsOf, namedRanges) end early; what was not read is then
    // "unknown". Installs SQLite's progress handler on the connection for the reader's lifetime, so
    // the connection must be the job's own.
    void setCancelCheck(std::function<bool()> cancelled);
    ContextReader(const ContextReader &) = delete;
    ContextReader &operator=(const ContextReader &) = delete;

    // What the history holds, from contextschema::part ("pcs", "map", ...), in that order.
    const QStringList &parts() const { return m_parts; }
    bool has(const char *part) const { return m_parts.contains(QLatin1String(part)); }

    // The PC of the instruction at `transition`; none when the history does not know it. One
    // code_trace probe and decode (skipped when the previous call's row holds it) and one run
    // probe (cached): a few microseconds.
    std::optional<Address> pcAt(Transition transition);

    // What `pc` is; `at` (the transition it ran at) picks among modules loaded at the same place
    // at different times. Cached per PC.
    CodeDescription describeCode(Address pc, std::optional<Transition> at = {});

    // What `address` was at transition `at`.
    AddressDescription describeAddress(Address address, Transition at);

    // The bytes access `access` read or wrote (and overwrote), when the history has them.
    std::optional<AccessValue> value(RowId access);

    // The transitions at which one of `pcs` executed: from `from` on in time order (Forward), or
    // from `from` back (Backward), at most `limit`. Resume after transition R with from = R + 1
    // (Forward) or R - 1 (Backward). Reads every run to find those holding the PCs, then walks
    // code_trace from `from` until `limit` are found. When the file cannot be read (a damaged page)
    // the list stops there and *error, if given, says why; a cancelled walk sets no error.
    QList<Transition> executionsOf(
        const QList<Address> &pcs, Transition from, Direction direction, int limit, QString *error = nullptr);

    // The executed functions named `name` ("main"), or whose demangled name is `name` followed by
    // its parameters ("Shape::area" finds "Shape::area() const"), in address order.
    QList<FunctionInfo> functionsNamed(const QString &name);

    // Every function, then every data object, each list by name (then address); with `kind`, only
    // those of that kind. Empty when the history has no symbols.
    QList<NamedRange> namedRanges(std::optional<NamedRange::Kind> kind = std::nullopt);

    // The instructions the history knows (its instructions table holds those that ran) nearest to
    // `pc`: up to `before` below it, its own when known, up to `after` above it, in address order.
    // Neighbours need not be adjacent: code that never ran leaves gaps (pc + bytes.size() is then
    // not the next pc). Empty without the table.
    QList<KnownInstruction> instructionsAround(Address pc, int before, int after);

    // The modules, by id.
    const QList<ModuleRow> &modules() const { return m_modules; }

private:
    // A code_trace row, its pairs decoded as far as needed so far.
    struct DecodedRow
    {
        std::uint64_t first = 0;
        std::uint64_t end = 0; // after the last transition of the pairs decoded
        // Where the next row starts (or 2^63): the row holds no transition from there on, even when
        // a foreign file's pairs run on (`memhist check` reports such overlaps).
        std::uint64_t limit = signBoundary;
        std::vector<std::uint64_t> starts; // transition of each decoded pair
        std::vector<CodeTracePair> pairs;
        QByteArray runs; // the row's blob, for decoding further
        CodeTraceDecoder decoder { QByteArrayView() };

        void reset(std::uint64_t firstTransition, QByteArrayView blob, std::uint64_t nextFirst);
        // Decodes until the pairs reach `transition` or the row ends; true when they reach it.
        bool decodeThrough(std::uint64_t transition);
    };
    // Makes m_row the row holding `transition`, decoded through it.
    bool loadRowHolding(std::uint64_t transition);
    // Where the row after the one starting at `first` starts, or 2^63.
    std::uint64_t nextRowFirst(std::uint64_t first);
    const CodeRun *run(std::uint64_t id);
    const ModuleRow *moduleById(qint64 id) const;
    bool moduleAlive(qint64 moduleId, std::optional<Transition> at) const;

    bool cancelled() const { return m_cancelled && m_cancelled(); }
    static int progressHandler(void *reader);

    sqlite::Connection &m_connection;
    std::function<bool()> m_cancelled;
    QStringList m_parts;
    QList<ModuleRow> m_modules;

    sqlite::Statement m_rowAtOrBefore;
    sqlite::Statement m_rowAtOrAfter;
    sqlite::Statement m_runById;
    sqlite::Statement m_functionCandidates;
    sqlite::Statement m_lineCandidates;
    sqlite::Statement m_instructionAt;
    sqlite::Statement m_instructionsBefore;
    sqlite::Statement m_instructionsAfter;
    sqlite::Statement m_objectCandidates;
    sqlite::Statement m_sectionCandidates;
    sqlite::Statement m_mappingAt;
    AccessValueReader m_values;

    DecodedRow m_row;
    bool m_hasRow = false;
    QHash<std::uint64_t, CodeRun> m_runs;
    QHash<std::uint64_t, CodeDescription> m_codeDescriptions;
};

} // namespace memhist
