/* factor_box_lines.cu: the box path's ILU(0) and IC(0) by grid lines
 * (factor_box_lines_kernel): a warp a grid line of a 3x3x3 box stencil
 * (D3N27) whose every row holds exactly its stencil entries inside the
 * grid, the rows still in registers as on the box path (factor_box.cu),
 * the in-line pivots scanned (factor_scan.cuh); factor_stencil.c takes it
 * from 2^18 rows. */
#include "factor_box.cuh"
#include "factor_scan.cuh"
#include "device_util.cuh"
#include "internal.h"

#define BOX_SAME 12            /* the in-line slot, (-1, 0, 0): the last lower one */
/* lines in flight: this many keys' worth (DOMINO_FACTOR_BOX_LINE_KEYS).
 * H200, D3N27 64^3 / 128^3 / 192^3 (bench/results/h200-ilu-lines27, same
 * session, ms): IC(0) 1.08 / 2.98 / 5.93 with 8, 1.03 / 2.52 / 4.96 with
 * 16; ILU(0) 1.45 / 4.25 / 9.25 and 1.31 / 4.17 / 8.87.  On the final
 * code none of 12, 20 (knobs/), 24 and 32 keys was faster at every size.
 * Before the two phases 16 lost a little (h200-lines26): a chunk that
 * starts earlier now does its first phase while it waits. */
#define BOX_LINE_KEYS 16
#define BOX_LINES_TRACE 1     /* factor_box_lines_kernel's variants V: the trace, */
#define BOX_LINES_EXACT 2     /* IEEE divisions by the other lines' pivots (box_line_steps) */
#define BOX_TRACE_FIELDS 12   /* a chunk's record in DOMINO_FACTOR_LINES_TRACE (factor_lines_trace.c) */
/* blocks an SM (60 KiB of shared memory a block): IC(0) 3, 168 registers
 * (ptxas of CUDA 13.0 for sm_90: 0-8 bytes spilled); ILU(0) 2, 255
 * registers (16-32 bytes spilled; ~880 at 168).  The keys in flight (BOX_LINE_KEYS) hold fewer warps than
 * either allows: 352 at 64^3, 1040 at 192^3 (ILU(0): 264 blocks fit on 132 SMs). */
#define BOX_LINE_MIN_BLOCKS(KIND) ((KIND) == 0 ? 2 : 3)

/* the SM a thread runs on (the trace) */
__device__ __forceinline__ unsigned box_smid(void)
{
    unsigned r;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
    return r;
}

/* Wait until the last row that chunk x0 of line (y, z) reads on its lines
 * Q0 and Q0 + 1 (Q0 = 0: (y - 1, z - 1) and (y, z - 1), slots 0 .. 5; Q0
 * = 2: (y + 1, z - 1) and (y - 1, z), slots 6 .. 11), x = min(x0 + 32,
 * nx - 1), has its pivot published: lane q - Q0 polls line q's, one load a
 * round.  That row is the one its line finishes last, so the pivots and
 * values the chunk reads are then all but always there (they are checked
 * still).  end: on lane q - Q0, one past line q's last value
 * (box_line_ranges; -1: no line q); the pivot is that row's last value
 * (IC(0)) or the one before its upper entries (ILU(0)).  marks (the trace,
 * or null; Q0 = 2): [0] clock and [1] globaltimer when seen, [2] the rounds
 * that found one pending. */
template <int KIND, int Q0>
__device__ __forceinline__ void box_line_wait(const factor_stencil_args &a, int32_t x0, int32_t y, int32_t z,
                                              int64_t end, const double *v, int cap, unsigned long long *marks)
{
    const int lane = threadIdx.x & 31;
    const bool mine = lane < 2 && end >= 0;
    const double *p = v;
    double d = 0.0;
    if (mine) {
        int upper = 0; /* ILU(0): the entries after the pivot */
        if (KIND == 0) {
            const int q = lane + Q0;
            upper = __popc((uint32_t)domino_factor_row_mask(&a, min(x0 + 32, a.nx - 1), y + box_dy(3 * q),
                                                            z + box_dz(3 * q)) >> (BOX_LOWER + 1));
        }
        p = v + end - 1 - upper;
        d = __ldcg(p);
    }
    unsigned ns = 32, rounds = 0;
    while (__any_sync(FULL_MASK, mine && is_pending(d))) {
        rounds++;
        back_off(&ns, cap);
        d = load_relaxed_if(mine && is_pending(d), p, d); /* predicated: the warp stays converged */
    }
    if (marks && Q0 == 2) {
        marks[0] = clock64();
        marks[1] = global_timer_ns();
        marks[2] = rounds;
    }
}

/* 16 bytes from global to shared memory through the L2 only (cp.async.cg) */
__device__ __forceinline__ void box_copy16_async(double *dst, const double *src)
{
    unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(d), "l"(src) : "memory");
}

