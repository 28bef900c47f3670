/* dist_spmm_drive.c: the one-sided SpMM algorithms over a backend's
 * operations (dist_spmm_drive.h): stationary-C, stationary-A, random and
 * locality-aware work stealing.  Each returns the first failure of an
 * operation and stops there; the backend's closing step then ends the run
 * on every rank. */
#include "dist/dist_spmm_drive.h"
#include "dist/dist_tile_cut.h" /* dist_shuffle */

/* a product (i, l, j) and whether it starts its output */
typedef struct product {
    int i, l, j, first, last; /* last: the last product into its C tile */
} product;

static domino_status out_of_memory(const spmm_ops *o, const char *what)
{
    return domino_error(o->h, DOMINO_OUT_OF_MEMORY, "SpMM %s: rank %d: out of memory for its list of products",
                        what, o->rank);
}

/* products p[0..n) in order, output to this rank's C tiles (to_c) or to
 * the partial tile delivered after each product; the next pair fetched
 * while the current product runs, unless the backend says it must wait */
static domino_status run_list(const spmm_ops *o, const product *p, int64_t n, int to_c)
{
    int q = 0;
    domino_status s = n > 0 ? o->fetch(o->ctx, p[0].i, p[0].l, p[0].j, q) : DOMINO_SUCCESS;
    for (int64_t k = 0; k < n && !s; k++) {
        const product *c = &p[k], *x = k + 1 < n ? &p[k + 1] : NULL;
        int ahead = x && (!o->ahead || o->ahead(o->ctx, x->i, x->l, x->j));
        if (ahead) s = o->fetch(o->ctx, x->i, x->l, x->j, 1 - q);
        if (!s) s = o->multiply(o->ctx, c->i, c->l, c->j, q, to_c, c->first);
        if (!s && !to_c) s = o->deliver(o->ctx, c->i, c->j);
        if (!s && to_c && c->last && o->finish) s = o->finish(o->ctx, c->i, c->j);
        if (!s && x && !ahead) s = o->fetch(o->ctx, x->i, x->l, x->j, 1 - q);
        q = 1 - q;
    }
    return s;
}

domino_status spmm_drive_stationary_c(const spmm_ops *o)
{
    int tiles = o->tr * o->tc, mine = 0;
    int *own = (int *)domino_malloc((size_t)tiles * sizeof(int) + 1);
    if (!own) return out_of_memory(o, "stationary-C");
    for (int x = 0; x < tiles; x++)
        if (o->owner_c(o->ctx, x / o->tc, x % o->tc) == o->rank) own[mine++] = x;
    product *p = (product *)domino_malloc((size_t)mine * o->tk * sizeof(product) + 1);
    if (!p) {
        domino_free(own);
        return out_of_memory(o, "stationary-C");
    }
    int64_t n = 0;
    for (int k = 0; k < mine; k++) { /* from the rank-th tile on: ranks start on different rows of A */
        int x = own[(k + o->rank) % mine], i = x / o->tc, j = x % o->tc;
        for (int st = 0; st < o->tk; st++) p[n++] = (product){i, (i + j + st) % o->tk, j, st == 0, st == o->tk - 1};
    }
    domino_status s = run_list(o, p, n, 1);
    domino_free(own);
    domino_free(p);
    return s;
}

domino_status spmm_drive_stationary_a(const spmm_ops *o)
{
    int64_t n = 0, mine = 0;
    for (int x = 0; x < o->tr * o->tk; x++) /* this rank's nonempty A tiles (an empty one adds nothing) */
        mine += o->owner_a(o->ctx, x / o->tk, x % o->tk) == o->rank && o->nnz_a(o->ctx, x / o->tk, x % o->tk) > 0;
    product *p = (product *)domino_malloc((size_t)mine * o->tc * sizeof(product) + 1);
    if (!p) return out_of_memory(o, "stationary-A");
    for (int x = 0; x < o->tr * o->tk; x++) {
        int i = x / o->tk, l = x % o->tk;
        if (o->owner_a(o->ctx, i, l) != o->rank || o->nnz_a(o->ctx, i, l) == 0) continue;
        for (int st = 0; st < o->tc; st++) p[n++] = (product){i, l, (i + l + st) % o->tc, 1, 1};
    }
    domino_status s = run_list(o, p, n, 0);
    domino_free(p);
    return s;
}

