/* dist_spgemm_drive.c: the one-sided SpGEMM algorithms as a visiting
 * order and a walk over a backend's operations (dist_spgemm_drive.h) */
#include "dist/dist_spgemm_drive.h"
#include "dist/dist_tile_cut.h" /* dist_shuffle, dist_shuffle64 */

/* an item: C tile x = i tc + j made whole, or product x tk + l */
static void item_tile(const spgemm_ops *o, int products, int64_t item, int *i, int *l, int *j)
{
    int64_t x = products ? item / o->tk : item;
    *i = (int)(x / o->tc), *j = (int)(x % o->tc), *l = products ? (int)(item % o->tk) : -1;
}

/* the items of kind on this rank, in visiting order (*count); NULL when out of memory */
static int64_t *visiting_order(const spgemm_ops *o, spgemm_walk_kind kind, uint64_t seed, int64_t *count)
{
    int me = o->rank, tr = o->tr, tk = o->tk, tc = o->tc;
    int64_t k = 0, cap = (int64_t)tr * tc * (kind >= SPGEMM_WALK_STATIONARY_A ? tk : 1);
    int64_t *order = (int64_t *)domino_malloc(((size_t)cap + 1) * sizeof(int64_t));
    int *js = (int *)domino_malloc(((size_t)tc + 1) * sizeof(int));
    *count = 0;
    if (!order || !js) {
        domino_free(order);
        domino_free(js);
        return NULL;
    }
    if (kind == SPGEMM_WALK_STATIONARY_C || kind == SPGEMM_WALK_STEAL)
        for (int j = 0; j < tc; j++)
            for (int i = 0; i < tr; i++)
                if (o->owner_c(o->ctx, i, j) == me) order[k++] = (int64_t)i * tc + j;
    if (kind == SPGEMM_WALK_STEAL) {
        for (int j = 0; j < tc; j++) js[j] = j;
        dist_shuffle(js, tc, seed + (uint64_t)me);
        for (int q = 0; q < tc; q++) {
            int64_t first = k;
            for (int i = 0; i < tr; i++)
                if (o->owner_c(o->ctx, i, js[q]) != me) order[k++] = (int64_t)i * tc + js[q];
            dist_shuffle64(order + first, k - first, seed + 7919ULL * (uint64_t)(q + 1) + (uint64_t)me);
        }
    }
    if (kind == SPGEMM_WALK_STATIONARY_A)
        for (int i = 0; i < tr; i++)
            for (int l = 0; l < tk; l++) {
                if (o->owner_a(o->ctx, i, l) != me) continue;
                for (int st = 0; st < tc; st++) {
                    int j = (i + l + st) % tc;
                    if (o->needed(o->ctx, i, l, j)) order[k++] = ((int64_t)i * tc + j) * tk + l;
                }
            }
    if (kind == SPGEMM_WALK_STEAL_LOCAL) {
        for (int x = 0; x < tr * tc; x++) {
            int i = x / tc, j = x % tc;
            if (o->owner_c(o->ctx, i, j) != me) continue;
            for (int st = 0; st < tk; st++) {
                int l = (i + j + st) % tk;
                if (o->needed(o->ctx, i, l, j)) order[k++] = (int64_t)x * tk + l;
            }
        }
        int64_t first = k;
        for (int x = 0; x < tr * tc; x++) {
            int i = x / tc, j = x % tc;
            if (o->owner_c(o->ctx, i, j) == me) continue;
            for (int l = 0; l < tk; l++)
                if (o->needed(o->ctx, i, l, j) && (o->owner_a(o->ctx, i, l) == me || o->owner_b(o->ctx, l, j) == me))
                    order[k++] = (int64_t)x * tk + l;
        }
        dist_shuffle64(order + first, k - first, seed + (uint64_t)me);
    }
    domino_free(js);
    *count = k;
    return order;
}

/* *item = the next item of the order from *at on that this rank makes
 * (claimed where the walk claims: this rank's when the claim fetched 0),
 * or -1 when none is left */
static domino_status next_item(const spgemm_ops *o, const int64_t *order, int64_t count, int64_t *at, int claims,
                               int products, int64_t *item)
{
    *item = -1;
    while (*at < count) {
        int64_t y = order[(*at)++];
        if (!claims) {
            *item = y;
            return DOMINO_SUCCESS;
        }
        int i, l, j;
        int64_t old = 1;
        item_tile(o, products, y, &i, &l, &j);
        domino_status s = o->claim(o->ctx, products ? SPMM_PRODUCT_SLOT : SPMM_TILE_COUNTER, o->owner_c(o->ctx, i, j),
                                   (size_t)y, &old);
        if (s) return s;
        if (old == 0) {
            *item = y;
            return DOMINO_SUCCESS;
        }
    }
    return DOMINO_SUCCESS;
}

domino_status spgemm_drive(const spgemm_ops *o, spgemm_walk_kind kind, uint64_t seed, int64_t *made,
                           int64_t *stolen)
{
    int64_t count = 0, at = 0, item = -1, next = -1, n_made = 0, n_stolen = 0;
    int claims = kind == SPGEMM_WALK_STEAL || kind == SPGEMM_WALK_STEAL_LOCAL;
    int products = kind == SPGEMM_WALK_STATIONARY_A || kind == SPGEMM_WALK_STEAL_LOCAL, i, l, j;
    int64_t *order = visiting_order(o, kind, seed, &count);
    if (!order)
        return domino_error(o->h, DOMINO_OUT_OF_MEMORY, "SpGEMM: rank %d: out of memory for its visiting order",
                            o->rank);
    domino_status s = next_item(o, order, count, &at, claims, products, &item);
    if (!s && item >= 0 && o->fetch) {
        item_tile(o, products, item, &i, &l, &j);
        s = o->fetch(o->ctx, i, l, j);
    }
    while (!s && item >= 0) {
        item_tile(o, products, item, &i, &l, &j);
        if (o->ready) s = o->ready(o->ctx, i, l, j);
        if (!s) s = next_item(o, order, count, &at, claims, products, &next); /* claimed, and its gets started, */
        if (!s && next >= 0 && o->fetch) {                                     /* before this item is made */
            int ni, nl, nj;
            item_tile(o, products, next, &ni, &nl, &nj);
            s = o->fetch(o->ctx, ni, nl, nj);
        }
        if (!s) s = o->make(o->ctx, i, l, j);
        if (s) break;
        n_made++;
        n_stolen += claims && o->owner_c(o->ctx, i, j) != o->rank;
        item = next;
    }
    domino_free(order);
    if (made) *made = n_made;
    if (stolen) *stolen = n_stolen;
    return s;
}
