/* dist_spgemm_nvshmem.cu: one-sided SpGEMM on GPUs over NVSHMEM (Brock,
 * Buluc, Yelick, ICS 2024), one PE per GPU.  A (m x k) and B (k x n) are
 * CSR tiles of a t x t grid, tile (i, j) of each on PE (i t + j) mod npes,
 * offsets narrowed to int32 inside a tile; every PE holds the directory of
 * every tile in its owner's symmetric windows.  The algorithms are the
 * walks of dist_spgemm_drive.h (the same code as on the MPI backend: the
 * visiting orders below, claims, the next item's gets during the current
 * product); this file gives them their operations (the plan:
 * dist_spgemm_plan.cu).
 *  - Stationary-C: the owner of C(i, j) fetches the t tiles of A's row
 *    block i (merged into one CSR on the GPU, columns made global) and the
 *    t tiles of B's column block j (stacked: only their offsets move), and
 *    makes C(i, j) = A(i, :) B(:, j) in one product with domino_gpu_spgemm
 *    (cuSPARSE; the memory-frugal algorithm or smaller row blocks where
 *    cuSPARSE lacks resources; 64-bit offsets).  The paper sums the t
 *    partial products A(i, l) B(l, j) with a sparse accumulator; one
 *    product of the whole blocks needs none, and cuSPARSE merges the
 *    partial rows itself.  A PE takes its tiles in the order of their
 *    column blocks, so B's column block is fetched once for all of them;
 *    the next blocks are fetched (non-blocking gets on a second stream)
 *    while the current product runs, into the other of two buffers (up to
 *    the product's first cudaFree, which waits for the whole device).
 *  - Random work stealing: each C tile is claimed with a fetch-and-add on a
 *    counter its owner keeps (a one-thread kernel's system-scope atomic
 *    through the peer pointer: NVSHMEM's host-side AMO is not implemented
 *    between peer-to-peer PEs), the first claimer makes it.  Owners take
 *    their own tiles first, then every PE takes the others' tiles, column
 *    block by column block in a random order.  The next tile is claimed
 *    before the current product starts, so that its blocks are fetched
 *    during it.
 *  - Stationary-A: the owner of A(i, l) multiplies it by B(l, j) for every
 *    j from j = i + l on (A(i, l) fetched once, the next B tile during the
 *    current product); the partial products are summed into C by C's
 *    owners once every PE is done (dist_spgemm_accumulate.cu).
 *  - Locality-aware work stealing: a slot per product A(i, l) B(l, j) at
 *    C(i, j)'s owner, claimed by the same atomic (the first claimer gets
 *    0); owners claim their own products first, then a PE claims, in a
 *    random order, only products of others' tiles that read an A or B tile
 *    it owns; partials summed as for stationary-A.
 * C's tiles stay on the GPU of the PE that made (or summed) them. */
#include "dist/dist_spgemm_drive.h"
#include "dist/dist_tile_cut.h"
#include "dist/nvshmem/dist_spgemm_internal.h"
#include "dist/nvshmem/dist_tile_kernels.cuh"
#include "dist/nvshmem/dist_tile_place.h"

#include <nvshmem.h>
#include <nvshmemx.h>

#include <math.h>
#include <stdio.h>  /* sscanf */
#include <stdlib.h> /* getenv */
#include <string.h>
#include <time.h>   /* nanosleep */

/* start the gets of tile (i, l) of A into buffer q at 0 (fetch stream) */
static void fetch_a_tile(struct domino_dspgemm_s *P, int i, int l, int q)
{
    size_t vs = domino_type_size(P->type);
    int x = i * P->t + l, o = dspgemm_owner(P, i, l);
    nvshmemx_getmem_nbi_on_stream(P->ra_ptr[q], P->a.w_ptr + P->a.at_ptr[x],
                                  (size_t)(P->rb[i + 1] - P->rb[i] + 1) * sizeof(int32_t), o, P->fetch);
    if (P->a.nnz[x]) {
        nvshmemx_getmem_nbi_on_stream(P->ra_ind[q], P->a.w_ind + P->a.at_ent[x], (size_t)P->a.nnz[x] * sizeof(int32_t),
                                      o, P->fetch);
        nvshmemx_getmem_nbi_on_stream(P->ra_val[q], (char *)P->a.w_val + (size_t)P->a.at_ent[x] * vs,
                                      (size_t)P->a.nnz[x] * vs, o, P->fetch);
    }
}

