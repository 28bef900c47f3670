/* dist_spmm_internal.h: the one-sided SpMM on NVSHMEM, shared by its files
 * (internal): the plan, and what the algorithms by tiles
 * (dist_spmm_nvshmem.cu) and by row blocks (dist_spmm_rows.cu) take from
 * each other. */
#ifndef DOMINO_DIST_SPMM_INTERNAL_H
#define DOMINO_DIST_SPMM_INTERNAL_H

#include "cuda/gpu_internal.h"
#include "dist/dist_spmm_drive.h"

#define WHAT "domino_dspmm"
#define DSPMM_TIMED 4096 /* products per PE and run whose compute time is measured */

/* a distributed SpMM ready to run */
struct domino_dspmm_s {
    domino_dist D;            /* the run */
    int rank, npes;           /* this PE, PEs */
    domino_type type;         /* value type */
    int64_t m, k, n;          /* A m x k, B k x n, C m x n */
    int t;                    /* tiles per dimension */
    int64_t most[4];          /* the largest A tile's rows + 1 and entries, B tile's and C tile's values */
    int64_t *rb, *kb, *cb;    /* boundaries of rows, inner dimension, columns */
    int64_t *nnz;             /* entries of A(i, l), t x t */
    int64_t *at_ptr, *at_ent; /* where A(i, l) starts in its owner's ptr (int32 units) and ind/val windows */
    int64_t *at_b, *at_c;     /* where B(l, j) and C(i, j) start in their owners' windows (values) */
    int32_t *w_ptr, *w_ind;   /* symmetric windows: this PE's A tiles */
    void *w_val, *w_b, *w_c;  /* and its B and C tiles */
    long long *w_claim;       /* symmetric: one counter per C tile (random stealing), t x t,
                                 then one slot per product (locality-aware), t x t x t */
    int32_t *r_ptr[2], *r_ind[2]; /* symmetric receive buffers of two pairs */
    void *r_val[2], *r_b[2];
    void *part;               /* device partial tile (stealing, stationary-A); the receive pairs, part
                                 and claimed are made by the first run that needs them */
    long long *claimed;       /* device: the value the last claim fetched */
    void *work;               /* cusparseSpMM workspace */
    size_t work_bytes;
    cudaStream_t fetch;       /* the gets */
    cudaStream_t compute;     /* the products (the handle's stream) */
    cusparseHandle_t sparse;  /* the handle's */
    cudaEvent_t got[2], used[2]; /* pair fetched, pair consumed */
    cudaEvent_t *mark;        /* 2 per timed product: before and after its SpMM, DSPMM_TIMED of them */
    int marked;               /* products marked in this run */
    cudaEvent_t *fmark;       /* 2 per timed fetch (its first get, its completion), DSPMM_TIMED of them */
    int fetched;              /* fetches marked in this run */
    /* stationary-C by row blocks */
    int64_t *rnnz;            /* entries of row block i of A, t */
    int64_t *at_rptr, *at_rent; /* where row block i starts in its owner's row-block windows (offsets, entries) */
    int32_t *w_rptr, *w_rind; /* symmetric windows: this PE's row blocks of A (offsets from 0, global columns) */
    void *w_rval;
    int64_t rows_stride;      /* the largest row block's rows + 1 */
    int64_t rows_nnz;         /* entries of the largest row block (< 2^31: one cuSPARSE product) */
    int32_t *ra_ptr[2], *ra_ind[2]; /* symmetric: two fetched row blocks (these buffers are made by the
                                 first run by row blocks) */
    void *ra_val[2];
    void *stack;              /* symmetric: a column block of B stacked (NULL: every one is in place) */
    cudaEvent_t stack_used;   /* the last product that read stack */
};

/* the PE of tile (i, j) */
static inline int owner(const struct domino_dspmm_s *P, int i, int j)
{
    return (int)(((int64_t)i * P->t + j) % P->npes);
}

/* 1 if PE pe holds the whole column block j of B, B(0, j) .. B(t-1, j) one
 * after the other in its window (a stacked block in place) */
static inline int column_in_place(const struct domino_dspmm_s *P, int j, int pe)
{
    int T = P->t;
    int64_t cols = P->cb[j + 1] - P->cb[j];
    for (int l = 0; l < T; l++) {
        if (owner(P, l, j) != pe) return 0;
        if (l > 0 && P->at_b[l * T + j] != P->at_b[(l - 1) * T + j] + (P->kb[l] - P->kb[l - 1]) * cols) return 0;
    }
    return 1;
}

/* out (rows x cols, row-major, on the compute stream) = beta out + the CSR
 * (rows x kr, nnz, int32 offsets) times b (kr x cols, row-major), with
 * cuSPARSE or the chunk kernel (domino_spmm_local_chunks: row_blocks = 1
 * for the row-block algorithm's products); the first DSPMM_TIMED products
 * of a run are timed */
domino_status dspmm_spmm_call(domino_handle h, struct domino_dspmm_s *P, int64_t rows, int64_t kr, int64_t cols,
                              int64_t nnz, const int32_t *ptr, const int32_t *ind, const void *val, const void *b,
                              void *out, int beta, int row_blocks);

/* the state the drivers' operations (dist_spmm_drive.h) get on NVSHMEM */
typedef struct dspmm_ctx {
    domino_handle h;          /* the run's handle */
    struct domino_dspmm_s *P; /* the plan */
} dspmm_ctx;

/* dist_spmm_rows.cu: stationary-C by row blocks */
/* the operations of stationary-C by row blocks (spmm_drive_stationary_c
 * over t x 1 x t tiles: one product per C tile) */
spmm_ops dspmm_rows_ops(dspmm_ctx *c);
/* the row blocks' directory: row block i on PE i mod PEs; win gets the
 * largest window (offsets, entries) over the PEs */
void dspmm_row_directory(struct domino_dspmm_s *P, int64_t *win);
/* Collective: the receive buffers of the row blocks (made by the first run) */
domino_status dspmm_rows_buffers(domino_handle h, struct domino_dspmm_s *P);
/* Collective: those buffers freed, and NULL */
void dspmm_rows_buffers_free(struct domino_dspmm_s *P);

#endif
