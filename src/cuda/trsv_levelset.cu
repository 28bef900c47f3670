/* trsv_levelset.cu: level-set triangular solve.  Analysis on the GPU: the
 * level of every row by a synchronization-free pull pass (level = 1 + the
 * largest level it reads), a histogram and scan of the levels, and rows
 * sorted by (level, row).  Solve: one synchronization-free launch over the
 * rows in level order (trsv_pull.cu, mode 3), or, with
 * DOMINO_LEVELSET_LAUNCHES=1, one launch per level, thread or warp per row. */
#include "gpu_internal.h"
#include "device_util.cuh"

#include <cub/cub.cuh>
#include <stdlib.h>

#define LEVEL_ROWS 256

/* row_level[i] = -1 (pending) until known; blocks take rows by ticket, a
 * thread per row.  A row's dependency on the row of the lane before it (the
 * link: row - 1, or row + 1 for upper) is resolved inside the warp; the
 * others (outside) through memory: the thread takes its row LEVEL_CHUNK
 * entries at a time, indices and levels loaded together, and polls the
 * chunk's pending entries (all when LEVEL_POLL or fewer are left, else the
 * first) before it moves to the next chunk.  Once a lane's outside
 * dependencies are known, a segmented max-plus scan over the warp's link
 * chains gives the level of every lane whose chain back to its start is
 * known:  level(t) = max over k in [start, t] of own(k) + (t - k),
 * own = 1 + the largest outside level.  A warp in which nothing moved backs
 * off, 32 ns doubling to LEVEL_SLEEP_CAP.  The largest level + 1 goes to
 * st->ticket2 once per warp.
 * H100 (bench/results/h100-levels): the first pass (one entry, one L2 round
 * trip, at a time; links through memory) took 1.96 / 10.5 / 32.9 ms on
 * D3N27 64^3 / D3N7 192^3 / D3N27 192^3, this one 1.45 / 3.9 / 21.0 ms.
 * Traces of the publish times showed ~2.5 us a hop before; polling every
 * entry of a chunk, or polling without back-off, flooded L2 (5-50x
 * slower); one pending entry polled at a time, 1.8 / 8.3 / 23.2 ms. */
