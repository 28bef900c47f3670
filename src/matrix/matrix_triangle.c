/* matrix_triangle.c: lower or upper triangle of a square matrix, with a policy for the diagonal */
#include "internal.h"

#include <math.h>
#include <string.h>

/* 1 if the entry at compressed index p, other index q belongs to the
 * triangle `fill` (diagonal included) */
static int in_triangle(domino_format format, domino_fill fill, int32_t p, int32_t q)
{
    int32_t row = format == DOMINO_CSR ? p : q;
    int32_t col = format == DOMINO_CSR ? q : p;
    return fill == DOMINO_LOWER ? col <= row : col >= row;
}

/* entries of slice p of A that go to B (one slot more for the diagonal
 * when the policy sets it) */
static int64_t slice_count(const struct domino_matrix_s *A, domino_fill fill,
                           domino_diag_policy policy, int32_t p)
{
    int64_t count = 0;
    for (int64_t k = A->ptr[p]; k < A->ptr[p + 1]; k++) {
        int32_t q = A->ind[k];
        if (!in_triangle(A->format, fill, p, q)) continue;
        if (q == p && policy == DOMINO_DIAG_DROP) continue;
        count++;
    }
    if (policy == DOMINO_DIAG_ENSURE || policy == DOMINO_DIAG_DOMINANT) count++;
    return count;
}

/* copy the triangle of A into B (sized by slice_count); the diagonal slot
 * added for ENSURE/DOMINANT holds 0 and merges with stored diagonals when
 * B is sorted */
static void fill_triangle(const struct domino_matrix_s *A, domino_fill fill,
                          domino_diag_policy policy, struct domino_matrix_s *B)
{
    int32_t np = domino_matrix_nptr(A);
    int add_diag = policy == DOMINO_DIAG_ENSURE || policy == DOMINO_DIAG_DOMINANT;
    for (int32_t p = 0; p < np; p++) {
        int64_t out = B->ptr[p];
        for (int64_t k = A->ptr[p]; k < A->ptr[p + 1]; k++) {
            int32_t q = A->ind[k];
            if (!in_triangle(A->format, fill, p, q)) continue;
            if (q == p && policy == DOMINO_DIAG_DROP) continue;
            B->ind[out] = q;
            domino_matrix_set_value(B, out++, domino_matrix_value(A, k));
        }
        if (add_diag) {
            B->ind[out] = p;
            domino_matrix_set_value(B, out++, 0.0);
        }
    }
}

/* on sorted B with one diagonal entry per slice: ENSURE turns zero
 * diagonals into 1; DOMINANT sets each diagonal to 1 + the sum of |off-
 * diagonal| of its row (row_sum: scratch of n doubles) */
static void apply_policy(struct domino_matrix_s *B, domino_diag_policy policy, double *row_sum)
{
    int32_t n = B->nrows;
    if (policy == DOMINO_DIAG_DOMINANT) {
        memset(row_sum, 0, (size_t)n * sizeof(double));
        for (int32_t p = 0; p < n; p++) {
            for (int64_t k = B->ptr[p]; k < B->ptr[p + 1]; k++) {
                int32_t q = B->ind[k];
                if (q == p) continue;
                int32_t row = B->format == DOMINO_CSR ? p : q;
                row_sum[row] += fabs(domino_matrix_value(B, k));
            }
        }
    }
    for (int32_t p = 0; p < n; p++) {
        for (int64_t k = B->ptr[p]; k < B->ptr[p + 1]; k++) {
            if (B->ind[k] != p) continue;
            if (policy == DOMINO_DIAG_DOMINANT)
                domino_matrix_set_value(B, k, 1.0 + row_sum[p]);
            else if (domino_matrix_value(B, k) == 0.0)
                domino_matrix_set_value(B, k, 1.0);
        }
    }
}

/* B = triangle `fill` of square A (diagonal included), output in A's format,
 * sorted, duplicates summed, symmetry GENERAL.  The diagonal follows
 * `policy`: KEEP as stored, ENSURE inserts missing or zero diagonals as 1,
 * DOMINANT sets it to 1 + sum |off-diagonal| of the row of the triangle
 * (inserted if missing), DROP leaves the strict triangle.  A stored as
 * symmetric or skew-symmetric is expanded first (its triangle as a full
 * matrix).  is_pattern is kept unless DOMINANT changed the values. */
domino_status domino_matrix_triangle(domino_handle h, domino_matrix A, domino_fill fill,
                                     domino_diag_policy policy, domino_matrix *B)
{
    if (!B) return domino_error(h, DOMINO_NULL_POINTER, "domino_matrix_triangle: B is NULL");
    *B = NULL;
    if (!domino_handle_ok(h))
        return domino_error(NULL, DOMINO_INVALID_OBJECT,
                            "domino_matrix_triangle: h is not a live handle");
    domino_status s = domino_check_matrix(h, A, "domino_matrix_triangle");
    if (s) return s;
    if (fill != DOMINO_LOWER && fill != DOMINO_UPPER)
        return domino_error(h, DOMINO_INVALID_VALUE, "domino_matrix_triangle: bad fill %d", (int)fill);
    if (policy < DOMINO_DIAG_KEEP || policy > DOMINO_DIAG_DROP)
        return domino_error(h, DOMINO_INVALID_VALUE, "domino_matrix_triangle: bad policy %d",
                            (int)policy);
    if (A->nrows != A->ncols)
        return domino_error(h, DOMINO_DIMENSION_MISMATCH,
                            "domino_matrix_triangle: matrix is %d x %d, not square", A->nrows,
                            A->ncols);
    domino_matrix full = NULL, C = NULL;
    double *row_sum = NULL;
    if (A->symmetry != DOMINO_GENERAL) {
        s = domino_matrix_symmetric_expand(h, A, &full);
        if (s) goto cleanup;
        A = full;
    }
    int32_t n = A->nrows;
    int64_t total = 0;
    for (int32_t p = 0; p < n; p++) total += slice_count(A, fill, policy, p);
    s = domino_matrix_new(h, A->format, A->type, n, n, total, &C);
    if (s) goto cleanup;
    for (int32_t p = 0; p < n; p++) C->ptr[p + 1] = C->ptr[p] + slice_count(A, fill, policy, p);
    fill_triangle(A, fill, policy, C);
    s = domino_matrix_sort(h, C);
    if (s) goto cleanup;
    if (policy == DOMINO_DIAG_DOMINANT) {
        row_sum = domino_malloc(((size_t)n + 1) * sizeof(double));
        if (!row_sum) {
            s = domino_error(h, DOMINO_OUT_OF_MEMORY, "domino_matrix_triangle: out of memory");
            goto cleanup;
        }
    }
    if (policy == DOMINO_DIAG_ENSURE || policy == DOMINO_DIAG_DOMINANT)
        apply_policy(C, policy, row_sum);
    C->symmetry = DOMINO_GENERAL;
    C->is_pattern = A->is_pattern && policy != DOMINO_DIAG_DOMINANT;
    *B = C;
    C = NULL;
cleanup:
    domino_free(row_sum);
    domino_matrix_free(C);
    domino_matrix_free(full);
    return s;
}
