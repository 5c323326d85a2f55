// SPDX-License-Identifier: MIT
#include "core/context/symbolizer.h"

#include "core/context/localdebuginfo.h"
#include "core/context/modulefile.h"

#include <QFileInfo>

namespace memhist {

namespace {

ModuleStatus statusOf(const LoadedModule &load, const ModuleFile &file)
{
    ModuleStatus status;
    status.state = file.state();
    status.fileBuildId = file.buildId();
    if (file.state() != ModuleState::Ready) {
        status.message = load.path + QStringLiteral(": ") + file.problem();
        return status;
    }
    if (!load.buildId.isEmpty() && load.buildId.compare(file.buildId(), Qt::CaseInsensitive) != 0) {
        status.state = ModuleState::BuildIdDiffers;
        status.message = load.path
            + QStringLiteral(": build-id differs (trace %1, file %2)")
                  .arg(load.buildId.toLower(), file.buildId().isEmpty() ? QStringLiteral("none") : file.buildId());
        return status;
    }
    status.debugFile = file.debugFile();
    status.hasSymbolTable = file.hasSymbolTable();
    status.hasDynamicSymbols = file.hasDynamicSymbols();
    status.hasLines = file.hasLines();
    return status;
}

} // namespace

QStringList Symbolizer::defaultDebugRoots()
{
    return { QStringLiteral("/usr/lib/debug") };
}

Symbolizer::Symbolizer(const QStringList &debugRoots)
    : m_debugInfo(std::make_unique<LocalDebugInfo>(debugRoots))
{ }

// Out of line: ModuleFile and LocalDebugInfo are complete here. Files close before the callbacks go.
Symbolizer::~Symbolizer()
{
    m_loads.clear();
    m_files.clear();
}

std::shared_ptr<ModuleFile> Symbolizer::openFile(const QString &path)
{
    auto known = m_files.constFind(path);
    if (known != m_files.constEnd())
        return *known;
    auto file = std::make_shared<ModuleFile>(path, *m_debugInfo);
    m_files.insert(path, file);
    return file;
}

int Symbolizer::addModule(const LoadedModule &load)
{
    const std::shared_ptr<ModuleFile> file = openFile(load.path);
    Load entry;
    entry.module = load;
    entry.status = statusOf(load, *file);
    if (entry.status.state == ModuleState::Ready) {
        entry.file = file;
        if (const auto elfExtent = file->extent()) {
            entry.extent
                = AddressRange { toRunTime(entry, elfExtent->first.value), toRunTime(entry, elfExtent->last.value) };
        }
    }
    m_loads.push_back(std::move(entry));
    return int(m_loads.size()) - 1;
}

QList<int> Symbolizer::addModules(const QList<LoadedModule> &loads)
{
    QList<int> indexes;
    indexes.reserve(loads.size());
    for (const LoadedModule &load : loads)
        indexes << addModule(load);
    return indexes;
}

const LoadedModule &Symbolizer::module(int index) const
{
    return m_loads.at(std::size_t(index)).module;
}

const ModuleStatus &Symbolizer::status(int index) const
{
    return m_loads.at(std::size_t(index)).status;
}

std::optional<AddressRange> Symbolizer::extent(int index) const
{
    return m_loads.at(std::size_t(index)).extent;
}

std::optional<int> Symbolizer::moduleAt(Address address, std::optional<Transition> at) const
{
    for (std::size_t i = m_loads.size(); i-- > 0;) {
        const Load &load = m_loads[i];
        if (!load.extent || !load.extent->contains(address))
            continue;
        if (at && (*at < load.module.first || *at > load.module.last))
            continue;
        return int(i);
    }
    return std::nullopt;
}

CodeLocation Symbolizer::describeCode(int index, Address pc)
{
    const Load &load = m_loads.at(std::size_t(index));
    CodeLocation location;
    location.module = index;
    location.moduleOffset = Address { toElf(load, pc) };
    if (!load.file)
        return location;
    ModuleFile &file = *load.file;
    const std::uint64_t elfAddress = toElf(load, pc);
    if (const SymbolTable::Entry *function = file.functions().find(elfAddress)) {
        location.function = file.functions().name(*function);
        location.functionRange = { toRunTime(load, function->first), toRunTime(load, function->last) };
        location.functionOffset = elfAddress - function->first;
    }
    if (const auto line = file.sourceLine(elfAddress)) {
        location.sourceFile = line->file;
        location.line = line->line;
        location.lineRange = { toRunTime(load, line->range.first.value), toRunTime(load, line->range.last.value) };
    }
    return location;
}

CodeLocation Symbolizer::describeCode(Address pc, std::optional<Transition> at)
{
    if (const auto index = moduleAt(pc, at))
        return describeCode(*index, pc);
    CodeLocation location;
    location.moduleOffset = pc;
    return location;
}

QList<CodeLocation> Symbolizer::describeCode(const QList<Address> &pcs, std::optional<Transition> at)
{
    QList<CodeLocation> locations;
    locations.reserve(pcs.size());
    for (const Address pc : pcs)
        locations << describeCode(pc, at);
    return locations;
}

DataLocation Symbolizer::describeData(int index, Address address)
{
    const Load &load = m_loads.at(std::size_t(index));
    DataLocation location;
    location.module = index;
    if (!load.file)
        return location;
    const ModuleFile &file = *load.file;
    const std::uint64_t elfAddress = toElf(load, address);
    if (const SymbolTable::Entry *object = file.objects().find(elfAddress)) {
        location.object = file.objects().name(*object);
        location.objectRange = { toRunTime(load, object->first), toRunTime(load, object->last) };
        location.objectOffset = elfAddress - object->first;
    }
    if (const SectionRange *section = file.sectionAt(elfAddress))
        location.section = section->name;
    return location;
}

DataLocation Symbolizer::describeData(Address address, std::optional<Transition> at)
{
    if (const auto index = moduleAt(address, at))
        return describeData(*index, address);
    return {};
}

QList<DataLocation> Symbolizer::describeData(const QList<Address> &addresses, std::optional<Transition> at)
{
    QList<DataLocation> locations;
    locations.reserve(addresses.size());
    for (const Address address : addresses)
        locations << describeData(address, at);
    return locations;
}

QList<SectionRange> Symbolizer::sections(int index) const
{
    const Load &load = m_loads.at(std::size_t(index));
    if (!load.file)
        return {};
    QList<SectionRange> sections = load.file->sections();
    for (SectionRange &section : sections)
        section.range = { toRunTime(load, section.range.first.value), toRunTime(load, section.range.last.value) };
    return sections;
}

QList<DataObject> Symbolizer::dataObjects(int index) const
{
    const Load &load = m_loads.at(std::size_t(index));
    if (!load.file)
        return {};
    const SymbolTable &objects = load.file->objects();
    QList<DataObject> result;
    result.reserve(qsizetype(objects.entries().size()));
    for (const SymbolTable::Entry &entry : objects.entries())
        result << DataObject { objects.name(entry), { toRunTime(load, entry.first), toRunTime(load, entry.last) } };
    return result;
}

QByteArray Symbolizer::codeBytes(int index, Address pc, int count)
{
    const Load &load = m_loads.at(std::size_t(index));
    if (!load.file)
        return {};
    return load.file->bytes(toElf(load, pc), count);
}

QByteArray Symbolizer::codeBytes(Address pc, int count, std::optional<Transition> at)
{
    if (const auto index = moduleAt(pc, at))
        return codeBytes(*index, pc, count);
    return {};
}

} // namespace memhist
