/* trsv_levelblock.cu: level-set triangular solve in one thread block (the
 * "levelblock" engine), for small systems.
 *
 * The analysis (trsv_level_order.c, on the host) numbers the rows level by
 * level and copies each row's off-diagonal entries in that order, so the
 * entries of one level are contiguous.  One block solves the levels in
 * turn: groups of LANES lanes take the rows of a level, each adds its row's
 * entries against x, one lane divides, and a barrier of the solving warps
 * ends the level.  A dependency is handed over inside one SM, through
 * shared memory (SHARED: x, started as b, when n values fit) or through
 * the SM's view of X (else), never through a flag in L2: a level costs a
 * few loads and a barrier, where the synchronization-free engines pay an
 * L2 round trip per dependency hop (~1 us on an H100).  A level's data come
 * from shared memory too: loader warps copy the coming levels, many at a
 * time, into a ring there, ahead of the solving warps (first GPU run, H200,
 * bench/results/h200-levelblock1: loading each level's data from global
 * memory when it was solved cost ~0.8 us a level, L2 latency; prefetching
 * them into L1 made it slower).  Levels larger than half the ring are read
 * from memory directly.  One SM's bandwidth bounds a level's work: the
 * engine is for small systems, deep ones above all.
 * Summation order is fixed (each lane in stored order, then a fixed
 * shuffle tree): results are bitwise reproducible.  Rows never wait on
 * rows (a level starts after the barrier that ends the one before), so
 * there is no dependency wait to bound (max_wait_ms does not apply); the
 * loader and the solvers wait only for each other, and neither on itself. */
#include "gpu_internal.h"

#define LB_THREADS 1024 /* the block: solving warps from warp 0, the loaders in the last warps */
#define LB_RING_POS 1024 /* positions the ring holds (a power of two) */
#define LB_RING_ENT 2048 /* entries the ring holds (a power of two) */
#define LB_RING_LEV 128  /* level bounds the ring holds (a power of two) */
#define LB_AHEAD_LEV 96  /* levels the loader may be ahead of the solvers */
#define LB_BATCH 31      /* most levels one copy takes */
#define LB_PUBLISH 16    /* solved levels are announced to the loader this often */
#define LB_DEPTH 4       /* rounds of entries in flight a loader lane */
#define LB_DEPTH_POS 2   /* rounds of positions (four loads each) in flight a loader lane */

/* one entry in the ring: its column and value, one shared-memory load */
template <typename T> struct __align__(2 * sizeof(T) > 8 ? 2 * sizeof(T) : 8) lb_entry {
    int32_t col; /* column */
    T val;       /* value */
};

/* the ring in shared memory (after x when x is there): the positions,
 * entries and level bounds of the levels the loader copied, and the
 * counters that hand levels over.  A level costs the solvers a chain of
 * shared-memory loads (bounds, position, entries, x) and one product per
 * entry: its data are packed so that each link is one load. */
template <typename T> struct lb_ring {
    int4 pos[LB_RING_POS];          /* first and end entry and row of each position */
    T dinv[LB_RING_POS];            /* reciprocal of the diagonal of each position */
    lb_entry<T> ent[LB_RING_ENT];   /* column and value of each entry */
    int4 lev[LB_RING_LEV];          /* first position and entry of each level, and 1 when
                                       the level was not copied (read from memory) */
    int32_t loaded;                 /* levels copied (or marked big) */
    int32_t done;                   /* levels solved, as last announced */
    int32_t done_q, done_e;         /* their positions and entries */
};

template <typename T> static size_t lb_ring_bytes() { return sizeof(lb_ring<T>); }

__device__ __forceinline__ int32_t ld_volatile(const int32_t *p) { return *(const volatile int32_t *)p; }
/* orders the ring's data against the counters (lighter than
 * __threadfence_block, which is a sequentially consistent fence) */
__device__ __forceinline__ void lb_fence(void) { asm volatile("fence.acq_rel.cta;" ::: "memory"); }
__device__ __forceinline__ void st_volatile(int32_t *p, int32_t v) { *(volatile int32_t *)p = v; }

/* [*b, *e): loader warp lw's part of [lo, hi) cut in `loaders` parts of
 * a multiple of 32 */
__device__ __forceinline__ void loader_slice(int32_t lo, int32_t hi, int lw, int loaders, int32_t *b,
                                             int32_t *e)
{
    int32_t part = ((hi - lo + loaders - 1) / loaders + 31) & ~31;
    *b = lo + lw * part < hi ? lo + lw * part : hi;
    *e = *b + part < hi ? *b + part : hi;
}

