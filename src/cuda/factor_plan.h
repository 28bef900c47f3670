/* factor_plan.h: the plan of a GPU incomplete factorization and the kernel
 * launchers of factor_ilu0.cu and krylov_vec.cu (internal) */
#ifndef DOMINO_FACTOR_PLAN_H
#define DOMINO_FACTOR_PLAN_H

#include "gpu_internal.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DOMINO_FACTOR_PLAN_MAGIC 0x646f6d696e6f4631ULL

/* device record of one factorization: ticket and error reports */
typedef struct domino_factor_status {
    unsigned long long ticket;   /* next logical row (row-major over rows x batch) */
    unsigned long long replaced; /* pivots replaced */
    long long bad_pivot;         /* smallest b * n + row with a bad pivot, LLONG_MAX if none */
    int32_t missing_diag;        /* smallest row without a diagonal, INT32_MAX if none */
    int32_t unsorted_row;        /* smallest row unsorted or with a duplicate, INT32_MAX if none */
    int32_t stencil_mismatch;    /* smallest interior row off the stencil pattern, INT32_MAX if none */
} domino_factor_status;

/* Entries of the stencil tables: slots of an interior row, slots left of
 * its diagonal (the offsets of a generator stencil are symmetric) */
#define FACTOR_STENCIL_SLOTS DOMINO_STENCIL_MAX_POINTS
#define FACTOR_STENCIL_LOWER (DOMINO_STENCIL_MAX_POINTS / 2)

/* The stencil path of the factorization kernel (factor_stencil.c): when the
 * matrix is a generator stencil in natural order (x fastest) and every
 * interior row holds exactly the stencil's entries, entry s of an interior
 * row is its column row + offset[s], and the entry of row k that an update
 * of row i reads (or the entry of row i it meets) is a slot that depends
 * on the slots alone: a table made once replaces the kernel's binary
 * searches on the rows whose rows k are interior too ("deep" rows). */
typedef struct factor_stencil_args {
    int32_t nx, ny, nz;     /* the grid; nx == 0: no stencil path */
    int32_t rad[3];         /* largest |dx|, |dy|, |dz| of the stencil */
    int32_t width;          /* entries of an interior row of the factor pattern (ILU0 all, IC0 lower + 1) */
    int32_t lower;          /* entries left of the diagonal in an interior row */
    int64_t offset[FACTOR_STENCIL_SLOTS]; /* column - row of slot s of an interior row, increasing */
    /* ILU0: slot[s1 * width + t] = the slot, in row k = row + offset[s1],
     * of the column of the row's slot t (t > s1), -1 when row k has none;
     * IC0: slot[s1 * lower + s2] = the slot, in the row, of the column of
     * row k's slot s2 (< lower), -1 when the row has none (it is < s1) */
    int8_t slot[FACTOR_STENCIL_LOWER * FACTOR_STENCIL_SLOTS];
} factor_stencil_args;

/* The tables of stencil `off` (npoints offsets dx, dy, dz in increasing
 * linear order, domino_stencil_offsets) on grid nx x ny x nz for kind 0
 * (ILU0, the whole pattern) or 1 (IC0, its lower triangle): 1 with *a set,
 * or 0 (a->nx = 0) when the stencil is not symmetric, too large for the
 * tables, or the grid has no deep row. */
int domino_factor_stencil_table(const int *off, int npoints, int32_t nx, int32_t ny, int32_t nz,
                                int kind, factor_stencil_args *a);
/* 1 if row i of grid a is deep: every row it reads is interior (its
 * stencil neighbours all inside the grid) */
static inline int domino_factor_stencil_deep(const factor_stencil_args *a, int64_t i)
{
    if (a->nx == 0) return 0;
    int64_t x = i % a->nx, y = (i / a->nx) % a->ny, z = i / ((int64_t)a->nx * a->ny);
    return x >= 2 * a->rad[0] && x < a->nx - 2 * a->rad[0] && y >= 2 * a->rad[1] &&
           y < a->ny - 2 * a->rad[1] && z >= 2 * a->rad[2] && z < a->nz - 2 * a->rad[2];
}

struct domino_factor_plan_s {
    uint64_t magic;              /* DOMINO_FACTOR_PLAN_MAGIC while alive */
    domino_factor_kind kind;     /* ILU0 or IC0 */
    domino_dmatrix dA;           /* the caller's matrix, not owned */
    int32_t n;                   /* order */
    int32_t batch;               /* matrices of the pattern */
    int64_t nnz;                 /* entries of the factor pattern (ILU0: dA's, IC0: tril) */
    double pivot_shift;          /* 0: fail on a bad pivot */
    int use_cusparse;            /* csrilu02 / csric02 baseline */
    int64_t *ptr;                /* factor offsets (ILU0: dA->ptr, IC0: owned) */
    int32_t *ind;                /* factor indices (ILU0: dA->ind, IC0: owned) */
    int owns_pattern;            /* 1: ptr, ind are freed with the plan */
    int64_t *diag;               /* position of the diagonal of each row in the factor, n */
    double *val;                 /* factor values, batch * nnz (owned) */
    double *work;                /* the rows' working values, batch * nnz (owned; not with use_cusparse) */
    int32_t *order;              /* rows sorted by (level, row) of the lower triangle, n */
    int32_t nlevels;             /* levels of the lower triangle (dependency depth) */
    int lanes;                   /* lanes per row of the factorization kernel (4, 8, 16, 32) */
    factor_stencil_args stencil; /* the stencil path (nx 0: none; factor_stencil.c) */
    domino_factor_status *st;    /* device status record */
    struct domino_dmatrix_s *alias; /* batch device matrices aliasing ptr, ind, val */
    void *cusparse;              /* baseline objects (factor_cusparse.c) */
    double analysis_seconds;     /* wall time of the analysis */
    double compute_seconds;      /* wall time of the last compute */
};

