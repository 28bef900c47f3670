/* matrix_transpose.c: B = A^T in the format of A */
#include "internal.h"

/* B = A^T, same format as A.  The arrays of CSR(A^T) are those of CSC(A),
 * so this is a conversion with the dimensions swapped and the format
 * relabelled. */
domino_status domino_matrix_transpose(domino_handle h, domino_matrix A, domino_matrix *B)
{
    if (!B) return domino_error(h, DOMINO_NULL_POINTER, "domino_matrix_transpose: B is NULL");
    *B = NULL;
    if (!domino_handle_ok(h))
        return domino_error(NULL, DOMINO_INVALID_OBJECT,
                            "domino_matrix_transpose: h is not a live handle");
    domino_status s = domino_check_matrix(h, A, "domino_matrix_transpose");
    if (s) return s;
    domino_format other = A->format == DOMINO_CSR ? DOMINO_CSC : DOMINO_CSR;
    domino_matrix C = NULL;
    s = domino_matrix_convert(h, A, other, &C);
    if (s) return s;
    /* C holds A in the other format; read its arrays as A^T in A's format */
    C->format = A->format;
    C->nrows = A->ncols;
    C->ncols = A->nrows;
    *B = C;
    return DOMINO_SUCCESS;
}
