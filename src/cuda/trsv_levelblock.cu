/* trsv_levelblock.cu: level-set triangular solve in one thread block (the
 * "levelblock" engine), for small systems.
 *
 * The analysis (trsv_level_order.c, on the host) numbers the rows level by
 * level and copies each row's off-diagonal entries in that order, so the
 * entries of one level are contiguous.  One block solves the levels in
 * turn: groups of LANES lanes take the rows of a level, each adds its row's
 * entries against x, one lane divides, and a barrier of the solving warps
 * ends the level.  A dependency is handed over inside one SM, through
 * shared memory (SHARED: x, started as b, when n values fit) or through
 * the SM's view of X (else), never through a flag in L2: a level costs a
 * few loads and a barrier, where the synchronization-free engines pay an
 * L2 round trip per dependency hop (~1 us on an H100).  The entries of the
 * level `prefetch` levels ahead are prefetched into L1 while a level is
 * solved, so the loads of a level hit L1.  One SM's bandwidth bounds a
 * level's work: the engine is for small systems, deep ones above all.
 * Summation order is fixed (each lane in stored order, then a fixed
 * shuffle tree): results are bitwise reproducible. */
#include "gpu_internal.h"

#define LB_THREADS 1024 /* the block; the level loop runs on args.threads of them */

__device__ __forceinline__ void prefetch_l1(const void *p)
{
    asm volatile("prefetch.global.L1 [%0];" ::"l"(p));
}

/* 128-byte lines of elements [lo, hi) of 'size'-byte elements of an array
 * that starts on a line: the first line and the count */
__device__ __forceinline__ int32_t lines_of(int32_t lo, int32_t hi, int size, int64_t *first)
{
    if (hi <= lo) return 0;
    *first = (int64_t)lo * size / 128;
    return (int32_t)(((int64_t)hi * size - 1) / 128 - *first + 1);
}

/* prefetch into L1 what solving level l reads besides x: its entries'
 * columns and values, its positions' offsets, rows and diagonals; thread
 * t of nthreads takes every nthreads-th line */
template <typename T>
__device__ void levelblock_prefetch(const domino_levelblock_args &a, int32_t l, int t, int nthreads)
{
    int32_t p0 = __ldg(&a.level_ptr[l]), p1 = __ldg(&a.level_ptr[l + 1]);
    int32_t e0 = __ldg(&a.level_entries[l]), e1 = __ldg(&a.level_entries[l + 1]);
    int64_t f[5] = {0, 0, 0, 0, 0};
    int32_t c[5];
    c[0] = lines_of(e0, e1, 4, &f[0]);                /* col */
    c[1] = lines_of(e0, e1, (int)sizeof(T), &f[1]);   /* val */
    c[2] = lines_of(p0, p1 + 1, 4, &f[2]);            /* ptr */
    c[3] = lines_of(p0, p1, 4, &f[3]);                /* row */
    c[4] = a.unit ? 0 : lines_of(p0, p1, (int)sizeof(T), &f[4]); /* diag */
    const char *base[5] = {(const char *)a.col, (const char *)a.val, (const char *)a.ptr,
                           (const char *)a.row, (const char *)a.diag};
    int32_t total = c[0] + c[1] + c[2] + c[3] + c[4];
    for (int32_t u = t; u < total; u += nthreads) {
        int32_t v = u, s = 0;
        while (v >= c[s]) v -= c[s++];
        prefetch_l1(base[s] + (f[s] + v) * 128);
    }
}

/* the solving warps' barrier (named barrier 1; the other warps wait at
 * the block's barrier 0 meanwhile) */
__device__ __forceinline__ void solvers_barrier(int threads)
{
    asm volatile("bar.sync 1, %0;" ::"r"(threads) : "memory");
}

/* Solve S X = B (nrhs columns) with the level order of a.  Contract: a
 * holds the level order of S (trsv_level_order.h) with values and
 * diagonals gathered (domino_launch_levelblock_values); one block of
 * LB_THREADS threads; SHARED needs n values of dynamic shared memory; B
 * and X do not overlap. */
