/* matrix_new.c: create, free and look into a sparse matrix */
#include "internal.h"

#include <string.h>

domino_status domino_check_matrix(domino_handle h, domino_matrix A, const char *what)
{
    if (!A) return domino_error(h, DOMINO_NULL_POINTER, "%s: matrix is NULL", what);
    if (A->magic != DOMINO_MATRIX_MAGIC)
        return domino_error(h, DOMINO_INVALID_OBJECT, "%s: not a live matrix", what);
    return DOMINO_SUCCESS;
}

domino_status domino_matrix_new(domino_handle h, domino_format format, domino_type type,
                                int32_t nrows, int32_t ncols, int64_t nnz, domino_matrix *A)
{
    if (!A) return domino_error(h, DOMINO_NULL_POINTER, "domino_matrix_new: A is NULL");
    *A = NULL;
    if (format != DOMINO_CSR && format != DOMINO_CSC)
        return domino_error(h, DOMINO_INVALID_VALUE, "domino_matrix_new: bad format %d", (int)format);
    if (type != DOMINO_FLOAT64 && type != DOMINO_FLOAT32)
        return domino_error(h, DOMINO_INVALID_VALUE, "domino_matrix_new: bad type %d", (int)type);
    if (nrows < 0 || ncols < 0 || nnz < 0)
        return domino_error(h, DOMINO_INVALID_VALUE,
                            "domino_matrix_new: negative size (%d x %d, nnz %lld)", nrows, ncols,
                            (long long)nnz);
    int32_t np = format == DOMINO_CSR ? nrows : ncols;
    size_t bytes_ind, bytes_val;
    if ((uint64_t)nnz > (uint64_t)SIZE_MAX / 8 ||
        domino_mul_size((size_t)nnz, sizeof(int32_t), &bytes_ind) ||
        domino_mul_size((size_t)nnz, domino_type_size(type), &bytes_val))
        return domino_error(h, DOMINO_OUT_OF_MEMORY, "domino_matrix_new: nnz %lld too large",
                            (long long)nnz);
    struct domino_matrix_s *M = domino_calloc(1, sizeof(*M));
    if (!M) goto oom;
    M->magic = DOMINO_MATRIX_MAGIC;
    M->format = format;
    M->type = type;
    M->nrows = nrows;
    M->ncols = ncols;
    M->nnz = nnz;
    M->symmetry = DOMINO_GENERAL;
    M->ptr = domino_calloc((size_t)np + 1, sizeof(int64_t));
    M->ind = domino_malloc(bytes_ind);
    M->val = domino_malloc(bytes_val);
    if (!M->ptr || !M->ind || !M->val) goto oom;
    *A = M;
    return DOMINO_SUCCESS;
oom:
    domino_matrix_free(M);
    return domino_error(h, DOMINO_OUT_OF_MEMORY,
                        "domino_matrix_new: out of memory for %d x %d matrix with %lld entries",
                        nrows, ncols, (long long)nnz);
}

void domino_matrix_free(domino_matrix A)
{
    if (!A || A->magic != DOMINO_MATRIX_MAGIC) return;
    domino_free(A->ptr);
    domino_free(A->ind);
    domino_free(A->val);
    A->magic = DOMINO_FREED_MAGIC;
    domino_free(A);
}

domino_status domino_matrix_get_view(domino_handle h, domino_matrix A, domino_matrix_view *v)
{
    domino_status s = domino_check_matrix(h, A, "domino_matrix_get_view");
    if (s) return s;
    if (!v) return domino_error(h, DOMINO_NULL_POINTER, "domino_matrix_get_view: v is NULL");
    v->format = A->format;
    v->type = A->type;
    v->nrows = A->nrows;
    v->ncols = A->ncols;
    v->nnz = A->nnz;
    v->ptr = A->ptr;
    v->ind = A->ind;
    v->val = A->val;
    v->symmetry = A->symmetry;
    v->is_pattern = A->is_pattern;
    return DOMINO_SUCCESS;
}

domino_status domino_matrix_set_kind(domino_handle h, domino_matrix A, domino_symmetry symmetry,
                                     int is_pattern)
{
    domino_status s = domino_check_matrix(h, A, "domino_matrix_set_kind");
    if (s) return s;
    if (symmetry < DOMINO_GENERAL || symmetry > DOMINO_SKEW_SYMMETRIC)
        return domino_error(h, DOMINO_INVALID_VALUE, "domino_matrix_set_kind: bad symmetry %d",
                            (int)symmetry);
    A->symmetry = symmetry;
    A->is_pattern = is_pattern != 0;
    return DOMINO_SUCCESS;
}
