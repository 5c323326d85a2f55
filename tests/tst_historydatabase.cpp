// SPDX-License-Identifier: MIT
// Opening a history (HistoryDatabase::open, the one place every command opens one) and describing
// it (`memhist info`): a copy cut short is refused by every command; a WAL-mode history in a
// read-only directory opens as the valid database it is; the reference readers' _metadata row is
// shown for a file without a meta table; counts are never said to come from the meta table when
// the database contradicts it.

#include "core/storage/historydatabase.h"
#include "core/storage/sqlite.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <unistd.h>

using namespace memhist;
using namespace memhist::test;

namespace {

QString smallCsv()
{
    return QFINDTESTDATA("data/csv/small.csv");
}

qint64 pragmaValue(const QString &path, const char *pragma)
{
    sqlite::Connection db;
    if (!db.open(path, sqlite::Connection::Mode::ReadOnly))
        return -1;
    sqlite::Statement stmt = db.prepare(pragma);
    return stmt.isValid() && stmt.step() == SQLITE_ROW ? stmt.int64(0) : -1;
}

bool execute(const QString &path, const char *sql)
{
    sqlite::Connection db;
    return db.open(path, sqlite::Connection::Mode::ReadWriteCreate) && db.execute(sql);
}

// Overwrites four bytes of the file header with a big-endian number.
bool writeHeaderNumber(const QString &path, qint64 offset, quint32 value)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadWrite) || !file.seek(offset))
        return false;
    const char bytes[4] = { char(value >> 24), char(value >> 16), char(value >> 8), char(value) };
    return file.write(bytes, 4) == 4;
}

quint32 readHeaderNumber(const QString &path, qint64 offset)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly) || !file.seek(offset))
        return 0;
    const QByteArray bytes = file.read(4);
    quint32 value = 0;
    for (const char byte : bytes)
        value = (value << 8) | quint8(byte);
    return value;
}

// The lines of `memhist info` that name where the history came from and its counts.
QStringList infoLines(const QString &path)
{
    return QString::fromUtf8(cliOutput({ QStringLiteral("info"), path })).split(u'\n');
}

// Runs the command line as a user that file permissions bind: the caller itself unless it is root
// (who ignores them), else nobody through setpriv. Exit code -2 when that is not possible.
CliResult runCliUnprivileged(const QStringList &arguments)
{
    if (::geteuid() != 0)
        return runCli(arguments);
    CliResult result;
    const QString setpriv = QStandardPaths::findExecutable(QStringLiteral("setpriv"));
    if (setpriv.isEmpty()) {
        result.exitCode = -2;
        return result;
    }
    QProcess process;
    process.setStandardInputFile(QProcess::nullDevice());
    process.start(setpriv,
        QStringList { QStringLiteral("--reuid=65534"), QStringLiteral("--regid=65534"),
            QStringLiteral("--clear-groups"), QStringLiteral(MEMHIST_CLI_PATH) }
            + arguments);
    if (!process.waitForFinished(300'000))
        return result;
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    return result;
}

} // namespace

class TestHistoryDatabase : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();

    void truncatedCopyIsRefused_data();
    void truncatedCopyIsRefused();
    void headerPageCountIsUsedOnlyWhenValid_data();
    void headerPageCountIsUsedOnlyWhenValid();
    void walHistoryInReadOnlyDirectory();
    void walHistoryReadLeavesNothingBesideIt();
    void walFramesInReadOnlyDirectoryAreNamed();
    void referenceMetadataForForeignFiles_data();
    void referenceMetadataForForeignFiles();
    void countsSayWhereTheyCameFrom_data();
    void countsSayWhereTheyCameFrom();

private:
    // A copy of the imported small.csv under `name`, with `sql` applied when given.
    QString copyOfGood(const QString &name, const char *sql = nullptr);
    // A directory that the command line run by runCliUnprivileged can read but not write.
    QString readOnlyDirectory(const QString &name);

    QTemporaryDir m_dir;
    QString m_good;
    QStringList m_readOnlyDirectories;
};

QString TestHistoryDatabase::copyOfGood(const QString &name, const char *sql)
{
    const QString path = m_dir.filePath(name);
    QFile::remove(path);
    if (!QFile::copy(m_good, path) || (sql && !execute(path, sql)))
        return {};
    return path;
}

