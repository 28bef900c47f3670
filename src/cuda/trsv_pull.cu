/* trsv_pull.cu: synchronization-free ("domino") triangular solve, CSR pull.
 *
 * Solves T x = b for the lower (or upper) triangle T of a CSR matrix; entries
 * of the other triangle are skipped, so a full matrix may be passed.  Each
 * block takes a logical block id from an atomic ticket when it starts (rows
 * of smaller tickets are always held by blocks that already run, so a wait
 * never blocks the row it waits for), then solves its PULL_ROWS rows by
 * one of three paths (the `mode` of the launcher):
 *  0 warp sweep (sorted rows): each warp owns 32 consecutive rows, adds what
 *    lies before the warp, then solves the chain of rows reading their
 *    predecessor by a scan of affine maps; it serves warps of short rows
 *    most of which read their predecessor (chains, 2D stencils, cryg2500);
 *    other warps of mode 0 run thread per row (mode 2);
 *  1 warp per row: the lanes stride over the row, each polling its own
 *    dependency, then a shuffle reduction in a fixed order;
 *  2 thread per row (any row order): every lane walks its row in stored
 *    order, stopping at the first pending dependency; the warp retries until
 *    all lanes are done, so a lane may wait for another lane of its warp;
 *    rows of more than long_row entries are walked by the whole warp, one
 *    at a time, with the same stop-and-resume (a thread walking a row of a
 *    thousand entries was 20x slower than cuSPARSE on such matrices);
 *  3 thread per row, rows taken in a given order (rows sorted by level, so
 *    the rows in flight form the wavefront; no barrier between levels).
 * With DOMINO_LEVELSET_LANES the level-set engine runs
 * trsv_pull_groups_kernel instead (4, 8, 16 or 32 lanes per row, rows in
 * level order, warps looping on a ticket).
 * Waiting warps that made no progress sleep backoff_ns (__nanosleep) so that
 * the warps they wait for get the issue slots.
 * Dependencies inside the block's own rows are read from shared memory,
 * others from global memory with L2-coherent loads.  x itself is the ready
 * flag (device_util.cuh): X is filled with a sentinel first, in a launch of
 * its own, or (one right-hand side, domino_pull_flags) x is published into
 * a flag buffer that the previous solve filled, and also stored into X;
 * each block then fills its rows of the next solve's flag buffer.
 * Upper triangles run the rows in reverse: logical row r is row n-1-r.
 * The arrays hold the triangle only (the plan copies a full matrix), a row
 * of more than PULL_WALK_SHORT entries in the order that puts its nearest
 * dependency, solved last, last (an upper row reversed), a shorter row
 * the diagonal and the nearest dependency first when
 * tune.short_near_first (upper rows as stored), else last (the plan's
 * prepare_triangle).
 * Results are deterministic in deterministic mode: every row is summed in
 * a fixed order (its stored order, or lanes striding over it and a fixed
 * shuffle tree).  Otherwise (tune.any_order) thread-walked rows of up to
 * 32 entries add their x in the order they arrive (pull_walk_any). */
#include "gpu_internal.h"
#include "device_util.cuh"

#define PULL_ROWS 256            /* rows per block (one per thread) */
#define PULL_THREADS 256         /* threads per block */
#define PULL_WARPS (PULL_THREADS / 32)
/* -DDOMINO_PULL_MIN_BLOCKS=B (experiments): trsv_pull_kernel's
 * __launch_bounds__ asks B blocks an SM.  Unset, the kernel keeps its 80
 * registers (double), 3 blocks of 256 threads an SM, 37.5 % occupancy.  B=4
 * (64 registers, 234-310 bytes of spills) on an H200
 * (bench/results/h200-check7/pull-occupancy-ab.txt): the diagonal-only
 * 10^7-row DAG 1.55x faster, the DAGs of 10^4-10^5 levels 1.6-1.7x
 * slower, the 15 others 0-14 % slower: not taken. */
#ifdef DOMINO_PULL_MIN_BLOCKS
#define PULL_LAUNCH_BOUNDS __launch_bounds__(PULL_THREADS, DOMINO_PULL_MIN_BLOCKS)
#else
#define PULL_LAUNCH_BOUNDS __launch_bounds__(PULL_THREADS)
#endif

#include "trsv_pull_walk.cuh"

/* Thread per row, rows of more than long_row entries by the whole warp
 * (pull_long_row_advance, one at a time, the lowest lane first); nobody
 * waits inside a branch: the warp turns until all its rows are solved. */
