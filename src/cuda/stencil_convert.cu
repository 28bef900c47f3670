/* stencil_convert.cu: kernels over a caller's CSR triangle of a stencil:
 * the entry check (every entry a stencil neighbour inside the grid), the
 * compact copy (one coefficient slot per offset), and the compact copy of
 * its transpose made from the CSR of the other triangle */
#include "stencil_device.cuh"

/* thread per row: is every entry of the triangle of the CSR a neighbour of
 * the stencil inside the grid?  The smallest bad row goes to timeout_row. */
__global__ void stencil_validate_kernel(const stencil_kernel_args A)
{
    for (int64_t r = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; r < A.n;
         r += (int64_t)gridDim.x * blockDim.x) {
        int64_t row = real_row(A, r);
        int xl = (int)(r % A.nx), y = (int)((r / A.nx) % A.ny), z = (int)(r / ((int64_t)A.nx * A.ny));
        int64_t jb = __ldg(&A.ptr[row]), je = __ldg(&A.ptr[row + 1]);
        int p = 0;
        for (int64_t t = 0; t < je - jb; t++) {
            int64_t j = A.upper ? je - 1 - t : jb + t;
            int64_t c = __ldg(&A.ind[j]);
            int64_t d = A.upper ? row - c : c - row;
            if (d > 0) break;
            if (match_offset(A, d, xl, y, z, &p) < 0) {
                atomicMin(&A.st->timeout_row, (int32_t)row);
                break;
            }
        }
    }
}

extern "C" cudaError_t domino_launch_stencil_validate(cudaStream_t stream,
                                                      const stencil_kernel_args *A)
{
    if (A->n == 0) return cudaSuccess;
    int64_t blocks = (A->n + 255) / 256;
    stencil_validate_kernel<<<(unsigned)(blocks < 65536 ? blocks : 65536), 256, 0, stream>>>(*A);
    return cudaGetLastError();
}

/* thread per row: the compact form of the CSR's triangle, coef (3 + noff
 * slots of n values: the slot of an entry is its kind; each thread zeroes
 * its row's slots first, so coef needs no clearing and its lines are in
 * L2 for the sums) += each entry (duplicates summed); entries outside the
 * stencil are skipped (the CSR was validated before) */
template <typename T> __global__ void stencil_compact_kernel(const stencil_kernel_args A, T *coef)
{
    const T *val = (const T *)A.val;
    for (int64_t r = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; r < A.n;
         r += (int64_t)gridDim.x * blockDim.x) {
        int64_t row = real_row(A, r);
        for (int k = 0; k < 3 + A.noff; k++) coef[k * A.n + row] = (T)0;
        int xl = (int)(r % A.nx), y = (int)((r / A.nx) % A.ny), z = (int)(r / ((int64_t)A.nx * A.ny));
        int64_t jb = __ldg(&A.ptr[row]), je = __ldg(&A.ptr[row + 1]);
        int p = 0;
        for (int64_t t = 0; t < je - jb; t++) {
            int64_t j = A.upper ? je - 1 - t : jb + t;
            int64_t c = __ldg(&A.ind[j]);
            int64_t d = A.upper ? row - c : c - row;
            if (d > 0) break;
            int q = match_offset(A, d, xl, y, z, &p);
            if (q >= 0) coef[A.lowkind[q] * A.n + row] += __ldg(&val[j]);
        }
    }
}

extern "C" cudaError_t domino_launch_stencil_compact(cudaStream_t stream, domino_type type,
                                                     const stencil_kernel_args *A, void *coef)
{
    if (A->n == 0) return cudaSuccess;
    int64_t blocks = (A->n + 255) / 256;
    unsigned grid = (unsigned)(blocks < 65536 ? blocks : 65536);
    if (type == DOMINO_FLOAT64)
        stencil_compact_kernel<double><<<grid, 256, 0, stream>>>(*A, (double *)coef);
    else
        stencil_compact_kernel<float><<<grid, 256, 0, stream>>>(*A, (float *)coef);
    return cudaGetLastError();
}

/* thread per row i of src, the CSR holding the transpose of A's triangle
 * (its other triangle: entries c <= i when A is upper, c >= i when lower):
 * entry (i, c) is A's (c, i), added to coef (zeroed) at its offset's slot,
 * row c.  Each (slot, c) has one source row, so no two threads meet; src's
 * triangle was validated before (the transposes of stencil neighbours are
 * stencil neighbours).  What makes the Lᵀ of an IC(0) without transposing. */
template <typename T>
__global__ void stencil_compact_transposed_kernel(const stencil_kernel_args A,
                                                  const int64_t *__restrict__ ptr,
                                                  const int32_t *__restrict__ ind,
                                                  const T *__restrict__ val, T *coef)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < A.n;
         i += (int64_t)gridDim.x * blockDim.x) {
        for (int64_t j = __ldg(&ptr[i]), je = __ldg(&ptr[i + 1]); j < je; j++) {
            int64_t c = __ldg(&ind[j]);
            int64_t d = A.upper ? c - i : i - c; /* A's row c, column i: solve delta */
            if (d > 0) continue;
            int64_t r = real_row(A, c); /* solve coordinates of row c */
            int xl = (int)(r % A.nx), y = (int)((r / A.nx) % A.ny), z = (int)(r / ((int64_t)A.nx * A.ny));
            int p = 0;
            int q = match_offset(A, d, xl, y, z, &p);
            if (q >= 0) coef[A.lowkind[q] * A.n + c] += __ldg(&val[j]);
        }
    }
}

extern "C" cudaError_t domino_launch_stencil_compact_transposed(cudaStream_t stream,
                                                                domino_type type,
                                                                const stencil_kernel_args *A,
                                                                const int64_t *ptr,
                                                                const int32_t *ind,
                                                                const void *val, void *coef)
{
    if (A->n == 0) return cudaSuccess;
    int64_t blocks = (A->n + 255) / 256;
    unsigned grid = (unsigned)(blocks < 65536 ? blocks : 65536);
    if (type == DOMINO_FLOAT64)
        stencil_compact_transposed_kernel<double><<<grid, 256, 0, stream>>>(
            *A, ptr, ind, (const double *)val, (double *)coef);
    else
        stencil_compact_transposed_kernel<float><<<grid, 256, 0, stream>>>(
            *A, ptr, ind, (const float *)val, (float *)coef);
    return cudaGetLastError();
}
