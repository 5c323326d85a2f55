/* SPDX-License-Identifier: GPL-2.0-or-later */
/* memhist's Valgrind tool (valgrind --tool=memhist). It is a separate program, linked with Valgrind's
 * GPL core, that memhist starts and talks to only through a pipe: it writes every load and store of
 * the program it runs, with the bytes, as the binary stream that core/recorder/recordformat.h lays
 * out, to the file descriptor --stream-fd names.
 *
 * The file follows the order of Valgrind's own tools: options, instrumentation (a walk over each
 * superblock's IR statements), the helpers the instrumented code calls, the core events (system
 * calls, memory map, threads), buffered output, fini and initialisation.
 *
 * How the pieces fit:
 * - A global 64-bit count of executed guest instructions is incremented by inline IR at every IMark,
 *   so an instruction's transition is the count before its increment, and inside its helpers
 *   mh_count - 1.
 * - Each translated superblock gets an id and a BLOCK_DEF record at translation time; a helper at its
 *   start writes BLOCK_RUN. Loads are recorded after the load, stores in two halves around the store
 *   (the bytes before, then the bytes after), which only become a record once the second half ran.
 * - Recording starts when mh_record_from is lowered from ~0: every helper tests the transition
 *   against it, which is the single test the helpers make before recording starts.
 * - The stream ends with MH_REC_END, written when the core ends the process (see "The end").
 * - The tool is amd64-linux only: the record fields are written in the host's (little-endian) order.
 */

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"
#include "valgrind.h"

#include "../core/recorder/recordformat.h"

#if !defined(VGP_amd64_linux)
#  error "memhist's Valgrind tool supports amd64-linux only"
#endif

/* The Valgrind version the tool is built against, for the stream header. CMake passes the full
 * version from valgrind.pc; valgrind.h only knows major and minor. */
#ifndef MH_VALGRIND_VERSION
#  define MH_VALGRIND_VERSION (__VALGRIND_MAJOR__ * 10000 + __VALGRIND_MINOR__ * 100)
#endif

/* Not in the tool headers, but part of the core the tool is linked with: moves a file descriptor out
 * of the client's reach (as the core does with --log-fd), so that a program closing its descriptors
 * cannot close the stream. */
extern Int VG_(safe_fd)(Int oldfd);

/*------------------------------------------------------------*/
/*--- State                                                ---*/
/*------------------------------------------------------------*/

/* Instructions executed so far, all threads; the inline IR increments it at every IMark. */
static ULong mh_count = 0;

/* The first transition recorded: ~0 until recording starts, so that one comparison in each helper
 * both tells whether recording runs and drops the instructions before --skip-instructions' N. */
static ULong mh_record_from = ~0ULL;
static Bool mh_started = False;

static UInt mh_next_block_id = 0;
static ThreadId mh_last_tid = VG_INVALID_THREADID;

/* The pending half of a store record (see store_pre_body). */
static Bool mh_pend_live = False;
static Addr mh_pend_addr = 0;
static UWord mh_pend_size = 0;

/* Syscall number each thread is in, for the kernel's accesses. */
static UInt *mh_sysno = NULL;

/* Records are written into this buffer and the buffer to the pipe when it is full. mh_used counts
 * the complete records; a store's first half is staged after them (see store_pre_body). */
#define MH_BUF_SIZE (1024 * 1024)
static UChar mh_buf[MH_BUF_SIZE];
static SizeT mh_used = 0;
static Int mh_fd = -1;
static Bool mh_out_dead = False; /* a forked child, or the reader has gone */
static Bool mh_end_written = False;

/* Buffered output (defined near the end). */
static void out_flush(void);
static inline UChar *out_reserve(SizeT n);
static void out_bytes(const void *src, SizeT n);
static inline UChar *put8(UChar *p, UChar v);
static inline UChar *put16(UChar *p, UShort v);
static inline UChar *put32(UChar *p, UInt v);
static inline UChar *put64(UChar *p, ULong v);
static inline void copy_bytes(UChar *dst, const UChar *src, UWord n);

/* Records. */
static void emit_start(ULong transition);
static void emit_block_run(UInt id, ULong transition);
static void emit_new_modules(void);
static void finish(UChar how, Int value);

/*------------------------------------------------------------*/
/*--- Command line options                                 ---*/
/*------------------------------------------------------------*/

static Int clo_stream_fd = -1;
static ULong clo_skip = 0;
static const HChar *clo_start_at = NULL;

/* The value of `arg` after `prefix` (recordformat.h's option names end with '='), or NULL. */
static const HChar *option_value(const HChar *arg, const HChar *prefix)
{
    SizeT n = VG_(strlen)(prefix);
    return VG_(strncmp)(arg, prefix, n) == 0 ? arg + n : NULL;
}

static Bool parse_ulong(const HChar *s, ULong *out)
{
    HChar *end;
    Long v;
    if (*s < '0' || *s > '9')
        return False;
    v = VG_(strtoll10)(s, &end);
    if (*end != '\0' || v < 0)
        return False;
    *out = (ULong)v;
    return True;
}

static Bool mh_process_cmd_line_option(const HChar *arg)
{
    const HChar *v;
    ULong n = 0;
    if ((v = option_value(arg, MH_OPTION_FD)) != NULL) {
        if (!parse_ulong(v, &n) || n > 0x7fffffff)
            VG_(fmsg_bad_option)(arg, "expects a file descriptor number\n");
        clo_stream_fd = (Int)n;
    } else if ((v = option_value(arg, MH_OPTION_SKIP)) != NULL) {
        if (!parse_ulong(v, &n))
            VG_(fmsg_bad_option)(arg, "expects a number of instructions\n");
        clo_skip = n;
    } else if ((v = option_value(arg, MH_OPTION_START_AT)) != NULL) {
        if (*v == '\0')
            VG_(fmsg_bad_option)(arg, "expects a function name\n");
        clo_start_at = v;
    } else {
        return False;
    }
    return True;
}

static void mh_print_usage(void)
{
    VG_(printf)("    " MH_OPTION_FD "<n>              write the record stream to this inherited descriptor\n"
                "    " MH_OPTION_SKIP "<n>    record from the n-th executed instruction on\n"
                "    " MH_OPTION_START_AT "<function>      record from the first entry of this function on\n");
}

static void mh_print_debug_usage(void)
{
    VG_(printf)("    (none)\n");
}

/*------------------------------------------------------------*/
/*--- Instrumentation                                      ---*/
/*------------------------------------------------------------*/

