/* ref_spmv.c: sparse matrix-vector product y = alpha op(A) x + beta y on the CPU */
#include "ref_internal.h"

/* t += op(A) x for the stored entry at slice p, position k (and its mirror
 * when A is stored symmetric or skew-symmetric) */
static void add_entry(domino_matrix A, domino_op op, int32_t p, int64_t k, const void *x,
                      double *t)
{
    int32_t j = A->ind[k];
    int32_t r = A->format == DOMINO_CSR ? p : j, c = A->format == DOMINO_CSR ? j : p;
    double v = domino_matrix_value(A, k);
    int32_t out = op == DOMINO_OP_N ? r : c, in = op == DOMINO_OP_N ? c : r;
    t[out] += v * ref_get(x, A->type, in);
    if (A->symmetry != DOMINO_GENERAL && r != c) {
        double mirrored = A->symmetry == DOMINO_SKEW_SYMMETRIC ? -v : v;
        t[in] += mirrored * ref_get(x, A->type, out);
    }
}

/* y = alpha op(A) x + beta y, A CSR or CSC (symmetric storage mirrored), x
 * and y of A's value type, x of length ncols(op(A)), y of nrows(op(A)).
 * beta == 0: y is not read (NaN-safe); alpha == 0: x is not read. */
domino_status domino_ref_spmv(domino_handle h, domino_op op, double alpha, domino_matrix A,
                              const void *x, double beta, void *y)
{
    const char *what = "domino_ref_spmv";
    domino_status s = domino_ref_check_op(h, what, op, A);
    if (s) return s;
    int32_t ny = op == DOMINO_OP_N ? A->nrows : A->ncols;
    int32_t nx = op == DOMINO_OP_N ? A->ncols : A->nrows;
    if ((nx > 0 && !x) || (ny > 0 && !y))
        return domino_error(h, DOMINO_NULL_POINTER, "%s: %s is NULL", what, !y ? "y" : "x");
    if (A->symmetry != DOMINO_GENERAL && A->nrows != A->ncols)
        return domino_error(h, DOMINO_DIMENSION_MISMATCH,
                            "%s: symmetric storage of a %d x %d matrix", what, A->nrows,
                            A->ncols);
    double *t = domino_calloc((size_t)ny + 1, sizeof(double));
    if (!t) return domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory (n = %d)", what, ny);
    int32_t np = domino_matrix_nptr(A);
    if (alpha != 0.0)
        for (int32_t p = 0; p < np; p++)
            for (int64_t k = A->ptr[p]; k < A->ptr[p + 1]; k++) add_entry(A, op, p, k, x, t);
    for (int32_t i = 0; i < ny; i++) {
        double scaled = beta == 0.0 ? 0.0 : beta * ref_get(y, A->type, i);
        ref_set(y, A->type, i, alpha * t[i] + scaled);
    }
    domino_free(t);
    return DOMINO_SUCCESS;
}
