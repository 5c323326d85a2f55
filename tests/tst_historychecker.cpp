// SPDX-License-Identifier: MIT
// The checker must accept every database that keeps the storage model's properties (ours, the
// reference writer's shared slice boundaries, addresses above 2^63) and name the first violation,
// exactly, for each property broken on purpose in a hand-built database.
#include "core/checker/chunkcoverage.h"
#include "core/checker/historychecker.h"
#include "core/storage/historydatabase.h"
#include "core/storage/schema.h"
#include "core/storage/sqlite.h"
#include "core/writer/historywriter.h"
#include "testsupport.h"

#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

using namespace memhist;
using test::ForeignAccess;
using test::ForeignChunk;
using test::ForeignSlice;

using MetaRows = QMap<QString, QString>;
Q_DECLARE_METATYPE(QList<ForeignSlice>)
Q_DECLARE_METATYPE(QList<ForeignChunk>)
Q_DECLARE_METATYPE(QList<ForeignAccess>)
Q_DECLARE_METATYPE(memhist::ByteRange)
Q_DECLARE_METATYPE(QList<memhist::ByteRange>)

namespace {

constexpr auto X = Operation::Execute;
constexpr auto W = Operation::Write;
constexpr auto R = Operation::Read;
constexpr std::uint64_t top = ~std::uint64_t(0);

// An access whose linear address equals its physical one (a user-space trace).
ForeignAccess access(qint64 chunk, std::uint64_t transition, std::uint64_t address, std::uint32_t size, Operation op)
{
    return ForeignAccess { chunk, transition, address, address, size, op };
}

// The same without a linear address (a writer that only knew physical addresses).
ForeignAccess physicalOnly(
    qint64 chunk, std::uint64_t transition, std::uint64_t address, std::uint32_t size, Operation op)
{
    return ForeignAccess { chunk, transition, std::nullopt, address, size, op };
}

bool addMeta(const QString &path, const MetaRows &meta)
{
    if (meta.isEmpty())
        return true;
    sqlite::Connection db;
    if (!db.open(path, sqlite::Connection::Mode::ReadWriteCreate) || !db.execute(schema::createMetaTable))
        return false;
    sqlite::Statement insert = db.prepare(schema::insertMeta);
    for (auto it = meta.cbegin(); it != meta.cend(); ++it) {
        insert.bind(1, it.key());
        insert.bind(2, it.value());
        if (!insert.run())
            return false;
    }
    return true;
}

const QString capUnknown = QStringLiteral(
    "the chunk access cap is unknown (no chunk_access_cap in meta); the largest chunk holds %1 accesses");

// The tail of the notes on discard_after leftovers: the last stored access, then the first chunk.
const QString leftovers
    = QStringLiteral(": leftovers of discard_after, allowed in slices that end after the last stored "
                     "access (%1); the first is %2");

// A valid history: adjacent W chunks, an R chunk overlapping them (other operation), a slice gap,
// an X chunk, repeated and overlapping accesses, some without a linear address.
QList<ForeignSlice> validSlices()
{
    return { { 0, 4 }, { 6, 9 } };
}
QList<ForeignChunk> validChunks()
{
    return {
        { 1, 0x1000, 0x1007, W }, // 1
        { 1, 0x1008, 0x100b, W }, // 2: touches chunk 1, no overlap
        { 1, 0x1000, 0x1003, R }, // 3: overlaps W chunks, allowed
        { 2, 0x2000, 0x2003, X }, // 4
        { 2, 0x1000, 0x1001, R }, // 5: below slice 1's chunks, other slice
    };
}
QList<ForeignAccess> validAccesses()
{
    return {
        access(1, 0, 0x1000, 4, W),
        physicalOnly(3, 0, 0x1000, 4, R),
        access(1, 1, 0x1004, 4, W),
        access(2, 2, 0x1008, 4, W),
        access(1, 4, 0x1002, 2, W),
        physicalOnly(4, 6, 0x2000, 4, X),
        access(5, 8, 0x1000, 1, R),
        access(5, 9, 0x1001, 1, R),
        access(5, 9, 0x1000, 2, R),
    };
}
MetaRows validMeta()
{
    return {
        { QStringLiteral("accesses"), QStringLiteral("9") },
        { QStringLiteral("reads"), QStringLiteral("4") },
        { QStringLiteral("writes"), QStringLiteral("4") },
        { QStringLiteral("executes"), QStringLiteral("1") },
        { QStringLiteral("slices"), QStringLiteral("2") },
        { QStringLiteral("chunks"), QStringLiteral("5") },
        { QStringLiteral("transition_first"), QStringLiteral("0") },
        { QStringLiteral("transition_last"), QStringLiteral("9") },
        { QStringLiteral("chunk_access_cap"), QStringLiteral("3") },
        { QStringLiteral("writer"), QStringLiteral("test") },
    };
}

MetaRows withMeta(MetaRows meta, const char *key, const char *value)
{
    meta.insert(QLatin1String(key), QLatin1String(value));
    return meta;
}

} // namespace

class TestHistoryChecker : public QObject
{
    Q_OBJECT

private slots:
    void check_data();
    void check();
    void coverage_data();
    void coverage();
    void coverageMemoryStaysBounded();
    void progressAndCancel();
    void writerOutputPasses();
    void reportsEveryBrokenProperty();
    void refusesWhatSQLiteFindsDamaged();
    void refusesADamagedOverflowList();

private:
    QTemporaryDir m_dir;
};

