// SPDX-License-Identifier: MIT
// The packed PC store: exact runs and pairs for small streams that show each rule, the decoder on
// damaged rows, and round trips of long random streams (jumps, long straight runs, loops, unknown
// PCs, unknown sizes, diverging sizes) against the transition -> PC map they were made from.
#include "core/context/codetrace.h"

#include <QTest>
#include <map>
#include <random>

using namespace memhist;

namespace {

struct Fed
{
    std::uint64_t transition;
    std::uint64_t pc;
    std::uint8_t size;
};

using Stream = QList<Fed>;
using Pairs = QList<CodeTracePair>;
using Runs = QList<CodeRun>;

CodeRun run(std::uint64_t pc, std::initializer_list<int> sizes)
{
    QByteArray bytes;
    for (const int size : sizes)
        bytes.append(char(size));
    return CodeRun { Address { pc }, bytes };
}

// `count` instructions of 1 byte from `pc` at transitions from `transition`.
Stream straight(std::uint64_t transition, std::uint64_t pc, int count)
{
    Stream stream;
    for (int i = 0; i < count; ++i)
        stream << Fed { transition + std::uint64_t(i), pc + std::uint64_t(i), 1 };
    return stream;
}

struct Encoded
{
    std::vector<CodeRun> runs;
    std::vector<CodeTraceRow> rows;
};

Encoded encode(const Stream &stream, QString *error = nullptr)
{
    CodeTraceEncoder encoder;
    Encoded encoded;
    for (const Fed &fed : stream) {
        if (!encoder.add(Transition { fed.transition }, Address { fed.pc }, fed.size)) {
            if (error)
                *error = encoder.errorString();
            return encoded;
        }
        // Take rows as they complete, as the collector does.
        for (CodeTraceRow &row : encoder.takeRows())
            encoded.rows.push_back(std::move(row));
    }
    encoder.finish();
    for (CodeTraceRow &row : encoder.takeRows())
        encoded.rows.push_back(std::move(row));
    encoded.runs = encoder.runs();
    return encoded;
}

// Transition -> PC as the rows say (unknown transitions absent), checking on the way every
// property the reader relies on; the first broken one fails the test.
std::map<std::uint64_t, std::uint64_t> decodeChecked(const Encoded &encoded)
{
    std::map<std::uint64_t, std::uint64_t> pcs;
    std::optional<std::uint64_t> expectedFirst;
    for (std::size_t r = 0; r < encoded.rows.size(); ++r) {
        const CodeTraceRow &row = encoded.rows[r];
        if (expectedFirst && row.first.value != *expectedFirst) {
            qWarning() << "row" << r << "starts at" << row.first.value << "instead of" << *expectedFirst;
            return {};
        }
        bool damaged = true;
        const std::vector<CodeTracePair> pairs = CodeTraceDecoder::decodeAll(row.runs, &damaged);
        const bool last = r + 1 == encoded.rows.size();
        if (damaged || pairs.empty() || pairs.size() > std::size_t(CodeTraceEncoder::pairsPerRow)
            || (!last && pairs.size() != std::size_t(CodeTraceEncoder::pairsPerRow))) {
            qWarning() << "row" << r << "holds" << pairs.size() << "pairs, damaged:" << damaged;
            return {};
        }
        std::uint64_t transition = row.first.value;
        for (const CodeTracePair &pair : pairs) {
            if (pair.run != unknownCodeRun) {
                if (pair.run > encoded.runs.size()
                    || pair.count > std::uint64_t(encoded.runs[pair.run - 1].sizes.size())) {
                    qWarning() << "pair (" << pair.run << pair.count << ") is not in a stored run";
                    return {};
                }
                const CodeRun &stored = encoded.runs[pair.run - 1];
                for (std::uint64_t i = 0; i < pair.count; ++i)
                    pcs[transition + i] = pcInRun(stored, qsizetype(i)).value;
            }
            transition += pair.count;
        }
        expectedFirst = transition;
    }
    // No stored run is a prefix of another with the same PC, and none is longer than the cap.
    std::map<std::uint64_t, std::vector<const CodeRun *>> byPc;
    for (const CodeRun &stored : encoded.runs) {
        if (stored.sizes.isEmpty() || stored.sizes.size() > CodeTraceEncoder::maxRunLength) {
            qWarning() << "run at" << stored.pc.value << "has" << stored.sizes.size() << "instructions";
            return {};
        }
        for (const CodeRun *other : byPc[stored.pc.value]) {
            const qsizetype common = std::min(other->sizes.size(), stored.sizes.size());
            if (other->sizes.first(common) == stored.sizes.first(common)) {
                qWarning() << "two runs at" << stored.pc.value << "where one is a prefix of the other";
                return {};
            }
        }
        byPc[stored.pc.value].push_back(&stored);
    }
    return pcs;
}

Pairs allPairs(const Encoded &encoded)
{
    Pairs pairs;
    for (const CodeTraceRow &row : encoded.rows) {
        for (const CodeTracePair &pair : CodeTraceDecoder::decodeAll(row.runs))
            pairs << pair;
    }
    return pairs;
}

QList<quint64> rowFirsts(const Encoded &encoded)
{
    QList<quint64> firsts;
    for (const CodeTraceRow &row : encoded.rows)
        firsts << row.first.value;
    return firsts;
}

QByteArray bytes(std::initializer_list<int> values)
{
    QByteArray result;
    for (const int value : values)
        result.append(char(value));
    return result;
}

// A random program and a random walk through it. The code is one contiguous stretch of
// instructions (sizes 1..15); the walk mostly falls through, sometimes jumps (anywhere, or back a
// little: a loop), and the options add what makes runs end or differ.
struct WalkShape
{
    int instructionsInCode = 2000;
    int jumpPercent = 15; // chance per instruction of jumping instead of falling through
    int loopPercent = 50; // of the jumps: back by a few instructions
    int gapPerMille = 0; // chance per instruction of skipping 1..100 transitions (unknown PCs)
    int unknownSizePerMille = 0; // chance per instruction of being fed with size 0
    int divergePerMille = 0; // chance per instruction of being fed with another size than the code's
    int longRunPerMille = 0; // chance per instruction of walking straight through 5,000 instructions
};

Stream randomWalk(const WalkShape &shape, std::uint32_t seed, int length)
{
    std::mt19937_64 random(seed);
    const auto chance = [&](int perMille) { return int(random() % 1000) < perMille; };
    std::vector<std::uint64_t> addresses;
    std::vector<std::uint8_t> sizes;
    const int codeLength
        = shape.longRunPerMille > 0 ? std::max(shape.instructionsInCode, 6000) : shape.instructionsInCode;
    std::uint64_t address = 0x401000 + (random() % 0x1000);
    for (int i = 0; i < codeLength; ++i) {
        addresses.push_back(address);
        sizes.push_back(std::uint8_t(1 + random() % 15));
        address += sizes.back();
    }
    Stream stream;
    std::uint64_t transition = random() % 3 == 0 ? random() % 1000000 : 0;
    int at = int(random() % std::uint64_t(codeLength));
    int straightLeft = 0;
    while (stream.size() < length) {
        std::uint8_t size = sizes[std::size_t(at)];
        if (chance(shape.unknownSizePerMille))
            size = 0;
        else if (chance(shape.divergePerMille))
            size = std::uint8_t(1 + (size + random() % 14) % 15);
        stream << Fed { transition, addresses[std::size_t(at)], size };
        transition += 1;
        if (chance(shape.gapPerMille))
            transition += 1 + random() % 100;
        if (straightLeft > 0) {
            --straightLeft;
            at = (at + 1) % codeLength;
        } else if (chance(shape.longRunPerMille)) {
            straightLeft = 5000;
            at = int(random() % std::uint64_t(codeLength - 5001));
        } else if (int(random() % 100) < shape.jumpPercent) {
            if (int(random() % 100) < shape.loopPercent)
                at = std::max(0, at - int(1 + random() % 12));
            else
                at = int(random() % std::uint64_t(codeLength));
        } else {
            at = (at + 1) % codeLength;
        }
    }
    return stream;
}

} // namespace