/* The loader warps (lw = 0 .. loaders-1): copy levels into the ring,
 * LB_BATCH or fewer at a time (as many as half the ring holds), ahead of
 * the solvers, waiting for room; a level too large for half the ring is
 * marked big and not copied.  Lane j holds the bounds of level L + j, so
 * one copy costs two rounds of loads (bounds, then the data) for up to
 * LB_BATCH levels.  Every loader warp makes the same choice of levels (from
 * the bounds alone) and copies a slice of their positions and entries
 * (loader_slice); their barrier (named barrier 2) orders the copies
 * before warp 0 announces them.  One warp's loads in flight bounded the
 * engine on levels of a few hundred entries (bcsstk33: ~0.84 us a level,
 * against ~0.4-0.5 us on the narrow ones). */
template <typename T, bool MULTI>
__device__ void levelblock_loader(const domino_levelblock_args &a, lb_ring<T> *R, int lw)
{
    const int lane = (int)threadIdx.x % 32, loaders = MULTI ? a.loaders : 1;
    const int32_t nlevels = a.nlevels;
    const int32_t *__restrict__ ptr = a.ptr;
    const int32_t *__restrict__ row = a.row;
    const int32_t *__restrict__ col = a.col;
    const T *__restrict__ val = (const T *)a.val;
    const T *__restrict__ diag = (const T *)a.diag;
    for (int32_t L = 0; L < nlevels;) {
        int32_t lj = L + lane <= nlevels ? L + lane : nlevels;
        int32_t bq = __ldg(&a.level_ptr[lj]), be = __ldg(&a.level_entries[lj]);
        int32_t q0 = __shfl_sync(0xffffffffu, bq, 0), e0 = __shfl_sync(0xffffffffu, be, 0);
        int32_t nq = __shfl_down_sync(0xffffffffu, bq, 1), ne = __shfl_down_sync(0xffffffffu, be, 1);
        /* level L + lane fits the batch: it exists, and levels L .. L + lane take half the ring at most */
        bool fits = lane < LB_BATCH && L + lane < nlevels && nq - q0 <= LB_RING_POS / 2 &&
                    ne - e0 <= LB_RING_ENT / 2;
        unsigned m = __ballot_sync(0xffffffffu, fits);
        int32_t k = (int32_t)__ffs(~m) - 1; /* leading levels that fit */
        int big = k == 0;
        if (big) k = 1;
        int32_t q1 = __shfl_sync(0xffffffffu, bq, k), e1 = __shfl_sync(0xffffffffu, be, k);
        /* room: the solvers are done with the slots these levels take */
        for (;;) {
            int32_t dq = ld_volatile(&R->done_q), de = ld_volatile(&R->done_e), dl = ld_volatile(&R->done);
            bool room = L + k - dl <= LB_AHEAD_LEV &&
                        (big || (q1 - dq <= LB_RING_POS && e1 - de <= LB_RING_ENT));
            if (__all_sync(0xffffffffu, room)) break;
            __nanosleep(32);
        }
        lb_fence(); /* the solvers' reads of the freed slots come before our writes */
        if ((!MULTI || lw == 0) && lane <= k) /* bounds of levels L .. L + k */
            R->lev[(L + lane) & (LB_RING_LEV - 1)] = make_int4(bq, be, big, 0);
        if (!big && !MULTI) {
#pragma unroll 4
            for (int32_t q = q0 + lane; q < q1; q += 32) {
                int s = q & (LB_RING_POS - 1);
                R->pos[s] = make_int4(__ldg(&ptr[q]), __ldg(&ptr[q + 1]), __ldg(&row[q]), 0);
                R->dinv[s] = a.unit ? (T)1 : __ldg(&diag[q]);
            }
#pragma unroll 4
            for (int32_t e = e0 + lane; e < e1; e += 32) {
                lb_entry<T> E;
                E.col = __ldg(&col[e]);
                E.val = __ldg(&val[e]);
                R->ent[e & (LB_RING_ENT - 1)] = E;
            }
        } else if (!big) {
            /* this warp's slice of the positions and of the entries, in
             * rounds of LB_DEPTH x 32, every load of a round before its
             * stores (a stride of 32 x loaders left one load in flight a
             * lane: half the speed of one loader warp on bcsstk33) */
            int32_t qb, qe, eb, ee;
            loader_slice(q0, q1, lw, loaders, &qb, &qe);
            loader_slice(e0, e1, lw, loaders, &eb, &ee);
            for (int32_t q = qb + lane; q < qe; q += LB_DEPTH_POS * 32) {
                int4 P[LB_DEPTH_POS];
                T D[LB_DEPTH_POS];
#pragma unroll
                for (int u = 0; u < LB_DEPTH_POS; u++)
                    if (q + 32 * u < qe) {
                        P[u] = make_int4(__ldg(&ptr[q + 32 * u]), __ldg(&ptr[q + 32 * u + 1]),
                                         __ldg(&row[q + 32 * u]), 0);
                        D[u] = a.unit ? (T)1 : __ldg(&diag[q + 32 * u]);
                    }
#pragma unroll
                for (int u = 0; u < LB_DEPTH_POS; u++)
                    if (q + 32 * u < qe) {
                        R->pos[(q + 32 * u) & (LB_RING_POS - 1)] = P[u];
                        R->dinv[(q + 32 * u) & (LB_RING_POS - 1)] = D[u];
                    }
            }
            for (int32_t e = eb + lane; e < ee; e += LB_DEPTH * 32) {
                lb_entry<T> E[LB_DEPTH];
#pragma unroll
                for (int u = 0; u < LB_DEPTH; u++)
                    if (e + 32 * u < ee) {
                        E[u].col = __ldg(&col[e + 32 * u]);
                        E[u].val = __ldg(&val[e + 32 * u]);
                    }
#pragma unroll
                for (int u = 0; u < LB_DEPTH; u++)
                    if (e + 32 * u < ee) R->ent[(e + 32 * u) & (LB_RING_ENT - 1)] = E[u];
            }
        }
        __syncwarp();
        if (MULTI) asm volatile("bar.sync 2, %0;" ::"r"(32 * loaders) : "memory");
        lb_fence();
        if ((!MULTI || lw == 0) && lane == 0) st_volatile(&R->loaded, L + k);
        L += k;
    }
}