void TestHistoryChecker::check_data()
{
    QTest::addColumn<QList<ForeignSlice>>("slices");
    QTest::addColumn<QList<ForeignChunk>>("chunks");
    QTest::addColumn<QList<ForeignAccess>>("accesses");
    QTest::addColumn<MetaRows>("meta");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QString>("violation");
    QTest::addColumn<QStringList>("notes");
    // Counts are asserted on passing rows (reportsEveryBrokenProperty asserts those of a failed check).
    QTest::addColumn<qint64>("sliceCount");
    QTest::addColumn<qint64>("chunkCount");
    QTest::addColumn<qint64>("accessCount");
    QTest::addColumn<qint64>("largestChunk");

    const QList<ForeignSlice> oneSlice { { 0, 3 } };
    const QList<ForeignChunk> oneChunk { { 1, 0x1000, 0x1007, W } };
    const QStringList none;

    // Passing databases.
    QTest::newRow("valid history") << validSlices() << validChunks() << validAccesses() << MetaRows() << true
                                   << QString() << QStringList { capUnknown.arg(3) } << 2LL << 5LL << 9LL << 3LL;
    QTest::newRow("valid history with matching meta")
        << validSlices() << validChunks() << validAccesses() << validMeta() << true << QString() << none << 2LL << 5LL
        << 9LL << 3LL;
    QTest::newRow("empty history") << QList<ForeignSlice>() << QList<ForeignChunk>() << QList<ForeignAccess>()
                                   << MetaRows() << true << QString() << QStringList { capUnknown.arg(0) } << 0LL << 0LL
                                   << 0LL << 0LL;
    QTest::newRow("slices sharing boundary transitions (reference writer)")
        << QList<ForeignSlice> { { 0, 4 }, { 4, 6 }, { 6, 8 } }
        << QList<ForeignChunk> { { 1, 0x10, 0x13, R }, { 2, 0x10, 0x13, R }, { 3, 0x10, 0x10, W } }
        << QList<ForeignAccess> { access(1, 0, 0x10, 4, R), access(1, 4, 0x10, 2, R), access(2, 4, 0x10, 4, R),
               access(2, 6, 0x12, 2, R), access(3, 6, 0x10, 1, W) }
        << MetaRows() << true << QString()
        << QStringList { QStringLiteral("2 slices share a boundary transition with the previous slice (allowed; "
                                        "written by the reference writer)"),
               capUnknown.arg(2) }
        << 3LL << 3LL << 5LL << 2LL;
    QTest::newRow("one slice sharing a boundary transition")
        << QList<ForeignSlice> { { 0, 4 }, { 4, 6 } }
        << QList<ForeignChunk> { { 1, 0x10, 0x13, R }, { 2, 0x10, 0x13, R } }
        << QList<ForeignAccess> { access(1, 4, 0x10, 4, R), access(2, 4, 0x10, 4, R) } << MetaRows() << true
        << QString()
        << QStringList { QStringLiteral("1 slice shares a boundary transition with the previous slice (allowed; "
                                        "written by the reference writer)"),
               capUnknown.arg(1) }
        << 2LL << 2LL << 2LL << 1LL;
    // Signed comparisons would see 0x8000... below 0x7fff..., and the top chunk as ending at -1.
    QTest::newRow("addresses up to 2^64-1 (unsigned order)")
        << QList<ForeignSlice> { { 0, 1 } }
        << QList<ForeignChunk> { { 1, 0x7ffffffffffffff8, 0x7fffffffffffffff, R },
               { 1, 0x8000000000000000, 0x8000000000000007, R }, { 1, 0xfffffffffffffff0, top, R } }
        << QList<ForeignAccess> { access(1, 0, 0x7ffffffffffffff8, 8, R), access(2, 0, 0x8000000000000000, 8, R),
               access(3, 1, 0xfffffffffffffff8, 8, R), access(3, 1, 0xfffffffffffffff0, 8, R) }
        << MetaRows() << true << QString() << QStringList { capUnknown.arg(2) } << 1LL << 3LL << 4LL << 2LL;
    QTest::newRow("over the cap within a single transition (allowed)")
        << QList<ForeignSlice> { { 5, 5 } } << oneChunk
        << QList<ForeignAccess> { access(1, 5, 0x1000, 8, W), access(1, 5, 0x1000, 8, W), access(1, 5, 0x1000, 8, W) }
        << MetaRows { { QStringLiteral("chunk_access_cap"), QStringLiteral("2") } } << true << QString()
        << QStringList { QStringLiteral("1 chunk(s) hold more than chunk_access_cap 2 accesses within a single "
                                        "transition (allowed: one transition cannot be split)") }
        << 1LL << 1LL << 3LL << 3LL;

    // Slices.
    QTest::newRow("slice first after last")
        << QList<ForeignSlice> { { 5, 3 } } << QList<ForeignChunk>() << QList<ForeignAccess>() << MetaRows() << false
        << QStringLiteral("slice 1 [5..3]: transition_first 5 is after transition_last 3 [a slice's first transition "
                          "is not after its last]")
        << none << 0LL << 0LL << 0LL << 0LL;
    QTest::newRow("overlapping slices")
        << QList<ForeignSlice> { { 0, 5 }, { 3, 8 } } << QList<ForeignChunk>() << QList<ForeignAccess>() << MetaRows()
        << false
        << QStringLiteral("slice 2 [3..8]: starts at transition 3, before the end of the previous slice 1 [0..5] "
                          "[slices are stored in transition order and do not overlap]")
        << none << 0LL << 0LL << 0LL << 0LL;
    QTest::newRow("slices out of transition order")
        << QList<ForeignSlice> { { 10, 12 }, { 0, 5 } } << QList<ForeignChunk>() << QList<ForeignAccess>() << MetaRows()
        << false
        << QStringLiteral("slice 2 [0..5]: starts at transition 0, before the end of the previous slice 1 [10..12] "
                          "[slices are stored in transition order and do not overlap]")
        << none << 0LL << 0LL << 0LL << 0LL;

    // Transitions are int8 values in [0, 2^63-1]: a writer that stored 2^63 or more wrote a negative.
    QTest::newRow("slice transitions of 2^63 or more")
        << QList<ForeignSlice> { { 0, 3 }, { top - 1, top } } << QList<ForeignChunk>() << QList<ForeignAccess>()
        << MetaRows() << false
        << QStringLiteral("slice 2 [-2..-1]: transition_first -2 is negative: 18446744073709551614 (2^63 or more) "
                          "stored as its two's complement [transitions are in [0, 2^63-1]]")
        << none << 0LL << 0LL << 0LL << 0LL;
    QTest::newRow("slice reaching 2^63")
        << QList<ForeignSlice> { { 0, std::uint64_t(1) << 63 } } << QList<ForeignChunk>() << QList<ForeignAccess>()
        << MetaRows() << false
        << QStringLiteral("slice 1 [0..-9223372036854775808]: transition_last -9223372036854775808 is negative: "
                          "9223372036854775808 (2^63 or more) stored as its two's complement [transitions are in [0, "
                          "2^63-1]]")
        << none << 0LL << 0LL << 0LL << 0LL;
    QTest::newRow("access transition of 2^63 or more")
        << oneSlice << oneChunk
        << QList<ForeignAccess> { access(1, 0, 0x1000, 8, W), access(1, std::uint64_t(1) << 63, 0x1000, 8, W) }
        << MetaRows() << false
        << QStringLiteral("access 2 (transition -9223372036854775808): transition -9223372036854775808 is negative: "
                          "9223372036854775808 (2^63 or more) stored as its two's complement [transitions are in [0, "
                          "2^63-1]]")
        << none << 0LL << 0LL << 0LL << 0LL;

    // Chunks.
    QTest::newRow("chunk of a missing slice")
        << oneSlice << QList<ForeignChunk> { { 1, 0x1000, 0x1007, W }, { 2, 0x1000, 0x1003, R } }
        << QList<ForeignAccess>() << MetaRows() << false
        << QStringLiteral("chunk 2 (slice 2, R, 0x1000..0x1003): slice 2 does not exist [a chunk belongs to an "
                          "existing slice]")
        << none << 0LL << 0LL << 0LL << 0LL;
    QTest::newRow("bad operation code")
        << oneSlice << QList<ForeignChunk> { { 1, 0x1000, 0x1003, Operation(3) } } << QList<ForeignAccess>()
        << MetaRows() << false
        << QStringLiteral("chunk 1 (slice 1, operation 3, 0x1000..0x1003): operation 3 is none of 1, 2, 4 [a chunk "
                          "holds one operation: 1 (X), 2 (W) or 4 (R)]")
        << none << 0LL << 0LL << 0LL << 0LL;
    QTest::newRow("chunk first after last")
        << oneSlice << QList<ForeignChunk> { { 1, 0x1003, 0x1000, R } } << QList<ForeignAccess>() << MetaRows() << false
        << QStringLiteral("chunk 1 (slice 1, R, 0x1003..0x1000): phy_first 0x1003 is after phy_last 0x1000 [a "
                          "chunk's first address is not after its last]")
        << none << 0LL << 0LL << 0LL << 0LL;
    QTest::newRow("chunk crossing 2^63")
        << oneSlice << QList<ForeignChunk> { { 1, 0x7ffffffffffffff8, 0x8000000000000007, W } }
        << QList<ForeignAccess> { access(1, 0, 0x7ffffffffffffff8, 16, W) } << MetaRows() << false
        << QStringLiteral("chunk 1 (slice 1, W, 0x7ffffffffffffff8..0x8000000000000007): contains both "
                          "0x7fffffffffffffff and 0x8000000000000000: idx_chunks_1 orders phy_last as signed, where "
                          "this chunk ends before it starts [a chunk does not cross 2^63]")
        << none << 0LL << 0LL << 0LL << 0LL;
    QTest::newRow("chunks of one operation overlapping in a slice")
        << oneSlice
        << QList<ForeignChunk> { { 1, 0x1000, 0x1007, W }, { 1, 0x1000, 0x100b, R }, { 1, 0x1007, 0x100b, W } }
        << QList<ForeignAccess>() << MetaRows() << false
        << QStringLiteral("chunk 3 (slice 1, W, 0x1007..0x100b): starts at 0x1007, not after the end of the previous "
                          "chunk 1 (slice 1, W, 0x1000..0x1007) [chunks of one operation in a slice do not overlap in "
                          "idx_chunks_1 order]")
        << none << 0LL << 0LL << 0LL << 0LL;
    // Readers walk chunks by phy_last (idx_chunks_1): the order they were inserted in is free. With no
    // access stored, both chunks are discard_after leftovers.
    QTest::newRow("chunks out of address order")
        << oneSlice << QList<ForeignChunk> { { 1, 0x2000, 0x2007, X }, { 1, 0x1000, 0x1007, X } }
        << QList<ForeignAccess>() << MetaRows() << true << QString()
        << QStringList { QStringLiteral("2 chunks hold no access")
                   + leftovers.arg(QStringLiteral("the database holds none"),
                       QStringLiteral("chunk 1 (slice 1, X, 0x2000..0x2007)")),
               capUnknown.arg(0) }
        << 1LL << 2LL << 0LL << 0LL;
    QTest::newRow("chunks in descending address order, reads and writes interleaved (reference writer)")
        << oneSlice
        << QList<ForeignChunk> { { 1, 0x3000, 0x3003, W }, { 1, 0x2000, 0x2007, R }, { 1, 0x1000, 0x1007, W },
               { 1, 0x1000, 0x1003, R } }
        << QList<ForeignAccess> { access(3, 0, 0x1000, 8, W), physicalOnly(4, 0, 0x1000, 4, R),
               access(2, 1, 0x2000, 8, R), access(1, 3, 0x3000, 4, W) }
        << MetaRows() << true << QString() << QStringList { capUnknown.arg(1) } << 1LL << 4LL << 4LL << 1LL;
    QTest::newRow("chunks overlapping in idx_chunks_1 order, inserted in descending order")
        << oneSlice << QList<ForeignChunk> { { 1, 0x1004, 0x100b, W }, { 1, 0x1000, 0x1007, W } }
        << QList<ForeignAccess> { access(1, 0, 0x1004, 8, W), access(2, 1, 0x1000, 8, W) } << MetaRows() << false
        << QStringLiteral("chunk 1 (slice 1, W, 0x1004..0x100b): starts at 0x1004, not after the end of the previous "
                          "chunk 2 (slice 1, W, 0x1000..0x1007) [chunks of one operation in a slice do not overlap in "
                          "idx_chunks_1 order]")
        << none << 0LL << 0LL << 0LL << 0LL;
    QTest::newRow("chunks of one operation equal in a slice")
        << oneSlice << QList<ForeignChunk> { { 1, 0x1000, 0x1007, R }, { 1, 0x1000, 0x1007, R } }
        << QList<ForeignAccess> { access(1, 0, 0x1000, 8, R), access(2, 1, 0x1000, 8, R) } << MetaRows() << false
        << QStringLiteral("chunk 2 (slice 1, R, 0x1000..0x1007): starts at 0x1000, not after the end of the previous "
                          "chunk 1 (slice 1, R, 0x1000..0x1007) [chunks of one operation in a slice do not overlap in "
                          "idx_chunks_1 order]")
        << none << 0LL << 0LL << 0LL << 0LL;

    // Accesses.
    QTest::newRow("access of a missing chunk")
        << oneSlice << oneChunk << QList<ForeignAccess> { access(1, 0, 0x1000, 8, W), access(7, 1, 0x1000, 8, W) }
        << MetaRows() << false
        << QStringLiteral("access 2 (transition 1): chunk 7 does not exist [an access belongs to an existing chunk]")
        << none << 0LL << 0LL << 0LL << 0LL;
    QTest::newRow("size 0") << oneSlice << oneChunk
                            << QList<ForeignAccess> { access(1, 0, 0x1000, 8, W), access(1, 1, 0x1000, 0, W) }
                            << MetaRows() << false
                            << QStringLiteral("access 2 (transition 1): size is 0 [an access covers at least one byte]")
                            << none << 0LL << 0LL << 0LL << 0LL;
    QTest::newRow("address wraps")
        << oneSlice << QList<ForeignChunk> { { 1, 0xfffffffffffffff0, top, W } }
        << QList<ForeignAccess> { access(1, 0, 0xfffffffffffffffe, 4, W) } << MetaRows() << false
        << QStringLiteral("access 1 (transition 0): 4 bytes at 0xfffffffffffffffe wrap past 0xffffffffffffffff [an "
                          "access does not wrap past 0xffffffffffffffff]")
        << none << 0LL << 0LL << 0LL << 0LL;
    QTest::newRow("access operation differs from its chunk")
        << oneSlice << oneChunk << QList<ForeignAccess> { access(1, 0, 0x1000, 8, R) } << MetaRows() << false
        << QStringLiteral("access 1 (transition 0): is R but its chunk 1 is W [an access has its chunk's operation]")
        << none << 0LL << 0LL << 0LL << 0LL;
    QTest::newRow("access past the end of its chunk")
        << oneSlice << oneChunk << QList<ForeignAccess> { access(1, 0, 0x1006, 4, W) } << MetaRows() << false
        << QStringLiteral("access 1 (transition 0): bytes 0x1006..0x1009 reach outside its chunk 1 (slice 1, W, "
                          "0x1000..0x1007) [an access lies inside its chunk's address range]")
        << none << 0LL << 0LL << 0LL << 0LL;
    QTest::newRow("access before the start of its chunk")
        << oneSlice << oneChunk << QList<ForeignAccess> { access(1, 0, 0xfff, 1, W) } << MetaRows() << false
        << QStringLiteral("access 1 (transition 0): bytes 0xfff..0xfff reach outside its chunk 1 (slice 1, W, "
                          "0x1000..0x1007) [an access lies inside its chunk's address range]")
        << none << 0LL << 0LL << 0LL << 0LL;
    QTest::newRow("access transition outside its slice")
        << QList<ForeignSlice> { { 0, 5 }, { 10, 20 } }
        << QList<ForeignChunk> { { 1, 0x1000, 0x1007, W }, { 2, 0x1000, 0x1007, W } }
        << QList<ForeignAccess> { access(1, 2, 0x1000, 8, W), access(2, 9, 0x1000, 8, W) } << MetaRows() << false
        << QStringLiteral("access 2 (transition 9): transition 9 is outside its slice 2 [10..20] [an access lies in "
                          "its chunk's slice]")
        << none << 0LL << 0LL << 0LL << 0LL;
    QTest::newRow("access of a chunk whose slice is over")
        << QList<ForeignSlice> { { 0, 5 }, { 10, 20 } }
        << QList<ForeignChunk> { { 1, 0x1000, 0x1007, W }, { 2, 0x1000, 0x1007, W } }
        << QList<ForeignAccess> { access(1, 2, 0x1000, 8, W), access(2, 10, 0x1000, 8, W), access(1, 11, 0x1000, 8, W) }
        << MetaRows() << false
        << QStringLiteral("access 3 (transition 11): transition 11 is outside its slice 1 [0..5] [an access lies in "
                          "its chunk's slice]")
        << none << 0LL << 0LL << 0LL << 0LL;
    QTest::newRow("decreasing transition")
        << oneSlice << oneChunk << QList<ForeignAccess> { access(1, 3, 0x1000, 8, W), access(1, 2, 0x1000, 8, W) }
        << MetaRows() << false
        << QStringLiteral("access 2 (transition 2): transition 2 is before transition 3 of the previous access 1 "
                          "[accesses are stored in trace order: transitions never decrease with rowid]")
        << none << 0LL << 0LL << 0LL << 0LL;

    // Coverage, emptiness and the cap, found when the scan leaves a slice.
    // In a slice that ends after the last stored access, an empty or partly covered chunk is what the
    // reference writer's discard_after leaves: a note. In any other slice, a violation.
    QTest::newRow("chunk with a hole")
        << oneSlice << oneChunk << QList<ForeignAccess> { access(1, 0, 0x1000, 4, W), access(1, 1, 0x1006, 2, W) }
        << MetaRows() << true << QString()
        << QStringList { QStringLiteral("1 chunk has bytes covered by none of its accesses")
                   + leftovers.arg(QStringLiteral("transition 1"),
                       QStringLiteral("chunk 1 (slice 1, W, 0x1000..0x1007), where bytes 0x1004..0x1005 are "
                                      "uncovered")),
               capUnknown.arg(2) }
        << 1LL << 1LL << 2LL << 2LL;
    QTest::newRow("chunk with a hole in a slice before the last")
        << QList<ForeignSlice> { { 0, 3 }, { 4, 5 } }
        << QList<ForeignChunk> { { 1, 0x1000, 0x1007, W }, { 2, 0x2000, 0x2003, R } }
        << QList<ForeignAccess> { access(1, 0, 0x1000, 4, W), access(1, 1, 0x1006, 2, W), access(2, 5, 0x2000, 4, R) }
        << MetaRows() << false
        << QStringLiteral("chunk 1 (slice 1, W, 0x1000..0x1007): bytes 0x1004..0x1005 are covered by none of its "
                          "accesses [every byte of a chunk is covered by an access]")
        << none << 0LL << 0LL << 0LL << 0LL;
    QTest::newRow("chunk with a hole in the slice that ends at the last stored access")
        << oneSlice << oneChunk << QList<ForeignAccess> { access(1, 0, 0x1000, 4, W), access(1, 3, 0x1006, 2, W) }
        << MetaRows() << false
        << QStringLiteral("chunk 1 (slice 1, W, 0x1000..0x1007): bytes 0x1004..0x1005 are covered by none of its "
                          "accesses [every byte of a chunk is covered by an access]")
        << none << 0LL << 0LL << 0LL << 0LL;
    QTest::newRow("chunk with its first byte uncovered")
        << oneSlice << oneChunk << QList<ForeignAccess> { access(1, 0, 0x1001, 7, W) } << MetaRows() << true
        << QString()
        << QStringList { QStringLiteral("1 chunk has bytes covered by none of its accesses")
                   + leftovers.arg(QStringLiteral("transition 0"),
                       QStringLiteral("chunk 1 (slice 1, W, 0x1000..0x1007), where byte 0x1000 is uncovered")),
               capUnknown.arg(1) }
        << 1LL << 1LL << 1LL << 1LL;
    QTest::newRow("chunk with its first byte uncovered in a slice before the last")
        << QList<ForeignSlice> { { 0, 3 }, { 4, 5 } }
        << QList<ForeignChunk> { { 1, 0x1000, 0x1007, W }, { 2, 0x2000, 0x2003, R } }
        << QList<ForeignAccess> { access(1, 0, 0x1001, 7, W), access(2, 5, 0x2000, 4, R) } << MetaRows() << false
        << QStringLiteral("chunk 1 (slice 1, W, 0x1000..0x1007): byte 0x1000 is covered by none of its accesses "
                          "[every byte of a chunk is covered by an access]")
        << none << 0LL << 0LL << 0LL << 0LL;
    // Found as soon as the scan leaves slice 1, before access 3's own violation.
    QTest::newRow("chunk with its last byte uncovered, found when the scan leaves its slice")
        << QList<ForeignSlice> { { 0, 3 }, { 4, 5 } }
        << QList<ForeignChunk> { { 1, 0x1000, 0x1007, W }, { 2, 0x1000, 0x1007, W } }
        << QList<ForeignAccess> { access(1, 0, 0x1000, 7, W), access(2, 4, 0x1000, 8, W), access(2, 5, 0x1000, 0, W) }
        << MetaRows() << false
        << QStringLiteral("chunk 1 (slice 1, W, 0x1000..0x1007): byte 0x1007 is covered by none of its accesses "
                          "[every byte of a chunk is covered by an access]")
        << none << 0LL << 0LL << 0LL << 0LL;
    QTest::newRow("chunk with no access")
        << oneSlice << QList<ForeignChunk> { { 1, 0x1000, 0x1007, W }, { 1, 0x1000, 0x1003, R } }
        << QList<ForeignAccess> { access(1, 0, 0x1000, 8, W) } << MetaRows() << true << QString()
        << QStringList { QStringLiteral("1 chunk holds no access")
                   + leftovers.arg(
                       QStringLiteral("transition 0"), QStringLiteral("chunk 2 (slice 1, R, 0x1000..0x1003)")),
               capUnknown.arg(1) }
        << 1LL << 2LL << 1LL << 1LL;
    QTest::newRow("chunk with no access in a slice before the last")
        << QList<ForeignSlice> { { 0, 3 }, { 4, 5 } }
        << QList<ForeignChunk> { { 1, 0x1000, 0x1007, W }, { 1, 0x1000, 0x1003, R }, { 2, 0x2000, 0x2003, R } }
        << QList<ForeignAccess> { access(1, 0, 0x1000, 8, W), access(3, 5, 0x2000, 4, R) } << MetaRows() << false
        << QStringLiteral("chunk 2 (slice 1, R, 0x1000..0x1003): holds no access [every chunk holds at least one "
                          "access]")
        << none << 0LL << 0LL << 0LL << 0LL;
    QTest::newRow("chunk with no access in a slice with no access")
        << QList<ForeignSlice> { { 0, 3 }, { 7, 9 } }
        << QList<ForeignChunk> { { 1, 0x1000, 0x1007, W }, { 2, 0x2000, 0x2003, X } }
        << QList<ForeignAccess> { access(1, 0, 0x1000, 8, W) } << MetaRows() << true << QString()
        << QStringList { QStringLiteral("1 chunk holds no access")
                   + leftovers.arg(
                       QStringLiteral("transition 0"), QStringLiteral("chunk 2 (slice 2, X, 0x2000..0x2003)")),
               capUnknown.arg(1) }
        << 2LL << 2LL << 1LL << 1LL;
    QTest::newRow("chunk with no access in a slice with no access, before the last")
        << QList<ForeignSlice> { { 0, 3 }, { 7, 9 }, { 10, 11 } }
        << QList<ForeignChunk> { { 1, 0x1000, 0x1007, W }, { 2, 0x2000, 0x2003, X }, { 3, 0x3000, 0x3000, R } }
        << QList<ForeignAccess> { access(1, 0, 0x1000, 8, W), access(3, 11, 0x3000, 1, R) } << MetaRows() << false
        << QStringLiteral("chunk 2 (slice 2, X, 0x2000..0x2003): holds no access [every chunk holds at least one "
                          "access]")
        << none << 0LL << 0LL << 0LL << 0LL;
    QTest::newRow("discard_after leftovers in the last two slices, counted")
        << QList<ForeignSlice> { { 0, 3 }, { 3, 9 }, { 12, 12 } }
        << QList<ForeignChunk> { { 1, 0x1000, 0x1007, W }, { 2, 0x2000, 0x200f, R }, { 2, 0x1000, 0x1007, R },
               { 2, 0x3000, 0x3003, W }, { 3, 0x1000, 0x1003, W } }
        << QList<ForeignAccess> { access(1, 0, 0x1000, 8, W), access(1, 3, 0x1000, 8, W), access(3, 3, 0x1000, 4, R),
               access(2, 4, 0x2008, 8, R) }
        << MetaRows() << true << QString()
        << QStringList { QStringLiteral("1 slice shares a boundary transition with the previous slice (allowed; "
                                        "written by the reference writer)"),
               QStringLiteral("2 chunks hold no access")
                   + leftovers.arg(
                       QStringLiteral("transition 4"), QStringLiteral("chunk 4 (slice 2, W, 0x3000..0x3003)")),
               QStringLiteral("2 chunks have bytes covered by none of their accesses")
                   + leftovers.arg(QStringLiteral("transition 4"),
                       QStringLiteral("chunk 2 (slice 2, R, 0x2000..0x200f), where bytes 0x2000..0x2007 are "
                                      "uncovered")),
               capUnknown.arg(2) }
        << 3LL << 5LL << 4LL << 2LL;
    QTest::newRow("chunk over the cap")
        << oneSlice << oneChunk
        << QList<ForeignAccess> { access(1, 0, 0x1000, 8, W), access(1, 1, 0x1000, 8, W), access(1, 2, 0x1000, 8, W) }
        << MetaRows { { QStringLiteral("chunk_access_cap"), QStringLiteral("2") } } << false
        << QStringLiteral("chunk 1 (slice 1, W, 0x1000..0x1007): holds 3 accesses, more than chunk_access_cap 2 [the "
                          "accesses of a chunk are capped, except within a single transition]")
        << none << 0LL << 0LL << 0LL << 0LL;

    // Meta.
    QTest::newRow("meta access count mismatch")
        << validSlices() << validChunks() << validAccesses() << withMeta(validMeta(), "accesses", "10") << false
        << QStringLiteral(
               "meta accesses: records 10 but the database holds 9 accesses [meta counts match the database]")
        << none << 0LL << 0LL << 0LL << 0LL;
    QTest::newRow("meta read count mismatch")
        << validSlices() << validChunks() << validAccesses() << withMeta(validMeta(), "reads", "5") << false
        << QStringLiteral("meta reads: records 5 but the database holds 4 reads [meta counts match the database]")
        << none << 0LL << 0LL << 0LL << 0LL;
    QTest::newRow("meta chunk count mismatch")
        << validSlices() << validChunks() << validAccesses() << withMeta(validMeta(), "chunks", "4") << false
        << QStringLiteral("meta chunks: records 4 but the database holds 5 chunks [meta counts match the database]")
        << none << 0LL << 0LL << 0LL << 0LL;
    QTest::newRow("meta last transition mismatch")
        << validSlices() << validChunks() << validAccesses() << withMeta(validMeta(), "transition_last", "8") << false
        << QStringLiteral(
               "meta transition_last: records 8 but the last access is at transition 9 [meta counts match the "
               "database]")
        << none << 0LL << 0LL << 0LL << 0LL;
    QTest::newRow("meta first transition without accesses")
        << oneSlice << QList<ForeignChunk>() << QList<ForeignAccess>()
        << MetaRows { { QStringLiteral("transition_first"), QStringLiteral("0") } } << false
        << QStringLiteral("meta transition_first: records 0 but the database holds no access [meta counts match the "
                          "database]")
        << none << 0LL << 0LL << 0LL << 0LL;
    QTest::newRow("meta cap not a number")
        << validSlices() << validChunks() << validAccesses() << withMeta(validMeta(), "chunk_access_cap", "lots")
        << false << QStringLiteral("meta chunk_access_cap: \"lots\" is not a number [meta values are numbers]") << none
        << 0LL << 0LL << 0LL << 0LL;
}

