/* dist_spgemm_accumulate.cu: the partial products of the distributed
 * SpGEMM (stationary-A, locality-aware stealing) summed into C.  Every PE
 * keeps its partials A(i, l) B(l, j) on its GPU while it computes; then,
 * collectively, it copies them into symmetric windows with a directory,
 * and the owner of each C tile reads that tile's partials from every PE
 * through the peer pointers.  The sum needs no sparse accumulator of its
 * own: with the np partials side by side, U = [P_0 P_1 .. P_np-1] (rows x
 * np cols, no column twice in a row), C(i, j) = U S where S stacks np
 * identities (np cols x cols), one cuSPARSE product that adds the entries
 * meeting in a column (the paper hands partials over through a remote
 * queue; here they wait in the maker's memory until every PE is done). */
#include "dist/nvshmem/dist_spgemm_internal.h"
#include "dist/nvshmem/dist_tile_kernels.cuh"

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

/* g <= n: S stacks n / cols identities of order cols (ptr[g] = g, column g mod cols, value 1) */
template <typename V> __global__ void stacked_identity_kernel(int64_t n, int32_t cols, int64_t *ptr, int32_t *ind, V *val)
{
    for (int64_t g = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; g <= n; g += (int64_t)gridDim.x * blockDim.x) {
        ptr[g] = g;
        if (g < n) {
            ind[g] = (int32_t)(g % cols);
            val[g] = (V)1;
        }
    }
}

/* where one partial lies: on PE pe, offsets from ptr_at, entries from ent_at */
typedef struct partial_place {
    int pe;
    int64_t ptr_at, ent_at, nnz;
} partial_place;

/* the np partials of C tile (i, j), copied from their makers' windows,
 * summed into *c (a new device matrix) */
