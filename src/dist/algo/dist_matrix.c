/* dist_matrix.c: tiled distributed matrices (dist_tiles.h): made from a
 * global matrix every rank holds, gathered back, freed */
#include "spmm_internal.h"

#include <string.h>

#define DIST_MAX_RANKS 1024       /* ranks a tiled matrix can be spread over */
#define DIST_MAX_TILES (1 << 22)  /* tiles of one matrix */
#define DIST_MAX_ROW_TILES 4096   /* tile columns dist_sparse_gather handles */

void dist_sparse_free(domino_handle h, dist_sparse *D)
{
    if (!D) return;
    os_window_free(h, D->wptr);
    os_window_free(h, D->wind);
    os_window_free(h, D->wval);
    domino_free(D->rb);
    domino_free(D->cb);
    domino_free(D->nnz);
    domino_free(D->at_ptr);
    domino_free(D->at_ent);
    domino_free(D);
}

void dist_dense_free(domino_handle h, dist_dense *D)
{
    if (!D) return;
    os_window_free(h, D->wval);
    domino_free(D->rb);
    domino_free(D->cb);
    domino_free(D->at);
    domino_free(D);
}

/* where each tile starts in its owner's windows (every rank's tiles back to
 * back, in tile order); this rank's totals in *mine_ptr, *mine_ent */
static void sparse_directory(dist_sparse *D, int64_t *mine_ptr, int64_t *mine_ent)
{
    int64_t next_ptr[DIST_MAX_RANKS], next_ent[DIST_MAX_RANKS];
    int size = os_size(D->w);
    memset(next_ptr, 0, sizeof(int64_t) * (size_t)size);
    memset(next_ent, 0, sizeof(int64_t) * (size_t)size);
    for (int t = 0; t < D->tr * D->tc; t++) {
        int o = dist_tile_owner(D->w, D->tc, t / D->tc, t % D->tc);
        D->at_ptr[t] = next_ptr[o];
        D->at_ent[t] = next_ent[o];
        next_ptr[o] += D->rb[t / D->tc + 1] - D->rb[t / D->tc] + 1;
        next_ent[o] += D->nnz[t];
    }
    *mine_ptr = next_ptr[os_rank(D->w)];
    *mine_ent = next_ent[os_rank(D->w)];
}

/* a new tiled matrix without windows: sizes, boundaries, directory arrays */
static domino_status sparse_shell(domino_handle h, const char *fn, os_world *w, domino_type type,
                                  int64_t m, int64_t n, int tr, int tc, dist_sparse **out)
{
    *out = NULL;
    if (tr < 1 || tc < 1 || (int64_t)tr * tc > DIST_MAX_TILES || m < 0 || n < 0)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: bad size %lld x %lld or tile grid %d x %d "
                            "(1 to %d tiles)", fn, (long long)m, (long long)n, tr, tc, DIST_MAX_TILES);
    if (os_size(w) > DIST_MAX_RANKS)
        return domino_error(h, DOMINO_NOT_SUPPORTED, "%s: more than %d ranks", fn, DIST_MAX_RANKS);
    dist_sparse *D = domino_calloc(1, sizeof(*D));
    if (!D) return domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory", fn);
    D->w = w;
    D->type = type;
    D->m = m;
    D->n = n;
    D->tr = tr;
    D->tc = tc;
    D->rb = dist_split(m, tr);
    D->cb = dist_split(n, tc);
    D->nnz = domino_calloc((size_t)tr * tc, sizeof(int64_t));
    D->at_ptr = domino_calloc((size_t)tr * tc, sizeof(int64_t));
    D->at_ent = domino_calloc((size_t)tr * tc, sizeof(int64_t));
    if (!D->rb || !D->cb || !D->nnz || !D->at_ptr || !D->at_ent) {
        dist_sparse_free(h, D);
        return domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory", fn);
    }
    *out = D;
    return DOMINO_SUCCESS;
}