void TestHistoryChecker::check()
{
    QFETCH(QList<ForeignSlice>, slices);
    QFETCH(QList<ForeignChunk>, chunks);
    QFETCH(QList<ForeignAccess>, accesses);
    QFETCH(MetaRows, meta);
    QFETCH(bool, ok);
    QFETCH(QString, violation);
    QFETCH(QStringList, notes);
    QFETCH(qint64, sliceCount);
    QFETCH(qint64, chunkCount);
    QFETCH(qint64, accessCount);
    QFETCH(qint64, largestChunk);

    QVERIFY(m_dir.isValid());
    const QString path = m_dir.filePath(QString::fromLatin1(QTest::currentDataTag()).replace(u' ', u'_') + u".memhist");
    QVERIFY(test::writeForeignDatabase(path, slices, chunks, accesses));
    QVERIFY(addMeta(path, meta));
    QString error;
    auto database = HistoryDatabase::open(path, &error);
    QVERIFY2(database, qPrintable(error));

    HistoryChecker checker(*database);
    const CheckReport report = checker.run();
    QCOMPARE(report.violation, violation);
    QCOMPARE(report.ok, ok);
    QCOMPARE(report.notes, notes);
    if (ok) {
        QCOMPARE(report.slices, sliceCount);
        QCOMPARE(report.chunks, chunkCount);
        QCOMPARE(report.accesses, accessCount);
        QCOMPARE(report.largestChunk, largestChunk);
    }
}

