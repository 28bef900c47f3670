/* matrix_laplacian.c: the graph Laplacian of a matrix's pattern plus a
 * shift of the identity (how pattern files get SPD values) */
#include "internal.h"

domino_status domino_matrix_laplacian(domino_handle h, domino_matrix A, double shift,
                                      domino_matrix *L)
{
    domino_matrix_view v;
    int32_t *rows = NULL, *cols = NULL;
    double *vals = NULL;
    if (!L) return domino_error(h, DOMINO_NULL_POINTER, "domino_matrix_laplacian: L is NULL");
    *L = NULL;
    domino_status s = domino_matrix_get_view(h, A, &v);
    if (s) return s;
    if (v.format != DOMINO_CSR || v.nrows != v.ncols)
        return domino_error(h, DOMINO_INVALID_VALUE,
                            "domino_matrix_laplacian: A must be square CSR (is %d x %d)", v.nrows,
                            v.ncols);
    size_t cap = (size_t)v.nnz + (size_t)v.nrows;
    rows = domino_malloc(cap * sizeof(int32_t));
    cols = domino_malloc(cap * sizeof(int32_t));
    vals = domino_malloc(cap * sizeof(double));
    if (!rows || !cols || !vals) {
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, "domino_matrix_laplacian: out of memory for "
                         "%d rows, %lld entries", v.nrows, (long long)v.nnz);
        goto cleanup;
    }
    int64_t k = 0;
    for (int32_t i = 0; i < v.nrows; i++) {
        int64_t degree = 0;
        for (int64_t e = v.ptr[i]; e < v.ptr[i + 1]; e++) {
            if (v.ind[e] == i) continue;
            rows[k] = i;
            cols[k] = v.ind[e];
            vals[k++] = -1.0;
            degree++;
        }
        rows[k] = i;
        cols[k] = i;
        vals[k++] = (double)degree + shift;
    }
    s = domino_matrix_from_coo(h, DOMINO_CSR, DOMINO_FLOAT64, v.nrows, v.ncols, k, rows, cols,
                               vals, L);
cleanup:
    domino_free(rows);
    domino_free(cols);
    domino_free(vals);
    return s;
}
