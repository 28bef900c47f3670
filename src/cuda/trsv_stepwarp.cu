/* trsv_stepwarp.cu: the step-block engine's one-warp kernel, its default
 * (DOMINO_STEPBLOCK_WARP=0 takes the 256-thread one, trsv_stepblock.cu).
 *
 * Solves S x = b from CSR(S) (entries outside S's triangle skipped) in one
 * thread block, rows in logical order (upper triangles backwards) in steps
 * of 32.  Warp 0 solves the steps in turn, lane l row l of the step; a
 * step runs in rounds: every lane reads its columns from a window of the
 * last SW_WIN values in shared memory and computes its x; a lane whose
 * columns inside the step are all solved (a mask test against the last
 * ballot) writes its x there; __syncwarp and a ballot end the round.
 * Columns of earlier steps are solved by then (the same warp solved them).
 * The smallest unsolved row always has its columns solved, so a step ends.
 *
 * Why a second kernel: trsv_stepblock.cu (256 solvers, rounds ended by
 * bar.red) pays ~200-300 ns a round on an H200; this one ~100 ns (191
 * cycles; 1e6-row DAG of 1e5 levels: 17.9 ms against 30.7,
 * bench/results/h200-stepwarp).  It loses where loading dominates (10^7
 * rows: 148 ms against 98).  Its round is branch-free: 8 loads issued
 * together (unused entries read a slot that holds 0 with a 0 coefficient),
 * a tree of 4 multiply-adds deep (the loader scaled the row by 1 / its
 * diagonal), a predicated store; only a step with a row of more than
 * SW_PEND pending entries runs the slower round with branches.  Rounds
 * with every lane behind a branch took 464 cycles (Nsight Compute's
 * samples spread over the dependent chain, the reconvergence the largest),
 * and a first one-warp version that tested and loaded each pending column
 * behind its own branch ~560 (bench/results/h200-stepblock/warp-steps.patch).
 * The solver reads step s + 1's ring slot, when loaded, while it solves
 * step s.  bench/micro/warp_round.cu measures what a warp round can cost.
 *
 * The other warps load (as in trsv_stepblock.cu): loader warp w takes the
 * steps w, w + loaders, ..., up to SW_RING steps ahead; a loader lane sums
 * its row's entries whose columns were in X when it started (logical
 * column below F = solved * 32) into part = b_i - sum and passes the
 * others (at most SW_PEND, else the row "overflows" and the solver walks
 * its entries at or above F from memory) as (logical column, value).
 *
 * Window: the loader of step s reads F after its wait for the slot, until
 * step s - SW_RING + 1 was solved (as published, every SW_PUBLISH steps),
 * so F >= (s - SW_RING + 1) * 32: at most 31 steps back; the solver
 * overwrites a window slot SW_WIN / 32 = 128 steps after it wrote it.
 *
 * Summation order depends on timing: not deterministic.  No dependency
 * wait to bound. */
#include "gpu_internal.h"
#include "device_util.cuh"
#include "trsv_step_loader.cuh"

#define SW_THREADS 512 /* the block at most: the solving warp and 15 loader warps (128 registers
                          a thread: the solver holds the next step while it solves one) */
#define SW_RING 32      /* steps the ring holds (a power of two) */
#define SW_PEND 8       /* columns a row carries to the solver */
#define SW_WIN 4096     /* solved values the window holds (a power of two; see "Window") */
#define SW_PUBLISH 8    /* the solver publishes its progress every this many steps (its release
                           waits for the steps' X stores) */
static_assert(SW_PEND == 8, "the solving round sums 8 products as a tree");

/* the shared state: the ring of loaded steps, the window of x (and a slot
 * that holds 0, read by unused entries), counters */
template <typename T> struct sw_shared {
    T part[SW_RING][32];                /* b_i minus the entries summed by the loader */
    T dinv[SW_RING][32];                /* 1 / the diagonal (1 when unit) */
    T pval[SW_RING][SW_PEND][32];       /* each pending entry's value / the diagonal (0: unused) */
    int32_t pcol[SW_RING][SW_PEND][32]; /* its logical column while loading; then its window
                                           slot (SW_WIN: unused) */
    uint32_t need[SW_RING][32];         /* the lanes of the step whose x the row reads */
    int32_t npend[SW_RING][32];         /* pending entries (> SW_PEND: the row overflows, reads
                                           no entry from the ring and needs from memory) */
    int32_t first[SW_RING][32];         /* the row's F: logical columns below it are in part */
    int32_t over[SW_RING];              /* 1 when a row of the step overflows */
    int32_t tag[SW_RING];               /* the step a slot holds, once loaded (-1: none) */
    T xw[SW_WIN + 1];                   /* x of logical row r at r & (SW_WIN - 1); xw[SW_WIN] = 0 */
    int32_t solved;                     /* steps solved, their values in X (published now and then) */
};

