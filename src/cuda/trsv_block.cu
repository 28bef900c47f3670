/* trsv_block.cu: synchronization-free triangular solve by one thread block
 * (the "block" engine), CSR pull.
 *
 * Solves T x = b for the lower (or upper) triangle T of a CSR matrix (the
 * other triangle is skipped).  One block holds the whole solve on one SM, so
 * a dependency is handed over through that SM's shared memory instead of a
 * round trip through L2: x lives in shared memory (SHARED, when n values
 * fit), filled with the pending sentinel, and every value is its own ready
 * flag (device_util.cuh).  Rows are dealt round-robin to groups of LANES
 * lanes in logical order (row r, r + groups, ...; upper triangles run
 * backwards).  A warp never waits inside a branch (see block_solve_rows):
 * lanes of one warp spinning in divergent branches wait for the scheduler
 * to switch paths, microseconds per hop on an H100.  All groups are resident
 * (one block) and every group solves its rows in increasing logical order,
 * so the smallest pending row always has its dependencies solved: the solve
 * finishes whatever the scheduling.
 * One SM issues four warp instructions a cycle, so the engine is for deep,
 * narrow systems, where the time goes into dependency hops; the block is
 * sized from the levels (four groups for each row of an average level),
 * which the analysis counts with the same loop (LEVELS: level(i) = 1 + max
 * level(j), in float, exact to 2^24 levels).
 * Without SHARED (n too large for shared memory) x is the caller's X,
 * filled with the sentinel first and polled with L2-coherent loads.
 * Measured on an H100 (bench/results/h100-trsv3): a hop costs ~0.75 us in
 * this loop (a chain of 20000 rows: 15 ms), no better than a hop through
 * L2 in the thread engine; the turn (check every group, vote, reduce,
 * divide) is the cost, not the memory.  It beat the thread engine on a few
 * small systems (cryg2500 2x) and lost on most: experimental, never AUTO's. */
#include "gpu_internal.h"
#include "device_util.cuh"

#define BLOCK_THREADS 1024 /* most threads of the one block */
#define BLOCK_BATCH   2    /* entries a lane loads before it waits on them */

/* the offsets of logical row lrow (0, 0 past the end) */
__device__ __forceinline__ void block_row_offsets(int32_t lrow, int32_t n, int upper,
                                                  const int64_t *__restrict__ ptr, int64_t *start,
                                                  int64_t *end)
{
    *start = *end = 0;
    if (lrow < n) {
        int32_t row = upper ? n - 1 - lrow : lrow;
        *start = __ldg(&ptr[row]);
        *end = __ldg(&ptr[row + 1]);
    }
}

/* a lane's batch of entries k, k + LANES, ... below end; *left marks the
 * ones that exist (known without waiting for the loads) */
template <typename T, int LANES, bool LEVELS>
__device__ __forceinline__ void
block_load_batch(int64_t k, int64_t end, const int32_t *__restrict__ ind, const T *__restrict__ val,
                 int32_t *j, T *a, unsigned *left)
{
    unsigned bits = 0;
#pragma unroll
    for (int u = 0; u < BLOCK_BATCH; u++) {
        int64_t kk = k + (int64_t)u * LANES;
        j[u] = 0;
        a[u] = (T)0;
        if (kk < end) {
            j[u] = __ldg(&ind[kk]);
            if (!LEVELS) a[u] = __ldg(&val[kk]);
            bits |= 1u << u;
        }
    }
    *left = bits;
}

/* One right-hand side: group `group` solves logical rows group, group +
 * groups, ...  The warp never waits inside a branch: each turn every lane
 * adds the entries of its batch whose x is solved, in stored order, stopping
 * at the first pending one; a group whose lanes all reached the end of the
 * row reduces, publishes and moves on, the others retry next turn.  (Lanes
 * spinning in divergent branches of one warp wait for the scheduler to
 * switch paths, microseconds per hop on an H100.)  The next row's first
 * batch and the offsets of the row after it are in flight while a row
 * waits, so moving on stalls on no load. */
