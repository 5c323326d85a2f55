// SPDX-License-Identifier: MIT
// Which program a history recorded, so that `memhist diff` refuses to compare runs of different
// programs: the program named by the recording command (meta "recorded with", after "--") and
// the build-id of the module of that name.
#pragma once

#include <QString>
#include <optional>

namespace memhist {

class HistoryDatabase;

struct RecordedProgram
{
    QString name; // the program's file name ("prog"); empty when the history does not say
    QString path; // the module's path, when a module of that name is known
    QString buildId; // lowercase hex; empty when unknown
};

RecordedProgram recordedProgram(HistoryDatabase &database);

// Why `a` and `b` are not runs of one program ("a.memhist recorded prog (build-id 1234...), b.memhist
// recorded other ..."), or nothing when they are or when neither history says.
std::optional<QString> programMismatch(
    const QString &aPath, const RecordedProgram &a, const QString &bPath, const RecordedProgram &b);

} // namespace memhist
