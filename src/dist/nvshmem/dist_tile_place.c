/* dist_tile_place.c: one tile of a global CSR put into a PE's symmetric
 * windows, shared by the tiled algorithms on NVSHMEM (SpMM, SpGEMM) */
#include "cuda/gpu_internal.h"
#include "dist/dist_tile_cut.h"
#include "dist/nvshmem/dist_tile_place.h"

cudaError_t dist_place_tile(domino_handle h, domino_matrix X, const int64_t *rs, const int64_t *cs, int r, int c,
                            int32_t *ptr, int32_t *ind, void *val, domino_status *s)
{
    domino_matrix tile = NULL;
    size_t vs = domino_type_size(X->type);
    *s = dist_cut_tile(h, X, rs, cs, r, c, &tile);
    if (*s) return cudaSuccess;
    int64_t rows = rs[r + 1] - rs[r], nnz = tile->nnz;
    int32_t *p32 = (int32_t *)domino_malloc((size_t)(rows + 1) * sizeof(int32_t));
    cudaError_t e = p32 ? cudaSuccess : cudaErrorMemoryAllocation;
    for (int64_t q = 0; p32 && q <= rows; q++) p32[q] = (int32_t)tile->ptr[q];
    if (!e) e = cudaMemcpy(ptr, p32, (size_t)(rows + 1) * sizeof(int32_t), cudaMemcpyHostToDevice);
    if (!e && nnz) e = cudaMemcpy(ind, tile->ind, (size_t)nnz * sizeof(int32_t), cudaMemcpyHostToDevice);
    if (!e && nnz) e = cudaMemcpy(val, tile->val, (size_t)nnz * vs, cudaMemcpyHostToDevice);
    domino_free(p32);
    domino_matrix_free(tile);
    return e;
}
