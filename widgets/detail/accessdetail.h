// SPDX-License-Identifier: MIT
// Everything the detail pane says about one access: the access itself, its thread and value, the
// instruction that made it with the instructions the history knows around it, that instruction's
// function, module and source line with the source file's text around the line (when the file is on
// this machine), and what the accessed address is. Read in a worker thread (DetailWorker), shown by
// DetailPane.
#pragma once

#include "core/context/contextreader.h"
#include "core/model/types.h"

#include <QByteArray>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <optional>

namespace memhist {

class ThreadSpans;

struct AccessDetail
{
    Access access;
    bool threadsKnown = false; // the history records threads
    std::optional<qint64> thread;
    std::optional<AccessValue> value; // the bytes moved (and a write's before), when the history has them

    std::optional<Address> pc; // none when the history does not know the transition's PC
    CodeDescription code; // of pc
    // The instructions table's instructions nearest to pc, in address order (pc's own among them
    // when known); empty without the table.
    QList<KnownInstruction> instructions;

    // The source file's lines around code.line (±sourceContext), when the file is on this machine.
    bool sourceFound = false;
    int firstSourceLine = 0; // the number of sourceLines.first()
    QStringList sourceLines;

    AddressDescription address;
    QString error; // non-empty: the history could not be read, nothing else is valid
};

// Instructions read on each side of the access's PC, and source lines on each side of its line.
inline constexpr int instructionContext = 4;
inline constexpr int sourceContext = 5;

// Reads the detail of `access` through the readers of one connection (on that connection's thread).
// The source file is read from disk.
AccessDetail readAccessDetail(ContextReader &reader, const ThreadSpans &threads, const Access &access);

} // namespace memhist

Q_DECLARE_METATYPE(memhist::AccessDetail)
