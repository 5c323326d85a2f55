// Imports the CSV form of accesses (csv/csvaccessformat.h) into a HistoryWriter. The CSV carries
// its own transitions, so ImportOptions::firstTransition is ignored.
#pragma once

#include "importers/traceimporter.h"

namespace memhist {

class CsvImporter : public TraceImporter
{
public:
    QString formatName() const override { return QStringLiteral("csv"); }
    bool run(const QString &path, HistoryWriter &writer, const ImportOptions &options, ImportReport *report,
        QString *error, const ImportProgress &progress) override;
};

} // namespace memhist
