// SPDX-License-Identifier: MIT
// A file written under a temporary name beside its target, TARGET.PID.XXXXXX.partial, and renamed
// over the target only once complete and synced to disk: whatever happens (a full disk, a signal, a
// crash, a power cut right after), the target path holds nothing, its previous file, or the
// complete new one. Histories (through SQLite), CSV exports and kept Lackey logs are written so.
//
// The writer's PID in the name lets a later writer of the same target tell a temporary left by a
// process that no longer exists (killed with SIGKILL, or a crash) from one still being written:
// create() removes the former and never touches the latter.
#pragma once

#include <QByteArrayView>
#include <QString>
#include <QStringList>

namespace memhist {

class PartialFile
{
public:
    // What the target may be when it exists and is not a regular file (a FIFO, a character device
    // such as /dev/null or /dev/stdout, a socket): a file written by name by SQLite needs a regular
    // file, which is created beside the target and renamed over it, so such a target is refused
    // (RegularFileOnly); a stream of bytes (a CSV export, a kept log) is written to it directly
    // (RegularFileOrStream), as `cp` or a shell redirection would.
    enum class Target {
        RegularFileOnly,
        RegularFileOrStream,
    };

    // A target that is a symbolic link is followed: the file it points to is replaced, the link
    // is kept.
    explicit PartialFile(QString targetPath, Target target = Target::RegularFileOnly);
    // Removes the temporary file unless commit() succeeded.
    ~PartialFile();
    PartialFile(const PartialFile &) = delete;
    PartialFile &operator=(const PartialFile &) = delete;

    // Removes the stale temporaries of the target (see removeStaleTemporaries()), then creates
    // TARGET.PID.XXXXXX.partial in the target's directory, opened for writing, with the mode a new
    // file gets (0666 less the umask). False + errorString() on failure.
    bool create();
    // Writes all of `data`. False + errorString() with the system's reason ("No space left on
    // device", "File too large", ...) on failure.
    bool write(QByteArrayView data);
    // Closes the descriptor create() opened, for a file another library writes by name (SQLite):
    // closing a second descriptor of a file later would drop that library's POSIX locks on it.
    void closeHandle();
    // Syncs the temporary file, renames it over the target, then syncs the directory so that the
    // new name survives a crash too. On failure before the rename the temporary file is removed and
    // the target left as it was; a failure to sync the directory is reported with the file in place.
    bool commit();
    // Closes and removes the temporary file; the target is left as it was.
    void discard();

    const QString &targetPath() const { return m_targetPath; }
    // True when create() opened a stream target itself (see Target): nothing is renamed and an
    // interrupted write cannot be undone.
    bool writesDirectly() const { return m_direct; }
    const QString &temporaryPath() const { return m_temporaryPath; }
    // The last failure: what failed and the system's reason, without the target's name, e.g.
    // "cannot write: No space left on device"; reason() is the system's reason alone.
    QString errorString() const { return m_error; }
    QString reason() const { return m_reason; }

    // Removes the temporaries TARGET.PID.XXXXXX.partial of `targetPath` whose process PID no longer
    // exists. Those of live processes, of this process, and names not of this form (from other
    // programs or older versions) are left alone. Returns the paths removed.
    static QStringList removeStaleTemporaries(const QString &targetPath);

    // Async-signal-safe, for a handler that ends the process: removes the temporary file of every
    // PartialFile of this process that is neither committed nor discarded. Returns how many it
    // removed (0 when the last commit had already renamed its file into place).
    static int removeAllNow() noexcept;

private:
    bool fail(const QString &what, int error);
    bool failWith(const QString &what, const QString &reason);

    QString m_targetPath;
    QString m_filePath; // the target with symbolic links followed: what commit() replaces
    Target m_target;
    bool m_direct = false;
    QString m_temporaryPath;
    QString m_error;
    QString m_reason;
    int m_fd = -1;
    int m_registration = -1; // slot in the table removeAllNow() reads, or -1
    bool m_committed = false;
    bool m_discarded = false;
};

} // namespace memhist
