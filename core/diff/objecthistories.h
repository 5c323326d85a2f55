// SPDX-License-Identifier: MIT
// The writes of both runs per object (a global, a heap cell, a stack word, a region word), matched
// n-th with n-th whatever their timing, with bounded memory: what `memhist diff` reports per object
// (how many writes in each run, the first that differs, the final values).
//
// Writes arrive from both runs in the diff's walk; while the runs are aligned they arrive in
// pairs. A write that the other run has not matched yet waits in a queue of at most
// maxPendingWrites per object; when a queue overflows, that object's n-th-with-n-th comparison
// stops (its counts and final values stay exact) and the report says the first difference is
// unknown. At most maxObjects objects are followed; writes to further objects are counted as
// untracked.
#pragma once

#include "core/diff/accessbytes.h"
#include "core/diff/addressnormaliser.h"

#include <QByteArray>
#include <QHash>
#include <array>
#include <optional>
#include <vector>

namespace memhist {

// A write of one run as the histories keep it, with the place it normalises to.
struct ObjectWrite
{
    std::int64_t rowId = 0;
    std::uint64_t transition = 0;
    std::uint64_t pc = 0;
    std::uint64_t address = 0;
    std::uint32_t size = 0;
    std::int64_t offset = 0; // in the object
    AccessBytes value;
    // The value is a pointer into the stack (AddressNormaliser::stackDistanceOf): two such writes
    // compare by this distance, not by their bytes.
    std::optional<std::int64_t> stackDistance;
};

// Whether two writes left the same value: their stack distances when both are pointers into the
// stack, else their bytes.
bool sameValue(const ObjectWrite &x, const ObjectWrite &y);

// An object: a place without its offset (Global, File words, Heap cells) or a word (Stack, Region,
// Unknown: 8-byte words, as nothing bounds them).
struct ObjectKey
{
    NormalisedAddress::Kind kind = NormalisedAddress::Kind::Unknown;
    std::uint64_t a = 0;
    std::uint64_t b = 0;
    std::int64_t word = 0;

    friend bool operator==(const ObjectKey &, const ObjectKey &) = default;
};
size_t qHash(const ObjectKey &key, size_t seed = 0);

// The object a place belongs to, and the offset in it.
ObjectKey objectKeyOf(const NormalisedAddress &place, std::int64_t *offsetInObject);

struct ObjectSummary
{
    ObjectKey key;
    std::uint64_t writes[2] = { 0, 0 };
    std::optional<ObjectWrite> last[2];
    std::uint64_t firstDifferingWrite = 0; // 1-based; 0 when none (or not known)
    std::optional<ObjectWrite> firstDiffering[2];
    bool comparisonLost = false; // a queue overflowed

    bool differs() const;
};

class ObjectHistories
{
public:
    static constexpr std::size_t maxObjects = 200000;
    static constexpr std::size_t maxPendingWrites = 64;

    // A write of run `side` (0 = A, 1 = B).
    void add(int side, const ObjectKey &key, ObjectWrite write);
    // A's and B's writes to one object by one aligned instruction: the same as add(0, key, a) then
    // add(1, key, b), but while the object's writes so far were pairwise equal (none waiting, no
    // difference) two equal writes are only counted, not queued and matched.
    void addPair(const ObjectKey &key, ObjectWrite a, ObjectWrite b);
    // Ends the walk: writes still waiting have no counterpart.
    void finish();

    // The objects whose writes differ (after finish()).
    std::vector<ObjectSummary> differing() const;
    std::uint64_t untrackedWrites() const { return m_untracked; }
    std::size_t trackedObjects() const { return m_index.size(); }

private:
    // What every write to an object touches; the first differing writes, set once for few
    // objects, are kept apart (m_firstDiffering) so that the states stay small.
    struct State
    {
        ObjectKey key;
        std::uint64_t writes[2] = { 0, 0 };
        std::optional<ObjectWrite> last[2];
        std::uint64_t firstDifferingWrite = 0;
        bool comparisonLost = false;
        int pendingSide = 0;
        std::vector<ObjectWrite> pending;
        std::size_t head = 0;
    };
    // Sets the object's first differing writes (rank `rank`, 1-based).
    void setFirstDiffering(
        State &state, std::uint64_t rank, int side, ObjectWrite write, std::optional<ObjectWrite> other);
    ObjectSummary summaryOf(const State &state) const;
    static bool sameWrite(const ObjectWrite &x, const ObjectWrite &y);
    // The object's state, added when new; nullptr when maxObjects are followed already.
    State *stateOf(const ObjectKey &key);

    QHash<ObjectKey, std::size_t> m_index;
    std::vector<State> m_states;
    QHash<std::size_t, std::array<std::optional<ObjectWrite>, 2>> m_firstDiffering; // by state
    std::size_t m_lastState = ~std::size_t(0); // the state add() found last
    std::uint64_t m_untracked = 0;
};

} // namespace memhist
