/* krylov_internal.h: preconditioners and vector kernels shared by the CPU
 * Krylov solvers (src/ref/ref_krylov_*.c), never public */
#ifndef DOMINO_KRYLOV_INTERNAL_H
#define DOMINO_KRYLOV_INTERNAL_H

#include "ref_internal.h"

#include <math.h>

/* Check what ilu0 and ic0 share: F not NULL (set to NULL), live handle and
 * matrix, square CSR A, a finite pivot_shift.  Clears the last error. */
domino_status domino_ref_factor_check(domino_handle h, const char *what, domino_matrix A,
                                      double pivot_shift, domino_matrix *F);
/* Scratch of ilu0 / ic0 for the CSR matrix F being factored: *diag_pos[i]
 * = position of f_ii in row i (the first row without a stored diagonal is
 * DOMINO_ZERO_DIAGONAL), *column_pos all -1; both of n+1 entries, freed
 * (and NULL) on failure, else the caller frees them. */
domino_status domino_ref_factor_scratch(domino_handle h, const char *what, domino_matrix F,
                                        int64_t **diag_pos, int64_t **column_pos);

/* a preconditioner M ready to apply z = M^{-1} r */
typedef struct krylov_precond {
    domino_precond_kind kind; /* which M */
    int32_t n;                /* order of M */
    double *inv_diag;         /* JACOBI: 1 / a_ii, size n */
    domino_matrix factor;     /* ILU0: L and U in A's pattern; IC0: L (lower CSR) */
    double *work;             /* intermediate of the two triangular solves, size n */
    int64_t pivots_replaced;  /* pivots shifted while factoring */
} krylov_precond;

/* Build M of opt->precond for square A (ILU0 / IC0 with opt->pivot_shift,
 * of A + opt->diag_shift diag(A)).  P is zeroed first; on failure
 * everything is freed.  `what` names the caller. */
domino_status domino_ref_precond_setup(domino_handle h, const char *what, domino_matrix A,
                                       const domino_krylov_options *opt, krylov_precond *P);
/* z = M^{-1} r (z may not alias r); triangular solves by domino_ref_trsv */
domino_status domino_ref_precond_apply(domino_handle h, krylov_precond *P, const double *r,
                                       double *z);
/* free what setup allocated; safe on a zeroed P */
void domino_ref_precond_free(krylov_precond *P);

/* Checks shared by CG and BiCGSTAB: live handle and matrix, square double A,
 * b, x, res not NULL, options in range (opt NULL: defaults copied to
 * *use).  Clears the last error and zeroes *res. */
domino_status domino_ref_krylov_check(domino_handle h, const char *what, domino_matrix A,
                                      const double *b, const double *x,
                                      const domino_krylov_options *opt, domino_krylov_result *res,
                                      domino_krylov_options *use);

/* the iterations of one Krylov method from x on input: work holds the
 * method's vectors; fills iterations, converged, breakdown, history */
typedef domino_status (*krylov_iterate_fn)(domino_handle h, domino_matrix A, const double *b,
                                           double *x, const domino_krylov_options *opt,
                                           krylov_precond *P, double *work,
                                           domino_krylov_result *res);
/* What CG and BiCGSTAB share around their iterations: checks, the
 * preconditioner, work_vectors vectors of n doubles, the history, timing,
 * the true residual at the end, one cleanup. */
domino_status domino_ref_krylov_run(domino_handle h, const char *what, domino_matrix A,
                                    const double *b, double *x, const domino_krylov_options *opt,
                                    domino_krylov_result *res, int work_vectors,
                                    krylov_iterate_fn iterate);

/* ||b - A x||_2 / ||b||_2 (0 when b == 0); r: workspace of n doubles */
domino_status domino_ref_krylov_residual(domino_handle h, domino_matrix A, const double *b,
                                         const double *x, double *r, double *relative);

static inline double krylov_dot(int32_t n, const double *x, const double *y)
{
    double s = 0.0;
    for (int32_t i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
}

static inline double krylov_norm(int32_t n, const double *x)
{
    return sqrt(krylov_dot(n, x, x));
}

/* y += alpha x */
static inline void krylov_axpy(int32_t n, double alpha, const double *x, double *y)
{
    for (int32_t i = 0; i < n; i++)
        y[i] += alpha * x[i];
}

#endif /* DOMINO_KRYLOV_INTERNAL_H */
