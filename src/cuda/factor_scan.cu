/* factor_scan.cu: the scan path of the GPU ILU(0) / IC(0) of a stencil
 * matrix whose stencil has no triangles (factor_stencil_args.triangle_free:
 * D2N5, D3N7; factor_stencil.c decides).
 *
 * Without triangles an update of row i reaches only its diagonal: the L
 * entries are a_ik / u_kk (IC(0): a_ik / l_kk), the off-diagonal U entries
 * are A's, and the pivots obey
 *   d_i = a_ii - sum_k (a_ik / d_k) a_ki      (IC(0): - sum_k (a_ik / sqrt d_k)^2)
 * over the lower neighbours k of row i, in increasing column order: a
 * recurrence with the stencil's dependencies, solved the way the
 * structured triangular solve solves x (stencil_trsv.cu).  A warp takes a
 * grid line (y, z), lines ticketed by y + z, and walks it 32 points (a
 * lane each) at a time, a chunk:
 *  1. the lane loads its row's values, and for each neighbour k on another
 *     line a_ki and k's published value, its own ready flag (the pending
 *     sentinel; the loads are repeated until none is pending);
 *  2. S_i = a_ii less the other lines' terms q_k / d_k (q_k = a_ik a_ki,
 *     IC(0): a_ik^2), q_k multiplied by the published reciprocal r_k = 1 / d_k;
 *  3. along the line d_i = S_i - q_i / d_{i-1} is a Moebius map of d_{i-1}:
 *     the chunk's maps are composed by a warp scan of 2 x 2 matrices and
 *     applied to the previous chunk's last pivot, num / den, which gives
 *     d_i = num / den and r_i = den / num at once (two independent
 *     divisions: one division's latency on the critical path a step).  The
 *     scan runs on e_i = d_i / sigma_i, sigma_i the power of two of a_ii,
 *     so its entries stay near 1 whatever the matrix's scale;
 *  4. r_i is published, then the row's factor values written: L entries
 *     a_ik r_k (IC(0): a_ik sqrt r_k), the pivot d_i (IC(0): sqrt d_i), A's U.
 * Relative errors grow by |t_i / d_i| a step (t_i = S_i - d_i, the in-line
 * term): a chunk whose growth, summed over its lanes by exponents, passes
 * 2^SCAN_GROWTH, or that holds a bad pivot (zero, not finite; IC(0): not
 * positive), is walked again lane after lane with the CPU's operations from
 * S_i, its pivots checked, replaced or reported as the CPU does
 * (ref_ilu0.c, ref_ic0.c); st->walked counts such chunks.  So the factors
 * agree with the CPU's to the tests' tolerance (1e3 eps, pivots compared
 * one by one); S_i itself comes from the reciprocals, so where the CPU
 * finds a pivot exactly zero by cancellation this path may find a tiny
 * one.  DOMINO_FACTOR_SCAN=serial instead publishes d_i and walks every
 * chunk with the CPU's operations (divisions by d_k, in the CPU's order):
 * the factors are then the CPU's bit for bit.
 *
 * A warp waits only on lines of smaller tickets (every line read has a
 * smaller key y + w z, factor_stencil.c), and a warp takes a ticket only
 * while it runs: the line it waits on is being factored or done, whatever
 * the blocks' order or residency.  The kernel is launched with as many
 * blocks as the device holds at once, and its warps loop over tickets. */
#include "factor_scan.cuh"
#include "device_util.cuh"

#define SCAN_WARPS 4             /* warps a block */
#define SCAN_OTHER FACTOR_SCAN_OTHER /* lower offsets on other lines, at most */
#define SCAN_SLEEP_CAP 64        /* back-off cap of the waits, ns (64-256 within 5%, 1024 worse) */
#define SCAN_MIN_BLOCKS 8        /* blocks an SM (64 registers): within 5% of 1 on H100 */

