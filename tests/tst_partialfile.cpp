// SPDX-License-Identifier: MIT
// PartialFile (core/writer/partialfile.h), the temporary file beside a target that histories, CSV
// exports and kept logs are written to: its name carries the writer's PID; a later writer removes
// the temporaries of processes that no longer exist and nothing else; commit() renames it into
// place, discard() and the signal handlers' removeAllNow() leave the target as it was; and, seen
// from outside through strace, the real binary syncs the file, renames it, then syncs the directory.
#include "core/writer/partialfile.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <sys/stat.h>
#include <unistd.h>

using namespace memhist;
using namespace memhist::test;

namespace {

QStringList entries(const QString &dir)
{
    return QDir(dir).entryList(QDir::Files | QDir::Hidden, QDir::Name);
}

void writeFile(const QString &path, const QByteArray &content)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(file.write(content), content.size());
}

// The PID of a process that has run and been reaped: no process has it now.
qint64 deadPid()
{
    QProcess process;
    process.start(QStringLiteral("/bin/true"), {});
    if (!process.waitForStarted())
        return 0;
    const qint64 pid = process.processId();
    process.waitForFinished();
    return pid;
}

} // namespace

class TestPartialFile : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void writesUnderATemporaryNameThenCommits();
    void targetsUnderDevAndProcAreWhatTheyAre();
    void discardLeavesTheTargetAsItWas();
    void createFailsWithTheSystemReason();
    void staleTemporaries_data();
    void staleTemporaries();
    void removeAllNowRemovesOnlyUnfinishedFiles();
    void commitSyncsRenamesThenSyncsTheDirectory_data();
    void commitSyncsRenamesThenSyncsTheDirectory();

private:
    qint64 m_deadPid = 0;
};

void TestPartialFile::initTestCase()
{
    m_deadPid = deadPid();
    QVERIFY(m_deadPid > 0);
}

void TestPartialFile::writesUnderATemporaryNameThenCommits()
{
    QTemporaryDir dir;
    const QString target = dir.filePath(QStringLiteral("out.csv"));
    writeFile(target, "previous\n");
    {
        PartialFile file(target);
        QVERIFY(file.create());
        const QRegularExpression name(QStringLiteral("^out\\.csv\\.%1\\.[A-Za-z0-9]{6}\\.partial$").arg(::getpid()));
        QCOMPARE(QFileInfo(file.temporaryPath()).absolutePath(), QFileInfo(target).absolutePath());
        QVERIFY2(name.match(QFileInfo(file.temporaryPath()).fileName()).hasMatch(), qPrintable(file.temporaryPath()));
        QVERIFY(file.write("new "));
        QVERIFY(file.write("content\n"));
        // Until the commit, the target keeps its previous content.
        QCOMPARE(readFile(target), QByteArray("previous\n"));
        QCOMPARE(entries(dir.path()).size(), 2);
        QVERIFY(file.commit());
        QVERIFY(file.errorString().isEmpty());
    }
    QCOMPARE(entries(dir.path()), QStringList { QStringLiteral("out.csv") });
    QCOMPARE(readFile(target), QByteArray("new content\n"));
    // The mode of any new file (0666 less the umask), not a temporary file's 0600.
    const mode_t mask = ::umask(0);
    ::umask(mask);
    struct stat status
    {
    };
    QCOMPARE(::stat(QFile::encodeName(target).constData(), &status), 0);
    QCOMPARE(status.st_mode & 0777, 0666 & ~mask);
}

// /dev/shm holds ordinary files (a history may be written there, as the fuzz targets do); only a
// process's descriptor (/dev/stdout, /dev/fd/N, /proc/PID/fd/N) is a stream written in place. A
// rule on the /dev prefix alone refused /dev/shm as "not a regular file".
void TestPartialFile::targetsUnderDevAndProcAreWhatTheyAre()
{
    if (!QFileInfo(QStringLiteral("/dev/shm")).isDir())
        QSKIP("no /dev/shm on this system");
    QTemporaryDir shm(QStringLiteral("/dev/shm/memhist-partialfile-XXXXXX"));
    QVERIFY(shm.isValid());
    const QString target = shm.filePath(QStringLiteral("history.memhist"));
    {
        PartialFile file(target);
        QVERIFY2(file.create(), qPrintable(file.errorString()));
        QVERIFY(!file.writesDirectly());
        QVERIFY(file.temporaryPath() != target);
        QVERIFY(file.write("complete"));
        QVERIFY(file.commit());
    }
    QCOMPARE(readFile(target), QByteArray("complete"));

    // A descriptor whose open file is a regular file is still written in place, appended to.
    QTemporaryDir dir;
    const QString redirected = dir.filePath(QStringLiteral("redirected.csv"));
    writeFile(redirected, "before\n");
    QFile open(redirected);
    QVERIFY(open.open(QIODevice::ReadWrite));
    const QString descriptor = QStringLiteral("/proc/self/fd/%1").arg(open.handle());
    {
        PartialFile file(descriptor, PartialFile::Target::RegularFileOrStream);
        QVERIFY2(file.create(), qPrintable(file.errorString()));
        QVERIFY(file.writesDirectly());
        QVERIFY(file.write("after\n"));
        QVERIFY(file.commit());
    }
    QCOMPARE(readFile(redirected), QByteArray("before\nafter\n"));
    QCOMPARE(entries(dir.path()), QStringList { QStringLiteral("redirected.csv") });
    // The same descriptor as a history's target is refused: SQLite needs a file of its own.
    PartialFile history(descriptor);
    QVERIFY(!history.create());
    QCOMPARE(
        history.errorString(), QStringLiteral("cannot write to it: not a regular file (an SQLite database needs one)"));
    QCOMPARE(readFile(redirected), QByteArray("before\nafter\n"));
}

