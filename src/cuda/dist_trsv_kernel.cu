/* dist_trsv_kernel.cu: the synchronization-free multi-GPU triangular solve
 * (CSC push, warp per component) and the scatter / gather of its solution.
 * The same kernel runs the unified-memory, zero-copy and push solvers: they
 * differ only in where counts and sums live (dist_trsv_args). */
#include "device_util.cuh" /* the pending sentinel */
#include "dist_trsv_internal.h"

#define FULL_MASK 0xffffffffu

/* a count of this GPU's memory, acquire at GPU scope */
static __device__ __forceinline__ int load_acquire_gpu(const int *p)
{
    int v;
    asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

/* a count or sum another GPU may write, or in another GPU's memory:
 * relaxed at system scope (not cached), ordered by a fence once seen */
static __device__ __forceinline__ int load_relaxed_sys_i32(const int *p)
{
    int v;
    asm volatile("ld.relaxed.sys.global.s32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}
static __device__ __forceinline__ double load_relaxed_sys(const double *p)
{
    double v;
    asm volatile("ld.relaxed.sys.global.f64 %0, [%1];" : "=d"(v) : "l"(p) : "memory");
    return v;
}
static __device__ __forceinline__ double load_relaxed_gpu(const double *p)
{
    double v;
    asm volatile("ld.relaxed.gpu.global.f64 %0, [%1];" : "=d"(v) : "l"(p) : "memory");
    return v;
}

static __device__ __forceinline__ unsigned long long global_ns(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* the back-off between two polls across NVLink: sleep *nap ns, then double
 * it, up to a->far_backoff_ns (64 ns, the default, stays 64) */
static __device__ __forceinline__ void far_nap(unsigned *nap, const dist_trsv_args *a)
{
    __nanosleep(*nap);
    if (*nap < a->far_backoff_ns) *nap = 2 * *nap < a->far_backoff_ns ? 2 * *nap : a->far_backoff_ns;
}

/* a wait's check, every 256 polls: 1 when another warp's wait timed out,
 * 2 when this one has seen no progress for timeout_ns since *t0, else 0;
 * progress restarts the clock */
static __device__ int wait_verdict(int progressed, unsigned long long *t0, const dist_trsv_args *a)
{
    if (*(volatile int *)a->error) return 1;
    unsigned long long t = global_ns();
    if (progressed) {
        *t0 = t;
        return 0;
    }
    return t - *t0 > a->timeout_ns ? 2 : 0;
}

/* wait until *cnt >= need; 0, or 1 when another warp's wait timed out, 2
 * when this one saw the count stand still for timeout_ns.  local: the count is in this GPU's memory
 * (acquire at GPU scope, a->backoff_ns between polls); else polled relaxed at system scope with a
 * back-off (the polls cross NVLink: 64 ns, doubled up to a->far_backoff_ns) and ordered by a
 * system fence once met. */
static __device__ int wait_count(const int *cnt, int need, int local, const dist_trsv_args *a)
{
    int seen = local ? load_acquire_gpu(cnt) : load_relaxed_sys_i32(cnt);
    if (seen >= need) {
        if (!local) __threadfence_system();
        return 0;
    }
    unsigned long long t0 = global_ns();
    unsigned nap = 64; /* far_nap's */
    for (unsigned polls = 1;; polls++) {
        int now;
        if (local) {
            if (a->backoff_ns) __nanosleep(a->backoff_ns);
            now = load_acquire_gpu(cnt);
        } else {
            far_nap(&nap, a);
            now = load_relaxed_sys_i32(cnt);
        }
        if (now >= need) {
            if (!local) __threadfence_system();
            return 0;
        }
        if ((polls & 255) == 0) {
            int verdict = wait_verdict(now != seen, &t0, a);
            if (verdict) return verdict;
            seen = now;
        }
    }
}

/* Each warp takes components in solve order from the ticket: waits for the
 * counts of its row at every source (one lane per source), sums their sums
 * with shuffles, solves, then pushes its column: sums first, a fence (system
 * scope when a row of another PE is touched), then counts; with
 * a.push_chunk, round by round (push_chunk entries, doubled each round).  Blocks never
 * wait on components taken after theirs, so any start order finishes. */
__global__ void __launch_bounds__(DIST_WARPS_PER_BLOCK * 32) dist_trsv_kernel(dist_trsv_args a)
{
    int lane = threadIdx.x & 31;
    for (;;) {
        unsigned t = 0;
        if (lane == 0) t = atomicAdd(a.ticket, 1u);
        t = __shfl_sync(FULL_MASK, t, 0);
        if (t >= (unsigned)a.nloc) return;
        int32_t i = __ldg(a.comp + t);
        /* the right-hand side, the pivot and the bounds, loaded before the waits (the
         * polls' asm keeps later loads behind them) */
        double bt = __ldg(a.b + t), piv = __ldg(a.pivot + t);
        int64_t k0 = __ldg(a.ptr + t), k1 = __ldg(a.ptr + t + 1);
        double part = 0.0;
        int stuck = 0;
        for (int s = lane; s < a.nsrc && !stuck; s += 32) {
            int need = __ldg(a.need + (size_t)s * a.nloc + t);
            if (need == 0) continue; /* nothing comes from there */
            int local = (a.src_local >> s) & 1;
            int w = wait_count(a.src_in[s] + i, need, local, &a);
            if (w)
                stuck = w == 2 ? s + 1 : -1;
            else
                part +=
                    local ? load_relaxed_gpu(a.src_sum[s] + i) : load_relaxed_sys(a.src_sum[s] + i);
        }
        if (__any_sync(FULL_MASK, stuck)) {
            if (stuck > 0 && atomicCAS(a.error, 0, 1) == 0) {
                a.error[1] = i;
                a.error[2] = stuck - 1;
            }
            return;
        }
        for (int o = 16; o > 0; o >>= 1)
            part += __shfl_xor_sync(FULL_MASK, part, o);
        double xi = (bt - part) / piv;
        if (lane == 0) a.x[t] = xi;
        /* the column in rounds of push_chunk entries, doubled each round (0: one round),
         * each round's counts after its sums and a fence: the first dependants of a long
         * column go on before the warp is through it */
        for (int64_t c0 = k0, chunk = a.push_chunk > 0 ? a.push_chunk : k1 - k0; c0 < k1; chunk *= 2) {
            int64_t c1 = k1 - c0 <= chunk ? k1 : c0 + chunk;
            int far = 0;
            for (int64_t k = c0 + lane; k < c1; k += 32) {
                int32_t r = __ldg(a.row + k);
                int q = __ldg(a.task_pe + r / a.task_size);
                double v = __ldg(a.val + k) * xi;
                if ((a.dst_local >> q) & 1)
                    atomicAdd(a.dst_sum[q] + r, v);
                else
                    atomicAdd_system(a.dst_sum[q] + r, v);
                far |= q != a.me; /* read or written by another GPU */
            }
            if (__any_sync(FULL_MASK, far))
                __threadfence_system();
            else
                __threadfence();
            for (int64_t k = c0 + lane; k < c1; k += 32) {
                int32_t r = __ldg(a.row + k);
                int q = __ldg(a.task_pe + r / a.task_size);
                if ((a.dst_local >> q) & 1)
                    atomicAdd(a.dst_in[q] + r, 1);
                else
                    atomicAdd_system(a.dst_in[q] + r, 1);
            }
            c0 = c1;
        }
    }
}

extern "C" const void *dist_trsv_kernel_fn(void)
{
    return (const void *)dist_trsv_kernel;
}

/* wait until *p is no longer pending; its value, or the pending sentinel
 * when the wait timed out (*stuck = 2) or another warp's did (*stuck = 1).
 * local: written by this GPU (GPU scope); else read at system scope, with
 * a back-off between polls when far (in another GPU's memory, 64 ns doubled
 * up to a->far_backoff_ns), and a->backoff_ns between polls of this GPU's memory */
static __device__ double wait_value(const double *p, int local, int far, const dist_trsv_args *a,
                                    int *stuck)
{
    unsigned long long t0 = global_ns();
    unsigned nap = 64; /* far_nap's */
    for (unsigned polls = 1;; polls++) {
        if (far)
            far_nap(&nap, a);
        else if (a->backoff_ns)
            __nanosleep(a->backoff_ns);
        double v = local ? load_relaxed_gpu(p) : load_relaxed_sys(p);
        if (!is_pending(v)) return v;
        if ((polls & 255) == 0 && (*stuck = wait_verdict(0, &t0, a))) return v;
    }
}

/* PULL (CSR, read-only): each group of LANES lanes (a warp when 32) takes
 * components in solve order from the ticket, a warp's groups 32 / LANES
 * consecutive ones with one atomic; a group's lanes read the x_j of its row,
 * local ones at GPU scope and other PEs' through NVLink at system scope,
 * each waited for while pending (groups of one warp may wait on each other:
 * independent thread scheduling, sm_70 on, lets the one waited for go on);
 * the group sums, solves and publishes x_i with one relaxed system-scope
 * store (the value is the flag: no fence, no counter, no atomics).  With
 * a.readers (copies), the group also stores x_i into the array of every PE
 * whose rows read it, and reads every x_j from its own PE's array: values
 * cross NVLink as posted stores instead of polled loads. */
template <int LANES>
__global__ void __launch_bounds__(DIST_WARPS_PER_BLOCK * 32) dist_trsv_pull_kernel(dist_trsv_args a)
{
    const unsigned groups = 32 / LANES;
    int lane = threadIdx.x & 31, sub = lane % LANES;
    unsigned group = (unsigned)lane / LANES;
    unsigned mask = LANES == 32 ? FULL_MASK : ((1u << LANES) - 1u) << (group * LANES);
    double *mine = a.peer_x[a.me];
    /* the copy array of PE sub, the first this lane may store to (copy mode bit 0) */
    double *first_copy = sub < a.npes ? a.peer_x[sub] : mine;
    for (;;) {
        unsigned t = 0;
        if (lane == 0) t = atomicAdd(a.ticket, groups);
        t = __shfl_sync(FULL_MASK, t, 0);
        if (t >= (unsigned)a.nloc) return;
        t += group;
        int stuck = 0, culprit = -1, group_stuck = 0;
        int32_t i = -1;
        if (t < (unsigned)a.nloc) { /* the same for the whole group */
            i = __ldg(a.comp + t);
            int64_t k0 = __ldg(a.ptr + t), k1 = __ldg(a.ptr + t + 1);
            /* everything the row needs after its last wait is loaded before the first:
             * the polls' asm keeps later loads behind them, and each would add a trip
             * to memory to every level's hop (b, pivot, readers, each entry's value) */
            double bt = __ldg(a.b + t), piv = __ldg(a.pivot + t);
            unsigned rd = a.readers ? __ldg(a.readers + t) : 0u;
            double acc = 0.0;
            /* with copies, every x_j is in this GPU's array (mode bit 1: loaded at
             * system scope, its owner not looked up) */
            int sys_only = a.readers && (a.pull_copy_mode & 2u);
            for (int64_t k = k0 + sub; k < k1 && !stuck; k += LANES) {
                int32_t j = __ldg(a.row + k);
                double w = __ldg(a.val + k);
                int q = sys_only ? -1 : __ldg(a.task_pe + j / a.task_size);
                int local = q == a.me, far = !local && !a.readers;
                const double *p = (far ? a.peer_x[q] : mine) + j;
                double v = local ? load_relaxed_gpu(p) : load_relaxed_sys(p);
                if (is_pending(v)) v = wait_value(p, local, far, &a, &stuck);
                if (stuck) /* (the owner looked up now where it was not) */
                    culprit = q >= 0 ? q : __ldg(a.task_pe + j / a.task_size);
                else
                    acc += w * v;
            }
            group_stuck = __any_sync(mask, stuck);
            if (!group_stuck) {
                for (int o = LANES / 2; o > 0; o >>= 1)
                    acc += __shfl_xor_sync(mask, acc, o);
                double xi = publishable((bt - acc) / piv);
                if (sub == 0) store_relaxed_sys(mine + i, xi);
                if (a.readers && (a.pull_copy_mode & 1u)) {
                    /* lane q % LANES stores PE q's copy: one instruction sends the
                     * copies of all the warp's groups for one PE */
                    if (sub < a.npes && ((rd >> sub) & 1u)) store_relaxed_sys(first_copy + i, xi);
                    for (int q = sub + LANES; q < a.npes && q < 32; q += LANES)
                        if ((rd >> q) & 1u) store_relaxed_sys(a.peer_x[q] + i, xi);
                } else if (a.readers) { /* lane u % LANES stores the u-th reader's copy */
                    for (int u = 0; rd; u++, rd &= rd - 1)
                        if (u % LANES == sub) store_relaxed_sys(a.peer_x[__ffs(rd) - 1] + i, xi);
                }
            }
        }
        /* a warp-wide group already knows (no second vote on the default path) */
        if (LANES == 32 ? group_stuck : __any_sync(FULL_MASK, stuck)) {
            if (stuck == 2 && atomicCAS(a.error, 0, 1) == 0) {
                a.error[1] = i;
                a.error[2] = culprit;
            }
            return;
        }
    }
}

extern "C" const void *dist_trsv_pull_kernel_fn(int lanes)
{
    return lanes == 1    ? (const void *)dist_trsv_pull_kernel<1>
           : lanes == 2  ? (const void *)dist_trsv_pull_kernel<2>
           : lanes == 4  ? (const void *)dist_trsv_pull_kernel<4>
           : lanes == 8  ? (const void *)dist_trsv_pull_kernel<8>
           : lanes == 16 ? (const void *)dist_trsv_pull_kernel<16>
                         : (const void *)dist_trsv_pull_kernel<32>;
}

__global__ void fill_pending_kernel(double *x, int32_t n)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x)
        make_pending(x + i);
}

extern "C" cudaError_t dist_trsv_fill_pending(double *x, int32_t n, cudaStream_t stream)
{
    if (n > 0) fill_pending_kernel<<<1024, 256, 0, stream>>>(x, n);
    return cudaGetLastError();
}

extern "C" int dist_trsv_blocks(int32_t nloc, int device, int pull_lanes)
{
    int per_sm = 0, sms = 0;
    /* the instance that runs: a collective launch needs every block resident */
    const void *fn = pull_lanes ? dist_trsv_pull_kernel_fn(pull_lanes) : dist_trsv_kernel_fn();
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, DIST_WARPS_PER_BLOCK * 32, 0) ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device)) {
        cudaGetLastError();
        per_sm = 1;
        sms = 1;
    }
    /* the pull solver keeps DIST_PULL_BLOCKS_PER_SM blocks an SM (fewer warps in flight:
     * bench/results/h200x4-grid), DIST_PULL_BLOCKS_PER_SM_THREAD with a thread per row (the
     * 10^7-row DAGs of 10 and 100 levels on 2 H200s: 0.628 / 0.626 ms at 6, 0.638 / 0.696
     * at 8, 0.736 / 0.751 at 12; bench/results/h200-pull-thread17), DIST_PULL_BLOCKS_PER_SM_PAIR
     * with 2 lanes (the 100-level DAG on 4 PEs: 0.484 ms at 8, 0.514 at 10, 0.508 at 12,
     * h200-pull-thread17/grid4); DOMINO_DIST_BLOCKS_PER_SM, tuning experiments, sets any
     * solver's (0: as many as fit) */
    int cap = domino_env_int("DOMINO_DIST_BLOCKS_PER_SM", pull_lanes == 1 ? DIST_PULL_BLOCKS_PER_SM_THREAD
                                                          : pull_lanes == 2 ? DIST_PULL_BLOCKS_PER_SM_PAIR
                                                          : pull_lanes      ? DIST_PULL_BLOCKS_PER_SM
                                                                            : 0);
    if (cap > 0 && cap < per_sm) per_sm = cap;
    int64_t want = ((int64_t)nloc + DIST_WARPS_PER_BLOCK - 1) / DIST_WARPS_PER_BLOCK;
    int64_t most = (int64_t)per_sm * sms;
    return (int)(want < 1 ? 1 : want < most ? want : most);
}

