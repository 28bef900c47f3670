/* dist_spgemm_gather.cu: what is done with the C of a distributed SpGEMM
 * (domino_dspgemm): C x summed over the PEs (the check of products too
 * large for the host), and all of C gathered on every PE (tests).  The C
 * tiles stay on the GPUs of the PEs that made them; the gather copies them
 * into symmetric windows and reads them through the peer pointers. */
#include "dist/nvshmem/dist_runtime.h"
#include "dist/nvshmem/dist_spgemm_internal.h"

#include <nvshmem.h>
#include <nvshmemx.h>

#include <string.h>

domino_status domino_dspgemm_multiply(domino_handle h, domino_dspgemm P, const double *x, double *y)
{
    if (!P) return domino_error(h, DOMINO_NULL_POINTER, WHAT ": P is NULL");
    int T = P->t;
    double *dx = NULL, *mine = NULL, *sum = NULL;
    domino_status s = x && y ? DOMINO_SUCCESS : domino_error(h, DOMINO_NULL_POINTER, WHAT ": x or y is NULL");
    domino_status room = dist_check_room(h, P->D, 2 * (size_t)(P->m + 1) * sizeof(double), WHAT ": C x");
    if (room) return room; /* every PE alike */
    domino_status s1 = domino_dist_malloc(h, P->D, (size_t)(P->m + 1) * sizeof(double), (void **)&mine);
    domino_status s2 = domino_dist_malloc(h, P->D, (size_t)(P->m + 1) * sizeof(double), (void **)&sum);
    if (!s) s = s1 ? s1 : s2;
    cudaError_t e = cudaSuccess;
    if (!s) e = cudaMalloc((void **)&dx, (size_t)(P->n + 1) * sizeof(double));
    /* on the compute stream, which does not wait for the legacy default stream */
    if (!s && !e) e = cudaMemcpyAsync(dx, x, (size_t)P->n * sizeof(double), cudaMemcpyHostToDevice, P->compute);
    if (!s && !e) e = cudaMemsetAsync(mine, 0, (size_t)(P->m + 1) * sizeof(double), P->compute);
    for (int q = 0; !s && !e && q < T * T; q++) {
        domino_dmatrix c = P->c[q];
        if (!c || c->nrows == 0) continue;
        int i = q / T, j = q % T; /* the tiles one after another on one stream: no races on y */
        e = domino_launch_csr_apply_add(P->compute, P->type, c->nrows, c->ptr, c->ind, c->val, dx + P->cb[j],
                                        mine + P->rb[i]);
    }
    if (!s && !e) e = cudaDeviceSynchronize();
    if (!s && e) s = domino_cuda_status(h, e, WHAT ": multiply");
    s = dist_sum_to_host(h, P->D, s, sum, mine, (size_t)P->m, y, WHAT ": multiply");
    cudaFree(dx);
    domino_dist_free(P->D, mine);
    domino_dist_free(P->D, sum);
    return s;
}

/* tile x of C, made by some PE, read through the peer pointers into host
 * arrays (*ptr: rows + 1 offsets from 0; *ind, *val: its entries) */
static domino_status read_tile(domino_handle h, struct domino_dspgemm_s *P, int x, int64_t *g_ptr, int32_t *g_ind,
                               void *g_val, int64_t *dir, int64_t **ptr, int32_t **ind, void **val)
{
    size_t vs = domino_type_size(P->type);
    int64_t rows = P->rb[x / P->t + 1] - P->rb[x / P->t], where[2] = {-1, -1};
    int maker = -1;
    cudaError_t e = cudaSuccess;
    for (int pe = 0; pe < P->npes && maker < 0 && !e; pe++) {
        const int64_t *d = (const int64_t *)nvshmem_ptr(dir + 2 * x, pe);
        if (!d) return domino_error(h, DOMINO_NOT_SUPPORTED, WHAT ": PE %d cannot address PE %d's tiles", P->rank, pe);
        e = cudaMemcpy(where, d, sizeof(where), cudaMemcpyDeviceToHost);
        if (!e && where[0] >= 0) maker = pe;
    }
    if (e) return domino_cuda_status(h, e, WHAT ": gather");
    if (maker < 0) return domino_error(h, DOMINO_INVALID_VALUE, WHAT ": no PE made C tile %d (run it first)", x);
    *ptr = (int64_t *)domino_malloc(((size_t)rows + 1) * sizeof(int64_t));
    if (!*ptr) return domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory");
    e = cudaMemcpy(*ptr, nvshmem_ptr(g_ptr + where[0], maker), ((size_t)rows + 1) * sizeof(int64_t),
                   cudaMemcpyDeviceToHost);
    int64_t nnz = e ? 0 : (*ptr)[rows];
    *ind = (int32_t *)domino_malloc((size_t)nnz * sizeof(int32_t) + 8);
    *val = domino_malloc((size_t)nnz * vs + 8);
    if (!e && (!*ind || !*val)) return domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory");
    if (!e && nnz) e = cudaMemcpy(*ind, nvshmem_ptr(g_ind + where[1], maker), (size_t)nnz * sizeof(int32_t), cudaMemcpyDeviceToHost);
    if (!e && nnz)
        e = cudaMemcpy(*val, nvshmem_ptr((char *)g_val + (size_t)where[1] * vs, maker), (size_t)nnz * vs,
                       cudaMemcpyDeviceToHost);
    return e ? domino_cuda_status(h, e, WHAT ": gather") : DOMINO_SUCCESS;
}

