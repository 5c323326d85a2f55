// SPDX-License-Identifier: MIT
#include "widgets/memory/memorypane.h"

#include "core/model/numbertext.h"
#include "widgets/memory/memoryshades.h"
#include "widgets/memory/memoryview.h"
#include "widgets/memory/memoryworker.h"

#include <QCompleter>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QVBoxLayout>
#include <limits>

namespace memhist {

namespace {

constexpr std::uint64_t maxAddress = std::numeric_limits<std::uint64_t>::max();

// The largest top from which `rows` whole rows fit below 2^64.
std::uint64_t lastTop(int rows)
{
    return maxAddress - (std::uint64_t(rows) * memoryBytesPerRow - 1);
}

} // namespace

MemoryPane::MemoryPane(QWidget *parent)
    : QWidget(parent)
    , m_thread(std::make_unique<ConnectionThread<MemoryWorker>>(this, QStringLiteral("memhist memory")))
{
    m_readTimer.setSingleShot(true);
    m_readTimer.setInterval(0);
    connect(&m_readTimer, &QTimer::timeout, this, &MemoryPane::startRead);

    m_addressEdit = new QLineEdit(this);
    m_addressEdit->setObjectName(QStringLiteral("memoryAddress"));
    m_addressEdit->setPlaceholderText(tr("Address or symbol"));
    m_addressEdit->setClearButtonEnabled(true);
    m_addressEdit->setToolTip(
        tr("Show the memory at an address (0x4a1b140), a function or a data object (counter, table+3); Return goes"));
    connect(m_addressEdit, &QLineEdit::returnPressed, this, [this] {
        QString error;
        if (goToText(m_addressEdit->text().trimmed(), &error)) {
            m_addressError->hide();
        } else {
            m_addressError->setText(error);
            m_addressError->show();
        }
    });
    m_caption = new QLabel(this);
    m_caption->setObjectName(QStringLiteral("memoryCaption"));
    m_caption->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_addressError = new QLabel(this);
    m_addressError->setObjectName(QStringLiteral("memoryAddressError"));
    m_addressError->setWordWrap(true);
    m_addressError->hide();

    m_view = new MemoryView(this);
    m_view->setObjectName(QStringLiteral("memoryView"));
    // Sideways only: the rows are as many as the height holds, and the wheel moves through memory.
    m_scroll = new QScrollArea(this);
    m_scroll->setWidget(m_view);
    m_scroll->setWidgetResizable(true);
    m_scroll->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_legend = new QLabel(this);
    m_legend->setObjectName(QStringLiteral("memoryLegend"));
    m_legend->setWordWrap(true);
    m_legend->setTextFormat(Qt::RichText);
    m_legend->setText(memoryLegendHtml(palette()));

    auto *top = new QHBoxLayout;
    top->addWidget(m_addressEdit, 1);
    top->addWidget(m_caption, 1);
    auto *layout = new QVBoxLayout(this);
    // Narrow sides: the row of 16 bytes should fit beside the results in a 1280 px wide window.
    layout->setContentsMargins(2, 4, 2, 4);
    layout->setSpacing(4);
    layout->addLayout(top);
    layout->addWidget(m_addressError);
    layout->addWidget(m_scroll, 1);
    layout->addWidget(m_legend);

    connect(m_view, &MemoryView::rowCountChanged, this, [this] {
        // Fewer rows may have left the selected access below the last one.
        if (const auto selection = m_view->selection(); selection && selection->second > m_view->lastShown())
            m_view->setTop(topFor(selection->first));
        scheduleRead();
    });
    connect(m_view, &MemoryView::scrollRequested, this, &MemoryPane::scrollBy);
    connect(m_view, &MemoryView::byteClicked, this, &MemoryPane::pickByte);
    showBytes();
}

// A read in progress is finished in the worker thread; its result is dropped.
MemoryPane::~MemoryPane() = default;

void MemoryPane::setHistory(const QString &path)
{
    m_historyPath = path;
    m_thread->cancel();
    m_readTimer.stop();
    m_hasValues.reset();
    m_position.reset();
    m_view->setSnapshot({});
    m_view->setSelection(std::nullopt);
    m_addressError->hide();
    updateCaption();
    if (path.isEmpty()) {
        showBytes();
        return;
    }
    showMessage(tr("Reading %1…").arg(path));
    // Whether it has values at all: a history without says so at once, before any position.
    m_thread->post(
        m_thread->supersede(), [path](MemoryWorker &worker, const JobTicket &) { return worker.probe(path); },
        [this](const MemoryRead &read) {
            if (!read.error.isEmpty()) {
                showMessage(tr("Cannot read the memory: %1").arg(read.error));
                return;
            }
            m_hasValues = read.hasValues;
            showBytes();
        });
}

void MemoryPane::showAccess(const std::optional<Access> &access)
{
    if (!access) {
        m_view->setSelection(std::nullopt);
        return;
    }
    m_view->setSelection(std::pair { access->physical, access->lastByte() });
    m_position = access->transition;
    // Stepping from access to access over the same bytes keeps the rows still; an access out of
    // view brings its first byte a third down.
    if (access->physical < m_view->top() || access->lastByte() > m_view->lastShown())
        showAddress(access->physical);
    scheduleRead();
}

void MemoryPane::showTransition(Transition t)
{
    m_position = t;
    scheduleRead();
}

void MemoryPane::showPoint(Transition t, Address a)
{
    m_position = t;
    showAddress(a);
    scheduleRead();
}

void MemoryPane::showAddress(Address address)
{
    if (address >= m_view->top() && address <= m_view->lastShown() && !m_view->snapshot().bytes.isEmpty())
        return;
    m_view->setTop(topFor(address));
    scheduleRead();
}

Address MemoryPane::topFor(Address address) const
{
    const std::uint64_t above = std::uint64_t(m_view->rowCount() / 3) * memoryBytesPerRow;
    const std::uint64_t aligned = address.value & ~std::uint64_t(memoryBytesPerRow - 1);
    return Address { std::min(aligned > above ? aligned - above : 0, lastTop(m_view->rowCount())) };
}

bool MemoryPane::goToText(const QString &text, QString *error)
{
    if (m_historyPath.isEmpty()) {
        *error = tr("No history open");
        return false;
    }
    Address address;
    if (m_resolver) {
        if (!m_resolver(text, &address, error))
            return false;
    } else {
        std::uint64_t value = 0;
        if (!parseTypedNumber(text, &value)) {
            *error = tr("“%1” is not an address: type a number (0x4a1b140).").arg(text);
            return false;
        }
        address = Address { value };
    }
    // Typed: the address goes a third down even when it is in view, so that it is where one looks.
    m_view->setTop(topFor(address));
    if (!m_position)
        emit statusMessage(tr("Memory at %1: select an access or click the plane for a transition to show it after")
                               .arg(hexText(address.value)));
    scheduleRead();
    return true;
}

void MemoryPane::setCompleter(QCompleter *completer)
{
    m_addressEdit->setCompleter(completer);
}

void MemoryPane::scrollBy(qint64 rows)
{
    const std::uint64_t top = m_view->top().value;
    const std::uint64_t step = std::uint64_t(rows < 0 ? -rows : rows) * memoryBytesPerRow;
    const std::uint64_t limit = lastTop(m_view->rowCount());
    if (rows < 0)
        m_view->setTop(Address { top > step ? top - step : 0 });
    else
        m_view->setTop(Address { top > limit - std::min(step, limit) ? limit : top + step });
    scheduleRead();
}

void MemoryPane::scheduleRead()
{
    m_readTimer.start();
}

void MemoryPane::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    // What moved while the pane was hidden (behind the Detail tab, closed) is read now.
    scheduleRead();
}

