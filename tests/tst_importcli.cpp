// SPDX-License-Identifier: MIT
// `memhist import` of Lackey logs and Tenet traces through the real binary (DESIGN.md §3): formats
// recognised by content, the summary and skipped lines it prints, warnings for traces that end
// early, exit status 1 and nothing at the output path for a broken (or truncated gzip) trace, and
// the reference readers' `_metadata` row in what it writes.
#include "core/storage/sqlite.h"
#include "testsupport.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace memhist::test;

namespace {

QString data(const QString &name)
{
    return QFINDTESTDATA(QStringLiteral("data/") + name);
}

} // namespace

class TestImportCli : public QObject
{
    Q_OBJECT

private slots:
    void imports_data();
    void imports();
    void brokenTrace_data();
    void brokenTrace();
    void historyCarriesTheReferenceMetadata();
    void gzippedCsvImports();
    void directoryWithoutTraces();

private:
    QString write(const QString &name, const QByteArray &content);
    QTemporaryDir m_dir;
};

QString TestImportCli::write(const QString &name, const QByteArray &content)
{
    const QString path = m_dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(content) != content.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

void TestImportCli::imports_data()
{
    QTest::addColumn<QStringList>("traces"); // relative to tests/data, or written by the test when "cut"
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("summary"); // the start of stdout's first line, up to " into"
    QTest::addColumn<QString>("skipped"); // stdout's second line, empty for none
    QTest::addColumn<QString>("warnings"); // stderr; FILE stands for the written trace

    QTest::newRow("lackey, gzipped, recognised")
        << QStringList { QStringLiteral("lackey/true.tiny.lackey.gz") } << QStringList()
        << QStringLiteral("imported 41797 accesses (30027 reads, 11770 "
                          "writes, 0 executes; transitions 1..131062)")
        << QStringLiteral("skipped: 25 valgrind messages") << QString();
    QTest::newRow("lackey noisy, --format lackey, --with-exec")
        << QStringList { QStringLiteral("lackey/echo_verbose_logfd1.noisy.lackey.gz") }
        << QStringList { QStringLiteral("--format"), QStringLiteral("lackey"), QStringLiteral("--with-exec") }
        << QStringLiteral("imported 413053 accesses (72826 reads, 31723 writes, 308504 executes; transitions "
                          "0..308503)")
        << QStringLiteral("skipped: 1 other lines (program output), 64 valgrind messages") << QString();
    QTest::newRow("tenet, recognised") << QStringList { QStringLiteral("tenet/boombox.trace.0.log") } << QStringList()
                                       << QStringLiteral("imported 1539 accesses (969 reads, 570 writes, 0 executes; "
                                                         "transitions 0..2161)")
                                       << QString() << QString();
    // The tenet trace starts at transition 131068, after the 131068 instructions of the Lackey log.
    QTest::newRow("lackey then tenet: transitions continue")
        << QStringList { QStringLiteral("lackey/true.tiny.lackey"), QStringLiteral("tenet/boombox.trace.0.log") }
        << QStringList()
        << QStringLiteral("imported 43336 accesses (30996 reads, 12340 writes, 0 executes; transitions 1..133229)")
        << QStringLiteral("skipped: 25 valgrind messages") << QString();
    QTest::newRow("cut last line warns") << QStringList { QStringLiteral("cut") } << QStringList()
                                         << QStringLiteral("imported 1 accesses (1 reads, 0 writes, 0 executes; "
                                                           "transitions 0..0)")
                                         << QStringLiteral("skipped: 1 cut last lines")
                                         << QStringLiteral("memhist import: warning: FILE:3: the last line is cut (\" "
                                                           "S 1fff0006\"): the trace ends early (was the tracer "
                                                           "killed?); imported the complete lines before it\n");
}

void TestImportCli::imports()
{
    QFETCH(QStringList, traces);
    QFETCH(QStringList, options);
    QFETCH(QString, summary);
    QFETCH(QString, skipped);
    QFETCH(QString, warnings);

    const QString cut = write(QStringLiteral("cut.lackey"), "I  00001000,3\n L 2000,8\n S 1fff0006");
    for (QString &trace : traces)
        trace = trace == QLatin1String("cut") ? cut : data(trace);
    const QString output = m_dir.filePath(QStringLiteral("out.memhist"));
    const CliResult result = runCli(
        QStringList { QStringLiteral("import") } + traces + QStringList { QStringLiteral("-o"), output } + options);
    QVERIFY2(result.exitCode == 0, result.err.constData());
    const QStringList lines = QString::fromUtf8(result.out).split(u'\n');
    QVERIFY2(lines[0].startsWith(summary + QStringLiteral(" into ") + output), qPrintable(lines[0]));
    // The summary, the skipped line when something was skipped, then what context the history holds.
    const int contextLine = skipped.isEmpty() ? 1 : 2;
    if (!skipped.isEmpty())
        QCOMPARE(lines.value(1), skipped);
    QVERIFY2(lines.value(contextLine).startsWith(QStringLiteral("context: ")), qPrintable(lines.value(contextLine)));
    // Other engineers' debug lines aside, stderr holds the warnings.
    QString err;
    for (const QString &line : QString::fromUtf8(result.err).split(u'\n', Qt::SkipEmptyParts))
        if (line.startsWith(QStringLiteral("memhist")))
            err += line + u'\n';
    QCOMPARE(err, QString(warnings).replace(QStringLiteral("FILE"), cut));

    const CliResult check = runCli({ QStringLiteral("check"), output });
    QVERIFY2(check.exitCode == 0, check.err.constData());
}

void TestImportCli::brokenTrace_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("expected"); // FILE stands for the trace

    QTest::newRow("lackey: malformed line in the middle")
        << QByteArray("I  00001000,3\n L 2000,8\n L 7ff0zz,8\nI  00001003,2\n") << QStringList()
        << QStringLiteral("FILE:3: malformed Lackey line \" L 7ff0zz,8\": '7ff0zz' is not a hexadecimal address\n");
    QTest::newRow("tenet: malformed field")
        << QByteArray("rip=0x1000,rsp=0x2000\nrip=0x1004,mw=0x2000:001\n") << QStringList()
        << QStringLiteral("FILE:2: field 2 'mw=0x2000:001': odd number of hex "
                          "digits (3) in the bytes\n");
    QTest::newRow("binary junk named as lackey")
        << QByteArray("\x7f"
                      "ELF\x02\x01\x01\0\0\0\n",
               12)
        << QStringList { QStringLiteral("--format"), QStringLiteral("lackey") }
        << QStringLiteral("FILE:1: binary data (a NUL byte), not a Lackey trace\n");
    // Recognised from the content, by the lines before the damage: the importer's own message.
    QTest::newRow("lackey: a NUL byte, format from the content") << QByteArray("I  00001000,3\n L 2000,8\nI  00\x00"
                                                                               "01003,2\n L 2008,8\n",
        43) << QStringList() << QStringLiteral("FILE:3: binary data (a NUL byte), not a Lackey trace\n");
    QByteArray badMethod = gzip("I  00001000,3\n L 2000,8\n");
    badMethod[2] = 7; // not deflate
    QTest::newRow("gzip that does not inflate, format from the content")
        << badMethod << QStringList()
        << QStringLiteral("FILE: offset 4: corrupt gzip data (unknown compression method)\n");
    // What `export --thread-column` writes: recognised as our CSV, refused with the reason.
    QTest::newRow("csv: a thread column")
        << QByteArray("rowid,transition,operation,address,linear,size,thread\n1,0,R,0x10,0x10,8,5\n") << QStringList()
        << QStringLiteral("FILE:1: columns after the six of 'rowid,transition,operation,address,linear,size' (the "
                          "thread or context columns of export --thread-column or --context): import reads the "
                          "six-column form, which export writes without those options\n");
    // A copy of a gzipped log cut short is damaged, not a trace that ends early: an error.
    QFile gzipped(data(QStringLiteral("lackey/true.tiny.lackey.gz")));
    QVERIFY(gzipped.open(QIODevice::ReadOnly));
    QTest::newRow("lackey: truncated gzip")
        << gzipped.read(40000) << QStringList()
        << QStringLiteral("FILE:53084: truncated gzip data: the file ends after 40000 bytes, before the end of the "
                          "compressed stream\n");
}

