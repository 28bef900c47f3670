/* trsv_stepblock.cu: triangular solve in one thread block, rows in steps
 * of 256 (the "stepblock" engine), CSR pull, no analysis.
 *
 * Solves S x = b from CSR(S) (entries outside S's triangle skipped).  The
 * rows go in logical order (upper triangles backwards) in steps of
 * SB_STEP rows.  Within a step, each of SB_STEP solving threads owns a
 * row and the step runs in rounds: a row whose pending columns all hold a
 * value is solved; a barrier with an OR of "not yet" ends the round.  The
 * smallest unsolved row always has its columns solved, so each round
 * solves at least one row and a step ends.  A dependency is handed over
 * through shared memory inside one SM (a round costs a few shared loads
 * and a barrier) where the synchronization-free engines pay a round trip
 * through L2 per hop (~1 us): the engine is for deep, narrow systems,
 * bounded by one SM's bandwidth.
 *
 * The rest of the block loads: groups of SB_STEP threads take steps in
 * turn (group g the steps g, g + groups, ...), up to SB_RING steps ahead
 * of the solvers.  A loader thread reads its row once: the entries whose
 * columns were already in X when it started (logical column below F =
 * stored * SB_STEP) it sums against X at once, into part = b_i - sum; the
 * others (at most SB_PEND, else the row "overflows") go to the ring as
 * (window slot, value).  So a row's work on the solvers' critical path is
 * its recent dependencies only, read from a window of the last SB_WIN
 * solved values in shared memory, each value its own ready flag (the
 * pending sentinel, set by the loader when it loads the row's step); a
 * waiting row polls its latest column alone (the loader puts it first)
 * and reads the others once that one holds a value.  An overflowing row
 * walks its entries from memory instead, those at or above its F.  A
 * solved value goes to X after its step's last round, so X lags a step:
 * stored = solved - 1.
 * Measured on an H200 (bench/results/h200-stepblock): a round costs
 * ~200-300 ns (bar.red.or alone 156 cycles, a value handed over through
 * shared memory 413, bench/micro/round_cost.cu), against ~0.6 us a level
 * for the thread engine through L2; at best ~9 ns a row.
 *
 * Window: the loader of step s reads F after it loaded step s - groups,
 * which it did once step s - groups - SB_RING was solved, so F >= (s -
 * groups - SB_RING) * SB_STEP (groups <= 3: 7 steps back); the loader
 * refills a slot SB_WIN / SB_STEP = 16 steps after it was last filled,
 * once step s - SB_RING is solved, when every row that could read the
 * slot's old value (in steps up to 7 after it) is solved.
 *
 * Summation order depends on timing (which columns the loader found
 * solved, which round a column arrives in): not deterministic.  Rows never
 * wait inside a round, so there is no dependency wait to bound. */
#include "gpu_internal.h"
#include "device_util.cuh"
#include "trsv_step_loader.cuh"

#define SB_STEP 256  /* rows of a step: the solving threads */
#define SB_RING 4    /* steps the ring holds (a power of two) */
#define SB_PEND 8    /* pending columns a row carries to the solver */
#define SB_WIN 4096  /* solved values the window holds (a power of two; see "Window") */
#define SB_MAX_GROUPS 3 /* loader groups at most: SB_STEP * (1 + 3) = 1024 threads */

/* the shared state: the ring of loaded steps, the window of x, counters */
template <typename T> struct sb_shared {
    T part[SB_RING][SB_STEP];             /* b_i minus the entries summed by the loader */
    T dinv[SB_RING][SB_STEP];             /* 1 / the diagonal (1 when unit) */
    T pval[SB_RING][SB_PEND][SB_STEP];    /* value of each pending entry */
    int32_t pslot[SB_RING][SB_PEND][SB_STEP]; /* its column's window slot */
    int32_t npend[SB_RING][SB_STEP];      /* pending entries (> SB_PEND: the row overflows) */
    int32_t first[SB_RING][SB_STEP];      /* the row's F: logical columns below it are in part */
    int32_t tag[SB_RING];                 /* the step a slot holds, once loaded (-1: none) */
    T xw[SB_WIN];                         /* x of logical row r at r & (SB_WIN - 1) */
    int32_t solved;                       /* steps solved (their values in the window) */
    int32_t stored;                       /* steps whose values are in X too (solved - 1) */
};

