/* trsv_pull_walk.cuh: how a pull solve reads a row (trsv_pull.cu): x_j
 * as a block sees it, waiting for it, publishing x_i, and the walks of a
 * row's entries -- one at a time (short rows), in batches (long rows), in
 * arrival order (pull_walk_any), by a whole warp (long rows of a
 * thread-per-row warp).  Each walk stops at the first pending x and
 * resumes there; none waits inside. */
#ifndef DOMINO_TRSV_PULL_WALK_CUH
#define DOMINO_TRSV_PULL_WALK_CUH

#include "gpu_internal.h"
#include "device_util.cuh"
/* logical index of column j */
__device__ __forceinline__ int32_t logical_of(int32_t j, int32_t n, int upper)
{
    return upper ? n - 1 - j : j;
}

/* x_j as this block sees it (shared memory for its own rows when use_shared) */
template <typename T>
__device__ __forceinline__ T pull_value(int32_t j, int32_t base, int32_t n, int upper, const T *X,
                                        const volatile T *sx, int use_shared)
{
    int32_t lj = logical_of(j, n, upper);
    return (use_shared && lj >= base) ? sx[lj - base] : load_relaxed(&X[j]);
}

/* publish x_i: the store into x is its ready flag; with ONE (the
 * one-launch solve) xout, the caller's X, gets the value too */
template <typename T, bool ONE>
__device__ __forceinline__ void pull_publish(T *x, T *xout, int32_t row, T xi)
{
    store_relaxed(&x[row], xi);
    if (ONE) xout[row] = xi;
}

/* x_j once solved, waiting in place (the lanes that call it spin
 * together): read from shared memory at sx[sj] when in_shared, else from X
 * with L2-coherent loads, sleeping backoff_ns between reads; past
 * max_wait_ns (> 0) it reports row in st->timeout_row (when report) and
 * returns 0 */
template <typename T>
__device__ __forceinline__ T pull_wait_value(const T *X, int32_t j, const volatile T *sx, int32_t sj,
                                             bool in_shared, int32_t row, bool report,
                                             unsigned backoff_ns, int64_t max_wait_ns,
                                             domino_solve_status *st)
{
    T v = in_shared ? sx[sj] : load_relaxed(&X[j]);
    uint64_t since = 0;
    while (is_pending(v)) {
        if (backoff_ns) __nanosleep(backoff_ns);
        if (max_wait_ns > 0) {
            uint64_t now = global_timer_ns();
            if (since == 0) since = now;
            else if (now - since > (uint64_t)max_wait_ns) {
                if (report) atomicMin(&st->timeout_row, row);
                return (T)0;
            }
        }
        v = in_shared ? sx[sj] : load_relaxed(&X[j]);
    }
    return v;
}

#ifndef DOMINO_PULL_WALK_BATCH
#define DOMINO_PULL_WALK_BATCH 4 /* -DDOMINO_PULL_WALK_BATCH=8: experiments */
#endif
#define PULL_WALK_BATCH DOMINO_PULL_WALK_BATCH /* entries a batch of a long walk loads at once */
#define PULL_WALK_SHORT DOMINO_PULL_WALK_SHORT /* a thread walks rows of up to this many entries one entry at a time
                             (H100: batches slowed deep DAGs and meshes of short rows) */

/* Load entries k, k + stride, ... (PULL_WALK_BATCH of them) of row: their
 * columns and values together, then the x of those that are dependencies
 * together (pending or not); past end an entry reads as the diagonal with
 * value 0, which adds nothing */
template <typename T>
__device__ __forceinline__ void pull_load_batch(int32_t row, int32_t base, int32_t n, int upper,
                                                const int32_t *__restrict__ ind,
                                                const T *__restrict__ val, int64_t k, int stride,
                                                int64_t end, const T *X, const volatile T *sx,
                                                int use_shared, int32_t *j, T *a, T *v)
{
#pragma unroll
    for (int u = 0; u < PULL_WALK_BATCH; u++) {
        int64_t ku = k + (int64_t)u * stride;
        j[u] = ku < end ? __ldg(&ind[ku]) : row;
        a[u] = ku < end ? __ldg(&val[ku]) : (T)0;
    }
#pragma unroll
    for (int u = 0; u < PULL_WALK_BATCH; u++)
        v[u] = (upper ? j[u] > row : j[u] < row) ? pull_value<T>(j[u], base, n, upper, X, sx, use_shared)
                                                 : (T)0;
}

