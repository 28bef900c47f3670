/* dense_gpu.cu: dense blocks on the GPU: a block of a pseudo-random dense
 * matrix (the values of domino_gen_dense, bit for bit), and y += A x for
 * a row-major block (the check of dense products too large for a host). */
#include "dense_random.h"
#include "gpu_internal.h"

/* B[r ldb + c] = entry (row0 + r, col0 + c) of the matrix of ncols columns
 * of this key, r < rows, c < cols; a thread an entry, grid-stride */
template <typename V>
__global__ void gen_dense_kernel(uint64_t key, int64_t ncols, int64_t row0, int64_t rows, int64_t col0, int64_t cols,
                                 V *B, int64_t ldb)
{
    int64_t count = rows * cols;
    for (int64_t k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; k < count; k += (int64_t)gridDim.x * blockDim.x) {
        int64_t r = k / cols, c = k - r * cols;
        B[r * ldb + c] = (V)domino_dense_random_entry(key, (uint64_t)(row0 + r) * (uint64_t)ncols + (uint64_t)(col0 + c));
    }
}

cudaError_t domino_launch_gen_dense(cudaStream_t stream, uint64_t seed, int64_t ncols, int64_t row0, int64_t rows,
                                    int64_t col0, int64_t cols, domino_type type, void *B, int64_t ldb)
{
    if (rows <= 0 || cols <= 0) return cudaSuccess;
    int64_t want = (rows * cols + 255) / 256;
    int blocks = (int)(want < 65536 ? want : 65536);
    uint64_t key = domino_dense_random_key(seed);
    if (type == DOMINO_FLOAT64)
        gen_dense_kernel<double><<<blocks, 256, 0, stream>>>(key, ncols, row0, rows, col0, cols, (double *)B, ldb);
    else
        gen_dense_kernel<float><<<blocks, 256, 0, stream>>>(key, ncols, row0, rows, col0, cols, (float *)B, ldb);
    return cudaGetLastError();
}

/* y[r] += sum_c A[r lda + c] x[c] in double, r < rows: a warp a row, the
 * lanes along the row (coalesced), a shuffle sum */
template <typename V>
__global__ void dense_apply_add_kernel(int64_t rows, int64_t cols, const V *A, int64_t lda, const double *x, double *y)
{
    int lane = threadIdx.x & 31;
    int64_t warps = (int64_t)gridDim.x * (blockDim.x >> 5);
    for (int64_t r = (blockIdx.x * (int64_t)blockDim.x + threadIdx.x) >> 5; r < rows; r += warps) {
        double sum = 0;
        for (int64_t c = lane; c < cols; c += 32) sum += (double)A[r * lda + c] * x[c];
        for (int d = 16; d > 0; d >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, d);
        if (lane == 0) y[r] += sum;
    }
}

cudaError_t domino_launch_dense_apply_add(cudaStream_t stream, domino_type type, int64_t rows, int64_t cols,
                                          const void *A, int64_t lda, const double *x, double *y)
{
    if (rows <= 0 || cols <= 0) return cudaSuccess;
    int64_t want = (rows + 7) / 8; /* 8 warps a block */
    int blocks = (int)(want < 65536 ? want : 65536);
    if (type == DOMINO_FLOAT64)
        dense_apply_add_kernel<double><<<blocks, 256, 0, stream>>>(rows, cols, (const double *)A, lda, x, y);
    else
        dense_apply_add_kernel<float><<<blocks, 256, 0, stream>>>(rows, cols, (const float *)A, lda, x, y);
    return cudaGetLastError();
}

extern "C" domino_status domino_gpu_gen_dense(domino_handle h, uint64_t seed, int64_t ncols, int64_t row0, int64_t rows,
                                              int64_t col0, int64_t cols, domino_type type, void *dB, int64_t ldb)
{
    const char *fn = "domino_gpu_gen_dense";
    struct domino_gpu_context *gpu = NULL;
    domino_status s = domino_gen_dense_check(h, fn, ncols, row0, rows, col0, cols, type, dB, ldb);
    if (!s) s = domino_gpu_context_get(h, &gpu);
    if (s) return s;
    cudaError_t e = domino_launch_gen_dense(gpu->stream, seed, ncols, row0, rows, col0, cols, type, dB, ldb);
    if (!e) e = cudaStreamSynchronize(gpu->stream);
    return e ? domino_cuda_status(h, e, fn) : DOMINO_SUCCESS;
}

extern "C" domino_status domino_gpu_dense_multiply(domino_handle h, domino_type type, int64_t rows, int64_t cols,
                                                   const void *dA, int64_t lda, const double *x, double *y)
{
    const char *fn = "domino_gpu_dense_multiply";
    struct domino_gpu_context *gpu = NULL;
    if (type != DOMINO_FLOAT64 && type != DOMINO_FLOAT32)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: type %d is neither FLOAT64 nor FLOAT32", fn, (int)type);
    if (rows < 0 || cols < 0 || lda < cols)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: %lld x %lld with lda %lld (need lda >= columns)", fn,
                            (long long)rows, (long long)cols, (long long)lda);
    if ((rows > 0 && !y) || (rows > 0 && cols > 0 && (!dA || !x)))
        return domino_error(h, DOMINO_NULL_POINTER, "%s: dA, x or y is NULL", fn);
    domino_status s = domino_gpu_context_get(h, &gpu);
    if (s || rows == 0) return s;
    double *dx = NULL, *dy = NULL;
    cudaError_t e = cudaMalloc((void **)&dx, ((size_t)cols + 1) * sizeof(double));
    if (!e) e = cudaMalloc((void **)&dy, (size_t)rows * sizeof(double));
    if (!e && cols) e = cudaMemcpyAsync(dx, x, (size_t)cols * sizeof(double), cudaMemcpyHostToDevice, gpu->stream);
    if (!e) e = cudaMemsetAsync(dy, 0, (size_t)rows * sizeof(double), gpu->stream);
    if (!e) e = domino_launch_dense_apply_add(gpu->stream, type, rows, cols, dA, lda, dx, dy);
    if (!e) e = cudaMemcpyAsync(y, dy, (size_t)rows * sizeof(double), cudaMemcpyDeviceToHost, gpu->stream);
    if (!e) e = cudaStreamSynchronize(gpu->stream);
    cudaFree(dx);
    cudaFree(dy);
    return e ? domino_cuda_status(h, e, fn) : DOMINO_SUCCESS;
}
