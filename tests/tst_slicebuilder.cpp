// SPDX-License-Identifier: MIT
// The slice planner on its own: which accesses form a slice, how they are grouped into chunks, and
// the order of their keys in idx_accesses_1.

#include "core/writer/slicebuilder.h"

#include <QTest>
#include <random>

using namespace memhist;

namespace {

BufferedAccess access(std::uint64_t transition, std::uint64_t address, std::uint32_t size, std::uint8_t operation = 4)
{
    return { transition, address, address, size, operation, true };
}

// Every property a plan must keep, checked directly (independently of the planner's logic).
QString violation(std::span<const BufferedAccess> accesses, const SlicePlan &plan, std::uint32_t cap)
{
    const auto count = plan.accessCount;
    if (plan.chunkOfAccess.size() != count)
        return QStringLiteral("chunkOfAccess has the wrong size");
    if (count > 0 && count < accesses.size() && accesses[count - 1].transition == accesses[count].transition)
        return QStringLiteral("the slice ends inside a transition");
    std::vector<std::vector<std::pair<std::uint64_t, std::uint64_t>>> members(plan.chunks.size());
    for (std::size_t i = 0; i < count; ++i) {
        const std::uint32_t c = plan.chunkOfAccess[i];
        if (c >= plan.chunks.size())
            return QStringLiteral("access %1 has no chunk").arg(i);
        const PlannedChunk &chunk = plan.chunks[c];
        if (chunk.operation != accesses[i].operation)
            return QStringLiteral("access %1 is in a chunk of another operation").arg(i);
        if (accesses[i].physical < chunk.first || accesses[i].lastByte() > chunk.last)
            return QStringLiteral("access %1 is outside its chunk").arg(i);
        members[c].push_back({ accesses[i].physical, accesses[i].lastByte() });
    }
    bool singleTransition = count > 0 && accesses[0].transition == accesses[count - 1].transition;
    for (std::size_t c = 0; c < plan.chunks.size(); ++c) {
        const PlannedChunk &chunk = plan.chunks[c];
        if (members[c].size() != chunk.accesses)
            return QStringLiteral("chunk %1 miscounts its accesses").arg(c);
        if (chunk.accesses > cap && !singleTransition)
            return QStringLiteral("chunk %1 exceeds the cap").arg(c);
        // Coverage: sorted by first byte, each interval starts at most one byte past the reach so far.
        std::sort(members[c].begin(), members[c].end());
        if (members[c].empty() || members[c].front().first != chunk.first)
            return QStringLiteral("chunk %1 does not start with an access").arg(c);
        std::uint64_t reach = members[c].front().second;
        for (const auto &[first, last] : members[c]) {
            if (reach != ~std::uint64_t(0) && first > reach + 1)
                return QStringLiteral("chunk %1 has a hole").arg(c);
            reach = std::max(reach, last);
        }
        if (reach != chunk.last)
            return QStringLiteral("chunk %1 is not covered to its end").arg(c);
        if ((chunk.first >> 63) != (chunk.last >> 63))
            return QStringLiteral("chunk %1 crosses 2^63").arg(c);
        if (c > 0) {
            const PlannedChunk &previous = plan.chunks[c - 1];
            if (previous.operation > chunk.operation)
                return QStringLiteral("chunks are not ordered by operation");
            if (previous.operation == chunk.operation && previous.last >= chunk.first)
                return QStringLiteral("chunks %1 and %2 overlap or are out of order").arg(c - 1).arg(c);
        }
    }
    return {};
}

} // namespace

class TestSliceBuilder : public QObject
{
    Q_OBJECT

private slots:
    void plansChunks_data();
    void plansChunks();
    void cutsBeforeAnOverflowingGroup();
    void singleTransitionMayExceedTheCap();
    void randomPlansKeepEveryProperty();
    void keysInIndexOrder_data();
    void keysInIndexOrder();
};

