/* stencil_plan.c: the device stencil object of the structured-grid solve:
 * made from a compact stencil matrix or a caller's CSR, freed, and its
 * accessors.  The solve itself is in stencil_solve.c, the kernels in
 * stencil_trsv.cu. */
#include "stencil_gpu.h"
#include "matrix/stencil_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* experiments on the device, read with domino_env_int: DOMINO_STENCIL_SLEEP_CAP,
 * DOMINO_STENCIL_SERIAL, DOMINO_STENCIL_TUNE_LOG, DOMINO_STENCIL_TILE_POLL;
 * DOMINO_STENCIL_TILE below */

/* DOMINO_STENCIL_TILE: "UxZ" forces the tiled solve with that tile, "0"
 * the queue kernel; t = {-1, -1} when unset or unreadable */
static void env_tile(int t[2])
{
    const char *v = getenv("DOMINO_STENCIL_TILE");
    t[0] = t[1] = -1;
    if (!v || !*v) return;
    if (v[0] == '0' && v[1] == '\0') {
        t[0] = t[1] = 0;
        return;
    }
    if (sscanf(v, "%dx%d", &t[0], &t[1]) != 2 || t[0] < 1 || t[1] < 1) t[0] = t[1] = -1;
}

void domino_dstencil_free(domino_dstencil D)
{
    if (!D || D->magic != DOMINO_DSTENCIL_MAGIC) return;
    domino_pool_free(D->coef);
    domino_pool_free(D->state);
    domino_pool_free(D->st);
    domino_pool_free(D->tile_order);
    D->magic = DOMINO_FREED_MAGIC;
    domino_free(D);
}

/* a new object with the grid set and its state arrays allocated */
static domino_status dstencil_new(domino_handle h, const char *fn, int32_t nx, int32_t ny,
                                  int32_t nz, domino_type type, domino_fill fill,
                                  domino_dstencil *out)
{
    if (fill != DOMINO_LOWER && fill != DOMINO_UPPER)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: fill must be LOWER or UPPER", fn);
    struct domino_gpu_context *gpu;
    domino_status s = domino_gpu_context_get(h, &gpu);
    if (s) return s;
    struct domino_dstencil_s *D = domino_calloc(1, sizeof(*D));
    if (!D) return domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory", fn);
    D->magic = DOMINO_DSTENCIL_MAGIC;
    D->type = type;
    D->fill = fill;
    D->args.nx = nx;
    D->args.ny = ny;
    D->args.nz = nz;
    D->args.n = (int64_t)nx * ny * nz;
    D->args.upper = fill == DOMINO_UPPER;
    D->args.y_hi = ny; /* every line (a slab of domino_dist_stencil narrows it) */
    /* back-off of the queue kernel's waits: 32 ns, not growing.  Until the
     * 29th session 3D grids let it grow to 512 ns (their many warps waiting
     * far from their turn then polled L2 less: H100, h100-stencil2); since
     * those waits are votes of every lane, 32 ns is faster everywhere
     * measured: H200, compact input, D3N7 64^3 / 128^3 / 256^3 2.07 / 2.78 /
     * 3.88x -> 2.79 / 3.83 / 4.42x cusparseSpSV, D3N13 2.15 / 2.69 / 3.32x
     * -> 2.60 / 3.12 / 3.65x (bench/results/h200-tile30/2-sleep-cap: 64 and
     * 128 ns in between).  A 2D grid (one z-queue) always kept 32 (H100:
     * D2N5 2048^2 1.4x slower with 512). */
    D->args.sleep_cap = domino_env_int("DOMINO_STENCIL_SLEEP_CAP", 32);
    /* H100: 32 ns was within 2 % of 128 ns, a little faster in 12 of 16
     * pairs (h100-stencil4/tile-ab.txt) */
    D->args.tile_poll_cap = domino_env_int("DOMINO_STENCIL_TILE_POLL", 32);
    D->serial_forced = domino_env_int("DOMINO_STENCIL_SERIAL", -1);
    D->args.serial = D->serial_forced > 0; /* the scan unless forced or tuned otherwise */
    D->tune_log = domino_env_int("DOMINO_STENCIL_TUNE_LOG", 0);
    env_tile(D->tile_forced);
    size_t state_words = (size_t)ny * nz + nz;
    cudaError_t e = domino_pool_malloc((void **)&D->state, state_words * sizeof(int32_t), gpu->stream);
    if (!e) e = domino_pool_malloc((void **)&D->st, sizeof(domino_solve_status), gpu->stream);
    if (e) {
        domino_dstencil_free(D);
        return domino_cuda_status(h, e, fn);
    }
    D->args.line_state = D->state;
    D->args.queue_next = D->state + (size_t)ny * nz;
    D->args.st = D->st;
    *out = D;
    return DOMINO_SUCCESS;
}