Q_DECLARE_METATYPE(Stream)
Q_DECLARE_METATYPE(Pairs)
Q_DECLARE_METATYPE(Runs)
Q_DECLARE_METATYPE(WalkShape)

class tst_CodeTrace : public QObject
{
    Q_OBJECT

private slots:
    void encodesExactly_data();
    void encodesExactly();
    void rowsOf1024Pairs();
    void longStraightStretchesAreCut();
    void rejectsTransitionsOutOfOrder_data();
    void rejectsTransitionsOutOfOrder();
    void varintsRoundTrip_data();
    void varintsRoundTrip();
    void decoderStopsAtDamage_data();
    void decoderStopsAtDamage();
    void randomStreamsRoundTrip_data();
    void randomStreamsRoundTrip();
    void memoryFollowsDistinctRunsNotInstructions();
};

void tst_CodeTrace::encodesExactly_data()
{
    QTest::addColumn<Stream>("stream");
    QTest::addColumn<Runs>("runs");
    QTest::addColumn<Pairs>("pairs");
    QTest::addColumn<QList<quint64>>("rowFirsts");

    QTest::newRow("one straight run") << Stream { { 0, 0x1000, 3 }, { 1, 0x1003, 2 }, { 2, 0x1005, 1 } }
                                      << Runs { run(0x1000, { 3, 2, 1 }) } << Pairs { { 1, 3 } }
                                      << QList<quint64> { 0 };
    QTest::newRow("a loop is one run, once")
        << Stream { { 0, 0x1000, 2 }, { 1, 0x1002, 2 }, { 2, 0x1000, 2 }, { 3, 0x1002, 2 }, { 4, 0x1000, 2 },
               { 5, 0x1002, 2 } }
        << Runs { run(0x1000, { 2, 2 }) } << Pairs { { 1, 2 }, { 1, 2 }, { 1, 2 } } << QList<quint64> { 0 };
    QTest::newRow("a jump into the middle starts another run")
        << Stream { { 0, 0x1000, 2 }, { 1, 0x1002, 2 }, { 2, 0x1004, 2 }, { 3, 0x1002, 2 }, { 4, 0x1004, 2 } }
        << Runs { run(0x1000, { 2, 2, 2 }), run(0x1002, { 2, 2 }) } << Pairs { { 1, 3 }, { 2, 2 } }
        << QList<quint64> { 0 };
    QTest::newRow("a shorter run is the stored one with a smaller count")
        << Stream { { 0, 0x1000, 2 }, { 1, 0x1002, 2 }, { 2, 0x1004, 2 }, { 3, 0x1000, 2 }, { 4, 0x1002, 2 },
               { 5, 0x2000, 1 } }
        << Runs { run(0x1000, { 2, 2, 2 }), run(0x2000, { 1 }) } << Pairs { { 1, 3 }, { 1, 2 }, { 2, 1 } }
        << QList<quint64> { 0 };
    QTest::newRow("a longer run grows the stored one")
        << Stream { { 0, 0x1000, 2 }, { 1, 0x2000, 1 }, { 2, 0x1000, 2 }, { 3, 0x1002, 2 } }
        << Runs { run(0x1000, { 2, 2 }), run(0x2000, { 1 }) } << Pairs { { 1, 1 }, { 2, 1 }, { 1, 2 } }
        << QList<quint64> { 0 };
    QTest::newRow("other sizes at the same PC are another run")
        << Stream { { 0, 0x1000, 2 }, { 1, 0x1002, 2 }, { 2, 0x1000, 3 }, { 3, 0x1003, 1 } }
        << Runs { run(0x1000, { 2, 2 }), run(0x1000, { 3, 1 }) } << Pairs { { 1, 2 }, { 2, 2 } }
        << QList<quint64> { 0 };
    QTest::newRow("skipped transitions are unknown PCs")
        << Stream { { 0, 0x1000, 2 }, { 1, 0x1002, 2 }, { 5, 0x1004, 2 } }
        << Runs { run(0x1000, { 2, 2 }), run(0x1004, { 2 }) } << Pairs { { 1, 2 }, { 0, 3 }, { 2, 1 } }
        << QList<quint64> { 0 };
    QTest::newRow("a skip of 2^40 transitions is one pair")
        << Stream { { 0, 0x1000, 1 }, { (quint64(1) << 40) + 1, 0x1001, 1 } }
        << Runs { run(0x1000, { 1 }), run(0x1001, { 1 }) } << Pairs { { 1, 1 }, { 0, quint64(1) << 40 }, { 2, 1 } }
        << QList<quint64> { 0 };
    QTest::newRow("size 0 (unknown) ends the run")
        << Stream { { 0, 0x1000, 2 }, { 1, 0x1002, 0 }, { 2, 0x1002, 5 }, { 3, 0x1000, 2 }, { 4, 0x1002, 0 } }
        << Runs { run(0x1000, { 2, 0 }), run(0x1002, { 5 }) } << Pairs { { 1, 2 }, { 2, 1 }, { 1, 2 } }
        << QList<quint64> { 0 };
    QTest::newRow("the first transition need not be 0")
        << Stream { { 100, 0x1000, 1 }, { 101, 0x1001, 1 } } << Runs { run(0x1000, { 1, 1 }) } << Pairs { { 1, 2 } }
        << QList<quint64> { 100 };
    QTest::newRow("a PC at the top of the address space wraps")
        << Stream { { 0, 0xfffffffffffffffe, 2 }, { 1, 0, 1 } } << Runs { run(0xfffffffffffffffe, { 2, 1 }) }
        << Pairs { { 1, 2 } } << QList<quint64> { 0 };
    QTest::newRow("nothing fed, no rows") << Stream {} << Runs {} << Pairs {} << QList<quint64> {};
}

