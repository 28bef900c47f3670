/* spgemm_partials.c: what the SpGEMM algorithms that compute products
 * away from C's owner share: a rank's partial tiles (merged as they come),
 * the exchange after the compute phase (each rank exposes its partials of
 * other ranks' tiles in windows; every owner reads and merges the partials
 * of its tiles), and the making of C from the owners' tiles.  Sparse
 * partial tiles cannot be added remotely like dense ones, hence the
 * exchange (the paper passes them through a remote queue). */
#include "spmm_internal.h"

#include <string.h>

domino_status spgemm_partial_add(domino_handle h, spgemm_partials *P, int t, domino_matrix Q)
{
    domino_matrix Z = NULL;
    domino_status s = P->tile[t] ? dist_csr_add(h, P->tile[t], Q, &Z) : DOMINO_SUCCESS;
    if (s) {
        domino_matrix_free(Q);
        return s;
    }
    if (Z) {
        domino_matrix_free(P->tile[t]);
        domino_matrix_free(Q);
        P->tile[t] = Z;
    } else {
        P->tile[t] = Q;
    }
    return DOMINO_SUCCESS;
}

int spgemm_partials_init(spgemm_partials *P, const dist_sparse *A, const dist_sparse *B)
{
    memset(P, 0, sizeof(*P));
    P->ntiles = A->tr * B->tc;
    P->tile = domino_calloc((size_t)P->ntiles, sizeof(domino_matrix));
    P->sizes = domino_calloc((size_t)os_size(A->w) * P->ntiles + 1, sizeof(int64_t));
    return P->tile && P->sizes ? 0 : -1;
}

void spgemm_partials_free(spgemm_partials *P)
{
    for (int k = 0; P->tile && k < P->ntiles; k++) domino_matrix_free(P->tile[k]);
    domino_free(P->tile);
    domino_free(P->sizes);
    P->tile = NULL;
    P->sizes = NULL;
}

/* 1 if this rank exposes its partial of tile t: a tile of another rank
 * with entries (an empty partial adds nothing) */
static int exposed(os_world *w, int tc, int t, int rank, const spgemm_partials *P)
{
    return P->tile[t] && P->tile[t]->nnz > 0 && dist_tile_owner(w, tc, t / tc, t % tc) != rank;
}

/* The exchange: the partials of other ranks' tiles exposed in windows
 * (nnz[r * ntiles + t]: rank r's partial of tile t, reduced over ranks),
 * and every owner merges what the others hold for its tiles into P. */