void TestHistoryChecker::coverage_data()
{
    QTest::addColumn<QList<ByteRange>>("ranges");
    QTest::addColumn<ByteRange>("chunk");
    QTest::addColumn<bool>("hasHole");
    QTest::addColumn<ByteRange>("hole");

    QTest::newRow("one range covers") << QList<ByteRange> { { 0x10, 0x17 } } << ByteRange { 0x10, 0x17 } << false
                                      << ByteRange {};
    QTest::newRow("touching ranges merge")
        << QList<ByteRange> { { 0x14, 0x17 }, { 0x10, 0x13 } } << ByteRange { 0x10, 0x17 } << false << ByteRange {};
    QTest::newRow("nested and overlapping ranges")
        << QList<ByteRange> { { 0x10, 0x17 }, { 0x11, 0x12 }, { 0x16, 0x1f } } << ByteRange { 0x10, 0x1f } << false
        << ByteRange {};
    QTest::newRow("nothing recorded") << QList<ByteRange>() << ByteRange { 0x10, 0x17 } << true
                                      << ByteRange { 0x10, 0x17 };
    QTest::newRow("hole at the start") << QList<ByteRange> { { 0x12, 0x17 } } << ByteRange { 0x10, 0x17 } << true
                                       << ByteRange { 0x10, 0x11 };
    QTest::newRow("hole in the middle, first of two")
        << QList<ByteRange> { { 0x10, 0x11 }, { 0x14, 0x15 }, { 0x17, 0x17 } } << ByteRange { 0x10, 0x17 } << true
        << ByteRange { 0x12, 0x13 };
    QTest::newRow("hole at the end") << QList<ByteRange> { { 0x10, 0x16 } } << ByteRange { 0x10, 0x17 } << true
                                     << ByteRange { 0x17, 0x17 };
    QTest::newRow("ranges wider than the chunk") << QList<ByteRange> { { 0x0, 0x12 }, { 0x15, 0x30 } }
                                                 << ByteRange { 0x10, 0x17 } << true << ByteRange { 0x13, 0x14 };
    QTest::newRow("covered up to 2^64-1") << QList<ByteRange> { { top - 7, top }, { top - 15, top - 8 } }
                                          << ByteRange { top - 15, top } << false << ByteRange {};
    QTest::newRow("hole just below 2^64-1") << QList<ByteRange> { { top, top }, { top - 15, top - 2 } }
                                            << ByteRange { top - 15, top } << true << ByteRange { top - 1, top - 1 };
    QTest::newRow("whole address space") << QList<ByteRange> { { 0, top / 2 }, { top / 2 + 1, top } }
                                         << ByteRange { 0, top } << false << ByteRange {};
    QList<ByteRange> manyBytes; // in reverse order, enough to compact several times, 0x500 missing
    for (std::uint64_t address = 0x1000; address-- > 0;) {
        if (address != 0x500)
            manyBytes.append({ address, address });
    }
    QTest::newRow("thousands of single bytes, one missing")
        << manyBytes << ByteRange { 0, 0xfff } << true << ByteRange { 0x500, 0x500 };
}

