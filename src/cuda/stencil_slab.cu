/* stencil_slab.cu: the whole solution of a slab solve over PEs
 * (domino_dist_stencil), gathered from every PE's own lines. */
#include "stencil_gpu.h"

/* every PE's solution array as this GPU addresses it (by value) */
typedef struct slab_sources {
    const void *x[DIST_SLABS_MAX_PES];
} slab_sources;

/* full[i] := x_i of the whole grid, read L2-coherent from its owner's local
 * grid (the solves have ended and every PE met after them) */
template <typename T>
__global__ void slab_gather_kernel(const dist_slabs P, const slab_sources src, T *full)
{
    const int64_t plane = (int64_t)P.nx * P.ny, n = plane * P.nz;
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += stride) {
        int32_t x = (int32_t)(i % P.nx), y = (int32_t)((i / P.nx) % P.ny), z = (int32_t)(i / plane);
        int q = dist_slabs_owner(&P, y);
        full[i] = __ldcg(&((const T *)src.x[q])[dist_slabs_local_row(&P, q, x, y, z)]);
    }
}

extern "C" cudaError_t domino_launch_stencil_slab_gather(cudaStream_t stream, domino_type type,
                                                         const dist_slabs *P, void *const *x, void *full)
{
    slab_sources src;
    int64_t n = (int64_t)P->nx * P->ny * P->nz;
    if (n == 0) return cudaSuccess;
    for (int q = 0; q < DIST_SLABS_MAX_PES; q++) src.x[q] = q < P->npes ? x[q] : NULL;
    int blocks = (int)((n + 255) / 256 < 8192 ? (n + 255) / 256 : 8192);
    if (type == DOMINO_FLOAT64)
        slab_gather_kernel<double><<<blocks, 256, 0, stream>>>(*P, src, (double *)full);
    else
        slab_gather_kernel<float><<<blocks, 256, 0, stream>>>(*P, src, (float *)full);
    return cudaGetLastError();
}
