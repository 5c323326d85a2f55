// SPDX-License-Identifier: MIT
// The /proc/PID/maps parser: the shapes the kernel writes (files, named regions, anonymous
// mappings, deleted files, paths with spaces), this process's own map, and every malformed line
// with its exact message.
#include "core/context/processmap.h"

#include <QFile>
#include <QTest>

using namespace memhist;

namespace {

Mapping mapping(
    std::uint64_t first, std::uint64_t last, const char *permissions, std::uint64_t offset, const char *path)
{
    return Mapping { Address { first }, Address { last }, QString::fromLatin1(permissions), offset,
        QString::fromUtf8(path) };
}

} // namespace

class tst_ProcessMap : public QObject
{
    Q_OBJECT

private slots:
    void parses_data();
    void parses();
    void rejects_data();
    void rejects();
    void readsThisProcess();
};

void tst_ProcessMap::parses_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QList<Mapping>>("mappings");

    QTest::newRow("a file, the end exclusive")
        << QByteArray("5580640ab000-5580640ad000 r--p 00000000 fe:00 247134                     /usr/bin/cat\n")
        << QList<Mapping> { mapping(0x5580640ab000, 0x5580640acfff, "r--p", 0, "/usr/bin/cat") };
    QTest::newRow("offset of a later segment")
        << QByteArray("7f5832e7a000-7f5832fd0000 r-xp 00026000 fe:00 332835 /usr/lib/x86_64-linux-gnu/libc.so.6\n")
        << QList<Mapping> { mapping(
               0x7f5832e7a000, 0x7f5832fcffff, "r-xp", 0x26000, "/usr/lib/x86_64-linux-gnu/libc.so.6") };
    QTest::newRow("named regions") << QByteArray(
        "55807ecdf000-55807ed00000 rw-p 00000000 00:00 0                          [heap]\n"
        "7ffd1a2b3000-7ffd1a2d4000 rw-p 00000000 00:00 0                          [stack]\n"
        "ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0                  [vsyscall]\n")
                                   << QList<Mapping> { mapping(0x55807ecdf000, 0x55807ecfffff, "rw-p", 0, "[heap]"),
                                          mapping(0x7ffd1a2b3000, 0x7ffd1a2d3fff, "rw-p", 0, "[stack]"),
                                          mapping(0xffffffffff600000, 0xffffffffff600fff, "--xp", 0, "[vsyscall]") };
    QTest::newRow("anonymous, with the kernel's trailing blank")
        << QByteArray("7f5832dd2000-7f5832df4000 rw-p 00000000 00:00 0 \n")
        << QList<Mapping> { mapping(0x7f5832dd2000, 0x7f5832df3fff, "rw-p", 0, "[anon]") };
    QTest::newRow("anonymous without the blank, no final newline") << QByteArray(
        "1000-2000 rw-p 00000000 00:00 0") << QList<Mapping> { mapping(0x1000, 0x1fff, "rw-p", 0, "[anon]") };
    QTest::newRow("shared, a path with spaces, deleted")
        << QByteArray("7f0000000000-7f0000001000 rw-s 00001000 00:05 42 /dev/shm/my file (deleted)\n")
        << QList<Mapping> { mapping(0x7f0000000000, 0x7f0000000fff, "rw-s", 0x1000, "/dev/shm/my file (deleted)") };
    QTest::newRow("CRLF, blank lines and tabs")
        << QByteArray("\n1000-2000\tr-xp\t00000000\t08:01\t7\t/bin/x\r\n\r\n   \n")
        << QList<Mapping> { mapping(0x1000, 0x1fff, "r-xp", 0, "/bin/x") };
    QTest::newRow("uppercase hex, 16 digits")
        << QByteArray("00007FFF00000000-00007FFF00001000 r--p 0000000000ABCDEF FE:01 1 /x\n")
        << QList<Mapping> { mapping(0x7fff00000000, 0x7fff00000fff, "r--p", 0xabcdef, "/x") };
    QTest::newRow("empty text") << QByteArray() << QList<Mapping> {};
}

void tst_ProcessMap::parses()
{
    QFETCH(QByteArray, text);
    QFETCH(QList<Mapping>, mappings);
    QList<Mapping> parsed;
    QString error;
    QVERIFY2(parseProcessMaps(text, QStringLiteral("maps.txt"), &parsed, &error), qPrintable(error));
    QCOMPARE(parsed, mappings);
    QVERIFY(error.isEmpty());
}

