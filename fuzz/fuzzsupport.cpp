// SPDX-License-Identifier: MIT
#include "fuzzsupport.h"

#include "core/importers/drmemtrace/recordreader.h"

#include <QDir>
#include <QFile>
#include <QtEndian>
#include <cstdio>
#include <cstdlib>
#include <sys/mman.h>
#include <unistd.h>

namespace memhist::fuzz {

namespace {

// More than any seed decompresses to: a small input that inflates further (a zip bomb) is read this
// far, which is enough to exercise the readers, and no further, so that one input stays fast.
constexpr qsizetype maxBytesRead = 8 << 20;

// Read sizes that do not line up with records, buffers or snappy chunks, so that every boundary a
// stream keeps state across is crossed in the middle.
constexpr qint64 oddReadSizes[] = { 1, 5, 12, 4093, 65536 };

class ScratchDirectory
{
public:
    ScratchDirectory()
    {
        // In memory where possible: the database harnesses write, sync and rename files on every run.
        QByteArray base = qgetenv("TMPDIR");
        if (base.isEmpty())
            base = access("/dev/shm", W_OK | X_OK) == 0 ? QByteArray("/dev/shm") : QByteArray("/tmp");
        QByteArray pattern = base + "/memhist-fuzz-XXXXXX";
        if (!mkdtemp(pattern.data())) {
            std::perror("memhist fuzz: mkdtemp");
            std::abort();
        }
        m_path = QFile::decodeName(pattern);
    }
    ~ScratchDirectory() { QDir(m_path).removeRecursively(); }
    const QString &path() const { return m_path; }

private:
    QString m_path;
};

// The bytes of every part in order, read with odd sizes. False when the stream fails; *capped when
// it holds more than maxBytesRead.
bool readWithOddSizes(drmemtrace::ByteStream &stream, QByteArray *bytes, bool *capped)
{
    *capped = false;
    if (!stream.open())
        return false;
    char buffer[65536];
    size_t next = 0;
    while (stream.nextPart()) {
        for (;;) {
            const qint64 n = stream.read(buffer, oddReadSizes[next++ % std::size(oddReadSizes)]);
            if (n < 0)
                return false;
            if (n == 0)
                break;
            bytes->append(buffer, qsizetype(n));
            if (bytes->size() > maxBytesRead) {
                *capped = true;
                return true;
            }
        }
    }
    return stream.errorString().isEmpty();
}

} // namespace

MemoryFile::MemoryFile(QByteArrayView content)
{
    m_fd = memfd_create("memhist-fuzz-input", MFD_CLOEXEC);
    if (m_fd < 0) {
        std::perror("memhist fuzz: memfd_create");
        std::abort();
    }
    for (qsizetype written = 0; written < content.size();) {
        const ssize_t n = ::write(m_fd, content.data() + written, size_t(content.size() - written));
        if (n <= 0) {
            std::perror("memhist fuzz: write to memfd");
            std::abort();
        }
        written += n;
    }
    m_path = QStringLiteral("/proc/self/fd/%1").arg(m_fd);
}

MemoryFile::~MemoryFile()
{
    ::close(m_fd);
}

const QString &scratchDirectory()
{
    static const ScratchDirectory directory;
    return directory.path();
}

bool DigestSink::add(const Access &access)
{
    // FNV-1a over the fields: any difference in any access shows in the digest.
    const auto mix = [this](std::uint64_t value) {
        for (int i = 0; i < 8; ++i, value >>= 8)
            digest = (digest ^ (value & 0xff)) * 0x100000001b3u;
    };
    mix(access.transition.value);
    mix(std::uint64_t(access.operation));
    mix(access.physical.value);
    mix(access.linear.has_value());
    mix(access.linear.value_or(Address {}).value);
    mix(access.size);
    ++count;
    return true;
}

void writeFile(const QString &path, QByteArrayView content)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)
        || file.write(content.data(), content.size()) != content.size()) {
        std::fprintf(stderr, "memhist fuzz: cannot write %s: %s\n", qPrintable(path), qPrintable(file.errorString()));
        std::abort();
    }
}

void propertyBroken(const QString &what)
{
    std::fprintf(stderr, "memhist fuzz: property broken: %s\n", qPrintable(what));
    std::abort();
}

void requireSameOutcome(const ParseOutcome &whole, const ParseOutcome &pieces, qsizetype pieceSize)
{
    if (whole.ok == pieces.ok && whole.errorPlace == pieces.errorPlace && whole.accesses == pieces.accesses
        && whole.digest == pieces.digest && whole.instructions == pieces.instructions && whole.lines == pieces.lines)
        return;
    const auto describe = [](const ParseOutcome &outcome) {
        return QStringLiteral("%1, %2 accesses, %3 instructions, %4 lines")
            .arg(outcome.ok ? QStringLiteral("ok") : QStringLiteral("error at ") + outcome.errorPlace)
            .arg(outcome.accesses)
            .arg(outcome.instructions)
            .arg(outcome.lines);
    };
    propertyBroken(QStringLiteral("the whole input gives %1, pieces of %2 bytes give %3")
                       .arg(describe(whole))
                       .arg(pieceSize)
                       .arg(describe(pieces)));
}

void readContainer(const QString &path, const std::function<std::unique_ptr<drmemtrace::ByteStream>()> &open)
{
    QByteArray bytes;
    bool capped = false;
    const std::unique_ptr<drmemtrace::ByteStream> direct = open();
    const bool directOk = readWithOddSizes(*direct, &bytes, &capped);
    const bool comparable = directOk && !capped;

    drmemtrace::RecordReader reader(path, open());
    if (!reader.open())
        return;
    qint64 records = 0;
    while (const drmemtrace::TraceRecord *record = reader.next()) {
        const qsizetype offset = qsizetype(records) * drmemtrace::recordSize;
        if (offset >= maxBytesRead)
            return;
        if (comparable) {
            if (offset + drmemtrace::recordSize > bytes.size())
                propertyBroken(QStringLiteral("the record reader gives record %1 past the %2 bytes of the stream")
                                   .arg(records)
                                   .arg(bytes.size()));
            const auto *p = reinterpret_cast<const uchar *>(bytes.constData() + offset);
            if (record->type != qFromLittleEndian<quint16>(p) || record->size != qFromLittleEndian<quint16>(p + 2)
                || record->addr != qFromLittleEndian<quint64>(p + 4))
                propertyBroken(
                    QStringLiteral("record %1 differs from the stream's bytes at offset %2").arg(records).arg(offset));
        }
        ++records;
    }
    if (comparable && reader.error().isEmpty() && records * drmemtrace::recordSize != bytes.size())
        propertyBroken(QStringLiteral("the record reader ends after %1 records, the stream holds %2 bytes")
                           .arg(records)
                           .arg(bytes.size()));
}

} // namespace memhist::fuzz
