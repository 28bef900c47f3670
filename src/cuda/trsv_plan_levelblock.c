/* trsv_plan_levelblock.c: the level-block engine's part of a triangular
 * solve plan: whether AUTO may take it, its level order (made on the host,
 * trsv_level_order.c) and AUTO's rule, and the order's copy to the GPU
 * with the launch shape (the kernel is trsv_levelblock.cu) */
#include "trsv_plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* may a plan of engine `asked` on dA run the level-block engine: forced,
 * or AUTO on a small system with one right-hand side (sizing = 1: the
 * workspace is sized for it, whatever the device; else also x must fit
 * the current device's shared memory) */
int domino_levelblock_possible(domino_engine asked, domino_dmatrix dA, int32_t nrhs, int sizing)
{
    if (asked == DOMINO_ENGINE_LEVELBLOCK) return 1;
    int fits = 0;
    if (asked != DOMINO_ENGINE_AUTO || nrhs != 1 || dA->nrows > DOMINO_LEVELBLOCK_AUTO_ROWS ||
        dA->nnz > DOMINO_LEVELBLOCK_AUTO_NNZ)
        return 0;
    if (sizing) return 1;
    if (domino_levelblock_fits(dA->type, dA->nrows, &fits) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return fits;
}

/* AUTO's rule, for systems whose x fits shared memory: the level-block
 * engine when the levels hold LEVELBLOCK_AUTO_MIN_WIDTH to
 * LEVELBLOCK_AUTO_MAX_WIDTH rows on average.  H200, bench/results/
 * h200-levelblock: it beat the thread engine 1.4-3.0x on the shared
 * matrices of 3.5-44 rows a level (bcsstk13, bcsstk33, cage8, cryg2500,
 * fidapex6, watt_2, whitaker3, zenios) and lost on those of 130 or more
 * (bayer10, crack, hangGlider_2, Pd: wide levels, one SM's bandwidth) and
 * on pushpull (1.7 rows a level: the thread engine's warp sweep walks its
 * chains of consecutive rows inside a warp). */
#define LEVELBLOCK_AUTO_MIN_WIDTH 2.0
#define LEVELBLOCK_AUTO_MAX_WIDTH 64.0
int domino_levelblock_pays(int32_t n, int32_t nlevels)
{
    double width = nlevels ? (double)n / nlevels : 0;
    return width >= LEVELBLOCK_AUTO_MIN_WIDTH && width <= LEVELBLOCK_AUTO_MAX_WIDTH;
}

#define LEVELBLOCK_STAGING_MAX ((size_t)16 << 20) /* pinned bytes a pattern may take */

/* dA's pattern to the host: into the handle's pinned staging buffer
 * (AUTO's systems: 8.7 MB at most), else (larger forced systems too) into
 * pageable memory */
domino_status domino_host_pattern_get(domino_handle h, struct domino_gpu_context *gpu,
                                      domino_dmatrix dA, domino_host_pattern *pat)
{
    const char *fn = "domino_trsv_analysis: the pattern";
    size_t ptr_bytes = ((size_t)dA->nrows + 1) * sizeof(int64_t);
    size_t ind_bytes = (size_t)dA->nnz * sizeof(int32_t);
    double t0 = domino_wtime();
    memset(pat, 0, sizeof(*pat));
    char *staged = ptr_bytes + ind_bytes <= LEVELBLOCK_STAGING_MAX
                       ? domino_gpu_staging(gpu, ptr_bytes + ind_bytes + 1)
                       : NULL;
    pat->staged = staged != NULL;
    pat->ptr = staged ? (int64_t *)staged : domino_malloc(ptr_bytes);
    pat->ind = staged ? (int32_t *)(staged + ptr_bytes) : domino_malloc(ind_bytes + 1);
    if (!pat->ptr || !pat->ind) {
        domino_host_pattern_release(pat);
        return domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of host memory (n = %d, nnz = %lld)",
                            fn, dA->nrows, (long long)dA->nnz);
    }
    cudaError_t e = cudaMemcpyAsync(pat->ptr, dA->ptr, ptr_bytes, cudaMemcpyDeviceToHost, gpu->stream);
    if (!e) e = cudaMemcpyAsync(pat->ind, dA->ind, ind_bytes, cudaMemcpyDeviceToHost, gpu->stream);
    if (!e) e = cudaStreamSynchronize(gpu->stream);
    if (e) {
        (void)cudaStreamSynchronize(gpu->stream); /* no copy left running into the buffers */
        domino_host_pattern_release(pat);
        return domino_cuda_status(h, e, fn);
    }
    pat->seconds = domino_wtime() - t0;
    return DOMINO_SUCCESS;
}

void domino_host_pattern_release(domino_host_pattern *pat)
{
    if (!pat->staged) {
        domino_free(pat->ptr);
        domino_free(pat->ind);
    }
    memset(pat, 0, sizeof(*pat));
}

/* The level order of S from dA's arrays on the host (pat, else brought
 * here): for AUTO (asked), only where the levels (trsv_levels, one pass;
 * the order reuses them) say the engine pays, *engine then set to it;
 * forced, always.  DOMINO_LEVELBLOCK_TRACE=1 prints the phases' times
 * (stderr). */
domino_status domino_levelblock_choose(domino_handle h, struct domino_gpu_context *gpu,
                                       domino_dmatrix dA, domino_engine asked, int csr_of_s,
                                       int s_upper, const domino_host_pattern *pat,
                                       domino_engine *engine, trsv_level_order *o)
{
    const char *fn = "domino_trsv_analysis: level order";
    int32_t n = dA->nrows, counted = 0;
    domino_host_pattern own;
    memset(&own, 0, sizeof(own));
    memset(o, 0, sizeof(*o));
    double t1 = domino_wtime(), t2 = t1;
    domino_status s = DOMINO_SUCCESS;
    if (!pat) {
        if ((s = domino_host_pattern_get(h, gpu, dA, &own))) return s;
        pat = &own;
        t1 = domino_wtime();
    }
    int32_t *level = domino_malloc((size_t)n * sizeof(int32_t) + 1);
    if (!level) {
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of host memory (n = %d, nnz = %lld)", fn,
                         n, (long long)dA->nnz);
        goto cleanup;
    }
    counted = trsv_levels(n, pat->ptr, pat->ind, csr_of_s, s_upper, level);
    t2 = domino_wtime();
    if (asked == DOMINO_ENGINE_AUTO && !domino_levelblock_pays(n, counted))
        goto cleanup; /* the thread engine stays */
    int rc = trsv_level_order_make(n, pat->ptr, pat->ind, csr_of_s, s_upper, level, counted, o);
    if (rc == -2)
        s = domino_error(h, DOMINO_NOT_SUPPORTED, "%s: the matrix has 2^31 - 2^12 rows or entries "
                         "or more (the levelblock engine's offsets and indices are 32-bit)", fn);
    else if (rc)
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of host memory (n = %d, nnz = %lld)", fn,
                         n, (long long)dA->nnz);
    else
        *engine = DOMINO_ENGINE_LEVELBLOCK;