/* barrier of the SB_STEP solvers (named barrier 1) that returns whether
 * any of them passed a nonzero `pending` */
__device__ __forceinline__ int solvers_any(int pending)
{
    int r;
    asm volatile("{\n\t.reg .pred p, q;\n\t"
                 "setp.ne.s32 p, %1, 0;\n\t"
                 "bar.red.or.pred q, 1, %2, p;\n\t"
                 "selp.s32 %0, 1, 0, q;\n\t}"
                 : "=r"(r)
                 : "r"(pending), "n"(SB_STEP)
                 : "memory");
    return r;
}

/* barrier of loader group g (named barriers 2, 3, 4) */
__device__ __forceinline__ void group_barrier(int g)
{
    asm volatile("bar.sync %0, %1;" ::"r"(2 + g), "n"(SB_STEP) : "memory");
}

/* A loader group: loads the steps g, g + groups, ... of one right-hand
 * side into the ring.  Contract: thread t (0 .. SB_STEP-1) of the group
 * reads row t of each step; the step's slot is free once step s - SB_RING
 * is solved; X holds every row of the steps below `stored`.  A row's
 * offsets, first STEP_BATCH entries and their solved x are read before the
 * wait for the slot, with F = stored * SB_STEP as it was then. */
template <typename T>
__device__ void stepblock_loader(sb_shared<T> *R, int g, int groups, int32_t n, int32_t nsteps,
                                 const int64_t *__restrict__ ptr, const int32_t *__restrict__ ind,
                                 const T *__restrict__ val, int upper, int unit,
                                 const T *__restrict__ b, const T *X)
{
    const int t = (int)threadIdx.x % SB_STEP;
    for (int32_t s = g; s < nsteps; s += groups) {
        const int slot = s & (SB_RING - 1);
        const int32_t li = s * SB_STEP + t; /* logical row */
        int64_t k0, k1;
        T part;
        int32_t c[STEP_BATCH];
        T a[STEP_BATCH], xv[STEP_BATCH];
        step_row_open<T>(n, li, upper, ptr, b, ind, val, &k0, &k1, &part, c, a);
        const int32_t F = load_acquire_cta_i32(&R->stored) * SB_STEP;
        step_gather<T>(n, F, upper, c, X, xv);
        if (t == 0)
            while (load_acquire_cta_i32(&R->solved) < s - SB_RING + 1) __nanosleep(32);
        group_barrier(g); /* the slot is free */
        if (li < n) {
            T d = (T)0;
            int np = 0, top = 0;
            int32_t top_lc = -1;
            step_take_row<T>(&R->pslot[slot][0][t], &R->pval[slot][0][t], SB_STEP, SB_PEND, SB_WIN - 1, n, li, F,
                             upper, k0, k1, ind, val, X, c, a, xv, &part, &d, &np, &top, &top_lc);
            if (np <= SB_PEND && top > 0) { /* the latest column first: the solver polls it alone */
                int32_t ps = R->pslot[slot][0][t];
                T pv = R->pval[slot][0][t];
                R->pslot[slot][0][t] = R->pslot[slot][top][t];
                R->pval[slot][0][t] = R->pval[slot][top][t];
                R->pslot[slot][top][t] = ps;
                R->pval[slot][top][t] = pv;
            }
            R->part[slot][t] = part;
            R->dinv[slot][t] = unit ? (T)1 : (T)1 / d;
            R->npend[slot][t] = np;
            R->first[slot][t] = F;
            make_pending(&R->xw[li & (SB_WIN - 1)]);
        }
        group_barrier(g);
        if (t == 0) store_release_cta_i32(&R->tag[slot], s);
    }
}

