/* ref_ilu0.c: incomplete LU factorization without fill, ILU(0), on the CPU */
#include "krylov_internal.h"

/* Saad Alg. 10.4 (IKJ) on row i of LU in place.  column_pos[j] is the
 * position of column j in row i or -1 (set and cleared here). */
static void eliminate_row(domino_matrix LU, int32_t i, const int64_t *diag_pos, int64_t *column_pos)
{
    for (int64_t e = LU->ptr[i]; e < LU->ptr[i + 1]; e++)
        column_pos[LU->ind[e]] = e;
    for (int64_t e = LU->ptr[i]; e < LU->ptr[i + 1]; e++) {
        int32_t k = LU->ind[e];
        if (k >= i) break; /* sorted row: the strict lower part comes first */
        double l_ik = domino_matrix_value(LU, e) / domino_matrix_value(LU, diag_pos[k]);
        domino_matrix_set_value(LU, e, l_ik);
        for (int64_t f = diag_pos[k] + 1; f < LU->ptr[k + 1]; f++) {
            int64_t target = column_pos[LU->ind[f]];
            if (target < 0) continue; /* outside the pattern: dropped */
            double v = domino_matrix_value(LU, target) - l_ik * domino_matrix_value(LU, f);
            domino_matrix_set_value(LU, target, v);
        }
    }
    for (int64_t e = LU->ptr[i]; e < LU->ptr[i + 1]; e++)
        column_pos[LU->ind[e]] = -1;
}

/* ILU(0): see domino.h.  Computed in A's value type through the accessors. */
domino_status domino_ref_ilu0(domino_handle h, domino_matrix A, double pivot_shift,
                              domino_matrix *LU, int64_t *replaced)
{
    const char *what = "domino_ref_ilu0";
    domino_status s = domino_ref_factor_check(h, what, A, pivot_shift, LU);
    if (s) return s;
    if (replaced) *replaced = 0;
    domino_matrix F = NULL;
    int64_t *diag_pos = NULL, *column_pos = NULL, shifted = 0;
    int32_t n = A->nrows;
    if (A->symmetry != DOMINO_GENERAL)
        s = domino_matrix_symmetric_expand(h, A, &F);
    else if ((s = domino_matrix_validate(h, A, DOMINO_CHECK_SORTED | DOMINO_CHECK_NO_DUPLICATES,
                                         NULL)) == DOMINO_SUCCESS)
        s = domino_matrix_copy(h, A, &F);
    if (s) goto cleanup;
    F->is_pattern = 0;
    s = domino_ref_factor_scratch(h, what, F, &diag_pos, &column_pos);
    if (s) goto cleanup;
    for (int32_t i = 0; i < n; i++) {
        eliminate_row(F, i, diag_pos, column_pos);
        double pivot = domino_matrix_value(F, diag_pos[i]);
        if (pivot != 0.0 && isfinite(pivot)) continue;
        if (pivot_shift == 0.0) {
            s = domino_error(h, DOMINO_ZERO_PIVOT, "%s: zero pivot at row %d (value %g)", what, i,
                             pivot);
            goto cleanup;
        }
        domino_matrix_set_value(F, diag_pos[i], pivot_shift);
        shifted++;
    }
    if (replaced) *replaced = shifted;
    *LU = F;
    F = NULL;
cleanup:
    domino_matrix_free(F);
    domino_free(diag_pos);
    domino_free(column_pos);
    return s;
}
