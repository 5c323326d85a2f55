// SPDX-License-Identifier: MIT
// Every command that writes a file, run by the real binary where the file cannot fit: on a full
// file system (a 256 KiB tmpfs, when the test may mount one: root) and beyond the file size limit
// (RLIMIT_FSIZE, `ulimit -f`, which memhist must survive: SIGXFSZ is not ignored for it here). Each
// must exit 1 naming the file and the system's reason, and leave the file at the output path as it
// was, with no temporary file beside it.
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <cerrno>
#include <cstring>
#include <sys/mount.h>
#include <sys/resource.h>

using namespace memhist::test;

namespace {

constexpr rlim_t smallSize = 256 * 1024;

QStringList entries(const QString &dir)
{
    return QDir(dir).entryList(
        QDir::Files | QDir::Hidden | QDir::System | QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
}

// A tmpfs of smallSize bytes mounted at `path` while the object lives.
class SmallFileSystem
{
public:
    explicit SmallFileSystem(const QString &path)
        : m_path(QFile::encodeName(path))
    {
        const QByteArray options = "size=" + QByteArray::number(quint64(smallSize));
        m_mounted = ::mount("tmpfs", m_path.constData(), "tmpfs", MS_NOSUID | MS_NODEV, options.constData()) == 0;
        if (!m_mounted)
            m_error = QString::fromLocal8Bit(std::strerror(errno));
    }
    ~SmallFileSystem()
    {
        if (m_mounted)
            ::umount2(m_path.constData(), MNT_DETACH);
    }
    bool isMounted() const { return m_mounted; }
    QString error() const { return m_error; }

private:
    QByteArray m_path;
    QString m_error;
    bool m_mounted = false;
};

// runCli(), with the file size limit set to `fileSizeLimit` bytes in the child when not zero.
CliResult runLimited(const QStringList &arguments, rlim_t fileSizeLimit)
{
    QProcess process;
    process.setStandardInputFile(QProcess::nullDevice());
    if (fileSizeLimit) {
        process.setChildProcessModifier([fileSizeLimit] {
            const rlimit limit { fileSizeLimit, fileSizeLimit };
            ::setrlimit(RLIMIT_FSIZE, &limit);
        });
    }
    process.start(QStringLiteral(MEMHIST_CLI_PATH), arguments);
    CliResult result;
    if (!process.waitForFinished(300'000)) {
        process.kill();
        process.waitForFinished();
        return result;
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    return result;
}

} // namespace

class TestDiskFull : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void writeFails_data();
    void writeFails();

private:
    QTemporaryDir m_dir;
    QString m_source; // a history to export
};

void TestDiskFull::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_source = m_dir.filePath(QStringLiteral("source.memhist"));
    const CliResult import = runCli(
        { QStringLiteral("import"), QFINDTESTDATA("data/lackey/true.tiny.lackey.gz"), QStringLiteral("-o"), m_source });
    QVERIFY2(import.exitCode == 0, import.err.constData());
}

void TestDiskFull::writeFails_data()
{
    QTest::addColumn<QString>("command");
    QTest::addColumn<bool>("fullFileSystem"); // else the file size limit
    QTest::addColumn<QString>("output"); // the file that cannot fit, in the small directory
    QTest::addColumn<QString>("message"); // stderr; SMALL stands for the small directory

    const QString noSpace = QStringLiteral("No space left on device");
    const QString tooLarge = QStringLiteral("File too large");
    for (const bool full : { true, false }) {
        const QString reason = full ? noSpace : tooLarge;
        const char *where = full ? "on a full file system" : "beyond the file size limit";
        QTest::addRow("import %s", where) << QStringLiteral("import") << full << QStringLiteral("out.memhist")
                                          << QStringLiteral("SMALL/out.memhist: cannot write: %1\n").arg(reason);
        QTest::addRow("export %s", where) << QStringLiteral("export") << full << QStringLiteral("out.csv")
                                          << QStringLiteral("SMALL/out.csv: write failed: %1\n").arg(reason);
        QTest::addRow("record --keep-log %s", where)
            << QStringLiteral("record") << full << QStringLiteral("kept.lackey")
            << QStringLiteral("memhist record: SMALL/kept.lackey: cannot write: %1\n").arg(reason);
    }
}

void TestDiskFull::writeFails()
{
    QFETCH(QString, command);
    QFETCH(bool, fullFileSystem);
    QFETCH(QString, output);
    QFETCH(QString, message);
    if (command == QLatin1String("record") && QStandardPaths::findExecutable(QStringLiteral("valgrind")).isEmpty())
        QSKIP("valgrind is not installed");

    QTemporaryDir dir;
    const QString small = dir.filePath(QStringLiteral("small"));
    QVERIFY(QDir().mkpath(small));
    std::optional<SmallFileSystem> fileSystem;
    if (fullFileSystem) {
        fileSystem.emplace(small);
        if (!fileSystem->isMounted())
            QSKIP(qPrintable(QStringLiteral("cannot mount a tmpfs here: ") + fileSystem->error()));
    }
    const QString target = small + u'/' + output;
    {
        QFile previous(target);
        QVERIFY(previous.open(QIODevice::WriteOnly));
        QCOMPARE(previous.write("previous"), 8);
    }

    QStringList arguments;
    const QString history = dir.filePath(QStringLiteral("recorded.memhist"));
    if (command == QLatin1String("import"))
        arguments = { command, QFINDTESTDATA("data/lackey/true.tiny.lackey.gz"), QStringLiteral("-o"), target };
    else if (command == QLatin1String("export"))
        arguments = { command, m_source, QStringLiteral("-o"), target, QStringLiteral("--ops"), QStringLiteral("rwx") };
    else
        arguments = { command, QStringLiteral("-o"), history, QStringLiteral("--backend"), QStringLiteral("lackey"),
            QStringLiteral("--keep-log"), target, QStringLiteral("--"), QStringLiteral("/bin/echo"),
            QStringLiteral("hi") };
    const CliResult result = runLimited(arguments, fullFileSystem ? 0 : smallSize);

    QCOMPARE(result.exitCode, 1);
    QCOMPARE(QString::fromUtf8(result.err), QString(message).replace(QStringLiteral("SMALL"), small));
    QCOMPARE(entries(small), QStringList { output });
    QCOMPARE(readFile(target), QByteArray("previous"));
    QCOMPARE(entries(dir.path()), QStringList { QStringLiteral("small") }); // no history recorded either
}

QTEST_GUILESS_MAIN(TestDiskFull)
#include "tst_diskfull.moc"