domino_status domino_dspgemm_gather(domino_handle h, domino_dspgemm P, domino_matrix *C)
{
    if (!P || !C) return domino_error(h, DOMINO_NULL_POINTER, WHAT ": NULL argument");
    *C = NULL;
    int T = P->t;
    size_t vs = domino_type_size(P->type), tt = (size_t)T * T;
    /* every tile this PE made, in windows for the others to read: the
     * directory is the layout, dir[2 x] = where tile x's offsets and entries
     * start (-1: not here) */
    int64_t *here = (int64_t *)domino_malloc(2 * tt * sizeof(int64_t)), offs = 0, ents = 0;
    domino_status s = here ? DOMINO_SUCCESS : domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory");
    if (here) dspgemm_windows_layout(P->c, (int)tt, here, &offs, &ents);
    dspgemm_windows W;
    s = dspgemm_windows_expose(h, P, s, P->c, here ? (int)tt : 0, here, offs, ents, here, here ? 2 * (int64_t)tt : 0,
                               WHAT ": gathering C", &W);
    domino_free(here);
    int64_t **tp = (int64_t **)domino_calloc(tt, sizeof(int64_t *));
    int32_t **ti = (int32_t **)domino_calloc(tt, sizeof(int32_t *));
    void **tv = (void **)domino_calloc(tt, sizeof(void *));
    if (!s && (!tp || !ti || !tv)) s = domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory");
    int64_t nnz = 0;
    for (size_t x = 0; !s && x < tt; x++) {
        s = read_tile(h, P, (int)x, W.ptr, W.ind, W.val, W.dir, &tp[x], &ti[x], &tv[x]);
        if (!s) nnz += tp[x][P->rb[x / T + 1] - P->rb[x / T]];
    }
    domino_matrix G = NULL;
    if (!s) s = domino_matrix_new(h, DOMINO_CSR, P->type, (int32_t)P->m, (int32_t)P->n, nnz, &G);
    /* row r of C: its row in tiles (i, 0) .. (i, t-1), columns shifted by the column block's start */
    for (int i = 0; !s && i < T; i++)
        for (int64_t r = P->rb[i]; r < P->rb[i + 1]; r++) {
            int64_t at = G->ptr[r], q = r - P->rb[i];
            for (int j = 0; j < T; j++) {
                size_t x = (size_t)i * T + j;
                for (int64_t e = tp[x][q]; e < tp[x][q + 1]; e++, at++) {
                    G->ind[at] = ti[x][e] + (int32_t)P->cb[j];
                    memcpy((char *)G->val + (size_t)at * vs, (char *)tv[x] + (size_t)e * vs, vs);
                }
            }
            G->ptr[r + 1] = at;
        }
    for (size_t x = 0; x < tt; x++) {
        if (tp) domino_free(tp[x]);
        if (ti) domino_free(ti[x]);
        if (tv) domino_free(tv[x]);
    }
    domino_free(tp);
    domino_free(ti);
    domino_free(tv);
    s = dspgemm_windows_free(h, P, &W, s);
    if (s) domino_matrix_free(G);
    else *C = G;
    return s;
}
