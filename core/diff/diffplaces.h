// SPDX-License-Identifier: MIT
// The words `memhist diff` reports with: an instruction as its function and source line, a
// normalised address (addressnormaliser.h) or an object (objecthistories.h) as text
// ("counter+0x4", "[heap] cell 2 first written by main+0x5e", "[stack] top-0x1c8", "prog+0x3010").
#pragma once

#include "core/diff/addressnormaliser.h"
#include "core/diff/diffresult.h"
#include "core/diff/objecthistories.h"

#include <QHash>

namespace memhist {

class ContextReader;

class PlaceDescriber
{
public:
    PlaceDescriber(ContextReader &context, const NameTable &names);

    DiffPlace code(Transition transition, Address pc);
    QString place(const NormalisedAddress &place);
    QString object(const ObjectKey &key);

private:
    QString functionAt(std::uint64_t pc);

    ContextReader &m_context;
    const NameTable &m_names;
};

} // namespace memhist
