// SPDX-License-Identifier: MIT
// Helpers shared by the tests: temporary directories, hand-built databases, a brute-force oracle.
#pragma once

#include "core/importers/accesssink.h"
#include "core/model/types.h"
#include "core/query/halfaxisquery.h"
#include "core/writer/historywriter.h"

#include <QByteArray>
#include <QList>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace memhist::test {

// A database written row by row with plain SQL, as another writer of the same format would:
// explicit slices, chunks and accesses (rowids are assigned in the order given).
struct ForeignSlice
{
    std::uint64_t first;
    std::uint64_t last;
};
struct ForeignChunk
{
    qint64 slice; // rowid of the slice
    std::uint64_t first;
    std::uint64_t last;
    Operation operation;
};
struct ForeignAccess
{
    qint64 chunk; // rowid of the chunk
    std::uint64_t transition;
    std::optional<std::uint64_t> linear;
    std::uint64_t physical;
    std::uint32_t size;
    Operation operation;
};
// Creates `path` with the three base tables and indexes only (no meta). Returns false on error.
bool writeForeignDatabase(const QString &path, const QList<ForeignSlice> &slices, const QList<ForeignChunk> &chunks,
    const QList<ForeignAccess> &accesses);

// Writes `stream` (in order) with HistoryWriter. False + *error when the writer refuses it.
bool writeHistory(const QString &path, const QList<Access> &stream, const WriterOptions &options, QString *error);

// The answer to `query` computed the slow, obvious way over `stream` (rowIds must be set, stream in
// rowid order). `lastTransition` is the default start of a backward query.
QueryPage oracle(const QList<Access> &stream, const HalfAxisQuery &query);

// What one run of the memhist command line (MEMHIST_CLI_PATH) gave.
struct CliResult
{
    int exitCode = -1; // -1 when it crashed or did not finish within 5 minutes
    QByteArray out;
    QByteArray err;
};

// Runs the memhist command line with no standard input, in `environment` when one is given.
CliResult runCli(const QStringList &arguments, const QProcessEnvironment &environment = {});

// For set-up steps that must succeed: the command line's standard output, or an empty array (with
// its stderr as a warning) when it failed.
QByteArray cliOutput(const QStringList &arguments);

// The file's content, or an empty array when it cannot be read.
QByteArray readFile(const QString &path);

// Overwrites page `page` (1-based) of the SQLite file `path` with zeros, as a damaged disk or a
// broken copy would leave it; false when the file cannot be read or written.
bool zeroSqlitePage(const QString &path, qint64 page);

// `data` compressed as one gzip member (zlib), to build compressed or damaged traces at run time.
QByteArray gzip(const QByteArray &data);

// An access of a user program as the importers store it: the virtual address in both columns.
Access userAccess(std::uint64_t transition, Operation operation, std::uint64_t address, std::uint32_t size);

// An access and the bytes it moved (empty: none), as the tests of values write them.
struct ValuedAccess
{
    Access access;
    QByteArray value;
};
// The bytes of `values` (each 0..255), for values written in tests: byteArrayOf({ 1, 0, 0xff }).
QByteArray byteArrayOf(std::initializer_list<int> values);

// Writes `stream` (transitions not decreasing) with its values; false + a warning on failure.
bool writeHistoryWithValues(const QString &path, const QList<ValuedAccess> &stream);

// Keeps every access an importer hands over, to compare with the exact list a small trace gives.
class CollectingSink final : public AccessSink
{
public:
    bool add(const Access &access) override
    {
        accesses << access;
        return true;
    }
    QString errorString() const override { return {}; }
    QList<Access> accesses;
};

} // namespace memhist::test
