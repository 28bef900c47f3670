/* dist_spmm_nvshmem.cu: one-sided SpMM on GPUs over NVSHMEM (Brock, Buluc,
 * Yelick, ICS 2024), one PE per GPU: A (CSR tiles, row offsets as int32),
 * B and C (row-major tiles) cut into a t x t grid, tile (i, j) on PE
 * (i t + j) mod npes, every PE holding the directory of every tile in its
 * owner's symmetric windows.  The algorithms are the drivers of
 * dist_spmm_drive.h, the same code as on the MPI backend; this file gives
 * them their operations (fetch, multiply, deliver, claim) on NVSHMEM and
 * CUDA streams, and the plan.
 *  - Stationary-C: the owner of C(i, j) sums A(i, l) B(l, j) from l = i + j
 *    on, the next pair fetched with non-blocking gets on a second stream
 *    while cuSPARSE multiplies the current pair.
 *  - Random work stealing: products are claimed one by one with a
 *    fetch-and-add on a counter the C tile's owner keeps (a one-thread
 *    kernel's system-scope atomic through the peer pointer: NVSHMEM's
 *    host-side AMO is not implemented between peer-to-peer PEs); owners
 *    drain their own tiles first, then every PE drains the others' tiles
 *    in a random order.  The products a PE claims of one tile are summed
 *    in a partial tile that is added into C at its owner with atomics
 *    through the peer pointer, so owners and thieves never race on C.
 *  - Locality-aware work stealing: a slot per product A(i, l) B(l, j) at
 *    C(i, j)'s owner, claimed by the same atomic (the first claimer gets
 *    0); owners claim their own products first, then a PE claims only
 *    products of others' C tiles that read an A or B tile it owns, in a
 *    random order, so a stolen product always reads one tile locally.
 *  - Stationary-C by row blocks (dist_spmm_rows.cu): each C tile in one
 *    product of a whole row block of A (A also stored in t row blocks) by
 *    a whole column block of B, so C(i, j) is written once instead of read
 *    and written t times.
 *  - Stationary-A: the owner of A(i, l) multiplies it by B(l, j) for every
 *    j from j = i + l on (the next B fetched while the current product
 *    runs) and adds each partial C(i, j) into C at its owner with the same
 *    atomics.  The paper hands partials over through a remote queue that
 *    the owner pops; over NVLink the add itself is one-sided, so no queue
 *    and no owner's work are needed. */
#include "dist/dist_tile_cut.h"
#include "dist/nvshmem/dist_runtime.h"
#include "dist/nvshmem/dist_spmm_internal.h"
#include "dist/nvshmem/dist_tile_kernels.cuh"
#include "dist/nvshmem/dist_tile_place.h"

#include <nvshmem.h>
#include <nvshmemx.h>

#include <math.h>
#include <string.h>


/* the buffers of pair_buffers, freed (collective) and NULL */
static void pair_buffers_free(struct domino_dspmm_s *P)
{
    for (int q = 0; q < 2; q++) {
        domino_dist_free(P->D, P->r_ptr[q]);
        domino_dist_free(P->D, P->r_ind[q]);
        domino_dist_free(P->D, P->r_val[q]);
        domino_dist_free(P->D, P->r_b[q]);
        P->r_ptr[q] = P->r_ind[q] = NULL;
        P->r_val[q] = P->r_b[q] = NULL;
    }
    cudaFree(P->part);
    cudaFree(P->claimed);
    P->part = NULL;
    P->claimed = NULL;
}


void domino_dspmm_free(domino_dspmm P)
{
    if (!P) return;
    domino_dist D = P->D;
    /* collective frees, in the same order on every PE */
    domino_dist_free(D, P->w_ptr);
    domino_dist_free(D, P->w_ind);
    domino_dist_free(D, P->w_val);
    domino_dist_free(D, P->w_b);
    domino_dist_free(D, P->w_c);
    domino_dist_free(D, P->w_claim);
    domino_dist_free(D, P->w_rptr);
    domino_dist_free(D, P->w_rind);
    domino_dist_free(D, P->w_rval);
    pair_buffers_free(P);
    dspmm_rows_buffers_free(P);
    for (int q = 0; q < 2; q++) {
        if (P->got[q]) cudaEventDestroy(P->got[q]);
        if (P->used[q]) cudaEventDestroy(P->used[q]);
    }
    if (P->fetch) cudaStreamDestroy(P->fetch);
    for (int k = 0; P->mark && k < 2 * DSPMM_TIMED; k++)
        if (P->mark[k]) cudaEventDestroy(P->mark[k]);
    for (int k = 0; P->fmark && k < 2 * DSPMM_TIMED; k++)
        if (P->fmark[k]) cudaEventDestroy(P->fmark[k]);
    domino_free(P->mark);
    domino_free(P->fmark);
    cudaFree(P->work);
    domino_free(P->rb);
    domino_free(P->kb);
    domino_free(P->cb);
    domino_free(P->nnz);
    domino_free(P->at_ptr);
    domino_free(P->at_ent);
    domino_free(P->at_b);
    domino_free(P->at_c);
    domino_free(P->rnnz);
    domino_free(P->at_rptr);
    domino_free(P->at_rent);
    domino_free(P);
}

/* the directory (every PE computes the same) and the largest sizes; the
 * window sizes are the largest over PEs, since symmetric allocations are */
