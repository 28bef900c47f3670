/* spmm_chunks.cu: C = A B (or C += A B) for a CSR A and a narrow row-major
 * B (at most 128 columns): domino's own SpMM, for the widths where
 * cusparseSpMM is least efficient (a distributed product's column block of
 * B, 32 columns of a 128-wide B on 4 GPUs).
 *
 * A's entries are cut into chunks of SPMM_CHUNK, one warp a chunk, so a
 * row of 10^5 entries (R-MAT's) is spread over many warps and the warps
 * carry equal work.  The lanes lie across the columns (lane + 32 v, v < V:
 * coalesced rows of B and C); 32 (column, value) pairs are loaded at a time
 * and shuffled to every lane, and the rows of B of U entries are loaded
 * before they are used, so a warp keeps U V loads in flight.  A row inside
 * one chunk is written with a store; a row cut by a chunk boundary is added
 * with atomics into a row that a first pass zeroed.  That first pass also
 * zeroes the empty rows and finds each chunk's first row, so no warp
 * searches the offsets.  Results match a sequential sum up to rounding
 * (the order of a cut row's partial sums is not fixed). */
#include "gpu_internal.h"

#include <stdlib.h>

#define SPMM_CHUNK 256 /* entries of A a warp multiplies */

/* first[w] = the row that holds entry w SPMM_CHUNK, for every chunk w; and
 * unless accumulate, C's row r := 0 when it is empty or cut by a chunk
 * boundary (its first and last entries in different chunks).  A warp per 32
 * rows: each lane judges its row, then the warp zeroes the marked rows, one
 * coalesced row at a time. */
template <typename T>
__global__ void spmm_chunks_prepare_kernel(int32_t rows, int32_t cols, const int32_t *ptr, int32_t *first, T *C,
                                           int64_t ldc, int accumulate, int hints)
{
    int lane = threadIdx.x & 31;
    int64_t warp = (blockIdx.x * (int64_t)blockDim.x + threadIdx.x) >> 5;
    int64_t r0 = warp * 32, r = r0 + lane;
    int zero = 0;
    if (r < rows) {
        int32_t lo = ptr[r], hi = ptr[r + 1];
        for (int64_t w = ((int64_t)lo + SPMM_CHUNK - 1) / SPMM_CHUNK; w * SPMM_CHUNK < hi; w++) first[w] = (int32_t)r;
        zero = !accumulate && (lo == hi || lo / SPMM_CHUNK != (hi - 1) / SPMM_CHUNK);
    }
    unsigned marked = __ballot_sync(0xffffffffu, zero);
    while (marked) {
        int b = __ffs(marked) - 1;
        marked &= marked - 1;
        T *row = C + (r0 + b) * ldc;
        for (int c = lane; c < cols; c += 32)
            if (hints)
                __stcs(row + c, (T)0);
            else
                row[c] = (T)0;
    }
}

/* write or add a finished row's V sums (lane's columns lane + 32 v) */
template <typename T, int V>
__device__ __forceinline__ void spmm_chunks_flush(T *crow, int lane, int cols, const T *acc, int cut, int accumulate,
                                                  int hints)
{
#pragma unroll
    for (int v = 0; v < V; v++) {
        int c = lane + 32 * v;
        if (c < cols) {
            if (cut)
                atomicAdd(crow + c, acc[v]);
            else if (accumulate)
                crow[c] += acc[v];
            else if (hints)
                __stcs(crow + c, acc[v]); /* written once: keep L2 for B */
            else
                crow[c] = acc[v];
        }
    }
}

/* C (+)= A B over chunk w of A's entries: the contract of the file's
 * comment; cols <= 32 V, U entries' rows of B loaded ahead */
template <typename T, int V, int U>
__global__ void __launch_bounds__(256) spmm_chunks_kernel(int32_t rows, int64_t nnz, int32_t chunks, int32_t cols,
                                                          const int32_t *__restrict__ ptr,
                                                          const int32_t *__restrict__ ind, const T *__restrict__ val,
                                                          const int32_t *__restrict__ first, const T *__restrict__ B,
                                                          int64_t ldb, T *C, int64_t ldc, int accumulate, int hints,
                                                          int l2_only)
{
    int lane = threadIdx.x & 31;
    int64_t w = (blockIdx.x * (int64_t)blockDim.x + threadIdx.x) >> 5;
    if (w >= chunks) return;
    int64_t s = w * SPMM_CHUNK, e = s + SPMM_CHUNK < nnz ? s + SPMM_CHUNK : nnz;
    int32_t r = first[w], lo = ptr[r], hi = ptr[r + 1];
    T acc[V];
#pragma unroll
    for (int v = 0; v < V; v++) acc[v] = (T)0;
    for (int64_t base = s; base < e; base += 32) {
        int n = e - base < 32 ? (int)(e - base) : 32;
        int32_t my_col = lane < n ? (hints ? __ldcs(ind + base + lane) : __ldg(ind + base + lane)) : 0;
        T my_val = lane < n ? (hints ? __ldcs(val + base + lane) : __ldg(val + base + lane)) : (T)0;
        for (int t = 0; t < n; t += U) {
            T b[U][V];
#pragma unroll
            for (int u = 0; u < U; u++) {
                int32_t j = __shfl_sync(0xffffffffu, my_col, (t + u) & 31);
                const T *brow = B + (int64_t)j * ldb;
#pragma unroll
                for (int v = 0; v < V; v++)
                    b[u][v] = t + u < n && lane + 32 * v < cols
                                  ? (l2_only ? __ldcg(brow + lane + 32 * v) : __ldg(brow + lane + 32 * v))
                                  : (T)0;
            }
#pragma unroll
            for (int u = 0; u < U; u++) {
                T a = __shfl_sync(0xffffffffu, my_val, (t + u) & 31);
                if (t + u < n) {
                    int64_t k = base + t + u;
                    if (k >= hi) { /* row r is done: out with it, on to the row holding entry k */
                        spmm_chunks_flush<T, V>(C + (int64_t)r * ldc, lane, cols, acc, lo < s, accumulate, hints);
#pragma unroll
                        for (int v = 0; v < V; v++) acc[v] = (T)0;
                        r++;
                        while (ptr[r + 1] <= k) r++; /* past empty rows (the first pass zeroed them) */
                        lo = ptr[r];
                        hi = ptr[r + 1];
                    }
#pragma unroll
                    for (int v = 0; v < V; v++) acc[v] += a * b[u][v];
                }
            }
        }
    }
    spmm_chunks_flush<T, V>(C + (int64_t)r * ldc, lane, cols, acc, lo < s || hi > e, accumulate, hints);
}