void tst_CodeTrace::encodesExactly()
{
    QFETCH(Stream, stream);
    QFETCH(Runs, runs);
    QFETCH(Pairs, pairs);
    QFETCH(QList<quint64>, rowFirsts);

    const Encoded encoded = encode(stream);
    QCOMPARE(Runs(encoded.runs.begin(), encoded.runs.end()), runs);
    QCOMPARE(allPairs(encoded), pairs);
    QCOMPARE(::rowFirsts(encoded), rowFirsts);

    std::map<std::uint64_t, std::uint64_t> expected;
    for (const Fed &fed : stream)
        expected[fed.transition] = fed.pc;
    QCOMPARE(decodeChecked(encoded), expected);
}

void tst_CodeTrace::rowsOf1024Pairs()
{
    // Every instruction jumps: one pair each, so 2,049 instructions fill two rows and start a third.
    Stream stream;
    for (std::uint64_t t = 0; t < 2049; ++t)
        stream << Fed { t, t % 2 ? 0x3000u : 0x1000u, 1 };
    const Encoded encoded = encode(stream);
    QCOMPARE(::rowFirsts(encoded), (QList<quint64> { 0, 1024, 2048 }));
    QCOMPARE(CodeTraceDecoder::decodeAll(encoded.rows[0].runs).size(), std::size_t(1024));
    QCOMPARE(CodeTraceDecoder::decodeAll(encoded.rows[1].runs).size(), std::size_t(1024));
    QCOMPARE(CodeTraceDecoder::decodeAll(encoded.rows[2].runs).size(), std::size_t(1));
    QCOMPARE(encoded.runs.size(), std::size_t(2));
    QCOMPARE(decodeChecked(encoded).size(), std::size_t(2049));
    // Two bytes per pair: a row of 1,024 pairs takes 2 KiB.
    QCOMPARE(encoded.rows[0].runs.size(), 2048);
}

