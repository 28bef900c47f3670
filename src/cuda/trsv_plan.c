/* trsv_plan.c: GPU triangular solve: buffer size, analysis, plan queries
 * and free (the solve is in trsv_solve.c; the engine kernels in
 * trsv_pull.cu, trsv_push.cu, trsv_levelset.cu, trsv_block.cu; the
 * cuSPARSE baseline in trsv_cusparse.c). */
#include "trsv_plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DOMINO_DEFAULT_BACKOFF_NS 32u /* see bench/results/README.md */
#define DOMINO_DEFAULT_SWEEP_MAX_ROW 4     /* the warp sweep (an affine scan): rows of up to 4 entries, */
#define DOMINO_DEFAULT_SWEEP_MIN_CHAINED 16 /* 16 of 31 lanes chained (H100, bench/results/h100-trsv4:
                                               cryg2500 4x faster; 8 chained or rows of 8 slowed copter2) */
#define DOMINO_DEFAULT_LONG_ROW 512   /* a thread walks rows of up to this many entries (H100,
                                         bench/results/h100-trsv3: 64 slowed pushpull's rows of
                                         65-114, 128 and 256 R-MAT's, 1024 missed hangGlider_2's) */
#define DOMINO_FEW_LONG_ROW 64        /* ... or of up to this many where no warp holds two longer
                                         ones: those rows the warp walks then costs nothing but
                                         a one-thread walk of adder_dcop_05's 99-entry row was
                                         25 batches of loads on its critical path (~0.64x
                                         cuSPARSE, bench/results/h200-stepwarp) */
#define DOMINO_DEFAULT_OVERLAP_FILL 1 /* see bench/results/h100-trsv4 */
#define DOMINO_DEFAULT_LONG_PREFETCH 1 /* a warp taking a long row brings its first entries
                                          into L1 (bench/results/h200-prefetch24) */
#define DOMINO_DEFAULT_ANY_ORDER 0 /* stored order, but auto plans try both walks on their first
                                      solves (trsv_walk_trial.c); DOMINO_ANY_ORDER=0/1 forces one */
#define DOMINO_DEFAULT_ONE_LAUNCH_ROWS (1 << 19) /* the one-launch pull solve up to this many rows
                                                    (DOMINO_ONE_LAUNCH_ROWS; 0 turns it off).  H100,
                                                    bench/results/h100-one-launch: depth-1 DAGs of
                                                    1e5 / 2.5e5 / 5e5 rows 1.33 / 1.25 / 1.10x
                                                    faster in one launch, 1e6 rows 0.86x */
#define ALIGN_UP(x) (((x) + 255) & ~(size_t)255)

/* Does a plan of engine e solve in one launch (domino_pull_flags)?  The pull
 * engines with one right-hand side, up to DOMINO_ONE_LAUNCH_ROWS rows: the
 * launch it saves matters on small systems; on large ones the second store of
 * every x (into the flags and into X) costs more than the launch. */
static int uses_one_launch(domino_engine e, int32_t n, int32_t nrhs)
{
    if (nrhs != 1 || (e != DOMINO_ENGINE_THREAD && e != DOMINO_ENGINE_WARP && e != DOMINO_ENGINE_LEVELSET))
        return 0;
    /* read once, so that a buffer sized by domino_trsv_buffer_size fits the analysis's layout */
    static long most = -1;
    if (most < 0) {
        const char *rows = getenv("DOMINO_ONE_LAUNCH_ROWS"); /* tuning experiments */
        most = rows && atol(rows) >= 0 ? atol(rows) : DOMINO_DEFAULT_ONE_LAUNCH_ROWS;
    }
    return n > 0 && n <= most;
}

/* room for the thread engine's packed walk (trsv_packed.cu): one
 * right-hand side, at most DOMINO_PACK_MAX_ROWS rows (4 bytes a row) */
#define DOMINO_PACK_MAX_ROWS (1 << 25)
static int has_pack_room(domino_engine e, int32_t n, int32_t nrhs)
{
    return e == DOMINO_ENGINE_THREAD && nrhs == 1 && n > 0 && n <= DOMINO_PACK_MAX_ROWS;
}

/* which arrays an engine needs besides the caller's */
typedef struct plan_layout {
    size_t st, scan_tmp, tptr, tind, tval, work, in_degree, done_count, left_sum, row_level,
        level_rows, level_count, flags0, flags1, flags_st0, flags_st1, lb_block, lb_val, lb_diag,
        pack, total; /* byte offsets into the workspace, and its size */
} plan_layout;

/* the level-block engine reads the caller's arrays through its own order
 * (CSR(S) or CSC(S) alike); cuSPARSE takes them as they are */
static int engine_needs_transpose(domino_engine e, int arrays_are_csr_of_s)
{
    if (e == DOMINO_ENGINE_CUSPARSE || e == DOMINO_ENGINE_LEVELBLOCK) return 0;
    if (e == DOMINO_ENGINE_CSC) return arrays_are_csr_of_s;
    return !arrays_are_csr_of_s;
}

/* the engines of trsv_pull.cu, which read each row's triangle only, in the
 * order prepare_triangle gives them */
static int is_pull_engine(domino_engine e)
{
    return e == DOMINO_ENGINE_THREAD || e == DOMINO_ENGINE_WARP || e == DOMINO_ENGINE_LEVELSET ||
           e == DOMINO_ENGINE_STEPBLOCK;
}

/* does the plan hold S's rows as transposed arrays (tptr, tind, tval)?  Not
 * for the stencil engine, which scatters from the caller's arrays
 * (domino_dstencil_from_dmatrix_transposed) */
