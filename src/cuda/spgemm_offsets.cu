/* spgemm_offsets.cu: row offsets between the 64-bit offsets of domino's
 * device matrices and the 32-bit ones of a cuSPARSE SpGEMM row block */
#include "gpu_internal.h"

/* out[i] = in[i] - base for i < n1 (a row block's offsets, from 0) */
__global__ void offsets_narrow_kernel(int32_t n1, const int64_t *in, int64_t base, int32_t *out)
{
    int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n1) out[i] = (int32_t)(in[i] - base);
}

extern "C" cudaError_t domino_launch_offsets_narrow(cudaStream_t stream, int32_t n1, const int64_t *in,
                                                    int64_t base, int32_t *out)
{
    if (n1 > 0) offsets_narrow_kernel<<<(n1 + 255) / 256, 256, 0, stream>>>(n1, in, base, out);
    return cudaGetLastError();
}

/* out[i] = base + in[i] for i < n1 (a row block's offsets placed in the whole) */
__global__ void offsets_widen_kernel(int32_t n1, const int32_t *in, int64_t base, int64_t *out)
{
    int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n1) out[i] = base + in[i];
}

extern "C" cudaError_t domino_launch_offsets_widen(cudaStream_t stream, int32_t n1, const int32_t *in,
                                                   int64_t base, int64_t *out)
{
    if (n1 > 0) offsets_widen_kernel<<<(n1 + 255) / 256, 256, 0, stream>>>(n1, in, base, out);
    return cudaGetLastError();
}
