/* dist_csr_add.c: *Z = X + Y for two CSR matrices of one shape with
 * sorted columns in each row (the merge of SpGEMM's partial products) */
#include "spmm_internal.h"

domino_status dist_csr_add(domino_handle h, domino_matrix X, domino_matrix Y, domino_matrix *Z)
{
    int64_t count = 0;
    for (int32_t r = 0; r < X->nrows; r++) {
        int64_t a = X->ptr[r], b = Y->ptr[r];
        while (a < X->ptr[r + 1] || b < Y->ptr[r + 1]) {
            int takex = b >= Y->ptr[r + 1] || (a < X->ptr[r + 1] && X->ind[a] <= Y->ind[b]);
            int takey = a >= X->ptr[r + 1] || (b < Y->ptr[r + 1] && Y->ind[b] <= X->ind[a]);
            a += takex;
            b += takey;
            count++;
        }
    }
    domino_status s = domino_matrix_new(h, DOMINO_CSR, X->type, X->nrows, X->ncols, count, Z);
    if (s) return s;
    int64_t e = 0;
    for (int32_t r = 0; r < X->nrows; r++) {
        int64_t a = X->ptr[r], b = Y->ptr[r];
        while (a < X->ptr[r + 1] || b < Y->ptr[r + 1]) {
            int takex = b >= Y->ptr[r + 1] || (a < X->ptr[r + 1] && X->ind[a] <= Y->ind[b]);
            int takey = a >= X->ptr[r + 1] || (b < Y->ptr[r + 1] && Y->ind[b] <= X->ind[a]);
            double v = (takex ? domino_matrix_value(X, a) : 0.0) + (takey ? domino_matrix_value(Y, b) : 0.0);
            (*Z)->ind[e] = takex ? X->ind[a] : Y->ind[b];
            domino_matrix_set_value(*Z, e, v);
            a += takex;
            b += takey;
            e++;
        }
        (*Z)->ptr[r + 1] = e;
    }
    return DOMINO_SUCCESS;
}
