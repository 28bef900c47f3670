/* trsv_block.cu: synchronization-free triangular solve by one thread block
 * (the "block" engine), CSR pull.
 *
 * Solves T x = b for the lower (or upper) triangle T of a CSR matrix (the
 * other triangle is skipped).  One block of BLOCK_THREADS threads holds the
 * whole solve on one SM, so a dependency is handed over through that SM's
 * shared memory instead of a round trip to L2: x lives in shared memory
 * (SHARED, when n values fit), filled with the pending sentinel, and every
 * value is its own ready flag (device_util.cuh).  Rows are dealt round-robin
 * to groups of LANES lanes in logical order (row r, r + groups, ...; upper
 * triangles run backwards); a group's lanes load BLOCK_BATCH entries each,
 * then wait for each dependency they read, sum in a fixed order and reduce
 * by shuffles (deterministic), and lane 0 publishes x.  The next row's
 * offsets are fetched while the current row waits.  All groups are resident
 * (one block) and every group solves its rows in increasing logical order,
 * so the smallest pending row always has its dependencies solved: the solve
 * finishes whatever the scheduling (groups of one warp may wait on each
 * other: independent thread scheduling, sm_70 on).
 * Without SHARED (n too large for shared memory) x is the caller's X,
 * filled with the sentinel first and polled with L2-coherent loads.
 * The deep, narrow systems this engine is for spend their time in
 * dependency hops, not bandwidth: a hop through shared memory costs tens of
 * cycles, a hop between blocks through L2 about a microsecond. */
#include "gpu_internal.h"
#include "device_util.cuh"

#define BLOCK_THREADS 1024 /* threads of the one block */
#define BLOCK_BATCH 2      /* entries a lane loads before it waits on them */

/* x_j once solved (waits, bounded by max_wait_ns when > 0: then 0 and the row reported) */
template <typename T, bool SHARED>
__device__ __forceinline__ T block_wait_value(const volatile T *sx, const T *x, int32_t j,
                                              int32_t row, int64_t max_wait_ns,
                                              unsigned backoff_ns, domino_solve_status *st)
{
    T v = SHARED ? sx[j] : load_relaxed(&x[j]);
    uint64_t since = 0;
    while (is_pending(v)) {
        if (backoff_ns) __nanosleep(backoff_ns);
        if (max_wait_ns > 0) {
            uint64_t now = global_timer_ns();
            if (since == 0) since = now;
            else if (now - since > (uint64_t)max_wait_ns) {
                atomicMin(&st->timeout_row, row);
                return (T)0;
            }
        }
        v = SHARED ? sx[j] : load_relaxed(&x[j]);
    }
    return v;
}

