/* factor_lines.cu: the line path of the GPU ILU(0) / IC(0) of a stencil
 * matrix (factor_stencil_args in factor_plan.h; factor_stencil.c decides).
 *
 * A warp factors a grid line (y, z), 32 rows (one a lane) at a time, a
 * chunk:
 *  1. it loads the chunk's initial values into shared memory (consecutive
 *     rows: one range of the factor), and waits until every other line the
 *     chunk reads has published the rows it needs (progress[line] >= the
 *     last x it reads: a lane a line polls, relaxed, then fences);
 *  2. the lanes apply, each to its row and all at once, the updates from
 *     rows of other lines: every lower offset but the last same_line ones,
 *     whose columns come first in a row;
 *  3. the chunk is walked lane after lane for the updates from the rows of
 *     its own line (x - 1, x - 2: the last columns of a row), each row's
 *     pivot finished (checked, replaced or reported) before the next lane
 *     reads it;
 *  4. the chunk is stored into the factor, fenced, and the line's progress
 *     published.
 * Lines are ticketed by y + 2 z: every line a line reads (dz < 0, or dz = 0
 * and dy < 0; |dy| <= 1 where dz < 0 and dy >= -2 where dz = 0 in the
 * generator stencils) has a smaller key, so a warp waits only on lines
 * whose warps took their tickets before it and are running or done; the
 * kernel is launched with no more blocks than the device holds at once and
 * its warps loop over tickets.  No pending fill and no working copy: the
 * values are read from A and written once, final.
 *
 * Arithmetic: the CPU reference's (ref_ilu0.c, ref_ic0.c): each row's
 * updates in increasing column order with __dmul_rn / __dsub_rn and IEEE
 * division, so the factors equal the CPU's bit for bit. */
#include "factor_plan.h"
#include "device_util.cuh"

#define LINE_WARPS 4                          /* warps a block */
#define LINE_ROWS 32                          /* rows of a chunk: the lanes */
#define LINE_MAX_K (FACTOR_STENCIL_LOWER + 1) /* values of a row k one update reads */
#define LINE_SLEEP_CAP 256                    /* back-off cap of the waits, ns */

__device__ __forceinline__ uint64_t below_bits(int s) { return (1ULL << s) - 1; }

/* value q of row k: from the chunk in shared memory (ks) or, for a row of
 * an earlier chunk or another line (ks NULL), from the factor */
__device__ __forceinline__ double row_value(const double *ks, const double *kg, int q)
{
    return ks ? ks[q] : __ldcg(kg + q);
}

/* ILU(0) update of row i (its values R + the positions of mask mi) by row
 * k (mask mk; ks / kg as row_value, from k's first entry) through slot s1
 * of row i: l = a_ik / u_kk, then a_it -= l u_kj for the columns j > k of
 * row k that row i holds, in increasing order (tgt: the target table) */
__device__ __forceinline__ void ilu0_update(double *R, uint64_t mi, int s1, uint64_t mk,
                                            const double *ks, const double *kg, int lower,
                                            int npoints, const int8_t *tgt)
{
    int d = __popcll(mk & below_bits(lower)), cu = __popcll(mk >> lower); /* diagonal, its U part */
    double uk[LINE_MAX_K];
#pragma unroll
    for (int q = 0; q < LINE_MAX_K; q++)
        uk[q] = q < cu ? row_value(ks, kg, d + q) : 0.0;
    int pe = __popcll(mi & below_bits(s1));
    double l = R[pe] / uk[0];
    R[pe] = l;
    uint64_t rest = mk & ~below_bits(lower + 1);
#pragma unroll
    for (int q = 1; q < LINE_MAX_K; q++)
        if (q < cu) {
            int s2 = __ffsll((long long)rest) - 1;
            rest &= rest - 1;
            int t = tgt[s1 * npoints + s2];
            if (t >= 0 && (mi >> t & 1)) {
                int pt = __popcll(mi & below_bits(t));
                R[pt] = __dsub_rn(R[pt], __dmul_rn(l, uk[q]));
            }
        }
}

/* IC(0) entry l_ik of row i (values R, mask mi; its entries left of slot
 * s1 final) from row k (mask mk, L part then diagonal; ks / kg as
 * row_value): l_ik = (a_ik - sum_j l_ij l_kj) / l_kk, the sum over row k's
 * columns in increasing order (slot: the IC0 table); *pivot -= l_ik^2 */
