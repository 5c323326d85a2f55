// SPDX-License-Identifier: MIT
#include "widgets/detail/detailpane.h"

#include "core/model/numbertext.h"
#include "core/values/syscallnames.h"
#include "widgets/detail/detailworker.h"
#include "widgets/detail/originview.h"

#include <QAction>
#include <QFileInfo>
#include <QFontDatabase>
#include <QMenu>
#include <QMimeData>
#include <QTabWidget>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextTable>
#include <QVBoxLayout>
#include <memory>

namespace memhist {

namespace {

QString operationName(Operation operation)
{
    switch (operation) {
    case Operation::Read:
        return DetailPane::tr("Read");
    case Operation::Write:
        return DetailPane::tr("Write");
    case Operation::Execute:
        return DetailPane::tr("Execute");
    }
    return {};
}

QString escaped(const QString &text)
{
    return text.toHtmlEscaped();
}

QString heading(const QString &title)
{
    return QStringLiteral("<h4>") + escaped(title) + QStringLiteral("</h4>");
}

// Invisible marks that steer the line breaking of a paragraph: no break here, a break may go here.
constexpr QChar wordJoiner(0x2060);
constexpr QChar zeroWidthSpace(0x200B);

// `text` breakable at token boundaries only. Unicode line breaking would break a module or a path
// after any '-' and even after a '.' before a digit ("ld-linux-x86-64.so.⏎2+0x9043"); here a token
// breaks only before a '/' that follows a name ("/usr/lib⏎/x86_64-linux-gnu") and after a '+'
// ("do_lookup_x+⏎0x2e3"), and stays whole everywhere else. DetailPane::text() and copying drop the
// marks again.
QString breakingAtTokens(const QString &text)
{
    QString marked;
    marked.reserve(text.size() * 2);
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        marked += c;
        if (i + 1 == text.size() || c.isSpace() || text[i + 1].isSpace())
            continue;
        const QChar next = text[i + 1];
        const bool beforeSlash = next == u'/' && (c.isLetterOrNumber() || c == u'.' || c == u'-' || c == u'_');
        marked += beforeSlash || c == u'+' ? zeroWidthSpace : wordJoiner;
    }
    return marked;
}

// The text as written: without breakingAtTokens()'s marks.
QString withoutBreakMarks(QString text)
{
    text.remove(wordJoiner);
    text.remove(zeroWidthSpace);
    return text;
}

QString paragraph(const QString &text)
{
    return QStringLiteral("<p>") + escaped(breakingAtTokens(text)) + QStringLiteral("</p>");
}

// Copies the text as written, without the marks that steer the line breaking: plain text and HTML
// only. QTextEdit also offers Markdown, whose writer wraps lines itself and keeps the marks (and
// loses characters where it wraps), so that form is left out.
class DetailBrowser : public QTextBrowser
{
public:
    using QTextBrowser::QTextBrowser;

protected:
    QMimeData *createMimeDataFromSelection() const override
    {
        const std::unique_ptr<QMimeData> selection(QTextBrowser::createMimeDataFromSelection());
        auto *data = new QMimeData;
        if (selection && selection->hasHtml())
            data->setHtml(withoutBreakMarks(selection->html()));
        if (selection && selection->hasText())
            data->setText(withoutBreakMarks(selection->text()));
        return data;
    }
};

// The marker of the current line in a code table's gutter.
const QString currentMarker = QStringLiteral("▶ ");

// A table of fixed-width lines, one row per line and one cell per column (each cell's text ends with
// the spaces that part it from the next). The first column is a gutter: "▶" on the line marked
// current, which is also bold and highlighted, blank on the others. Each column is as wide as its
// widest cell, so that neither the marker (drawn in whatever font has the glyph, often wider than
// the monospace cell) nor the bold shifts the line away from the others.
QString codeTable(const QList<QStringList> &rows, qsizetype current)
{
    const QString family = QFontDatabase::systemFont(QFontDatabase::FixedFont).family().toHtmlEscaped();
    QString html = QStringLiteral("<table cellspacing=\"0\" cellpadding=\"0\" style=\"font-family:'%1'\">").arg(family);
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const bool marked = i == current;
        html += QStringLiteral("<tr>");
        const QStringList cells = QStringList { marked ? currentMarker : QStringLiteral("  ") } + rows[i];
        for (const QString &cell : cells) {
            html += marked ? QStringLiteral("<td bgcolor=\"#fff3b0\" style=\"white-space:pre; color:#000000\"><b>")
                           : QStringLiteral("<td style=\"white-space:pre\">");
            html += escaped(cell);
            html += marked ? QStringLiteral("</b></td>") : QStringLiteral("</td>");
        }
        html += QStringLiteral("</tr>");
    }
    return html + QStringLiteral("</table>");
}

