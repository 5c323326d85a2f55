// SPDX-License-Identifier: MIT
// `memhist diff` (issue 31) on a program of known behaviour (data/diff/diffpaths.c) recorded with
// two inputs that take different branches, and the same input three times: the first divergence
// is the branch in choose() and the runs meet again in choose() after its call; `counter`, written
// 50 and 51 times, is reported with both final values; the heap block allocated at another
// address in each run is matched as one object; runs of the same input report no difference once
// the baseline's nondeterminism is left out. Refusals and the memory-only mode are checked too.
#include "core/diff/rundiff.h"
#include "core/recorder/toolrecorder.h"
#include "core/recorder/valgrindprocess.h"
#include "core/storage/historydatabase.h"
#include "diffpathsruns.h"
#include "testsupport.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace memhist;
using namespace memhist::test;

namespace {

const QByteArray csvHeader
    = "kind,a_transition,a_last,b_transition,b_last,a_rowid,b_rowid,a_pc,b_pc,a_function,b_function,a_source,"
      "b_source,a_operation,b_operation,a_address,b_address,a_object,b_object,a_value,b_value,a_final,b_final,"
      "a_count,b_count,rank,branch_pc,branch_function,branch_source,resync_pc,resync_function,resync_source";

// One CSV line of the diff, by column name (no field of diffpaths' report holds a comma or quote).
using Row = QHash<QByteArray, QByteArray>;

QList<Row> rowsOf(const QByteArray &csv)
{
    QList<QByteArray> lines = csv.split('\n');
    if (lines.isEmpty() || lines.first() != csvHeader)
        return {};
    const QList<QByteArray> names = csvHeader.split(',');
    QList<Row> rows;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        if (lines[i].isEmpty())
            continue;
        const QList<QByteArray> cells = lines[i].split(',');
        Row row;
        for (qsizetype c = 0; c < names.size() && c < cells.size(); ++c)
            row.insert(names[c], cells[c]);
        row.insert("cells", QByteArray::number(cells.size()));
        rows << row;
    }
    return rows;
}

QList<Row> rowsOfKind(const QList<Row> &rows, const QByteArray &kind)
{
    QList<Row> found;
    for (const Row &row : rows)
        if (row.value("kind") == kind)
            found << row;
    return found;
}

} // namespace

class tst_Diff : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void everyRowHasEveryColumn();
    void firstDivergenceIsTheBranchInChoose();
    void counterWritten50And51Times();
    void sinkWrittenByEachSide();
    void heapBlockAtAnotherAddressIsOneObject();
    void identicalRunsReportNoDifference();
    void limitBoundsTheEntries();
    void resyncWindowBoundsTheSearch();
    void runCutShortEndsWithOneHunk();
    void memoryOnlyWithoutCodeTrace();
    void progressStopsTheComparison();
    void errors_data();
    void errors();

private:
    QString path(const QString &name) const { return m_runs.path(name); }
    QByteArray sourceAt(const QString &mark) const { return m_runs.sourceAt(mark); }

    QTemporaryDir m_dir;
    DiffPathsRuns m_runs;
    QList<Row> m_rows; // diff a b --baseline a2, as CSV
};