void TestHistoryChecker::coverage()
{
    QFETCH(QList<ByteRange>, ranges);
    QFETCH(ByteRange, chunk);
    QFETCH(bool, hasHole);
    QFETCH(ByteRange, hole);

    ChunkCoverage coverage;
    for (const ByteRange &range : ranges)
        coverage.add(range.first, range.last);
    const auto found = coverage.firstHole(chunk.first, chunk.last);
    QCOMPARE(found.has_value(), hasHole);
    if (hasHole) {
        QCOMPARE(found->first, hole.first);
        QCOMPARE(found->last, hole.last);
    }
}

void TestHistoryChecker::coverageMemoryStaysBounded()
{
    // A million accesses that tile a chunk must not cost a million stored ranges, nor one per
    // distinct access: touching ranges merge.
    ChunkCoverage coverage;
    std::size_t mostHeld = 0;
    for (std::uint64_t i = 0; i < 1000000; ++i) {
        const std::uint64_t first = 0x1000 + (i % 4096) * 4;
        coverage.add(first, first + 3);
        mostHeld = std::max(mostHeld, coverage.heldRanges());
    }
    QVERIFY2(mostHeld <= 64, qPrintable(QString::number(mostHeld)));
    QVERIFY(!coverage.firstHole(0x1000, 0x1000 + 4096 * 4 - 1));
}

