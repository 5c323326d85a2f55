// SPDX-License-Identifier: MIT
// The CSV form of accesses (DESIGN.md §3): formatting, parsing back, and the exact error message
// for every way a row can be wrong (users see these, prefixed with the file and line).
#include "core/csv/csvaccessformat.h"

#include <QTest>

using namespace memhist;

namespace {

Access makeAccess(std::int64_t rowId, std::uint64_t transition, Operation operation, std::uint64_t address,
    std::optional<std::uint64_t> linear, std::uint32_t size)
{
    Access access;
    access.rowId = RowId { rowId };
    access.transition = Transition { transition };
    access.operation = operation;
    access.physical = Address { address };
    if (linear)
        access.linear = Address { *linear };
    access.size = size;
    return access;
}

constexpr std::uint64_t max64 = ~std::uint64_t(0);

} // namespace

class TestCsvAccessFormat : public QObject
{
    Q_OBJECT

private slots:
    void header();
    void columnsAfterTheSix();
    void roundTrip_data();
    void roundTrip();
    void parseAccepts_data();
    void parseAccepts();
    void parseErrors_data();
    void parseErrors();
};

void TestCsvAccessFormat::header()
{
    QCOMPARE(csv::header(), QByteArray("rowid,transition,operation,address,linear,size"));
}

void TestCsvAccessFormat::columnsAfterTheSix()
{
    QVERIFY(csv::hasColumnsAfterTheSix("rowid,transition,operation,address,linear,size,thread"));
    QVERIFY(csv::hasColumnsAfterTheSix("rowid,transition,operation,address,linear,size,pc,function"));
    QVERIFY(!csv::hasColumnsAfterTheSix("rowid,transition,operation,address,linear,size"));
    QVERIFY(!csv::hasColumnsAfterTheSix("rowid,transition,operation,address,linear,sizes"));
    QVERIFY(!csv::hasColumnsAfterTheSix("rowid,transition"));
}

void TestCsvAccessFormat::roundTrip_data()
{
    QTest::addColumn<Access>("access");
    QTest::addColumn<QByteArray>("text");

    QTest::newRow("typical read") << makeAccess(1, 1, Operation::Read, 0x1fff000608, 0x1fff000608, 8)
                                  << QByteArray("1,1,R,0x1fff000608,0x1fff000608,8");
    QTest::newRow("write, linear unknown")
        << makeAccess(2, 5, Operation::Write, 0x601000, std::nullopt, 4) << QByteArray("2,5,W,0x601000,,4");
    QTest::newRow("execute") << makeAccess(3, 7, Operation::Execute, 0x401000, 0x401000, 15)
                             << QByteArray("3,7,X,0x401000,0x401000,15");
    QTest::newRow("everything zero") << makeAccess(0, 0, Operation::Read, 0, 0, 1) << QByteArray("0,0,R,0x0,0x0,1");
    QTest::newRow("address one") << makeAccess(4, 0, Operation::Read, 1, 1, 1) << QByteArray("4,0,R,0x1,0x1,1");
    QTest::newRow("last byte of the address space") << makeAccess(5, 9, Operation::Write, max64, max64, 1)
                                                    << QByteArray("5,9,W,0xffffffffffffffff,0xffffffffffffffff,1");
    QTest::newRow("near the top, linear differs") << makeAccess(6, 9, Operation::Read, max64 - 7, 0x7fff0000, 8)
                                                  << QByteArray("6,9,R,0xfffffffffffffff8,0x7fff0000,8");
    QTest::newRow("largest transition") << makeAccess(7, max64, Operation::Read, 0x10, std::nullopt, 2)
                                        << QByteArray("7,18446744073709551615,R,0x10,,2");
    QTest::newRow("largest row id") << makeAccess(std::numeric_limits<std::int64_t>::max(), 1, Operation::Read, 0x10,
        0x10, 1) << QByteArray("9223372036854775807,1,R,0x10,0x10,1");
    QTest::newRow("largest size") << makeAccess(8, 1, Operation::Read, 0x10, 0x10, 0xffffffffu)
                                  << QByteArray("8,1,R,0x10,0x10,4294967295");
}

