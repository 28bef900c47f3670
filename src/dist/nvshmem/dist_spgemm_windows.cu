/* dist_spgemm_windows.cu: CSR matrices of a PE copied into symmetric
 * windows (offsets, indices, values) with a directory of the caller's
 * making, for the other PEs to read through the peer pointers: the C tiles
 * of the SpGEMM's gather and the partial products of its accumulation. */
#include "dist/nvshmem/dist_runtime.h"
#include "dist/nvshmem/dist_spgemm_internal.h"

void dspgemm_windows_layout(const domino_dmatrix *mats, int count, int64_t *at, int64_t *offs, int64_t *ents)
{
    int64_t o = 0, e = 0;
    for (int q = 0; q < count; q++) {
        at[2 * q] = at[2 * q + 1] = -1;
        if (!mats[q]) continue;
        at[2 * q] = o, at[2 * q + 1] = e;
        o += mats[q]->nrows + 1;
        e += mats[q]->nnz;
    }
    *offs = o;
    *ents = e;
}

domino_status dspgemm_windows_expose(domino_handle h, struct domino_dspgemm_s *P, domino_status s,
                                     const domino_dmatrix *mats, int count, const int64_t *at, int64_t offs,
                                     int64_t ents, const int64_t *dir, int64_t dir_words, const char *what,
                                     dspgemm_windows *W)
{
    size_t vs = domino_type_size(P->type);
    double most[3] = {0, 0, 0};
    W->ptr = W->dir = NULL;
    W->ind = NULL;
    W->val = NULL;
    if (!(s = domino_dist_agree(h, P->D, s))) s = domino_dist_max(h, P->D, (double)offs, &most[0]);
    if (!s) s = domino_dist_max(h, P->D, (double)ents, &most[1]);
    if (!s) s = domino_dist_max(h, P->D, (double)dir_words, &most[2]);
    s = domino_dist_agree(h, P->D, s); /* a PE whose max failed must not skip the allocations */
    if (!s)
        s = dist_check_room(h, P->D, (size_t)most[0] * sizeof(int64_t) + (size_t)most[1] * (sizeof(int32_t) + vs) +
                                         (size_t)most[2] * sizeof(int64_t), what);
    domino_status a[4] = {s, s, s, s};
    if (!s) { /* collective */
        a[0] = domino_dist_malloc(h, P->D, (size_t)most[0] * sizeof(int64_t) + 8, (void **)&W->ptr);
        a[1] = domino_dist_malloc(h, P->D, (size_t)most[1] * sizeof(int32_t) + 8, (void **)&W->ind);
        a[2] = domino_dist_malloc(h, P->D, (size_t)most[1] * vs + 8, &W->val);
        a[3] = domino_dist_malloc(h, P->D, (size_t)most[2] * sizeof(int64_t) + 8, (void **)&W->dir);
    }
    for (int q = 0; q < 4 && !s; q++) s = a[q];
    cudaError_t e = cudaSuccess;
    if (!s) e = cudaMemcpy(W->dir, dir, (size_t)dir_words * sizeof(int64_t), cudaMemcpyHostToDevice);
    for (int q = 0; !s && !e && q < count; q++) {
        domino_dmatrix c = mats[q];
        if (!c) continue;
        e = cudaMemcpy(W->ptr + at[2 * q], c->ptr, ((size_t)c->nrows + 1) * sizeof(int64_t), cudaMemcpyDeviceToDevice);
        if (!e && c->nnz)
            e = cudaMemcpy(W->ind + at[2 * q + 1], c->ind, (size_t)c->nnz * sizeof(int32_t), cudaMemcpyDeviceToDevice);
        if (!e && c->nnz)
            e = cudaMemcpy((char *)W->val + (size_t)at[2 * q + 1] * vs, c->val, (size_t)c->nnz * vs,
                           cudaMemcpyDeviceToDevice);
    }
    if (!s && !e) e = cudaDeviceSynchronize(); /* the copies landed before the others read them */
    if (!s && e) s = domino_cuda_status(h, e, what);
    return domino_dist_agree(h, P->D, s);
}

domino_status dspgemm_windows_free(domino_handle h, struct domino_dspgemm_s *P, dspgemm_windows *W, domino_status s)
{
    s = domino_dist_agree(h, P->D, s); /* nobody frees the windows while another still reads */
    domino_dist_free(P->D, W->ptr);
    domino_dist_free(P->D, W->ind);
    domino_dist_free(P->D, W->val);
    domino_dist_free(P->D, W->dir);
    W->ptr = W->dir = NULL;
    W->ind = NULL;
    W->val = NULL;
    return s;
}
