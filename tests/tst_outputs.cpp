// SPDX-License-Identifier: MIT
// Where the command line's output goes: an -o that names one of the command's inputs, a symbolic
// link, a FIFO or /dev/stdout, a standard output that cannot be written, and an export that reads
// fewer rows than the history holds.
#include "core/storage/historydatabase.h"
#include "core/storage/sqlite.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <sys/stat.h>
#include <thread>

using namespace memhist;
using namespace memhist::test;

namespace {

QString smallCsv()
{
    return QFINDTESTDATA("data/csv/small.csv");
}

} // namespace

class TestOutputs : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void exportRefusesToReplaceItsHistory();
    void importRefusesToReplaceItsMapsFile();
    void recordRefusesToReplaceItsProgram();
    void exportFollowsASymbolicLink();
    void exportWritesIntoAFifo();
    void historyRefusesAFifo();
    void exportToStandardOutputKeepsTheSummaryApart();
    void queryReportsAnOutputItCannotWrite();
    void exportNoticesRowsItCouldNotRead();
    void atSaysWhenATransitionIsPastTheEnd();
    void importWarnsOfAWindowPastTheEnd();

private:
    QString path(const QString &name) const { return m_dir.filePath(name); }
    static QString usage(const QString &command, const QString &message)
    {
        return QStringLiteral("memhist %1: %2\nTry 'memhist %1 --help' for more information.\n").arg(command, message);
    }

    QTemporaryDir m_dir;
    QString m_history; // tests/data/csv/small.csv imported: 20 accesses, reads, writes and executes
    QByteArray m_wholeExport; // its export --ops rwx, to a regular file
};

void TestOutputs::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_history = path(QStringLiteral("small.memhist"));
    const CliResult imported = runCli({ QStringLiteral("import"), smallCsv(), QStringLiteral("-o"), m_history });
    QVERIFY2(imported.exitCode == 0, imported.err.constData());
    const QString csv = path(QStringLiteral("whole.csv"));
    const CliResult exported = runCli({ QStringLiteral("export"), m_history, QStringLiteral("-o"), csv,
        QStringLiteral("--ops"), QStringLiteral("rwx") });
    QVERIFY2(exported.exitCode == 0, exported.err.constData());
    QCOMPARE(exported.out, QStringLiteral("wrote 20 rows to %1\n").arg(csv).toUtf8());
    m_wholeExport = readFile(csv);
    QCOMPARE(m_wholeExport.count('\n'), 21);
}

// Writing the CSV over the history it reads would destroy the history (it did, with exit status 0):
// refused as a usage error, by any path that names the same file.
void TestOutputs::exportRefusesToReplaceItsHistory()
{
    const QByteArray before = readFile(m_history);
    const QString link = path(QStringLiteral("link-to-small.memhist"));
    QVERIFY(QFile::link(m_history, link));
    for (const QString &output : QStringList { m_history, link, m_dir.path() + QStringLiteral("/./small.memhist") }) {
        const CliResult result = runCli({ QStringLiteral("export"), m_history, QStringLiteral("-o"), output });
        QCOMPARE(QString::fromUtf8(result.err),
            usage(
                QStringLiteral("export"), QStringLiteral("-o %1 would replace the history %2").arg(output, m_history)));
        QCOMPARE(result.exitCode, 2);
        QCOMPARE(result.out, QByteArray());
    }
    QVERIFY(readFile(m_history) == before);
}

void TestOutputs::importRefusesToReplaceItsMapsFile()
{
    const QString maps = path(QStringLiteral("program.maps"));
    const QByteArray mapsText = "00400000-00452000 r-xp 00000000 08:02 173521 /usr/bin/program\n";
    {
        QFile file(maps);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QCOMPARE(file.write(mapsText), qint64(mapsText.size()));
    }
    const CliResult result
        = runCli({ QStringLiteral("import"), smallCsv(), QStringLiteral("--maps"), maps, QStringLiteral("-o"), maps });
    QCOMPARE(QString::fromUtf8(result.err),
        usage(QStringLiteral("import"), QStringLiteral("-o %1 would replace the maps file %1").arg(maps)));
    QCOMPARE(result.exitCode, 2);
    QCOMPARE(readFile(maps), mapsText);
}