template <typename T, bool ANY, bool ONE>
__device__ void pull_block_thread_rows(int32_t base, int32_t n, const int64_t *__restrict__ ptr,
                                       const int32_t *__restrict__ ind,
                                       const T *__restrict__ val, int upper, int unit,
                                       int32_t nrhs, const T *__restrict__ B, int64_t ldb, T *X,
                                       int64_t ldx, T *xout, volatile T *sx, int64_t max_wait_ns,
                                       unsigned backoff_ns, domino_solve_status *st,
                                       const int32_t *__restrict__ order, domino_pull_tuning tune,
                                       uint64_t *trace)
{
    int32_t lrow = base + (int32_t)threadIdx.x;
    int lane = threadIdx.x & 31;
    bool active = lrow < n;
    int32_t row = order ? (active ? __ldg(&order[lrow]) : 0) : (upper ? n - 1 - lrow : lrow);
    int64_t start = active ? __ldg(&ptr[row]) : 0, end = active ? __ldg(&ptr[row + 1]) : 0;
    bool is_long = active && end - start > tune.long_row;
    bool any_order = ANY && end - start <= 32; /* pull_walk_any */
    if (trace && active) trace[n + row] = global_timer_ns(); /* taken (a long row: again below) */
    for (int32_t r = 0; r < nrhs; r++) {
        int64_t k = start;
        T sum = 0, diag = 0;
        bool done = !active;
        uint64_t stall_since = 0, coop_since = 0;
        T *x = X + (int64_t)r * ldx;
        int use_shared = nrhs == 1 && !order;
        /* b is loaded before the walk: after it, its load was on every hop's critical path */
        T bval = active ? __ldg(&B[row + (int64_t)r * ldb]) : (T)0;
        int32_t wait_j = -1, coop_wait_j = -1; /* the pending entry of the row, of the long row */
        T wait_a = 0, coop_wait_a = 0;
        int32_t hold_j = -1; /* the entry after the pending one (pull_walk_short) */
        T hold_a = 0;
        unsigned pending = 0; /* pull_walk_any's pending entries */
        int coop_lane = -1; /* the long row the warp is on (its lane), -1 none */
        int64_t coop_k = 0;
        T coop_sum = 0, coop_diag = 0;
        while (__any_sync(0xffffffffu, !done)) {
            bool moved = false;
            if (!done && !is_long) {
                int64_t k_before = k;
                bool any_moved = false;
                if (any_order ? pull_walk_any<T>(row, base, n, upper, ind, val, start, &k, end, x, sx,
                                                 use_shared, &sum, &diag, &any_moved, &pending,
                                                 &wait_j, &wait_a)
                              : pull_row_advance<T>(row, base, n, upper, ind, val, &k, end, x, sx,
                                                    use_shared, &sum, &diag, &wait_j, &wait_a,
                                                    &hold_j, &hold_a, end - start > PULL_WALK_SHORT)) {
                    T xi = publishable(unit ? bval - sum : (bval - sum) / diag);
                    store_relaxed(&x[row], xi);
                    if (use_shared) sx[lrow - base] = xi;
                    if (trace) trace[row] = global_timer_ns();
                    done = moved = true;
                } else {
                    moved = k != k_before || any_moved;
                    if (max_wait_ns > 0) {
                        uint64_t now = global_timer_ns();
                        if (stall_since == 0 || moved) stall_since = now;
                        else if (now - stall_since > (uint64_t)max_wait_ns) {
                            atomicMin(&st->timeout_row, row);
                            store_relaxed(&x[row], (T)0);
                            if (use_shared) sx[lrow - base] = (T)0;
                            done = true;
                        }
                    }
                }
            }
            unsigned longs = __ballot_sync(0xffffffffu, !done && is_long);
            if (longs) {
                int l = __ffs(longs) - 1;
                int32_t crow = __shfl_sync(0xffffffffu, row, l);
                int64_t cend = __shfl_sync(0xffffffffu, end, l);
                if (l != coop_lane) { /* a new long row */
                    coop_lane = l;
                    coop_k = __shfl_sync(0xffffffffu, start, l) + lane;
                    coop_sum = coop_diag = 0;
                    coop_since = 0;
                    coop_wait_j = -1;
                    if (trace && lane == 0) trace[n + crow] = global_timer_ns();
                    if (tune.long_prefetch) pull_long_row_start<T>(ind, val, coop_k - lane, cend);
                }
                bool coop_moved = false, coop_gave_up = false;
                bool through = pull_long_row_advance<T>(crow, cend, base, n, upper, ind, val, x, sx,
                                                        use_shared, &coop_k, &coop_sum, &coop_diag,
                                                        &coop_moved, &coop_wait_j, &coop_wait_a);
                coop_moved = __any_sync(0xffffffffu, coop_moved);
                moved |= coop_moved;
                if (!through && max_wait_ns > 0) {
                    uint64_t now = global_timer_ns();
                    if (coop_since == 0 || coop_moved) coop_since = now;
                    else if (now - coop_since > (uint64_t)max_wait_ns) {
                        if (lane == 0) atomicMin(&st->timeout_row, crow);
                        coop_sum = 0;
                        coop_diag = 1;
                        through = true;
                        coop_gave_up = true;
                    }
                }
                if (through) {
                    if (lane == l) {
                        T xi = publishable(unit ? bval - coop_sum : (bval - coop_sum) / coop_diag);
                        store_relaxed(&x[row], xi);
                        if (use_shared) sx[lrow - base] = xi;
                        if (trace && !coop_gave_up) trace[row] = global_timer_ns();
                        done = true;
                    }
                    coop_lane = -1;
                    moved = true;
                }
            }
            if (backoff_ns && !__any_sync(0xffffffffu, moved)) __nanosleep(backoff_ns);
        }
        /* the one-launch solve: X gets the row's x once the warp is through
         * (a store inside the walk's loop slowed deep solves 3%, H100) */
        if (ONE && active) xout[row] = use_shared ? sx[lrow - base] : load_relaxed(&x[row]);
    }
}

