/* matrix_copy.c: B = a deep copy of A (same format, type and flags) */
#include "internal.h"

#include <string.h>

/* B = A, every array duplicated; B is NULL on failure */
domino_status domino_matrix_copy(domino_handle h, domino_matrix A, domino_matrix *B)
{
    if (!B) return domino_error(h, DOMINO_NULL_POINTER, "domino_matrix_copy: B is NULL");
    *B = NULL;
    if (!domino_handle_ok(h))
        return domino_error(NULL, DOMINO_INVALID_OBJECT, "domino_matrix_copy: h is not a live handle");
    domino_status s = domino_check_matrix(h, A, "domino_matrix_copy");
    if (s) return s;
    domino_matrix C = NULL;
    s = domino_matrix_new(h, A->format, A->type, A->nrows, A->ncols, A->nnz, &C);
    if (s) return s;
    int32_t np = domino_matrix_nptr(A);
    memcpy(C->ptr, A->ptr, ((size_t)np + 1) * sizeof(int64_t));
    if (A->nnz > 0) {
        memcpy(C->ind, A->ind, (size_t)A->nnz * sizeof(int32_t));
        memcpy(C->val, A->val, (size_t)A->nnz * domino_type_size(A->type));
    }
    C->symmetry = A->symmetry;
    C->is_pattern = A->is_pattern;
    *B = C;
    return DOMINO_SUCCESS;
}
