/* trsv_step_loader.cuh: what the step-block engine's two kernels
 * (trsv_stepblock.cu, its one-warp variant trsv_stepwarp.cu) share: the
 * loaders' reading of a row, a batch of entries at a time, and its split
 * into the sum over solved columns and the pending columns a ring slot
 * passes to the solvers. */
#ifndef DOMINO_TRSV_STEP_LOADER_CUH
#define DOMINO_TRSV_STEP_LOADER_CUH

#include <stdint.h>

#define STEP_BATCH 8 /* entries a loader thread reads at a time */

/* entries k .. k + STEP_BATCH - 1 of a row ending at k1 (c = -1 past the end) */
template <typename T>
static __device__ __forceinline__ void step_load_batch(int64_t k, int64_t k1, const int32_t *__restrict__ ind,
                                                       const T *__restrict__ val, int32_t *c, T *a)
{
#pragma unroll
    for (int u = 0; u < STEP_BATCH; u++) {
        c[u] = k + u < k1 ? __ldg(&ind[k + u]) : -1;
        a[u] = k + u < k1 ? __ldg(&val[k + u]) : (T)0;
    }
}

/* X at the batch's columns whose logical column is below F (0 elsewhere):
 * what the loader may sum (X is written during the solve: plain loads) */
template <typename T>
static __device__ __forceinline__ void step_gather(int32_t n, int32_t F, int upper, const int32_t *c,
                                                   const T *X, T *xv)
{
#pragma unroll
    for (int u = 0; u < STEP_BATCH; u++) {
        int32_t lc = upper ? n - 1 - c[u] : c[u];
        xv[u] = c[u] >= 0 && lc < F ? X[c[u]] : (T)0;
    }
}

/* a gathered batch into logical row li: entries with columns below F into
 * *part, the diagonal into *d, the others (logical column & colmask, value)
 * to pcol[p * stride], pval[p * stride] while p < pend (*np counts them
 * all); when top is not NULL, *top is the index of the stored pending
 * entry of the largest logical column (*top_lc) */
template <typename T>
static __device__ __forceinline__ void step_take_batch(int32_t *pcol, T *pval, int stride, int pend,
                                                       int32_t colmask, int32_t n, int32_t li, int32_t F,
                                                       int upper, const int32_t *c, const T *a,
                                                       const T *xv, T *part, T *d, int *np, int *top,
                                                       int32_t *top_lc)
{
#pragma unroll
    for (int u = 0; u < STEP_BATCH; u++) {
        if (c[u] < 0) continue;
        int32_t lc = upper ? n - 1 - c[u] : c[u];
        if (lc == li) {
            *d += a[u];
        } else if (lc < F) {
            *part -= a[u] * xv[u];
        } else if (lc < li) {
            if (*np < pend) {
                pcol[*np * stride] = lc & colmask;
                pval[*np * stride] = a[u];
                if (top && lc > *top_lc) *top = *np, *top_lc = lc;
            }
            (*np)++;
        } /* else the other triangle: skipped */
    }
}

/* logical row li's entries k0 .. k1 - 1, b_i and its first batch of
 * entries (c, a) through step_load_batch (nothing past n) */
template <typename T>
static __device__ __forceinline__ void step_row_open(int32_t n, int32_t li, int upper,
                                                     const int64_t *__restrict__ ptr, const T *__restrict__ b,
                                                     const int32_t *__restrict__ ind, const T *__restrict__ val,
                                                     int64_t *k0, int64_t *k1, T *part,
                                                     int32_t c[STEP_BATCH], T a[STEP_BATCH])
{
    *k0 = *k1 = 0;
    *part = (T)0;
    if (li < n) {
        const int32_t i = upper ? n - 1 - li : li;
        *k0 = __ldg(&ptr[i]);
        *k1 = __ldg(&ptr[i + 1]);
        *part = __ldg(&b[i]);
    }
    step_load_batch<T>(*k0, *k1, ind, val, c, a);
}

/* the whole row k0 .. k1 - 1 through step_take_batch: its first batch
 * (c, a, xv, loaded and gathered by the caller), then the others */
template <typename T>
static __device__ __forceinline__ void step_take_row(int32_t *pcol, T *pval, int stride, int pend,
                                                     int32_t colmask, int32_t n, int32_t li, int32_t F,
                                                     int upper, int64_t k0, int64_t k1,
                                                     const int32_t *__restrict__ ind,
                                                     const T *__restrict__ val, const T *X, int32_t *c,
                                                     T *a, T *xv, T *part, T *d, int *np, int *top,
                                                     int32_t *top_lc)
{
    step_take_batch<T>(pcol, pval, stride, pend, colmask, n, li, F, upper, c, a, xv, part, d, np, top, top_lc);
    for (int64_t k = k0 + STEP_BATCH; k < k1; k += STEP_BATCH) {
        step_load_batch<T>(k, k1, ind, val, c, a);
        step_gather<T>(n, F, upper, c, X, xv);
        step_take_batch<T>(pcol, pval, stride, pend, colmask, n, li, F, upper, c, a, xv, part, d, np, top,
                           top_lc);
    }
}

#endif