/* cuSPARSE baseline (factor_cusparse.c): factor p->val in place, matrix by
 * matrix; *bad_row, *bad_batch the first zero pivot (-1 if none) */
domino_status domino_cusparse_factor(domino_handle h, struct domino_gpu_context *gpu,
                                     struct domino_factor_plan_s *p, int64_t *bad_row,
                                     int32_t *bad_batch);
void domino_cusparse_factor_free(struct domino_factor_plan_s *p);

/* ---- factor_ilu0.cu, asynchronous on stream ---- */

cudaError_t domino_launch_factor_status_reset(cudaStream_t stream, domino_factor_status *st);
/* thread per row of CSR (ptr, ind): diag[i] = position of (i,i); missing
 * diagonals and unsorted / duplicate rows reported in st; count (may be
 * NULL) gets the entries of row i with column <= i */
cudaError_t domino_launch_factor_pattern(cudaStream_t stream, int32_t n, const int64_t *ptr,
                                         const int32_t *ind, int64_t *diag, int64_t *count,
                                         domino_factor_status *st);
/* exclusive sum of n+1 int64 (scratch of domino_scan_scratch_bytes(n)) */
cudaError_t domino_launch_scan_i64(cudaStream_t stream, int32_t n, const int64_t *in, int64_t *out,
                                   void *tmp, size_t tmp_bytes);
/* tril pattern: indL rows = the prefix of each row of (ptr, ind) up to the
 * diagonal; diagL[i] = ptrL[i+1] - 1 */
cudaError_t domino_launch_tril_fill(cudaStream_t stream, int32_t n, const int64_t *ptr,
                                    const int32_t *ind, const int64_t *ptrL, int32_t *indL,
                                    int64_t *diagL);
/* valL[b][ptrL[i] + t] = valA[b][ptr[i] + t], t < row length of L */
cudaError_t domino_launch_tril_gather(cudaStream_t stream, int32_t n, int32_t batch,
                                      const int64_t *ptr, int64_t nnzA, const double *valA,
                                      const int64_t *ptrL, int64_t nnzL, double *valL);
/* st->stencil_mismatch := the smallest interior row of grid a whose
 * entries in (ptr, ind) are not exactly row + a->offset[0, a->width) */
cudaError_t domino_launch_factor_stencil_check(cudaStream_t stream, const int64_t *ptr,
                                               const int32_t *ind, const factor_stencil_args *a,
                                               domino_factor_status *st);
/* the stencil path of plan p (analysis, factor_stencil.c): p->stencil set
 * when p's pattern is a generator stencil, else left empty (nx 0) */
domino_status domino_factor_stencil_setup(domino_handle h, struct domino_gpu_context *gpu,
                                          struct domino_factor_plan_s *p, const char *fn);
/* val[0, count) := the pending sentinel */
cudaError_t domino_launch_factor_pending(cudaStream_t stream, int64_t count, double *val);
/* the synchronization-free factorization: kind 0 ILU0 on (ptr, ind, diag),
 * kind 1 IC0 on the tril pattern; the rows' initial values in work (batch *
 * nnz, overwritten), the factor into val (batch * nnz, all pending on entry:
 * each value is published once, final, and is its own ready flag); rows
 * taken in the given order (a topological order of the lower triangle: rows
 * sorted by level); st reset; lanes per row 4, 8, 16 or 32 (anything else:
 * 32); deep rows of stencil (nx 0: none) take their positions from its
 * tables */
cudaError_t domino_launch_factor(cudaStream_t stream, int kind, int32_t n, int32_t batch,
                                 const int64_t *ptr, const int32_t *ind, const int64_t *diag,
                                 const int32_t *order, int64_t nnz, double *work, double *val,
                                 double pivot_shift, domino_factor_status *st, int lanes,
                                 const factor_stencil_args *stencil);

/* ---- krylov_vec.cu ---- */

/* val[k] *= factor for every diagonal entry (k in row i, ind[k] == i) */
cudaError_t domino_launch_scale_diagonal(cudaStream_t stream, int32_t n, const int64_t *ptr,
                                         const int32_t *ind, double *val, double factor);
/* inv_diag[i] = 1 / (sum of the diagonal entries of row i); *bad_row: the
 * smallest row whose diagonal is missing or zero (set INT32_MAX first) */
cudaError_t domino_launch_inverse_diagonal(cudaStream_t stream, int32_t n, const int64_t *ptr,
                                           const int32_t *ind, const double *val,
                                           double *inv_diag, int32_t *bad_row);
/* z = d .* r */
cudaError_t domino_launch_vmul(cudaStream_t stream, int32_t n, const double *d, const double *r,
                               double *z);
/* y = x + beta y */
cudaError_t domino_launch_xpby(cudaStream_t stream, int32_t n, const double *x, double beta,
                               double *y);
/* p = r + beta (p - omega v) */
cudaError_t domino_launch_bicgstab_p(cudaStream_t stream, int32_t n, const double *r, double beta,
                                     double omega, const double *v, double *p);
/* z = x - alpha y */
cudaError_t domino_launch_xmay(cudaStream_t stream, int32_t n, const double *x, double alpha,
                               const double *y, double *z);

#ifdef __cplusplus
}
#endif
#endif