/* DOMINO_STEPBLOCK_PROFILE=1: cycles summed over the solves since the last
 * report: the solver waiting for a loaded step, reading it (ring, mask),
 * in rounds, publishing; rounds; steps; loader warps waiting for a free
 * slot, and loader warps in all (domino_stepwarp_profile_report) */
enum { SWP_WAIT, SWP_RING, SWP_ROUNDS, SWP_TAIL, SWP_NROUNDS, SWP_NSTEPS, SWP_LWAIT, SWP_LALL, SWP_COUNT };
__device__ unsigned long long stepwarp_profile[SWP_COUNT];

/* A loader warp: the steps w, w + loaders, ... into the ring.  Contract:
 * lane l reads row l of each step; a step's slot is free once step s -
 * SW_RING is solved; X holds the rows of the steps below `solved`. */
template <typename T, bool profile>
static __device__ void stepwarp_loader(sw_shared<T> *R, int w, int loaders, int32_t n, int32_t nsteps,
                                       const int64_t *__restrict__ ptr, const int32_t *__restrict__ ind,
                                       const T *__restrict__ val, int upper, int unit,
                                       const T *__restrict__ b, const T *X)
{
    const int lane = (int)threadIdx.x % 32;
    unsigned long long waited = 0;
    const long long start = profile ? clock64() : 0;
    for (int32_t s = w; s < nsteps; s += loaders) {
        const int slot = s & (SW_RING - 1);
        const int32_t li = s * 32 + lane; /* logical row */
        int64_t k0, k1;
        T part;
        int32_t c[STEP_BATCH];
        T a[STEP_BATCH], xv[STEP_BATCH];
        step_row_open<T>(n, li, upper, ptr, b, ind, val, &k0, &k1, &part, c, a);
        if (lane == 0) {
            const long long w0 = profile ? clock64() : 0;
            while (load_acquire_cta_i32(&R->solved) < s - SW_RING + 1) __nanosleep(100);
            if (profile) waited += clock64() - w0;
        }
        __syncwarp(); /* the slot is free */
        /* F after the wait: fewer columns left to the solver */
        const int32_t F = load_acquire_cta_i32(&R->solved) * 32;
        step_gather<T>(n, F, upper, c, X, xv);
        T d = (T)1;
        int np = 0;
        if (li < n) {
            d = (T)0;
            step_take_row<T>(&R->pcol[slot][0][lane], &R->pval[slot][0][lane], 32, SW_PEND, -1, n, li, F, upper,
                             k0, k1, ind, val, X, c, a, xv, &part, &d, &np, NULL, NULL);
        }
        /* the entries into the solver's form (no work left to it but its
         * round): window slots, values scaled by 1 / the diagonal (the round
         * is x = part - sum pval * x_j), unused ones (lanes past n too) read
         * the 0 slot with a 0 value, the lanes of the step the row needs */
        const T di = unit ? (T)1 : (T)1 / d;
        const bool overflow = np > SW_PEND;
        unsigned need = 0;
#pragma unroll
        for (int p = 0; p < SW_PEND; p++) {
            const bool on = p < np && !overflow;
            const int32_t lc = on ? R->pcol[slot][p][lane] : 0; /* unwritten past np */
            const T av = on ? R->pval[slot][p][lane] : (T)0;
            need |= on && lc >= s * 32 ? 1u << (lc - s * 32) : 0u; /* lc < li: a lane below this one */
            R->pcol[slot][p][lane] = on ? lc & (SW_WIN - 1) : SW_WIN;
            R->pval[slot][p][lane] = on ? av * di : (T)0; /* 0 also where di is inf (zero pivot) */
        }
        R->part[slot][lane] = overflow ? part : part * di;
        R->dinv[slot][lane] = di;
        R->need[slot][lane] = need;
        R->npend[slot][lane] = np;
        R->first[slot][lane] = F;
        const unsigned overflows = __ballot_sync(0xffffffffu, overflow);
        if (lane == 0) R->over[slot] = overflows != 0u;
        __syncwarp();
        if (lane == 0) store_release_cta_i32(&R->tag[slot], s);
    }
    if (profile && lane == 0) {
        atomicAdd(&stepwarp_profile[SWP_LWAIT], waited);
        atomicAdd(&stepwarp_profile[SWP_LALL], (unsigned long long)(clock64() - start));
    }
}