QString TestHistoryDatabase::readOnlyDirectory(const QString &name)
{
    const QString path = m_dir.filePath(name);
    QDir().mkpath(path);
    m_readOnlyDirectories << path;
    return path;
}

void TestHistoryDatabase::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // Readable by nobody too (the read-only directory tests run the command line as nobody).
    QVERIFY(QFile::setPermissions(m_dir.path(),
        QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadOther | QFile::ExeOther | QFile::ReadGroup
            | QFile::ExeGroup));
    m_good = m_dir.filePath(QStringLiteral("good.memhist"));
    const CliResult imported = runCli({ QStringLiteral("import"), smallCsv(), QStringLiteral("-o"), m_good });
    QVERIFY2(imported.exitCode == 0, imported.err.constData());
}

void TestHistoryDatabase::cleanupTestCase()
{
    // Writable again, so that the temporary directory can be removed.
    for (const QString &path : std::as_const(m_readOnlyDirectories))
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
}

void TestHistoryDatabase::truncatedCopyIsRefused_data()
{
    QTest::addColumn<QString>("command");
    QTest::addColumn<qint64>("cut"); // bytes removed from the end, less than one page
    for (const char *command : { "query", "export", "check", "info" }) {
        QTest::addRow("%s, one byte short", command) << QString::fromLatin1(command) << qint64(1);
        QTest::addRow("%s, 100 bytes short", command) << QString::fromLatin1(command) << qint64(100);
    }
    QTest::newRow("query, one page minus one byte short") << QStringLiteral("query") << qint64(-1);
}

void TestHistoryDatabase::truncatedCopyIsRefused()
{
    QFETCH(QString, command);
    QFETCH(qint64, cut);

    const qint64 pageSize = pragmaValue(m_good, "PRAGMA page_size");
    const qint64 pages = pragmaValue(m_good, "PRAGMA page_count");
    QVERIFY(pageSize > 0 && pages > 1);
    QCOMPARE(QFileInfo(m_good).size(), pages * pageSize);
    if (cut < 0)
        cut = pageSize - 1;
    const QString path = copyOfGood(QStringLiteral("cut-%1-%2.memhist").arg(command).arg(cut));
    QVERIFY(!path.isEmpty());
    QVERIFY(QFile::resize(path, pages * pageSize - cut));
    const QString message = QStringLiteral("%1: truncated: the header says %2 pages of %3 bytes (%4 bytes), the file "
                                           "has %5 bytes")
                                .arg(path)
                                .arg(pages)
                                .arg(pageSize)
                                .arg(pages * pageSize)
                                .arg(pages * pageSize - cut);

    QString error;
    QVERIFY(!HistoryDatabase::open(path, &error));
    QCOMPARE(error, message);

    QStringList arguments { command, path };
    const QString csv = path + QStringLiteral(".csv");
    if (command == QLatin1String("export"))
        arguments << QStringLiteral("-o") << csv;
    const CliResult result = runCli(arguments);
    QCOMPARE(QString::fromUtf8(result.err), message + u'\n');
    QCOMPARE(result.exitCode, 1);
    QCOMPARE(result.out, QByteArray());
    QVERIFY(!QFile::exists(csv));
}

void TestHistoryDatabase::headerPageCountIsUsedOnlyWhenValid_data()
{
    QTest::addColumn<bool>("validFor"); // version-valid-for (offset 92) equals the change counter (offset 24)
    QTest::addColumn<bool>("refused");
    QTest::newRow("valid page count beyond the file: refused") << true << true;
    QTest::newRow("stale page count (another version wrote it): the file size counts") << false << false;
}

