/* test_dist_spgemm_drive.c: the SpGEMM walks (dist_spgemm_drive.h), which
 * the MPI and the NVSHMEM backends share, against a fake backend in one
 * process whose ranks are threads sharing the claim counters: every C tile
 * made exactly once (whole-tile walks: stationary-C by its owner, random
 * stealing by someone), every product worth making exactly once (product
 * walks: stationary-A by A's owner, locality-aware stealing by C's owner or
 * a rank holding one of its tiles), and each item fetched, made ready and
 * made in that order, the next item's gets started after the current one
 * is ready and before it is made.  Grids of 1 to 5 tiles per side, 1 to 4
 * ranks, empty tiles, and every allocation failing in turn. */
#include "check.h"
#include "dist/dist_spgemm_drive.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

enum { MAXT = 5, MAXR = 4 };

typedef struct world {
    domino_handle h;
    int tr, tk, tc, npes;
    int64_t annz[MAXT * MAXT], bnnz[MAXT * MAXT]; /* entries of A(i, l), B(l, j) */
    pthread_mutex_t lock;                         /* guards what follows */
    int64_t counter[MAXT * MAXT + MAXT * MAXT * MAXT];
    int made_tile[MAXT * MAXT];                   /* whole tiles made */
    int made_product[MAXT * MAXT * MAXT];         /* products made, at (i tc + j) tk + l */
    int wrong_maker;                              /* items made by a rank the walk does not allow */
    spgemm_walk_kind kind;
    int errors;
    char why[200];
} world;

typedef struct rank_state {
    world *W;
    int rank;
    int fetched[2][3], nfetched; /* items fetched, not yet made ready (at most 2: current and next) */
    int cur[3], has_cur;         /* the item made ready, not yet made */
    domino_status status;
    int64_t made, stolen;
} rank_state;

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

static int needed(void *ctx, int i, int l, int j)
{
    const world *W = ((rank_state *)ctx)->W;
    return W->annz[i * W->tk + l] > 0 && W->bnnz[l * W->tc + j] > 0;
}

static domino_status fetch(void *ctx, int i, int l, int j)
{
    rank_state *R = (rank_state *)ctx;
    if (R->nfetched >= 1) { /* one item ahead at most: the next item's gets come after the current is ready */
        violation(R->W, "a second item fetched before the first was made ready", R->rank, i, l, j);
        return DOMINO_INVALID_VALUE;
    }
    R->fetched[0][0] = i, R->fetched[0][1] = l, R->fetched[0][2] = j;
    R->nfetched = 1;
    return DOMINO_SUCCESS;
}

static domino_status ready(void *ctx, int i, int l, int j)
{
    rank_state *R = (rank_state *)ctx;
    if (R->nfetched != 1 || R->fetched[0][0] != i || R->fetched[0][1] != l || R->fetched[0][2] != j) {
        violation(R->W, "an item made ready that was not fetched", R->rank, i, l, j);
        return DOMINO_INVALID_VALUE;
    }
    if (R->has_cur) violation(R->W, "an item made ready before the last was made", R->rank, i, l, j);
    R->nfetched = 0;
    R->cur[0] = i, R->cur[1] = l, R->cur[2] = j;
    R->has_cur = 1;
    return DOMINO_SUCCESS;
}

static domino_status make(void *ctx, int i, int l, int j)
{
    rank_state *R = (rank_state *)ctx;
    world *W = R->W;
    if (!R->has_cur || R->cur[0] != i || R->cur[1] != l || R->cur[2] != j) {
        violation(W, "an item made that was not made ready", R->rank, i, l, j);
        return DOMINO_INVALID_VALUE;
    }
    R->has_cur = 0;
    int oc = owner_c(ctx, i, j), me = R->rank;
    int allowed = W->kind == SPGEMM_WALK_STATIONARY_C   ? oc == me
                  : W->kind == SPGEMM_WALK_STATIONARY_A ? l >= 0 && owner_a(ctx, i, l) == me
                  : W->kind == SPGEMM_WALK_STEAL_LOCAL
                      ? l >= 0 && (oc == me || owner_a(ctx, i, l) == me || owner_b(ctx, l, j) == me)
                      : l < 0;
    pthread_mutex_lock(&W->lock);
    W->wrong_maker += !allowed;
    if (l < 0) W->made_tile[i * W->tc + j]++;
    else W->made_product[(i * W->tc + j) * W->tk + l]++;
    pthread_mutex_unlock(&W->lock);
    return DOMINO_SUCCESS;
}

static domino_status claim(void *ctx, spmm_counter kind, int o, size_t k, int64_t *old)
{
    rank_state *R = (rank_state *)ctx;
    world *W = R->W;
    size_t tiles = (size_t)W->tr * W->tc;
    int x = (int)(kind == SPMM_TILE_COUNTER ? k : k / W->tk);
    if (k >= (kind == SPMM_TILE_COUNTER ? tiles : tiles * W->tk) || o != owner_c(ctx, x / W->tc, x % W->tc)) {
        violation(W, "a claim on a counter that does not exist or not at C's owner", R->rank, (int)k, o, -1);
        return DOMINO_INVALID_VALUE;
    }
    pthread_mutex_lock(&W->lock);
    *old = W->counter[(kind == SPMM_TILE_COUNTER ? 0 : tiles) + k]++;
    pthread_mutex_unlock(&W->lock);
    return DOMINO_SUCCESS;
}