/* an overflowing row (lane) of the step at base: its columns inside the
 * step (need), or, when solved, its sum over the entries at or above F */
static __device__ unsigned sw_overflow_need(int32_t n, int32_t li, int32_t base, int32_t F, int upper,
                                            int64_t k0, int64_t k1, const int32_t *__restrict__ ind)
{
    unsigned need = 0;
    for (int64_t k = k0; k < k1; k++) {
        int32_t c = __ldg(&ind[k]), lc = upper ? n - 1 - c : c;
        if (lc >= base && lc < li && lc >= F) need |= 1u << (lc - base);
    }
    return need;
}
template <typename T>
static __device__ T sw_overflow_sum(const T *xw, int32_t n, int32_t li, int32_t F, int upper, int64_t k0,
                                    int64_t k1, const int32_t *__restrict__ ind, const T *__restrict__ val)
{
    T s = (T)0;
    for (int64_t k = k0; k < k1; k++) {
        int32_t c = __ldg(&ind[k]), lc = upper ? n - 1 - c : c;
        if (lc >= F && lc < li) s += __ldg(&val[k]) * xw[lc & (SW_WIN - 1)];
    }
    return s;
}

/* a lane's row of a loaded step, as the rounds read it */
template <typename T> struct sw_row {
    T sum;                /* b_i minus the loader's sum, over the diagonal (overflow: not divided) */
    T pa[SW_PEND];        /* pending entries' values over the diagonal (0: unused) */
    int32_t ws[SW_PEND];  /* their window slots (SW_WIN: unused) */
    unsigned need;        /* the lanes of the step the row reads */
    int over;             /* the step holds an overflowing row (the same in every lane) */
};

template <typename T>
static __device__ __forceinline__ void sw_read_row(const sw_shared<T> *R, int slot, int lane, sw_row<T> *r)
{
    r->sum = R->part[slot][lane];
    r->need = R->need[slot][lane];
    r->over = R->over[slot];
#pragma unroll
    for (int p = 0; p < SW_PEND; p++) {
        r->ws[p] = R->pcol[slot][p][lane];
        r->pa[p] = R->pval[slot][p][lane];
    }
}

/* The solving warp: the steps in turn (see the top).  Contract: lane l
 * owns row l of each step; the window holds the rows of the steps before. */