QString instructionSection(const AccessDetail &detail)
{
    QString html = heading(DetailPane::tr("Instruction"));
    if (!detail.pc)
        return html
            + paragraph(DetailPane::tr("Unknown: this history does not record the instruction at transition %1")
                            .arg(countText(detail.access.transition.value)));
    const CodeDescription &code = detail.code;
    html += paragraph(DetailPane::tr("PC %1 · %2")
                          .arg(hexText(detail.pc->value),
                              code.function.isEmpty() ? DetailPane::tr("function unknown")
                                                      : DetailPane::tr("in %1").arg(code.functionText())));
    html += paragraph(code.hasModule() ? DetailPane::tr("Module %1 (%2)").arg(code.moduleText(), code.modulePath)
                                       : DetailPane::tr("No module holds this PC"));

    if (detail.instructions.isEmpty()) {
        html += paragraph(code.instruction.isEmpty()
                ? DetailPane::tr("Its bytes and disassembly are not in this history.")
                : code.instruction);
        return html;
    }
    // The neighbours are the instructions the history's instructions table holds (those that
    // ran), in address order; a gap marks code that never ran between two of them. The bytes come
    // last: in a narrow pane the instruction's text is what stays in sight.
    QList<QStringList> rows;
    qsizetype current = -1;
    for (qsizetype i = 0; i < detail.instructions.size(); ++i) {
        const KnownInstruction &instruction = detail.instructions[i];
        if (i > 0) {
            const KnownInstruction &previous = detail.instructions[i - 1];
            if (previous.pc.value + std::uint64_t(previous.bytes.size()) != instruction.pc.value)
                rows << QStringList { QStringLiteral("…") };
        }
        if (instruction.pc == *detail.pc)
            current = rows.size();
        rows << QStringList { hexText(instruction.pc.value) + QStringLiteral("  "),
            instruction.text + QStringLiteral("  "), byteValuesText(instruction.bytes) };
    }
    html += codeTable(rows, current);
    html += paragraph(DetailPane::tr("Around it: the instructions of this history's instructions table (those "
                                     "that ran), not the module's code bytes; … marks code that never ran."));
    return html;
}

QString sourceSection(const AccessDetail &detail)
{
    QString html = heading(DetailPane::tr("Source"));
    const CodeDescription &code = detail.code;
    if (!detail.pc || code.line <= 0)
        return html + paragraph(DetailPane::tr("No source line is known for this instruction."));
    html += paragraph(code.sourceText());
    if (!detail.sourceFound)
        return html + paragraph(DetailPane::tr("%1 is not on this machine.").arg(code.sourceFile));
    const int lastLine = detail.firstSourceLine + int(detail.sourceLines.size()) - 1;
    const int width = int(QString::number(lastLine).size());
    QList<QStringList> rows;
    for (qsizetype i = 0; i < detail.sourceLines.size(); ++i)
        rows << QStringList { QStringLiteral("%1  ").arg(detail.firstSourceLine + int(i), width),
            detail.sourceLines[i] };
    return html + codeTable(rows, code.line - detail.firstSourceLine);
}

QString addressSection(const AccessDetail &detail)
{
    QString html = heading(DetailPane::tr("Address"));
    const AddressDescription &address = detail.address;
    QStringList lines;
    if (!address.object.isEmpty())
        lines << DetailPane::tr("%1 is %2").arg(hexText(detail.access.physical.value), address.text());
    if (!address.region.isEmpty())
        lines << DetailPane::tr("Region: %1").arg(address.region);
    if (lines.isEmpty())
        lines
            << DetailPane::tr("Nothing is known about %1 in this history.").arg(hexText(detail.access.physical.value));
    for (const QString &line : std::as_const(lines))
        html += paragraph(line);
    return html;
}

} // namespace

