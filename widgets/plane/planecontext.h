// SPDX-License-Identifier: MIT
// What the plane shows of a history's program context, read off the GUI thread on a connection of
// its own (a ConnectionThread, like the renderer's): the names of the address axis (the memory
// map's regions and the modules' sections, and the data symbols), the threads that ran, which
// thread ran each transition of the view, and, for the access under the cursor, its instruction,
// function and source line, its thread and what its address is (ContextReader, ThreadSpans). A
// history without context tables answers with nothing: the plane then shows what it always did.
#pragma once

#include "core/model/types.h"
#include "core/storage/threadspans.h"
#include "widgets/common/connectionthread.h"

#include <QList>
#include <QObject>
#include <QString>
#include <memory>
#include <vector>

namespace memhist {
class ContextReader;
class HistoryDatabase;
} // namespace memhist

namespace memhist::plane {

// An address range with a name: a region ("[stack]", "counter .data", "libc.so.6 .bss") or a data
// symbol ("table").
struct NamedRange
{
    std::uint64_t first = 0;
    std::uint64_t last = 0; // inclusive
    QString name;
    // Labels of higher priority are placed first: a module's section names the bytes an anonymous
    // mapping also covers (a .bss past the file's end) better than "[anon]".
    int priority = 0;
    friend bool operator==(const NamedRange &, const NamedRange &) = default;
};

// The names of a history's address axis, and its threads.
struct AddressNames
{
    // The memory map's mappings, a module's mapping replaced by its sections where the history has
    // them; each distinct (range, name) once, by first address (then widest first).
    std::vector<NamedRange> regions;
    // The data objects, by first address.
    std::vector<NamedRange> symbols;
    // The threads that ran, by id (empty without thread_spans).
    QList<qint64> threads;
};

// Reads the names (worker side: on the thread that uses `database`).
AddressNames readAddressNames(HistoryDatabase &database, ContextReader &reader, const ThreadSpans &threads);

// The context of `access`, as parts of the hover text (" · "-separated): its instruction, function
// (or module offset), source line, thread and what its address is; empty when nothing is known.
QString accessContextText(ContextReader &reader, const ThreadSpans &threads, const Access &access);

// The index of thread `threadId` in `threads` (its colour), -1 when not there.
int threadIndex(const QList<qint64> &threads, qint64 threadId);

class ContextWorker;

class PlaneContext : public QObject
{
    Q_OBJECT

public:
    explicit PlaneContext(QObject *parent = nullptr);
    ~PlaneContext() override;

    // Reads the names of `path` (namesRead(), with that path: a reply for a history since replaced
    // may still come); an empty path forgets everything queued.
    void setHistory(const QString &path);
    // The context of `access` (described()); a newer request supersedes an older one.
    void describe(const Access &access);
    // The thread spans of transitions [first, last] (threadSpansRead()); superseding.
    void readThreadSpans(Transition first, Transition last);

signals:
    void namesRead(const QString &path, const std::shared_ptr<const memhist::plane::AddressNames> &names);
    void described(const memhist::Access &access, const QString &text);
    void threadSpansRead(Transition first, Transition last, const QList<memhist::ThreadSpan> &spans);

private:
    QString m_path;
    std::unique_ptr<ConnectionThread<ContextWorker>> m_names;
    std::unique_ptr<ConnectionThread<ContextWorker>> m_hover;
};

} // namespace memhist::plane