void tst_CodeTrace::longStraightStretchesAreCut()
{
    const Stream stream = straight(0, 0x1000, CodeTraceEncoder::maxRunLength + 4);
    const Encoded encoded = encode(stream);
    QCOMPARE(encoded.runs.size(), std::size_t(2));
    QCOMPARE(encoded.runs[0].pc, Address { 0x1000 });
    QCOMPARE(encoded.runs[0].sizes, QByteArray(CodeTraceEncoder::maxRunLength, char(1)));
    QCOMPARE(encoded.runs[1], run(0x1000 + CodeTraceEncoder::maxRunLength, { 1, 1, 1, 1 }));
    QCOMPARE(allPairs(encoded), (Pairs { { 1, std::uint64_t(CodeTraceEncoder::maxRunLength) }, { 2, 4 } }));
}

void tst_CodeTrace::rejectsTransitionsOutOfOrder_data()
{
    QTest::addColumn<Stream>("stream");
    QTest::addColumn<QString>("error");
    QTest::newRow("a transition before the previous one")
        << Stream { { 5, 0x1000, 1 }, { 3, 0x1001, 1 } }
        << "instruction at transition 3 comes after transition 5: instructions must be in trace order, one per "
           "transition";
    QTest::newRow("two instructions at one transition")
        << Stream { { 5, 0x1000, 1 }, { 6, 0x1001, 1 }, { 6, 0x1002, 1 } }
        << "instruction at transition 6 comes after transition 6: instructions must be in trace order, one per "
           "transition";
    QTest::newRow("transition 2^63") << Stream { { quint64(1) << 63, 0x1000, 1 } }
                                     << "transition 9223372036854775808 is out of range (at most 2^63-1)";
}

