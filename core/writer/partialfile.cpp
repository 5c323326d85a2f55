// SPDX-License-Identifier: MIT
#include "core/writer/partialfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <limits>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace memhist {

namespace {

constexpr QLatin1StringView partialSuffix("partial");
constexpr int randomLength = 6;

// The temporaries of this process, for removeAllNow() to read from a signal handler: fixed storage
// (no allocation) and one lock-free atomic word per slot. The word holds a generation and a phase;
// the generation changes whenever a slot is taken again, so a handler that copied a path can tell
// that the slot was not reused while it copied.
constexpr int slotCount = 32;
constexpr std::size_t maxPathBytes = 4096;
enum Phase : std::uint64_t {
    Free = 0,
    Filling = 1,
    Armed = 2,
};
constexpr std::uint64_t phaseMask = 3;
struct Slot
{
    std::atomic<std::uint64_t> state { 0 };
    char path[maxPathBytes];
};
static_assert(std::atomic<std::uint64_t>::is_always_lock_free);
Slot trackedFiles[slotCount];

std::uint64_t nextGeneration(std::uint64_t state, Phase phase)
{
    return ((state >> 2) + 1) << 2 | phase;
}

// The slot now holding `path`, or -1 when the path is too long or every slot is taken (the file is
// then only cleaned by a later writer's removeStaleTemporaries()).
int track(const QByteArray &path)
{
    if (std::size_t(path.size()) >= maxPathBytes)
        return -1;
    for (int i = 0; i < slotCount; ++i) {
        std::uint64_t state = trackedFiles[i].state.load(std::memory_order_acquire);
        if ((state & phaseMask) != Free)
            continue;
        const std::uint64_t filling = nextGeneration(state, Filling);
        if (!trackedFiles[i].state.compare_exchange_strong(state, filling, std::memory_order_acq_rel))
            continue;
        std::memcpy(trackedFiles[i].path, path.constData(), std::size_t(path.size()) + 1);
        trackedFiles[i].state.store((filling & ~phaseMask) | Armed, std::memory_order_release);
        return i;
    }
    return -1;
}

void untrack(int slot)
{
    if (slot < 0)
        return;
    const std::uint64_t state = trackedFiles[slot].state.load(std::memory_order_acquire);
    trackedFiles[slot].state.store(state & ~phaseMask, std::memory_order_release);
}

QString systemReason(int error)
{
    return QString::fromLocal8Bit(std::strerror(error));
}

QString randomPart()
{
    static constexpr char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    QString text;
    for (int i = 0; i < randomLength; ++i)
        text += QLatin1Char(alphabet[QRandomGenerator::global()->bounded(int(sizeof alphabet) - 1)]);
    return text;
}

// The writer's PID when `rest` (a file name after "TARGET.") is "PID.XXXXXX.partial", else 0.
pid_t writerOf(QStringView rest)
{
    const qsizetype firstDot = rest.indexOf(u'.');
    if (firstDot <= 0 || rest.size() != firstDot + 1 + randomLength + 1 + partialSuffix.size())
        return 0;
    const QStringView random = rest.sliced(firstDot + 1, randomLength);
    if (rest[firstDot + 1 + randomLength] != u'.' || rest.sliced(firstDot + 2 + randomLength) != partialSuffix)
        return 0;
    for (QChar c : random) {
        if (!(c.isLetterOrNumber() && c.unicode() < 128))
            return 0;
    }
    const QStringView digits = rest.first(firstDot);
    if (digits.startsWith(u'0'))
        return 0;
    bool ok = false;
    const qint64 pid = digits.toLongLong(&ok, 10);
    if (!ok || pid <= 0 || pid > std::numeric_limits<pid_t>::max())
        return 0;
    return pid_t(pid);
}

} // namespace

PartialFile::PartialFile(QString targetPath, Target target)
    : m_targetPath(std::move(targetPath))
    , m_target(target)
{ }

PartialFile::~PartialFile()
{
    if (!m_committed)
        discard();
}

bool PartialFile::fail(const QString &what, int error)
{
    return failWith(what, systemReason(error));
}

