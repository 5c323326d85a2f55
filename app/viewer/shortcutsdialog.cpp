// SPDX-License-Identifier: MIT
#include "shortcutsdialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QKeySequenceEdit>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace memhist::viewer {

namespace {

enum Column { ActionColumn, KeysColumn };

} // namespace

ShortcutsDialog::ShortcutsDialog(const QList<ShortcutEntry> &entries, QWidget *parent)
    : QDialog(parent)
    , m_entries(entries)
{
    setObjectName(QStringLiteral("shortcutsDialog"));
    setWindowTitle(tr("Keyboard Shortcuts"));
    for (const ShortcutEntry &entry : std::as_const(m_entries))
        m_keys << entry.action->shortcuts();

    m_list = new QTreeWidget(this);
    m_list->setObjectName(QStringLiteral("shortcutsList"));
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setHeaderLabels({ tr("Action"), tr("Keys") });
    m_list->header()->setSectionResizeMode(ActionColumn, QHeaderView::Stretch);
    m_list->header()->setSectionResizeMode(KeysColumn, QHeaderView::ResizeToContents);
    m_list->header()->setStretchLastSection(false);
    for (const ShortcutEntry &entry : std::as_const(m_entries))
        new QTreeWidgetItem(m_list, { entry.title, QString() });

    m_keyEdit = new QKeySequenceEdit(this);
    m_keyEdit->setObjectName(QStringLiteral("keyEdit"));
    m_keyEdit->setToolTip(tr("Press the key the selected action should have"));
    m_clearButton = new QPushButton(tr("&Clear"), this);
    m_clearButton->setObjectName(QStringLiteral("clearKeyButton"));
    m_clearButton->setToolTip(tr("The selected action gets no key"));
    m_defaultButton = new QPushButton(tr("&Default"), this);
    m_defaultButton->setObjectName(QStringLiteral("defaultKeyButton"));
    m_defaultButton->setToolTip(tr("The selected action gets its own keys back"));
    auto *keyRow = new QHBoxLayout;
    keyRow->addWidget(m_keyEdit, 1);
    keyRow->addWidget(m_clearButton);
    keyRow->addWidget(m_defaultButton);
    auto *form = new QFormLayout;
    // A label of its own: QFormLayout's for a row of several widgets has no buddy, and showed the "&".
    auto *keyLabel = new QLabel(tr("&Key:"), this);
    keyLabel->setBuddy(m_keyEdit);
    form->addRow(keyLabel, keyRow);

    m_conflicts = new QLabel(this);
    m_conflicts->setObjectName(QStringLiteral("conflictsLabel"));
    m_conflicts->setWordWrap(true);
    QPalette warning = m_conflicts->palette();
    warning.setColor(QPalette::WindowText, QColor(0xb0, 0x20, 0x20));
    m_conflicts->setPalette(warning);

    m_buttons = new QDialogButtonBox(
        QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::RestoreDefaults, this);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_buttons->button(QDialogButtonBox::RestoreDefaults), &QPushButton::clicked, this,
        &ShortcutsDialog::restoreAllDefaults);

    auto *layout = new QVBoxLayout(this);
    auto *hint = new QLabel(tr("Select an action, then press its new key. The keys work wherever the focus is "
                               "in the window, except where a text field uses the key itself."),
        this);
    hint->setWordWrap(true);
    layout->addWidget(hint);
    layout->addWidget(m_list, 1);
    layout->addLayout(form);
    layout->addWidget(m_conflicts);
    layout->addWidget(m_buttons);

    connect(m_list, &QTreeWidget::currentItemChanged, this, &ShortcutsDialog::showSelected);
    // The first key pressed is the action's key (a sequence of several would be a chord nobody
    // expects); the field shows it alone once the recording ends.
    connect(m_keyEdit, &QKeySequenceEdit::keySequenceChanged, this, [this](const QKeySequence &sequence) {
        if (sequence.isEmpty() || !m_list->currentItem())
            return;
        setSelectedKeys({ QKeySequence(sequence[0]) });
    });
    // At once, not a second later when the field ends its recording (see eventFilter()).
    m_keyEdit->installEventFilter(this);
    connect(m_keyEdit, &QKeySequenceEdit::editingFinished, this, [this] {
        const QKeySequence sequence = m_keyEdit->keySequence();
        if (sequence.count() > 1)
            m_keyEdit->setKeySequence(QKeySequence(sequence[0]));
    });
    connect(m_clearButton, &QPushButton::clicked, this, [this] { setSelectedKeys({}); });
    connect(m_defaultButton, &QPushButton::clicked, this, [this] {
        if (QTreeWidgetItem *item = m_list->currentItem())
            setSelectedKeys(m_entries[m_list->indexOfTopLevelItem(item)].defaults);
    });

    updateRows();
    if (m_list->topLevelItemCount() > 0)
        m_list->setCurrentItem(m_list->topLevelItem(0));
    resize(560, 600);
}