/* one right-hand side: the rows of group `group`, in increasing logical order */
template <typename T, int LANES, bool SHARED>
__device__ void block_solve_rows(int32_t n, const int64_t *__restrict__ ptr,
                                 const int32_t *__restrict__ ind, const T *__restrict__ val,
                                 int upper, int unit, const T *__restrict__ b, T *x,
                                 volatile T *sx, int64_t max_wait_ns, unsigned backoff_ns,
                                 domino_solve_status *st)
{
    const int32_t groups = BLOCK_THREADS / LANES;
    const int sub = (int)(threadIdx.x % LANES);
    const int32_t group = (int32_t)(threadIdx.x / LANES);
    const unsigned mask =
        LANES == 32 ? 0xffffffffu : ((1u << LANES) - 1u) << ((threadIdx.x & 31) / LANES * LANES);
    int32_t lrow = group;
    int32_t row = upper ? n - 1 - lrow : lrow;
    int64_t start = 0, end = 0;
    if (lrow < n) {
        start = __ldg(&ptr[row]);
        end = __ldg(&ptr[row + 1]);
    }
    while (lrow < n) {
        /* the next row's offsets, used by the next turn */
        int32_t next_lrow = lrow + groups;
        int32_t next_row = upper ? n - 1 - next_lrow : next_lrow;
        int64_t next_start = 0, next_end = 0;
        if (next_lrow < n) {
            next_start = __ldg(&ptr[next_row]);
            next_end = __ldg(&ptr[next_row + 1]);
        }
        T bval = sub == 0 ? __ldg(&b[row]) : (T)0;
        T sum = 0, diag = 0;
        for (int64_t k0 = start + sub; k0 < end; k0 += LANES * BLOCK_BATCH) {
            int32_t j[BLOCK_BATCH];
            T a[BLOCK_BATCH];
#pragma unroll
            for (int u = 0; u < BLOCK_BATCH; u++) {
                int64_t k = k0 + (int64_t)u * LANES;
                j[u] = k < end ? __ldg(&ind[k]) : -1;
                a[u] = k < end ? __ldg(&val[k]) : (T)0;
            }
#pragma unroll
            for (int u = 0; u < BLOCK_BATCH; u++) {
                if (j[u] < 0) continue;
                if (upper ? j[u] > row : j[u] < row)
                    sum += a[u] * block_wait_value<T, SHARED>(sx, x, j[u], row, max_wait_ns,
                                                             backoff_ns, st);
                else if (j[u] == row)
                    diag += a[u];
            }
        }
        for (int o = LANES / 2; o > 0; o >>= 1) {
            sum += __shfl_xor_sync(mask, sum, o);
            diag += __shfl_xor_sync(mask, diag, o);
        }
        if (sub == 0) {
            T xi = publishable(unit ? bval - sum : (bval - sum) / diag);
            if (SHARED) sx[row] = xi;
            else store_relaxed(&x[row], xi);
        }
        lrow = next_lrow;
        row = next_row;
        start = next_start;
        end = next_end;
    }
}

/* the whole solve, one block; st->timeout_row is reset here (the only
 * field of st this engine reports through) */
template <typename T, int LANES, bool SHARED>
__global__ void __launch_bounds__(BLOCK_THREADS, 1)
    trsv_block_kernel(int32_t n, const int64_t *__restrict__ ptr, const int32_t *__restrict__ ind,
                      const T *__restrict__ val, int upper, int unit, int32_t nrhs,
                      const T *__restrict__ B, int64_t ldb, T *X, int64_t ldx,
                      int64_t max_wait_ns, unsigned backoff_ns, domino_solve_status *st)
{
    extern __shared__ __align__(16) unsigned char block_shared[];
    volatile T *sx = (volatile T *)block_shared;
    if (threadIdx.x == 0) st->timeout_row = INT32_MAX;
    for (int32_t r = 0; r < nrhs; r++) {
        T *x = X + (int64_t)r * ldx;
        if (SHARED)
            for (int32_t i = (int32_t)threadIdx.x; i < n; i += BLOCK_THREADS)
                make_pending((T *)&sx[i]);
        __syncthreads();
        block_solve_rows<T, LANES, SHARED>(n, ptr, ind, val, upper, unit, B + (int64_t)r * ldb, x,
                                           sx, max_wait_ns, backoff_ns, st);
        __syncwarp();
        __syncthreads();
        if (SHARED)
            for (int32_t i = (int32_t)threadIdx.x; i < n; i += BLOCK_THREADS) x[i] = sx[i];
    }
}

/* fill the nrhs columns of X (n rows, leading dimension ldx) with the sentinel */
template <typename T>
__global__ void block_fill_pending_kernel(int32_t n, int32_t nrhs, T *X, int64_t ldx)
{
    int64_t total = (int64_t)n * nrhs;
    for (int64_t t = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; t < total;
         t += (int64_t)gridDim.x * blockDim.x) {
        int64_t r = t / n, i = t - r * n;
        make_pending(&X[i + r * ldx]);
    }
}

/* the kernel of type T, lanes per row and x placement */
template <typename T> static const void *block_kernel(int lanes, int shared)
{
    if (shared)
        return lanes == 2    ? (const void *)trsv_block_kernel<T, 2, true>
               : lanes == 4  ? (const void *)trsv_block_kernel<T, 4, true>
               : lanes == 8  ? (const void *)trsv_block_kernel<T, 8, true>
               : lanes == 16 ? (const void *)trsv_block_kernel<T, 16, true>
                             : (const void *)trsv_block_kernel<T, 32, true>;
    return lanes == 2    ? (const void *)trsv_block_kernel<T, 2, false>
           : lanes == 4  ? (const void *)trsv_block_kernel<T, 4, false>
           : lanes == 8  ? (const void *)trsv_block_kernel<T, 8, false>
           : lanes == 16 ? (const void *)trsv_block_kernel<T, 16, false>
                         : (const void *)trsv_block_kernel<T, 32, false>;
}