void TestPartialFile::discardLeavesTheTargetAsItWas()
{
    QTemporaryDir dir;
    const QString target = dir.filePath(QStringLiteral("out.memhist"));
    writeFile(target, "previous");
    {
        PartialFile discarded(target);
        QVERIFY(discarded.create());
        QVERIFY(discarded.write("half"));
        discarded.discard();
        QCOMPARE(entries(dir.path()), QStringList { QStringLiteral("out.memhist") });
        PartialFile destroyed(target);
        QVERIFY(destroyed.create());
        QVERIFY(destroyed.write("half"));
        // Destroyed without commit(): the same as discard().
    }
    QCOMPARE(entries(dir.path()), QStringList { QStringLiteral("out.memhist") });
    QCOMPARE(readFile(target), QByteArray("previous"));
}

void TestPartialFile::createFailsWithTheSystemReason()
{
    QTemporaryDir dir;
    PartialFile missing(dir.filePath(QStringLiteral("no/such/dir/out.csv")));
    QVERIFY(!missing.create());
    QCOMPARE(missing.errorString(),
        QStringLiteral("cannot create a file in %1: No such file or directory")
            .arg(dir.filePath(QStringLiteral("no/such/dir"))));
    QCOMPARE(missing.reason(), QStringLiteral("No such file or directory"));
    PartialFile directory(dir.path());
    QVERIFY(!directory.create());
    QCOMPARE(directory.reason(), QStringLiteral("Is a directory"));
    QVERIFY(entries(dir.path()).isEmpty());
}

void TestPartialFile::staleTemporaries_data()
{
    QTest::addColumn<QString>("name"); // DEAD: a PID no process has; SELF: this process's; LIVE: init's
    QTest::addColumn<bool>("removed");

    QTest::newRow("a dead writer's temporary is removed") << QStringLiteral("out.memhist.DEAD.aB3dE9.partial") << true;
    QTest::newRow("a live writer's temporary is kept") << QStringLiteral("out.memhist.LIVE.aB3dE9.partial") << false;
    QTest::newRow("this process's temporary is kept") << QStringLiteral("out.memhist.SELF.aB3dE9.partial") << false;
    QTest::newRow("an older name without a PID is kept") << QStringLiteral("out.memhist.aB3dE9.partial") << false;
    QTest::newRow("another target's temporary is kept") << QStringLiteral("other.memhist.DEAD.aB3dE9.partial") << false;
    QTest::newRow("a longer target's temporary is kept")
        << QStringLiteral("out.memhist.x.DEAD.aB3dE9.partial") << false;
    QTest::newRow("PID 0 is kept") << QStringLiteral("out.memhist.0.aB3dE9.partial") << false;
    QTest::newRow("a PID with a leading zero is kept") << QStringLiteral("out.memhist.0DEAD.aB3dE9.partial") << false;
    QTest::newRow("a PID beyond pid_t is kept") << QStringLiteral("out.memhist.99999999999.aB3dE9.partial") << false;
    QTest::newRow("not a number is kept") << QStringLiteral("out.memhist.12x.aB3dE9.partial") << false;
    QTest::newRow("a shorter random part is kept") << QStringLiteral("out.memhist.DEAD.aB3d.partial") << false;
    QTest::newRow("another suffix is kept") << QStringLiteral("out.memhist.DEAD.aB3dE9.part") << false;
}

void TestPartialFile::staleTemporaries()
{
    QFETCH(QString, name);
    QFETCH(bool, removed);
    name.replace(QStringLiteral("DEAD"), QString::number(m_deadPid))
        .replace(QStringLiteral("SELF"), QString::number(::getpid()))
        .replace(QStringLiteral("LIVE"), QStringLiteral("1"));

    QTemporaryDir dir;
    const QString target = dir.filePath(QStringLiteral("out.memhist"));
    writeFile(dir.filePath(name), "left behind");
    writeFile(target, "previous");
    QCOMPARE(PartialFile::removeStaleTemporaries(target), removed ? QStringList { dir.filePath(name) } : QStringList());
    QCOMPARE(QFile::exists(dir.filePath(name)), !removed);

    // create() does the same before creating its own.
    writeFile(dir.filePath(name), "left behind");
    PartialFile file(target);
    QVERIFY(file.create());
    QCOMPARE(QFile::exists(dir.filePath(name)), !removed);
    QVERIFY(QFile::exists(file.temporaryPath()));
    QCOMPARE(readFile(target), QByteArray("previous"));
}

