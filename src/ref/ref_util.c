/* ref_util.c: argument checks and pivots shared by the CPU reference solves */
#include "ref_internal.h"

domino_status domino_ref_check_blocks(domino_handle h, const char *what, int32_t n, int32_t nrhs,
                                      const void *B, int64_t ldb, const void *X, int64_t ldx)
{
    if (nrhs < 1) return domino_error(h, DOMINO_INVALID_VALUE, "%s: nrhs = %d < 1", what, nrhs);
    if (n > 0 && (!B || !X))
        return domino_error(h, DOMINO_NULL_POINTER, "%s: %s is NULL", what, !B ? "B" : "X");
    if (ldb < n || ldx < n)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: leading dimension %lld < n = %d",
                            what, (long long)(ldb < n ? ldb : ldx), n);
    return DOMINO_SUCCESS;
}

domino_status domino_ref_check_op(domino_handle h, const char *what, domino_op op, domino_matrix A)
{
    if (!domino_handle_ok(h))
        return domino_error(NULL, DOMINO_INVALID_OBJECT, "%s: h is not a live handle", what);
    domino_clear_error(h);
    domino_status s = domino_check_matrix(h, A, what);
    if (s) return s;
    if (op != DOMINO_OP_N && op != DOMINO_OP_T)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: bad op %d", what, (int)op);
    return DOMINO_SUCCESS;
}

domino_status domino_ref_check_triangle(domino_handle h, const char *what, domino_op op,
                                        domino_fill fill, domino_diag diag, domino_matrix A)
{
    domino_status s = domino_ref_check_op(h, what, op, A);
    if (s) return s;
    if (fill != DOMINO_LOWER && fill != DOMINO_UPPER)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: bad fill %d", what, (int)fill);
    if (diag != DOMINO_NON_UNIT && diag != DOMINO_UNIT)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: bad diag %d", what, (int)diag);
    if (A->nrows != A->ncols)
        return domino_error(h, DOMINO_DIMENSION_MISMATCH, "%s: matrix is %d x %d, not square",
                            what, A->nrows, A->ncols);
    if (A->symmetry != DOMINO_GENERAL)
        return domino_error(h, DOMINO_NOT_SUPPORTED,
                            "%s: matrix is stored as (skew-)symmetric; expand it first with "
                            "domino_matrix_symmetric_expand", what);
    return DOMINO_SUCCESS;
}

domino_status domino_ref_pivots(domino_handle h, const char *what, domino_diag diag,
                                domino_matrix A, double *pivot)
{
    int32_t n = A->nrows;
    for (int32_t p = 0; p < n; p++) {
        if (diag == DOMINO_UNIT) {
            pivot[p] = 1.0;
            continue;
        }
        /* the diagonal entry (p, p) lies in slice p for both CSR and CSC */
        double sum = 0.0;
        int found = 0;
        for (int64_t k = A->ptr[p]; k < A->ptr[p + 1]; k++) {
            if (A->ind[k] != p) continue;
            sum += domino_matrix_value(A, k);
            found = 1;
        }
        if (!found)
            return domino_error(h, DOMINO_ZERO_DIAGONAL, "%s: row %d has no diagonal entry",
                                what, p);
        if (sum == 0.0)
            return domino_error(h, DOMINO_ZERO_PIVOT, "%s: zero pivot at row %d", what, p);
        pivot[p] = sum;
    }
    return DOMINO_SUCCESS;
}