DetailPane::DetailPane(QWidget *parent)
    : QWidget(parent)
    , m_thread(std::make_unique<ConnectionThread<DetailWorker>>(this, QStringLiteral("memhist detail")))
    , m_tabs(new QTabWidget(this))
    , m_browser(new DetailBrowser(m_tabs))
    , m_origin(new OriginView(m_tabs))
    , m_comeFromAction(new QAction(tr("Where Did This &Come From?"), this))
    , m_wentToAction(new QAction(tr("Where Did It &Go?"), this))
{
    m_browser->setObjectName(QStringLiteral("detailText"));
    m_browser->setOpenLinks(false);
    // Paragraphs wrap; the code and source blocks (<pre>) keep their lines.
    m_browser->setLineWrapMode(QTextEdit::WidgetWidth);
    m_browser->document()->setDefaultStyleSheet(QStringLiteral("h4 { margin-top: 8px; margin-bottom: 2px; }"));
    m_tabs->setObjectName(QStringLiteral("detailTabs"));
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_browser, tr("Access"));
    m_tabs->addTab(m_origin, tr("Origin"));
    m_origin->setObjectName(QStringLiteral("originView"));
    connect(m_origin, &OriginView::hopActivated, this, &DetailPane::hopActivated);

    // Ctrl+Shift+G is Go to Address, Ctrl+D Add Bookmark: O for origin, D for destination.
    m_comeFromAction->setObjectName(QStringLiteral("comeFromAction"));
    m_comeFromAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    m_comeFromAction->setStatusTip(tr("The origin tree of the selected access: the writes, loads and registers its "
                                      "bytes came through"));
    m_wentToAction->setObjectName(QStringLiteral("wentToAction"));
    m_wentToAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    m_wentToAction->setStatusTip(tr("Where the bytes of the selected access went: the later reads of them and "
                                    "what those instructions wrote"));
    for (QAction *action : { m_comeFromAction, m_wentToAction }) {
        action->setShortcutContext(Qt::WindowShortcut);
        action->setEnabled(false);
    }
    connect(m_comeFromAction, &QAction::triggered, this, [this] { showOrigin(Direction::Backward); });
    connect(m_wentToAction, &QAction::triggered, this, [this] { showOrigin(Direction::Forward); });
    m_browser->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_browser, &QWidget::customContextMenuRequested, this, [this](const QPoint &position) {
        const std::unique_ptr<QMenu> menu(m_browser->createStandardContextMenu(position));
        menu->addSeparator();
        menu->addAction(m_comeFromAction);
        menu->addAction(m_wentToAction);
        menu->exec(m_browser->viewport()->mapToGlobal(position));
    });

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tabs);
    showMessage(tr("No history open"));
}

// A read in progress is finished in the worker thread; its result is dropped.
DetailPane::~DetailPane() = default;

void DetailPane::setHistory(const QString &path)
{
    m_historyPath = path;
    m_thread->cancel();
    m_detail.reset();
    m_selected.reset();
    m_comeFromAction->setEnabled(false);
    m_wentToAction->setEnabled(false);
    m_origin->setHistory(path);
    m_tabs->setCurrentWidget(m_browser);
    showMessage(path.isEmpty() ? tr("No history open") : tr("Select an access to see its detail."));
}

void DetailPane::showAccess(std::optional<Access> access)
{
    const JobTicket ticket = m_thread->supersede();
    m_selected = m_historyPath.isEmpty() ? std::nullopt : access;
    m_comeFromAction->setEnabled(m_selected.has_value());
    m_wentToAction->setEnabled(m_selected.has_value());
    if (!access || m_historyPath.isEmpty()) {
        m_detail.reset();
        showMessage(m_historyPath.isEmpty() ? tr("No history open") : tr("Select an access to see its detail."));
        return;
    }
    m_thread->post(
        ticket,
        [path = m_historyPath, access = *access](
            DetailWorker &worker, const JobTicket &) { return worker.read(path, access); },
        [this](const AccessDetail &detail) {
            m_detail = detail;
            if (!detail.error.isEmpty())
                showMessage(tr("Cannot read the detail: %1").arg(detail.error));
            else
                m_browser->setHtml(html(detail));
            emit detailShown();
        });
}

