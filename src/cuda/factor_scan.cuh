/* factor_scan.cuh: device helpers of the pivot scans of the stencil
 * factorizations (factor_scan.cu: the scan path; factor_lines.cu: the
 * line path's in-line part): pivots along a grid line obey d_i = S_i -
 * q_i / d_{i-1}, a Moebius map of d_{i-1}, composed over a warp by a scan
 * of 2 x 2 matrices. */
#ifndef DOMINO_FACTOR_SCAN_CUH
#define DOMINO_FACTOR_SCAN_CUH

#include "factor_plan.h"

#define SCAN_FULL 0xffffffffu
#define SCAN_GROWTH 10 /* log2 of the relative error growth a scanned chunk may have */

/* the biased exponent of |v| (0: zero or subnormal, 2047: not finite) */
__device__ __forceinline__ int scan_exponent(double v)
{
    return (int)((__double_as_longlong(v) >> 52) & 0x7ff);
}

/* *scale = 2^e for the exponent e of |v|, *inv = 2^-e (both 1 when v is 0,
 * subnormal, not finite or at least 2^1023): v * inv is exact and near 1 */
__device__ __forceinline__ void scan_scale(double v, double *scale, double *inv)
{
    long long bits = scan_exponent(v);
    bool plain = bits == 0 || bits >= 2046;
    *scale = plain ? 1.0 : __longlong_as_double(bits << 52);
    *inv = plain ? 1.0 : __longlong_as_double((2046LL - bits) << 52);
}

/* a pivot the CPU would replace or report */
template <int KIND> __device__ __forceinline__ bool scan_bad(double d)
{
    return KIND == 0 ? !(d != 0.0 && isfinite(d)) : !(d > 0.0 && isfinite(d));
}

/* a bad pivot d of row b n + i: pivot_shift, counted, or reported (d kept) */
__device__ __forceinline__ double scan_replace(double d, double pivot_shift, domino_factor_status *st,
                                               long long row)
{
    if (pivot_shift == 0.0) {
        atomicMin(&st->bad_pivot, row);
        return d;
    }
    atomicAdd(&st->replaced, 1ULL);
    return pivot_shift;
}

/* m * 2^-e, e the exponent of the largest |m[0..3]| (exact; nothing done
 * when that is 0, subnormal or not finite) */
__device__ __forceinline__ void scan_rescale(double *m)
{
    double big = fmax(fmax(fabs(m[0]), fabs(m[1])), fmax(fabs(m[2]), fabs(m[3])));
    long long bits = __double_as_longlong(big) >> 52; /* biased exponent: big >= 0 */
    if (bits == 0 || bits >= 2046) return; /* 2^(1023 - bits) would be 0 or subnormal */
    double scale = __longlong_as_double((2046LL - bits) << 52); /* 2^(1023 - bits) */
#pragma unroll
    for (int k = 0; k < 4; k++) m[k] *= scale;
}

/* M_lane(M_lane-1(... M_0(carry))) = *num / *den for M_j(d) = (S_j d -
 * q_j) / d and the identity on lanes not live: an inclusive Kogge-Stone
 * scan of the matrices [[S, -q], [1, 0]], later times earlier, each
 * product rescaled */
__device__ __forceinline__ void scan_mobius(double S, double q, bool live, double carry, double *num,
                                            double *den)
{
    const int lane = threadIdx.x & 31;
    double m[4] = {live ? S : 1.0, live ? -q : 0.0, live ? 1.0 : 0.0, live ? 0.0 : 1.0};
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        double p[4];
#pragma unroll
        for (int k = 0; k < 4; k++) p[k] = __shfl_up_sync(SCAN_FULL, m[k], o);
        if (lane >= o) {
            double r[4] = {m[0] * p[0] + m[1] * p[2], m[0] * p[1] + m[1] * p[3],
                           m[2] * p[0] + m[3] * p[2], m[2] * p[1] + m[3] * p[3]};
            scan_rescale(r);
#pragma unroll
            for (int k = 0; k < 4; k++) m[k] = r[k];
        }
    }
    *num = m[0] * carry + m[1];
    *den = m[2] * carry + m[3];
}

/* a lane's share of its chunk's relative error growth: log2 |t_i / d_i|
 * rounded up by exponents (t_i = S_i - d_i, the in-line term), 3 (walk)
 * for a bad pivot here or before or one outside the normal range, 0 for a
 * lane off the chunk */
template <int KIND>
__device__ __forceinline__ int scan_growth_bits(double S, double d, double prev, bool has, bool active)
{
    int bits = scan_exponent(S - d) - scan_exponent(d) + 1; /* selects, no branches: */
    if (bits < 0 || !active) bits = 0;                      /* on the critical path */
    if (active && (scan_bad<KIND>(d) || (has && scan_bad<KIND>(prev)) || scan_exponent(d) == 0 ||
                   scan_exponent(S - d) == 2047))
        bits = 3;
    return bits;
}

/* the votes of a chunk's growth: lane bits (>= 0; 3: any reason to walk) of
 * 1, 2, 3 or more; true when the sum passes SCAN_GROWTH */
__device__ __forceinline__ bool scan_walk_vote(int bits)
{
    if (__any_sync(SCAN_FULL, bits >= 3)) return true;
    return __popc(__ballot_sync(SCAN_FULL, bits >= 1)) + __popc(__ballot_sync(SCAN_FULL, bits >= 2)) >
           SCAN_GROWTH;
}

#endif