/* The helpers the instrumented code calls (defined below). */
static VG_REGPARM(2) void mh_block_run(UWord id, UWord n_insns);
static VG_REGPARM(2) void mh_start_at_hit(UWord id, UWord insn_index);
static VG_REGPARM(2) void mh_load(Addr a, UWord size);
static VG_REGPARM(2) void mh_store_pre(Addr a, UWord size);
static VG_REGPARM(0) void mh_store_post(void);
static VG_REGPARM(1) void mh_store_post_if(UWord ok);

/* The same for the usual sizes, with the size built in: no size argument, no switch on it. */
#define MH_DECLARE_SIZED(N)                                                                               \
    static VG_REGPARM(1) void mh_load##N(Addr a);                                                         \
    static VG_REGPARM(1) void mh_store_pre##N(Addr a);                                                    \
    static VG_REGPARM(0) void mh_store_post##N(void);
MH_DECLARE_SIZED(1)
MH_DECLARE_SIZED(2)
MH_DECLARE_SIZED(4)
MH_DECLARE_SIZED(8)
MH_DECLARE_SIZED(16)
MH_DECLARE_SIZED(32)

typedef struct {
    Int size;
    void *load, *store_pre, *store_post;
    const HChar *load_name, *store_pre_name, *store_post_name;
} SizedHelpers;

#define MH_SIZED(N) { N, mh_load##N, mh_store_pre##N, mh_store_post##N, "mh_load" #N, "mh_store_pre" #N, "mh_store_post" #N }
static const SizedHelpers mh_sized[] = { MH_SIZED(1), MH_SIZED(2), MH_SIZED(4), MH_SIZED(8), MH_SIZED(16), MH_SIZED(32) };

static const SizedHelpers *sized_helpers(Int size)
{
    UInt i;
    for (i = 0; i < sizeof(mh_sized) / sizeof(mh_sized[0]); i++)
        if (mh_sized[i].size == size)
            return &mh_sized[i];
    return NULL;
}

static void emit_block_def(UInt id, const IRSB *sb, Int first, UInt n_insns);

/* An instruction's loads, to pair the load VEX puts before a locked read-modify-write's CAS with
 * that CAS. */
#define MH_MAX_INSN_LOADS 8
typedef struct {
    IRExpr *addr;
    Int size;
} InsnLoad;

static void add_call(IRSB *sb, const HChar *name, void *fn, Int regparms, IRExpr **args, IRExpr *guard)
{
    IRDirty *di = unsafeIRDirty_0_N(regparms, name, VG_(fnptr_to_fnentry)(fn), args);
    if (guard != NULL)
        di->guard = deepCopyIRExpr(guard);
    addStmtToIRSB(sb, IRStmt_Dirty(di));
}

/* A copy of an expression the helper can take as an argument: flat IR wants atoms. */
static IRExpr *atom_of(IRSB *sb, IRExpr *e)
{
    IRTemp t;
    if (isIRAtom(e))
        return deepCopyIRExpr(e);
    t = newIRTemp(sb->tyenv, typeOfIRExpr(sb->tyenv, e));
    addStmtToIRSB(sb, IRStmt_WrTmp(t, e));
    return IRExpr_RdTmp(t);
}

static IRExpr *assign(IRSB *sb, IRType ty, IRExpr *e)
{
    IRTemp t = newIRTemp(sb->tyenv, ty);
    addStmtToIRSB(sb, IRStmt_WrTmp(t, e));
    return IRExpr_RdTmp(t);
}

/* mh_count += 1, inline: a dirty call per instruction would cost more than the accesses. The count
 * is loaded once per superblock and carried in a temporary from one increment to the next (nothing
 * else changes it while a superblock runs), which spares every instruction a load that waits for
 * the previous instruction's store; each increment still stores, so the count in memory is exact
 * at every instruction, for the helpers and when a fault leaves the superblock. */
static IRExpr *add_count_increment(IRSB *sb, IRExpr *count)
{
    IRExpr *next;
    if (count == NULL)
        count = assign(sb, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64, mkIRExpr_HWord((HWord)&mh_count)));
    next = assign(sb, Ity_I64, IRExpr_Binop(Iop_Add64, count, IRExpr_Const(IRConst_U64(1))));
    addStmtToIRSB(sb, IRStmt_Store(Iend_LE, mkIRExpr_HWord((HWord)&mh_count), next));
    return next;
}

static void add_load(IRSB *sb, IRExpr *addr, Int size, IRExpr *guard)
{
    const SizedHelpers *h = sized_helpers(size);
    if (h != NULL)
        add_call(sb, h->load_name, h->load, 1, mkIRExprVec_1(atom_of(sb, addr)), guard);
    else
        add_call(sb, "mh_load", mh_load, 2, mkIRExprVec_2(atom_of(sb, addr), mkIRExpr_HWord((HWord)size)), guard);
}

static void add_store_pre(IRSB *sb, IRExpr *addr, Int size, IRExpr *guard)
{
    const SizedHelpers *h = sized_helpers(size);
    if (h != NULL)
        add_call(sb, h->store_pre_name, h->store_pre, 1, mkIRExprVec_1(atom_of(sb, addr)), guard);
    else
        add_call(sb, "mh_store_pre", mh_store_pre, 2,
                 mkIRExprVec_2(atom_of(sb, addr), mkIRExpr_HWord((HWord)size)), guard);
}

static void add_store_post(IRSB *sb, Int size, IRExpr *guard)
{
    const SizedHelpers *h = sized_helpers(size);
    if (h != NULL)
        add_call(sb, h->store_post_name, h->store_post, 0, mkIRExprVec_0(), guard);
    else
        add_call(sb, "mh_store_post", mh_store_post, 0, mkIRExprVec_0(), guard);
}

/* A value of type `ty` (an integer of 8 to 64 bits) widened to 64 bits. */
static IRExpr *widen64(IRSB *sb, IRType ty, IRExpr *e)
{
    switch (ty) {
    case Ity_I8:
        return assign(sb, Ity_I64, IRExpr_Unop(Iop_8Uto64, e));
    case Ity_I16:
        return assign(sb, Ity_I64, IRExpr_Unop(Iop_16Uto64, e));
    case Ity_I32:
        return assign(sb, Ity_I64, IRExpr_Unop(Iop_32Uto64, e));
    case Ity_I64:
        return e;
    default:
        VG_(tool_panic)("memhist: unexpected CAS type");
    }
}

