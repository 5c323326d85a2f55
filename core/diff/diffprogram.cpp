// SPDX-License-Identifier: MIT
#include "diffprogram.h"

#include "core/diff/diffstatements.h"
#include "core/storage/historydatabase.h"

#include <QFileInfo>
#include <QRegularExpression>

namespace memhist {

RecordedProgram recordedProgram(HistoryDatabase &database)
{
    RecordedProgram program;
    // "valgrind --tool=memhist -q --stream-fd=3 -- ./prog a": the word after "--".
    const QString command = database.meta().value(QStringLiteral("recorded with"));
    const QStringList words = command.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    const qsizetype dashes = words.indexOf(QStringLiteral("--"));
    if (dashes >= 0 && dashes + 1 < words.size())
        program.name = QFileInfo(words[dashes + 1]).fileName();
    if (program.name.isEmpty())
        return program;
    sqlite::Statement modules = database.connection().prepare(diffstatements::modules);
    while (modules.isValid() && modules.step() == SQLITE_ROW) {
        const QString path = modules.text(0);
        if (QFileInfo(path).fileName() == program.name) {
            program.path = path;
            program.buildId = modules.text(1);
            break;
        }
    }
    return program;
}

std::optional<QString> programMismatch(
    const QString &aPath, const RecordedProgram &a, const QString &bPath, const RecordedProgram &b)
{
    const auto text = [](const RecordedProgram &program) {
        return program.buildId.isEmpty() ? program.name
                                         : QStringLiteral("%1 (build-id %2)").arg(program.name, program.buildId);
    };
    const bool differentBuilds = !a.buildId.isEmpty() && !b.buildId.isEmpty() && a.buildId != b.buildId;
    const bool differentNames = !a.name.isEmpty() && !b.name.isEmpty() && a.name != b.name;
    if (!differentBuilds && !differentNames)
        return std::nullopt;
    return QStringLiteral("%1 recorded %2, %3 recorded %4: runs of different programs are not compared")
        .arg(aPath, text(a), bPath, text(b));
}

} // namespace memhist