/* Chunk x0 of line (y, z) reads rows x0 - 1 .. x0 + 32 (inside the grid)
 * of its four other lines q, slots 3 q .. 3 q + 2: (y - 1, z - 1), (y, z -
 * 1), (y + 1, z - 1), (y - 1, z).  A line's rows are consecutive in the
 * factor: each is one range of at most 34 rows (IC(0): 14 values a row,
 * ILU(0): 27), which the warp copies into BOX_LINE_CAP(KIND) doubles of
 * its shared memory 16 bytes a lane at a time (coalesced): IC(0) a region
 * a line, ILU(0) a region for lines 0 and 2 and one for 1 and 3, reused
 * by the second phase (BOX_LINE_REGION).  base[q]: the index in v of the
 * range's first piece (16-byte aligned; -1: no line q); pieces[q]: its
 * 16-byte pieces; end[q / 2], on lane q mod 2: one past the range's last
 * value (box_line_wait; -1: no line q). */
#define BOX_LINE_CAP(KIND) ((KIND) == 0 ? 920 : 480) /* 34 x 27 or 34 x 14, one for alignment, even */
#define BOX_LINE_REGION(KIND, q) ((KIND) == 0 ? (q) & 1 : (q))
#define BOX_LINE_PIECES(KIND) ((BOX_LINE_CAP(KIND) / 2 + 31) / 32) /* pieces of a range a lane copies, at most */
#define BOX_LINE_SHARED 1920 /* doubles a warp: IC(0) 4 x 480, ILU(0) 2 x 920 */
__device__ __forceinline__ void box_line_ranges(const factor_stencil_args &a, int32_t x0, int32_t y, int32_t z,
                                                const int64_t *__restrict__ ptr, const double *v, int64_t *base,
                                                int32_t *pieces, int64_t *end)
{
    const int lane = threadIdx.x & 31;
    const int32_t xa = max(x0 - 1, 0), xb = min(x0 + 32, a.nx - 1);
    int64_t bound = -1; /* lane 2 q + e: line q's first value (e = 0) or one past its last (e = 1) */
    if (lane < 8) {
        const int q = lane >> 1;
        const int32_t yy = y + box_dy(3 * q), zz = z + box_dz(3 * q);
        if (yy >= 0 && yy < a.ny && zz >= 0)
            bound = __ldg(&ptr[(int64_t)((lane & 1) ? xb + 1 : xa) + (int64_t)a.nx * (yy + (int64_t)a.ny * zz)]);
    }
    end[0] = end[1] = -1;
#pragma unroll
    for (int q = 0; q < 4; q++) {
        const int64_t lo = __shfl_sync(FULL_MASK, bound, 2 * q), hi = __shfl_sync(FULL_MASK, bound, 2 * q + 1);
        base[q] = lo < 0 ? -1 : lo - (int64_t)(((uintptr_t)(v + lo) >> 3) & 1);
        pieces[q] = lo < 0 ? 0 : (int32_t)((hi - base[q] + 1) / 2);
        if (lane == (q & 1)) end[q >> 1] = hi;
    }
}
/* copy the ranges q in [Q0, Q1) (box_line_ranges) into sh and wait for the copies */
template <int KIND, int Q0, int Q1>
__device__ __forceinline__ void box_line_copy(const double *v, const int64_t *base, const int32_t *pieces,
                                              double *sh)
{
    const int lane = threadIdx.x & 31;
    __syncwarp(); /* ILU(0): the first phase's reads of the regions done */
#pragma unroll
    for (int q = Q0; q < Q1; q++)
#pragma unroll
        for (int j = 0; j < BOX_LINE_PIECES(KIND); j++)
            if (lane + 32 * j < pieces[q])
                box_copy16_async(&sh[BOX_LINE_REGION(KIND, q) * BOX_LINE_CAP(KIND) + 2 * (lane + 32 * j)],
                                 v + base[q] + 2 * (lane + 32 * j));
    box_copy_wait();
    __syncwarp(); /* every lane's copies seen by the warp */
}

/* The steps s of row i on lines q in [Q0, Q1) (s in [3 Q0, 3 Q1); w and
 * *pivot as box_steps; off and mk as box_line_steps): the lines' ranges
 * copied (box_line_copy), the pivots and values the steps read checked (a
 * value is its own ready flag: the ranges copied again while one is
 * pending), then the steps without a branch.  A slot row i lacks adds
 * exact zeros (its w is 0, the values it would read are taken as 0, its
 * pivot as 1), so the sums are the CPU's.  Row k's pivot divides (EXACT:
 * IEEE division, the CPU's factor bit for bit) or its reciprocal
 * multiplies, the reciprocals taken together off the chain of steps
 * (within an ulp or so).  KIND 0 ILU(0): l_is = w_s / u_kk, then w_t -=
 * l_is u_k,t for the upper entries t of row k that row i holds; 1 IC(0):
 * a_is less the sum over row k's slots of l_i,g l_k,t, over l_kk.  marks:
 * [3] clock when lines 2 and 3 are copied, [4] 1 when a value came late. */