static void directory(domino_matrix A, struct domino_dspmm_s *P, int64_t *win, int64_t *most)
{
    int T = P->t;
    int64_t next[4 * 1024] = {0}; /* per PE: ptr, entries, B values, C values */
    dist_count_blocks(A, P->rb, T, P->kb, T, P->nnz);
    for (int q = 0; q < 4; q++) win[q] = most[q] = 1;
    for (int x = 0; x < T * T; x++) {
        int i = x / T, j = x % T, o = owner(P, i, j);
        int64_t rows = P->rb[i + 1] - P->rb[i], kr = P->kb[i + 1] - P->kb[i], cols = P->cb[j + 1] - P->cb[j];
        P->at_ptr[x] = next[4 * o];
        P->at_ent[x] = next[4 * o + 1];
        P->at_b[x] = next[4 * o + 2];
        P->at_c[x] = next[4 * o + 3];
        next[4 * o] += rows + 1;
        next[4 * o + 1] += P->nnz[x];
        next[4 * o + 2] += kr * (P->cb[j + 1] - P->cb[j]); /* B(i, j): rows of the inner block i */
        next[4 * o + 3] += rows * cols;
        if (rows + 1 > most[0]) most[0] = rows + 1;
        if (P->nnz[x] > most[1]) most[1] = P->nnz[x];
        if (kr * cols > most[2]) most[2] = kr * cols;
        if (rows * cols > most[3]) most[3] = rows * cols;
    }
    for (int o = 0; o < P->npes; o++)
        for (int q = 0; q < 4; q++)
            if (next[4 * o + q] > win[q]) win[q] = next[4 * o + q];
}




/* this PE's tiles of A (offsets narrowed to int32) and B into its windows:
 * B's copied from the caller's host array (leading dimension ldb), or made
 * on the GPU by domino_gen_dense(seed) when B is NULL */
static domino_status own_tiles(domino_handle h, domino_matrix A, const void *B, int64_t ldb, uint64_t seed,
                               struct domino_dspmm_s *P)
{
    size_t vs = domino_type_size(P->type);
    int T = P->t;
    cudaError_t e = cudaSuccess;
    for (int x = 0; x < T * T && !e; x++) {
        int i = x / T, j = x % T;
        if (owner(P, i, j) != P->rank) continue;
        domino_status s = DOMINO_SUCCESS;
        e = dist_place_tile(h, A, P->rb, P->kb, i, j, P->w_ptr + P->at_ptr[x], P->w_ind + P->at_ent[x],
                            (char *)P->w_val + (size_t)P->at_ent[x] * vs, &s);
        if (s) {
            cudaStreamSynchronize(P->compute); /* no generator still writing when the windows are freed */
            return s;
        }
        /* B(i, j): inner rows kb[i] .. kb[i+1], columns cb[j] .. cb[j+1] */
        int64_t kr = P->kb[i + 1] - P->kb[i], cols = P->cb[j + 1] - P->cb[j];
        if (!e && kr * cols > 0 && !B)
            e = domino_launch_gen_dense(P->compute, seed, P->n, P->kb[i], kr, P->cb[j], cols, P->type,
                                        (char *)P->w_b + (size_t)P->at_b[x] * vs, cols);
        else if (!e && kr * cols > 0)
            e = cudaMemcpy2D((char *)P->w_b + (size_t)P->at_b[x] * vs, (size_t)cols * vs,
                             (const char *)B + (size_t)(P->kb[i] * ldb + P->cb[j]) * vs, (size_t)ldb * vs,
                             (size_t)cols * vs, (size_t)kr, cudaMemcpyHostToDevice);
    }
    /* this PE's row blocks of A: t x 1 tiles, so their columns are global */
    int64_t whole[2] = {0, P->k};
    for (int i = 0; i < T && !e; i++) {
        if (i % P->npes != P->rank) continue;
        domino_status s = DOMINO_SUCCESS;
        e = dist_place_tile(h, A, P->rb, whole, i, 0, P->w_rptr + P->at_rptr[i], P->w_rind + P->at_rent[i],
                            (char *)P->w_rval + (size_t)P->at_rent[i] * vs, &s);
        if (s) {
            cudaStreamSynchronize(P->compute);
            return s;
        }
    }
    if (!e) e = cudaStreamSynchronize(P->compute);
    return e ? domino_cuda_status(h, e, WHAT ": placing the tiles") : DOMINO_SUCCESS;
}

/* the receive pairs, the partial tile and the claim word of the algorithms
 * that multiply tile by tile (collective: every PE sizes them alike) */
static domino_status pair_buffers(domino_handle h, struct domino_dspmm_s *P)
{
    size_t vs = domino_type_size(P->type);
    domino_status a[8];
    size_t bytes = 2 * ((size_t)(P->most[0] + P->most[1]) * sizeof(int32_t) + (size_t)(P->most[1] + P->most[2]) * vs);
    domino_status s = dist_check_room(h, P->D, bytes, WHAT ": the receive buffers"); /* every PE alike */
    if (s) return s;
    for (int q = 0; q < 2; q++) {
        a[4 * q] = domino_dist_malloc(h, P->D, (size_t)P->most[0] * sizeof(int32_t), (void **)&P->r_ptr[q]);
        a[4 * q + 1] = domino_dist_malloc(h, P->D, (size_t)P->most[1] * sizeof(int32_t), (void **)&P->r_ind[q]);
        a[4 * q + 2] = domino_dist_malloc(h, P->D, (size_t)P->most[1] * vs, &P->r_val[q]);
        a[4 * q + 3] = domino_dist_malloc(h, P->D, (size_t)P->most[2] * vs, &P->r_b[q]);
    }
    for (int q = 0; q < 8 && !s; q++) s = a[q];
    cudaError_t e = cudaSuccess;
    if (!s) e = cudaMalloc(&P->part, (size_t)P->most[3] * vs);
    if (!s && !e) e = cudaMalloc((void **)&P->claimed, sizeof(long long));
    if (!s && e) s = domino_cuda_status(h, e, WHAT ": the receive buffers");
    return s;
}