void DetailPane::showOrigin(Direction direction)
{
    if (!m_selected)
        return;
    m_tabs->setCurrentWidget(m_origin);
    m_origin->showOrigin(*m_selected, direction);
}

bool DetailPane::showsOrigin() const
{
    return m_tabs->currentWidget() == m_origin;
}

QString DetailPane::text() const
{
    // Line by line: a paragraph is a line, a code table's row is a line (its cells side by side).
    // (The empty block the document always puts after a table is not a line.)
    QStringList lines;
    bool afterTable = false;
    const QTextFrame *root = m_browser->document()->rootFrame();
    for (auto it = root->begin(); !it.atEnd(); ++it) {
        const bool skip = afterTable && it.currentBlock().isValid() && it.currentBlock().text().isEmpty();
        afterTable = false;
        if (const auto *table = qobject_cast<QTextTable *>(it.currentFrame())) {
            afterTable = true;
            for (int row = 0; row < table->rows(); ++row) {
                QString line;
                for (int column = 0; column < table->columns(); ++column) {
                    const QTextTableCell cell = table->cellAt(row, column);
                    QTextCursor cursor = cell.firstCursorPosition();
                    cursor.setPosition(cell.lastCursorPosition().position(), QTextCursor::KeepAnchor);
                    line += cursor.selectedText();
                }
                lines << line;
            }
        } else if (it.currentBlock().isValid() && !skip) {
            lines << it.currentBlock().text();
        }
    }
    QString text = withoutBreakMarks(lines.join(u'\n'));
    text.replace(QChar::Nbsp, u' ');
    text.replace(QChar::LineSeparator, u'\n');
    text.replace(QChar::ParagraphSeparator, u'\n');
    return text;
}

void DetailPane::showMessage(const QString &message)
{
    m_browser->setHtml(paragraph(message));
}

QString DetailPane::html(const AccessDetail &detail)
{
    const Access &access = detail.access;
    QString html = heading(tr("Access"));
    html += paragraph(tr("%1 of %2 at %3 · transition %4 · row %5")
                          .arg(operationName(access.operation), bytesText(access.size), hexText(access.physical.value),
                              countText(access.transition.value), countText(quint64(access.rowId.value))));
    if (detail.threadsKnown)
        html += paragraph(detail.thread ? tr("Thread %1").arg(*detail.thread)
                                        : tr("Thread unknown (no thread span covers this transition)"));
    if (detail.value && detail.value->hasBefore()) {
        // Before → after, the bytes the write changed in bold.
        const AccessValue &value = *detail.value;
        QString after;
        qsizetype changed = 0;
        for (qsizetype i = 0; i < value.bytes.size(); ++i) {
            const QString byte = QString::fromLatin1(value.bytes.mid(i, 1).toHex());
            const bool differs = value.before[i] != value.bytes[i];
            changed += differs ? 1 : 0;
            after
                += (i > 0 ? QStringLiteral(" ") : QString()) + (differs ? QStringLiteral("<b>%1</b>").arg(byte) : byte);
        }
        html += QStringLiteral("<p>%1 %2 → %3 %4</p>")
                    .arg(tr("Bytes before → after"), byteValuesText(value.before), after,
                        escaped(tr("(%1 of %2 changed, in bold; memory order)").arg(changed).arg(value.bytes.size())));
    } else if (detail.value) {
        html += paragraph(tr("Value %1 (the bytes in memory order)").arg(byteValuesText(detail.value->bytes)));
    }
    if (detail.value) {
        if (detail.value->kernelSyscall)
            html += paragraph(tr("Made by the kernel: %1").arg(kernelAccessText(*detail.value->kernelSyscall)));
    }
    html += instructionSection(detail);
    html += sourceSection(detail);
    html += addressSection(detail);
    return html;
}

} // namespace memhist
