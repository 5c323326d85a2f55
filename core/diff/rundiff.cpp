// SPDX-License-Identifier: MIT
#include "rundiff.h"

#include "core/context/contextreader.h"
#include "core/diff/accessstream.h"
#include "core/diff/addressnormaliser.h"
#include "core/diff/diffplaces.h"
#include "core/diff/diffstatements.h"
#include "core/diff/instructionstream.h"
#include "core/diff/objecthistories.h"
#include "core/diff/resync.h"
#include "core/storage/historydatabase.h"

#include <algorithm>
#include <memory>

namespace memhist {

namespace {

struct Side
{
    Side(HistoryDatabase &database, NameTable &names)
        : code(database.connection())
        , accesses(database)
        , places(database.connection(), names)
        , context(database)
    { }

    InstructionStream code;
    AccessStream accesses;
    AddressNormaliser places;
    ContextReader context;
};

// An access with the place it normalised to, as the pairwise comparison needs it.
struct PlacedAccess
{
    const StreamedAccess *access = nullptr;
    NormalisedAddress place;
};

class Walk
{
public:
    Walk(HistoryDatabase &a, HistoryDatabase &b, const DiffOptions &options, DiffResult *result)
        : m_options(options)
        , m_result(result)
    {
        m_sides[0] = std::make_unique<Side>(a, m_names);
        m_sides[1] = std::make_unique<Side>(b, m_names);
        m_describer[0] = std::make_unique<PlaceDescriber>(m_sides[0]->context, m_names);
        m_describer[1] = std::make_unique<PlaceDescriber>(m_sides[1]->context, m_names);
    }

    bool run(QString *error);

private:
    Side &side(int s) { return *m_sides[s]; }
    NormalisedAddress place(int s, const StreamedAccess &access, std::uint64_t pc);
    // place() in two steps: where the access is, and (for a write) the write to its object.
    NormalisedAddress locate(int s, const StreamedAccess &access, std::uint64_t pc);
    ObjectWrite objectWrite(int s, const StreamedAccess &access, std::uint64_t pc, std::int64_t offset);
    void addWrite(int s, const StreamedAccess &access, std::uint64_t pc, const NormalisedAddress &place);
    // The writes among A's access `x` and B's `y` at the same index of an aligned instruction go
    // to their objects, as a pair when both write to the same place.
    void addWrites(const PlacedAccess *x, std::uint64_t pa, const PlacedAccess *y, std::uint64_t pb);
    void unaligned(int s, const TracedInstruction &instruction);
    // Aligns the first `count` instructions of `a` and `b` (the same PCs), comparing the accesses
    // of those that make any. False once options.progress asked to stop.
    bool alignStretch(const StretchAhead &a, const StretchAhead &b, std::size_t count);
    void compareAt(std::uint64_t ta, std::uint64_t pa, std::uint64_t tb, std::uint64_t pb);
    // Whether A's access `x` and B's `y` carry the same value: the same bytes, or pointers to the
    // same place of each run's stack (AddressNormaliser::stackDistanceOf).
    bool sameValue(const StreamedAccess &x, const StreamedAccess &y);
    void divergence();
    void walkCode();
    void walkMemoryOnly();
    void addObjects();
    // Counts one step of the walk at A's transition `reached` (B's where A has ended); every
    // progressInterval steps, asks options.progress whether to go on. False once it said stop.
    // goOnFor(reached, 1) == 1.
    bool goOn(std::uint64_t reached);
    // `steps` steps at once, the first at A's transition `first` and each next one transition
    // later: how many of them to take (all, unless options.progress asked to stop).
    std::size_t goOnFor(std::uint64_t first, std::size_t steps);
    DiffPlace describe(int s, const TracedInstruction &instruction);
    DiffAccess describe(int s, const StreamedAccess &access, std::uint64_t pc, const NormalisedAddress &place);