/* the solving warps' barrier (named barrier 1; the loader and idle warps
 * never take part); one solving warp only synchronizes itself */
__device__ __forceinline__ void solvers_barrier(int threads)
{
    if (threads == 32)
        __syncwarp();
    else
        asm volatile("bar.sync 1, %0;" ::"r"(threads) : "memory");
}

/* Solve S X = B (nrhs columns) with the level order of a.  Contract: a
 * holds the level order of S (trsv_level_order.h) with values and
 * diagonals gathered (domino_launch_levelblock_values); one block of
 * LB_THREADS threads, the last a.loaders warps load, a.threads <=
 * LB_THREADS - 32 a.loaders from thread 0 solve; dynamic
 * shared memory for the ring, and n values before it when SHARED; B and X
 * do not overlap.  Solvers wait for the loader only between levels, the
 * loader for the solvers only for room: neither waits on itself. */
template <typename T, int LANES, bool SHARED, bool MULTI>
__global__ void __launch_bounds__(LB_THREADS, 1)
    trsv_levelblock_kernel(domino_levelblock_args a, int32_t nrhs, const T *__restrict__ B,
                           int64_t ldb, T *X, int64_t ldx)
{
    extern __shared__ __align__(16) unsigned char levelblock_shared[];
    const int32_t n = a.n, nlevels = a.nlevels;
    lb_ring<T> *R = (lb_ring<T> *)(levelblock_shared +
                                   (SHARED ? ((size_t)n * sizeof(T) + 15) / 16 * 16 : 0));
    const int solvers = a.threads;
    const int per_warp = 32 / LANES; /* groups (rows at a time) of a warp */
    const int32_t groups = solvers / LANES;
    const int warp = (int)threadIdx.x / 32;
    const int group = ((int)threadIdx.x % 32) / LANES, sub = (int)threadIdx.x % LANES;
    for (int32_t r = 0; r < nrhs; r++) {
        const T *b = B + (int64_t)r * ldb;
        T *x = X + (int64_t)r * ldx;
        T *xv = SHARED ? (T *)levelblock_shared : x; /* x_i is b_i until row i is solved */
#pragma unroll 4
        for (int32_t i = (int32_t)threadIdx.x; i < n; i += (int32_t)blockDim.x) xv[i] = __ldg(&b[i]);
        if (threadIdx.x == 0) R->loaded = R->done = R->done_q = R->done_e = 0;
        __syncthreads();
        if (MULTI ? warp >= LB_THREADS / 32 - a.loaders : warp == LB_THREADS / 32 - 1) {
            levelblock_loader<T, MULTI>(a, R, MULTI ? warp - (LB_THREADS / 32 - a.loaders) : 0);
        } else if ((int)threadIdx.x < solvers) {
            int32_t loaded = 0; /* levels known to be in the ring */
            int4 lv = make_int4(0, 0, 0, 0);
            for (int32_t l = 0; l < nlevels; l++) {
                if (l >= loaded) { /* now and then: the loader is ahead */
                    while ((loaded = ld_volatile(&R->loaded)) <= l)
                        ;
                    lb_fence();
                    lv = R->lev[l & (LB_RING_LEV - 1)];
                }
                const int4 next = R->lev[(l + 1) & (LB_RING_LEV - 1)];
                const int32_t q0 = lv.x, q1 = next.x, e1 = next.y;
                const bool big = lv.z != 0;
                /* warp-uniform trip count: the shuffles see the whole warp */
                for (int32_t qb = q0 + warp * per_warp; qb < q1; qb += groups) {
                    int32_t q = qb + group, i = 0;
                    bool on = q < q1;
                    T s = (T)0, d = (T)1; /* d: the diagonal's reciprocal */
                    if (on && big) {
                        int32_t k0 = __ldg(&a.ptr[q]), k1 = __ldg(&a.ptr[q + 1]);
                        i = __ldg(&a.row[q]);
                        if (!a.unit) d = __ldg(&((const T *)a.diag)[q]);
#pragma unroll 4
                        for (int32_t k = k0 + sub; k < k1; k += LANES)
                            s += __ldg(&((const T *)a.val)[k]) * xv[__ldg(&a.col[k])];
                    } else if (on) {
                        const int4 P = R->pos[q & (LB_RING_POS - 1)]; /* k0, k1, row */
                        i = P.z;
                        d = R->dinv[q & (LB_RING_POS - 1)];
                        /* four entries a lane at a time, in stored order */
                        for (int32_t k = P.x + sub; k < P.y; k += 4 * LANES) {
#pragma unroll
                            for (int u = 0; u < 4; u++) {
                                int32_t kk = k + u * LANES;
                                if (kk < P.y) {
                                    const lb_entry<T> E = R->ent[kk & (LB_RING_ENT - 1)];
                                    s += E.val * xv[E.col];
                                }
                            }
                        }
                    }
#pragma unroll
                    for (int o = LANES / 2; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
                    if (on && sub == 0) {
                        T bi = xv[i];
                        xv[i] = a.unit ? bi - s : (bi - s) * d;
                    }
                }
                solvers_barrier(solvers);
                /* the solved levels' slots are free: said every LB_PUBLISH
                 * levels, and before the solvers may wait for the loader */
                if (threadIdx.x == 0 && ((l + 1) % LB_PUBLISH == 0 || l + 1 >= loaded)) {
                    lb_fence();
                    st_volatile(&R->done_q, q1);
                    st_volatile(&R->done_e, e1);
                    st_volatile(&R->done, l + 1);
                }
                lv = next;
            }
        }
        __syncthreads();
        if (SHARED) {
            for (int32_t i = (int32_t)threadIdx.x; i < n; i += (int32_t)blockDim.x) x[i] = xv[i];
            __syncthreads(); /* the next right-hand side overwrites xv */
        }
    }
}

/* values of the level order: val[k] = eval[src[k]], and diag[q] = 1 / the
 * sum of row[q]'s diagonal entries (repeated ones add up, as in the other
 * engines), found in slice row[q] of the engine arrays (aptr, aind: that
 * slice holds S(i, i) whether they are CSR(S) or CSC(S)).  A product in
 * the solve instead of a division: the division's ~20 dependent
 * instructions cost more than the rest of a narrow level.  (So a pivot
 * whose reciprocal overflows, a subnormal one, gives Inf where a division
 * would not.) */
template <typename T>
__global__ void levelblock_values_kernel(int64_t m, const int32_t *__restrict__ src, int32_t n,
                                         const int32_t *__restrict__ row,
                                         const int64_t *__restrict__ aptr,
                                         const int32_t *__restrict__ aind,
                                         const T *__restrict__ eval, T *val, T *diag)
{
    int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; k < m + n; k += stride) {
        if (k < m) {
            val[k] = eval[src[k]];
        } else {
            int32_t i = row[k - m];
            T d = (T)0;
            for (int64_t j = aptr[i]; j < aptr[i + 1]; j++)
                if (aind[j] == i) d += eval[j];
            diag[k - m] = (T)1 / d;
        }
    }
}