void TestHistoryChecker::progressAndCancel()
{
    // 20000 accesses over 10 slices, 4 chunks each.
    QList<ForeignSlice> slices;
    QList<ForeignChunk> chunks;
    QList<ForeignAccess> accesses;
    for (std::uint64_t s = 0; s < 10; ++s) {
        slices.append({ s * 100, s * 100 + 99 });
        for (std::uint64_t c = 0; c < 4; ++c)
            chunks.append({ qint64(s + 1), 0x1000 * (c + 1), 0x1000 * (c + 1) + 7, R });
        for (std::uint64_t i = 0; i < 2000; ++i) {
            const std::uint64_t c = i % 4;
            accesses.append(access(qint64(s * 4 + c + 1), s * 100 + i / 20, 0x1000 * (c + 1) + (i / 4) % 8, 1, R));
        }
    }
    const QString path = m_dir.filePath(QStringLiteral("progress.memhist"));
    QVERIFY(test::writeForeignDatabase(path, slices, chunks, accesses));
    QString error;
    auto database = HistoryDatabase::open(path, &error);
    QVERIFY2(database, qPrintable(error));

    QList<double> fractions;
    const CheckReport report = HistoryChecker(*database).run([&](double fraction) {
        fractions.append(fraction);
        return true;
    });
    QVERIFY2(report.ok, qPrintable(report.violation));
    QCOMPARE(report.accesses, 20000);
    QCOMPARE(report.chunks, 40);
    QCOMPARE(report.largestChunk, 500);
    // About one call per 0.1 %, in order, ending at 1.
    QVERIFY2(fractions.size() >= 900 && fractions.size() <= 1100, qPrintable(QString::number(fractions.size())));
    QVERIFY(std::is_sorted(fractions.cbegin(), fractions.cend()));
    QVERIFY(fractions.first() > 0.0);
    QCOMPARE(fractions.last(), 1.0);

    int calls = 0;
    const CheckReport cancelled = HistoryChecker(*database).run([&](double) { return ++calls < 100; });
    QCOMPARE(cancelled.ok, false);
    QCOMPARE(cancelled.violation, QStringLiteral("cancelled"));
    QCOMPARE(calls, 100);
}