void TestHistoryDatabase::headerPageCountIsUsedOnlyWhenValid()
{
    QFETCH(bool, validFor);
    QFETCH(bool, refused);

    const QString path = copyOfGood(QStringLiteral("header-%1.memhist").arg(validFor));
    QVERIFY(!path.isEmpty());
    const qint64 pageSize = pragmaValue(m_good, "PRAGMA page_size");
    const quint32 pages = readHeaderNumber(path, 28);
    QCOMPARE(qint64(pages), pragmaValue(m_good, "PRAGMA page_count"));
    const quint32 counter = readHeaderNumber(path, 24);
    QCOMPARE(readHeaderNumber(path, 92), counter);
    QVERIFY(writeHeaderNumber(path, 28, pages + 1));
    if (!validFor)
        QVERIFY(writeHeaderNumber(path, 92, counter + 1));

    QString error;
    const auto db = HistoryDatabase::open(path, &error);
    if (refused) {
        QVERIFY(!db);
        QCOMPARE(error,
            QStringLiteral("%1: truncated: the header says %2 pages of %3 bytes (%4 bytes), the file has %5 bytes")
                .arg(path)
                .arg(pages + 1)
                .arg(pageSize)
                .arg((pages + 1) * pageSize)
                .arg(pages * pageSize));
    } else {
        QVERIFY2(db, qPrintable(error));
        QCOMPARE(db->summary().accesses, 20);
    }
}

// A WAL-mode history whose last writer checkpointed (no -wal, no -shm), in a directory its reader
// cannot write: SQLite cannot create the -shm it wants, yet the file holds every page.
void TestHistoryDatabase::walHistoryInReadOnlyDirectory()
{
    const QString directory = readOnlyDirectory(QStringLiteral("read-only"));
    const QString path = directory + QStringLiteral("/wal.memhist");
    QVERIFY(QFile::copy(m_good, path));
    QVERIFY(execute(path, "PRAGMA journal_mode = WAL"));
    QVERIFY(!QFile::exists(path + QStringLiteral("-wal")));
    QVERIFY(!QFile::exists(path + QStringLiteral("-shm")));
    QFile header(path);
    QVERIFY(header.open(QIODevice::ReadOnly));
    QCOMPARE(header.read(20).mid(18), QByteArray("\x02\x02")); // WAL mode
    header.close();
    QVERIFY(QFile::setPermissions(path, QFile::ReadOwner | QFile::ReadGroup | QFile::ReadOther));
    QVERIFY(QFile::setPermissions(directory,
        QFile::ReadOwner | QFile::ExeOwner | QFile::ReadGroup | QFile::ExeGroup | QFile::ReadOther | QFile::ExeOther));

    // The directory really is read-only for the command line's user.
    const QString csv = directory + QStringLiteral("/out.csv");
    const CliResult write = runCliUnprivileged({ QStringLiteral("export"), m_good, QStringLiteral("-o"), csv });
    if (write.exitCode == -2)
        QSKIP("running as root without setpriv: no user that directory permissions bind");
    QCOMPARE(write.exitCode, 1);
    QVERIFY2(write.err.startsWith((csv + QStringLiteral(": cannot create: ")).toUtf8()), write.err.constData());

    const QStringList query { QStringLiteral("query"), QStringLiteral("--ops"), QStringLiteral("rwx"),
        QStringLiteral("--format"), QStringLiteral("csv") };
    const QByteArray expected = cliOutput(QStringList { query[0], m_good } + query.mid(1));
    QCOMPARE(expected.count('\n'), 21);
    const CliResult answered = runCliUnprivileged(QStringList { query[0], path } + query.mid(1));
    QCOMPARE(QString::fromUtf8(answered.err), QString());
    QCOMPARE(answered.exitCode, 0);
    QCOMPARE(answered.out, expected);

    const CliResult info = runCliUnprivileged({ QStringLiteral("info"), path });
    QCOMPARE(info.exitCode, 0);
    QVERIFY2(info.out.contains("accesses:         20 (reads 8, writes 7, executes 5)\n"), info.out.constData());
    const CliResult check = runCliUnprivileged({ QStringLiteral("check"), path });
    QCOMPARE(check.exitCode, 0);
    QVERIFY(!QFile::exists(path + QStringLiteral("-wal")));
    QVERIFY(!QFile::exists(path + QStringLiteral("-shm")));
}

