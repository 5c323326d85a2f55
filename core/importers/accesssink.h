// Where a trace parser sends the accesses it reads: the history writer when importing or recording,
// a sink that only counts them when a benchmark measures the parser alone.
#pragma once

#include "model/types.h"
#include "writer/historywriter.h"

#include <QString>

namespace memhist {

class AccessSink
{
public:
    virtual ~AccessSink() = default;
    // False + errorString() stops the parser, which reports the error at the line being parsed.
    virtual bool add(const Access &access) = 0;
    virtual QString errorString() const = 0;
};

class WriterSink final : public AccessSink
{
public:
    explicit WriterSink(HistoryWriter &writer)
        : m_writer(writer)
    { }
    bool add(const Access &access) override { return m_writer.add(access); }
    QString errorString() const override { return m_writer.errorString(); }

private:
    HistoryWriter &m_writer;
};

} // namespace memhist
