/* factor_lines.cu: the line path of the GPU ILU(0) / IC(0) of a stencil
 * matrix (factor_stencil_args in factor_plan.h; factor_stencil.c decides;
 * an experiment, DOMINO_FACTOR_STENCIL=2).
 *
 * The factor is worked in a padded, slot-major copy F: F[s n + i] is the
 * entry of row i at stencil slot s (ILU0: every slot, IC0: the lower ones
 * and the diagonal), 0 where the neighbour lies outside the grid.  Such
 * entries stay 0 (they only ever meet other outside entries), so the
 * arithmetic needs no positions: every row k's entry s is F[s n + k], and
 * the 32 rows of a chunk read a slot of 32 consecutive rows k in one
 * coalesced load.  factor_pad_kernel copies A into F and F into the
 * factor's CSR values.
 *
 * A warp factors a grid line (y, z), a chunk of up to 32 rows (a lane
 * each) at a time; chunks are staggered by (y + 2 z) mod 32 points, so
 * that the chunk of a neighbour line that a chunk waits for ends where it
 * is needed (for the (x + 1, y - 1, z) and (x + 1, y + 1, z - 1) neighbours
 * of a 27-point stencil), not up to 31 points later:
 *  1. the chunk's rows are loaded into shared memory (R[s][lane]), and the
 *     warp waits until every other line the chunk reads has published the
 *     rows it needs (progress[line] >= the last x it reads: a lane a line
 *     polls, relaxed, then fences);
 *  2. every lane applies to its row, all at once, the updates from rows of
 *     other lines (every lower slot but the last same_line ones, whose
 *     columns come first in a row), in the CPU's order;
 *  3. the updates from the rows of its own line (x - 1, x - 2: in shared
 *     memory, the previous chunk's last two rows in columns 32 and 33): for
 *     a stencil of x radius 1 (same_line 1) by a scan of the pivots and
 *     two parallel rounds (line_scan); else, or when the scan's guards say
 *     so, the chunk is walked lane after lane, each row's pivot finished
 *     (checked, replaced or reported) before the next lane reads it;
 *  4. the chunk is stored into F, fenced, and the line's progress published.
 * Lines are ticketed in line_order (every line a line reads has a smaller
 * ticket, factor_stencil.c), and a warp takes a ticket only while it runs:
 * the line it waits on is being factored or done.
 *
 * Arithmetic: the CPU reference's (ref_ilu0.c, ref_ic0.c): each row's
 * updates in increasing column order with __dmul_rn / __dsub_rn and IEEE
 * division, so walked factors equal the CPU's bit for bit
 * (DOMINO_FACTOR_LINES=walk walks every chunk); scanned ones agree to the
 * scan's accuracy (factor_scan.cuh).
 *
 * H100 (bench/results/h100-precond16): D3N27 ILU(0) 64^3 4.4 ms, 192^3
 * 23.1 ms (walked: 10.1, 41.3; the line kernel before the padded form:
 * 44, 145), against 1.8 and 17.7 on the table path: the other lines'
 * updates, row k by row k from L2, still cost about 20 us a chunk. */
#include "factor_scan.cuh"
#include "device_util.cuh"

#include <stdlib.h>
#include <string.h>

#define LINE_WARPS 4         /* warps a block */
#define LINE_COLS 34         /* shared columns a warp: 32 lanes, the two rows before the chunk */
#define LINE_SLEEP_CAP 256   /* back-off cap of the waits, ns */

/* shared column of the row at chunk position p (p >= -2) */
__device__ __forceinline__ int line_col(int p) { return p >= 0 ? p : LINE_COLS + p; }

/* the entries of the factor's slots: ILU0 every slot, IC0 the lower ones and the diagonal */
__device__ __forceinline__ int line_width(const factor_stencil_args &a, int kind)
{
    return kind == 0 ? a.npoints : a.lower + 1;
}

/* unpad 0: F := A (values src, pattern ptr = ptrA, nnz = nnzA), 0 where a
 * neighbour is outside; unpad 1: the factor's CSR values dst (pattern ptr:
 * ILU0 A's, IC0 its lower triangle) := F.  A thread per row and matrix of
 * the batch. */