void tst_ProcessMap::rejects_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("error");
    QTest::addColumn<int>("mappingsBefore");

    const QByteArray good = "1000-2000 r-xp 00000000 08:01 7 /bin/x\n";
    QTest::newRow("too few fields") << good + "3000-4000 r-xp 00000000\n"
                                    << "maps.txt:2: expected START-END PERMS OFFSET DEV INODE [PATH], found 3 fields"
                                    << 1;
    QTest::newRow("no dash in the range") << QByteArray("10002000 r-xp 0 08:01 7\n")
                                          << "maps.txt:1: '10002000' is not an address range (START-END in hex)" << 0;
    QTest::newRow("not hex") << good + good + "1000-20g0 r-xp 0 08:01 7\n"
                             << "maps.txt:3: '1000-20g0' is not an address range (START-END in hex)" << 2;
    QTest::newRow("address longer than 64 bits")
        << QByteArray("10000000000000000-10000000000000001 r-xp 0 08:01 7\n")
        << "maps.txt:1: '10000000000000000-10000000000000001' is not an address range (START-END in hex)" << 0;
    QTest::newRow("empty range") << QByteArray("2000-2000 r-xp 0 08:01 7\n")
                                 << "maps.txt:1: address range '2000-2000' is empty or ends before it starts" << 0;
    QTest::newRow("reversed range") << QByteArray("3000-2000 r-xp 0 08:01 7\n")
                                    << "maps.txt:1: address range '3000-2000' is empty or ends before it starts" << 0;
    QTest::newRow("permissions") << QByteArray("1000-2000 rxp 0 08:01 7\n")
                                 << "maps.txt:1: 'rxp' are not permissions (4 characters such as r-xp)" << 0;
    QTest::newRow("permission letters out of place")
        << QByteArray("1000-2000 xwrp 0 08:01 7\n")
        << "maps.txt:1: 'xwrp' are not permissions (4 characters such as r-xp)" << 0;
    QTest::newRow("offset") << QByteArray("1000-2000 r-xp 0x10 08:01 7\n")
                            << "maps.txt:1: '0x10' is not a file offset (hex)" << 0;
    QTest::newRow("device") << QByteArray("1000-2000 r-xp 0 0801 7\n")
                            << "maps.txt:1: '0801' is not a device (MAJOR:MINOR in hex)" << 0;
    QTest::newRow("inode") << QByteArray("1000-2000 r-xp 0 08:01 x7 /bin/x\n")
                           << "maps.txt:1: 'x7' is not an inode (decimal)" << 0;
    QTest::newRow("not a maps file at all") << QByteArray("I  0401ab70,3\n")
                                            << "maps.txt:1: expected START-END PERMS OFFSET DEV INODE [PATH], found "
                                               "2 fields"
                                            << 0;
}

void tst_ProcessMap::rejects()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, error);
    QFETCH(int, mappingsBefore);
    QList<Mapping> parsed;
    QString message;
    QVERIFY(!parseProcessMaps(text, QStringLiteral("maps.txt"), &parsed, &message));
    QCOMPARE(message, error);
    QCOMPARE(parsed.size(), mappingsBefore);
}

void tst_ProcessMap::readsThisProcess()
{
    // The kernel's own text: every line parses, and the test's executable and stack are in it.
    QFile maps(QStringLiteral("/proc/self/maps"));
    QVERIFY(maps.open(QIODevice::ReadOnly));
    const QByteArray text = maps.readAll();
    QList<Mapping> parsed;
    QString error;
    QVERIFY2(parseProcessMaps(text, maps.fileName(), &parsed, &error), qPrintable(error));
    QCOMPARE(parsed.size(), text.count('\n'));
    const auto here = Address { quintptr(&tst_ProcessMap::staticMetaObject) };
    const auto local = Address { quintptr(&parsed) };
    bool sawCode = false;
    bool sawStack = false;
    for (const Mapping &mapping : parsed) {
        sawCode |= mapping.contains(here) && mapping.path == QCoreApplication::applicationFilePath();
        sawStack |= mapping.contains(local) && mapping.path == QStringLiteral("[stack]");
    }
    QVERIFY(sawCode);
    QVERIFY(sawStack);
}

QTEST_GUILESS_MAIN(tst_ProcessMap)
#include "tst_processmap.moc"
