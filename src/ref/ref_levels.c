/* ref_levels.c: level sets of the dependency graph of a triangular solve */
#include "ref_internal.h"

/* level[i] = 1 + max level of the rows x_i needs (0 if none), in solve order.
 * Dot form pulls from the row's dependencies; axpy form pushes the final
 * level of column k to the rows that need x_k.  Returns the number of
 * off-diagonal entries of op(T). */
static int64_t compute_levels(domino_matrix A, ref_walk w, int32_t *level)
{
    int32_t n = A->nrows;
    int64_t offdiag = 0;
    for (int32_t i = 0; i < n; i++) level[i] = 0;
    for (int32_t t = 0; t < n; t++) {
        int32_t p = ref_walk_step(w, t, n);
        for (int64_t k = A->ptr[p]; k < A->ptr[p + 1]; k++) {
            int32_t j = A->ind[k];
            if (j == p || !ref_walk_in_triangle(w, p, j)) continue;
            offdiag++;
            if (w.dot && level[j] + 1 > level[p]) level[p] = level[j] + 1;
            if (!w.dot && level[p] + 1 > level[j]) level[j] = level[p] + 1;
        }
    }
    return offdiag;
}

/* fill level_ptr and level_rows by a counting sort of the rows by level
 * (increasing row within a level) */
static void sort_by_level(domino_levels *L)
{
    for (int32_t l = 0; l <= L->nlevels; l++) L->level_ptr[l] = 0;
    for (int32_t i = 0; i < L->n; i++) L->level_ptr[L->row_level[i] + 1]++;
    for (int32_t l = 0; l < L->nlevels; l++) L->level_ptr[l + 1] += L->level_ptr[l];
    for (int32_t i = 0; i < L->n; i++) {
        int32_t l = L->row_level[i];
        L->level_rows[L->level_ptr[l]++] = i;
    }
    /* level_ptr[l] now holds the end of level l: shift back */
    for (int32_t l = L->nlevels; l > 0; l--) L->level_ptr[l] = L->level_ptr[l - 1];
    L->level_ptr[0] = 0;
}

/* *levels = the level sets of op(T) for T the fill triangle of square A (CSR
 * or CSC; structure only, values and diagonal not checked).  Free with
 * domino_levels_free. */
domino_status domino_ref_levels(domino_handle h, domino_op op, domino_fill fill, domino_matrix A,
                                domino_levels **levels)
{
    const char *what = "domino_ref_levels";
    if (!levels) return domino_error(h, DOMINO_NULL_POINTER, "%s: levels is NULL", what);
    *levels = NULL;
    domino_status s = domino_ref_check_triangle(h, what, op, fill, DOMINO_NON_UNIT, A);
    if (s) return s;
    int32_t n = A->nrows;
    domino_levels *L = domino_calloc(1, sizeof(domino_levels));
    if (!L) return domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory", what);
    L->n = n;
    L->row_level = domino_malloc((size_t)n * sizeof(int32_t));
    L->level_rows = domino_malloc((size_t)n * sizeof(int32_t));
    if (!L->row_level || !L->level_rows) {
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory (n = %d)", what, n);
        goto cleanup;
    }
    int64_t offdiag = compute_levels(A, ref_walk_of(A->format, op, fill), L->row_level);
    for (int32_t i = 0; i < n; i++)
        if (L->row_level[i] + 1 > L->nlevels) L->nlevels = L->row_level[i] + 1;
    L->level_ptr = domino_malloc(((size_t)L->nlevels + 1) * sizeof(int64_t));
    if (!L->level_ptr) {
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory (%d levels)", what,
                         L->nlevels);
        goto cleanup;
    }
    sort_by_level(L);
    L->parallelism = n > 0 ? (double)n / L->nlevels : 0.0;
    L->dependency = n > 0 ? (double)(offdiag + n) / n : 0.0;
cleanup:
    if (s)
        domino_levels_free(L);
    else
        *levels = L;
    return s;
}
