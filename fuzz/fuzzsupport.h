// SPDX-License-Identifier: MIT
// What the harnesses share: the input as a file for the code that only reads files, a scratch
// directory for what needs a real one, and a way to stop on a broken property. Harnesses take
// bytes directly wherever the code has such an entry point.
#pragma once

#include "core/importers/accesssink.h"
#include "core/importers/drmemtrace/bytestream.h"

#include <QByteArrayView>
#include <QString>
#include <functional>
#include <memory>

namespace memhist::fuzz {

// The input as an anonymous in-memory file (memfd): path() opens it like any file, with no disk
// I/O and nothing left behind.
class MemoryFile
{
public:
    explicit MemoryFile(QByteArrayView content);
    ~MemoryFile();
    MemoryFile(const MemoryFile &) = delete;
    MemoryFile &operator=(const MemoryFile &) = delete;

    // "/proc/self/fd/N".
    const QString &path() const { return m_path; }

private:
    int m_fd = -1;
    QString m_path;
};

// A directory private to this process (under $TMPDIR, else /dev/shm or /tmp), made on first use and
// removed at exit, for files that need a directory beside them (SQLite's journals, the writer's temporaries).
const QString &scratchDirectory();

// Writes `content` to `path`, replacing it. Stops the process when it cannot (a broken set-up, not
// a finding).
void writeFile(const QString &path, QByteArrayView content);

// A property the code promises does not hold: prints what and aborts, which libFuzzer reports as a
// crash and keeps the input.
[[noreturn]] void propertyBroken(const QString &what);

// Takes every access and keeps only their count and a digest of their fields, so that two runs of a
// parser over the same bytes (whole, and in pieces) can be compared without storing the accesses.
class DigestSink final : public AccessSink
{
public:
    bool add(const Access &access) override;
    QString errorString() const override { return {}; }

    qint64 count = 0;
    std::uint64_t digest = 0;
};

// The input up to its first newline (all of it when it has none).
inline QByteArrayView firstLine(QByteArrayView input)
{
    const qsizetype newline = input.indexOf('\n');
    return newline < 0 ? input : input.first(newline);
}

// What a text parser made of an input.
struct ParseOutcome
{
    bool ok = false;
    QString errorPlace; // "SOURCE:LINE" of the error; the reason may differ with the piece size
    qint64 accesses = 0;
    std::uint64_t digest = 0;
    qint64 instructions = 0;
    qint64 lines = 0;
};

// Feeds `input` to `parser` (LackeyParser's or TenetParser's interface: parse() the complete lines,
// keep the rest) in pieces of `pieceSize` bytes, then calls finish(rest).
template<typename Parser>
ParseOutcome feedInPieces(Parser &parser, const DigestSink &sink, QByteArrayView input, qsizetype pieceSize,
    const std::function<bool(QByteArrayView rest)> &finish)
{
    QByteArray pending;
    bool ok = true;
    for (qsizetype pos = 0; ok && pos < input.size(); pos += pieceSize) {
        pending += input.sliced(pos, std::min(pieceSize, input.size() - pos));
        const qsizetype consumed = parser.parse(pending.constData(), pending.size());
        if (consumed < 0)
            ok = false;
        else
            pending.remove(0, consumed);
    }
    ParseOutcome outcome;
    outcome.ok = ok && finish(pending);
    outcome.errorPlace = parser.errorString().section(u':', 0, 1);
    outcome.accesses = sink.count;
    outcome.digest = sink.digest;
    outcome.instructions = parser.instructions();
    outcome.lines = parser.lineNumber();
    return outcome;
}

// A parser must not care how its input is split: stops on a broken property when the outcome of the
// whole input differs from the outcome of its pieces.
void requireSameOutcome(const ParseOutcome &whole, const ParseOutcome &pieces, qsizetype pieceSize);

// Reads a container stream to its end twice, as the importer does (through RecordReader, records of
// every part in order) and with odd read sizes straight from the stream, and stops on a broken
// property when both succeed but disagree on the bytes. `open` makes a fresh stream over the input.
void readContainer(const QString &path, const std::function<std::unique_ptr<drmemtrace::ByteStream>()> &open);

} // namespace memhist::fuzz