/* domino_dspmm_make and domino_dspmm_make_random: B from the host array
 * B (leading dimension ldb), or domino_gen_dense(seed) when B is NULL */
static domino_status make(domino_handle h, domino_dist D, domino_matrix A, const void *B, int64_t ldb, uint64_t seed,
                          int64_t n, int tiles, domino_dspmm *out)
{
    struct domino_gpu_context *gpu = NULL;
    domino_status s = DOMINO_SUCCESS;
    if (!out) return domino_error(h, DOMINO_NULL_POINTER, WHAT ": P is NULL");
    *out = NULL;
    int npes = domino_dist_npes(D);
    if (npes < 1) return domino_error(h, DOMINO_INVALID_OBJECT, WHAT ": D is not a joined run");
    struct domino_dspmm_s *P = (struct domino_dspmm_s *)domino_calloc(1, sizeof(*P));
    if (!P) s = domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory");
    /* local checks and set-up; every PE then takes part in every collective */
    if (!s) s = domino_check_matrix(h, A, WHAT);
    if (!s && (A->format != DOMINO_CSR || A->symmetry != DOMINO_GENERAL))
        s = domino_error(h, DOMINO_NOT_SUPPORTED, WHAT ": A must be CSR stored general");
    if (!s && (tiles < 1 || tiles > 256 || npes > 1024))
        s = domino_error(h, DOMINO_INVALID_VALUE, WHAT ": %d tiles per dimension (1 to 256), %d PEs", tiles, npes);
    if (!s && (n < 1 || (B && ldb < n)))
        s = domino_error(h, DOMINO_INVALID_VALUE, WHAT ": B of %lld columns, leading dimension %lld", (long long)n,
                         (long long)ldb);
    if (!s) s = domino_gpu_context_get(h, &gpu);
    int64_t win[4] = {1, 1, 1, 1}, most[4] = {1, 1, 1, 1}, rwin[2] = {1, 1};
    if (!s) {
        P->D = D;
        P->rank = domino_dist_rank(D);
        P->npes = npes;
        P->type = A->type;
        P->m = A->nrows;
        P->k = A->ncols;
        P->n = n;
        P->t = tiles;
        P->rb = dist_split(P->m, tiles);
        P->kb = dist_split(P->k, tiles);
        P->cb = dist_split(n, tiles);
        size_t tt = (size_t)tiles * tiles;
        P->nnz = (int64_t *)domino_calloc(tt, sizeof(int64_t));
        P->at_ptr = (int64_t *)domino_calloc(tt, sizeof(int64_t));
        P->at_ent = (int64_t *)domino_calloc(tt, sizeof(int64_t));
        P->at_b = (int64_t *)domino_calloc(tt, sizeof(int64_t));
        P->at_c = (int64_t *)domino_calloc(tt, sizeof(int64_t));
        P->rnnz = (int64_t *)domino_calloc((size_t)tiles, sizeof(int64_t));
        P->at_rptr = (int64_t *)domino_calloc((size_t)tiles, sizeof(int64_t));
        P->at_rent = (int64_t *)domino_calloc((size_t)tiles, sizeof(int64_t));
        if (!P->rb || !P->kb || !P->cb || !P->nnz || !P->at_ptr || !P->at_ent || !P->at_b || !P->at_c || !P->rnnz ||
            !P->at_rptr || !P->at_rent)
            s = domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory");
        else
            directory(A, P, win, most), dspmm_row_directory(P, rwin);
        memcpy(P->most, most, sizeof(most));
        for (int x = 0; !s && x < tiles * tiles; x++)
            if (P->nnz[x] >= INT32_MAX)
                s = domino_error(h, DOMINO_NOT_SUPPORTED, WHAT ": tile %d has %lld entries; use more tiles", x,
                                 (long long)P->nnz[x]);
    }
    if ((s = domino_dist_agree(h, D, s))) goto failed;
    {
        size_t vs = domino_type_size(P->type);
        size_t bytes = (size_t)(win[0] + win[1] + rwin[0] + rwin[1]) * sizeof(int32_t) +
                       (size_t)(win[1] + rwin[1] + win[2] + win[3]) * vs +
                       (size_t)tiles * tiles * (tiles + 1) * sizeof(long long);
        if ((s = dist_check_room(h, D, bytes, WHAT ": A's, B's and C's tiles"))) goto failed; /* every PE alike */
        domino_status a[9];
        a[0] = domino_dist_malloc(h, D, (size_t)win[0] * sizeof(int32_t), (void **)&P->w_ptr);
        a[1] = domino_dist_malloc(h, D, (size_t)win[1] * sizeof(int32_t), (void **)&P->w_ind);
        a[2] = domino_dist_malloc(h, D, (size_t)win[1] * vs, &P->w_val);
        a[3] = domino_dist_malloc(h, D, (size_t)win[2] * vs, &P->w_b);
        a[4] = domino_dist_malloc(h, D, (size_t)win[3] * vs, &P->w_c);
        a[5] = domino_dist_malloc(h, D, (size_t)tiles * tiles * (tiles + 1) * sizeof(long long),
                                  (void **)&P->w_claim);
        a[6] = domino_dist_malloc(h, D, (size_t)rwin[0] * sizeof(int32_t), (void **)&P->w_rptr);
        a[7] = domino_dist_malloc(h, D, (size_t)rwin[1] * sizeof(int32_t), (void **)&P->w_rind);
        a[8] = domino_dist_malloc(h, D, (size_t)rwin[1] * vs, &P->w_rval);
        for (int q = 0; q < 9 && !s; q++) s = a[q];
        cudaError_t e = cudaSuccess;
        if (!s) e = cudaStreamCreateWithFlags(&P->fetch, cudaStreamNonBlocking);
        for (int q = 0; q < 2 && !s && !e; q++)
            if (!(e = cudaEventCreate(&P->got[q]))) e = cudaEventCreate(&P->used[q]);
        P->mark = (cudaEvent_t *)domino_calloc(2 * DSPMM_TIMED, sizeof(cudaEvent_t));
        P->fmark = (cudaEvent_t *)domino_calloc(2 * DSPMM_TIMED, sizeof(cudaEvent_t));
        if (!s && !e && (!P->mark || !P->fmark)) e = cudaErrorMemoryAllocation;
        for (int k = 0; !s && !e && k < 2 * DSPMM_TIMED; k++) e = cudaEventCreate(&P->mark[k]);
        for (int k = 0; !s && !e && k < 2 * DSPMM_TIMED; k++) e = cudaEventCreate(&P->fmark[k]);
        if (!s && e) s = domino_cuda_status(h, e, WHAT);
        if (!s) {
            P->compute = gpu->stream;
            P->sparse = gpu->cusparse;
            s = own_tiles(h, A, B, ldb, seed, P);
        }
    }
    if ((s = domino_dist_agree(h, D, s))) goto failed;
    *out = P;
    return DOMINO_SUCCESS;
failed:
    domino_dspmm_free(P);
    return s;
}

