/* dist_spmm_stationary_c.c: stationary-C SpMM over the one-sided layer
 * (Brock, Buluc, Yelick, "RDMA-Based Algorithms for Sparse Matrix
 * Multiplication on GPUs", ICS 2024): each rank computes the C tiles it
 * owns, fetching A(i, l) and B(l, j) with one-sided gets, the next pair
 * started before the current product runs; the sum starts at l = i + j so
 * that owners of C tiles on one row or column do not all read the same
 * tile first */
#include "dist/dist_tiles.h"

#include <string.h>

/* the buffers of one fetched pair of tiles */
typedef struct tile_pair {
    int64_t *ptr;           /* A tile offsets, rows + 1 */
    int32_t *ind;           /* A tile columns (local) */
    void *val;              /* A tile values */
    void *b;                /* B tile, row-major */
    os_request *req[4];     /* gets under way (NULL when none) */
    int64_t nnz, brows;     /* sizes of this pair */
} tile_pair;

static double value_at(const void *v, domino_type t, int64_t i)
{
    return t == DOMINO_FLOAT64 ? ((const double *)v)[i] : (double)((const float *)v)[i];
}

/* start the gets of A(i, l) and B(l, j) into P */
static domino_status fetch(domino_handle h, const dist_sparse *A, const dist_dense *B, int i, int l,
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

/* wait for the gets of P */
static domino_status wait_pair(domino_handle h, tile_pair *P)
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

/* acc (rows x cols, row-major) += A tile * B tile of P */
static void multiply(const tile_pair *P, domino_type t, int64_t rows, int64_t cols, double *acc)
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

/* C(i, j) = sum over l of A(i, l) B(l, j), into this rank's part of C */
static domino_status one_tile(domino_handle h, const dist_sparse *A, const dist_dense *B,
                              dist_dense *C, int i, int j, tile_pair *pair, double *acc,
                              dist_times *t)
{
    int64_t rows = C->rb[i + 1] - C->rb[i], cols = C->cb[j + 1] - C->cb[j];
    int S = A->tc, cur = 0;
    memset(acc, 0, (size_t)(rows * cols) * sizeof(double));
    domino_status s = fetch(h, A, B, i, (i + j) % S, j, &pair[0]);
    for (int step = 0; step < S && !s; step++) {
        double t0 = domino_wtime();
        s = wait_pair(h, &pair[cur]);
        t->communication += domino_wtime() - t0;
        if (!s && step + 1 < S) s = fetch(h, A, B, i, (i + j + step + 1) % S, j, &pair[1 - cur]);
        if (s) break;
        t0 = domino_wtime();
        multiply(&pair[cur], A->type, rows, cols, acc);
        t->compute += domino_wtime() - t0;
        cur = 1 - cur;
    }
    wait_pair(h, &pair[0]);
    wait_pair(h, &pair[1]);
    if (s) return s;
    size_t vs = domino_type_size(C->type);
    char *dst = (char *)C->local + (size_t)C->at[i * C->tc + j] * vs;
    for (int64_t k = 0; k < rows * cols; k++) {
        if (C->type == DOMINO_FLOAT64) ((double *)dst)[k] = acc[k];
        else ((float *)dst)[k] = (float)acc[k];
    }
    return DOMINO_SUCCESS;
}

domino_status dist_spmm_stationary_c(domino_handle h, const dist_sparse *A, const dist_dense *B,
                                     dist_dense *C, dist_times *times)
{
    const char *fn = "dist_spmm_stationary_c";
    dist_times t;
    tile_pair pair[2];
    double *acc = NULL;
    memset(&t, 0, sizeof(t));
    memset(pair, 0, sizeof(pair));
    if (!A || !B || !C) return domino_error(h, DOMINO_NULL_POINTER, "%s: NULL matrix", fn);
    if (A->n != B->m || A->m != C->m || B->n != C->n || A->tc != B->tr || A->tr != C->tr ||
        B->tc != C->tc)
        return domino_error(h, DOMINO_DIMENSION_MISMATCH, "%s: A %lld x %lld (%d x %d tiles), B %lld x "
                            "%lld (%d x %d), C %lld x %lld (%d x %d) do not fit", fn, (long long)A->m,
                            (long long)A->n, A->tr, A->tc, (long long)B->m, (long long)B->n, B->tr,
                            B->tc, (long long)C->m, (long long)C->n, C->tr, C->tc);
    if (A->type != B->type || A->type != C->type)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: A, B and C must have one value type", fn);
    double start = domino_wtime();
    int64_t mptr, mnnz, mb, mc;
    max_sizes(A, B, &mptr, &mnnz, &mb, &mc);
    size_t vs = domino_type_size(A->type);
    domino_status s = DOMINO_SUCCESS;
    for (int k = 0; k < 2; k++) {
        pair[k].ptr = domino_malloc((size_t)mptr * sizeof(int64_t));
        pair[k].ind = domino_malloc((size_t)mnnz * sizeof(int32_t));
        pair[k].val = domino_malloc((size_t)mnnz * vs);
        pair[k].b = domino_malloc((size_t)mb * vs);
        if (!pair[k].ptr || !pair[k].ind || !pair[k].val || !pair[k].b) s = DOMINO_OUT_OF_MEMORY;
    }
    acc = domino_malloc((size_t)mc * sizeof(double));
    if (s || !acc) s = domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: rank %d: out of memory", fn, os_rank(A->w));
    for (int tile = 0; !s && tile < C->tr * C->tc; tile++) {
        int i = tile / C->tc, j = tile % C->tc;
        if (dist_tile_owner(C->w, C->tc, i, j) == os_rank(C->w))
            s = one_tile(h, A, B, C, i, j, pair, acc, &t);
    }
    if (!s) s = os_window_sync(h, C->wval);
    double before = domino_wtime();
    /* every rank reaches the barrier, failed or not, so no rank hangs in it */
    domino_status b = os_barrier(h, C->w);
    if (!s) s = b;
    t.imbalance = domino_wtime() - before;
    t.total = domino_wtime() - start;
    if (times) *times = t;
    for (int k = 0; k < 2; k++) {
        domino_free(pair[k].ptr);
        domino_free(pair[k].ind);
        domino_free(pair[k].val);
        domino_free(pair[k].b);
    }
    domino_free(acc);
    return s;
}