static int holds_transposed(domino_engine e, int transposed)
{
    return transposed && e != DOMINO_ENGINE_STENCIL;
}

/* copy_room: room for prepare_triangle's copy of the caller's arrays;
 * lb_room: for the level-block engine's order (a caller's workspace must
 * hold them whenever they may be needed) */
static plan_layout layout_of(domino_engine e, int transpose, int32_t n, int64_t nnz, domino_type t,
                             int32_t nrhs, int copy_room, int lb_room)
{
    plan_layout L;
    memset(&L, 0, sizeof(L));
    size_t off = 0, n1 = (size_t)n + 1;
#define TAKE(field, bytes) do { L.field = off; off += ALIGN_UP((size_t)(bytes)); } while (0)
    TAKE(st, sizeof(domino_solve_status));
    TAKE(scan_tmp, domino_scan_scratch_bytes(n));
    if (transpose || is_pull_engine(e)) TAKE(work, n1 * sizeof(int64_t));
    if (transpose || copy_room) {
        TAKE(tptr, n1 * sizeof(int64_t));
        TAKE(tind, (size_t)nnz * sizeof(int32_t) + 4);
        TAKE(tval, (size_t)nnz * domino_type_size(t) + 8);
    }
    if (e == DOMINO_ENGINE_CSC) {
        TAKE(in_degree, (size_t)n * sizeof(int32_t));
        TAKE(done_count, (size_t)n * sizeof(int32_t));
        TAKE(left_sum, (size_t)n * sizeof(double));
    }
    if (e == DOMINO_ENGINE_LEVELSET) {
        TAKE(row_level, (size_t)n * sizeof(int32_t));
        TAKE(level_rows, (size_t)n * sizeof(int32_t));
        TAKE(level_count, 2 * n1 * sizeof(int64_t));
    }
    if (uses_one_launch(e, n, nrhs)) {
        TAKE(flags0, (size_t)n * domino_type_size(t));
        TAKE(flags1, (size_t)n * domino_type_size(t));
        TAKE(flags_st0, sizeof(domino_solve_status));
        TAKE(flags_st1, sizeof(domino_solve_status));
    }
    if (has_pack_room(e, n, nrhs)) TAKE(pack, n1 * sizeof(int32_t)); /* the packed walk's warps */
    if (lb_room) { /* the order's block for levels <= n and entries <= nnz */
        size_t lo_off[TRSV_LO_ARRAYS];
        TAKE(lb_block, trsv_level_order_layout(n, n, nnz, lo_off));
        TAKE(lb_val, (size_t)nnz * domino_type_size(t) + 8);
        TAKE(lb_diag, (size_t)n * domino_type_size(t) + 8);
    }
#undef TAKE
    L.total = off;
    return L;
}

/* common argument checks; fills the shape fields of p */
static domino_status check_args(domino_handle h, domino_op op, domino_fill fill, domino_diag diag,
                                domino_dmatrix dA, int32_t nrhs, const domino_trsv_options *opt,
                                const char *fn, domino_engine *engine, int *s_upper,
                                int *arrays_are_csr_of_s)
{
    if (!dA) return domino_error(h, DOMINO_NULL_POINTER, "%s: dA is NULL", fn);
    if (dA->magic != DOMINO_DMATRIX_MAGIC)
        return domino_error(h, DOMINO_INVALID_OBJECT, "%s: dA is not a live device matrix", fn);
    if ((op != DOMINO_OP_N && op != DOMINO_OP_T) || (fill != DOMINO_LOWER && fill != DOMINO_UPPER) ||
        (diag != DOMINO_UNIT && diag != DOMINO_NON_UNIT))
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: bad op, fill or diag", fn);
    if (dA->nrows != dA->ncols)
        return domino_error(h, DOMINO_DIMENSION_MISMATCH, "%s: matrix is %d x %d, not square", fn,
                            dA->nrows, dA->ncols);
    if (nrhs < 1) return domino_error(h, DOMINO_INVALID_VALUE, "%s: nrhs %d < 1", fn, nrhs);
    domino_engine e = opt ? opt->engine : DOMINO_ENGINE_AUTO;
    if ((int)e < 0 || (int)e >= DOMINO_ENGINE_COUNT)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: bad engine %d", fn, (int)e);
    *s_upper = (fill == DOMINO_UPPER) != (op == DOMINO_OP_T);
    *arrays_are_csr_of_s = (dA->format == DOMINO_CSR) == (op == DOMINO_OP_N);
    int deterministic = opt && opt->deterministic;
    if (e == DOMINO_ENGINE_AUTO) {
        /* The domino pull engine (per-block thread/warp rows), from CSR(S):
         * the caller's arrays, or their transpose made in the analysis when
         * they are CSC(S) (op T of a CSR matrix, a CSC one).  CSC push saves
         * that transpose but solved slower: IC(0)'s L^T solve (op T) took it
         * and CG + IC(0) stayed at 0.64-0.90x of the cuSPARSE loop on the
         * real matrices of the precond suite (H100, bench/results/h100-precond3),
         * where BiCGSTAB + ILU(0) on the pull engine reached 1.2-3.4x. */
        e = DOMINO_ENGINE_THREAD;
    }
    if (e == DOMINO_ENGINE_CSC && nrhs != 1)
        return domino_error(h, DOMINO_NOT_SUPPORTED, "%s: the csc engine solves one right-hand side (nrhs %d)", fn, nrhs);
    if (e == DOMINO_ENGINE_CSC && deterministic)
        return domino_error(h, DOMINO_NOT_SUPPORTED,
                            "%s: the csc engine adds partial sums atomically and is not deterministic", fn);
    if (e == DOMINO_ENGINE_STEPBLOCK && deterministic)
        return domino_error(h, DOMINO_NOT_SUPPORTED,
                            "%s: the stepblock engine's summation order depends on timing; it is not "
                            "deterministic", fn);
    if (e == DOMINO_ENGINE_STENCIL && dA->format != DOMINO_CSR)
        return domino_error(h, DOMINO_NOT_SUPPORTED, "%s: the stencil engine reads a CSR matrix", fn);
    if (e == DOMINO_ENGINE_CUSPARSE && dA->nnz >= INT32_MAX)
        return domino_error(h, DOMINO_NOT_SUPPORTED, "%s: cuSPARSE SpSV baseline needs nnz < 2^31", fn);
    *engine = e;
    return DOMINO_SUCCESS;
}