/* start the gets of item key of A into buffer q (fetch stream): row block
 * key < t (its tiles' offsets at l a_stride, entries one tile after
 * another), or tile key - t */
static void fetch_a(struct domino_dspgemm_s *P, int64_t key, int q)
{
    size_t vs = domino_type_size(P->type);
    int T = P->t;
    P->a_in[q] = key;
    if (key >= T) {
        fetch_a_tile(P, (int)((key - T) / T), (int)((key - T) % T), q);
        return;
    }
    int i = (int)key;
    int64_t rows = P->rb[i + 1] - P->rb[i];
    for (int l = 0; l < T; l++) {
        int x = i * T + l, o = dspgemm_owner(P, i, l);
        int64_t at = P->a_off[x];
        nvshmemx_getmem_nbi_on_stream(P->ra_ptr[q] + (size_t)l * P->a_stride, P->a.w_ptr + P->a.at_ptr[x],
                                      (size_t)(rows + 1) * sizeof(int32_t), o, P->fetch);
        if (P->a.nnz[x]) {
            nvshmemx_getmem_nbi_on_stream(P->ra_ind[q] + at, P->a.w_ind + P->a.at_ent[x],
                                          (size_t)P->a.nnz[x] * sizeof(int32_t), o, P->fetch);
            nvshmemx_getmem_nbi_on_stream((char *)P->ra_val[q] + (size_t)at * vs,
                                          (char *)P->a.w_val + (size_t)P->a.at_ent[x] * vs, (size_t)P->a.nnz[x] * vs,
                                          o, P->fetch);
        }
    }
}

/* start the gets of tile (l, j) of B into buffer q from offsets position
 * ptr_at and entries position ent_at (fetch stream) */
static void fetch_b_tile(struct domino_dspgemm_s *P, int l, int j, int q, int64_t ptr_at, int64_t ent_at)
{
    size_t vs = domino_type_size(P->type);
    int x = l * P->t + j, o = dspgemm_owner(P, l, j);
    nvshmemx_getmem_nbi_on_stream(P->rb_ptr[q] + ptr_at, P->b.w_ptr + P->b.at_ptr[x],
                                  (size_t)(P->kb[l + 1] - P->kb[l] + 1) * sizeof(int32_t), o, P->fetch);
    if (P->b.nnz[x]) {
        nvshmemx_getmem_nbi_on_stream(P->rb_ind[q] + ent_at, P->b.w_ind + P->b.at_ent[x],
                                      (size_t)P->b.nnz[x] * sizeof(int32_t), o, P->fetch);
        nvshmemx_getmem_nbi_on_stream((char *)P->rb_val[q] + (size_t)ent_at * vs,
                                      (char *)P->b.w_val + (size_t)P->b.at_ent[x] * vs, (size_t)P->b.nnz[x] * vs, o,
                                      P->fetch);
    }
}

/* start the gets of item key of B into buffer q (fetch stream): column
 * block key < t (tile l's offsets at kb[l] + l, its entries at b_off), or
 * tile key - t at 0 */
static void fetch_b(struct domino_dspgemm_s *P, int64_t key, int q)
{
    int T = P->t;
    P->b_in[q] = key;
    if (key >= T) {
        fetch_b_tile(P, (int)((key - T) / T), (int)((key - T) % T), q, 0, 0);
        return;
    }
    int j = (int)key;
    for (int l = 0; l < T; l++) fetch_b_tile(P, l, j, q, P->kb[l] + l, P->b_off[(size_t)j * T + l]);
}