void TestCsvAccessFormat::roundTrip()
{
    QFETCH(Access, access);
    QFETCH(QByteArray, text);

    QCOMPARE(csv::formatRow(access), text);
    Access parsed;
    QString error;
    QVERIFY2(csv::parseRow(text, &parsed, &error), qPrintable(error));
    QCOMPARE(parsed, access);
}

void TestCsvAccessFormat::parseAccepts_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<Access>("expected");

    QTest::newRow("CRLF tolerated") << QByteArray("1,2,R,0x10,0x10,8\r")
                                    << makeAccess(1, 2, Operation::Read, 0x10, 0x10, 8);
    QTest::newRow("empty row id") << QByteArray(",3,W,0x20,,1")
                                  << makeAccess(0, 3, Operation::Write, 0x20, std::nullopt, 1);
    QTest::newRow("decimal addresses") << QByteArray("1,2,R,4096,4097,8")
                                       << makeAccess(1, 2, Operation::Read, 0x1000, 0x1001, 8);
    QTest::newRow("hex transition and size")
        << QByteArray("1,0x10,X,0x10,0x10,0x8") << makeAccess(1, 16, Operation::Execute, 0x10, 0x10, 8);
    QTest::newRow("upper-case hex digits and prefix")
        << QByteArray("1,2,R,0XABCDEF,0xAbCdEf,8") << makeAccess(1, 2, Operation::Read, 0xabcdef, 0xabcdef, 8);
    QTest::newRow("leading zeros beyond 16 hex digits")
        << QByteArray("1,2,R,0x00000000000000000001,0x1,1") << makeAccess(1, 2, Operation::Read, 1, 1, 1);
    QTest::newRow("decimal leading zeros")
        << QByteArray("01,002,R,0x1,0x1,0001") << makeAccess(1, 2, Operation::Read, 1, 1, 1);
}

void TestCsvAccessFormat::parseAccepts()
{
    QFETCH(QByteArray, text);
    QFETCH(Access, expected);

    Access parsed;
    QString error;
    QVERIFY2(csv::parseRow(text, &parsed, &error), qPrintable(error));
    QCOMPARE(parsed, expected);
}