void tst_Diff::initTestCase()
{
    if (ValgrindProcess::findValgrind().isEmpty())
        QSKIP("valgrind is not installed");
    QString why;
    QVERIFY2(!ToolRecorder::toolDirectory(&why).isEmpty(), qPrintable(why));
    QVERIFY(m_dir.isValid());
    // diffpaths with inputs a (three times), b, and the same source optimised (another program:
    // another build-id, another name).
    QVERIFY2(m_runs.build(m_dir.path(), QFINDTESTDATA("data/diff/diffpaths.c"), &why), qPrintable(why));
    for (const auto &[program, input, history] : { std::tuple { "diffpaths", "a", "a.memhist" },
             { "diffpaths", "a", "a2.memhist" }, { "diffpaths", "a", "a3.memhist" }, { "diffpaths", "b", "b.memhist" },
             { "diffpaths-o1", "a", "o1.memhist" } })
        QVERIFY2(
            m_runs.record(QLatin1String(program), QLatin1String(input), QLatin1String(history), &why), qPrintable(why));

    const CliResult diff = runCli({ QStringLiteral("diff"), path(QStringLiteral("a.memhist")),
        path(QStringLiteral("b.memhist")), QStringLiteral("--baseline"), path(QStringLiteral("a2.memhist")),
        QStringLiteral("--format"), QStringLiteral("csv"), QStringLiteral("--limit"), QStringLiteral("1000") });
    QCOMPARE(diff.exitCode, 1);
    QCOMPARE(diff.err, QByteArray());
    m_rows = rowsOf(diff.out);
    QVERIFY(!m_rows.isEmpty());
}

void tst_Diff::everyRowHasEveryColumn()
{
    const QByteArray columns = QByteArray::number(csvHeader.count(',') + 1);
    for (const Row &row : std::as_const(m_rows)) {
        QCOMPARE(row.value("cells"), columns);
        QVERIFY2(QList<QByteArray>({ "control", "memory", "object" }).contains(row.value("kind")),
            row.value("kind").constData());
    }
    // In order of A's time: the rows' first A transition (or B's, for what A lacks) never decreases
    // among the hunks.
    qint64 previous = -1;
    for (const Row &row : std::as_const(m_rows)) {
        if (row.value("kind") == "object" || row.value("a_transition").isEmpty())
            continue;
        const qint64 transition = row.value("a_transition").toLongLong();
        QVERIFY2(transition >= previous, row.value("a_transition").constData());
        previous = transition;
    }
}

void tst_Diff::firstDivergenceIsTheBranchInChoose()
{
    const QList<Row> control = rowsOfKind(m_rows, "control");
    QVERIFY(!control.isEmpty());
    const Row &first = control.first();
    QVERIFY2(first.value("branch_function").startsWith("choose+0x"), first.value("branch_function").constData());
    QCOMPARE(first.value("branch_source"), sourceAt(QStringLiteral("branch")));
    // A (input a) calls left(), B right(); both come back to choose(), their caller, after the call.
    QCOMPARE(first.value("a_source"), sourceAt(QStringLiteral("left")));
    QCOMPARE(first.value("b_source"), sourceAt(QStringLiteral("right")));
    QVERIFY2(first.value("resync_function").startsWith("choose+0x"), first.value("resync_function").constData());
    QCOMPARE(first.value("resync_source"), sourceAt(QStringLiteral("resync")));
    // Both ran the same instructions up to the branch: the hunk starts at the same transition.
    QCOMPARE(first.value("a_transition"), first.value("b_transition"));
    QVERIFY(first.value("a_count").toULongLong() > 0);
    QVERIFY(first.value("b_count").toULongLong() > 0);
    QCOMPARE(first.value("a_last").toULongLong() - first.value("a_transition").toULongLong() + 1,
        first.value("a_count").toULongLong());

    // The second: the loop runs once more in B; A has nothing there.
    QVERIFY(control.size() >= 2);
    const Row &loop = control[1];
    QCOMPARE(loop.value("a_count"), QByteArray("0"));
    QCOMPARE(loop.value("a_transition"), QByteArray());
    QVERIFY(loop.value("b_count").toULongLong() > 0);
    QVERIFY2(loop.value("branch_function").startsWith("main+0x"), loop.value("branch_function").constData());
    QCOMPARE(loop.value("b_source"), sourceAt(QStringLiteral("counter")));
}