template <typename T, bool profile>
static __device__ void stepwarp_solver(sw_shared<T> *R, int32_t n, int32_t nsteps,
                                       const int64_t *__restrict__ ptr, const int32_t *__restrict__ ind,
                                       const T *__restrict__ val, int upper, int unit, T *X)
{
    const int lane = (int)threadIdx.x;
    T *xw = R->xw;
    unsigned long long prof[SWP_NSTEPS] = {0, 0, 0, 0, 0}; /* SWP_WAIT .. SWP_NROUNDS */
    long long c0 = 0;
    sw_row<T> cur, next;
    bool have_next = false; /* next holds step s, read while step s - 1 was solved */
    for (int32_t s = 0; s < nsteps; s++) {
        const int slot = s & (SW_RING - 1);
        if (profile) c0 = clock64();
        if (!have_next)
            while (load_acquire_cta_shared_i32(&R->tag[slot]) != s)
                ;
        if (profile) prof[SWP_WAIT] += clock64() - c0, c0 = clock64();
        const int32_t base = s * 32, li = base + lane;
        const bool active = li < n;
        const int32_t i = upper ? n - 1 - li : li;
        /* the step as the loader left it: no arithmetic before the rounds */
        if (have_next)
            cur = next;
        else
            sw_read_row<T>(R, slot, lane, &cur);
        const bool any_overflow = cur.over != 0; /* the same in every lane */
        /* the next step, when loaded already: its reads overlap this step's
         * rounds (its slot is not reused before step s + 1 is solved) */
        const int nslot = (s + 1) & (SW_RING - 1);
        have_next = __all_sync(0xffffffffu, s + 1 < nsteps && load_acquire_cta_shared_i32(&R->tag[nslot]) == s + 1);
        if (have_next) sw_read_row<T>(R, nslot, lane, &next);
        T sum = cur.sum;
        unsigned need = cur.need;
        unsigned done = __ballot_sync(0xffffffffu, !active); /* lanes solved */
        bool solved = !active;
        if (profile) prof[SWP_RING] += clock64() - c0, c0 = clock64();
        if (!any_overflow) {
            /* the fast round, no branch: every lane computes its x from the
             * window (entries scaled by the loader: x = part - sum pa * x_j),
             * those whose columns are all solved store it; values read for a
             * lane not yet ready are thrown away */
            const int32_t wslot = li & (SW_WIN - 1);
            T xi = (T)0;
            for (;;) {
                if (profile) prof[SWP_NROUNDS]++;
                const bool go = !solved && !(need & ~done);
                T v[SW_PEND];
#pragma unroll
                for (int p = 0; p < SW_PEND; p++) v[p] = xw[cur.ws[p]]; /* issued together */
                T u0 = fma(-cur.pa[0], v[0], sum), u1 = -cur.pa[1] * v[1];
                T u2 = -cur.pa[2] * v[2], u3 = -cur.pa[3] * v[3];
                u0 = fma(-cur.pa[4], v[4], u0);
                u1 = fma(-cur.pa[5], v[5], u1);
                u2 = fma(-cur.pa[6], v[6], u2);
                u3 = fma(-cur.pa[7], v[7], u3);
                const T xt = (u0 + u1) + (u2 + u3);
                if (go) xw[wslot] = xt;
                xi = go ? xt : xi;
                solved = solved || go;
                __syncwarp(); /* the values written this round, before the ballot that announces them */
                done = __ballot_sync(0xffffffffu, solved);
                if (done == 0xffffffffu) break;
            }
            if (active) X[i] = xi;
        } else {
            /* a step with an overflowing row: each lane in its round, the
             * overflowing ones (no entry in the ring, part not scaled)
             * walking their entries: x = (part - sum) * dinv */
            const bool overflow = active && R->npend[slot][lane] > SW_PEND;
            const T dinv = R->dinv[slot][lane];
            int64_t k0 = 0, k1 = 0;
            int32_t F = 0;
            if (overflow) {
                k0 = __ldg(&ptr[i]);
                k1 = __ldg(&ptr[i + 1]);
                F = R->first[slot][lane];
                need = sw_overflow_need(n, li, base, F, upper, k0, k1, ind);
            }
            for (;;) {
                if (profile) prof[SWP_NROUNDS]++;
                if (!solved && !(need & ~done)) {
                    T v[SW_PEND], t[4];
#pragma unroll
                    for (int p = 0; p < SW_PEND; p++) v[p] = xw[cur.ws[p]]; /* issued together */
#pragma unroll
                    for (int p = 0; p < 4; p++) t[p] = cur.pa[p] * v[p] + cur.pa[p + 4] * v[p + 4]; /* a tree */
                    T xi;
                    if (overflow) {
                        sum -= sw_overflow_sum<T>(xw, n, li, F, upper, k0, k1, ind, val);
                        xi = sum * dinv;
                    } else {
                        xi = sum - ((t[0] + t[1]) + (t[2] + t[3])); /* scaled by the loader */
                    }
                    xw[li & (SW_WIN - 1)] = xi;
                    X[i] = xi;
                    solved = true;
                }
                __syncwarp(); /* the values written this round, before the ballot that announces them */
                done = __ballot_sync(0xffffffffu, solved);
                if (done == 0xffffffffu) break;
            }
        }
        if (profile) prof[SWP_ROUNDS] += clock64() - c0, c0 = clock64();
        if ((s + 1) % SW_PUBLISH == 0 || s + 1 == nsteps) {
            __syncwarp(); /* the steps' X stores, before the release that publishes them */
            if (lane == 0) store_release_cta_i32(&R->solved, s + 1);
        }
        if (profile) prof[SWP_TAIL] += clock64() - c0;
    }
    if (profile && lane == 0) {
        for (int k = 0; k < SWP_NSTEPS; k++) atomicAdd(&stepwarp_profile[k], prof[k]);
        atomicAdd(&stepwarp_profile[SWP_NSTEPS], (unsigned long long)nsteps);
    }
}

/* Solve S X = B (nrhs columns) from CSR(S).  Contract: one block of 32 *
 * (1 + loaders) threads, loaders in 1 .. 15; dynamic shared memory
 * sizeof(sw_shared<T>); B and X do not overlap. */