/* 1 when old == expd, as a 64-bit value for the helper. */
static IRExpr *cas_half_ok(IRSB *sb, IRType ty, IRTemp old, IRExpr *expd)
{
    IRExpr *a = widen64(sb, ty, IRExpr_RdTmp(old));
    IRExpr *b = widen64(sb, ty, deepCopyIRExpr(expd));
    IRExpr *eq = assign(sb, Ity_I1, IRExpr_Binop(Iop_CmpEQ64, a, b));
    return assign(sb, Ity_I64, IRExpr_Unop(Iop_1Uto64, eq));
}

static Bool is_true(const IRExpr *guard)
{
    return guard == NULL
           || (guard->tag == Iex_Const && guard->Iex.Const.con->tag == Ico_U1 && guard->Iex.Const.con->Ico.U1);
}

static IRSB *mh_instrument(VgCallbackClosure *closure, IRSB *sbIn, const VexGuestLayout *layout,
                           const VexGuestExtents *vge, const VexArchInfo *archinfo_host, IRType gWordTy,
                           IRType hWordTy)
{
    IRSB *sbOut;
    IRTypeEnv *tyenv = sbIn->tyenv;
    Int i, first;
    UInt n_insns = 0, insn_index = 0, id;
    IRExpr *count = NULL; /* the count after the last increment, once loaded */
    InsnLoad loads[MH_MAX_INSN_LOADS];
    Int n_loads = 0;
    Bool check_entries = clo_start_at != NULL && !mh_started;
    DiEpoch ep = VG_(current_DiEpoch)();

    (void)closure;
    (void)layout;
    (void)vge;
    (void)archinfo_host;
    if (gWordTy != hWordTy)
        VG_(tool_panic)("memhist: host/guest word size mismatch");

    sbOut = deepCopyIRSBExceptStmts(sbIn);

    /* The preamble before the first IMark stays first. */
    i = 0;
    while (i < sbIn->stmts_used && sbIn->stmts[i]->tag != Ist_IMark) {
        addStmtToIRSB(sbOut, sbIn->stmts[i]);
        i++;
    }
    first = i;
    for (; i < sbIn->stmts_used; i++)
        if (sbIn->stmts[i]->tag == Ist_IMark)
            n_insns++;
    if (n_insns > 0xffff)
        VG_(tool_panic)("memhist: superblock with more than 65535 instructions");

    id = mh_next_block_id++;
    emit_block_def(id, sbIn, first, n_insns);
    add_call(sbOut, "mh_block_run", mh_block_run, 2,
             mkIRExprVec_2(mkIRExpr_HWord((HWord)id), mkIRExpr_HWord((HWord)n_insns)), NULL);

    for (i = first; i < sbIn->stmts_used; i++) {
        IRStmt *st = sbIn->stmts[i];
        if (st == NULL || st->tag == Ist_NoOp)
            continue;

        switch (st->tag) {
        case Ist_IMark: {
            /* Every IMark, not only the first: a chased jump can enter a function mid-superblock. */
            const HChar *fnname;
            if (check_entries && VG_(get_fnname_if_entry)(ep, st->Ist.IMark.addr, &fnname)
                && VG_(strcmp)(fnname, clo_start_at) == 0)
                add_call(sbOut, "mh_start_at_hit", mh_start_at_hit, 2,
                         mkIRExprVec_2(mkIRExpr_HWord((HWord)id), mkIRExpr_HWord((HWord)insn_index)), NULL);
            addStmtToIRSB(sbOut, st);
            count = add_count_increment(sbOut, count);
            insn_index++;
            n_loads = 0;
            break;
        }

        case Ist_WrTmp: {
            IRExpr *data = st->Ist.WrTmp.data;
            addStmtToIRSB(sbOut, st);
            if (data->tag == Iex_Load) {
                Int size = sizeofIRType(data->Iex.Load.ty);
                add_load(sbOut, data->Iex.Load.addr, size, NULL);
                if (n_loads < MH_MAX_INSN_LOADS) {
                    loads[n_loads].addr = data->Iex.Load.addr;
                    loads[n_loads].size = size;
                    n_loads++;
                }
            }
            break;
        }

        case Ist_LoadG: {
            IRLoadG *lg = st->Ist.LoadG.details;
            IRType ty = Ity_INVALID, tyWide = Ity_INVALID;
            typeOfIRLoadGOp(lg->cvt, &tyWide, &ty);
            addStmtToIRSB(sbOut, st);
            add_load(sbOut, lg->addr, sizeofIRType(ty), lg->guard);
            break;
        }

        case Ist_Store: {
            Int size = sizeofIRType(typeOfIRExpr(tyenv, st->Ist.Store.data));
            add_store_pre(sbOut, st->Ist.Store.addr, size, NULL);
            addStmtToIRSB(sbOut, st);
            add_store_post(sbOut, size, NULL);
            break;
        }

        case Ist_StoreG: {
            IRStoreG *sg = st->Ist.StoreG.details;
            Int size = sizeofIRType(typeOfIRExpr(tyenv, sg->data));
            add_store_pre(sbOut, sg->addr, size, sg->guard);
            addStmtToIRSB(sbOut, st);
            add_store_post(sbOut, size, sg->guard);
            break;
        }

        case Ist_CAS: {
            /* One read and, when the CAS succeeds, one write. VEX translates xchg, lock xadd, lock
             * add... as a load then a CAS expecting the loaded value: that load is the read. */
            IRCAS *cas = st->Ist.CAS.details;
            IRType ty = typeOfIRExpr(tyenv, cas->dataLo);
            Int size = sizeofIRType(ty) * (cas->dataHi != NULL ? 2 : 1);
            Bool read_done = False;
            IRExpr *ok;
            Int j;
            for (j = 0; j < n_loads; j++)
                if (loads[j].size == size && eqIRAtom(loads[j].addr, cas->addr))
                    read_done = True;
            if (!read_done)
                add_load(sbOut, cas->addr, size, NULL);
            add_store_pre(sbOut, cas->addr, size, NULL);
            addStmtToIRSB(sbOut, st);
            ok = cas_half_ok(sbOut, ty, cas->oldLo, cas->expdLo);
            if (cas->dataHi != NULL)
                ok = assign(sbOut, Ity_I64,
                            IRExpr_Binop(Iop_And64, ok, cas_half_ok(sbOut, ty, cas->oldHi, cas->expdHi)));
            add_call(sbOut, "mh_store_post_if", mh_store_post_if, 1, mkIRExprVec_1(ok), NULL);
            break;
        }

        case Ist_LLSC: {
            /* Not generated for amd64; kept so that the walk is complete. */
            if (st->Ist.LLSC.storedata == NULL) {
                addStmtToIRSB(sbOut, st);
                add_load(sbOut, st->Ist.LLSC.addr, sizeofIRType(typeOfIRTemp(tyenv, st->Ist.LLSC.result)), NULL);
            } else {
                Int size = sizeofIRType(typeOfIRExpr(tyenv, st->Ist.LLSC.storedata));
                IRExpr *ok;
                add_store_pre(sbOut, st->Ist.LLSC.addr, size, NULL);
                addStmtToIRSB(sbOut, st);
                ok = assign(sbOut, Ity_I64, IRExpr_Unop(Iop_1Uto64, IRExpr_RdTmp(st->Ist.LLSC.result)));
                add_call(sbOut, "mh_store_post_if", mh_store_post_if, 1, mkIRExprVec_1(ok), NULL);
            }
            break;
        }

        case Ist_Dirty: {
            /* Helpers that touch memory themselves: fxsave, xsave, fxrstor, x87 80-bit loads... */
            IRDirty *d = st->Ist.Dirty.details;
            IRExpr *guard = is_true(d->guard) ? NULL : d->guard;
            if (d->mFx == Ifx_None) {
                addStmtToIRSB(sbOut, st);
                break;
            }
            tl_assert(d->mAddr != NULL && d->mSize > 0);
            if (d->mFx == Ifx_Read || d->mFx == Ifx_Modify)
                add_load(sbOut, d->mAddr, d->mSize, guard);
            if (d->mFx == Ifx_Write || d->mFx == Ifx_Modify)
                add_store_pre(sbOut, d->mAddr, d->mSize, guard);
            addStmtToIRSB(sbOut, st);
            if (d->mFx == Ifx_Write || d->mFx == Ifx_Modify)
                add_store_post(sbOut, d->mSize, guard);
            break;
        }

        case Ist_AbiHint:
        case Ist_Put:
        case Ist_PutI:
        case Ist_MBE:
        case Ist_Exit:
            /* A side exit needs nothing: the count is already exact at every instruction, and the
             * instructions run are a prefix of the block's. */
            addStmtToIRSB(sbOut, st);
            break;

        default:
            ppIRStmt(st);
            VG_(tool_panic)("memhist: unhandled IR statement");
        }
    }
    return sbOut;
}

