/* matrix_cast.c: the same matrix with values of another type */
#include "internal.h"

#include <string.h>

/* B = A with values converted to `type` (double <-> float, rounding to
 * nearest); the same type gives a copy. */
domino_status domino_matrix_cast(domino_handle h, domino_matrix A, domino_type type,
                                 domino_matrix *B)
{
    if (!B) return domino_error(h, DOMINO_NULL_POINTER, "domino_matrix_cast: B is NULL");
    *B = NULL;
    if (!domino_handle_ok(h))
        return domino_error(NULL, DOMINO_INVALID_OBJECT, "domino_matrix_cast: h is not a live handle");
    domino_status s = domino_check_matrix(h, A, "domino_matrix_cast");
    if (s) return s;
    if (type != DOMINO_FLOAT64 && type != DOMINO_FLOAT32)
        return domino_error(h, DOMINO_INVALID_VALUE, "domino_matrix_cast: bad type %d", (int)type);
    if (type == A->type) return domino_matrix_copy(h, A, B);
    domino_matrix C = NULL;
    s = domino_matrix_new(h, A->format, type, A->nrows, A->ncols, A->nnz, &C);
    if (s) return s;
    int32_t np = domino_matrix_nptr(A);
    memcpy(C->ptr, A->ptr, ((size_t)np + 1) * sizeof(int64_t));
    if (A->nnz > 0) memcpy(C->ind, A->ind, (size_t)A->nnz * sizeof(int32_t));
    for (int64_t k = 0; k < A->nnz; k++) domino_matrix_set_value(C, k, domino_matrix_value(A, k));
    C->symmetry = A->symmetry;
    C->is_pattern = A->is_pattern;
    *B = C;
    return DOMINO_SUCCESS;
}