/* Add entries *kk, *kk + stride, ... (below end) of row: dependencies to
 * *sum, the diagonal to *diag, PULL_WALK_BATCH at a time (pull_load_batch),
 * in stored order up to the first pending x (a walk that loaded one entry
 * after another paid two memory latencies an entry; pull_walk_short does
 * that, for short rows).  The pending entry's column and value are kept
 * (*wait_j >= 0, *wait_a): a walk that resumes polls that one x alone, one
 * memory latency, before it loads more.  *kk moves past what was added,
 * *moved is set when something was; true when the walk reached end. */
template <typename T>
__device__ __forceinline__ bool pull_walk(int32_t row, int32_t base, int32_t n, int upper,
                                          const int32_t *__restrict__ ind, const T *__restrict__ val,
                                          int64_t *kk, int64_t end, int stride, const T *X,
                                          const volatile T *sx, int use_shared, T *sum, T *diag,
                                          bool *moved, int32_t *wait_j, T *wait_a)
{
    int64_t k = *kk;
    T s = *sum, d = *diag;
    if (*wait_j >= 0) { /* resuming at a pending x */
        T v = pull_value<T>(*wait_j, base, n, upper, X, sx, use_shared);
        if (is_pending(v)) return false;
        s += *wait_a * v;
        *wait_j = -1;
        k += stride;
        *moved = true;
    }
    bool stalled = false;
    while (k < end && !stalled) {
        int32_t j[PULL_WALK_BATCH];
        T a[PULL_WALK_BATCH], v[PULL_WALK_BATCH];
        pull_load_batch<T>(row, base, n, upper, ind, val, k, stride, end, X, sx, use_shared, j, a, v);
#pragma unroll
        for (int u = 0; u < PULL_WALK_BATCH; u++) {
            if (stalled || k >= end) continue; /* k is entry u's position here */
            if (upper ? j[u] > row : j[u] < row) {
                if (is_pending(v[u])) {
                    stalled = true;
                    *wait_j = j[u];
                    *wait_a = a[u];
                    continue;
                }
                s += a[u] * v[u];
            } else if (j[u] == row) {
                d += a[u];
            }
            k += stride;
            *moved = true;
        }
    }
    *kk = k;
    *sum = s;
    *diag = d;
    return !stalled;
}

/* The short walk (one entry at a time) of pull_walk, which also holds the
 * entry after a pending one (*hold_j >= 0, *hold_a), loaded while it waits:
 * when the pending x arrives the walk goes on without a load (in a sorted
 * lower row the entry after the last dependency is the diagonal, so the row
 * is solved at once; reloading it, evicted from L1 during the wait, cost a
 * memory latency on every hop's critical path).  With LINK (the warp
 * sweep's phase 1) entries of column link_col are not waited for but added
 * to *link, the coefficient the sweep's scan takes. */
template <typename T, bool LINK>
__device__ __forceinline__ bool pull_walk_short(int32_t row, int32_t base, int32_t n, int upper,
                                                const int32_t *__restrict__ ind,
                                                const T *__restrict__ val, int64_t *kk, int64_t end,
                                                const T *X, const volatile T *sx, int use_shared,
                                                T *sum, T *diag, bool *moved, int32_t *wait_j,
                                                T *wait_a, int32_t *hold_j, T *hold_a,
                                                int32_t link_col, T *link)
{
    int64_t k = *kk;
    T s = *sum, d = *diag;
    bool stalled = false;
    if (*wait_j >= 0) { /* resuming at a pending x */
        T v = pull_value<T>(*wait_j, base, n, upper, X, sx, use_shared);
        if (is_pending(v)) return false;
        s += *wait_a * v;
        *wait_j = -1;
        k++;
        *moved = true;
    }
    while (k < end) {
        int32_t j;
        T a;
        if (*hold_j >= 0) {
            j = *hold_j;
            a = *hold_a;
            *hold_j = -1;
        } else {
            j = __ldg(&ind[k]);
            a = __ldg(&val[k]);
        }
        if (LINK && j == link_col) {
            *link += a;
        } else if (upper ? j > row : j < row) {
            T v = pull_value<T>(j, base, n, upper, X, sx, use_shared);
            if (is_pending(v)) {
                *wait_j = j;
                *wait_a = a;
                if (k + 1 < end) {
                    *hold_j = __ldg(&ind[k + 1]);
                    *hold_a = __ldg(&val[k + 1]);
                }
                stalled = true;
                break;
            }
            s += a * v;
        } else if (j == row) {
            d += a;
        }
        k++;
        *moved = true;
    }
    *kk = k;
    *sum = s;
    *diag = d;
    return !stalled;
}

