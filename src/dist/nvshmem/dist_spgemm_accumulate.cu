/* dist_spgemm_accumulate.cu: the partial products of the distributed
 * SpGEMM (stationary-A, locality-aware stealing) summed into C.  Every PE
 * keeps its partials A(i, l) B(l, j) on its GPU while it computes; then,
 * collectively, it copies those of other PEs' C tiles into symmetric
 * windows with a directory, and the owner of each C tile sums its own
 * partials of the tile and those the others expose (read through the peer
 * pointers) with domino_dmatrix_sum (the partials side by side times
 * stacked identities: one cuSPARSE product).
 * The paper hands partials over through a remote queue; here they wait in
 * the maker's memory until every PE is done. */
#include "dist/nvshmem/dist_runtime.h"
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

/* the view of partial k of PE pe's directory d (x, offsets at, entries at,
 * entries), through the peer pointers into its windows */
static domino_status peer_view(domino_handle h, struct domino_dspgemm_s *P, int pe, const int64_t *d, int64_t k,
                               int64_t *g_ptr, int32_t *g_ind, void *g_val, struct domino_dmatrix_s *v)
{
    size_t vs = domino_type_size(P->type);
    int T = P->t, x = (int)d[1 + 4 * k];
    domino_dmatrix_borrow(v, P->type, (int32_t)(P->rb[x / T + 1] - P->rb[x / T]),
                          (int32_t)(P->cb[x % T + 1] - P->cb[x % T]), d[4 + 4 * k],
                          (int64_t *)nvshmem_ptr(g_ptr + d[2 + 4 * k], pe),
                          (int32_t *)nvshmem_ptr(g_ind + d[3 + 4 * k], pe),
                          nvshmem_ptr((char *)g_val + (size_t)d[3 + 4 * k] * vs, pe));
    if (!v->ptr || !v->ind || !v->val)
        return domino_error(h, DOMINO_NOT_SUPPORTED, WHAT ": PE %d cannot address PE %d's partial products", P->rank, pe);
    return DOMINO_SUCCESS;
}

domino_status dspgemm_accumulate(domino_handle h, struct domino_dspgemm_s *P)
{
    int T = P->t, npes = P->npes;
    /* the partials this PE sends (those of others' C tiles; its own tiles'
     * partials stay where they are), and its directory of them: count, then
     * (x, offsets at, entries at, entries) per partial */
    domino_dmatrix *sends = (domino_dmatrix *)domino_malloc(((size_t)P->nparts + 1) * sizeof(domino_dmatrix));
    int *sent_x = (int *)domino_malloc(((size_t)P->nparts + 1) * sizeof(int));
    int64_t *at = (int64_t *)domino_malloc((2 * (size_t)P->nparts + 1) * sizeof(int64_t));
    int64_t *dir = (int64_t *)domino_malloc((1 + 4 * (size_t)P->nparts) * sizeof(int64_t));
    domino_status s = sends && sent_x && at && dir ? DOMINO_SUCCESS
                                                   : domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory");
    int sent = 0;
    int64_t offs = 0, ents = 0;
    for (int k = 0; !s && k < P->nparts; k++)
        if (dspgemm_owner(P, P->parts[k].x / T, P->parts[k].x % T) != P->rank) {
            sends[sent] = P->parts[k].c;
            sent_x[sent++] = P->parts[k].x;
        }
    if (!s) {
        dspgemm_windows_layout(sends, sent, at, &offs, &ents);
        dir[0] = sent;
        for (int q = 0; q < sent; q++)
            dir[1 + 4 * q] = sent_x[q], dir[2 + 4 * q] = at[2 * q], dir[3 + 4 * q] = at[2 * q + 1],
                        dir[4 + 4 * q] = sends[q]->nnz;
    }
    dspgemm_windows W;
    s = dspgemm_windows_expose(h, P, s, sends, s ? 0 : sent, at, offs, ents, dir, s ? 0 : 1 + 4 * (int64_t)sent,
                               WHAT ": the windows of the partial products sent to other PEs", &W);
    for (int k = 0; !s && k < P->nparts; k++) /* sent: the windows hold them now */
        if (dspgemm_owner(P, P->parts[k].x / T, P->parts[k].x % T) != P->rank) {
            domino_dmatrix_free(P->parts[k].c);
            P->parts[k].c = NULL;
        }
    domino_free(sends);
    domino_free(sent_x);
    domino_free(at);
    domino_free(dir);
    cudaError_t e = cudaSuccess;
    /* every other PE's directory, then each of this PE's C tiles from its own and the sent partials */
    int64_t **dirs = (int64_t **)domino_calloc((size_t)npes, sizeof(int64_t *));
    struct domino_dmatrix_s *views = (struct domino_dmatrix_s *)domino_malloc(((size_t)npes * T + 1) * sizeof(*views));
    domino_dmatrix *parts = (domino_dmatrix *)domino_malloc(((size_t)npes * T + P->nparts + 1) * sizeof(domino_dmatrix));
    if (!s && (!dirs || !views || !parts)) s = domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory");
    for (int pe = 0; pe < npes && !s; pe++) {
        if (pe == P->rank) continue;
        const int64_t *peer = (const int64_t *)nvshmem_ptr(W.dir, pe);
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
        int i = x / T, j = x % T, np = 0, nv = 0;
        if (dspgemm_owner(P, i, j) != P->rank) continue;
        for (int k = 0; k < P->nparts; k++) /* made here */
            if (P->parts[k].x == x) parts[np++] = P->parts[k].c;
        for (int pe = 0; pe < npes && !s; pe++) /* sent by the others */
            for (int64_t k = 0; dirs[pe] && k < dirs[pe][0] && !s; k++)
                if (dirs[pe][1 + 4 * k] == x) {
                    if (nv == npes * T) { /* at most t partials a tile: a directory gone wrong */
                        s = domino_error(h, DOMINO_INVALID_VALUE, WHAT ": C tile %d has more than %d partial products",
                                         x, npes * T);
                        break;
                    }
                    s = peer_view(h, P, pe, dirs[pe], k, W.ptr, W.ind, W.val, &views[nv]);
                    parts[np++] = &views[nv++];
                }
        if (!s)
            s = domino_dmatrix_sum(h, parts, np, (int32_t)(P->rb[i + 1] - P->rb[i]), (int32_t)(P->cb[j + 1] - P->cb[j]),
                                   P->type, &P->c[x]);
        for (int k = 0; k < P->nparts; k++) /* summed: their memory back before the next tile's sum */
            if (P->parts[k].x == x) {
                domino_dmatrix_free(P->parts[k].c);
                P->parts[k].c = NULL;
            }
    }
    dspgemm_drop_partials(P);
    for (int pe = 0; dirs && pe < npes; pe++) domino_free(dirs[pe]);
    domino_free(dirs);
    domino_free(views);
    domino_free(parts);
    return dspgemm_windows_free(h, P, &W, s);
}