domino_status domino_dspmm_make(domino_handle h, domino_dist D, domino_matrix A, const void *B, int64_t n,
                                int64_t ldb, int tiles, domino_dspmm *P)
{
    if (P) *P = NULL;
    if (!B) /* every PE passes B alike, so every PE returns here alike */
        return domino_error(h, DOMINO_NULL_POINTER, WHAT ": B is NULL (domino_dspmm_make_random makes B on the GPUs)");
    return make(h, D, A, B, ldb, 0, n, tiles, P);
}

domino_status domino_dspmm_make_random(domino_handle h, domino_dist D, domino_matrix A, int64_t n, uint64_t seed,
                                       int tiles, domino_dspmm *P)
{
    return make(h, D, A, NULL, n, seed, n, tiles, P);
}

/* start the gets of A(i, l) and B(l, j) into receive pair q on the fetch
 * stream, after the products that last used it */
static domino_status fetch(domino_handle h, struct domino_dspmm_s *P, int i, int l, int j, int q)
{
    size_t vs = domino_type_size(P->type);
    int T = P->t, xa = i * T + l, xb = l * T + j, oa = owner(P, i, l), ob = owner(P, l, j);
    int64_t rows = P->rb[i + 1] - P->rb[i], kr = P->kb[l + 1] - P->kb[l], cols = P->cb[j + 1] - P->cb[j];
    cudaError_t e = cudaStreamWaitEvent(P->fetch, P->used[q], 0);
    if (e) return domino_cuda_status(h, e, WHAT ": fetch");
    int timed = P->fetched < DSPMM_TIMED;
    if (timed) cudaEventRecord(P->fmark[2 * P->fetched], P->fetch);
    nvshmemx_getmem_nbi_on_stream(P->r_ptr[q], P->w_ptr + P->at_ptr[xa], (size_t)(rows + 1) * sizeof(int32_t), oa, P->fetch);
    if (P->nnz[xa]) {
        nvshmemx_getmem_nbi_on_stream(P->r_ind[q], P->w_ind + P->at_ent[xa], (size_t)P->nnz[xa] * sizeof(int32_t), oa,
                                      P->fetch);
        nvshmemx_getmem_nbi_on_stream(P->r_val[q], (char *)P->w_val + (size_t)P->at_ent[xa] * vs,
                                      (size_t)P->nnz[xa] * vs, oa, P->fetch);
    }
    if (kr * cols > 0)
        nvshmemx_getmem_nbi_on_stream(P->r_b[q], (char *)P->w_b + (size_t)P->at_b[xb] * vs, (size_t)(kr * cols) * vs, ob,
                                      P->fetch);
    nvshmemx_quiet_on_stream(P->fetch);
    if (timed) cudaEventRecord(P->fmark[2 * P->fetched++ + 1], P->fetch);
    e = cudaEventRecord(P->got[q], P->fetch);
    return e ? domino_cuda_status(h, e, WHAT ": fetch") : DOMINO_SUCCESS;
}

/* the products' workspace, at least bytes (after the products that use it) */
static domino_status grow_work(domino_handle h, struct domino_dspmm_s *P, size_t bytes)
{
    if (bytes <= P->work_bytes) return DOMINO_SUCCESS;
    cudaStreamSynchronize(P->compute);
    cudaFree(P->work);
    P->work = NULL;
    cudaError_t e = cudaMalloc(&P->work, bytes);
    P->work_bytes = e ? 0 : bytes;
    return e ? domino_cuda_status(h, e, WHAT ": SpMM workspace") : DOMINO_SUCCESS;
}

