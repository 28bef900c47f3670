/* factor_ilu0.cu: synchronization-free ("domino") ILU(0) and IC(0) on the
 * GPU in one launch, and the pattern kernels of their analysis.
 *
 * One warp per row; a warp takes its logical row from an atomic ticket
 * (row-major over rows x batch: ticket t is row order[t / batch] of matrix
 * t % batch), never from blockIdx.  order lists the rows by level of the
 * lower triangle (the analysis computes it once per pattern), so every row
 * a row waits for holds a smaller ticket and was taken by a warp that is
 * already running: no deadlock whatever the scheduling.  Row i waits only
 * for the rows k < i it reads.  Level order, rather than natural order,
 * keeps whole wavefronts inside the window of resident warps (in natural
 * order a 3D grid row waits on its x-neighbour and the window advances
 * about one row per dependency latency per grid line in it).
 *
 * Memory model: a finished row publishes its values then its done flag:
 * every lane fences (__threadfence, fence.acq_rel.gpu) after its stores, the
 * warp synchronizes, lane 0 fences again and stores the flag with a relaxed
 * GPU-scope store.  A reader polls the flag of each row k it reads, in
 * order, with ld.acquire.gpu (every lane polls, so each lane's later weak
 * loads of row k are ordered after its own acquire) and reads row k's values
 * with ordinary (not __ldg) loads.  Within
 * a row, lanes exchange values through global memory separated by
 * __syncwarp (which orders memory among the warp's lanes).
 *
 * Arithmetic: the CPU reference's (src/ref/ref_ilu0.c, ref_ic0.c), with
 * __dmul_rn / __dsub_rn so that no multiply-add is fused: ILU(0) updates each
 * entry in the same order (k increasing) and matches the CPU bitwise; IC(0)
 * sums each inner product by a warp reduction (order differs: equal to
 * rounding). */
#include "factor_plan.h"
#include "device_util.cuh"

#include <cub/cub.cuh>
#include <limits.h>

#define FACTOR_WARPS_PER_BLOCK 8
#define FULL_MASK 0xffffffffu

__global__ void factor_status_reset_kernel(domino_factor_status *st)
{
    st->ticket = 0;
    st->replaced = 0;
    st->bad_pivot = LLONG_MAX;
    st->missing_diag = INT32_MAX;
    st->unsorted_row = INT32_MAX;
}

extern "C" cudaError_t domino_launch_factor_status_reset(cudaStream_t stream,
                                                         domino_factor_status *st)
{
    factor_status_reset_kernel<<<1, 1, 0, stream>>>(st);
    return cudaGetLastError();
}

/* thread per row: diagonal position, sortedness, tril row length */
__global__ void factor_pattern_kernel(int32_t n, const int64_t *__restrict__ ptr,
                                      const int32_t *__restrict__ ind, int64_t *diag,
                                      int64_t *count, domino_factor_status *st)
{
    int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0 && count) count[n] = 0;
    if (i >= n) return;
    int64_t p0 = ptr[i], p1 = ptr[i + 1], found = -1;
    bool unsorted = false;
    for (int64_t k = p0; k < p1; k++) {
        int32_t c = ind[k];
        if (k > p0 && c <= ind[k - 1]) unsorted = true;
        if (c == i) found = k;
    }
    if (unsorted) atomicMin(&st->unsorted_row, i);
    if (found < 0) atomicMin(&st->missing_diag, i);
    diag[i] = found;
    if (count) count[i] = found >= 0 ? found - p0 + 1 : 0;
}

extern "C" cudaError_t domino_launch_factor_pattern(cudaStream_t stream, int32_t n,
                                                    const int64_t *ptr, const int32_t *ind,
                                                    int64_t *diag, int64_t *count,
                                                    domino_factor_status *st)
{
    int blocks = (int)(((int64_t)n + 255) / 256);
    if (blocks == 0) blocks = 1;
    factor_pattern_kernel<<<blocks, 256, 0, stream>>>(n, ptr, ind, diag, count, st);
    return cudaGetLastError();
}

extern "C" cudaError_t domino_launch_scan_i64(cudaStream_t stream, int32_t n, const int64_t *in,
                                              int64_t *out, void *tmp, size_t tmp_bytes)
{
    return cub::DeviceScan::ExclusiveSum(tmp, tmp_bytes, in, out, (int64_t)n + 1, stream);
}