template <int KIND, bool EXACT, int Q0, int Q1>
__device__ __forceinline__ void box_line_phase(uint32_t m, const int32_t *off, const uint32_t *mk,
                                               const int64_t *base, const int32_t *pieces, const double *v,
                                               double *sh, int cap, double *w, double *pivot,
                                               unsigned long long *marks)
{
    constexpr int S0 = 3 * Q0, S1 = 3 * Q1, T = KIND == 0 ? 27 : BOX_LOWER; /* the t a step may read */
    unsigned ns = 32;
    for (;;) {
        box_line_copy<KIND, Q0, Q1>(v, base, pieces, sh);
        bool missing = false;
#pragma unroll
        for (int s = S0; s < S1; s++)
            if (m >> s & 1) {
                missing |= is_pending(sh[box_at(off[s], mk[s], BOX_LOWER)]);
#pragma unroll
                for (int t = 0; t < T; t++)
                    if (box_reads(KIND, s, t) && (m >> box_i_slot(KIND, s, t) & 1))
                        missing |= is_pending(sh[box_at(off[s], mk[s], box_k_slot(KIND, s, t))]);
            }
        if (!__any_sync(FULL_MASK, missing)) break;
        if (marks) marks[4] = 1;
        back_off(&ns, cap);
    }
    if (marks && Q1 == 4) marks[3] = clock64();
    double d[S1 - S0]; /* row k's pivot's reciprocal (EXACT: the pivot), 1 where row i lacks the slot */
#pragma unroll
    for (int s = S0; s < S1; s++) {
        const double dk = sh[box_at(off[s], mk[s], BOX_LOWER)];
        d[s - S0] = !(m >> s & 1) ? 1.0 : EXACT ? dk : 1.0 / dk;
    }
#pragma unroll
    for (int s = S0; s < S1; s++) {
        if (KIND == 0) {
            const double l = EXACT ? w[s] / d[s - S0] : w[s] * d[s - S0];
            w[s] = l;
#pragma unroll
            for (int t = 0; t < T; t++)
                if (box_reads(0, s, t)) {
                    const double u = (m >> s & 1) && (m >> t & 1) ? sh[box_at(off[s], mk[s], box_ilu_slot(s, t))] : 0.0;
                    w[t] = __dsub_rn(w[t], __dmul_rn(l, u));
                }
        } else {
            double acc = w[s];
#pragma unroll
            for (int t = 0; t < T; t++)
                if (box_reads(1, s, t)) { /* a_is - sum over row k's slots of l_i,g l_k,t */
                    const double u = (m >> s & 1) && (m >> box_ic_slot(s, t) & 1) ? sh[box_at(off[s], mk[s], t)] : 0.0;
                    acc = __dsub_rn(acc, __dmul_rn(w[box_ic_slot(s, t)], u));
                }
            const double l = EXACT ? acc / d[s - S0] : acc * d[s - S0];
            w[s] = l;
            *pivot = __dsub_rn(*pivot, __dmul_rn(l, l));
        }
    }
}

/* The steps of row i on other lines (slots s < BOX_SAME; row i at x, y, z,
 * mask m, its factor row at pf, in chunk x0; w and *pivot as box_steps),
 * for the lines kernel, in two phases (box_line_phase), each after a
 * box_line_wait on its lines' last rows: lines 0 and 1, (y - 1, z - 1) and
 * (y, z - 1), two and three keys behind and so all but always done when
 * the chunk starts, then lines 2 and 3, (y + 1, z - 1) and (y - 1, z), one
 * key behind, whose chunks the critical path runs through.  The first
 * wait: with 16 keys of lines in flight a chunk often starts before lines
 * 0 and 1 are done, and copying their ranges again until they were (0.4-0.6
 * copies a chunk) cost 2-3 % (H200, h200-ilu-lines27/prewait: IC(0) 128^3
 * 2.53 -> 2.48 ms, 192^3 4.95 -> 4.84).  Why two phases: a chunk is bound
 * by memory latencies and by the
 * latency of its instructions, one warp an SM sub-partition, and it starts
 * ~3 us before the lines one key behind have stored (H200, 128^3): the
 * first half of its copies and steps fits there.  H200, bench/results/
 * h200-lines26: box_steps' pivot polls (12 scattered loads a lane a round)
 * ended ~3 us after the lines read had stored, its 8-byte copies (36 a
 * lane) took ~1.3-1.7 us more, and its per-step masks, waits and branches,
 * ~1,800 instructions, ~2.9 us; after box_line_wait the 48 scattered loads
 * in one round took 2.2 us, the coalesced copies and checks 2.0 us.  sh:
 * the warp's BOX_LINE_SHARED doubles.  marks: box_line_wait's, [3] clock
 * when the second phase has copied, [4] 1 when a value came late. */
template <int KIND, bool EXACT>
__device__ __forceinline__ void box_line_steps(const factor_stencil_args &a, int32_t i, int32_t x, int32_t x0,
                                               int32_t y, int32_t z, uint32_t m, int64_t pf,
                                               const int64_t *__restrict__ ptr, double *w, const double *v,
                                               double *sh, int cap, double *pivot, unsigned long long *marks)
{
    int32_t off[BOX_SAME]; /* row k's first value in sh */
    uint32_t mk[BOX_SAME]; /* its mask */
    int64_t base[4], end[2];
    int32_t pieces[4];
    box_line_ranges(a, x0, y, z, ptr, v, base, pieces, end);
    box_rows<0, BOX_SAME>(a, i, x, y, z, m, pf, ptr, off, mk); /* off: pf + off is row k's start in v */
#pragma unroll
    for (int s = 0; s < BOX_SAME; s++)
        off[s] = (m >> s & 1) ? (int32_t)(pf + off[s] - base[s / 3]) + BOX_LINE_REGION(KIND, s / 3) * BOX_LINE_CAP(KIND)
                              : 0;
    box_line_wait<KIND, 0>(a, x0, y, z, end[0], v, cap, marks);
    box_line_phase<KIND, EXACT, 0, 2>(m, off, mk, base, pieces, v, sh, cap, w, pivot, marks);
    box_line_wait<KIND, 2>(a, x0, y, z, end[1], v, cap, marks);
    box_line_phase<KIND, EXACT, 2, 4>(m, off, mk, base, pieces, v, sh, cap, w, pivot, marks);
}