#define LEVEL_CHUNK 4 /* 8 spilled at 32 registers and was slower */
#define LEVEL_POLL 2  /* pending entries of a chunk polled together */
#define LEVEL_SLEEP_CAP 512
__global__ void __launch_bounds__(LEVEL_ROWS, 2048 / LEVEL_ROWS)
    level_kernel(int32_t n, const int64_t *__restrict__ ptr, const int32_t *__restrict__ ind,
                 int upper, int32_t *row_level, domino_solve_status *st)
{
    __shared__ int32_t block_ticket;
    if (threadIdx.x == 0) block_ticket = atomicAdd(&st->ticket, 1);
    __syncthreads();
    const unsigned full = 0xffffffffu;
    int lane = threadIdx.x & 31;
    int64_t lrow = (int64_t)block_ticket * LEVEL_ROWS + threadIdx.x;
    bool valid = lrow < n;
    int32_t row = valid ? (int32_t)(upper ? n - 1 - lrow : lrow) : 0;
    int32_t link = lane == 0 ? -1 : upper ? row + 1 : row - 1; /* the row of lane - 1 */
    int64_t k = valid ? __ldg(&ptr[row]) : 0, end = valid ? __ldg(&ptr[row + 1]) : 0;
    int32_t own = 0, level = -1, j[LEVEL_CHUNK];
    unsigned pending = 0; /* positions of the chunk at k whose level is not known yet */
    bool loaded = false, linked = false, ready = !valid, done = !valid;
    unsigned ns = 32, scanned = 0; /* scanned: the ready lanes at the last scan */
    while (__any_sync(full, !done)) {
        bool moved = false;
        if (!ready && pending) {
            /* poll the pending entries when one or two are left, else the first */
            unsigned poll = __popc(pending) <= LEVEL_POLL ? pending : pending & (0u - pending);
            int32_t lv[LEVEL_CHUNK];
#pragma unroll
            for (int c = 0; c < LEVEL_CHUNK; c++)
                lv[c] = (poll >> c) & 1 ? load_relaxed_i32(&row_level[j[c]]) : -1;
#pragma unroll
            for (int c = 0; c < LEVEL_CHUNK; c++)
                if (lv[c] >= 0) {
                    own = max(own, lv[c] + 1);
                    pending &= ~(1u << c);
                    moved = true;
                }
        }
        while (!ready && !pending) { /* the next chunk: its indices and levels at once */
            if (loaded) k += LEVEL_CHUNK;
            loaded = moved = true;
            if (k >= end) {
                ready = true;
                break;
            }
            int32_t lv[LEVEL_CHUNK];
            bool outside[LEVEL_CHUNK];
#pragma unroll
            for (int c = 0; c < LEVEL_CHUNK; c++) j[c] = k + c < end ? __ldg(&ind[k + c]) : row;
#pragma unroll
            for (int c = 0; c < LEVEL_CHUNK; c++) {
                linked |= j[c] == link;
                outside[c] = (upper ? j[c] > row : j[c] < row) && j[c] != link;
                lv[c] = outside[c] ? load_relaxed_i32(&row_level[j[c]]) : 0;
            }
#pragma unroll
            for (int c = 0; c < LEVEL_CHUNK; c++) {
                if (!outside[c]) continue;
                if (lv[c] < 0) pending |= 1u << c;
                else own = max(own, lv[c] + 1);
            }
        }
        /* the lanes whose link chain back to its start is ready publish
         * (nothing new unless a lane became ready since the last scan) */
        unsigned ready_mask = __ballot_sync(full, ready);
        if (ready_mask != scanned) {
            scanned = ready_mask;
            unsigned start_mask = __ballot_sync(full, !linked);
            unsigned upto = lane == 31 ? full : (2u << lane) - 1;
            int start = 31 - __clz(start_mask & upto); /* lane 0 never links */
            unsigned chain = upto & ~((1u << start) - 1);
            int32_t w = own - lane;
#pragma unroll
            for (int off = 1; off < 32; off <<= 1) {
                int32_t o = __shfl_up_sync(full, w, off);
                if (lane - off >= start) w = max(w, o);
            }
            if (!done && ready && (~ready_mask & chain) == 0) {
                level = w + lane;
                store_relaxed_i32(&row_level[row], level);
                done = true;
                moved = true;
            }
        }
        if (__any_sync(full, moved)) {
            ns = 32;
        } else {
            __nanosleep(ns);
            if (ns < LEVEL_SLEEP_CAP) ns <<= 1;
        }
    }
    int32_t top = level + 1; /* the warp's largest (shuffles: any sm_70+) */
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) top = max(top, __shfl_xor_sync(full, top, o));
    if (lane == 0 && top > 0) atomicMax(&st->ticket2, top);
}

/* *count += the off-diagonal entries of the triangle (thread per row) */
__global__ void triangle_offdiag_kernel(int32_t n, const int64_t *__restrict__ ptr,
                                        const int32_t *__restrict__ ind, int upper,
                                        unsigned long long *count)
{
    int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long c = 0;
    if (i < n)
        for (int64_t k = __ldg(&ptr[i]), e = __ldg(&ptr[i + 1]); k < e; k++) {
            int32_t j = __ldg(&ind[k]);
            c += upper ? j > i : j < i;
        }
    c = warp_sum(c);
    if ((threadIdx.x & 31) == 0 && c) atomicAdd(count, c);
}

