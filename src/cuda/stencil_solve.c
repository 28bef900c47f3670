/* stencil_solve.c: domino_dstencil_trsv, the structured-grid solve on the
 * GPU: reset the line states and queues, launch, read back the status and
 * name what went wrong; the warps-per-queue table and the autotuner. */
#include "stencil_gpu.h"

#include <stdio.h>
#include <string.h>

#define WARPS_PER_BLOCK 4

/* D from the built-in table: lines in flight per z-plane that keep the
 * pipeline along y full (one line lags its predecessor by about a chunk of
 * 32 points, or a point for the one-equation-at-a-time variant); the
 * DOMINO variant from a CSR triangle (A->coef null: slabs and the trsv
 * plan's copies have it) at least CSR_MIN_WARPS_PER_QUEUE, whose reads of
 * column indices want more lines in flight (the ablation variants keep
 * theirs: the compressed one was slower at 16, 0.606 -> 0.636 ms on D3N7
 * 128^3) */
#define CSR_MIN_WARPS_PER_QUEUE 16 /* H200, D3N7 and D3N13 64^3 / 128^3, the
    autotuner's table (bench/results/h200-session33/3-issue4-suite/
    stencil-tune.log): 16 against 2 x chunks (4, 8) 1.14-1.30x faster from
    CSR; the compact form 0.94-1.06x, so it keeps 2 x chunks */
static int table_warps_per_queue(const stencil_kernel_args *A, int variant)
{
    int chunks = (A->nx + 31) / 32, lines = A->y_hi - A->y_lo; /* of a queue */
    int d = variant == DOMINO_STENCIL_PARTITION ? A->nx / 2 : 2 * chunks;
    if (d < 4) d = 4;
    if (!A->coef && variant == DOMINO_STENCIL_DOMINO && d < CSR_MIN_WARPS_PER_QUEUE)
        d = CSR_MIN_WARPS_PER_QUEUE;
    return d < lines ? d : lines;
}

/* shared memory a tile may take: two blocks still fit on an SM */
#define TILE_MAX_SMEM (100 * 1024)

/* the tiles the autotuner tries (lines in u, lines in z) */
static const int tile_shapes[][2] = {{2, 2}, {4, 2}, {2, 4}, {4, 4}, {8, 2}, {2, 8}, {16, 1}, {1, 8}, {1, 16}};
#define TILE_SHAPES (int)(sizeof(tile_shapes) / sizeof(tile_shapes[0]))

/* 1 if the tiled solve can take a u x z tile for this variant and form:
 * the compact form, or a CSR triangle (not a slab's) whose rows are its
 * stencil neighbours in order, each once, as far as solves have seen */
static int tile_fits(const domino_dstencil D, const stencil_kernel_args *A, int variant, int u, int z)
{
    int form = A->coef || (A->ptr && !A->slab && !D->csr_irregular);
    if (variant != DOMINO_STENCIL_DOMINO || !form || u < 1 || z < 1 ||
        A->nwait > STENCIL_TILE_MAX_LINES || u * z > STENCIL_TILE_WARPS(A->nwait) || !A->line_window)
        return 0;
    stencil_kernel_args T = *A;
    T.tile_u = u;
    T.tile_z = z;
    return domino_stencil_tile_smem(D->type, &T) <= TILE_MAX_SMEM;
}

/* The forced tile (DOMINO_STENCIL_TILE) over A's, none where it does not
 * fit; returns dq, at most ny */
static int finish_shape(const domino_dstencil D, stencil_kernel_args *A, int variant, int dq)
{
    if (D->tile_forced[0] >= 0) {
        A->tile_u = D->tile_forced[0];
        A->tile_z = D->tile_forced[1];
    }
    if (A->tile_u > 0 && !tile_fits(D, A, variant, A->tile_u, A->tile_z)) {
        /* long lines: the table's tile takes too much shared memory; 2 x 2
         * lines (within 3 % of the best tile on D3N27, h200-tile30) if it fits */
        int two_by_two = D->tile_forced[0] < 0 && tile_fits(D, A, variant, 2, 2);
        A->tile_u = A->tile_z = two_by_two ? 2 : 0;
    }
    return dq > A->ny ? A->ny : dq;
}