/* rows first, first+step, ... < last, one warp per row: the lanes stride
 * over the row, each polling its own dependency, then a fixed-order
 * shuffle reduction (deterministic) */
template <typename T, bool ONE>
__device__ void pull_rows_warp_cooperative(int32_t first, int32_t last, int32_t step,
                                           int32_t base, int32_t n,
                                           const int64_t *__restrict__ ptr,
                                           const int32_t *__restrict__ ind,
                                           const T *__restrict__ val, int upper, int unit,
                                           int32_t nrhs, const T *__restrict__ B, int64_t ldb,
                                           T *X, int64_t ldx, T *xout, volatile T *sx,
                                           int64_t max_wait_ns, unsigned backoff_ns, domino_solve_status *st)
{
    int lane = threadIdx.x & 31;
    for (int32_t lrow = first; lrow < last; lrow += step) {
        int32_t row = upper ? n - 1 - lrow : lrow;
        int64_t start = __ldg(&ptr[row]), end = __ldg(&ptr[row + 1]);
        for (int32_t r = 0; r < nrhs; r++) {
            T *x = X + (int64_t)r * ldx;
            int use_shared = nrhs == 1;
            T sum = 0, diag = 0;
            T bval = lane == 0 ? __ldg(&B[row + (int64_t)r * ldb]) : (T)0; /* before the waits */
            for (int64_t k = start + lane; k < end; k += 32) {
                int32_t j = __ldg(&ind[k]);
                T a = __ldg(&val[k]);
                bool dep = upper ? (j > row) : (j < row);
                if (!dep) {
                    if (j == row) diag += a;
                    continue;
                }
                int32_t lj = logical_of(j, n, upper);
                sum += a * pull_wait_value<T>(x, j, sx, lj - base, use_shared && lj >= base, row, true,
                                              backoff_ns, max_wait_ns, st);
            }
            sum = warp_sum(sum);
            diag = warp_sum(diag);
            if (lane == 0) {
                T xi = publishable(unit ? bval - sum : (bval - sum) / diag);
                pull_publish<T, ONE>(x, xout, row, xi);
                if (use_shared) sx[lrow - base] = xi;
            }
            __syncwarp();
        }
    }
}

/* The warp-sweep ("domino") path, for a warp of 32 consecutive logical rows
 * (sorted) whose only dependency inside the warp is each row's predecessor:
 * row i reads row i - 1 (the chain link, coefficient a_i) and rows before
 * the warp.  Phase 1: every lane adds, in stored order, the entries before
 * the warp (waiting, with back-off, for those not solved yet), all but the
 * link.  Then x_i = c_i + m_i x_(i-1), with c_i = (b_i - sum_i) / d_i and
 * m_i = -a_i / d_i (m_i = 0 where the chain breaks): an affine recurrence,
 * solved by a scan of affine maps in five shuffle steps (fixed order, so
 * deterministic) into x_i = C_i + M_i x_(wbase-1).  Lanes whose chain breaks
 * inside the warp (a row with no link) publish at once; the others wait for
 * the one value x_(wbase-1) (lane 0's link, solved by the warp before) and
 * publish.  The gate (trsv_pull_kernel) takes only chains with |m_i| <= 1:
 * where they grow, C_i and M_i x_(wbase-1) cancel catastrophically.
 * The scan is done before that wait, so a chain costs one hop a warp, not a
 * shuffle and a division a row (the 32-step sweep it replaces: ~8 us a
 * warp on an H100). */