domino_status dist_sparse_from_tiles(domino_handle h, os_world *w, domino_type type, int64_t m,
                                     int64_t n, int tr, int tc, domino_matrix *tiles,
                                     dist_sparse **out)
{
    const char *fn = "dist_sparse_from_tiles";
    int64_t mine_ptr = 0, mine_ent = 0, *ptr = NULL;
    int32_t *ind = NULL;
    void *val = NULL;
    if (!out) return domino_error(h, DOMINO_NULL_POINTER, "%s: D is NULL", fn);
    dist_sparse *D = NULL;
    domino_status s = sparse_shell(h, fn, w, type, m, n, tr, tc, &D), c;
    int rank = os_rank(w);
    if (!s && !tiles) /* this rank failed before: it only takes part */
        s = domino_error(h, DOMINO_BAD_INPUT, "%s: rank %d has no tiles", fn, rank);
    for (int t = 0; !s && t < tr * tc; t++) {
        if (dist_tile_owner(w, tc, t / tc, t % tc) != rank) continue;
        domino_matrix T = tiles[t];
        if (!T || T->format != DOMINO_CSR || T->type != type ||
            T->nrows != D->rb[t / tc + 1] - D->rb[t / tc] || T->ncols != D->cb[t % tc + 1] - D->cb[t % tc])
            s = domino_error(h, DOMINO_INVALID_VALUE, "%s: rank %d: tile (%d, %d) missing or of the "
                             "wrong shape, type or format", fn, rank, t / tc, t % tc);
        else
            D->nnz[t] = T->nnz;
    }
    /* collective from here: every rank takes part, failed or not */
    int64_t failed = s != DOMINO_SUCCESS;
    if (D) c = os_allreduce_i64(h, w, D->nnz, tr * tc);
    else c = DOMINO_SUCCESS;
    if (!s) s = c;
    c = os_allreduce_i64(h, w, &failed, 1);
    if (!s && (c || failed)) s = c ? c : domino_error(h, DOMINO_BAD_INPUT, "%s: another rank failed", fn);
    if (s) {
        dist_sparse_free(h, D);
        return s;
    }
    sparse_directory(D, &mine_ptr, &mine_ent);
    size_t vs = domino_type_size(type);
    if ((s = os_window_create(h, w, (size_t)mine_ptr * sizeof(int64_t), &D->wptr, (void **)&ptr)) ||
        (s = os_window_create(h, w, (size_t)mine_ent * sizeof(int32_t), &D->wind, (void **)&ind)) ||
        (s = os_window_create(h, w, (size_t)mine_ent * vs, &D->wval, &val)))
        goto cleanup;
    for (int t = 0; t < tr * tc; t++) {
        if (dist_tile_owner(w, tc, t / tc, t % tc) != rank) continue;
        dist_pack_tile(tiles[t], ptr + D->at_ptr[t], ind + D->at_ent[t], (char *)val + (size_t)D->at_ent[t] * vs);
    }
    if ((s = os_window_sync(h, D->wptr)) || (s = os_window_sync(h, D->wind)) ||
        (s = os_window_sync(h, D->wval)) || (s = os_barrier(h, w)))
        goto cleanup;
    *out = D;
    return DOMINO_SUCCESS;
cleanup:
    dist_sparse_free(h, D);
    return s;
}

domino_status dist_sparse_from_global(domino_handle h, os_world *w, domino_matrix A, int tr, int tc,
                                      dist_sparse **out)
{
    const char *fn = "dist_sparse_from_global";
    if (!out) return domino_error(h, DOMINO_NULL_POINTER, "%s: D is NULL", fn);
    *out = NULL;
    domino_status s = domino_check_matrix(h, A, fn);
    if (s) return s;
    if (A->format != DOMINO_CSR || A->symmetry != DOMINO_GENERAL)
        return domino_error(h, DOMINO_NOT_SUPPORTED, "%s: A must be CSR stored general", fn);
    if (tr < 1 || tc < 1 || (int64_t)tr * tc > DIST_MAX_TILES)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: bad tile grid %d x %d (1 to %d tiles)", fn,
                            tr, tc, DIST_MAX_TILES);
    domino_matrix *tiles = domino_calloc((size_t)tr * tc, sizeof(domino_matrix));
    int64_t *rb = dist_split(A->nrows, tr), *cb = dist_split(A->ncols, tc);
    if (!tiles || !rb || !cb) s = domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory", fn);
    for (int t = 0; !s && t < tr * tc; t++)
        if (dist_tile_owner(w, tc, t / tc, t % tc) == os_rank(w))
            s = dist_cut_tile(h, A, rb, cb, t / tc, t % tc, &tiles[t]);
    /* a rank that failed still takes part; from_tiles reports it everywhere */
    domino_status c = dist_sparse_from_tiles(h, w, A->type, A->nrows, A->ncols, tr, tc, tiles, out);
    if (!s) s = c;
    for (int t = 0; tiles && t < tr * tc; t++) domino_matrix_free(tiles[t]);
    domino_free(tiles);
    domino_free(rb);
    domino_free(cb);
    return s;
}