/* the pivot of a row from S, its in-line entries a = a_{i,i-1} and c =
 * a_{i-1,i} (IC0: unused) and its predecessor's pivot prev, with the CPU's
 * operations; *l its L entry l_{i,i-1}.  No predecessor (has false): S. */
template <int KIND>
__device__ __forceinline__ double scan_pivot(double S, double a, double c, double prev, bool has,
                                             double *l)
{
    if (!has) {
        *l = 0.0;
        return S;
    }
    *l = KIND == 0 ? a / prev : a / sqrt(prev);
    return __dsub_rn(S, __dmul_rn(*l, KIND == 0 ? c : *l));
}

/* KIND 0 ILU0 on A's pattern (the factor at the positions of A), 1 IC0 on
 * its lower triangle (ptr, the factor's); matrix b of the batch at valA + b
 * nnzA, its factor at val + b nnz, its pivots at pivots + b n (all pending
 * on entry: the pivots d_i with serial, else their reciprocals).  Positions
 * in a row: the ranks of the bits of its mask. */
template <int KIND, bool SERIAL>
__global__ void __launch_bounds__(32 * SCAN_WARPS, SCAN_MIN_BLOCKS)
factor_scan_kernel(const factor_stencil_args a, int32_t batch, const int64_t *__restrict__ ptrA,
                   int64_t nnzA, const double *__restrict__ valA, const int64_t *__restrict__ ptr,
                   int64_t nnz, double *val, const int32_t *__restrict__ line_order, double *pivots,
                   double pivot_shift, int cap, domino_factor_status *st)
{
    /* the in-line entry (-1, 0, 0) is the last lower slot, in_slot; the
     * other-line slots are the `other` before it (same_line == 1) */
    const int lane = threadIdx.x & 31, lower = a.lower, in_slot = lower - 1, other = in_slot;
    const int64_t lines = (int64_t)a.ny * a.nz, n = lines * a.nx;
    const uint64_t all = domino_factor_below(a.npoints);
    for (;;) {
        unsigned long long t = 0;
        if (lane == 0) t = atomicAdd(&st->ticket, 1ULL);
        t = __shfl_sync(SCAN_FULL, t, 0);
        if (t >= (unsigned long long)lines * batch) return;
        const int32_t line = __ldg(&line_order[t / batch]), b = (int32_t)(t % batch);
        const int32_t y = line % a.ny, z = line / a.ny;
        const double *src = valA + (int64_t)b * nnzA;
        double *v = val + (int64_t)b * nnz, *piv = pivots + (int64_t)b * n;
        const uint64_t myz = domino_factor_line_mask(&a, y, z) & all;
        /* the previous chunk's last pivot, its reciprocal, 1 / its scale (scan_scale of a_ii) */
        double carry = 1.0, carry_r = 1.0, carry_inv = 1.0;
        for (int32_t x0 = 0; x0 < a.nx; x0 += 32) {
            const int rows = a.nx - x0 < 32 ? a.nx - x0 : 32;
            const bool active = lane < rows;
            const int32_t x = active ? x0 + lane : x0;
            const int64_t i = (int64_t)line * a.nx + x;
            const uint64_t mi = domino_factor_x_mask(&a, x) & myz;
            const int64_t pa = __ldg(&ptrA[i]);
            const int dpos = __popcll(mi & domino_factor_below(lower)); /* the diagonal's rank */
            /* 1. the row and its neighbours on other lines (loads issued together) */
            double ak[SCAN_OTHER], ck[SCAN_OTHER], dk[SCAN_OTHER];
            int64_t nb[SCAN_OTHER];
#pragma unroll
            for (int s = 0; s < SCAN_OTHER; s++) {
                nb[s] = -1;
                ak[s] = ck[s] = dk[s] = 0.0;
                if (!active || s >= other || !(mi >> s & 1)) continue;
                const int64_t k = i + a.offset[s];
                nb[s] = k;
                dk[s] = load_relaxed(&piv[k]);
                ak[s] = __ldg(&src[pa + __popcll(mi & domino_factor_below(s))]);
                if (KIND == 0) {
                    const uint64_t mk = domino_factor_row_mask(&a, x + a.dxyz[s][0], y + a.dxyz[s][1],
                                                               z + a.dxyz[s][2]) & all;
                    ck[s] = __ldg(&src[__ldg(&ptrA[k]) + __popcll(mk & domino_factor_below(a.npoints - 1 - s))]);
                }
            }
            const double aii = __ldg(&src[pa + dpos]);
            const bool has = active && (mi >> in_slot & 1);
            double ain = 0.0, cin = 0.0;
            if (has) {
                ain = __ldg(&src[pa + dpos - 1]);
                if (KIND == 0) { /* row i - 1's entry right of its diagonal */
                    const uint64_t mp = domino_factor_x_mask(&a, x - 1) & myz;
                    cin = __ldg(&src[__ldg(&ptrA[i - 1]) + __popcll(mp & domino_factor_below(lower)) + 1]);
                }
            }
            /* the scan works on e_i = d_i / sigma_i, sigma_i the power of two of
             * a_ii: e_i = S_i / sigma_i - q'_i / e_{i-1}, q'_i = (a_in / sigma_i)
             * (c_in / sigma_{i-1}), S_i / sigma_i = a_ii / sigma_i - sum_k p_k r_k,
             * p_k = (a_ik / sigma_i) a_ki (IC0: a_ik): entries near 1 whatever
             * the matrix's scale, all but the r_k terms ready before the wait */
            double sig, inv, pk[SCAN_OTHER];
            scan_scale(aii, &sig, &inv);
            const double inv_up = __shfl_up_sync(SCAN_FULL, inv, 1);
            const double qs = (ain * inv) * ((KIND == 0 ? cin : ain) * (lane > 0 ? inv_up : carry_inv));
#pragma unroll
            for (int s = 0; s < SCAN_OTHER; s++) pk[s] = (ak[s] * inv) * (KIND == 0 ? ck[s] : ak[s]);
            wait_pending<double, int64_t, SCAN_OTHER>(piv, nb, dk, cap);
            /* 2.-3. the pivots of the chunk: with the CPU's operations, or the scan */
            double d = 0.0, r = 0.0, prev = carry, lin = 0.0, lk[SCAN_OTHER], S = aii;
            bool walk = SERIAL;
            if (SERIAL) { /* dk: pivots; S_i exactly as the CPU */
#pragma unroll
                for (int s = 0; s < SCAN_OTHER; s++) {
                    lk[s] = 0.0;
                    if (nb[s] < 0) continue;
                    lk[s] = KIND == 0 ? ak[s] / dk[s] : ak[s] / sqrt(dk[s]);
                    S = __dsub_rn(S, __dmul_rn(lk[s], KIND == 0 ? ck[s] : lk[s]));
                }
            } else { /* dk: reciprocals */
                double Ss = aii * inv;
#pragma unroll
                for (int s = 0; s < SCAN_OTHER; s++)
                    if (nb[s] >= 0) Ss -= pk[s] * dk[s];
                S = Ss * sig;
                double num, den;
                scan_mobius(Ss, qs, active, carry * carry_inv, &num, &den);
                d = num / den * sig;
                r = den / num * inv;
                const double up = __shfl_up_sync(SCAN_FULL, d, 1);
                if (lane > 0) prev = up;
                /* relative errors grow by |t_i / d_i| a step, t_i = S_i - d_i: a
                 * chunk whose growth passes 2^SCAN_GROWTH, or with a bad pivot
                 * (here or before), is walked */
                walk = scan_walk_vote(scan_growth_bits<KIND>(S, d, prev, has, active));
            }
            if (walk) { /* lane after lane, the CPU's operations from S and pivot rules */
                if (lane == 0) atomicAdd(&st->walked, 1ULL);
                double p = carry;
                for (int j = 0; j < rows; j++) {
                    if (lane == j) {
                        prev = p;
                        d = scan_pivot<KIND>(S, ain, cin, prev, has, &lin);
                        if (scan_bad<KIND>(d)) d = scan_replace(d, pivot_shift, st, (long long)b * n + i);
                        r = 1.0 / d;
                    }
                    p = __shfl_sync(SCAN_FULL, d, j);
                }
            }
            carry = __shfl_sync(SCAN_FULL, d, rows - 1);
            carry_inv = __shfl_sync(SCAN_FULL, inv, rows - 1);
            const double rprev = __shfl_up_sync(SCAN_FULL, r, 1); /* lane 0: below */
            const double rcarry = carry_r;
            carry_r = __shfl_sync(SCAN_FULL, r, rows - 1);
            if (!active) continue;
            /* 4. the published value, then the row of the factor */
            store_relaxed(&piv[i], publishable(SERIAL ? d : r));
            if (!SERIAL) {
#pragma unroll
                for (int s = 0; s < SCAN_OTHER; s++)
                    lk[s] = nb[s] < 0 ? 0.0 : KIND == 0 ? ak[s] * dk[s] : ak[s] * sqrt(dk[s]);
                const double rp = lane > 0 ? rprev : rcarry;
                if (has) lin = KIND == 0 ? ain * rp : ain * sqrt(rp);
            }
            double *row = KIND == 0 ? v + pa : v + __ldg(&ptr[i]);
#pragma unroll
            for (int s = 0; s < SCAN_OTHER; s++)
                if (nb[s] >= 0) row[__popcll(mi & domino_factor_below(s))] = lk[s];
            if (has) row[dpos - 1] = lin;
            row[dpos] = KIND == 0 ? d : sqrt(d);
            if (KIND == 0) /* U right of the diagonal: A's (loaded here: loading it before the
                              wait, in registers, was 0.5-7% slower on H100) */
                for (int q = dpos + 1; q < __popcll(mi); q++) row[q] = __ldg(&src[pa + q]);
        }
    }
}

