// SPDX-License-Identifier: MIT
// What valgrind's own lines in a Lackey log say about the traced program's memory: with `-v -v`,
// each object it loads for the program, as it loads it ("--PID-- Reading syms from PATH", then
// "--PID--    svma 0x..., avma 0x..." whose difference is the load bias, then, when it looks for
// a separate debug file, "--PID--   Considering /usr/lib/debug/.build-id/xx/yyyy.debug .." which
// names the object's build-id); with `--trace-syscalls=yes`, each brk() and the break it returned
// ("SYSCALL[PID,TID](12) sys_brk ( 0x0 ) --> [pre-success] Success(0x4035000)"), and each
// anonymous mmap() and munmap() ('[anon]' mappings: large malloc() blocks, thread stacks).
//
// The log is one ordered stream, so each of these lines happens at a known transition: the one
// the next instruction gets. A load becomes a module with its bias and the mappings of its
// PT_LOAD segments (elfloadmappings.h: the program headers give the same answer every time, where
// /proc/PID/maps read while valgrind runs on would be a moment later than the line). The brk
// results make the heap: '[heap]' from the first break to the current one, as /proc names it.
//
// "--PID-- Discarding syms at 0x...-0x... in PATH" (the object unmapped: dlclose) ends the
// mappings of the last load of PATH, and so the module's lifetime.
//
// `memhist record --keep-log` adds one line of its own, which valgrind cannot give: where the
// client stack is ("--PID-- memhist record: client stack 0xFIRST-0xLAST", clientstacksink.h), just
// before the line of the program's first data access. It names '[stack]' from the transition of
// that access's instruction on, as the recording did.
//
// Valgrind also reads its own tool executable ("lackey-amd64-linux" in its library directory),
// which is not the program's: it is left out. Its preloaded helpers (vgpreload_*.so) run in the
// program and are kept.
#pragma once

#include "core/importers/accesssink.h"

#include <QByteArrayView>
#include <QHash>
#include <QList>
#include <QString>
#include <optional>

namespace memhist {

// What follows valgrind's "--PID-- " in the client stack line.
inline constexpr QByteArrayView clientStackLinePrefix("memhist record: client stack ");

class ValgrindVerboseLines
{
public:
    explicit ValgrindVerboseLines(AccessSink &sink)
        : m_sink(sink)
    { }

    // One of valgrind's messages ("--PID-- ...", "==PID== ..."), without its newline, seen when
    // the next instruction is `next`.
    void handleMessage(QByteArrayView line, Transition next);
    // A --trace-syscalls line ("SYSCALL[...] ...").
    void handleSyscall(QByteArrayView line, Transition next);
    // The log has ended: a load still waiting for its build-id line is reported.
    void finish();

    // Modules reported so far.
    qint64 modules() const { return m_modules; }

private:
    struct PendingLoad
    {
        QString path;
        Transition from;
        std::optional<std::uint64_t> bias;
        QString buildId;
    };

    void flush();
    void handleBreak(std::uint64_t value, Transition next);
    bool isValgrindsOwn(const QString &path) const;

    AccessSink &m_sink;
    QString m_libraryDirectory;
    std::optional<PendingLoad> m_pending;
    QHash<QString, QList<Mapping>> m_loaded; // the mappings of the last load of each path
    qint64 m_modules = 0;
    std::optional<std::uint64_t> m_heapFirst;
    std::uint64_t m_heapEnd = 0; // the current break
};

} // namespace memhist
