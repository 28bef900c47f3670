/* trsv_packed.cu: the thread engine's packed walk, rows grouped on lanes.
 *
 * The thread-per-row walks (trsv_pull.cu) turn a warp until its 32 rows
 * are solved; a lane whose row holds 10-30 entries loads them a batch at a
 * time, two memory latencies a batch, while the other lanes of its warp
 * wait for the turn to end.  On the small shallow matrices that is most of
 * the solve (bayer10: rows of 24-28 entries made their warps' hops 5 us
 * against 0.5 us, bench/results/h200-small14).  Here a row of len entries
 * has DOMINO_PACK_LANES(len) lanes of its own (src/core/internal.h): at
 * most four entries a lane, loaded together on the first visit, so every
 * visit costs one memory latency; a row of more than 124 entries owns a
 * warp, its lanes walking up to 64 entries each.  Warp w holds the
 * consecutive logical rows warp_first[w] .. warp_first[w + 1] - 1 (the
 * plan's packing, made by domino_launch_pack_rows below; its CPU reference
 * is domino_pack_rows).
 *
 * A lane keeps its entries' pending dependencies in a mask (the first
 * four entries' columns and values in registers); later visits poll the
 * pending ones.  When no lane of a row's group has one pending, the group
 * sums by segmented shuffles and its first lane publishes x (the value is
 * its flag, device_util.cuh).  Nobody waits inside: the warp turns until
 * its rows are solved.  Blocks take logical ids from the ticket, and a row
 * reads only rows of smaller logical index, held by its own warp, an
 * earlier warp of its block or an earlier block, all running: no
 * deadlock.  Sums follow arrival order (not deterministic mode).  One
 * right-hand side; with ONE, x is published into the flags (X) and stored
 * into xout, and each block fills its rows of the next solve's flags. */
#include "gpu_internal.h"
#include "device_util.cuh"

#include <cub/cub.cuh>

#define PACK_THREADS 256
#define PACK_WARPS (PACK_THREADS / 32)
#define FULL_MASK 0xffffffffu

