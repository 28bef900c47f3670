/* dist_spmm_steal.c: stationary-C SpMM with random work stealing (Brock,
 * Buluc, Yelick, ICS 2024, Sec. 4): the products A(i, l) B(l, j) of a C
 * tile are claimed one at a time by a fetch-and-add on the tile's counter
 * (the reservation grid, kept by the tile's owner); owners claim their own
 * tiles first, then every rank claims what is left of other ranks' tiles
 * in a random order and adds its partial tiles into the owner's C with an
 * atomic accumulate.  C must hold zeros on entry. */
#include "spmm_internal.h"

#include <string.h>

/* claim and compute products of C tile t until its counter passes S; the
 * partial sum goes into C's owner by accumulate.  *claimed counts them. */
static domino_status drain_tile(domino_handle h, const dist_sparse *A, const dist_dense *B,
                                dist_dense *C, os_window *counters, int t, tile_pair *pair,
                                double *acc, dist_times *times, int64_t *claimed)
{
    int i = t / C->tc, j = t % C->tc, S = A->tc;
    int owner = dist_tile_owner(C->w, C->tc, i, j);
    int64_t rows = C->rb[i + 1] - C->rb[i], cols = C->cb[j + 1] - C->cb[j], got = 0, s_index;
    domino_status s = DOMINO_SUCCESS;
    memset(acc, 0, (size_t)(rows * cols) * sizeof(double));
    for (;;) {
        if ((s = os_fetch_add(h, counters, owner, (size_t)t * sizeof(int64_t), 1, &s_index))) break;
        if (s_index >= S) break;
        int l = (int)((i + j + s_index) % S);
        double t0 = domino_wtime();
        s = spmm_fetch(h, A, B, i, l, j, &pair[0]);
        domino_status w = spmm_wait(h, &pair[0]);
        if (!s) s = w;
        times->communication += domino_wtime() - t0;
        if (s) break;
        t0 = domino_wtime();
        spmm_multiply(&pair[0], A->type, rows, cols, acc);
        times->compute += domino_wtime() - t0;
        got++;
    }
    if (s || got == 0) return s;
    *claimed += got;
    return spmm_deliver(h, C, t, acc, rows * cols, times); /* into the owner's tile */
}

domino_status dist_spmm_stationary_c_steal(domino_handle h, const dist_sparse *A,
                                           const dist_dense *B, dist_dense *C, uint64_t seed,
                                           dist_times *times)
{
    const char *fn = "dist_spmm_stationary_c_steal";
    dist_times t;
    tile_pair pair[2];
    double *acc = NULL;
    os_window *counters = NULL;
    int64_t *mine = NULL, claimed = 0;
    memset(&t, 0, sizeof(t));
    domino_status s = spmm_check(h, fn, A, B, C);
    if (s) return s;
    int ntiles = C->tr * C->tc, rank = os_rank(C->w);
    int *order = domino_malloc((size_t)ntiles * sizeof(int) + 1);
    double start = domino_wtime();
    /* collective: every rank reaches it (a failed allocation is reported after) */
    domino_status c = os_window_create(h, C->w, (size_t)ntiles * sizeof(int64_t), &counters, (void **)&mine);
    s = order ? c : domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: rank %d: out of memory", fn, rank);
    if (!s) s = spmm_buffers_new(h, A, B, pair, &acc);
    /* own tiles first, then the others in a random order */
    for (int tile = 0; !s && tile < ntiles; tile++)
        if (dist_tile_owner(C->w, C->tc, tile / C->tc, tile % C->tc) == rank)
            s = drain_tile(h, A, B, C, counters, tile, pair, acc, &t, &claimed);
    int64_t own = claimed;
    for (int k = 0; order && k < ntiles; k++) order[k] = k;
    if (!s) dist_shuffle(order, ntiles, seed + (uint64_t)rank);
    for (int k = 0; !s && k < ntiles; k++)
        if (dist_tile_owner(C->w, C->tc, order[k] / C->tc, order[k] % C->tc) != rank)
            s = drain_tile(h, A, B, C, counters, order[k], pair, acc, &t, &claimed);
    t.stolen = claimed - own;
    s = dist_close(h, C->w, s, start, &t, times);
    spmm_buffers_free(pair, acc);
    os_window_free(h, counters);
    domino_free(order);
    return s;
}
