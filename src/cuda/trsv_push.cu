/* trsv_push.cu: synchronization-free CSC push triangular solve (Liu, Li,
 * Hou, Vinter, "A synchronization-free algorithm for parallel sparse
 * triangular solves", Euro-Par 2016), warp per column.
 *
 * Column j waits until all of its in_degree[j] producers have added their
 * contribution to left_sum[j], solves x_j, then adds val * x_j to left_sum of
 * every dependant row and only after a fence counts itself done there.
 * (The original code published the partial sum and the counter with two
 * atomics and no fence between them, which can expose a partial sum.)
 * Warps take logical columns from an atomic ticket in order, so a waited-on
 * column is always held by a running warp.  Not deterministic: atomic
 * additions land in any order. */
#include "gpu_internal.h"
#include "device_util.cuh"

#define PUSH_THREADS 256

/* in_degree[i] = number of strict-triangle entries of row i (from the CSC) */
__global__ void push_degree_kernel(int32_t n, const int64_t *__restrict__ cptr,
                                   const int32_t *__restrict__ rind, int upper, int32_t *in_degree)
{
    int32_t j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= n) return;
    for (int64_t k = __ldg(&cptr[j]), e = __ldg(&cptr[j + 1]); k < e; k++) {
        int32_t i = __ldg(&rind[k]);
        if (upper ? i < j : i > j) atomicAdd(&in_degree[i], 1);
    }
}

template <typename T>
__global__ void __launch_bounds__(PUSH_THREADS)
    trsv_push_kernel(int32_t n, const int64_t *__restrict__ cptr,
                     const int32_t *__restrict__ rind, const T *__restrict__ val, int upper,
                     int unit, const T *__restrict__ b, T *x, const int32_t *__restrict__ in_degree,
                     int32_t *done_count, double *left_sum, int64_t max_wait_ns,
                     int push_chunk, domino_solve_status *st)
{
    int lane = threadIdx.x & 31;
    int32_t lcol = 0;
    if (lane == 0) lcol = atomicAdd(&st->ticket, 1);
    lcol = __shfl_sync(0xffffffffu, lcol, 0);
    if (lcol >= n) return;
    int32_t j = upper ? n - 1 - lcol : lcol;
    if (lane == 0) {
        int32_t need = __ldg(&in_degree[j]);
        uint64_t since = 0;
        while (load_acquire_i32(&done_count[j]) < need) {
            if (max_wait_ns > 0) {
                uint64_t now = global_timer_ns();
                if (since == 0) since = now;
                else if (now - since > (uint64_t)max_wait_ns) {
                    atomicMin(&st->timeout_row, j);
                    break;
                }
            }
        }
    }
    __syncwarp();
    int64_t start = __ldg(&cptr[j]), end = __ldg(&cptr[j + 1]);
    T diag = 0;
    for (int64_t k = start + lane; k < end; k += 32)
        if (__ldg(&rind[k]) == j) diag += __ldg(&val[k]);
    diag = warp_sum(diag);
    double ls;
    asm volatile("ld.relaxed.gpu.global.f64 %0, [%1];" : "=d"(ls) : "l"(&left_sum[j]) : "memory");
    T xj = unit ? (T)((double)__ldg(&b[j]) - ls) : (T)(((double)__ldg(&b[j]) - ls) / (double)diag);
    if (lane == 0) x[j] = xj;
    /* in rounds of push_chunk entries, doubled each round (0: one round), each
     * round's counts after its sums and a fence: the first dependants of a long
     * column go on before the warp is through it */
    for (int64_t c0 = start, chunk = push_chunk > 0 ? push_chunk : end - start; c0 < end; chunk *= 2) {
        int64_t c1 = end - c0 <= chunk ? end : c0 + chunk;
        for (int64_t k = c0 + lane; k < c1; k += 32) {
            int32_t i = __ldg(&rind[k]);
            if (upper ? i < j : i > j) atomicAdd(&left_sum[i], (double)__ldg(&val[k]) * (double)xj);
        }
        __threadfence();
        for (int64_t k = c0 + lane; k < c1; k += 32) {
            int32_t i = __ldg(&rind[k]);
            if (upper ? i < j : i > j) atomicAdd(&done_count[i], 1);
        }
        c0 = c1;
    }
}

extern "C" cudaError_t domino_launch_trsv_push(cudaStream_t stream, domino_type type, int32_t n,
                                               const int64_t *cptr, const int32_t *rind,
                                               const void *val, int upper, int unit,
                                               const void *b, void *x, int32_t *in_degree,
                                               int32_t *done_count, double *left_sum,
                                               int compute_degree, int64_t max_wait_ns,
                                               int push_chunk, domino_solve_status *st)
{
    cudaError_t e;
    if (n == 0) return cudaSuccess;
    if (compute_degree) {
        if ((e = cudaMemsetAsync(in_degree, 0, (size_t)n * sizeof(int32_t), stream))) return e;
        push_degree_kernel<<<(int)(((int64_t)n + 255) / 256), 256, 0, stream>>>(n, cptr, rind, upper, in_degree);
        return cudaGetLastError();
    }
    if ((e = cudaMemsetAsync(done_count, 0, (size_t)n * sizeof(int32_t), stream))) return e;
    if ((e = cudaMemsetAsync(left_sum, 0, (size_t)n * sizeof(double), stream))) return e;
    int64_t threads = (int64_t)n * 32;
    int blocks = (int)((threads + PUSH_THREADS - 1) / PUSH_THREADS);
    if (type == DOMINO_FLOAT64)
        trsv_push_kernel<double><<<blocks, PUSH_THREADS, 0, stream>>>(
            n, cptr, rind, (const double *)val, upper, unit, (const double *)b, (double *)x,
            in_degree, done_count, left_sum, max_wait_ns, push_chunk, st);
    else
        trsv_push_kernel<float><<<blocks, PUSH_THREADS, 0, stream>>>(
            n, cptr, rind, (const float *)val, upper, unit, (const float *)b, (float *)x,
            in_degree, done_count, left_sum, max_wait_ns, push_chunk, st);
    return cudaGetLastError();
}
