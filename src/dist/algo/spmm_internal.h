/* spmm_internal.h: what the SpMM and SpGEMM algorithms over the one-sided
 * layer share (internal to src/dist/algo) */
#ifndef DOMINO_SPMM_INTERNAL_H
#define DOMINO_SPMM_INTERNAL_H

#include "dist/dist_spgemm_drive.h"
#include "dist/dist_spmm_drive.h"
#include "dist/dist_tile_cut.h"
#include "dist/dist_tiles.h"

/* the buffers of one fetched pair of tiles A(i, l), B(l, j) */
typedef struct tile_pair {
    int64_t *ptr;           /* A tile offsets, rows + 1 */
    int32_t *ind;           /* A tile columns (local) */
    void *val;              /* A tile values */
    void *b;                /* B tile, row-major */
    os_request *req[4];     /* gets under way (NULL when none) */
    int64_t nnz, brows;     /* sizes of this pair */
} tile_pair;

/* two pairs of buffers big enough for any tile of A and B, and an
 * accumulator for any tile of C; DOMINO_OUT_OF_MEMORY naming the rank */
domino_status spmm_buffers_new(domino_handle h, const dist_sparse *A, const dist_dense *B,
                               tile_pair *pair, double **acc);
void spmm_buffers_free(tile_pair *pair, double *acc);
/* start the gets of A(i, l) and B(l, j) into P */
domino_status spmm_fetch(domino_handle h, const dist_sparse *A, const dist_dense *B, int i, int l,
                         int j, tile_pair *P);
/* wait for the gets of P */
domino_status spmm_wait(domino_handle h, tile_pair *P);
/* acc (rows x cols, row-major) += A tile * B tile of P */
void spmm_multiply(const tile_pair *P, domino_type t, int64_t rows, int64_t cols, double *acc);
/* the same shapes and types check of every SpMM algorithm */
domino_status spmm_check(domino_handle h, const char *fn, const dist_sparse *A, const dist_dense *B,
                         const dist_dense *C);

/* add the dense partial tile acc (count values, summed in double) into C
 * tile t at its owner; acc is turned into C's type in place first */
domino_status spmm_deliver(domino_handle h, dist_dense *C, int t, double *acc, int64_t count,
                           dist_times *times);

/* The SpMM algorithms are the drivers of dist_spmm_drive.h; this is their
 * MPI backend (spmm_ops_mpi.c): the state of one call. */
typedef struct spmm_mpi {
    domino_handle h;      /* the call's handle */
    const dist_sparse *A; /* the operands */
    const dist_dense *B;
    dist_dense *C;
    os_window *counters; /* the claims' counters (stealing), else NULL */
    tile_pair pair[2];   /* the two pair buffers */
    double *acc;         /* the C tile being summed, or the partial tile */
    dist_times *t;       /* where the times go */
} spmm_mpi;
/* *m and its operations *o for C = A B with these counters; the buffers
 * allocated (DOMINO_OUT_OF_MEMORY naming the rank).  spmm_mpi_end after,
 * failed or not. */
domino_status spmm_mpi_begin(domino_handle h, const dist_sparse *A, const dist_dense *B, dist_dense *C,
                             os_window *counters, dist_times *t, spmm_mpi *m, spmm_ops *o);
void spmm_mpi_end(spmm_mpi *m);

/* The end of every algorithm: the closing barrier, which every rank enters
 * failed or not so no rank hangs in it; t->imbalance is the time in it,
 * t->total the time since start; t copied to times (may be NULL).  Returns
 * s, or the barrier's failure when s is SUCCESS. */
domino_status dist_close(domino_handle h, os_world *w, domino_status s, double start, dist_times *t,
                         dist_times *times);

/* a rank's partial tiles of C for the SpGEMM algorithms that compute away
 * from C's owner (spgemm_partials.c) */
typedef struct spgemm_partials {
    domino_matrix *tile; /* one per C tile, NULL: nothing computed */
    int ntiles;          /* C tiles */
    int64_t *sizes;      /* ranks x ntiles, zeroed: the exchange's directory of partial sizes */
} spgemm_partials;
/* P for the C tiles of A B (nothing computed yet); 0, or -1 when out of
 * memory (P then frees cleanly) */
int spgemm_partials_init(spgemm_partials *P, const dist_sparse *A, const dist_sparse *B);
/* merge Q into tile t (takes Q, freed on failure too) */
domino_status spgemm_partial_add(domino_handle h, spgemm_partials *P, int t, domino_matrix Q);
void spgemm_partials_free(spgemm_partials *P);
/* Collective end of such an algorithm, entered failed (s) or not: the
 * closing barrier (t->imbalance), the exchange of partials, empty tiles for
 * owned tiles nobody computed, and *C made from the owners' tiles.
 * Returns s or the first failure after. */
domino_status spgemm_finish(domino_handle h, const dist_sparse *A, const dist_sparse *B, domino_status s,
                            spgemm_partials *P, dist_sparse **C, dist_times *t);

/* The SpGEMM algorithms are the walks of dist_spgemm_drive.h; this is
 * their MPI backend (spgemm_ops_mpi.c): the state of one call. */
typedef struct spgemm_mpi {
    domino_handle h;      /* the call's handle */
    const dist_sparse *A; /* the operands */
    const dist_sparse *B;
    spgemm_partials *P;   /* this rank's tiles and partials of C */
    os_window *counters;  /* the claims' counters (stealing), else NULL */
    dist_times *t;        /* where the times go */
} spgemm_mpi;
/* the whole call of an algorithm fn: checks, the counters (collective),
 * the walk of kind, the exchange of partials and C (collective) */
domino_status spgemm_mpi_run(domino_handle h, const char *fn, const dist_sparse *A, const dist_sparse *B,
                             spgemm_walk_kind kind, uint64_t seed, dist_sparse **C, dist_times *times);

/* the entry checks of the SpGEMM algorithms: no NULL argument (*C = NULL
 * once C is known), shapes that fit, one type */
domino_status spgemm_check(domino_handle h, const char *fn, const dist_sparse *A, const dist_sparse *B,
                           dist_sparse **C);

#endif