/* the buffers of items akey of A and bkey of B: where an item is already,
 * else the gets into the buffer the current product (buffers qa, qb) does
 * not read; records the gets' events.  *qa, *qb in: the current
 * product's; out: these items'. */
static domino_status fetch_items(domino_handle h, struct domino_dspgemm_s *P, int64_t akey, int64_t bkey, int *qa,
                                 int *qb)
{
    int started = 0;
    cudaError_t e = cudaSuccess;
    if (P->a_in[*qa] != akey) {
        *qa = 1 - *qa;
        if (P->a_in[*qa] != akey) {
            fetch_a(P, akey, *qa);
            started |= 1;
        }
    }
    if (P->b_in[*qb] != bkey) {
        *qb = 1 - *qb;
        if (P->b_in[*qb] != bkey) {
            fetch_b(P, bkey, *qb);
            started |= 2;
        }
    }
    if (started) nvshmemx_quiet_on_stream(P->fetch);
    if (started & 1) e = cudaEventRecord(P->got_a[*qa], P->fetch);
    if (!e && (started & 2)) e = cudaEventRecord(P->got_b[*qb], P->fetch);
    return e ? domino_cuda_status(h, e, WHAT ": fetch") : DOMINO_SUCCESS;
}

/* g < k: the offsets of B's column block stacked, from tile l's fetched
 * offsets (at kb[l] + l) and where its entries start (boff[l]); s_ptr[k] = total */
__global__ void stack_offsets_kernel(int64_t k, int T, const int64_t *kb, const int32_t *ptrs, const int64_t *boff,
                                     int64_t total, int64_t *s_ptr)
{
    for (int64_t g = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; g <= k; g += (int64_t)gridDim.x * blockDim.x) {
        if (g == k) {
            s_ptr[g] = total;
            continue;
        }
        int lo = 0, hi = T - 1; /* the tile l with kb[l] <= g < kb[l + 1] */
        while (lo < hi) {
            int mid = (lo + hi + 1) / 2;
            if (kb[mid] <= g) lo = mid;
            else hi = mid - 1;
        }
        s_ptr[g] = boff[lo] + ptrs[g + lo];
    }
}

/* A(i, :) merged and B(:, j) stacked from buffers qa and qb, as device
 * matrices over the plan's arrays (borrowed: domino_dmatrix_free leaves them) */
static domino_status join_blocks(domino_handle h, struct domino_dspgemm_s *P, int i, int j, int qa, int qb,
                                 struct domino_dmatrix_s *a, struct domino_dmatrix_s *b)
{
    int T = P->t;
    int64_t rows = P->rb[i + 1] - P->rb[i], anz = 0, bnz = 0;
    for (int l = 0; l < T; l++) {
        anz += P->a.nnz[(size_t)i * T + l];
        bnz += P->b.nnz[(size_t)l * T + j];
    }
    cudaError_t e = cudaStreamWaitEvent(P->compute, P->got_a[qa], 0);
    if (!e) e = cudaStreamWaitEvent(P->compute, P->got_b[qb], 0);
    int blocks = (int)((rows + 1 + 7) / 8 < 4096 ? (rows + 1 + 7) / 8 : 4096); /* 8 warps a block, a warp a row */
    if (!e && P->type == DOMINO_FLOAT64)
        csr_merge_rows_kernel<double, int32_t, int64_t><<<blocks, 256, 0, P->compute>>>(
            rows, T, P->ra_ptr[qa], P->a_stride, P->ra_ind[qa], (const double *)P->ra_val[qa], P->d_aoff + (size_t)i * T,
            P->d_kb, P->m_ptr, P->m_ind, (double *)P->m_val);
    else if (!e)
        csr_merge_rows_kernel<float, int32_t, int64_t><<<blocks, 256, 0, P->compute>>>(
            rows, T, P->ra_ptr[qa], P->a_stride, P->ra_ind[qa], (const float *)P->ra_val[qa], P->d_aoff + (size_t)i * T,
            P->d_kb, P->m_ptr, P->m_ind, (float *)P->m_val);
    if (!e) e = cudaGetLastError();
    int sblocks = (int)((P->k + 1 + 255) / 256 < 4096 ? (P->k + 1 + 255) / 256 : 4096);
    if (!e)
        stack_offsets_kernel<<<sblocks, 256, 0, P->compute>>>(P->k, T, P->d_kb, P->rb_ptr[qb], P->d_boff + (size_t)j * T,
                                                             bnz, P->s_ptr);
    if (!e) e = cudaGetLastError();
    if (!e) e = cudaStreamSynchronize(P->compute);
    if (e) return domino_cuda_status(h, e, WHAT ": joining the tiles of a block");
    domino_dmatrix_borrow(a, P->type, (int32_t)rows, (int32_t)P->k, anz, P->m_ptr, P->m_ind, P->m_val);
    domino_dmatrix_borrow(b, P->type, (int32_t)P->k, (int32_t)(P->cb[j + 1] - P->cb[j]), bnz, P->s_ptr, P->rb_ind[qb],
                          P->rb_val[qb]);
    return DOMINO_SUCCESS;
}

