// SPDX-License-Identifier: MIT
#include "resync.h"

#include <QHash>
#include <QHashFunctions>

namespace memhist {

namespace {

struct Place
{
    std::uint64_t pc = 0;
    std::int64_t depth = 0;
    friend bool operator==(const Place &, const Place &) = default;
};

size_t qHash(const Place &place, size_t seed = 0)
{
    return qHashMulti(seed, place.pc, place.depth);
}

} // namespace

std::optional<ResyncPoint> findResync(InstructionStream &a, InstructionStream &b, std::size_t window, bool useDepth)
{
    TracedInstruction startA, startB;
    if (!a.peek(0, &startA) || !b.peek(0, &startB))
        return std::nullopt;
    QHash<Place, std::size_t> firstA, firstB; // the first index of each place on each side
    const auto placeOf = [useDepth](const TracedInstruction &instruction, std::int64_t start) {
        return Place { instruction.pc, useDepth ? instruction.depth - start : 0 };
    };
    bool moreA = true, moreB = true;
    for (std::size_t k = 0; k < window && (moreA || moreB); ++k) {
        TracedInstruction ia, ib;
        moreA = moreA && a.peek(k, &ia);
        moreB = moreB && b.peek(k, &ib);
        std::optional<ResyncPoint> best;
        if (moreA) {
            const Place place = placeOf(ia, startA.depth);
            if (place.pc != 0) {
                if (!firstA.contains(place))
                    firstA.insert(place, k);
                if (const auto j = firstB.constFind(place); j != firstB.constEnd())
                    best = ResyncPoint { k, *j };
            }
        }
        if (moreB) {
            const Place place = placeOf(ib, startB.depth);
            if (place.pc != 0) {
                if (const auto i = firstA.constFind(place); i != firstA.constEnd())
                    if (!best || *i + k < best->a + best->b)
                        best = ResyncPoint { *i, k };
                if (!firstB.contains(place))
                    firstB.insert(place, k);
            }
        }
        if (best)
            return best;
    }
    return std::nullopt;
}

} // namespace memhist
