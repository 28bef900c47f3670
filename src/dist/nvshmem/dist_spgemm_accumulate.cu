/* dist_spgemm_accumulate.cu: the partial products of the distributed
 * SpGEMM (stationary-A, locality-aware stealing) summed into C.  Every PE
 * keeps its partials A(i, l) B(l, j) on its GPU while it computes; then,
 * collectively, it copies them into symmetric windows with a directory,
 * and the owner of each C tile reads that tile's partials from every PE
 * through the peer pointers and sums them with domino_dmatrix_sum (the
 * partials side by side times stacked identities: one cuSPARSE product).
 * The paper hands partials over through a remote queue; here they wait in
 * the maker's memory until every PE is done. */
#include "dist/nvshmem/dist_spgemm_internal.h"

#include <nvshmem.h>
#include <nvshmemx.h>

#include <string.h>

domino_status dspgemm_keep_partial(domino_handle h, struct domino_dspgemm_s *P, int x, domino_dmatrix c)
{
    if (P->nparts == P->cap_parts) {
        int cap = P->cap_parts ? 2 * P->cap_parts : 64;
        dspgemm_partial *more = (dspgemm_partial *)domino_malloc((size_t)cap * sizeof(dspgemm_partial));
        if (!more) {
            domino_dmatrix_free(c);
            return domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory");
        }
        if (P->nparts) memcpy(more, P->parts, (size_t)P->nparts * sizeof(dspgemm_partial));
        domino_free(P->parts);
        P->parts = more;
        P->cap_parts = cap;
    }
    P->parts[P->nparts].x = x;
    P->parts[P->nparts].c = c;
    P->nparts++;
    return DOMINO_SUCCESS;
}

void dspgemm_drop_partials(struct domino_dspgemm_s *P)
{
    for (int k = 0; k < P->nparts; k++) domino_dmatrix_free(P->parts[k].c);
    P->nparts = 0;
}

/* where one partial lies: on PE pe, offsets from ptr_at, entries from ent_at */
typedef struct partial_place {
    int pe;
    int64_t ptr_at, ent_at, nnz;
} partial_place;

/* the np partials of C tile (i, j), read from their makers' windows through
 * the peer pointers, summed into *c (a new device matrix) */
static domino_status sum_tile(domino_handle h, struct domino_dspgemm_s *P, int i, int j, const partial_place *pl, int np,
                              int64_t *g_ptr, int32_t *g_ind, void *g_val, domino_dmatrix *c)
{
    size_t vs = domino_type_size(P->type);
    int32_t rows = (int32_t)(P->rb[i + 1] - P->rb[i]), cols = (int32_t)(P->cb[j + 1] - P->cb[j]);
    struct domino_dmatrix_s *views = (struct domino_dmatrix_s *)domino_calloc((size_t)np + 1, sizeof(*views));
    domino_dmatrix *parts = (domino_dmatrix *)domino_calloc((size_t)np + 1, sizeof(domino_dmatrix));
    domino_status s = views && parts ? DOMINO_SUCCESS : domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory");
    for (int k = 0; k < np && !s; k++) { /* borrowed views of the peers' windows */
        struct domino_dmatrix_s *v = &views[k];
        v->magic = DOMINO_DMATRIX_MAGIC;
        v->format = DOMINO_CSR;
        v->type = P->type;
        v->nrows = rows, v->ncols = cols, v->nnz = pl[k].nnz;
        v->borrowed = 1;
        v->ptr = (int64_t *)nvshmem_ptr(g_ptr + pl[k].ptr_at, pl[k].pe);
        v->ind = (int32_t *)nvshmem_ptr(g_ind + pl[k].ent_at, pl[k].pe);
        v->val = nvshmem_ptr((char *)g_val + (size_t)pl[k].ent_at * vs, pl[k].pe);
        if (!v->ptr || !v->ind || !v->val)
            s = domino_error(h, DOMINO_NOT_SUPPORTED, WHAT ": PE %d cannot address PE %d's partial products", P->rank,
                             pl[k].pe);
        parts[k] = v;
    }
    if (!s) s = domino_dmatrix_sum(h, parts, np, rows, cols, P->type, c);
    domino_free(views);
    domino_free(parts);
    return s;
}

