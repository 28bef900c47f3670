/* dist_spmm_stationary_c.c: stationary-C SpMM over the one-sided layer
 * (Brock, Buluc, Yelick, "RDMA-Based Algorithms for Sparse Matrix
 * Multiplication on GPUs", ICS 2024): each rank computes the C tiles it
 * owns, fetching A(i, l) and B(l, j) with one-sided gets, the next pair
 * started before the current product runs; the sum starts at l = i + j so
 * that owners of C tiles on one row or column do not all read the same
 * tile first */
#include "spmm_internal.h"

#include <string.h>

/* C(i, j) = sum over l of A(i, l) B(l, j), into this rank's part of C */
static domino_status one_tile(domino_handle h, const dist_sparse *A, const dist_dense *B,
                              dist_dense *C, int i, int j, tile_pair *pair, double *acc,
                              dist_times *t)
{
    int64_t rows = C->rb[i + 1] - C->rb[i], cols = C->cb[j + 1] - C->cb[j];
    int S = A->tc, cur = 0;
    memset(acc, 0, (size_t)(rows * cols) * sizeof(double));
    domino_status s = spmm_fetch(h, A, B, i, (i + j) % S, j, &pair[0]);
    for (int step = 0; step < S && !s; step++) {
        double t0 = domino_wtime();
        s = spmm_wait(h, &pair[cur]);
        t->communication += domino_wtime() - t0;
        if (!s && step + 1 < S) s = spmm_fetch(h, A, B, i, (i + j + step + 1) % S, j, &pair[1 - cur]);
        if (s) break;
        t0 = domino_wtime();
        spmm_multiply(&pair[cur], A->type, rows, cols, acc);
        t->compute += domino_wtime() - t0;
        cur = 1 - cur;
    }
    spmm_wait(h, &pair[0]);
    spmm_wait(h, &pair[1]);
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
    domino_status s = spmm_check(h, fn, A, B, C);
    if (s) return s;
    double start = domino_wtime();
    s = spmm_buffers_new(h, A, B, pair, &acc);
    for (int tile = 0; !s && tile < C->tr * C->tc; tile++) {
        int i = tile / C->tc, j = tile % C->tc;
        if (dist_tile_owner(C->w, C->tc, i, j) == os_rank(C->w))
            s = one_tile(h, A, B, C, i, j, pair, acc, &t);
    }
    if (!s) s = os_window_sync(h, C->wval);
    s = dist_close(h, C->w, s, start, &t, times);
    spmm_buffers_free(pair, acc);
    return s;
}
