// SPDX-License-Identifier: MIT
#include "core/origin/origintreebuilder.h"

#include "core/origin/originstatements.h"
#include "core/query/accessrow.h"
#include "core/search/searchstatements.h"
#include "core/storage/historydatabase.h"
#include "core/values/syscallnames.h"

#include <algorithm>

namespace memhist {

OriginTreeBuilder::OriginTreeBuilder(HistoryDatabase &database)
    : context(database)
    , values(database.connection())
    , lastWrites(database)
    , flows(database.connection())
    , walk(database, flows)
    , rows(database.connection())
    , engine(database)
    , accessByRowId(database.connection().prepare(originstatements::accessByRowId))
    , accessesBetween(database.connection().prepare(searchstatements::accessesBetween))
{
    rowsLoaded = rows.load();
    code = walk.available() && flows.available();
}

QByteArray OriginTreeBuilder::bytesAt(
    const QByteArray &bytes, std::uint64_t first, std::uint64_t address, std::uint64_t count)
{
    if (address < first || address - first + count > std::uint64_t(bytes.size()))
        return {};
    return bytes.mid(qsizetype(address - first), qsizetype(count));
}

bool OriginTreeBuilder::samePrefix(const QByteArray &expected, const QByteArray &moved)
{
    const qsizetype common = std::min(expected.size(), moved.size());
    return common > 0 && expected.left(common) == moved.left(common);
}

QByteArray OriginTreeBuilder::littleEndian(std::int64_t value, qsizetype size)
{
    QByteArray bytes;
    for (qsizetype i = 0; i < size && i < 8; ++i)
        bytes.append(char((std::uint64_t(value) >> (8 * i)) & 0xff));
    return bytes;
}

std::optional<Access> OriginTreeBuilder::accessAt(RowId row)
{
    if (!accessByRowId.isValid())
        return std::nullopt;
    accessByRowId.bind(1, row.value);
    std::optional<Access> access;
    if (accessByRowId.step() == SQLITE_ROW) {
        const query::AccessRow stored = query::readAccessRow(accessByRowId);
        if (isValidOperationCode(stored.operation) && stored.size > 0 && stored.transition >= 0)
            access = query::toAccess(stored);
    }
    accessByRowId.reset();
    return access;
}

QList<Access> OriginTreeBuilder::accessesAt(Transition transition, Operation operation)
{
    QList<Access> found;
    if (!rowsLoaded || !accessesBetween.isValid() || transition.value >= signBoundary - 1)
        return found;
    const std::int64_t first = rows.firstRowIdAtOrAfter(std::int64_t(transition.value));
    const std::int64_t last = rows.firstRowIdAtOrAfter(std::int64_t(transition.value + 1)) - 1;
    if (rows.failed() || first > last)
        return found;
    accessesBetween.bind(1, first);
    accessesBetween.bind(2, last);
    while (accessesBetween.step() == SQLITE_ROW) {
        const query::AccessRow stored = query::readAccessRow(accessesBetween);
        if (!isValidOperationCode(stored.operation) || stored.size <= 0 || stored.transition < 0)
            continue;
        const Access access = query::toAccess(stored);
        if (access.operation == operation && access.transition == transition)
            found << access;
    }
    accessesBetween.reset();
    return found;
}

QByteArray OriginTreeBuilder::bytesOf(RowId row)
{
    const std::optional<AccessValue> value = values.value(row);
    return value ? value->bytes : QByteArray();
}

int OriginTreeBuilder::addHop(OriginHop hop, int parent, int depth)
{
    if (m_tree->hops.size() >= m_request.maxHops) {
        m_tree->truncated = true;
        return -1;
    }
    hop.parent = parent;
    hop.depth = depth;
    if (hop.pc) {
        const CodeDescription code = context.describeCode(*hop.pc, hop.transition);
        hop.function = code.functionText();
        hop.source = code.sourceText();
    }
    m_tree->hops << hop;
    return int(m_tree->hops.size() - 1);
}

bool OriginTreeBuilder::repeated(const QString &key, OriginHop hop, int parent, int depth)
{
    const auto known = m_seen.constFind(key);
    if (known == m_seen.constEnd())
        return false;
    hop.note = QStringLiteral("as step %1").arg(*known);
    addHop(hop, parent, depth);
    return true;
}

bool OriginTreeBuilder::find(const OriginRequest &request, OriginTree *tree, QString *error)
{
    m_request = request;
    m_tree = tree;
    m_error.clear();
    m_seen.clear();
    tree->hops.clear();
    tree->truncated = false;
    const std::optional<Access> access = accessAt(request.row);
    if (!access) {
        *error = QStringLiteral("no access has rowid %1").arg(request.row.value);
        return false;
    }
    OriginHop root;
    root.kind = HopKind::Access;
    root.rowId = access->rowId;
    root.transition = access->transition;
    root.address = access->physical;
    root.size = access->size;
    root.value = bytesOf(access->rowId);
    root.confidence = root.value.isEmpty() ? Confidence::Unchecked : Confidence::Exact;
    if (code) {
        root.pc = walk.pcAt(access->transition);
        if (root.pc)
            root.note = flows.flowAt(*root.pc).text;
    }
    addHop(root, -1, 0);
    const bool write = access->operation == Operation::Write;
    const std::optional<AccessValue> rootValue = values.value(access->rowId);
    if (write && rootValue && rootValue->kernelSyscall && request.direction == Direction::Backward) {
        // The kernel's write: its source is the system call, not the instruction that made it.
        OriginHop hop;
        hop.kind = HopKind::Kernel;
        hop.transition = access->transition;
        hop.pc = root.pc;
        hop.note = kernelAccessText(*rootValue->kernelSyscall);
        addHop(hop, 0, 1);
    } else if (request.direction == Direction::Backward) {
        if (write)
            writeOrigin(*access, root.value, 0, 1);
        else
            readOrigin(*access, root.value, 0, 1);
    } else {
        if (write)
            forwardFromWrite(*access, root.value, 0, 1);
        else
            forwardFromInstruction(access->transition, root.value, 0, 1);
    }
    // Any read of the code trace (pcAt() too) that met a damaged page: the tree is not the answer.
    if (m_error.isEmpty())
        m_error = walk.error();
    if (!m_error.isEmpty()) {
        *error = m_error;
        return false;
    }
    return true;
}

} // namespace memhist
