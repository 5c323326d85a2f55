// SPDX-License-Identifier: MIT
#include "importdialog.h"

#include "browserow.h"
#include "core/model/numbertext.h"
#include "importoutput.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace memhist::viewer {

namespace {

bool parseCount(const QString &field, const QString &text, std::uint64_t *value, QString *error)
{
    if (parseTypedNumber(text.trimmed(), value))
        return true;
    *error = QObject::tr("%1: '%2' is not a number of instructions (decimal or 0x hex, up to 2^64-1)")
                 .arg(field, text.trimmed());
    return false;
}

} // namespace

bool parseImportWindow(const QString &skip, const QString &atMost, ImportOptions *options, QString *error)
{
    std::uint64_t skipped = 0;
    if (!skip.trimmed().isEmpty() && !parseCount(QObject::tr("Skip"), skip, &skipped, error))
        return false;
    std::optional<std::uint64_t> limit;
    if (!atMost.trimmed().isEmpty()) {
        std::uint64_t value = 0;
        if (!parseCount(QObject::tr("At most"), atMost, &value, error))
            return false;
        limit = value;
    }
    options->skipInstructions = skipped;
    options->maxInstructions = limit;
    return true;
}

ImportDialog::ImportDialog(const QStringList &traces, const QString &suggestedOutput, QWidget *parent)
    : QDialog(parent)
    , m_output(new QLineEdit(suggestedOutput, this))
    , m_withExecute(new QCheckBox(tr("Also store instruction fetches as executes (--with-exec)"), this))
    , m_skip(new QLineEdit(this))
    , m_atMost(new QLineEdit(this))
    , m_problem(new QLabel(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("Import Traces"));
    // Named for tests and screenshots, which fill the dialog as a user would.
    setObjectName(QStringLiteral("importDialog"));
    m_output->setObjectName(QStringLiteral("outputEdit"));
    m_withExecute->setObjectName(QStringLiteral("withExecuteCheck"));
    m_skip->setObjectName(QStringLiteral("skipEdit"));
    m_atMost->setObjectName(QStringLiteral("atMostEdit"));
    m_problem->setObjectName(QStringLiteral("problemLabel"));
    m_skip->setPlaceholderText(tr("0"));
    m_atMost->setPlaceholderText(tr("to the end"));
    m_problem->setWordWrap(true);

    QStringList names;
    for (const QString &trace : traces)
        names << QFileInfo(trace).fileName();
    auto *tracesLabel = new QLabel(names.join(QStringLiteral(", ")), this);
    tracesLabel->setWordWrap(true);
    tracesLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *browse = new QPushButton(tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, &ImportDialog::browseOutput);

    auto *form = new QFormLayout;
    form->addRow(traces.size() == 1 ? tr("Trace:") : tr("Traces (in this order):"), tracesLabel);
    form->addRow(tr("&History:"), withBrowseButton(m_output, browse));
    form->addRow(QString(), m_withExecute);
    form->addRow(tr("&Skip the first:"), m_skip);
    form->addRow(tr("Import &at most:"), m_atMost);

    auto *note = new QLabel(tr("Instructions, decimal or 0x hex. A window keeps the transitions the accesses "
                               "have in the whole trace; drmemtrace zip traces skip whole chunks without "
                               "reading them."),
        this);
    note->setWordWrap(true);

    QPushButton *import = m_buttons->addButton(tr("&Import"), QDialogButtonBox::AcceptRole);
    import->setDefault(true);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addWidget(m_problem);
    layout->addWidget(m_buttons);

    connect(m_output, &QLineEdit::textChanged, this, &ImportDialog::validate);
    connect(m_skip, &QLineEdit::textChanged, this, &ImportDialog::validate);
    connect(m_atMost, &QLineEdit::textChanged, this, &ImportDialog::validate);
    validate();
    resize(560, sizeHint().height());
}

ImportChoice ImportDialog::choice() const
{
    ImportChoice choice;
    choice.output = m_output->text().trimmed();
    if (!choice.output.isEmpty() && !choice.output.endsWith(QLatin1String(".memhist")))
        choice.output += QStringLiteral(".memhist");
    choice.replaceConfirmed = m_replace.confirmed(choice.output);
    choice.options.withExecute = m_withExecute->isChecked();
    QString ignored;
    parseImportWindow(m_skip->text(), m_atMost->text(), &choice.options, &ignored);
    return choice;
}

void ImportDialog::accept()
{
    if (!m_replace.ask(this, choice().output, tr("this import"))) {
        m_output->setFocus();
        m_output->selectAll();
        return;
    }
    QDialog::accept();
}

void ImportDialog::browseOutput()
{
    // The file dialog does not ask about an existing file: accept() does, and says when it is the
    // history open in the window.
    const QString path = QFileDialog::getSaveFileName(this, tr("Save the Imported History As"), m_output->text(),
        tr("memhist histories (*.memhist)"), nullptr, QFileDialog::DontConfirmOverwrite);
    if (!path.isEmpty())
        m_output->setText(path);
}

void ImportDialog::validate()
{
    QString problem;
    ImportOptions options;
    if (m_output->text().trimmed().isEmpty())
        problem = tr("Choose where the history is written.");
    else
        parseImportWindow(m_skip->text(), m_atMost->text(), &options, &problem);
    m_problem->setText(problem);
    m_problem->setVisible(!problem.isEmpty());
    for (QAbstractButton *button : m_buttons->buttons()) {
        if (m_buttons->buttonRole(button) == QDialogButtonBox::AcceptRole)
            button->setEnabled(problem.isEmpty());
    }
}

} // namespace memhist::viewer