__global__ void factor_pad_kernel(const factor_stencil_args a, int kind, int unpad, int32_t batch,
                                  const int64_t *__restrict__ ptr, int64_t nnz, const double *src,
                                  double *dst, double *F)
{
    const int64_t n = (int64_t)a.nx * a.ny * a.nz, w = line_width(a, kind);
    for (int64_t t = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; t < n * batch;
         t += (int64_t)gridDim.x * blockDim.x) {
        const int64_t i = t % n, b = t / n;
        const int64_t x = i % a.nx, y = (i / a.nx) % a.ny, z = i / ((int64_t)a.nx * a.ny);
        const uint64_t m = domino_factor_row_mask(&a, x, y, z);
        int64_t q = b * nnz + __ldg(&ptr[i]);
        for (int s = 0; s < w; s++) {
            double *f = &F[(b * w + s) * n + i];
            if (unpad && (m >> s & 1)) dst[q++] = *f;
            else if (!unpad) *f = (m >> s & 1) ? __ldg(&src[q++]) : 0.0;
        }
    }
}

#define LINE_K (FACTOR_STENCIL_LOWER + 1) /* values of row k an update reads, at most */

/* row k's slot s at kv[s * kstride]: shared memory, or global (L2) */
__device__ __forceinline__ double line_value(const double *kv, int64_t kstride, bool shared_k, int s)
{
    return shared_k ? kv[s * kstride] : __ldcg(&kv[s * kstride]);
}

/* ILU(0) update of row i (shared column R + c, mask mi) by row k through
 * slot s1: l = a_ik / u_kk, then a_it -= l u_kj for the columns j > k of
 * row k that row i holds (tab: the target table), in increasing order.
 * Row k's diagonal and upper part are loaded first, all at once. */
__device__ __forceinline__ void line_ilu0(double *R, int c, uint64_t mi, int s1, const double *kv,
                                          int64_t kstride, bool shared_k,
                                          const factor_stencil_args &a, const int8_t *tab)
{
    const int lower = a.lower;
    double u[LINE_K];
#pragma unroll
    for (int q = 0; q < LINE_K; q++)
        u[q] = lower + q < a.npoints ? line_value(kv, kstride, shared_k, lower + q) : 0.0;
    double l = R[s1 * LINE_COLS + c] / u[0];
    R[s1 * LINE_COLS + c] = l;
#pragma unroll
    for (int q = 1; q < LINE_K; q++) {
        if (lower + q >= a.npoints) break;
        int t = tab[s1 * a.npoints + lower + q];
        if (t >= 0 && (mi >> t & 1))
            R[t * LINE_COLS + c] = __dsub_rn(R[t * LINE_COLS + c], __dmul_rn(l, u[q]));
    }
}

/* IC(0): a_ik - sum_j l_ij l_kj for row i (as line_ilu0) and row k (mask
 * mk) through slot s1, over row k's lower columns in increasing order (tab:
 * the IC0 slot table); row k's lower part loaded first, all at once */
__device__ __forceinline__ double line_ic0_sum(const double *R, int c, uint64_t mi, int s1,
                                               uint64_t mk, const double *kv, int64_t kstride,
                                               bool shared_k, const factor_stencil_args &a,
                                               const int8_t *tab)
{
    const int lower = a.lower;
    double lk[LINE_K - 1];
#pragma unroll
    for (int q = 0; q < LINE_K - 1; q++)
        lk[q] = q < lower && (mk >> q & 1) ? line_value(kv, kstride, shared_k, q) : 0.0;
    double sum = R[s1 * LINE_COLS + c];
#pragma unroll
    for (int s2 = 0; s2 < LINE_K - 1; s2++) {
        if (s2 >= lower) break;
        if (!(mk >> s2 & 1)) continue;
        int s3 = tab[s1 * lower + s2];
        if (s3 >= 0 && (mi >> s3 & 1)) sum = __dsub_rn(sum, __dmul_rn(R[s3 * LINE_COLS + c], lk[s2]));
    }
    return sum;
}

/* IC(0) entry l_ik = line_ic0_sum / l_kk of row i; *pivot -= l_ik^2 */
__device__ __forceinline__ void line_ic0(double *R, int c, uint64_t mi, int s1, uint64_t mk,
                                         const double *kv, int64_t kstride, bool shared_k,
                                         const factor_stencil_args &a, const int8_t *tab,
                                         double *pivot)
{
    double sum = line_ic0_sum(R, c, mi, s1, mk, kv, kstride, shared_k, a, tab);
    double l = sum / line_value(kv, kstride, shared_k, a.lower);
    R[s1 * LINE_COLS + c] = l;
    *pivot = __dsub_rn(*pivot, __dmul_rn(l, l));
}

