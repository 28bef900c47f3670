/* trsv_pull.cu: synchronization-free ("domino") triangular solve, CSR pull.
 *
 * Solves T x = b for the lower (or upper) triangle T of a CSR matrix; entries
 * of the other triangle are skipped, so a full matrix may be passed.  Each
 * block takes a logical block id from an atomic ticket when it starts (rows
 * of smaller tickets are always held by blocks that already run, so a wait
 * never blocks the row it waits for), then solves its PULL_ROWS rows:
 *  - thread per row (short rows): every lane walks its row in stored order,
 *    consuming solved dependencies and stopping at the first pending one;
 *    the warp retries until all lanes are done, so it never diverges into a
 *    spin and a lane may wait for another lane of its own warp;
 *  - warp per row (long rows): the lanes stride over the row, each polling
 *    its own dependency, then a shuffle reduction in a fixed order.
 * Dependencies inside the block's own rows are read from shared memory,
 * others from global memory with L2-coherent loads.  x itself is the ready
 * flag (device_util.cuh): X is filled with a sentinel first.
 * Upper triangles run the rows in reverse: logical row r is row n-1-r.
 * Results are deterministic: every row is summed in its stored order. */
#include "gpu_internal.h"
#include "device_util.cuh"

#define PULL_ROWS 256            /* rows per block (one per thread) */
#define PULL_THREADS 256         /* threads per block */
#define PULL_WARPS (PULL_THREADS / 32)
#define PULL_WARP_MIN_AVG 12     /* entries per row from which mode 0 uses warp per row */

/* one row, one right-hand side, thread per row; returns when solved or stalled */
template <typename T>
__device__ __forceinline__ bool pull_row_advance(int32_t row, int32_t base, int32_t n, int upper,
                                                 const int32_t *__restrict__ ind,
                                                 const T *__restrict__ val, int64_t *kk,
                                                 int64_t end, const T *X, const volatile T *sx,
                                                 int use_shared, T *sum, T *diag)
{
    int64_t k = *kk;
    T s = *sum, d = *diag;
    bool stalled = false;
    while (k < end) {
        int32_t j = __ldg(&ind[k]);
        bool dep = upper ? (j > row) : (j < row);
        if (!dep) {
            if (j == row) d += __ldg(&val[k]);
            k++;
            continue;
        }
        int32_t lj = upper ? n - 1 - j : j;
        T v = (use_shared && lj >= base) ? sx[lj - base] : load_relaxed(&X[j]);
        if (is_pending(v)) {
            stalled = true;
            break;
        }
        s += __ldg(&val[k]) * v;
        k++;
    }
    *kk = k;
    *sum = s;
    *diag = d;
    return !stalled;
}

template <typename T>
__device__ void pull_block_thread_rows(int32_t base, int32_t n, const int64_t *__restrict__ ptr,
                                       const int32_t *__restrict__ ind,
                                       const T *__restrict__ val, int upper, int unit,
                                       int32_t nrhs, const T *__restrict__ B, int64_t ldb, T *X,
                                       int64_t ldx, volatile T *sx, int64_t max_wait_ns,
                                       domino_solve_status *st)
{
    int32_t lrow = base + (int32_t)threadIdx.x;
    bool active = lrow < n;
    int32_t row = upper ? n - 1 - lrow : lrow;
    int64_t start = active ? __ldg(&ptr[row]) : 0, end = active ? __ldg(&ptr[row + 1]) : 0;
    for (int32_t r = 0; r < nrhs; r++) {
        int64_t k = start;
        T sum = 0, diag = 0;
        bool done = !active;
        uint64_t stall_since = 0;
        T *x = X + (int64_t)r * ldx;
        int use_shared = nrhs == 1;
        while (__any_sync(0xffffffffu, !done)) {
            if (done) continue;
            int64_t k_before = k;
            if (pull_row_advance<T>(row, base, n, upper, ind, val, &k, end, x, sx, use_shared, &sum,
                                    &diag)) {
                T b = __ldg(&B[row + (int64_t)r * ldb]);
                T xi = publishable(unit ? b - sum : (b - sum) / diag);
                store_relaxed(&x[row], xi);
                if (use_shared) sx[lrow - base] = xi;
                done = true;
            } else if (max_wait_ns > 0) {
                uint64_t now = global_timer_ns();
                if (stall_since == 0 || k != k_before) stall_since = now;
                else if (now - stall_since > (uint64_t)max_wait_ns) {
                    atomicMin(&st->timeout_row, row);
                    store_relaxed(&x[row], (T)0);
                    if (use_shared) sx[lrow - base] = (T)0;
                    done = true;
                }
            }
        }
    }
}