/* The solvers: the steps in turn, each in rounds (see the top); a row's
 * value goes to the window in its round and to X after the step's last
 * round, so that no barrier waits for a store to X.  Contract: thread t
 * (0 .. SB_STEP-1) owns row t of each step. */
template <typename T>
__device__ void stepblock_solver(sb_shared<T> *R, int32_t n, int32_t nsteps,
                                 const int64_t *__restrict__ ptr, const int32_t *__restrict__ ind,
                                 const T *__restrict__ val, int upper, int unit, T *X)
{
    const int t = (int)threadIdx.x;
    volatile T *xw = R->xw;
    for (int32_t s = 0; s < nsteps; s++) {
        const int slot = s & (SB_RING - 1);
        while (load_acquire_cta_i32(&R->tag[slot]) != s)
            ;
        const int32_t li = s * SB_STEP + t;
        const bool active = li < n;
        const int32_t i = upper ? n - 1 - li : li;
        T sum = (T)0, dinv = (T)1, xi = (T)0;
        int np = 0;
        int32_t pc[SB_PEND];
        T pa[SB_PEND];
        if (active) {
            sum = R->part[slot][t];
            dinv = R->dinv[slot][t];
            np = R->npend[slot][t];
#pragma unroll
            for (int p = 0; p < SB_PEND; p++) {
                pc[p] = p < np ? R->pslot[slot][p][t] : 0;
                pa[p] = p < np ? R->pval[slot][p][t] : (T)0;
            }
        }
        const bool overflow = np > SB_PEND;
        unsigned left = overflow ? 0u : (1u << np) - 1u; /* pending entries not yet added */
        int64_t k = 0, k1 = 0;                            /* an overflowing row's walk */
        int32_t F = 0;
        if (overflow) {
            k = __ldg(&ptr[i]);
            k1 = __ldg(&ptr[i + 1]);
            F = R->first[slot][t];
        }
        bool solved = !active;
        do {
            if (!solved) {
                if (!overflow) {
                    /* the latest column (entry 0) alone until it holds a
                     * value: a round of a waiting row costs one load */
                    bool go = true;
                    if (left & 1u) {
                        T v0 = xw[pc[0]];
                        go = !is_pending(v0);
                        if (go) {
                            sum -= pa[0] * v0;
                            left &= ~1u;
                        }
                    }
                    if (go && left) {
                        const unsigned now = left;
                        T v[SB_PEND];
#pragma unroll
                        for (int p = 1; p < SB_PEND; p++) /* independent loads */
                            v[p] = now & (1u << p) ? xw[pc[p]] : (T)0;
#pragma unroll
                        for (int p = 1; p < SB_PEND; p++) {
                            if ((now & (1u << p)) && !is_pending(v[p])) {
                                sum -= pa[p] * v[p];
                                left &= ~(1u << p);
                            }
                        }
                    }
                } else {
                    for (; k < k1; k++) {
                        int32_t c = __ldg(&ind[k]);
                        int32_t lc = upper ? n - 1 - c : c;
                        if (lc < F || lc >= li) continue; /* in part, the diagonal, the other triangle */
                        T v = xw[lc & (SB_WIN - 1)];
                        if (is_pending(v)) break;
                        sum -= __ldg(&val[k]) * v;
                    }
                }
                if (!left && k >= k1) {
                    xi = publishable(unit ? sum : sum * dinv);
                    xw[li & (SB_WIN - 1)] = xi;
                    solved = true;
                }
            }
        } while (solvers_any(!solved));
        /* the last round's barrier ordered the window's values and, before
         * them, the X stores of the steps before */
        if (t == 0) {
            store_release_cta_i32(&R->stored, s);
            store_release_cta_i32(&R->solved, s + 1);
        }
        if (active) X[i] = xi;
    }
}

