// SPDX-License-Identifier: MIT
// Imports a Tenet text trace (github.com/gaasedelen/tenet), plain or gzip-compressed: reads it in
// pieces and hands them to TenetParser (core/importers/tenetparser.h), which documents the format
// and how its lines become transitions and accesses.
#pragma once

#include "core/importers/traceimporter.h"

namespace memhist {

class TenetImporter : public TraceImporter
{
public:
    QString formatName() const override { return QStringLiteral("tenet"); }
    bool run(const QString &path, AccessSink &sink, const ImportOptions &options, ImportReport *report, QString *error,
        const ImportProgress &progress) override;
};

} // namespace memhist
