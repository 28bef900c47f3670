/* trsv_diagonal.cu: the solve of a diagonal system (every row holds exactly
 * its diagonal entry): X = D^-1 B (X = B with a unit diagonal), column by
 * column, a streaming kernel.  The thread engine takes it for such a
 * system (trsv_solve.c): its rows have no dependencies, and its per-row
 * ticket, flags and walk cost 3.7x the bytes' time on a 10^7-row one
 * (bench/results/h200-packed14: 0.37 ms, 23% of the copy bandwidth). */
#include "gpu_internal.h"

/* thread per (row, column), grid-stride: x_ij = b_ij / a_ii, the diagonal
 * at val[ptr[i]] (b_ij when unit) */
template <typename T>
__global__ void diagonal_solve_kernel(int32_t n, int32_t nrhs, const int64_t *__restrict__ ptr,
                                      const T *__restrict__ val, int unit, const T *__restrict__ B,
                                      int64_t ldb, T *__restrict__ X, int64_t ldx)
{
    const int64_t total = (int64_t)n * nrhs, stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t t = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; t < total; t += stride) {
        int64_t j = t / n;
        int32_t i = (int32_t)(t - j * n);
        T b = __ldg(&B[j * ldb + i]);
        X[j * ldx + i] = unit ? b : b / __ldg(&val[__ldg(&ptr[i])]);
    }
}

extern "C" cudaError_t domino_launch_trsv_diagonal(cudaStream_t stream, int num_sms, domino_type type,
                                                   int32_t n, int32_t nrhs, const int64_t *ptr,
                                                   const void *val, int unit, const void *B, int64_t ldb,
                                                   void *X, int64_t ldx)
{
    if (n == 0 || nrhs == 0) return cudaSuccess;
    int64_t want = ((int64_t)n * nrhs + 255) / 256;
    int64_t most = (int64_t)(num_sms > 0 ? num_sms : 1) * 8; /* 2048 threads an SM */
    int blocks = (int)(want < most ? want : most);
    if (type == DOMINO_FLOAT64)
        diagonal_solve_kernel<double><<<blocks, 256, 0, stream>>>(n, nrhs, ptr, (const double *)val, unit,
                                                                 (const double *)B, ldb, (double *)X, ldx);
    else
        diagonal_solve_kernel<float><<<blocks, 256, 0, stream>>>(n, nrhs, ptr, (const float *)val, unit,
                                                                (const float *)B, ldb, (float *)X, ldx);
    return cudaGetLastError();
}
