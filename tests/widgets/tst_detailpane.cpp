// SPDX-License-Identifier: MIT
// The detail pane of the selected access: on counter.c compiled here (a global written in bump at a
// marked line), its access line, value, instruction among its neighbours, source excerpt and
// address; the marked lines' columns where the others' are; the file missing from disk; a history without context; a
// history with threads; the query panel's selection driving it; a narrow pane breaking its lines
// between tokens only, and copying the text as written.
#include "core/context/contextreader.h"
#include "core/model/numbertext.h"
#include "core/storage/historydatabase.h"
#include "core/writer/historywriter.h"
#include "programhistory.h"
#include "testsupport.h"
#include "toolchain.h"
#include "widgets/detail/detailpane.h"
#include "widgets/query/querypanel.h"
#include "widgets/query/resultsmodel.h"

#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QMimeData>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextLayout>
#include <QTextTable>

using namespace memhist;
using namespace memhist::test;

namespace {

constexpr std::uint64_t pieBias = 0x555555554000;

QString hex(std::uint64_t value)
{
    return QStringLiteral("0x") + QString::number(value, 16);
}

} // namespace

class TestDetailPane : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void writeOfAGlobal();
    void sourceFileNotOnThisMachine();
    void markedLinesLineUpWithTheOthers();
    void historyWithoutContext();
    void countsAreGroupedAsOnTheStatusLine();
    void historyWithThreads();
    void selectionInTheResultsDrivesIt();
    void aNarrowPaneBreaksOnlyBetweenTokens();

private:
    // Shows `access` of `history` in a new pane and returns its text.
    QString shown(const QString &history, const Access &access);
    Access counterWrite(int index) const;

    QTemporaryDir m_dir;
    QString m_source;
    QString m_program;
    QString m_history;
    CounterHistory m_counter;
};

void TestDetailPane::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_source = m_dir.filePath(QStringLiteral("counter.c"));
    QVERIFY(QFile::copy(QFINDTESTDATA("../data/programs/counter.c"), m_source));
    QVERIFY(runStep(QStringLiteral("gcc"), { "-g", "-O0", "-o", "counter", "counter.c" }, m_dir.path()));
    m_program = m_dir.filePath(QStringLiteral("counter"));
    m_history = m_dir.filePath(QStringLiteral("counter.memhist"));
    QVERIFY(writeCounterHistory(m_program, pieBias, m_history, &m_counter));
}

QString TestDetailPane::shown(const QString &history, const Access &access)
{
    DetailPane pane;
    pane.setHistory(history);
    QSignalSpy shownSpy(&pane, &DetailPane::detailShown);
    pane.showAccess(access);
    if (!shownSpy.wait(10000) || shownSpy.size() != 1 || !pane.detail())
        return QStringLiteral("(not shown)");
    return pane.text();
}

// The writes at the store: counter (4 bytes), table+3 (1), the stack (8), the heap (8).
Access TestDetailPane::counterWrite(int index) const
{
    const std::uint64_t addresses[]
        = { m_counter.counterAddress, m_counter.tableAddress, m_counter.stackAddress, m_counter.heapAddress };
    const quint32 sizes[] = { 4, 1, 8, 8 };
    Access access;
    access.rowId = RowId { qint64(index + 1) };
    access.transition = Transition { m_counter.storeTransition };
    access.operation = Operation::Write;
    access.physical = Address { addresses[index] };
    access.linear = access.physical;
    access.size = sizes[index];
    return access;
}

