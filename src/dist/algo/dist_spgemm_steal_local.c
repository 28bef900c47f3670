/* dist_spgemm_steal_local.c: stationary-C SpGEMM with locality-aware work
 * stealing: one reservation slot per product A(i, l) B(l, j) (a 3D grid
 * kept by C(i, j)'s owner, claimed by a fetch-and-add: the first claimer
 * gets 0); owners claim their own products first, then a rank claims only
 * products of other ranks' tiles that read an A or B tile it owns, merging
 * them into partial tiles that reach the owners through the exchange of
 * spgemm_partials.c. */
#include "spmm_internal.h"

#include <string.h>

/* claim product st of C tile t; *got = 1 if this rank got it */
static domino_status claim(domino_handle h, const dist_sparse *A, int tc, os_window *slots, int t, int st, int S,
                           int *got)
{
    int64_t old = 1;
    int owner = dist_tile_owner(A->w, tc, t / tc, t % tc);
    domino_status s = os_fetch_add(h, slots, owner, ((size_t)t * S + st) * sizeof(int64_t), 1, &old);
    *got = !s && old == 0;
    return s;
}

/* the claimed product A(i, l) B(l, j) into the partial of tile i tc + j */
static domino_status product(domino_handle h, const dist_sparse *A, const dist_sparse *B, int i, int l, int j, int tc,
                             spgemm_partials *P, dist_times *t)
{
    domino_matrix At = NULL, Bt = NULL, Q = NULL;
    double t0 = domino_wtime();
    domino_status s = dist_sparse_get_tile(h, A, i, l, &At);
    if (!s) s = dist_sparse_get_tile(h, B, l, j, &Bt);
    t->communication += domino_wtime() - t0;
    t0 = domino_wtime();
    if (!s) s = domino_ref_spgemm(h, At, Bt, &Q);
    if (!s) s = spgemm_partial_add(h, P, i * tc + j, Q);
    t->compute += domino_wtime() - t0;
    domino_matrix_free(At);
    domino_matrix_free(Bt);
    P->claimed++;
    return s;
}

domino_status dist_spgemm_stationary_c_steal_local(domino_handle h, const dist_sparse *A, const dist_sparse *B,
                                                   uint64_t seed, dist_sparse **C, dist_times *times)
{
    const char *fn = "dist_spgemm_stationary_c_steal_local";
    dist_times t;
    spgemm_partials P;
    os_window *slots = NULL;
    int64_t *mine = NULL;
    memset(&t, 0, sizeof(t));
    memset(&P, 0, sizeof(P));
    domino_status s = spgemm_check(h, fn, A, B, C);
    if (s) return s;
    double start = domino_wtime();
    int tc = B->tc, ntiles = A->tr * tc, S = A->tc, rank = os_rank(A->w), got = 0, ncand = 0;
    int lack = spgemm_partials_init(&P, A, B);
    int *cand = domino_malloc(((size_t)ntiles * S + 1) * sizeof(int));
    domino_status c = os_window_create(h, A->w, (size_t)ntiles * S * sizeof(int64_t), &slots, (void **)&mine);
    s = !lack && cand ? c : domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: rank %d: out of memory", fn, rank);
    for (int k = 0; !s && k < ntiles; k++) { /* own C tiles: all their products */
        int i = k / tc, j = k % tc;
        if (dist_tile_owner(A->w, tc, i, j) != rank) continue;
        for (int st = 0; !s && st < S; st++)
            if (!(s = claim(h, A, tc, slots, k, st, S, &got)) && got) s = product(h, A, B, i, (i + j + st) % S, j, tc, &P, &t);
    }
    for (int k = 0; !s && k < ntiles; k++) /* what this rank may steal: products reading a tile it owns */
        for (int st = 0; st < S; st++) {
            int i = k / tc, j = k % tc, l = (i + j + st) % S;
            if (dist_tile_owner(A->w, tc, i, j) != rank &&
                (dist_tile_owner(A->w, A->tc, i, l) == rank || dist_tile_owner(B->w, B->tc, l, j) == rank))
                cand[ncand++] = k * S + st;
        }
    if (!s) dist_shuffle(cand, ncand, seed + (uint64_t)rank);
    for (int q = 0; !s && q < ncand; q++) {
        int k = cand[q] / S, st = cand[q] % S, i = k / tc, j = k % tc;
        if ((s = claim(h, A, tc, slots, k, st, S, &got)) || !got) continue;
        s = product(h, A, B, i, (i + j + st) % S, j, tc, &P, &t);
        t.stolen++;
    }
    s = spgemm_finish(h, A, B, s, &P, C, &t);
    t.total = domino_wtime() - start;
    if (times) *times = t;
    spgemm_partials_free(&P);
    domino_free(cand);
    os_window_free(h, slots);
    return s;
}