/* out (+)= A B by domino_launch_spmm_chunks, on the compute stream, timed
 * like the cuSPARSE product (its workspace grown to the chunks' table) */
static domino_status spmm_chunks_call(domino_handle h, struct domino_dspmm_s *P, int64_t rows, int64_t cols,
                                      int64_t nnz, const int32_t *ptr, const int32_t *ind, const void *val,
                                      const void *b, void *out, int beta)
{
    domino_status s = grow_work(h, P, domino_spmm_chunks_work_bytes(nnz));
    if (s) return s;
    int timed = P->marked < DSPMM_TIMED;
    if (timed) cudaEventRecord(P->mark[2 * P->marked], P->compute);
    cudaError_t e = domino_launch_spmm_chunks(P->compute, P->type, (int32_t)rows, nnz, (int32_t)cols, ptr, ind, val, b,
                                              cols, out, cols, beta, P->work);
    if (timed) cudaEventRecord(P->mark[2 * P->marked++ + 1], P->compute);
    return e ? domino_cuda_status(h, e, WHAT ": SpMM (chunks)") : DOMINO_SUCCESS;
}

/* out (rows x cols, row-major, on the compute stream) = beta out + the CSR
 * (rows x kr, nnz, int32 offsets) times b (kr x cols, row-major), with
 * cuSPARSE or the chunk kernel (domino_spmm_local_chunks); the first
 * DSPMM_TIMED products of a run are timed */
domino_status dspmm_spmm_call(domino_handle h, struct domino_dspmm_s *P, int64_t rows, int64_t kr, int64_t cols,
                               int64_t nnz, const int32_t *ptr, const int32_t *ind, const void *val, const void *b,
                               void *out, int beta, int row_blocks)
{
    if (domino_spmm_local_chunks(cols, row_blocks)) return spmm_chunks_call(h, P, rows, cols, nnz, ptr, ind, val, b, out, beta);
    cudaError_t e = cudaSuccess;
    if (!beta && rows * cols > 0)
        e = cudaMemsetAsync(out, 0, (size_t)(rows * cols) * domino_type_size(P->type), P->compute);
    domino_status s = e ? domino_cuda_status(h, e, WHAT ": product") : DOMINO_SUCCESS;
    if (s || rows <= 0 || cols <= 0 || kr <= 0 || nnz <= 0) return s;
    cudaDataType vt = P->type == DOMINO_FLOAT64 ? CUDA_R_64F : CUDA_R_32F;
    double one = 1.0;
    float onef = 1.0f;
    const void *alpha = P->type == DOMINO_FLOAT64 ? (const void *)&one : (const void *)&onef;
    cusparseSpMatDescr_t a = NULL;
    cusparseDnMatDescr_t bd = NULL, c = NULL;
    size_t bytes = 0;
    cusparseSpMMAlg_t alg = domino_spmm_algorithm();
    cusparseStatus_t st = cusparseCreateCsr(&a, rows, kr, nnz, (void *)ptr, (void *)ind, (void *)val, CUSPARSE_INDEX_32I,
                                            CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, vt);
    if (!st) st = cusparseCreateDnMat(&bd, kr, cols, cols, (void *)b, vt, CUSPARSE_ORDER_ROW);
    if (!st) st = cusparseCreateDnMat(&c, rows, cols, cols, out, vt, CUSPARSE_ORDER_ROW);
    int timed = P->marked < DSPMM_TIMED;
    if (timed) cudaEventRecord(P->mark[2 * P->marked], P->compute);
    if (!st)
        st = cusparseSpMM_bufferSize(P->sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha,
                                     a, bd, alpha, c, vt, alg, &bytes);
    if (st) s = domino_cusparse_status(h, st, WHAT ": SpMM");
    if (!s) s = grow_work(h, P, bytes);
    if (!s && alg == CUSPARSE_SPMM_CSR_ALG3 &&
        (st = cusparseSpMM_preprocess(P->sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                      alpha, a, bd, alpha, c, vt, alg, P->work)))
        s = domino_cusparse_status(h, st, WHAT ": SpMM preprocess");
    if (!s && (st = cusparseSpMM(P->sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, a,
                                 bd, alpha, c, vt, alg, P->work)))
        s = domino_cusparse_status(h, st, WHAT ": SpMM");
    if (timed) cudaEventRecord(P->mark[2 * P->marked++ + 1], P->compute);
    if (a) cusparseDestroySpMat(a);
    if (bd) cusparseDestroyDnMat(bd);
    if (c) cusparseDestroyDnMat(c);
    return s;
}

/* out (rows x cols, row-major, on the compute stream) = beta out + A B of pair q */
static domino_status product(domino_handle h, struct domino_dspmm_s *P, int q, int64_t rows, int64_t kr,
                             int64_t cols, int64_t nnz, void *out, int beta)
{
    cudaError_t e = cudaStreamWaitEvent(P->compute, P->got[q], 0);
    domino_status s = e ? domino_cuda_status(h, e, WHAT ": product")
                        : dspmm_spmm_call(h, P, rows, kr, cols, nnz, P->r_ptr[q], P->r_ind[q], P->r_val[q], P->r_b[q], out, beta,
                                          0);
    e = cudaEventRecord(P->used[q], P->compute);
    if (!s && e) s = domino_cuda_status(h, e, WHAT ": product");
    return s;
}

