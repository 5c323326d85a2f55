// SPDX-License-Identifier: MIT
// The one number parser and hex formatter (core/model/numbertext.h): what the CLI, the importers,
// the viewer and the CSV form accept as a number and how they print an address.
#include "core/model/numbertext.h"

#include <QLocale>
#include <QTest>

using namespace memhist;

namespace {

constexpr std::uint64_t max64 = ~std::uint64_t(0);

} // namespace

Q_DECLARE_METATYPE(memhist::NumberStatus)

class TestNumberText : public QObject
{
    Q_OBJECT

private slots:
    void parseUnsigned_data();
    void parseUnsigned();
    void parseNumberTellsWhyNot_data();
    void parseNumberTellsWhyNot();
    void hexText_data();
    void hexText();
    void hexDigitValue();
    void parseTypedNumber_data();
    void parseTypedNumber();
    void bytesText();
    void countText_data();
    void countText();
    void byteValuesText();
};

void TestNumberText::parseUnsigned_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<quint64>("value");

    QTest::newRow("zero") << QByteArray("0") << true << quint64(0);
    QTest::newRow("hex zero") << QByteArray("0x0") << true << quint64(0);
    QTest::newRow("decimal") << QByteArray("4096") << true << quint64(4096);
    QTest::newRow("hex") << QByteArray("0x1000") << true << quint64(4096);
    QTest::newRow("upper-case hex") << QByteArray("0X1FfF") << true << quint64(0x1fff);
    QTest::newRow("largest decimal") << QByteArray("18446744073709551615") << true << quint64(max64);
    QTest::newRow("largest hex") << QByteArray("0xffffffffffffffff") << true << quint64(max64);
    QTest::newRow("decimal overflow") << QByteArray("18446744073709551616") << false << quint64(0);
    QTest::newRow("hex overflow") << QByteArray("0x1ffffffffffffffff") << false << quint64(0);
    QTest::newRow("empty") << QByteArray("") << false << quint64(0);
    QTest::newRow("hex prefix alone") << QByteArray("0x") << false << quint64(0);
    QTest::newRow("plus sign") << QByteArray("+1") << false << quint64(0);
    QTest::newRow("minus zero") << QByteArray("-0") << false << quint64(0);
    QTest::newRow("leading space") << QByteArray(" 1") << false << quint64(0);
    QTest::newRow("trailing space") << QByteArray("1 ") << false << quint64(0);
    QTest::newRow("digit separator") << QByteArray("0x1_0") << false << quint64(0);
    QTest::newRow("octal-looking is decimal") << QByteArray("010") << true << quint64(10);
    QTest::newRow("leading zeros in hex") << QByteArray("0x0010") << true << quint64(16);
}

void TestNumberText::parseUnsigned()
{
    QFETCH(QByteArray, text);
    QFETCH(bool, ok);
    QFETCH(quint64, value);

    std::uint64_t parsed = 12345;
    QCOMPARE(memhist::parseUnsigned(text, &parsed), ok);
    QCOMPARE(quint64(parsed), ok ? value : quint64(12345));
}

void TestNumberText::parseNumberTellsWhyNot_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<NumberStatus>("status");

    QTest::newRow("ok") << QByteArray("0x10") << NumberStatus::Ok;
    QTest::newRow("empty") << QByteArray("") << NumberStatus::Empty;
    QTest::newRow("letters") << QByteArray("ten") << NumberStatus::NotANumber;
    QTest::newRow("hex digit in decimal") << QByteArray("12a") << NumberStatus::NotANumber;
    QTest::newRow("decimal too large") << QByteArray("99999999999999999999") << NumberStatus::TooLarge;
    QTest::newRow("hex too large") << QByteArray("0x10000000000000000") << NumberStatus::TooLarge;
    QTest::newRow("too long and not hex") << QByteArray("0x1ffffffffffffffffZ") << NumberStatus::NotANumber;
    QTest::newRow("too long and not decimal") << QByteArray("99999999999999999999x") << NumberStatus::NotANumber;
}

void TestNumberText::parseNumberTellsWhyNot()
{
    QFETCH(QByteArray, text);
    QFETCH(NumberStatus, status);

    std::uint64_t parsed = 7;
    QCOMPARE(parseNumber(text, &parsed), status);
    if (status != NumberStatus::Ok)
        QCOMPARE(quint64(parsed), quint64(7));
}

void TestNumberText::hexText_data()
{
    QTest::addColumn<quint64>("value");
    QTest::addColumn<QString>("text");

    QTest::newRow("zero") << quint64(0) << QStringLiteral("0x0");
    QTest::newRow("one digit") << quint64(0xa) << QStringLiteral("0xa");
    QTest::newRow("stack address") << quint64(0x1fff000208) << QStringLiteral("0x1fff000208");
    QTest::newRow("sign bit") << (quint64(1) << 63) << QStringLiteral("0x8000000000000000");
    QTest::newRow("largest") << quint64(max64) << QStringLiteral("0xffffffffffffffff");
}

void TestNumberText::hexText()
{
    QFETCH(quint64, value);
    QFETCH(QString, text);

    QCOMPARE(memhist::hexText(value), text);
    QCOMPARE(hexBytes(value), text.toLatin1());
    std::uint64_t back = 0;
    QVERIFY(memhist::parseUnsigned(text.toLatin1(), &back));
    QCOMPARE(quint64(back), value);
}