void TestDetailPane::writeOfAGlobal()
{
    const QStringList lines = shown(m_history, counterWrite(0)).split(u'\n');
    const std::uint64_t elfPc = m_counter.storePc - pieBias;
    const auto bump = nmSymbol(m_program, QStringLiteral("bump"));
    QVERIFY(bump);

    QCOMPARE(lines.value(0), QStringLiteral("Access"));
    QCOMPARE(lines.value(1),
        QStringLiteral("Write of 4 bytes at %1 · transition %2 · row 1")
            .arg(hex(m_counter.counterAddress))
            .arg(countText(m_counter.storeTransition)));
    QCOMPARE(lines.value(2), QStringLiteral("Value 11 11 11 11 (the bytes in memory order)"));
    QCOMPARE(lines.value(3), QStringLiteral("Instruction"));
    QCOMPARE(lines.value(4),
        QStringLiteral("PC %1 · in bump+0x%2").arg(hex(m_counter.storePc), QString::number(elfPc - bump->address, 16)));
    QCOMPARE(lines.value(5), QStringLiteral("Module counter+0x%1 (%2)").arg(QString::number(elfPc, 16), m_program));

    // Four instructions on each side, every one of main and bump ran: no gap. Their addresses and
    // bytes are objdump's, the bytes after the instruction's text; the store is marked, in the
    // gutter that every line has.
    const QList<ObjdumpInstruction> all = objdumpInstructions(m_program);
    qsizetype store = -1;
    for (qsizetype i = 0; i < all.size(); ++i) {
        if (all[i].address == elfPc)
            store = i;
    }
    QVERIFY(store >= 4);
    for (int k = -4; k <= 4; ++k) {
        const QString line = lines.value(10 + k);
        const ObjdumpInstruction &instruction = all[store + k];
        const QString prefix = (k == 0 ? QStringLiteral("▶ ") : QStringLiteral("  "))
            + hex(instruction.address + pieBias) + QStringLiteral("  ");
        const QString suffix = QStringLiteral("  ") + QString::fromLatin1(instruction.bytes.toHex(' '));
        QVERIFY2(line.startsWith(prefix) && line.endsWith(suffix),
            qPrintable(line + QStringLiteral(" / ") + prefix + QStringLiteral(" / ") + suffix));
    }
    QCOMPARE(lines.value(10),
        QStringLiteral("▶ %1  mov dword ptr [rip + 0x%2], eax  %3")
            .arg(hex(m_counter.storePc), QString::number(m_counter.counterAddress - m_counter.storePc - 6, 16),
                QString::fromLatin1(all[store].bytes.toHex(' '))));
    QCOMPARE(lines.value(15),
        QStringLiteral("Around it: the instructions of this history's instructions table (those that ran), not the "
                       "module's code bytes; … marks code that never ran."));

    // The source: the marked line with five lines on each side, from the file on disk.
    const int line = markedLine(m_source, QStringLiteral("counter"));
    QCOMPARE(line, 13);
    QCOMPARE(lines.value(16), QStringLiteral("Source"));
    QCOMPARE(lines.value(17), m_source + QStringLiteral(":13"));
    const QStringList expectedSource {
        QStringLiteral("   8  const char greeting[] = \"hello\";"),
        QStringLiteral("   9  __thread int perThread = 7;"),
        QStringLiteral("  10  "),
        QStringLiteral("  11  void bump(int amount)"),
        QStringLiteral("  12  {"),
        QStringLiteral("▶ 13      counter += amount; /* line: counter */"),
        QStringLiteral("  14      table[amount & 15] = (char)amount; /* line: table */"),
        QStringLiteral("  15  }"),
        QStringLiteral("  16  "),
        QStringLiteral("  17  int main(int argc, char **argv)"),
        QStringLiteral("  18  {"),
    };
    QCOMPARE(lines.mid(18, 11), expectedSource);
    QCOMPARE(lines.mid(29),
        QStringList({ QStringLiteral("Address"), QStringLiteral("%1 is counter").arg(hex(m_counter.counterAddress)),
            QStringLiteral("Region: counter .bss") }));

    // table+3, the stack and the heap: their own address and value, the same instruction.
    const QStringList table = shown(m_history, counterWrite(1)).split(u'\n');
    QCOMPARE(table.value(2), QStringLiteral("Value 22 (the bytes in memory order)"));
    QCOMPARE(table.mid(table.size() - 2),
        QStringList({ QStringLiteral("%1 is table+0x3").arg(hex(m_counter.tableAddress)),
            QStringLiteral("Region: counter .bss") }));
    const QStringList stack = shown(m_history, counterWrite(2)).split(u'\n');
    QCOMPARE(stack.value(2), QStringLiteral("Value 33 33 33 33 33 33 33 33 (the bytes in memory order)"));
    QCOMPARE(
        stack.mid(stack.size() - 2), QStringList({ QStringLiteral("Address"), QStringLiteral("Region: [stack]") }));
}