/* The built-in tile where a line waits on a line of the plane before at
 * y + 1 (tile_skew > 0: D3N19, D3N27, D3N33): there every hop between lines
 * costs two L2 trips in the queue kernel.  Elsewhere (D3N7, D3N13) the
 * queue kernel is faster: none.
 * by_size (one GPU's whole grid), from the autotuner's tables on an H200
 * since the tile's line buffers are their own flags
 * (bench/results/h200-tile30/3-final/stencil-tune.log, D3N27 and D3N33,
 * 64^3-256^3): first-order stencils 16 x 1 lines up to 2^21 rows (D3N27
 * 64^3 / 128^3 0.218 / 0.474 ms, the best), 4 x 4 above (192^3 / 256^3
 * 0.792 / 1.291 ms, the best); D3N33 4 x 2 up to 2^21 rows (0.320 / 0.661
 * ms, the best), 2 x 2 above (1.185 / 2.042 ms, the best; the queue kernel
 * 1.89 / 2.97).  A slab of a solve over PEs (by_size 0) keeps the tiles
 * measured on the H100 before (h100-stencil4/tile-ab.txt): 1 x 8, 2 x 4. */
static void table_tile(const stencil_kernel_args *A, int by_size, int *u, int *z)
{
    int tiled = A->tile_skew > 0, small = A->n <= ((int64_t)1 << 21);
    *u = !tiled ? 0 : A->order <= 1 ? 1 : 2;
    *z = !tiled ? 0 : A->order <= 1 ? 8 : 4;
    if (!tiled || !by_size) return;
    if (A->order <= 1) {
        *u = small ? 16 : 4;
        *z = small ? 1 : 4;
    } else {
        *u = small ? 4 : 2;
        *z = 2;
    }
}

/* point (x, y, z) of a row, for messages */
static void row_point(const stencil_kernel_args *A, int32_t row, int *x, int *y, int *z)
{
    *x = (int)(row % A->nx);
    *y = (int)((row / A->nx) % A->ny);
    *z = (int)(row / ((int64_t)A->nx * A->ny));
}

/* the first column of row `row` of the CSR that is not a neighbour in the
 * triangle (host replay of the kernel's walk); -1 if none is found or D
 * has no CSR form */
static int64_t first_bad_column(domino_handle h, const domino_dstencil D, int32_t row)
{
    const stencil_kernel_args *A = &D->args;
    int64_t range[2];
    int32_t cols[64];
    if (!A->ptr) return -1; /* compact only (the transposed form) */
    if (domino_gpu_download(h, range, A->ptr + row, sizeof(range))) return -1;
    int64_t count = range[1] - range[0];
    if (count > 64) count = 64;
    if (count <= 0 || domino_gpu_download(h, cols, A->ind + range[0], (size_t)count * sizeof(int32_t)))
        return -1;
    int x, y, z;
    row_point(A, row, &x, &y, &z);
    if (A->upper) { x = A->nx - 1 - x; y = A->ny - 1 - y; z = A->nz - 1 - z; }
    for (int64_t t = 0; t < count; t++) {
        int64_t d = A->upper ? row - (int64_t)cols[t] : (int64_t)cols[t] - row;
        if (d > 0) continue;
        int ok = 0;
        for (int p = 0; p < A->nlow && !ok; p++) {
            int xx = x + A->lowx[p], yy = y + A->lowy[p], zz = z + A->lowz[p];
            ok = A->lowd[p] == d && xx >= 0 && xx < A->nx && yy >= 0 && yy < A->ny && zz >= 0 &&
                 zz < A->nz;
        }
        if (!ok) return cols[t];
    }
    return -1;
}

