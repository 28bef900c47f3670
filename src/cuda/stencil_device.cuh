/* stencil_device.cuh: device helpers shared by the structured-grid kernels
 * (stencil_trsv.cu: the solve; stencil_convert.cu: the check and the
 * compact copy of a CSR triangle).  Coordinates: see stencil_gpu.h. */
#ifndef DOMINO_STENCIL_DEVICE_CUH
#define DOMINO_STENCIL_DEVICE_CUH

#include "stencil_gpu.h"

/* the real row of solve-coordinate row r */
__device__ __forceinline__ int64_t real_row(const stencil_kernel_args &A, int64_t r)
{
    return A.upper ? A.n - 1 - r : r;
}

/* 1 if grid point (x, y, z) lies in the grid */
__device__ __forceinline__ bool inside(const stencil_kernel_args &A, int x, int y, int z)
{
    return x >= 0 && x < A.nx && y >= 0 && y < A.ny && z >= 0 && z < A.nz;
}

/* the triangle offset of row delta d for point (xl, y, z), searching from
 * *p (deltas increase along a sorted row); -1 if d is no neighbour in the
 * grid.  On tiny grids two offsets can share a delta: the one whose
 * neighbour lies inside the grid is the entry's. */
__device__ __forceinline__ int match_offset(const stencil_kernel_args &A, int64_t d, int xl, int y,
                                            int z, int *p)
{
    while (*p < A.nlow && A.lowd[*p] < d) (*p)++;
    for (int q = *p; q < A.nlow && A.lowd[q] == d; q++)
        if (inside(A, xl + A.lowx[q], y + A.lowy[q], z + A.lowz[q])) return q;
    return -1;
}

/* add the value v of a triangle entry of kind `kind` to the centre (diag),
 * the in-line M1 or M2 sums; false (nothing added) for an off-line entry */
template <typename T>
__device__ __forceinline__ bool add_in_line(int kind, T v, T *diag, T *m1, T *m2, bool *found_diag)
{
    if (kind == STENCIL_CENTRE) {
        *diag += v;
        *found_diag = true;
    } else if (kind == STENCIL_M1) {
        *m1 += v;
    } else if (kind == STENCIL_M2) {
        *m2 += v;
    } else {
        return false;
    }
    return true;
}

#endif
