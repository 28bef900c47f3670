/* ref_trsv_residual.c: scaled residual of a triangular solve, max over columns */
#include "ref_internal.h"

#include <math.h>

/* entry k of A at (r, c) of A: 1 and (i, col) its place in op(T) if it belongs
 * to T (the unit diagonal excluded), else 0 */
static int place_in_op_t(domino_matrix A, domino_op op, domino_fill fill, domino_diag diag,
                         int32_t p, int64_t k, int32_t *i, int32_t *col)
{
    int32_t j = A->ind[k];
    int32_t r = A->format == DOMINO_CSR ? p : j, c = A->format == DOMINO_CSR ? j : p;
    if (fill == DOMINO_LOWER ? c > r : c < r) return 0;
    if (r == c && diag == DOMINO_UNIT) return 0;
    *i = op == DOMINO_OP_N ? r : c;
    *col = op == DOMINO_OP_N ? c : r;
    return 1;
}

/* ||op(T)||_inf: max absolute row sum (unit diagonal counted as 1) */
static double norm_inf(domino_matrix A, domino_op op, domino_fill fill, domino_diag diag,
                       double *rowsum)
{
    int32_t n = A->nrows, i, col;
    for (int32_t r = 0; r < n; r++) rowsum[r] = diag == DOMINO_UNIT ? 1.0 : 0.0;
    for (int32_t p = 0; p < n; p++)
        for (int64_t k = A->ptr[p]; k < A->ptr[p + 1]; k++)
            if (place_in_op_t(A, op, fill, diag, p, k, &i, &col))
                rowsum[i] += fabs(domino_matrix_value(A, k));
    double norm = 0.0;
    for (int32_t r = 0; r < n; r++) norm = rowsum[r] > norm ? rowsum[r] : norm;
    return norm;
}

/* scaled residual of one column: ||op(T)x - b|| / (||T|| ||x|| + ||b||) */
static double column_residual(domino_matrix A, domino_op op, domino_fill fill, domino_diag diag,
                              double tnorm, const void *x, const void *b, long double *r)
{
    int32_t n = A->nrows, i, col;
    domino_type t = A->type;
    for (int32_t row = 0; row < n; row++)
        r[row] = diag == DOMINO_UNIT ? (long double)ref_get(x, t, row) : 0.0L;
    for (int32_t p = 0; p < n; p++)
        for (int64_t k = A->ptr[p]; k < A->ptr[p + 1]; k++)
            if (place_in_op_t(A, op, fill, diag, p, k, &i, &col))
                r[i] += (long double)domino_matrix_value(A, k) * ref_get(x, t, col);
    double rnorm = 0.0, xnorm = 0.0, bnorm = 0.0;
    for (int32_t row = 0; row < n; row++) {
        double ri = fabs((double)(r[row] - ref_get(b, t, row)));
        double xi = fabs(ref_get(x, t, row)), bi = fabs(ref_get(b, t, row));
        rnorm = ri > rnorm || isnan(ri) ? ri : rnorm;
        xnorm = xi > xnorm || isnan(xi) ? xi : xnorm;
        bnorm = bi > bnorm ? bi : bnorm;
    }
    double denom = tnorm * xnorm + bnorm;
    return denom == 0.0 ? 0.0 : rnorm / denom;
}

/* *residual = max over the nrhs columns of
 * ||op(T)x - b||_inf / (||op(T)||_inf ||x||_inf + ||b||_inf) for T the fill
 * triangle of square A (unit: diagonal taken as 1); 0 where the denominator
 * is 0.  X, B column-major of A's type.  NaN in x or the residual gives NaN. */
domino_status domino_ref_trsv_residual(domino_handle h, domino_op op, domino_fill fill,
                                       domino_diag diag, domino_matrix A, int32_t nrhs,
                                       const void *X, int64_t ldx, const void *B, int64_t ldb,
                                       double *residual)
{
    const char *what = "domino_ref_trsv_residual";
    if (!residual) return domino_error(h, DOMINO_NULL_POINTER, "%s: residual is NULL", what);
    *residual = 0.0;
    domino_status s = domino_ref_check_triangle(h, what, op, fill, diag, A);
    if (s) return s;
    int32_t n = A->nrows;
    if ((s = domino_ref_check_blocks(h, what, n, nrhs, B, ldb, X, ldx))) return s;
    double *rowsum = domino_malloc((size_t)n * sizeof(double));
    long double *r = domino_malloc((size_t)n * sizeof(long double));
    if (!rowsum || !r) {
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory (n = %d)", what, n);
        goto cleanup;
    }
    double tnorm = norm_inf(A, op, fill, diag, rowsum);
    size_t tsize = domino_type_size(A->type);
    double worst = 0.0;
    for (int32_t c = 0; c < nrhs; c++) {
        const char *xc = (const char *)X + (size_t)c * (size_t)ldx * tsize;
        const char *bc = (const char *)B + (size_t)c * (size_t)ldb * tsize;
        double res = column_residual(A, op, fill, diag, tnorm, xc, bc, r);
        if (res > worst || isnan(res)) worst = res;
        if (isnan(worst)) break;
    }
    *residual = worst;
cleanup:
    domino_free(rowsum);
    domino_free(r);
    return s;
}