// record -o PROGRAM used to write the history over the program it ran.
void TestOutputs::recordRefusesToReplaceItsProgram()
{
    if (QStandardPaths::findExecutable(QStringLiteral("valgrind")).isEmpty())
        QSKIP("valgrind is not installed (record checks for it first)");
    const QString program = path(QStringLiteral("program"));
    QVERIFY(QFile::copy(QStringLiteral("/bin/true"), program));
    const QByteArray before = readFile(program);
    const CliResult result
        = runCli({ QStringLiteral("record"), QStringLiteral("-o"), program, QStringLiteral("--"), program });
    QCOMPARE(QString::fromUtf8(result.err),
        usage(QStringLiteral("record"), QStringLiteral("-o %1 would replace the program %1").arg(program)));
    QCOMPARE(result.exitCode, 2);
    QVERIFY(readFile(program) == before);
}

// The file the link points to is replaced; the link stays a link (it used to be replaced by a file).
void TestOutputs::exportFollowsASymbolicLink()
{
    QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("elsewhere")));
    const QString target = path(QStringLiteral("elsewhere/target.csv"));
    const QString link = path(QStringLiteral("link.csv"));
    QVERIFY(QFile::link(target, link)); // dangling until the export
    const CliResult result = runCli({ QStringLiteral("export"), m_history, QStringLiteral("-o"), link,
        QStringLiteral("--ops"), QStringLiteral("rwx") });
    QCOMPARE(result.err, QByteArray());
    QCOMPARE(result.exitCode, 0);
    QCOMPARE(result.out, QStringLiteral("wrote 20 rows to %1\n").arg(link).toUtf8());
    QVERIFY(QFileInfo(link).isSymLink());
    QCOMPARE(QFileInfo(link).symLinkTarget(), target);
    QCOMPARE(readFile(target), m_wholeExport);
    // No temporary file is left beside the link or the target.
    QCOMPARE(QDir(path(QStringLiteral("elsewhere"))).entryList(QDir::Files | QDir::Hidden),
        QStringList { QStringLiteral("target.csv") });
}