// A WAL-mode history with no -wal beside it, in a directory we may write: reading it must not
// create a -wal and a -shm file beside it (SQLite's reader does, unless the file is read immutable).
void TestHistoryDatabase::walHistoryReadLeavesNothingBesideIt()
{
    const QString path = copyOfGood(QStringLiteral("idle-wal.memhist"));
    QVERIFY(!path.isEmpty());
    QVERIFY(execute(path, "PRAGMA journal_mode = WAL"));
    QVERIFY(!QFile::exists(path + QStringLiteral("-wal")));
    {
        QString error;
        const auto db = HistoryDatabase::open(path, &error);
        QVERIFY2(db, qPrintable(error));
        QCOMPARE(db->summary().accesses, 20);
        QVERIFY(!QFile::exists(path + QStringLiteral("-wal")));
        QVERIFY(!QFile::exists(path + QStringLiteral("-shm")));
    }
    const CliResult query = runCli({ QStringLiteral("query"), path, QStringLiteral("--ops"), QStringLiteral("rwx") });
    QCOMPARE(query.exitCode, 0);
    QCOMPARE(query.out.count('\n'), 22); // the header, 20 rows, the closing line
    QVERIFY(!QFile::exists(path + QStringLiteral("-wal")));
    QVERIFY(!QFile::exists(path + QStringLiteral("-shm")));
}

// A -wal holding frames next to the file in a read-only directory: the changes it holds cannot be
// read without the -shm, so reading the file alone would be stale. The message says so.
void TestHistoryDatabase::walFramesInReadOnlyDirectoryAreNamed()
{
    // The writer keeps its connection open while the file and its -wal are copied, so that the
    // change stays in the -wal (closing would checkpoint it into the file).
    const QString scratch = copyOfGood(QStringLiteral("writer.memhist"));
    QVERIFY(!scratch.isEmpty());
    const QString directory = readOnlyDirectory(QStringLiteral("read-only-with-wal"));
    const QString path = directory + QStringLiteral("/frames.memhist");
    {
        sqlite::Connection writer;
        QVERIFY(writer.open(scratch, sqlite::Connection::Mode::ReadWriteCreate));
        QVERIFY(writer.execute("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;"
                               "UPDATE meta SET value = 'changed in the wal' WHERE key = 'created_at'"));
        QVERIFY(QFile::copy(scratch, path));
        QVERIFY(QFile::copy(scratch + QStringLiteral("-wal"), path + QStringLiteral("-wal")));
    }
    QVERIFY(QFileInfo(path + QStringLiteral("-wal")).size() > 32);

    // Where the directory is writable, SQLite reads the change from the -wal.
    const QString writable = m_dir.filePath(QStringLiteral("frames-writable.memhist"));
    QVERIFY(QFile::copy(path, writable));
    QVERIFY(QFile::copy(path + QStringLiteral("-wal"), writable + QStringLiteral("-wal")));
    QVERIFY(infoLines(writable).contains(QStringLiteral("created:          changed in the wal")));

    for (const QString &file : QStringList { path, path + QStringLiteral("-wal") })
        QVERIFY(QFile::setPermissions(file, QFile::ReadOwner | QFile::ReadGroup | QFile::ReadOther));
    QVERIFY(QFile::setPermissions(directory,
        QFile::ReadOwner | QFile::ExeOwner | QFile::ReadGroup | QFile::ExeGroup | QFile::ReadOther | QFile::ExeOther));
    const CliResult result = runCliUnprivileged({ QStringLiteral("info"), path });
    if (result.exitCode == -2)
        QSKIP("running as root without setpriv: no user that directory permissions bind");
    QCOMPARE(QString::fromUtf8(result.err),
        path
            + QStringLiteral(": cannot read: a WAL-mode database whose frames.memhist-wal file holds changes not yet "
                             "in the database file, and SQLite cannot open the frames.memhist-shm file it needs to "
                             "read them (unable to open database file); open it once where its directory is "
                             "writable, which moves the changes into the database file\n"));
    QCOMPARE(result.exitCode, 1);
    QCOMPARE(result.out, QByteArray());
}

