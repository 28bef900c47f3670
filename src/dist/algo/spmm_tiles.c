/* spmm_tiles.c: what the algorithms over the one-sided layer share: tile
 * fetching, the local dense product and its delivery, the random order of
 * stealing, the closing barrier, the argument checks */
#include "spmm_internal.h"

#include <string.h>

static double value_at(const void *v, domino_type t, int64_t i)
{
    return t == DOMINO_FLOAT64 ? ((const double *)v)[i] : (double)((const float *)v)[i];
}

domino_status spmm_fetch(domino_handle h, const dist_sparse *A, const dist_dense *B, int i, int l,
                           int j, tile_pair *P)
{
    size_t vs = domino_type_size(A->type);
    int ta = i * A->tc + l, tb = l * B->tc + j;
    int oa = dist_tile_owner(A->w, A->tc, i, l), ob = dist_tile_owner(B->w, B->tc, l, j);
    int64_t rows = A->rb[i + 1] - A->rb[i], cols = B->cb[j + 1] - B->cb[j];
    P->nnz = A->nnz[ta];
    P->brows = B->rb[l + 1] - B->rb[l];
    memset(P->req, 0, sizeof(P->req));
    domino_status s = os_get_start(h, A->wptr, oa, (size_t)A->at_ptr[ta] * sizeof(int64_t), P->ptr,
                                   (size_t)(rows + 1) * sizeof(int64_t), &P->req[0]);
    if (!s && P->nnz)
        s = os_get_start(h, A->wind, oa, (size_t)A->at_ent[ta] * sizeof(int32_t), P->ind,
                         (size_t)P->nnz * sizeof(int32_t), &P->req[1]);
    if (!s && P->nnz)
        s = os_get_start(h, A->wval, oa, (size_t)A->at_ent[ta] * vs, P->val, (size_t)P->nnz * vs,
                         &P->req[2]);
    if (!s && P->brows > 0 && cols > 0)
        s = os_get_start(h, B->wval, ob, (size_t)B->at[tb] * vs, P->b, (size_t)(P->brows * cols) * vs,
                         &P->req[3]);
    return s;
}

domino_status spmm_wait(domino_handle h, tile_pair *P)
{
    domino_status s = DOMINO_SUCCESS;
    for (int k = 0; k < 4; k++) {
        if (P->req[k]) {
            domino_status t = os_wait(h, P->req[k]);
            if (!s) s = t;
        }
        P->req[k] = NULL;
    }
    return s;
}

void spmm_multiply(const tile_pair *P, domino_type t, int64_t rows, int64_t cols, double *acc)
{
    for (int64_t r = 0; r < rows; r++)
        for (int64_t e = P->ptr[r]; e < P->ptr[r + 1]; e++) {
            double a = value_at(P->val, t, e);
            int64_t brow = P->ind[e];
            for (int64_t q = 0; q < cols; q++) acc[r * cols + q] += a * value_at(P->b, t, brow * cols + q);
        }
}

/* the largest tile sizes this rank will fetch: A rows+1, A entries, B values, C values */
static void max_sizes(const dist_sparse *A, const dist_dense *B, int64_t *mptr, int64_t *mnnz,
                      int64_t *mb, int64_t *mc)
{
    *mptr = *mnnz = *mb = *mc = 1;
    for (int t = 0; t < A->tr * A->tc; t++) {
        int64_t rows = A->rb[t / A->tc + 1] - A->rb[t / A->tc];
        if (rows + 1 > *mptr) *mptr = rows + 1;
        if (A->nnz[t] > *mnnz) *mnnz = A->nnz[t];
        for (int j = 0; j < B->tc; j++) {
            int64_t cols = B->cb[j + 1] - B->cb[j];
            if (rows * cols > *mc) *mc = rows * cols;
        }
    }
    for (int t = 0; t < B->tr * B->tc; t++) {
        int64_t v = (B->rb[t / B->tc + 1] - B->rb[t / B->tc]) * (B->cb[t % B->tc + 1] - B->cb[t % B->tc]);
        if (v > *mb) *mb = v;
    }
}