void tst_Diff::counterWritten50And51Times()
{
    QList<Row> counter;
    for (const Row &row : rowsOfKind(m_rows, "object"))
        if (row.value("a_object") == "counter")
            counter << row;
    QCOMPARE(counter.size(), 1);
    const Row &row = counter.first();
    QCOMPARE(row.value("b_object"), QByteArray("counter"));
    QCOMPARE(row.value("a_count"), QByteArray("50"));
    QCOMPARE(row.value("b_count"), QByteArray("51"));
    QCOMPARE(row.value("rank"), QByteArray("51"));
    // A has no 51st write; B's is 100 + 50, from the loop's line.
    QCOMPARE(row.value("a_rowid"), QByteArray());
    QCOMPARE(row.value("b_value"), QByteArray("9600000000000000"));
    QCOMPARE(row.value("b_source"), sourceAt(QStringLiteral("counter")));
    QCOMPARE(row.value("b_operation"), QByteArray("W"));
    QCOMPARE(row.value("a_final"), QByteArray("9500000000000000")); // 149
    QCOMPARE(row.value("b_final"), QByteArray("9600000000000000")); // 150
}

void tst_Diff::sinkWrittenByEachSide()
{
    QList<Row> sink;
    for (const Row &row : rowsOfKind(m_rows, "object"))
        if (row.value("a_object") == "sink")
            sink << row;
    QCOMPARE(sink.size(), 1);
    const Row &row = sink.first();
    QCOMPARE(row.value("a_count"), QByteArray("1"));
    QCOMPARE(row.value("b_count"), QByteArray("1"));
    QCOMPARE(row.value("rank"), QByteArray("1"));
    QCOMPARE(row.value("a_source"), sourceAt(QStringLiteral("sinkleft")));
    QCOMPARE(row.value("b_source"), sourceAt(QStringLiteral("sinkright")));
    QCOMPARE(row.value("a_address"), row.value("b_address"));
    QCOMPARE(row.value("a_final"), QByteArray("0100000000000000"));
    QCOMPARE(row.value("b_final"), QByteArray("ffffffffffffffff"));
}

void tst_Diff::heapBlockAtAnotherAddressIsOneObject()
{
    QList<Row> heap;
    for (const Row &row : rowsOfKind(m_rows, "object"))
        if (row.value("a_object").startsWith("[heap]"))
            heap << row;
    // first->a (7) and second->a (5) are the same in both runs at other addresses: not reported.
    QCOMPARE(heap.size(), 1);
    const Row &row = heap.first();
    QVERIFY2(
        row.value("a_object").startsWith("[heap] cell 1 first written by main+0x"), row.value("a_object").constData());
    QCOMPARE(row.value("b_object"), row.value("a_object"));
    QCOMPARE(row.value("a_source"), sourceAt(QStringLiteral("heap")));
    QCOMPARE(row.value("b_source"), sourceAt(QStringLiteral("heap")));
    QCOMPARE(row.value("a_count"), QByteArray("1"));
    QCOMPARE(row.value("b_count"), QByteArray("1"));
    QCOMPARE(row.value("a_final"), QByteArray("0800000000000000"));
    QCOMPARE(row.value("b_final"), QByteArray("0900000000000000"));
    // A allocated `first` first, B second: B's block is the next 32-byte chunk of glibc's heap.
    bool ok = false;
    const qulonglong a = row.value("a_address").toULongLong(&ok, 16);
    QVERIFY(ok);
    const qulonglong b = row.value("b_address").toULongLong(&ok, 16);
    QVERIFY(ok);
    QCOMPARE(b - a, 0x20ull);
}

