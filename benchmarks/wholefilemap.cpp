// SPDX-License-Identifier: MIT
#include "wholefilemap.h"

#include <cstdint>
#include <fcntl.h>
#include <sqlite3.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace memhist::bench {

namespace {

// Our file, followed in the same allocation by the base VFS's own.
struct MappedFile
{
    sqlite3_file base;
    sqlite3_file *real;
    char *map;
    sqlite3_int64 size;
};

sqlite3_vfs *baseVfs = nullptr;
sqlite3_vfs wholeFileVfs {};

sqlite3_file *realOf(sqlite3_file *file)
{
    return reinterpret_cast<MappedFile *>(file)->real;
}

int fetch(sqlite3_file *file, sqlite3_int64 offset, int amount, void **pointer)
{
    auto *mapped = reinterpret_cast<MappedFile *>(file);
    if (mapped->map && offset >= 0 && offset + amount <= mapped->size) {
        *pointer = mapped->map + offset;
        return SQLITE_OK;
    }
    return mapped->real->pMethods->xFetch(mapped->real, offset, amount, pointer);
}

int unfetch(sqlite3_file *file, sqlite3_int64 offset, void *pointer)
{
    auto *mapped = reinterpret_cast<MappedFile *>(file);
    if (mapped->map && pointer >= mapped->map && pointer < mapped->map + mapped->size)
        return SQLITE_OK;
    return mapped->real->pMethods->xUnfetch(mapped->real, offset, pointer);
}

int close(sqlite3_file *file)
{
    auto *mapped = reinterpret_cast<MappedFile *>(file);
    if (mapped->map)
        munmap(mapped->map, std::size_t(mapped->size));
    return mapped->real->pMethods->xClose(mapped->real);
}

const sqlite3_io_methods methods = {
    3,
    &close,
    [](sqlite3_file *f, void *b, int n, sqlite3_int64 o) { return realOf(f)->pMethods->xRead(realOf(f), b, n, o); },
    [](sqlite3_file *f, const void *b, int n, sqlite3_int64 o) {
        return realOf(f)->pMethods->xWrite(realOf(f), b, n, o);
    },
    [](sqlite3_file *f, sqlite3_int64 s) { return realOf(f)->pMethods->xTruncate(realOf(f), s); },
    [](sqlite3_file *f, int flags) { return realOf(f)->pMethods->xSync(realOf(f), flags); },
    [](sqlite3_file *f, sqlite3_int64 *s) { return realOf(f)->pMethods->xFileSize(realOf(f), s); },
    [](sqlite3_file *f, int l) { return realOf(f)->pMethods->xLock(realOf(f), l); },
    [](sqlite3_file *f, int l) { return realOf(f)->pMethods->xUnlock(realOf(f), l); },
    [](sqlite3_file *f, int *r) { return realOf(f)->pMethods->xCheckReservedLock(realOf(f), r); },
    [](sqlite3_file *f, int op, void *a) { return realOf(f)->pMethods->xFileControl(realOf(f), op, a); },
    [](sqlite3_file *f) { return realOf(f)->pMethods->xSectorSize(realOf(f)); },
    [](sqlite3_file *f) { return realOf(f)->pMethods->xDeviceCharacteristics(realOf(f)); },
    [](sqlite3_file *f, int r, int s, int e, void volatile **p) {
        return realOf(f)->pMethods->xShmMap(realOf(f), r, s, e, p);
    },
    [](sqlite3_file *f, int o, int n, int flags) { return realOf(f)->pMethods->xShmLock(realOf(f), o, n, flags); },
    [](sqlite3_file *f) { realOf(f)->pMethods->xShmBarrier(realOf(f)); },
    [](sqlite3_file *f, int d) { return realOf(f)->pMethods->xShmUnmap(realOf(f), d); },
    &fetch,
    &unfetch,
};

int open(sqlite3_vfs *, const char *name, sqlite3_file *file, int flags, int *outFlags)
{
    auto *mapped = reinterpret_cast<MappedFile *>(file);
    mapped->real = reinterpret_cast<sqlite3_file *>(mapped + 1);
    mapped->map = nullptr;
    mapped->size = 0;
    const int rc = baseVfs->xOpen(baseVfs, name, mapped->real, flags, outFlags);
    if (rc != SQLITE_OK || !mapped->real->pMethods) {
        mapped->base.pMethods = nullptr;
        return rc;
    }
    mapped->base.pMethods = &methods;
    if (name && (flags & SQLITE_OPEN_MAIN_DB) && (flags & SQLITE_OPEN_READONLY)
        && mapped->real->pMethods->iVersion >= 3) {
        const int fd = ::open(name, O_RDONLY | O_CLOEXEC);
        struct stat status
        {
        };
        if (fd >= 0 && fstat(fd, &status) == 0 && status.st_size > 0) {
            void *map = mmap(nullptr, std::size_t(status.st_size), PROT_READ, MAP_SHARED, fd, 0);
            if (map != MAP_FAILED) {
                mapped->map = static_cast<char *>(map);
                mapped->size = status.st_size;
            }
        }
        if (fd >= 0)
            ::close(fd);
    }
    return SQLITE_OK;
}

} // namespace

bool mapWholeFiles()
{
    baseVfs = sqlite3_vfs_find(nullptr);
    if (!baseVfs || baseVfs->iVersion < 3)
        return false;
    wholeFileVfs = *baseVfs; // the base's other methods, called with the base's own pAppData
    wholeFileVfs.szOsFile = int(sizeof(MappedFile)) + baseVfs->szOsFile;
    wholeFileVfs.zName = "memhist-bench-whole-file-map";
    wholeFileVfs.pNext = nullptr;
    wholeFileVfs.xOpen = &open;
    return sqlite3_vfs_register(&wholeFileVfs, 1) == SQLITE_OK;
}

} // namespace memhist::bench