/* the error of a solve status, or SUCCESS */
static domino_status status_error(domino_handle h, domino_dstencil D, const domino_solve_status *st)
{
    const char *fn = "domino_dstencil_trsv";
    int x, y, z;
    if (st->timeout_row != INT32_MAX) {
        int32_t row = st->timeout_row;
        int64_t col = first_bad_column(h, D, row);
        row_point(&D->args, row, &x, &y, &z);
        if (col >= 0)
            return domino_error(h, DOMINO_BAD_INPUT,
                                "%s: row %d (x,y,z = %d,%d,%d) has an entry in column %lld, which is "
                                "not a %s neighbour inside the %d x %d x %d grid",
                                fn, row, x, y, z, (long long)col, domino_stencil_name(D->stencil),
                                D->args.nx, D->args.ny, D->args.nz);
        return domino_error(h, DOMINO_BAD_INPUT,
                            "%s: row %d (x,y,z = %d,%d,%d) is not a %s row of the %d x %d x %d grid",
                            fn, row, x, y, z, domino_stencil_name(D->stencil), D->args.nx,
                            D->args.ny, D->args.nz);
    }
    if (st->missing_diag != INT32_MAX) {
        row_point(&D->args, st->missing_diag, &x, &y, &z);
        return domino_error(h, DOMINO_ZERO_DIAGONAL, "%s: row %d (x,y,z = %d,%d,%d) has no diagonal entry",
                            fn, st->missing_diag, x, y, z);
    }
    if (st->zero_pivot != INT32_MAX) {
        row_point(&D->args, st->zero_pivot, &x, &y, &z);
        return domino_error(h, DOMINO_ZERO_PIVOT, "%s: zero pivot in row %d (x,y,z = %d,%d,%d)", fn,
                            st->zero_pivot, x, y, z);
    }
    return DOMINO_SUCCESS;
}

/* The grid of a solve with D warps per queue (A->warps_per_queue := dq):
 * the tiles of A's tile (their ticket order made first) or nz dq warps,
 * at most the blocks resident on the device */