void TestDetailPane::sourceFileNotOnThisMachine()
{
    const QString moved = m_source + QStringLiteral(".away");
    QVERIFY(QFile::rename(m_source, moved));
    const QStringList lines = shown(m_history, counterWrite(0)).split(u'\n');
    QVERIFY(QFile::rename(moved, m_source));
    QCOMPARE(lines.value(16), QStringLiteral("Source"));
    QCOMPARE(lines.value(17), m_source + QStringLiteral(":13"));
    QCOMPARE(lines.value(18), m_source + QStringLiteral(" is not on this machine."));
    QCOMPARE(lines.value(19), QStringLiteral("Address"));
}

void TestDetailPane::markedLinesLineUpWithTheOthers()
{
    // In the instructions and the source excerpt, each column starts at the same x on every line:
    // the marked line's "▶" and bold shift nothing. The instruction's text comes before its bytes.
    DetailPane pane;
    pane.resize(500, 700);
    pane.show();
    pane.setHistory(m_history);
    QSignalSpy shownSpy(&pane, &DetailPane::detailShown);
    pane.showAccess(counterWrite(0));
    QVERIFY(shownSpy.wait(10000));
    QCOMPARE(shownSpy.size(), 1);
    auto *browser = pane.findChild<QTextBrowser *>(QStringLiteral("detailText"));
    QVERIFY(browser);
    QList<QTextTable *> tables;
    const QTextFrame *root = browser->document()->rootFrame();
    for (auto it = root->begin(); !it.atEnd(); ++it) {
        if (auto *table = qobject_cast<QTextTable *>(it.currentFrame()))
            tables << table;
    }
    QCOMPARE(tables.size(), 2);
    QCOMPARE(tables[0]->columns(), 4); // gutter, PC, text, bytes
    QCOMPARE(tables[0]->rows(), 9);
    QCOMPARE(tables[1]->columns(), 3); // gutter, line number, line
    QCOMPARE(tables[1]->rows(), 11);
    for (const QTextTable *table : std::as_const(tables)) {
        int marked = 0;
        for (int column = 1; column < table->columns(); ++column) {
            const int left = browser->cursorRect(table->cellAt(0, column).firstCursorPosition()).left();
            for (int row = 1; row < table->rows(); ++row)
                QCOMPARE(browser->cursorRect(table->cellAt(row, column).firstCursorPosition()).left(), left);
        }
        for (int row = 0; row < table->rows(); ++row) {
            QTextCursor gutter = table->cellAt(row, 0).firstCursorPosition();
            gutter.setPosition(table->cellAt(row, 0).lastCursorPosition().position(), QTextCursor::KeepAnchor);
            if (gutter.selectedText() == QStringLiteral("▶ "))
                ++marked;
            else
                QCOMPARE(gutter.selectedText(), QStringLiteral("  "));
        }
        QCOMPARE(marked, 1);
    }
    const int textLeft = browser->cursorRect(tables[0]->cellAt(0, 2).firstCursorPosition()).left();
    const int bytesLeft = browser->cursorRect(tables[0]->cellAt(0, 3).firstCursorPosition()).left();
    QVERIFY(textLeft < bytesLeft);
}

