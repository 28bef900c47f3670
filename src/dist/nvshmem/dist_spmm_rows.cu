/* dist_spmm_rows.cu: stationary-C by row blocks, the one-sided SpMM
 * algorithm of domino_dspmm that writes each C tile once: A is also cut
 * into t row blocks (t x 1 tiles, global columns), row block i on PE i mod
 * PEs; the owner of C(i, j) reads the whole row block i (in place when it
 * holds it) and multiplies it by the whole column block j of B (stacked;
 * in place when this PE holds it, as with t = PEs) in one product.  It is
 * spmm_drive_stationary_c over t x 1 x t tiles: the next row block is
 * fetched while the current one is multiplied, and each PE starts at its
 * own row block, so PEs read different owners at a time. */
#include "dist/nvshmem/dist_runtime.h"
#include "dist/nvshmem/dist_spmm_internal.h"

#include <nvshmem.h>
#include <nvshmemx.h>

/* the row blocks' directory: row block i on PE i mod PEs; win gets the
 * largest window (offsets, entries) over the PEs */
void dspmm_row_directory(struct domino_dspmm_s *P, int64_t *win)
{
    int T = P->t;
    int64_t next[2 * 1024] = {0}; /* per PE: offsets, entries */
    win[0] = win[1] = 1;
    P->rows_stride = P->rows_nnz = 1;
    for (int i = 0; i < T; i++) {
        int o = i % P->npes;
        int64_t rows = P->rb[i + 1] - P->rb[i];
        P->rnnz[i] = 0;
        for (int l = 0; l < T; l++) P->rnnz[i] += P->nnz[i * T + l];
        P->at_rptr[i] = next[2 * o];
        P->at_rent[i] = next[2 * o + 1];
        next[2 * o] += rows + 1;
        next[2 * o + 1] += P->rnnz[i];
        if (rows + 1 > P->rows_stride) P->rows_stride = rows + 1;
        if (P->rnnz[i] > P->rows_nnz) P->rows_nnz = P->rnnz[i];
    }
    for (int o = 0; o < P->npes; o++)
        for (int q = 0; q < 2; q++)
            if (next[2 * o + q] > win[q]) win[q] = next[2 * o + q];
}

/* the receive buffers of stationary-C by row blocks (collective: every PE sizes them alike) */
domino_status dspmm_rows_buffers(domino_handle h, struct domino_dspmm_s *P)
{
    size_t vs = domino_type_size(P->type);
    int T = P->t, stacked = 0;
    int64_t most_cols = 1;
    for (int x = 0; x < T * T; x++) {
        int j = x % T;
        if (P->cb[j + 1] - P->cb[j] > most_cols) most_cols = P->cb[j + 1] - P->cb[j];
        stacked |= !column_in_place(P, j, owner(P, x / T, j));
    }
    size_t bytes = 2 * ((size_t)P->rows_stride * sizeof(int32_t) + (size_t)P->rows_nnz * (sizeof(int32_t) + vs)) +
                   (stacked ? (size_t)(P->k * most_cols) * vs : 0);
    domino_status s = dist_check_room(h, P->D, bytes, WHAT ": the row-block buffers"); /* every PE alike */
    if (s) return s;
    domino_status a[7] = {DOMINO_SUCCESS, DOMINO_SUCCESS, DOMINO_SUCCESS, DOMINO_SUCCESS, DOMINO_SUCCESS,
                          DOMINO_SUCCESS, DOMINO_SUCCESS};
    for (int q = 0; q < 2; q++) {
        a[3 * q] = domino_dist_malloc(h, P->D, (size_t)P->rows_stride * sizeof(int32_t), (void **)&P->ra_ptr[q]);
        a[3 * q + 1] = domino_dist_malloc(h, P->D, (size_t)P->rows_nnz * sizeof(int32_t), (void **)&P->ra_ind[q]);
        a[3 * q + 2] = domino_dist_malloc(h, P->D, (size_t)P->rows_nnz * vs, &P->ra_val[q]);
    }
    if (stacked) a[6] = domino_dist_malloc(h, P->D, (size_t)(P->k * most_cols) * vs, &P->stack);
    for (int q = 0; q < 7 && !s; q++) s = a[q];
    cudaError_t e = s ? cudaSuccess : cudaEventCreate(&P->stack_used);
    if (!s && e) s = domino_cuda_status(h, e, WHAT ": row-block buffers");
    return s;
}

/* the buffers of rows_buffers, freed (collective) and NULL */
void dspmm_rows_buffers_free(struct domino_dspmm_s *P)
{
    for (int q = 0; q < 2; q++) {
        domino_dist_free(P->D, P->ra_ptr[q]);
        domino_dist_free(P->D, P->ra_ind[q]);
        domino_dist_free(P->D, P->ra_val[q]);
        P->ra_ptr[q] = P->ra_ind[q] = NULL;
        P->ra_val[q] = NULL;
    }
    domino_dist_free(P->D, P->stack);
    if (P->stack_used) cudaEventDestroy(P->stack_used);
    P->stack = NULL;
    P->stack_used = NULL;
}

/* start the gets of row block i of A into buffer q (none when this PE
 * holds it), and of the column block j of B into the stack unless its
 * owner is this PE and holds it in place, on the fetch stream */
