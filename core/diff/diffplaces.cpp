// SPDX-License-Identifier: MIT
#include "diffplaces.h"

#include "core/context/contextreader.h"

namespace memhist {

namespace {

QString hex(std::uint64_t value)
{
    return QStringLiteral("0x") + QString::number(value, 16);
}

QString withOffset(const QString &name, std::int64_t offset)
{
    if (offset == 0)
        return name;
    return offset > 0 ? name + u'+' + hex(std::uint64_t(offset)) : name + u'-' + hex(std::uint64_t(-offset));
}

// What stack offsets count from (addressnormaliser.h): the stack pointer at the program's start.
QString stackAnchorName()
{
    return QStringLiteral("[stack] sp0");
}

} // namespace

PlaceDescriber::PlaceDescriber(ContextReader &context, const NameTable &names)
    : m_context(context)
    , m_names(names)
{ }

DiffPlace PlaceDescriber::code(Transition transition, Address pc)
{
    DiffPlace place { transition, pc, {}, {} };
    if (pc.value == 0)
        return place;
    const CodeDescription description = m_context.describeCode(pc, transition);
    place.function = description.functionText();
    place.source = description.sourceText();
    return place;
}

QString PlaceDescriber::functionAt(std::uint64_t pc)
{
    const QString function = m_context.describeCode(Address { pc }).functionText();
    return function.isEmpty() ? hex(pc) : function;
}

QString PlaceDescriber::place(const NormalisedAddress &place)
{
    std::int64_t offset = 0;
    const ObjectKey key = objectKeyOf(place, &offset);
    if (key.kind == NormalisedAddress::Kind::Stack)
        return withOffset(stackAnchorName(), -place.offset);
    return withOffset(object(key), offset);
}

QString PlaceDescriber::object(const ObjectKey &key)
{
    using Kind = NormalisedAddress::Kind;
    switch (key.kind) {
    case Kind::Global:
        return m_names.name(key.a);
    case Kind::Heap:
        return QStringLiteral("[heap] cell %1 first written by %2").arg(key.b).arg(functionAt(key.a));
    case Kind::Stack:
        return withOffset(stackAnchorName(), -key.word);
    case Kind::File:
        return m_names.name(key.a) + u'+' + hex(std::uint64_t(key.word));
    case Kind::Region:
        return m_names.name(key.a) + u' ' + hex(std::uint64_t(key.word));
    case Kind::Unknown:
        break;
    }
    return hex(std::uint64_t(key.word));
}

} // namespace memhist
