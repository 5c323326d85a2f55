// SPDX-License-Identifier: MIT
#include "instructionstream.h"

#include "core/context/codetrace.h"
#include "core/diff/diffstatements.h"

namespace memhist {

InstructionStream::InstructionStream(sqlite::Connection &connection)
    : m_walk(connection)
    , m_instructionText(connection.prepare(diffstatements::instructionText))
{
    sqlite::Statement start = connection.prepare(diffstatements::codeTraceStart);
    if (m_walk.available() && start.isValid() && start.step() == SQLITE_ROW && !start.isNull(0)) {
        m_available = true;
        m_start = fromStored(start.int64(0));
    }
    m_knowsCalls = m_instructionText.isValid();
}

int InstructionStream::callEffect(std::uint64_t pc)
{
    if (!m_knowsCalls || pc == 0)
        return 0;
    const auto known = m_effects.constFind(pc);
    if (known != m_effects.constEnd())
        return *known;
    int effect = 0;
    m_instructionText.bind(1, toStored(pc));
    if (m_instructionText.step() == SQLITE_ROW) {
        const QString text = m_instructionText.text(0);
        // capstone's Intel text: "call 0x401136", "call qword ptr [rax]", "ret", "ret 8", "bnd ret"
        if (text.startsWith(QLatin1String("call")) || text.startsWith(QLatin1String("bnd call")))
            effect = 1;
        else if (text.startsWith(QLatin1String("ret")) || text.startsWith(QLatin1String("bnd ret")))
            effect = -1;
    }
    m_instructionText.reset();
    m_effects.insert(pc, effect);
    return effect;
}

bool InstructionStream::readStretch()
{
    if (m_ended || !m_available)
        return false;
    CodeStretch stretch;
    const bool found = m_started ? m_walk.next(&stretch) : m_walk.seek(Transition { m_start }, &stretch);
    m_started = true;
    if (!found) {
        m_ended = true;
        return false;
    }
    // Copy the PCs at once: the walk's run cache may drop the run on its next lookup.
    std::uint64_t pc = stretch.run ? stretch.run->pc.value : 0;
    for (std::uint64_t i = 0; i < stretch.count; ++i) {
        m_ahead.push_back(TracedInstruction { stretch.first + i, stretch.run ? pc : 0, m_depth });
        if (stretch.run)
            pc += std::uint8_t(stretch.run->sizes[qsizetype(i)]);
    }
    // Only a stretch's last instruction can call or return: both jump, and a jump ends a run.
    m_depth += callEffect(m_ahead.back().pc);
    return true;
}

bool InstructionStream::peek(std::size_t k, TracedInstruction *instruction)
{
    while (m_ahead.size() <= k)
        if (!readStretch())
            return false;
    *instruction = m_ahead[k];
    return true;
}

bool InstructionStream::pop(TracedInstruction *instruction)
{
    TracedInstruction current;
    if (!peek(0, &current))
        return false;
    if (instruction)
        *instruction = current;
    m_ahead.pop_front();
    ++m_consumed;
    return true;
}

} // namespace memhist