template <typename T, int LANES, bool SHARED, bool LEVELS>
__device__ void block_solve_rows(int32_t n, const int64_t *__restrict__ ptr,
                                 const int32_t *__restrict__ ind, const T *__restrict__ val,
                                 int upper, int unit, const T *__restrict__ b, T *x, volatile T *sx,
                                 int64_t max_wait_ns, unsigned backoff_ns, domino_solve_status *st)
{
    const int32_t groups = (int32_t)(blockDim.x / LANES);
    const int sub = (int)(threadIdx.x % LANES);
    const int32_t flip =
        upper ? -1 : 0; /* j is a dependency of row iff ((j - row) ^ flip) < 0, j != row */
    const unsigned group_mask =
        LANES == 32 ? 0xffffffffu : ((1u << LANES) - 1u) << ((threadIdx.x & 31) / LANES * LANES);
    /* the current row: logical index, row, this lane's batch at k, entries not yet added */
    int32_t lrow = (int32_t)(threadIdx.x / LANES);
    int32_t row = upper ? n - 1 - lrow : lrow;
    int64_t k = 0, end = 0;
    int32_t cur_j[BLOCK_BATCH];
    T cur_a[BLOCK_BATCH];
    unsigned left = 0;
    /* the next row: offsets, first batch, b; the row after it: offsets */
    int64_t next_start = 0, next_end = 0, after_start = 0, after_end = 0;
    int32_t next_j[BLOCK_BATCH];
    T next_a[BLOCK_BATCH];
    unsigned next_left = 0;
    block_row_offsets(lrow, n, upper, ptr, &k, &end);
    block_row_offsets(lrow + groups, n, upper, ptr, &next_start, &next_end);
    block_row_offsets(lrow + 2 * groups, n, upper, ptr, &after_start, &after_end);
    k += sub;
    next_start += sub;
    block_load_batch<T, LANES, LEVELS>(k, end, ind, val, cur_j, cur_a, &left);
    block_load_batch<T, LANES, LEVELS>(next_start, next_end, ind, val, next_j, next_a, &next_left);
    T bval = (!LEVELS && sub == 0 && lrow < n) ? __ldg(&b[row]) : (T)0;
    T next_b = (!LEVELS && sub == 0 && lrow + groups < n)
                   ? __ldg(&b[upper ? n - 1 - (lrow + groups) : lrow + groups])
                   : (T)0;
    T sum = 0, diag = 0;
    uint64_t stalled_since = 0;
    for (;;) {
        bool active = lrow < n;
        if (!__any_sync(0xffffffffu, active)) break;
        bool progress = false;
        if (active) {
            bool blocked = false;
#pragma unroll
            for (int u = 0; u < BLOCK_BATCH; u++) {
                if (blocked || !((left >> u) & 1u)) continue;
                int32_t j = cur_j[u];
                if (((j - row) ^ flip) < 0 && j != row) {
                    T v = SHARED ? sx[j] : load_relaxed(&x[j]);
                    if (is_pending(v)) {
                        blocked = true;
                        continue;
                    }
                    if (LEVELS)
                        sum = max(sum, v);
                    else
                        sum += cur_a[u] * v;
                } else if (j == row) {
                    diag += cur_a[u];
                }
                left &= ~(1u << u);
                progress = true;
            }
            if (!left) { /* the batch is added: the lane's next one, if the row has more */
                k += LANES * BLOCK_BATCH;
                block_load_batch<T, LANES, LEVELS>(k, end, ind, val, cur_j, cur_a, &left);
            }
            if (blocked && max_wait_ns > 0) {
                uint64_t now = global_timer_ns();
                if (progress || stalled_since == 0)
                    stalled_since = now;
                else if (now - stalled_since > (uint64_t)max_wait_ns) {
                    atomicMin(&st->timeout_row, row);
                    left = 0; /* give the row up: the status reports it */
                    k = end;
                }
            }
        }
        unsigned done = __ballot_sync(0xffffffffu, active && !left);
        bool group_done = active && (done & group_mask) == group_mask;
        if (__any_sync(0xffffffffu, group_done)) {
            T s = sum, d = diag; /* a fixed shuffle tree: deterministic */
            for (int o = LANES / 2; o > 0; o >>= 1) {
                if (LEVELS) {
                    s = max(s, __shfl_xor_sync(0xffffffffu, s, o));
                } else {
                    s += __shfl_xor_sync(0xffffffffu, s, o);
                    d += __shfl_xor_sync(0xffffffffu, d, o);
                }
            }
            if (group_done) {
                if (sub == 0) {
                    T xi = LEVELS ? s + (T)1 : publishable(unit ? bval - s : (bval - s) / d);
                    if (SHARED)
                        sx[row] = xi;
                    else
                        store_relaxed(&x[row], xi);
                }
                /* on to the next row, whose data are already here */
                lrow += groups;
                row = upper ? n - 1 - lrow : lrow;
                k = next_start;
                end = next_end;
#pragma unroll
                for (int u = 0; u < BLOCK_BATCH; u++) {
                    cur_j[u] = next_j[u];
                    cur_a[u] = next_a[u];
                }
                left = next_left;
                bval = next_b;
                sum = diag = 0;
                stalled_since = 0;
                next_start = after_start + sub;
                next_end = after_end;
                block_load_batch<T, LANES, LEVELS>(next_start, next_end, ind, val, next_j, next_a,
                                                   &next_left);
                int32_t nl = lrow + groups;
                next_b =
                    (!LEVELS && sub == 0 && nl < n) ? __ldg(&b[upper ? n - 1 - nl : nl]) : (T)0;
                block_row_offsets(lrow + 2 * groups, n, upper, ptr, &after_start, &after_end);
            }
        }
        if (backoff_ns && !__any_sync(0xffffffffu, progress || group_done)) __nanosleep(backoff_ns);
    }
}

