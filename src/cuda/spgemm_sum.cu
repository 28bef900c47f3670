/* spgemm_sum.cu: the sum of sparse matrices on the GPU, for partial
 * products (the distributed SpGEMM's stationary-A, locality-aware stealing
 * and SUMMA).  No sparse accumulator of its own: with the np matrices side
 * by side, U = [P_0 P_1 .. P_np-1] (rows x np cols, no column twice in a
 * row), the sum is U S where S stacks np identities of order cols, one
 * cuSPARSE product (domino_gpu_spgemm) that adds the entries meeting in a
 * column. */
#include "gpu_internal.h"
#include "csr_merge.cuh"

#include <string.h>

#define WHAT "domino_dmatrix_sum"

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

/* a device matrix over arrays it owns (NULL arrays allowed while empty) */
static struct domino_dmatrix_s *new_dmatrix(domino_type type, int32_t rows, int32_t cols)
{
    struct domino_dmatrix_s *d = (struct domino_dmatrix_s *)domino_calloc(1, sizeof(*d));
    if (!d) return NULL;
    d->magic = DOMINO_DMATRIX_MAGIC;
    d->format = DOMINO_CSR;
    d->type = type;
    d->nrows = rows;
    d->ncols = cols;
    return d;
}

extern "C" domino_status domino_dmatrix_sum(domino_handle h, const domino_dmatrix *parts, int np, int32_t rows,
                                            int32_t cols, domino_type type, domino_dmatrix *C)
{
    struct domino_gpu_context *gpu = NULL;
    size_t vs = domino_type_size(type);
    if (!C || (np > 0 && !parts)) return domino_error(h, DOMINO_NULL_POINTER, WHAT ": NULL argument");
    *C = NULL;
    int64_t nnz = 0;
    for (int k = 0; k < np; k++) {
        if (!parts[k] || parts[k]->magic != DOMINO_DMATRIX_MAGIC || parts[k]->format != DOMINO_CSR)
            return domino_error(h, DOMINO_INVALID_OBJECT, WHAT ": part %d is not a live CSR device matrix", k);
        if (parts[k]->nrows != rows || parts[k]->ncols != cols || parts[k]->type != type)
            return domino_error(h, DOMINO_DIMENSION_MISMATCH, WHAT ": part %d is %d x %d, the sum %d x %d", k,
                                parts[k]->nrows, parts[k]->ncols, rows, cols);
        nnz += parts[k]->nnz;
    }
    if ((int64_t)np * cols >= INT32_MAX)
        return domino_error(h, DOMINO_NOT_SUPPORTED, WHAT ": %d parts of %d columns side by side pass 2^31", np, cols);
    domino_status s = domino_gpu_context_get(h, &gpu);
    if (s) return s;
    if (rows == 0 || cols == 0) np = 0, nnz = 0; /* nothing to add: an empty matrix of that shape */
    cudaStream_t stream = gpu->stream;
    struct domino_dmatrix_s *out = new_dmatrix(type, rows, cols);
    int64_t *u_ptrs = NULL, *off = NULL, *host = (int64_t *)domino_malloc((2 * (size_t)np + 1) * sizeof(int64_t));
    int32_t *u_ind = NULL;
    void *u_val = NULL;
    if (!out || !host) {
        domino_free(out);
        domino_free(host);
        return domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory");
    }
    /* the parts one after another (they may live on another PE's GPU: copies of any kind) */
    cudaError_t e = cudaMalloc((void **)&u_ptrs, ((size_t)(np > 0 ? np : 1) * ((size_t)rows + 1)) * sizeof(int64_t));
    if (!e) e = cudaMalloc((void **)&u_ind, (size_t)nnz * sizeof(int32_t) + 4);
    if (!e) e = cudaMalloc(&u_val, (size_t)nnz * vs + 8);
    if (!e && np == 0) e = cudaMemsetAsync(u_ptrs, 0, ((size_t)rows + 1) * sizeof(int64_t), stream);
    int64_t before = 0; /* entries of the parts before part k */
    for (int k = 0; k < np && !e; before += parts[k]->nnz, k++) {
        e = cudaMemcpyAsync(u_ptrs + (size_t)k * (rows + 1), parts[k]->ptr, ((size_t)rows + 1) * sizeof(int64_t),
                            cudaMemcpyDefault, stream);
        if (!e && parts[k]->nnz)
            e = cudaMemcpyAsync(u_ind + before, parts[k]->ind, (size_t)parts[k]->nnz * sizeof(int32_t), cudaMemcpyDefault,
                                stream);
        if (!e && parts[k]->nnz)
            e = cudaMemcpyAsync((char *)u_val + (size_t)before * vs, parts[k]->val, (size_t)parts[k]->nnz * vs,
                                cudaMemcpyDefault, stream);
        host[k] = before;                /* part k's entries in u */
        host[np + k] = (int64_t)k * cols; /* its columns in U */
    }
    if (!e) e = cudaStreamSynchronize(stream);
    if (!e && np <= 1) { /* nothing to add: the part (or nothing) is the sum */
        out->nnz = nnz;
        out->ptr = u_ptrs, out->ind = u_ind, out->val = u_val;
        u_ptrs = NULL, u_ind = NULL, u_val = NULL;
        *C = out;
        out = NULL;
    } else if (!e) {
        struct domino_dmatrix_s U, S;
        domino_dmatrix_borrow(&U, type, rows, (int32_t)(np * cols), nnz, NULL, NULL, NULL);
        domino_dmatrix_borrow(&S, type, (int32_t)(np * cols), cols, (int64_t)np * cols, NULL, NULL, NULL);
        int64_t sn = S.nnz;
        e = cudaMalloc((void **)&U.ptr, ((size_t)rows + 1) * sizeof(int64_t));
        if (!e) e = cudaMalloc((void **)&U.ind, (size_t)nnz * sizeof(int32_t) + 4);
        if (!e) e = cudaMalloc(&U.val, (size_t)nnz * vs + 8);
        if (!e) e = cudaMalloc((void **)&S.ptr, ((size_t)sn + 1) * sizeof(int64_t));
        if (!e) e = cudaMalloc((void **)&S.ind, (size_t)sn * sizeof(int32_t) + 4);
        if (!e) e = cudaMalloc(&S.val, (size_t)sn * vs + 8);
        if (!e) e = cudaMalloc((void **)&off, 2 * (size_t)np * sizeof(int64_t));
        if (!e) e = cudaMemcpyAsync(off, host, 2 * (size_t)np * sizeof(int64_t), cudaMemcpyHostToDevice, stream);
        int blocks = (int)(((int64_t)rows + 1 + 7) / 8 < 4096 ? ((int64_t)rows + 1 + 7) / 8 : 4096); /* a warp a row */
        int sblocks = (int)((sn + 1 + 255) / 256 < 4096 ? (sn + 1 + 255) / 256 : 4096);
        if (!e && type == DOMINO_FLOAT64) {
            csr_merge_rows_kernel<double, int64_t, int64_t><<<blocks, 256, 0, stream>>>(
                rows, np, u_ptrs, (int64_t)rows + 1, u_ind, (const double *)u_val, off, off + np, U.ptr, U.ind,
                (double *)U.val);
            stacked_identity_kernel<double><<<sblocks, 256, 0, stream>>>(sn, cols, S.ptr, S.ind, (double *)S.val);
        } else if (!e) {
            csr_merge_rows_kernel<float, int64_t, int64_t><<<blocks, 256, 0, stream>>>(
                rows, np, u_ptrs, (int64_t)rows + 1, u_ind, (const float *)u_val, off, off + np, U.ptr, U.ind,
                (float *)U.val);
            stacked_identity_kernel<float><<<sblocks, 256, 0, stream>>>(sn, cols, S.ptr, S.ind, (float *)S.val);
        }
        if (!e) e = cudaGetLastError();
        if (!e) e = cudaStreamSynchronize(stream);
        cudaFree(u_ptrs), cudaFree(u_ind), cudaFree(u_val); /* merged into U: their memory back before the product */
        u_ptrs = NULL, u_ind = NULL, u_val = NULL;
        if (!e) s = domino_gpu_spgemm(h, &U, &S, C, NULL);
        cudaFree(U.ptr), cudaFree(U.ind), cudaFree(U.val);
        cudaFree(S.ptr), cudaFree(S.ind), cudaFree(S.val);
    }
    if (e) s = domino_cuda_status(h, e, WHAT);
    cudaFree(u_ptrs), cudaFree(u_ind), cudaFree(u_val), cudaFree(off);
    domino_free(host);
    domino_free(out);
    return s;
}