void TestHistoryChecker::writerOutputPasses()
{
    // Whatever our writer produces must pass, including its meta counts and cap.
    const QString path = m_dir.filePath(QStringLiteral("writer.memhist"));
    WriterOptions options;
    options.sliceAccessCap = 500;
    options.chunkAccessCap = 50;
    options.chunkTargetAccesses = 8;
    HistoryWriter writer(path, options);
    QVERIFY2(writer.open(), qPrintable(writer.errorString()));
    QRandomGenerator random(42);
    const Operation operations[] = { R, W, X };
    for (std::uint64_t transition = 0; transition < 5000; ++transition) {
        const int perTransition = random.bounded(4);
        for (int i = 0; i < perTransition; ++i) {
            Access a;
            a.transition = Transition { transition };
            a.operation = operations[random.bounded(3)];
            a.physical = Address { (random.bounded(2) ? 0xfffffffffff00000 : 0x400000) + random.bounded(4096) };
            a.linear = a.physical;
            a.size = 1u << random.bounded(4);
            QVERIFY2(writer.add(a), qPrintable(writer.errorString()));
        }
    }
    QVERIFY2(writer.finish(), qPrintable(writer.errorString()));
    QString error;
    auto database = HistoryDatabase::open(path, &error);
    QVERIFY2(database, qPrintable(error));
    const CheckReport report = HistoryChecker(*database).run();
    QVERIFY2(report.ok, qPrintable(report.violation));
    QCOMPARE(report.violation, QString());
    QCOMPARE(report.accesses, writer.stats().accesses);
    QCOMPARE(report.slices, writer.stats().slices);
    QCOMPARE(report.chunks, writer.stats().chunks);
    QVERIFY(report.largestChunk >= 1 && report.largestChunk <= 50);
    QCOMPARE(report.notes, QStringList());
}

