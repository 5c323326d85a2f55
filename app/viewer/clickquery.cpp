#include "clickquery.h"

#include <limits>

namespace memhist::viewer {

HalfAxisQuery clickQuery(Transition transition, Address address, const std::optional<Access> &access,
    Qt::KeyboardModifiers modifiers, const ClickQuerySettings &settings)
{
    HalfAxisQuery query;
    query.direction = modifiers.testFlag(backwardModifier) ? Direction::Backward : Direction::Forward;
    query.at = transition;
    query.operations = settings.operations;
    if (access) {
        // From the picked access's own transition, not the cursor's: zoomed out, the pick radius
        // spans many transitions, and the accesses between the cursor and the picked one would be
        // left out or let in. The query resumes next to the picked access's row, so that it is the
        // first row in either direction: forward, the accesses of its instruction made before it are
        // left out; backward, those made after it.
        query.at = access->transition;
        query.resumeAfter
            = RowId { query.direction == Direction::Forward ? access->rowId.value - 1 : access->rowId.value + 1 };
        query.first = access->physical;
        // An access that would wrap past 2^64 cannot be stored; clamp anyway rather than trust it.
        const std::uint64_t room = std::numeric_limits<std::uint64_t>::max() - access->physical.value;
        query.last = Address { access->physical.value + std::min<std::uint64_t>(room, access->size - 1) };
    } else {
        const std::uint64_t a = address.value;
        const std::uint64_t w = settings.windowBytes;
        query.first = Address { a >= w ? a - w : 0 };
        query.last = Address {
            std::numeric_limits<std::uint64_t>::max() - a >= w ? a + w : std::numeric_limits<std::uint64_t>::max()
        };
    }
    return query;
}

} // namespace memhist::viewer