void tst_CodeTrace::rejectsTransitionsOutOfOrder()
{
    QFETCH(Stream, stream);
    QFETCH(QString, error);
    CodeTraceEncoder encoder;
    bool accepted = true;
    for (const Fed &fed : stream)
        accepted = encoder.add(Transition { fed.transition }, Address { fed.pc }, fed.size);
    QVERIFY(!accepted);
    QCOMPARE(encoder.errorString(), error);
    // Unusable afterwards, even for a transition that would have been fine.
    QVERIFY(!encoder.add(Transition { 1000 }, Address { 0x2000 }, 1));
}

void tst_CodeTrace::varintsRoundTrip_data()
{
    QTest::addColumn<quint64>("value");
    QTest::addColumn<int>("bytes");
    QTest::newRow("0") << quint64(0) << 1;
    QTest::newRow("127, the largest in one byte") << quint64(127) << 1;
    QTest::newRow("128") << quint64(128) << 2;
    QTest::newRow("16383") << quint64(16383) << 2;
    QTest::newRow("16384") << quint64(16384) << 3;
    QTest::newRow("2^63") << (quint64(1) << 63) << 10;
    QTest::newRow("2^64-1") << ~quint64(0) << 10;
}

void tst_CodeTrace::varintsRoundTrip()
{
    QFETCH(quint64, value);
    QFETCH(int, bytes);
    QByteArray encoded;
    appendVarint(encoded, value);
    appendVarint(encoded, 1);
    QCOMPARE(encoded.size(), bytes + 1);
    bool damaged = true;
    QCOMPARE(CodeTraceDecoder::decodeAll(encoded, &damaged), (std::vector<CodeTracePair> { { value, 1 } }));
    QVERIFY(!damaged);
}

void tst_CodeTrace::decoderStopsAtDamage_data()
{
    QTest::addColumn<QByteArray>("row");
    QTest::addColumn<Pairs>("pairs");
    QTest::addColumn<bool>("damaged");
    QTest::newRow("empty row") << QByteArray() << Pairs {} << false;
    QTest::newRow("two pairs") << bytes({ 1, 3, 0, 0x80, 0x01 }) << Pairs { { 1, 3 }, { 0, 128 } } << false;
    QTest::newRow("varint cut short") << bytes({ 0x81 }) << Pairs {} << true;
    QTest::newRow("a pair without its count") << bytes({ 1, 3, 2 }) << Pairs { { 1, 3 } } << true;
    QTest::newRow("count 0") << bytes({ 1, 0, 1, 1 }) << Pairs {} << true;
    QTest::newRow("varint longer than 64 bits")
        << bytes({ 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02, 1 }) << Pairs {} << true;
    QTest::newRow("eleven bytes") << bytes({ 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 1 })
                                  << Pairs {} << true;
}