void TestSliceBuilder::plansChunks_data()
{
    QTest::addColumn<QList<quint64>>("addresses"); // one access per transition, all reads
    QTest::addColumn<QList<quint32>>("sizes");
    QTest::addColumn<QStringList>("expectedChunks"); // "first-last:count"

    QTest::newRow("disjoint accesses make one chunk each") << QList<quint64> { 0x100,
        0x200 } << QList<quint32> { 4, 4 } << QStringList { QStringLiteral("100-103:1"), QStringLiteral("200-203:1") };
    QTest::newRow("touching accesses join up to the target")
        << QList<quint64> { 0x100, 0x104, 0x108, 0x10c } << QList<quint32> { 4, 4, 4, 4 }
        << QStringList { QStringLiteral("100-10b:3"), QStringLiteral("10c-10f:1") };
    QTest::newRow("overlapping accesses cannot be split") << QList<quint64> { 0x100, 0x102, 0x104,
        0x106 } << QList<quint32> { 4, 4, 4, 4 } << QStringList { QStringLiteral("100-109:4") };
    QTest::newRow("size 1 at 0") << QList<quint64> { 0 } << QList<quint32> { 1 }
                                 << QStringList { QStringLiteral("0-0:1") };
    QTest::newRow("last byte of the address space")
        << QList<quint64> { 0xfffffffffffffff8ull, 0xffffffffffffffffull } << QList<quint32> { 7, 1 }
        << QStringList { QStringLiteral("fffffffffffffff8-ffffffffffffffff:2") };
    QTest::newRow("touching across 2^63 is cut")
        << QList<quint64> { 0x7ffffffffffffffcull, 0x8000000000000000ull } << QList<quint32> { 4, 4 }
        << QStringList { QStringLiteral("7ffffffffffffffc-7fffffffffffffff:1"),
               QStringLiteral("8000000000000000-8000000000000003:1") };
}

void TestSliceBuilder::plansChunks()
{
    QFETCH(QList<quint64>, addresses);
    QFETCH(QList<quint32>, sizes);
    QFETCH(QStringList, expectedChunks);
    std::vector<BufferedAccess> accesses;
    for (qsizetype i = 0; i < addresses.size(); ++i)
        accesses.push_back(access(std::uint64_t(i), addresses[i], sizes[i]));
    const SlicePlan plan = planSlice(accesses, ChunkingLimits { 16, 3 });
    QCOMPARE(plan.accessCount, accesses.size());
    QStringList chunks;
    for (const PlannedChunk &chunk : plan.chunks)
        chunks << QStringLiteral("%1-%2:%3")
                      .arg(QString::number(chunk.first, 16), QString::number(chunk.last, 16))
                      .arg(chunk.accesses);
    QCOMPARE(chunks, expectedChunks);
    QCOMPARE(violation(accesses, plan, 16), QString());
}

void TestSliceBuilder::cutsBeforeAnOverflowingGroup()
{
    // Transitions 0..9 each read 0x100 twice (same bytes: one unsplittable group). With a cap of 5,
    // the 6th access (transition 2, second access) must not be in the slice, nor anything of its
    // transition: the slice is transitions 0 and 1.
    std::vector<BufferedAccess> accesses;
    for (std::uint64_t t = 0; t < 10; ++t) {
        accesses.push_back(access(t, 0x100, 8));
        accesses.push_back(access(t, 0x100, 8));
    }
    const SlicePlan plan = planSlice(accesses, ChunkingLimits { 5, 2 });
    QCOMPARE(plan.accessCount, std::size_t(4));
    QCOMPARE(plan.chunks.size(), std::size_t(1));
    QCOMPARE(plan.chunks[0].accesses, 4u);
    QCOMPARE(violation(accesses, plan, 5), QString());
}

void TestSliceBuilder::singleTransitionMayExceedTheCap()
{
    std::vector<BufferedAccess> accesses;
    for (int i = 0; i < 7; ++i)
        accesses.push_back(access(3, 0x100, 8, 2));
    accesses.push_back(access(4, 0x100, 8, 2));
    const SlicePlan plan = planSlice(accesses, ChunkingLimits { 5, 2 });
    QCOMPARE(plan.accessCount, std::size_t(7)); // transition 3 alone
    QCOMPARE(plan.chunks.size(), std::size_t(1));
    QCOMPARE(plan.chunks[0].accesses, 7u);
}

