// SPDX-License-Identifier: MIT
#include "widgets/memory/memoryrows.h"

#include <algorithm>

namespace memhist {

ByteShade byteShade(const MemoryByte &byte, Transition at)
{
    switch (byte.knownBy) {
    case KnownBy::Write: {
        // A write at or before `at` (the reader never gives a later one as a write).
        const std::uint64_t age = at.value >= byte.transition.value ? at.value - byte.transition.value : 0;
        if (age == 0)
            return ByteShade::WrittenNow;
        if (age <= recentWriteAge)
            return ByteShade::WrittenRecently;
        if (age <= earlierWriteAge)
            return ByteShade::WrittenEarlier;
        return ByteShade::WrittenLongAgo;
    }
    case KnownBy::Read:
        return ByteShade::Read;
    case KnownBy::LaterRead:
        return ByteShade::LaterRead;
    case KnownBy::Unknown:
        break;
    }
    return ByteShade::Unknown;
}

QString byteHex(const MemoryByte &byte)
{
    if (byte.knownBy == KnownBy::Unknown)
        return QStringLiteral("??");
    return QString::number(byte.value, 16).rightJustified(2, u'0');
}

QChar byteCharacter(const MemoryByte &byte)
{
    if (byte.knownBy == KnownBy::Unknown)
        return u'?';
    return byte.value >= 0x20 && byte.value < 0x7f ? QChar(char16_t(byte.value)) : QChar(u'.');
}

QString rowAddressText(Address address, int digits)
{
    return QString(QStringLiteral("0x") + QString::number(address.value, 16)).rightJustified(2 + digits, u' ');
}

int addressDigits(Address last)
{
    return std::max(8, int(QString::number(last.value, 16).size()));
}

QString rowText(const MemorySnapshot &snapshot, int row, int digits)
{
    const qsizetype begin = qsizetype(row) * memoryBytesPerRow;
    QString text = rowAddressText(Address { snapshot.first.value + std::uint64_t(begin) }, digits);
    QString characters;
    for (int i = 0; i < memoryBytesPerRow; ++i) {
        const MemoryByte &byte = snapshot.bytes[begin + i];
        text += i == 0 || i == memoryBytesPerRow / 2 ? QStringLiteral("  ") : QStringLiteral(" ");
        text += byteHex(byte);
        characters += byteCharacter(byte);
    }
    return text + QStringLiteral("  ") + characters;
}

} // namespace memhist