/* dst[k] += src[k] atomically, k < count (dst: the C tile at its owner, through NVLink) */
template <typename V> __global__ void accumulate_kernel(V *dst, const V *src, int64_t count)
{
    for (int64_t k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; k < count; k += (int64_t)gridDim.x * blockDim.x)
        atomicAdd_system(dst + k, src[k]);
}

/* C tile x at its owner o += the partial tile (count values), on the compute stream */
static domino_status accumulate(domino_handle h, struct domino_dspmm_s *P, int x, int o, int64_t count)
{
    if (count <= 0) return DOMINO_SUCCESS;
    size_t vs = domino_type_size(P->type);
    void *dst = nvshmem_ptr((char *)P->w_c + (size_t)P->at_c[x] * vs, o);
    if (!dst)
        return domino_error(h, DOMINO_NOT_SUPPORTED, WHAT ": PE %d cannot address PE %d's C directly (stealing "
                            "needs peer access)", P->rank, o);
    int blocks = (int)((count + 255) / 256 < 1024 ? (count + 255) / 256 : 1024);
    if (P->type == DOMINO_FLOAT64)
        accumulate_kernel<double><<<blocks, 256, 0, P->compute>>>((double *)dst, (const double *)P->part, count);
    else
        accumulate_kernel<float><<<blocks, 256, 0, P->compute>>>((float *)dst, (const float *)P->part, count);
    cudaError_t e = cudaGetLastError();
    return e ? domino_cuda_status(h, e, WHAT ": accumulate") : DOMINO_SUCCESS;
}

/* *got = counter k of w_claim at PE o, then the counter += 1 (k < t^2: the
 * next product of C tile k; beyond: a product's slot, taken when *got is 0) */
static domino_status claim(domino_handle h, struct domino_dspmm_s *P, size_t k, int o, long long *got)
{
    unsigned long long *counter = (unsigned long long *)nvshmem_ptr(P->w_claim + k, o);
    if (!counter)
        return domino_error(h, DOMINO_NOT_SUPPORTED, WHAT ": PE %d cannot address PE %d's counters directly "
                            "(stealing needs peer access)", P->rank, o);
    dist_claim_kernel<<<1, 1, 0, P->compute>>>(counter, P->claimed);
    cudaError_t e = cudaGetLastError();
    if (!e) e = cudaMemcpyAsync(got, P->claimed, sizeof(long long), cudaMemcpyDeviceToHost, P->compute);
    if (!e) e = cudaStreamSynchronize(P->compute);
    return e ? domino_cuda_status(h, e, WHAT ": claim") : DOMINO_SUCCESS;
}

/* the operations of the SpMM drivers (dist_spmm_drive.h) on NVSHMEM: gets
 * of tile pairs on the fetch stream, products on the compute stream into
 * this PE's C tile or the partial tile, partials added into C's owner by a
 * kernel through nvshmem_ptr, claims by a one-thread atomic kernel */
static int gpu_owner(void *ctx, int i, int j)
{
    return owner(((const dspmm_ctx *)ctx)->P, i, j);
}

static int64_t gpu_nnz_a(void *ctx, int i, int l)
{
    const struct domino_dspmm_s *P = ((const dspmm_ctx *)ctx)->P;
    return P->nnz[(size_t)i * P->t + l];
}

static domino_status gpu_fetch(void *ctx, int i, int l, int j, int q)
{
    dspmm_ctx *c = (dspmm_ctx *)ctx;
    return fetch(c->h, c->P, i, l, j, q);
}

static domino_status gpu_multiply(void *ctx, int i, int l, int j, int q, int to_c, int first)
{
    dspmm_ctx *c = (dspmm_ctx *)ctx;
    struct domino_dspmm_s *P = c->P;
    int T = P->t;
    int64_t rows = P->rb[i + 1] - P->rb[i], cols = P->cb[j + 1] - P->cb[j];
    void *out = to_c ? (char *)P->w_c + (size_t)P->at_c[(size_t)i * T + j] * domino_type_size(P->type) : P->part;
    return product(c->h, P, q, rows, P->kb[l + 1] - P->kb[l], cols, P->nnz[(size_t)i * T + l], out, !first);
}

static domino_status gpu_deliver(void *ctx, int i, int j)
{
    dspmm_ctx *c = (dspmm_ctx *)ctx;
    struct domino_dspmm_s *P = c->P;
    int64_t count = (P->rb[i + 1] - P->rb[i]) * (P->cb[j + 1] - P->cb[j]);
    return accumulate(c->h, P, i * P->t + j, owner(P, i, j), count); /* stream order: before the partial's reuse */
}

static domino_status gpu_claim(void *ctx, spmm_counter kind, int o, size_t k, int64_t *old)
{
    dspmm_ctx *c = (dspmm_ctx *)ctx;
    size_t TT = (size_t)c->P->t * c->P->t; /* w_claim: the tile counters, then the product slots */
    long long got = 0;
    domino_status s = claim(c->h, c->P, kind == SPMM_PRODUCT_SLOT ? TT + k : k, o, &got);
    *old = got;
    return s;
}

/* the drivers' operations over the tiles of P */
static spmm_ops tile_ops(dspmm_ctx *c)
{
    int T = c->P->t;
    spmm_ops o = {c->h, c, T, T, T, c->P->rank, gpu_owner, gpu_owner, gpu_owner, gpu_nnz_a, gpu_fetch, NULL,
                  gpu_multiply, NULL, gpu_deliver, gpu_claim};
    return o;
}

