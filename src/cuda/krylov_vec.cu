/* krylov_vec.cu: small vector kernels of the GPU Krylov solvers (Jacobi
 * setup and apply, the fused updates of CG and BiCGSTAB, the diagonal shift
 * of the factored matrix).  No fused multiply-add, as in the CPU reference. */
#include "factor_plan.h"

#define VEC_THREADS 256

static unsigned vec_blocks(int32_t n)
{
    int64_t b = ((int64_t)n + VEC_THREADS - 1) / VEC_THREADS;
    return b > 0 ? (unsigned)b : 1u;
}

__global__ void scale_diagonal_kernel(int32_t n, const int64_t *__restrict__ ptr,
                                      const int32_t *__restrict__ ind, double *val, double factor)
{
    int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    for (int64_t k = ptr[i]; k < ptr[i + 1]; k++)
        if (ind[k] == i) val[k] = __dmul_rn(factor, val[k]);
}

extern "C" cudaError_t domino_launch_scale_diagonal(cudaStream_t stream, int32_t n,
                                                    const int64_t *ptr, const int32_t *ind,
                                                    double *val, double factor)
{
    scale_diagonal_kernel<<<vec_blocks(n), VEC_THREADS, 0, stream>>>(n, ptr, ind, val, factor);
    return cudaGetLastError();
}

__global__ void inverse_diagonal_kernel(int32_t n, const int64_t *__restrict__ ptr,
                                        const int32_t *__restrict__ ind,
                                        const double *__restrict__ val, double *inv_diag,
                                        int32_t *bad_row)
{
    int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double d = 0.0;
    for (int64_t k = ptr[i]; k < ptr[i + 1]; k++)
        if (ind[k] == i) d += val[k];
    if (d == 0.0) atomicMin(bad_row, i);
    inv_diag[i] = 1.0 / d;
}

extern "C" cudaError_t domino_launch_inverse_diagonal(cudaStream_t stream, int32_t n,
                                                      const int64_t *ptr, const int32_t *ind,
                                                      const double *val, double *inv_diag,
                                                      int32_t *bad_row)
{
    inverse_diagonal_kernel<<<vec_blocks(n), VEC_THREADS, 0, stream>>>(n, ptr, ind, val, inv_diag,
                                                                       bad_row);
    return cudaGetLastError();
}

__global__ void vmul_kernel(int32_t n, const double *__restrict__ d, const double *__restrict__ r,
                            double *z)
{
    int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = __dmul_rn(d[i], r[i]);
}

extern "C" cudaError_t domino_launch_vmul(cudaStream_t stream, int32_t n, const double *d,
                                          const double *r, double *z)
{
    vmul_kernel<<<vec_blocks(n), VEC_THREADS, 0, stream>>>(n, d, r, z);
    return cudaGetLastError();
}

__global__ void xpby_kernel(int32_t n, const double *__restrict__ x, double beta, double *y)
{
    int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = __dadd_rn(x[i], __dmul_rn(beta, y[i]));
}

extern "C" cudaError_t domino_launch_xpby(cudaStream_t stream, int32_t n, const double *x,
                                          double beta, double *y)
{
    xpby_kernel<<<vec_blocks(n), VEC_THREADS, 0, stream>>>(n, x, beta, y);
    return cudaGetLastError();
}

__global__ void bicgstab_p_kernel(int32_t n, const double *__restrict__ r, double beta,
                                  double omega, const double *__restrict__ v, double *p)
{
    int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = __dadd_rn(r[i], __dmul_rn(beta, __dsub_rn(p[i], __dmul_rn(omega, v[i]))));
}

extern "C" cudaError_t domino_launch_bicgstab_p(cudaStream_t stream, int32_t n, const double *r,
                                                double beta, double omega, const double *v,
                                                double *p)
{
    bicgstab_p_kernel<<<vec_blocks(n), VEC_THREADS, 0, stream>>>(n, r, beta, omega, v, p);
    return cudaGetLastError();
}

__global__ void xmay_kernel(int32_t n, const double *__restrict__ x, double alpha,
                            const double *__restrict__ y, double *z)
{
    int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = __dsub_rn(x[i], __dmul_rn(alpha, y[i]));
}

extern "C" cudaError_t domino_launch_xmay(cudaStream_t stream, int32_t n, const double *x,
                                          double alpha, const double *y, double *z)
{
    xmay_kernel<<<vec_blocks(n), VEC_THREADS, 0, stream>>>(n, x, alpha, y, z);
    return cudaGetLastError();
}