typedef struct job {
    rank_state R;
    spgemm_walk_kind kind;
} job;

static void *run_rank(void *arg)
{
    job *J = (job *)arg;
    world *W = J->R.W;
    spgemm_ops o = {W->h, &J->R, W->tr, W->tk, W->tc, J->R.rank, owner_a, owner_b, owner_c, needed, fetch, ready,
                    make, claim};
    J->R.status = spgemm_drive(&o, J->kind, 5, &J->R.made, &J->R.stolen);
    return NULL;
}

static void check_walk(spgemm_walk_kind kind, int tr, int tk, int tc, int npes, int empty_every)
{
    static const char *names[] = {"stationary-C", "random stealing", "stationary-A", "locality-aware stealing"};
    world W;
    job J[MAXR];
    pthread_t th[MAXR];
    memset(&W, 0, sizeof(W));
    W.tr = tr, W.tk = tk, W.tc = tc, W.npes = npes, W.kind = kind;
    for (int x = 0; x < MAXT * MAXT; x++) {
        W.annz[x] = empty_every && x % empty_every == 0 ? 0 : 2 + x;
        W.bnnz[x] = empty_every && x % (empty_every + 1) == 1 ? 0 : 1 + x;
    }
    pthread_mutex_init(&W.lock, NULL);
    for (int r = 0; r < npes; r++) {
        memset(&J[r], 0, sizeof(J[r]));
        J[r].R.W = &W, J[r].R.rank = r, J[r].kind = kind;
        pthread_create(&th[r], NULL, run_rank, &J[r]);
    }
    int bad = 0;
    int64_t made = 0, stolen = 0, items = 0, foreign = 0;
    for (int r = 0; r < npes; r++) {
        pthread_join(th[r], NULL);
        bad |= J[r].R.status != DOMINO_SUCCESS || J[r].R.nfetched || J[r].R.has_cur;
        made += J[r].R.made;
        stolen += J[r].R.stolen;
    }
    int products = kind == SPGEMM_WALK_STATIONARY_A || kind == SPGEMM_WALK_STEAL_LOCAL;
    for (int x = 0; x < tr * tc; x++) {
        int i = x / tc, j = x % tc;
        if (!products) {
            bad |= W.made_tile[x] != 1;
            items++;
            continue;
        }
        for (int l = 0; l < tk; l++) {
            int want = W.annz[i * tk + l] > 0 && W.bnnz[l * tc + j] > 0;
            bad |= W.made_product[x * tk + l] != want;
            items += want;
        }
    }
    for (int r = 0; r < npes && kind == SPGEMM_WALK_STEAL; r++) foreign += J[r].R.stolen;
    bad |= made != items || W.errors != 0 || W.wrong_maker != 0;
    if (kind == SPGEMM_WALK_STATIONARY_C || kind == SPGEMM_WALK_STATIONARY_A) bad |= stolen != 0;
    if (kind == SPGEMM_WALK_STEAL && npes == 1) bad |= foreign != 0;
    if (!bad) {
        check_passed++;
    } else {
        check_failed++;
        fprintf(stderr, "FAIL: %s, %d x %d x %d tiles, %d ranks, empty every %d: %s\n", names[kind], tr, tk, tc, npes,
                empty_every, W.errors ? W.why : "wrong counts");
    }
    pthread_mutex_destroy(&W.lock);
}

/* the walk's one allocation failing: DOMINO_OUT_OF_MEMORY naming the rank, nothing leaked */
static void check_out_of_memory(domino_handle h, spgemm_walk_kind kind)
{
    world W;
    job J;
    memset(&W, 0, sizeof(W));
    memset(&J, 0, sizeof(J));
    W.h = h, W.tr = W.tk = W.tc = 3, W.npes = 1;
    for (int x = 0; x < 9; x++) W.annz[x] = W.bnnz[x] = 1;
    pthread_mutex_init(&W.lock, NULL);
    J.R.W = &W, J.kind = kind;
    int64_t live = domino_debug_alloc_live();
    domino_debug_fail_alloc_after(1);
    run_rank(&J);
    domino_debug_fail_alloc_after(0);
    CHECK(J.R.status == DOMINO_OUT_OF_MEMORY);
    CHECK(strstr(domino_last_error(h), "rank 0: out of memory") != NULL);
    CHECK(domino_debug_alloc_live() == live);
    pthread_mutex_destroy(&W.lock);
}

int main(void)
{
    static const int grids[][3] = {{1, 1, 1}, {2, 3, 4}, {4, 4, 4}, {3, 1, 3}, {5, 2, 3}, {1, 5, 2}};
    domino_handle h = NULL;
    CHECK_OK(h, domino_create(&h));
    for (int g = 0; g < 6; g++)
        for (int npes = 1; npes <= MAXR; npes++)
            for (int empty = 0; empty <= 3; empty += 3)
                for (int kind = SPGEMM_WALK_STATIONARY_C; kind <= SPGEMM_WALK_STEAL_LOCAL; kind++)
                    check_walk((spgemm_walk_kind)kind, grids[g][0], grids[g][1], grids[g][2], npes, empty);
    for (int kind = SPGEMM_WALK_STATIONARY_C; kind <= SPGEMM_WALK_STEAL_LOCAL; kind++)
        check_out_of_memory(h, (spgemm_walk_kind)kind);
    domino_destroy(h);
    return check_summary("test_dist_spgemm_drive");
}