    const DiffOptions &m_options;
    DiffResult *m_result;
    NameTable m_names;
    std::unique_ptr<Side> m_sides[2];
    std::unique_ptr<PlaceDescriber> m_describer[2];
    ObjectHistories m_objects;
    std::optional<TracedInstruction> m_lastAligned[2];
    std::uint64_t m_nextTransition[2] = { 0, 0 }; // after the last instruction handed over on each side
    bool m_stretchDiffers = false;
    std::optional<qsizetype> m_openMemoryHunk; // entry index of the aligned stretch's memory hunk
    std::vector<PlacedAccess> m_placed[2];
    std::uint64_t m_steps = 0; // since options.progress was last called
    bool m_stopped = false; // options.progress asked to stop
};

bool Walk::goOn(std::uint64_t reached)
{
    return goOnFor(reached, 1) == 1;
}

NormalisedAddress Walk::locate(int s, const StreamedAccess &access, std::uint64_t pc)
{
    return side(s).places.normalise(access.address, access.size, access.operation == int(Operation::Write), pc);
}

ObjectWrite Walk::objectWrite(int s, const StreamedAccess &access, std::uint64_t pc, std::int64_t offset)
{
    return ObjectWrite { access.rowId, access.transition, pc, access.address, access.size, offset, access.value,
        side(s).places.stackDistanceOf(access.value.view()) };
}

void Walk::addWrite(int s, const StreamedAccess &access, std::uint64_t pc, const NormalisedAddress &place)
{
    std::int64_t offset = 0;
    const ObjectKey key = objectKeyOf(place, &offset);
    m_objects.add(s, key, objectWrite(s, access, pc, offset));
}

NormalisedAddress Walk::place(int s, const StreamedAccess &access, std::uint64_t pc)
{
    const NormalisedAddress normalised = locate(s, access, pc);
    if (access.operation == int(Operation::Write))
        addWrite(s, access, pc, normalised);
    return normalised;
}

void Walk::addWrites(const PlacedAccess *x, std::uint64_t pa, const PlacedAccess *y, std::uint64_t pb)
{
    const bool writeX = x && x->access->operation == int(Operation::Write);
    const bool writeY = y && y->access->operation == int(Operation::Write);
    if (writeX && writeY && x->place == y->place) {
        std::int64_t offset = 0;
        const ObjectKey key = objectKeyOf(x->place, &offset);
        m_objects.addPair(key, objectWrite(0, *x->access, pa, offset), objectWrite(1, *y->access, pb, offset));
        return;
    }
    if (writeX)
        addWrite(0, *x->access, pa, x->place);
    if (writeY)
        addWrite(1, *y->access, pb, y->place);
}

void Walk::unaligned(int s, const TracedInstruction &instruction)
{
    const auto skipped = [this, s](const StreamedAccess &access) { place(s, access, 0); };
    for (const StreamedAccess &access : side(s).accesses.at(instruction.transition, skipped))
        place(s, access, instruction.pc);
}

bool Walk::sameValue(const StreamedAccess &x, const StreamedAccess &y)
{
    if (x.value == y.value)
        return true;
    const std::optional<std::int64_t> a = side(0).places.stackDistanceOf(x.value.view());
    return a && a == side(1).places.stackDistanceOf(y.value.view());
}

void Walk::compareAt(std::uint64_t ta, std::uint64_t pa, std::uint64_t tb, std::uint64_t pb)
{
    const std::uint64_t transition[2] = { ta, tb };
    const std::uint64_t pc[2] = { pa, pb };
    for (int s = 0; s < 2; ++s) {
        m_placed[s].clear();
        const auto skipped = [this, s](const StreamedAccess &access) { place(s, access, 0); };
        for (const StreamedAccess &access : side(s).accesses.at(transition[s], skipped))
            m_placed[s].push_back(PlacedAccess { &access, locate(s, access, pc[s]) });
    }
    // Each object sees A's and B's writes of the instruction in their order on each side (the
    // n-th with the n-th, whatever the interleaving: ObjectHistories), here pair by pair.
    const std::size_t count = std::max(m_placed[0].size(), m_placed[1].size());
    for (std::size_t i = 0; i < count; ++i) {
        const PlacedAccess *x = i < m_placed[0].size() ? &m_placed[0][i] : nullptr;
        const PlacedAccess *y = i < m_placed[1].size() ? &m_placed[1][i] : nullptr;
        addWrites(x, pa, y, pb);
        if (x && y && x->access->operation == y->access->operation && x->access->size == y->access->size
            && x->place == y->place && sameValue(*x->access, *y->access))
            continue;
        // An unknown PC (0: memory-only mode, or a stretch the code trace does not know) says
        // nothing about where the noise is, so it is neither learned nor left out.
        const std::uint64_t accessPc = x ? pa : pb;
        if (DiffNoise *learn = m_options.learn; learn && accessPc != 0 && learn->accessPcs.size() < DiffNoise::maxPcs)
            learn->accessPcs.insert(accessPc);
        if (m_options.ignore && accessPc != 0 && m_options.ignore->accessPcs.contains(accessPc)) {
            ++m_result->ignored;
            continue;
        }
        if (!m_stretchDiffers) {
            m_stretchDiffers = true;
            ++m_result->memoryHunks;
            if (std::size_t(m_result->entries.size()) < m_options.limit) {
                DiffEntry entry;
                entry.kind = DiffEntry::Kind::Memory;
                if (x)
                    entry.memory.a = describe(0, *x->access, pa, x->place);
                if (y)
                    entry.memory.b = describe(1, *y->access, pb, y->place);
                m_openMemoryHunk = m_result->entries.size();
                m_result->entries.append(entry);
            }
        }
        if (m_openMemoryHunk)
            ++m_result->entries[*m_openMemoryHunk].memory.differingAccesses;
    }
}

bool Walk::alignStretch(const StretchAhead &a, const StretchAhead &b, std::size_t count)
{
    std::size_t done = 0;
    while (done < count && !m_stopped) {
        // Most instructions access no memory: those before either side's next access are passed
        // over together, and accesses are compared only where either side has one.
        std::size_t quiet = count - done;
        const std::uint64_t at[2] = { a.first + done, b.first + done };
        for (int s = 0; s < 2; ++s) {
            std::uint64_t next = 0;
            if (side(s).accesses.nextTransition(&next))
                quiet = std::min<std::uint64_t>(quiet, next <= at[s] ? 0 : next - at[s]);
        }
        const std::size_t steps = std::max<std::size_t>(quiet, 1);
        const std::size_t taken = goOnFor(at[0], steps);
        if (quiet == 0 && taken == 1)
            compareAt(at[0], a.pcAt(done), at[1], b.pcAt(done));
        done += taken;
    }
    if (done > 0) {
        const std::size_t last = done - 1;
        m_lastAligned[0] = TracedInstruction { a.first + last, a.pcAt(last), a.depth };
        m_lastAligned[1] = TracedInstruction { b.first + last, b.pcAt(last), b.depth };
        m_nextTransition[0] = a.first + done;
        m_nextTransition[1] = b.first + done;
        m_result->alignedInstructions += done;
        side(0).code.skip(done);
        side(1).code.skip(done);
    }
    return !m_stopped;
}

std::size_t Walk::goOnFor(std::uint64_t first, std::size_t steps)
{
    if (m_stopped)
        return 0;
    if (!m_options.progress)
        return steps;
    const std::uint64_t interval = std::max<std::uint64_t>(1, m_options.progressInterval);
    std::size_t done = 0;
    while (done < steps) {
        // interval - 1 steps pass after the last ask; the next one asks.
        const std::uint64_t passing = interval - 1 - m_steps;
        if (steps - done <= passing) {
            m_steps += steps - done;
            return steps;
        }
        done += std::size_t(passing);
        m_steps = 0;
        m_stopped = !m_options.progress(Transition { first + done });
        if (m_stopped)
            return done;
        ++done;
    }
    return steps;
}

void Walk::divergence()
{
    m_stretchDiffers = false;
    m_openMemoryHunk.reset();
    const bool useDepth = side(0).code.knowsCalls() && side(1).code.knowsCalls();
    const std::optional<ResyncPoint> resync = findResync(side(0).code, side(1).code, m_options.window, useDepth);
    const std::uint64_t branchPc = m_lastAligned[0] ? m_lastAligned[0]->pc : 0;
    if (DiffNoise *learn = m_options.learn; learn && branchPc != 0 && learn->branchPcs.size() < DiffNoise::maxPcs)
        learn->branchPcs.insert(branchPc);
    const bool ignored = m_options.ignore && branchPc != 0 && m_options.ignore->branchPcs.contains(branchPc);
    if (ignored)
        ++m_result->ignored;
    else
        ++m_result->controlHunks;
    const bool listed = !ignored && std::size_t(m_result->entries.size()) < m_options.limit;
    DiffEntry entry;
    entry.kind = DiffEntry::Kind::Control;
    ControlHunk &hunk = entry.control;
    hunk.resyncFound = resync.has_value();
    if (listed && m_lastAligned[0])
        hunk.branch = describe(0, *m_lastAligned[0]);
    for (int s = 0; s < 2; ++s) {
        TracedInstruction first;
        const bool any = side(s).code.peek(0, &first);
        std::uint64_t count = 0;
        const std::uint64_t limit = resync ? (s == 0 ? resync->a : resync->b) : ~std::uint64_t(0);
        TracedInstruction instruction;
        while (count < limit && side(s).code.pop(&instruction)) {
            // A run cut short (no resync) hands all the rest of it over here.
            if (!goOn(s == 0 ? instruction.transition : m_nextTransition[0]))
                return;
            unaligned(s, instruction);
            m_nextTransition[s] = instruction.transition + 1;
            ++count;
        }
        // A run that has ended is placed after its last instruction (the report's order is A's time).
        (s == 0 ? hunk.aFirst : hunk.bFirst) = Transition { any ? first.transition : m_nextTransition[s] };
        (s == 0 ? hunk.aCount : hunk.bCount) = count;
        if (listed && any && count > 0)
            (s == 0 ? hunk.aStart : hunk.bStart) = describe(s, first);
        TracedInstruction meeting;
        if (listed && resync && side(s).code.peek(0, &meeting))
            (s == 0 ? hunk.aResync : hunk.bResync) = describe(s, meeting);
    }
    if (!resync && !(hunk.aCount == 0 || hunk.bCount == 0))
        m_result->notes << QStringLiteral(
            "the runs did not meet again within %1 instructions of A's transition %2: not aligned after it")
                               .arg(m_options.window)
                               .arg(hunk.aFirst.value);
    if (listed)
        m_result->entries.append(entry);
}

void Walk::walkCode()
{
    for (;;) {
        StretchAhead a, b;
        const bool hasA = side(0).code.current(&a);
        const bool hasB = side(1).code.current(&b);
        if (!hasA && !hasB)
            return;
        if (hasA && hasB && a.pcAt(0) == b.pcAt(0)) {
            // Aligned for as long as both stretches execute the same PCs.
            const std::size_t both = std::min(a.count, b.count);
            std::size_t same = 1;
            while (same < both && a.pcAt(same) == b.pcAt(same))
                ++same;
            if (!alignStretch(a, b, same))
                return;
            continue;
        }
        if (!goOn(hasA ? a.first : m_nextTransition[0]))
            return;
        divergence();
    }
}

void Walk::walkMemoryOnly()
{
    // Transitions compared as they are numbered: the accesses of A's transition t with B's.
    for (;;) {
        std::uint64_t ta = 0, tb = 0;
        const bool hasA = side(0).accesses.nextTransition(&ta);
        const bool hasB = side(1).accesses.nextTransition(&tb);
        if (!hasA && !hasB)
            return;
        const std::uint64_t t = !hasA ? tb : !hasB ? ta : std::min(ta, tb);
        if (!goOn(t))
            return;
        compareAt(t, 0, t, 0);
    }
}

DiffPlace Walk::describe(int s, const TracedInstruction &instruction)
{
    return m_describer[s]->code(Transition { instruction.transition }, Address { instruction.pc });
}

DiffAccess Walk::describe(int s, const StreamedAccess &access, std::uint64_t pc, const NormalisedAddress &place)
{
    const DiffPlace code = m_describer[s]->code(Transition { access.transition }, Address { pc });
    DiffAccess described;
    described.rowId = RowId { access.rowId };
    described.transition = Transition { access.transition };
    described.pc = Address { pc };
    described.function = code.function;
    described.source = code.source;
    described.operation = Operation(access.operation);
    described.address = Address { access.address };
    described.size = access.size;
    described.object = m_describer[s]->place(place);
    described.value = access.value.toByteArray();
    return described;
}

void Walk::addObjects()
{
    m_objects.finish();
    std::vector<ObjectSummary> objects = m_objects.differing();
    if (m_options.learn || m_options.ignore) {
        std::vector<ObjectSummary> kept;
        for (const ObjectSummary &summary : objects) {
            const QString text = m_describer[0]->object(summary.key);
            if (m_options.learn)
                m_options.learn->objects.insert(text);
            if (m_options.ignore && m_options.ignore->objects.contains(text))
                ++m_result->ignored;
            else
                kept.push_back(summary);
        }
        objects = std::move(kept);
    }
    m_result->objects = objects.size();
    // In order of the first difference in A's time (objects only B wrote differently: by B's).
    const auto when = [](const ObjectSummary &summary) {
        for (const auto &write : { summary.firstDiffering[0], summary.last[0], summary.firstDiffering[1] })
            if (write)
                return write->transition;
        return summary.last[1] ? summary.last[1]->transition : 0;
    };
    std::stable_sort(objects.begin(), objects.end(),
        [&](const ObjectSummary &x, const ObjectSummary &y) { return when(x) < when(y); });
    const auto describeWrite = [this](int s, const std::optional<ObjectWrite> &write) -> std::optional<DiffAccess> {
        if (!write)
            return std::nullopt;
        StreamedAccess access { write->rowId, write->transition, write->address, write->size, int(Operation::Write),
            write->value };
        DiffAccess described = describe(s, access, write->pc, NormalisedAddress {});
        described.object.clear();
        return described;
    };
    QList<DiffEntry> listedObjects;
    for (const ObjectSummary &summary : objects) {
        if (std::size_t(listedObjects.size()) >= m_options.limit)
            break;
        DiffEntry entry;
        entry.kind = DiffEntry::Kind::Object;
        ObjectDifference &object = entry.object;
        object.object = m_describer[0]->object(summary.key);
        object.aWrites = summary.writes[0];
        object.bWrites = summary.writes[1];
        object.firstDifferingWrite = summary.firstDifferingWrite;
        object.aFirstDiffering = describeWrite(0, summary.firstDiffering[0]);
        object.bFirstDiffering = describeWrite(1, summary.firstDiffering[1]);
        object.aLast = describeWrite(0, summary.last[0]);
        object.bLast = describeWrite(1, summary.last[1]);
        listedObjects.append(entry);
    }
    // Merge with the hunks by A's time.
    const auto entryTime = [](const DiffEntry &entry) -> std::uint64_t {
        switch (entry.kind) {
        case DiffEntry::Kind::Control:
            return entry.control.aFirst.value;
        case DiffEntry::Kind::Memory:
            return entry.memory.a ? entry.memory.a->transition.value : entry.memory.b->transition.value;
        case DiffEntry::Kind::Object:
            for (const auto &write : { entry.object.aFirstDiffering, entry.object.aLast, entry.object.bFirstDiffering })
                if (write)
                    return write->transition.value;
            return entry.object.bLast ? entry.object.bLast->transition.value : 0;
        }
        return 0;
    };
    QList<DiffEntry> merged = m_result->entries + listedObjects;
    std::stable_sort(merged.begin(), merged.end(),
        [&](const DiffEntry &x, const DiffEntry &y) { return entryTime(x) < entryTime(y); });
    if (std::size_t(merged.size()) > m_options.limit)
        merged.resize(qsizetype(m_options.limit));
    m_result->entries = merged;
    if (m_objects.untrackedWrites() > 0)
        m_result->notes << QStringLiteral("objects followed: the first %1; %2 writes to further objects not compared")
                               .arg(ObjectHistories::maxObjects)
                               .arg(m_objects.untrackedWrites());
    for (int s = 0; s < 2; ++s)
        if (side(s).places.heapCapped())
            m_result->notes << QStringLiteral("%1: more than %2 heap words: later ones named by their address")
                                   .arg(s == 0 ? QLatin1String("A") : QLatin1String("B"))
                                   .arg(AddressNormaliser::maxHeapWords);
}

bool Walk::run(QString *error)
{
    for (int s = 0; s < 2; ++s)
        if (!side(s).accesses.isValid()) {
            *error = QStringLiteral("%1 has no accesses table").arg(s == 0 ? QLatin1String("A") : QLatin1String("B"));
            return false;
        }
    const bool code = side(0).code.available() && side(1).code.available();
    if (code) {
        walkCode();
    } else {
        m_result->notes << QStringLiteral(
            "no code trace in %1: memory only, compared by transition (no control flow, no alignment)")
                               .arg(!side(0).code.available() && !side(1).code.available()
                                       ? QStringLiteral("either history")
                                       : !side(0).code.available() ? QStringLiteral("A")
                                                                   : QStringLiteral("B"));
        walkMemoryOnly();
    }
    if (m_stopped) {
        *error = diffCancelledError;
        return false;
    }
    // The accesses after the last instruction of the code trace (none in a recording).
    for (int s = 0; s < 2; ++s) {
        side(s).accesses.drainThrough(
            ~std::uint64_t(0), [this, s](const StreamedAccess &access) { place(s, access, 0); });
        if (!side(s).accesses.error().isEmpty()) {
            *error = side(s).accesses.error();
            return false;
        }
    }
    m_result->aInstructions = side(0).code.consumed();
    m_result->bInstructions = side(1).code.consumed();
    m_result->aAccesses = side(0).accesses.count();
    m_result->bAccesses = side(1).accesses.count();
    addObjects();
    return true;
}

} // namespace

bool diffRuns(HistoryDatabase &a, HistoryDatabase &b, const DiffOptions &options, DiffResult *result, QString *error)
{
    *result = DiffResult {};
    for (HistoryDatabase *database : { &a, &b })
        if (!database->connection().execute(diffstatements::streamingPragmas)) {
            *error = QStringLiteral("%1: %2").arg(database->path(), database->connection().lastError());
            return false;
        }
    Walk walk(a, b, options, result);
    return walk.run(error);
}

} // namespace memhist