void TestHistoryDatabase::referenceMetadataForForeignFiles_data()
{
    QTest::addColumn<QByteArray>("sql"); // run on a copy of the good history, after dropping meta and _metadata
    QTest::addColumn<QStringList>("lines");

    const QByteArray create = "CREATE TABLE _metadata(metadata_version int, type int, format_version text, "
                              "tool_name text, tool_version text, tool_info text, generation_date int8);";
    QTest::newRow("the reference writer's row")
        << create
            + "INSERT INTO _metadata VALUES(1, 3, '1.0.0', 'rvnmemhistwriter', '2.5.0', 'built from source', "
              "1700000000)"
        << QStringList {
               QStringLiteral("format version:   1.0.0 (from _metadata: type 3, a memory history; metadata version 1)"),
               QStringLiteral(
                   "writer:           rvnmemhistwriter 2.5.0 (from _metadata; tool info: built from source)"),
               QStringLiteral("created:          2023-11-14T22:13:20Z (from _metadata)"),
               QStringLiteral("sources:          unknown (no meta table)"),
               QStringLiteral("counts:           computed (no meta table)"),
           };
    QTest::newRow("another type, no tool info, no date")
        << create + "INSERT INTO _metadata VALUES(1, 2, '1.0.0', 'tracer', '0.1', '', NULL)"
        << QStringList {
               QStringLiteral("format version:   1.0.0 (from _metadata: type 2, not a memory history (3); metadata "
                              "version 1)"),
               QStringLiteral("writer:           tracer 0.1 (from _metadata)"),
               QStringLiteral("created:          unknown (no meta table; _metadata has no generation date)"),
           };
    QTest::newRow("no row") << create
                            << QStringList {
                                   QStringLiteral("format version:   unknown (no meta table; _metadata has no row)"),
                                   QStringLiteral("writer:           unknown (no meta table; _metadata has no row)"),
                               };
    QTest::newRow("other columns")
        << QByteArray("CREATE TABLE _metadata(version int); INSERT INTO _metadata VALUES(1)")
        << QStringList {
               QStringLiteral("format version:   unknown (no meta table; _metadata cannot be read (no such column: "
                              "metadata_version))"),
           };
    QTest::newRow("neither table") << QByteArray("SELECT 1")
                                   << QStringList {
                                          QStringLiteral("format version:   unknown (no meta table)"),
                                          QStringLiteral("writer:           unknown (no meta table)"),
                                          QStringLiteral("created:          unknown (no meta table)"),
                                      };
}

void TestHistoryDatabase::referenceMetadataForForeignFiles()
{
    QFETCH(QByteArray, sql);
    QFETCH(QStringList, lines);

    const QString path = copyOfGood(
        QStringLiteral("foreign-%1.memhist").arg(QString::fromUtf8(QTest::currentDataTag())).replace(u' ', u'-'),
        "DROP TABLE meta; DROP TABLE IF EXISTS _metadata");
    QVERIFY(!path.isEmpty());
    QVERIFY(execute(path, sql.constData()));
    const QStringList output = infoLines(path);
    for (const QString &line : lines)
        QVERIFY2(output.contains(line), qPrintable(line + QStringLiteral("\nnot in:\n") + output.join(u'\n')));

    QString error;
    const auto db = HistoryDatabase::open(path, &error);
    QVERIFY2(db, qPrintable(error));
    QVERIFY(!db->hasMeta());
    if (QByteArray(QTest::currentDataTag()) == "the reference writer's row") {
        const auto &reference = db->referenceMetadata();
        QVERIFY(reference);
        QCOMPARE(reference->metadataVersion, QStringLiteral("1"));
        QCOMPARE(reference->type, QStringLiteral("3"));
        QCOMPARE(reference->formatVersion, QStringLiteral("1.0.0"));
        QCOMPARE(reference->toolName, QStringLiteral("rvnmemhistwriter"));
        QCOMPARE(reference->toolVersion, QStringLiteral("2.5.0"));
        QCOMPARE(reference->toolInfo, QStringLiteral("built from source"));
        QCOMPARE(reference->generationDate, std::optional<qint64>(1700000000));
        QCOMPARE(reference->error, QString());
    }
}