template <typename T>
__device__ void pull_block_warp_rows(int32_t base, int32_t n, const int64_t *__restrict__ ptr,
                                     const int32_t *__restrict__ ind, const T *__restrict__ val,
                                     int upper, int unit, int32_t nrhs, const T *__restrict__ B,
                                     int64_t ldb, T *X, int64_t ldx, volatile T *sx,
                                     int64_t max_wait_ns, domino_solve_status *st)
{
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    int32_t last = (int32_t)min((int64_t)base + PULL_ROWS, (int64_t)n);
    for (int32_t lrow = base + warp; lrow < last; lrow += PULL_WARPS) {
        int32_t row = upper ? n - 1 - lrow : lrow;
        int64_t start = __ldg(&ptr[row]), end = __ldg(&ptr[row + 1]);
        for (int32_t r = 0; r < nrhs; r++) {
            T *x = X + (int64_t)r * ldx;
            int use_shared = nrhs == 1;
            T sum = 0, diag = 0;
            for (int64_t k = start + lane; k < end; k += 32) {
                int32_t j = __ldg(&ind[k]);
                T a = __ldg(&val[k]);
                bool dep = upper ? (j > row) : (j < row);
                if (!dep) {
                    if (j == row) diag += a;
                    continue;
                }
                int32_t lj = upper ? n - 1 - j : j;
                T v = (use_shared && lj >= base) ? sx[lj - base] : load_relaxed(&x[j]);
                uint64_t stall_since = 0;
                while (is_pending(v)) {
                    if (max_wait_ns > 0) {
                        uint64_t now = global_timer_ns();
                        if (stall_since == 0) stall_since = now;
                        else if (now - stall_since > (uint64_t)max_wait_ns) {
                            atomicMin(&st->timeout_row, row);
                            v = 0;
                            break;
                        }
                    }
                    v = (use_shared && lj >= base) ? sx[lj - base] : load_relaxed(&x[j]);
                }
                sum += a * v;
            }
            sum = warp_sum(sum);
            diag = warp_sum(diag);
            if (lane == 0) {
                T b = __ldg(&B[row + (int64_t)r * ldb]);
                T xi = publishable(unit ? b - sum : (b - sum) / diag);
                store_relaxed(&x[row], xi);
                if (use_shared) sx[lrow - base] = xi;
            }
            __syncwarp();
        }
    }
}

template <typename T>
__global__ void __launch_bounds__(PULL_THREADS)
    trsv_pull_kernel(int32_t n, const int64_t *__restrict__ ptr, const int32_t *__restrict__ ind,
                     const T *__restrict__ val, int upper, int unit, int mode, int32_t nrhs,
                     const T *__restrict__ B, int64_t ldb, T *X, int64_t ldx,
                     int64_t max_wait_ns, domino_solve_status *st)
{
    __shared__ int32_t block_ticket;
    __shared__ T sx_store[PULL_ROWS];
    volatile T *sx = sx_store;
    if (threadIdx.x == 0) block_ticket = atomicAdd(&st->ticket, 1);
    make_pending(&sx_store[threadIdx.x]);
    __syncthreads();
    int32_t base = block_ticket * PULL_ROWS;
    if (base >= n) return;
    int32_t last = (int32_t)min((int64_t)base + PULL_ROWS, (int64_t)n);
    int64_t span;
    if (upper)
        span = __ldg(&ptr[n - base]) - __ldg(&ptr[n - last]);
    else
        span = __ldg(&ptr[last]) - __ldg(&ptr[base]);
    bool warp_rows = mode == 1 || span > (int64_t)PULL_WARP_MIN_AVG * (last - base);
    if (warp_rows)
        pull_block_warp_rows<T>(base, n, ptr, ind, val, upper, unit, nrhs, B, ldb, X, ldx, sx,
                                max_wait_ns, st);
    else
        pull_block_thread_rows<T>(base, n, ptr, ind, val, upper, unit, nrhs, B, ldb, X, ldx, sx,
                                  max_wait_ns, st);
}

/* fill the nrhs columns of X (n rows, leading dimension ldx) with the sentinel */
template <typename T>
__global__ void fill_pending_kernel(int32_t n, int32_t nrhs, T *X, int64_t ldx)
{
    int64_t total = (int64_t)n * nrhs;
    for (int64_t t = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; t < total;
         t += (int64_t)gridDim.x * blockDim.x) {
        int64_t r = t / n, i = t - r * n;
        make_pending(&X[i + r * ldx]);
    }
}

extern "C" cudaError_t domino_launch_trsv_pull(cudaStream_t stream, domino_type type, int32_t n,
                                               const int64_t *ptr, const int32_t *ind,
                                               const void *val, int upper, int unit, int mode,
                                               int32_t nrhs, const void *B, int64_t ldb, void *X,
                                               int64_t ldx, int64_t max_wait_ns,
                                               domino_solve_status *st)
{
    if (n == 0) return cudaSuccess;
    int64_t total = (int64_t)n * nrhs;
    int fill_blocks = (int)((total + 255) / 256 < 65536 ? (total + 255) / 256 : 65536);
    int blocks = (int)(((int64_t)n + PULL_ROWS - 1) / PULL_ROWS);
    if (type == DOMINO_FLOAT64) {
        fill_pending_kernel<double><<<fill_blocks, 256, 0, stream>>>(n, nrhs, (double *)X, ldx);
        trsv_pull_kernel<double><<<blocks, PULL_THREADS, 0, stream>>>(
            n, ptr, ind, (const double *)val, upper, unit, mode, nrhs, (const double *)B, ldb,
            (double *)X, ldx, max_wait_ns, st);
    } else {
        fill_pending_kernel<float><<<fill_blocks, 256, 0, stream>>>(n, nrhs, (float *)X, ldx);
        trsv_pull_kernel<float><<<blocks, PULL_THREADS, 0, stream>>>(
            n, ptr, ind, (const float *)val, upper, unit, mode, nrhs, (const float *)B, ldb,
            (float *)X, ldx, max_wait_ns, st);
    }
    return cudaGetLastError();
}
