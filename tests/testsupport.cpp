// SPDX-License-Identifier: MIT
#include "testsupport.h"

#include "core/storage/schema.h"
#include "core/storage/sqlite.h"

#include <QDebug>
#include <QFile>
#include <QProcess>
#include <zlib.h>

namespace memhist::test {

bool writeForeignDatabase(const QString &path, const QList<ForeignSlice> &slices, const QList<ForeignChunk> &chunks,
    const QList<ForeignAccess> &accesses)
{
    QFile::remove(path);
    sqlite::Connection db;
    if (!db.open(path, sqlite::Connection::Mode::ReadWriteCreate))
        return false;
    if (!db.execute(schema::createBaseTables))
        return false;
    sqlite::Transaction transaction(db);
    sqlite::Statement slice = db.prepare("INSERT INTO slices(transition_first, transition_last) VALUES(?1, ?2)");
    for (const auto &s : slices) {
        slice.bind(1, toStored(s.first));
        slice.bind(2, toStored(s.last));
        if (!slice.run())
            return false;
    }
    sqlite::Statement chunk
        = db.prepare("INSERT INTO chunks(slice_id, phy_first, phy_last, operation) VALUES(?1, ?2, ?3, ?4)");
    for (const auto &c : chunks) {
        chunk.bind(1, c.slice);
        chunk.bind(2, toStored(c.first));
        chunk.bind(3, toStored(c.last));
        chunk.bind(4, std::int64_t(c.operation));
        if (!chunk.run())
            return false;
    }
    sqlite::Statement access = db.prepare("INSERT INTO accesses(chunk_id, transition, linear, phy_first, size, "
                                          "operation) VALUES(?1, ?2, ?3, ?4, ?5, ?6)");
    for (const auto &a : accesses) {
        access.bind(1, a.chunk);
        access.bind(2, toStored(a.transition));
        if (a.linear)
            access.bind(3, toStored(*a.linear));
        else
            access.bindNull(3);
        access.bind(4, toStored(a.physical));
        access.bind(5, a.size);
        access.bind(6, std::int64_t(a.operation));
        if (!access.run())
            return false;
    }
    return transaction.commit();
}

bool writeHistory(const QString &path, const QList<Access> &stream, const WriterOptions &options, QString *error)
{
    HistoryWriter writer(path, options);
    if (!writer.open()) {
        *error = writer.errorString();
        return false;
    }
    for (const Access &access : stream) {
        if (!writer.add(access)) {
            *error = writer.errorString();
            return false;
        }
    }
    if (!writer.finish()) {
        *error = writer.errorString();
        return false;
    }
    return true;
}

QueryPage oracle(const QList<Access> &stream, const HalfAxisQuery &query)
{
    QueryPage page;
    const bool forward = query.direction == Direction::Forward;
    const auto matches = [&](const Access &a) {
        if (!query.operations.testFlag(a.operation))
            return false;
        if (a.physical > query.last || a.lastByte() < query.first)
            return false;
        if (query.resumeAfter && (forward ? a.rowId <= *query.resumeAfter : a.rowId >= *query.resumeAfter))
            return false;
        if (forward)
            return a.transition >= query.at.value_or(Transition { 0 });
        return !query.at || a.transition <= *query.at;
    };
    const auto consider = [&](const Access &a) {
        if (quint64(page.accesses.size()) >= query.limit)
            return false;
        if (matches(a))
            page.accesses.append(a);
        return true;
    };
    if (forward) {
        for (const Access &a : stream) {
            if (!consider(a))
                break;
        }
    } else {
        for (auto it = stream.crbegin(); it != stream.crend(); ++it) {
            if (!consider(*it))
                break;
        }
    }
    page.exhausted = quint64(page.accesses.size()) < query.limit;
    return page;
}

CliResult runCli(const QStringList &arguments, const QProcessEnvironment &environment)
{
    QProcess process;
    process.setStandardInputFile(QProcess::nullDevice());
    if (!environment.isEmpty())
        process.setProcessEnvironment(environment);
    process.start(QStringLiteral(MEMHIST_CLI_PATH), arguments);
    CliResult result;
    if (!process.waitForFinished(300'000)) {
        process.kill();
        process.waitForFinished();
        return result;
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    return result;
}

QByteArray cliOutput(const QStringList &arguments)
{
    const CliResult result = runCli(arguments);
    if (result.exitCode != 0) {
        qWarning() << "memhist" << arguments << "failed:" << result.err;
        return {};
    }
    return result.out;
}

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool zeroSqlitePage(const QString &path, qint64 page)
{
    qint64 pageSize = 0;
    {
        sqlite::Connection connection;
        if (!connection.open(path, sqlite::Connection::Mode::ReadOnly))
            return false;
        sqlite::Statement size = connection.prepare("PRAGMA page_size");
        if (!size.isValid() || size.step() != SQLITE_ROW)
            return false;
        pageSize = size.int64(0);
    }
    QFile file(path);
    return pageSize > 0 && page > 0 && file.open(QIODevice::ReadWrite) && file.seek((page - 1) * pageSize)
        && file.write(QByteArray(pageSize, '\0')) == pageSize;
}

QByteArray gzip(const QByteArray &data)
{
    z_stream stream {};
    deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
    QByteArray out(qsizetype(deflateBound(&stream, uLong(data.size()))), Qt::Uninitialized);
    stream.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data.constData()));
    stream.avail_in = uInt(data.size());
    stream.next_out = reinterpret_cast<Bytef *>(out.data());
    stream.avail_out = uInt(out.size());
    deflate(&stream, Z_FINISH);
    out.truncate(qsizetype(stream.total_out));
    deflateEnd(&stream);
    return out;
}

Access userAccess(std::uint64_t transition, Operation operation, std::uint64_t address, std::uint32_t size)
{
    Access result;
    result.transition = Transition { transition };
    result.operation = operation;
    result.physical = Address { address };
    result.linear = Address { address };
    result.size = size;
    return result;
}

QByteArray byteArrayOf(std::initializer_list<int> values)
{
    QByteArray bytes;
    for (const int value : values)
        bytes += char(value);
    return bytes;
}

bool writeHistoryWithValues(const QString &path, const QList<ValuedAccess> &stream)
{
    HistoryWriter writer(path);
    if (!writer.open()) {
        qWarning() << writer.errorString();
        return false;
    }
    for (const ValuedAccess &stored : stream) {
        if (!writer.add(stored.access)) {
            qWarning() << writer.errorString();
            return false;
        }
        if (!stored.value.isEmpty())
            writer.addValue({ stored.value, {}, std::nullopt });
    }
    if (!writer.finish()) {
        qWarning() << writer.errorString();
        return false;
    }
    return true;
}

} // namespace memhist::test
