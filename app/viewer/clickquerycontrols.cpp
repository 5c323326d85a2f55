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

} // namespace

ClickQueryControls::ClickQueryControls(QWidget *window)
    : QObject(window)
{
    // Which operations a click on the plane asks for. Executes are left to the query panel: a
    // click asks "who read or wrote this", and code addresses are rarely what was clicked.
    const QString clickTip = tr("Click on the plane: accesses from the clicked transition on; Ctrl+click: before it");
    m_operationsGroup = new QActionGroup(window);
    m_operationsGroup->setExclusive(true);
    const auto makeOperation = [&](const QString &text, const QString &tip) {
        QAction *action = m_operationsGroup->addAction(text);
        action->setCheckable(true);
        action->setToolTip(tip);
        action->setStatusTip(clickTip);
        return action;
    };
    m_readsAction = makeOperation(tr("Reads"), tr("A click on the plane queries reads only"));
    m_writesAction = makeOperation(tr("Writes"), tr("A click on the plane queries writes only"));
    m_bothAction = makeOperation(tr("Reads + Writes"), tr("A click on the plane queries reads and writes"));
    m_bothAction->setChecked(true);
    connect(m_operationsGroup, &QActionGroup::triggered, this,
        [this] { QSettings().setValue(QLatin1String(operationsKey), int(settings().operations.toInt())); });

    m_windowSpin = new QSpinBox(window);
    m_windowSpin->setObjectName(QStringLiteral("queryWindow"));
    m_windowSpin->setRange(0, 1 << 24);
    m_windowSpin->setPrefix(QStringLiteral("± "));
    m_windowSpin->setSuffix(tr(" B"));
    m_windowSpin->setValue(defaultWindowBytes);
    m_windowSpin->setAccelerated(true);
    m_windowSpin->setToolTip(tr("Address window around a clicked point where no access is under the cursor"));
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
    return settings;
}

void ClickQueryControls::setSettings(const ClickQuerySettings &settings)
{
    m_windowSpin->setValue(int(std::min<quint64>(settings.windowBytes, quint64(m_windowSpin->maximum()))));
    const bool reads = settings.operations.testFlag(Operation::Read);
    const bool writes = settings.operations.testFlag(Operation::Write);
    (reads && !writes ? m_readsAction : writes && !reads ? m_writesAction : m_bothAction)->setChecked(true);
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
    auto *clickLabel = new QLabel(tr("Click queries "), bar);
    clickLabel->setStatusTip(m_bothAction->statusTip());
    bar->addWidget(clickLabel);
    bar->addActions(m_operationsGroup->actions());
    auto *windowLabel = new QLabel(tr("  within "), bar);
    windowLabel->setBuddy(m_windowSpin);
    bar->addWidget(windowLabel);
    bar->addWidget(m_windowSpin);
}

} // namespace memhist::viewer