ShortcutsDialog::~ShortcutsDialog()
{
    // QDialog's destructor hides it, and the key field, losing the focus, ends its recording: not
    // into this dialog's lists, gone by then.
    m_keyEdit->disconnect(this);
}

bool ShortcutsDialog::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_keyEdit && event->type() == QEvent::KeyPress) {
        switch (static_cast<QKeyEvent *>(event)->key()) {
        case Qt::Key_Control:
        case Qt::Key_Shift:
        case Qt::Key_Alt:
        case Qt::Key_Meta:
        case Qt::Key_AltGr:
            break;
        default:
            // Once the field has taken the key: its first key is the action's, and setting it
            // ends the field's recording.
            QMetaObject::invokeMethod(
                this,
                [this] {
                    const QKeySequence sequence = m_keyEdit->keySequence();
                    if (!sequence.isEmpty() && m_list->currentItem())
                        setSelectedKeys({ QKeySequence(sequence[0]) });
                },
                Qt::QueuedConnection);
            break;
        }
    }
    return QDialog::eventFilter(watched, event);
}

QString ShortcutsDialog::conflictText() const
{
    return m_conflicts->text();
}

bool ShortcutsDialog::selectEntry(const QString &name)
{
    for (qsizetype i = 0; i < m_entries.size(); ++i) {
        if (m_entries[i].name == name) {
            m_list->setCurrentItem(m_list->topLevelItem(int(i)));
            return true;
        }
    }
    return false;
}

void ShortcutsDialog::showSelected()
{
    QTreeWidgetItem *item = m_list->currentItem();
    const bool selected = item != nullptr;
    m_keyEdit->setEnabled(selected);
    m_clearButton->setEnabled(selected);
    m_defaultButton->setEnabled(selected);
    const QSignalBlocker blocker(m_keyEdit);
    const int row = selected ? m_list->indexOfTopLevelItem(item) : -1;
    m_keyEdit->setKeySequence(row >= 0 && !m_keys[row].isEmpty() ? m_keys[row].constFirst() : QKeySequence());
}

void ShortcutsDialog::setSelectedKeys(const QList<QKeySequence> &keys)
{
    QTreeWidgetItem *item = m_list->currentItem();
    if (!item)
        return;
    m_keys[m_list->indexOfTopLevelItem(item)] = keys;
    {
        const QSignalBlocker blocker(m_keyEdit);
        m_keyEdit->setKeySequence(keys.isEmpty() ? QKeySequence() : keys.constFirst());
    }
    updateRows();
}

void ShortcutsDialog::restoreAllDefaults()
{
    for (qsizetype i = 0; i < m_entries.size(); ++i)
        m_keys[i] = m_entries[i].defaults;
    showSelected();
    updateRows();
}

void ShortcutsDialog::updateRows()
{
    const QList<ShortcutConflict> conflicts = shortcutConflicts(m_entries, m_keys);
    QStringList lines;
    for (const ShortcutConflict &conflict : conflicts) {
        lines << tr("%1 is the key of %2: choose one.")
                     .arg(conflict.keys.toString(QKeySequence::NativeText), conflict.titles.join(tr(" and ")));
    }
    m_conflicts->setText(lines.join(u'\n'));
    m_conflicts->setVisible(!lines.isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(conflicts.isEmpty());
    for (int row = 0; row < m_list->topLevelItemCount(); ++row) {
        QTreeWidgetItem *item = m_list->topLevelItem(row);
        item->setText(KeysColumn, shortcutsText(m_keys[row]));
        const bool conflicting = std::any_of(conflicts.cbegin(), conflicts.cend(),
            [&](const ShortcutConflict &conflict) { return conflict.titles.contains(m_entries[row].title); });
        const bool changed = m_keys[row] != m_entries[row].defaults;
        QFont font = item->font(KeysColumn);
        font.setBold(changed);
        item->setFont(KeysColumn, font);
        item->setForeground(KeysColumn, conflicting ? QBrush(QColor(0xb0, 0x20, 0x20)) : QBrush());
        item->setToolTip(KeysColumn,
            changed ? tr("Changed; its own: %1")
                          .arg(m_entries[row].defaults.isEmpty() ? tr("none") : shortcutsText(m_entries[row].defaults))
                    : QString());
    }
}

void ShortcutsDialog::accept()
{
    if (!shortcutConflicts(m_entries, m_keys).isEmpty())
        return;
    QSettings settings;
    for (qsizetype i = 0; i < m_entries.size(); ++i) {
        storeShortcuts(settings, m_entries[i].name, m_keys[i], m_entries[i].defaults);
        if (m_entries[i].action->shortcuts() != m_keys[i])
            setActionShortcuts(m_entries[i].action, m_keys[i]);
    }
    QDialog::accept();
}

} // namespace memhist::viewer