bool PartialFile::failWith(const QString &what, const QString &reason)
{
    m_reason = reason;
    m_error = what + QStringLiteral(": ") + m_reason;
    return false;
}

bool PartialFile::create()
{
    if (!m_temporaryPath.isEmpty())
        return fail(QStringLiteral("cannot create a second temporary file"), EEXIST);
    // Renaming over a symbolic link would replace the link, not the file it names.
    // A process's descriptor (/dev/stdout is a link to /proc/self/fd/1, itself a link to whatever
    // the descriptor has open, maybe a regular file a shell redirection made) names a stream, never
    // a file to replace. Other paths under /dev or /proc are what they are (/dev/shm holds files).
    const auto namesADescriptor = [](const QString &path) {
        static const QRegularExpression descriptor(QStringLiteral("^/(proc/[^/]+|dev)/fd/[0-9]+$"));
        const QString absolute = QFileInfo(path).absoluteFilePath();
        return descriptor.match(absolute).hasMatch() || absolute == QLatin1String("/dev/stdout")
            || absolute == QLatin1String("/dev/stderr");
    };
    m_filePath = m_targetPath;
    bool descriptor = namesADescriptor(m_filePath);
    for (int depth = 0; depth < 40 && !descriptor && QFileInfo(m_filePath).isSymLink(); ++depth) {
        m_filePath = QFileInfo(m_filePath).symLinkTarget();
        descriptor = namesADescriptor(m_filePath);
    }
    const QFileInfo target(m_filePath);
    const QString directory = target.absolutePath();
    if (target.isDir())
        return fail(QStringLiteral("cannot create a file in %1").arg(directory), EISDIR);
    struct stat status;
    const QByteArray encodedTarget = QFile::encodeName(m_filePath);
    const bool exists = ::stat(encodedTarget.constData(), &status) == 0;
    if (exists && (!S_ISREG(status.st_mode) || descriptor)) {
        if (m_target == Target::RegularFileOnly)
            return failWith(QStringLiteral("cannot write to it"),
                QStringLiteral("not a regular file (an SQLite database needs one)"));
        // O_APPEND: a regular file behind /dev/stdout keeps what the shell's redirection expects
        // (`>` emptied it, `>>` appends), instead of being written over from its start.
        const int fd = ::open(encodedTarget.constData(), O_WRONLY | O_APPEND | O_CLOEXEC);
        if (fd < 0)
            return fail(QStringLiteral("cannot open"), errno);
        m_fd = fd;
        m_temporaryPath = m_filePath;
        m_direct = true;
        return true;
    }
    removeStaleTemporaries(m_filePath);

    const QString prefix = target.absoluteDir().filePath(target.fileName()) + u'.' + QString::number(::getpid()) + u'.';
    for (int attempt = 0; attempt < 100; ++attempt) {
        const QString candidate = prefix + randomPart() + u'.' + partialSuffix;
        const QByteArray encoded = QFile::encodeName(candidate);
        const int fd = ::open(encoded.constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            m_fd = fd;
            m_temporaryPath = candidate;
            m_registration = track(encoded);
            return true;
        }
        const int error = errno;
        if (error != EEXIST)
            return fail(QStringLiteral("cannot create a file in %1").arg(directory), error);
    }
    return fail(QStringLiteral("cannot create a file in %1").arg(directory), EEXIST);
}

bool PartialFile::write(QByteArrayView data)
{
    if (m_fd < 0)
        return fail(QStringLiteral("cannot write"), EBADF);
    const char *next = data.data();
    qsizetype left = data.size();
    while (left > 0) {
        const ssize_t written = ::write(m_fd, next, std::size_t(left));
        if (written < 0) {
            const int error = errno;
            if (error == EINTR)
                continue;
            return fail(QStringLiteral("cannot write"), error);
        }
        next += written;
        left -= written;
    }
    return true;
}

void PartialFile::closeHandle()
{
    if (m_fd >= 0)
        ::close(std::exchange(m_fd, -1));
}