void TestNumberText::hexDigitValue()
{
    const QByteArray digits("0123456789abcdefABCDEF");
    const int values[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 10, 11, 12, 13, 14, 15 };
    int accepted = 0;
    for (int c = 0; c < 256; ++c) {
        const int value = memhist::hexDigitValue(char(c));
        const qsizetype at = digits.indexOf(char(c));
        QCOMPARE(value, at < 0 ? -1 : values[at]);
        accepted += value >= 0;
    }
    QCOMPARE(accepted, 22);
}

void TestNumberText::parseTypedNumber_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<quint64>("value");

    QTest::newRow("plain decimal") << QStringLiteral("150218") << true << quint64(150218);
    QTest::newRow("transition as shown") << QStringLiteral("150,218") << true << quint64(150218);
    QTest::newRow("millions as shown") << QStringLiteral("1,308,463") << true << quint64(1308463);
    QTest::newRow("address as shown") << QStringLiteral("0x4a1'b140") << true << quint64(0x4a1b140);
    QTest::newRow("stack address as shown") << QStringLiteral("0x1f'ff00'0208") << true << quint64(0x1fff000208);
    QTest::newRow("plain hex") << QStringLiteral("0x4a1b140") << true << quint64(0x4a1b140);
    QTest::newRow("octal-looking is decimal") << QStringLiteral("0,10") << true << quint64(10);
    QTest::newRow("largest as shown") << QStringLiteral("0xffff'ffff'ffff'ffff") << true << quint64(max64);
    QTest::newRow("too large as shown") << QStringLiteral("0x1'ffff'ffff'ffff'ffff") << false << quint64(0);
    QTest::newRow("leading separator") << QStringLiteral(",150") << false << quint64(0);
    QTest::newRow("trailing separator") << QStringLiteral("150,") << false << quint64(0);
    QTest::newRow("doubled separator") << QStringLiteral("150,,218") << false << quint64(0);
    QTest::newRow("separator after 0x") << QStringLiteral("0x'4a1") << false << quint64(0);
    QTest::newRow("separator before a non-digit") << QStringLiteral("12,a") << false << quint64(0);
    QTest::newRow("space") << QStringLiteral("150 218") << false << quint64(0);
    QTest::newRow("non-ASCII digit") << QStringLiteral("1\u0663") << false << quint64(0);
    QTest::newRow("empty") << QString() << false << quint64(0);
}

void TestNumberText::parseTypedNumber()
{
    QFETCH(QString, text);
    QFETCH(bool, ok);
    QFETCH(quint64, value);

    std::uint64_t parsed = 12345;
    QCOMPARE(memhist::parseTypedNumber(text, &parsed), ok);
    QCOMPARE(quint64(parsed), ok ? value : quint64(12345));
}

// The size of an access in the viewer's sentences ("read of 1 byte at ...", not "1 bytes").
void TestNumberText::bytesText()
{
    QCOMPARE(memhist::bytesText(1), QStringLiteral("1 byte"));
    QCOMPARE(memhist::bytesText(8), QStringLiteral("8 bytes"));
    QCOMPARE(memhist::bytesText(0), QStringLiteral("0 bytes"));
}

void TestNumberText::countText_data()
{
    QTest::addColumn<quint64>("value");
    QTest::addColumn<QString>("text");
    QTest::newRow("zero") << quint64(0) << QStringLiteral("0");
    QTest::newRow("three digits, no group") << quint64(999) << QStringLiteral("999");
    QTest::newRow("first group") << quint64(1000) << QStringLiteral("1,000");
    QTest::newRow("zeros inside a group kept") << quint64(34563) << QStringLiteral("34,563");
    QTest::newRow("six digits") << quint64(309033) << QStringLiteral("309,033");
    QTest::newRow("seven digits") << quint64(1000001) << QStringLiteral("1,000,001");
    QTest::newRow("largest") << quint64(max64) << QStringLiteral("18,446,744,073,709,551,615");
}

// Grouped by three with ',' whatever the locale, and read back by parseTypedNumber().
void TestNumberText::countText()
{
    QFETCH(quint64, value);
    QFETCH(QString, text);
    const QLocale before;
    QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
    const QString written = memhist::countText(value);
    QLocale::setDefault(before);
    QCOMPARE(written, text);
    std::uint64_t parsed = 0;
    QVERIFY(memhist::parseTypedNumber(written, &parsed));
    QCOMPARE(quint64(parsed), value);
}

// The bytes of a value as Detail and the results table show them: memory order, spaced.
void TestNumberText::byteValuesText()
{
    QCOMPARE(
        memhist::byteValuesText(QByteArray::fromHex("061f93a5fb7f0000")), QStringLiteral("06 1f 93 a5 fb 7f 00 00"));
    QCOMPARE(memhist::byteValuesText(QByteArray::fromHex("ff")), QStringLiteral("ff"));
    QCOMPARE(memhist::byteValuesText(QByteArray()), QString());
}

QTEST_GUILESS_MAIN(TestNumberText)
#include "tst_numbertext.moc"
