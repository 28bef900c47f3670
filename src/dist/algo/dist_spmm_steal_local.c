/* dist_spmm_steal_local.c: stationary-C SpMM with locality-aware work
 * stealing (Brock, Buluc, Yelick, ICS 2024): a 3D reservation grid, one
 * slot per product A(i, l) B(l, j), kept by C(i, j)'s owner and claimed by
 * a fetch-and-add (the first claimer gets 0); owners claim their own
 * products first, then a rank claims only products of other ranks' C tiles
 * that involve an A or B tile it owns itself, so a stolen product always
 * reads one tile locally.  C must hold zeros on entry. */
#include "spmm_internal.h"

#include <string.h>

/* claim product step s of C tile t (l = i + j + s mod S); 1 if this rank got it */
static domino_status claim(domino_handle h, const dist_dense *C, os_window *slots, int t, int s_step,
                           int S, int *got)
{
    int64_t old = 1;
    int owner = dist_tile_owner(C->w, C->tc, t / C->tc, t % C->tc);
    domino_status s = os_fetch_add(h, slots, owner, ((size_t)t * S + s_step) * sizeof(int64_t), 1, &old);
    *got = !s && old == 0;
    return s;
}

/* acc += A(i, l) B(l, j) for the claimed product */
static domino_status product(domino_handle h, const dist_sparse *A, const dist_dense *B, int i, int l,
                             int j, int64_t rows, int64_t cols, tile_pair *pair, double *acc,
                             dist_times *t)
{
    double t0 = domino_wtime();
    domino_status s = spmm_fetch(h, A, B, i, l, j, &pair[0]);
    domino_status w = spmm_wait(h, &pair[0]);
    t->communication += domino_wtime() - t0;
    if (s || w) return s ? s : w;
    t0 = domino_wtime();
    spmm_multiply(&pair[0], A->type, rows, cols, acc);
    t->compute += domino_wtime() - t0;
    return DOMINO_SUCCESS;
}

/* 1 if this rank owns A(i, l) or B(l, j) */
static int touches_local(const dist_sparse *A, const dist_dense *B, int i, int l, int j, int rank)
{
    return dist_tile_owner(A->w, A->tc, i, l) == rank || dist_tile_owner(B->w, B->tc, l, j) == rank;
}

domino_status dist_spmm_stationary_c_steal_local(domino_handle h, const dist_sparse *A,
                                                 const dist_dense *B, dist_dense *C, uint64_t seed,
                                                 dist_times *times)
{
    const char *fn = "dist_spmm_stationary_c_steal_local";
    dist_times t;
    tile_pair pair[2];
    double *acc = NULL;
    os_window *slots = NULL;
    int64_t *mine = NULL;
    memset(&t, 0, sizeof(t));
    domino_status s = spmm_check(h, fn, A, B, C);
    if (s) return s;
    int ntiles = C->tr * C->tc, S = A->tc, rank = os_rank(C->w), ncand = 0, got = 0;
    int *cand = domino_malloc(((size_t)ntiles * S + 1) * sizeof(int));
    double start = domino_wtime();
    domino_status c = os_window_create(h, C->w, (size_t)ntiles * S * sizeof(int64_t), &slots, (void **)&mine);
    s = cand ? c : domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: rank %d: out of memory", fn, rank);
    if (!s) s = spmm_buffers_new(h, A, B, pair, &acc);
    for (int tile = 0; !s && tile < ntiles; tile++) { /* own C tiles: all their products */
        int i = tile / C->tc, j = tile % C->tc, any = 0;
        if (dist_tile_owner(C->w, C->tc, i, j) != rank) continue;
        int64_t rows = C->rb[i + 1] - C->rb[i], cols = C->cb[j + 1] - C->cb[j];
        memset(acc, 0, (size_t)(rows * cols) * sizeof(double));
        for (int st = 0; !s && st < S; st++) {
            if ((s = claim(h, C, slots, tile, st, S, &got)) || !got) continue;
            s = product(h, A, B, i, (i + j + st) % S, j, rows, cols, pair, acc, &t);
            any = 1;
        }
        if (!s && any) s = spmm_deliver(h, C, tile, acc, rows * cols, &t);
    }
    for (int tile = 0; !s && tile < ntiles; tile++) /* what this rank may steal */
        for (int st = 0; st < S; st++) {
            int i = tile / C->tc, j = tile % C->tc, l = (i + j + st) % S;
            if (dist_tile_owner(C->w, C->tc, i, j) != rank && touches_local(A, B, i, l, j, rank))
                cand[ncand++] = tile * S + st;
        }
    if (!s) dist_shuffle(cand, ncand, seed + (uint64_t)rank);
    for (int k = 0; !s && k < ncand; k++) {
        int tile = cand[k] / S, st = cand[k] % S, i = tile / C->tc, j = tile % C->tc;
        if ((s = claim(h, C, slots, tile, st, S, &got)) || !got) continue;
        int64_t rows = C->rb[i + 1] - C->rb[i], cols = C->cb[j + 1] - C->cb[j];
        memset(acc, 0, (size_t)(rows * cols) * sizeof(double));
        s = product(h, A, B, i, (i + j + st) % S, j, rows, cols, pair, acc, &t);
        if (!s) s = spmm_deliver(h, C, tile, acc, rows * cols, &t);
        t.stolen++;
    }
    s = dist_close(h, C->w, s, start, &t, times);
    spmm_buffers_free(pair, acc);
    os_window_free(h, slots);
    domino_free(cand);
    return s;
}
