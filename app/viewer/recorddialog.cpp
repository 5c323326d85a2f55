// SPDX-License-Identifier: MIT
#include "recorddialog.h"

#include "browserow.h"
#include "importoutput.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QVBoxLayout>
#include <utility>

namespace memhist::viewer {

namespace {

constexpr auto programKey = "record/program";
constexpr auto argumentsKey = "record/arguments";
constexpr auto limitKey = "record/limit";
constexpr auto maxMillionsKey = "record/maxMillions";
constexpr auto withExecuteKey = "record/withExecute";

} // namespace

QStringList splitShellWords(const QString &text, bool *ok)
{
    // QProcess::splitCommand() knows only double quotes, so "'hi there'" would reach the program
    // as two words with the quotes in them; users type what they would type in a terminal.
    QStringList words;
    QString word;
    bool inWord = false;
    enum class Quote { None, Single, Double } quote = Quote::None;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        switch (quote) {
        case Quote::Single:
            if (c == u'\'')
                quote = Quote::None;
            else
                word += c;
            continue;
        case Quote::Double:
            if (c == u'"') {
                quote = Quote::None;
            } else if (c == u'\\' && i + 1 < text.size() && QStringView(u"\\\"$`").contains(text.at(i + 1))) {
                word += text.at(++i);
            } else {
                word += c;
            }
            continue;
        case Quote::None:
            break;
        }
        if (c.isSpace()) {
            if (inWord)
                words << std::exchange(word, QString());
            inWord = false;
            continue;
        }
        inWord = true;
        if (c == u'\'') {
            quote = Quote::Single;
        } else if (c == u'"') {
            quote = Quote::Double;
        } else if (c == u'\\') {
            if (i + 1 < text.size())
                word += text.at(++i);
        } else {
            word += c;
        }
    }
    if (inWord)
        words << word;
    if (ok)
        *ok = quote == Quote::None;
    return words;
}

RecordDialog::RecordDialog(QWidget *parent)
    : QDialog(parent)
    , m_program(new QLineEdit(this))
    , m_arguments(new QLineEdit(this))
    , m_limit(new QCheckBox(tr("Stop after"), this))
    , m_maxMillions(new QSpinBox(this))
    , m_withExecute(new QCheckBox(tr("Also store instruction fetches as executes (--with-exec)"), this))
    , m_output(new QLineEdit(this))
    , m_problem(new QLabel(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("Record Program"));
    // Named for tests and screenshots, which fill the dialog as a user would.
    setObjectName(QStringLiteral("recordDialog"));
    m_program->setObjectName(QStringLiteral("programEdit"));
    m_arguments->setObjectName(QStringLiteral("argumentsEdit"));
    m_limit->setObjectName(QStringLiteral("limitCheck"));
    m_maxMillions->setObjectName(QStringLiteral("maxMillionsSpin"));
    m_withExecute->setObjectName(QStringLiteral("withExecuteCheck"));
    m_output->setObjectName(QStringLiteral("outputEdit"));
    m_problem->setObjectName(QStringLiteral("problemLabel"));
    m_program->setPlaceholderText(tr("/usr/bin/ls"));
    m_arguments->setPlaceholderText(tr("-l /tmp   (quoted as in a shell)"));
    m_maxMillions->setRange(1, 100000);
    m_maxMillions->setSuffix(tr(" million instructions"));
    m_output->setPlaceholderText(tr("where the history is written"));
    m_problem->setWordWrap(true);

    auto *browseProgram = new QPushButton(tr("Browse…"), this);
    auto *browseOutput = new QPushButton(tr("Browse…"), this);
    connect(browseProgram, &QPushButton::clicked, this, &RecordDialog::browseProgram);
    connect(browseOutput, &QPushButton::clicked, this, &RecordDialog::browseOutput);

    auto *limitRow = new QWidget(this);
    auto *limitLayout = new QHBoxLayout(limitRow);
    limitLayout->setContentsMargins(0, 0, 0, 0);
    limitLayout->addWidget(m_limit);
    limitLayout->addWidget(m_maxMillions, 1);

    auto *form = new QFormLayout;
    form->addRow(tr("&Program:"), withBrowseButton(m_program, browseProgram));
    form->addRow(tr("&Arguments:"), m_arguments);
    form->addRow(tr("Length:"), limitRow);
    form->addRow(QString(), m_withExecute);
    form->addRow(tr("&History:"), withBrowseButton(m_output, browseOutput));

    auto *note = new QLabel(tr("The program runs under Valgrind with memhist's own tool (<tt>memhist record</tt>), "
                               "which keeps every load and store with the bytes it read and wrote: about a million "
                               "accesses a second, far slower than the program runs alone. The status bar's Cancel "
                               "button stops it and keeps what was "
                               "recorded. What it prints is kept in the Log panel (View ▸ Log)."),
        this);
    note->setWordWrap(true);

    QPushButton *record = m_buttons->addButton(tr("&Record"), QDialogButtonBox::AcceptRole);
    record->setDefault(true);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addWidget(m_problem);
    layout->addWidget(m_buttons);

    const QSettings settings;
    m_program->setText(settings.value(QLatin1String(programKey)).toString());
    m_arguments->setText(settings.value(QLatin1String(argumentsKey)).toString());
    m_limit->setChecked(settings.value(QLatin1String(limitKey), false).toBool());
    m_maxMillions->setValue(settings.value(QLatin1String(maxMillionsKey), 10).toInt());
    m_maxMillions->setEnabled(m_limit->isChecked());
    m_withExecute->setChecked(settings.value(QLatin1String(withExecuteKey), false).toBool());
    connect(m_limit, &QCheckBox::toggled, m_maxMillions, &QWidget::setEnabled);
    connect(m_program, &QLineEdit::textChanged, this, [this] {
        updateOutputFromProgram();
        validate();
    });
    connect(m_output, &QLineEdit::textEdited, this, [this] { m_outputEdited = true; });
    connect(m_output, &QLineEdit::textChanged, this, &RecordDialog::validate);
    connect(m_arguments, &QLineEdit::textChanged, this, &RecordDialog::validate);
    connect(this, &QDialog::accepted, this, [this] {
        QSettings settings;
        settings.setValue(QLatin1String(programKey), m_program->text());
        settings.setValue(QLatin1String(argumentsKey), m_arguments->text());
        settings.setValue(QLatin1String(limitKey), m_limit->isChecked());
        settings.setValue(QLatin1String(maxMillionsKey), m_maxMillions->value());
        settings.setValue(QLatin1String(withExecuteKey), m_withExecute->isChecked());
    });
    updateOutputFromProgram();
    validate();
    resize(560, sizeHint().height());
    // The program first: withBrowseButton() moved its field after the arguments in the focus chain.
    setTabOrder(m_program, m_arguments);
    m_program->setFocus(Qt::OtherFocusReason);
}