/* A(i, l) and B(l, j) from buffers qa and qb (tiles at 0, their offsets
 * widened to 64 bits), as device matrices over the plan's arrays (borrowed) */
static domino_status join_tiles(domino_handle h, struct domino_dspgemm_s *P, int i, int l, int j, int qa, int qb,
                                struct domino_dmatrix_s *a, struct domino_dmatrix_s *b)
{
    int T = P->t;
    int64_t rows = P->rb[i + 1] - P->rb[i], kr = P->kb[l + 1] - P->kb[l];
    cudaError_t e = cudaStreamWaitEvent(P->compute, P->got_a[qa], 0);
    if (!e) e = cudaStreamWaitEvent(P->compute, P->got_b[qb], 0);
    if (!e) e = domino_launch_offsets_widen(P->compute, (int32_t)(rows + 1), P->ra_ptr[qa], 0, P->m_ptr);
    if (!e) e = domino_launch_offsets_widen(P->compute, (int32_t)(kr + 1), P->rb_ptr[qb], 0, P->s_ptr);
    if (!e) e = cudaStreamSynchronize(P->compute);
    if (e) return domino_cuda_status(h, e, WHAT ": a tile's offsets");
    domino_dmatrix_borrow(a, P->type, (int32_t)rows, (int32_t)kr, P->a.nnz[(size_t)i * T + l], P->m_ptr, P->ra_ind[qa],
                          P->ra_val[qa]);
    domino_dmatrix_borrow(b, P->type, (int32_t)kr, (int32_t)(P->cb[j + 1] - P->cb[j]), P->b.nnz[(size_t)l * T + j],
                          P->s_ptr, P->rb_ind[qb], P->rb_val[qb]);
    return DOMINO_SUCCESS;
}

/* the walk's operations (dist_spgemm_drive.h) on NVSHMEM: an item's
 * blocks or tiles fetched into the buffers the current product does not
 * read (or found there), joined on the GPU once fetched, multiplied by
 * domino_gpu_spgemm; claims by a one-thread atomic kernel through the peer
 * pointer */
typedef struct dspgemm_ctx {
    domino_handle h;              /* the run's handle */
    struct domino_dspgemm_s *P;   /* the plan */
    int qa, qb;                   /* the buffers of the item being made */
    int na, nb;                   /* those of the item fetched last */
    struct domino_dmatrix_s a, b; /* the item's operands, joined (borrowed) */
    long slow_ns;                 /* a pause before each product (tests: DOMINO_DSPGEMM_SLOW_PE=PE:MS makes
                                     PE slow, so that the others steal from it), 0 = none */
    domino_dspgemm_times *z;      /* the run's times */
} dspgemm_ctx;

