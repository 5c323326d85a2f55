// SPDX-License-Identifier: MIT
#include "core/recorder/clientstacksink.h"

#include "core/context/processmap.h"
#include "core/model/numbertext.h"

#include <QFile>
#include <algorithm>
#include <sys/resource.h>

namespace memhist {

std::uint64_t ClientStackSink::mainStackSize()
{
    constexpr std::uint64_t oneMiB = 1 << 20;
    constexpr std::uint64_t pageSize = 0x1000;
    rlimit limit {};
    std::uint64_t size = 8 * oneMiB;
    if (::getrlimit(RLIMIT_STACK, &limit) == 0)
        size = limit.rlim_cur == RLIM_INFINITY ? 16 * oneMiB : std::uint64_t(limit.rlim_cur);
    size = std::clamp(size, oneMiB, 16 * oneMiB);
    return (size + pageSize - 1) & ~(pageSize - 1);
}

void ClientStackSink::lookForStack(const Access &access)
{
    if (m_process <= 0)
        return;
    m_looked = true;
    const QString path = QStringLiteral("/proc/%1/maps").arg(m_process);
    QFile file(path);
    QList<Mapping> mappings;
    QString error;
    if (!file.open(QIODevice::ReadOnly)) {
        m_problem = QStringLiteral("the client stack is not named: %1: %2").arg(path, file.errorString());
        return;
    }
    if (!parseProcessMaps(file.readAll(), path, &mappings, &error)) {
        m_problem = QStringLiteral("the client stack is not named: ") + error;
        return;
    }
    if (mappings.isEmpty()) {
        m_problem = QStringLiteral("the client stack is not named: valgrind had ended before its memory map "
                                   "could be read");
        return;
    }
    const Address address = access.linear.value_or(access.physical);
    const auto holding = std::find_if(
        mappings.cbegin(), mappings.cend(), [&](const Mapping &mapping) { return mapping.contains(address); });
    if (holding == mappings.cend() || holding->path != anonymousMappingPath()) {
        m_problem = QStringLiteral("the client stack is not named: the program's first access (%1) is not in an "
                                   "anonymous mapping of valgrind's")
                        .arg(hexText(address.value));
        return;
    }
    const std::uint64_t last = holding->last.value;
    const std::uint64_t first = last + 1 >= m_stackSize ? last + 1 - m_stackSize : 0;
    const Mapping stack = clientStackMapping(Address { first }, Address { last });
    m_inner.addMapping(access.transition, stack);
    if (m_stackNamed)
        m_stackNamed(stack);
}

} // namespace memhist