__device__ __forceinline__ void ic0_update(double *R, uint64_t mi, int s1, uint64_t mk,
                                           const double *ks, const double *kg, int lower,
                                           const int8_t *slot, double *pivot)
{
    uint64_t mkl = mk & below_bits(lower);
    int cl = __popcll(mkl);
    double lk[LINE_MAX_K - 1];
#pragma unroll
    for (int q = 0; q < LINE_MAX_K - 1; q++)
        lk[q] = q < cl ? row_value(ks, kg, q) : 0.0;
    double lkk = row_value(ks, kg, cl);
    int pe = __popcll(mi & below_bits(s1));
    double sum = R[pe];
#pragma unroll
    for (int q = 0; q < LINE_MAX_K - 1; q++)
        if (q < cl) {
            int s2 = __ffsll((long long)mkl) - 1;
            mkl &= mkl - 1;
            int s3 = slot[s1 * lower + s2];
            if (s3 >= 0 && (mi >> s3 & 1))
                sum = __dsub_rn(sum, __dmul_rn(R[__popcll(mi & below_bits(s3))], lk[q]));
        }
    double l = sum / lkk;
    R[pe] = l;
    *pivot = __dsub_rn(*pivot, __dmul_rn(l, l));
}

/* KIND 0 ILU0 on A's pattern (ptr == ptrA), 1 IC0 on its lower triangle
 * (ptr, the factor's); values of matrix b of the batch at valA + b nnzA,
 * the factor at val + b nnz; progress: lines x batch words, all -1.  Row
 * positions in the factor come from the line's first entry and the masks
 * (domino_factor_row_prefix): one load of ptr a line, none a row (IC0 loads
 * each row's start in A, ptrA[i], for its initial values). */