domino_status domino_dstencil_upload(domino_handle h, const domino_stencil_matrix *S,
                                     domino_fill fill, domino_dstencil *out)
{
    const char *fn = "domino_dstencil_upload";
    struct domino_gpu_context *gpu;
    domino_dstencil D = NULL;
    int slot_of[DOMINO_STENCIL_MAX_POINTS];
    if (!out) return domino_error(h, DOMINO_NULL_POINTER, "%s: D is NULL", fn);
    *out = NULL;
    domino_status s = domino_stencil_check(h, fn, S);
    if (s || (s = domino_gpu_context_get(h, &gpu))) return s;
    if ((s = dstencil_new(h, fn, S->nx, S->ny, S->nz, S->type, fill, &D))) return s;
    if ((s = domino_stencil_args_offsets(h, S->offsets, S->npoints, fill, &D->args, slot_of)))
        goto cleanup;
    /* slots 0 centre, 1 M1, 2 M2, 3.. off-line, each N values; absent ones zero */
    size_t N = (size_t)D->args.n, vsize = domino_type_size(S->type);
    size_t nslots = 3 + (size_t)D->args.noff;
    cudaError_t e = domino_pool_malloc(&D->coef, nslots * N * vsize, gpu->stream);
    if (!e) e = cudaMemsetAsync(D->coef, 0, nslots * N * vsize, gpu->stream);
    for (int p = 0; p < S->npoints && !e; p++) {
        if (slot_of[p] < 0) continue;
        e = cudaMemcpyAsync((char *)D->coef + (size_t)slot_of[p] * N * vsize,
                            (const char *)S->coef + (size_t)p * N * vsize, N * vsize,
                            cudaMemcpyHostToDevice, gpu->stream);
        D->matrix_bytes += N * vsize;
    }
    if (!e) e = cudaStreamSynchronize(gpu->stream);
    if (e) {
        s = domino_cuda_status(h, e, fn);
        goto cleanup;
    }
    D->compact = 1;
    D->args.coef = D->coef;
    *out = D;
    return DOMINO_SUCCESS;
cleanup:
    domino_dstencil_free(D);
    return s;
}

/* the checks and the object of domino_dstencil_from_dmatrix(_transposed):
 * dA's arrays are the CSR of the triangle (transposed = 0) or of its
 * transpose (1) */
static domino_status from_csr(domino_handle h, const char *fn, domino_dmatrix dA,
                              domino_stencil st, int32_t nx, int32_t ny, int32_t nz,
                              domino_fill fill, int transposed, domino_dstencil *out)
{
    int offsets[3 * DOMINO_STENCIL_MAX_POINTS], slot_of[DOMINO_STENCIL_MAX_POINTS];
    domino_dstencil D = NULL;
    if (!out) return domino_error(h, DOMINO_NULL_POINTER, "%s: D is NULL", fn);
    *out = NULL;
    if (!dA || dA->magic != DOMINO_DMATRIX_MAGIC)
        return domino_error(h, DOMINO_NULL_POINTER, "%s: dA is NULL or freed", fn);
    if (dA->format != DOMINO_CSR)
        return domino_error(h, DOMINO_NOT_SUPPORTED, "%s: dA must be CSR", fn);
    if (nx < 1 || ny < 1 || nz < 1 || (int64_t)nx * ny * nz > INT32_MAX)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: bad grid %d x %d x %d", fn, nx, ny, nz);
    if (dA->nrows != dA->ncols || (int64_t)dA->nrows != (int64_t)nx * ny * nz)
        return domino_error(h, DOMINO_DIMENSION_MISMATCH,
                            "%s: dA is %d x %d, the %d x %d x %d grid has %lld points", fn,
                            dA->nrows, dA->ncols, nx, ny, nz, (long long)nx * ny * nz);
    if (!dA->sorted)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: the rows of dA must be sorted", fn);
    int npoints = domino_stencil_offsets(st, offsets);
    if (npoints <= 0)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: unknown stencil %d", fn, (int)st);
    domino_status s = dstencil_new(h, fn, nx, ny, nz, dA->type, fill, &D);
    if (s) return s;
    if ((s = domino_stencil_args_offsets(h, offsets, npoints, fill, &D->args, slot_of))) {
        domino_dstencil_free(D);
        return s;
    }
    D->stencil = st;
    if (transposed) {
        D->dA_t = dA; /* no CSR form: domino_dstencil_make_compact must follow */
    } else {
        D->dA = dA;
        D->args.ptr = dA->ptr;
        D->args.ind = dA->ind;
        D->args.val = dA->val;
        D->args.nnz = dA->nnz;
    }
    D->matrix_bytes = (size_t)dA->nnz * (domino_type_size(dA->type) + sizeof(int32_t)) +
                      ((size_t)dA->nrows + 1) * sizeof(int64_t);
    *out = D;
    return DOMINO_SUCCESS;
}