void tst_Diff::identicalRunsReportNoDifference()
{
    const QString a = path(QStringLiteral("a.memhist"));
    const CliResult same = runCli({ QStringLiteral("diff"), a, a });
    QCOMPARE(same.exitCode, 0);
    QCOMPARE(same.err, QByteArray());
    QVERIFY2(same.out.startsWith("-- 0 control hunks, 0 memory hunks, 0 objects differ; "), same.out.constData());
    QCOMPARE(same.out.count('\n'), 1);

    // Two recordings of input a differ only by the nondeterminism of every run (the stack
    // protector's canary, rdtsc timings, the thread id): the same instructions, other values.
    const CliResult noisy = runCli({ QStringLiteral("diff"), a, path(QStringLiteral("a2.memhist")) });
    QCOMPARE(noisy.exitCode, 1);
    QVERIFY2(noisy.out.contains("\n-- 0 control hunks, "), noisy.out.constData());
    QVERIFY2(!noisy.out.contains("object   counter") && !noisy.out.contains("[heap]"), noisy.out.constData());

    // With a2 as the baseline, a third recording of input a does not differ.
    const CliResult quiet = runCli({ QStringLiteral("diff"), a, path(QStringLiteral("a3.memhist")),
        QStringLiteral("--baseline"), path(QStringLiteral("a2.memhist")) });
    QCOMPARE(quiet.exitCode, 0);
    QCOMPARE(quiet.err, QByteArray());
    QVERIFY2(quiet.out.startsWith("-- 0 control hunks, 0 memory hunks, 0 objects differ; "), quiet.out.constData());
    QVERIFY2(quiet.out.endsWith(" left out (the baseline has them too)\n"), quiet.out.constData());
    QCOMPARE(quiet.out.count('\n'), 1);
}

void tst_Diff::limitBoundsTheEntries()
{
    const CliResult csv = runCli({ QStringLiteral("diff"), path(QStringLiteral("a.memhist")),
        path(QStringLiteral("b.memhist")), QStringLiteral("--baseline"), path(QStringLiteral("a2.memhist")),
        QStringLiteral("--format"), QStringLiteral("csv"), QStringLiteral("--limit"), QStringLiteral("3") });
    QCOMPARE(csv.exitCode, 1);
    const QList<Row> rows = rowsOf(csv.out);
    QCOMPARE(rows.size(), 3);
    // The first three of the full report.
    for (int i = 0; i < 3; ++i)
        QCOMPARE(rows[i], m_rows[i]);

    const CliResult table = runCli({ QStringLiteral("diff"), path(QStringLiteral("a.memhist")),
        path(QStringLiteral("b.memhist")), QStringLiteral("--baseline"), path(QStringLiteral("a2.memhist")),
        QStringLiteral("--limit"), QStringLiteral("3") });
    QCOMPARE(table.exitCode, 1);
    QVERIFY2(table.out.contains("; 3 listed (--limit); "), table.out.constData());
}

void tst_Diff::resyncWindowBoundsTheSearch()
{
    // choose()'s two sides run 9 and 10 instructions before they meet: a window of 4 does not
    // reach that, so the first divergence ends the alignment and the rest is one hunk.
    QString error;
    const auto a = HistoryDatabase::open(path(QStringLiteral("a.memhist")), &error);
    QVERIFY2(a, qPrintable(error));
    const auto b = HistoryDatabase::open(path(QStringLiteral("b.memhist")), &error);
    QVERIFY2(b, qPrintable(error));
    const Row branch = rowsOfKind(m_rows, "control").first(); // a copy: the list is a temporary
    const std::uint64_t parted = branch.value("a_transition").toULongLong();

    DiffOptions options;
    options.limit = 1000;
    options.window = 4;
    DiffResult result;
    QVERIFY2(diffRuns(*a, *b, options, &result, &error), qPrintable(error));
    QCOMPARE(result.controlHunks, std::uint64_t(1));
    QCOMPARE(result.alignedInstructions, parted); // every instruction before it (the trace starts at 0)
    QCOMPARE(result.notes,
        QStringList { QStringLiteral("the runs did not meet again within 4 instructions of A's transition %1: not "
                                     "aligned after it")
                          .arg(parted) });
    QList<DiffEntry> control;
    for (const DiffEntry &entry : std::as_const(result.entries))
        if (entry.kind == DiffEntry::Kind::Control)
            control << entry;
    QCOMPARE(control.size(), 1);
    const ControlHunk &hunk = control.first().control;
    QVERIFY(!hunk.resyncFound);
    QVERIFY(!hunk.aResync && !hunk.bResync);
    QCOMPARE(hunk.aFirst.value, parted);
    QCOMPARE(hunk.aFirst.value + hunk.aCount, result.aInstructions);
    QCOMPARE(hunk.bFirst.value + hunk.bCount, result.bInstructions);
    // The objects are still compared: counter's 51st write in B.
    bool counter = false;
    for (const DiffEntry &entry : std::as_const(result.entries))
        if (entry.kind == DiffEntry::Kind::Object && entry.object.object == QLatin1String("counter")) {
            counter = true;
            QCOMPARE(entry.object.aWrites, std::uint64_t(50));
            QCOMPARE(entry.object.bWrites, std::uint64_t(51));
            QCOMPARE(entry.object.firstDifferingWrite, std::uint64_t(51));
        }
    QVERIFY(counter);
}

