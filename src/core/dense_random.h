/* dense_random.h: the entries of domino's pseudo-random dense matrices
 * (domino_gen_dense on the CPU, domino_gpu_gen_dense on the GPU).  Entry
 * (r, c) of the matrix of ncols columns made from seed is a counter-based
 * hash of the seed and r ncols + c, uniform in [-0.5, 0.5): any block of
 * the matrix is made anywhere (CPU, GPU, any PE) with the same values, and
 * no one needs the whole matrix to make a piece of it.  C and CUDA alike. */
#ifndef DOMINO_DENSE_RANDOM_H
#define DOMINO_DENSE_RANDOM_H

#include <stdint.h>

#ifdef __CUDACC__
#define DOMINO_HOST_DEVICE __host__ __device__
#else
#define DOMINO_HOST_DEVICE
#endif

/* splitmix64's finaliser: a bijection of 64-bit words that mixes every bit */
static inline DOMINO_HOST_DEVICE uint64_t domino_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* the key of a seed (computed once per block) */
static inline DOMINO_HOST_DEVICE uint64_t domino_dense_random_key(uint64_t seed)
{
    return domino_mix64(seed + 0x9e3779b97f4a7c15ULL);
}

/* entry number `index` (r ncols + c) of the matrix of this key, in [-0.5, 0.5) */
static inline DOMINO_HOST_DEVICE double domino_dense_random_entry(uint64_t key, uint64_t index)
{
    return (double)(domino_mix64(key + index * 0x9e3779b97f4a7c15ULL) >> 11) * 0x1p-53 - 0.5;
}

#endif /* DOMINO_DENSE_RANDOM_H */