template <int KIND>
__global__ void __launch_bounds__(32 * LINE_WARPS)
factor_lines_kernel(const factor_stencil_args a, int32_t batch, const int64_t *__restrict__ ptrA,
                    int64_t nnzA, const double *__restrict__ valA, const int64_t *__restrict__ ptr,
                    int64_t nnz, double *val, const int32_t *__restrict__ line_order,
                    int32_t *progress, double pivot_shift, domino_factor_status *st)
{
    extern __shared__ double chunk[];
    __shared__ int8_t tab[FACTOR_STENCIL_LOWER * FACTOR_STENCIL_SLOTS];
    __shared__ int64_t other_start[LINE_WARPS][FACTOR_STENCIL_LINES]; /* first entry of line q */
    __shared__ uint64_t other_myz[LINE_WARPS][FACTOR_STENCIL_LINES];  /* its y, z mask */
    for (int q = threadIdx.x; q < FACTOR_STENCIL_LOWER * FACTOR_STENCIL_SLOTS; q += blockDim.x)
        tab[q] = KIND == 0 ? a.target[q] : a.slot[q];
    __syncthreads();
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, lower = a.lower;
    double *R = chunk + warp * (LINE_ROWS * a.width);
    const int64_t lines = (int64_t)a.ny * a.nz, n = lines * a.nx;
    const uint64_t wmask = below_bits(a.width);
    const int other = lower - a.same_line;
    for (;;) {
        unsigned long long t = 0;
        if (lane == 0) t = atomicAdd(&st->ticket, 1ULL);
        t = __shfl_sync(0xffffffffu, t, 0);
        if (t >= (unsigned long long)lines * batch) return;
        const int32_t line = __ldg(&line_order[t / batch]), b = (int32_t)(t % batch);
        const int64_t y = line % a.ny, z = line / a.ny;
        const double *src = valA + (int64_t)b * nnzA;
        double *v = val + (int64_t)b * nnz;
        int32_t *prog = progress + (int64_t)b * lines;
        const uint64_t myz = domino_factor_line_mask(&a, y, z) & wmask;
        const int64_t start = __ldg(&ptr[(int64_t)line * a.nx]);
        /* lane q < nlines: other line q's first entry and mask */
        int64_t qy = y, qz = z;
        bool qlive = false;
        if (lane < a.nlines) {
            qy = y + a.line_dy[lane];
            qz = z + a.line_dz[lane];
            qlive = qy >= 0 && qy < a.ny && qz >= 0 && qz < a.nz;
            if (qlive) {
                other_start[warp][lane] = __ldg(&ptr[(qy + a.ny * qz) * a.nx]);
                other_myz[warp][lane] = domino_factor_line_mask(&a, qy, qz) & wmask;
            }
        }
        for (int32_t x0 = 0; x0 < a.nx; x0 += LINE_ROWS) {
            const int rows = a.nx - x0 < LINE_ROWS ? a.nx - x0 : LINE_ROWS;
            const int32_t xl = x0 + rows - 1, x = x0 + lane;
            const int64_t i = (int64_t)line * a.nx + x;
            const bool active = lane < rows;
            const int64_t first = domino_factor_row_prefix(&a, x0, myz), base = start + first,
                          count = domino_factor_row_prefix(&a, x0 + rows, myz) - first;
            const uint64_t mi = active ? domino_factor_x_mask(&a, x) & myz : 0;
            double *Ri = R + (active ? domino_factor_row_prefix(&a, x, myz) - first : 0);
            /* 1. initial values (the previous chunk's stores are done: __syncwarp) */
            if (KIND == 0) {
                for (int64_t q = lane; q < count; q += 32) R[q] = __ldg(&src[base + q]);
            } else if (active) {
                const int64_t pa = __ldg(&ptrA[i]);
                for (int q = 0; q < __popcll(mi); q++) Ri[q] = __ldg(&src[pa + q]);
            }
            /* lane q waits for other line q (relaxed polls, then a fence:
             * the acquire), the warp for all of them */
            if (qlive) {
                int32_t need = xl + a.line_dx[lane] < a.nx - 1 ? xl + a.line_dx[lane] : a.nx - 1;
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
            double pivot = 0.0; /* IC0: a_ii - sum l_ik^2 so far */
            if (active) {
                if (KIND == 1) pivot = Ri[__popcll(mi & below_bits(lower))];
                for (int s1 = 0; s1 < other; s1++) {
                    if (!(mi >> s1 & 1)) continue;
                    const int q = a.line_of[s1];
                    const int64_t kx = x + a.dxyz[s1][0];
                    const uint64_t kyz = other_myz[warp][q];
                    const uint64_t mk = domino_factor_x_mask(&a, kx) & kyz;
                    const double *kg = v + other_start[warp][q] + domino_factor_row_prefix(&a, kx, kyz);
                    if (KIND == 0) ilu0_update(Ri, mi, s1, mk, NULL, kg, lower, a.npoints, tab);
                    else ic0_update(Ri, mi, s1, mk, NULL, kg, lower, tab, &pivot);
                }
            }
            /* 3. the updates from this line, lane after lane, and the pivots */
            for (int j = 0; j < rows; j++) {
                __syncwarp();
                if (lane != j) continue;
                for (int s1 = other; s1 < lower; s1++) {
                    if (!(mi >> s1 & 1)) continue;
                    const int dx = a.dxyz[s1][0];
                    const uint64_t mk = domino_factor_x_mask(&a, x + dx) & myz;
                    const int64_t pk = domino_factor_row_prefix(&a, x + dx, myz);
                    const double *ks = lane + dx >= 0 ? R + (pk - first) : NULL;
                    if (KIND == 0) ilu0_update(Ri, mi, s1, mk, ks, v + start + pk, lower, a.npoints, tab);
                    else ic0_update(Ri, mi, s1, mk, ks, v + start + pk, lower, tab, &pivot);
                }
                int pd = __popcll(mi & below_bits(lower));
                double p = KIND == 0 ? Ri[pd] : pivot;
                bool bad = KIND == 0 ? !(p != 0.0 && isfinite(p)) : (!(p > 0.0) || !isfinite(p));
                if (bad && pivot_shift != 0.0) {
                    p = pivot_shift;
                    atomicAdd(&st->replaced, 1ULL);
                } else if (bad) {
                    atomicMin(&st->bad_pivot, (long long)b * n + i);
                }
                Ri[pd] = KIND == 0 ? p : sqrt(p);
            }
            __syncwarp();
            /* 4. the chunk into the factor, then the line's progress */
            for (int64_t q = lane; q < count; q += 32) v[base + q] = R[q];
            __threadfence();
            __syncwarp();
            if (lane == 0) store_relaxed_i32(&prog[line], xl);
        }
    }
}

extern "C" size_t domino_factor_lines_smem(const factor_stencil_args *a)
{
    return (size_t)LINE_WARPS * LINE_ROWS * (size_t)a->width * sizeof(double);
}

extern "C" cudaError_t domino_launch_factor_lines(cudaStream_t stream, int kind, int num_sms,
                                                  const factor_stencil_args *a, int32_t batch,
                                                  const int64_t *ptrA, int64_t nnzA,
                                                  const double *valA, const int64_t *ptr, int64_t nnz,
                                                  double *val, const int32_t *line_order,
                                                  int32_t *progress, double pivot_shift,
                                                  domino_factor_status *st)
{
    void (*k)(const factor_stencil_args, int32_t, const int64_t *, int64_t, const double *,
              const int64_t *, int64_t, double *, const int32_t *, int32_t *, double,
              domino_factor_status *) = kind == 0 ? factor_lines_kernel<0> : factor_lines_kernel<1>;
    size_t smem = domino_factor_lines_smem(a);
    cudaError_t e = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    int per_sm = 0;
    if (!e) e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, 32 * LINE_WARPS, smem);
    if (e) return e;
    if (per_sm < 1) return cudaErrorInvalidConfiguration;
    int64_t tasks = (int64_t)a->ny * a->nz * batch, blocks = (int64_t)per_sm * num_sms;
    if (blocks > (tasks + LINE_WARPS - 1) / LINE_WARPS) blocks = (tasks + LINE_WARPS - 1) / LINE_WARPS;
    if (blocks < 1) return cudaSuccess;
    k<<<(unsigned)blocks, 32 * LINE_WARPS, smem, stream>>>(*a, batch, ptrA, nnzA, valA, ptr, nnz, val,
                                                           line_order, progress, pivot_shift, st);
    return cudaGetLastError();
}