/* x_full[comp[k]] = x[k] */
__global__ void scatter_kernel(const int32_t *comp, const double *x, int32_t nloc, double *x_full)
{
    for (int64_t k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; k < nloc;
         k += (int64_t)gridDim.x * blockDim.x)
        x_full[comp[k]] = x[k];
}

extern "C" cudaError_t dist_trsv_scatter(const int32_t *comp, const double *x, int32_t nloc,
                                         double *x_full, cudaStream_t stream)
{
    if (nloc > 0) scatter_kernel<<<1024, 256, 0, stream>>>(comp, x, nloc, x_full);
    return cudaGetLastError();
}

/* x_full[i] = peer_x[q][i] for rows of other PEs */
__global__ void gather_kernel(double *x_full, double *const *peer_x, const int *task_pe,
                              int32_t task_size, int32_t n, int me)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x) {
        int q = task_pe[i / task_size];
        if (q != me) x_full[i] = load_relaxed_sys(peer_x[q] + i);
    }
}

extern "C" cudaError_t dist_trsv_gather(double *x_full, double *const *peer_x, const int *task_pe,
                                        int32_t task_size, int32_t n, int me, cudaStream_t stream)
{
    if (n > 0) gather_kernel<<<1024, 256, 0, stream>>>(x_full, peer_x, task_pe, task_size, n, me);
    return cudaGetLastError();
}
