// SPDX-License-Identifier: MIT
#include "clickquery.h"

#include <QCoreApplication>
#include <limits>

namespace memhist::viewer {

HalfAxisQuery clickQuery(Transition transition, Address address, const std::optional<Access> &access,
    Qt::KeyboardModifiers modifiers, const ClickQuerySettings &settings)
{
    const Direction direction = modifiers.testFlag(backwardModifier) ? Direction::Backward : Direction::Forward;
    HalfAxisQuery query;
    if (access) {
        // From the picked access itself, not the cursor's transition: zoomed out, the pick radius
        // spans many transitions, and the accesses between the cursor and the picked one would be
        // left out or let in. `at` only shows its transition in the query panel.
        query = queryFromAccess(*access, direction);
        query.at = access->transition;
    } else {
        query.direction = direction;
        query.at = transition;
        const std::uint64_t a = address.value;
        const std::uint64_t w = settings.windowBytes;
        query.first = Address { a >= w ? a - w : 0 };
        query.last = Address {
            std::numeric_limits<std::uint64_t>::max() - a >= w ? a + w : std::numeric_limits<std::uint64_t>::max()
        };
    }
    query.operations = settings.operations;
    return query;
}

QString clickQueryNoRowsHint(const std::optional<Access> &access)
{
    // Zoomed out, a spot that looks filled may hold no access within the window: closer, the click
    // lands on an access (and the query is from it); wider, the window reaches one.
    if (access)
        return {};
    return QCoreApplication::translate("ClickQuery", "zoom in, or widen “within” on the toolbar");
}

} // namespace memhist::viewer
