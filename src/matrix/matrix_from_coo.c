/* matrix_from_coo.c: CSR or CSC from coordinate triplets, sorted, duplicates summed */
#include "internal.h"

domino_status domino_matrix_from_coo(domino_handle h, domino_format format, domino_type type,
                                     int32_t nrows, int32_t ncols, int64_t nnz,
                                     const int32_t *rows, const int32_t *cols,
                                     const double *vals, domino_matrix *A)
{
    if (!A) return domino_error(h, DOMINO_NULL_POINTER, "domino_matrix_from_coo: A is NULL");
    *A = NULL;
    if (nnz > 0 && (!rows || !cols))
        return domino_error(h, DOMINO_NULL_POINTER, "domino_matrix_from_coo: rows or cols is NULL");
    if (nrows < 0 || ncols < 0 || nnz < 0)
        return domino_error(h, DOMINO_INVALID_VALUE, "domino_matrix_from_coo: negative size");
    for (int64_t k = 0; k < nnz; k++) {
        if (rows[k] < 0 || rows[k] >= nrows || cols[k] < 0 || cols[k] >= ncols)
            return domino_error(h, DOMINO_INVALID_VALUE,
                                "domino_matrix_from_coo: entry %lld at (%d, %d) outside %d x %d",
                                (long long)k, rows[k], cols[k], nrows, ncols);
    }
    domino_matrix M = NULL;
    domino_status s = domino_matrix_new(h, format, type, nrows, ncols, nnz, &M);
    if (s) return s;
    const int32_t *major = format == DOMINO_CSR ? rows : cols; /* compressed dimension */
    const int32_t *minor = format == DOMINO_CSR ? cols : rows;
    int32_t np = domino_matrix_nptr(M);
    int64_t *next = domino_malloc(((size_t)np + 1) * sizeof(int64_t));
    if (!next) {
        domino_matrix_free(M);
        return domino_error(h, DOMINO_OUT_OF_MEMORY, "domino_matrix_from_coo: out of memory");
    }
    for (int64_t k = 0; k < nnz; k++) M->ptr[major[k] + 1]++;
    for (int32_t r = 0; r < np; r++) M->ptr[r + 1] += M->ptr[r];
    for (int32_t r = 0; r <= np; r++) next[r] = M->ptr[r];
    for (int64_t k = 0; k < nnz; k++) {
        int64_t dst = next[major[k]]++;
        M->ind[dst] = minor[k];
        domino_matrix_set_value(M, dst, vals ? vals[k] : 1.0);
    }
    domino_free(next);
    s = domino_matrix_sort(h, M);
    if (s) {
        domino_matrix_free(M);
        return s;
    }
    *A = M;
    return DOMINO_SUCCESS;
}