__global__ void tril_fill_kernel(int32_t n, const int64_t *__restrict__ ptr,
                                 const int32_t *__restrict__ ind, const int64_t *__restrict__ ptrL,
                                 int32_t *indL, int64_t *diagL)
{
    int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int64_t q0 = ptrL[i], len = ptrL[i + 1] - q0, p0 = ptr[i];
    for (int64_t t = 0; t < len; t++)
        indL[q0 + t] = ind[p0 + t];
    diagL[i] = ptrL[i + 1] - 1;
}

extern "C" cudaError_t domino_launch_tril_fill(cudaStream_t stream, int32_t n, const int64_t *ptr,
                                               const int32_t *ind, const int64_t *ptrL,
                                               int32_t *indL, int64_t *diagL)
{
    if (n == 0) return cudaSuccess;
    tril_fill_kernel<<<(int)(((int64_t)n + 255) / 256), 256, 0, stream>>>(n, ptr, ind, ptrL, indL,
                                                                          diagL);
    return cudaGetLastError();
}

__global__ void tril_gather_kernel(int32_t n, int32_t batch, const int64_t *__restrict__ ptr,
                                   int64_t nnzA, const double *__restrict__ valA,
                                   const int64_t *__restrict__ ptrL, int64_t nnzL, double *valL)
{
    int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int64_t q0 = ptrL[i], len = ptrL[i + 1] - q0, p0 = ptr[i];
    for (int32_t b = 0; b < batch; b++)
        for (int64_t t = 0; t < len; t++)
            valL[b * nnzL + q0 + t] = valA[b * nnzA + p0 + t];
}

extern "C" cudaError_t domino_launch_tril_gather(cudaStream_t stream, int32_t n, int32_t batch,
                                                 const int64_t *ptr, int64_t nnzA,
                                                 const double *valA, const int64_t *ptrL,
                                                 int64_t nnzL, double *valL)
{
    if (n == 0) return cudaSuccess;
    tril_gather_kernel<<<(int)(((int64_t)n + 255) / 256), 256, 0, stream>>>(
        n, batch, ptr, nnzA, valA, ptrL, nnzL, valL);
    return cudaGetLastError();
}

/* ------------------------------------------------------ the factorization */

/* position of column j in the sorted ind[lo, hi), or -1 */
__device__ __forceinline__ int64_t find_column(const int32_t *__restrict__ ind, int64_t lo,
                                               int64_t hi, int32_t j)
{
    while (lo < hi) {
        int64_t mid = (lo + hi) >> 1;
        int32_t c = __ldg(&ind[mid]);
        if (c == j) return mid;
        if (c < j) lo = mid + 1;
        else hi = mid;
    }
    return -1;
}

/* spin (every lane) until row k's flag is set; acquire */
__device__ __forceinline__ void wait_row(const int32_t *flag)
{
    while (load_acquire_i32(flag) == 0) __nanosleep(32);
}

/* ILU(0), IKJ, row i of one matrix (v its values, done its flags) */
__device__ void ilu0_row(int32_t i, const int64_t *__restrict__ ptr,
                         const int32_t *__restrict__ ind, const int64_t *__restrict__ diag,
                         double *v, const int32_t *done, int lane)
{
    int64_t p0 = __ldg(&ptr[i]), p1 = __ldg(&ptr[i + 1]), di = __ldg(&diag[i]);
    for (int64_t e = p0; e < di; e++) {
        int32_t k = __ldg(&ind[e]);
        wait_row(&done[k]);
        int64_t dk = __ldg(&diag[k]), kend = __ldg(&ptr[k + 1]);
        double l_ik = v[e] / v[dk]; /* IEEE division, as on the CPU */
        __syncwarp();
        for (int64_t t = e + 1 + lane; t < p1; t += 32) {
            int64_t f = find_column(ind, dk + 1, kend, __ldg(&ind[t]));
            if (f >= 0) v[t] = __dsub_rn(v[t], __dmul_rn(l_ik, v[f]));
        }
        if (lane == 0) v[e] = l_ik;
        __syncwarp();
    }
}

/* IC(0), left-looking, row i of one matrix on the tril pattern (diagonal
 * last); returns the pivot d = a_ii - sum l_ik^2 (same in every lane) */
