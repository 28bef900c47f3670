/* factor_stencil.c: does a factorization take a stencil path?  The
 * analysis asks the stencil detector of the triangular solve
 * (stencil_detect.c) which generator stencil and grid the lower triangle
 * of the matrix holds, makes the slot tables (factor_stencil_table.c), and
 * lets a kernel check that every interior row of the factor pattern holds
 * exactly the stencil's entries: then the table path.  When every row,
 * boundary rows too, holds exactly its entries inside the grid:
 *  - the scan path (factor_scan.cu) for a stencil without triangles (D2N5,
 *    D3N7), whose factorization changes only the pivots;
 *  - the box path (factor_box.cu) for IC(0) of the 3x3x3 box (D3N27) from
 *    2^20 rows, a thread a row; DOMINO_FACTOR_BOX=1 takes it for every
 *    such system (ILU(0) too), =0 never; the table path on such a system
 *    takes its rows in the box path's order (keys x + 2 y + 4 z, made by a
 *    kernel) instead of the analysis's level order;
 *  - IC(0) and ILU(0) of the box by grid lines (factor_box_lines.cu, a
 *    warp a line, the in-line pivots scanned) from 2^18 rows (ILU(0):
 *    FACTOR_BOX_LINES_ILU_MIN_ROWS); DOMINO_FACTOR_BOX_LINES=1 (or walk:
 *    every chunk walked) at every size, =0 never;
 *  - the line path (factor_lines.cu), only with DOMINO_FACTOR_STENCIL=2 (an
 *    experiment: correct, but 1.3-3.7x slower than the table path on
 *    D3N27, bench/results/h100-precond16).
 * Their line order is made here.  Cost: the detector's sampling, one pass
 * over the pattern (a thread per row), the order (ny nz words).
 * DOMINO_FACTOR_STENCIL=0 turns every path off, =1 leaves the table path
 * only. */
#include "factor_plan.h"
#include "stencil_gpu.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* AUTO takes the box path for IC(0) of D3N27 from this many rows.  H200,
 * bench/results/h200-box18 (same run, ms, table path / box path): IC(0)
 * 64^3 1.75 / 2.31, 128^3 6.20 / 4.74, 192^3 13.6 / 8.34; ILU(0) lost at
 * every size (1.74 / 4.34, 6.54 / 8.85, 16.1 / 19.1): its 101 values a row
 * (IC(0) 44) take 168 registers, 3 blocks an SM. */
#define FACTOR_BOX_MIN_ROWS (1 << 20)
/* ... and IC(0) of D3N27 by grid lines (factor_box_lines_kernel) from this
 * many rows.  H200, bench/results/h200-check25/box-lines-auto (same
 * process, ms, table path / box path / lines): 64^3 1.76 / 2.31 / 1.75,
 * 128^3 6.25 / 4.76 / 4.07, 192^3 13.7 / 8.44 / 8.02. */
#define FACTOR_BOX_LINES_MIN_ROWS (1 << 18)
/* ... and ILU(0) by grid lines from this many rows.  H200, bench/results/
 * h200-ilu-lines27 (same run, ms, table path / lines): 64^3 1.73 / 1.45,
 * 128^3 6.51 / 4.24, 192^3 16.1 / 9.26 (the lines' first version; the
 * final 1.22 / 4.05 / 8.85). */
#define FACTOR_BOX_LINES_ILU_MIN_ROWS (1 << 18)

/* The tickets of a box system (p->order, p->order_tickets of them; the
 * box path's, and the table path's instead of the level order): the rows
 * by key x + 2 y + 4 z, which is larger than the key of every row a row
 * reads (its lower neighbours have keys at least 1 smaller: (x + 1, y + 1,
 * z - 1), (x + 1, y - 1, z) and (x - 1, y, z) exactly 1), each key's rows
 * padded with -1 to a multiple of 32.  So a warp never holds a row and a
 * row it reads: such a warp stalls (the reader spins while the other
 * waits at the branch's reconvergence).  The key counts on the host
 * (O(keys nz)), the order by a kernel (O(nz) a row). */