size_t domino_spmm_chunks_work_bytes(int64_t nnz)
{
    return (size_t)((nnz + SPMM_CHUNK - 1) / SPMM_CHUNK) * sizeof(int32_t) + 8;
}

/* experiment switch DOMINO_SPMM_CHUNKS_OPT (a bit mask, default 0): 1
 * streaming cache hints on A and C (L2 kept for B's rows), 2 twice the
 * entries' rows of B loaded ahead, 4 B's rows read past L1 (L2 only) */
static int chunks_options(void)
{
    const char *v = getenv("DOMINO_SPMM_CHUNKS_OPT");
    return v ? atoi(v) : 0;
}

template <typename T, int V>
static void spmm_chunks_launch(cudaStream_t stream, int32_t rows, int64_t nnz, int32_t chunks, int32_t cols,
                               const int32_t *ptr, const int32_t *ind, const void *val, const int32_t *first,
                               const void *B, int64_t ldb, void *C, int64_t ldc, int accumulate, int opt)
{
    int hints = opt & 1;
    if (opt & 2)
        spmm_chunks_kernel<T, V, (V == 1 ? 16 : V == 2 ? 8 : 4)><<<(chunks + 7) / 8, 256, 0, stream>>>(
            rows, nnz, chunks, cols, ptr, ind, (const T *)val, first, (const T *)B, ldb, (T *)C, ldc, accumulate, hints,
            (opt & 4) != 0);
    else
        spmm_chunks_kernel<T, V, (V == 1 ? 8 : V == 2 ? 4 : 2)><<<(chunks + 7) / 8, 256, 0, stream>>>(
            rows, nnz, chunks, cols, ptr, ind, (const T *)val, first, (const T *)B, ldb, (T *)C, ldc, accumulate, hints,
            (opt & 4) != 0);
}

/* the first pass and the chunks' kernel for values of type T: V columns a lane */
template <typename T>
static void spmm_chunks_typed(cudaStream_t stream, int32_t rows, int64_t nnz, int32_t chunks, int32_t cols,
                              const int32_t *ptr, const int32_t *ind, const void *val, int32_t *first, const void *B,
                              int64_t ldb, void *C, int64_t ldc, int accumulate, int opt)
{
    unsigned prep = (unsigned)(((int64_t)rows + 255) / 256); /* 8 warps of 32 rows a block */
    spmm_chunks_prepare_kernel<T><<<prep, 256, 0, stream>>>(rows, cols, ptr, first, (T *)C, ldc, accumulate, opt & 1);
    if (chunks == 0) return;
    if (cols <= 32)
        spmm_chunks_launch<T, 1>(stream, rows, nnz, chunks, cols, ptr, ind, val, first, B, ldb, C, ldc, accumulate, opt);
    else if (cols <= 64)
        spmm_chunks_launch<T, 2>(stream, rows, nnz, chunks, cols, ptr, ind, val, first, B, ldb, C, ldc, accumulate, opt);
    else
        spmm_chunks_launch<T, 4>(stream, rows, nnz, chunks, cols, ptr, ind, val, first, B, ldb, C, ldc, accumulate, opt);
}

cudaError_t domino_launch_spmm_chunks(cudaStream_t stream, domino_type type, int32_t rows, int64_t nnz, int32_t cols,
                                      const int32_t *ptr, const int32_t *ind, const void *val, const void *B,
                                      int64_t ldb, void *C, int64_t ldc, int accumulate, void *work)
{
    if (rows <= 0 || cols <= 0) return cudaSuccess;
    if (cols > DOMINO_SPMM_CHUNKS_MAX_COLS || nnz > INT32_MAX || !work) return cudaErrorInvalidValue;
    int32_t chunks = (int32_t)((nnz + SPMM_CHUNK - 1) / SPMM_CHUNK), *first = (int32_t *)work;
    if (type == DOMINO_FLOAT64)
        spmm_chunks_typed<double>(stream, rows, nnz, chunks, cols, ptr, ind, val, first, B, ldb, C, ldc, accumulate,
                                  chunks_options());
    else
        spmm_chunks_typed<float>(stream, rows, nnz, chunks, cols, ptr, ind, val, first, B, ldb, C, ldc, accumulate,
                                 chunks_options());
    return cudaGetLastError();
}
