/* spmm_internal.h: what the SpMM algorithms over the one-sided layer share
 * (internal to src/dist/algo) */
#ifndef DOMINO_SPMM_INTERNAL_H
#define DOMINO_SPMM_INTERNAL_H

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

#endif
