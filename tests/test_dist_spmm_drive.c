/* test_dist_spmm_drive.c: the SpMM drivers (dist_spmm_drive.h), which the
 * MPI and the NVSHMEM backends share, against a fake backend in one
 * process: ranks are threads that share the claim counters and C.  Every
 * product A(i, l) B(l, j) must be computed exactly once (stationary-A:
 * once for every nonempty A tile), by the rank the algorithm names, into
 * the right place (C tile, or partial tile delivered to C's owner); a pair
 * buffer must not be fetched into again before its product used it, and a
 * product must find its own pair there; C's tiles must hold the sums.
 * Grids of 1 to 5 tiles per side, 1 to 4 ranks, empty A tiles, the three
 * prefetch rules of stationary-C, and every allocation failing in turn. */
#include "check.h"
#include "dist/dist_spmm_drive.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

enum { MAXT = 5, MAXR = 4 };

/* the shared state of one run */
typedef struct world {
    domino_handle h;                         /* for the drivers' errors */
    int tr, tk, tc, npes;
    int ahead_rule;                          /* 0: no ahead op (always), 1: never, 2: only for odd j */
    int64_t nnz[MAXT * MAXT];                /* entries of A(i, l) */
    pthread_mutex_t lock;                    /* guards what follows */
    int64_t counter[MAXT * MAXT + MAXT * MAXT * MAXT]; /* tile counters, then product slots */
    double c[MAXT * MAXT];                   /* C's tiles: the sum of their products' values */
    int stored[MAXT * MAXT];                 /* finish calls per C tile */
    int done[MAXT * MAXT * MAXT];            /* times product (i, l, j) was computed */
    int by_owner_c[MAXT * MAXT * MAXT];      /* ... by C(i, j)'s owner */
    int by_owner_a[MAXT * MAXT * MAXT];      /* ... by A(i, l)'s owner */
    int errors;                              /* contract violations seen */
    char why[200];                           /* the first one */
} world;

/* one rank's side of the backend */
typedef struct rank_state {
    world *W;
    int rank;
    int pending[2][3], full[2]; /* the pair each buffer holds until its product */
    int ti, tj, in_tile;        /* the C tile being summed (to_c) */
    double sum;
    int pi, pj, in_part;        /* the partial tile */
    double part;
    int64_t stolen;
    domino_status status;       /* the driver's return */
} rank_state;

static int cw(const world *W, int i, int l, int j) { return (i * W->tk + l) * W->tc + j; }

/* the value of product (i, l, j): exact in double, 0 for an empty A tile */
static double value(const world *W, int i, int l, int j)
{
    return W->nnz[i * W->tk + l] ? 1.0 + i + 10.0 * l + 100.0 * j : 0.0;
}

static void violation(world *W, const char *what, int rank, int i, int l, int j)
{
    pthread_mutex_lock(&W->lock);
    if (!W->errors++) snprintf(W->why, sizeof(W->why), "rank %d: %s (%d, %d, %d)", rank, what, i, l, j);
    pthread_mutex_unlock(&W->lock);
}

static int owner_a(void *ctx, int i, int l)
{
    const world *W = ((rank_state *)ctx)->W;
    return (i * W->tk + l) % W->npes;
}

static int owner_b(void *ctx, int l, int j)
{
    const world *W = ((rank_state *)ctx)->W;
    return (l * W->tc + j) % W->npes;
}

static int owner_c(void *ctx, int i, int j)
{
    const world *W = ((rank_state *)ctx)->W;
    return (i * W->tc + j) % W->npes;
}

static int64_t nnz_a(void *ctx, int i, int l)
{
    const world *W = ((rank_state *)ctx)->W;
    return W->nnz[i * W->tk + l];
}

static domino_status fetch(void *ctx, int i, int l, int j, int q)
{
    rank_state *R = (rank_state *)ctx;
    if (q < 0 || q > 1 || R->full[q]) {
        violation(R->W, "fetch into a buffer whose pair is not used yet", R->rank, i, l, j);
        return DOMINO_INVALID_VALUE;
    }
    R->pending[q][0] = i, R->pending[q][1] = l, R->pending[q][2] = j;
    R->full[q] = 1;
    return DOMINO_SUCCESS;
}

static int ahead(void *ctx, int i, int l, int j)
{
    (void)i, (void)l;
    const world *W = ((rank_state *)ctx)->W;
    return W->ahead_rule == 1 ? 0 : j % 2;
}

