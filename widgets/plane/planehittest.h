// SPDX-License-Identifier: MIT
// What lies under a pixel of the plane: the transition, the address (in its region or folded gap)
// and the access, and the hover text that names them. Pure functions of the pixel mapping, the fold
// and what the image shown drew, in plot-local pixels (origin at the plot's top-left corner), so
// that clicks and tooltips agree with the pixels (tests/widgets/tst_planehittest.cpp).
#pragma once

#include "core/model/viewrange.h"
#include "widgets/plane/planecoordinates.h"

#include <QList>
#include <QPointF>
#include <QString>
#include <optional>
#include <vector>

namespace memhist::plane {

// A drawn access is hit at most this many pixels from its bar, looking at the transitions within
// drawnAccessSearchPixels left and right ...
inline constexpr double drawnAccessHitPixels = 3;
inline constexpr double drawnAccessSearchPixels = 2;
// ... a marked one closer than this many pixels to its marker's centre (in both directions).
inline constexpr double markedAccessHitPixels = 5;

// The transition and the address under a pixel.
struct PlanePoint
{
    Transition transition;
    Address address;
    friend bool operator==(const PlanePoint &, const PlanePoint &) = default;
};
PlanePoint pointAt(QPointF position, const PixelMapping &mapping, const AddressFold &fold);

// The centre of transition t at the middle of the byte at `a`; none outside the plot.
std::optional<QPointF> positionOf(Transition t, Address a, const PixelMapping &mapping, const AddressFold &fold);

// The centre of an access's marker: the middle of its transition and of its bytes.
QPointF accessCentre(const Access &access, const PixelMapping &mapping, const AddressFold &fold);

// Whether some byte of `access` is inside `range` at one of its transitions.
bool isInRange(const Access &access, const ViewRange &range);

// The access under `position`, none outside the plot: among `drawn` (the accesses the image drew,
// in transition order) the nearest whose bar is within drawnAccessHitPixels, at equal distance the
// one drawn on top (writes over reads over executes, then the later); else among `marked` the one
// whose marker's centre is nearest, closer than markedAccessHitPixels.
std::optional<Access> accessAt(QPointF position, const PixelMapping &mapping, const AddressFold &fold,
    const std::vector<Access> &drawn, const QList<Access> &marked);

// "transition 1,234 · address 0x… · region 2/3 (0x…–0x…)", or the folded gap under the position,
// and the access under the cursor when there is one. Parts are separated by " · ".
QString hoverText(
    QPointF position, const PixelMapping &mapping, const AddressFold &fold, const std::optional<Access> &access);

} // namespace memhist::plane
