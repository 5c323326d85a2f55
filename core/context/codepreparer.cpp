#include "core/context/codepreparer.h"

#include "core/context/symbolizer.h"

namespace memhist {

CodePreparer::CodePreparer(InstructionSet set)
    : m_disassembler(set)
{ }

void CodePreparer::addModule(Symbolizer &symbolizer, const LoadedModule &module)
{
    LoadedModule probe = module;
    probe.first = Transition { ~std::uint64_t(0) };
    probe.last = Transition { 0 };
    const int load = symbolizer.addModule(probe);
    if (const auto extent = symbolizer.extent(load))
        m_modules.push_back(Module { module, load, *extent });
}

void CodePreparer::prepare(Symbolizer &symbolizer, const std::vector<NewCodeRun> &runs)
{
    for (const NewCodeRun &entry : runs) {
        const Transition at = entry.firstExecution;
        for (qsizetype i = 0; i < entry.run.sizes.size(); ++i) {
            const Address pc = pcInRun(entry.run, i);
            if (m_seen.contains(pc.value))
                continue;
            // The latest load alive at `at` that holds the PC, as Symbolizer::moduleAt picks.
            for (int index = int(m_modules.size()) - 1; index >= 0; --index) {
                const Module &module = m_modules[std::size_t(index)];
                if (!module.extent.contains(pc) || at < module.module.first || module.module.last < at)
                    continue;
                PreparedInstruction prepared;
                prepared.location = symbolizer.describeCode(module.load, pc);
                prepared.fileBytes = symbolizer.codeBytes(module.load, pc);
                if (!prepared.fileBytes.isEmpty() && m_disassembler.isValid())
                    prepared.decoded = m_disassembler.decode(prepared.fileBytes, pc);
                m_prepared.insert({ index, pc.value }, std::move(prepared));
                m_seen.insert(pc.value);
                break;
            }
        }
    }
}

int CodePreparer::moduleIndex(const LoadedModule &module) const
{
    for (std::size_t index = 0; index < m_modules.size(); ++index) {
        const LoadedModule &named = m_modules[index].module;
        if (named.path == module.path && named.bias == module.bias && named.buildId == module.buildId)
            return int(index);
    }
    return -1;
}

const PreparedInstruction *CodePreparer::find(int moduleIndex, Address pc) const
{
    const auto it = m_prepared.constFind({ moduleIndex, pc.value });
    return it == m_prepared.cend() ? nullptr : &*it;
}

} // namespace memhist