/*------------------------------------------------------------*/
/*--- Helpers called from the instrumented code            ---*/
/*------------------------------------------------------------*/

/* The transition of the instruction running now: the count was incremented at its IMark. */
static inline ULong current_transition(void)
{
    return mh_count > 0 ? mh_count - 1 : 0;
}

#define MH_ACCESS_HEADER (1 + 4 + 8 + 8)

static void start_recording(ULong from)
{
    mh_started = True;
    mh_record_from = from;
    emit_start(from);
}

/* At the start of every superblock, before its first instruction is counted. */
static VG_REGPARM(2) void mh_block_run(UWord id, UWord n_insns)
{
    if (LIKELY(mh_started)) {
        emit_block_run((UInt)id, mh_count);
        return;
    }
    /* --skip-instructions=N alone: start in the first block whose instructions reach N. */
    if (clo_start_at == NULL && mh_count + n_insns > clo_skip) {
        start_recording(clo_skip > mh_count ? clo_skip : mh_count);
        emit_block_run((UInt)id, mh_count);
    }
}

/* Before the entry instruction of --start-at's function (not yet counted), the insn_index-th of
 * superblock id. */
static VG_REGPARM(2) void mh_start_at_hit(UWord id, UWord insn_index)
{
    if (mh_started || mh_count < clo_skip)
        return;
    start_recording(mh_count);
    /* The block started insn_index instructions ago; its run was not recorded then. */
    emit_block_run((UInt)id, mh_count - insn_index);
}

/* After a load: the load succeeded, so the bytes are readable, and no other thread runs. */
static inline __attribute__((always_inline)) void load_body(Addr a, UWord size)
{
    ULong t = mh_count - 1;
    UChar *p;
    if (t < mh_record_from)
        return;
    p = out_reserve(MH_ACCESS_HEADER + size);
    p = put8(p, MH_REC_READ);
    p = put32(p, (UInt)size);
    p = put64(p, a);
    p = put64(p, t);
    copy_bytes(p, (const UChar *)a, size);
    mh_used += MH_ACCESS_HEADER + size;
}

/* Before a store: stages the record with the bytes about to be overwritten after the complete
 * records, without counting it. If reading them faults, the fault is the client's (it happens in
 * code called from generated code), as the store's would have been. If the store itself faults,
 * the second half never runs and the next record overwrites the staged one. */
static inline __attribute__((always_inline)) void store_pre_body(Addr a, UWord size)
{
    ULong t = mh_count - 1;
    UChar *p;
    if (t < mh_record_from)
        return;
    p = out_reserve(MH_ACCESS_HEADER + 2 * size);
    p = put8(p, MH_REC_WRITE);
    p = put32(p, (UInt)size);
    p = put64(p, a);
    p = put64(p, t);
    copy_bytes(p, (const UChar *)a, size);
    mh_pend_addr = a;
    mh_pend_size = size;
    mh_pend_live = True;
}

/* Right after the store: adds the bytes now there and counts the record. Nothing can come between
 * the first half and this one but the store, so the staged record is still at mh_used. */
static inline __attribute__((always_inline)) void store_post_body(UWord size)
{
    if (!mh_pend_live)
        return;
    copy_bytes(mh_buf + mh_used + MH_ACCESS_HEADER + size, (const UChar *)mh_pend_addr, size);
    mh_used += MH_ACCESS_HEADER + 2 * size;
    mh_pend_live = False;
}

static VG_REGPARM(2) void mh_load(Addr a, UWord size)
{
    load_body(a, size);
}

static VG_REGPARM(2) void mh_store_pre(Addr a, UWord size)
{
    store_pre_body(a, size);
}

static VG_REGPARM(0) void mh_store_post(void)
{
    store_post_body(mh_pend_size);
}

#define MH_DEFINE_SIZED(N)                                                                                \
    static VG_REGPARM(1) void mh_load##N(Addr a)                                                          \
    {                                                                                                     \
        load_body(a, N);                                                                                  \
    }                                                                                                     \
    static VG_REGPARM(1) void mh_store_pre##N(Addr a)                                                     \
    {                                                                                                     \
        store_pre_body(a, N);                                                                             \
    }                                                                                                     \
    static VG_REGPARM(0) void mh_store_post##N(void)                                                      \
    {                                                                                                     \
        store_post_body(N);                                                                               \
    }
MH_DEFINE_SIZED(1)
MH_DEFINE_SIZED(2)
MH_DEFINE_SIZED(4)
MH_DEFINE_SIZED(8)
MH_DEFINE_SIZED(16)
MH_DEFINE_SIZED(32)

