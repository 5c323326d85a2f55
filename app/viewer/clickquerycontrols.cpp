// SPDX-License-Identifier: MIT
#include "clickquerycontrols.h"

#include <QAction>
#include <QActionGroup>
#include <QLabel>
#include <QSettings>
#include <QSpinBox>
#include <QToolBar>

namespace memhist::viewer {

namespace {

constexpr auto windowBytesKey = "clickQuery/windowBytes";
constexpr auto operationsKey = "clickQuery/operations";
constexpr int defaultWindowBytes = 64;

// Every tooltip of the section says both gestures: the status line is not the only place.
QString withGestures(const QString &tip, const QString &gestures)
{
    return tip + u'\n' + gestures;
}

} // namespace

ClickQueryControls::ClickQueryControls(QWidget *window)
    : QObject(window)
{
    // Which operations a click on the plane asks for: reads, writes or both, and executes on top
    // when Executes is checked (a click on code: when did this instruction run).
    const QString clickTip
        = tr("Click on the plane: the accesses from the clicked one on; Ctrl+click: the accesses before it");
    m_operationsGroup = new QActionGroup(window);
    m_operationsGroup->setExclusive(true);
    const auto makeOperation = [this, &clickTip](const QString &text, const QString &tip) {
        QAction *action = m_operationsGroup->addAction(text);
        action->setCheckable(true);
        action->setToolTip(withGestures(tip, clickTip));
        action->setStatusTip(clickTip);
        return action;
    };
    m_readsAction = makeOperation(tr("Reads"), tr("A click on the plane queries reads only"));
    m_writesAction = makeOperation(tr("Writes"), tr("A click on the plane queries writes only"));
    m_bothAction = makeOperation(tr("Reads + Writes"), tr("A click on the plane queries reads and writes"));
    m_bothAction->setChecked(true);
    const auto rememberOperations
        = [this] { QSettings().setValue(QLatin1String(operationsKey), int(settings().operations.toInt())); };
    connect(m_operationsGroup, &QActionGroup::triggered, this, rememberOperations);
    m_executesAction = new QAction(tr("Executes"), window);
    m_executesAction->setObjectName(QStringLiteral("clickExecutes"));
    m_executesAction->setCheckable(true);
    m_executesAction->setToolTip(
        withGestures(tr("A click on the plane also queries executes (when the code there ran)"), clickTip));
    m_executesAction->setStatusTip(clickTip);
    connect(m_executesAction, &QAction::triggered, this, rememberOperations);

    m_windowSpin = new QSpinBox(window);
    m_windowSpin->setObjectName(QStringLiteral("queryWindow"));
    m_windowSpin->setRange(0, 1 << 24);
    m_windowSpin->setPrefix(QStringLiteral("± "));
    m_windowSpin->setSuffix(tr(" B"));
    m_windowSpin->setValue(defaultWindowBytes);
    m_windowSpin->setAccelerated(true);
    m_windowSpin->setToolTip(
        withGestures(tr("Address window around a clicked point where no access is under the cursor"), clickTip));
    m_windowSpin->setStatusTip(clickTip);
    connect(m_windowSpin, &QSpinBox::valueChanged, this,
        [](int value) { QSettings().setValue(QLatin1String(windowBytesKey), value); });
}

ClickQuerySettings ClickQueryControls::settings() const
{
    ClickQuerySettings settings;
    settings.windowBytes = quint64(m_windowSpin->value());
    if (m_readsAction->isChecked())
        settings.operations = Operation::Read;
    else if (m_writesAction->isChecked())
        settings.operations = Operation::Write;
    else
        settings.operations = Operations(Operation::Read) | Operation::Write;
    if (m_executesAction->isChecked())
        settings.operations |= Operation::Execute;
    return settings;
}

void ClickQueryControls::setSettings(const ClickQuerySettings &settings)
{
    m_windowSpin->setValue(int(std::min<quint64>(settings.windowBytes, quint64(m_windowSpin->maximum()))));
    const bool reads = settings.operations.testFlag(Operation::Read);
    const bool writes = settings.operations.testFlag(Operation::Write);
    (reads && !writes ? m_readsAction : writes && !reads ? m_writesAction : m_bothAction)->setChecked(true);
    m_executesAction->setChecked(settings.operations.testFlag(Operation::Execute));
}

void ClickQueryControls::restoreSettings()
{
    const QSettings stored;
    m_windowSpin->setValue(stored.value(QLatin1String(windowBytesKey), defaultWindowBytes).toInt());
    const int operations = stored.value(QLatin1String(operationsKey), 0).toInt();
    if (operations != 0) {
        ClickQuerySettings click = settings();
        click.operations = Operations::fromInt(operations);
        setSettings(click);
    }
}

void ClickQueryControls::addTo(QToolBar *bar)
{
    // Short labels: the whole section stays in sight in a 1024 px wide window (the tooltips and the
    // status tip say what a click does).
    auto *clickLabel = new QLabel(tr("Click: "), bar);
    clickLabel->setToolTip(tr("What a click on the plane queries"));
    clickLabel->setStatusTip(m_bothAction->statusTip());
    bar->addWidget(clickLabel);
    bar->addActions(m_operationsGroup->actions());
    bar->addAction(m_executesAction);
    auto *windowLabel = new QLabel(tr("within "), bar);
    windowLabel->setBuddy(m_windowSpin);
    bar->addWidget(windowLabel);
    // As wide as "± 999999 B" rather than the maximum's 8 digits (16 MiB, rarely wanted: it
    // scrolls in its field), for the 1024 px wide window's toolbar.
    const QFontMetrics metrics(m_windowSpin->font());
    m_windowSpin->setMaximumWidth(m_windowSpin->sizeHint().width()
        - metrics.horizontalAdvance(m_windowSpin->locale().toString(m_windowSpin->maximum()))
        + metrics.horizontalAdvance(m_windowSpin->locale().toString(999999)));
    bar->addWidget(m_windowSpin);
}

} // namespace memhist::viewer
