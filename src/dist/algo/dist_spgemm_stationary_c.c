/* dist_spgemm_stationary_c.c: stationary-C SpGEMM over the one-sided layer
 * (Brock, Buluc, Yelick, ICS 2024): the owner of C(i, j) fetches A(i, l)
 * and B(l, j) for every l (from l = i + j on), multiplies them with the
 * CPU reference (domino_ref_spgemm) and merges the product into its tile */
#include "spmm_internal.h"

#include <string.h>

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

/* C(i, j) = sum over l of A(i, l) B(l, j), a new CSR tile in *T */
static domino_status one_tile(domino_handle h, const dist_sparse *A, const dist_sparse *B, int i,
                              int j, domino_matrix *T, dist_times *t)
{
    int S = A->tc;
    domino_status s = domino_matrix_new(h, DOMINO_CSR, A->type, (int32_t)(A->rb[i + 1] - A->rb[i]),
                                        (int32_t)(B->cb[j + 1] - B->cb[j]), 0, T);
    for (int step = 0; !s && step < S; step++) {
        int l = (i + j + step) % S;
        domino_matrix At = NULL, Bt = NULL, P = NULL, Z = NULL;
        double t0 = domino_wtime();
        s = dist_sparse_get_tile(h, A, i, l, &At);
        if (!s) s = dist_sparse_get_tile(h, B, l, j, &Bt);
        t->communication += domino_wtime() - t0;
        t0 = domino_wtime();
        if (!s && At->nnz && Bt->nnz) {
            s = domino_ref_spgemm(h, At, Bt, &P);
            if (!s) s = dist_csr_add(h, *T, P, &Z);
            if (!s) {
                domino_matrix_free(*T);
                *T = Z;
            }
        }
        t->compute += domino_wtime() - t0;
        domino_matrix_free(At);
        domino_matrix_free(Bt);
        domino_matrix_free(P);
    }
    if (s) {
        domino_matrix_free(*T);
        *T = NULL;
    }
    return s;
}

domino_status dist_spgemm_stationary_c(domino_handle h, const dist_sparse *A, const dist_sparse *B,
                                       dist_sparse **C, dist_times *times)
{
    const char *fn = "dist_spgemm_stationary_c";
    dist_times t;
    memset(&t, 0, sizeof(t));
    domino_status bad = spgemm_check(h, fn, A, B, C);
    if (bad) return bad;
    double start = domino_wtime();
    int tr = A->tr, tc = B->tc, rank = os_rank(A->w);
    domino_matrix *tiles = domino_calloc((size_t)tr * tc, sizeof(domino_matrix));
    domino_status s = tiles ? DOMINO_SUCCESS : domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory", fn);
    for (int tile = 0; !s && tile < tr * tc; tile++)
        if (dist_tile_owner(A->w, tc, tile / tc, tile % tc) == rank)
            s = one_tile(h, A, B, tile / tc, tile % tc, &tiles[tile], &t);
    double before = domino_wtime();
    /* collective: every rank takes part, failed or not (a rank's failure fails all) */
    domino_status c = dist_sparse_from_tiles(h, A->w, A->type, A->m, B->n, tr, tc, s ? NULL : tiles, C);
    if (!s) s = c;
    t.imbalance = domino_wtime() - before; /* includes building the result's windows */
    t.total = domino_wtime() - start;
    if (times) *times = t;
    for (int k = 0; tiles && k < tr * tc; k++) domino_matrix_free(tiles[k]);
    domino_free(tiles);
    return s;
}