void tst_CodeTrace::decoderStopsAtDamage()
{
    QFETCH(QByteArray, row);
    QFETCH(Pairs, pairs);
    QFETCH(bool, damaged);
    bool wasDamaged = !damaged;
    const std::vector<CodeTracePair> decoded = CodeTraceDecoder::decodeAll(row, &wasDamaged);
    QCOMPARE(Pairs(decoded.begin(), decoded.end()), pairs);
    QCOMPARE(wasDamaged, damaged);
}

void tst_CodeTrace::randomStreamsRoundTrip_data()
{
    QTest::addColumn<WalkShape>("shape");
    QTest::addColumn<int>("length");
    QTest::newRow("jumps anywhere") << WalkShape { 2000, 30, 0 } << 200000;
    QTest::newRow("tight loops") << WalkShape { 300, 25, 95 } << 200000;
    QTest::newRow("long straight runs") << WalkShape { 6000, 5, 50, 0, 0, 0, 2 } << 200000;
    QTest::newRow("unknown PCs (gaps)") << WalkShape { 2000, 15, 50, 20 } << 200000;
    QTest::newRow("unknown sizes") << WalkShape { 2000, 15, 50, 0, 30 } << 200000;
    QTest::newRow("diverging sizes at one PC") << WalkShape { 500, 15, 50, 0, 0, 10 } << 200000;
    QTest::newRow("everything at once") << WalkShape { 3000, 15, 60, 5, 5, 5, 1 } << 300000;
}

void tst_CodeTrace::randomStreamsRoundTrip()
{
    QFETCH(WalkShape, shape);
    QFETCH(int, length);
    for (std::uint32_t seed = 1; seed <= 5; ++seed) {
        const Stream stream = randomWalk(shape, seed, length);
        const Encoded encoded = encode(stream);
        std::map<std::uint64_t, std::uint64_t> expected;
        for (const Fed &fed : stream)
            expected[fed.transition] = fed.pc;
        const auto decoded = decodeChecked(encoded);
        QVERIFY2(decoded == expected, qPrintable(QStringLiteral("seed %1").arg(seed)));
        // The pairs cover exactly the fed transitions and the gaps between them.
        std::uint64_t covered = 0;
        for (const CodeTracePair &pair : allPairs(encoded))
            covered += pair.count;
        QCOMPARE(covered, stream.last().transition - stream.first().transition + 1);
    }
}

void tst_CodeTrace::memoryFollowsDistinctRunsNotInstructions()
{
    // A million instructions of one 10-instruction loop: one run of 10 sizes, and rows that are
    // handed over as they fill.
    CodeTraceEncoder encoder;
    std::size_t rowsTaken = 0;
    for (std::uint64_t t = 0; t < 1000000; ++t) {
        QVERIFY(encoder.add(Transition { t }, Address { 0x1000 + 4 * (t % 10) }, 4));
        QVERIFY(encoder.completedRowCount() <= 1);
        rowsTaken += encoder.takeRows().size();
    }
    encoder.finish();
    rowsTaken += encoder.takeRows().size();
    QCOMPARE(encoder.runs().size(), std::size_t(1));
    QCOMPARE(encoder.runs()[0].sizes.size(), 10);
    QCOMPARE(encoder.instructions(), qint64(1000000));
    QCOMPARE(rowsTaken, std::size_t((100000 + 1023) / 1024));
}

QTEST_GUILESS_MAIN(tst_CodeTrace)
#include "tst_codetrace.moc"
