// SPDX-License-Identifier: MIT
// `memhist record` (app/memhist/recordcommand.cpp, core/recorder/lackeyrecorder.h) driven through
// the real binary: recordings of tiny real programs under valgrind, proven complete by the checker
// and equal, row for row, to an import of the Lackey log kept beside them; the program's output and
// exit status; Ctrl-C; and every way a recording cannot start. Skipped when valgrind is missing.
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <csignal>

using namespace memhist::test;

namespace { } // namespace

class TestRecord : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void keptLogImportsTheSameHistory_data();
    void keptLogImportsTheSameHistory();
    void programExitStatusIsReported();
    void interruptKeepsACompleteDatabase();
    void cannotRecord_data();
    void cannotRecord();

private:
    QTemporaryDir m_dir;
};

void TestRecord::initTestCase()
{
    if (QStandardPaths::findExecutable(QStringLiteral("valgrind")).isEmpty())
        QSKIP("valgrind is not installed");
    QVERIFY(m_dir.isValid());
}

void TestRecord::keptLogImportsTheSameHistory_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QByteArray>("programOutput");
    QTest::addColumn<QString>("outcome");

    QTest::newRow("echo hi, to its end") << QStringList() << QByteArray("hi\n")
                                         << QStringLiteral("memhist record: program exited with status 0;");
    // Stopped long before echo writes anything.
    QTest::newRow("with-exec, stopped by --max-instructions")
        << QStringList { QStringLiteral("--with-exec"), QStringLiteral("--max-instructions"), QStringLiteral("20000") }
        << QByteArray()
        << QStringLiteral("memhist record: stopped the program after 20000 instructions (--max-instructions); "
                          "recorded 20000 instructions,");
}

void TestRecord::keptLogImportsTheSameHistory()
{
    QFETCH(QStringList, options);
    QFETCH(QByteArray, programOutput);
    QFETCH(QString, outcome);

    const QString recorded = m_dir.filePath(QStringLiteral("recorded.memhist"));
    const QString log = m_dir.filePath(QStringLiteral("kept.lackey"));
    const QString imported = m_dir.filePath(QStringLiteral("imported.memhist"));
    const CliResult record
        = runCli(QStringList { QStringLiteral("record"), QStringLiteral("-o"), recorded, QStringLiteral("--backend"),
                     QStringLiteral("lackey"), QStringLiteral("--keep-log"), log }
            + options + QStringList { QStringLiteral("--"), QStringLiteral("/bin/echo"), QStringLiteral("hi") });
    QVERIFY2(record.exitCode == 0, record.err.constData());
    // The program's stdout is memhist's; memhist's own words go to stderr.
    QCOMPARE(record.out, programOutput);
    QVERIFY2(QString::fromUtf8(record.err).contains(outcome), record.err.constData());

    const CliResult check = runCli({ QStringLiteral("check"), recorded });
    QVERIFY2(check.exitCode == 0, check.err.constData());
    QVERIFY(check.out.startsWith("OK: "));

    QStringList importArguments { QStringLiteral("import"), log, QStringLiteral("-o"), imported };
    if (options.contains(QStringLiteral("--with-exec")))
        importArguments << QStringLiteral("--with-exec");
    const CliResult import = runCli(importArguments);
    QVERIFY2(import.exitCode == 0, import.err.constData());

    const QString recordedCsv = m_dir.filePath(QStringLiteral("recorded.csv"));
    const QString importedCsv = m_dir.filePath(QStringLiteral("imported.csv"));
    QCOMPARE(runCli({ QStringLiteral("export"), recorded, QStringLiteral("-o"), recordedCsv, QStringLiteral("--ops"),
                        QStringLiteral("rwx") })
                 .exitCode,
        0);
    QCOMPARE(runCli({ QStringLiteral("export"), imported, QStringLiteral("-o"), importedCsv, QStringLiteral("--ops"),
                        QStringLiteral("rwx") })
                 .exitCode,
        0);
    const QByteArray expected = readFile(importedCsv);
    QVERIFY(expected.count('\n') > 1000);
    QVERIFY(readFile(recordedCsv) == expected);
}

void TestRecord::programExitStatusIsReported()
{
    const QString output = m_dir.filePath(QStringLiteral("status.memhist"));
    const CliResult record = runCli({ QStringLiteral("record"), QStringLiteral("-o"), output, QStringLiteral("--"),
        QStringLiteral("/bin/sh"), QStringLiteral("-c"), QStringLiteral("echo oops >&2; exit 3") });
    // memhist's status says whether the recording worked; the program's is in the message.
    QCOMPARE(record.exitCode, 0);
    QVERIFY2(record.err.startsWith("oops\n"), record.err.constData());
    QVERIFY2(record.err.contains("\nmemhist record: program exited with status 3; recorded "), record.err.constData());
    QVERIFY(QFile::exists(output));
}