template <typename T, bool profile>
__global__ void __launch_bounds__(SW_THREADS, 1)
    trsv_stepwarp_kernel(int32_t n, const int64_t *__restrict__ ptr, const int32_t *__restrict__ ind,
                         const T *__restrict__ val, int upper, int unit, int loaders, int32_t nrhs,
                         const T *__restrict__ B, int64_t ldb, T *X, int64_t ldx)
{
    extern __shared__ __align__(16) unsigned char stepwarp_shared[];
    sw_shared<T> *R = (sw_shared<T> *)stepwarp_shared;
    const int32_t nsteps = (int32_t)(((int64_t)n + 31) / 32);
    const int warp = (int)threadIdx.x / 32; /* 0: the solver, w + 1: loader w */
    for (int32_t r = 0; r < nrhs; r++) {
        if (threadIdx.x < SW_RING) R->tag[threadIdx.x] = -1;
        if (threadIdx.x == 0) R->solved = 0, R->xw[SW_WIN] = (T)0;
        __syncthreads();
        if (warp == 0)
            stepwarp_solver<T, profile>(R, n, nsteps, ptr, ind, val, upper, unit, X + (int64_t)r * ldx);
        else
            stepwarp_loader<T, profile>(R, warp - 1, loaders, n, nsteps, ptr, ind, val, upper, unit,
                                        B + (int64_t)r * ldb, X + (int64_t)r * ldx);
        __syncthreads(); /* the next right-hand side resets the counters */
    }
}

/* the kernel of a type (and profiling) and its dynamic shared memory,
 * raised to that size on the current device (once; loads the kernel's
 * module too) */
static cudaError_t stepwarp_kernel_ready(domino_type type, int profile, const void **fn, size_t *bytes)
{
    int dbl = type == DOMINO_FLOAT64;
    *fn = dbl ? (profile ? (const void *)trsv_stepwarp_kernel<double, true>
                         : (const void *)trsv_stepwarp_kernel<double, false>)
              : (profile ? (const void *)trsv_stepwarp_kernel<float, true>
                         : (const void *)trsv_stepwarp_kernel<float, false>);
    *bytes = dbl ? sizeof(sw_shared<double>) : sizeof(sw_shared<float>);
    static char raised[2][2][DOMINO_RAISED_DEVICES];
    return domino_block_raise_shared(*fn, *bytes, raised[dbl][profile != 0]);
}

extern "C" cudaError_t domino_stepwarp_fits(domino_type type, int32_t n, int *fits)
{
    size_t limit = 0, bytes = type == DOMINO_FLOAT64 ? sizeof(sw_shared<double>) : sizeof(sw_shared<float>);
    cudaError_t e = domino_block_shared_limit(&limit);
    *fits = !e && bytes <= limit && n <= INT32_MAX - 64; /* logical rows stay in int32 */
    if (!e && *fits) {
        const void *fn;
        e = stepwarp_kernel_ready(type, 0, &fn, &bytes);
    }
    if (e) *fits = 0;
    return e;
}

extern "C" cudaError_t domino_launch_trsv_stepwarp(cudaStream_t stream, domino_type type, int32_t n,
                                                   const int64_t *ptr, const int32_t *ind, const void *val,
                                                   int upper, int unit, int loaders, int32_t nrhs,
                                                   const void *B, int64_t ldb, void *X, int64_t ldx,
                                                   int profile)
{
    if (n == 0) return cudaSuccess;
    if (loaders < 1 || loaders > SW_THREADS / 32 - 1) loaders = SW_THREADS / 32 - 1;
    const void *fn;
    size_t bytes;
    cudaError_t e = stepwarp_kernel_ready(type, profile, &fn, &bytes);
    if (e) return e;
    void *params[] = {&n, &ptr, &ind, &val, &upper, &unit, &loaders, &nrhs, &B, &ldb, &X, &ldx};
    return cudaLaunchKernel(fn, dim3(1), dim3(32 * (1 + loaders)), params, bytes, stream);
}

extern "C" cudaError_t domino_stepwarp_profile_report(cudaStream_t stream)
{
    unsigned long long v[SWP_COUNT];
    cudaError_t e = cudaStreamSynchronize(stream);
    if (!e) e = cudaMemcpyFromSymbol(v, stepwarp_profile, sizeof v);
    if (e) return e;
    double steps = v[SWP_NSTEPS] ? (double)v[SWP_NSTEPS] : 1.0;
    fprintf(stderr,
            "stepwarp profile: %llu steps, %.2f rounds a step; solver cycles a step: waiting %.0f, "
            "reading %.0f, rounds %.0f (%.0f a round), publishing %.0f; loader warps waiting for a "
            "slot %.1f%% of their time\n",
            v[SWP_NSTEPS], v[SWP_NROUNDS] / steps, v[SWP_WAIT] / steps, v[SWP_RING] / steps,
            v[SWP_ROUNDS] / steps, v[SWP_NROUNDS] ? (double)v[SWP_ROUNDS] / v[SWP_NROUNDS] : 0.0,
            v[SWP_TAIL] / steps, v[SWP_LALL] ? 100.0 * v[SWP_LWAIT] / v[SWP_LALL] : 0.0);
    memset(v, 0, sizeof v);
    return cudaMemcpyToSymbol(stepwarp_profile, v, sizeof v);
}
