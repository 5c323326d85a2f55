// Imports a Tenet text trace (github.com/gaasedelen/tenet): one line per executed instruction, made
// of comma-separated fields: register deltas `rip=0x140001000` and memory accesses
// `mr=0xADDR:HEXBYTES` (read), `mw=...` (write), `mrw=...` (read then write), whose size is the
// number of hex digits / 2. Plain or gzip-compressed.
//
// Transitions: line k (0-based, blank lines aside) is transition firstTransition + k: the
// instruction at the program counter (rip, eip or pc) that line holds. A line's memory fields,
// though, are the effects of the instruction before it: the tracer writes each line after the
// instruction ran, with the program counter already moved on. The sample trace shows it: at
// rip=0x1400041a0 is a 5-byte call, and the next line carries mw=0x13ff28:a541004001000000, the
// return address 0x1400041a5 it pushed. So the memory fields of line k are stored at transition
// k - 1; those of the first line (effects of an instruction before the trace began) are stored at
// the first transition. Register values are not kept.
//
// With ImportOptions::withExecute, each line also gives an Execute access of 1 byte (the trace has
// no instruction lengths) at its program counter, at its own transition.
#pragma once

#include "importers/accesssink.h"
#include "importers/traceimporter.h"

namespace memhist {

class TenetImporter : public TraceImporter
{
public:
    QString formatName() const override { return QStringLiteral("tenet"); }
    bool run(const QString &path, HistoryWriter &writer, const ImportOptions &options, ImportReport *report,
        QString *error, const ImportProgress &progress) override;

    static bool runInto(const QString &path, AccessSink &sink, const ImportOptions &options, ImportReport *report,
        QString *error, const ImportProgress &progress);

    // For format recognition: is `line` (without its newline) a Tenet line, i.e. comma-separated
    // `name=0xHEX` fields (memory fields with their `:HEXBYTES`), at least one?
    static bool isTenetLine(QByteArrayView line);
};

} // namespace memhist
