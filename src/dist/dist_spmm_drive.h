/* dist_spmm_drive.h: the one-sided SpMM algorithms (Brock, Buluc, Yelick,
 * "RDMA-Based Algorithms for Sparse Matrix Multiplication on GPUs", ICS
 * 2024), written once (internal).  A driver decides which products
 * A(i, l) B(l, j) this rank computes, in what order, which it claims, and
 * where each result goes; the backend does the fetching, the multiplying,
 * the delivering and the claiming through the operations below: the MPI-3
 * one-sided layer with the CPU products (src/dist/algo, library
 * domino_mpi), and NVSHMEM on CUDA streams with the GPU products
 * (src/dist/nvshmem).  The drivers are plain C with no communication of
 * their own: the closing barrier and the timings stay with the backend. */
#ifndef DOMINO_DIST_SPMM_DRIVE_H
#define DOMINO_DIST_SPMM_DRIVE_H

#include "internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* the reservation counters a claim may name */
typedef enum spmm_counter {
    SPMM_TILE_COUNTER = 0, /* one per C tile i tc + j: its next product (random stealing) */
    SPMM_PRODUCT_SLOT = 1  /* one per product (i tc + j) tk + st (locality-aware stealing) */
} spmm_counter;

/* What a backend gives the drivers.  C has tr x tc tiles, A tr x tk and B
 * tk x tc.  Two pair buffers (q = 0, 1) hold the fetched tiles; one
 * partial tile holds a product made away from C's tile. */
typedef struct spmm_ops {
    domino_handle h; /* for the drivers' own errors (out of memory) */
    void *ctx;      /* the backend's state, passed to every operation */
    int tr, tk, tc; /* tile grid */
    int rank;       /* this rank (PE) */
    int (*owner_a)(void *ctx, int i, int l); /* the ranks that hold tiles */
    int (*owner_b)(void *ctx, int l, int j);
    int (*owner_c)(void *ctx, int i, int j);
    int64_t (*nnz_a)(void *ctx, int i, int l); /* entries of A(i, l) */
    /* start the gets of A(i, l) and B(l, j) into pair buffer q (after the
     * product that last read buffer q) */
    domino_status (*fetch)(void *ctx, int i, int l, int j, int q);
    /* 1 if the fetch of (i, l, j) may start before the product now under
     * way (NULL: always) */
    int (*ahead)(void *ctx, int i, int l, int j);
    /* out += A(i, l) B(l, j) from pair buffer q once its gets are done, or
     * out = it when first; out is this rank's C tile (i, j) when to_c, else
     * the partial tile */
    domino_status (*multiply)(void *ctx, int i, int l, int j, int q, int to_c, int first);
    /* after the last product into this rank's C tile (i, j) (NULL: nothing
     * to do; a backend that sums elsewhere stores the sum here) */
    domino_status (*finish)(void *ctx, int i, int j);
    /* add the partial tile into C(i, j) at its owner (atomically: others
     * may add into it too) */
    domino_status (*deliver)(void *ctx, int i, int j);
    /* *old = counter k of kind at rank o, then the counter += 1 */
    domino_status (*claim)(void *ctx, spmm_counter kind, int o, size_t k, int64_t *old);
} spmm_ops;

/* stationary-C: this rank's C tiles, each summed over l from i + j on into
 * the tile itself, the next pair fetched while the current product runs;
 * the tiles taken from the rank-th on, so that ranks start on different
 * rows of A.  C needs no zeros. */
domino_status spmm_drive_stationary_c(const spmm_ops *o);
/* stationary-A: for each nonempty A tile (i, l) of this rank, the partial
 * products A(i, l) B(l, j) from j = i + l on, each delivered to C(i, j)'s
 * owner; the next pair fetched ahead.  C must hold zeros. */
domino_status spmm_drive_stationary_a(const spmm_ops *o);
/* random work stealing: the products of a C tile claimed one by one on its
 * tile counter, summed in the partial tile and delivered once per tile;
 * this rank's tiles first, then the others' in a random order (seed + rank).
 * *stolen = the products taken from others' tiles.  C must hold zeros and
 * the counters start at 0. */
domino_status spmm_drive_steal(const spmm_ops *o, uint64_t seed, int64_t *stolen);
/* locality-aware work stealing: every product of this rank's C tiles,
 * each claimed on its slot, then in a random order the products of others'
 * tiles that read an A or B tile of this rank.  Zeros as above. */
domino_status spmm_drive_steal_local(const spmm_ops *o, uint64_t seed, int64_t *stolen);

#ifdef __cplusplus
}
#endif
#endif
