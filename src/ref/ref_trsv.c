/* ref_trsv.c: sequential triangular solve op(T) X = B on the CPU (the oracle) */
#include "ref_internal.h"

/* Dot (row-oriented) form, in place on x = b:
 * x_i = (b_i - sum_j T_ij x_j) / T_ii, the sum taken in stored order.
 * domino_ref_trsv_syncfree uses the same order and formula (bitwise equal). */
static void solve_dot(domino_matrix A, ref_walk w, const double *pivot, double *x)
{
    int32_t n = A->nrows;
    for (int32_t t = 0; t < n; t++) {
        int32_t i = ref_walk_step(w, t, n);
        double acc = x[i];
        for (int64_t k = A->ptr[i]; k < A->ptr[i + 1]; k++) {
            int32_t j = A->ind[k];
            if (j == i || !ref_walk_in_triangle(w, i, j)) continue;
            acc -= domino_matrix_value(A, k) * x[j];
        }
        x[i] = acc / pivot[i];
    }
}

/* Axpy (column-oriented) form, in place on x = b: once x_k is final,
 * b_j -= T_jk x_k for every j below (lower) or above (upper) k. */
static void solve_axpy(domino_matrix A, ref_walk w, const double *pivot, double *x)
{
    int32_t n = A->nrows;
    for (int32_t t = 0; t < n; t++) {
        int32_t k = ref_walk_step(w, t, n);
        double xk = x[k] / pivot[k];
        x[k] = xk;
        for (int64_t e = A->ptr[k]; e < A->ptr[k + 1]; e++) {
            int32_t j = A->ind[e];
            if (j == k || !ref_walk_in_triangle(w, k, j)) continue;
            x[j] -= domino_matrix_value(A, e) * xk;
        }
    }
}

/* Solve op(T) X = B for T the fill triangle of square A (CSR or CSC; entries
 * of the other triangle ignored; UNIT: stored diagonal ignored, taken as 1).
 * B, X: nrhs columns of A's value type, column-major, leading dimensions
 * ldb, ldx >= n; X may be B (then ldx == ldb).  Computed in double. */
domino_status domino_ref_trsv(domino_handle h, domino_op op, domino_fill fill, domino_diag diag,
                              domino_matrix A, int32_t nrhs, const void *B, int64_t ldb, void *X,
                              int64_t ldx)
{
    const char *what = "domino_ref_trsv";
    domino_status s = domino_ref_check_triangle(h, what, op, fill, diag, A);
    if (s) return s;
    int32_t n = A->nrows;
    if ((s = domino_ref_check_blocks(h, what, n, nrhs, B, ldb, X, ldx))) return s;
    if ((const void *)X == B && ldx != ldb)
        return domino_error(h, DOMINO_INVALID_VALUE,
                            "%s: X == B needs ldx == ldb (%lld != %lld)", what, (long long)ldx,
                            (long long)ldb);
    double *pivot = domino_malloc((size_t)n * sizeof(double));
    double *x = domino_malloc((size_t)n * sizeof(double));
    if (!pivot || !x) {
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory (n = %d)", what, n);
        goto cleanup;
    }
    s = domino_ref_pivots(h, what, diag, A, pivot);
    if (s) goto cleanup;
    ref_walk w = ref_walk_of(A->format, op, fill);
    for (int32_t c = 0; c < nrhs; c++) {
        for (int32_t i = 0; i < n; i++) x[i] = ref_get(B, A->type, (int64_t)c * ldb + i);
        if (w.dot)
            solve_dot(A, w, pivot, x);
        else
            solve_axpy(A, w, pivot, x);
        for (int32_t i = 0; i < n; i++) ref_set(X, A->type, (int64_t)c * ldx + i, x[i]);
    }
cleanup:
    domino_free(pivot);
    domino_free(x);
    return s;
}
