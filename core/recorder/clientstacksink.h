// SPDX-License-Identifier: MIT
// Names the client stack of a program valgrind runs, for `memhist record`.
//
// Valgrind gives the program a stack of its own: a reservation of the main stack size ending at
// an address it chooses (cls_end; 0x1fff000fff on amd64-linux for valgrind 3.19), of which it maps
// a few pages at first and more as the stack grows. It says where only in its debug log (`-d`),
// which goes to its stderr, the program's own stderr, so the recorder cannot read it. What the
// recorder can do: read /proc/PID/maps of the valgrind process when the program's first data
// access comes by (the program's entry pushes a return address or pops argc: a stack access) and
// take the anonymous mapping holding that address. Its end is cls_end for the whole run (the
// stack grows down); its start is cls_end + 1 - the main stack size, which the recorder sets
// itself (--main-stacksize, see mainStackSize()). The whole reservation is then '[stack]' from
// the transition of that first access (its instruction is at most a few after the first), as
// /proc would name the stack, including the part not yet touched. A kept log gets the same
// mapping as a line of its own (valgrindverboselines.h), written by the recorder where the
// handler set with setStackNamedHandler() tells it.
//
// Every call goes on to the sink it wraps; the first access also costs one read of /proc.
#pragma once

#include "core/importers/accesssink.h"

#include <functional>
#include <sys/types.h>

namespace memhist {

class ClientStackSink final : public AccessSink
{
public:
    // The main stack size valgrind would choose by itself: the stack size limit (ulimit -s) within
    // [1 MiB, 16 MiB], in whole pages.
    static std::uint64_t mainStackSize();

    ClientStackSink(AccessSink &inner, std::uint64_t stackSize)
        : m_inner(inner)
        , m_stackSize(stackSize)
    { }
    // The valgrind process whose maps are read; until it is set, nothing is looked for.
    void setProcess(pid_t valgrind) { m_process = valgrind; }
    // Called with the stack's mapping when it is named, during the add() of the first access.
    void setStackNamedHandler(std::function<void(const Mapping &)> handler) { m_stackNamed = std::move(handler); }
    // Why the stack was not named (the process had ended, the first access was not in an anonymous
    // mapping); empty when it was, or before the first access.
    const QString &problem() const { return m_problem; }

    bool add(const Access &access) override
    {
        if (!m_looked)
            lookForStack(access);
        return m_inner.add(access);
    }
    QString errorString() const override { return m_inner.errorString(); }
    bool addInstruction(Transition transition, Address pc, quint8 size) override
    {
        return m_inner.addInstruction(transition, pc, size);
    }
    void addInstructionBytes(Address pc, QByteArrayView bytes) override { m_inner.addInstructionBytes(pc, bytes); }
    void addMapping(Transition from, const Mapping &mapping) override { m_inner.addMapping(from, mapping); }
    void removeMapping(Transition from, Address first, Address last) override
    {
        m_inner.removeMapping(from, first, last);
    }
    void addModule(const LoadedModule &module) override { m_inner.addModule(module); }
    void setInstructionSet(InstructionSet set) override { m_inner.setInstructionSet(set); }
    void addValue(const AccessValueView &value) override { m_inner.addValue(value); }
    void addThreadSpan(qint64 threadId, Transition first, Transition last) override
    {
        m_inner.addThreadSpan(threadId, first, last);
    }
    void setMetaValue(const QString &key, const QString &value) override { m_inner.setMetaValue(key, value); }

private:
    void lookForStack(const Access &access);

    AccessSink &m_inner;
    std::uint64_t m_stackSize;
    pid_t m_process = 0;
    bool m_looked = false;
    QString m_problem;
    std::function<void(const Mapping &)> m_stackNamed;
};

} // namespace memhist
