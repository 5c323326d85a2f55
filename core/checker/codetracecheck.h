// SPDX-License-Identifier: MIT
// `memhist check`'s part for the optional code trace (core/context/codetrace.h): the PC of every
// transition. Readers find the row holding a transition as the last row starting at or before it,
// and `query --pc` walks the rows in order, so rows that overlap make the two disagree (a PC listed
// at a transition that executed another), a row past 2^63 lists transitions no access can have,
// and a pair naming a run that is not stored (or longer than its run) leaves PCs unknown. Each is a
// violation here; the readers themselves stay consistent on such files (ContextReader clips each
// row at the next and at 2^63).
#pragma once

#include "core/storage/sqlite.h"

#include <QString>
#include <functional>

namespace memhist::check {

class CodeTraceCheck
{
public:
    static constexpr auto codeTrace = "code trace rows decode into pairs of stored runs, each no longer than its "
                                      "run, and the rows neither overlap nor reach transition 2^63";

    // Called for each violation: its property and the whole message.
    using Report = std::function<void(const char *property, const QString &message)>;

    CodeTraceCheck(sqlite::Connection &connection, Report report);

    // Reads code_runs and code_trace when the history has them; false when a read fails (*error
    // says which).
    bool run(QString *error);

private:
    sqlite::Connection &m_connection;
    Report m_report;
};

} // namespace memhist::check