/* The in-line part of a chunk by a scan (same_line 1, x radius 1): after
 * the other lines' updates, row i's in-line L entry is s_i / d_{i-1} and
 * its pivot d_i = P_i - q_i / d_{i-1}, q_i = s_i u_{i-1,i} (IC0: s_i^2),
 * where s_i, P_i and u_{i-1,i} (never touched by an in-line update:
 * column i is not in row i-2) are final: a Moebius recurrence, scanned
 * (factor_scan.cuh) on pivots scaled by the power of two of P_i.  Each
 * lane then evaluates its pivot by the CPU's formula from its
 * predecessor's, and (ILU0) applies l to its other in-line targets in two
 * rounds: those whose source in row i - 1 has dx = +1 (final), then dx = 0
 * (final after round one).  False (nothing written) when the chunk's
 * relative error growth passes 2^SCAN_GROWTH or it holds a bad pivot: the
 * caller walks it.  *dlast: the lane's pivot d_i; carry_d, carry_inv: the
 * previous chunk's last pivot and 1 / a power of two near it. */
template <int KIND>
__device__ __forceinline__ bool line_scan(double *R, int lane, bool active, uint64_t mi,
                                          uint64_t mprev, double pivot, int rows,
                                          const factor_stencil_args &a, const int8_t *tab,
                                          double *dlast, const double *carry_d, const double *carry_inv)
{
    const int lower = a.lower, in = lower - 1, up1 = lower + 1, pc = line_col(lane - 1);
    const bool has = active && (mi >> in & 1);
    double sv = 0.0, z = 0.0, P;
    if (KIND == 0) {
        P = R[lower * LINE_COLS + lane];
        if (has) {
            sv = R[in * LINE_COLS + lane];
            z = R[up1 * LINE_COLS + pc];
        }
    } else {
        P = pivot;
        if (has) sv = line_ic0_sum(R, lane, mi, in, mprev, R + pc, LINE_COLS, true, a, tab);
    }
    double sig, inv;
    scan_scale(P, &sig, &inv);
    const double inv_up = __shfl_up_sync(SCAN_FULL, inv, 1), inv_prev = lane > 0 ? inv_up : *carry_inv;
    const double qs = (sv * inv) * ((KIND == 0 ? z : sv) * inv_prev);
    double num, den;
    scan_mobius(P * inv, qs, active, *carry_d * *carry_inv, &num, &den);
    const double D = num / den * sig, up = __shfl_up_sync(SCAN_FULL, D, 1);
    const double prev = lane > 0 ? up : *carry_d;
    double l = 0.0, d = P;
    if (has) {
        l = KIND == 0 ? sv / prev : sv / sqrt(prev);
        d = __dsub_rn(P, __dmul_rn(l, KIND == 0 ? z : l));
    }
    if (scan_walk_vote(scan_growth_bits<KIND>(P, d, prev, has, active))) return false;
    if (active) {
        if (has) R[in * LINE_COLS + lane] = l;
        R[lower * LINE_COLS + lane] = KIND == 0 ? d : sqrt(d);
    }
    if (KIND == 0)
        for (int dx = 1; dx >= 0; dx--) { /* the rounds */
            __syncwarp();
            if (!has) continue;
#pragma unroll
            for (int q = 1; q < LINE_K; q++) {
                const int s2 = lower + q;
                if (s2 >= a.npoints) break;
                const int t = tab[in * a.npoints + s2];
                if (a.dxyz[s2][0] != dx || t < 0 || t == lower || !(mi >> t & 1)) continue;
                R[t * LINE_COLS + lane] = __dsub_rn(R[t * LINE_COLS + lane], __dmul_rn(l, R[s2 * LINE_COLS + pc]));
            }
        }
    *dlast = d;
    return true;
}

/* KIND 0 ILU0, 1 IC0 on F (batch matrices of w x n, w = line_width);
 * progress: lines x batch words, all -1 on entry */