static domino_status sum_tile(domino_handle h, struct domino_dspgemm_s *P, int i, int j, const partial_place *pl, int np,
                              int64_t *g_ptr, int32_t *g_ind, void *g_val, domino_dmatrix *c)
{
    size_t vs = domino_type_size(P->type);
    int64_t rows = P->rb[i + 1] - P->rb[i], cols = P->cb[j + 1] - P->cb[j], nnz = 0;
    if (np == 0 || rows == 0 || cols == 0) return dspgemm_empty_tile(h, P, i, j, c);
    for (int k = 0; k < np; k++) nnz += pl[k].nnz;
    int64_t *u_ptrs = NULL, *off = NULL, *kb = NULL, *host = (int64_t *)domino_malloc(2 * (size_t)np * sizeof(int64_t));
    int32_t *u_ind = NULL;
    void *u_val = NULL;
    struct domino_dmatrix_s *out = (struct domino_dmatrix_s *)domino_calloc(1, sizeof(*out));
    if (!host || !out) {
        domino_free(host);
        domino_free(out);
        return domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory");
    }
    cudaError_t e = cudaMalloc((void **)&u_ptrs, (size_t)np * (rows + 1) * sizeof(int64_t));
    if (!e) e = cudaMalloc((void **)&u_ind, (size_t)nnz * sizeof(int32_t) + 4);
    if (!e) e = cudaMalloc(&u_val, (size_t)nnz * vs + 8);
    int64_t before = 0; /* entries of the partials before partial k */
    for (int k = 0; k < np && !e; before += pl[k].nnz, k++) { /* the partials one after another */
        const int64_t *pp = (const int64_t *)nvshmem_ptr(g_ptr + pl[k].ptr_at, pl[k].pe);
        const int32_t *pi = (const int32_t *)nvshmem_ptr(g_ind + pl[k].ent_at, pl[k].pe);
        const char *pv = (const char *)nvshmem_ptr((char *)g_val + (size_t)pl[k].ent_at * vs, pl[k].pe);
        if (!pp || !pi || !pv) e = cudaErrorInvalidDevicePointer;
        if (!e) e = cudaMemcpy(u_ptrs + (size_t)k * (rows + 1), pp, (size_t)(rows + 1) * sizeof(int64_t), cudaMemcpyDefault);
        if (!e && pl[k].nnz) e = cudaMemcpy(u_ind + before, pi, (size_t)pl[k].nnz * sizeof(int32_t), cudaMemcpyDefault);
        if (!e && pl[k].nnz) e = cudaMemcpy((char *)u_val + (size_t)before * vs, pv, (size_t)pl[k].nnz * vs, cudaMemcpyDefault);
        host[k] = before;          /* partial k's entries in u */
        host[np + k] = k * cols;   /* its columns in U */
    }
    domino_status s = DOMINO_SUCCESS;
    out->magic = DOMINO_DMATRIX_MAGIC;
    out->format = DOMINO_CSR;
    out->type = P->type;
    out->nrows = (int32_t)rows;
    out->ncols = (int32_t)cols;
    if (!e && np == 1) { /* one partial: it is the tile */
        out->nnz = nnz;
        out->ptr = u_ptrs, out->ind = u_ind, out->val = u_val;
        u_ptrs = NULL, u_ind = NULL, u_val = NULL;
        *c = out;
        out = NULL;
    } else if (!e) {
        struct domino_dmatrix_s U, S;
        memset(&U, 0, sizeof(U));
        memset(&S, 0, sizeof(S));
        U.magic = S.magic = DOMINO_DMATRIX_MAGIC;
        U.format = S.format = DOMINO_CSR;
        U.type = S.type = P->type;
        U.borrowed = S.borrowed = 1;
        U.nrows = (int32_t)rows, U.ncols = (int32_t)(np * cols), U.nnz = nnz;
        S.nrows = (int32_t)(np * cols), S.ncols = (int32_t)cols, S.nnz = np * cols;
        e = cudaMalloc((void **)&U.ptr, (size_t)(rows + 1) * sizeof(int64_t));
        if (!e) e = cudaMalloc((void **)&U.ind, (size_t)nnz * sizeof(int32_t) + 4);
        if (!e) e = cudaMalloc(&U.val, (size_t)nnz * vs + 8);
        if (!e) e = cudaMalloc((void **)&S.ptr, (size_t)(np * cols + 1) * sizeof(int64_t));
        if (!e) e = cudaMalloc((void **)&S.ind, (size_t)(np * cols) * sizeof(int32_t));
        if (!e) e = cudaMalloc(&S.val, (size_t)(np * cols) * vs);
        if (!e) e = cudaMalloc((void **)&off, 2 * (size_t)np * sizeof(int64_t));
        if (!e) e = cudaMemcpyAsync(off, host, 2 * (size_t)np * sizeof(int64_t), cudaMemcpyHostToDevice, P->compute);
        kb = off + np;
        int blocks = (int)((rows + 1 + 7) / 8 < 4096 ? (rows + 1 + 7) / 8 : 4096); /* a warp a row */
        int sblocks = (int)((np * cols + 1 + 255) / 256 < 4096 ? (np * cols + 1 + 255) / 256 : 4096);
        if (!e && P->type == DOMINO_FLOAT64) {
            dist_merge_rows_kernel<double, int64_t, int64_t><<<blocks, 256, 0, P->compute>>>(
                rows, np, u_ptrs, rows + 1, u_ind, (const double *)u_val, off, kb, U.ptr, U.ind, (double *)U.val);
            stacked_identity_kernel<double><<<sblocks, 256, 0, P->compute>>>(np * cols, (int32_t)cols, S.ptr, S.ind,
                                                                            (double *)S.val);
        } else if (!e) {
            dist_merge_rows_kernel<float, int64_t, int64_t><<<blocks, 256, 0, P->compute>>>(
                rows, np, u_ptrs, rows + 1, u_ind, (const float *)u_val, off, kb, U.ptr, U.ind, (float *)U.val);
            stacked_identity_kernel<float><<<sblocks, 256, 0, P->compute>>>(np * cols, (int32_t)cols, S.ptr, S.ind,
                                                                           (float *)S.val);
        }
        if (!e) e = cudaGetLastError();
        if (!e) e = cudaStreamSynchronize(P->compute);
        if (!e) s = domino_gpu_spgemm(h, &U, &S, c, NULL);
        cudaFree(U.ptr), cudaFree(U.ind), cudaFree(U.val);
        cudaFree(S.ptr), cudaFree(S.ind), cudaFree(S.val);
    }
    if (e) s = domino_cuda_status(h, e, WHAT ": summing partial products");
    cudaFree(u_ptrs), cudaFree(u_ind), cudaFree(u_val), cudaFree(off);
    domino_free(host);
    domino_free(out);
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