domino_status spmm_buffers_new(domino_handle h, const dist_sparse *A, const dist_dense *B,
                               tile_pair *pair, double **acc)
{
    int64_t mptr, mnnz, mb, mc;
    size_t vs = domino_type_size(A->type);
    max_sizes(A, B, &mptr, &mnnz, &mb, &mc);
    memset(pair, 0, 2 * sizeof(tile_pair));
    int ok = 1;
    for (int k = 0; k < 2; k++) {
        pair[k].ptr = domino_malloc((size_t)mptr * sizeof(int64_t));
        pair[k].ind = domino_malloc((size_t)mnnz * sizeof(int32_t));
        pair[k].val = domino_malloc((size_t)mnnz * vs);
        pair[k].b = domino_malloc((size_t)mb * vs);
        ok &= pair[k].ptr && pair[k].ind && pair[k].val && pair[k].b;
    }
    *acc = domino_malloc((size_t)mc * sizeof(double));
    if (ok && *acc) return DOMINO_SUCCESS;
    spmm_buffers_free(pair, *acc);
    *acc = NULL;
    return domino_error(h, DOMINO_OUT_OF_MEMORY, "SpMM: rank %d: out of memory for tile buffers",
                        os_rank(A->w));
}

void spmm_buffers_free(tile_pair *pair, double *acc)
{
    for (int k = 0; k < 2; k++) {
        domino_free(pair[k].ptr);
        domino_free(pair[k].ind);
        domino_free(pair[k].val);
        domino_free(pair[k].b);
        memset(&pair[k], 0, sizeof(pair[k]));
    }
    domino_free(acc);
}

domino_status spmm_check(domino_handle h, const char *fn, const dist_sparse *A, const dist_dense *B,
                         const dist_dense *C)
{
    if (!A || !B || !C) return domino_error(h, DOMINO_NULL_POINTER, "%s: NULL matrix", fn);
    if (A->n != B->m || A->m != C->m || B->n != C->n || A->tc != B->tr || A->tr != C->tr ||
        B->tc != C->tc)
        return domino_error(h, DOMINO_DIMENSION_MISMATCH, "%s: A %lld x %lld (%d x %d tiles), B %lld x "
                            "%lld (%d x %d), C %lld x %lld (%d x %d) do not fit", fn, (long long)A->m,
                            (long long)A->n, A->tr, A->tc, (long long)B->m, (long long)B->n, B->tr,
                            B->tc, (long long)C->m, (long long)C->n, C->tr, C->tc);
    if (A->type != B->type || A->type != C->type)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: A, B and C must have one value type", fn);
    return DOMINO_SUCCESS;
}

domino_status spmm_deliver(domino_handle h, dist_dense *C, int t, double *acc, int64_t count,
                           dist_times *times)
{
    if (C->type == DOMINO_FLOAT32) /* in place, front to back: each float below its double */
        for (int64_t k = 0; k < count; k++) ((float *)acc)[k] = (float)acc[k];
    double t0 = domino_wtime();
    domino_status s = os_accumulate_sum(h, C->wval, dist_tile_owner(C->w, C->tc, t / C->tc, t % C->tc),
                                        (size_t)C->at[t] * domino_type_size(C->type), acc,
                                        (size_t)count, C->type);
    times->communication += domino_wtime() - t0;
    return s;
}

domino_status dist_close(domino_handle h, os_world *w, domino_status s, double start, dist_times *t,
                         dist_times *times)
{
    double before = domino_wtime();
    domino_status b = os_barrier(h, w);
    t->imbalance = domino_wtime() - before;
    t->total = domino_wtime() - start;
    if (times) *times = *t;
    return s ? s : b;
}

domino_status spgemm_check(domino_handle h, const char *fn, const dist_sparse *A, const dist_sparse *B,
                           dist_sparse **C)
{
    if (!A || !B || !C) return domino_error(h, DOMINO_NULL_POINTER, "%s: NULL argument", fn);
    *C = NULL;
    if (A->n != B->m || A->tc != B->tr)
        return domino_error(h, DOMINO_DIMENSION_MISMATCH, "%s: A %lld x %lld (%d x %d tiles) and B "
                            "%lld x %lld (%d x %d tiles) do not fit", fn, (long long)A->m,
                            (long long)A->n, A->tr, A->tc, (long long)B->m, (long long)B->n, B->tr, B->tc);
    if (A->type != B->type) return domino_error(h, DOMINO_INVALID_VALUE, "%s: A and B differ in type", fn);
    return DOMINO_SUCCESS;
}
