// Imports the CSV form of accesses (csv/csvaccessformat.h) into a HistoryWriter.
#pragma once

#include <QString>

#include <functional>

namespace memhist {

class HistoryWriter;

struct ImportReport
{
    qint64 linesRead = 0;
    qint64 accesses = 0;
};

class CsvImporter
{
public:
    // progress(fraction of the input consumed) is called at most every 0.1 %; returning false
    // cancels. On failure returns false with *error naming the file, the line and the reason, e.g.
    // "trace.csv:17: field 6 (size): '0' is not a size (must be at least 1)". Errors from the
    // writer (e.g. a decreasing transition) are reported with the line that caused them.
    bool run(const QString &path, HistoryWriter &writer, ImportReport *report, QString *error,
             const std::function<bool(double)> &progress = {});
};

} // namespace memhist
