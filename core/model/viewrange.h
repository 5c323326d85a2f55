// SPDX-License-Identifier: MIT
// The part of the transition x address plane a view shows, passed between the plane, the charts
// and the main window. Both ranges are inclusive.
#pragma once

#include "core/model/types.h"

#include <QMetaType>

namespace memhist {

struct ViewRange
{
    Transition firstTransition { 0 };
    Transition lastTransition { 0 };
    Address firstAddress { 0 };
    Address lastAddress { ~std::uint64_t(0) };

    friend bool operator==(const ViewRange &, const ViewRange &) = default;
};

} // namespace memhist

Q_DECLARE_METATYPE(memhist::ViewRange)
