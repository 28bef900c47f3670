/* spgemm_ops_mpi.c: the operations of the SpGEMM walk (dist_spgemm_drive.h)
 * on the one-sided layer with the CPU products: an item's tiles read with
 * blocking gets when it is made (no gets ahead), multiplied by
 * domino_ref_spgemm and merged into this rank's partial of its C tile
 * (whole tiles too: the owners' tiles and the thieves' go through the
 * exchange of spgemm_partials.c alike); claims by fetch-and-add on the
 * counters' window.  Times go to the context's dist_times. */
#include "spmm_internal.h"

#include <string.h>

static int owner_a(void *ctx, int i, int l)
{
    const spgemm_mpi *m = (const spgemm_mpi *)ctx;
    return dist_tile_owner(m->A->w, m->A->tc, i, l);
}

static int owner_b(void *ctx, int l, int j)
{
    const spgemm_mpi *m = (const spgemm_mpi *)ctx;
    return dist_tile_owner(m->B->w, m->B->tc, l, j);
}

static int owner_c(void *ctx, int i, int j)
{
    const spgemm_mpi *m = (const spgemm_mpi *)ctx;
    return dist_tile_owner(m->A->w, m->B->tc, i, j);
}

static int needed(void *ctx, int i, int l, int j)
{
    const spgemm_mpi *m = (const spgemm_mpi *)ctx;
    return m->A->nnz[i * m->A->tc + l] > 0 && m->B->nnz[l * m->B->tc + j] > 0;
}

/* A(i, l) B(l, j) merged into the partial of C tile (i, j) (nothing when a tile is empty) */
static domino_status product(spgemm_mpi *m, int i, int l, int j)
{
    if (!needed(m, i, l, j)) return DOMINO_SUCCESS;
    domino_matrix At = NULL, Bt = NULL, Q = NULL;
    double t0 = domino_wtime();
    domino_status s = dist_sparse_get_tile(m->h, m->A, i, l, &At);
    if (!s) s = dist_sparse_get_tile(m->h, m->B, l, j, &Bt);
    m->t->communication += domino_wtime() - t0;
    t0 = domino_wtime();
    if (!s) s = domino_ref_spgemm(m->h, At, Bt, &Q);
    if (!s) s = spgemm_partial_add(m->h, m->P, i * m->B->tc + j, Q); /* takes Q */
    m->t->compute += domino_wtime() - t0;
    domino_matrix_free(At);
    domino_matrix_free(Bt);
    return s;
}

static domino_status make(void *ctx, int i, int l, int j)
{
    spgemm_mpi *m = (spgemm_mpi *)ctx;
    int S = m->A->tc;
    domino_status s = DOMINO_SUCCESS;
    if (l >= 0) return product(m, i, l, j);
    for (int st = 0; st < S && !s; st++) s = product(m, i, (i + j + st) % S, j); /* a whole tile, from l = i + j */
    return s;
}

static domino_status claim(void *ctx, spmm_counter kind, int o, size_t k, int64_t *old)
{
    (void)kind; /* the one counters window of the algorithm that claims */
    spgemm_mpi *m = (spgemm_mpi *)ctx;
    double t0 = domino_wtime();
    domino_status s = os_fetch_add(m->h, m->counters, o, k * sizeof(int64_t), 1, old);
    m->t->communication += domino_wtime() - t0;
    return s;
}

domino_status spgemm_mpi_run(domino_handle h, const char *fn, const dist_sparse *A, const dist_sparse *B,
                             spgemm_walk_kind kind, uint64_t seed, dist_sparse **C, dist_times *times)
{
    dist_times t;
    spgemm_partials P;
    spgemm_mpi m;
    os_window *counters = NULL;
    int64_t *mine = NULL;
    memset(&t, 0, sizeof(t));
    memset(&P, 0, sizeof(P));
    domino_status bad = spgemm_check(h, fn, A, B, C);
    if (bad) return bad;
    double start = domino_wtime();
    int tc = B->tc, ntiles = A->tr * tc, rank = os_rank(A->w);
    size_t counts = kind == SPGEMM_WALK_STEAL ? (size_t)ntiles : kind == SPGEMM_WALK_STEAL_LOCAL ? (size_t)ntiles * A->tc : 0;
    domino_status s = DOMINO_SUCCESS;
    if (counts) /* collective: every rank reaches it; zeroed counters */
        s = os_window_create(h, A->w, counts * sizeof(int64_t), &counters, (void **)&mine);
    if (spgemm_partials_init(&P, A, B) && !s)
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: rank %d: out of memory", fn, rank);
    m = (spgemm_mpi){h, A, B, &P, counters, &t};
    spgemm_ops o = {h, &m, A->tr, A->tc, tc, rank, owner_a, owner_b, owner_c, needed, NULL, NULL, make, claim};
    if (!s) s = spgemm_drive(&o, kind, seed, NULL, &t.stolen);
    /* collective from here on: a failed rank still takes part */
    s = spgemm_finish(h, A, B, s, &P, C, &t);
    t.total = domino_wtime() - start;
    if (times) *times = t;
    spgemm_partials_free(&P);
    os_window_free(h, counters);
    return s;
}
