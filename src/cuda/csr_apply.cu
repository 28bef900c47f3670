/* csr_apply.cu: y += A x for a CSR matrix on the GPU, in double, a row a
 * thread; any number of entries (64-bit offsets).  The check of products
 * too large to bring to the host (C x against A (B x)), not a fast SpMV. */
#include "gpu_internal.h"

template <typename V>
__global__ void csr_apply_add_kernel(int32_t rows, const int64_t *ptr, const int32_t *ind, const V *val,
                                     const double *x, double *y)
{
    for (int64_t r = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; r < rows; r += (int64_t)gridDim.x * blockDim.x) {
        double sum = 0;
        for (int64_t e = ptr[r]; e < ptr[r + 1]; e++) sum += (double)val[e] * x[ind[e]];
        y[r] += sum;
    }
}

cudaError_t domino_launch_csr_apply_add(cudaStream_t stream, domino_type type, int32_t rows, const int64_t *ptr,
                                        const int32_t *ind, const void *val, const double *x, double *y)
{
    if (rows <= 0) return cudaSuccess;
    int blocks = (int)(((int64_t)rows + 255) / 256 < 4096 ? ((int64_t)rows + 255) / 256 : 4096);
    if (type == DOMINO_FLOAT64)
        csr_apply_add_kernel<double><<<blocks, 256, 0, stream>>>(rows, ptr, ind, (const double *)val, x, y);
    else
        csr_apply_add_kernel<float><<<blocks, 256, 0, stream>>>(rows, ptr, ind, (const float *)val, x, y);
    return cudaGetLastError();
}

extern "C" domino_status domino_dmatrix_multiply(domino_handle h, domino_dmatrix dA, const double *x, double *y)
{
    const char *fn = "domino_dmatrix_multiply";
    struct domino_gpu_context *gpu = NULL;
    if (!dA || !x || !y) return domino_error(h, DOMINO_NULL_POINTER, "%s: dA, x or y is NULL", fn);
    if (dA->magic != DOMINO_DMATRIX_MAGIC) return domino_error(h, DOMINO_INVALID_OBJECT, "%s: dA is not a live device matrix", fn);
    if (dA->format != DOMINO_CSR) return domino_error(h, DOMINO_NOT_SUPPORTED, "%s: dA must be CSR", fn);
    domino_status s = domino_gpu_context_get(h, &gpu);
    if (s) return s;
    double *dx = NULL, *dy = NULL;
    cudaError_t e = cudaMalloc((void **)&dx, ((size_t)dA->ncols + 1) * sizeof(double));
    if (!e) e = cudaMalloc((void **)&dy, ((size_t)dA->nrows + 1) * sizeof(double));
    if (!e) e = cudaMemcpyAsync(dx, x, (size_t)dA->ncols * sizeof(double), cudaMemcpyHostToDevice, gpu->stream);
    if (!e) e = cudaMemsetAsync(dy, 0, ((size_t)dA->nrows + 1) * sizeof(double), gpu->stream);
    if (!e) e = domino_launch_csr_apply_add(gpu->stream, dA->type, dA->nrows, dA->ptr, dA->ind, dA->val, dx, dy);
    if (!e) e = cudaMemcpyAsync(y, dy, (size_t)dA->nrows * sizeof(double), cudaMemcpyDeviceToHost, gpu->stream);
    if (!e) e = cudaStreamSynchronize(gpu->stream);
    cudaFree(dx);
    cudaFree(dy);
    return e ? domino_cuda_status(h, e, fn) : DOMINO_SUCCESS;
}