void tst_Diff::runCutShortEndsWithOneHunk()
{
    // The first 125,000 instructions of input a against the whole run: aligned up to the cut, then
    // one hunk holding the rest of B, placed at A's end in the report's order.
    const CliResult cut = runCli({ QStringLiteral("record"), QStringLiteral("-o"), path(QStringLiteral("cut.memhist")),
        QStringLiteral("--max-instructions"), QStringLiteral("125000"), QStringLiteral("--"),
        path(QStringLiteral("diffpaths")), QStringLiteral("a") });
    QVERIFY2(cut.exitCode == 0, cut.err.constData());
    const CliResult diff
        = runCli({ QStringLiteral("diff"), path(QStringLiteral("cut.memhist")), path(QStringLiteral("a.memhist")),
            QStringLiteral("--format"), QStringLiteral("csv"), QStringLiteral("--limit"), QStringLiteral("1000000") });
    QCOMPARE(diff.exitCode, 1);
    const QList<Row> rows = rowsOf(diff.out);
    const QList<Row> control = rowsOfKind(rows, "control");
    QCOMPARE(control.size(), 1);
    const Row &end = control.first();
    QCOMPARE(end.value("a_transition"), QByteArray());
    QCOMPARE(end.value("a_count"), QByteArray("0"));
    QCOMPARE(end.value("b_transition"), QByteArray("125000"));
    const CliResult whole
        = runCli({ QStringLiteral("diff"), path(QStringLiteral("a.memhist")), path(QStringLiteral("a.memhist")) });
    // "(A ran N, B N)": the whole run's instruction count.
    const QByteArray ran = whole.out.mid(whole.out.indexOf("(A ran ") + 7);
    const qulonglong instructions = ran.left(ran.indexOf(',')).toULongLong();
    QVERIFY(instructions > 125000);
    QCOMPARE(end.value("b_last").toULongLong(), instructions - 1);
    QCOMPARE(end.value("b_count").toULongLong(), instructions - 125000);
    // Every hunk before it is before the cut; the objects only B wrote after it follow it.
    const qsizetype at = rows.indexOf(end);
    for (qsizetype i = 0; i < at; ++i)
        QVERIFY(rows[i].value("a_transition").isEmpty() || rows[i].value("a_transition").toULongLong() < 125000);
    QVERIFY(at > 0);
    QVERIFY(at < rows.size() - 1);
    for (qsizetype i = at + 1; i < rows.size(); ++i)
        QVERIFY2(rows[i].value("a_transition").isEmpty() || rows[i].value("a_transition").toULongLong() >= 125000,
            rows[i].value("a_transition").constData());
}

