// SPDX-License-Identifier: MIT
#include "mouseandkeys.h"

#include "clickquery.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QMenu>
#include <QMenuBar>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace memhist::viewer {

namespace {

QString plainText(const QAction *action)
{
    QString text = action->text();
    text.remove(u'&');
    if (text.endsWith(u'…'))
        text.chop(1);
    return text;
}

void collect(const QMenu *menu, const QString &prefix, QList<HelpEntry> *entries)
{
    for (QAction *action : menu->actions()) {
        if (action->isSeparator())
            continue;
        const QString name = prefix + plainText(action);
        if (action->menu()) {
            collect(action->menu(), name + QStringLiteral(" ▸ "), entries);
            continue;
        }
        const QList<QKeySequence> shortcuts = action->shortcuts();
        if (shortcuts.isEmpty())
            continue;
        QStringList keys;
        for (const QKeySequence &keySequence : shortcuts)
            keys << keySequence.toString(QKeySequence::NativeText);
        entries->append({ keys.join(QStringLiteral(", ")), name, shortcuts });
    }
}

} // namespace

QList<HelpEntry> mouseGestures()
{
    const QString ctrl = QKeySequence(backwardModifier).toString(QKeySequence::NativeText);
    return {
        { MouseAndKeysDialog::tr("Click"),
            MouseAndKeysDialog::tr("The accesses to the clicked bytes from that access on (the access under the "
                                   "cursor, else the window around the point); the toolbar says which operations"),
            {} },
        { MouseAndKeysDialog::tr("%1click").arg(ctrl), MouseAndKeysDialog::tr("The accesses before it, newest first"),
            {} },
        { MouseAndKeysDialog::tr("Hover"),
            MouseAndKeysDialog::tr("The transition, the address and the access under the cursor, in the status line"),
            {} },
        { MouseAndKeysDialog::tr("Wheel"), MouseAndKeysDialog::tr("Zoom both axes, at the cursor"), {} },
        { MouseAndKeysDialog::tr("%1wheel").arg(ctrl), MouseAndKeysDialog::tr("Zoom the transitions (x) only"), {} },
        { MouseAndKeysDialog::tr("Shift+wheel"), MouseAndKeysDialog::tr("Zoom the addresses (y) only"), {} },
        { MouseAndKeysDialog::tr("Drag"), MouseAndKeysDialog::tr("Pan"), {} },
        { MouseAndKeysDialog::tr("Right drag, Shift+drag"), MouseAndKeysDialog::tr("Zoom to the rectangle"), {} },
        { MouseAndKeysDialog::tr("Mouse back and forward buttons"),
            MouseAndKeysDialog::tr("The previous and the next view"), {} },
    };
}

QList<HelpEntry> menuShortcuts(const QMenuBar *menus)
{
    QList<HelpEntry> entries;
    for (QAction *action : menus->actions()) {
        if (action->menu())
            collect(action->menu(), plainText(action) + QStringLiteral(" ▸ "), &entries);
    }
    return entries;
}

QString mouseAndKeysHtml(const QList<HelpEntry> &gestures, const QList<HelpEntry> &shortcuts)
{
    // -> QString: with QStringBuilder, `html + …` would return a builder referring to the local.
    const auto table = [](const QList<HelpEntry> &entries) -> QString {
        QString html = QStringLiteral("<table cellspacing='0' cellpadding='3'>");
        for (const HelpEntry &entry : entries) {
            html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                        .arg(entry.keys.toHtmlEscaped(), entry.what.toHtmlEscaped());
        }
        return html + QStringLiteral("</table>");
    };
    return MouseAndKeysDialog::tr("<h3>On the plane</h3>") + table(gestures)
        + MouseAndKeysDialog::tr("<h3>Keys</h3><p>They work wherever the focus is in the window, except "
                                 "where a text field uses the key itself.</p>")
        + table(shortcuts);
}

MouseAndKeysDialog::MouseAndKeysDialog(const QMenuBar *menus, QWidget *parent)
    : QDialog(parent)
    , m_gestures(mouseGestures())
    , m_shortcuts(menuShortcuts(menus))
{
    setObjectName(QStringLiteral("mouseAndKeysDialog"));
    setWindowTitle(tr("Mouse and Keys"));
    auto *browser = new QTextBrowser(this);
    browser->setObjectName(QStringLiteral("mouseAndKeysText"));
    browser->setHtml(mouseAndKeysHtml(m_gestures, m_shortcuts));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(browser, 1);
    layout->addWidget(buttons);
    resize(640, 620);
}

} // namespace memhist::viewer