template <typename T, bool ONE>
__device__ void pull_warp_sweep(int32_t wbase, int32_t base, int32_t n,
                                const int64_t *__restrict__ ptr, const int32_t *__restrict__ ind,
                                const T *__restrict__ val, int upper, int unit, int32_t nrhs,
                                const T *__restrict__ B, int64_t ldb, T *X, int64_t ldx, T *xout,
                                volatile T *sx, int64_t max_wait_ns, unsigned backoff_ns, domino_solve_status *st,
                                uint64_t *trace)
{
    int lane = threadIdx.x & 31;
    int32_t lrow = wbase + lane;
    bool valid = lrow < n;
    int32_t row = upper ? n - 1 - lrow : lrow;
    int64_t start = valid ? __ldg(&ptr[row]) : 0, end = valid ? __ldg(&ptr[row + 1]) : 0;
    int use_shared = nrhs == 1;
    int32_t carry_row = upper ? n - wbase : wbase - 1; /* x_(wbase-1), lane 0's link */
    int32_t link_col = upper ? row + 1 : row - 1;      /* the row's link: logical lrow - 1 */
    for (int32_t r = 0; r < nrhs; r++) {
        T *x = X + (int64_t)r * ldx;
        T bval = valid ? __ldg(&B[row + (int64_t)r * ldb]) : (T)0; /* before the waits */
        T sum = 0, diag = 0, link = 0;
        bool gave_up = false; /* a bounded wait ran out: no trace time */
        int64_t k = start;
        bool external_done = !valid;
        uint64_t stall_since = 0;
        int32_t wait_j = -1, hold_j = -1; /* the pending entry, the one after it */
        T wait_a = 0, hold_a = 0;
        while (__any_sync(0xffffffffu, !external_done)) {
            bool moved = false;
            if (!external_done) {
                if (pull_walk_short<T, true>(row, base, n, upper, ind, val, &k, end, x, sx, use_shared,
                                             &sum, &diag, &moved, &wait_j, &wait_a, &hold_j, &hold_a,
                                             link_col, &link)) {
                    external_done = true;
                    moved = true;
                } else if (max_wait_ns > 0) {
                    uint64_t now = global_timer_ns();
                    if (stall_since == 0 || moved) stall_since = now;
                    else if (now - stall_since > (uint64_t)max_wait_ns) {
                        atomicMin(&st->timeout_row, row);
                        external_done = true; /* give up on the rest: the status reports it */
                        gave_up = true;
                    }
                }
            }
            if (!__any_sync(0xffffffffu, moved)) if (backoff_ns) __nanosleep(backoff_ns);
        }
        /* the scan: lane i ends with x_i = C + M x_(wbase-1) */
        T C = unit ? bval - sum : (bval - sum) / diag;
        T M = unit ? -link : -link / diag;
        if (!valid) C = M = 0;
#pragma unroll
        for (int o = 1; o < 32; o <<= 1) {
            T Cp = __shfl_up_sync(0xffffffffu, C, o), Mp = __shfl_up_sync(0xffffffffu, M, o);
            if (lane >= o) {
                C += M * Cp;
                M *= Mp;
            }
        }
        /* rows whose chain reaches back to lane 0's link need x_(wbase-1)
         * (M != 0; where M underflowed to 0, M x_(wbase-1) adds nothing);
         * warp 0 has none to wait for (a zero pivot makes M NaN).  On a
         * singular system non-finite values may spread differently from the
         * CPU's; the pivot check reports the row.  A ballot of the links in
         * place of M slowed the whole kernel (bench/results/h100-trsv5). */
        bool needs_carry = valid && wbase > 0 && M != (T)0;
        if (valid && !needs_carry) {
            T xi = publishable(C);
            pull_publish<T, ONE>(x, xout, row, xi);
            if (use_shared) sx[lrow - base] = xi;
            if (trace && !gave_up) trace[row] = global_timer_ns();
        }
        if (__any_sync(0xffffffffu, needs_carry)) { /* every lane polls the one value */
            T carry = pull_wait_value<T>(x, carry_row, sx, wbase - 1 - base,
                                         use_shared && wbase - 1 >= base, row, lane == 0, backoff_ns,
                                         max_wait_ns, st);
            if (needs_carry) {
                T xi = publishable(C + M * carry);
                pull_publish<T, ONE>(x, xout, row, xi);
                if (use_shared) sx[lrow - base] = xi;
                if (trace && !gave_up) trace[row] = global_timer_ns();
            }
        }
    }
}