domino_status dist_sparse_get_tile(domino_handle h, const dist_sparse *D, int i, int j,
                                   domino_matrix *T)
{
    int t = i * D->tc + j, owner = dist_tile_owner(D->w, D->tc, i, j);
    int64_t rows = D->rb[i + 1] - D->rb[i];
    domino_status s = domino_matrix_new(h, DOMINO_CSR, D->type, (int32_t)rows,
                                        (int32_t)(D->cb[j + 1] - D->cb[j]), D->nnz[t], T);
    if (s) return s;
    size_t vs = domino_type_size(D->type);
    s = os_get(h, D->wptr, owner, (size_t)D->at_ptr[t] * sizeof(int64_t), (*T)->ptr,
               (size_t)(rows + 1) * sizeof(int64_t));
    if (!s && D->nnz[t])
        s = os_get(h, D->wind, owner, (size_t)D->at_ent[t] * sizeof(int32_t), (*T)->ind,
                   (size_t)D->nnz[t] * sizeof(int32_t));
    if (!s && D->nnz[t])
        s = os_get(h, D->wval, owner, (size_t)D->at_ent[t] * vs, (*T)->val, (size_t)D->nnz[t] * vs);
    if (s) {
        domino_matrix_free(*T);
        *T = NULL;
    }
    return s;
}

domino_status dist_sparse_gather(domino_handle h, const dist_sparse *D, domino_matrix *M)
{
    int64_t total = 0;
    for (int t = 0; t < D->tr * D->tc; t++) total += D->nnz[t];
    domino_status s = domino_matrix_new(h, DOMINO_CSR, D->type, (int32_t)D->m, (int32_t)D->n, total, M);
    size_t vs = domino_type_size(D->type);
    int64_t e = 0;
    for (int i = 0; !s && i < D->tr; i++) {
        domino_matrix tiles[DIST_MAX_ROW_TILES] = {NULL};
        for (int j = 0; !s && j < D->tc && j < DIST_MAX_ROW_TILES; j++) s = dist_sparse_get_tile(h, D, i, j, &tiles[j]);
        if (!s && D->tc > DIST_MAX_ROW_TILES)
            s = domino_error(h, DOMINO_NOT_SUPPORTED, "dist_sparse_gather: more than %d tile columns",
                             DIST_MAX_ROW_TILES);
        for (int64_t r = 0; !s && r < D->rb[i + 1] - D->rb[i]; r++) {
            for (int j = 0; j < D->tc; j++)
                for (int64_t k = tiles[j]->ptr[r]; k < tiles[j]->ptr[r + 1]; k++, e++) {
                    (*M)->ind[e] = (int32_t)(tiles[j]->ind[k] + D->cb[j]);
                    memcpy((char *)(*M)->val + (size_t)e * vs, (const char *)tiles[j]->val + (size_t)k * vs, vs);
                }
            (*M)->ptr[D->rb[i] + r + 1] = e;
        }
        for (int j = 0; j < D->tc && j < DIST_MAX_ROW_TILES; j++) domino_matrix_free(tiles[j]);
    }
    if (s) {
        domino_matrix_free(*M);
        *M = NULL;
    }
    return s;
}