void tst_Diff::memoryOnlyWithoutCodeTrace()
{
    // Histories imported from CSV exports have accesses but no code trace.
    for (const char *name : { "a", "a2", "b" }) {
        const QString csv = path(QString::fromLatin1(name) + QStringLiteral(".csv"));
        QVERIFY(runCli({ QStringLiteral("export"), path(QString::fromLatin1(name) + QStringLiteral(".memhist")),
                           QStringLiteral("-o"), csv })
                    .exitCode
            == 0);
        QVERIFY(runCli({ QStringLiteral("import"), csv, QStringLiteral("-o"),
                           path(QString::fromLatin1(name) + QStringLiteral("-plain.memhist")) })
                    .exitCode
            == 0);
    }
    const CliResult diff = runCli(
        { QStringLiteral("diff"), path(QStringLiteral("a-plain.memhist")), path(QStringLiteral("b-plain.memhist")),
            QStringLiteral("--format"), QStringLiteral("csv"), QStringLiteral("--limit"), QStringLiteral("1000000") });
    QCOMPARE(diff.exitCode, 1);
    QCOMPARE(diff.err,
        QByteArray("memhist diff: no code trace in either history: memory only, compared by transition (no "
                   "control flow, no alignment)\n"));
    const QList<Row> rows = rowsOf(diff.out);
    QVERIFY(!rows.isEmpty());
    QCOMPARE(rowsOfKind(rows, "control").size(), 0);
    QCOMPARE(rowsOfKind(rows, "memory").size(), 1); // the whole run is one stretch

    // A baseline without PCs can leave out objects only: no access difference is pinned to an
    // instruction, so the memory hunk stays (had PC 0 been learned from a2, where a read of
    // ld.so lands at another stack address, it would have gone). Without values
    // the objects differ only in their counts of writes, which a2 shares with a.
    const CliResult baseline = runCli({ QStringLiteral("diff"), path(QStringLiteral("a-plain.memhist")),
        path(QStringLiteral("b-plain.memhist")), QStringLiteral("--baseline"), path(QStringLiteral("a2-plain.memhist")),
        QStringLiteral("--format"), QStringLiteral("csv"), QStringLiteral("--limit"), QStringLiteral("1000000") });
    QCOMPARE(baseline.exitCode, 1);
    const QList<Row> kept = rowsOf(baseline.out);
    QCOMPARE(rowsOfKind(kept, "memory").size(), 1);
    QCOMPARE(rowsOfKind(kept, "object").size(), rowsOfKind(rows, "object").size());
}

void tst_Diff::progressStopsTheComparison()
{
    // The viewer's Compare With… shows progress and can be cancelled through DiffOptions::progress.
    QString error;
    const auto a = HistoryDatabase::open(path(QStringLiteral("a.memhist")), &error);
    QVERIFY2(a, qPrintable(error));
    const auto b = HistoryDatabase::open(path(QStringLiteral("b.memhist")), &error);
    QVERIFY2(b, qPrintable(error));
    DiffOptions plain;
    plain.limit = 1000;
    DiffResult expected;
    QVERIFY2(diffRuns(*a, *b, plain, &expected, &error), qPrintable(error));

    // Asked every 1,000 steps, going on each time: the same result as without it, with one call
    // per 1,000 instructions of A (and B's extra ones), at A's transitions 999, 1,999, ...
    QList<std::uint64_t> reached;
    DiffOptions watched = plain;
    watched.progressInterval = 1000;
    watched.progress = [&reached](Transition t) {
        reached << t.value;
        return true;
    };
    DiffResult result;
    QVERIFY2(diffRuns(*a, *b, watched, &result, &error), qPrintable(error));
    QCOMPARE(result.entries.size(), expected.entries.size());
    QCOMPARE(result.controlHunks, expected.controlHunks);
    QCOMPARE(result.memoryHunks, expected.memoryHunks);
    QCOMPARE(result.objects, expected.objects);
    QCOMPARE(result.alignedInstructions, expected.alignedInstructions);
    QVERIFY2(reached.size() >= qsizetype(result.aInstructions / 1000), qPrintable(QString::number(reached.size())));
    QCOMPARE(reached.first(), std::uint64_t(999));
    QCOMPARE(reached[1], std::uint64_t(1999));
    for (qsizetype i = 1; i < reached.size(); ++i)
        QVERIFY(reached[i] >= reached[i - 1]);

    // Stopped at the third call: no result, the error says it was cancelled, nothing walked after.
    int calls = 0;
    DiffOptions stopped = watched;
    stopped.progress = [&calls](Transition) { return ++calls < 3; };
    result = DiffResult {};
    QVERIFY(!diffRuns(*a, *b, stopped, &result, &error));
    QCOMPARE(error, QStringLiteral("the comparison was cancelled"));
    QCOMPARE(error, diffCancelledError);
    QCOMPARE(calls, 3);
    QCOMPARE(result.alignedInstructions, std::uint64_t(2999));
}