static domino_status multiply(void *ctx, int i, int l, int j, int q, int to_c, int first)
{
    rank_state *R = (rank_state *)ctx;
    world *W = R->W;
    if (q < 0 || q > 1 || !R->full[q] || R->pending[q][0] != i || R->pending[q][1] != l || R->pending[q][2] != j) {
        violation(W, "product without its pair in the buffer", R->rank, i, l, j);
        return DOMINO_INVALID_VALUE;
    }
    R->full[q] = 0;
    double v = value(W, i, l, j);
    if (to_c) {
        if (owner_c(ctx, i, j) != R->rank) violation(W, "C tile of another rank summed in place", R->rank, i, l, j);
        if (first && R->in_tile) violation(W, "a C tile started before the last one finished", R->rank, i, l, j);
        if (!first && (!R->in_tile || R->ti != i || R->tj != j))
            violation(W, "a product added to a C tile not under way", R->rank, i, l, j);
        if (first) R->sum = 0, R->ti = i, R->tj = j, R->in_tile = 1;
        R->sum += v;
    } else {
        if (!first && (!R->in_part || R->pi != i || R->pj != j))
            violation(W, "a product added to another tile's partial", R->rank, i, l, j);
        if (first) R->part = 0, R->pi = i, R->pj = j, R->in_part = 1;
        R->part += v;
    }
    pthread_mutex_lock(&W->lock);
    int x = cw(W, i, l, j);
    W->done[x]++;
    W->by_owner_c[x] += owner_c(ctx, i, j) == R->rank;
    W->by_owner_a[x] += owner_a(ctx, i, l) == R->rank;
    pthread_mutex_unlock(&W->lock);
    return DOMINO_SUCCESS;
}

static domino_status finish(void *ctx, int i, int j)
{
    rank_state *R = (rank_state *)ctx;
    world *W = R->W;
    if (!R->in_tile || R->ti != i || R->tj != j) violation(W, "finish of a C tile not under way", R->rank, i, -1, j);
    R->in_tile = 0;
    pthread_mutex_lock(&W->lock);
    W->c[i * W->tc + j] = R->sum; /* a store: the tile's whole sum */
    W->stored[i * W->tc + j]++;
    pthread_mutex_unlock(&W->lock);
    return DOMINO_SUCCESS;
}

static domino_status deliver(void *ctx, int i, int j)
{
    rank_state *R = (rank_state *)ctx;
    world *W = R->W;
    if (!R->in_part || R->pi != i || R->pj != j) violation(W, "delivery of a partial not made", R->rank, i, -1, j);
    R->in_part = 0;
    pthread_mutex_lock(&W->lock);
    W->c[i * W->tc + j] += R->part; /* an atomic add at C's owner */
    pthread_mutex_unlock(&W->lock);
    return DOMINO_SUCCESS;
}

static domino_status claim(void *ctx, spmm_counter kind, int o, size_t k, int64_t *old)
{
    rank_state *R = (rank_state *)ctx;
    world *W = R->W;
    size_t tiles = (size_t)W->tr * W->tc;
    int x = (int)(kind == SPMM_TILE_COUNTER ? k : k / W->tk), i = x / W->tc, j = x % W->tc;
    if (k >= (kind == SPMM_TILE_COUNTER ? tiles : tiles * W->tk) || o != owner_c(ctx, i, j)) {
        violation(W, "a claim on a counter that does not exist or its owner is not C's", R->rank, (int)k, o, -1);
        return DOMINO_INVALID_VALUE;
    }
    pthread_mutex_lock(&W->lock);
    *old = W->counter[(kind == SPMM_TILE_COUNTER ? 0 : tiles) + k]++;
    pthread_mutex_unlock(&W->lock);
    return DOMINO_SUCCESS;
}

enum { STAT_C, STAT_A, STEAL, STEAL_LOCAL };

typedef struct job {
    rank_state R;
    int alg;
} job;

static void *run_rank(void *arg)
{
    job *J = (job *)arg;
    world *W = J->R.W;
    spmm_ops o = {W->h, &J->R, W->tr, W->tk, W->tc, J->R.rank, owner_a, owner_b, owner_c, nnz_a, fetch,
                  W->ahead_rule ? ahead : NULL, multiply, finish, deliver, claim};
    if (J->alg == STAT_C) J->R.status = spmm_drive_stationary_c(&o);
    else if (J->alg == STAT_A) J->R.status = spmm_drive_stationary_a(&o);
    else if (J->alg == STEAL) J->R.status = spmm_drive_steal(&o, 7, &J->R.stolen);
    else J->R.status = spmm_drive_steal_local(&o, 11, &J->R.stolen);
    return NULL;
}