template <typename T, bool ONE>
__global__ void __launch_bounds__(PACK_THREADS)
    trsv_packed_kernel(int32_t n, int32_t warps, const int32_t *__restrict__ warp_first,
                       const int64_t *__restrict__ ptr, const int32_t *__restrict__ ind,
                       const T *__restrict__ val, int upper, int unit, const T *__restrict__ B,
                       T *X, T *xout, T *next, domino_solve_status *st_next, int64_t max_wait_ns,
                       unsigned backoff_ns, domino_solve_status *st)
{
    __shared__ int32_t block_ticket;
    if (threadIdx.x == 0) block_ticket = atomicAdd(&st->ticket, 1);
    __syncthreads();
    int32_t w0 = block_ticket * PACK_WARPS;
    if (w0 >= warps) return;
    if (ONE) { /* the next solve's flags, this block's rows */
        int32_t f0 = __ldg(&warp_first[w0]), f1 = __ldg(&warp_first[min(w0 + PACK_WARPS, warps)]);
        for (int32_t r = f0 + (int32_t)threadIdx.x; r < f1; r += PACK_THREADS) make_pending(&next[r]);
        if (block_ticket == 0 && threadIdx.x == 0) solve_status_reset(st_next);
    }
    int32_t w = w0 + (int32_t)(threadIdx.x >> 5);
    if (w >= warps) return;
    int lane = threadIdx.x & 31;
    int32_t r0 = __ldg(&warp_first[w]), nrows = __ldg(&warp_first[w + 1]) - r0;
    /* the warp's rows: extents, lanes, and each lane's row */
    int64_t s = 0, e = 0;
    int g = 0;
    if (lane < nrows) {
        int32_t row = upper ? n - 1 - (r0 + lane) : r0 + lane;
        s = __ldg(&ptr[row]);
        e = __ldg(&ptr[row + 1]);
        g = DOMINO_PACK_LANES(e - s);
    }
    int incl = g;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        int t = __shfl_up_sync(FULL_MASK, incl, o);
        if (lane >= o) incl += t;
    }
    int excl = incl - g, mine = -1;
    for (int i = 0; i < nrows; i++) {
        int lo = __shfl_sync(FULL_MASK, excl, i), hi = __shfl_sync(FULL_MASK, incl, i);
        if (lane >= lo && lane < hi) mine = i;
    }
    int src = mine < 0 ? 0 : mine;
    int gs = __shfl_sync(FULL_MASK, excl, src), gg = __shfl_sync(FULL_MASK, g, src);
    int64_t rs = __shfl_sync(FULL_MASK, s, src), re = __shfl_sync(FULL_MASK, e, src);
    bool active = mine >= 0;
    if (!active) gg = 0;
    int sub = active ? lane - gs : 0;
    unsigned gmask = !active ? 0u : gg == 32 ? FULL_MASK : ((1u << gg) - 1u) << gs;
    int32_t row = upper ? n - 1 - (r0 + src) : r0 + src;
    int count = active && re - rs > sub ? (int)((re - rs - sub + gg - 1) / gg) : 0;
    T bval = active && sub == 0 ? __ldg(&B[row]) : (T)0; /* before the waits */
    T sum = 0, diag = 0;
    uint64_t pend = 0;
    int visited = 0; /* entries of the first visit loaded */
    int32_t cj[4];   /* the first four entries' columns and values */
    T ca[4];
    bool done = !active;
    uint64_t stall_since = 0;
    while (__any_sync(FULL_MASK, !done)) {
        bool moved = false;
        if (!done && visited < count) { /* the first visit: every entry */
            for (; visited < count; visited += 4) {
                int32_t j[4];
                T a[4], v[4];
#pragma unroll
                for (int u = 0; u < 4; u++) {
                    int64_t k = rs + sub + (int64_t)(visited + u) * gg;
                    j[u] = visited + u < count ? __ldg(&ind[k]) : row;
                    a[u] = visited + u < count ? __ldg(&val[k]) : (T)0;
                }
#pragma unroll
                for (int u = 0; u < 4; u++)
                    v[u] = (upper ? j[u] > row : j[u] < row) ? load_relaxed(&X[j[u]]) : (T)0;
#pragma unroll
                for (int u = 0; u < 4; u++) {
                    if (visited == 0) {
                        cj[u] = j[u];
                        ca[u] = a[u];
                    }
                    if (upper ? j[u] > row : j[u] < row) {
                        if (is_pending(v[u])) pend |= 1ull << (visited + u);
                        else sum += a[u] * v[u];
                    } else if (j[u] == row) {
                        diag += a[u];
                    }
                }
            }
            visited = count;
            moved = true;
        } else if (!done && pend) { /* later visits: the pending ones */
            T v[4];
#pragma unroll
            for (int u = 0; u < 4; u++) v[u] = (pend >> u) & 1 ? load_relaxed(&X[cj[u]]) : (T)0;
#pragma unroll
            for (int u = 0; u < 4; u++)
                if (((pend >> u) & 1) && !is_pending(v[u])) {
                    sum += ca[u] * v[u];
                    pend &= ~(1ull << u);
                    moved = true;
                }
            uint64_t far = pend & ~0xfull; /* a row owning the warp: its lowest four beyond */
            if (far) {
                int t[4];
                int32_t j[4];
                T a[4];
#pragma unroll
                for (int u = 0; u < 4; u++) {
                    t[u] = far ? __ffsll((long long)far) - 1 : -1;
                    far &= far ? far - 1 : 0ull;
                    int64_t k = rs + sub + (int64_t)(t[u] < 0 ? 0 : t[u]) * gg;
                    j[u] = t[u] >= 0 ? __ldg(&ind[k]) : 0;
                    a[u] = t[u] >= 0 ? __ldg(&val[k]) : (T)0;
                }
#pragma unroll
                for (int u = 0; u < 4; u++) v[u] = t[u] >= 0 ? load_relaxed(&X[j[u]]) : (T)0;
#pragma unroll
                for (int u = 0; u < 4; u++)
                    if (t[u] >= 0 && !is_pending(v[u])) {
                        sum += a[u] * v[u];
                        pend &= ~(1ull << t[u]);
                        moved = true;
                    }
            }
        }
        if (!done && pend && max_wait_ns > 0) { /* bounded waits: give up, report the row */
            uint64_t now = global_timer_ns();
            if (stall_since == 0 || moved) stall_since = now;
            else if (now - stall_since > (uint64_t)max_wait_ns) {
                atomicMin(&st->timeout_row, row);
                pend = 0;
            }
        }
        unsigned waiting = __ballot_sync(FULL_MASK, !done && (visited < count || pend != 0));
        bool ready = !done && (waiting & gmask) == 0;
        if (__any_sync(FULL_MASK, ready)) { /* segmented sums of the groups */
            T rsum = sum, rdiag = diag;
#pragma unroll
            for (int o = 1; o < 32; o <<= 1) {
                T ts = __shfl_down_sync(FULL_MASK, rsum, o), td = __shfl_down_sync(FULL_MASK, rdiag, o);
                if (sub + o < gg) {
                    rsum += ts;
                    rdiag += td;
                }
            }
            if (ready && sub == 0) {
                T xi = publishable(unit ? bval - rsum : (bval - rsum) / rdiag);
                store_relaxed(&X[row], xi);
                if (ONE) xout[row] = xi;
            }
            if (ready) {
                done = true;
                moved = true;
            }
        }
        if (backoff_ns && !__any_sync(FULL_MASK, moved)) __nanosleep(backoff_ns);
    }
}

