// SPDX-License-Identifier: MIT
// Imports the CSV form of accesses (csv/csvaccessformat.h) into an AccessSink. The CSV carries
// its own transitions, so ImportOptions::firstTransition numbers nothing; with a window, the rows
// kept are those whose transition is in [firstTransition + skipInstructions, ... + maxInstructions)
// (the rows before it are read for their transition only, the first row after it ends the import).
#pragma once

#include "core/importers/traceimporter.h"

namespace memhist {

class CsvImporter : public TraceImporter
{
public:
    QString formatName() const override { return QStringLiteral("csv"); }
    bool run(const QString &path, AccessSink &sink, const ImportOptions &options, ImportReport *report, QString *error,
        const ImportProgress &progress) override;
};

} // namespace memhist