extern "C" cudaError_t domino_launch_triangle_offdiag(cudaStream_t stream, int32_t n,
                                                      const int64_t *ptr, const int32_t *ind,
                                                      int upper, unsigned long long *count)
{
    cudaError_t e = cudaMemsetAsync(count, 0, sizeof(*count), stream);
    if (e || n == 0) return e;
    triangle_offdiag_kernel<<<(int)(((int64_t)n + 255) / 256), 256, 0, stream>>>(n, ptr, ind,
                                                                                  upper, count);
    return cudaGetLastError();
}

__global__ void level_histogram_kernel(int32_t n, const int32_t *row_level,
                                       unsigned long long *count)
{
    int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&count[row_level[i]], 1ULL);
}

__global__ void iota_kernel(int32_t n, int32_t *rows)
{
    int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) rows[i] = i;
}

/* level_rows = rows sorted by (level, row): a stable radix sort of the levels
 * carrying the row numbers; keys_out and rows_in are n-int32 scratch */
static cudaError_t sort_rows_by_level(cudaStream_t stream, int32_t n, int32_t nlevels,
                                      const int32_t *row_level, int32_t *keys_out,
                                      int32_t *rows_in, int32_t *level_rows)
{
    int end_bit = 1;
    while (end_bit < 31 && (1 << end_bit) <= nlevels) end_bit++;
    size_t bytes = 0;
    void *tmp = NULL;
    cudaError_t e = cub::DeviceRadixSort::SortPairs(NULL, bytes, row_level, keys_out, rows_in,
                                                    level_rows, n, 0, end_bit, stream);
    if (e) return e;
    iota_kernel<<<(int)(((int64_t)n + 255) / 256), 256, 0, stream>>>(n, rows_in);
    if ((e = cudaMallocAsync(&tmp, bytes + 16, stream))) return e;
    e = cub::DeviceRadixSort::SortPairs(tmp, bytes, row_level, keys_out, rows_in, level_rows, n, 0,
                                        end_bit, stream);
    cudaFreeAsync(tmp, stream);
    return e;
}

extern "C" cudaError_t domino_launch_levels(cudaStream_t stream, int32_t n, const int64_t *ptr,
                                            const int32_t *ind, int upper, int32_t *row_level,
                                            int32_t *level_rows, int64_t *level_count,
                                            void *scan_tmp, size_t scan_tmp_bytes,
                                            domino_solve_status *st, int32_t *nlevels_host,
                                            int64_t **level_ptr_host)
{
    cudaError_t e;
    domino_solve_status hst;
    if (level_ptr_host) *level_ptr_host = NULL;
    *nlevels_host = 0;
    if (n == 0) return cudaSuccess;
    int blocks = (int)(((int64_t)n + LEVEL_ROWS - 1) / LEVEL_ROWS);
    if ((e = cudaMemsetAsync(row_level, 0xff, (size_t)n * sizeof(int32_t), stream))) return e;
    level_kernel<<<blocks, LEVEL_ROWS, 0, stream>>>(n, ptr, ind, upper, row_level, st);
    if ((e = cudaMemcpyAsync(&hst, st, sizeof(hst), cudaMemcpyDeviceToHost, stream))) return e;
    if ((e = cudaStreamSynchronize(stream))) return e;
    int32_t nlevels = hst.ticket2;
    /* level_count (2(n+1) int64) is scratch for the sort first */
    if ((e = sort_rows_by_level(stream, n, nlevels, row_level, (int32_t *)level_count,
                                (int32_t *)level_count + n + 1, level_rows)))
        return e;
    *nlevels_host = nlevels;
    if (!level_ptr_host) return cudaSuccess; /* the caller wants the order only */
    unsigned long long *count = (unsigned long long *)level_count; /* n+1 entries */
    if ((e = cudaMemsetAsync(count, 0, ((size_t)nlevels + 1) * sizeof(int64_t), stream))) return e;
    level_histogram_kernel<<<(int)(((int64_t)n + 255) / 256), 256, 0, stream>>>(n, row_level, count);
    /* exclusive scan in place is not allowed: scan into the upper half */
    int64_t *level_ptr = level_count + (nlevels + 1);
    if ((e = cub::DeviceScan::ExclusiveSum(scan_tmp, scan_tmp_bytes, (int64_t *)count, level_ptr,
                                           (int64_t)nlevels + 1, stream)))
        return e;
    int64_t *host = (int64_t *)malloc(((size_t)nlevels + 1) * sizeof(int64_t));
    if (!host) return cudaErrorMemoryAllocation;
    if ((e = cudaMemcpyAsync(host, level_ptr, ((size_t)nlevels + 1) * sizeof(int64_t),
                             cudaMemcpyDeviceToHost, stream)) ||
        (e = cudaStreamSynchronize(stream))) {
        free(host);
        return e;
    }
    *level_ptr_host = host;
    return cudaSuccess;
}