/* The previous chunk's last row (row i - 1 of the next chunk's lane 0):
 * what the in-line steps read of it */
struct box_line_carry {
    double p;            /* its pivot: IC(0) before the square root, ILU(0) u_kk */
    double d;            /* IC(0): its pivot after the square root (walked chunks) */
    double inv;          /* 1 / the power of two near p (scan_scale) */
    double u[BOX_LOWER]; /* IC(0): its l values the in-line numerator reads */
    double q;            /* ILU(0): its (+1, 0, 0) entry, slot 14 */
    double next[4];      /* ILU(0): its (+1, dy, dz) upper entries, slots 17, 20, 23, 26 */
    double mid[4];       /* ILU(0): its (0, dy, dz) upper entries, slots 16, 19, 22, 25, final */
};

/* Row i - 1's pivot D_{i-1} (the lane before's, or c's row's), from the
 * scan over the warp of D_i = P_i - a_i b_i / D_{i-1} (IC(0): a_i = b_i =
 * s_i; ILU(0): s_i and q_{i-1}), the matrices scaled by the powers of two
 * near the pivots (factor_scan.cuh); same: row i has the in-line slot,
 * real: lane i a row of the grid */
__device__ __forceinline__ double box_line_scan(double P, double a, double b, bool same, bool real,
                                                const box_line_carry &c)
{
    const int lane = threadIdx.x & 31;
    double sig, inv;
    scan_scale(P, &sig, &inv);
    const double inv_up = __shfl_up_sync(FULL_MASK, inv, 1);
    const double qs = same ? (a * inv) * (b * (lane > 0 ? inv_up : c.inv)) : 0.0;
    double num, den;
    scan_mobius(P * inv, qs, real, c.p * c.inv, &num, &den);
    const double D = num / den * sig, D_up = __shfl_up_sync(FULL_MASK, D, 1);
    return lane > 0 ? D_up : c.p;
}

/* IC(0)'s in-line step (slot BOX_SAME; row i - 1 the lane before, or c's
 * row) of a chunk whose other-line steps are done (w, *pivot: a_ii less
 * the squares so far): the in-line numerator s_i from row i - 1's values
 * by shuffles, the pivots D_i = P_i - s_i^2 / D_{i-1} scanned, each lane
 * then l = s_i / sqrt(D_{i-1}) and its pivot by the CPU's formulas; walked
 * (lane after lane, IEEE division and square root, the CPU's factor bit
 * for bit) when walk is set or scan_walk_vote says so.  Out: w[BOX_SAME]
 * = l, *pivot before the square root, *d after (stored), *bad a bad pivot
 * (walked only; replaced by pivot_shift unless 0).  Returns walked. */
__device__ __forceinline__ bool box_line_inline_ic(uint32_t m, bool real, int last, int walk, double pivot_shift,
                                                   const box_line_carry &c, double *w, double *pivot, double *d,
                                                   bool *bad, domino_factor_status *st)
{
    const int lane = threadIdx.x & 31;
    const bool same = m >> BOX_SAME & 1;
    double acc = w[BOX_SAME];
#pragma unroll
    for (int q = 0; q < BOX_LOWER; q++)
        if (box_reads(1, BOX_SAME, q)) {
            const double up = __shfl_up_sync(FULL_MASK, w[q], 1);
            if (same && (m >> box_ic_slot(BOX_SAME, q) & 1))
                acc = __dsub_rn(acc, __dmul_rn(w[box_ic_slot(BOX_SAME, q)], lane > 0 ? up : c.u[q]));
        }
    const double prev = box_line_scan(*pivot, acc, acc, same, real, c); /* row i - 1's pivot, scanned */
    double l = 0.0, p = *pivot;
    if (same) {
        l = acc / sqrt(prev);
        p = __dsub_rn(*pivot, __dmul_rn(l, l));
    }
    *bad = false;
    if (!walk && !scan_walk_vote(scan_growth_bits<1>(*pivot, p, prev, same, real))) {
        if (same) w[BOX_SAME] = l;
        *pivot = p;
        *d = sqrt(p);
        return false;
    }
    if (lane == 0) atomicAdd(&st->walked, 1ULL); /* walked: lane j's pivot from lane j - 1's, as box_row's */
    double dd = 0.0;
    for (int j = 0; j <= last; j++) {
        const double before = __shfl_sync(FULL_MASK, dd, (j + 31) & 31);
        if (lane == j && real) {
            if (same) {
                const double lj = acc / (j > 0 ? before : c.d);
                w[BOX_SAME] = lj;
                *pivot = __dsub_rn(*pivot, __dmul_rn(lj, lj));
            }
            *bad = scan_bad<1>(*pivot);
            if (*bad && pivot_shift != 0.0) *pivot = pivot_shift;
            dd = sqrt(*pivot);
        }
    }
    *d = dd;
    return true;
}