/* The walk of a row of at most 32 entries in any order (not deterministic
 * mode): the first visit loads every entry, PULL_WALK_BATCH at a time, adds
 * the x already solved and notes the pending ones in *pending (bit u: entry
 * start + u); a later visit polls the lowest PULL_WALK_BATCH of those
 * together (the lowest from *wait_j, *wait_a, which hold it while *pending
 * is not 0).  Measured on an H100 (h100-trsv4/earlier/any-order-*):
 * polling every pending entry each visit, one after another, made the
 * turns of banded meshes long (bcsstk33 2x slower); polling the lowest
 * alone slowed the random DAGs whose dependencies arrive a level apart.  When the last dependency arrives the row is solved at once,
 * where a walk in stored order would still load the entries after it (on
 * rows of 10-30 entries, serial memory latencies on every hop).  The sum's
 * order follows the arrival order, so results may differ in the last bits
 * from run to run.  *kk: the next entry of the first visit. */
template <typename T>
__device__ __forceinline__ bool pull_walk_any(int32_t row, int32_t base, int32_t n, int upper,
                                              const int32_t *__restrict__ ind,
                                              const T *__restrict__ val, int64_t start, int64_t *kk,
                                              int64_t end, const T *X, const volatile T *sx,
                                              int use_shared, T *sum, T *diag, bool *moved,
                                              unsigned *pending, int32_t *wait_j, T *wait_a)
{
    int64_t k = *kk;
    T s = *sum, d = *diag;
    unsigned pend = *pending;
    if (k < end) { /* the first visit */
        while (k < end) {
            int32_t j[PULL_WALK_BATCH];
            T a[PULL_WALK_BATCH], v[PULL_WALK_BATCH];
            pull_load_batch<T>(row, base, n, upper, ind, val, k, 1, end, X, sx, use_shared, j, a, v);
#pragma unroll
            for (int u = 0; u < PULL_WALK_BATCH; u++) {
                if (upper ? j[u] > row : j[u] < row) {
                    if (is_pending(v[u])) {
                        if (pend == 0) {
                            *wait_j = j[u];
                            *wait_a = a[u];
                        }
                        pend |= 1u << (unsigned)(k + u - start);
                    } else {
                        s += a[u] * v[u];
                    }
                } else if (j[u] == row) {
                    d += a[u];
                }
            }
            k += PULL_WALK_BATCH;
        }
        *kk = end;
        *moved = true;
    } else if (pend) { /* later visits: the lowest PULL_WALK_BATCH pending entries together */
        int u[PULL_WALK_BATCH];
        int32_t j[PULL_WALK_BATCH];
        T a[PULL_WALK_BATCH], v[PULL_WALK_BATCH];
        unsigned left = pend;
#pragma unroll
        for (int t = 0; t < PULL_WALK_BATCH; t++) {
            u[t] = left ? __ffs(left) - 1 : -1;
            left &= left ? left - 1 : 0u;
            j[t] = t == 0 ? *wait_j : u[t] >= 0 ? __ldg(&ind[start + u[t]]) : 0; /* the lowest: held */
            a[t] = t == 0 ? *wait_a : u[t] >= 0 ? __ldg(&val[start + u[t]]) : (T)0;
        }
#pragma unroll
        for (int t = 0; t < PULL_WALK_BATCH; t++)
            v[t] = u[t] >= 0 ? pull_value<T>(j[t], base, n, upper, X, sx, use_shared) : (T)0;
        bool held = false;
#pragma unroll
        for (int t = 0; t < PULL_WALK_BATCH; t++) {
            if (u[t] < 0) continue;
            if (is_pending(v[t])) {
                if (!held) { /* the lowest still pending (the invariant) */
                    *wait_j = j[t];
                    *wait_a = a[t];
                    held = true;
                }
                continue;
            }
            s += a[t] * v[t];
            pend &= ~(1u << (unsigned)u[t]);
            *moved = true;
        }
        if (!held && pend) { /* pending ones past the batch: the lowest, held for the next visit */
            int w = __ffs(pend) - 1;
            *wait_j = __ldg(&ind[start + w]);
            *wait_a = __ldg(&val[start + w]);
        }
    }
    *pending = pend;
    *sum = s;
    *diag = d;
    return pend == 0;
}

