// SPDX-License-Identifier: MIT
#include "objecthistories.h"

#include <QHashFunctions>

namespace memhist {

size_t qHash(const ObjectKey &key, size_t seed)
{
    return qHashMulti(seed, int(key.kind), key.a, key.b, key.word);
}

ObjectKey objectKeyOf(const NormalisedAddress &place, std::int64_t *offsetInObject)
{
    using Kind = NormalisedAddress::Kind;
    switch (place.kind) {
    case Kind::Global:
    case Kind::Heap:
        *offsetInObject = place.offset;
        return { place.kind, place.a, place.b, 0 };
    case Kind::Stack: {
        // Stack offsets count down from the stack's anchor: the word holding the byte `offset`
        // below it (above it for a negative offset).
        const std::int64_t word = (place.offset + 7) & ~std::int64_t(7);
        *offsetInObject = word - place.offset;
        return { place.kind, 0, 0, word };
    }
    case Kind::File:
    case Kind::Region:
    case Kind::Unknown:
        break;
    }
    const std::int64_t word = place.offset & ~std::int64_t(7);
    *offsetInObject = place.offset - word;
    return { place.kind, place.a, place.b, word };
}

bool sameValue(const ObjectWrite &x, const ObjectWrite &y)
{
    if (x.stackDistance && y.stackDistance)
        return *x.stackDistance == *y.stackDistance;
    return x.value == y.value;
}

bool ObjectSummary::differs() const
{
    if (firstDifferingWrite > 0)
        return true;
    if (!comparisonLost)
        return false;
    if (writes[0] != writes[1] || last[0].has_value() != last[1].has_value())
        return true;
    return last[0] && !sameValue(*last[0], *last[1]);
}

bool ObjectHistories::sameWrite(const ObjectWrite &x, const ObjectWrite &y)
{
    return x.offset == y.offset && x.size == y.size && sameValue(x, y);
}

ObjectHistories::State *ObjectHistories::stateOf(const ObjectKey &key)
{
    // While the runs are aligned, B's write to an object comes right after A's to the same one:
    // the object found last is looked up once for both.
    if (m_lastState < m_states.size() && m_states[m_lastState].key == key)
        return &m_states[m_lastState];
    const auto found = m_index.constFind(key);
    if (found != m_index.constEnd()) {
        m_lastState = *found;
    } else {
        if (m_states.size() >= maxObjects)
            return nullptr;
        m_lastState = m_states.size();
        m_index.insert(key, m_lastState);
        m_states.emplace_back();
        m_states.back().key = key;
    }
    return &m_states[m_lastState];
}

void ObjectHistories::addPair(const ObjectKey &key, ObjectWrite a, ObjectWrite b)
{
    State *state = stateOf(key);
    if (!state) {
        m_untracked += 2;
        return;
    }
    if (state->comparisonLost || state->firstDifferingWrite > 0 || state->head != state->pending.size()
        || !sameWrite(a, b)) {
        add(0, key, std::move(a));
        add(1, key, std::move(b));
        return;
    }
    ++state->writes[0];
    ++state->writes[1];
    state->last[0] = std::move(a);
    state->last[1] = std::move(b);
}

void ObjectHistories::add(int side, const ObjectKey &key, ObjectWrite write)
{
    State *found = stateOf(key);
    if (!found) {
        ++m_untracked;
        return;
    }
    State &state = *found;
    ++state.writes[side];
    state.last[side] = write;
    if (state.comparisonLost || state.firstDifferingWrite > 0)
        return; // the first difference is known (or cannot be): counts and last writes suffice
    const std::size_t waiting = state.pending.size() - state.head;
    if (waiting > 0 && state.pendingSide != side) {
        // The other run's write of the same rank waits: compare the two.
        const ObjectWrite &other = state.pending[state.head++];
        if (!sameWrite(write, other)) {
            // The earlier-written counters are one ahead of the rank for the side that waited.
            setFirstDiffering(state, state.writes[side], side, std::move(write), other);
            state.pending.clear();
            state.head = 0;
        } else if (state.head == state.pending.size()) {
            state.pending.clear();
            state.head = 0;
        }
        return;
    }
    if (waiting >= maxPendingWrites) {
        state.comparisonLost = true;
        state.pending = {};
        state.head = 0;
        return;
    }
    state.pendingSide = side;
    state.pending.push_back(std::move(write));
}

void ObjectHistories::finish()
{
    for (State &state : m_states) {
        if (state.head == state.pending.size())
            continue;
        const int side = state.pendingSide;
        // The first write without a counterpart: its rank is one past the other run's count.
        setFirstDiffering(state, state.writes[1 - side] + 1, side, state.pending[state.head], std::nullopt);
        state.pending = {};
        state.head = 0;
    }
}

void ObjectHistories::setFirstDiffering(
    State &state, std::uint64_t rank, int side, ObjectWrite write, std::optional<ObjectWrite> other)
{
    state.firstDifferingWrite = rank;
    auto &writes = m_firstDiffering[std::size_t(&state - m_states.data())];
    writes[side] = std::move(write);
    writes[1 - side] = std::move(other);
}

ObjectSummary ObjectHistories::summaryOf(const State &state) const
{
    ObjectSummary summary;
    summary.key = state.key;
    summary.writes[0] = state.writes[0];
    summary.writes[1] = state.writes[1];
    summary.last[0] = state.last[0];
    summary.last[1] = state.last[1];
    summary.firstDifferingWrite = state.firstDifferingWrite;
    summary.comparisonLost = state.comparisonLost;
    const auto found = m_firstDiffering.constFind(std::size_t(&state - m_states.data()));
    if (found != m_firstDiffering.constEnd()) {
        summary.firstDiffering[0] = (*found)[0];
        summary.firstDiffering[1] = (*found)[1];
    }
    return summary;
}

std::vector<ObjectSummary> ObjectHistories::differing() const
{
    std::vector<ObjectSummary> result;
    for (const State &state : m_states) {
        ObjectSummary summary = summaryOf(state);
        if (summary.differs())
            result.push_back(std::move(summary));
    }
    return result;
}

} // namespace memhist