/* rows of one level, thread per row (warp_rows = 0) or warp per row */
template <typename T>
__global__ void level_solve_kernel(int32_t n, const int64_t *__restrict__ ptr,
                                   const int32_t *__restrict__ ind, const T *__restrict__ val,
                                   int upper, int unit, int32_t nrhs, const T *__restrict__ B,
                                   int64_t ldb, T *X, int64_t ldx, const int32_t *__restrict__ rows,
                                   int64_t count, int warp_rows)
{
    int64_t t = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int64_t slot = warp_rows ? t >> 5 : t;
    if (slot >= count) return;
    int32_t row = __ldg(&rows[slot]);
    int64_t start = __ldg(&ptr[row]), end = __ldg(&ptr[row + 1]);
    int step = warp_rows ? 32 : 1;
    for (int32_t r = 0; r < nrhs; r++) {
        const T *x = X + (int64_t)r * ldx;
        T sum = 0, diag = 0;
        for (int64_t k = start + (warp_rows ? lane : 0); k < end; k += step) {
            int32_t j = __ldg(&ind[k]);
            T a = __ldg(&val[k]);
            if (upper ? j > row : j < row) sum += a * x[j];
            else if (j == row) diag += a;
        }
        if (warp_rows) {
            sum = warp_sum(sum);
            diag = warp_sum(diag);
            if (lane != 0) continue;
        }
        T b = __ldg(&B[row + (int64_t)r * ldb]);
        X[row + (int64_t)r * ldx] = unit ? b - sum : (b - sum) / diag;
    }
}

extern "C" cudaError_t domino_launch_trsv_levelset(cudaStream_t stream, domino_type type,
                                                   int32_t n, const int64_t *ptr,
                                                   const int32_t *ind, const void *val, int upper,
                                                   int unit, int32_t nrhs, const void *B,
                                                   int64_t ldb, void *X, int64_t ldx,
                                                   const int32_t *level_rows, int32_t nlevels,
                                                   const int64_t *level_ptr_host,
                                                   double avg_row_len)
{
    (void)n;
    int warp_rows = avg_row_len > 12.0;
    for (int32_t l = 0; l < nlevels; l++) {
        int64_t count = level_ptr_host[l + 1] - level_ptr_host[l];
        int64_t threads = warp_rows ? count * 32 : count;
        int blocks = (int)((threads + 255) / 256);
        const int32_t *rows = level_rows + level_ptr_host[l];
        if (type == DOMINO_FLOAT64)
            level_solve_kernel<double><<<blocks, 256, 0, stream>>>(
                n, ptr, ind, (const double *)val, upper, unit, nrhs, (const double *)B, ldb,
                (double *)X, ldx, rows, count, warp_rows);
        else
            level_solve_kernel<float><<<blocks, 256, 0, stream>>>(
                n, ptr, ind, (const float *)val, upper, unit, nrhs, (const float *)B, ldb,
                (float *)X, ldx, rows, count, warp_rows);
    }
    return cudaGetLastError();
}
