/* dist_tiles.h: matrices cut into a grid of tiles spread over the ranks of
 * a one-sided run, and the algorithms on them (internal; written against
 * onesided.h, so they run on every backend of it).
 *
 * A matrix of m x n is cut at row boundaries rb[0..tr] and column
 * boundaries cb[0..tc] (as even as possible, tiles may be empty); tile
 * (i, j) lives on rank owner[i * tc + j] = (i * tc + j) mod size.  Every
 * rank holds the directory (sizes and where each tile starts in its owner's
 * windows) and reads other ranks' tiles with one-sided gets. */
#ifndef DOMINO_DIST_TILES_H
#define DOMINO_DIST_TILES_H

#include "dist/onesided.h"

#ifdef __cplusplus
extern "C" {
#endif

/* a sparse matrix in CSR tiles: row offsets (int64, local to the tile),
 * column indices (int32, local to the tile), values */
typedef struct dist_sparse {
    os_world *w;          /* the run */
    domino_type type;     /* value type */
    int64_t m, n;         /* global size */
    int tr, tc;           /* tile grid */
    int64_t *rb, *cb;     /* tile boundaries, tr+1 and tc+1 */
    int64_t *nnz;         /* entries of each tile, tr*tc */
    int64_t *at_ptr;      /* where each tile's offsets start in its owner's ptr window (int64 units) */
    int64_t *at_ent;      /* where each tile's entries start in its owner's ind / val windows */
    os_window *wptr, *wind, *wval; /* this rank's tiles, back to back */
} dist_sparse;

/* a dense matrix in ROW-major tiles */
typedef struct dist_dense {
    os_world *w;          /* the run */
    domino_type type;     /* value type */
    int64_t m, n;         /* global size */
    int tr, tc;           /* tile grid */
    int64_t *rb, *cb;     /* tile boundaries */
    int64_t *at;          /* where each tile starts in its owner's window (values) */
    os_window *wval;      /* this rank's tiles, back to back */
    void *local;          /* this rank's part of wval */
} dist_dense;

/* owner of tile (i, j) of a tr x tc grid */
static inline int dist_tile_owner(const os_world *w, int tc, int i, int j)
{
    return (int)(((int64_t)i * tc + j) % os_size(w));
}

/* Collective: every rank passes the same global CSR A (this is how tests
 * and benchmarks start) and keeps its own tiles of a tr x tc grid. */
domino_status dist_sparse_from_global(domino_handle h, os_world *w, domino_matrix A, int tr, int tc,
                                      dist_sparse **D);
/* Collective: a tiled m x n matrix from the tiles this rank owns, CSR with
 * sorted rows of the tile's size and column indices local to the tile
 * (tiles[t] for t = i * tc + j; NULL or ignored for tiles of other ranks;
 * not taken over: the caller frees them).  tiles NULL: this rank failed
 * before; it takes part and the call fails on every rank. */
domino_status dist_sparse_from_tiles(domino_handle h, os_world *w, domino_type type, int64_t m,
                                     int64_t n, int tr, int tc, domino_matrix *tiles,
                                     dist_sparse **D);
/* tile (i, j) of D, from whichever rank holds it, as a new CSR matrix */
domino_status dist_sparse_get_tile(domino_handle h, const dist_sparse *D, int i, int j,
                                   domino_matrix *T);
/* the whole matrix, every rank (CSR, global column indices) */
domino_status dist_sparse_gather(domino_handle h, const dist_sparse *D, domino_matrix *M);
/* Collective: the same for a dense m x n row-major X (leading dimension ld),
 * or zeros when X is NULL. */
domino_status dist_dense_from_global(domino_handle h, os_world *w, domino_type type, int64_t m,
                                     int64_t n, const void *X, int64_t ld, int tr, int tc,
                                     dist_dense **D);
/* every rank gets the whole matrix into X (m x n row-major, ld >= n) */
domino_status dist_dense_gather(domino_handle h, const dist_dense *D, void *X, int64_t ld);
/* collective: this rank's tiles of D set to zero and published */
domino_status dist_dense_zero(domino_handle h, dist_dense *D);
void dist_sparse_free(domino_handle h, dist_sparse *D); /* collective */
void dist_dense_free(domino_handle h, dist_dense *D);   /* collective */

/* what one rank spent its time on in a distributed product (seconds) */
typedef struct dist_times {
    double compute;       /* local products */
    double communication; /* waiting for gets */
    double total;         /* the whole call, up to the closing barrier */
    double imbalance;     /* time in the closing barrier: waiting for slower ranks */
    int64_t stolen;       /* work done for other ranks' C tiles (stealing): SpMM products, SpGEMM
                             whole tiles (random stealing) or products (locality-aware) */
} dist_times;

/* Stationary-C SpMM (Brock, Bulu\\c{c}, Yelick, ICS 2024): C = A B, C's
 * tile grid A.tr x B.tc, A.tc = B.tr with equal boundaries; the owner of
 * C(i, j) sums A(i, l) B(l, j) over l from l = i + j on (mod A.tc), the
 * next pair of tiles fetched while the current product runs.  Collective.
 * times may be NULL. */
domino_status dist_spmm_stationary_c(domino_handle h, const dist_sparse *A, const dist_dense *B,
                                     dist_dense *C, dist_times *times);

/* The same with random work stealing: the products of each C tile are
 * claimed one by one with a fetch-and-add on a counter the tile's owner
 * keeps; owners drain their own tiles, then every rank drains the others'
 * tiles in a random order (seed, per rank) and adds its partial tiles into
 * the owners' C with accumulate.  C must hold zeros on entry.  The sums'
 * order depends on the run (equal to rounding). */
domino_status dist_spmm_stationary_c_steal(domino_handle h, const dist_sparse *A,
                                           const dist_dense *B, dist_dense *C, uint64_t seed,
                                           dist_times *times);

/* Stationary-C SpMM with locality-aware work stealing: one reservation slot per
 * product A(i, l) B(l, j) (a 3D grid kept by C(i, j)'s owner); owners
 * claim their own products first, then a rank claims only products of
 * other ranks' tiles that read an A or B tile it owns.  C must hold zeros. */
domino_status dist_spmm_stationary_c_steal_local(domino_handle h, const dist_sparse *A,
                                                 const dist_dense *B, dist_dense *C, uint64_t seed,
                                                 dist_times *times);

/* Stationary-A SpMM: the owner of A(i, l) computes A(i, l) B(l, j) for
 * every j (from j = i + l on) and adds it into C(i, j) at C's owner with
 * an atomic accumulate (the paper's remote queue and owner-side
 * accumulation in one step).  C must hold zeros.  Collective. */
domino_status dist_spmm_stationary_a(domino_handle h, const dist_sparse *A, const dist_dense *B,
                                     dist_dense *C, dist_times *times);

/* Z = X + Y for CSR X, Y of one shape with sorted rows: sorted rows, both
 * patterns kept (a sum that is zero stays an entry) */
domino_status dist_csr_add(domino_handle h, domino_matrix X, domino_matrix Y, domino_matrix *Z);

/* Stationary-C SpGEMM: C = A B, all tiled sparse (A.tc = B.tr with equal
 * boundaries); the owner of C(i, j) sums the local products A(i, l) B(l, j)
 * (domino_ref_spgemm) from l = i + j on, merging them into one sorted tile
 * (entries that cancel kept, as domino_ref_spgemm does); *C is a new tiled
 * matrix (A.tr x B.tc tiles).  Collective.  times may be NULL. */
domino_status dist_spgemm_stationary_c(domino_handle h, const dist_sparse *A, const dist_sparse *B,
                                       dist_sparse **C, dist_times *times);

/* Stationary-C SpGEMM with random work stealing: each C tile claimed on a
 * reservation counter kept by its owner, the first claimer makes it whole
 * (own tiles first, then the others column block by column block in a
 * random order); a thief keeps the tiles it made and exposes them after
 * the compute phase, and every owner fetches the ones of its tiles.  Same result as
 * dist_spgemm_stationary_c (pattern; values to rounding).  Collective. */
domino_status dist_spgemm_stationary_c_steal(domino_handle h, const dist_sparse *A,
                                             const dist_sparse *B, uint64_t seed, dist_sparse **C,
                                             dist_times *times);


/* Stationary-A SpGEMM: the owner of A(i, l) computes A(i, l) B(l, j) for
 * every j (from j = i + l on), fetching B(l, j); the products are merged
 * into partial tiles, which reach C's owners in an exchange after the
 * compute phase.  Same result as dist_spgemm_stationary_c.  Collective. */
domino_status dist_spgemm_stationary_a(domino_handle h, const dist_sparse *A, const dist_sparse *B,
                                       dist_sparse **C, dist_times *times);

/* Stationary-C SpGEMM with locality-aware work stealing: one reservation
 * slot per product kept by C's owner; owners claim their own products
 * first, then a rank claims only products of other ranks' tiles that read
 * an A or B tile it owns; partials reach the owners as above.  Collective. */
domino_status dist_spgemm_stationary_c_steal_local(domino_handle h, const dist_sparse *A,
                                                   const dist_sparse *B, uint64_t seed, dist_sparse **C,
                                                   dist_times *times);

/* ------------------------------------------------ bulk-synchronous SUMMA
 * The baseline of the one-sided algorithms: C = A B on a pr x pc process
 * grid (pr pc = ranks; 1 x N, 2 x N/2 and square grids alike).  The inner
 * dimension is cut into K = lcm(pr, pc) blocks; rank (r, c) = r pc + c
 * holds A(r, l) for the blocks l with l mod pc = c, B(l, c) for l mod pr =
 * r, and C(r, c).  Step l: A(r, l) is broadcast along grid row r, B(l, c)
 * along grid column c (os_bcast in row and column groups), and every rank
 * adds A(r, l) B(l, c) into its C tile.  Everyone moves in lock-step. */
typedef struct dist_summa {
    os_world *w;          /* the run */
    domino_type type;     /* value type */
    int64_t m, k, n;      /* A is m x k, B k x n (row-major), C m x n */
    int pr, pc, K;        /* grid, inner blocks */
    int myr, myc;         /* this rank's grid row and column */
    int64_t *rb, *kb, *cb; /* boundaries of C's rows (pr+1), the inner blocks (K+1), C's columns (pc+1) */
    int64_t *a_nnz;       /* entries of A(r, l), pr x K (every rank knows every size) */
    domino_matrix *a;     /* A(myr, l) for the l this rank holds, else NULL; K entries */
    void **b;             /* B(l, myc) row-major for the l this rank holds, else NULL; K entries */
    double *c;            /* C(myr, myc) row-major, summed in double */
    os_group *row, *col;  /* this rank's grid row and column */
} dist_summa;

/* Collective: every rank passes the same global CSR A (m x k) and row-major
 * B (k x n, leading dimension ldb) and keeps its tiles; pr pc must equal
 * the number of ranks (else DOMINO_INVALID_VALUE on every rank). */
domino_status dist_summa_make(domino_handle h, os_world *w, domino_matrix A, const void *B, int64_t n,
                              int64_t ldb, int pr, int pc, dist_summa **S);
/* Collective: C = A B, bulk-synchronous; times may be NULL */
domino_status dist_spmm_summa(domino_handle h, dist_summa *S, dist_times *times);
/* Collective: every rank gets all of C (m x n row-major, ldc >= n, S's type) */
domino_status dist_summa_gather(domino_handle h, dist_summa *S, void *C, int64_t ldc);
void dist_summa_free(dist_summa *S);

#ifdef __cplusplus
}
#endif
#endif