domino_status domino_dspmm_run(domino_handle h, domino_dspmm P, domino_dspmm_algorithm algorithm, domino_dspmm_times *times)
{
    domino_dspmm_times z;
    memset(&z, 0, sizeof(z));
    if (!P) return domino_error(h, DOMINO_NULL_POINTER, WHAT ": P is NULL");
    size_t vs = domino_type_size(P->type);
    domino_status s = DOMINO_SUCCESS;
    if (algorithm != DOMINO_DSPMM_STATIONARY_C && algorithm != DOMINO_DSPMM_STATIONARY_C_STEAL &&
        algorithm != DOMINO_DSPMM_STATIONARY_A && algorithm != DOMINO_DSPMM_STATIONARY_C_STEAL_LOCAL &&
        algorithm != DOMINO_DSPMM_STATIONARY_C_ROWS)
        s = domino_error(h, DOMINO_INVALID_VALUE, WHAT ": algorithm %d", (int)algorithm);
    /* C and the claim counters start at zero on every PE before anyone starts */
    cudaError_t e = cudaSuccess;
    if (!s) e = cudaMemset(P->w_claim, 0, (size_t)P->t * P->t * (P->t + 1) * sizeof(long long));
    for (int x = 0; !s && !e && x < P->t * P->t; x++)
        if (owner(P, x / P->t, x % P->t) == P->rank)
            e = cudaMemset((char *)P->w_c + (size_t)P->at_c[x] * vs, 0,
                           (size_t)((P->rb[x / P->t + 1] - P->rb[x / P->t]) * (P->cb[x % P->t + 1] - P->cb[x % P->t])) * vs);
    if (!s && !e) e = cudaDeviceSynchronize();
    if (!s && e) s = domino_cuda_status(h, e, WHAT);
    if (!s && algorithm == DOMINO_DSPMM_STATIONARY_C_ROWS && P->rows_nnz >= INT32_MAX) /* before its buffers */
        s = domino_error(h, DOMINO_NOT_SUPPORTED, WHAT ": a row block of A has %lld entries (at most 2^31 - 1 "
                         "for one product); use more tiles", (long long)P->rows_nnz);
    if ((s = domino_dist_agree(h, P->D, s))) return s; /* every PE takes the same path from here */
    /* the first run that needs them makes its buffers (collective: every PE runs the same algorithm) */
    if (algorithm == DOMINO_DSPMM_STATIONARY_C_ROWS && !P->ra_ptr[0]) s = dspmm_rows_buffers(h, P);
    else if (algorithm != DOMINO_DSPMM_STATIONARY_C_ROWS && !P->r_ptr[0]) s = pair_buffers(h, P);
    if ((s = domino_dist_agree(h, P->D, s))) {
        if (algorithm == DOMINO_DSPMM_STATIONARY_C_ROWS) dspmm_rows_buffers_free(P);
        else pair_buffers_free(P);
        return s;
    }
    double start = domino_wtime();
    int64_t stolen = 0;
    P->marked = P->fetched = 0;
    dspmm_ctx ctx = {h, P};
    spmm_ops o = algorithm == DOMINO_DSPMM_STATIONARY_C_ROWS ? dspmm_rows_ops(&ctx) : tile_ops(&ctx);
    if (algorithm == DOMINO_DSPMM_STATIONARY_C || algorithm == DOMINO_DSPMM_STATIONARY_C_ROWS)
        s = spmm_drive_stationary_c(&o);
    else if (algorithm == DOMINO_DSPMM_STATIONARY_A) s = spmm_drive_stationary_a(&o);
    else if (algorithm == DOMINO_DSPMM_STATIONARY_C_STEAL_LOCAL) s = spmm_drive_steal_local(&o, 12345ULL, &stolen);
    else s = spmm_drive_steal(&o, 12345ULL, &stolen);
    /* failed or not: nothing of this run may still write the buffers when it returns */
    if ((e = cudaStreamSynchronize(P->compute)) && !s) s = domino_cuda_status(h, e, WHAT);
    if ((e = cudaStreamSynchronize(P->fetch)) && !s) s = domino_cuda_status(h, e, WHAT);
    double done = domino_wtime();
    /* the local products' time (only the first DSPMM_TIMED products: else NaN) */
    for (int k = 0; !s && k < P->marked; k++) {
        float ms = 0;
        if (cudaEventElapsedTime(&ms, P->mark[2 * k], P->mark[2 * k + 1]) == cudaSuccess) z.compute += 1e-3 * ms;
    }
    if (P->marked >= DSPMM_TIMED) z.compute = NAN;
    for (int k = 0; !s && k < P->fetched; k++) {
        float ms = 0;
        if (cudaEventElapsedTime(&ms, P->fmark[2 * k], P->fmark[2 * k + 1]) == cudaSuccess) z.fetch += 1e-3 * ms;
    }
    if (P->fetched >= DSPMM_TIMED) z.fetch = NAN;
    s = domino_dist_agree(h, P->D, s); /* the closing barrier: its wait is the imbalance */
    z.imbalance = domino_wtime() - done;
    z.total = domino_wtime() - start;
    z.stolen = stolen;
    if (times) *times = z;
    return s;
}

