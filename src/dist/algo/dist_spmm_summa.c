/* dist_spmm_summa.c: the bulk-synchronous SUMMA SpMM, the baseline of the
 * one-sided algorithms (van de Geijn and Watts' SUMMA with a sparse A): at
 * every step the owners of one block column of A and one block row of B
 * broadcast them along grid rows and columns, and every rank adds the
 * product into its C tile; nobody moves on before the step's broadcasts */
#include "spmm_internal.h"

#include <string.h>

void dist_summa_free(dist_summa *S)
{
    if (!S) return;
    for (int l = 0; l < S->K; l++) {
        if (S->a) domino_matrix_free(S->a[l]);
        if (S->b) domino_free(S->b[l]);
    }
    domino_free(S->a);
    domino_free(S->b);
    domino_free(S->c);
    domino_free(S->a_nnz);
    domino_free(S->rb);
    domino_free(S->kb);
    domino_free(S->cb);
    os_group_free(S->row);
    os_group_free(S->col);
    domino_free(S);
}

/* this rank's tiles of A and B, its zeroed C */
static domino_status own_tiles(domino_handle h, domino_matrix A, const void *B, int64_t ldb, dist_summa *S)
{
    size_t vs = domino_type_size(S->type);
    int64_t cols = S->cb[S->myc + 1] - S->cb[S->myc];
    int64_t rows = S->rb[S->myr + 1] - S->rb[S->myr];
    domino_status s = DOMINO_SUCCESS;
    for (int l = 0; l < S->K && !s; l++) {
        if (l % S->pc == S->myc) s = dist_cut_tile(h, A, S->rb, S->kb, S->myr, l, &S->a[l]);
        if (!s && l % S->pr == S->myr) {
            int64_t kr = S->kb[l + 1] - S->kb[l];
            S->b[l] = domino_malloc((size_t)(kr * cols) * vs + 1);
            if (!S->b[l]) return domino_error(h, DOMINO_OUT_OF_MEMORY, "dist_summa_make: out of memory (rank %d)",
                                              os_rank(S->w));
            dist_copy_block(S->b[l], B, ldb, S->kb[l], kr, S->cb[S->myc], cols, vs);
        }
    }
    if (!s && !(S->c = domino_calloc((size_t)(rows * cols) + 1, sizeof(double))))
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, "dist_summa_make: out of memory for C (rank %d)", os_rank(S->w));
    return s;
}

domino_status dist_summa_make(domino_handle h, os_world *w, domino_matrix A, const void *B, int64_t n,
                              int64_t ldb, int pr, int pc, dist_summa **out)
{
    const char *fn = "dist_summa_make";
    if (!out) return domino_error(h, DOMINO_NULL_POINTER, "%s: S is NULL", fn);
    *out = NULL;
    domino_status s = domino_check_matrix(h, A, fn);
    if (s) return s;
    if (A->format != DOMINO_CSR || A->symmetry != DOMINO_GENERAL)
        return domino_error(h, DOMINO_NOT_SUPPORTED, "%s: A must be CSR stored general", fn);
    if (pr < 1 || pc < 1 || (int64_t)pr * pc != os_size(w))
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: a %d x %d grid for %d ranks", fn, pr, pc, os_size(w));
    if (n < 1 || ldb < n || (!B && A->ncols > 0))
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: B of %lld columns, leading dimension %lld", fn,
                            (long long)n, (long long)ldb);
    dist_summa *S = domino_calloc(1, sizeof(*S));
    if (!S) return domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory", fn);
    S->w = w;
    S->type = A->type;
    S->m = A->nrows;
    S->k = A->ncols;
    S->n = n;
    S->pr = pr;
    S->pc = pc;
    S->K = dist_lcm(pr, pc);
    S->myr = os_rank(w) / pc;
    S->myc = os_rank(w) % pc;
    S->rb = dist_split(S->m, pr);
    S->kb = dist_split(S->k, S->K);
    S->cb = dist_split(n, pc);
    S->a_nnz = domino_calloc((size_t)pr * S->K, sizeof(int64_t));
    S->a = domino_calloc((size_t)S->K, sizeof(domino_matrix));
    S->b = domino_calloc((size_t)S->K, sizeof(void *));
    if (!S->rb || !S->kb || !S->cb || !S->a_nnz || !S->a || !S->b)
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory (rank %d)", fn, os_rank(w));
    if (!s) {
        dist_count_blocks(A, S->rb, pr, S->kb, S->K, S->a_nnz); /* every rank knows every size */
        s = own_tiles(h, A, B, ldb, S);
    }
    /* the groups are collective: every rank splits, failed or not */
    domino_status g1 = os_group_split(h, w, S->myr, S->myc, &S->row);
    domino_status g2 = os_group_split(h, w, S->myc, S->myr, &S->col);
    if (!s) s = g1 ? g1 : g2;
    int64_t failed = s != DOMINO_SUCCESS;
    domino_status r = os_allreduce_i64(h, w, &failed, 1);
    if (!s && (r || failed))
        s = r ? r : domino_error(h, DOMINO_DEVICE_ERROR, "%s: another rank failed", fn);
    if (s) {
        dist_summa_free(S);
        return s;
    }
    *out = S;
    return DOMINO_SUCCESS;
}