static domino_status launch_shape(domino_handle h, const char *fn, struct domino_gpu_context *gpu,
                                  domino_dstencil D, stencil_kernel_args *A, int variant, int dq,
                                  int *blocks)
{
    int resident = 0;
    const int tiled = A->tile_u > 0;
    if (tiled) {
        domino_status s = domino_dstencil_tile_order(h, fn, D, A);
        if (s) return s;
    }
    cudaError_t e = cudaSuccess;
    if (tiled) resident = D->tile_order_blocks; /* found with the order */
    else e = domino_stencil_resident_blocks(D->type, A, variant, gpu->num_sms, &resident);
    if (e) return domino_cuda_status(h, e, fn);
    int64_t wanted = tiled ? A->tile_count
                           : ((int64_t)A->nz * dq + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK;
    *blocks = wanted < resident ? (int)wanted : resident;
    if (*blocks < 1) *blocks = 1;
    A->warps_per_queue = dq;
    return DOMINO_SUCCESS;
}

/* one solve with D warps per queue, status read back */
static domino_status solve_once(domino_handle h, struct domino_gpu_context *gpu, domino_dstencil D,
                                stencil_kernel_args *A, int variant, int dq, const void *b, void *x)
{
    const char *fn = "domino_dstencil_trsv";
    domino_solve_status st;
    int blocks = 0;
    domino_status s = launch_shape(h, fn, gpu, D, A, variant, dq, &blocks);
    if (s) return s;
    cudaError_t e = domino_launch_stencil_trsv(gpu->stream, D->type, A, variant, blocks, b, x);
    if (!e) e = cudaMemcpyAsync(&st, D->st, sizeof(st), cudaMemcpyDeviceToHost, gpu->stream);
    if (!e) e = cudaStreamSynchronize(gpu->stream);
    if (e) return domino_cuda_status(h, e, fn);
    if (st.irregular_row != INT32_MAX && !A->coef && (A->tile_u > 0 || !A->csr_walk)) {
        /* a CSR row that the tiled kernel or the queue kernel reading by
         * offset cannot take as it stands: x is wrong; solved again, now
         * and from now on, by the queue kernel's walking instance, which
         * sums duplicated entries and names entries of no neighbour */
        D->csr_irregular = 1;
        D->args.csr_walk = A->csr_walk = 1;
        A->tile_u = A->tile_z = 0;
        D->tile_u = D->tile_z = 0;
        return solve_once(h, gpu, D, A, variant, dq, b, x);
    }
    return status_error(h, D, &st);
}

/* one timed solve (ms) */
static domino_status timed_solve(domino_handle h, struct domino_gpu_context *gpu, domino_dstencil D,
                                 stencil_kernel_args *A, int variant, int dq, const void *b,
                                 void *x, float *ms)
{
    cudaError_t e = cudaEventRecord(gpu->timer_begin, gpu->stream);
    if (e) return domino_cuda_status(h, e, "domino_dstencil_trsv");
    domino_status s = solve_once(h, gpu, D, A, variant, dq, b, x);
    if (s) return s;
    e = cudaEventRecord(gpu->timer_end, gpu->stream);
    if (!e) e = cudaEventSynchronize(gpu->timer_end);
    if (!e) e = cudaEventElapsedTime(ms, gpu->timer_begin, gpu->timer_end);
    return e ? domino_cuda_status(h, e, "domino_dstencil_trsv") : DOMINO_SUCCESS;
}

/* Try D = 1, 2, 4, ... up to ny (and 256), with both recurrences where the
 * DOMINO variant has a second-order one (unless DOMINO_STENCIL_SERIAL
 * forces it), then (DOMINO on the compact form, unless DOMINO_STENCIL_TILE
 * decides) the tiles of tile_shapes; keep the fastest in *best, A->serial,
 * A->tile_u, A->tile_z.  One timed solve each, after an untimed one that
 * loads the kernel (the queue kernels: the first solve; each tile). */
static domino_status autotune(domino_handle h, struct domino_gpu_context *gpu, domino_dstencil D,
                              stencil_kernel_args *A, int variant, const void *b, void *x, int *best)
{
    A->tile_u = A->tile_z = 0;
    domino_status s = solve_once(h, gpu, D, A, variant, table_warps_per_queue(A, variant), b, x);
    int both = variant == DOMINO_STENCIL_DOMINO && A->order == 2 && D->serial_forced < 0;
    int first = both ? 0 : A->serial, last = both ? 1 : A->serial, best_serial = A->serial;
    double best_ms = 1e300;
    *best = 0;
    for (int serial = first; !s && serial <= last; serial++) {
        A->serial = serial;
        for (int dq = 1; !s && dq <= 256; dq *= 2) {
            int use = dq < A->ny ? dq : A->ny;
            float ms = 0;
            if ((s = timed_solve(h, gpu, D, A, variant, use, b, x, &ms))) break;
            if (D->tune_log)
                fprintf(stderr, "stencil tune: variant %d serial %d D=%d %.4f ms\n", variant, serial,
                        use, ms);
            if (ms < best_ms) {
                best_ms = ms;
                *best = use;
                best_serial = serial;
            }
            if (use == A->ny) break;
        }
    }
    A->serial = best_serial;
    int best_tile[2] = {0, 0};
    for (int t = 0; !s && D->tile_forced[0] < 0 && t < TILE_SHAPES; t++) {
        if (!tile_fits(D, A, variant, tile_shapes[t][0], tile_shapes[t][1])) continue;
        float ms = 0;
        A->tile_u = tile_shapes[t][0];
        A->tile_z = tile_shapes[t][1];
        /* an untimed solve first: the tile kernel's first launch loads its
         * module (the queue kernels were loaded by the solve above), and
         * the shape's ticket order is made */
        if ((s = solve_once(h, gpu, D, A, variant, *best, b, x))) break;
        if ((s = timed_solve(h, gpu, D, A, variant, *best, b, x, &ms))) break;
        if (D->tune_log)
            fprintf(stderr, "stencil tune: variant %d tile %dx%d %.4f ms\n", variant, A->tile_u,
                    A->tile_z, ms);
        if (ms < best_ms) {
            best_ms = ms;
            best_tile[0] = A->tile_u;
            best_tile[1] = A->tile_z;
        }
    }
    A->tile_u = best_tile[0];
    A->tile_z = best_tile[1];
    return s;
}

domino_status domino_dstencil_trsv(domino_handle h, domino_dstencil D, domino_diag diag,
                                   const domino_stencil_options *opt, const void *b, void *x)
{
    const char *fn = "domino_dstencil_trsv";
    struct domino_gpu_context *gpu;
    domino_stencil_options defaults;
    if (!D || D->magic != DOMINO_DSTENCIL_MAGIC)
        return domino_error(h, DOMINO_NULL_POINTER, "%s: D is NULL or freed", fn);
    if (!b || !x) return domino_error(h, DOMINO_NULL_POINTER, "%s: b or x is NULL", fn);
    if (b == x) return domino_error(h, DOMINO_INVALID_VALUE, "%s: x must not be b", fn);
    if (diag != DOMINO_UNIT && diag != DOMINO_NON_UNIT)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: bad diag %d", fn, (int)diag);
    if (!opt) {
        domino_stencil_options_init(&defaults);
        opt = &defaults;
    }
    if ((int)opt->variant < 0 || (int)opt->variant >= DOMINO_STENCIL_VARIANT_COUNT)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: bad variant %d", fn, (int)opt->variant);
    if (opt->warps_per_queue < -1)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: warps_per_queue %d (-1, 0 or > 0)", fn,
                            opt->warps_per_queue);
    domino_status s = domino_gpu_context_get(h, &gpu);
    if (s) return s;
    stencil_kernel_args A = D->args;
    A.unit = diag == DOMINO_UNIT;
    int variant = (int)opt->variant;
    int dq = opt->warps_per_queue;
    A.tile_u = A.tile_z = 0;
    if (dq == -1 && D->tuned[variant]) {
        dq = D->tuned[variant];
        A.serial = D->tuned_serial[variant];
        if (variant == DOMINO_STENCIL_DOMINO) {
            A.tile_u = D->tuned_tile[0];
            A.tile_z = D->tuned_tile[1];
        }
    }
    if (dq == 0) {
        dq = table_warps_per_queue(&A, variant);
        table_tile(&A, 1, &A.tile_u, &A.tile_z);
    }
    if (dq == -1) {
        if ((s = autotune(h, gpu, D, &A, variant, b, x, &dq))) return s;
        D->tuned[variant] = dq;
        D->tuned_serial[variant] = A.serial;
        if (variant == DOMINO_STENCIL_DOMINO) {
            D->tuned_tile[0] = A.tile_u;
            D->tuned_tile[1] = A.tile_z;
        }
    }
    dq = finish_shape(D, &A, variant, dq);
    D->warps_per_queue = dq;
    D->tile_u = A.tile_u;
    D->tile_z = A.tile_z;
    return solve_once(h, gpu, D, &A, variant, dq, b, x);
}