extern "C" cudaError_t domino_launch_levelblock_values(cudaStream_t stream, domino_type type,
                                                       int64_t m, const int32_t *src, int32_t n,
                                                       const int32_t *row, const int64_t *aptr,
                                                       const int32_t *aind, const void *eval,
                                                       void *val, void *diag)
{
    int64_t total = m + n;
    if (total == 0) return cudaSuccess;
    int blocks = (int)((total + 255) / 256 < 4096 ? (total + 255) / 256 : 4096);
    if (type == DOMINO_FLOAT64)
        levelblock_values_kernel<double><<<blocks, 256, 0, stream>>>(
            m, src, n, row, aptr, aind, (const double *)eval, (double *)val, (double *)diag);
    else
        levelblock_values_kernel<float><<<blocks, 256, 0, stream>>>(
            m, src, n, row, aptr, aind, (const float *)eval, (float *)val, (float *)diag);
    return cudaGetLastError();
}

/* the kernel of type T, lanes per row, x placement and loader warps
 * (MULTI: more than one).  One loader warp is an instance of its own, the
 * kernel as it was before there were more: with both in one instance the
 * narrow levels of fidapex6 and zenios ran 5-7 % slower with one warp */
template <typename T, bool SHARED, bool MULTI> static const void *levelblock_kernel_of(int lanes)
{
    return lanes == 1    ? (const void *)trsv_levelblock_kernel<T, 1, SHARED, MULTI>
           : lanes == 2  ? (const void *)trsv_levelblock_kernel<T, 2, SHARED, MULTI>
           : lanes == 4  ? (const void *)trsv_levelblock_kernel<T, 4, SHARED, MULTI>
           : lanes == 8  ? (const void *)trsv_levelblock_kernel<T, 8, SHARED, MULTI>
           : lanes == 16 ? (const void *)trsv_levelblock_kernel<T, 16, SHARED, MULTI>
                         : (const void *)trsv_levelblock_kernel<T, 32, SHARED, MULTI>;
}