/* ILU(0)'s in-line step (slot BOX_SAME; row i - 1 the lane before, or c's
 * row) of a chunk whose other-line steps are done.  It is row i's last
 * step (the CPU's order), and it changes only the entries t whose column
 * row i - 1 holds, dx(t) <= 0: the pivot, and 8 upper entries.  With P_i
 * = w[13], s_i = w[12] and q_{i-1} row i - 1's (+1, 0, 0) entry (final:
 * an in-line step leaves dx = +1 alone), the pivots follow D_i = P_i - s_i
 * q_{i-1} / D_{i-1}, the Moebius recurrence scanned as IC(0)'s; each lane
 * then l = s_i / D_{i-1} and D_i by the CPU's formulas (walked as IC(0)'s
 * when walk is set or scan_walk_vote says so).  The upper entries need no
 * scan: a dx = 0 one less l times row i - 1's dx = +1 one (final), then a
 * dx = -1 one less l times row i - 1's dx = 0 one, final after the first
 * shuffle.  Out: w[BOX_SAME] = l, w[BOX_LOWER] the pivot (stored), *bad a
 * bad pivot (walked only; replaced by pivot_shift unless 0).  Returns
 * walked. */
__device__ __forceinline__ bool box_line_inline_ilu(uint32_t m, bool real, int last, int walk,
                                                    double pivot_shift, const box_line_carry &c, double *w,
                                                    bool *bad, domino_factor_status *st)
{
    const int lane = threadIdx.x & 31;
    const bool same = m >> BOX_SAME & 1;
    const double P = w[BOX_LOWER], s_i = w[BOX_SAME];
    const double q_up = __shfl_up_sync(FULL_MASK, w[BOX_LOWER + 1], 1);
    const double q = lane > 0 ? q_up : c.q; /* row i - 1's (+1, 0, 0) entry */
    const double prev = box_line_scan(P, s_i, q, same, real, c); /* row i - 1's pivot, scanned */
    double l = 0.0, p = P;
    if (same) {
        l = s_i / prev;
        p = __dsub_rn(P, __dmul_rn(l, q));
    }
    bool walked = false;
    *bad = false;
    if (!walk && !scan_walk_vote(scan_growth_bits<0>(P, p, prev, same, real))) {
        w[BOX_LOWER] = p;
    } else { /* walked: lane j's pivot from lane j - 1's */
        if (lane == 0) atomicAdd(&st->walked, 1ULL);
        walked = true;
        double dd = 0.0;
        l = 0.0;
        for (int j = 0; j <= last; j++) {
            const double before = __shfl_sync(FULL_MASK, dd, (j + 31) & 31);
            if (lane == j && real) {
                double pv = P;
                if (same) {
                    l = s_i / (j > 0 ? before : c.p);
                    pv = __dsub_rn(P, __dmul_rn(l, q));
                }
                *bad = scan_bad<0>(pv);
                if (*bad && pivot_shift != 0.0) pv = pivot_shift;
                dd = pv;
            }
        }
        w[BOX_LOWER] = dd;
    }
    if (same) w[BOX_SAME] = l;
#pragma unroll
    for (int j = 0; j < 4; j++) { /* dx = 0: slots 16, 19, 22, 25, from row i - 1's 17, 20, 23, 26 */
        const int t = 16 + 3 * j;
        const double up = __shfl_up_sync(FULL_MASK, w[t + 1], 1);
        if (same && (m >> t & 1)) w[t] = __dsub_rn(w[t], __dmul_rn(l, lane > 0 ? up : c.next[j]));
    }
#pragma unroll
    for (int j = 0; j < 4; j++) { /* dx = -1: slots 15, 18, 21, 24, from row i - 1's 16, 19, 22, 25 */
        const int t = 15 + 3 * j;
        const double up = __shfl_up_sync(FULL_MASK, w[t + 1], 1);
        if (same && (m >> t & 1)) w[t] = __dsub_rn(w[t], __dmul_rn(l, lane > 0 ? up : c.mid[j]));
    }
    return walked;
}

/* IC(0): the start of line (y, z) (its rows' values at [lo, hi) of v),
 * instead of a pass over every value of the factor before the launch (ILU(0)
 * keeps that pass: with this in its kernel, whose 255 registers spill, it
 * lost 7-8 % at 128^3 and 192^3, H200, h200-ilu-lines28/epoch; IC(0)
 * gained 1-3 %, h200-ilu-lines28/prepare): the line's
 * values made pending, then its word of line_epoch raised to epoch (the
 * compute's number), the fence between them; then the warp waits until
 * the four lines it reads (box_line_ranges) have raised theirs.  From then
 * on a value of those lines it reads is pending or this compute's, never
 * the last compute's, as the checks need (box_line_wait, box_line_phase).
 * The lines read hold smaller tickets, taken by running warps, which raise
 * their words before they wait on anything: no deadlock. */
__device__ __forceinline__ void box_line_start(const factor_stencil_args &a, int32_t y, int32_t z, int64_t lo,
                                               int64_t hi, double *v, int32_t *epochs, int32_t epoch, int cap)
{
    const int lane = threadIdx.x & 31;
    for (int64_t k = lo + lane; k < hi; k += 32) make_pending(&v[k]);
    __threadfence(); /* the line's pending values before its word */
    __syncwarp();
    if (lane == 0) store_relaxed_i32(&epochs[y + (int64_t)a.ny * z], epoch);
    const int32_t *word = NULL;
    if (lane < 4) {
        const int32_t yy = y + box_dy(3 * lane), zz = z + box_dz(3 * lane);
        if (yy >= 0 && yy < a.ny && zz >= 0) word = &epochs[yy + (int64_t)a.ny * zz];
    }
    unsigned ns = 32;
    while (__any_sync(FULL_MASK, word && load_acquire_i32(word) != epoch)) back_off(&ns, cap);
    __syncwarp();
}

