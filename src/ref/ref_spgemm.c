/* ref_spgemm.c: sparse times sparse C = A B on the CPU (Gustavson) */
#include "ref_internal.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* *csr = M as a general CSR matrix, or NULL when M already is one:
 * symmetric storage expanded (as domino_ref_spmm does), CSC converted. */
static domino_status general_csr(domino_handle h, domino_matrix M, domino_matrix *csr)
{
    *csr = NULL;
    domino_matrix expanded = NULL;
    domino_status s;
    if (M->symmetry != DOMINO_GENERAL) {
        s = domino_matrix_symmetric_expand(h, M, &expanded);
        if (s) return s;
    }
    if (M->format == DOMINO_CSR) {
        *csr = expanded;
        return DOMINO_SUCCESS;
    }
    s = domino_matrix_convert(h, expanded ? expanded : M, DOMINO_CSR, csr);
    domino_matrix_free(expanded);
    return s;
}

/* the inputs: live handle and matrices, one type, A's columns = B's rows */
static domino_status check_inputs(domino_handle h, const char *what, domino_matrix A,
                                  domino_matrix B, domino_matrix *C)
{
    if (C) *C = NULL;
    domino_status s = domino_ref_check_op(h, what, DOMINO_OP_N, A);
    if (s) return s;
    s = domino_check_matrix(h, B, what);
    if (s) return s;
    if (!C) return domino_error(h, DOMINO_NULL_POINTER, "%s: C is NULL", what);
    if (A->type != B->type)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: A is %s, B is %s", what,
                            A->type == DOMINO_FLOAT64 ? "float64" : "float32",
                            B->type == DOMINO_FLOAT64 ? "float64" : "float32");
    if (A->ncols != B->nrows)
        return domino_error(h, DOMINO_DIMENSION_MISMATCH,
                            "%s: A is %d x %d, B is %d x %d: A's columns != B's rows", what,
                            A->nrows, A->ncols, B->nrows, B->ncols);
    return DOMINO_SUCCESS;
}

/* row_count[i+1] = number of distinct columns of row i of A B (symbolic
 * pass); marker holds B->ncols int32 per thread, reset here */
static void count_rows(domino_matrix A, domino_matrix B, int64_t *row_count, int32_t *marker,
                       int nthreads)
{
    int32_t n = B->ncols;
#pragma omp parallel num_threads(nthreads)
    {
        int32_t *seen = marker + (size_t)omp_get_thread_num() * (size_t)n;
        for (int32_t c = 0; c < n; c++) seen[c] = -1;
#pragma omp for schedule(dynamic, 64)
        for (int32_t i = 0; i < A->nrows; i++) {
            int64_t count = 0;
            for (int64_t ka = A->ptr[i]; ka < A->ptr[i + 1]; ka++) {
                int32_t j = A->ind[ka];
                for (int64_t kb = B->ptr[j]; kb < B->ptr[j + 1]; kb++) {
                    int32_t c = B->ind[kb];
                    if (seen[c] == i) continue;
                    seen[c] = i;
                    count++;
                }
            }
            row_count[i + 1] = count;
        }
    }
}

static int compare_int32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* sort the n column indices of one row, insertion sort when short */
static void sort_columns(int32_t *cols, int64_t n)
{
    if (n > 32) {
        qsort(cols, (size_t)n, sizeof(int32_t), compare_int32);
        return;
    }
    for (int64_t a = 1; a < n; a++) {
        int32_t c = cols[a];
        int64_t b = a;
        for (; b > 0 && cols[b - 1] > c; b--) cols[b] = cols[b - 1];
        cols[b] = c;
    }
}

/* numeric pass: row i of C = sum_j A(i,j) B(j,:) in the thread's dense
 * accumulator; the touched columns are listed straight into C->ind (its
 * offsets from the symbolic pass), sorted, then their sums gathered */
