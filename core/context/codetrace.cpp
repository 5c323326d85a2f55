// SPDX-License-Identifier: MIT
#include "core/context/codetrace.h"

#include <algorithm>
#include <cstring>

namespace memhist {

Address pcInRun(const CodeRun &run, qsizetype index)
{
    std::uint64_t pc = run.pc.value;
    const auto *sizes = reinterpret_cast<const unsigned char *>(run.sizes.constData());
    for (qsizetype i = 0; i < index; ++i)
        pc += sizes[i];
    return Address { pc };
}

void appendVarint(QByteArray &out, std::uint64_t value)
{
    while (value >= 0x80) {
        out.append(char((value & 0x7f) | 0x80));
        value >>= 7;
    }
    out.append(char(value));
}

bool CodeTraceEncoder::addSlowly(Transition transition, Address pc, std::uint8_t size)
{
    if (m_failed)
        return false;
    if (transition.value >= signBoundary) {
        m_failed = true;
        m_error = QStringLiteral("transition %1 is out of range (at most 2^63-1)").arg(transition.value);
        return false;
    }
    if (!m_started) {
        m_started = true;
        m_firstTransition = transition.value;
        m_pairStart = transition.value;
    } else {
        if (transition.value < m_nextTransition) {
            m_failed = true;
            m_error = QStringLiteral("instruction at transition %1 comes after transition %2: instructions must be "
                                     "in trace order, one per transition")
                          .arg(transition.value)
                          .arg(m_nextTransition - 1);
            return false;
        }
        endRun();
        if (transition.value > m_nextTransition)
            emitPair(unknownCodeRun, transition.value - m_nextTransition);
    }
    m_runPc = pc.value;
    m_runFirstTransition = transition.value;
    m_runSizes.assign(1, char(size));
    m_nextPc = pc.value + size;
    m_runOpen = size != 0;
    m_nextTransition = transition.value + 1;
    return true;
}

void CodeTraceEncoder::endRun()
{
    if (m_runSizes.empty())
        return;
    const std::uint64_t run = runIdFor(m_runPc, m_runSizes);
    emitPair(run, m_runSizes.size());
    m_instructions += qint64(m_runSizes.size());
    m_runSizes.clear();
    m_runOpen = false;
}

std::uint64_t CodeTraceEncoder::runIdFor(std::uint64_t pc, std::string_view sizes)
{
    // One hash lookup: a new PC's entry is made now (head 0) and set below to the run made for it.
    std::uint32_t &entry = m_firstRunAtPc[pc];
    const std::uint32_t head = entry;
    for (std::uint32_t id = head; id != 0; id = m_nextRunAtSamePc[id - 1]) {
        CodeRun &run = m_runs[id - 1];
        const std::size_t common = std::min(std::size_t(run.sizes.size()), sizes.size());
        if (std::memcmp(run.sizes.constData(), sizes.data(), common) != 0)
            continue; // diverges: another path through the same PC (or other code at it)
        if (sizes.size() > std::size_t(run.sizes.size()))
            run.sizes = QByteArray(sizes.data(), qsizetype(sizes.size())); // the stored run was a prefix: grow it
        return id;
    }
    m_runs.push_back(CodeRun { Address { pc }, QByteArray(sizes.data(), qsizetype(sizes.size())) });
    m_firstExecution.push_back(Transition { m_runFirstTransition });
    m_nextRunAtSamePc.push_back(head);
    const auto id = std::uint32_t(m_runs.size());
    entry = id;
    return id;
}

void CodeTraceEncoder::emitPair(std::uint64_t run, std::uint64_t count)
{
    if (m_rowPairs == 0) {
        m_row.first = Transition { m_pairStart };
        m_row.runs.clear();
    }
    appendVarint(m_row.runs, run);
    appendVarint(m_row.runs, count);
    m_pairStart += count;
    if (++m_rowPairs == pairsPerRow) {
        m_completedRows.push_back(std::move(m_row));
        m_row = {};
        m_rowPairs = 0;
    }
}

void CodeTraceEncoder::finish()
{
    if (m_failed)
        return;
    endRun();
    if (m_rowPairs > 0) {
        m_completedRows.push_back(std::move(m_row));
        m_row = {};
        m_rowPairs = 0;
    }
}

std::vector<CodeTraceRow> CodeTraceEncoder::takeRows()
{
    std::vector<CodeTraceRow> rows;
    rows.swap(m_completedRows);
    return rows;
}

bool CodeTraceDecoder::readLongVarint(std::uint64_t *value)
{
    std::uint64_t result = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (m_position == m_data.size())
            return false;
        const auto byte = static_cast<unsigned char>(m_data[m_position++]);
        // The tenth byte may only hold the 64th bit.
        if (shift == 63 && byte > 1)
            return false;
        result |= std::uint64_t(byte & 0x7f) << shift;
        if (!(byte & 0x80)) {
            *value = result;
            return true;
        }
    }
    return false;
}

std::vector<CodeTracePair> CodeTraceDecoder::decodeAll(QByteArrayView runs, bool *damaged)
{
    CodeTraceDecoder decoder(runs);
    std::vector<CodeTracePair> pairs;
    CodeTracePair pair;
    while (decoder.next(&pair))
        pairs.push_back(pair);
    if (damaged)
        *damaged = decoder.isDamaged();
    return pairs;
}

} // namespace memhist