extern "C" cudaError_t domino_launch_factor_scan(cudaStream_t stream, int kind, int num_sms,
                                                 const factor_stencil_args *a, int32_t batch,
                                                 const int64_t *ptrA, int64_t nnzA,
                                                 const double *valA, const int64_t *ptr, int64_t nnz,
                                                 double *val, const int32_t *line_order,
                                                 double *pivots, double pivot_shift, int serial,
                                                 domino_factor_status *st)
{
    typedef void (*scan_fn)(const factor_stencil_args, int32_t, const int64_t *, int64_t,
                            const double *, const int64_t *, int64_t, double *, const int32_t *,
                            double *, double, int, domino_factor_status *);
    scan_fn k = kind == 0 ? (serial ? factor_scan_kernel<0, true> : factor_scan_kernel<0, false>)
                          : (serial ? factor_scan_kernel<1, true> : factor_scan_kernel<1, false>);
    int per_sm = 0;
    cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, 32 * SCAN_WARPS, 0);
    if (e) return e;
    if (per_sm < 1) return cudaErrorInvalidConfiguration;
    int64_t tasks = (int64_t)a->ny * a->nz * batch, blocks = (int64_t)per_sm * num_sms;
    if (blocks > (tasks + SCAN_WARPS - 1) / SCAN_WARPS) blocks = (tasks + SCAN_WARPS - 1) / SCAN_WARPS;
    if (blocks < 1) return cudaSuccess;
    k<<<(unsigned)blocks, 32 * SCAN_WARPS, 0, stream>>>(*a, batch, ptrA, nnzA, valA, ptr, nnz, val,
                                                         line_order, pivots, pivot_shift, SCAN_SLEEP_CAP, st);
    return cudaGetLastError();
}
