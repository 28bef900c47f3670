/* ref_krylov_util.c: options, results, argument checks and residuals shared
 * by the CPU incomplete factorizations and Krylov solvers */
#include "krylov_internal.h"

void domino_krylov_options_init(domino_krylov_options *opt)
{
    if (!opt) return;
    opt->precond = DOMINO_PRECOND_NONE;
    opt->rtol = 1e-8;
    opt->maxit = 1000;
    opt->pivot_shift = 0.0;
    opt->diag_shift = 0.0;
}

void domino_krylov_result_free(domino_krylov_result *res)
{
    if (!res) return;
    domino_free(res->history);
    res->history = NULL;
}

domino_status domino_ref_factor_check(domino_handle h, const char *what, domino_matrix A,
                                      double pivot_shift, domino_matrix *F)
{
    if (!domino_handle_ok(h))
        return domino_error(NULL, DOMINO_INVALID_OBJECT, "%s: h is not a live handle", what);
    domino_clear_error(h);
    if (!F) return domino_error(h, DOMINO_NULL_POINTER, "%s: output matrix pointer is NULL", what);
    *F = NULL;
    domino_status s = domino_check_matrix(h, A, what);
    if (s) return s;
    if (A->format != DOMINO_CSR)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: A must be CSR", what);
    if (A->nrows != A->ncols)
        return domino_error(h, DOMINO_DIMENSION_MISMATCH, "%s: matrix is %d x %d, not square", what,
                            A->nrows, A->ncols);
    if (!isfinite(pivot_shift))
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: pivot_shift is not finite", what);
    return DOMINO_SUCCESS;
}

domino_status domino_ref_factor_scratch(domino_handle h, const char *what, domino_matrix F,
                                        int64_t **diag_pos, int64_t **column_pos)
{
    int32_t n = F->nrows;
    int64_t *diag = domino_malloc(((size_t)n + 1) * sizeof(int64_t));
    int64_t *column = domino_malloc(((size_t)n + 1) * sizeof(int64_t));
    domino_status s = DOMINO_SUCCESS;
    *diag_pos = *column_pos = NULL;
    if (!diag || !column) {
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory (n = %d)", what, n);
        goto cleanup;
    }
    for (int32_t i = 0; i < n; i++) {
        column[i] = -1;
        diag[i] = -1;
        for (int64_t e = F->ptr[i]; e < F->ptr[i + 1]; e++)
            if (F->ind[e] == i) {
                diag[i] = e;
                break;
            }
        if (diag[i] < 0) {
            s = domino_error(h, DOMINO_ZERO_DIAGONAL, "%s: row %d has no diagonal entry", what, i);
            goto cleanup;
        }
    }
    *diag_pos = diag;
    *column_pos = column;
    return DOMINO_SUCCESS;
cleanup:
    domino_free(diag);
    domino_free(column);
    return s;
}

domino_status domino_ref_krylov_check(domino_handle h, const char *what, domino_matrix A,
                                      const double *b, const double *x,
                                      const domino_krylov_options *opt, domino_krylov_result *res,
                                      domino_krylov_options *use)
{
    if (!domino_handle_ok(h))
        return domino_error(NULL, DOMINO_INVALID_OBJECT, "%s: h is not a live handle", what);
    domino_clear_error(h);
    if (!res) return domino_error(h, DOMINO_NULL_POINTER, "%s: res is NULL", what);
    *res = (domino_krylov_result){0};
    domino_status s = domino_check_matrix(h, A, what);
    if (s) return s;
    if (A->nrows != A->ncols)
        return domino_error(h, DOMINO_DIMENSION_MISMATCH, "%s: matrix is %d x %d, not square", what,
                            A->nrows, A->ncols);
    if (A->type != DOMINO_FLOAT64)
        return domino_error(h, DOMINO_NOT_SUPPORTED,
                            "%s: only double (FLOAT64) matrices are supported for now", what);
    if (!b || !x)
        return domino_error(h, DOMINO_NULL_POINTER, "%s: %s is NULL", what, !b ? "b" : "x");
    domino_krylov_options_init(use);
    if (opt) *use = *opt;
    if (use->precond < DOMINO_PRECOND_NONE || use->precond > DOMINO_PRECOND_IC0)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: bad preconditioner %d", what,
                            (int)use->precond);
    if (!(use->rtol >= 0.0) || !isfinite(use->rtol))
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: rtol = %g is not a finite value >= 0",
                            what, use->rtol);
    if (use->maxit < 0)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: maxit = %d < 0", what, use->maxit);
    if (!isfinite(use->pivot_shift))
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: pivot_shift is not finite", what);
    if (!(use->diag_shift >= 0.0) || !isfinite(use->diag_shift))
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: diag_shift = %g is not a finite value >= 0",
                            what, use->diag_shift);
    return DOMINO_SUCCESS;
}

domino_status domino_ref_krylov_residual(domino_handle h, domino_matrix A, const double *b,
                                         const double *x, double *r, double *relative)
{
    int32_t n = A->nrows;
    for (int32_t i = 0; i < n; i++)
        r[i] = b[i];
    domino_status s = domino_ref_spmv(h, DOMINO_OP_N, -1.0, A, x, 1.0, r);
    if (s) return s;
    double norm_b = krylov_norm(n, b);
    *relative = norm_b > 0.0 ? krylov_norm(n, r) / norm_b : krylov_norm(n, r);
    return DOMINO_SUCCESS;
}

domino_status domino_ref_krylov_run(domino_handle h, const char *what, domino_matrix A,
                                    const double *b, double *x, const domino_krylov_options *opt,
                                    domino_krylov_result *res, int work_vectors,
                                    krylov_iterate_fn iterate)
{
    domino_krylov_options use;
    domino_status s = domino_ref_krylov_check(h, what, A, b, x, opt, res, &use);
    if (s) return s;
    int32_t n = A->nrows;
    krylov_precond P = {0};
    double *work = NULL, start = domino_wtime();
    s = domino_ref_precond_setup(h, what, A, &use, &P);
    if (s) goto cleanup;
    res->pivots_replaced = P.pivots_replaced;
    res->setup_seconds = domino_wtime() - start;
    work = domino_malloc(((size_t)work_vectors * (size_t)n + 1) * sizeof(double));
    res->history = domino_malloc(((size_t)use.maxit + 1) * sizeof(double));
    if (!work || !res->history) {
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory (n = %d, maxit = %d)", what, n,
                         use.maxit);
        goto cleanup;
    }
    start = domino_wtime();
    s = iterate(h, A, b, x, &use, &P, work, res);
    res->solve_seconds = domino_wtime() - start;
    if (s) goto cleanup;
    s = domino_ref_krylov_residual(h, A, b, x, work, &res->relative_residual);
cleanup:
    domino_ref_precond_free(&P);
    domino_free(work);
    if (s) domino_krylov_result_free(res);
    return s;
}