void TestHistoryChecker::reportsEveryBrokenProperty()
{
    // Every check runs to the end: each property broken is counted, with the first violation of it.
    const QString path = m_dir.filePath(QStringLiteral("many-violations.memhist"));
    QVERIFY(
        test::writeForeignDatabase(path, { { 0, 3 }, { 2, 8 } }, { { 1, 0x1000, 0x1007, W }, { 5, 0x2000, 0x2003, R } },
            { access(1, 0, 0x1000, 8, W), access(1, 1, 0x1000, 0, W), access(1, 2, 0x1000, 0, W),
                access(7, 5, 0x1000, 1, R) }));
    QVERIFY(addMeta(path, { { QStringLiteral("accesses"), QStringLiteral("5") } }));
    QString error;
    auto database = HistoryDatabase::open(path, &error);
    QVERIFY2(database, qPrintable(error));
    const CheckReport report = HistoryChecker(*database).run();
    QCOMPARE(report.ok, false);
    const QString first = QStringLiteral("slice 2 [2..8]: starts at transition 2, before the end of the previous "
                                         "slice 1 [0..3] [slices are stored in transition order and do not overlap]");
    QCOMPARE(report.violation, first);
    const QList<std::tuple<QString, QString, qint64>> expected {
        { QStringLiteral("slices are stored in transition order and do not overlap"), first, 1 },
        { QStringLiteral("a chunk belongs to an existing slice"),
            QStringLiteral("chunk 2 (slice 5, R, 0x2000..0x2003): slice 5 does not exist [a chunk belongs to an "
                           "existing slice]"),
            1 },
        { QStringLiteral("an access covers at least one byte"),
            QStringLiteral("access 2 (transition 1): size is 0 [an access covers at least one byte]"), 2 },
        { QStringLiteral("an access belongs to an existing chunk"),
            QStringLiteral("access 4 (transition 5): chunk 7 does not exist [an access belongs to an existing chunk]"),
            1 },
        { QStringLiteral("meta counts match the database"),
            QStringLiteral("meta accesses: records 5 but the database holds 4 accesses [meta counts match the "
                           "database]"),
            1 },
    };
    QList<std::tuple<QString, QString, qint64>> actual;
    for (const PropertyViolations &broken : report.violations)
        actual.append({ broken.property, broken.first, broken.count });
    QCOMPARE(actual, expected);
    // The scans went to the end.
    QCOMPARE(report.slices, 2);
    QCOMPARE(report.chunks, 2);
    QCOMPARE(report.accesses, 4);
    QCOMPARE(report.notes, QStringList());
}

void TestHistoryChecker::refusesWhatSQLiteFindsDamaged()
{
    // idx_accesses_1 lacks the entry of access 3, as after a lost page: a reader walking the index
    // would miss that row. The properties, read from the table, all hold.
    const QString path = m_dir.filePath(QStringLiteral("index-missing-a-row.memhist"));
    QVERIFY(test::writeForeignDatabase(path, validSlices(), validChunks(), validAccesses()));
    {
        sqlite::Connection db;
        QVERIFY(db.open(path, sqlite::Connection::Mode::ReadWriteCreate));
        QVERIFY2(db.execute("DROP INDEX idx_accesses_1;"
                            "CREATE INDEX idx_accesses_1 ON accesses(chunk_id, transition) WHERE rowid <> 3;"
                            "PRAGMA writable_schema = ON;"
                            "UPDATE sqlite_schema SET sql = 'CREATE INDEX idx_accesses_1 ON accesses(chunk_id, "
                            "transition)' WHERE name = 'idx_accesses_1';"),
            qPrintable(db.lastError()));
    }
    QString error;
    auto database = HistoryDatabase::open(path, &error);
    QVERIFY2(database, qPrintable(error));
    const CheckReport report = HistoryChecker(*database).run();
    QCOMPARE(report.ok, false);
    const QString first = QStringLiteral("file %1: SQLite's integrity check reports \"row 3 missing from index "
                                         "idx_accesses_1\" [the file passes SQLite's own integrity check (PRAGMA "
                                         "integrity_check)]")
                              .arg(path);
    QCOMPARE(report.violation, first);
    QCOMPARE(report.violations.size(), 1);
    QCOMPARE(report.violations[0].property,
        QStringLiteral("the file passes SQLite's own integrity check (PRAGMA integrity_check)"));
    QCOMPARE(report.violations[0].first, first);
    QCOMPARE(report.violations[0].count, 2); // and "wrong # of entries in index idx_accesses_1"
    QCOMPARE(report.accesses, 9);
}

// Found by the historydatabase fuzzer: a b-tree cell whose overflow list is damaged where no
// property looks. The properties read fine; queries would meet the damaged cell.
void TestHistoryChecker::refusesADamagedOverflowList()
{
    const QString path = QFINDTESTDATA("data/fuzz/historydatabase-overflow-list.memhist");
    QVERIFY(!path.isEmpty());
    QString error;
    auto database = HistoryDatabase::open(path, &error);
    QVERIFY2(database, qPrintable(error));
    const CheckReport report = HistoryChecker(*database).run();
    QCOMPARE(report.ok, false);
    QCOMPARE(report.violation,
        QStringLiteral("file %1: SQLite's integrity check reports \"On tree page 11 cell 11: "
                       "overflow list length is 0 but should be 18\" [the file passes SQLite's own integrity check "
                       "(PRAGMA integrity_check)]")
            .arg(path));
}

QTEST_GUILESS_MAIN(TestHistoryChecker)
#include "tst_historychecker.moc"