/* KIND 0 ILU(0) (on A's pattern: ptr == ptrA) or 1 IC(0) (A's lower
 * triangle ptr) of the box by grid lines (factor_stencil.c:
 * DOMINO_FACTOR_BOX_LINES).
 *
 * Why: on the box path every level of the key x + 2 y + 4 z is a hop through
 * L2 (~5 us a key on an H200, bench/results/h200-box18), and 4 of every 7
 * keys on the critical path are steps along x, from a row to its in-line
 * neighbour (x - 1, y, z).  Here a warp factors a grid line (y, z), 32
 * consecutive rows a chunk (a lane a row, its row in registers, as
 * box_row): the 12 slots of other lines by box_line_steps (the two lines
 * two and three keys behind first, then, once the last row each owes the
 * chunk is there, the two one key behind, each line's rows copied
 * together), then the in-line slot, whose row k = i - 1 is the lane before
 * (or the previous chunk's last row): its values come by shuffles, and the
 * pivots follow a Moebius recurrence scanned over the warp (factor_scan.cuh,
 * as the line path; box_line_inline_ic, box_line_inline_ilu), each lane
 * then finishing its row by the CPU's formulas from its predecessor's
 * scanned pivot.  Where the scan's error growth could pass 2^SCAN_GROWTH,
 * or a pivot is bad, or walk is set (DOMINO_FACTOR_BOX_LINES=walk), the
 * chunk is walked: lane after lane, IEEE division (and square root), the
 * CPU's factors bit for bit.  Only the hops between lines go through L2:
 * ny + 2 nz keys y + 2 z, not nx + 2 ny + 4 nz.  H200, IC(0), same process
 * (bench/results/h200-check25), D3N27 64^3 / 128^3 / 192^3: 1.75 / 4.07 /
 * 8.02 ms against the box path's 2.31 / 4.76 / 8.44 and the table path's
 * 1.76 / 6.25 / 13.7, with box_steps for the other lines; box_line_steps
 * then made it 1.41 / 3.53 / 6.99, its copies coalesced 1.34 / 3.47 /
 * 6.75, and in two phases 1.11 / 3.03 / 6.01 (bench/results/h200-lines26;
 * a hop between lines at 128^3 ~10 -> ~8 us before the phases).  Walked
 * throughout it took 2.84 / 6.10 / 11.3: the chain of 32 divisions and
 * square roots; a first version with that chain and two phases of polls
 * and copies, 2.51 / 5.59 / 10.35 (~14 us a hop between lines).
 *
 * Lines are ticketed by y + 2 z (line_order, factor_stencil.c): the four
 * lines a line reads, (y - 1, z), (y + 1, z - 1), (y, z - 1) and (y - 1,
 * z - 1), hold smaller tickets, taken by running warps: no deadlock.
 * Chunks start at -((y + 2 z) mod 32) + 32 c, so that the chunk of a line
 * one key behind that a chunk waits for ends where it is needed.  Other
 * lines read only the pivots and IC(0)'s L or ILU(0)'s U values, published
 * before the pivot; ILU(0)'s L values, which no other line reads, are
 * stored plainly after it.
 * st->ticket counts lines x batch; st->walked the chunks walked. */