static domino_status exchange(domino_handle h, os_world *w, domino_type type, int tc, int ntiles,
                              const int64_t *rb, const int64_t *cb, spgemm_partials *P, int64_t *nnz)
{
    int size = os_size(w), rank = os_rank(w);
    size_t vs = domino_type_size(type);
    int64_t rows_total = 0, ent_total = 0;
    for (int t = 0; t < ntiles; t++)
        if (exposed(w, tc, t, rank, P)) {
            nnz[(size_t)rank * ntiles + t] = P->tile[t]->nnz;
            rows_total += P->tile[t]->nrows + 1;
            ent_total += P->tile[t]->nnz;
        }
    domino_status s = os_allreduce_i64(h, w, nnz, size * ntiles);
    os_window *wptr = NULL, *wind = NULL, *wval = NULL;
    int64_t *ptr = NULL;
    int32_t *ind = NULL;
    void *val = NULL;
    if (!s) s = os_window_create(h, w, (size_t)rows_total * sizeof(int64_t), &wptr, (void **)&ptr);
    if (!s) s = os_window_create(h, w, (size_t)ent_total * sizeof(int32_t), &wind, (void **)&ind);
    if (!s) s = os_window_create(h, w, (size_t)ent_total * vs, &wval, &val);
    /* this rank's exposed partials, back to back in tile order */
    int64_t at_ptr = 0, at_ent = 0;
    for (int t = 0; !s && t < ntiles; t++)
        if (exposed(w, tc, t, rank, P)) {
            domino_matrix T = P->tile[t];
            dist_pack_tile(T, ptr + at_ptr, ind + at_ent, (char *)val + (size_t)at_ent * vs);
            at_ptr += T->nrows + 1;
            at_ent += T->nnz;
        }
    if (!s) s = os_window_sync(h, wptr);
    if (!s) s = os_window_sync(h, wind);
    if (!s) s = os_window_sync(h, wval);
    if (!s) s = os_barrier(h, w);
    /* every owner reads the partials of its tiles from each other rank;
     * a rank's offsets follow from the reduced directory */
    for (int r = 0; !s && r < size; r++) {
        if (r == rank) continue;
        int64_t rp = 0, re = 0;
        for (int t = 0; !s && t < ntiles; t++) {
            int64_t e = nnz[(size_t)r * ntiles + t];
            int i = t / tc, j = t % tc;
            if (dist_tile_owner(w, tc, i, j) == r || e == 0) continue;
            int32_t rows = (int32_t)(rb[i + 1] - rb[i]);
            if (dist_tile_owner(w, tc, i, j) == rank) {
                domino_matrix Q = NULL, Z = NULL;
                s = domino_matrix_new(h, DOMINO_CSR, type, rows, (int32_t)(cb[j + 1] - cb[j]), e, &Q);
                if (!s) s = os_get(h, wptr, r, (size_t)rp * sizeof(int64_t), Q->ptr, ((size_t)rows + 1) * sizeof(int64_t));
                if (!s) s = os_get(h, wind, r, (size_t)re * sizeof(int32_t), Q->ind, (size_t)e * sizeof(int32_t));
                if (!s) s = os_get(h, wval, r, (size_t)re * vs, Q->val, (size_t)e * vs);
                if (!s && P->tile[t]) s = dist_csr_add(h, P->tile[t], Q, &Z);
                if (!s) {
                    domino_matrix_free(P->tile[t]);
                    P->tile[t] = Z ? Z : Q;
                    if (Z) domino_matrix_free(Q);
                } else {
                    domino_matrix_free(Q);
                }
            }
            rp += rows + 1;
            re += e;
        }
    }
    domino_status b = os_barrier(h, w); /* nobody frees a window another still reads */
    if (!s) s = b;
    os_window_free(h, wptr);
    os_window_free(h, wind);
    os_window_free(h, wval);
    return s;
}


domino_status spgemm_finish(domino_handle h, const dist_sparse *A, const dist_sparse *B, domino_status s,
                            spgemm_partials *P, dist_sparse **C, dist_times *t)
{
    int tc = B->tc, ntiles = A->tr * tc;
    double before = domino_wtime();
    domino_status b = os_barrier(h, A->w);
    if (!s) s = b;
    t->imbalance = domino_wtime() - before;
    /* every rank exchanges, or none: one without its partials (out of
     * memory) would otherwise meet the others' collectives with different ones */
    int64_t lacking = !P->tile || !P->sizes;
    b = os_allreduce_i64(h, A->w, &lacking, 1);
    if (!s) s = b;
    if (!s && lacking) s = domino_error(h, DOMINO_OUT_OF_MEMORY, "SpGEMM: %lld rank(s) had no memory for their "
                                        "partial tiles", (long long)lacking);
    if (!b && !lacking) {
        b = exchange(h, A->w, A->type, tc, ntiles, A->rb, B->cb, P, P->sizes);
        if (!s) s = b;
    }
    /* owned tiles nobody computed a product for are empty */
    for (int k = 0; !s && k < ntiles; k++)
        if (!P->tile[k] && dist_tile_owner(A->w, tc, k / tc, k % tc) == os_rank(A->w))
            s = domino_matrix_new(h, DOMINO_CSR, A->type, (int32_t)(A->rb[k / tc + 1] - A->rb[k / tc]),
                                  (int32_t)(B->cb[k % tc + 1] - B->cb[k % tc]), 0, &P->tile[k]);
    b = dist_sparse_from_tiles(h, A->w, A->type, A->m, B->n, A->tr, tc, s ? NULL : P->tile, C);
    return s ? s : b;
}