domino_status dist_spmm_summa(domino_handle h, dist_summa *S, dist_times *times)
{
    const char *fn = "dist_spmm_summa";
    dist_times t;
    tile_pair P;
    memset(&t, 0, sizeof(t));
    memset(&P, 0, sizeof(P));
    if (!S) return domino_error(h, DOMINO_NULL_POINTER, "%s: S is NULL", fn);
    size_t vs = domino_type_size(S->type);
    int64_t rows = S->rb[S->myr + 1] - S->rb[S->myr], cols = S->cb[S->myc + 1] - S->cb[S->myc];
    /* receive buffers as big as the largest block this rank can be sent */
    int64_t max_nnz = 1, max_k = 1;
    for (int l = 0; l < S->K; l++) {
        if (S->a_nnz[(size_t)S->myr * S->K + l] > max_nnz) max_nnz = S->a_nnz[(size_t)S->myr * S->K + l];
        if (S->kb[l + 1] - S->kb[l] > max_k) max_k = S->kb[l + 1] - S->kb[l];
    }
    P.ptr = domino_malloc((size_t)(rows + 1) * sizeof(int64_t));
    P.ind = domino_malloc((size_t)max_nnz * sizeof(int32_t));
    P.val = domino_malloc((size_t)max_nnz * vs);
    P.b = domino_malloc((size_t)(max_k * cols) * vs + 1);
    domino_status s = P.ptr && P.ind && P.val && P.b
                          ? DOMINO_SUCCESS
                          : domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory (rank %d)", fn, os_rank(S->w));
    /* a rank short of memory still takes part in no broadcast: all learn of it first */
    int64_t failed = s != DOMINO_SUCCESS;
    domino_status r = os_allreduce_i64(h, S->w, &failed, 1);
    if (!s && (r || failed)) s = r ? r : domino_error(h, DOMINO_DEVICE_ERROR, "%s: another rank failed", fn);
    double start = domino_wtime();
    memset(S->c, 0, (size_t)(rows * cols) * sizeof(double));
    for (int l = 0; l < S->K && !s; l++) {
        int aroot = l % S->pc, broot = l % S->pr;
        int64_t nnz = S->a_nnz[(size_t)S->myr * S->K + l];
        P.nnz = nnz;
        P.brows = S->kb[l + 1] - S->kb[l];
        if (aroot == S->myc) { /* the sender's own tile */
            memcpy(P.ptr, S->a[l]->ptr, (size_t)(rows + 1) * sizeof(int64_t));
            memcpy(P.ind, S->a[l]->ind, (size_t)nnz * sizeof(int32_t));
            memcpy(P.val, S->a[l]->val, (size_t)nnz * vs);
        }
        if (broot == S->myr) memcpy(P.b, S->b[l], (size_t)(P.brows * cols) * vs);
        double t0 = domino_wtime();
        s = os_bcast(h, S->row, P.ptr, (size_t)(rows + 1) * sizeof(int64_t), aroot);
        if (!s && nnz) s = os_bcast(h, S->row, P.ind, (size_t)nnz * sizeof(int32_t), aroot);
        if (!s && nnz) s = os_bcast(h, S->row, P.val, (size_t)nnz * vs, aroot);
        if (!s && P.brows * cols > 0) s = os_bcast(h, S->col, P.b, (size_t)(P.brows * cols) * vs, broot);
        t.communication += domino_wtime() - t0;
        if (s) break;
        t0 = domino_wtime();
        spmm_multiply(&P, S->type, rows, cols, S->c);
        t.compute += domino_wtime() - t0;
    }
    domino_free(P.ptr);
    domino_free(P.ind);
    domino_free(P.val);
    domino_free(P.b);
    return dist_close(h, S->w, s, start, &t, times);
}

domino_status dist_summa_gather(domino_handle h, dist_summa *S, void *C, int64_t ldc)
{
    const char *fn = "dist_summa_gather";
    if (!S || !C) return domino_error(h, DOMINO_NULL_POINTER, "%s: NULL argument", fn);
    if (ldc < S->n) return domino_error(h, DOMINO_INVALID_VALUE, "%s: ldc %lld < n %lld", fn, (long long)ldc, (long long)S->n);
    double *all = domino_calloc((size_t)(S->m * S->n) + 1, sizeof(double));
    int64_t failed = all == NULL;
    domino_status s = os_allreduce_i64(h, S->w, &failed, 1);
    if (s || failed) {
        domino_free(all);
        return s ? s : domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory (some rank)", fn);
    }
    int64_t cols = S->cb[S->myc + 1] - S->cb[S->myc];
    for (int64_t i = S->rb[S->myr]; i < S->rb[S->myr + 1]; i++)
        for (int64_t q = 0; q < cols; q++)
            all[i * S->n + S->cb[S->myc] + q] = S->c[(i - S->rb[S->myr]) * cols + q];
    /* every C entry is held by one rank: the sum is a gather (in pieces an int can count) */
    for (int64_t at = 0; !s && at < S->m * S->n; at += 1 << 28) {
        int64_t len = S->m * S->n - at < (1 << 28) ? S->m * S->n - at : (1 << 28);
        s = os_allreduce_f64(h, S->w, all + at, (int)len, 0);
    }
    for (int64_t i = 0; !s && i < S->m; i++)
        for (int64_t q = 0; q < S->n; q++) {
            if (S->type == DOMINO_FLOAT64) ((double *)C)[i * ldc + q] = all[i * S->n + q];
            else ((float *)C)[i * ldc + q] = (float)all[i * S->n + q];
        }
    domino_free(all);
    return s;
}