void TestSliceBuilder::randomPlansKeepEveryProperty()
{
    std::mt19937_64 random(42);
    for (int round = 0; round < 300; ++round) {
        std::vector<BufferedAccess> accesses;
        std::uint64_t transition = 0;
        const int count = int(random() % 400) + 1;
        const std::uint64_t base = (round % 3 == 0) ? 0xfffffffffffff000ull
            : (round % 3 == 1)                      ? 0x7ffffffffffff800ull
                                                    : 0;
        for (int i = 0; i < count; ++i) {
            transition += random() % 3 == 0 ? 0 : 1;
            const std::uint32_t size = std::uint32_t(1u << (random() % 4));
            std::uint64_t address = base + random() % 0x800;
            if ((address >> 63) != ((address + size - 1) >> 63))
                address = (std::uint64_t(1) << 63) - size;
            accesses.push_back(access(transition, address, size, std::uint8_t(1u << (random() % 3))));
        }
        const std::uint32_t cap = std::uint32_t(random() % 20) + 2;
        const ChunkingLimits limits { cap, std::uint32_t(random() % cap) + 1 };
        std::span<const BufferedAccess> pending(accesses);
        while (!pending.empty()) {
            const SlicePlan plan = planSlice(pending, limits);
            QVERIFY(plan.accessCount > 0);
            const QString problem = violation(pending, plan, cap);
            QVERIFY2(problem.isEmpty(), qPrintable(QStringLiteral("round %1: %2").arg(round).arg(problem)));
            pending = pending.subspan(plan.accessCount);
        }
    }
}

void TestSliceBuilder::keysInIndexOrder_data()
{
    QTest::addColumn<QList<quint64>>("transitions");
    QTest::addColumn<QList<quint64>>("addresses"); // 4 bytes each
    QTest::addColumn<QList<quint8>>("operations");
    QTest::addColumn<QStringList>("expectedKeys"); // "chunk:transition:access", in index order

    QTest::newRow("by chunk, then trace order within a chunk")
        << QList<quint64> { 0, 1, 2, 3 } << QList<quint64> { 0x200, 0x100, 0x200, 0x100 }
        << QList<quint8> { 4, 4, 4, 4 }
        << QStringList { QStringLiteral("0:1:1"), QStringLiteral("0:3:3"), QStringLiteral("1:0:0"),
               QStringLiteral("1:2:2") };
    QTest::newRow("write chunks before read chunks")
        << QList<quint64> { 0, 0, 1 } << QList<quint64> { 0x100, 0x100, 0x100 } << QList<quint8> { 4, 2, 4 }
        << QStringList { QStringLiteral("0:0:1"), QStringLiteral("1:0:0"), QStringLiteral("1:1:2") };
    QTest::newRow("one transition, the higher address first")
        << QList<quint64> { 5, 5 } << QList<quint64> { 0x300, 0x100 } << QList<quint8> { 4, 4 }
        << QStringList { QStringLiteral("0:5:1"), QStringLiteral("1:5:0") };
    QTest::newRow("one access") << QList<quint64> { 7 } << QList<quint64> { 0x100 } << QList<quint8> { 2 }
                                << QStringList { QStringLiteral("0:7:0") };
}

void TestSliceBuilder::keysInIndexOrder()
{
    QFETCH(QList<quint64>, transitions);
    QFETCH(QList<quint64>, addresses);
    QFETCH(QList<quint8>, operations);
    QFETCH(QStringList, expectedKeys);
    std::vector<BufferedAccess> accesses;
    for (qsizetype i = 0; i < addresses.size(); ++i)
        accesses.push_back(access(transitions[i], addresses[i], 4, operations[i]));
    const SlicePlan plan = planSlice(accesses, ChunkingLimits { 16, 3 });
    QCOMPARE(plan.accessCount, accesses.size());
    QStringList keys;
    for (const AccessKey &key : accessKeysInIndexOrder(accesses, plan))
        keys << QStringLiteral("%1:%2:%3").arg(key.chunk).arg(key.transition).arg(key.access);
    QCOMPARE(keys, expectedKeys);
}

QTEST_GUILESS_MAIN(TestSliceBuilder)
#include "tst_slicebuilder.moc"
