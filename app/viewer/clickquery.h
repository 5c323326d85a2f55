// SPDX-License-Identifier: MIT
// What a click on the plane asks: the half-axis query from the access under the cursor over its
// bytes, or from the clicked transition over an address window around the clicked point.
#pragma once

#include "core/model/types.h"
#include "core/query/halfaxisquery.h"

#include <QString>
#include <Qt>
#include <optional>

namespace memhist::viewer {

// The modifier that turns a click into a backward query (a plain click goes forward). Ctrl rather
// than Alt: most Linux window managers take Alt+click to move the window.
constexpr Qt::KeyboardModifier backwardModifier = Qt::ControlModifier;

struct ClickQuerySettings
{
    Operations operations = Operations(Operation::Read) | Operation::Write;
    // Bytes on each side of the clicked address when no access is under the cursor.
    quint64 windowBytes = 64;
};

// From `access` itself over its bytes when there is one, the access being the first row in either
// direction (`transition`, where the cursor is, may be many transitions away from it when zoomed
// out), else from `transition` over
// [address - windowBytes, address + windowBytes], clamped to the address space.
HalfAxisQuery clickQuery(Transition transition, Address address, const std::optional<Access> &access,
    Qt::KeyboardModifiers modifiers, const ClickQuerySettings &settings);

// What to do when that query finds nothing, for the end of the query panel's explanation
// (QueryPanel::runQuery()'s noRowsHint): where no access was under the cursor, the window around
// the point held none, "zoom in, or widen “within” on the toolbar"; nothing when there was one.
QString clickQueryNoRowsHint(const std::optional<Access> &access);

} // namespace memhist::viewer