domino_status domino_trsv_buffer_size(domino_handle h, domino_op op, domino_fill fill,
                                      domino_diag diag, domino_dmatrix dA, int32_t nrhs,
                                      const domino_trsv_options *opt, size_t *bytes)
{
    if (!bytes) return domino_error(h, DOMINO_NULL_POINTER, "domino_trsv_buffer_size: bytes is NULL");
    *bytes = 0;
    domino_engine e = DOMINO_ENGINE_AUTO;
    int s_upper = 0, csr_of_s = 0;
    domino_status s = check_args(h, op, fill, diag, dA, nrhs, opt, "domino_trsv_buffer_size", &e,
                                 &s_upper, &csr_of_s);
    if (s) return s;
    int transpose = engine_needs_transpose(e, csr_of_s);
    domino_engine asked = opt ? opt->engine : DOMINO_ENGINE_AUTO;
    *bytes = layout_of(e, transpose, dA->nrows, dA->nnz, dA->type, nrhs,
                       is_pull_engine(e) && !transpose, domino_levelblock_possible(asked, dA, nrhs, 1))
                 .total;
    return DOMINO_SUCCESS;
}

/* The pull engines read each row's entries of S's triangle only, a row of
 * more than DOMINO_PULL_WALK_SHORT entries in the order that meets its
 * nearest dependency (solved last) last, so that a walk in stored order
 * keeps up with the dependencies as they arrive and is through soon after
 * the last.  An upper row in stored (ascending) order stalled on its
 * first entry and then walked all the others after it arrived, and a full
 * matrix's rows (an LU factor) walked the other triangle too (H100:
 * BiCGSTAB + ILU(0) on bcsstk33 25 ms an iteration against cuSPARSE's 6,
 * bench/results/h100-precond2).  Shorter rows keep the diagonal and the
 * nearest dependency first in upper rows (their stored order): there a
 * walk that first waits for the nearest finds the others solved, one wait
 * in place of several (h100-triangle-ab: reversing them too made upper
 * solves of short-row matrices 8-15% slower); tune.short_near_first says
 * which (DOMINO_SHORT_NEAR_FIRST=1 asks it of lower rows, an experiment).
 * The transposed arrays hold the triangle: their rows are reordered in
 * place.  The caller's CSR(S) is copied when rows must be reordered, or a
 * row holds entries of the other triangle (outside_rows, from the diagonal
 * check); else it is read where it is. */
static domino_status prepare_triangle(domino_handle h, struct domino_gpu_context *gpu,
                                      struct domino_trsv_plan_s *p, int32_t outside_rows)
{
    const char *fn = "domino_trsv_analysis: triangle";
    cudaError_t e;
    if (!is_pull_engine(p->engine)) return DOMINO_SUCCESS;
    /* the rows reversed, by length: upper long ones, or lower short ones
     * when short_near_first; none when rev_lo > rev_hi */
    int64_t rev_lo = 1, rev_hi = 0;
    if (p->s_upper) rev_lo = DOMINO_PULL_WALK_SHORT + 1, rev_hi = INT64_MAX;
    else if (p->tune.short_near_first) rev_lo = 0, rev_hi = DOMINO_PULL_WALK_SHORT;
    if (p->transposed) {
        if (rev_lo > rev_hi) return DOMINO_SUCCESS;
        e = domino_launch_reverse_rows(gpu->stream, p->type, p->n, p->tptr, rev_lo, rev_hi, p->tind,
                                       p->tval);
        return e ? domino_cuda_status(h, e, fn) : DOMINO_SUCCESS;
    }
    if (!p->copied) {
        if (rev_lo > rev_hi && outside_rows == 0) return DOMINO_SUCCESS;
        if (!p->tptr) { /* the plan's own workspace: the copy's arrays apart, made now */
            size_t n1 = (size_t)p->n + 1, nnz = (size_t)p->dA->nnz;
            size_t a = ALIGN_UP(n1 * sizeof(int64_t)), b = ALIGN_UP(nnz * sizeof(int32_t) + 4);
            e = domino_pool_malloc(&p->copy_alloc, a + b + nnz * domino_type_size(p->type) + 8, gpu->stream);
            if (e) return domino_cuda_status(h, e, fn);
            p->tptr = (int64_t *)p->copy_alloc;
            p->tind = (int32_t *)((char *)p->copy_alloc + a);
            p->tval = (char *)p->copy_alloc + a + b;
        }
        p->copied = 1;
        p->eptr = p->tptr;
        p->eind = p->tind;
        p->eval = p->tval;
    }
    int64_t nnz = 0;
    domino_dmatrix dA = p->dA;
    e = domino_launch_triangle_copy(gpu->stream, p->type, p->n, dA->ptr, dA->ind, dA->val, p->s_upper,
                                    rev_lo, rev_hi, p->tptr, p->tind, p->tval, p->work, p->scan_tmp,
                                    p->scan_tmp_bytes, &nnz);
    if (!e) e = cudaStreamSynchronize(gpu->stream);
    if (e) return domino_cuda_status(h, e, fn);
    p->tnnz = nnz;
    p->avg_row_len = p->n ? (double)nnz / p->n : 0;
    return DOMINO_SUCCESS;
}