template <int KIND, int V>
__global__ void __launch_bounds__(BOX_THREADS, BOX_LINE_MIN_BLOCKS(KIND))
factor_box_lines_kernel(const factor_stencil_args a, int32_t batch, const int32_t *__restrict__ line_order,
                        const int64_t *__restrict__ ptrA, int64_t nnzA, const double *__restrict__ valA,
                        const int64_t *__restrict__ ptr, int64_t nnz, double *val, double pivot_shift,
                        int cap, int walk, int32_t *line_epoch, int32_t epoch, domino_factor_status *st,
                        unsigned long long *trace, int32_t trace_chunks)
{
    constexpr bool TRACE = V & BOX_LINES_TRACE, EXACT = V & BOX_LINES_EXACT;
    constexpr int W = KIND == 0 ? 27 : BOX_LOWER + 1; /* slots of a factor row */
    extern __shared__ double box_buf[];
    double *sh = box_buf + (threadIdx.x >> 5) * BOX_LINE_SHARED; /* the warp's ranges (box_line_steps) */
    const int lane = threadIdx.x & 31;
    const int32_t n = a.nx * a.ny * a.nz;
    const unsigned long long total = (unsigned long long)a.ny * a.nz * (unsigned long long)batch;
    for (;;) {
        unsigned long long t = 0;
        if (lane == 0) t = atomicAdd(&st->ticket, 1ULL);
        t = __shfl_sync(FULL_MASK, t, 0);
        if (t >= total) return;
        const int32_t line = __ldg(&line_order[t / (unsigned long long)batch]);
        const int32_t b = (int32_t)(t % (unsigned long long)batch);
        const int32_t y = line % a.ny, z = line / a.ny;
        const double *A = valA + (int64_t)b * nnzA;
        double *v = val + (int64_t)b * nnz;
        if (KIND == 1) /* IC(0); ILU(0)'s values are made pending before the launch */
            box_line_start(a, y, z, __ldg(&ptr[(int64_t)line * a.nx]), __ldg(&ptr[(int64_t)(line + 1) * a.nx]), v,
                           line_epoch + (int64_t)b * a.ny * a.nz, epoch, cap);
        box_line_carry c; /* the previous chunk's last row (none before the first chunk) */
        c.p = 1.0, c.d = 1.0, c.inv = 1.0, c.q = 0.0;
#pragma unroll
        for (int q = 0; q < BOX_LOWER; q++) c.u[q] = 0.0;
#pragma unroll
        for (int j = 0; j < 4; j++) c.next[j] = 0.0, c.mid[j] = 0.0;
        int32_t chunk = 0;
        for (int32_t x0 = -((y + 2 * z) & 31); x0 < a.nx; x0 += 32, chunk++) {
            unsigned long long marks[5] = {0, 0, 0, 0, 0}, c0 = 0, g0 = 0, c_steps = 0, c_scan = 0;
            if (TRACE) c0 = clock64(), g0 = global_timer_ns();
            const int32_t x = x0 + lane;
            const bool real = x >= 0 && x < a.nx;
            const int32_t i = real ? x + a.nx * line : 0;
            const uint32_t m = real ? (uint32_t)domino_factor_row_mask(&a, x, y, z) : 0u;
            const int64_t pa = __ldg(&ptrA[i]), pf = __ldg(&ptr[i]);
            double w[27]; /* the row's working values (IC(0): slots 0-13) */
#pragma unroll
            for (int s = 0; s < W; s++)
                w[s] = (m >> s & 1) ? __ldg(&A[box_at(pa, m, s)]) : 0.0;
            double pivot = w[BOX_LOWER]; /* IC(0): a_ii less the squares so far */
            box_line_steps<KIND, EXACT>(a, i, x, x0, y, z, m, pf, ptr, w, v, sh, cap, &pivot,
                                        TRACE ? marks : nullptr);
            if (TRACE) c_steps = clock64();
            const int last = min(31, a.nx - 1 - x0); /* the chunk's last real lane (warp-uniform) */
            double d = 1.0; /* the pivot stored: IC(0) after the square root */
            bool bad = false, walked_chunk;
            if (KIND == 0) {
                walked_chunk = box_line_inline_ilu(m, real, last, walk, pivot_shift, c, w, &bad, st);
                d = pivot = w[BOX_LOWER];
            } else {
                walked_chunk = box_line_inline_ic(m, real, last, walk, pivot_shift, c, w, &pivot, &d, &bad, st);
            }
            if (TRACE) c_scan = clock64();
            /* what other lines read (IC(0)'s L or ILU(0)'s U part), the pivot,
             * then ILU(0)'s L part (H200, h200-ilu-lines27/prewait: ILU(0)
             * 64^3 1.32 -> 1.25 ms with it after the pivot); then the carries */
            if (real) {
                if (KIND == 1)
#pragma unroll
                    for (int s = 0; s < BOX_LOWER; s++)
                        if (m >> s & 1) store_relaxed(&v[box_at(pf, m, s)], publishable(w[s]));
#pragma unroll
                for (int s = BOX_LOWER + 1; s < W; s++)
                    if (m >> s & 1) store_relaxed(&v[box_at(pf, m, s)], publishable(w[s]));
                store_relaxed(&v[box_at(pf, m, BOX_LOWER)], publishable(d));
                if (KIND == 0)
#pragma unroll
                    for (int s = 0; s < BOX_LOWER; s++)
                        if (m >> s & 1) v[box_at(pf, m, s)] = w[s];
                if (bad) {
                    if (pivot_shift == 0.0) atomicMin(&st->bad_pivot, (long long)b * n + i);
                    else atomicAdd(&st->replaced, 1ULL);
                }
            }
            double sig;
            c.p = __shfl_sync(FULL_MASK, pivot, last);
            scan_scale(c.p, &sig, &c.inv);
            if (KIND == 0) {
                c.q = __shfl_sync(FULL_MASK, w[BOX_LOWER + 1], last);
#pragma unroll
                for (int j = 0; j < 4; j++) {
                    c.next[j] = __shfl_sync(FULL_MASK, w[17 + 3 * j], last);
                    c.mid[j] = __shfl_sync(FULL_MASK, w[16 + 3 * j], last);
                }
            } else {
                c.d = __shfl_sync(FULL_MASK, d, last);
#pragma unroll
                for (int q = 0; q < BOX_LOWER; q++)
                    if (box_reads(1, BOX_SAME, q)) c.u[q] = __shfl_sync(FULL_MASK, w[q], last);
            }
            __syncwarp();
            if (TRACE) { /* DOMINO_FACTOR_LINES_TRACE: this chunk's record (factor_lines_trace.c) */
                const unsigned long long c_end = clock64(), g_end = global_timer_ns();
                const unsigned late = __reduce_max_sync(FULL_MASK, (unsigned)marks[4]);
                if (lane == 0 && chunk < trace_chunks) {
                    unsigned long long *r = trace + (t * (unsigned long long)trace_chunks + chunk) * BOX_TRACE_FIELDS;
                    r[0] = g0, r[1] = marks[1], r[2] = g_end, r[3] = marks[0] - c0, r[4] = marks[3] - c0;
                    r[5] = c_steps - c0, r[6] = c_scan - c0, r[7] = c_end - c0, r[8] = marks[2], r[9] = late;
                    r[10] = box_smid(), r[11] = walked_chunk;
                }
            }
        }
    }
}