void TestRecord::interruptKeepsACompleteDatabase()
{
    const QString output = m_dir.filePath(QStringLiteral("interrupted.memhist"));
    QProcess process;
    // The shell says when it runs (under valgrind, its first few hundred thousand instructions
    // recorded), then waits on its standard input, which stays open.
    process.start(QStringLiteral(MEMHIST_CLI_PATH),
        { QStringLiteral("record"), QStringLiteral("-o"), output, QStringLiteral("--"), QStringLiteral("/bin/sh"),
            QStringLiteral("-c"), QStringLiteral("echo started; read line") });
    QVERIFY(process.waitForStarted());
    while (!process.canReadLine())
        QVERIFY(process.waitForReadyRead(120'000));
    QCOMPARE(process.readLine(), QByteArray("started\n"));
    ::kill(pid_t(process.processId()), SIGINT);
    QVERIFY(process.waitForFinished(60'000));
    const QByteArray err = process.readAllStandardError();
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QVERIFY2(process.exitCode() == 0, err.constData());
    QVERIFY2(err.contains("memhist record: interrupted: stopped the program after "), err.constData());
    const CliResult check = runCli({ QStringLiteral("check"), output });
    QVERIFY2(check.exitCode == 0, check.err.constData());
}

void TestRecord::cannotRecord_data()
{
    QTest::addColumn<QStringList>("arguments"); // after "record -o OUT"
    QTest::addColumn<QString>("path"); // PATH for memhist; empty: the test's own
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("expected"); // the end of stderr; DIR stands for the temporary directory

    QTest::newRow("valgrind not found")
        << QStringList { QStringLiteral("--"), QStringLiteral("/bin/true") } << QStringLiteral("/nonexistent") << 1
        << QStringLiteral("memhist record: valgrind not found (install Debian's valgrind package)\n");
    QTest::newRow("no such program") << QStringList { QStringLiteral("--"), QStringLiteral("DIR/missing") } << QString()
                                     << 1 << QStringLiteral("memhist record: DIR/missing: No such file or directory\n");
    QTest::newRow("command not on PATH") << QStringList {
        QStringLiteral("--"), QStringLiteral("memhist-no-such-command")
    } << QString() << 1 << QStringLiteral("memhist record: memhist-no-such-command: command not found\n");
    QTest::newRow("valgrind cannot start it")
        << QStringList { QStringLiteral("--"), QStringLiteral("DIR/badinterp") } << QString() << 1
        << QStringLiteral("valgrind: DIR/badinterp: bad interpreter: No such file or directory\n"
                          "memhist record: valgrind could not run DIR/badinterp (valgrind exited with status 126 "
                          "before the first instruction)\n");
    QTest::newRow("missing program") << QStringList { QStringLiteral("--") } << QString() << 2
                                     << QStringLiteral("memhist record: missing the program to record (-- PROGRAM "
                                                       "[ARGS...])\nTry 'memhist record --help' for more "
                                                       "information.\n");
    QTest::newRow("bad --max-instructions")
        << QStringList { QStringLiteral("--max-instructions"), QStringLiteral("0"), QStringLiteral("--"),
               QStringLiteral("/bin/true") }
        << QString() << 2
        << QStringLiteral("memhist record: --max-instructions: '0' is not a number of instructions (at least "
                          "1)\nTry 'memhist record --help' for more information.\n");
    const QString tryHelp = QStringLiteral("\nTry 'memhist record --help' for more information.\n");
    QTest::newRow("unknown backend") << QStringList { QStringLiteral("--backend"), QStringLiteral("pin"),
        QStringLiteral("--"), QStringLiteral("/bin/true") }
                                     << QString() << 2
                                     << QStringLiteral("memhist record: --backend: 'pin' is not a backend (tool or "
                                                       "lackey)")
            + tryHelp;
    QTest::newRow("a Lackey log from the tool")
        << QStringList { QStringLiteral("--keep-log"), QStringLiteral("DIR/x.log"), QStringLiteral("--"),
               QStringLiteral("/bin/true") }
        << QString() << 2
        << QStringLiteral("memhist record: --keep-log keeps a Lackey log: with the tool, use --keep-stream") + tryHelp;
    QTest::newRow("--start-at with Lackey")
        << QStringList { QStringLiteral("--backend"), QStringLiteral("lackey"), QStringLiteral("--start-at"),
               QStringLiteral("main"), QStringLiteral("--"), QStringLiteral("/bin/true") }
        << QString() << 2
        << QStringLiteral("memhist record: --start-at needs the tool backend, not --backend lackey") + tryHelp;
    QTest::newRow("bad --skip-instructions")
        << QStringList { QStringLiteral("--skip-instructions"), QStringLiteral("x"), QStringLiteral("--"),
               QStringLiteral("/bin/true") }
        << QString() << 2
        << QStringLiteral("memhist record: --skip-instructions: 'x' is not a number of instructions") + tryHelp;
}

void TestRecord::cannotRecord()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, path);
    QFETCH(int, exitCode);
    QFETCH(QString, expected);

    const QString script = m_dir.filePath(QStringLiteral("badinterp"));
    QFile file(script);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write("#!/nonexistent/interpreter\n");
    file.close();
    QVERIFY(file.setPermissions(file.permissions() | QFileDevice::ExeOwner));

    const QString output = m_dir.filePath(QStringLiteral("failed.memhist"));
    for (QString &argument : arguments)
        argument.replace(QStringLiteral("DIR"), m_dir.path());
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    if (!path.isEmpty())
        environment.insert(QStringLiteral("PATH"), path);
    const CliResult result
        = runCli(QStringList { QStringLiteral("record"), QStringLiteral("-o"), output } + arguments, environment);
    QCOMPARE(result.exitCode, exitCode);
    QCOMPARE(QString::fromUtf8(result.err), expected.replace(QStringLiteral("DIR"), m_dir.path()));
    QVERIFY(!QFile::exists(output));
    QVERIFY(QDir(m_dir.path()).entryList({ QStringLiteral("failed.memhist*") }, QDir::Files | QDir::Hidden).isEmpty());
}

QTEST_GUILESS_MAIN(TestRecord)
#include "tst_record.moc"
