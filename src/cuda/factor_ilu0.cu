/* factor_ilu0.cu: synchronization-free ("domino") ILU(0) and IC(0) on the
 * GPU in one launch, and the pattern kernels of their analysis.
 *
 * A group of 4-32 lanes per row (factor_lanes in factor_plan.c: a warp,
 * or fewer lanes on matrices of millions of rows); a group takes its logical row from an atomic ticket (row-major
 * over rows x batch: ticket t is row order[t / batch] of matrix t % batch),
 * never from blockIdx.  order lists the rows by level of the
 * lower triangle (the analysis computes it once per pattern; on a D3N27
 * box, by the key x + 2 y + 4 z with -1 padding, factor_stencil.c), so every row
 * a row waits for holds a smaller ticket and was taken by a warp that is
 * already running (or by an earlier group of its own warp): no deadlock whatever the scheduling.  Row i waits only
 * for the rows k < i it reads.  Level order, rather than natural order,
 * keeps whole wavefronts inside the window of resident warps (in natural
 * order a 3D grid row waits on its x-neighbour and the window advances
 * about one row per dependency latency per grid line in it).
 *
 * Memory model: every value of the factor is published once, final, by a
 * relaxed GPU-scope store into val, which holds the pending sentinel until
 * then (device_util.cuh): the value is its own ready flag, so there is no
 * fence, no separate flag and no second load after a flag on the critical
 * path.  A row's working values live in work, private to its group: lanes
 * exchange them through global memory separated by __syncwarp on the
 * group's mask (which orders memory among those lanes).  ILU(0) publishes
 * a row's U part (the only part other rows read) when the row is done;
 * IC(0) publishes each l_ik as it is computed and the diagonal last.
 *
 * Arithmetic: the CPU reference's (src/ref/ref_ilu0.c, ref_ic0.c), with
 * __dmul_rn / __dsub_rn so that no multiply-add is fused: ILU(0) updates each
 * entry in the same order (k increasing) and matches the CPU bitwise; IC(0)
 * sums each inner product by a reduction over the group (order differs:
 * equal to rounding). */
#include "factor_plan.h"
#include "device_util.cuh"

#include <cub/cub.cuh>
#include <limits.h>
#include <stdlib.h>

#define FACTOR_WARPS_PER_BLOCK 8
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ void factor_status_reset(domino_factor_status *st)
{
    st->ticket = 0;
    st->replaced = 0;
    st->walked = 0;
    st->bad_pivot = LLONG_MAX;
    st->missing_diag = INT32_MAX;
    st->unsorted_row = INT32_MAX;
    st->stencil_mismatch = INT32_MAX;
    st->line_mismatch = INT32_MAX;
}

__global__ void factor_status_reset_kernel(domino_factor_status *st) { factor_status_reset(st); }

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

/* row i of A's lower triangle (its first ptrL[i + 1] - ptrL[i] entries)
 * into valL, every matrix of the batch; PENDING: its factor val made
 * pending there (a compile-time choice: tested in the loop, it cost the
 * set-up kernel a fifth more instructions) */
template <bool PENDING>
__device__ __forceinline__ void tril_gather_row(int64_t i, int32_t batch, const int64_t *__restrict__ ptr,
                                                int64_t nnzA, const double *__restrict__ valA,
                                                const int64_t *__restrict__ ptrL, int64_t nnzL, double *valL,
                                                double *val)
{
    const int64_t q0 = ptrL[i], len = ptrL[i + 1] - q0, p0 = ptr[i];
    for (int32_t b = 0; b < batch; b++)
        for (int64_t t = 0; t < len; t++) {
            valL[b * nnzL + q0 + t] = valA[b * nnzA + p0 + t];
            if (PENDING) make_pending(&val[b * nnzL + q0 + t]);
        }
}