void TestImportCli::brokenTrace()
{
    QFETCH(QByteArray, content);
    QFETCH(QStringList, options);
    QFETCH(QString, expected);
    const QString trace = write(QStringLiteral("broken.trace"), content);
    const QString output = m_dir.filePath(QStringLiteral("broken.memhist"));
    const CliResult result
        = runCli(QStringList { QStringLiteral("import"), trace, QStringLiteral("-o"), output } + options);
    QCOMPARE(result.exitCode, 1);
    QCOMPARE(QString::fromUtf8(result.err), expected.replace(QStringLiteral("FILE"), trace));
    QCOMPARE(result.out, QByteArray());
    QVERIFY(QDir(m_dir.path()).entryList({ QStringLiteral("broken.memhist*") }, QDir::Files | QDir::Hidden).isEmpty());
}

void TestImportCli::historyCarriesTheReferenceMetadata()
{
    const QString trace = data(QStringLiteral("tenet/boombox.trace.0.log"));
    const QString output = m_dir.filePath(QStringLiteral("metadata.memhist"));
    const qint64 before = QDateTime::currentSecsSinceEpoch();
    const CliResult result = runCli({ QStringLiteral("import"), trace, QStringLiteral("-o"), output });
    const qint64 after = QDateTime::currentSecsSinceEpoch();
    QVERIFY2(result.exitCode == 0, result.err.constData());

    memhist::sqlite::Connection db;
    QVERIFY(db.open(output, memhist::sqlite::Connection::Mode::ReadOnly));
    // The reference readers read the row with `select *`, by position: the columns and their order
    // are part of the contract.
    memhist::sqlite::Statement columns
        = db.prepare("SELECT name, lower(type) FROM pragma_table_info('_metadata') ORDER BY cid");
    QStringList declared;
    while (columns.step() == SQLITE_ROW)
        declared << columns.text(0) + u' ' + columns.text(1);
    QCOMPARE(declared,
        (QStringList { QStringLiteral("metadata_version int"), QStringLiteral("type int"),
            QStringLiteral("format_version text"), QStringLiteral("tool_name text"),
            QStringLiteral("tool_version text"), QStringLiteral("tool_info text"),
            QStringLiteral("generation_date int8") }));

    memhist::sqlite::Statement rows = db.prepare("SELECT * FROM _metadata");
    QCOMPARE(rows.step(), SQLITE_ROW);
    QCOMPARE(rows.int64(0), 1);
    QCOMPARE(rows.int64(1), 3);
    QCOMPARE(rows.text(2), QStringLiteral("1.0.0"));
    QCOMPARE(rows.text(3), QStringLiteral("memhist"));
    QCOMPARE(rows.text(4), QStringLiteral(MEMHIST_VERSION));
    QCOMPARE(rows.text(5), QStringLiteral("memhist " MEMHIST_VERSION ", format 1, from tenet ") + trace);
    QVERIFY2(rows.int64(6) >= before && rows.int64(6) <= after, qPrintable(QString::number(rows.int64(6))));
    QCOMPARE(rows.step(), SQLITE_DONE); // exactly one row, as the readers require
}