template <int KIND>
__global__ void __launch_bounds__(32 * LINE_WARPS)
factor_lines_kernel(const factor_stencil_args a, int32_t batch, double *F,
                    const int32_t *__restrict__ line_order, int32_t *progress, double pivot_shift,
                    int scan, domino_factor_status *st)
{
    extern __shared__ double line_smem[];
    __shared__ int8_t tab[FACTOR_STENCIL_LOWER * FACTOR_STENCIL_SLOTS];
    for (int q = threadIdx.x; q < FACTOR_STENCIL_LOWER * FACTOR_STENCIL_SLOTS; q += blockDim.x)
        tab[q] = KIND == 0 ? a.target[q] : a.slot[q];
    __syncthreads();
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, lower = a.lower;
    const int w = KIND == 0 ? a.npoints : lower + 1, other = lower - a.same_line;
    double *R = line_smem + (int64_t)warp * w * LINE_COLS;
    const int64_t lines = (int64_t)a.ny * a.nz, n = lines * a.nx;
    const uint64_t wmask = domino_factor_below(w);
    for (;;) {
        unsigned long long t = 0;
        if (lane == 0) t = atomicAdd(&st->ticket, 1ULL);
        t = __shfl_sync(0xffffffffu, t, 0);
        if (t >= (unsigned long long)lines * batch) return;
        const int32_t line = __ldg(&line_order[t / batch]), b = (int32_t)(t % batch);
        const int32_t y = line % a.ny, z = line / a.ny;
        double *Fb = F + (int64_t)b * w * n;
        int32_t *prog = progress + (int64_t)b * lines;
        const uint64_t myz = domino_factor_line_mask(&a, y, z) & wmask;
        const int stagger = (y + 2 * z) & 31;
        double carry_d = 1.0, carry_inv = 1.0; /* line_scan's carry */
        /* lane q < nlines: other line q */
        int32_t qy = y, qz = z;
        bool qlive = false;
        if (lane < a.nlines) {
            qy = y + a.line_dy[lane];
            qz = z + a.line_dz[lane];
            qlive = qy >= 0 && qy < a.ny && qz >= 0 && qz < a.nz;
        }
        for (int32_t xs = 0, xe = stagger ? 32 - stagger : 32; xs < a.nx; xs = xe, xe += 32) {
            if (xe > a.nx) xe = a.nx;
            const int rows = xe - xs;
            const bool active = lane < rows;
            const int32_t x = active ? xs + lane : xs;
            const int64_t i = (int64_t)line * a.nx + x;
            const uint64_t mi = active ? domino_factor_x_mask(&a, x) & myz : 0;
            /* 1. the chunk into shared memory (the previous chunk's stores
             * and copies are done: __syncwarp at its end), then the waits */
            for (int s = 0; s < w; s++) R[s * LINE_COLS + lane] = active ? Fb[s * n + i] : 0.0;
            if (qlive) {
                int32_t need = xe - 1 + a.line_dx[lane] < a.nx - 1 ? xe - 1 + a.line_dx[lane] : a.nx - 1;
                const int32_t *f = prog + qy + a.ny * qz;
                unsigned ns = 32;
                while (load_relaxed_i32(f) < need) {
                    __nanosleep(ns);
                    if (ns < LINE_SLEEP_CAP) ns <<= 1;
                }
                __threadfence();
            }
            __syncwarp();
            /* 2. the updates from the other lines, every lane its row */
            double pivot = KIND == 1 ? R[lower * LINE_COLS + lane] : 0.0; /* IC0: a_ii - sum l_ik^2 */
            if (active)
                for (int s1 = 0; s1 < other; s1++) {
                    if (!(mi >> s1 & 1)) continue;
                    const int64_t k = i + a.offset[s1];
                    if (KIND == 0) {
                        line_ilu0(R, lane, mi, s1, Fb + k, n, false, a, tab);
                    } else {
                        const uint64_t mk = domino_factor_row_mask(&a, x + a.dxyz[s1][0], y + a.dxyz[s1][1],
                                                                   z + a.dxyz[s1][2]) & wmask;
                        line_ic0(R, lane, mi, s1, mk, Fb + k, n, false, a, tab, &pivot);
                    }
                }
            /* 3. the updates from this line: by a scan, or lane after lane, and the pivots */
            double dlast = 0.0;
            const uint64_t mprev = active && x > 0 ? domino_factor_x_mask(&a, x - 1) & myz : 0;
            const bool scanned = scan && line_scan<KIND>(R, lane, active, mi, mprev, pivot, rows, a, tab,
                                                         &dlast, &carry_d, &carry_inv);
            if (scan && !scanned && lane == 0) atomicAdd(&st->walked, 1ULL);
            for (int j = 0; j < (scanned ? 0 : rows); j++) {
                __syncwarp();
                if (lane != j) continue;
                for (int s1 = other; s1 < lower; s1++) {
                    if (!(mi >> s1 & 1)) continue;
                    const int dx = a.dxyz[s1][0];
                    const double *kv = R + line_col(lane + dx);
                    if (KIND == 0) {
                        line_ilu0(R, lane, mi, s1, kv, LINE_COLS, true, a, tab);
                    } else {
                        const uint64_t mk = domino_factor_x_mask(&a, x + dx) & myz;
                        line_ic0(R, lane, mi, s1, mk, kv, LINE_COLS, true, a, tab, &pivot);
                    }
                }
                double p = KIND == 0 ? R[lower * LINE_COLS + lane] : pivot;
                bool bad = KIND == 0 ? !(p != 0.0 && isfinite(p)) : (!(p > 0.0) || !isfinite(p));
                if (bad && pivot_shift != 0.0) {
                    p = pivot_shift;
                    atomicAdd(&st->replaced, 1ULL);
                } else if (bad) {
                    atomicMin(&st->bad_pivot, (long long)b * n + i);
                }
                R[lower * LINE_COLS + lane] = KIND == 0 ? p : sqrt(p);
                dlast = p;
            }
            if (scan) { /* the next chunk's carry: this one's last pivot, 1 / its scale */
                double sg;
                carry_d = __shfl_sync(0xffffffffu, dlast, rows - 1);
                scan_scale(carry_d, &sg, &carry_inv);
            }
            __syncwarp();
            /* 4. the chunk into F; its last two rows to columns 32, 33; the progress */
            if (active)
                for (int s = 0; s < w; s++) Fb[s * n + i] = R[s * LINE_COLS + lane];
            double last[2] = {0.0, 0.0}, before[2] = {0.0, 0.0}; /* slots lane, lane + 32 */
            for (int q = 0; q < 2; q++) {
                const int s = lane + 32 * q;
                if (s >= w) continue;
                last[q] = R[s * LINE_COLS + rows - 1];
                before[q] = rows >= 2 ? R[s * LINE_COLS + rows - 2] : R[s * LINE_COLS + 33];
            }
            __syncwarp();
            for (int q = 0; q < 2; q++) {
                const int s = lane + 32 * q;
                if (s >= w) continue;
                R[s * LINE_COLS + 33] = last[q];
                R[s * LINE_COLS + 32] = before[q];
            }
            __threadfence();
            __syncwarp();
            if (lane == 0) store_relaxed_i32(&prog[line], xe - 1);
        }
    }
}