typedef void (*box_lines_fn)(const factor_stencil_args, int32_t, const int32_t *, const int64_t *, int64_t,
                             const double *, const int64_t *, int64_t, double *, double, int, int, int32_t *,
                             int32_t, domino_factor_status *, unsigned long long *, int32_t);

extern "C" cudaError_t domino_launch_factor_box_lines(cudaStream_t stream, int kind, int num_sms,
                                                      const factor_stencil_args *a, int32_t batch,
                                                      const int32_t *line_order, const int64_t *ptrA,
                                                      int64_t nnzA, const double *valA, const int64_t *ptr,
                                                      int64_t nnz, double *val, double pivot_shift, int cap,
                                                      int walk, int32_t *line_epoch, int32_t epoch,
                                                      domino_factor_status *st)
{
    const int64_t lines = (int64_t)a->ny * a->nz * batch;
    if (lines == 0 || a->nx == 0) return cudaSuccess;
    /* experiments: DOMINO_FACTOR_BOX_LINE_KEYS the lines in flight, in keys
     * (0: as many as fit); DOMINO_FACTOR_BOX_LINE_DIVIDE=1 IEEE divisions
     * by the other lines' pivots when scanned too (walked always divides);
     * DOMINO_FACTOR_LINES_TRACE=FILE every chunk's times into FILE
     * (domino_factor_lines_trace_write; the launch then waits), only
     * ILU(0)'s or IC(0)'s launches when DOMINO_FACTOR_LINES_TRACE_KIND is
     * ilu0 or ic0 */
    static int keys_in_flight = -1, divide = -1;
    if (keys_in_flight < 0) keys_in_flight = domino_env_int("DOMINO_FACTOR_BOX_LINE_KEYS", BOX_LINE_KEYS);
    if (divide < 0) divide = domino_env_int("DOMINO_FACTOR_BOX_LINE_DIVIDE", 0) != 0;
    const char *trace_file = getenv("DOMINO_FACTOR_LINES_TRACE"), *trace_kind = getenv("DOMINO_FACTOR_LINES_TRACE_KIND");
    if (trace_kind && strcmp(trace_kind, kind ? "ic0" : "ilu0") != 0) trace_file = NULL;
    static const box_lines_fn kernels[2][4] = {
        {factor_box_lines_kernel<0, 0>, factor_box_lines_kernel<0, 1>, factor_box_lines_kernel<0, 2>,
         factor_box_lines_kernel<0, 3>},
        {factor_box_lines_kernel<1, 0>, factor_box_lines_kernel<1, 1>, factor_box_lines_kernel<1, 2>,
         factor_box_lines_kernel<1, 3>}};
    const box_lines_fn k =
        kernels[kind != 0][(trace_file ? BOX_LINES_TRACE : 0) | (walk || divide ? BOX_LINES_EXACT : 0)];
    const size_t smem = (size_t)(BOX_THREADS / 32) * BOX_LINE_SHARED * sizeof(double);
    cudaError_t e = cudaFuncSetAttribute((const void *)k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    int per_sm = 0;
    if (!e) e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, (const void *)k, BOX_THREADS, smem);
    if (e) return e;
    if (per_sm < 1) return cudaErrorLaunchOutOfResources;
    const int warps = BOX_THREADS / 32;
    int64_t blocks = (int64_t)per_sm * num_sms, whole = (lines + warps - 1) / warps;
    if (keys_in_flight > 0) {
        const int64_t keys = (int64_t)(a->ny - 1) + 2 * (int64_t)(a->nz - 1) + 1;
        int64_t want = ((int64_t)keys_in_flight * (lines / keys + 1) + warps - 1) / warps;
        if (want < blocks) blocks = want < 1 ? 1 : want;
    }
    if (blocks > whole) blocks = whole;
    const int32_t chunks = (a->nx + 31) / 32 + 1;
    const size_t trace_words = trace_file ? (size_t)lines * (size_t)chunks * BOX_TRACE_FIELDS : 0;
    unsigned long long *trace = NULL;
    if (trace_file) {
        if ((e = cudaMalloc((void **)&trace, trace_words * sizeof(*trace)))) return e;
        if ((e = cudaMemsetAsync(trace, 0, trace_words * sizeof(*trace), stream))) goto done;
    }
    k<<<(unsigned)blocks, BOX_THREADS, smem, stream>>>(*a, batch, line_order, ptrA, nnzA, valA, ptr, nnz, val,
                                                       pivot_shift, cap, walk, line_epoch, epoch, st, trace, chunks);
    e = cudaGetLastError();
    if (!e && trace_file)
        e = domino_factor_lines_trace_write(trace_file, stream, trace, chunks, BOX_TRACE_FIELDS, a, batch,
                                            line_order, (int)blocks * warps);
done:
    if (trace) cudaFree(trace);
    return e;
}