domino_status domino_dstencil_slab_shape(domino_handle h, domino_dstencil D, stencil_kernel_args *A,
                                         int *blocks)
{
    const char *fn = "domino_dist_stencil";
    const int variant = DOMINO_STENCIL_DOMINO;
    struct domino_gpu_context *gpu;
    domino_status s = domino_gpu_context_get(h, &gpu);
    if (s) return s;
    table_tile(A, 0, &A->tile_u, &A->tile_z); /* a slab: the built-in tile of the stencil alone */
    int dq = finish_shape(D, A, variant, table_warps_per_queue(A, variant));
    D->warps_per_queue = dq;
    D->tile_u = A->tile_u;
    D->tile_z = A->tile_z;
    return launch_shape(h, fn, gpu, D, A, variant, dq, blocks);
}

/* What a solve with the default options (the table's D and tile) makes
 * first, made ahead: the tiled kernel's ticket order, uploaded, and the
 * kernel's residency (its first query loads the kernel).  Made by the
 * first solve, they made D3N27 192^3's 0.5-0.7 ms slower than the next
 * ones (H200, bench/results/h200x2-next22/first); domino_dstencil_make_compact
 * calls this while the compact copy runs (the host's share overlaps it; the
 * order's upload waits for it), and the first solve takes the steady time. */
domino_status domino_dstencil_prepare(domino_handle h, domino_dstencil D)
{
    const int variant = DOMINO_STENCIL_DOMINO;
    struct domino_gpu_context *gpu;
    domino_status s = domino_gpu_context_get(h, &gpu);
    if (s) return s;
    stencil_kernel_args A = D->args;
    table_tile(&A, 1, &A.tile_u, &A.tile_z);
    int dq = finish_shape(D, &A, variant, table_warps_per_queue(&A, variant)), blocks = 0;
    return launch_shape(h, "stencil engine: the first solve's shape", gpu, D, &A, variant, dq, &blocks);
}