/* dynamic shared memory of a block of the line kernel */
static size_t lines_smem(const factor_stencil_args *a)
{
    return (size_t)LINE_WARPS * LINE_COLS * (size_t)a->npoints * sizeof(double);
}

extern "C" cudaError_t domino_launch_factor_lines(cudaStream_t stream, int kind, int num_sms,
                                                  const factor_stencil_args *a, int32_t batch,
                                                  const int64_t *ptrA, int64_t nnzA,
                                                  const double *valA, const int64_t *ptr, int64_t nnz,
                                                  double *val, double *padded,
                                                  const int32_t *line_order, int32_t *progress,
                                                  double pivot_shift, domino_factor_status *st)
{
    void (*k)(const factor_stencil_args, int32_t, double *, const int32_t *, int32_t *, double, int,
              domino_factor_status *) = kind == 0 ? factor_lines_kernel<0> : factor_lines_kernel<1>;
    const char *env = getenv("DOMINO_FACTOR_LINES"); /* "walk": no scan (the CPU's factors bit for bit) */
    const int scan = a->same_line == 1 && a->rad[0] == 1 && !(env && strcmp(env, "walk") == 0);
    size_t smem = lines_smem(a);
    cudaError_t e = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    int per_sm = 0;
    if (!e) e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, 32 * LINE_WARPS, smem);
    if (e) return e;
    if (per_sm < 1) return cudaErrorInvalidConfiguration;
    const int64_t n = (int64_t)a->nx * a->ny * a->nz;
    int64_t work = (n * batch + 255) / 256, grid = work < 65535 ? work : 65535;
    int64_t tasks = (int64_t)a->ny * a->nz * batch, blocks = (int64_t)per_sm * num_sms;
    if (blocks > (tasks + LINE_WARPS - 1) / LINE_WARPS) blocks = (tasks + LINE_WARPS - 1) / LINE_WARPS;
    if (blocks < 1 || grid < 1) return cudaSuccess;
    factor_pad_kernel<<<(unsigned)grid, 256, 0, stream>>>(*a, kind, 0, batch, ptrA, nnzA, valA, NULL,
                                                         padded);
    k<<<(unsigned)blocks, 32 * LINE_WARPS, smem, stream>>>(*a, batch, padded, line_order, progress,
                                                           pivot_shift, scan, st);
    factor_pad_kernel<<<(unsigned)grid, 256, 0, stream>>>(*a, kind, 1, batch, ptr, nnz, NULL, val, padded);
    return cudaGetLastError();
}
