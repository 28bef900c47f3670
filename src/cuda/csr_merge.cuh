/* csr_merge.cuh: CSR blocks side by side, merged into one CSR on the GPU
 * (internal): the distributed SpMM and SpGEMM join fetched tiles with it,
 * and domino_dmatrix_sum puts the matrices it sums side by side. */
#ifndef DOMINO_CSR_MERGE_CUH
#define DOMINO_CSR_MERGE_CUH

#include <stdint.h>

/* Row r <= rows of a merged row block (one warp per row): the row's
 * segments of the T fetched tiles side by side, columns shifted by the
 * tile's start in the inner dimension.  Tile l's offsets (from 0, of type
 * I) start at ptrs + l stride, its entries at off[l]; m_ptr (of type O)
 * gets the merged offsets, m_ind and m_val the entries. */
template <typename V, typename I, typename O>
__global__ void csr_merge_rows_kernel(int64_t rows, int T, const I *ptrs, int64_t stride, const int32_t *ind,
                                       const V *val, const int64_t *off, const int64_t *kb, O *m_ptr,
                                       int32_t *m_ind, V *m_val)
{
    int lane = threadIdx.x & 31;
    int64_t warps = ((int64_t)gridDim.x * blockDim.x) >> 5;
    for (int64_t r = (blockIdx.x * (int64_t)blockDim.x + threadIdx.x) >> 5; r <= rows; r += warps) {
        int64_t at = 0; /* entries of the rows before r, over every tile */
        for (int l = 0; l < T; l++) at += ptrs[l * stride + r];
        if (lane == 0) m_ptr[r] = (O)at;
        if (r == rows) continue;
        for (int l = 0; l < T; l++) {
            int64_t k0 = ptrs[l * stride + r], k1 = ptrs[l * stride + r + 1];
            for (int64_t k = k0 + lane; k < k1; k += 32) {
                m_ind[at + (k - k0)] = ind[off[l] + k] + (int32_t)kb[l];
                m_val[at + (k - k0)] = val[off[l] + k];
            }
            at += k1 - k0;
        }
    }
}

#endif
