/* dist_share.h: one PE's share of a distributed triangular solve, built on
 * the host from the whole matrix and a distribution plan (plain C, shared
 * by the unified-memory and the NVSHMEM solvers) */
#ifndef DOMINO_DIST_SHARE_H
#define DOMINO_DIST_SHARE_H

#include "internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where the contributions to a component are counted, which fixes the
 * sources a waiting warp reads (need[src][k] below):
 *   PER_PE:    one count per contributing PE (the zero-copy model: PE q keeps
 *              its own contributions, the owner reads all of them);
 *   ONE:       one count for all (the push model: contributions are written
 *              into the owner's arrays);
 *   LOCAL_FAR: two counts, from the owner's own columns and from the other
 *              PEs' (the unified-memory model: device-local and managed). */
typedef enum dist_count_mode {
    DIST_COUNT_PER_PE = 0,
    DIST_COUNT_ONE = 1,
    DIST_COUNT_LOCAL_FAR = 2,
    DIST_PULL_ROWS = 3 /* no counts: the entries are each component's ROW (the x_j it reads) */
} dist_count_mode;

/* PE pe's share: its components in solve order with the strictly
 * triangular entries of their columns (the contributions they send) */
typedef struct dist_share {
    int pe;          /* this PE */
    int npes;        /* PEs of the plan */
    int32_t n;       /* order of the system */
    int32_t nloc;    /* components of this PE */
    int64_t nnz;     /* strict entries in this PE's columns */
    int32_t *comp;   /* global index of local component k, solve order: increasing
                        for lower, decreasing for upper, or level by level when
                        the plan says level_order, size nloc */
    int64_t *col_ptr; /* column of component k is col_row/col_val[col_ptr[k] .. col_ptr[k+1]), nloc+1
                         (DIST_PULL_ROWS: its row) */
    int32_t *col_row; /* global row of each strict entry (DIST_PULL_ROWS: global column), size nnz */
    double *col_val;  /* its value (double whatever A's type), size nnz */
    double *pivot;    /* diagonal of each component (1 for unit), size nloc */
    int nsrc;         /* sources of counts: npes, 1 or 2 (dist_count_mode); 0 for DIST_PULL_ROWS */
    int32_t *need;    /* need[s * nloc + k]: contributions to component k counted at source s */
    int64_t remote;   /* strict entries whose row belongs to another PE (sent away); DIST_PULL_ROWS:
                         whose column does (read from another PE) */
    uint32_t *readers; /* DIST_PULL_ROWS with the plan's pull_copies: bit q set when a row of
                          PE q != pe reads component k's x, size nloc; else NULL */
} dist_share;

/* Build PE pe's share of the triangle `fill` of square A (CSR or CSC, any
 * type, symmetric storage expanded) under plan, counting by mode.  Checks
 * the diagonal of this PE's components: non-unit with no stored diagonal
 * gives DOMINO_ZERO_DIAGONAL, a zero one DOMINO_ZERO_PIVOT, naming the row. */
domino_status dist_share_make(domino_handle h, const char *what, domino_matrix A, domino_fill fill,
                              domino_diag diag, const domino_dist_plan *plan, int pe,
                              dist_count_mode mode, dist_share **out);
void dist_share_free(dist_share *S);

#ifdef __cplusplus
}
#endif
#endif
