// SPDX-License-Identifier: MIT
#include "core/storage/wholefilemap.h"

#include <cstdint>
#include <fcntl.h>
#include <mutex>
#include <sqlite3.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace memhist::sqlite {

namespace {

// Our file, followed in the same allocation by the default VFS's own (szOsFile covers both).
struct MappedFile
{
    sqlite3_file base;
    sqlite3_file *real;
    char *map;
    sqlite3_int64 size;
};

sqlite3_vfs *defaultVfs = nullptr;
sqlite3_vfs mappingVfs {};

MappedFile *mappedOf(sqlite3_file *file)
{
    return reinterpret_cast<MappedFile *>(file);
}

sqlite3_file *realOf(sqlite3_file *file)
{
    return mappedOf(file)->real;
}

int fetch(sqlite3_file *file, sqlite3_int64 offset, int amount, void **pointer)
{
    MappedFile *mapped = mappedOf(file);
    if (mapped->map && offset >= 0 && amount >= 0 && offset <= mapped->size - amount) {
        *pointer = mapped->map + offset;
        return SQLITE_OK;
    }
    return mapped->real->pMethods->xFetch(mapped->real, offset, amount, pointer);
}

int unfetch(sqlite3_file *file, sqlite3_int64 offset, void *pointer)
{
    MappedFile *mapped = mappedOf(file);
    // A page of our map stays mapped; null (SQLite dropping every map) and pages of the default
    // VFS's own map go to it.
    if (mapped->map && pointer >= mapped->map && pointer < mapped->map + mapped->size)
        return SQLITE_OK;
    return mapped->real->pMethods->xUnfetch(mapped->real, offset, pointer);
}

int fileControl(sqlite3_file *file, int op, void *argument)
{
    const int rc = realOf(file)->pMethods->xFileControl(realOf(file), op, argument);
    // A shim names itself before the VFS it forwards to ("memhist-whole-file-map/unix").
    if (op == SQLITE_FCNTL_VFSNAME && rc == SQLITE_OK) {
        char **name = static_cast<char **>(argument);
        *name = sqlite3_mprintf("%s/%z", mappingVfs.zName, *name);
    }
    return rc;
}

int close(sqlite3_file *file)
{
    MappedFile *mapped = mappedOf(file);
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
    &fileControl,
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

// Maps the whole file `name` read-only; leaves `mapped` without a map when it cannot (the default
// VFS then serves every page, as without this VFS).
void mapWholeFile(const char *name, MappedFile *mapped)
{
    const int fd = ::open(name, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    struct stat status
    {
    };
    if (fstat(fd, &status) == 0 && S_ISREG(status.st_mode) && status.st_size > 0) {
        void *map = mmap(nullptr, std::size_t(status.st_size), PROT_READ, MAP_SHARED, fd, 0);
        if (map != MAP_FAILED) {
            mapped->map = static_cast<char *>(map);
            mapped->size = status.st_size;
        }
    }
    ::close(fd);
}

int open(sqlite3_vfs *, const char *name, sqlite3_file *file, int flags, int *outFlags)
{
    MappedFile *mapped = mappedOf(file);
    mapped->real = reinterpret_cast<sqlite3_file *>(mapped + 1);
    mapped->map = nullptr;
    mapped->size = 0;
    const int rc = defaultVfs->xOpen(defaultVfs, name, mapped->real, flags, outFlags);
    if (rc != SQLITE_OK || !mapped->real->pMethods) {
        // SQLite calls no method of a file whose open failed (pMethods null).
        mapped->base.pMethods = nullptr;
        return rc;
    }
    mapped->base.pMethods = &methods;
    if (name && (flags & SQLITE_OPEN_MAIN_DB) && (flags & SQLITE_OPEN_READONLY)
        && mapped->real->pMethods->iVersion >= 3)
        mapWholeFile(name, mapped);
    return SQLITE_OK;
}

} // namespace

const char *wholeFileMapVfs()
{
    static std::once_flag once;
    static bool registered = false;
    std::call_once(once, [] {
        defaultVfs = sqlite3_vfs_find(nullptr);
        if (!defaultVfs || defaultVfs->iVersion < 3)
            return;
        mappingVfs = *defaultVfs; // its other methods, called with its own pAppData
        mappingVfs.szOsFile = int(sizeof(MappedFile)) + defaultVfs->szOsFile;
        mappingVfs.zName = "memhist-whole-file-map";
        mappingVfs.pNext = nullptr;
        mappingVfs.xOpen = &open;
        registered = sqlite3_vfs_register(&mappingVfs, 0) == SQLITE_OK;
    });
    return registered ? mappingVfs.zName : nullptr;
}

} // namespace memhist::sqlite