template <typename T, bool TRACE, bool ANY, bool ONE>
__global__ void PULL_LAUNCH_BOUNDS
    trsv_pull_kernel(int32_t n, const int64_t *__restrict__ ptr, const int32_t *__restrict__ ind,
                     const T *__restrict__ val, int upper, int unit, int mode, int32_t nrhs,
                     const T *__restrict__ B, int64_t ldb, T *X, int64_t ldx, T *xout, T *next,
                     domino_solve_status *st_next, int64_t max_wait_ns, unsigned backoff_ns,
                     domino_solve_status *st, const int32_t *__restrict__ order,
                     domino_pull_tuning tune, uint64_t *trace_rows)
{
    __shared__ int32_t block_ticket;
    __shared__ T sx_store[PULL_ROWS];
    volatile T *sx = sx_store;
    /* launched with programmatic dependent launch after the sentinel fill:
     * wait for it (X and the ticket) here; a no-op after a plain launch */
#if __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
    uint64_t *trace = TRACE ? trace_rows : NULL; /* a kernel of its own: no cost when off */
    if (threadIdx.x == 0) block_ticket = atomicAdd(&st->ticket, 1);
    make_pending(&sx_store[threadIdx.x]);
    __syncthreads();
    int32_t base = block_ticket * PULL_ROWS;
    if (base >= n) return;
    int32_t last = (int32_t)min((int64_t)base + PULL_ROWS, (int64_t)n);
    if (ONE) { /* one-launch solve: the flags of the next solve, rows base..last-1 */
        if (base + (int32_t)threadIdx.x < last) make_pending(&next[base + threadIdx.x]);
        if (block_ticket == 0 && threadIdx.x == 0) solve_status_reset(st_next);
    }
    if (mode == 1) {
        int warp = threadIdx.x >> 5;
        pull_rows_warp_cooperative<T, ONE>(base + warp, last, PULL_WARPS, base, n, ptr, ind, val, upper,
                                      unit, nrhs, B, ldb, X, ldx, xout, sx, max_wait_ns, backoff_ns, st);
        return;
    }
    if (mode == 3) { /* rows in the given order (level sets): thread per row */
        pull_block_thread_rows<T, ANY, ONE>(base, n, ptr, ind, val, upper, unit, nrhs, B, ldb, X, ldx, xout, sx,
                                       max_wait_ns, backoff_ns, st, order, tune, trace);
        return;
    }
    if (mode == 2) {
        pull_block_thread_rows<T, ANY, ONE>(base, n, ptr, ind, val, upper, unit, nrhs, B, ldb, X, ldx, xout, sx,
                                       max_wait_ns, backoff_ns, st, NULL, tune, trace);
        return;
    }
    /* mode 0, per warp: the sweep (an affine scan) when every row's only
     * dependency inside the warp is its predecessor, at least
     * tune.sweep_min_chained of lanes 1-31 read it, and every row holds at
     * most tune.sweep_max_row entries (chains, 2D stencils: the in-warp chain is the
     * critical path); else thread per row, which publishes each row as soon
     * as it is solved instead of when the whole warp is (bench/results/
     * README.md has the measurements behind this rule).  Rows are sorted in
     * mode 0 and hold the triangle only: the nearest dependency is the entry
     * next to the diagonal, at the row's start (tune.short_near_first: a
     * row of at most sweep_max_row <= PULL_WALK_SHORT entries) or end. */
    int lane = threadIdx.x & 31;
    int32_t wbase = base + (int32_t)(threadIdx.x >> 5) * 32;
    if (wbase >= n) return;
    int32_t lrow = wbase + lane;
    bool chained = false, fits = true; /* reads lrow - 1; no other in-warp dependency */
    int64_t len = 0;
    if (lrow < n) {
        int32_t row = upper ? n - 1 - lrow : lrow;
        int64_t start = __ldg(&ptr[row]), end = __ldg(&ptr[row + 1]);
        len = end - start;
        /* the two nearest dependencies, from the diagonal's side */
        int found = 0;
        T d = unit ? (T)1 : (T)0, link = 0;
        for (int64_t t = 0; t < len && len <= tune.sweep_max_row && found < 2; t++) {
            int64_t k = tune.short_near_first ? start + t : end - 1 - t;
            int32_t j = __ldg(&ind[k]);
            if (j == row && !unit) d += __ldg(&val[k]);
            if (!(upper ? j > row : j < row)) continue;
            int32_t lj = logical_of(j, n, upper);
            if (found++ == 0) {
                chained = lj == lrow - 1;
                fits = chained || lj < wbase;
                if (chained) link = __ldg(&val[k]);
            } else {
                fits = fits && lj < wbase && lj != lrow - 1; /* a second link entry: no sweep */
            }
        }
        /* the scan is stable when the chain does not grow, |m_i| = |link / d| <= 1:
         * with |m| > 1, C_i and M_i x_(wbase-1) are huge and cancel (x = 1
         * exactly came out as -1e15, then NaN, for m = 100); NaN fails too */
        T abs_link = link < 0 ? -link : link, abs_d = d < 0 ? -d : d;
        if (chained && !(abs_link <= abs_d)) fits = false;
    }
    if (__all_sync(0xffffffffu, fits && len <= tune.sweep_max_row) &&
        __popc(__ballot_sync(0xffffffffu, chained) & ~1u) >= tune.sweep_min_chained && n - wbase > 1)
        pull_warp_sweep<T, ONE>(wbase, base, n, ptr, ind, val, upper, unit, nrhs, B, ldb, X, ldx, xout, sx,
                           max_wait_ns, backoff_ns, st, trace);
    else
        pull_block_thread_rows<T, ANY, ONE>(base, n, ptr, ind, val, upper, unit, nrhs, B, ldb, X, ldx, xout, sx,
                                       max_wait_ns, backoff_ns, st, NULL, tune, trace);
}