/* work that depends on the values: transpose, pivot check, engine prep */
domino_status domino_trsv_prepare_values(domino_handle h, struct domino_gpu_context *gpu,
                                         struct domino_trsv_plan_s *p)
{
    cudaError_t e = cudaSuccess;
    domino_dmatrix dA = p->dA;
    int32_t n = p->n;
    domino_solve_status hst;
    if (holds_transposed(p->engine, p->transposed)) {
        /* the caller's arrays viewed as CSR hold the other of CSR(S)/CSC(S);
         * the triangle they hold is S's when they are CSC(S), else mirrored */
        int arrays_upper = p->arrays_are_csr_of_s ? p->s_upper : !p->s_upper;
        int64_t tnnz = 0;
        e = domino_launch_triangle_transpose(gpu->stream, p->type, n, dA->ptr, dA->ind, dA->val,
                                             arrays_upper, p->tptr, p->tind, p->tval, p->work,
                                             p->scan_tmp, p->scan_tmp_bytes, &tnnz);
        if (e) return domino_cuda_status(h, e, "domino_trsv_analysis: transpose");
        p->avg_row_len = n ? (double)tnnz / n : 0;
        p->tnnz = tnnz;
    }
    /* the long rows of the rows the pull engines walk (once: the pattern
     * stays), counted before the diagonal check's copy: the transposed
     * arrays, or the caller's rows, which prepare_triangle may copy without
     * the other triangle (then counted with it: more rows look long, and
     * 512 is the safe threshold) */
    const int count_long = p->tune.long_row == 0 && is_pull_engine(p->engine);
    const int fused = count_long && p->eptr == dA->ptr; /* the diagonal check counts them */
    if ((e = domino_launch_status_reset(gpu->stream, p->st)) ||
        (e = domino_launch_diag_check(gpu->stream, p->type, n, dA->ptr, dA->ind, dA->val, p->s_upper,
                                      dA->sorted, fused ? DOMINO_FEW_LONG_ROW : -1, p->st)) ||
        (count_long && !fused &&
         (e = domino_launch_long_rows(gpu->stream, n, p->eptr, p->s_upper, DOMINO_FEW_LONG_ROW, p->st))) ||
        (e = domino_solve_status_read(gpu, p->st, &hst)))
        return domino_cuda_status(h, e, "domino_trsv_analysis: diagonal check");
    if (p->diag == DOMINO_NON_UNIT && hst.missing_diag != INT32_MAX)
        return domino_error(h, DOMINO_ZERO_DIAGONAL, "domino_trsv_analysis: row %d has no diagonal entry",
                            hst.missing_diag);
    p->zero_pivot_row = p->diag == DOMINO_NON_UNIT ? hst.zero_pivot : INT32_MAX;
    /* n entries and a diagonal entry in every row: nothing else */
    p->diagonal_only = dA->nnz == n && hst.missing_diag == INT32_MAX;
    domino_status s = prepare_triangle(h, gpu, p, hst.outside_rows);
    if (s) return s;
    if (count_long) p->tune.long_row = hst.long_rows <= 1 ? DOMINO_FEW_LONG_ROW : DOMINO_DEFAULT_LONG_ROW;
    if (p->tune.long_row == 0) p->tune.long_row = DOMINO_DEFAULT_LONG_ROW;
    if (p->engine == DOMINO_ENGINE_LEVELBLOCK && (s = domino_levelblock_values(h, gpu, p))) return s;
    if (p->engine == DOMINO_ENGINE_CSC) {
        e = domino_launch_trsv_push(gpu->stream, p->type, n, p->eptr, p->eind, p->eval, p->s_upper,
                                    p->diag == DOMINO_UNIT, NULL, NULL, p->in_degree, NULL, NULL, 1,
                                    0, 0, p->st);
        if (!e) e = cudaStreamSynchronize(gpu->stream);
        if (e) return domino_cuda_status(h, e, "domino_trsv_analysis: in-degrees");
    }
    if (p->engine == DOMINO_ENGINE_CUSPARSE) {
        if (p->cusparse_plan) return domino_cusparse_trsv_update(h, gpu, p);
        return domino_cusparse_trsv_analysis(h, gpu, p);
    }
    if (p->engine == DOMINO_ENGINE_STENCIL && p->dstencil && (s = domino_dstencil_refresh(h, p->dstencil)))
        return s;
    p->values_version = dA->values_version;
    return DOMINO_SUCCESS;
}

/* AUTO (and a forced STENCIL) on the CSR of the system: is it a stencil?
 * Then the structured-grid engine, on the grid found. */