void TestDetailPane::historyWithoutContext()
{
    const QString history = m_dir.filePath(QStringLiteral("small.memhist"));
    QVERIFY(
        !cliOutput({ QStringLiteral("import"), QFINDTESTDATA("../data/csv/small.csv"), QStringLiteral("-o"), history })
             .isEmpty());
    Access access; // row 8 of small.csv: 8,3,R,0x601004,,4
    access.rowId = RowId { 8 };
    access.transition = Transition { 3 };
    access.operation = Operation::Read;
    access.physical = Address { 0x601004 };
    access.size = 4;
    QCOMPARE(shown(history, access),
        QStringLiteral("Access\n"
                       "Read of 4 bytes at 0x601004 · transition 3 · row 8\n"
                       "Instruction\n"
                       "Unknown: this history does not record the instruction at transition 3\n"
                       "Source\n"
                       "No source line is known for this instruction.\n"
                       "Address\n"
                       "Nothing is known about 0x601004 in this history."));
}

// Transitions and rows as the status line writes them ("34,563"), addresses as hexText() does.
void TestDetailPane::countsAreGroupedAsOnTheStatusLine()
{
    const QString history = m_dir.filePath(QStringLiteral("small.memhist"));
    if (!QFile::exists(history))
        QVERIFY(!cliOutput(
            { QStringLiteral("import"), QFINDTESTDATA("../data/csv/small.csv"), QStringLiteral("-o"), history })
                     .isEmpty());
    Access access;
    access.rowId = RowId { 6804 };
    access.transition = Transition { 34563 };
    access.operation = Operation::Write;
    access.physical = Address { 0x4033e06 };
    access.size = 8;
    const QStringList lines = shown(history, access).split(u'\n');
    QCOMPARE(lines.value(1), QStringLiteral("Write of 8 bytes at 0x4033e06 · transition 34,563 · row 6,804"));
    QCOMPARE(
        lines.value(3), QStringLiteral("Unknown: this history does not record the instruction at transition 34,563"));
}

void TestDetailPane::historyWithThreads()
{
    const QString history = m_dir.filePath(QStringLiteral("threads.memhist"));
    {
        HistoryWriter writer(history);
        QVERIFY(writer.open());
        for (std::uint64_t t = 0; t < 10; ++t)
            QVERIFY(writer.add(userAccess(t, Operation::Read, 0x1000 + t, 1)));
        writer.addThreadSpan(101, Transition { 0 }, Transition { 4 });
        writer.addThreadSpan(202, Transition { 6 }, Transition { 9 });
        QVERIFY(writer.finish());
    }
    Access access;
    access.rowId = RowId { 8 };
    access.transition = Transition { 7 };
    access.operation = Operation::Read;
    access.physical = Address { 0x1007 };
    access.size = 1;
    QStringList lines = shown(history, access).split(u'\n');
    QCOMPARE(lines.value(1), QStringLiteral("Read of 1 byte at 0x1007 · transition 7 · row 8"));
    QCOMPARE(lines.value(2), QStringLiteral("Thread 202"));
    access.transition = Transition { 5 };
    lines = shown(history, access).split(u'\n');
    QCOMPARE(lines.value(2), QStringLiteral("Thread unknown (no thread span covers this transition)"));
}

void TestDetailPane::selectionInTheResultsDrivesIt()
{
    QueryPanel panel;
    DetailPane pane;
    connect(&panel, &QueryPanel::accessSelected, &pane, &DetailPane::showAccess);
    QCOMPARE(pane.text(), QStringLiteral("No history open"));
    panel.setHistory(m_history);
    pane.setHistory(m_history);
    QCOMPARE(pane.text(), QStringLiteral("Select an access to see its detail."));
    QSignalSpy pageSpy(panel.resultsModel(), &ResultsModel::pageLoaded);
    QVERIFY(panel.resultsModel()->isExhausted() || pageSpy.wait(10000));
    QSignalSpy shownSpy(&pane, &DetailPane::detailShown);
    panel.resultsView()->setCurrentIndex(panel.resultsModel()->index(3, 0)); // the heap write
    QVERIFY(shownSpy.wait(10000));
    QCOMPARE(shownSpy.size(), 1);
    QVERIFY(pane.detail());
    QCOMPARE(pane.detail()->access.rowId, RowId { 4 });
    const QStringList lines = pane.text().split(u'\n');
    QCOMPARE(lines.value(1),
        QStringLiteral("Write of 8 bytes at %1 · transition %2 · row 4")
            .arg(hex(m_counter.heapAddress))
            .arg(countText(m_counter.storeTransition)));
    QCOMPARE(lines.value(2), QStringLiteral("Value 44 44 44 44 44 44 44 44 (the bytes in memory order)"));
    QCOMPARE(lines.last(), QStringLiteral("Region: [heap]"));
    // A new query: no row is current, the pane says so.
    panel.runQuery(HalfAxisQuery {});
    QCOMPARE(pane.text(), QStringLiteral("Select an access to see its detail."));
    QVERIFY(!pane.detail());
}