__device__ double ic0_row(int32_t i, const int64_t *__restrict__ ptr,
                          const int32_t *__restrict__ ind, const int64_t *__restrict__ diag,
                          double *v, const int32_t *done, int lane)
{
    int64_t p0 = __ldg(&ptr[i]), di = __ldg(&diag[i]);
    double pivot = v[di];
    for (int64_t e = p0; e < di; e++) {
        int32_t k = __ldg(&ind[e]);
        wait_row(&done[k]);
        int64_t k0 = __ldg(&ptr[k]), dk = __ldg(&diag[k]);
        double a_ik = v[e], part = 0.0;
        for (int64_t f = k0 + lane; f < dk; f += 32) {
            int64_t g = find_column(ind, p0, e, __ldg(&ind[f])); /* l_ij, j < k, final */
            if (g >= 0) part = __dadd_rn(part, __dmul_rn(v[g], v[f]));
        }
        part = warp_sum(part);
        double l_ik = __dsub_rn(a_ik, part) / v[dk];
        pivot = __dsub_rn(pivot, __dmul_rn(l_ik, l_ik));
        __syncwarp();
        if (lane == 0) v[e] = l_ik;
        __syncwarp();
    }
    return pivot;
}

template <int KIND>
__global__ void __launch_bounds__(32 * FACTOR_WARPS_PER_BLOCK)
factor_kernel(int32_t n, int32_t batch, const int64_t *__restrict__ ptr,
              const int32_t *__restrict__ ind, const int64_t *__restrict__ diag,
              const int32_t *__restrict__ order, int64_t nnz, double *val, double pivot_shift,
              int32_t *done, domino_factor_status *st)
{
    int lane = threadIdx.x & 31;
    unsigned long long t = 0;
    if (lane == 0) t = atomicAdd(&st->ticket, 1ULL);
    t = __shfl_sync(FULL_MASK, t, 0);
    if (t >= (unsigned long long)n * (unsigned long long)batch) return;
    int32_t i = __ldg(&order[t / (unsigned long long)batch]);
    int32_t b = (int32_t)(t % (unsigned long long)batch);
    double *v = val + (int64_t)b * nnz;
    int32_t *flags = done + (int64_t)b * n;
    int64_t di = __ldg(&diag[i]);
    double pivot;
    bool bad;
    if (KIND == 0) {
        ilu0_row(i, ptr, ind, diag, v, flags, lane);
        pivot = v[di];
        bad = !(pivot != 0.0 && isfinite(pivot));
    } else {
        pivot = ic0_row(i, ptr, ind, diag, v, flags, lane);
        bad = !(pivot > 0.0) || !isfinite(pivot);
    }
    if (lane == 0) {
        if (bad && pivot_shift == 0.0) {
            atomicMin(&st->bad_pivot, (long long)b * n + i);
        } else if (bad) {
            atomicAdd(&st->replaced, 1ULL);
            pivot = pivot_shift;
        }
        if (KIND == 1) v[di] = sqrt(pivot);
        else if (bad && pivot_shift != 0.0) v[di] = pivot_shift;
    }
    __threadfence();
    __syncwarp();
    if (lane == 0) {
        __threadfence();
        store_relaxed_i32(&flags[i], 1);
    }
}

extern "C" cudaError_t domino_launch_factor(cudaStream_t stream, int kind, int32_t n,
                                            int32_t batch, const int64_t *ptr, const int32_t *ind,
                                            const int64_t *diag, const int32_t *order,
                                            int64_t nnz, double *val, double pivot_shift,
                                            int32_t *done, domino_factor_status *st)
{
    int64_t warps = (int64_t)n * batch;
    if (warps == 0) return cudaSuccess;
    int64_t blocks = (warps + FACTOR_WARPS_PER_BLOCK - 1) / FACTOR_WARPS_PER_BLOCK;
    if (blocks > INT32_MAX) return cudaErrorInvalidValue;
    if (kind == 0)
        factor_kernel<0><<<(unsigned)blocks, 32 * FACTOR_WARPS_PER_BLOCK, 0, stream>>>(
            n, batch, ptr, ind, diag, order, nnz, val, pivot_shift, done, st);
    else
        factor_kernel<1><<<(unsigned)blocks, 32 * FACTOR_WARPS_PER_BLOCK, 0, stream>>>(
            n, batch, ptr, ind, diag, order, nnz, val, pivot_shift, done, st);
    return cudaGetLastError();
}