static int gpu_owner(void *ctx, int i, int j)
{
    return dspgemm_owner(((const dspgemm_ctx *)ctx)->P, i, j);
}

/* 1 if product A(i, l) B(l, j) has something to multiply */
static int gpu_needed(void *ctx, int i, int l, int j)
{
    const struct domino_dspgemm_s *P = ((const dspgemm_ctx *)ctx)->P;
    return P->a.nnz[(size_t)i * P->t + l] > 0 && P->b.nnz[(size_t)l * P->t + j] > 0;
}

/* the gets of what the item reads (row block i and column block j of a
 * whole tile, tiles (i, l) and (l, j) of a product), into buffers the
 * item being made does not read */
static domino_status gpu_fetch(void *ctx, int i, int l, int j)
{
    dspgemm_ctx *c = (dspgemm_ctx *)ctx;
    int T = c->P->t, na = c->qa, nb = c->qb;
    int64_t akey = l < 0 ? i : T + (int64_t)i * T + l, bkey = l < 0 ? j : T + (int64_t)l * T + j;
    domino_status s = fetch_items(c->h, c->P, akey, bkey, &na, &nb);
    c->na = na, c->nb = nb;
    return s;
}

/* the item fetched last is next: wait for its gets, join its blocks or tiles */
static domino_status gpu_ready(void *ctx, int i, int l, int j)
{
    dspgemm_ctx *c = (dspgemm_ctx *)ctx;
    struct domino_dspgemm_s *P = c->P;
    c->qa = c->na, c->qb = c->nb;
    double t0 = domino_wtime();
    cudaError_t e = cudaEventSynchronize(P->got_a[c->qa]);
    if (!e) e = cudaEventSynchronize(P->got_b[c->qb]);
    if (e) return domino_cuda_status(c->h, e, WHAT ": fetch");
    double t1 = domino_wtime();
    c->z->fetch += t1 - t0;
    domino_status s = l < 0 ? join_blocks(c->h, P, i, j, c->qa, c->qb, &c->a, &c->b)
                            : join_tiles(c->h, P, i, l, j, c->qa, c->qb, &c->a, &c->b);
    if (!s) c->z->merge += domino_wtime() - t1;
    return s;
}

/* the product of the joined operands: this PE's C tile x (whole), or a partial of it */
static domino_status gpu_make(void *ctx, int i, int l, int j)
{
    dspgemm_ctx *c = (dspgemm_ctx *)ctx;
    struct domino_dspgemm_s *P = c->P;
    int T = P->t, x = i * T + j;
    domino_dmatrix out = NULL;
    if (c->slow_ns) {
        struct timespec pause = {c->slow_ns / 1000000000L, c->slow_ns % 1000000000L};
        nanosleep(&pause, NULL);
    }
    double t2 = domino_wtime();
    domino_status s;
    if (c->a.nnz == 0 || c->b.nnz == 0 || c->a.nrows == 0 || c->b.ncols == 0) /* nothing to multiply: an empty tile */
        s = domino_dmatrix_sum(c->h, NULL, 0, c->a.nrows, c->b.ncols, P->type, &out);
    else s = domino_gpu_spgemm(c->h, &c->a, &c->b, &out, NULL);
    if (!s && l < 0) P->c[x] = out;
    else if (!s) s = dspgemm_keep_partial(c->h, P, x, out);
    if (s) return s;
    c->z->compute += domino_wtime() - t2;
    c->z->tiles++;
    c->z->flops += l < 0 ? P->flops[x] : P->flops3[(size_t)x * T + l];
    return DOMINO_SUCCESS;
}