template <typename T>
static cudaError_t launch_packed(cudaStream_t stream, int blocks, bool one, int32_t n, int32_t warps,
                                 const int32_t *warp_first, const int64_t *ptr, const int32_t *ind,
                                 const void *val, int upper, int unit, const void *B, void *X,
                                 void *xout, void *next, domino_solve_status *st_next,
                                 int64_t max_wait_ns, unsigned backoff_ns, domino_solve_status *st)
{
    if (one)
        trsv_packed_kernel<T, true><<<blocks, PACK_THREADS, 0, stream>>>(
            n, warps, warp_first, ptr, ind, (const T *)val, upper, unit, (const T *)B, (T *)X,
            (T *)xout, (T *)next, st_next, max_wait_ns, backoff_ns, st);
    else
        trsv_packed_kernel<T, false><<<blocks, PACK_THREADS, 0, stream>>>(
            n, warps, warp_first, ptr, ind, (const T *)val, upper, unit, (const T *)B, (T *)X, NULL,
            NULL, NULL, max_wait_ns, backoff_ns, st);
    return cudaGetLastError();
}

extern "C" cudaError_t domino_launch_trsv_packed(cudaStream_t stream, domino_type type, int32_t n,
                                                 int32_t warps, const int32_t *warp_first,
                                                 const int64_t *ptr, const int32_t *ind,
                                                 const void *val, int upper, int unit, const void *B,
                                                 void *X, int64_t max_wait_ns, unsigned backoff_ns,
                                                 domino_solve_status *st, const domino_pull_flags *flags)
{
    if (n == 0) return cudaSuccess;
    cudaError_t e = cudaGetLastError(); /* an earlier error is not taken for this launch's */
    if (e) return e;
    if (!flags && (e = domino_launch_fill_pending(stream, type, n, 1, X, n, st))) return e;
    int blocks = (warps + PACK_WARPS - 1) / PACK_WARPS;
    void *xflags = flags ? flags->flags : X, *xout = flags ? X : NULL, *next = flags ? flags->next_flags : NULL;
    domino_solve_status *st_next = flags ? flags->next_st : NULL;
    if (type == DOMINO_FLOAT64)
        return launch_packed<double>(stream, blocks, flags != NULL, n, warps, warp_first, ptr, ind, val,
                                     upper, unit, B, xflags, xout, next, st_next, max_wait_ns,
                                     backoff_ns, st);
    return launch_packed<float>(stream, blocks, flags != NULL, n, warps, warp_first, ptr, ind, val, upper,
                                unit, B, xflags, xout, next, st_next, max_wait_ns, backoff_ns, st);
}