// A FIFO (or a device, or /dev/stdout) is a stream: the CSV is written into it, not renamed over it.
void TestOutputs::exportWritesIntoAFifo()
{
    const QString fifo = path(QStringLiteral("rows.fifo"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    QByteArray received;
    std::thread reader([&] {
        QFile file(fifo);
        if (file.open(QIODevice::ReadOnly))
            received = file.readAll();
    });
    const CliResult result = runCli({ QStringLiteral("export"), m_history, QStringLiteral("-o"), fifo,
        QStringLiteral("--ops"), QStringLiteral("rwx") });
    reader.join();
    QCOMPARE(result.err, QByteArray());
    QCOMPARE(result.exitCode, 0);
    QCOMPARE(result.out, QStringLiteral("wrote 20 rows to %1\n").arg(fifo).toUtf8());
    QCOMPARE(received, m_wholeExport);
    struct stat status;
    QCOMPARE(::stat(QFile::encodeName(fifo).constData(), &status), 0);
    QVERIFY(S_ISFIFO(status.st_mode));
}

// A history is an SQLite file: it cannot go into a stream, and the stream must stay what it was (as
// root, `import -o /dev/null` used to replace /dev/null with a regular file).
void TestOutputs::historyRefusesAFifo()
{
    const QString fifo = path(QStringLiteral("history.fifo"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    const CliResult result = runCli({ QStringLiteral("import"), smallCsv(), QStringLiteral("-o"), fifo });
    QCOMPARE(QString::fromUtf8(result.err),
        QStringLiteral("%1: cannot write to it: not a regular file (an SQLite database needs one)\n").arg(fifo));
    QCOMPARE(result.exitCode, 1);
    QCOMPARE(result.out, QByteArray());
    struct stat status;
    QCOMPARE(::stat(QFile::encodeName(fifo).constData(), &status), 0);
    QVERIFY(S_ISFIFO(status.st_mode));
    QCOMPARE(QDir(m_dir.path()).entryList({ QStringLiteral("history.fifo*") }, QDir::AllEntries | QDir::System),
        QStringList { QStringLiteral("history.fifo") });
}

// The rows go to standard output; the line that counts them goes to stderr, not amid the rows.
void TestOutputs::exportToStandardOutputKeepsTheSummaryApart()
{
    const CliResult result = runCli({ QStringLiteral("export"), m_history, QStringLiteral("-o"),
        QStringLiteral("/dev/stdout"), QStringLiteral("--ops"), QStringLiteral("rwx") });
    QCOMPARE(result.exitCode, 0);
    QCOMPARE(result.out, m_wholeExport);
    QCOMPARE(result.err, QByteArrayLiteral("wrote 20 rows to /dev/stdout\n"));
}

// `memhist query ... > file` on a full disk used to leave a cut file and exit 0.
void TestOutputs::queryReportsAnOutputItCannotWrite()
{
    if (!QFileInfo::exists(QStringLiteral("/dev/full")))
        QSKIP("no /dev/full on this system");
    for (const QStringList &arguments :
        { QStringList { QStringLiteral("query"), m_history }, QStringList { QStringLiteral("info"), m_history } }) {
        QProcess process;
        process.setStandardInputFile(QProcess::nullDevice());
        process.setStandardOutputFile(QStringLiteral("/dev/full"));
        process.start(QStringLiteral(MEMHIST_CLI_PATH), arguments);
        QVERIFY(process.waitForFinished(60000));
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(QString::fromUtf8(process.readAllStandardError()),
            QStringLiteral("memhist %1: cannot write the output: No space left on device\n").arg(arguments.first()));
        QCOMPARE(process.exitCode(), 1);
    }
}

// A history that lost an access row (what a damaged table b-tree does to a rowid range: the rows
// after a damaged cell vanish without an error from SQLite): the export of the whole history reads
// fewer rows than the writer recorded, and says so instead of writing a short file.
void TestOutputs::exportNoticesRowsItCouldNotRead()
{
    const QString damaged = path(QStringLiteral("lost-row.memhist"));
    QVERIFY(QFile::copy(m_history, damaged));
    {
        sqlite::Connection db;
        QVERIFY(db.open(damaged, sqlite::Connection::Mode::ReadWriteCreate));
        QVERIFY(db.execute("DELETE FROM accesses WHERE rowid = 7"));
    }
    const QString output = path(QStringLiteral("never-lost.csv"));
    const CliResult result = runCli({ QStringLiteral("export"), damaged, QStringLiteral("-o"), output,
        QStringLiteral("--ops"), QStringLiteral("rwx") });
    QCOMPARE(QString::fromUtf8(result.err),
        QStringLiteral("%1: not written: the history holds 20 accesses of these operations, but reading them gave 19; "
                       "the database is damaged: run 'memhist check %2'\n")
            .arg(output, damaged));
    QCOMPARE(result.exitCode, 1);
    QCOMPARE(result.out, QByteArray());
    QVERIFY(!QFileInfo::exists(output));

    // A part of the history is not checked against the whole: its rows are exported as read.
    const CliResult part = runCli({ QStringLiteral("export"), damaged, QStringLiteral("-o"), output,
        QStringLiteral("--ops"), QStringLiteral("rwx"), QStringLiteral("--at"), QStringLiteral("1") });
    QCOMPARE(part.err, QByteArray());
    QCOMPARE(part.exitCode, 0);
}

void TestOutputs::atSaysWhenATransitionIsPastTheEnd()
{
    QString error;
    const auto database = HistoryDatabase::open(m_history, &error);
    QVERIFY2(database, qPrintable(error));
    const std::optional<Transition> last = database->summary().lastTransition;
    QVERIFY(last);
    const CliResult past = runCli({ QStringLiteral("at"), m_history, QString::number(last->value + 1) });
    QCOMPARE(past.exitCode, 0);
    QVERIFY2(past.out.startsWith(QStringLiteral("transition:  %1 (after the history's last transition, %2)\n")
                                     .arg(last->value + 1)
                                     .arg(last->value)
                                     .toUtf8()),
        past.out.constData());
    QVERIFY(past.out.endsWith("accesses:    0\n"));
    const CliResult inside = runCli({ QStringLiteral("at"), m_history, QString::number(last->value) });
    QCOMPARE(inside.exitCode, 0);
    QVERIFY2(
        inside.out.startsWith(QStringLiteral("transition:  %1\n").arg(last->value).toUtf8()), inside.out.constData());
}

void TestOutputs::importWarnsOfAWindowPastTheEnd()
{
    const QString output = path(QStringLiteral("window.memhist"));
    const CliResult result = runCli({ QStringLiteral("import"), QFINDTESTDATA("data/lackey/true.tiny.lackey"),
        QStringLiteral("--skip-instructions"), QStringLiteral("999999999"), QStringLiteral("-o"), output });
    QCOMPARE(result.exitCode, 0);
    QCOMPARE(QString::fromUtf8(result.err),
        QStringLiteral("memhist import: warning: the window starts at transition 999999999, after the traces' last "
                       "transition (131067): the history is empty\n"));
    QVERIFY(result.out.startsWith("imported 0 accesses (0 reads, 0 writes, 0 executes; no transitions) into "));
}

QTEST_GUILESS_MAIN(TestOutputs)
#include "tst_outputs.moc"