/* *old = counter k of kind at PE o (a tile counter, then the product slots), then += 1 */
static domino_status gpu_claim(void *ctx, spmm_counter kind, int o, size_t k, int64_t *old)
{
    dspgemm_ctx *c = (dspgemm_ctx *)ctx;
    struct domino_dspgemm_s *P = c->P;
    double t0 = domino_wtime();
    size_t slot = kind == SPMM_PRODUCT_SLOT ? (size_t)P->t * P->t + k : k;
    unsigned long long *counter = (unsigned long long *)nvshmem_ptr(P->w_claim + slot, o);
    if (!counter)
        return domino_error(c->h, DOMINO_NOT_SUPPORTED, WHAT ": PE %d cannot address PE %d's counters directly "
                            "(stealing needs peer access)", P->rank, o);
    long long got = 1;
    dist_claim_kernel<<<1, 1, 0, P->compute>>>(counter, P->claimed);
    cudaError_t e = cudaGetLastError();
    if (!e) e = cudaMemcpyAsync(&got, P->claimed, sizeof(long long), cudaMemcpyDeviceToHost, P->compute);
    if (!e) e = cudaStreamSynchronize(P->compute);
    c->z->claim += domino_wtime() - t0;
    *old = got;
    return e ? domino_cuda_status(c->h, e, WHAT ": claim") : DOMINO_SUCCESS;
}

domino_status domino_dspgemm_run(domino_handle h, domino_dspgemm P, domino_dspgemm_algorithm algorithm,
                                 domino_dspgemm_times *times)
{
    domino_dspgemm_times z;
    memset(&z, 0, sizeof(z));
    if (times) *times = z;
    if (!P) return domino_error(h, DOMINO_NULL_POINTER, WHAT ": P is NULL");
    domino_status s = DOMINO_SUCCESS;
    int products = algorithm == DOMINO_DSPGEMM_STATIONARY_A || algorithm == DOMINO_DSPGEMM_STATIONARY_C_STEAL_LOCAL;
    if (algorithm != DOMINO_DSPGEMM_STATIONARY_C && algorithm != DOMINO_DSPGEMM_STATIONARY_C_STEAL && !products)
        s = domino_error(h, DOMINO_INVALID_VALUE, WHAT ": algorithm %d", (int)algorithm);
    else if (products && !P->flops3)
        s = domino_error(h, DOMINO_NOT_SUPPORTED, WHAT ": algorithm %d makes partial products, which takes at most "
                         "%d tiles per dimension (the plan has %d)", (int)algorithm, DSPGEMM_PRODUCT_TILES, P->t);
    /* the last C dropped, the counters zero and nothing fetched on every PE before anyone starts */
    dspgemm_drop_c(P);
    dspgemm_drop_partials(P);
    P->a_in[0] = P->a_in[1] = P->b_in[0] = P->b_in[1] = -1;
    cudaError_t e = cudaSuccess;
    size_t slots = (size_t)P->t * P->t + (P->flops3 ? (size_t)P->t * P->t * P->t : 0);
    if (!s) e = cudaMemset(P->w_claim, 0, slots * sizeof(long long));
    if (!s && !e) e = cudaDeviceSynchronize();
    if (!s && e) s = domino_cuda_status(h, e, WHAT);
    if ((s = domino_dist_agree(h, P->D, s))) return s;
    double start = domino_wtime();
    dspgemm_ctx ctx;
    memset(&ctx, 0, sizeof(ctx));
    ctx.h = h, ctx.P = P, ctx.z = &z;
    const char *slow = getenv("DOMINO_DSPGEMM_SLOW_PE");
    int slow_pe = -1, slow_ms = 0;
    if (slow && sscanf(slow, "%d:%d", &slow_pe, &slow_ms) == 2 && slow_pe == P->rank && slow_ms > 0)
        ctx.slow_ns = (long)slow_ms * 1000000L;
    int T = P->t;
    spgemm_ops o = {h, &ctx, T, T, T, P->rank, gpu_owner, gpu_owner, gpu_owner, gpu_needed, gpu_fetch, gpu_ready,
                    gpu_make, gpu_claim};
    spgemm_walk_kind kind = algorithm == DOMINO_DSPGEMM_STATIONARY_C       ? SPGEMM_WALK_STATIONARY_C
                            : algorithm == DOMINO_DSPGEMM_STATIONARY_C_STEAL ? SPGEMM_WALK_STEAL
                            : algorithm == DOMINO_DSPGEMM_STATIONARY_A       ? SPGEMM_WALK_STATIONARY_A
                                                                             : SPGEMM_WALK_STEAL_LOCAL;
    int64_t stolen = 0;
    s = spgemm_drive(&o, kind, 12345ULL, NULL, &stolen);
    z.stolen = stolen;
    e = cudaStreamSynchronize(P->fetch); /* also after a failure: no get may still be landing */
    if (!s && e) s = domino_cuda_status(h, e, WHAT);
    double done = domino_wtime();
    if (products) { /* every partial made before the owners sum them: the wait is imbalance */
        s = domino_dist_agree(h, P->D, s);
        z.imbalance = domino_wtime() - done;
        double t0 = domino_wtime();
        if (!s) s = dspgemm_accumulate(h, P);
        z.accumulate = domino_wtime() - t0;
        done = domino_wtime();
    }
    if (s) {
        dspgemm_drop_c(P);
        dspgemm_drop_partials(P);
    }
    for (int x = 0; !s && x < P->t * P->t; x++) z.nnz += P->c[x] ? P->c[x]->nnz : 0;
    s = domino_dist_agree(h, P->D, s); /* the closing barrier: its wait is imbalance */
    z.imbalance += domino_wtime() - done;
    z.total = domino_wtime() - start;
    if (times) *times = z;
    return s;
}