/* The packing on the GPU (domino_pack_rows is its CPU reference): thread c
 * packs logical rows 32c .. 32c + 31.  count[c] = its warps, or
 * PACK_TOO_LONG (negative whatever is added to it) when a row holds more
 * than DOMINO_PACK_MAX_ROW entries; count[chunks] = 0 */
#define PACK_TOO_LONG (-(1LL << 40))

__global__ void pack_count_kernel(int32_t n, const int64_t *__restrict__ ptr, int upper, int32_t chunks,
                                  int64_t *count)
{
    int32_t c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c > chunks) return;
    if (c == chunks) {
        count[c] = 0;
        return;
    }
    int64_t w = 0;
    int lanes = 32;
    bool too_long = false;
    for (int32_t r = c * 32; r < n && r < c * 32 + 32; r++) {
        int32_t row = upper ? n - 1 - r : r;
        int64_t len = __ldg(&ptr[row + 1]) - __ldg(&ptr[row]);
        too_long |= len > DOMINO_PACK_MAX_ROW;
        int g = DOMINO_PACK_LANES(len);
        if (lanes + g > 32) {
            w++;
            lanes = 0;
        }
        lanes += g;
    }
    count[c] = too_long ? PACK_TOO_LONG : w;
}

/* thread c writes the first rows of its warps, from warp off[c] on (off:
 * the exclusive sum of count); the last chunk also ends the list */
__global__ void pack_write_kernel(int32_t n, const int64_t *__restrict__ ptr, int upper, int32_t chunks,
                                  const int64_t *__restrict__ off, int32_t *warp_first)
{
    int32_t c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= chunks) return;
    int64_t w = off[c];
    int lanes = 32;
    for (int32_t r = c * 32; r < n && r < c * 32 + 32; r++) {
        int32_t row = upper ? n - 1 - r : r;
        int g = DOMINO_PACK_LANES(__ldg(&ptr[row + 1]) - __ldg(&ptr[row]));
        if (lanes + g > 32) {
            warp_first[w++] = r;
            lanes = 0;
        }
        lanes += g;
    }
    if (c == chunks - 1) warp_first[w] = n;
}

extern "C" cudaError_t domino_launch_pack_rows(cudaStream_t stream, int32_t n, const int64_t *ptr,
                                               int upper, int64_t *work, void *scan_tmp,
                                               size_t scan_tmp_bytes, int32_t *warp_first,
                                               int32_t *warps)
{
    *warps = -1;
    if (n < 2) return cudaSuccess; /* work holds n + 1 values: chunks + 1 of them from n = 2 */
    int32_t chunks = (n + 31) / 32;
    size_t need = 0;
    cudaError_t e = cub::DeviceScan::ExclusiveSum(NULL, need, work, work, chunks + 1, stream);
    if (e || need > scan_tmp_bytes) return e;
    int threads = 128, blocks = (chunks + 1 + threads - 1) / threads;
    pack_count_kernel<<<blocks, threads, 0, stream>>>(n, ptr, upper, chunks, work);
    if ((e = cudaGetLastError())) return e;
    if ((e = cub::DeviceScan::ExclusiveSum(scan_tmp, need, work, work, chunks + 1, stream))) return e;
    int64_t total = 0;
    if ((e = cudaMemcpyAsync(&total, work + chunks, sizeof(total), cudaMemcpyDeviceToHost, stream)) ||
        (e = cudaStreamSynchronize(stream)))
        return e;
    if (total < 1) return cudaSuccess; /* a row too long */
    pack_write_kernel<<<blocks, threads, 0, stream>>>(n, ptr, upper, chunks, work, warp_first);
    if ((e = cudaGetLastError())) return e;
    *warps = (int32_t)total;
    return cudaSuccess;
}