static domino_status box_order(domino_handle h, struct domino_gpu_context *gpu,
                               struct domino_factor_plan_s *p, const char *fn)
{
    const factor_stencil_args *a = &p->stencil;
    int64_t keys = (int64_t)(a->nx - 1) + 2 * (int64_t)(a->ny - 1) + 4 * (int64_t)(a->nz - 1) + 1;
    int64_t *start = domino_malloc(((size_t)keys + 1) * sizeof(int64_t)), *dstart = NULL;
    if (!start) return domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory", fn);
    start[0] = 0;
    for (int64_t k = 0; k < keys; k++)
        start[k + 1] = start[k] + (domino_factor_box_key_rows(k, a->nx, a->ny, a->nz) + 31) / 32 * 32;
    int64_t tickets = start[keys];
    cudaError_t e;
    if ((e = cudaMalloc((void **)&p->order, (size_t)tickets * sizeof(int32_t))) ||
        (e = cudaMalloc((void **)&dstart, ((size_t)keys + 1) * sizeof(int64_t))) ||
        (e = cudaMemcpyAsync(dstart, start, ((size_t)keys + 1) * sizeof(int64_t), cudaMemcpyHostToDevice,
                             gpu->stream)) ||
        (e = cudaMemsetAsync(p->order, 0xff, (size_t)tickets * sizeof(int32_t), gpu->stream)) || /* -1 */
        (e = domino_launch_factor_box_order(gpu->stream, a->nx, a->ny, a->nz, dstart, p->order)) ||
        (e = cudaStreamSynchronize(gpu->stream))) {
        cudaFree(dstart);
        domino_free(start);
        return domino_cuda_status(h, e, fn);
    }
    cudaFree(dstart);
    domino_free(start);
    p->order_tickets = tickets;
    p->nlevels = (int32_t)keys;
    return DOMINO_SUCCESS;
}

/* p->line_order: the grid lines (y + ny z) by the key y + w z, z
 * increasing within a key, so that every line a line reads (every one of
 * its smaller key) holds a smaller ticket */
static domino_status line_order(domino_handle h, struct domino_gpu_context *gpu,
                                struct domino_factor_plan_s *p, int w, const char *fn)
{
    const int32_t ny = p->stencil.ny, nz = p->stencil.nz;
    int64_t lines = (int64_t)ny * nz, count = 0;
    int32_t *order = domino_malloc((size_t)lines * sizeof(int32_t));
    if (!order) return domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory", fn);
    for (int64_t key = 0; key <= (int64_t)(ny - 1) + w * (int64_t)(nz - 1); key++)
        for (int64_t z = key - ny + 1 > 0 ? (key - ny + w) / w : 0; z < nz && w * z <= key; z++)
            order[count++] = (int32_t)(key - w * z + ny * z); /* y = key - w z < ny */
    cudaError_t e;
    if ((e = cudaMalloc((void **)&p->line_order, (size_t)lines * sizeof(int32_t))) ||
        (e = cudaMemcpyAsync(p->line_order, order, (size_t)lines * sizeof(int32_t), cudaMemcpyHostToDevice,
                             gpu->stream)) ||
        (e = cudaStreamSynchronize(gpu->stream))) {
        domino_free(order);
        return domino_cuda_status(h, e, fn);
    }
    domino_free(order);
    return DOMINO_SUCCESS;
}