/* Rows in the given order (the level-set engine), LANES lanes per row: each
 * warp takes 32 / LANES consecutive positions of the order from the ticket,
 * one per group of LANES lanes; the group's lanes stride over its row, each
 * waiting for its own dependency, then sum in a fixed shuffle order
 * (deterministic), and lane 0 of the group publishes x (the value is the
 * flag).  Positions are taken in increasing order and the order is
 * topological, so a row waits only on rows of smaller positions, held by
 * warps already running: any start order finishes.  Groups of one warp may
 * wait on each other (independent thread scheduling, sm_70 on).  The same
 * scheme as the multi-GPU pull solver (dist_trsv_kernel.cu), on one GPU. */
template <typename T, int LANES>
__global__ void __launch_bounds__(PULL_THREADS)
    trsv_pull_groups_kernel(int32_t n, const int64_t *__restrict__ ptr, const int32_t *__restrict__ ind,
                            const T *__restrict__ val, int upper, int unit, int32_t nrhs,
                            const T *__restrict__ B, int64_t ldb, T *X, int64_t ldx, int64_t max_wait_ns,
                            unsigned backoff_ns, domino_solve_status *st, const int32_t *__restrict__ order)
{
    const int groups = 32 / LANES;
    int lane = threadIdx.x & 31, sub = lane % LANES, group = lane / LANES;
    unsigned mask = LANES == 32 ? 0xffffffffu : ((1u << LANES) - 1u) << (group * LANES);
    for (;;) {
        __syncwarp(); /* every group done with its row before the warp takes new positions */
        unsigned t = 0;
        if (lane == 0) t = (unsigned)atomicAdd(&st->ticket, groups);
        t = __shfl_sync(0xffffffffu, t, 0);
        if (t >= (unsigned)n) return;
        t += group;
        if (t >= (unsigned)n) continue; /* the warp's last positions: back to the (exhausted) ticket */
        int32_t row = __ldg(&order[t]);
        int64_t start = __ldg(&ptr[row]), end = __ldg(&ptr[row + 1]);
        for (int32_t r = 0; r < nrhs; r++) {
            T *x = X + (int64_t)r * ldx;
            T sum = 0, diag = 0;
            T bval = sub == 0 ? __ldg(&B[row + (int64_t)r * ldb]) : (T)0; /* before the waits */
            for (int64_t k = start + sub; k < end; k += LANES) {
                int32_t j = __ldg(&ind[k]);
                T a = __ldg(&val[k]);
                if (upper ? j <= row : j >= row) {
                    if (j == row) diag += a;
                    continue;
                }
                sum += a * pull_wait_value<T>(x, j, NULL, 0, false, row, true, backoff_ns, max_wait_ns, st);
            }
            for (int o = LANES / 2; o > 0; o >>= 1) {
                sum += __shfl_xor_sync(mask, sum, o);
                diag += __shfl_xor_sync(mask, diag, o);
            }
            if (sub == 0)
                store_relaxed(&x[row], publishable(unit ? bval - sum : (bval - sum) / diag));
            __syncwarp(mask);
        }
    }
}