static domino_status choose_stencil(domino_handle h, const domino_trsv_options *opt,
                                    domino_dmatrix dA, domino_fill fill,
                                    const domino_host_pattern *pat, domino_engine *engine,
                                    domino_stencil *stencil, int32_t *grid)
{
    domino_engine asked = opt ? opt->engine : DOMINO_ENGINE_AUTO;
    int found = 0;
    if (asked != DOMINO_ENGINE_AUTO && asked != DOMINO_ENGINE_STENCIL) return DOMINO_SUCCESS;
    if (dA->format != DOMINO_CSR) return DOMINO_SUCCESS;
    /* the stored triangle of dA is a stencil iff its transpose is: op T
     * solves from the transposed arrays the analysis makes anyway */
    domino_status s = domino_stencil_detect(h, dA, fill, pat->ptr, pat->ind, stencil, &grid[0],
                                            &grid[1], &grid[2], &found);
    if (s) return s;
    if (found) *engine = DOMINO_ENGINE_STENCIL;
    else if (asked == DOMINO_ENGINE_STENCIL)
        return domino_error(h, DOMINO_NOT_SUPPORTED,
                            "domino_trsv_analysis: the matrix is not a stencil of the generators on "
                            "any grid (sorted CSR, natural order), so the stencil engine cannot run");
    return DOMINO_SUCCESS;
}

/* pattern-only work of the block engine: where x lives (shared memory
 * when it fits), lanes per row, then (x in shared memory) the levels, which
 * size the block */
static domino_status prepare_block(domino_handle h, struct domino_gpu_context *gpu,
                                   struct domino_trsv_plan_s *p)
{
    const char *lanes = getenv("DOMINO_BLOCK_LANES"), *threads = getenv("DOMINO_BLOCK_THREADS");
    const char *shared = getenv("DOMINO_BLOCK_SHARED"); /* experiments, tests */
    int fits = 0;
    cudaError_t e = domino_trsv_block_fits(p->type, p->n, &fits);
    if (e) return domino_cuda_status(h, e, "domino_trsv_analysis: shared memory (block engine)");
    p->block_shared = fits && !(shared && atoi(shared) == 0);
    p->block_lanes = lanes ? atoi(lanes) : 0;
    if (p->block_lanes != 2 && p->block_lanes != 4 && p->block_lanes != 8 && p->block_lanes != 16 &&
        p->block_lanes != 32)
        p->block_lanes = domino_trsv_block_lanes(p->avg_row_len);
    p->block_threads = 1024;
    if (!p->block_shared) return DOMINO_SUCCESS;
    domino_solve_status hst;
    e = domino_launch_status_reset(gpu->stream, p->st);
    if (!e) e = domino_launch_trsv_block_levels(gpu->stream, p->n, p->eptr, p->eind, p->s_upper,
                                                p->block_lanes, 256, p->st);
    if (!e) e = domino_solve_status_read(gpu, p->st, &hst);
    if (e) return domino_cuda_status(h, e, "domino_trsv_analysis: levels (block engine)");
    p->nlevels = hst.levels;
    p->block_threads = domino_trsv_block_threads(p->block_lanes, (double)p->n / (hst.levels > 0 ? hst.levels : 1));
    if (threads) p->block_threads = atoi(threads);
    return DOMINO_SUCCESS;
}

/* pattern-only work of the level-set engine */
static domino_status prepare_levels(domino_handle h, struct domino_gpu_context *gpu,
                                    struct domino_trsv_plan_s *p)
{
    cudaError_t e = domino_launch_status_reset(gpu->stream, p->st);
    if (!e)
        e = domino_launch_levels(gpu->stream, p->n, p->eptr, p->eind, p->s_upper, p->row_level,
                                 p->level_rows, p->level_count, p->scan_tmp, p->scan_tmp_bytes,
                                 p->st, &p->nlevels, &p->level_ptr_host);
    /* "auto" (or a bad count): the multi-GPU pull solver's rule on one GPU,
     * at least 4 (the groups kernel's smallest instance) */
    int asked = p->level_lanes;
    if (asked != 0 && asked != 4 && asked != 8 && asked != 16 && asked != 32) {
        int lanes = domino_dist_pull_lanes(p->n, p->nlevels, 1);
        p->level_lanes = lanes < 4 ? 4 : lanes;
    }
    return domino_cuda_status(h, e, "domino_trsv_analysis: level sets");
}

/* DOMINO_ANALYSIS_TRACE=1: the analysis's phases on stderr, in ms: the
 * argument checks, the pattern's download (AUTO on a small system), the
 * stencil detection, the level-block choice (level count and order), the
 * workspace, then the set-up split into the first solve's flags, the
 * values' work (diagonal check, triangle), the engine's own (block,
 * levels, packing) and the stencil's compact copy (or the start of a small
 * system's deferred choice) */
enum { AT_START, AT_ARGS, AT_DETECT, AT_CHOICE, AT_WORKSPACE, AT_FLAGS, AT_VALUES, AT_ENGINE, AT_END, AT_MARKS };
static void trace_analysis(domino_engine engine, const domino_dmatrix dA, const double *mark,
                           double download)
{
    if (!domino_env_int("DOMINO_ANALYSIS_TRACE", 0)) return;
    fprintf(stderr,
            "analysis trace: %s, n %d, nnz %lld: args %.3f, pattern download %.3f, stencil "
            "detection %.3f, level-block choice %.3f, workspace %.3f, set-up %.3f (flags %.3f, "
            "values %.3f, engine %.3f, stencil copy %.3f), total %.3f ms\n",
            domino_engine_name(engine), dA->nrows, (long long)dA->nnz,
            1e3 * (mark[AT_ARGS] - mark[AT_START]), 1e3 * download,
            1e3 * (mark[AT_DETECT] - mark[AT_ARGS] - download), 1e3 * (mark[AT_CHOICE] - mark[AT_DETECT]),
            1e3 * (mark[AT_WORKSPACE] - mark[AT_CHOICE]), 1e3 * (mark[AT_END] - mark[AT_WORKSPACE]),
            1e3 * (mark[AT_FLAGS] - mark[AT_WORKSPACE]), 1e3 * (mark[AT_VALUES] - mark[AT_FLAGS]),
            1e3 * (mark[AT_ENGINE] - mark[AT_VALUES]), 1e3 * (mark[AT_END] - mark[AT_ENGINE]),
            1e3 * (mark[AT_END] - mark[AT_START]));
}