/* After a CAS: its write exists only when it succeeded. */
static VG_REGPARM(1) void mh_store_post_if(UWord ok)
{
    if (!mh_pend_live)
        return;
    if (ok)
        mh_store_post();
    mh_pend_live = False;
}

/*------------------------------------------------------------*/
/*--- Records                                              ---*/
/*------------------------------------------------------------*/

static void emit_header(void)
{
    UChar *p = out_reserve(MH_STREAM_HEADER_SIZE);
    VG_(memcpy)(p, MH_STREAM_MAGIC, MH_STREAM_MAGIC_SIZE);
    p += MH_STREAM_MAGIC_SIZE;
    p = put32(p, MH_STREAM_VERSION);
    p = put32(p, MH_VALGRIND_VERSION);
    mh_used += MH_STREAM_HEADER_SIZE;
}

static void emit_block_def(UInt id, const IRSB *sb, Int first, UInt n_insns)
{
    SizeT n = 1 + 4 + 2 + 9 * (SizeT)n_insns;
    UChar *p = out_reserve(n);
    Int i;
    p = put8(p, MH_REC_BLOCK_DEF);
    p = put32(p, id);
    p = put16(p, (UShort)n_insns);
    for (i = first; i < sb->stmts_used; i++) {
        const IRStmt *st = sb->stmts[i];
        if (st->tag != Ist_IMark)
            continue;
        p = put64(p, st->Ist.IMark.addr);
        p = put8(p, (UChar)st->Ist.IMark.len);
    }
    mh_used += n;
}

static void emit_block_run(UInt id, ULong transition)
{
    UChar *p = out_reserve(1 + 4 + 8);
    p = put8(p, MH_REC_BLOCK_RUN);
    p = put32(p, id);
    p = put64(p, transition);
    mh_used += 1 + 4 + 8;
}

static void emit_start(ULong transition)
{
    UChar *p = out_reserve(1 + 8);
    p = put8(p, MH_REC_START);
    p = put64(p, transition);
    mh_used += 1 + 8;
}

static void emit_thread(ULong kernel_tid)
{
    UChar *p = out_reserve(1 + 8 + 8);
    p = put8(p, MH_REC_THREAD);
    p = put64(p, kernel_tid);
    p = put64(p, mh_count);
    mh_used += 1 + 8 + 8;
}

static UShort path_length(const HChar *path)
{
    SizeT n = VG_(strlen)(path);
    return n > 0xffff ? 0xffff : (UShort)n;
}

static UChar perms(Bool rr, Bool ww, Bool xx)
{
    return (rr ? MH_PERM_READ : 0) | (ww ? MH_PERM_WRITE : 0) | (xx ? MH_PERM_EXECUTE : 0);
}

static void emit_map(Addr a, SizeT len, UChar perm, ULong offset, const HChar *path)
{
    UShort n = path_length(path);
    UChar *p = out_reserve(1 + 8 + 8 + 8 + 1 + 8 + 2);
    p = put8(p, MH_REC_MAP);
    p = put64(p, a);
    p = put64(p, len);
    p = put64(p, mh_count);
    p = put8(p, perm);
    p = put64(p, offset);
    p = put16(p, n);
    mh_used += 1 + 8 + 8 + 8 + 1 + 8 + 2;
    out_bytes(path, n);
}

static void emit_range(UChar tag, Addr a, SizeT len)
{
    UChar *p = out_reserve(1 + 8 + 8 + 8);
    p = put8(p, tag);
    p = put64(p, a);
    p = put64(p, len);
    p = put64(p, mh_count);
    mh_used += 1 + 8 + 8 + 8;
}

static void emit_protect(Addr a, SizeT len, UChar perm)
{
    emit_range(MH_REC_PROTECT, a, len);
    *out_reserve(1) = perm;
    mh_used += 1;
}

static void emit_module(PtrdiffT bias, const HChar *path)
{
    UShort n = path_length(path);
    UChar *p = out_reserve(1 + 8 + 8 + 2);
    p = put8(p, MH_REC_MODULE);
    p = put64(p, mh_count);
    p = put64(p, (ULong)bias);
    p = put16(p, n);
    mh_used += 1 + 8 + 8 + 2;
    out_bytes(path, n);
}

/* A kernel access: KERNEL_READ (before == NULL, has_before ignored) or KERNEL_WRITE. */
/* `after`: the bytes the kernel leaves, or NULL when they are in memory already. */
static void emit_kernel(UChar tag, Addr a, SizeT size, UInt sysno, const UChar *before, const UChar *after)
{
    UChar *p = out_reserve(1 + 4 + 8 + 8 + 4 + 1);
    p = put8(p, tag);
    p = put32(p, (UInt)size);
    p = put64(p, a);
    p = put64(p, current_transition());
    p = put32(p, sysno);
    mh_used += 1 + 4 + 8 + 8 + 4;
    if (tag == MH_REC_KERNEL_WRITE) {
        put8(p, before != NULL ? 1 : 0);
        mh_used += 1;
        if (before != NULL)
            out_bytes(before, size);
    }
    out_bytes(after != NULL ? after : (const void *)a, size);
}

static void finish(UChar how, Int value)
{
    UChar *p;
    if (mh_end_written || mh_fd < 0)
        return;
    mh_end_written = True;
    p = out_reserve(1 + 8 + 1 + 4);
    p = put8(p, MH_REC_END);
    p = put64(p, mh_count);
    p = put8(p, how);
    p = put32(p, (UInt)value);
    mh_used += 1 + 8 + 1 + 4;
    out_flush();
}

/*------------------------------------------------------------*/
/*--- Threads and system calls                             ---*/
/*------------------------------------------------------------*/

static void note_thread(ThreadId tid)
{
    if (tid != mh_last_tid) {
        mh_last_tid = tid;
        emit_thread((ULong)VG_(gettid)());
    }
}

/* The bytes a system call is about to overwrite, until the call's post_mem_write. */
#define MH_KW_SLOTS 32
#define MH_KW_MAX_BYTES (64 * 1024 * 1024)
typedef struct {
    ThreadId tid;
    Addr a;
    SizeT len;
    UChar *before;
} KernelWrite;
static KernelWrite mh_kw[MH_KW_SLOTS];
static UInt mh_kw_next = 0;

static void kw_clear(ThreadId tid)
{
    Int i;
    for (i = 0; i < MH_KW_SLOTS; i++)
        if (mh_kw[i].before != NULL && mh_kw[i].tid == tid) {
            VG_(free)(mh_kw[i].before);
            mh_kw[i].before = NULL;
        }
}