template <typename T> static const void *levelblock_kernel_pick(int lanes, int shared, int multi)
{
    return shared ? (multi ? levelblock_kernel_of<T, true, true>(lanes) : levelblock_kernel_of<T, true, false>(lanes))
                  : (multi ? levelblock_kernel_of<T, false, true>(lanes)
                           : levelblock_kernel_of<T, false, false>(lanes));
}

static int lanes_index(int lanes)
{
    int k = 0;
    while ((1 << k) < lanes && k < 5) k++;
    return k;
}

/* dynamic shared memory of a launch: x (when shared) and the ring */
static size_t levelblock_bytes(domino_type type, int32_t n, int shared)
{
    size_t ts = domino_type_size(type);
    size_t ring = type == DOMINO_FLOAT64 ? lb_ring_bytes<double>() : lb_ring_bytes<float>();
    return (shared ? ((size_t)n * ts + 15) / 16 * 16 : 0) + ring;
}

extern "C" cudaError_t domino_levelblock_fits(domino_type type, int32_t n, int *fits)
{
    size_t limit = 0;
    cudaError_t e = domino_block_shared_limit(&limit);
    *fits = !e && levelblock_bytes(type, n, 1) <= limit;
    return e;
}

extern "C" cudaError_t domino_launch_trsv_levelblock(cudaStream_t stream, domino_type type,
                                                     const domino_levelblock_args *a, int32_t nrhs,
                                                     const void *B, int64_t ldb, void *X,
                                                     int64_t ldx)
{
    if (a->n == 0) return cudaSuccess;
    domino_levelblock_args args = *a;
    if (args.loaders < 1 || args.loaders > 8) args.loaders = 1;
    if (args.threads > LB_THREADS - 32 * args.loaders) args.threads = LB_THREADS - 32 * args.loaders;
    if (args.threads < 32 || args.threads % 32) args.threads = 256;
    if (args.lanes != 1 && args.lanes != 2 && args.lanes != 4 && args.lanes != 8 && args.lanes != 16)
        args.lanes = 32;
    int dbl = type == DOMINO_FLOAT64, shared = args.shared != 0, multi = args.loaders > 1;
    const void *fn = dbl ? levelblock_kernel_pick<double>(args.lanes, shared, multi)
                         : levelblock_kernel_pick<float>(args.lanes, shared, multi);
    size_t bytes = levelblock_bytes(type, args.n, shared);
    static char raised[2][2][2][6][DOMINO_RAISED_DEVICES];
    cudaError_t e = domino_block_raise_shared(fn, bytes, raised[dbl][shared][multi][lanes_index(args.lanes)]);
    if (e) return e;
    void *params[] = {&args, &nrhs, &B, &ldb, &X, &ldx};
    return cudaLaunchKernel(fn, dim3(1), dim3(LB_THREADS), params, bytes, stream);
}
