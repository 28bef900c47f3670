/* ref_ic0.c: incomplete Cholesky factorization without fill, IC(0), on the CPU */
#include "krylov_internal.h"

/* Row i of L in place (rows sorted, diagonal last, rows above final):
 * l_ik = (a_ik - sum_{j<k} l_ij l_kj) / l_kk for k < i in the pattern, then
 * returns the pivot d = a_ii - sum_{k<i} l_ik^2 (l_ii = sqrt(d) is left to
 * the caller).  column_pos[j]: position of column j in row i or -1. */
static double factor_row(domino_matrix L, int32_t i, const int64_t *diag_pos, int64_t *column_pos)
{
    for (int64_t e = L->ptr[i]; e < L->ptr[i + 1]; e++)
        column_pos[L->ind[e]] = e;
    double pivot = domino_matrix_value(L, diag_pos[i]);
    for (int64_t e = L->ptr[i]; e < diag_pos[i]; e++) {
        int32_t k = L->ind[e];
        double sum = domino_matrix_value(L, e);
        for (int64_t f = L->ptr[k]; f < diag_pos[k]; f++) {
            int64_t partner = column_pos[L->ind[f]];
            if (partner >= 0) sum -= domino_matrix_value(L, partner) * domino_matrix_value(L, f);
        }
        double l_ik = sum / domino_matrix_value(L, diag_pos[k]);
        domino_matrix_set_value(L, e, l_ik);
        pivot -= l_ik * l_ik;
    }
    for (int64_t e = L->ptr[i]; e < L->ptr[i + 1]; e++)
        column_pos[L->ind[e]] = -1;
    return pivot;
}

/* IC(0): see domino.h.  Row-oriented (left-looking) incomplete Cholesky,
 * Saad, Iterative Methods, 2nd ed., Sec. 10.3.5; computed in A's value type. */
domino_status domino_ref_ic0(domino_handle h, domino_matrix A, double pivot_shift, domino_matrix *L,
                             int64_t *replaced)
{
    const char *what = "domino_ref_ic0";
    domino_status s = domino_ref_factor_check(h, what, A, pivot_shift, L);
    if (s) return s;
    if (pivot_shift < 0.0)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: pivot_shift %g < 0", what, pivot_shift);
    if (replaced) *replaced = 0;
    domino_matrix F = NULL;
    int64_t *diag_pos = NULL, *column_pos = NULL, shifted = 0;
    int32_t n = A->nrows;
    s = domino_matrix_triangle(h, A, DOMINO_LOWER, DOMINO_DIAG_KEEP, &F);
    if (s) goto cleanup;
    F->is_pattern = 0;
    s = domino_ref_factor_scratch(h, what, F, &diag_pos, &column_pos);
    if (s) goto cleanup;
    for (int32_t i = 0; i < n; i++) {
        double pivot = factor_row(F, i, diag_pos, column_pos);
        if (!(pivot > 0.0) || !isfinite(pivot)) {
            if (pivot_shift == 0.0) {
                s = domino_error(h, DOMINO_ZERO_PIVOT,
                                 "%s: non-positive pivot at row %d (value %g)", what, i, pivot);
                goto cleanup;
            }
            pivot = pivot_shift;
            shifted++;
        }
        domino_matrix_set_value(F, diag_pos[i], sqrt(pivot));
    }
    if (replaced) *replaced = shifted;
    *L = F;
    F = NULL;
cleanup:
    domino_matrix_free(F);
    domino_free(diag_pos);
    domino_free(column_pos);
    return s;
}