/* one row, one right-hand side, thread per row (in batches when long_walk);
 * returns when solved or stalled */
template <typename T>
__device__ __forceinline__ bool pull_row_advance(int32_t row, int32_t base, int32_t n, int upper,
                                                 const int32_t *__restrict__ ind,
                                                 const T *__restrict__ val, int64_t *kk,
                                                 int64_t end, const T *X, const volatile T *sx,
                                                 int use_shared, T *sum, T *diag, int32_t *wait_j,
                                                 T *wait_a, int32_t *hold_j, T *hold_a, bool long_walk)
{
    bool moved = false;
    if (long_walk)
        return pull_walk<T>(row, base, n, upper, ind, val, kk, end, 1, X, sx, use_shared, sum, diag,
                            &moved, wait_j, wait_a);
    return pull_walk_short<T, false>(row, base, n, upper, ind, val, kk, end, X, sx, use_shared, sum,
                                     diag, &moved, wait_j, wait_a, hold_j, hold_a, -1, NULL);
}

/* A long row (more than long_row entries) solved by the whole warp without
 * waiting: each lane walks entries k, k + 32, ... of the row (pull_walk),
 * resuming next turn where it stopped (*coop_k, *coop_sum, *coop_diag and
 * the pending entry are its state).  Returns true when every lane is through: *coop_sum and
 * *coop_diag then hold the row's sums (the same in every lane, fixed
 * shuffle order). */
template <typename T>
__device__ bool pull_long_row_advance(int32_t row, int64_t end, int32_t base, int32_t n, int upper,
                                      const int32_t *__restrict__ ind, const T *__restrict__ val,
                                      const T *X, const volatile T *sx, int use_shared,
                                      int64_t *coop_k, T *coop_sum, T *coop_diag, bool *moved,
                                      int32_t *wait_j, T *wait_a)
{
    pull_walk<T>(row, base, n, upper, ind, val, coop_k, end, 32, X, sx, use_shared, coop_sum,
                 coop_diag, moved, wait_j, wait_a);
    if (!__all_sync(0xffffffffu, *coop_k >= end)) return false;
    *coop_sum = warp_sum(*coop_sum);
    *coop_diag = warp_sum(*coop_diag);
    return true;
}

/* The whole warp takes a long row whose walk starts at entry k (lane l at
 * k + l): its first PULL_LONG_PREFETCH columns and values into L1, one
 * 128-byte line a lane and prefetch.  The walk's first batches then load
 * from L1, and only their gathers of x cost a memory latency (R-MAT 21/22:
 * 8.1 -> 7.2 and 9.3 -> 8.7 us a long row on the critical path, H200,
 * bench/results/h200-prefetch24).  A prefetch inside the walk's loop, to
 * keep ahead of longer rows, made the double thread kernels spill 16-52
 * bytes more. */
#ifndef DOMINO_PULL_LONG_PREFETCH
#define DOMINO_PULL_LONG_PREFETCH 512 /* 1024 spilled 8-20 bytes more (double), 2048 up to
                                         32, and 2048 was no faster */
#endif
#define PULL_LONG_PREFETCH DOMINO_PULL_LONG_PREFETCH
template <typename T>
__device__ __forceinline__ void pull_long_row_start(const int32_t *__restrict__ ind,
                                                    const T *__restrict__ val, int64_t k,
                                                    int64_t end)
{
    const int per_ind = 128 / (int)sizeof(int32_t), per_val = 128 / (int)sizeof(T);
    int lane = threadIdx.x & 31;
#pragma unroll
    for (int m = 0; m < (PULL_LONG_PREFETCH + 32 * per_ind - 1) / (32 * per_ind); m++) {
        int64_t q = k + (int64_t)(m * 32 + lane) * per_ind;
        if (q < end) prefetch_l1(&ind[q]);
    }
#pragma unroll
    for (int m = 0; m < (PULL_LONG_PREFETCH + 32 * per_val - 1) / (32 * per_val); m++) {
        int64_t q = k + (int64_t)(m * 32 + lane) * per_val;
        if (q < end) prefetch_l1(&val[q]);
    }
}

#endif