/* the whole solve, one block; st->timeout_row is reset here (the only
 * field of st this engine reports through) */
template <typename T, int LANES, bool SHARED>
__global__ void __launch_bounds__(BLOCK_THREADS, 1)
    trsv_block_kernel(int32_t n, const int64_t *__restrict__ ptr, const int32_t *__restrict__ ind,
                      const T *__restrict__ val, int upper, int unit, int32_t nrhs,
                      const T *__restrict__ B, int64_t ldb, T *X, int64_t ldx, int64_t max_wait_ns,
                      unsigned backoff_ns, domino_solve_status *st)
{
    extern __shared__ __align__(16) unsigned char block_shared[];
    volatile T *sx = (volatile T *)block_shared;
    if (threadIdx.x == 0) st->timeout_row = INT32_MAX;
    for (int32_t r = 0; r < nrhs; r++) {
        T *x = X + (int64_t)r * ldx;
        if (SHARED)
            for (int32_t i = (int32_t)threadIdx.x; i < n; i += (int32_t)blockDim.x)
                make_pending((T *)&sx[i]);
        __syncthreads();
        block_solve_rows<T, LANES, SHARED, false>(n, ptr, ind, val, upper, unit,
                                                  B + (int64_t)r * ldb, x, sx, max_wait_ns,
                                                  backoff_ns, st);
        __syncwarp();
        __syncthreads();
        if (SHARED)
            for (int32_t i = (int32_t)threadIdx.x; i < n; i += (int32_t)blockDim.x)
                x[i] = sx[i];
    }
}

/* the levels of the triangle (the analysis): the solve's loop on level(i) =
 * 1 + max over dependencies j of level(j), in shared memory; the most is
 * written to st->levels (reset to 0 beforehand) */
template <int LANES>
__global__ void __launch_bounds__(BLOCK_THREADS, 1)
    trsv_block_levels_kernel(int32_t n, const int64_t *__restrict__ ptr,
                             const int32_t *__restrict__ ind, int upper, domino_solve_status *st)
{
    extern __shared__ __align__(16) unsigned char block_shared[];
    volatile float *level = (volatile float *)block_shared;
    for (int32_t i = (int32_t)threadIdx.x; i < n; i += (int32_t)blockDim.x)
        make_pending((float *)&level[i]);
    __syncthreads();
    block_solve_rows<float, LANES, true, true>(n, ptr, ind, NULL, upper, 1, NULL, NULL, level, 0, 0,
                                               st);
    __syncwarp();
    __syncthreads();
    int mine = 0;
    for (int32_t i = (int32_t)threadIdx.x; i < n; i += (int32_t)blockDim.x)
        mine = max(mine, (int)level[i]);
    mine = max(mine, __shfl_xor_sync(0xffffffffu, mine, 16));
    mine = max(mine, __shfl_xor_sync(0xffffffffu, mine, 8));
    mine = max(mine, __shfl_xor_sync(0xffffffffu, mine, 4));
    mine = max(mine, __shfl_xor_sync(0xffffffffu, mine, 2));
    mine = max(mine, __shfl_xor_sync(0xffffffffu, mine, 1));
    if ((threadIdx.x & 31) == 0) atomicMax(&st->levels, mine);
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

extern "C" cudaError_t domino_block_shared_limit(size_t *bytes)
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
    cudaError_t e = domino_block_shared_limit(&limit);
    *fits = !e && (size_t)n * domino_type_size(type) <= limit;
    return e;
}