domino_status dist_dense_from_global(domino_handle h, os_world *w, domino_type type, int64_t m,
                                     int64_t n, const void *X, int64_t ld, int tr, int tc,
                                     dist_dense **out)
{
    const char *fn = "dist_dense_from_global";
    if (!out) return domino_error(h, DOMINO_NULL_POINTER, "%s: D is NULL", fn);
    *out = NULL;
    if (m < 0 || n < 0 || tr < 1 || tc < 1 || (int64_t)tr * tc > DIST_MAX_TILES || (X && ld < n) ||
        (type != DOMINO_FLOAT64 && type != DOMINO_FLOAT32))
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: bad size %lld x %lld, ld %lld, grid %d x %d "
                            "or type", fn, (long long)m, (long long)n, (long long)ld, tr, tc);
    domino_status s = DOMINO_SUCCESS;
    dist_dense *D = domino_calloc(1, sizeof(*D));
    if (!D) return domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory", fn);
    D->w = w;
    D->type = type;
    D->m = m;
    D->n = n;
    D->tr = tr;
    D->tc = tc;
    D->rb = dist_split(m, tr);
    D->cb = dist_split(n, tc);
    D->at = domino_calloc((size_t)tr * tc, sizeof(int64_t));
    if (!D->rb || !D->cb || !D->at) {
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory", fn);
        goto cleanup;
    }
    /* where every tile starts in its owner's window (each rank's tiles back to back) */
    int64_t mine = 0;
    for (int o = 0; o < os_size(w); o++) {
        int64_t next = 0;
        for (int t = 0; t < tr * tc; t++) {
            if (dist_tile_owner(w, tc, t / tc, t % tc) != o) continue;
            D->at[t] = next;
            next += (D->rb[t / tc + 1] - D->rb[t / tc]) * (D->cb[t % tc + 1] - D->cb[t % tc]);
        }
        if (o == os_rank(w)) mine = next;
    }
    size_t vs = domino_type_size(type);
    if ((s = os_window_create(h, w, (size_t)mine * vs, &D->wval, &D->local))) goto cleanup;
    for (int t = 0; X && t < tr * tc; t++) {
        int i = t / tc, j = t % tc;
        if (dist_tile_owner(w, tc, i, j) != os_rank(w)) continue;
        dist_copy_block((char *)D->local + (size_t)D->at[t] * vs, X, ld, D->rb[i], D->rb[i + 1] - D->rb[i], D->cb[j],
                        D->cb[j + 1] - D->cb[j], vs);
    }
    if ((s = os_window_sync(h, D->wval)) || (s = os_barrier(h, w))) goto cleanup;
    *out = D;
    return DOMINO_SUCCESS;
cleanup:
    dist_dense_free(h, D);
    return s;
}

domino_status dist_dense_gather(domino_handle h, const dist_dense *D, void *X, int64_t ld)
{
    size_t vs = domino_type_size(D->type);
    if (ld < D->n) return domino_error(h, DOMINO_INVALID_VALUE, "dist_dense_gather: ld %lld < n", (long long)ld);
    for (int t = 0; t < D->tr * D->tc; t++) {
        int i = t / D->tc, j = t % D->tc;
        int64_t rows = D->rb[i + 1] - D->rb[i], cols = D->cb[j + 1] - D->cb[j];
        for (int64_t r = 0; r < rows && cols > 0; r++) {
            domino_status s = os_get(h, D->wval, dist_tile_owner(D->w, D->tc, i, j),
                                     (size_t)(D->at[t] + r * cols) * vs,
                                     (char *)X + (size_t)((D->rb[i] + r) * ld + D->cb[j]) * vs,
                                     (size_t)cols * vs);
            if (s) return s;
        }
    }
    return DOMINO_SUCCESS;
}

domino_status dist_dense_zero(domino_handle h, dist_dense *D)
{
    int64_t mine = 0;
    for (int t = 0; t < D->tr * D->tc; t++) {
        int i = t / D->tc, j = t % D->tc;
        if (dist_tile_owner(D->w, D->tc, i, j) == os_rank(D->w))
            mine += (D->rb[i + 1] - D->rb[i]) * (D->cb[j + 1] - D->cb[j]);
    }
    memset(D->local, 0, (size_t)mine * domino_type_size(D->type));
    domino_status s = os_window_sync(h, D->wval);
    domino_status b = os_barrier(h, D->w);
    return s ? s : b;
}