static Bool kernel_part(CorePart part)
{
    return part == Vg_CoreSysCall || part == Vg_CoreSysCallArgInMem || part == Vg_CoreSignal;
}

static UInt syscall_of(CorePart part, ThreadId tid)
{
    if (part == Vg_CoreSignal)
        return MH_SYSCALL_SIGNAL_FRAME;
    return tid < VG_N_THREADS ? mh_sysno[tid] : 0;
}

/* Reading the client's memory in these callbacks faults in Valgrind itself, so check first. */
static Bool client_readable(Addr a, SizeT len)
{
    return len > 0 && VG_(am_is_valid_for_client)(a, len, VKI_PROT_READ);
}

static Bool recording_now(void)
{
    return current_transition() >= mh_record_from;
}

static void mh_pre_mem_read(CorePart part, ThreadId tid, const HChar *s, Addr a, SizeT size)
{
    (void)s;
    if (!recording_now() || !kernel_part(part) || !client_readable(a, size))
        return;
    note_thread(tid);
    emit_kernel(MH_REC_KERNEL_READ, a, size, syscall_of(part, tid), NULL, NULL);
}

static void mh_pre_mem_read_asciiz(CorePart part, ThreadId tid, const HChar *s, Addr a)
{
    /* The string's length, a page at a time: a string running into unmapped memory is skipped. */
    Addr p = a;
    (void)s;
    if (!recording_now() || !kernel_part(part))
        return;
    for (;;) {
        Addr page_end = VG_PGROUNDDN(p) + VKI_PAGE_SIZE;
        if (!client_readable(p, page_end - p))
            return;
        for (; p < page_end; p++)
            if (*(const HChar *)p == '\0') {
                note_thread(tid);
                emit_kernel(MH_REC_KERNEL_READ, a, p - a + 1, syscall_of(part, tid), NULL, NULL);
                return;
            }
    }
}

static void mh_pre_mem_write(CorePart part, ThreadId tid, const HChar *s, Addr a, SizeT size)
{
    KernelWrite *kw;
    (void)s;
    if (!recording_now() || !kernel_part(part) || size > MH_KW_MAX_BYTES || !client_readable(a, size))
        return;
    kw = &mh_kw[mh_kw_next];
    mh_kw_next = (mh_kw_next + 1) % MH_KW_SLOTS;
    if (kw->before != NULL)
        VG_(free)(kw->before);
    kw->tid = tid;
    kw->a = a;
    kw->len = size;
    kw->before = VG_(malloc)("mh.kernel-write", size);
    VG_(memcpy)(kw->before, (const void *)a, size);
}

static void mh_post_mem_write(CorePart part, ThreadId tid, Addr a, SizeT size)
{
    const UChar *before = NULL;
    Int i;
    if (!recording_now() || !kernel_part(part) || !client_readable(a, size))
        return;
    /* The call often writes less than it announced (read() returns fewer bytes): any announced
     * range holding this one has its bytes before. */
    for (i = 0; i < MH_KW_SLOTS; i++) {
        const KernelWrite *kw = &mh_kw[i];
        if (kw->before != NULL && kw->tid == tid && a >= kw->a && a - kw->a <= kw->len && size <= kw->len - (a - kw->a))
            before = kw->before + (a - kw->a);
    }
    note_thread(tid);
    emit_kernel(MH_REC_KERNEL_WRITE, a, size, syscall_of(part, tid), before, NULL);
}

/* The word the kernel clears (and wakes futex waiters on) when a thread exits, which Valgrind does
 * not tell its tools about: pthread_join waits on the thread's tid word this way. It is set by
 * clone(CLONE_CHILD_CLEARTID, ..., child_tid) for the new thread, or by set_tid_address(). */
static Addr *mh_clear_tid = NULL; /* by ThreadId; 0: none */
static Addr *mh_child_clear_tid = NULL; /* by the cloning ThreadId, until the child is created */

static void mh_pre_syscall(ThreadId tid, UInt syscallno, UWord *args, UInt nArgs)
{
    (void)nArgs;
    if (tid < VG_N_THREADS) {
        mh_sysno[tid] = syscallno;
        /* clone(flags, stack, parent_tid, child_tid, tls) on amd64. */
        if (syscallno == __NR_clone)
            mh_child_clear_tid[tid] = (args[0] & VKI_CLONE_CHILD_CLEARTID) ? args[3] : 0;
        else if (syscallno == __NR_set_tid_address)
            mh_clear_tid[tid] = args[0];
    }
    /* A successful exec replaces Valgrind without fini: send what there is. */
    if (syscallno == __NR_execve || syscallno == __NR_execveat)
        out_flush();
}

static void mh_post_syscall(ThreadId tid, UInt syscallno, UWord *args, UInt nArgs, SysRes res)
{
    (void)syscallno;
    (void)args;
    (void)nArgs;
    (void)res;
    kw_clear(tid);
}

static void mh_pre_thread_ll_create(ThreadId parent, ThreadId child)
{
    if (parent < VG_N_THREADS && child < VG_N_THREADS)
        mh_clear_tid[child] = mh_child_clear_tid[parent];
}

/* The thread exits: the kernel clears its tid word now, a write of the exit system call. */
static void mh_pre_thread_ll_exit(ThreadId tid)
{
    static const UChar zeros[sizeof(Int)] = { 0 };
    Addr a;
    if (tid >= VG_N_THREADS || (a = mh_clear_tid[tid]) == 0)
        return;
    mh_clear_tid[tid] = 0;
    if (!recording_now() || !client_readable(a, sizeof(Int)))
        return;
    note_thread(tid);
    emit_kernel(MH_REC_KERNEL_WRITE, a, sizeof(Int), mh_sysno[tid], (const UChar *)a, zeros);
}

static void mh_start_client_code(ThreadId tid, ULong blocks_dispatched)
{
    (void)blocks_dispatched;
    kw_clear(tid); /* a signal frame's pre_mem_write has no post_syscall */
    note_thread(tid);
}

/* fork(): the child runs on under Valgrind with a copy of the buffer; the history is the parent's. */
static void mh_atfork_pre(ThreadId tid)
{
    (void)tid;
    out_flush();
}

static void mh_atfork_child(ThreadId tid)
{
    (void)tid;
    mh_out_dead = True;
    mh_used = 0;
    mh_pend_live = False;
    mh_record_from = ~0ULL;
    mh_started = True; /* no START, no BLOCK_RUN */
    if (mh_fd >= 0)
        VG_(close)(mh_fd);
    mh_fd = -1;
}