/* Solve S X = B (nrhs columns) from CSR(S).  Contract: one block of
 * SB_STEP * (1 + groups) threads, groups in 1 .. SB_MAX_GROUPS; dynamic
 * shared memory sizeof(sb_shared<T>); B and X do not overlap. */
template <typename T>
__global__ void __launch_bounds__(SB_STEP * (1 + SB_MAX_GROUPS), 1)
    trsv_stepblock_kernel(int32_t n, const int64_t *__restrict__ ptr, const int32_t *__restrict__ ind,
                          const T *__restrict__ val, int upper, int unit, int groups, int32_t nrhs,
                          const T *__restrict__ B, int64_t ldb, T *X, int64_t ldx)
{
    extern __shared__ __align__(16) unsigned char stepblock_shared[];
    sb_shared<T> *R = (sb_shared<T> *)stepblock_shared;
    const int32_t nsteps = (int32_t)(((int64_t)n + SB_STEP - 1) / SB_STEP);
    const int role = (int)threadIdx.x / SB_STEP; /* 0: solver, g + 1: loader group g */
    for (int32_t r = 0; r < nrhs; r++) {
        if (threadIdx.x < SB_RING) R->tag[threadIdx.x] = -1;
        if (threadIdx.x == 0) R->solved = R->stored = 0;
        __syncthreads();
        if (role == 0)
            stepblock_solver<T>(R, n, nsteps, ptr, ind, val, upper, unit, X + (int64_t)r * ldx);
        else
            stepblock_loader<T>(R, role - 1, groups, n, nsteps, ptr, ind, val, upper, unit,
                                B + (int64_t)r * ldb, X + (int64_t)r * ldx);
        __syncthreads(); /* the next right-hand side resets the counters */
    }
}

/* the kernel of a type and its dynamic shared memory, raised to that size
 * on the current device (once; loads the kernel's module too) */
static cudaError_t stepblock_kernel_ready(domino_type type, const void **fn, size_t *bytes)
{
    int dbl = type == DOMINO_FLOAT64;
    *fn = dbl ? (const void *)trsv_stepblock_kernel<double> : (const void *)trsv_stepblock_kernel<float>;
    *bytes = dbl ? sizeof(sb_shared<double>) : sizeof(sb_shared<float>);
    static char raised[2][DOMINO_RAISED_DEVICES];
    return domino_block_raise_shared(*fn, *bytes, raised[dbl]);
}

extern "C" cudaError_t domino_stepblock_fits(domino_type type, int32_t n, int *fits)
{
    size_t limit = 0, bytes = type == DOMINO_FLOAT64 ? sizeof(sb_shared<double>) : sizeof(sb_shared<float>);
    cudaError_t e = domino_block_shared_limit(&limit);
    *fits = !e && bytes <= limit && n <= INT32_MAX - 2 * SB_STEP; /* logical rows stay in int32 */
    if (!e && *fits) {
        const void *fn;
        e = stepblock_kernel_ready(type, &fn, &bytes);
    }
    if (e) *fits = 0;
    return e;
}

extern "C" cudaError_t domino_launch_trsv_stepblock(cudaStream_t stream, domino_type type, int32_t n,
                                                    const int64_t *ptr, const int32_t *ind,
                                                    const void *val, int upper, int unit, int groups,
                                                    int32_t nrhs, const void *B, int64_t ldb, void *X,
                                                    int64_t ldx)
{
    if (n == 0) return cudaSuccess;
    if (groups < 1 || groups > SB_MAX_GROUPS) groups = SB_MAX_GROUPS;
    const void *fn;
    size_t bytes;
    cudaError_t e = stepblock_kernel_ready(type, &fn, &bytes);
    if (e) return e;
    void *params[] = {&n, &ptr, &ind, &val, &upper, &unit, &groups, &nrhs, &B, &ldb, &X, &ldx};
    return cudaLaunchKernel(fn, dim3(1), dim3(SB_STEP * (1 + groups)), params, bytes, stream);
}