domino_status domino_trsv_analysis(domino_handle h, domino_op op, domino_fill fill,
                                   domino_diag diag, domino_dmatrix dA, int32_t nrhs,
                                   const domino_trsv_options *opt, void *buffer,
                                   domino_trsv_plan *plan)
{
    const char *fn = "domino_trsv_analysis";
    if (!plan) return domino_error(h, DOMINO_NULL_POINTER, "%s: plan is NULL", fn);
    *plan = NULL;
    double mark[AT_MARKS] = {0}; /* phase ends (trace_analysis) */
    mark[AT_START] = domino_wtime();
    struct domino_gpu_context *gpu;
    domino_status s = domino_gpu_context_get(h, &gpu);
    if (s) return s;
    domino_engine engine = DOMINO_ENGINE_AUTO;
    int s_upper = 0, csr_of_s = 0;
    if ((s = check_args(h, op, fill, diag, dA, nrhs, opt, fn, &engine, &s_upper, &csr_of_s)))
        return s;
    mark[AT_ARGS] = domino_wtime();
    /* AUTO on a small system: its pattern on the host once, where the
     * stencil detection samples it and the level count reads it (a small
     * stencil system, which needs no count, pays a download of up to a few
     * MB, ~0.1 ms pinned; the others save the detection's three
     * synchronized copies, 0.03-0.12 ms on an H200, h200-check8) */
    domino_engine asked = opt ? opt->engine : DOMINO_ENGINE_AUTO;
    int small = engine == DOMINO_ENGINE_THREAD && domino_levelblock_possible(asked, dA, nrhs, 0);
    /* ... made beside the first solves where the caller's arrays are CSR(S)
     * and no deterministic result is asked for (trsv_plan_deferred.c) */
    int defer = small && csr_of_s && !(opt && opt->deterministic) && domino_env_int("DOMINO_DEFER_CHOICE", 1);
    struct domino_defer_pool *pool = defer ? domino_defer_pool_take(gpu, domino_trsv_deferred_bytes(dA)) : NULL;
    if (!pool) defer = 0; /* another plan's choice holds the pool: this one's made now */
    domino_host_pattern pat;
    memset(&pat, 0, sizeof(pat));
    if (small && !defer && (s = domino_host_pattern_get(h, gpu, dA, &pat))) return s;
    domino_stencil stencil = DOMINO_D2N5;
    int32_t grid[3] = {0, 0, 0};
    if (!defer) s = choose_stencil(h, opt, dA, fill, &pat, &engine, &stencil, grid);
    mark[AT_DETECT] = domino_wtime();
    /* the level-block engine, forced, or AUTO's when a small system's
     * levels say it pays (its order made now, on the host) */
    trsv_level_order order;
    memset(&order, 0, sizeof(order));
    if (!s && (engine == DOMINO_ENGINE_LEVELBLOCK || (engine == DOMINO_ENGINE_THREAD && small && !defer)))
        s = domino_levelblock_choose(h, gpu, dA, asked, csr_of_s, s_upper, pat.ptr ? &pat : NULL,
                                     &engine, &order);
    double download = pat.seconds;
    domino_host_pattern_release(&pat);
    if (s) return s;
    mark[AT_CHOICE] = domino_wtime();
    struct domino_trsv_plan_s *p = domino_calloc(1, sizeof(*p));
    if (!p) {
        trsv_level_order_free(&order);
        domino_defer_pool_give(pool);
        return domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory", fn);
    }
    p->magic = DOMINO_PLAN_MAGIC;
    p->defer_pool = pool; /* given back by domino_trsv_plan_free unless the job starts */
    p->engine = engine;
    p->op = op;
    p->fill = fill;
    p->diag = diag;
    p->nrhs = nrhs;
    p->n = dA->nrows;
    p->type = dA->type;
    p->dA = dA;
    p->deterministic = opt && opt->deterministic;
    p->max_wait_ns = (opt && opt->max_wait_ms > 0) ? (int64_t)opt->max_wait_ms * 1000000 : 0;
    p->s_upper = s_upper;
    p->arrays_are_csr_of_s = csr_of_s;
    const char *backoff = getenv("DOMINO_BACKOFF_NS"); /* tuning experiments */
    p->backoff_ns = backoff ? (unsigned)strtoul(backoff, NULL, 10) : DOMINO_DEFAULT_BACKOFF_NS;
    p->push_chunk = domino_env_int("DOMINO_PUSH_CHUNK", DOMINO_PUSH_CHUNK_DEFAULT); /* tuning experiments */
    if (p->push_chunk < 0) p->push_chunk = 0;
    const char *long_row = getenv("DOMINO_LONG_ROW"); /* tuning experiments */
    /* 0: chosen from the triangle's rows by domino_trsv_prepare_values */
    p->tune.long_row = long_row && atoi(long_row) > 0 ? atoi(long_row) : 0;
    /* a long row's first entries into L1 when its warp takes it (tuning experiments) */
    p->tune.long_prefetch = domino_env_int("DOMINO_LONG_PREFETCH", DOMINO_DEFAULT_LONG_PREFETCH) != 0;
    const char *sweep = getenv("DOMINO_SWEEP_MAX_ROW"); /* tuning experiments */
    p->tune.sweep_max_row = sweep && atoi(sweep) > 0 ? atoi(sweep) : DOMINO_DEFAULT_SWEEP_MAX_ROW;
    if (p->tune.sweep_max_row > DOMINO_PULL_WALK_SHORT) /* the gate reads short rows' order */
        p->tune.sweep_max_row = DOMINO_PULL_WALK_SHORT;
    const char *near_first = getenv("DOMINO_SHORT_NEAR_FIRST"); /* experiments: lower rows too */
    p->tune.short_near_first = s_upper || (near_first && atoi(near_first) != 0);
    const char *chained = getenv("DOMINO_SWEEP_MIN_CHAINED"); /* tuning experiments */
    p->tune.sweep_min_chained = chained && atoi(chained) >= 0 && atoi(chained) <= 31 ? atoi(chained)
                                                                               : DOMINO_DEFAULT_SWEEP_MIN_CHAINED;
    const char *overlap = getenv("DOMINO_OVERLAP_FILL"); /* tuning experiments */
    p->tune.overlap_fill = overlap ? atoi(overlap) != 0 : DOMINO_DEFAULT_OVERLAP_FILL;
    const char *any_order = getenv("DOMINO_ANY_ORDER"); /* tuning experiments */
    p->tune.any_order = !p->deterministic && (any_order ? atoi(any_order) != 0 : DOMINO_DEFAULT_ANY_ORDER);
    /* auto on the thread engine times both walks on its first solves */
    p->walk_trial = (opt ? opt->engine : DOMINO_ENGINE_AUTO) == DOMINO_ENGINE_AUTO &&
                            engine == DOMINO_ENGINE_THREAD && !p->deterministic && !any_order
                        ? 0
                        : -1;
    p->walk_trials = 4;
    p->step_groups = domino_env_int("DOMINO_STEPBLOCK_GROUPS", 3); /* tuning experiments */
    /* the one-warp kernel by default (1.6-2x the 256-thread one on the deep
     * 10^6-row DAGs, bench/results/h200-stepwarp); 0: the 256-thread one */
    p->step_warp = domino_env_int("DOMINO_STEPBLOCK_WARP", 1) != 0;
    p->step_loaders = domino_env_int("DOMINO_STEPBLOCK_LOADERS", 15); /* the one-warp kernel takes 1-15 */
    p->step_profile = domino_env_int("DOMINO_STEPBLOCK_PROFILE", 0) != 0;
    /* and whether the step-block engine beats it, on its first two (where
     * the engine fits the device: its shared memory, in double 157 KiB for
     * the one-warp kernel, 152 KiB for the 256-thread one) */
    p->step_trial = p->walk_trial == 0 && domino_env_int("DOMINO_STEP_TRIAL", 1) ? 0 : -1;
    if (p->step_trial == 0 || engine == DOMINO_ENGINE_STEPBLOCK) {
        int fits = 0;
        cudaError_t e = p->step_warp ? domino_stepwarp_fits(p->type, p->n, &fits)
                                     : domino_stepblock_fits(p->type, p->n, &fits);
        if (e) (void)cudaGetLastError(); /* not sticky: the engine is just not taken */
        if (!fits) p->step_trial = -1;
        if (!fits && engine == DOMINO_ENGINE_STEPBLOCK) {
            domino_trsv_plan_free(p);
            return domino_error(h, DOMINO_NOT_SUPPORTED,
                                "%s: the stepblock engine's shared memory does not fit one block on "
                                "this device, or n = %d is too large (%s)",
                                fn, dA->nrows, e ? cudaGetErrorString(e) : "no CUDA error");
        }
    }
    p->step_timing = -1;
    const char *mode = getenv("DOMINO_PULL_MODE"); /* 2: thread per row only */
    p->forced_mode = mode ? atoi(mode) : -1;
    const char *launches = getenv("DOMINO_LEVELSET_LAUNCHES");
    p->level_launches = (opt && opt->level_launches) || (launches && atoi(launches) != 0);
    const char *lanes = getenv("DOMINO_LEVELSET_LANES"); /* groups of lanes (experiments, tests) */
    p->level_lanes = !lanes ? 0 : -1; /* set: "auto" or anything but 4, 8, 16, 32 means from the levels */
    if (lanes && (!strcmp(lanes, "4") || !strcmp(lanes, "8") || !strcmp(lanes, "16") || !strcmp(lanes, "32")))
        p->level_lanes = atoi(lanes);
    p->transposed = engine_needs_transpose(engine, csr_of_s);
    p->avg_row_len = p->n ? (double)dA->nnz / p->n : 0;
    /* the triangle copy: in the caller's workspace, else allocated when needed */
    int copy_room = buffer && is_pull_engine(engine) && !p->transposed;
    /* (domino_trsv_buffer_size, not knowing the engine, counts them anyway) */
    int t_arrays = holds_transposed(engine, p->transposed);
    plan_layout L = layout_of(engine, t_arrays, p->n, dA->nnz, dA->type, nrhs, copy_room,
                              engine == DOMINO_ENGINE_LEVELBLOCK || defer);
    if (buffer) {
        p->buffer = buffer;
    } else {
        cudaError_t e = domino_pool_malloc(&p->buffer, L.total, gpu->stream);
        if (e) {
            trsv_level_order_free(&order);
            domino_trsv_plan_free(p);
            return domino_cuda_status(h, e, fn);
        }
        p->owns_buffer = 1;
    }
    mark[AT_WORKSPACE] = domino_wtime();
    char *base = (char *)p->buffer;
    p->st = (domino_solve_status *)(base + L.st);
    p->scan_tmp = base + L.scan_tmp;
    p->scan_tmp_bytes = domino_scan_scratch_bytes(p->n);
    if (L.work || t_arrays || is_pull_engine(engine)) p->work = (int64_t *)(base + L.work);
    if (t_arrays || copy_room) {
        p->tptr = (int64_t *)(base + L.tptr);
        p->tind = (int32_t *)(base + L.tind);
        p->tval = base + L.tval;
    }
    if (t_arrays) {
        p->eptr = p->tptr;
        p->eind = p->tind;
        p->eval = p->tval;
    } else {
        p->eptr = dA->ptr;
        p->eind = dA->ind;
        p->eval = dA->val;
    }
    if (engine == DOMINO_ENGINE_CSC) {
        p->in_degree = (int32_t *)(base + L.in_degree);
        p->done_count = (int32_t *)(base + L.done_count);
        p->left_sum = (double *)(base + L.left_sum);
    }
    if (uses_one_launch(engine, p->n, nrhs)) {
        p->flags[0] = base + L.flags0;
        p->flags[1] = base + L.flags1;
        p->flags_st[0] = (domino_solve_status *)(base + L.flags_st0);
        p->flags_st[1] = (domino_solve_status *)(base + L.flags_st1);
    }
    if (has_pack_room(engine, p->n, nrhs)) p->pack_first = (int32_t *)(base + L.pack);
    if (defer) {
        p->lb_room[0] = L.lb_block;
        p->lb_room[1] = L.lb_val;
        p->lb_room[2] = L.lb_diag;
    }
    if (engine == DOMINO_ENGINE_LEVELBLOCK) {
        s = domino_levelblock_setup(h, gpu, p, base + L.lb_block, base + L.lb_val, base + L.lb_diag,
                                    &order);
        trsv_level_order_free(&order);
        if (s) {
            domino_trsv_plan_free(p);
            return s;
        }
    }
    if (engine == DOMINO_ENGINE_LEVELSET) {
        p->row_level = (int32_t *)(base + L.row_level);
        p->level_rows = (int32_t *)(base + L.level_rows);
        p->level_count = (int64_t *)(base + L.level_count);
    }
    /* the first one-launch solve's flags and status, complete once
     * domino_trsv_prepare_values has synchronized (a solve on another
     * stream may come next) */
    if (p->flags[0]) {
        cudaError_t e = domino_launch_fill_pending(gpu->stream, p->type, p->n, 1, p->flags[0], p->n,
                                                   p->flags_st[0]);
        if (e) {
            domino_trsv_plan_free(p);
            return domino_cuda_status(h, e, "domino_trsv_analysis: flags");
        }
    }
    mark[AT_FLAGS] = domino_wtime();
    s = domino_trsv_prepare_values(h, gpu, p);
    mark[AT_VALUES] = domino_wtime();
    if (!s && engine == DOMINO_ENGINE_BLOCK)
        s = prepare_block(h, gpu, p);
    if (!s && engine == DOMINO_ENGINE_LEVELSET) s = prepare_levels(h, gpu, p);
    if (!s && engine == DOMINO_ENGINE_THREAD) s = domino_trsv_pack_setup(h, gpu, p);
    mark[AT_ENGINE] = domino_wtime();

    if (!s && engine == DOMINO_ENGINE_STENCIL) { /* solve from a compact copy of S */
        domino_fill sf = s_upper ? DOMINO_UPPER : DOMINO_LOWER;
        if (p->transposed) /* op T: dA holds S's transpose, scattered, not transposed */
            s = domino_dstencil_from_dmatrix_transposed(h, dA, stencil, grid[0], grid[1], grid[2],
                                                        sf, &p->dstencil);
        else
            s = domino_dstencil_from_dmatrix(h, dA, stencil, grid[0], grid[1], grid[2], sf,
                                             &p->dstencil);
        if (!s) s = domino_dstencil_make_compact(h, p->dstencil);
    }
    /* a small system's choice beside the first solves: its downloads
     * queued after the diagonal check's read-back (queued before it, small
     * systems' analyses took up to 40 us more, bench/results/h100-first19;
     * the two downloads may hold the read-back up on the copy engine) */
    if (!s && defer) s = domino_trsv_deferred_start(h, p);
    if (s) {
        domino_trsv_plan_free(p);
        return s;
    }
    mark[AT_END] = domino_wtime();
    p->analysis_seconds = mark[AT_END] - mark[AT_START];
    trace_analysis(engine, dA, mark, download);
    *plan = p;
    return DOMINO_SUCCESS;
}

domino_engine domino_trsv_plan_engine(domino_trsv_plan p)
{
    return (p && p->magic == DOMINO_PLAN_MAGIC) ? p->engine : DOMINO_ENGINE_AUTO;
}

double domino_trsv_plan_analysis_seconds(domino_trsv_plan p)
{
    return (p && p->magic == DOMINO_PLAN_MAGIC) ? p->analysis_seconds : 0;
}

void domino_trsv_plan_free(domino_trsv_plan p)
{
    if (!p || p->magic != DOMINO_PLAN_MAGIC) return;
    domino_trsv_deferred_free(p);
    domino_cusparse_trsv_free(p);
    domino_walk_trial_free(p);
    domino_step_trial_free(p);
    domino_pool_free(p->copy_alloc);
    domino_dstencil_free(p->dstencil);
    if (p->owns_buffer) domino_pool_free(p->buffer);
    free(p->level_ptr_host);
    p->magic = DOMINO_FREED_MAGIC;
    domino_free(p);
}