/* the remote bytes PE pe fetches for row block b of A (of_b 0) or column block b of B (of_b 1) */
static double remote_bytes(const struct domino_dspgemm_s *P, int pe, int of_b, int b)
{
    size_t vs = domino_type_size(P->type);
    int T = P->t;
    const int64_t *rs = of_b ? P->kb : P->rb;
    double bytes = 0;
    for (int l = 0; l < T; l++) {
        int r = of_b ? l : b, c = of_b ? b : l; /* tile (r, c) of A or B */
        if (dspgemm_owner(P, r, c) == pe) continue;
        int64_t nnz = of_b ? P->b.nnz[(size_t)r * T + c] : P->a.nnz[(size_t)r * T + c];
        bytes += (double)(rs[r + 1] - rs[r] + 1) * 4 + (double)nnz * (4 + vs);
    }
    return bytes;
}

void domino_dspgemm_model(domino_dspgemm P, double *remote_bytes_max, double *flops_max)
{
    *remote_bytes_max = *flops_max = 0;
    if (!P) return;
    int T = P->t;
    for (int pe = 0; pe < P->npes; pe++) {
        double bytes = 0, flops = 0;
        int64_t a_in[2] = {-1, -1}, b_in[2] = {-1, -1};
        int qa = 0, qb = 0;
        for (int j = 0; j < T; j++) /* stationary-C's order, and fetch_items' rule for the two buffers */
            for (int i = 0; i < T; i++) {
                if (dspgemm_owner(P, i, j) != pe) continue;
                flops += P->flops[(size_t)i * T + j];
                if (a_in[qa] != i) {
                    qa = 1 - qa;
                    if (a_in[qa] != i) bytes += remote_bytes(P, pe, 0, i), a_in[qa] = i;
                }
                if (b_in[qb] != j) {
                    qb = 1 - qb;
                    if (b_in[qb] != j) bytes += remote_bytes(P, pe, 1, j), b_in[qb] = j;
                }
            }
        if (bytes > *remote_bytes_max) *remote_bytes_max = bytes;
        if (flops > *flops_max) *flops_max = flops;
    }
}

double domino_dspgemm_flops(domino_dspgemm P)
{
    double f = 0;
    for (int x = 0; P && x < P->t * P->t; x++) f += P->flops[x];
    return f;
}