/* fill the nrhs columns of X (n rows, leading dimension ldx) with the
 * sentinel, and reset the solve status (one launch fewer per solve) */
template <typename T>
__global__ void fill_pending_kernel(int32_t n, int32_t nrhs, T *X, int64_t ldx, domino_solve_status *st)
{
    /* a solve launched after this one with programmatic dependent launch may
     * start now: it waits in griddepcontrol.wait until this grid is done
     * and its writes are visible (a plain launch ignores this) */
#if __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
    if (blockIdx.x == 0 && threadIdx.x == 0) solve_status_reset(st);
    int64_t total = (int64_t)n * nrhs;
    for (int64_t t = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; t < total;
         t += (int64_t)gridDim.x * blockDim.x) {
        int64_t r = t / n, i = t - r * n;
        make_pending(&X[i + r * ldx]);
    }
}

extern "C" cudaError_t domino_launch_fill_pending(cudaStream_t stream, domino_type type, int32_t n,
                                                  int32_t nrhs, void *X, int64_t ldx,
                                                  domino_solve_status *st)
{
    int64_t total = (int64_t)n * nrhs;
    int blocks = (int)((total + 255) / 256 < 65536 ? (total + 255) / 256 : 65536);
    if (blocks < 1) blocks = 1; /* the status is reset even with nothing to fill */
    if (type == DOMINO_FLOAT64)
        fill_pending_kernel<double><<<blocks, 256, 0, stream>>>(n, nrhs, (double *)X, ldx, st);
    else
        fill_pending_kernel<float><<<blocks, 256, 0, stream>>>(n, nrhs, (float *)X, ldx, st);
    return cudaGetLastError();
}

/* trsv_pull_kernel<T, TRACE, ANY, ONE>: the arrival-order walk and the
 * one-launch solve are kernels of their own (a runtime switch left the
 * walk's code in the stored-order kernel: more spills, and 9-19% slower
 * stored-order solves on an H100; the one-launch stores, 2-4% slower deep
 * solves) */
template <typename T>
using pull_kernel_fn = void (*)(int32_t, const int64_t *, const int32_t *, const T *, int, int, int,
                                int32_t, const T *, int64_t, T *, int64_t, T *, T *,
                                domino_solve_status *, int64_t, unsigned, domino_solve_status *,
                                const int32_t *, domino_pull_tuning, uint64_t *);
template <typename T> static pull_kernel_fn<T> pull_kernel_of(bool trace, bool any, bool one)
{
    if (trace) return any ? trsv_pull_kernel<T, true, true, false> : trsv_pull_kernel<T, true, false, false>;
    if (one) return any ? trsv_pull_kernel<T, false, true, true> : trsv_pull_kernel<T, false, false, true>;
    return any ? trsv_pull_kernel<T, false, true, false> : trsv_pull_kernel<T, false, false, false>;
}

/* the kernel of type T with its arguments */
template <typename T>
static cudaError_t launch_pull(const cudaLaunchConfig_t *cfg, bool trace, bool any, int32_t n,
                               const int64_t *ptr, const int32_t *ind, const void *val, int upper,
                               int unit, int mode, int32_t nrhs, const void *B, int64_t ldb,
                               void *X, int64_t ldx, void *xout, void *next,
                               domino_solve_status *st_next, int64_t max_wait_ns,
                               unsigned backoff_ns, domino_solve_status *st, const int32_t *order,
                               domino_pull_tuning tune, uint64_t *trace_rows)
{
    return cudaLaunchKernelEx(cfg, pull_kernel_of<T>(trace, any, xout != NULL), n, ptr, ind, (const T *)val,
                              upper, unit, mode, nrhs, (const T *)B, ldb, (T *)X, ldx, (T *)xout,
                              (T *)next, st_next, max_wait_ns, backoff_ns, st, order, tune,
                              trace_rows);
}