cleanup:
    if (domino_env_int("DOMINO_LEVELBLOCK_TRACE", 0))
        fprintf(stderr,
                "levelblock analysis: n %d, nnz %lld, levels %d: download %.3f ms, "
                "count %.3f ms, order %.3f ms%s\n",
                n, (long long)dA->nnz, counted, 1e3 * pat->seconds, 1e3 * (t2 - t1),
                o->block ? 1e3 * (domino_wtime() - t2) : 0.0, o->block ? "" : " (none: turned down)");
    domino_host_pattern_release(&own);
    domino_free(level);
    if (s) trsv_level_order_free(o);
    return s;
}

/* the order to the plan's arrays (block, val, diag in its workspace; one
 * copy) and the launch shape: lanes per row for about four entries a lane, threads
 * for the rows of an average level, up to 512 (DOMINO_LEVELBLOCK_LANES /
 * _THREADS / _SHARED override; h200-levelblock: 1024 threads, a barrier
 * of 32 warps, made deep systems 2-4x slower) */
/* loader warps: LEVELBLOCK_WIDE_LOADERS where a level averages at least
 * LEVELBLOCK_WIDE_LEVEL entries, else one (DOMINO_LEVELBLOCK_LOADERS
 * overrides, 1 to 8).  H200, same binary, against one loader warp
 * (bench/results/h200-session34/3-levelblock-loaders): 4 warps 1.42x on
 * bcsstk33 (275 entries a level), 1.19x cage8 (185), 1.18x watt_2 (115);
 * on narrower levels the extra warps' polling for room cost 2-6 %
 * (bcsstk13 71, fidapex6 75, whitaker3 17) */