__global__ void tril_gather_kernel(int32_t n, int32_t batch, const int64_t *__restrict__ ptr,
                                   int64_t nnzA, const double *__restrict__ valA,
                                   const int64_t *__restrict__ ptrL, int64_t nnzL, double *valL)
{
    int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    tril_gather_row<false>(i, batch, ptr, nnzA, valA, ptrL, nnzL, valL, NULL);
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

/* The row kernel's set-up in one launch: the working values (ILU(0):
 * A's, element by element, nnz == nnzA; IC(0): A's lower triangle, a
 * thread a row, as tril_gather_kernel), the factor pending, the status
 * reset (thread 0).  Grid-stride.  Before, three launches (the copy, the
 * pending pass, the reset): H200, crack 0.049-0.055 -> 0.044-0.048 ms
 * (h200-ilu-lines28/prepare). */
__global__ void factor_prepare_kernel(int ic0, int32_t n, int32_t batch, const int64_t *__restrict__ ptrA,
                                      int64_t nnzA, const double *__restrict__ valA,
                                      const int64_t *__restrict__ ptr, int64_t nnz, double *work, double *val,
                                      domino_factor_status *st)
{
    const int64_t first = blockIdx.x * (int64_t)blockDim.x + threadIdx.x, stride = (int64_t)gridDim.x * blockDim.x;
    if (first == 0) factor_status_reset(st);
    if (!ic0) {
        for (int64_t k = first; k < (int64_t)batch * nnz; k += stride) {
            work[k] = valA[k];
            make_pending(&val[k]);
        }
        return;
    }
    for (int64_t i = first; i < n; i += stride) tril_gather_row<true>(i, batch, ptrA, nnzA, valA, ptr, nnz, work, val);
}

extern "C" cudaError_t domino_launch_factor_prepare(cudaStream_t stream, int ic0, int32_t n, int32_t batch,
                                                    const int64_t *ptrA, int64_t nnzA, const double *valA,
                                                    const int64_t *ptr, int64_t nnz, double *work, double *val,
                                                    domino_factor_status *st)
{
    const int64_t items = ic0 ? (int64_t)n : (int64_t)batch * nnz;
    int64_t blocks = (items + 255) / 256;
    if (blocks < 1) blocks = 1;
    if (blocks > 8192) blocks = 8192;
    factor_prepare_kernel<<<(unsigned)blocks, 256, 0, stream>>>(ic0, n, batch, ptrA, nnzA, valA, ptr, nnz, work,
                                                                 val, st);
    return cudaGetLastError();
}

/* thread per row (grid-stride): row i of grid a must hold exactly the
 * columns i + a.offset[s] of the bits s of its mask below a.width, in
 * order; an interior row (all bits) that does not is reported in
 * stencil_mismatch, any row in line_mismatch */
__global__ void factor_stencil_check_kernel(const int64_t *__restrict__ ptr,
                                            const int32_t *__restrict__ ind,
                                            const factor_stencil_args a, domino_factor_status *st)
{
    const int64_t n = (int64_t)a.nx * a.ny * a.nz, stride = (int64_t)gridDim.x * blockDim.x;
    const uint64_t all = a.npoints >= 64 ? ~0ULL : (1ULL << a.npoints) - 1;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += stride) {
        int64_t x = i % a.nx, y = (i / a.nx) % a.ny, z = i / ((int64_t)a.nx * a.ny);
        uint64_t m = domino_factor_row_mask(&a, x, y, z);
        int64_t q = __ldg(&ptr[i]), end = __ldg(&ptr[i + 1]);
        bool bad = false;
        for (int s = 0; s < a.width && !bad; s++)
            if (m >> s & 1) bad = q >= end || __ldg(&ind[q++]) != i + a.offset[s];
        bad = bad || q != end;
        if (bad) {
            atomicMin(&st->line_mismatch, (int32_t)i);
            if ((m & all) == all) atomicMin(&st->stencil_mismatch, (int32_t)i);
        }
    }
}