domino_status domino_dstencil_from_dmatrix(domino_handle h, domino_dmatrix dA, domino_stencil st,
                                           int32_t nx, int32_t ny, int32_t nz, domino_fill fill,
                                           domino_dstencil *out)
{
    return from_csr(h, "domino_dstencil_from_dmatrix", dA, st, nx, ny, nz, fill, 0, out);
}

domino_status domino_dstencil_from_dmatrix_transposed(domino_handle h, domino_dmatrix dA,
                                                      domino_stencil st, int32_t nx, int32_t ny,
                                                      int32_t nz, domino_fill fill,
                                                      domino_dstencil *out)
{
    return from_csr(h, "domino_dstencil_from_dmatrix_transposed", dA, st, nx, ny, nz, fill, 1,
                    out);
}

void domino_dstencil_tile(domino_dstencil D, int *tile_u, int *tile_z)
{
    int alive = D && D->magic == DOMINO_DSTENCIL_MAGIC;
    if (tile_u) *tile_u = alive ? D->tile_u : 0;
    if (tile_z) *tile_z = alive ? D->tile_z : 0;
}

int domino_dstencil_warps_per_queue(domino_dstencil D)
{
    return D && D->magic == DOMINO_DSTENCIL_MAGIC ? D->warps_per_queue : 0;
}

size_t domino_dstencil_bytes(domino_dstencil D)
{
    return D && D->magic == DOMINO_DSTENCIL_MAGIC ? D->matrix_bytes : 0;
}

/* the compact copy of D's values, queued on the handle's stream */
static cudaError_t refresh_launch(struct domino_gpu_context *gpu, domino_dstencil D)
{
    size_t bytes = (3 + (size_t)D->args.noff) * (size_t)D->args.n * domino_type_size(D->type);
    stencil_kernel_args A = D->args;
    A.coef = NULL;
    /* the transposed copy writes other rows' slots: cleared first (the
     * other kernel clears each row's own) */
    cudaError_t e = D->dA_t ? cudaMemsetAsync(D->coef, 0, bytes, gpu->stream) : cudaSuccess;
    if (!e && D->dA_t)
        e = domino_launch_stencil_compact_transposed(gpu->stream, D->type, &A, D->dA_t->ptr,
                                                     D->dA_t->ind, D->dA_t->val, D->coef);
    else if (!e)
        e = domino_launch_stencil_compact(gpu->stream, D->type, &A, D->coef);
    return e;
}

domino_status domino_dstencil_refresh(domino_handle h, domino_dstencil D)
{
    struct domino_gpu_context *gpu;
    domino_status s = domino_gpu_context_get(h, &gpu);
    if (s) return s;
    cudaError_t e = refresh_launch(gpu, D);
    if (!e) e = cudaStreamSynchronize(gpu->stream);
    return domino_cuda_status(h, e, "stencil engine: compact copy");
}

domino_status domino_dstencil_make_compact(domino_handle h, domino_dstencil D)
{
    size_t vsize = domino_type_size(D->type), N = (size_t)D->args.n;
    struct domino_gpu_context *gpu;
    domino_status s = domino_gpu_context_get(h, &gpu);
    if (s) return s;
    cudaError_t e = domino_pool_malloc(&D->coef, (3 + (size_t)D->args.noff) * N * vsize, gpu->stream);
    if (!e) e = refresh_launch(gpu, D);
    if (e) return domino_cuda_status(h, e, "stencil engine: compact copy");
    D->compact = 1;
    D->args.coef = D->coef;
    D->matrix_bytes = (1 + (size_t)D->args.order + (size_t)D->args.noff) * N * vsize;
    /* what the first solve would make: the host's share (the ticket order,
     * the tiled kernel's residency) while the copy runs, then the order's
     * upload, queued after the copy */
    s = domino_dstencil_prepare(h, D);
    e = cudaStreamSynchronize(gpu->stream);
    if (e) {
        D->compact = 0; /* the copy did not finish */
        D->args.coef = NULL;
        return domino_cuda_status(h, e, "stencil engine: compact copy");
    }
    return s;
}