/*------------------------------------------------------------*/
/*--- Memory map and modules                               ---*/
/*------------------------------------------------------------*/

/* The file (and offset) or "[anon]" behind an address. The core gives the client a page of this
 * tool's own file (its trampoline: signal return and the like), which is Valgrind's, not a module of
 * the program: "[valgrind]". */
static const HChar *segment_path(Addr a, ULong *offset)
{
    static const HChar own[] = "/" MH_TOOL_NAME "-amd64-linux"; /* the only platform built */
    NSegment const *seg = VG_(am_find_nsegment)(a);
    *offset = 0;
    if (seg != NULL && seg->kind == SkFileC) {
        const HChar *name = VG_(am_get_filename)(seg);
        const SizeT length = name != NULL ? VG_(strlen)(name) : 0;
        if (length >= sizeof own - 1 && VG_(strcmp)(name + length - (sizeof own - 1), own) == 0)
            return "[valgrind]";
        if (name != NULL) {
            *offset = (ULong)seg->offset + (a - seg->start);
            return name;
        }
    }
    return "[anon]";
}

static void emit_map_of(Addr a, SizeT len, UChar perm)
{
    ULong offset;
    const HChar *path = segment_path(a, &offset);
    emit_map(a, len, perm, offset, path);
}

/* The main thread's stack is an anonymous segment at the top of a reservation that shrinks from
 * above as the stack grows, without telling the tool: its MAP covers the whole reservation. */
static Bool is_main_stack(Addr a, Addr *lo)
{
    NSegment const *seg = VG_(am_find_nsegment)(a);
    NSegment const *below;
    if (seg == NULL || seg->kind != SkAnonC || seg->start == 0)
        return False;
    below = VG_(am_find_nsegment)(seg->start - 1);
    if (below == NULL || below->kind != SkResvn || below->smode != SmUpper)
        return False;
    *lo = below->start;
    return True;
}

typedef struct {
    const DebugInfo *di;
    Addr text;
} Module;
static Module *mh_modules = NULL;
static Int mh_n_modules = 0, mh_cap_modules = 0;

/* Valgrind's own objects: the tool executable (its text is Valgrind's, not the client's) and the
 * vgpreload_*.so the core preloads into the client. */
static Bool is_valgrind_module(const DebugInfo *di, const HChar *path)
{
    NSegment const *seg = VG_(am_find_nsegment)(VG_(DebugInfo_get_text_avma)(di));
    const HChar *base = VG_(strrchr)(path, '/');
    base = base != NULL ? base + 1 : path;
    return (seg != NULL && seg->kind == SkFileV) || VG_(strncmp)(base, "vgpreload_", 10) == 0;
}

/* Emits a MODULE for every DebugInfo with symbols read and not emitted yet. */
static void emit_new_modules(void)
{
    const DebugInfo *di;
    for (di = VG_(next_DebugInfo)(NULL); di != NULL; di = VG_(next_DebugInfo)(di)) {
        Addr text = VG_(DebugInfo_get_text_avma)(di);
        const HChar *path = VG_(DebugInfo_get_filename)(di);
        Int i;
        Bool known = False;
        if (VG_(DebugInfo_get_text_size)(di) == 0 || path == NULL)
            continue;
        for (i = 0; i < mh_n_modules && !known; i++)
            known = mh_modules[i].di == di && mh_modules[i].text == text;
        if (known)
            continue;
        if (mh_n_modules == mh_cap_modules) {
            mh_cap_modules = mh_cap_modules == 0 ? 32 : 2 * mh_cap_modules;
            mh_modules = VG_(realloc)("mh.modules", mh_modules, mh_cap_modules * sizeof(Module));
        }
        mh_modules[mh_n_modules].di = di;
        mh_modules[mh_n_modules].text = text;
        mh_n_modules++;
        if (!is_valgrind_module(di, path))
            emit_module(VG_(DebugInfo_get_text_bias)(di), path);
    }
}

static void mh_new_mem_startup(Addr a, SizeT len, Bool rr, Bool ww, Bool xx, ULong di_handle)
{
    Addr lo;
    NSegment const *seg = VG_(am_find_nsegment)(a);
    /* The core also announces its trampoline code, a part of a page already announced. */
    if (seg != NULL && seg->start != a)
        return;
    if (is_main_stack(a, &lo))
        emit_map(lo, a + len - lo, perms(rr, ww, xx), 0, "[stack]");
    else
        emit_map_of(a, len, perms(rr, ww, xx));
    if (di_handle != 0)
        emit_new_modules();
}

static void mh_new_mem_mmap(Addr a, SizeT len, Bool rr, Bool ww, Bool xx, ULong di_handle)
{
    emit_map_of(a, len, perms(rr, ww, xx));
    if (di_handle != 0)
        emit_new_modules();
}

static void mh_die_mem_munmap(Addr a, SizeT len)
{
    emit_range(MH_REC_UNMAP, a, len);
}

static void mh_change_mem_mprotect(Addr a, SizeT len, Bool rr, Bool ww, Bool xx)
{
    emit_protect(a, len, perms(rr, ww, xx));
}

static void mh_new_mem_brk(Addr a, SizeT len, ThreadId tid)
{
    (void)tid;
    emit_map(a, len, MH_PERM_READ | MH_PERM_WRITE, 0, "[heap]");
}

static void mh_die_mem_brk(Addr a, SizeT len)
{
    emit_range(MH_REC_UNMAP, a, len);
}

/* mremap moving a mapping: the core reports the old range's death separately. */
static void mh_copy_mem_remap(Addr from, Addr to, SizeT len)
{
    NSegment const *seg = VG_(am_find_nsegment)(to);
    (void)from;
    if (seg != NULL)
        emit_map_of(to, len, perms(seg->hasR, seg->hasW, seg->hasX));
}

/*------------------------------------------------------------*/
/*--- Buffered output                                      ---*/
/*------------------------------------------------------------*/

#ifndef VKI_POLLOUT
#  define VKI_POLLOUT 0x0004 /* Linux's, missing from Valgrind's vki headers */
#endif

static void write_all(const UChar *p, SizeT n)
{
    while (n > 0) {
        Int chunk = n > (1u << 30) ? (1 << 30) : (Int)n;
        Int r = VG_(write)(mh_fd, p, chunk);
        if (r > 0) {
            p += r;
            n -= (SizeT)r;
        } else if (r == -VKI_EINTR) {
            continue;
        } else if (r == -VKI_EAGAIN) {
            struct vki_pollfd pfd;
            pfd.fd = mh_fd;
            pfd.events = VKI_POLLOUT;
            pfd.revents = 0;
            VG_(poll)(&pfd, 1, -1);
        } else {
            /* EPIPE or worse: nobody reads the history any more, so running on is pointless. */
            mh_out_dead = True;
            VG_(exit)(1);
        }
    }
}

