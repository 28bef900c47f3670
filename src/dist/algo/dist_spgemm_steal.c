/* dist_spgemm_steal.c: stationary-C SpGEMM with random work stealing over
 * the one-sided layer.  Compute phase: products A(i, l) B(l, j) claimed one
 * by one with a fetch-and-add on the C tile's counter (kept by its owner),
 * own tiles first, then the other ranks' tiles in a random order; each rank
 * merges what it computed into one partial tile per C tile.  Exchange
 * phase: every rank exposes its partials of other ranks' tiles in windows
 * (a directory of sizes reduced over the ranks says who holds what), and
 * each owner reads and merges the partials of its tiles.  Sparse partial
 * tiles cannot be added remotely like dense ones, hence the exchange (the
 * paper passes them through a remote queue). */
#include "spmm_internal.h"

#include <string.h>

/* claim products of C tile t until its counter passes S, merging them into P->tile[t] */
static domino_status drain(domino_handle h, const dist_sparse *A, const dist_sparse *B,
                           os_window *counters, int tc, int t, spgemm_partials *P, dist_times *times)
{
    int i = t / tc, j = t % tc, S = A->tc, owner = dist_tile_owner(A->w, tc, i, j);
    domino_status s = DOMINO_SUCCESS;
    for (;;) {
        int64_t step = 0;
        if ((s = os_fetch_add(h, counters, owner, (size_t)t * sizeof(int64_t), 1, &step)) || step >= S)
            break;
        int l = (int)((i + j + step) % S);
        domino_matrix At = NULL, Bt = NULL, Q = NULL;
        double t0 = domino_wtime();
        s = dist_sparse_get_tile(h, A, i, l, &At);
        if (!s) s = dist_sparse_get_tile(h, B, l, j, &Bt);
        times->communication += domino_wtime() - t0;
        t0 = domino_wtime();
        if (!s) s = domino_ref_spgemm(h, At, Bt, &Q);
        if (!s) s = spgemm_partial_add(h, P, t, Q); /* takes Q */
        times->compute += domino_wtime() - t0;
        domino_matrix_free(At);
        domino_matrix_free(Bt);
        P->claimed++;
        if (s) break;
    }
    return s;
}

/* the compute phase: own tiles, then the others in a random order */
static domino_status compute(domino_handle h, const dist_sparse *A, const dist_sparse *B,
                             os_window *counters, int tc, uint64_t seed, spgemm_partials *P, int *order,
                             dist_times *t)
{
    int ntiles = A->tr * tc, rank = os_rank(A->w);
    domino_status s = DOMINO_SUCCESS;
    for (int k = 0; !s && k < ntiles; k++)
        if (dist_tile_owner(A->w, tc, k / tc, k % tc) == rank) s = drain(h, A, B, counters, tc, k, P, t);
    int64_t own = P->claimed;
    for (int k = 0; k < ntiles; k++) order[k] = k;
    dist_shuffle(order, ntiles, seed + (uint64_t)rank);
    for (int k = 0; !s && k < ntiles; k++)
        if (dist_tile_owner(A->w, tc, order[k] / tc, order[k] % tc) != rank)
            s = drain(h, A, B, counters, tc, order[k], P, t);
    t->stolen = P->claimed - own;
    return s;
}

domino_status dist_spgemm_stationary_c_steal(domino_handle h, const dist_sparse *A,
                                             const dist_sparse *B, uint64_t seed, dist_sparse **C,
                                             dist_times *times)
{
    const char *fn = "dist_spgemm_stationary_c_steal";
    dist_times t;
    spgemm_partials P;
    os_window *counters = NULL;
    int64_t *mine = NULL;
    memset(&t, 0, sizeof(t));
    memset(&P, 0, sizeof(P));
    domino_status bad = spgemm_check(h, fn, A, B, C);
    if (bad) return bad;
    double start = domino_wtime();
    int tc = B->tc, ntiles = A->tr * tc;
    int lack = spgemm_partials_init(&P, A, B);
    int *order = domino_malloc((size_t)ntiles * sizeof(int) + 1);
    domino_status c = os_window_create(h, A->w, (size_t)ntiles * sizeof(int64_t), &counters, (void **)&mine);
    domino_status s = !lack && order ? c : domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory", fn);
    if (!s) s = compute(h, A, B, counters, tc, seed, &P, order, &t);
    /* collective from here on: a failed rank still takes part */
    s = spgemm_finish(h, A, B, s, &P, C, &t);
    t.total = domino_wtime() - start;
    if (times) *times = t;
    spgemm_partials_free(&P);
    domino_free(order);
    os_window_free(h, counters);
    return s;
}
