// SPDX-License-Identifier: MIT
// Where a trace importer or parser sends the accesses it reads: the history writer (through a
// WriterSink) when importing or recording, a sink that only counts them when a benchmark measures
// the parser alone.
//
// Besides the accesses, a parser reports the program context its trace has (the PC of each
// instruction, instruction bytes, the memory map and module loads, the bytes accesses moved). Those
// calls do nothing by default, so a sink that only counts accesses stays trivial.
#pragma once

#include "core/context/contexttypes.h"
#include "core/context/processmap.h"
#include "core/model/types.h"
#include "core/values/accessvalue.h"
#include "core/writer/historywriter.h"

#include <QByteArrayView>
#include <QString>

namespace memhist {

class AccessSink
{
public:
    virtual ~AccessSink() = default;
    // False + errorString() stops the parser, which reports the error at the line being parsed.
    virtual bool add(const Access &access) = 0;
    virtual QString errorString() const = 0;

    // Every instruction, in trace order, at its transition; size 0 = unknown. False +
    // errorString() stops the parser (transitions that do not increase).
    virtual bool addInstruction(Transition transition, Address pc, quint8 size)
    {
        Q_UNUSED(transition);
        Q_UNUSED(pc);
        Q_UNUSED(size);
        return true;
    }
    // The bytes of the instruction at `pc`, when the trace encodes them.
    virtual void addInstructionBytes(Address pc, QByteArrayView bytes)
    {
        Q_UNUSED(pc);
        Q_UNUSED(bytes);
    }
    // A mapping appears at `from` (mmap, a module's segment), replacing what it overlaps.
    virtual void addMapping(Transition from, const Mapping &mapping)
    {
        Q_UNUSED(from);
        Q_UNUSED(mapping);
    }
    // [first, last] is unmapped at `from`.
    virtual void removeMapping(Transition from, Address first, Address last)
    {
        Q_UNUSED(from);
        Q_UNUSED(first);
        Q_UNUSED(last);
    }
    // A module load the trace names with its bias (valgrind's verbose lines, DynamoRIO's
    // modules.log); `module.first` is the transition it was loaded at.
    virtual void addModule(const LoadedModule &module) { Q_UNUSED(module); }
    // The instruction set the trace says its program ran (for the disassembly).
    virtual void setInstructionSet(InstructionSet set) { Q_UNUSED(set); }
    // The bytes the access added just before read or wrote (and, for a write, overwrote), and
    // whether the kernel made it.
    virtual void addValue(const AccessValueView &value) { Q_UNUSED(value); }
    // Thread `threadId` ran the transitions [first, last] (traces that know their threads).
    virtual void addThreadSpan(qint64 threadId, Transition first, Transition last)
    {
        Q_UNUSED(threadId);
        Q_UNUSED(first);
        Q_UNUSED(last);
    }
    // A fact about the import the history keeps in its meta table ("drmemtrace: ...").
    virtual void setMetaValue(const QString &key, const QString &value)
    {
        Q_UNUSED(key);
        Q_UNUSED(value);
    }
};

class WriterSink final : public AccessSink
{
public:
    explicit WriterSink(HistoryWriter &writer)
        : m_writer(writer)
    { }
    bool add(const Access &access) override { return m_writer.add(access); }
    QString errorString() const override { return m_writer.errorString(); }
    bool addInstruction(Transition transition, Address pc, quint8 size) override
    {
        return m_writer.addInstruction(transition, pc, size);
    }
    void addInstructionBytes(Address pc, QByteArrayView bytes) override { m_writer.addInstructionBytes(pc, bytes); }
    void addMapping(Transition from, const Mapping &mapping) override { m_writer.addMapping(from, mapping); }
    void removeMapping(Transition from, Address first, Address last) override
    {
        m_writer.removeMapping(from, first, last);
    }
    void addModule(const LoadedModule &module) override { m_writer.addModule(module); }
    void setInstructionSet(InstructionSet set) override { m_writer.setInstructionSet(set); }
    void addValue(const AccessValueView &value) override { m_writer.addValue(value); }
    void addThreadSpan(qint64 threadId, Transition first, Transition last) override
    {
        m_writer.addThreadSpan(threadId, first, last);
    }
    void setMetaValue(const QString &key, const QString &value) override { m_writer.setMetaValue(key, value); }

private:
    HistoryWriter &m_writer;
};

} // namespace memhist
