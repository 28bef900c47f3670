/* ref_spmm.c: sparse times dense block C = alpha op(A) B + beta C on the CPU */
#include "ref_internal.h"

#include <omp.h>

/* Check everything but the matrix itself: k, the leading dimensions and the
 * block pointers (B: nb rows, C: nc rows, each k values wide). */
static domino_status check_blocks(domino_handle h, const char *what, int32_t k, int32_t nb,
                                  const void *B, int64_t ldb, int32_t nc, const void *C,
                                  int64_t ldc)
{
    if (k < 0) return domino_error(h, DOMINO_INVALID_VALUE, "%s: k = %d < 0", what, k);
    if (ldb < k)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: ldb = %lld < k = %d", what,
                            (long long)ldb, k);
    if (ldc < k)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: ldc = %lld < k = %d", what,
                            (long long)ldc, k);
    if (k > 0 && nb > 0 && !B)
        return domino_error(h, DOMINO_NULL_POINTER, "%s: B is NULL (%d x %d)", what, nb, k);
    if (k > 0 && nc > 0 && !C)
        return domino_error(h, DOMINO_NULL_POINTER, "%s: C is NULL (%d x %d)", what, nc, k);
    return DOMINO_SUCCESS;
}

/* *rows = a matrix whose storage slice p is row p of op(A), general (no
 * symmetric storage), or NULL when A itself is one.  Symmetric storage is
 * expanded (domino_matrix_symmetric_expand, as domino_ref_spmv mirrors it);
 * when slices of A are columns of op(A) (CSR with op T, CSC with op N) A is
 * converted once to the other format, so every product is a row dot. */
static domino_status row_form(domino_handle h, domino_op op, domino_matrix A, domino_matrix *rows)
{
    *rows = NULL;
    domino_matrix expanded = NULL;
    domino_status s;
    if (A->symmetry != DOMINO_GENERAL) {
        s = domino_matrix_symmetric_expand(h, A, &expanded);
        if (s) return s;
    }
    domino_matrix general = expanded ? expanded : A;
    int slices_are_rows = (A->format == DOMINO_CSR) == (op == DOMINO_OP_N);
    if (slices_are_rows) {
        *rows = expanded;
        return DOMINO_SUCCESS;
    }
    s = domino_matrix_convert(h, general,
                              A->format == DOMINO_CSR ? DOMINO_CSC : DOMINO_CSR, rows);
    domino_matrix_free(expanded);
    return s;
}

/* C = alpha R B + beta C where slice p of R is row p of the product;
 * acc holds k doubles per thread.  Rows in parallel, each summed in stored
 * order in double, so the result does not depend on the thread count. */
static void multiply_rows(domino_matrix R, domino_type type, double alpha, int32_t k,
                          const void *B, int64_t ldb, double beta, void *C, int64_t ldc,
                          double *acc, int nthreads)
{
    int32_t nrows = domino_matrix_nptr(R);
#pragma omp parallel for num_threads(nthreads) schedule(dynamic, 64)
    for (int32_t p = 0; p < nrows; p++) {
        double *row_sum = acc + (size_t)omp_get_thread_num() * (size_t)k;
        for (int32_t c = 0; c < k; c++) row_sum[c] = 0.0;
        if (alpha != 0.0) {
            for (int64_t e = R->ptr[p]; e < R->ptr[p + 1]; e++) {
                double v = domino_matrix_value(R, e);
                int64_t brow = (int64_t)R->ind[e] * ldb;
                for (int32_t c = 0; c < k; c++) row_sum[c] += v * ref_get(B, type, brow + c);
            }
        }
        int64_t crow = (int64_t)p * ldc;
        for (int32_t c = 0; c < k; c++) {
            double old = beta == 0.0 ? 0.0 : beta * ref_get(C, type, crow + c);
            ref_set(C, type, crow + c, alpha * row_sum[c] + old);
        }
    }
}

/* C = alpha op(A) B + beta C.  A CSR or CSC of either type, general or
 * stored (skew-)symmetric (then square; expanded first, like domino_ref_spmv
 * mirrors it).  B: ncols(op(A)) x k row-major, leading dimension ldb >= k;
 * C: nrows(op(A)) x k row-major, ldc >= k; both of A's type.  k = 0 does
 * nothing.  Sums in double; beta == 0 never reads C (NaN-safe); alpha == 0
 * never reads B.  CSR op N and CSC op T are row dots on A as stored; CSR
 * op T and CSC op N convert A once to the other format (nnz extra memory)
 * rather than scatter, so every row of C is owned by one thread. */
domino_status domino_ref_spmm(domino_handle h, domino_op op, double alpha, domino_matrix A,
                              int32_t k, const void *B, int64_t ldb, double beta, void *C,
                              int64_t ldc)
{
    const char *what = "domino_ref_spmm";
    domino_status s = domino_ref_check_op(h, what, op, A);
    if (s) return s;
    int32_t nc = op == DOMINO_OP_N ? A->nrows : A->ncols;
    int32_t nb = op == DOMINO_OP_N ? A->ncols : A->nrows;
    s = check_blocks(h, what, k, nb, B, ldb, nc, C, ldc);
    if (s) return s;
    if (A->symmetry != DOMINO_GENERAL && A->nrows != A->ncols)
        return domino_error(h, DOMINO_DIMENSION_MISMATCH,
                            "%s: symmetric storage of a %d x %d matrix", what, A->nrows,
                            A->ncols);
    if (k == 0 || nc == 0) return DOMINO_SUCCESS;
    domino_matrix converted = NULL;
    double *acc = NULL;
    int nthreads = omp_get_max_threads();
    size_t acc_bytes;
    if (domino_mul_size((size_t)nthreads * (size_t)k, sizeof(double), &acc_bytes) ||
        !(acc = domino_malloc(acc_bytes))) {
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory (%d threads x k = %d)",
                         what, nthreads, k);
        goto cleanup;
    }
    s = row_form(h, op, A, &converted);
    if (s) goto cleanup;
    multiply_rows(converted ? converted : A, A->type, alpha, k, B, ldb, beta, C, ldc, acc,
                  nthreads);
cleanup:
    domino_matrix_free(converted);
    domino_free(acc);
    return s;
}