extern "C" cudaError_t domino_launch_trsv_pull(cudaStream_t stream, domino_type type, int32_t n,
                                               const int64_t *ptr, const int32_t *ind,
                                               const void *val, int upper, int unit, int mode,
                                               int32_t nrhs, const void *B, int64_t ldb, void *X,
                                               int64_t ldx, int64_t max_wait_ns,
                                               unsigned backoff_ns, domino_solve_status *st,
                                               const int32_t *order, domino_pull_tuning tune,
                                               uint64_t *trace, const domino_pull_flags *flags)
{
    if (n == 0) return cudaSuccess;
    /* an error left by an earlier call is reported before anything is
     * enqueued: after the launch it would be taken for the launch's, and a
     * one-launch solve that ran would be counted as not run (the plan would
     * not turn to the other flag buffer, and the next solve would find this
     * one's flags spent and do nothing) */
    cudaError_t e = cudaGetLastError();
    if (e) return e;
    int blocks = (int)(((int64_t)n + PULL_ROWS - 1) / PULL_ROWS);
    bool one = flags && nrhs == 1 && !trace;
    if (!one) e = domino_launch_fill_pending(stream, type, n, nrhs, X, ldx, st);
    if (e) return e;
    /* programmatic dependent launch: the solve's launch overlaps the fill
     * (the kernel waits for it in griddepcontrol.wait) */
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[0].val.programmaticStreamSerializationAllowed = !one && tune.overlap_fill;
    cfg.gridDim = dim3((unsigned)blocks);
    cfg.blockDim = dim3(PULL_THREADS);
    cfg.stream = stream;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    /* one launch: x is published into the flags, also stored into X */
    void *xflags = one ? flags->flags : X, *xout = one ? X : NULL, *next = one ? flags->next_flags : NULL;
    domino_solve_status *st_next = one ? flags->next_st : NULL;
    if (type == DOMINO_FLOAT64)
        e = launch_pull<double>(&cfg, trace != NULL, tune.any_order != 0, n, ptr, ind, val, upper,
                                unit, mode, nrhs, B, ldb, xflags, ldx, xout, next, st_next,
                                max_wait_ns, backoff_ns, st, order, tune, trace);
    else
        e = launch_pull<float>(&cfg, trace != NULL, tune.any_order != 0, n, ptr, ind, val, upper,
                               unit, mode, nrhs, B, ldb, xflags, ldx, xout, next, st_next,
                               max_wait_ns, backoff_ns, st, order, tune, trace);
    return e; /* the launch's own status: enqueued or not */
}

/* the grouped kernel of type T and LANES lanes per row */
template <typename T> static const void *groups_kernel(int lanes)
{
    return lanes == 4    ? (const void *)trsv_pull_groups_kernel<T, 4>
           : lanes == 8  ? (const void *)trsv_pull_groups_kernel<T, 8>
           : lanes == 16 ? (const void *)trsv_pull_groups_kernel<T, 16>
                         : (const void *)trsv_pull_groups_kernel<T, 32>;
}

extern "C" cudaError_t domino_launch_trsv_pull_groups(cudaStream_t stream, domino_type type, int32_t n,
                                                      const int64_t *ptr, const int32_t *ind, const void *val,
                                                      int upper, int unit, int lanes, int32_t nrhs,
                                                      const void *B, int64_t ldb, void *X, int64_t ldx,
                                                      int64_t max_wait_ns, unsigned backoff_ns,
                                                      domino_solve_status *st, const int32_t *order)
{
    if (n == 0) return cudaSuccess;
    if (lanes != 4 && lanes != 8 && lanes != 16) lanes = 32;
    const void *fn = type == DOMINO_FLOAT64 ? groups_kernel<double>(lanes) : groups_kernel<float>(lanes);
    /* as many blocks as run at once (the warps loop on the ticket), at most one position per group;
     * the count per device, type and lanes found once (a race only writes the same value twice) */
    static int resident[64][2][4];
    int device = 0, per_sm = 0, sms = 0, li = lanes == 4 ? 0 : lanes == 8 ? 1 : lanes == 16 ? 2 : 3;
    cudaError_t e = cudaGetDevice(&device);
    if (e) return e;
    int *cached = device >= 0 && device < 64 ? &resident[device][type == DOMINO_FLOAT64][li] : NULL;
    if (!cached || !*cached) {
        e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, PULL_THREADS, 0);
        if (!e) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        if (e) return e;
        per_sm = per_sm > 0 ? per_sm : 1;
        sms = sms > 0 ? sms : 1;
        if (cached) *cached = per_sm * sms;
    }
    int64_t groups_per_block = PULL_THREADS / lanes, want = ((int64_t)n + groups_per_block - 1) / groups_per_block;
    int64_t most = cached ? *cached : (int64_t)per_sm * sms;
    int blocks = (int)(want < most ? want : most);
    void *args[] = {&n, &ptr, &ind, &val, &upper, &unit, &nrhs, &B, &ldb, &X, &ldx, &max_wait_ns, &backoff_ns, &st, &order};
    e = domino_launch_fill_pending(stream, type, n, nrhs, X, ldx, st);
    if (!e) e = cudaLaunchKernel(fn, dim3(blocks), dim3(PULL_THREADS), args, 0, stream);
    return e;
}