static domino_status fetch_rows(domino_handle h, struct domino_dspmm_s *P, int i, int j, int q)
{
    size_t vs = domino_type_size(P->type);
    int T = P->t, o = i % P->npes;
    int64_t rows = P->rb[i + 1] - P->rb[i], cols = P->cb[j + 1] - P->cb[j];
    cudaError_t e = cudaStreamWaitEvent(P->fetch, P->used[q], 0);
    if (e) return domino_cuda_status(h, e, WHAT ": fetch");
    int timed = P->fetched < DSPMM_TIMED;
    if (timed) cudaEventRecord(P->fmark[2 * P->fetched], P->fetch);
    if (o != P->rank) {
        nvshmemx_getmem_nbi_on_stream(P->ra_ptr[q], P->w_rptr + P->at_rptr[i], (size_t)(rows + 1) * sizeof(int32_t), o,
                                      P->fetch);
        if (P->rnnz[i]) {
            nvshmemx_getmem_nbi_on_stream(P->ra_ind[q], P->w_rind + P->at_rent[i], (size_t)P->rnnz[i] * sizeof(int32_t), o,
                                          P->fetch);
            nvshmemx_getmem_nbi_on_stream(P->ra_val[q], (char *)P->w_rval + (size_t)P->at_rent[i] * vs,
                                          (size_t)P->rnnz[i] * vs, o, P->fetch);
        }
    }
    if (!column_in_place(P, j, P->rank) && cols > 0) {
        if ((e = cudaStreamWaitEvent(P->fetch, P->stack_used, 0))) return domino_cuda_status(h, e, WHAT ": fetch");
        for (int l = 0; l < T; l++) {
            int64_t kr = P->kb[l + 1] - P->kb[l];
            if (kr > 0)
                nvshmemx_getmem_nbi_on_stream((char *)P->stack + (size_t)(P->kb[l] * cols) * vs,
                                              (char *)P->w_b + (size_t)P->at_b[l * T + j] * vs, (size_t)(kr * cols) * vs,
                                              owner(P, l, j), P->fetch);
        }
    }
    nvshmemx_quiet_on_stream(P->fetch);
    if (timed) cudaEventRecord(P->fmark[2 * P->fetched++ + 1], P->fetch);
    e = cudaEventRecord(P->got[q], P->fetch);
    return e ? domino_cuda_status(h, e, WHAT ": fetch") : DOMINO_SUCCESS;
}

/* C(i, j) = row block i of A (this PE's window, or buffer q) times column
 * block j of B, written once into this PE's C tile */
static domino_status product_rows(domino_handle h, struct domino_dspmm_s *P, int i, int j, int q)
{
    size_t vs = domino_type_size(P->type);
    int T = P->t, mine = i % P->npes == P->rank;
    int64_t rows = P->rb[i + 1] - P->rb[i], cols = P->cb[j + 1] - P->cb[j];
    cudaError_t e = cudaStreamWaitEvent(P->compute, P->got[q], 0);
    if (e) return domino_cuda_status(h, e, WHAT ": product");
    const int32_t *ptr = mine ? P->w_rptr + P->at_rptr[i] : P->ra_ptr[q];
    const int32_t *ind = mine ? P->w_rind + P->at_rent[i] : P->ra_ind[q];
    const void *val = mine ? (const void *)((const char *)P->w_rval + (size_t)P->at_rent[i] * vs) : P->ra_val[q];
    int in_place = column_in_place(P, j, P->rank);
    const void *b = in_place ? (const void *)((char *)P->w_b + (size_t)P->at_b[j] * vs) : P->stack;
    void *c = (char *)P->w_c + (size_t)P->at_c[i * T + j] * vs;
    domino_status s = dspmm_spmm_call(h, P, rows, P->k, cols, P->rnnz[i], ptr, ind, val, b, c, 0, 1);
    if (!s && (e = cudaEventRecord(P->used[q], P->compute))) /* the product has read buffer q */
        s = domino_cuda_status(h, e, WHAT ": product");
    if (!s && !in_place && (e = cudaEventRecord(P->stack_used, P->compute)))
        s = domino_cuda_status(h, e, WHAT ": product");
    return s;
}

/* the operations of the row blocks for spmm_drive_stationary_c: its one
 * inner step is the whole row block; the next fetch waits for the current
 * product when its column block of B goes into the one stack that product
 * reads */
static int rows_owner(void *ctx, int i, int j)
{
    return owner(((const dspmm_ctx *)ctx)->P, i, j);
}

static int rows_owner_a(void *ctx, int i, int l)
{
    (void)l;
    const struct domino_dspmm_s *P = ((const dspmm_ctx *)ctx)->P;
    return i % P->npes; /* row block i */
}

static int64_t rows_nnz_a(void *ctx, int i, int l)
{
    (void)l;
    return ((const dspmm_ctx *)ctx)->P->rnnz[i];
}

static domino_status rows_fetch(void *ctx, int i, int l, int j, int q)
{
    (void)l;
    dspmm_ctx *c = (dspmm_ctx *)ctx;
    return fetch_rows(c->h, c->P, i, j, q);
}

static int rows_ahead(void *ctx, int i, int l, int j)
{
    (void)i, (void)l;
    const struct domino_dspmm_s *P = ((const dspmm_ctx *)ctx)->P;
    return column_in_place(P, j, P->rank);
}

static domino_status rows_multiply(void *ctx, int i, int l, int j, int q, int to_c, int first)
{
    (void)l, (void)to_c, (void)first; /* one product writes the whole C tile */
    dspmm_ctx *c = (dspmm_ctx *)ctx;
    return product_rows(c->h, c->P, i, j, q);
}

spmm_ops dspmm_rows_ops(dspmm_ctx *c)
{
    int T = c->P->t; /* domino_dspmm_run checked rows_nnz < 2^31 */
    spmm_ops o = {c->h, c, T, 1, T, c->P->rank, rows_owner_a, rows_owner, rows_owner, rows_nnz_a, rows_fetch,
                  rows_ahead, rows_multiply, NULL, NULL, NULL};
    return o;
}
