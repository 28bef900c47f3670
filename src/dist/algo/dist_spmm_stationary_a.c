/* dist_spmm_stationary_a.c: stationary-A SpMM over the one-sided layer
 * (Brock, Buluc, Yelick, ICS 2024): the owner of A(i, l) fetches B(l, j)
 * for every j (from j = i + l on), computes the partial tile A(i, l) B(l, j)
 * and adds it into C(i, j) at C's owner.  The paper hands partial tiles to
 * the owner through a remote queue (a fetch-and-add reserves a slot, a put
 * stores the pointer) and the owner accumulates; this backend has an atomic
 * remote accumulate, which does both in one step.  C must hold zeros. */
#include "spmm_internal.h"

#include <string.h>

/* the partial products of the A tile (i, l) this rank owns */
static domino_status one_a_tile(domino_handle h, const dist_sparse *A, const dist_dense *B,
                                dist_dense *C, int i, int l, tile_pair *pair, double *acc,
                                dist_times *t)
{
    int J = B->tc;
    domino_status s = DOMINO_SUCCESS;
    for (int step = 0; !s && step < J; step++) {
        int j = (i + l + step) % J;
        int64_t rows = C->rb[i + 1] - C->rb[i], cols = C->cb[j + 1] - C->cb[j];
        double t0 = domino_wtime();
        s = spmm_fetch(h, A, B, i, l, j, &pair[0]);
        domino_status w = spmm_wait(h, &pair[0]);
        if (!s) s = w;
        t->communication += domino_wtime() - t0;
        if (s || pair[0].nnz == 0 || rows * cols == 0) continue;
        t0 = domino_wtime();
        memset(acc, 0, (size_t)(rows * cols) * sizeof(double));
        spmm_multiply(&pair[0], A->type, rows, cols, acc);
        t->compute += domino_wtime() - t0;
        s = spmm_deliver(h, C, i * C->tc + j, acc, rows * cols, t);
    }
    return s;
}

domino_status dist_spmm_stationary_a(domino_handle h, const dist_sparse *A, const dist_dense *B,
                                     dist_dense *C, dist_times *times)
{
    const char *fn = "dist_spmm_stationary_a";
    dist_times t;
    tile_pair pair[2];
    double *acc = NULL;
    memset(&t, 0, sizeof(t));
    domino_status s = spmm_check(h, fn, A, B, C);
    if (s) return s;
    double start = domino_wtime();
    s = spmm_buffers_new(h, A, B, pair, &acc);
    for (int tile = 0; !s && tile < A->tr * A->tc; tile++) {
        int i = tile / A->tc, l = tile % A->tc;
        if (dist_tile_owner(A->w, A->tc, i, l) == os_rank(A->w))
            s = one_a_tile(h, A, B, C, i, l, pair, acc, &t);
    }
    s = dist_close(h, C->w, s, start, &t, times);
    spmm_buffers_free(pair, acc);
    return s;
}