void TestPartialFile::removeAllNowRemovesOnlyUnfinishedFiles()
{
    QTemporaryDir dir;
    const QString committedTarget = dir.filePath(QStringLiteral("committed.csv"));
    PartialFile committed(committedTarget);
    PartialFile unfinished(dir.filePath(QStringLiteral("unfinished.memhist")));
    PartialFile discarded(dir.filePath(QStringLiteral("discarded.memhist")));
    QVERIFY(committed.create());
    QVERIFY(unfinished.create());
    QVERIFY(discarded.create());
    QVERIFY(committed.write("done"));
    QVERIFY(committed.commit());
    discarded.discard();
    QCOMPARE(entries(dir.path()),
        (QStringList { QStringLiteral("committed.csv"), QFileInfo(unfinished.temporaryPath()).fileName() }));

    QCOMPARE(PartialFile::removeAllNow(), 1);
    QCOMPARE(entries(dir.path()), QStringList { QStringLiteral("committed.csv") });
    QCOMPARE(readFile(committedTarget), QByteArray("done"));
    QCOMPARE(PartialFile::removeAllNow(), 0);
}

void TestPartialFile::commitSyncsRenamesThenSyncsTheDirectory_data()
{
    QTest::addColumn<QStringList>("arguments"); // SOURCE: a history; OUT: the output
    QTest::addColumn<QString>("output");

    QTest::newRow("import") << QStringList { QStringLiteral("import"), QFINDTESTDATA("data/tenet/boombox.trace.0.log"),
        QStringLiteral("-o"), QStringLiteral("OUT") }
                            << QStringLiteral("out.memhist");
    QTest::newRow("export") << QStringList { QStringLiteral("export"), QStringLiteral("SOURCE"), QStringLiteral("-o"),
        QStringLiteral("OUT") }
                            << QStringLiteral("out.csv");
}

void TestPartialFile::commitSyncsRenamesThenSyncsTheDirectory()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, output);
    const QString strace = QStandardPaths::findExecutable(QStringLiteral("strace"));
    if (strace.isEmpty())
        QSKIP("strace is not installed");

    QTemporaryDir dir;
    const QString directory = QDir(dir.path()).canonicalPath();
    const QString source = directory + QStringLiteral("/source.memhist");
    QVERIFY(runCli({ QStringLiteral("import"), QFINDTESTDATA("data/tenet/boombox.trace.0.log"), QStringLiteral("-o"),
                       source })
                .exitCode
        == 0);
    const QString target = directory + u'/' + output;
    for (QString &argument : arguments)
        argument = argument == QLatin1String("OUT") ? target : argument == QLatin1String("SOURCE") ? source : argument;

    // -y names each descriptor's file, so the calls can be matched to the files they touched.
    const QString log = directory + QStringLiteral("/strace.log");
    QProcess process;
    process.start(strace,
        QStringList { QStringLiteral("-f"), QStringLiteral("-y"), QStringLiteral("-qq"), QStringLiteral("-o"), log,
            QStringLiteral("-e"), QStringLiteral("trace=fsync,fdatasync,sync_file_range,rename,renameat,renameat2"),
            QStringLiteral(MEMHIST_CLI_PATH) }
            + arguments);
    QVERIFY(process.waitForFinished(120'000));
    const QByteArray err = process.readAllStandardError();
    if (process.exitCode() != 0 && err.contains("ptrace"))
        QSKIP("strace may not trace here (ptrace not permitted)");
    QVERIFY2(process.exitCode() == 0, err.constData());

    // Every call traced, in order, without the PID strace puts first: the temporary file synced,
    // renamed over the target, then the directory synced, and nothing else.
    QStringList calls = QString::fromUtf8(readFile(log)).split(u'\n', Qt::SkipEmptyParts);
    for (QString &call : calls)
        call = call.remove(QRegularExpression(QStringLiteral("^\\d+\\s+"))).simplified();
    QCOMPARE(calls.size(), 3);
    const QRegularExpression expected[] = {
        QRegularExpression(QStringLiteral("^fsync\\(\\d+<(%1\\.\\d+\\.[A-Za-z0-9]{6}\\.partial)>\\) = 0$")
                               .arg(QRegularExpression::escape(target))),
        QRegularExpression(
            QStringLiteral("^rename\\(\"(.*)\", \"%1\"\\) = 0$").arg(QRegularExpression::escape(target))),
        QRegularExpression(QStringLiteral("^fsync\\(\\d+<%1>\\) = 0$").arg(QRegularExpression::escape(directory))),
    };
    QStringList matched;
    for (int i = 0; i < 3; ++i) {
        const QRegularExpressionMatch match = expected[i].match(calls[i]);
        QVERIFY2(match.hasMatch(), qPrintable(calls[i]));
        matched << match.captured(1);
    }
    QCOMPARE(matched[1], matched[0]); // the file renamed is the file synced
    QCOMPARE(
        entries(directory), (QStringList { output, QStringLiteral("source.memhist"), QStringLiteral("strace.log") }));
}

QTEST_GUILESS_MAIN(TestPartialFile)
#include "tst_partialfile.moc"
