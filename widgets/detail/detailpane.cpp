#include "widgets/detail/detailpane.h"

#include "core/model/numbertext.h"
#include "widgets/detail/detailworker.h"

#include <QFileInfo>
#include <QFontDatabase>
#include <QTextBrowser>
#include <QVBoxLayout>

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

QString paragraph(const QString &text)
{
    return QStringLiteral("<p>") + escaped(text) + QStringLiteral("</p>");
}

// "11 22 33": the bytes in memory order.
QString spacedHex(const QByteArray &bytes)
{
    return QString::fromLatin1(bytes.toHex(' '));
}

// A block of fixed-width lines; the line marked current starts with "▶" and is highlighted.
QString codeBlock(const QStringList &lines, qsizetype current)
{
    QString html = QStringLiteral("<pre>");
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString line = (i == current ? QStringLiteral("▶ ") : QStringLiteral("  ")) + lines[i];
        if (i == current)
            html += QStringLiteral("<span style=\"background-color:#fff3b0; color:#000000\"><b>") + escaped(line)
                + QStringLiteral("</b></span>");
        else
            html += escaped(line);
        if (i + 1 < lines.size())
            html += u'\n';
    }
    return html + QStringLiteral("</pre>");
}

QString instructionSection(const AccessDetail &detail)
{
    QString html = heading(DetailPane::tr("Instruction"));
    if (!detail.pc)
        return html
            + paragraph(DetailPane::tr("Unknown: this history does not record the instruction at transition %1")
                            .arg(detail.access.transition.value));
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
    // ran), in address order; a gap marks code that never ran between two of them.
    int bytesWidth = 0;
    for (const KnownInstruction &instruction : detail.instructions)
        bytesWidth = std::max(bytesWidth, int(instruction.bytes.size() * 3 - 1));
    QStringList lines;
    qsizetype current = -1;
    for (qsizetype i = 0; i < detail.instructions.size(); ++i) {
        const KnownInstruction &instruction = detail.instructions[i];
        if (i > 0) {
            const KnownInstruction &previous = detail.instructions[i - 1];
            if (previous.pc.value + std::uint64_t(previous.bytes.size()) != instruction.pc.value)
                lines << QStringLiteral("…");
        }
        if (instruction.pc == *detail.pc)
            current = lines.size();
        lines << QStringLiteral("%1  %2  %3")
                     .arg(hexText(instruction.pc.value), spacedHex(instruction.bytes).leftJustified(bytesWidth),
                         instruction.text);
    }
    html += codeBlock(lines, current);
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
    QStringList lines;
    for (qsizetype i = 0; i < detail.sourceLines.size(); ++i)
        lines << QStringLiteral("%1  %2").arg(detail.firstSourceLine + int(i), width).arg(detail.sourceLines[i]);
    return html + codeBlock(lines, code.line - detail.firstSourceLine);
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
    , m_browser(new QTextBrowser(this))
{
    m_browser->setObjectName(QStringLiteral("detailText"));
    m_browser->setOpenLinks(false);
    // Paragraphs wrap; the code and source blocks (<pre>) keep their lines.
    m_browser->setLineWrapMode(QTextEdit::WidgetWidth);
    m_browser->document()->setDefaultStyleSheet(QStringLiteral("h4 { margin-top: 8px; margin-bottom: 2px; }"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_browser);
    showMessage(tr("No history open"));
}

// A read in progress is finished in the worker thread; its result is dropped.
DetailPane::~DetailPane() = default;

void DetailPane::setHistory(const QString &path)
{
    m_historyPath = path;
    m_thread->cancel();
    m_detail.reset();
    showMessage(path.isEmpty() ? tr("No history open") : tr("Select an access to see its detail."));
}

void DetailPane::showAccess(std::optional<Access> access)
{
    const JobTicket ticket = m_thread->supersede();
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

QString DetailPane::text() const
{
    return m_browser->toPlainText();
}

void DetailPane::showMessage(const QString &message)
{
    m_browser->setHtml(paragraph(message));
}

QString DetailPane::html(const AccessDetail &detail)
{
    const Access &access = detail.access;
    QString html = heading(tr("Access"));
    html += paragraph(
        tr("%1 of %2 at %3 · transition %4 · row %5")
            .arg(operationName(access.operation), access.size == 1 ? tr("1 byte") : tr("%1 bytes").arg(access.size),
                hexText(access.physical.value), QString::number(access.transition.value),
                QString::number(access.rowId.value)));
    if (detail.threadsKnown)
        html += paragraph(detail.thread ? tr("Thread %1").arg(*detail.thread)
                                        : tr("Thread unknown (no thread span covers this transition)"));
    if (detail.value)
        html += paragraph(tr("Value %1 (the bytes in memory order)").arg(spacedHex(*detail.value)));
    html += instructionSection(detail);
    html += sourceSection(detail);
    html += addressSection(detail);
    return html;
}

} // namespace memhist