void tst_Diff::errors_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message"); // %1 the temporary folder

    QTest::newRow("different programs")
        << QStringList { QStringLiteral("%1/a.memhist"), QStringLiteral("%1/o1.memhist") }
        << QStringLiteral("memhist diff: %1/a.memhist recorded diffpaths (build-id *), %1/o1.memhist recorded "
                          "diffpaths-o1 (build-id *): runs of different programs are not compared\n");
    QTest::newRow("baseline of another program")
        << QStringList { QStringLiteral("%1/a.memhist"), QStringLiteral("%1/b.memhist"), QStringLiteral("--baseline"),
               QStringLiteral("%1/o1.memhist") }
        << QStringLiteral("memhist diff: --baseline: %1/a.memhist recorded diffpaths (build-id *), %1/o1.memhist "
                          "recorded diffpaths-o1 (build-id *): runs of different programs are not compared\n");
    QTest::newRow("missing B") << QStringList { QStringLiteral("%1/a.memhist") }
                               << QStringLiteral("memhist diff: missing the second history (B)\nTry 'memhist diff "
                                                 "--help' for more information.\n");
    QTest::newRow("limit 0") << QStringList { QStringLiteral("%1/a.memhist"), QStringLiteral("%1/b.memhist"),
        QStringLiteral("--limit"), QStringLiteral("0") }
                             << QStringLiteral("memhist diff: --limit: '0' is not between 1 and 1000000\nTry "
                                               "'memhist diff --help' for more information.\n");
    QTest::newRow("format xml") << QStringList { QStringLiteral("%1/a.memhist"), QStringLiteral("%1/b.memhist"),
        QStringLiteral("--format"), QStringLiteral("xml") }
                                << QStringLiteral("memhist diff: --format: 'xml' is not an output format (csv or "
                                                  "table)\nTry 'memhist diff --help' for more information.\n");
    QTest::newRow("no such B") << QStringList { QStringLiteral("%1/a.memhist"), QStringLiteral("%1/none.memhist") }
                               << QStringLiteral("%1/none.memhist: no such file\n");
}

void tst_Diff::errors()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    QStringList expanded { QStringLiteral("diff") };
    for (const QString &argument : std::as_const(arguments))
        expanded << QString(argument).replace(QStringLiteral("%1"), m_dir.path());
    const CliResult run = runCli(expanded);
    QCOMPARE(run.exitCode, 2);
    QCOMPARE(run.out, QByteArray());
    const QRegularExpression expected(
        QRegularExpression::wildcardToRegularExpression(QString(message).replace(QStringLiteral("%1"), m_dir.path()),
            QRegularExpression::UnanchoredWildcardConversion));
    QVERIFY2(QRegularExpression(
                 QStringLiteral("^(?:%1)$").arg(expected.pattern()), QRegularExpression::DotMatchesEverythingOption)
                 .match(QString::fromUtf8(run.err))
                 .hasMatch(),
        run.err.constData());
}

QTEST_GUILESS_MAIN(tst_Diff)
#include "tst_diff.moc"