static void out_flush(void)
{
    if (!mh_out_dead && mh_used > 0)
        write_all(mh_buf, mh_used);
    mh_used = 0;
}

/* Room for n more bytes (n <= MH_BUF_SIZE) at mh_buf + mh_used. */
static inline UChar *out_reserve(SizeT n)
{
    if (UNLIKELY(mh_used + n > MH_BUF_SIZE))
        out_flush();
    return mh_buf + mh_used;
}

/* n bytes of payload, possibly more than the buffer holds. */
static void out_bytes(const void *src, SizeT n)
{
    if (n > MH_BUF_SIZE - mh_used)
        out_flush();
    if (n <= MH_BUF_SIZE) {
        VG_(memcpy)(mh_buf + mh_used, src, n);
        mh_used += n;
    } else if (!mh_out_dead) {
        write_all(src, n);
    }
}

static inline UChar *put8(UChar *p, UChar v)
{
    *p = v;
    return p + 1;
}

static inline UChar *put16(UChar *p, UShort v)
{
    __builtin_memcpy(p, &v, 2);
    return p + 2;
}

static inline UChar *put32(UChar *p, UInt v)
{
    __builtin_memcpy(p, &v, 4);
    return p + 4;
}

static inline UChar *put64(UChar *p, ULong v)
{
    __builtin_memcpy(p, &v, 8);
    return p + 8;
}

/* Copies n bytes; the access sizes are small constants, which the compiler turns into moves. */
static inline void copy_bytes(UChar *dst, const UChar *src, UWord n)
{
    switch (n) {
    case 1:
        *dst = *src;
        break;
    case 2:
        __builtin_memcpy(dst, src, 2);
        break;
    case 4:
        __builtin_memcpy(dst, src, 4);
        break;
    case 8:
        __builtin_memcpy(dst, src, 8);
        break;
    case 16:
        __builtin_memcpy(dst, src, 16);
        break;
    case 32:
        __builtin_memcpy(dst, src, 32);
        break;
    default:
        VG_(memcpy)(dst, src, n);
        break;
    }
}


/*------------------------------------------------------------*/
/*--- The end                                              ---*/
/*------------------------------------------------------------*/

/* fini always gets 0: the core learns how the program ended afterwards. The two core functions
 * that end the process are wrapped at link time (-Wl,--wrap=...) to write MH_REC_END with the
 * real status or signal just before they do. */
void __real_vgPlain_client_exit(Int status);
void __wrap_vgPlain_client_exit(Int status);
void __real_vgPlain_kill_self(Int sigNo);
void __wrap_vgPlain_kill_self(Int sigNo);

void __wrap_vgPlain_client_exit(Int status)
{
    finish(MH_END_EXIT, status & 0xff);
    __real_vgPlain_client_exit(status);
}

void __wrap_vgPlain_kill_self(Int sigNo)
{
    finish(MH_END_SIGNAL, sigNo);
    __real_vgPlain_kill_self(sigNo);
}

static void mh_fini(Int exitcode)
{
    (void)exitcode;
    /* A store staged but not completed (its store faulted) is dropped: it is past mh_used. */
    mh_pend_live = False;
    out_flush();
}

/*------------------------------------------------------------*/
/*--- Initialisation                                       ---*/
/*------------------------------------------------------------*/

static void mh_post_clo_init(void)
{
    struct vg_stat st;
    if (clo_stream_fd < 0) {
        VG_(fmsg)("memhist: " MH_OPTION_FD "N is required (the pipe memhist reads)\n");
        VG_(exit)(1);
    }
    if (VG_(fstat)(clo_stream_fd, &st) != 0) {
        VG_(fmsg)("memhist: " MH_OPTION_FD "%d is not an open file descriptor\n", clo_stream_fd);
        VG_(exit)(1);
    }
    mh_fd = VG_(safe_fd)(clo_stream_fd);
    mh_sysno = VG_(calloc)("mh.sysno", VG_N_THREADS, sizeof(UInt));
    mh_clear_tid = VG_(calloc)("mh.clear-tid", VG_N_THREADS, sizeof(Addr));
    mh_child_clear_tid = VG_(calloc)("mh.child-clear-tid", VG_N_THREADS, sizeof(Addr));
    VG_(atfork)(mh_atfork_pre, NULL, mh_atfork_child);

    emit_header();
    if (clo_start_at == NULL && clo_skip == 0) {
        mh_started = True;
        mh_record_from = 0;
    }
}

static void mh_pre_clo_init(void)
{
    VG_(details_name)(MH_TOOL_NAME);
    VG_(details_version)(NULL);
    VG_(details_description)("memhist's memory history recorder");
    VG_(details_copyright_author)("memhist's authors; GPL-2.0-or-later");
    VG_(details_bug_reports_to)("memhist's issue tracker");
    VG_(details_avg_translation_sizeB)(640); /* instrumented blocks are large, as memcheck's */

    VG_(basic_tool_funcs)(mh_post_clo_init, mh_instrument, mh_fini);
    VG_(needs_command_line_options)(mh_process_cmd_line_option, mh_print_usage, mh_print_debug_usage);
    VG_(needs_syscall_wrapper)(mh_pre_syscall, mh_post_syscall);

    VG_(track_new_mem_startup)(mh_new_mem_startup);
    VG_(track_new_mem_mmap)(mh_new_mem_mmap);
    VG_(track_die_mem_munmap)(mh_die_mem_munmap);
    VG_(track_change_mem_mprotect)(mh_change_mem_mprotect);
    VG_(track_new_mem_brk)(mh_new_mem_brk);
    VG_(track_die_mem_brk)(mh_die_mem_brk);
    VG_(track_copy_mem_remap)(mh_copy_mem_remap);

    VG_(track_pre_mem_read)(mh_pre_mem_read);
    VG_(track_pre_mem_read_asciiz)(mh_pre_mem_read_asciiz);
    VG_(track_pre_mem_write)(mh_pre_mem_write);
    VG_(track_post_mem_write)(mh_post_mem_write);

    VG_(track_start_client_code)(mh_start_client_code);
    VG_(track_pre_thread_ll_create)(mh_pre_thread_ll_create);
    VG_(track_pre_thread_ll_exit)(mh_pre_thread_ll_exit);
}

VG_DETERMINE_INTERFACE_VERSION(mh_pre_clo_init)