QTEST_MAIN(TestDetailPane)
// In a pane as narrow as the Detail pane in a 1024 px wide window, the module line ("Module counter+0x…
// (/tmp/…/counter)") wraps, but only at a space, before a '/' of the path or after the '+': never inside a name
// (Unicode line breaking would break after any '-', or after a '.' before a digit: "ld-linux-x86-64.so.⏎2"). The text
// and a copy read as written, without the marks that steer the breaking.
void TestDetailPane::aNarrowPaneBreaksOnlyBetweenTokens()
{
    DetailPane pane;
    pane.resize(240, 600);
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    pane.setHistory(m_history);
    QSignalSpy shownSpy(&pane, &DetailPane::detailShown);
    pane.showAccess(counterWrite(0));
    QVERIFY(shownSpy.wait(10000));
    auto *browser = pane.findChild<QTextBrowser *>(QStringLiteral("detailText"));
    QVERIFY(browser);
    QTextDocument *document = browser->document();
    document->setTextWidth(browser->viewport()->width());
    const QString expected = pane.text().split(u'\n').value(5);
    QVERIFY2(expected.startsWith(QStringLiteral("Module counter+0x")), qPrintable(expected));
    // Where the breaks may go: after a space, or after the zero-width space that marks the others.
    const QString allowedBefore = QStringLiteral(" \u200b");
    QStringList pieces;
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        if (!block.text().startsWith(u'M'))
            continue;
        const QTextLayout *layout = block.layout();
        for (int i = 0; i < layout->lineCount(); ++i) {
            const QTextLine line = layout->lineAt(i);
            if (i > 0)
                QVERIFY2(allowedBefore.contains(block.text().at(line.textStart() - 1)),
                    qPrintable(QStringLiteral("broken inside a token before: ") + block.text().mid(line.textStart())));
            pieces << block.text().mid(line.textStart(), line.textLength()).remove(QChar(0x2060)).remove(QChar(0x200b));
        }
    }
    QVERIFY2(pieces.size() >= 2, qPrintable(pieces.join(u'|')));
    QCOMPARE(pieces.join(QString()), expected);
    QVERIFY(pieces.first().startsWith(QStringLiteral("Module ")));
    // The path broke before one of its '/'.
    QVERIFY2(pieces.last().startsWith(u'/') && pieces.last().endsWith(QStringLiteral("/counter)")),
        qPrintable(pieces.join(u'|')));

    browser->selectAll();
    browser->copy();
    const QString copied = QApplication::clipboard()->text();
    QVERIFY2(copied.contains(expected), qPrintable(copied));
    // No form of the copy holds a mark (QTextEdit's Markdown form kept them: it is not offered).
    const QMimeData *clipboard = QApplication::clipboard()->mimeData();
    QCOMPARE(clipboard->formats(), QStringList({ QStringLiteral("text/html"), QStringLiteral("text/plain") }));
    for (const QString &format : clipboard->formats()) {
        const QString form = QString::fromUtf8(clipboard->data(format));
        QVERIFY2(!form.contains(QChar(0x2060)) && !form.contains(QChar(0x200b)), qPrintable(format));
    }
}

#include "tst_detailpane.moc"
