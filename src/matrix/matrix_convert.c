/* matrix_convert.c: the same matrix stored in the other format (CSR <-> CSC) */
#include "internal.h"

#include <string.h>

/* Scatter the entries of A into B, whose compressed dimension is A's other
 * dimension (a counting sort by minor index).  Walking A's slices in order
 * leaves the indices of every slice of B sorted. */
static void scatter_transposed(const struct domino_matrix_s *A, struct domino_matrix_s *B,
                               int64_t *next)
{
    int32_t np = domino_matrix_nptr(A);
    int32_t nind = domino_matrix_nind(A);
    size_t vsize = domino_type_size(A->type);
    for (int64_t k = 0; k < A->nnz; k++) B->ptr[A->ind[k] + 1]++;
    for (int32_t q = 0; q < nind; q++) B->ptr[q + 1] += B->ptr[q];
    memcpy(next, B->ptr, (size_t)nind * sizeof(int64_t));
    const char *src = A->val;
    char *dst = B->val;
    for (int32_t p = 0; p < np; p++) {
        for (int64_t k = A->ptr[p]; k < A->ptr[p + 1]; k++) {
            int64_t at = next[A->ind[k]]++;
            B->ind[at] = p;
            memcpy(dst + (size_t)at * vsize, src + (size_t)k * vsize, vsize);
        }
    }
}

/* B = A stored as `format`; the same format gives a copy.  Indices of B are
 * sorted (duplicates, if A has any, are kept). */
domino_status domino_matrix_convert(domino_handle h, domino_matrix A, domino_format format,
                                    domino_matrix *B)
{
    if (!B) return domino_error(h, DOMINO_NULL_POINTER, "domino_matrix_convert: B is NULL");
    *B = NULL;
    if (!domino_handle_ok(h))
        return domino_error(NULL, DOMINO_INVALID_OBJECT,
                            "domino_matrix_convert: h is not a live handle");
    domino_status s = domino_check_matrix(h, A, "domino_matrix_convert");
    if (s) return s;
    if (format != DOMINO_CSR && format != DOMINO_CSC)
        return domino_error(h, DOMINO_INVALID_VALUE, "domino_matrix_convert: bad format %d",
                            (int)format);
    if (format == A->format) return domino_matrix_copy(h, A, B);
    domino_matrix C = NULL;
    int64_t *next = NULL;
    s = domino_matrix_new(h, format, A->type, A->nrows, A->ncols, A->nnz, &C);
    if (s) goto cleanup;
    next = domino_malloc(((size_t)domino_matrix_nptr(C) + 1) * sizeof(int64_t));
    if (!next) {
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, "domino_matrix_convert: out of memory");
        goto cleanup;
    }
    scatter_transposed(A, C, next);
    C->symmetry = A->symmetry;
    C->is_pattern = A->is_pattern;
    *B = C;
    C = NULL;
cleanup:
    domino_free(next);
    domino_matrix_free(C);
    return s;
}
