/* dist_spgemm_internal.h: the distributed SpGEMM on NVSHMEM, shared by its
 * files (internal): the plan, and what the run, the accumulation of
 * partial products and the gather take from each other. */
#ifndef DOMINO_DIST_SPGEMM_INTERNAL_H
#define DOMINO_DIST_SPGEMM_INTERNAL_H

#include "cuda/gpu_internal.h"

#define WHAT "domino_dspgemm"
#define DSPGEMM_PRODUCT_TILES 64 /* at most this many tiles per dimension for the algorithms
                                    that make partial products (t^3 slots and flop counts) */

/* one sparse operand cut into the tile grid */
typedef struct spgemm_operand {
    int64_t *nnz;           /* entries of tile (r, c), t x t */
    int64_t *at_ptr;        /* where tile (r, c)'s offsets start in its owner's w_ptr (int32 units) */
    int64_t *at_ent;        /* where its entries start in its owner's w_ind and w_val */
    int32_t *w_ptr, *w_ind; /* symmetric windows: this PE's tiles */
    void *w_val;
} spgemm_operand;

/* a partial product A(i, l) B(l, j) of C tile x = i t + j */
typedef struct dspgemm_partial {
    int x;            /* the C tile */
    domino_dmatrix c; /* rows of row block i x columns of column block j, 64-bit offsets */
} dspgemm_partial;

/* a distributed SpGEMM ready to run */
struct domino_dspgemm_s {
    domino_dist D;            /* the run */
    int rank, npes;           /* this PE, PEs */
    domino_type type;         /* value type */
    int64_t m, k, n;          /* A m x k, B k x n, C m x n */
    int t;                    /* tiles per dimension */
    int64_t *rb, *kb, *cb;    /* boundaries of rows, inner dimension, columns */
    spgemm_operand a, b;      /* A cut at rb x kb, B at kb x cb */
    double *flops;            /* t x t: 2 x the multiply-adds of C(i, j) */
    double *flops3;           /* t x t x t: those of A(i, l) B(l, j), at (i t + j) t + l (NULL when
                                 t > DSPGEMM_PRODUCT_TILES) */
    int64_t a_stride;         /* largest row block + 1: tile l's offsets start at l a_stride in ra_ptr */
    int64_t *a_off;           /* t x t: where A(i, l)'s entries start in row block i's */
    int64_t *b_off;           /* t x t: where B(l, j)'s entries start in column block j's, at j t + l */
    int64_t a_most, b_most;   /* entries of the largest row block of A, column block of B */
    int32_t *ra_ptr[2], *ra_ind[2]; /* symmetric: two fetched row blocks of A (or tiles of A, at 0) */
    void *ra_val[2];
    int32_t *rb_ptr[2], *rb_ind[2]; /* symmetric: two fetched column blocks of B, tile l's
                                       offsets at kb[l] + l, entries one tile after another
                                       (or tiles of B, at 0) */
    void *rb_val[2];
    int64_t a_in[2], b_in[2]; /* what each buffer holds (-1: nothing; a key < t: a block;
                                 t + r t + c: tile (r, c)) */
    int64_t *m_ptr;           /* device: a row block of A merged (or a tile's offsets widened), a_stride */
    int32_t *m_ind;           /* and its a_most entries */
    void *m_val;
    int64_t *s_ptr;           /* device: a column block of B stacked (or a tile's offsets), k + 1 */
    int64_t *d_aoff, *d_boff, *d_kb; /* device copies of a_off, b_off, kb */
    long long *w_claim;       /* symmetric: a counter per C tile (random stealing), t x t, then
                                 a slot per product (locality-aware) at t^2 + (i t + j) t + l */
    long long *claimed;       /* device: what the last claim fetched */
    domino_dmatrix *c;        /* t x t: the C tiles this PE made (NULL: made elsewhere or not yet) */
    dspgemm_partial *parts;   /* the partial products made here, not yet summed into C (c NULL:
                                 summed and freed) */
    int nparts, cap_parts;    /* kept and allocated */
    cudaStream_t fetch;       /* the gets */
    cudaStream_t compute;     /* merges and products (the handle's stream) */
    cudaEvent_t got_a[2], got_b[2]; /* a buffer's gets have landed */
};

static inline int dspgemm_owner(const struct domino_dspgemm_s *P, int i, int j)
{
    return (int)(((int64_t)i * P->t + j) % P->npes);
}

/* symmetric windows holding CSR matrices of this PE for the others to read
 * (dist_spgemm_windows.cu) */
typedef struct dspgemm_windows {
    int64_t *ptr;   /* offsets of the matrices, one after another */
    int32_t *ind;   /* their column indices */
    void *val;      /* their values */
    int64_t *dir;   /* the caller's directory of what lies where */
} dspgemm_windows;
/* where each of mats[0..count) goes: at[2 q] its offsets, at[2 q + 1] its
 * entries (-1 for a NULL matrix); *offs, *ents the totals */
void dspgemm_windows_layout(const domino_dmatrix *mats, int count, int64_t *at, int64_t *offs, int64_t *ents);
/* Collective: windows sized by the largest PE's offs, ents and dir_words,
 * then dir (dir_words host words) and the matrices copied in at `at`; the
 * copies have landed when it returns.  s: the caller's status so far
 * (agreed on first); returns the agreed status */
domino_status dspgemm_windows_expose(domino_handle h, struct domino_dspgemm_s *P, domino_status s,
                                     const domino_dmatrix *mats, int count, const int64_t *at, int64_t offs,
                                     int64_t ents, const int64_t *dir, int64_t dir_words, const char *what,
                                     dspgemm_windows *W);
/* Collective: the windows freed once every PE agrees that nobody reads them;
 * returns the agreed s */
domino_status dspgemm_windows_free(domino_handle h, struct domino_dspgemm_s *P, dspgemm_windows *W, domino_status s);

/* keep partial product c of C tile x (dist_spgemm_accumulate.cu) */
domino_status dspgemm_keep_partial(domino_handle h, struct domino_dspgemm_s *P, int x, domino_dmatrix c);
void dspgemm_drop_partials(struct domino_dspgemm_s *P);
/* C's tiles made here freed (dist_spgemm_plan.cu) */
void dspgemm_drop_c(struct domino_dspgemm_s *P);
/* Collective: every PE's partials exposed, and each C tile's owner sums its
 * tile's partials into P->c (the partials are dropped) */
domino_status dspgemm_accumulate(domino_handle h, struct domino_dspgemm_s *P);

#endif