/* one algorithm on a tr x tk x tc grid over npes ranks (threads) */
static void check_run(int alg, int tr, int tk, int tc, int npes, int ahead_rule, int empty_every)
{
    static const char *names[] = {"stationary-C", "stationary-A", "random stealing", "locality-aware stealing"};
    world W;
    job J[MAXR];
    pthread_t th[MAXR];
    memset(&W, 0, sizeof(W));
    W.tr = tr, W.tk = tk, W.tc = tc, W.npes = npes, W.ahead_rule = ahead_rule;
    for (int x = 0; x < tr * tk; x++) W.nnz[x] = empty_every && x % empty_every == 0 ? 0 : 3 + x;
    pthread_mutex_init(&W.lock, NULL);
    for (int r = 0; r < npes; r++) {
        memset(&J[r], 0, sizeof(J[r]));
        J[r].R.W = &W, J[r].R.rank = r, J[r].alg = alg;
        pthread_create(&th[r], NULL, run_rank, &J[r]);
    }
    int64_t stolen = 0, foreign = 0;
    int bad = W.errors != 0, leftover = 0;
    for (int r = 0; r < npes; r++) {
        pthread_join(th[r], NULL);
        bad |= J[r].R.status != DOMINO_SUCCESS;
        stolen += J[r].R.stolen;
        leftover += J[r].R.full[0] + J[r].R.full[1] + J[r].R.in_tile + J[r].R.in_part;
    }
    for (int i = 0; i < tr; i++)
        for (int j = 0; j < tc; j++) {
            double want = 0;
            for (int l = 0; l < tk; l++) {
                int x = cw(&W, i, l, j), need = alg != STAT_A || W.nnz[i * tk + l];
                want += value(&W, i, l, j);
                foreign += W.done[x] - W.by_owner_c[x];
                if (W.done[x] != need) bad = 1;                              /* exactly once */
                if (alg == STAT_C && W.by_owner_c[x] != W.done[x]) bad = 1;  /* by C's owner */
                if (alg == STAT_A && W.by_owner_a[x] != W.done[x]) bad = 1;  /* by A's owner */
            }
            if (W.c[i * tc + j] != want) bad = 1;
            if (W.stored[i * tc + j] != (alg == STAT_C)) bad = 1; /* stationary-C stores each tile once */
        }
    if (alg >= STEAL && stolen != foreign) bad = 1;
    bad |= W.errors != 0 || leftover != 0;
    if (!bad) {
        check_passed++;
    } else {
        check_failed++;
        fprintf(stderr, "FAIL: %s, %d x %d x %d tiles, %d ranks, ahead rule %d, empty A every %d: %s%s\n", names[alg],
                tr, tk, tc, npes, ahead_rule, empty_every, W.errors ? W.why : "wrong counts or sums",
                leftover ? " (buffers left unused)" : "");
    }
    pthread_mutex_destroy(&W.lock);
}

/* every allocation of a driver failing in turn: DOMINO_OUT_OF_MEMORY,
 * nothing leaked; then a run that succeeds */
static void check_out_of_memory(domino_handle h, int alg)
{
    world W;
    memset(&W, 0, sizeof(W));
    W.h = h, W.tr = W.tk = W.tc = 3, W.npes = 1;
    for (int x = 0; x < 9; x++) W.nnz[x] = 1;
    pthread_mutex_init(&W.lock, NULL);
    domino_status s = DOMINO_OUT_OF_MEMORY;
    for (int k = 1; k < 10 && s == DOMINO_OUT_OF_MEMORY; k++) {
        job J;
        memset(&J, 0, sizeof(J));
        memset(W.counter, 0, sizeof(W.counter));
        memset(W.c, 0, sizeof(W.c));
        J.R.W = &W, J.alg = alg;
        int64_t live = domino_debug_alloc_live();
        domino_debug_fail_alloc_after(k);
        run_rank(&J);
        domino_debug_fail_alloc_after(0);
        s = J.R.status;
        CHECK(s == DOMINO_SUCCESS || s == DOMINO_OUT_OF_MEMORY);
        CHECK(domino_debug_alloc_live() == live);
        if (s == DOMINO_OUT_OF_MEMORY) CHECK(strstr(domino_last_error(h), "out of memory") != NULL);
    }
    CHECK(s == DOMINO_SUCCESS);
    pthread_mutex_destroy(&W.lock);
}

int main(void)
{
    static const int grids[][3] = {{1, 1, 1}, {2, 3, 4}, {4, 4, 4}, {3, 1, 3}, {5, 2, 3}, {4, 1, 4}};
    for (int g = 0; g < 6; g++)
        for (int npes = 1; npes <= MAXR; npes++)
            for (int empty = 0; empty <= 3; empty += 3) {
                const int *t = grids[g];
                for (int rule = 0; rule < 3; rule++) check_run(STAT_C, t[0], t[1], t[2], npes, rule, empty);
                for (int alg = STAT_A; alg <= STEAL_LOCAL; alg++) check_run(alg, t[0], t[1], t[2], npes, 0, empty);
            }
    domino_handle h = NULL;
    CHECK_OK(h, domino_create(&h));
    for (int alg = STAT_C; alg <= STEAL_LOCAL; alg++) check_out_of_memory(h, alg);
    domino_destroy(h);
    return check_summary("test_dist_spmm_drive");
}