void TestHistoryDatabase::countsSayWhereTheyCameFrom_data()
{
    QTest::addColumn<QByteArray>("sql");
    QTest::addColumn<QStringList>("lines");
    QTest::addColumn<bool>("accessCountsFromMeta");

    // The history holds 20 accesses (8 reads, 7 writes, 5 executes) in 1 slice of 9 chunks.
    QTest::newRow("meta intact") << QByteArray("SELECT 1")
                                 << QStringList {
                                        QStringLiteral("accesses:         20 (reads 8, writes 7, executes 5)"),
                                        QStringLiteral("slices:           1"),
                                        QStringLiteral("chunks:           9"),
                                        QStringLiteral("counts:           from the meta table"),
                                    }
                                 << true;
    QTest::newRow("meta accesses contradicted (the three do not add up)")
        << QByteArray("UPDATE meta SET value = '25' WHERE key = 'accesses'")
        << QStringList {
               QStringLiteral("accesses:         20 [meta: 25] (reads 8, writes 7, executes 5)"),
               QStringLiteral("counts:           slices, chunks from the meta table; accesses computed (the meta table "
                              "disagrees: its figures in brackets)"),
           }
        << false;
    QTest::newRow("meta counts beyond the rowid range")
        << QByteArray("UPDATE meta SET value = '21' WHERE key = 'accesses'; "
                      "UPDATE meta SET value = '9' WHERE key = 'reads'")
        << QStringList {
               QStringLiteral("accesses:         20 [meta: 21] (reads 8 [meta: 9], writes 7, executes 5)"),
           }
        << false;
    QTest::newRow("meta slices contradicted, chunks not a number")
        << QByteArray("UPDATE meta SET value = '3' WHERE key = 'slices'; UPDATE meta SET value = 'many' WHERE key = "
                      "'chunks'")
        << QStringList {
               QStringLiteral("slices:           1 [meta: 3]"),
               QStringLiteral("chunks:           9 [meta: many]"),
               QStringLiteral("counts:           accesses from the meta table; slices, chunks computed (the meta table "
                              "disagrees: its figures in brackets)"),
           }
        << true;
    QTest::newRow("meta without chunks") << QByteArray("DELETE FROM meta WHERE key = 'chunks'")
                                         << QStringList {
                                                QStringLiteral("chunks:           9"),
                                                QStringLiteral("counts:           accesses, slices from the meta "
                                                               "table; chunks computed (not in the meta table)"),
                                            }
                                         << true;
    QTest::newRow("meta without counts")
        << QByteArray("DELETE FROM meta WHERE key IN ('accesses', 'reads', 'writes', 'executes', 'slices', 'chunks')")
        << QStringList {
               QStringLiteral("accesses:         20 (reads 8, writes 7, executes 5)"),
               QStringLiteral("counts:           computed (the meta table has no counts)"),
           }
        << false;
    QTest::newRow("no meta table") << QByteArray("DROP TABLE meta")
                                   << QStringList {
                                          QStringLiteral("accesses:         20 (reads 8, writes 7, executes 5)"),
                                          QStringLiteral("counts:           computed (no meta table)"),
                                      }
                                   << false;
}

void TestHistoryDatabase::countsSayWhereTheyCameFrom()
{
    QFETCH(QByteArray, sql);
    QFETCH(QStringList, lines);
    QFETCH(bool, accessCountsFromMeta);

    const QString path = copyOfGood(
        QStringLiteral("counts-%1.memhist").arg(QString::fromUtf8(QTest::currentDataTag())).replace(u' ', u'-'),
        sql.constData());
    QVERIFY(!path.isEmpty());
    const QStringList output = infoLines(path);
    for (const QString &line : lines)
        QVERIFY2(output.contains(line), qPrintable(line + QStringLiteral("\nnot in:\n") + output.join(u'\n')));

    QString error;
    const auto db = HistoryDatabase::open(path, &error);
    QVERIFY2(db, qPrintable(error));
    const HistorySummary &summary = db->summary();
    QCOMPARE(summary.error, QString());
    QCOMPARE(summary.accessCountsFromMeta, accessCountsFromMeta);
    // In every row the figures shown are the database's.
    QCOMPARE(summary.accesses, 20);
    QCOMPARE(summary.reads, 8);
    QCOMPARE(summary.writes, 7);
    QCOMPARE(summary.executes, 5);
    QCOMPARE(summary.slices, 1);
    QCOMPARE(summary.chunks, 9);
}

QTEST_GUILESS_MAIN(TestHistoryDatabase)
#include "tst_historydatabase.moc"