#define LEVELBLOCK_WIDE_LEVEL 100
#define LEVELBLOCK_WIDE_LOADERS 4

domino_status domino_levelblock_setup(domino_handle h, struct domino_gpu_context *gpu,
                                     struct domino_trsv_plan_s *p, char *block, void *val,
                                     void *diag, const trsv_level_order *o)
{
    domino_levelblock_args *a = &p->lb;
    int32_t n = o->n, nl = o->nlevels;
    size_t off[TRSV_LO_ARRAYS];
    trsv_level_order_layout(n, nl, o->m, off);
    memset(a, 0, sizeof(*a));
    a->n = n;
    a->nlevels = nl;
    a->level_ptr = (const int32_t *)(block + off[TRSV_LO_LEVEL_PTR]);
    a->level_entries = (const int32_t *)(block + off[TRSV_LO_LEVEL_ENTRIES]);
    a->row = (const int32_t *)(block + off[TRSV_LO_ROW]);
    a->ptr = (const int32_t *)(block + off[TRSV_LO_PTR]);
    a->col = (const int32_t *)(block + off[TRSV_LO_COL]);
    a->val = val;
    a->diag = diag;
    a->unit = p->diag == DOMINO_UNIT;
    p->lb_m = o->m;
    p->lb_src = (const int32_t *)(block + off[TRSV_LO_SRC]);
    p->nlevels = nl;
    double per_row = n ? (double)o->m / n : 0, rows_per_level = nl ? (double)n / nl : 0;
    int lanes = 1;
    while (lanes < 32 && 4.0 * lanes < per_row) lanes *= 2;
    a->lanes = domino_env_int("DOMINO_LEVELBLOCK_LANES", lanes);
    int threads = 32;
    while (threads < 512 && threads < a->lanes * rows_per_level) threads *= 2;
    a->threads = domino_env_int("DOMINO_LEVELBLOCK_THREADS", threads);
    double entries_per_level = nl ? (double)o->m / nl : 0;
    a->loaders = domino_env_int("DOMINO_LEVELBLOCK_LOADERS", entries_per_level >= LEVELBLOCK_WIDE_LEVEL
                                                                  ? LEVELBLOCK_WIDE_LOADERS : 1);
    int fits = 0;
    cudaError_t e = domino_levelblock_fits(p->type, n, &fits);
    a->shared = fits && domino_env_int("DOMINO_LEVELBLOCK_SHARED", 1) != 0;
    if (!e) e = cudaMemcpyAsync(block, o->block, o->bytes, cudaMemcpyHostToDevice, gpu->stream);
    if (!e) e = cudaStreamSynchronize(gpu->stream); /* the host order is freed next */
    return e ? domino_cuda_status(h, e, "domino_trsv_analysis: level order upload") : DOMINO_SUCCESS;
}

domino_status domino_levelblock_values(domino_handle h, struct domino_gpu_context *gpu,
                                       struct domino_trsv_plan_s *p)
{
    domino_dmatrix dA = p->dA;
    cudaError_t e = domino_launch_levelblock_values(gpu->stream, p->type, p->lb_m, p->lb_src, p->n, p->lb.row,
                                                    dA->ptr, dA->ind, dA->val, (void *)p->lb.val,
                                                    (void *)p->lb.diag);
    if (!e) e = cudaStreamSynchronize(gpu->stream);
    return e ? domino_cuda_status(h, e, "domino_trsv: level order values") : DOMINO_SUCCESS;
}
