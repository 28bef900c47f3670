/* matrix_symmetric_expand.c: the full general matrix of a symmetric or skew-symmetric one */
#include "internal.h"

/* write the stored entries of A and their mirrors into B (ptr already the
 * slice starts); next: scratch of nptr offsets */
static void scatter_mirrored(const struct domino_matrix_s *A, struct domino_matrix_s *B,
                             int64_t *next)
{
    int32_t n = domino_matrix_nptr(A);
    double mirror_sign = A->symmetry == DOMINO_SKEW_SYMMETRIC ? -1.0 : 1.0;
    for (int32_t p = 0; p < n; p++) next[p] = B->ptr[p];
    for (int32_t p = 0; p < n; p++) {
        for (int64_t k = A->ptr[p]; k < A->ptr[p + 1]; k++) {
            int32_t q = A->ind[k];
            double v = domino_matrix_value(A, k);
            int64_t at = next[p]++;
            B->ind[at] = q;
            domino_matrix_set_value(B, at, v);
            if (q == p) continue;
            /* (p, q) mirrored is (q, p) in either format: slice q, index p */
            at = next[q]++;
            B->ind[at] = p;
            domino_matrix_set_value(B, at, mirror_sign * v);
        }
    }
}

/* B = the full matrix that A (marked SYMMETRIC or SKEW_SYMMETRIC, one
 * triangle stored: lower, upper, or each pair once in either) stands for:
 * every off-diagonal entry (i, j, v) also appears as (j, i, v), or
 * (j, i, -v) when skew.  B is in A's format, sorted, duplicates summed,
 * symmetry GENERAL.  A GENERAL matrix is copied. */
domino_status domino_matrix_symmetric_expand(domino_handle h, domino_matrix A, domino_matrix *B)
{
    if (!B)
        return domino_error(h, DOMINO_NULL_POINTER, "domino_matrix_symmetric_expand: B is NULL");
    *B = NULL;
    if (!domino_handle_ok(h))
        return domino_error(NULL, DOMINO_INVALID_OBJECT,
                            "domino_matrix_symmetric_expand: h is not a live handle");
    domino_status s = domino_check_matrix(h, A, "domino_matrix_symmetric_expand");
    if (s) return s;
    if (A->symmetry == DOMINO_GENERAL) return domino_matrix_copy(h, A, B);
    if (A->nrows != A->ncols)
        return domino_error(h, DOMINO_BAD_INPUT,
                            "domino_matrix_symmetric_expand: symmetric matrix is %d x %d, not square",
                            A->nrows, A->ncols);
    int32_t n = A->nrows;
    domino_matrix C = NULL;
    int64_t *next = NULL;
    int64_t total = A->nnz;
    for (int32_t p = 0; p < n; p++)
        for (int64_t k = A->ptr[p]; k < A->ptr[p + 1]; k++)
            if (A->ind[k] != p) total++;
    s = domino_matrix_new(h, A->format, A->type, n, n, total, &C);
    if (s) goto cleanup;
    next = domino_malloc(((size_t)n + 1) * sizeof(int64_t));
    if (!next) {
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, "domino_matrix_symmetric_expand: out of memory");
        goto cleanup;
    }
    /* slice sizes: stored entries of slice p plus mirrors landing in p */
    for (int32_t p = 0; p < n; p++) {
        C->ptr[p + 1] += A->ptr[p + 1] - A->ptr[p];
        for (int64_t k = A->ptr[p]; k < A->ptr[p + 1]; k++)
            if (A->ind[k] != p) C->ptr[A->ind[k] + 1]++;
    }
    for (int32_t p = 0; p < n; p++) C->ptr[p + 1] += C->ptr[p];
    scatter_mirrored(A, C, next);
    s = domino_matrix_sort(h, C);
    if (s) goto cleanup;
    C->symmetry = DOMINO_GENERAL;
    C->is_pattern = A->is_pattern;
    *B = C;
    C = NULL;
cleanup:
    domino_free(next);
    domino_matrix_free(C);
    return s;
}