template <typename T, int LANES, bool SHARED>
__global__ void __launch_bounds__(LB_THREADS, 1)
    trsv_levelblock_kernel(domino_levelblock_args a, int32_t nrhs, const T *__restrict__ B,
                           int64_t ldb, T *X, int64_t ldx)
{
    extern __shared__ __align__(16) unsigned char levelblock_shared[];
    const int32_t n = a.n, nlevels = a.nlevels;
    const int32_t *__restrict__ level_ptr = a.level_ptr;
    const int32_t *__restrict__ ptr = a.ptr;
    const int32_t *__restrict__ row = a.row;
    const int32_t *__restrict__ col = a.col;
    const T *__restrict__ val = (const T *)a.val;
    const T *__restrict__ diag = (const T *)a.diag;
    const int solvers = a.threads;
    const int per_warp = 32 / LANES;                  /* groups (rows at a time) of a warp */
    const int32_t groups = solvers / LANES;
    const int warp = (int)threadIdx.x / 32;
    const int group = ((int)threadIdx.x % 32) / LANES, sub = (int)threadIdx.x % LANES;
    for (int32_t r = 0; r < nrhs; r++) {
        const T *b = B + (int64_t)r * ldb;
        T *x = X + (int64_t)r * ldx;
        T *xv = SHARED ? (T *)levelblock_shared : x; /* x_i is b_i until row i is solved */
        for (int32_t i = (int32_t)threadIdx.x; i < n; i += (int32_t)blockDim.x) xv[i] = __ldg(&b[i]);
        __syncthreads();
        if ((int)threadIdx.x < solvers) {
            int32_t q0 = __ldg(&level_ptr[0]);
            for (int32_t l = 0; l < nlevels; l++) {
                int32_t q1 = __ldg(&level_ptr[l + 1]);
                if (a.prefetch > 0 && l + a.prefetch < nlevels)
                    levelblock_prefetch<T>(a, l + a.prefetch, (int)threadIdx.x, solvers);
                /* warp-uniform trip count: the shuffles see the whole warp */
                for (int32_t qb = q0 + warp * per_warp; qb < q1; qb += groups) {
                    int32_t q = qb + group, i = 0;
                    bool on = q < q1;
                    T s = (T)0;
                    if (on) {
                        int32_t k0 = __ldg(&ptr[q]), k1 = __ldg(&ptr[q + 1]);
                        i = __ldg(&row[q]);
#pragma unroll 4
                        for (int32_t k = k0 + sub; k < k1; k += LANES)
                            s += __ldg(&val[k]) * xv[__ldg(&col[k])];
                    }
#pragma unroll
                    for (int o = LANES / 2; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
                    if (on && sub == 0) {
                        T bi = xv[i];
                        xv[i] = a.unit ? bi - s : (bi - s) / __ldg(&diag[q]);
                    }
                }
                q0 = q1;
                solvers_barrier(solvers);
            }
        }
        __syncthreads();
        if (SHARED) {
            for (int32_t i = (int32_t)threadIdx.x; i < n; i += (int32_t)blockDim.x) x[i] = xv[i];
            __syncthreads(); /* the next right-hand side overwrites xv */
        }
    }
}

/* values of the level order: val[k] = eval[src[k]], diag[q] = eval[diag_src[q]] */
template <typename T>
__global__ void levelblock_values_kernel(int64_t m, const int64_t *__restrict__ src, int32_t n,
                                         const int64_t *__restrict__ diag_src,
                                         const T *__restrict__ eval, T *val, T *diag)
{
    int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; k < m + n; k += stride) {
        if (k < m) {
            val[k] = eval[src[k]];
        } else {
            int64_t d = diag_src[k - m];
            diag[k - m] = d >= 0 ? eval[d] : (T)1;
        }
    }
}

extern "C" cudaError_t domino_launch_levelblock_values(cudaStream_t stream, domino_type type,
                                                       int64_t m, const int64_t *src, int32_t n,
                                                       const int64_t *diag_src, const void *eval,
                                                       void *val, void *diag)
{
    int64_t total = m + n;
    if (total == 0) return cudaSuccess;
    int blocks = (int)((total + 255) / 256 < 4096 ? (total + 255) / 256 : 4096);
    if (type == DOMINO_FLOAT64)
        levelblock_values_kernel<double><<<blocks, 256, 0, stream>>>(
            m, src, n, diag_src, (const double *)eval, (double *)val, (double *)diag);
    else
        levelblock_values_kernel<float><<<blocks, 256, 0, stream>>>(
            m, src, n, diag_src, (const float *)eval, (float *)val, (float *)diag);
    return cudaGetLastError();
}

/* the kernel of type T, lanes per row and x placement */
template <typename T, bool SHARED> static const void *levelblock_kernel_of(int lanes)
{
    return lanes == 1    ? (const void *)trsv_levelblock_kernel<T, 1, SHARED>
           : lanes == 2  ? (const void *)trsv_levelblock_kernel<T, 2, SHARED>
           : lanes == 4  ? (const void *)trsv_levelblock_kernel<T, 4, SHARED>
           : lanes == 8  ? (const void *)trsv_levelblock_kernel<T, 8, SHARED>
           : lanes == 16 ? (const void *)trsv_levelblock_kernel<T, 16, SHARED>
                         : (const void *)trsv_levelblock_kernel<T, 32, SHARED>;
}

static int lanes_index(int lanes)
{
    int k = 0;
    while ((1 << k) < lanes && k < 5) k++;
    return k;
}

extern "C" cudaError_t domino_launch_trsv_levelblock(cudaStream_t stream, domino_type type,
                                                     const domino_levelblock_args *a, int32_t nrhs,
                                                     const void *B, int64_t ldb, void *X,
                                                     int64_t ldx)
{
    if (a->n == 0) return cudaSuccess;
    domino_levelblock_args args = *a;
    if (args.threads < 32 || args.threads > LB_THREADS || args.threads % 32) args.threads = LB_THREADS;
    if (args.lanes != 1 && args.lanes != 2 && args.lanes != 4 && args.lanes != 8 && args.lanes != 16)
        args.lanes = 32;
    int dbl = type == DOMINO_FLOAT64, shared = args.shared != 0;
    const void *fn = dbl ? (shared ? levelblock_kernel_of<double, true>(args.lanes)
                                   : levelblock_kernel_of<double, false>(args.lanes))
                         : (shared ? levelblock_kernel_of<float, true>(args.lanes)
                                   : levelblock_kernel_of<float, false>(args.lanes));
    size_t bytes = shared ? (size_t)args.n * domino_type_size(type) : 0;
    cudaError_t e = cudaSuccess;
    if (shared) {
        static char raised[64][2][6];
        int device = 0;
        if ((e = cudaGetDevice(&device))) return e;
        char *done = device >= 0 && device < 64 ? &raised[device][dbl][lanes_index(args.lanes)] : NULL;
        if ((e = domino_block_raise_shared(fn, bytes, done))) return e;
    }
    void *params[] = {&args, &nrhs, &B, &ldb, &X, &ldx};
    return cudaLaunchKernel(fn, dim3(1), dim3(LB_THREADS), params, bytes, stream);
}