// `memhist export -o /dev/stdout | gzip`: the CSV importer reads gzip as the text importers do, and
// a cut copy is an error at the line where the data stops.
void TestImportCli::gzippedCsvImports()
{
    QFile plain(data(QStringLiteral("csv/small.csv")));
    QVERIFY(plain.open(QIODevice::ReadOnly));
    const QByteArray csv = plain.readAll();
    const QByteArray compressed = gzip(csv);
    QVERIFY(!compressed.isEmpty());
    const QString trace = write(QStringLiteral("small.csv.gz"), compressed);
    const QString output = m_dir.filePath(QStringLiteral("gzipped.memhist"));
    const CliResult result = runCli({ QStringLiteral("import"), trace, QStringLiteral("-o"), output });
    QCOMPARE(result.err, QByteArray());
    QCOMPARE(result.exitCode, 0);
    QVERIFY2(result.out.startsWith("imported 20 accesses "), result.out.constData());
    const CliResult exported = runCli({ QStringLiteral("query"), output, QStringLiteral("--ops"), QStringLiteral("rwx"),
        QStringLiteral("--format"), QStringLiteral("csv") });
    QCOMPARE(exported.exitCode, 0);
    QCOMPARE(exported.out.split('\n').mid(0, 21), csv.split('\n').mid(0, 21));

    const QString cut = write(QStringLiteral("cut.csv.gz"), compressed.first(compressed.size() - 12));
    const CliResult truncated = runCli({ QStringLiteral("import"), cut, QStringLiteral("-o"), output });
    QCOMPARE(truncated.exitCode, 1);
    QVERIFY2(truncated.err.contains(": truncated gzip data: the file ends after "), truncated.err.constData());
}

void TestImportCli::directoryWithoutTraces()
{
    QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("no-traces")));
    const QString directory = m_dir.filePath(QStringLiteral("no-traces"));
    const CliResult result = runCli(
        { QStringLiteral("import"), directory, QStringLiteral("-o"), m_dir.filePath(QStringLiteral("d.memhist")) });
    QCOMPARE(result.exitCode, 1);
    QCOMPARE(
        QString::fromUtf8(result.err), directory + QStringLiteral(": no drmemtrace trace files in this directory\n"));
}

QTEST_GUILESS_MAIN(TestImportCli)
#include "tst_importcli.moc"