static void fill_rows(domino_matrix A, domino_matrix B, domino_matrix C, int32_t *marker,
                      double *accumulator, int nthreads)
{
    int32_t n = B->ncols;
#pragma omp parallel num_threads(nthreads)
    {
        size_t base = (size_t)omp_get_thread_num() * (size_t)n;
        int32_t *seen = marker + base;
        double *sum = accumulator + base;
        for (int32_t c = 0; c < n; c++) seen[c] = -1;
#pragma omp for schedule(dynamic, 64)
        for (int32_t i = 0; i < A->nrows; i++) {
            int64_t next = C->ptr[i];
            for (int64_t ka = A->ptr[i]; ka < A->ptr[i + 1]; ka++) {
                int32_t j = A->ind[ka];
                double a = domino_matrix_value(A, ka);
                for (int64_t kb = B->ptr[j]; kb < B->ptr[j + 1]; kb++) {
                    int32_t c = B->ind[kb];
                    if (seen[c] != i) {
                        seen[c] = i;
                        sum[c] = 0.0;
                        C->ind[next++] = c;
                    }
                    sum[c] += a * domino_matrix_value(B, kb);
                }
            }
            sort_columns(C->ind + C->ptr[i], C->ptr[i + 1] - C->ptr[i]);
            for (int64_t k = C->ptr[i]; k < C->ptr[i + 1]; k++)
                domino_matrix_set_value(C, k, sum[C->ind[k]]);
        }
    }
}

/* C = A B: see domino.h.  Two passes after Gustavson, "Two fast algorithms
 * for sparse matrices: multiplication and permuted transposition", ACM TOMS
 * 4(3), 1978: a symbolic pass counts each row of C with a marker array, a
 * numeric pass sums it in a dense accumulator.  Rows run in parallel, each
 * thread with its own marker and accumulator (B's columns each, allocated up
 * front).  CSC inputs are converted to CSR, (skew-)symmetric storage is
 * expanded.  Values in double, stored in the inputs' type; sums in stored
 * order, so C does not depend on the thread count. */
domino_status domino_ref_spgemm(domino_handle h, domino_matrix A, domino_matrix B,
                                domino_matrix *C)
{
    const char *what = "domino_ref_spgemm";
    domino_status s = check_inputs(h, what, A, B, C);
    if (s) return s;
    domino_matrix a_csr = NULL, b_csr = NULL, product = NULL;
    int64_t *row_count = NULL;
    int32_t *marker = NULL;
    double *accumulator = NULL;
    int nthreads = omp_get_max_threads();
    size_t per_thread = (size_t)nthreads * (size_t)B->ncols, marker_bytes, sum_bytes;
    if (domino_mul_size(per_thread, sizeof(int32_t), &marker_bytes) ||
        domino_mul_size(per_thread, sizeof(double), &sum_bytes)) {
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: %d threads x %d columns too large",
                         what, nthreads, B->ncols);
        goto cleanup;
    }
    row_count = domino_calloc((size_t)A->nrows + 1, sizeof(int64_t));
    marker = domino_malloc(marker_bytes);
    accumulator = domino_malloc(sum_bytes);
    if (!row_count || !marker || !accumulator) {
        s = domino_error(h, DOMINO_OUT_OF_MEMORY,
                         "%s: out of memory (%d threads x %d columns accumulators)", what,
                         nthreads, B->ncols);
        goto cleanup;
    }
    if ((s = general_csr(h, A, &a_csr)) || (s = general_csr(h, B, &b_csr))) goto cleanup;
    domino_matrix left = a_csr ? a_csr : A, right = b_csr ? b_csr : B;
    count_rows(left, right, row_count, marker, nthreads);
    for (int32_t i = 0; i < A->nrows; i++) row_count[i + 1] += row_count[i];
    s = domino_matrix_new(h, DOMINO_CSR, A->type, A->nrows, B->ncols, row_count[A->nrows],
                          &product);
    if (s) goto cleanup;
    memcpy(product->ptr, row_count, ((size_t)A->nrows + 1) * sizeof(int64_t));
    fill_rows(left, right, product, marker, accumulator, nthreads);
    *C = product;
    product = NULL;
cleanup:
    domino_matrix_free(a_csr);
    domino_matrix_free(b_csr);
    domino_matrix_free(product);
    domino_free(row_count);
    domino_free(marker);
    domino_free(accumulator);
    return s;
}
