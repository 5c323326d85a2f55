/* SPDX-License-Identifier: MIT */
/* The record stream of memhist's own Valgrind tool (valgrind-tool/mh_main.c), read by the recorder
 * (core/recorder/recordstreamreader.h). One header for both sides, in plain C so that the tool, which
 * cannot use a C library, includes it as it is: constants only, no structs, no types.
 *
 * The stream is little-endian. It starts with a header of MH_STREAM_HEADER_SIZE bytes:
 *   0   8  magic, the bytes of MH_STREAM_MAGIC
 *   8   4  u32 MH_STREAM_VERSION: a reader refuses a version it does not know
 *   12  4  u32 the Valgrind version the tool was built against, major * 10000 + minor * 100 + patch
 * then records, each a one-byte tag followed by fixed fields and, for some, bytes whose length a
 * field gives. Every field is written at its size, without padding. A transition is the 0-based
 * index of an executed instruction, counted over every thread, as Lackey's `I` lines count them.
 *
 * MH_REC_BLOCK_DEF (when a superblock is translated; precedes its first MH_REC_BLOCK_RUN)
 *   u32 block id (unique for the run), u16 instruction count N, then N times: u64 pc, u8 length
 * MH_REC_BLOCK_RUN (a superblock starts to run)
 *   u32 block id, u64 transition of its first instruction. Its instructions run in order from
 *   that transition on until the transition of the next MH_REC_BLOCK_RUN (or MH_REC_END's count):
 *   a side exit runs a prefix of them.
 * MH_REC_READ, MH_REC_WRITE (the program's loads and stores)
 *   u32 size, u64 address, u64 transition, then for a read the `size` bytes read; for a write
 *   the `size` bytes it overwrote (read just before the store), then the `size` bytes it wrote.
 *   An atomic read-modify-write is a read followed by a write (a failed compare-and-swap: the read
 *   only). Wide vector accesses are one record of their width; `rep movs` a read and a write per
 *   iteration.
 * MH_REC_KERNEL_READ (memory a system call reads: write()'s buffer, a path)
 *   u32 size, u64 address, u64 transition (the system call's instruction), u32 syscall number,
 *   then the `size` bytes.
 * MH_REC_KERNEL_WRITE (memory a system call writes: read()'s buffer, stat()'s struct)
 *   u32 size, u64 address, u64 transition, u32 syscall number, u8 1 when the bytes before are
 *   known (then the `size` bytes before follow) or 0, then the `size` bytes after.
 * MH_REC_MAP (memory is mapped: the program's image at start-up, mmap, the heap's growth)
 *   u64 first address, u64 length, u64 transition (from which it is mapped), u8 permissions
 *   (MH_PERM_*), u64 file offset, u16 path length, then the path: a file, or "[heap]", "[stack]",
 *   "[anon]".
 * MH_REC_UNMAP   u64 first address, u64 length, u64 transition
 * MH_REC_PROTECT u64 first address, u64 length, u64 transition, u8 permissions
 * MH_REC_MODULE (Valgrind read an object's symbols: the executable, a shared library)
 *   u64 transition, u64 load bias (run-time address - ELF address), u16 path length, then the path.
 * MH_REC_THREAD (another thread runs from here on)
 *   u64 thread id (the kernel's thread id, unique for the run: Valgrind reuses its own), u64
 *   transition of the next instruction.
 * MH_REC_START (recording starts: --skip-instructions reached, or --start-at's function entered)
 *   u64 transition of the first recorded instruction.
 * MH_REC_END (the last record: the program has ended; a stream without it was cut short)
 *   u64 instructions executed in all, u8 MH_END_*, i32 the exit status or the signal number.
 */
#ifndef MEMHIST_RECORDFORMAT_H
#define MEMHIST_RECORDFORMAT_H

#define MH_STREAM_MAGIC "MHSTREAM"
#define MH_STREAM_MAGIC_SIZE 8
#define MH_STREAM_VERSION 1
#define MH_STREAM_HEADER_SIZE 16

#define MH_REC_BLOCK_DEF 0x01
#define MH_REC_BLOCK_RUN 0x02
#define MH_REC_READ 0x03
#define MH_REC_WRITE 0x04
#define MH_REC_KERNEL_READ 0x05
#define MH_REC_KERNEL_WRITE 0x06
#define MH_REC_MAP 0x07
#define MH_REC_UNMAP 0x08
#define MH_REC_PROTECT 0x09
#define MH_REC_MODULE 0x0a
#define MH_REC_THREAD 0x0b
#define MH_REC_START 0x0c
#define MH_REC_END 0x0d

#define MH_PERM_READ 1
#define MH_PERM_WRITE 2
#define MH_PERM_EXECUTE 4

/* The syscall number of a MH_REC_KERNEL_WRITE that is not a system call's: the signal frame the
 * kernel writes on the stack when it delivers a signal. */
#define MH_SYSCALL_SIGNAL_FRAME 0xffffffffu

#define MH_END_EXIT 0 /* the program exited with the status */
#define MH_END_SIGNAL 1 /* a signal killed the program */

/* The tool's name (valgrind --tool=...) and its options. */
#define MH_TOOL_NAME "memhist"
#define MH_OPTION_FD "--stream-fd=" /* the pipe's write end, inherited */
#define MH_OPTION_SKIP "--skip-instructions=" /* record from this transition on */
#define MH_OPTION_START_AT "--start-at=" /* record from the first entry of this function on */

#endif