domino_status dspgemm_accumulate(domino_handle h, struct domino_dspgemm_s *P)
{
    size_t vs = domino_type_size(P->type);
    int T = P->t, npes = P->npes;
    /* this PE's directory: count, then (x, offsets at, entries at, entries) per partial */
    int64_t offs = 0, ents = 0;
    int64_t *dir = (int64_t *)domino_malloc((1 + 4 * (size_t)P->nparts) * sizeof(int64_t));
    domino_status s = dir ? DOMINO_SUCCESS : domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory");
    for (int k = 0; dir && k < P->nparts; k++) {
        domino_dmatrix c = P->parts[k].c;
        dir[1 + 4 * k] = P->parts[k].x, dir[2 + 4 * k] = offs, dir[3 + 4 * k] = ents, dir[4 + 4 * k] = c->nnz;
        offs += c->nrows + 1;
        ents += c->nnz;
    }
    if (dir) dir[0] = P->nparts;
    double most[3] = {0, 0, 0};
    if (!(s = domino_dist_agree(h, P->D, s))) s = domino_dist_max(h, P->D, (double)offs, &most[0]);
    if (!s) s = domino_dist_max(h, P->D, (double)ents, &most[1]);
    if (!s) s = domino_dist_max(h, P->D, (double)P->nparts, &most[2]);
    s = domino_dist_agree(h, P->D, s); /* a PE whose max failed must not skip the allocations */
    int64_t *g_ptr = NULL, *g_dir = NULL;
    int32_t *g_ind = NULL;
    void *g_val = NULL;
    domino_status a[4] = {s, s, s, s};
    if (!s) { /* collective */
        a[0] = domino_dist_malloc(h, P->D, (size_t)most[0] * sizeof(int64_t) + 8, (void **)&g_ptr);
        a[1] = domino_dist_malloc(h, P->D, (size_t)most[1] * sizeof(int32_t) + 8, (void **)&g_ind);
        a[2] = domino_dist_malloc(h, P->D, (size_t)most[1] * vs + 8, &g_val);
        a[3] = domino_dist_malloc(h, P->D, (1 + 4 * (size_t)most[2]) * sizeof(int64_t), (void **)&g_dir);
    }
    for (int q = 0; q < 4 && !s; q++) s = a[q];
    cudaError_t e = cudaSuccess;
    if (!s) e = cudaMemcpy(g_dir, dir, (1 + 4 * (size_t)P->nparts) * sizeof(int64_t), cudaMemcpyHostToDevice);
    for (int k = 0; !s && !e && k < P->nparts; k++) {
        domino_dmatrix c = P->parts[k].c;
        e = cudaMemcpy(g_ptr + dir[2 + 4 * k], c->ptr, ((size_t)c->nrows + 1) * sizeof(int64_t), cudaMemcpyDeviceToDevice);
        if (!e && c->nnz)
            e = cudaMemcpy(g_ind + dir[3 + 4 * k], c->ind, (size_t)c->nnz * sizeof(int32_t), cudaMemcpyDeviceToDevice);
        if (!e && c->nnz)
            e = cudaMemcpy((char *)g_val + (size_t)dir[3 + 4 * k] * vs, c->val, (size_t)c->nnz * vs,
                           cudaMemcpyDeviceToDevice);
    }
    if (!s && !e) e = cudaDeviceSynchronize();
    if (!s && e) s = domino_cuda_status(h, e, WHAT ": exposing partial products");
    dspgemm_drop_partials(P); /* copied (or failed): the windows hold them now */
    s = domino_dist_agree(h, P->D, s); /* every PE's partials in its windows */
    /* every PE's directory, then each of this PE's C tiles from its partials */
    int64_t **dirs = (int64_t **)domino_calloc((size_t)npes, sizeof(int64_t *));
    partial_place *pl = (partial_place *)domino_malloc(((size_t)npes * T + 1) * sizeof(partial_place));
    if (!s && (!dirs || !pl)) s = domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory");
    for (int pe = 0; pe < npes && !s; pe++) {
        const int64_t *peer = (const int64_t *)nvshmem_ptr(g_dir, pe);
        int64_t count = 0;
        if (!peer) {
            s = domino_error(h, DOMINO_NOT_SUPPORTED, WHAT ": PE %d cannot address PE %d's partial products", P->rank, pe);
            break;
        }
        e = cudaMemcpy(&count, peer, sizeof(int64_t), cudaMemcpyDeviceToHost);
        if (!e && !(dirs[pe] = (int64_t *)domino_malloc((1 + 4 * (size_t)count) * sizeof(int64_t))))
            s = domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory");
        if (!s && !e) e = cudaMemcpy(dirs[pe], peer, (1 + 4 * (size_t)count) * sizeof(int64_t), cudaMemcpyDeviceToHost);
        if (e) s = domino_cuda_status(h, e, WHAT ": reading partial products");
    }
    for (int x = 0; x < T * T && !s; x++) {
        int i = x / T, j = x % T, np = 0;
        if (dspgemm_owner(P, i, j) != P->rank) continue;
        for (int pe = 0; pe < npes; pe++)
            for (int64_t k = 0; k < dirs[pe][0]; k++)
                if (dirs[pe][1 + 4 * k] == x && np < npes * T) {
                    pl[np].pe = pe;
                    pl[np].ptr_at = dirs[pe][2 + 4 * k];
                    pl[np].ent_at = dirs[pe][3 + 4 * k];
                    pl[np].nnz = dirs[pe][4 + 4 * k];
                    np++;
                }
        s = sum_tile(h, P, i, j, pl, np, g_ptr, g_ind, g_val, &P->c[x]);
    }
    for (int pe = 0; dirs && pe < npes; pe++) domino_free(dirs[pe]);
    domino_free(dirs);
    domino_free(pl);
    domino_free(dir);
    s = domino_dist_agree(h, P->D, s); /* nobody frees the windows while another still reads */
    domino_dist_free(P->D, g_ptr);
    domino_dist_free(P->D, g_ind);
    domino_dist_free(P->D, g_val);
    domino_dist_free(P->D, g_dir);
    return s;
}