void domino_dspmm_model(domino_dspmm P, double *remote_bytes_max, double *flops_max)
{
    *remote_bytes_max = *flops_max = 0;
    if (!P) return;
    size_t vs = domino_type_size(P->type);
    int T = P->t;
    for (int pe = 0; pe < P->npes; pe++) {
        double bytes = 0, flops = 0;
        for (int x = 0; x < T * T; x++) {
            int i = x / T, j = x % T;
            if (owner(P, i, j) != pe) continue;
            int64_t rows = P->rb[i + 1] - P->rb[i], cols = P->cb[j + 1] - P->cb[j];
            for (int l = 0; l < T; l++) {
                int64_t nnz = P->nnz[(size_t)i * T + l], kr = P->kb[l + 1] - P->kb[l];
                flops += 2.0 * (double)nnz * (double)cols;
                if (owner(P, i, l) != pe) bytes += (double)(rows + 1) * 4 + (double)nnz * (4 + vs);
                if (owner(P, l, j) != pe) bytes += (double)(kr * cols) * vs;
            }
        }
        if (bytes > *remote_bytes_max) *remote_bytes_max = bytes;
        if (flops > *flops_max) *flops_max = flops;
    }
}

domino_status domino_dspmm_gather(domino_handle h, domino_dspmm P, void *C, int64_t ldc)
{
    if (!P || !C) return domino_error(h, DOMINO_NULL_POINTER, WHAT ": NULL argument");
    size_t vs = domino_type_size(P->type);
    int T = P->t;
    domino_status s = ldc < P->n ? domino_error(h, DOMINO_INVALID_VALUE, WHAT ": ldc %lld < n %lld", (long long)ldc,
                                                (long long)P->n)
                                 : DOMINO_SUCCESS;
    cudaError_t e = cudaSuccess;
    /* every tile from its owner's window through the peer pointer */
    for (int x = 0; x < T * T && !s && !e; x++) {
        int i = x / T, j = x % T;
        int64_t rows = P->rb[i + 1] - P->rb[i], cols = P->cb[j + 1] - P->cb[j];
        if (rows * cols == 0) continue;
        const void *src = nvshmem_ptr((char *)P->w_c + (size_t)P->at_c[x] * vs, owner(P, i, j));
        if (!src) {
            s = domino_error(h, DOMINO_NOT_SUPPORTED, WHAT ": PE %d cannot address PE %d's C", P->rank, owner(P, i, j));
            break;
        }
        e = cudaMemcpy2D((char *)C + (size_t)(P->rb[i] * ldc + P->cb[j]) * vs, (size_t)ldc * vs, src, (size_t)cols * vs,
                         (size_t)cols * vs, (size_t)rows, cudaMemcpyDeviceToHost);
    }
    if (!s && e) s = domino_cuda_status(h, e, WHAT ": gather");
    return domino_dist_agree(h, P->D, s);
}

domino_status domino_dspmm_multiply(domino_handle h, domino_dspmm P, char which, const double *x, double *y)
{
    if (!P) return domino_error(h, DOMINO_NULL_POINTER, WHAT ": P is NULL");
    if (which != 'B' && which != 'C')
        return domino_error(h, DOMINO_INVALID_VALUE, WHAT ": which is '%c' (B or C)", which);
    int T = P->t, is_b = which == 'B';
    size_t vs = domino_type_size(P->type);
    int64_t len = is_b ? P->k : P->m; /* rows of B or C */
    const int64_t *row_b = is_b ? P->kb : P->rb;
    double *dx = NULL, *mine = NULL, *sum = NULL;
    domino_status s = x && y ? DOMINO_SUCCESS : domino_error(h, DOMINO_NULL_POINTER, WHAT ": x or y is NULL");
    domino_status room = dist_check_room(h, P->D, 2 * (size_t)(len + 1) * sizeof(double), WHAT ": multiply");
    if (room) return room; /* every PE alike */
    domino_status s1 = domino_dist_malloc(h, P->D, (size_t)(len + 1) * sizeof(double), (void **)&mine);
    domino_status s2 = domino_dist_malloc(h, P->D, (size_t)(len + 1) * sizeof(double), (void **)&sum);
    if (!s) s = s1 ? s1 : s2;
    cudaError_t e = cudaSuccess;
    if (!s) e = cudaMalloc((void **)&dx, (size_t)(P->n + 1) * sizeof(double));
    if (!s && !e) e = cudaMemcpyAsync(dx, x, (size_t)P->n * sizeof(double), cudaMemcpyHostToDevice, P->compute);
    if (!s && !e) e = cudaMemsetAsync(mine, 0, (size_t)(len + 1) * sizeof(double), P->compute);
    /* this PE's tiles one after another on one stream: no races on mine */
    for (int x_ = 0; !s && !e && x_ < T * T; x_++) {
        int i = x_ / T, j = x_ % T;
        if (owner(P, i, j) != P->rank) continue;
        int64_t rows = row_b[i + 1] - row_b[i], cols = P->cb[j + 1] - P->cb[j];
        const void *tile = is_b ? (const void *)((const char *)P->w_b + (size_t)P->at_b[x_] * vs)
                                : (const void *)((const char *)P->w_c + (size_t)P->at_c[x_] * vs);
        e = domino_launch_dense_apply_add(P->compute, P->type, rows, cols, tile, cols, dx + P->cb[j], mine + row_b[i]);
    }
    if (!s && !e) e = cudaStreamSynchronize(P->compute);
    if (!s && e) s = domino_cuda_status(h, e, WHAT ": multiply");
    s = dist_sum_to_host(h, P->D, s, sum, mine, (size_t)len, y, WHAT ": multiply");
    cudaFree(dx);
    domino_dist_free(P->D, mine);
    domino_dist_free(P->D, sum);
    return s;
}