/* the shared memory one block may have on the current device (opt-in limit) */
static cudaError_t block_shared_limit(size_t *bytes)
{
    static size_t limit[64];
    int device = 0, v = 0;
    cudaError_t e = cudaGetDevice(&device);
    if (e) return e;
    if (device >= 0 && device < 64 && limit[device]) {
        *bytes = limit[device];
        return cudaSuccess;
    }
    e = cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
    if (e) return e;
    *bytes = v > 0 ? (size_t)v : 0;
    if (device >= 0 && device < 64) limit[device] = *bytes;
    return cudaSuccess;
}

extern "C" cudaError_t domino_trsv_block_fits(domino_type type, int32_t n, int *fits)
{
    size_t limit = 0;
    cudaError_t e = block_shared_limit(&limit);
    *fits = !e && (size_t)n * domino_type_size(type) <= limit;
    return e;
}

extern "C" int domino_trsv_block_lanes(double avg_row_len)
{
    /* the strict entries of an average row, one per lane, in a power of two */
    double strict = avg_row_len - 1.0;
    int lanes = 2;
    while (lanes < 32 && lanes < strict) lanes *= 2;
    return lanes;
}

extern "C" cudaError_t domino_launch_trsv_block(cudaStream_t stream, domino_type type, int32_t n,
                                                const int64_t *ptr, const int32_t *ind,
                                                const void *val, int upper, int unit, int lanes,
                                                int shared, int32_t nrhs, const void *B,
                                                int64_t ldb, void *X, int64_t ldx,
                                                int64_t max_wait_ns, unsigned backoff_ns,
                                                domino_solve_status *st)
{
    if (n == 0) return cudaSuccess;
    if (lanes != 2 && lanes != 4 && lanes != 8 && lanes != 16) lanes = 32;
    size_t bytes = shared ? (size_t)n * domino_type_size(type) : 0;
    const void *fn = type == DOMINO_FLOAT64 ? block_kernel<double>(lanes, shared)
                                            : block_kernel<float>(lanes, shared);
    cudaError_t e = cudaSuccess;
    if (shared) {
        /* each kernel's dynamic shared memory raised to the device's limit once */
        static char raised[64][2][5];
        size_t limit = 0;
        int device = 0, li = lanes == 2 ? 0 : lanes == 4 ? 1 : lanes == 8 ? 2 : lanes == 16 ? 3 : 4;
        if ((e = block_shared_limit(&limit)) || (e = cudaGetDevice(&device))) return e;
        if (bytes > limit) return cudaErrorInvalidValue;
        char *done = device >= 0 && device < 64 ? &raised[device][type == DOMINO_FLOAT64][li] : NULL;
        if (bytes > 48 * 1024 && !(done && *done)) {
            if ((e = cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)limit)))
                return e;
            if (done) *done = 1;
        }
    } else {
        int64_t total = (int64_t)n * nrhs;
        int fill_blocks = (int)((total + 255) / 256 < 65536 ? (total + 255) / 256 : 65536);
        if (type == DOMINO_FLOAT64)
            block_fill_pending_kernel<double><<<fill_blocks, 256, 0, stream>>>(n, nrhs, (double *)X, ldx);
        else
            block_fill_pending_kernel<float><<<fill_blocks, 256, 0, stream>>>(n, nrhs, (float *)X, ldx);
        if ((e = cudaGetLastError())) return e;
    }
    void *args[] = {&n, &ptr, &ind, &val, &upper, &unit, &nrhs, &B, &ldb, &X, &ldx, &max_wait_ns, &backoff_ns, &st};
    return cudaLaunchKernel(fn, dim3(1), dim3(BLOCK_THREADS), args, bytes, stream);
}
