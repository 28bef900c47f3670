/* dist_tile_kernels.cuh: the kernels the tiled algorithms on NVSHMEM share
 * (the distributed SpMM and SpGEMM; internal): joining fetched tiles into
 * one CSR (cuda/csr_merge.cuh), and claiming a tile on its owner's counter. */
#ifndef DOMINO_DIST_TILE_KERNELS_CUH
#define DOMINO_DIST_TILE_KERNELS_CUH

#include "cuda/csr_merge.cuh"

#include <stdint.h>

/* *got = *counter, then *counter += 1, atomically (one thread; counter: the
 * owner's, through the peer pointer over NVLink) */
static __global__ void dist_claim_kernel(unsigned long long *counter, long long *got)
{
    *got = (long long)atomicAdd_system(counter, 1ULL);
}

#endif
