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

/* row_level[i] = -1 (pending) until known; blocks take rows by ticket */
__global__ void __launch_bounds__(LEVEL_ROWS)
    level_kernel(int32_t n, const int64_t *__restrict__ ptr, const int32_t *__restrict__ ind,
                 int upper, int32_t *row_level, domino_solve_status *st)
{
    __shared__ int32_t block_ticket;
    if (threadIdx.x == 0) block_ticket = atomicAdd(&st->ticket, 1);
    __syncthreads();
    int32_t lrow = block_ticket * LEVEL_ROWS + threadIdx.x;
    bool done = lrow >= n;
    int32_t row = upper ? n - 1 - lrow : lrow;
    int64_t k = done ? 0 : __ldg(&ptr[row]), end = done ? 0 : __ldg(&ptr[row + 1]);
    int32_t level = 0;
    while (__any_sync(0xffffffffu, !done)) {
        if (done) continue;
        while (k < end) {
            int32_t j = __ldg(&ind[k]);
            if (upper ? j > row : j < row) {
                int32_t lj = load_relaxed_i32(&row_level[j]);
                if (lj < 0) break;
                level = max(level, lj + 1);
            }
            k++;
        }
        if (k == end) {
            store_relaxed_i32(&row_level[row], level);
            atomicMax(&st->ticket2, level + 1);
            done = true;
        }
    }
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
    *level_ptr_host = NULL;
    *nlevels_host = 0;
    if (n == 0) return cudaSuccess;
    int blocks = (n + LEVEL_ROWS - 1) / LEVEL_ROWS;
    if ((e = cudaMemsetAsync(row_level, 0xff, (size_t)n * sizeof(int32_t), stream))) return e;
    level_kernel<<<blocks, LEVEL_ROWS, 0, stream>>>(n, ptr, ind, upper, row_level, st);
    if ((e = cudaMemcpyAsync(&hst, st, sizeof(hst), cudaMemcpyDeviceToHost, stream))) return e;
    if ((e = cudaStreamSynchronize(stream))) return e;
    int32_t nlevels = hst.ticket2;
    /* level_count (2(n+1) int64) is scratch for the sort first */
    if ((e = sort_rows_by_level(stream, n, nlevels, row_level, (int32_t *)level_count,
                                (int32_t *)level_count + n + 1, level_rows)))
        return e;
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
    *nlevels_host = nlevels;
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
