// SPDX-License-Identifier: MIT
#include "codetracecheck.h"

#include "core/checker/checkmessages.h"
#include "core/checker/checkstatements.h"
#include "core/context/codetrace.h"
#include "core/model/types.h"

#include <optional>
#include <unordered_map>

namespace memhist::check {

namespace {

QString rowName(std::uint64_t first)
{
    return QStringLiteral("code trace row at transition %1").arg(first);
}

} // namespace

CodeTraceCheck::CodeTraceCheck(sqlite::Connection &connection, Report report)
    : m_connection(connection)
    , m_report(std::move(report))
{ }

bool CodeTraceCheck::run(QString *error)
{
    // Both tables or neither: readers use the code trace only when both are there.
    int tables = 0;
    {
        sqlite::Statement names = m_connection.prepare(sql::codeTraceTableCount);
        if (!names.isValid() || names.step() != SQLITE_ROW) {
            *error = QStringLiteral("cannot read the list of tables: %1").arg(m_connection.lastError());
            return false;
        }
        tables = int(names.int64(0));
    }
    if (tables < 2)
        return true;

    // Run id -> its length in instructions.
    std::unordered_map<std::uint64_t, std::uint64_t> runLengths;
    sqlite::Statement runs = m_connection.prepare(sql::codeRunLengths);
    int rc = SQLITE_ERROR;
    while (runs.isValid() && (rc = runs.step()) == SQLITE_ROW)
        runLengths.emplace(fromStored(runs.int64(0)), std::uint64_t(runs.int64(1)));
    if (rc != SQLITE_DONE) {
        *error = QStringLiteral("cannot read code_runs: %1").arg(m_connection.lastError());
        return false;
    }

    const auto violation = [this](std::uint64_t first, const QString &problem) {
        m_report(codeTrace, check::violation(rowName(first), problem, codeTrace));
    };
    sqlite::Statement rows = m_connection.prepare(sql::codeTraceRowsInOrder);
    rc = SQLITE_ERROR;
    std::optional<std::pair<std::uint64_t, std::uint64_t>> previous; // first, end
    while (rows.isValid() && (rc = rows.step()) == SQLITE_ROW) {
        const std::uint64_t first = fromStored(rows.int64(0));
        if (first >= signBoundary) {
            violation(first, QStringLiteral("starts past 2^63 - 1"));
            continue;
        }
        if (!rows.isBlob(1) && !rows.isNull(1)) {
            violation(first, QStringLiteral("runs are not stored as a blob"));
            continue;
        }
        if (previous && first < previous->second) {
            violation(first,
                QStringLiteral("starts inside the row at transition %1, which ends at %2")
                    .arg(previous->first)
                    .arg(previous->second - 1));
        }
        CodeTraceDecoder decoder(rows.blobView(1));
        CodeTracePair pair;
        std::uint64_t end = first;
        bool wrong = false;
        for (qint64 index = 0; !wrong && decoder.next(&pair); ++index) {
            if (pair.count > signBoundary - end) {
                violation(first, QStringLiteral("pair %1 runs past transition 2^63 - 1").arg(index));
                wrong = true;
            } else if (pair.run != unknownCodeRun) {
                const auto stored = runLengths.find(pair.run);
                if (stored == runLengths.end()) {
                    violation(first,
                        QStringLiteral("pair %1 names run %2, which code_runs does not hold").arg(index).arg(pair.run));
                    wrong = true;
                } else if (pair.count > stored->second) {
                    violation(first,
                        QStringLiteral("pair %1 counts %2 instructions of run %3, which has %4")
                            .arg(index)
                            .arg(pair.count)
                            .arg(pair.run)
                            .arg(stored->second));
                    wrong = true;
                }
            }
            end += pair.count;
        }
        if (decoder.isDamaged())
            violation(first, QStringLiteral("its pairs cannot be decoded after transition %1").arg(end));
        if (!previous || end > previous->second)
            previous = { first, end };
    }
    if (rc != SQLITE_DONE) {
        *error = QStringLiteral("cannot read code_trace: %1").arg(m_connection.lastError());
        return false;
    }
    return true;
}

} // namespace memhist::check