void MemoryPane::startRead()
{
    updateCaption();
    if (m_historyPath.isEmpty() || !m_position || m_hasValues == false) {
        showBytes();
        return;
    }
    // Hidden, it reads nothing: the position may move many times before anyone looks.
    if (!isVisible())
        return;
    const Transition at = *m_position;
    const Address first = m_view->top();
    const Address last = m_view->lastShown();
    const QString path = m_historyPath;
    m_sinceRequest.start();
    m_thread->post(
        m_thread->supersede(),
        [path, at, first, last](MemoryWorker &worker, const JobTicket &) { return worker.read(path, at, first, last); },
        [this](const MemoryRead &read) {
            m_lastLatency = m_sinceRequest.elapsed();
            m_hasValues = read.hasValues;
            if (!read.error.isEmpty()) {
                showMessage(tr("Cannot read the memory: %1").arg(read.error));
            } else {
                m_view->setSnapshot(read.snapshot);
                showBytes();
            }
            emit memoryShown();
        });
}

void MemoryPane::pickByte(Address address)
{
    const MemorySnapshot &snapshot = m_view->snapshot();
    if (!snapshot.contains(address))
        return;
    const MemoryByte &byte = snapshot.byteAt(address);
    if (byte.knownBy == KnownBy::Unknown || byte.rowId.value <= 0) {
        emit statusMessage(tr("%1 is unknown after transition %2: no access tells it")
                               .arg(hexText(address.value), countText(snapshot.at.value)));
        return;
    }
    // Not tied to the reads' generations: a scroll after the click must not drop it. A pick that
    // arrives after another history was opened is dropped by the path.
    const QString path = m_historyPath;
    m_thread->post([path, rowId = byte.rowId, address, knownBy = byte.knownBy](
                       MemoryWorker &worker) { return worker.accessOf(path, rowId, address, knownBy); },
        [this, path](const PickedAccess &picked) {
            if (path != m_historyPath)
                return;
            if (!picked.access) {
                emit statusMessage(tr("Cannot select the access: %1").arg(picked.error));
                return;
            }
            emit accessPicked(*picked.access, picked.knownBy);
        });
}

void MemoryPane::showMessage(const QString &message)
{
    m_view->setMessage(message);
    m_legend->hide();
}

void MemoryPane::showBytes()
{
    // Nothing to move to without values.
    m_addressEdit->setEnabled(!m_historyPath.isEmpty() && m_hasValues != false);
    if (m_historyPath.isEmpty()) {
        showMessage(tr("No history open"));
    } else if (m_hasValues == false) {
        showMessage(tr("This history keeps no values (the bytes each access read or wrote), so its memory cannot "
                       "be shown. Record the program with memhist record (memhist's own Valgrind tool), or import a "
                       "trace that has them (Tenet), to see memory here."));
    } else if (!m_position) {
        showMessage(tr("Select an access (a click on the plane, a row of the results) or go to a transition: the "
                       "memory after it shows here."));
    } else if (m_hasValues == true) {
        m_view->setMessage({});
        m_legend->show();
    }
}

QSize MemoryPane::sizeHint() const
{
    const QMargins margins = layout()->contentsMargins();
    return { m_view->sizeHint().width() + margins.left() + margins.right(), QWidget::sizeHint().height() };
}

QString MemoryPane::message() const
{
    return m_view->message();
}

QString MemoryPane::caption() const
{
    return m_caption->text();
}

void MemoryPane::updateCaption()
{
    if (!m_position || m_historyPath.isEmpty()) {
        m_caption->clear();
        return;
    }
    m_caption->setText(
        tr("After transition %1 · %2 – %3")
            .arg(countText(m_position->value), hexText(m_view->top().value), hexText(m_view->lastShown().value)));
}

} // namespace memhist