void TestCsvAccessFormat::parseErrors_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("message");

    const QString fieldCount
        = QStringLiteral("expected 6 fields (rowid,transition,operation,address,linear,size), found %1");
    QTest::newRow("too few fields") << QByteArray("1,2,R,0x10,0x10") << fieldCount.arg(5);
    QTest::newRow("trailing comma") << QByteArray("1,2,R,0x10,0x10,8,") << fieldCount.arg(7);
    QTest::newRow("too many fields") << QByteArray("1,2,R,0x10,0x10,8,9,10") << fieldCount.arg(8);
    QTest::newRow("empty line") << QByteArray("") << fieldCount.arg(1);
    QTest::newRow("semicolons instead of commas") << QByteArray("1;2;R;0x10;0x10;8") << fieldCount.arg(1);

    QTest::newRow("row id not a number") << QByteArray("one,2,R,0x10,0x10,8")
                                         << QStringLiteral("field 1 (rowid): 'one' is not a number");
    QTest::newRow("row id above 2^63-1")
        << QByteArray("9223372036854775808,2,R,0x10,0x10,8")
        << QStringLiteral("field 1 (rowid): '9223372036854775808' is out of range (more than 2^63-1)");
    QTest::newRow("transition empty") << QByteArray("1,,R,0x10,0x10,8")
                                      << QStringLiteral("field 2 (transition): empty, expected a number");
    QTest::newRow("transition negative") << QByteArray("1,-1,R,0x10,0x10,8")
                                         << QStringLiteral("field 2 (transition): '-1' is not a number");
    QTest::newRow("transition with a sign")
        << QByteArray("1,+1,R,0x10,0x10,8") << QStringLiteral("field 2 (transition): '+1' is not a number");
    QTest::newRow("transition above 64 bits")
        << QByteArray("1,18446744073709551616,R,0x10,0x10,8")
        << QStringLiteral("field 2 (transition): '18446744073709551616' is out of range (more than 64 bits)");
    QTest::newRow("transition in scientific notation")
        << QByteArray("1,1e3,R,0x10,0x10,8") << QStringLiteral("field 2 (transition): '1e3' is not a number");
    QTest::newRow("operation empty") << QByteArray("1,2,,0x10,0x10,8")
                                     << QStringLiteral("field 3 (operation): empty, expected R, W or X");
    QTest::newRow("operation letter unknown") << QByteArray(
        "1,2,Q,0x10,0x10,8") << QStringLiteral("field 3 (operation): 'Q' is not an operation (must be R, W or X)");
    QTest::newRow("operation lower case") << QByteArray(
        "1,2,r,0x10,0x10,8") << QStringLiteral("field 3 (operation): 'r' is not an operation (must be R, W or X)");
    QTest::newRow("operation two letters") << QByteArray(
        "1,2,RW,0x10,0x10,8") << QStringLiteral("field 3 (operation): 'RW' is not an operation (must be R, W or X)");
    QTest::newRow("operation as a number") << QByteArray(
        "1,2,4,0x10,0x10,8") << QStringLiteral("field 3 (operation): '4' is not an operation (must be R, W or X)");
    QTest::newRow("address bad hex digit")
        << QByteArray("1,2,R,0xZZ,0x10,8") << QStringLiteral("field 4 (address): '0xZZ' is not a number");
    QTest::newRow("address hex prefix alone")
        << QByteArray("1,2,R,0x,0x10,8") << QStringLiteral("field 4 (address): '0x' is not a number");
    QTest::newRow("address empty") << QByteArray("1,2,R,,0x10,8")
                                   << QStringLiteral("field 4 (address): empty, expected a number");
    QTest::newRow("address with a space")
        << QByteArray("1,2,R, 0x10,0x10,8") << QStringLiteral("field 4 (address): ' 0x10' is not a number");
    QTest::newRow("address above 64 bits (17 hex digits)")
        << QByteArray("1,2,R,0x10000000000000000,0x10,8")
        << QStringLiteral("field 4 (address): '0x10000000000000000' is out of range (more than 64 bits)");
    QTest::newRow("address overflow with junk after it")
        << QByteArray("1,2,R,0x10000000000000000z,0x10,8")
        << QStringLiteral("field 4 (address): '0x10000000000000000z' is not a number");
    QTest::newRow("linear not a number") << QByteArray("1,2,R,0x10,xyz,8")
                                         << QStringLiteral("field 5 (linear): 'xyz' is not a number");
    QTest::newRow("size empty") << QByteArray("1,2,R,0x10,0x10,")
                                << QStringLiteral("field 6 (size): empty, expected a size");
    QTest::newRow("size 0") << QByteArray("1,2,R,0x10,0x10,0")
                            << QStringLiteral("field 6 (size): '0' is not a size (must be at least 1)");
    QTest::newRow("size above 32 bits")
        << QByteArray("1,2,R,0x10,0x10,4294967296")
        << QStringLiteral("field 6 (size): '4294967296' is not a size (must be at most 4294967295)");
    QTest::newRow("size above 64 bits")
        << QByteArray("1,2,R,0x10,0x10,99999999999999999999")
        << QStringLiteral("field 6 (size): '99999999999999999999' is not a size (must be at most 4294967295)");
    QTest::newRow("size with trailing junk")
        << QByteArray("1,2,R,0x10,0x10,8abc") << QStringLiteral("field 6 (size): '8abc' is not a number");
    QTest::newRow("size with a trailing space")
        << QByteArray("1,2,R,0x10,0x10,8 ") << QStringLiteral("field 6 (size): '8 ' is not a number");
    QTest::newRow("two carriage returns")
        << QByteArray("1,2,R,0x10,0x10,8\r\r") << QStringLiteral("field 6 (size): '8\r' is not a number");
    QTest::newRow("long junk is shortened")
        << QByteArray("1,2,R,0x10,0x10,") + QByteArray(100, 'z')
        << QStringLiteral("field 6 (size): '") + QString(40, u'z') + QStringLiteral("...' is not a number");
}

void TestCsvAccessFormat::parseErrors()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, message);

    Access parsed = makeAccess(42, 42, Operation::Write, 42, 42, 42);
    const Access before = parsed;
    QString error;
    QVERIFY(!csv::parseRow(text, &parsed, &error));
    QCOMPARE(error, message);
    QCOMPARE(parsed, before); // untouched on failure
}

QTEST_GUILESS_MAIN(TestCsvAccessFormat)
#include "tst_csvaccessformat.moc"