/* the products of C tile x this rank claims on its tile counter (at most
 * tk + 1 claims: the counter only grows), summed and delivered once */
static domino_status drain_tile(const spmm_ops *o, int x, int64_t *stolen)
{
    int i = x / o->tc, j = x % o->tc, owner = o->owner_c(o->ctx, i, j), any = 0;
    domino_status s = DOMINO_SUCCESS;
    for (int tries = 0; tries <= o->tk && !s; tries++) {
        int64_t got = o->tk;
        if ((s = o->claim(o->ctx, SPMM_TILE_COUNTER, owner, (size_t)x, &got)) || got >= o->tk) break;
        int l = (int)((i + j + got) % o->tk);
        if (owner != o->rank) (*stolen)++;
        s = o->fetch(o->ctx, i, l, j, 0);
        if (!s) s = o->multiply(o->ctx, i, l, j, 0, 0, !any);
        any = 1;
    }
    return !s && any ? o->deliver(o->ctx, i, j) : s;
}

domino_status spmm_drive_steal(const spmm_ops *o, uint64_t seed, int64_t *stolen)
{
    int tiles = o->tr * o->tc, k = 0;
    int *order = (int *)domino_malloc((size_t)tiles * sizeof(int) + 1);
    *stolen = 0;
    if (!order) return out_of_memory(o, "random stealing");
    for (int x = 0; x < tiles; x++)
        if (o->owner_c(o->ctx, x / o->tc, x % o->tc) == o->rank) order[k++] = x;
    int mine = k;
    for (int x = 0; x < tiles; x++)
        if (o->owner_c(o->ctx, x / o->tc, x % o->tc) != o->rank) order[k++] = x;
    dist_shuffle(order + mine, tiles - mine, seed + (uint64_t)o->rank);
    domino_status s = DOMINO_SUCCESS;
    for (int z = 0; z < tiles && !s; z++) s = drain_tile(o, order[z], stolen);
    domino_free(order);
    return s;
}

domino_status spmm_drive_steal_local(const spmm_ops *o, uint64_t seed, int64_t *stolen)
{
    int tiles = o->tr * o->tc, T = o->tk, ncand = 0;
    int *cand = (int *)domino_malloc((size_t)tiles * T * sizeof(int) + 1);
    *stolen = 0;
    if (!cand) return out_of_memory(o, "locality-aware stealing");
    domino_status s = DOMINO_SUCCESS;
    for (int x = 0; x < tiles && !s; x++) {
        int i = x / o->tc, j = x % o->tc, any = 0;
        if (o->owner_c(o->ctx, i, j) != o->rank) { /* what this rank may steal: products reading its tiles */
            for (int st = 0; st < T; st++) {
                int l = (i + j + st) % T;
                if (o->owner_a(o->ctx, i, l) == o->rank || o->owner_b(o->ctx, l, j) == o->rank)
                    cand[ncand++] = x * T + st;
            }
            continue;
        }
        for (int st = 0; st < T && !s; st++) { /* this rank's own products, each claimed on its slot */
            int64_t old = 1;
            int l = (i + j + st) % T;
            if ((s = o->claim(o->ctx, SPMM_PRODUCT_SLOT, o->rank, (size_t)x * T + st, &old)) || old) continue;
            s = o->fetch(o->ctx, i, l, j, 0);
            if (!s) s = o->multiply(o->ctx, i, l, j, 0, 0, !any);
            any = 1;
        }
        if (!s && any) s = o->deliver(o->ctx, i, j);
    }
    if (!s) dist_shuffle(cand, ncand, seed + (uint64_t)o->rank);
    for (int c = 0; c < ncand && !s; c++) {
        int x = cand[c] / T, st = cand[c] % T, i = x / o->tc, j = x % o->tc, l = (i + j + st) % T;
        int64_t old = 1;
        if ((s = o->claim(o->ctx, SPMM_PRODUCT_SLOT, o->owner_c(o->ctx, i, j), (size_t)cand[c], &old)) || old) continue;
        (*stolen)++;
        s = o->fetch(o->ctx, i, l, j, 0);
        if (!s) s = o->multiply(o->ctx, i, l, j, 0, 0, 1);
        if (!s) s = o->deliver(o->ctx, i, j);
    }
    domino_free(cand);
    return s;
}
