/* dist_matrix.c: tiled distributed matrices (dist_tiles.h): made from a
 * global matrix every rank holds, gathered back, freed */
#include "dist/dist_tiles.h"

#include <string.h>

#define DIST_MAX_RANKS 1024       /* ranks a tiled matrix can be spread over */
#define DIST_MAX_TILES (1 << 22)  /* tiles of one matrix */

/* b[0..parts] = an even split of len */
static int64_t *split(int64_t len, int parts)
{
    int64_t *b = domino_malloc(((size_t)parts + 1) * sizeof(int64_t));
    for (int p = 0; b && p <= parts; p++) b[p] = len * p / parts;
    return b;
}

/* the tile column of global column c (binary search in cb) */
static int tile_of(const int64_t *cb, int tc, int64_t c)
{
    int lo = 0, hi = tc - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (cb[mid] <= c) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

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

/* the directory: entries per tile, and where each tile starts in its owner's windows */
static void sparse_directory(dist_sparse *D, domino_matrix A, int64_t *mine_ptr, int64_t *mine_ent)
{
    int ntiles = D->tr * D->tc, size = os_size(D->w);
    for (int i = 0; i < D->tr; i++)
        for (int64_t r = D->rb[i]; r < D->rb[i + 1]; r++)
            for (int64_t k = A->ptr[r]; k < A->ptr[r + 1]; k++)
                D->nnz[i * D->tc + tile_of(D->cb, D->tc, A->ind[k])]++;
    int64_t next_ptr[DIST_MAX_RANKS], next_ent[DIST_MAX_RANKS];
    memset(next_ptr, 0, sizeof(int64_t) * (size_t)size);
    memset(next_ent, 0, sizeof(int64_t) * (size_t)size);
    for (int t = 0; t < ntiles; t++) {
        int o = dist_tile_owner(D->w, D->tc, t / D->tc, t % D->tc);
        D->at_ptr[t] = next_ptr[o];
        D->at_ent[t] = next_ent[o];
        next_ptr[o] += D->rb[t / D->tc + 1] - D->rb[t / D->tc] + 1;
        next_ent[o] += D->nnz[t];
    }
    *mine_ptr = next_ptr[os_rank(D->w)];
    *mine_ent = next_ent[os_rank(D->w)];
}

/* fill this rank's tiles of A into its windows' local parts */
static void sparse_fill(dist_sparse *D, domino_matrix A, int64_t *ptr, int32_t *ind, void *val)
{
    size_t vs = domino_type_size(D->type);
    for (int t = 0; t < D->tr * D->tc; t++) {
        int i = t / D->tc, j = t % D->tc;
        if (dist_tile_owner(D->w, D->tc, i, j) != os_rank(D->w)) continue;
        int64_t *p = ptr + D->at_ptr[t], e = D->at_ent[t], count = 0;
        p[0] = 0;
        for (int64_t r = D->rb[i]; r < D->rb[i + 1]; r++) {
            for (int64_t k = A->ptr[r]; k < A->ptr[r + 1]; k++) {
                if (A->ind[k] < D->cb[j] || A->ind[k] >= D->cb[j + 1]) continue;
                ind[e + count] = (int32_t)(A->ind[k] - D->cb[j]);
                memcpy((char *)val + (size_t)(e + count) * vs, (const char *)A->val + (size_t)k * vs, vs);
                count++;
            }
            p[r - D->rb[i] + 1] = count;
        }
    }
}

domino_status dist_sparse_from_global(domino_handle h, os_world *w, domino_matrix A, int tr, int tc,
                                      dist_sparse **out)
{
    const char *fn = "dist_sparse_from_global";
    int64_t mine_ptr = 0, mine_ent = 0, *ptr = NULL;
    int32_t *ind = NULL;
    void *val = NULL;
    if (!out) return domino_error(h, DOMINO_NULL_POINTER, "%s: D is NULL", fn);
    *out = NULL;
    domino_status s = domino_check_matrix(h, A, fn);
    if (s) return s;
    if (A->format != DOMINO_CSR || A->symmetry != DOMINO_GENERAL)
        return domino_error(h, DOMINO_NOT_SUPPORTED, "%s: A must be CSR stored general", fn);
    if (tr < 1 || tc < 1 || (int64_t)tr * tc > DIST_MAX_TILES)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: bad tile grid %d x %d (1 to %d tiles)", fn,
                            tr, tc, DIST_MAX_TILES);
    if (os_size(w) > DIST_MAX_RANKS)
        return domino_error(h, DOMINO_NOT_SUPPORTED, "%s: more than %d ranks", fn, DIST_MAX_RANKS);
    dist_sparse *D = domino_calloc(1, sizeof(*D));
    if (!D) return domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory", fn);
    D->w = w;
    D->type = A->type;
    D->m = A->nrows;
    D->n = A->ncols;
    D->tr = tr;
    D->tc = tc;
    D->rb = split(D->m, tr);
    D->cb = split(D->n, tc);
    D->nnz = domino_calloc((size_t)tr * tc, sizeof(int64_t));
    D->at_ptr = domino_calloc((size_t)tr * tc, sizeof(int64_t));
    D->at_ent = domino_calloc((size_t)tr * tc, sizeof(int64_t));
    if (!D->rb || !D->cb || !D->nnz || !D->at_ptr || !D->at_ent) {
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory", fn);
        goto cleanup;
    }
    sparse_directory(D, A, &mine_ptr, &mine_ent);
    size_t vs = domino_type_size(A->type);
    if ((s = os_window_create(h, w, (size_t)mine_ptr * sizeof(int64_t), &D->wptr, (void **)&ptr)) ||
        (s = os_window_create(h, w, (size_t)mine_ent * sizeof(int32_t), &D->wind, (void **)&ind)) ||
        (s = os_window_create(h, w, (size_t)mine_ent * vs, &D->wval, &val)))
        goto cleanup;
    sparse_fill(D, A, ptr, ind, val);
    if ((s = os_window_sync(h, D->wptr)) || (s = os_window_sync(h, D->wind)) ||
        (s = os_window_sync(h, D->wval)) || (s = os_barrier(h, w)))
        goto cleanup;
    *out = D;
    return DOMINO_SUCCESS;
cleanup:
    dist_sparse_free(h, D);
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
    D->rb = split(m, tr);
    D->cb = split(n, tc);
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
        int64_t cols = D->cb[j + 1] - D->cb[j];
        for (int64_t r = D->rb[i]; r < D->rb[i + 1]; r++)
            memcpy((char *)D->local + (size_t)(D->at[t] + (r - D->rb[i]) * cols) * vs,
                   (const char *)X + (size_t)(r * ld + D->cb[j]) * vs, (size_t)cols * vs);
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