extern "C" cudaError_t domino_launch_factor_stencil_check(cudaStream_t stream, const int64_t *ptr,
                                                          const int32_t *ind,
                                                          const factor_stencil_args *a,
                                                          domino_factor_status *st)
{
    int64_t blocks = ((int64_t)a->nx * a->ny * a->nz + 255) / 256;
    if (blocks < 1) blocks = 1;
    if (blocks > 8192) blocks = 8192;
    factor_stencil_check_kernel<<<(unsigned)blocks, 256, 0, stream>>>(ptr, ind, *a, st);
    return cudaGetLastError();
}

/* val := pending; grid-stride */
__global__ void factor_pending_kernel(int64_t count, double *val)
{
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; k < count; k += stride)
        make_pending(&val[k]);
}

extern "C" cudaError_t domino_launch_factor_pending(cudaStream_t stream, int64_t count, double *val)
{
    if (count == 0) return cudaSuccess;
    int64_t blocks = (count + 255) / 256;
    if (blocks > 8192) blocks = 8192;
    factor_pending_kernel<<<(unsigned)blocks, 256, 0, stream>>>(count, val);
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

/* polls of published values back off from 32 ns up to this (default of
 * the launch's cap; DOMINO_FACTOR_POLL overrides it).  With the cheaper
 * rounds of wait_pending_pinned (bench/results/h100-precond17/cap/): 64
 * against 256 made whitaker3 and luxembourg 5-18% faster, D3N27 64^3-192^3
 * within 1% (1024 lost up to 2.2x on the real matrices) */
#define FACTOR_SLEEP_CAP 64

extern "C" int domino_factor_poll_cap(void)
{
    const char *env = getenv("DOMINO_FACTOR_POLL"); /* experiments */
    return env && atoi(env) >= 32 && atoi(env) <= 1000000 ? atoi(env) : FACTOR_SLEEP_CAP;
}

/* sum of v over the LANES lanes of a row's group (mask gmask), in a fixed
 * shuffle order */
template <int LANES> __device__ __forceinline__ double group_sum(double v, unsigned gmask)
{
#pragma unroll
    for (int o = LANES / 2; o > 0; o >>= 1) v += __shfl_xor_sync(gmask, v, o);
    return v;
}

/* Entries of the pattern a lane looks up before it waits (positions held
 * in registers): the lookups need only the pattern, so the binary searches
 * run while row k is still being factorized and, once its values are
 * published, only their (re)loads remain on the critical path; entries past
 * these are looked up after the wait. */
#define FACTOR_HELD 2

/* ILU(0), IKJ, row i of one matrix (w its working values, v its published
 * factor) by the LANES lanes gmask of a group, gl the lane's place in it;
 * leaves the row's final values in w (the L part also in v).  tab: NULL,
 * or the stencil path's ILU0 table when row i is deep (factor_plan.h; its
 * entries width per row, lower left of the diagonal): then the entry of
 * row k an entry of row i meets is read from it, not searched for. */
template <int LANES>
__device__ void ilu0_row(int32_t i, const int64_t *__restrict__ ptr,
                         const int32_t *__restrict__ ind, const int64_t *__restrict__ diag,
                         double *w, double *v, int gl, unsigned gmask, int cap,
                         const int8_t *tab, int width, int lower)
{
    int64_t p0 = __ldg(&ptr[i]), p1 = __ldg(&ptr[i + 1]), di = __ldg(&diag[i]);
    for (int64_t e = p0; e < di; e++) {
        int32_t k = __ldg(&ind[e]);
        int64_t dk = __ldg(&diag[k]), kend = tab ? 0 : __ldg(&ptr[k + 1]);
        /* the table's row of slot e - p0 (by slot of row i); row k starts
         * at dk - lower */
        const int8_t *trow = tab ? tab + (e - p0) * width : NULL;
        const int64_t k0 = dk - lower;
        /* before the wait: where this lane's entries t of row i sit in row
         * k (slot FACTOR_HELD: u_kk, every lane) and their working values */
        int64_t f[FACTOR_HELD + 1];
        double a_it[FACTOR_HELD], u_kt[FACTOR_HELD + 1];
#pragma unroll
        for (int u = 0; u < FACTOR_HELD; u++) {
            int64_t t = e + 1 + gl + (int64_t)u * LANES;
            f[u] = t >= p1 ? -1
                   : trow  ? (trow[t - p0] >= 0 ? k0 + trow[t - p0] : -1)
                           : find_column(ind, dk + 1, kend, __ldg(&ind[t]));
            a_it[u] = f[u] >= 0 ? w[t] : 0.0;
        }
        f[FACTOR_HELD] = dk;
        double a_ie = w[e];
#pragma unroll
        for (int u = 0; u <= FACTOR_HELD; u++)
            u_kt[u] = f[u] >= 0 ? load_relaxed(&v[f[u]]) : 0.0;
        wait_pending_pinned<double, int64_t, FACTOR_HELD + 1>(v, f, u_kt, cap);
        double l_ik = a_ie / u_kt[FACTOR_HELD]; /* IEEE division, as on the CPU */
#pragma unroll
        for (int u = 0; u < FACTOR_HELD; u++) {
            int64_t t = e + 1 + gl + (int64_t)u * LANES;
            if (f[u] >= 0) w[t] = __dsub_rn(a_it[u], __dmul_rn(l_ik, u_kt[u]));
        }
        for (int64_t t = e + 1 + gl + (int64_t)FACTOR_HELD * LANES; t < p1; t += LANES) {
            int64_t g = trow ? (trow[t - p0] >= 0 ? k0 + trow[t - p0] : -1)
                             : find_column(ind, dk + 1, kend, __ldg(&ind[t]));
            if (g >= 0) w[t] = __dsub_rn(w[t], __dmul_rn(l_ik, wait_published(v, g)));
        }
        if (gl == 0) {
            w[e] = l_ik;
            v[e] = l_ik; /* final; no other row reads the L part */
        }
        __syncwarp(gmask);
    }
}

/* IC(0), left-looking, row i of one matrix on the tril pattern (diagonal
 * last), by a group of LANES lanes; publishes each l_ik; returns the pivot
 * d = a_ii - sum l_ik^2 (same in every lane of the group).  tab: NULL, or
 * the stencil path's IC0 table when row i is deep (lower entries left of
 * the diagonal of a row): the entry of row i an entry of row k meets is
 * read from it. */
template <int LANES>
__device__ double ic0_row(int32_t i, const int64_t *__restrict__ ptr,
                          const int32_t *__restrict__ ind, const int64_t *__restrict__ diag,
                          double *w, double *v, int gl, unsigned gmask, int cap,
                          const int8_t *tab, int lower)
{
    int64_t p0 = __ldg(&ptr[i]), di = __ldg(&diag[i]);
    double pivot = w[di];
    for (int64_t e = p0; e < di; e++) {
        int32_t k = __ldg(&ind[e]);
        int64_t k0 = __ldg(&ptr[k]), dk = __ldg(&diag[k]);
        /* the table's row of slot e - p0 (by slot of row k) */
        const int8_t *trow = tab ? tab + (e - p0) * lower : NULL;
        /* before the wait: this lane's entries f of row k that row i shares
         * (slot FACTOR_HELD: l_kk, every lane) and the final l_ij they meet */
        int64_t f[FACTOR_HELD + 1];
        double l_ij[FACTOR_HELD], l_kf[FACTOR_HELD + 1];
#pragma unroll
        for (int u = 0; u < FACTOR_HELD; u++) {
            int64_t fk = k0 + gl + (int64_t)u * LANES;
            int64_t g = fk >= dk ? -1
                        : trow   ? (trow[fk - k0] >= 0 ? p0 + trow[fk - k0] : -1)
                                 : find_column(ind, p0, e, __ldg(&ind[fk]));
            f[u] = g >= 0 ? fk : -1;
            l_ij[u] = g >= 0 ? w[g] : 0.0;
        }
        f[FACTOR_HELD] = dk;
        double a_ik = w[e], part = 0.0;
#pragma unroll
        for (int u = 0; u <= FACTOR_HELD; u++)
            l_kf[u] = f[u] >= 0 ? load_relaxed(&v[f[u]]) : 0.0;
        wait_pending_pinned<double, int64_t, FACTOR_HELD + 1>(v, f, l_kf, cap);
#pragma unroll
        for (int u = 0; u < FACTOR_HELD; u++)
            if (f[u] >= 0) part = __dadd_rn(part, __dmul_rn(l_ij[u], l_kf[u]));
        for (int64_t fk = k0 + gl + (int64_t)FACTOR_HELD * LANES; fk < dk; fk += LANES) {
            int64_t g = trow ? (trow[fk - k0] >= 0 ? p0 + trow[fk - k0] : -1)
                             : find_column(ind, p0, e, __ldg(&ind[fk])); /* l_ij, j < k, final */
            if (g >= 0) part = __dadd_rn(part, __dmul_rn(w[g], wait_published(v, fk)));
        }
        part = group_sum<LANES>(part, gmask);
        double l_ik = __dsub_rn(a_ik, part) / l_kf[FACTOR_HELD];
        pivot = __dsub_rn(pivot, __dmul_rn(l_ik, l_ik));
        if (gl == 0) {
            w[e] = l_ik;
            store_relaxed(&v[e], publishable(l_ik));
        }
        __syncwarp(gmask);
    }
    return pivot;
}

/* A group of LANES lanes per row, 32 / LANES rows per warp: a warp takes
 * 32 / LANES consecutive tickets, group g the g-th.  A row waits only on
 * values of rows of smaller tickets (the order is topological), held by
 * warps already running or by an earlier group of its own warp, which keeps
 * running while this group spins (independent thread scheduling, sm_70 on).
 * With a warp per row a 3D mesh kept too few rows in flight: rows of 7-27
 * entries left most lanes idle while the resident warps bounded the rows
 * waiting.  A bad pivot is replaced (pivot_shift != 0) before the diagonal
 * is published, or published as it is and reported.  With a stencil path
 * (sa.nx > 0) the block copies its table into shared memory first, and deep
 * rows look their entries up there. */
template <int KIND, int LANES, bool STENCIL>
__global__ void __launch_bounds__(32 * FACTOR_WARPS_PER_BLOCK)
factor_kernel(int32_t n, int32_t batch, const int64_t *__restrict__ ptr,
              const int32_t *__restrict__ ind, const int64_t *__restrict__ diag,
              const int32_t *__restrict__ order, int64_t tickets, int64_t nnz, double *work,
              double *val, double pivot_shift, int cap, const factor_stencil_args sa,
              domino_factor_status *st)
{
    __shared__ int8_t tab[FACTOR_STENCIL_LOWER * FACTOR_STENCIL_SLOTS];
    if (STENCIL) {
        for (int q = threadIdx.x; q < sa.lower * sa.width; q += blockDim.x)
            tab[q] = sa.slot[q];
        __syncthreads();
    }
    int lane = threadIdx.x & 31;
    int gl = lane % LANES; /* the lane's place in its row's group */
    unsigned gmask = LANES == 32 ? FULL_MASK : ((1u << LANES) - 1u) << (lane - gl);
    unsigned long long t0 = 0;
    if (lane == 0) t0 = atomicAdd(&st->ticket, (unsigned long long)(32 / LANES));
    unsigned long long t = __shfl_sync(FULL_MASK, t0, 0) + (unsigned long long)(lane / LANES);
    if (t >= (unsigned long long)tickets * (unsigned long long)batch) return;
    int32_t i = __ldg(&order[t / (unsigned long long)batch]);
    if (i < 0) return; /* padding of the key order: no row */
    int32_t b = (int32_t)(t % (unsigned long long)batch);
    double *w = work + (int64_t)b * nnz, *v = val + (int64_t)b * nnz;
    int64_t di = __ldg(&diag[i]);
    double pivot;
    bool bad;
    const int8_t *rtab = STENCIL && domino_factor_stencil_deep(&sa, i) ? tab : NULL;
    if (KIND == 0) {
        ilu0_row<LANES>(i, ptr, ind, diag, w, v, gl, gmask, cap, rtab, sa.width, sa.lower);
        pivot = w[di];
        bad = !(pivot != 0.0 && isfinite(pivot));
    } else {
        pivot = ic0_row<LANES>(i, ptr, ind, diag, w, v, gl, gmask, cap, rtab, sa.lower);
        bad = !(pivot > 0.0) || !isfinite(pivot);
    }
    if (bad && pivot_shift != 0.0) pivot = pivot_shift;
    if (KIND == 1) pivot = sqrt(pivot);
    if (KIND == 0) { /* the U part, the diagonal first */
        for (int64_t t = di + gl; t < __ldg(&ptr[i + 1]); t += LANES)
            store_relaxed(&v[t], publishable(t == di ? pivot : w[t]));
    } else if (gl == 0) {
        store_relaxed(&v[di], publishable(pivot));
    }
    if (gl == 0 && bad) {
        if (pivot_shift == 0.0) atomicMin(&st->bad_pivot, (long long)b * n + i);
        else atomicAdd(&st->replaced, 1ULL);
    }
}

/* the kernel of KIND for lanes per row 4, 8, 16 or 32, with or without the
 * stencil path */
typedef void (*factor_kernel_fn)(int32_t, int32_t, const int64_t *, const int32_t *,
                                 const int64_t *, const int32_t *, int64_t, int64_t, double *, double *,
                                 double, int, const factor_stencil_args,
                                 domino_factor_status *);
template <int KIND, bool STENCIL> static factor_kernel_fn factor_kernel_of(int lanes)
{
    switch (lanes) {
    case 4: return factor_kernel<KIND, 4, STENCIL>;
    case 8: return factor_kernel<KIND, 8, STENCIL>;
    case 16: return factor_kernel<KIND, 16, STENCIL>;
    default: return factor_kernel<KIND, 32, STENCIL>;
    }
}

extern "C" cudaError_t domino_launch_factor(cudaStream_t stream, int kind, int32_t n,
                                            int32_t batch, const int64_t *ptr, const int32_t *ind,
                                            const int64_t *diag, const int32_t *order,
                                            int64_t tickets, int64_t nnz, double *work, double *val,
                                            double pivot_shift, domino_factor_status *st, int lanes,
                                            const factor_stencil_args *stencil)
{
    if (lanes != 4 && lanes != 8 && lanes != 16) lanes = 32;
    int64_t rows = tickets * batch, rows_per_warp = 32 / lanes;
    if (rows == 0) return cudaSuccess;
    int64_t warps = (rows + rows_per_warp - 1) / rows_per_warp;
    int64_t blocks = (warps + FACTOR_WARPS_PER_BLOCK - 1) / FACTOR_WARPS_PER_BLOCK;
    if (blocks > INT32_MAX) return cudaErrorInvalidValue;
    /* the stencil path is an instance of its own: its tables cost the
     * searching kernel registers (ILU(0) 46 -> 61, 5 blocks an SM -> 4) and
     * 9% of its time on D3N27 (h100-precond13) */
    int sten = stencil->nx > 0;
    factor_kernel_fn k = kind == 0 ? (sten ? factor_kernel_of<0, true>(lanes) : factor_kernel_of<0, false>(lanes))
                                   : (sten ? factor_kernel_of<1, true>(lanes) : factor_kernel_of<1, false>(lanes));
    int cap = domino_factor_poll_cap();
    k<<<(unsigned)blocks, 32 * FACTOR_WARPS_PER_BLOCK, 0, stream>>>(n, batch, ptr, ind, diag, order,
                                                                    tickets, nnz, work, val, pivot_shift,
                                                                    cap, *stencil, st);
    return cudaGetLastError();
}
