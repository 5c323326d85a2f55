// SPDX-License-Identifier: MIT
// The Memory pane: the memory after the current transition (the plane's position line), as a hex
// view (memoryview.h) around the selected access, each byte from its last access at or before the
// transition or the first later read (core/memory/memoryreader.h), shaded by how recently it was
// written; the bytes written at the transition itself stand out, unknown ones are "??".
//
// It follows the position: the selected access (its transition, its bytes framed and brought into
// view), a transition gone to, a click on the plane. An address or a symbol typed in its field
// moves it (the window gives it the resolver Go to Address uses). A click on a byte asks for the
// access that tells it (its last write or read, or the first later read) and hands it to the window
// (accessPicked), which selects it as a click on the plane does.
//
// Reads run in a ConnectionThread (MemoryWorker, its own connection), never on the GUI thread; a
// newer position or scroll makes the older reads stale: those not started are skipped, a result
// that arrives late is dropped, and the view shows the previous bytes until the newest arrive. A
// history without values says so instead of showing a grid of "??". A hidden pane (behind the
// Detail tab) reads nothing until it is shown.
#pragma once

#include "core/memory/memoryreader.h"
#include "widgets/memory/memoryrows.h"

#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>
#include <functional>
#include <memory>
#include <optional>

class QCompleter;
class QLabel;
class QLineEdit;
class QScrollArea;

namespace memhist {

template<typename Worker> class ConnectionThread;
class MemoryView;
class MemoryWorker;

class MemoryPane : public QWidget
{
    Q_OBJECT

public:
    // Turns typed text into an address (a number, a symbol, symbol+offset): false + *error otherwise.
    using AddressResolver = std::function<bool(const QString &text, Address *address, QString *error)>;

    explicit MemoryPane(QWidget *parent = nullptr);
    ~MemoryPane() override;

    // Forgets the position and the bytes, and finds out in the background whether `path` has values.
    void setHistory(const QString &path);
    QString history() const { return m_historyPath; }

    // The selected access: the memory after its transition, around its bytes (framed). None: the
    // frame goes, the position stays.
    void showAccess(const std::optional<memhist::Access> &access);
    // A position without an access (Go to Transition, an execution picked): the memory after `t`.
    void showTransition(memhist::Transition t);
    // A click on the plane at (t, a): the memory after t around a.
    void showPoint(memhist::Transition t, memhist::Address a);
    // Brings `address` into view (a third down the rows) unless it is shown already.
    void showAddress(memhist::Address address);
    // What the address field does with `text`: false + *error when the resolver refuses it.
    bool goToText(const QString &text, QString *error);
    void setAddressResolver(AddressResolver resolver) { m_resolver = std::move(resolver); }
    // Completes symbol names in the address field (the caller keeps it).
    void setCompleter(QCompleter *completer);

    std::optional<memhist::Transition> position() const { return m_position; }
    // Once known for the open history (after the first read or probe).
    std::optional<bool> hasValues() const { return m_hasValues; }
    // The message shown instead of the bytes; empty while the bytes are shown.
    QString message() const;
    // The line above the bytes ("after transition 147,000 · 0x10c080 – 0x10c17f").
    QString caption() const;
    MemoryView *view() const { return m_view; }
    QLineEdit *addressEdit() const { return m_addressEdit; }
    // Wall-clock milliseconds from the newest request to its bytes shown (the last memoryShown()).
    qint64 lastLatencyMilliseconds() const { return m_lastLatency; }

    // As wide as a row of 16 bytes and its characters.
    QSize sizeHint() const override;

protected:
    void showEvent(QShowEvent *event) override;

signals:
    // The bytes of the newest request are shown (or its error, or the no-values message).
    void memoryShown();
    // A click on a byte found the access that tells it.
    void accessPicked(memhist::Access access, memhist::KnownBy knownBy);
    // What the window's status line should say.
    void statusMessage(const QString &message);

private:
    void scheduleRead();
    void startRead();
    void scrollBy(qint64 rows);
    void pickByte(Address address);
    void showMessage(const QString &message);
    void showBytes();
    void updateCaption();
    // `address` a third of the rows down, as the top to read from.
    Address topFor(Address address) const;

    std::unique_ptr<ConnectionThread<MemoryWorker>> m_thread;
    QString m_historyPath;
    std::optional<bool> m_hasValues;
    std::optional<Transition> m_position;
    AddressResolver m_resolver;

    QTimer m_readTimer; // coalesces the changes of one event-loop pass into one read
    QElapsedTimer m_sinceRequest;
    qint64 m_lastLatency = -1;

    QLineEdit *m_addressEdit = nullptr;
    QLabel *m_addressError = nullptr;
    QLabel *m_caption = nullptr;
    QScrollArea *m_scroll = nullptr;
    MemoryView *m_view = nullptr;
    QLabel *m_legend = nullptr;
};

} // namespace memhist
