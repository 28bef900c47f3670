/* dist_spgemm_drive.h: the one-sided SpGEMM algorithms (Brock, Buluc,
 * Yelick, ICS 2024), written once (internal), like the SpMM drivers of
 * dist_spmm_drive.h.  An algorithm is a visiting order of items, each a
 * whole C tile C(i, j) = sum over l of A(i, l) B(l, j), or one product
 * A(i, l) B(l, j) kept as a partial of C(i, j), and a walk over them that
 * claims each item where the algorithm steals, starts the gets of the next
 * item while the current one is multiplied, and hands every item to the
 * backend.  The backend (MPI with the CPU products in src/dist/algo,
 * NVSHMEM with cuSPARSE in src/dist/nvshmem) does the gets, the products,
 * the keeping of tiles and partials, and the closing exchange. */
#ifndef DOMINO_DIST_SPGEMM_DRIVE_H
#define DOMINO_DIST_SPGEMM_DRIVE_H

#include "dist/dist_spmm_drive.h" /* spmm_counter */

#ifdef __cplusplus
extern "C" {
#endif

typedef enum spgemm_walk_kind {
    SPGEMM_WALK_STATIONARY_C = 0, /* this rank's C tiles, whole, by column block (B's block read once for them) */
    SPGEMM_WALK_STEAL = 1,        /* then the others' tiles, each claimed on its tile counter, column blocks
                                     in a random order, each block's tiles shuffled */
    SPGEMM_WALK_STATIONARY_A = 2, /* for each A(i, l) of this rank, the products with B(l, j) from j = i + l on */
    SPGEMM_WALK_STEAL_LOCAL = 3   /* the products of this rank's C tiles from l = i + j on, then in a random
                                     order the others' products that read an A or B tile of this rank; each
                                     claimed on its product slot */
} spgemm_walk_kind;

/* What a backend gives the walk.  C has tr x tc tiles, A tr x tk, B
 * tk x tc.  An item's l is -1 for a whole C tile. */
typedef struct spgemm_ops {
    domino_handle h; /* for the walk's own errors (out of memory) */
    void *ctx;       /* the backend's state, passed to every operation */
    int tr, tk, tc;  /* tile grid */
    int rank;        /* this rank (PE) */
    int (*owner_a)(void *ctx, int i, int l); /* the ranks that hold tiles */
    int (*owner_b)(void *ctx, int l, int j);
    int (*owner_c)(void *ctx, int i, int j);
    /* 1 if A(i, l) and B(l, j) both have entries (a product worth making) */
    int (*needed)(void *ctx, int i, int l, int j);
    /* start the gets of what item (i, l, j) reads (NULL: none ahead) */
    domino_status (*fetch)(void *ctx, int i, int l, int j);
    /* the item fetched last is about to be made: wait for its gets and
     * make its operands (before the next item's gets start; NULL: nothing) */
    domino_status (*ready)(void *ctx, int i, int l, int j);
    /* make the item: a whole tile is a result of C(i, j) made by this rank
     * (its owner's, or a thief's), a product a partial of C(i, j) */
    domino_status (*make)(void *ctx, int i, int l, int j);
    /* *old = counter k of kind at rank o, then the counter += 1 (tile
     * counters: k = i tc + j; product slots: k = (i tc + j) tk + l) */
    domino_status (*claim)(void *ctx, spmm_counter kind, int o, size_t k, int64_t *old);
} spgemm_ops;

/* the walk of kind on this rank (seed: the random orders, with the rank
 * added); *made = the items this rank made, *stolen = those of others' C
 * tiles it claimed (either may be NULL).  The counters start at 0. */
domino_status spgemm_drive(const spgemm_ops *o, spgemm_walk_kind kind, uint64_t seed, int64_t *made,
                           int64_t *stolen);

#ifdef __cplusplus
}
#endif
#endif