domino_status domino_factor_stencil_setup(domino_handle h, struct domino_gpu_context *gpu,
                                          struct domino_factor_plan_s *p, const char *fn)
{
    const char *env = getenv("DOMINO_FACTOR_STENCIL");
    domino_stencil st;
    int32_t nx, ny, nz;
    int found = 0, off[3 * DOMINO_STENCIL_MAX_POINTS];
    factor_stencil_args a;
    domino_factor_status hst;
    p->stencil.nx = 0;
    if (env && atoi(env) == 0) return DOMINO_SUCCESS;
    domino_status s = domino_stencil_detect(h, p->dA, DOMINO_LOWER, NULL, NULL, &st, &nx, &ny, &nz, &found);
    if (s || !found) return s;
    int npoints = domino_stencil_offsets(st, off);
    if (!domino_factor_stencil_table(off, npoints, nx, ny, nz, p->kind == DOMINO_FACTOR_IC0, &a))
        return DOMINO_SUCCESS;
    cudaError_t e;
    if ((e = domino_launch_factor_status_reset(gpu->stream, p->st)) ||
        (e = domino_launch_factor_stencil_check(gpu->stream, p->ptr, p->ind, &a, p->st)) ||
        (e = cudaMemcpyAsync(&hst, p->st, sizeof(hst), cudaMemcpyDeviceToHost, gpu->stream)) ||
        (e = cudaStreamSynchronize(gpu->stream)))
        return domino_cuda_status(h, e, fn);
    if (hst.stencil_mismatch != INT32_MAX) return DOMINO_SUCCESS;
    p->stencil = a;
    int mode = env ? atoi(env) : 3;
    /* the box (every row exactly its entries): IC(0) and ILU(0) by grid
     * lines from FACTOR_BOX_LINES_MIN_ROWS and _ILU_MIN_ROWS rows
     * (DOMINO_FACTOR_BOX_LINES=1 or walk: at every size, =0 never;
     * DOMINO_FACTOR_BOX=0 neither); else the tickets
     * by key, for the box path (IC(0) from FACTOR_BOX_MIN_ROWS rows when
     * DOMINO_FACTOR_BOX is unset, every such system with 1, none with 0) or
     * the table path (instead of the level order: no level pass in the
     * analysis) */
    if (hst.line_mismatch == INT32_MAX && mode == 3 && domino_factor_box_fits(&a)) {
        const int64_t rows = (int64_t)nx * ny * nz;
        int box = domino_env_int("DOMINO_FACTOR_BOX", -1);
        const char *lines_env = getenv("DOMINO_FACTOR_BOX_LINES");
        int lines = box != 0 && (lines_env ? !strcmp(lines_env, "1") || !strcmp(lines_env, "walk")
                                           : rows >= (p->kind == DOMINO_FACTOR_IC0 ? FACTOR_BOX_LINES_MIN_ROWS
                                                                                   : FACTOR_BOX_LINES_ILU_MIN_ROWS));
        if (box < 0) box = p->kind == DOMINO_FACTOR_IC0 && rows >= FACTOR_BOX_MIN_ROWS;
        /* experiments: DOMINO_FACTOR_KEY_ORDER=0 leaves the table path the level order */
        if (!lines && !box && !domino_env_int("DOMINO_FACTOR_KEY_ORDER", 1)) return DOMINO_SUCCESS;
        if (lines) {
            const size_t words = (size_t)ny * nz * (size_t)p->batch; /* IC(0): line_epoch */
            if ((s = line_order(h, gpu, p, 2, fn))) return s;
            if (p->kind == DOMINO_FACTOR_IC0 &&
                ((e = cudaMalloc((void **)&p->line_epoch, words * sizeof(int32_t))) ||
                 (e = cudaMemsetAsync(p->line_epoch, 0, words * sizeof(int32_t), gpu->stream))))
                return domino_cuda_status(h, e, fn);
            p->epoch = 0;
            p->stencil.box_path = 1;
            p->stencil.box_lines = 1;
            return DOMINO_SUCCESS;
        }
        if ((s = box_order(h, gpu, p, fn))) return s;
        p->stencil.box_path = box != 0;
        return DOMINO_SUCCESS;
    }
    if (hst.line_mismatch != INT32_MAX || a.same_line < 0 || mode < 2) return DOMINO_SUCCESS;
    /* the line order: keys y + w z, w = 1 where every line read has dy + dz
     * < 0 (D2N5, D3N7: the wavefront; on H100 the scan path at 192^3 was
     * 7-9% faster than with w = 2), else 2; every line read must have a
     * smaller key */
    int w = 1;
    for (int q = 0; q < a.nlines; q++)
        if (a.line_dy[q] + a.line_dz[q] >= 0) w = 2;
    for (int q = 0; q < a.nlines; q++)
        if (a.line_dy[q] + w * a.line_dz[q] >= 0) return DOMINO_SUCCESS;
    int scan = mode != 2 && a.triangle_free && a.same_line == 1 &&
               a.dxyz[a.lower - 1][0] == -1 && a.lower - 1 <= FACTOR_SCAN_OTHER;
    if (mode != 2 && !scan) return DOMINO_SUCCESS;
    int64_t lines = (int64_t)ny * nz;
    if ((s = line_order(h, gpu, p, w, fn))) return s;
    if ((scan && (e = cudaMalloc((void **)&p->pivots,
                                 (size_t)lines * nx * (size_t)p->batch * sizeof(double)))) ||
        (!scan && (e = cudaMalloc((void **)&p->progress, (size_t)lines * (size_t)p->batch * sizeof(int32_t)))) ||
        (!scan && (e = cudaMalloc((void **)&p->padded, (size_t)lines * nx * (size_t)a.width *
                                                          (size_t)p->batch * sizeof(double)))))
        return domino_cuda_status(h, e, fn);
    if (scan) p->stencil.scan_path = 1;
    else p->stencil.line_path = 1;
    return DOMINO_SUCCESS;
}
