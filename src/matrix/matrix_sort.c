/* matrix_sort.c: sort the indices of each row (column) and sum duplicates */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* insertion sort of one row's (index, value) pairs; rows are short */
static void sort_row_insertion(int32_t *ind, double *val, int64_t len)
{
    for (int64_t i = 1; i < len; i++) {
        int32_t key = ind[i];
        double v = val[i];
        int64_t j = i - 1;
        while (j >= 0 && ind[j] > key) {
            ind[j + 1] = ind[j];
            val[j + 1] = val[j];
            j--;
        }
        ind[j + 1] = key;
        val[j + 1] = v;
    }
}

/* heap sort for long rows, O(len log len) worst case */
static void sift_down(int32_t *ind, double *val, int64_t root, int64_t len)
{
    for (;;) {
        int64_t child = 2 * root + 1;
        if (child >= len) return;
        if (child + 1 < len && ind[child + 1] > ind[child]) child++;
        if (ind[root] >= ind[child]) return;
        int32_t ti = ind[root]; ind[root] = ind[child]; ind[child] = ti;
        double tv = val[root]; val[root] = val[child]; val[child] = tv;
        root = child;
    }
}

static void sort_row(int32_t *ind, double *val, int64_t len)
{
    if (len <= 32) {
        sort_row_insertion(ind, val, len);
        return;
    }
    for (int64_t i = len / 2 - 1; i >= 0; i--) sift_down(ind, val, i, len);
    for (int64_t end = len - 1; end > 0; end--) {
        int32_t ti = ind[0]; ind[0] = ind[end]; ind[end] = ti;
        double tv = val[0]; val[0] = val[end]; val[end] = tv;
        sift_down(ind, val, 0, end);
    }
}

domino_status domino_matrix_sort(domino_handle h, domino_matrix A)
{
    domino_status s = domino_check_matrix(h, A, "domino_matrix_sort");
    if (s) return s;
    int32_t np = domino_matrix_nptr(A);
    int64_t maxlen = 0;
    for (int32_t r = 0; r < np; r++) {
        int64_t len = A->ptr[r + 1] - A->ptr[r];
        if (len > maxlen) maxlen = len;
    }
    double *row_val = domino_malloc((size_t)(maxlen ? maxlen : 1) * sizeof(double));
    if (!row_val) return domino_error(h, DOMINO_OUT_OF_MEMORY, "domino_matrix_sort: out of memory");
    int64_t out = 0;
    for (int32_t r = 0; r < np; r++) {
        int64_t start = A->ptr[r], len = A->ptr[r + 1] - start;
        for (int64_t k = 0; k < len; k++) row_val[k] = domino_matrix_value(A, start + k);
        sort_row(A->ind + start, row_val, len);
        A->ptr[r] = out;
        for (int64_t k = 0; k < len; k++) {
            if (k > 0 && A->ind[start + k] == A->ind[out - 1]) {
                domino_matrix_set_value(A, out - 1, domino_matrix_value(A, out - 1) + row_val[k]);
            } else {
                A->ind[out] = A->ind[start + k];
                domino_matrix_set_value(A, out, row_val[k]);
                out++;
            }
        }
    }
    A->ptr[np] = out;
    A->nnz = out;
    domino_free(row_val);
    return DOMINO_SUCCESS;
}