RecordRequest RecordDialog::request() const
{
    RecordRequest request;
    QString program = m_program->text().trimmed();
    // A bare name ("ls") is looked up in PATH as a shell would.
    if (!program.contains(u'/')) {
        if (const QString found = QStandardPaths::findExecutable(program); !found.isEmpty())
            program = found;
    }
    request.program = program;
    request.arguments = splitShellWords(m_arguments->text());
    if (m_limit->isChecked())
        request.maxInstructions = quint64(m_maxMillions->value()) * 1000000u;
    request.withExecute = m_withExecute->isChecked();
    request.outputPath = m_output->text().trimmed();
    request.replaceConfirmed = m_replace.confirmed(request.outputPath);
    return request;
}

void RecordDialog::accept()
{
    if (!m_replace.ask(this, request().outputPath, tr("this recording"))) {
        m_output->setFocus();
        m_output->selectAll();
        return;
    }
    QDialog::accept();
}

void RecordDialog::browseProgram()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Program to Record"), m_program->text());
    if (!path.isEmpty())
        m_program->setText(path);
}

void RecordDialog::browseOutput()
{
    // The file dialog does not ask about an existing file: accept() does, and says when it is the
    // history open in the window.
    const QString path = QFileDialog::getSaveFileName(this, tr("Save the History As"), m_output->text(),
        tr("memhist histories (*.memhist)"), nullptr, QFileDialog::DontConfirmOverwrite);
    if (!path.isEmpty()) {
        m_outputEdited = true;
        m_output->setText(path.endsWith(QLatin1String(".memhist")) ? path : path + QStringLiteral(".memhist"));
    }
}

void RecordDialog::updateOutputFromProgram()
{
    if (m_outputEdited)
        return;
    const QString name = QFileInfo(m_program->text().trimmed()).fileName();
    // A free name: the default never replaces an existing history (accept() asks for a chosen one).
    m_output->setText(
        freeHistoryPath(defaultHistoryPath(name.isEmpty() ? QStringLiteral("recording") : name, QDir::currentPath())));
}

void RecordDialog::validate()
{
    QString problem;
    const RecordRequest r = request();
    const QFileInfo program(r.program);
    if (r.program.isEmpty())
        problem = tr("Name the program to run.");
    else if (!program.isFile() || !program.isExecutable())
        problem = tr("%1 is not an executable program.").arg(r.program);
    else if (bool closed = true; splitShellWords(m_arguments->text(), &closed), !closed)
        problem = tr("The arguments have an unclosed quote.");
    else if (r.outputPath.isEmpty())
        problem = tr("Name the history to write.");
    else if (!QFileInfo(QFileInfo(r.outputPath).absolutePath()).isWritable())
        problem = tr("Cannot write in %1.").arg(QFileInfo(r.outputPath).absolutePath());
    m_problem->setText(problem);
    m_problem->setVisible(!problem.isEmpty() && !m_program->text().isEmpty());
    for (QAbstractButton *button : m_buttons->buttons()) {
        if (m_buttons->buttonRole(button) == QDialogButtonBox::AcceptRole)
            button->setEnabled(problem.isEmpty());
    }
}

} // namespace memhist::viewer