extern "C" int domino_trsv_block_lanes(double avg_row_len)
{
    /* the strict entries of an average row, one per lane, in a power of two */
    double strict = avg_row_len - 1.0;
    int lanes = 2;
    while (lanes < 32 && lanes < strict)
        lanes *= 2;
    return lanes;
}

extern "C" int domino_trsv_block_threads(int lanes, double parallelism)
{
    /* four groups for every row a level holds on average, in a power of
     * two from 128 (a warp for each scheduler) to BLOCK_THREADS */
    int threads = 128;
    while (threads < BLOCK_THREADS && threads < 4.0 * parallelism * lanes)
        threads *= 2;
    return threads;
}

/* the levels kernel of `lanes` lanes per row */
static const void *block_levels_kernel(int lanes)
{
    return lanes == 2    ? (const void *)trsv_block_levels_kernel<2>
           : lanes == 4  ? (const void *)trsv_block_levels_kernel<4>
           : lanes == 8  ? (const void *)trsv_block_levels_kernel<8>
           : lanes == 16 ? (const void *)trsv_block_levels_kernel<16>
                         : (const void *)trsv_block_levels_kernel<32>;
}

extern "C" cudaError_t domino_block_raise_shared(const void *fn, size_t bytes, char *raised)
{
    cudaError_t e = cudaSuccess;
    size_t limit = 0;
    if ((e = domino_block_shared_limit(&limit))) return e;
    if (bytes > limit) return cudaErrorInvalidValue;
    if (bytes <= 48 * 1024) return cudaSuccess;
    int device = -1;
    if (raised && (e = cudaGetDevice(&device))) return e;
    char *done = raised && device >= 0 && device < DOMINO_RAISED_DEVICES ? &raised[device] : NULL;
    if (done && *done) return cudaSuccess;
    if ((e = cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)limit))) return e;
    if (done) *done = 1;
    return cudaSuccess;
}

static int block_lanes_index(int lanes)
{
    return lanes == 2 ? 0 : lanes == 4 ? 1 : lanes == 8 ? 2 : lanes == 16 ? 3 : 4;
}

extern "C" cudaError_t domino_launch_trsv_block_levels(cudaStream_t stream, int32_t n,
                                                       const int64_t *ptr, const int32_t *ind,
                                                       int upper, int lanes, int threads,
                                                       domino_solve_status *st)
{
    static char raised[5][DOMINO_RAISED_DEVICES];
    if (n == 0) return cudaSuccess;
    const void *fn = block_levels_kernel(lanes);
    size_t bytes = (size_t)n * sizeof(float);
    cudaError_t e = domino_block_raise_shared(fn, bytes, raised[block_lanes_index(lanes)]);
    if (e) return e;
    void *args[] = {&n, &ptr, &ind, &upper, &st};
    return cudaLaunchKernel(fn, dim3(1), dim3(threads), args, bytes, stream);
}

extern "C" cudaError_t domino_launch_trsv_block(cudaStream_t stream, domino_type type, int32_t n,
                                                const int64_t *ptr, const int32_t *ind,
                                                const void *val, int upper, int unit, int lanes,
                                                int threads, int shared, int32_t nrhs,
                                                const void *B, int64_t ldb, void *X, int64_t ldx,
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
        static char raised[2][5][DOMINO_RAISED_DEVICES];
        if ((e = domino_block_raise_shared(fn, bytes,
                                           raised[type == DOMINO_FLOAT64][block_lanes_index(lanes)])))
            return e;
    } else if ((e = domino_launch_fill_pending(stream, type, n, nrhs, X, ldx, st))) {
        return e;
    }
    void *args[] = {&n, &ptr, &ind, &val, &upper,       &unit,       &nrhs,
                    &B, &ldb, &X,   &ldx, &max_wait_ns, &backoff_ns, &st};
    if (threads != 128 && threads != 256 && threads != 512) threads = BLOCK_THREADS;
    return cudaLaunchKernel(fn, dim3(1), dim3(threads), args, bytes, stream);
}