bool PartialFile::commit()
{
    if (m_committed)
        return true;
    if (m_temporaryPath.isEmpty() || m_discarded)
        return fail(QStringLiteral("cannot commit a file never created"), ENOENT);
    if (m_direct) {
        if (::close(std::exchange(m_fd, -1)) != 0 && errno != EINTR)
            return fail(QStringLiteral("cannot write"), errno);
        m_committed = true;
        return true;
    }
    const QByteArray temporary = QFile::encodeName(m_temporaryPath);
    // The system's reason is read before anything else can change errno.
    const auto failAndDiscard = [this](const QString &what) {
        const int error = errno;
        discard();
        return fail(what.arg(m_temporaryPath), error);
    };
    // fsync() flushes the file's pages whichever descriptor wrote them.
    if (m_fd < 0 && (m_fd = ::open(temporary.constData(), O_RDONLY | O_CLOEXEC)) < 0)
        return failAndDiscard(QStringLiteral("cannot open %1 to sync it"));
    if (::fsync(m_fd) != 0)
        return failAndDiscard(QStringLiteral("cannot sync %1 to disk"));
    // Some file systems (NFS) report a failed delayed write only when the file is closed.
    if (::close(std::exchange(m_fd, -1)) != 0 && errno != EINTR)
        return failAndDiscard(QStringLiteral("cannot write %1"));
    // rename(2) replaces an existing target atomically.
    if (::rename(temporary.constData(), QFile::encodeName(m_filePath).constData()) != 0)
        return failAndDiscard(QStringLiteral("cannot rename %1 into place"));
    m_committed = true;
    untrack(std::exchange(m_registration, -1));

    const QString directory = QFileInfo(m_filePath).absolutePath();
    const int directoryFd = ::open(QFile::encodeName(directory).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (directoryFd < 0) {
        const int error = errno;
        return fail(QStringLiteral("written, but cannot open its directory %1 to sync it").arg(directory), error);
    }
    // EINVAL: a file system that cannot sync directories (some FUSE ones) has nothing more to do.
    const int error = ::fsync(directoryFd) == 0 ? 0 : errno;
    const bool synced = error == 0 || error == EINVAL;
    ::close(directoryFd);
    if (!synced)
        return fail(QStringLiteral("written, but cannot sync its directory %1").arg(directory), error);
    return true;
}

void PartialFile::discard()
{
    closeHandle();
    if (m_committed || m_discarded || m_temporaryPath.isEmpty())
        return;
    if (m_direct) { // the stream is not ours to remove
        m_discarded = true;
        return;
    }
    ::unlink(QFile::encodeName(m_temporaryPath).constData());
    untrack(std::exchange(m_registration, -1));
    m_discarded = true;
}

QStringList PartialFile::removeStaleTemporaries(const QString &targetPath)
{
    const QFileInfo target(targetPath);
    const QString prefix = target.fileName() + u'.';
    const QDir directory = target.absoluteDir();
    const pid_t self = ::getpid();
    QStringList removed;
    for (const QString &name : directory.entryList(QDir::Files | QDir::Hidden, QDir::Name)) {
        if (!name.startsWith(prefix))
            continue;
        const pid_t writer = writerOf(QStringView(name).sliced(prefix.size()));
        // kill(pid, 0) fails with ESRCH only when no such process exists (EPERM: it exists, owned by
        // someone else). A PID of this process is ours to keep: another writer of this process may
        // own it.
        if (writer == 0 || writer == self || ::kill(writer, 0) == 0 || errno != ESRCH)
            continue;
        const QString path = directory.filePath(name);
        if (::unlink(QFile::encodeName(path).constData()) == 0)
            removed << path;
    }
    return removed;
}

int PartialFile::removeAllNow() noexcept
{
    int removed = 0;
    for (Slot &slot : trackedFiles) {
        const std::uint64_t state = slot.state.load(std::memory_order_acquire);
        if ((state & phaseMask) != Armed)
            continue;
        char path[maxPathBytes];
        std::memcpy(path, slot.path, maxPathBytes);
        path[maxPathBytes - 1] = '\0';
        if (slot.state.load(std::memory_order_acquire) != state)
            continue; // released (and maybe reused) while we copied
        if (::unlink(path) == 0)
            ++removed;
    }
    return removed;
}

} // namespace memhist
