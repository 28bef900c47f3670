/* factor_box.cu: the box path of the GPU ILU(0) / IC(0): a thread per row of
 * a 3x3x3 box stencil (D3N27) whose every row holds exactly its stencil
 * entries inside the grid (factor_stencil.c decides: IC(0) from 2^20 rows).
 *
 * Why: the table path (factor_ilu0.cu) gives a row a group of lanes that
 * walk its 13 steps (one per lower neighbour k) through working values in
 * global memory, 4,600-5,600 warp instructions a row on D3N27
 * (bench/results/h100-precond17), and at 128^3 and up it is bound by the
 * rows it can hold in flight.  Here one thread holds its whole row in
 * registers; the slots an update meets are compile-time constants of the
 * box (domino_factor_box_* in factor_plan.h), and a boundary row only masks
 * slots out (the bits of domino_factor_row_mask), so no row searches and
 * no table is read.
 *
 * A row's steps come in two phases: the neighbours k two or more levels
 * behind (slots 0-7: z - 1, and (x - 1, y + 1, z - 1)) are usually done
 * long before the row's last dependency, so their steps run first; the
 * last five (slots 8-12: (x + 1, y + 1, z - 1) and the row's own plane)
 * hold the neighbours one level behind.  A phase polls the published
 * pivots of its rows k together (one memory latency however many are
 * missing), then copies every value its steps read into the thread's
 * column of shared memory at once (cp.async: one latency for the phase),
 * and reloads together a step's values still pending (a value is its own
 * ready flag, device_util.cuh; the pivot is stored last, but relaxed stores
 * to different addresses may reach the L2 in any order).  The warp
 * reconverges after every wait: a warp whose lanes left a wait at
 * different rounds ran the long unrolled steps lane group by lane group
 * (H200: D3N27 192^3 IC(0) 13.4 -> 8.3 ms, bench/results/h200-box18).
 *
 * Rows are ticketed by the key x + 2 y + 4 z (every row read holds a
 * smaller ticket: no deadlock, as in factor_ilu0.cu), 32 a warp, each
 * key's rows padded to a multiple of 32 (factor_stencil.c: a warp never
 * holds a row and a row it reads), matrix after matrix; warps loop over
 * tickets, and the grid holds about BOX_LEVELS_IN_FLIGHT keys' rows (more
 * waiting rows only poll).  Values are read from A itself (no working
 * copy): slot s of row i sits at ptr[i] + popcount(mask & below(s)) in the
 * factor and in A (IC(0)'s tril rows are prefixes of A's).
 *
 * Arithmetic: the CPU reference's (ref_ilu0.c, ref_ic0.c), each entry
 * updated in increasing column order with __dmul_rn / __dsub_rn and IEEE
 * division, IC(0)'s inner products summed in row k's order: the factors are
 * the CPU's bit for bit.
 *
 * IC(0) from 2^18 rows goes by grid lines instead (factor_box_lines.cu): a
 * warp a line, the rows still in registers, the in-line pivots scanned.
 * The helpers both share: factor_box.cuh. */
#include "factor_box.cuh"
#include "device_util.cuh"
#include "internal.h"

/* blocks an SM at least: ILU(0) 3 (168 registers a thread, about 100
 * bytes spilled; with 4, more spills; DOMINO_FACTOR_BOX_BLOCKS=2 takes a
 * kernel of 2, which may keep all in registers), IC(0) 4 (128, none
 * spilled) */
#define BOX_MIN_BLOCKS(KIND) ((KIND) == 0 ? 3 : 4)
#define BOX_LATE 8          /* the first slot of the second phase */
#define BOX_LEVELS_IN_FLIGHT 4 /* rows in flight: this many keys' worth (h200-box18: 2, 16 and all slower) */

/* box_poll: the rows k of row i's steps s in [S0, S1) (box_rows), and
 * their pivots d, polled until none is pending (every round reloads the
 * pending ones together: one memory latency a round however many are
 * missing). */
template <int S0, int S1>
__device__ __forceinline__ void box_poll(const factor_stencil_args &a, int32_t i, int32_t x, int32_t y,
                                         int32_t z, uint32_t m, int64_t pf, const int64_t *__restrict__ ptr,
                                         const double *v, int cap, int32_t *dk, uint32_t *mk, double *d)
{
    box_rows<S0, S1>(a, i, x, y, z, m, pf, ptr, dk, mk);
#pragma unroll
    for (int s = S0; s < S1; s++)
        d[s - S0] = (m >> s & 1) ? __ldcg(&v[box_at(pf + dk[s - S0], mk[s - S0], BOX_LOWER)]) : 0.0;
    unsigned ns = 32;
    for (;;) {
        bool missing = false;
#pragma unroll
        for (int s = S0; s < S1; s++) missing |= (m >> s & 1) && is_pending(d[s - S0]);
        if (!missing) break;
        back_off(&ns, cap);
#pragma unroll
        for (int s = S0; s < S1; s++)
            if ((m >> s & 1) && is_pending(d[s - S0]))
                d[s - S0] = load_relaxed(&v[box_at(pf + dk[s - S0], mk[s - S0], BOX_LOWER)]);
    }
    __syncwarp(); /* the lanes left the wait at different rounds: one path again */
}

/* Every value of the rows k (box_poll) that row i's steps s in [S0, S1)
 * read, into the thread's column of buf at once (cp.async: one memory
 * latency), value j of the steps' compile-time order at buf[j * BOX_THREADS];
 * the values row i does not meet are not copied. */
template <int KIND, int S0, int S1>
__device__ __forceinline__ void box_copy(uint32_t m, int64_t pf, const int32_t *dk, const uint32_t *mk,
                                         const double *v, double *buf)
{
    constexpr int T = KIND == 0 ? 27 : BOX_LOWER;
    int j = 0;
#pragma unroll
    for (int s = S0; s < S1; s++)
#pragma unroll
        for (int t = 0; t < T; t++)
            if (box_reads(KIND, s, t)) {
                if ((m >> s & 1) && (m >> box_i_slot(KIND, s, t) & 1))
                    box_copy_async(&buf[j * BOX_THREADS],
                                   &v[box_at(pf + dk[s - S0], mk[s - S0], box_k_slot(KIND, s, t))]);
                j++;
            }
    box_copy_wait();
}

/* The steps s in [S0, S1) of row i (at x, y, z, mask m; its factor row at
 * pf): find the rows k, poll their pivots together, then apply each row k
 * in increasing s.  w: the row's working values (KIND 0: all 27 slots; 1:
 * slots 0-13); pivot (IC(0)): a_ii less the squares so far.  The values the
 * steps read are first copied together into the thread's column of buf
 * (one memory latency for the phase; reading each step's when it ran was
 * 10-15 % slower, bench/results/h200-box18). */
template <int KIND, int S0, int S1>
__device__ __forceinline__ void box_steps(const factor_stencil_args &a, int32_t i, int32_t x, int32_t y,
                                          int32_t z, uint32_t m, int64_t pf,
                                          const int64_t *__restrict__ ptr, double *w, const double *v,
                                          double *buf, int cap, double *pivot, domino_factor_status *st)
{
    constexpr int K = S1 - S0;
    constexpr int T = KIND == 0 ? 27 : BOX_LOWER; /* the t a step may read */
    int32_t dk[K];  /* row k starts at pf + dk (> -2^31: domino_factor_box_fits) */
    uint32_t mk[K]; /* its mask */
    double d[K];    /* its pivot */
    box_poll<S0, S1>(a, i, x, y, z, m, pf, ptr, v, cap, dk, mk, d);
    box_copy<KIND, S0, S1>(m, pf, dk, mk, v, buf);
    int j = 0;
#pragma unroll
    for (int s = S0; s < S1; s++) {
        const int64_t pk = pf + dk[s - S0];
        const uint32_t mks = mk[s - S0];
        const bool has = m >> s & 1;
        /* the values of the step: into registers, from buf */
        double u[T];
#pragma unroll
        for (int t = 0; t < T; t++)
            if (box_reads(KIND, s, t)) {
                const int jt = j++;
                if (has && (m >> box_i_slot(KIND, s, t) & 1))
                    u[t] = buf[jt * BOX_THREADS];
            }
        /* the step's values still pending (row k's pivot was seen; its other
         * stores may reach the L2 later): reloaded together, a round a latency */
        bool missing = false;
        int late = 0;
#pragma unroll
        for (int t = 0; t < T; t++)
            if (box_reads(KIND, s, t) && has && (m >> box_i_slot(KIND, s, t) & 1)) {
                missing |= is_pending(u[t]);
                late += is_pending(u[t]);
            }
        if (missing) {
            atomicAdd(&st->walked, (unsigned long long)late);
            unsigned ns2 = 32;
            while (missing) {
                back_off(&ns2, cap);
#pragma unroll
                for (int t = 0; t < T; t++)
                    if (box_reads(KIND, s, t) && has && (m >> box_i_slot(KIND, s, t) & 1) && is_pending(u[t]))
                        u[t] = load_relaxed(&v[box_at(pk, mks, box_k_slot(KIND, s, t))]);
                missing = false;
#pragma unroll
                for (int t = 0; t < T; t++)
                    if (box_reads(KIND, s, t) && has && (m >> box_i_slot(KIND, s, t) & 1)) missing |= is_pending(u[t]);
            }
        }
        __syncwarp();
        if (!has) continue;
        double acc = w[s];
        const double l0 = w[s] / d[s - S0]; /* ILU(0)'s l_is */
#pragma unroll
        for (int t = 0; t < T; t++)
            if (box_reads(KIND, s, t) && (m >> box_i_slot(KIND, s, t) & 1)) {
                const double ut = u[t];
                if (KIND == 0) /* w_t -= l_is u_kq */
                    w[t] = __dsub_rn(w[t], __dmul_rn(l0, ut));
                else /* a_is - sum over row k's slots of l_i,g l_k,t */
                    acc = __dsub_rn(acc, __dmul_rn(w[box_ic_slot(s, t)], ut));
            }
        if (KIND == 0) {
            w[s] = l0;
        } else {
            const double l = acc / d[s - S0];
            w[s] = l;
            *pivot = __dsub_rn(*pivot, __dmul_rn(l, l));
        }
    }
}

/* the values a phase reads, at most (ILU(0): 65 in slots 0-7, 36 in 8-12;
 * IC(0): 17 and 27) */
#define BOX_BUF(KIND) ((KIND) == 0 ? 65 : 27)

/* row i of matrix b: load, the two phases, publish */
template <int KIND>
__device__ __forceinline__ void box_row(const factor_stencil_args &a, int32_t i, int32_t b,
                                        const int64_t *__restrict__ ptrA, int64_t nnzA,
                                        const double *__restrict__ valA, const int64_t *__restrict__ ptr,
                                        int64_t nnz, double *val, double *buf, double pivot_shift, int cap,
                                        domino_factor_status *st)
{
    constexpr int W = KIND == 0 ? 27 : BOX_LOWER + 1; /* slots of a factor row */
    const int32_t n = a.nx * a.ny * a.nz;
    const double *A = valA + (int64_t)b * nnzA;
    double *v = val + (int64_t)b * nnz;
    /* a padding lane (i < 0) takes part with no slots: the warp waits on its
     * lanes together (__syncwarp in box_steps) */
    const bool real = i >= 0;
    if (!real) i = 0;
    const int32_t x = i % a.nx, r = i / a.nx, y = r % a.ny, z = r / a.ny;
    const uint32_t m = real ? (uint32_t)domino_factor_row_mask(&a, x, y, z) : 0u;
    const int64_t pa = __ldg(&ptrA[i]), pf = __ldg(&ptr[i]);
    double w[W];
#pragma unroll
    for (int s = 0; s < W; s++)
        w[s] = (m >> s & 1) ? __ldg(&A[box_at(pa, m, s)]) : 0.0;
    double pivot = w[BOX_LOWER];
    box_steps<KIND, 0, BOX_LATE>(a, i, x, y, z, m, pf, ptr, w, v, buf, cap, &pivot, st);
    box_steps<KIND, BOX_LATE, BOX_LOWER>(a, i, x, y, z, m, pf, ptr, w, v, buf, cap, &pivot, st);
    if (!real) return;
    if (KIND == 0) pivot = w[BOX_LOWER];
    const bool bad = KIND == 0 ? !(pivot != 0.0 && isfinite(pivot)) : (!(pivot > 0.0) || !isfinite(pivot));
    if (bad && pivot_shift != 0.0) pivot = pivot_shift;
    if (KIND == 1) pivot = sqrt(pivot);
    /* the L part (final; IC(0)'s is read by later rows), then ILU(0)'s U
     * part, the pivot last */
#pragma unroll
    for (int s = 0; s < BOX_LOWER; s++)
        if (m >> s & 1) {
            if (KIND == 0) v[box_at(pf, m, s)] = w[s];
            else store_relaxed(&v[box_at(pf, m, s)], publishable(w[s]));
        }
#pragma unroll
    for (int s = BOX_LOWER + 1; s < W; s++)
        if (m >> s & 1) store_relaxed(&v[box_at(pf, m, s)], publishable(w[s]));
    store_relaxed(&v[box_at(pf, m, BOX_LOWER)], publishable(pivot));
    if (bad) {
        if (pivot_shift == 0.0) atomicMin(&st->bad_pivot, (long long)b * n + i);
        else atomicAdd(&st->replaced, 1ULL);
    }
}

/* KIND 0 ILU(0) on A's pattern (ptr == ptrA), 1 IC(0) on its lower triangle
 * (ptr); the factor into val (all pending on entry), st reset.  A warp
 * takes 32 tickets at a time until none is left: the grid bounds the rows
 * in flight (waiting rows poll, and too many polls slow the L2 for all).
 * MINB: blocks an SM the registers must allow (BOX_MIN_BLOCKS). */
template <int KIND, int MINB>
__global__ void __launch_bounds__(BOX_THREADS, MINB)
factor_box_kernel(const factor_stencil_args a, int64_t tickets, int32_t batch, const int32_t *__restrict__ order,
                  const int64_t *__restrict__ ptrA, int64_t nnzA, const double *__restrict__ valA,
                  const int64_t *__restrict__ ptr, int64_t nnz, double *val, double pivot_shift,
                  int cap, domino_factor_status *st)
{
    extern __shared__ double box_buf[];
    const unsigned long long total = (unsigned long long)tickets * (unsigned long long)batch;
    const int lane = threadIdx.x & 31;
    for (;;) {
        unsigned long long t0 = 0;
        if (lane == 0) t0 = atomicAdd(&st->ticket, 32ULL);
        t0 = __shfl_sync(FULL_MASK, t0, 0);
        if (t0 >= total) return;
        const unsigned long long t = t0 + (unsigned long long)lane; /* < total: tickets % 32 == 0 */
        box_row<KIND>(a, __ldg(&order[t % (unsigned long long)tickets]),
                             (int32_t)(t / (unsigned long long)tickets), ptrA, nnzA, valA, ptr, nnz, val,
                             box_buf + threadIdx.x, pivot_shift, cap, st);
        __syncwarp();
    }
}

/* ------------------------------------------------------ the tickets */

/* rows y of the line set {x + 2 y = r} inside the grid: y in [lo, hi] */
__host__ __device__ __forceinline__ int64_t box_key_y_lo(int64_t r, int32_t nx)
{
    int64_t c = r - nx + 1; /* x = r - 2 y <= nx - 1 */
    return c > 0 ? (c + 1) / 2 : 0;
}
__host__ __device__ __forceinline__ int64_t box_key_y_hi(int64_t r, int32_t ny)
{
    int64_t h = r / 2; /* x >= 0; r >= 0 here */
    return h < ny - 1 ? h : ny - 1;
}
/* rows of plane z whose key is r + 4 z */
__host__ __device__ __forceinline__ int64_t box_key_count(int64_t r, int32_t nx, int32_t ny)
{
    if (r < 0) return 0;
    int64_t c = box_key_y_hi(r, ny) - box_key_y_lo(r, nx) + 1;
    return c > 0 ? c : 0;
}

extern "C" int64_t domino_factor_box_key_rows(int64_t key, int32_t nx, int32_t ny, int32_t nz)
{
    int64_t c = 0;
    for (int64_t z = 0; z < nz; z++) c += box_key_count(key - 4 * z, nx, ny);
    return c;
}

/* order[start[key] + rank] = i for every row i = (x, y, z) of the grid,
 * key = x + 2 y + 4 z, rank its place among the key's rows by z, then y;
 * grid-stride, O(z) a row */
__global__ void box_order_kernel(int32_t nx, int32_t ny, int32_t nz, const int64_t *__restrict__ start,
                                 int32_t *order)
{
    const int64_t n = (int64_t)nx * ny * nz, stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += stride) {
        int64_t x = i % nx, y = i / nx % ny, z = i / ((int64_t)nx * ny), key = x + 2 * y + 4 * z;
        int64_t rank = y - box_key_y_lo(key - 4 * z, nx);
        for (int64_t zz = 0; zz < z; zz++) rank += box_key_count(key - 4 * zz, nx, ny);
        order[start[key] + rank] = (int32_t)i;
    }
}

extern "C" cudaError_t domino_launch_factor_box_order(cudaStream_t stream, int32_t nx, int32_t ny, int32_t nz,
                                                      const int64_t *start, int32_t *order)
{
    int64_t blocks = ((int64_t)nx * ny * nz + 255) / 256;
    if (blocks > 8192) blocks = 8192;
    if (blocks < 1) blocks = 1;
    box_order_kernel<<<(unsigned)blocks, 256, 0, stream>>>(nx, ny, nz, start, order);
    return cudaGetLastError();
}

typedef void (*box_kernel_fn)(const factor_stencil_args, int64_t, int32_t, const int32_t *, const int64_t *,
                              int64_t, const double *, const int64_t *, int64_t, double *, double,
                              int, domino_factor_status *);

extern "C" cudaError_t domino_launch_factor_box(cudaStream_t stream, int kind, int num_sms,
                                                int32_t nlevels, const factor_stencil_args *a,
                                                int64_t tickets, int32_t batch, const int32_t *order, const int64_t *ptrA,
                                                int64_t nnzA, const double *valA, const int64_t *ptr,
                                                int64_t nnz, double *val, double pivot_shift, int cap,
                                                domino_factor_status *st)
{
    int64_t rows = tickets * batch;
    if (rows == 0) return cudaSuccess;
    /* experiments: DOMINO_FACTOR_BOX_LEVELS the rows in flight, in levels
     * (0: as many as the device holds); DOMINO_FACTOR_BOX_BLOCKS=2 ILU(0)'s
     * kernel bounded for 2 blocks an SM instead of 3 */
    static int levels = -1, ilu_blocks = -1;
    if (levels < 0) levels = domino_env_int("DOMINO_FACTOR_BOX_LEVELS", BOX_LEVELS_IN_FLIGHT);
    if (ilu_blocks < 0) ilu_blocks = domino_env_int("DOMINO_FACTOR_BOX_BLOCKS", BOX_MIN_BLOCKS(0));
    box_kernel_fn k = kind != 0         ? factor_box_kernel<1, BOX_MIN_BLOCKS(1)>
                      : ilu_blocks == 2 ? factor_box_kernel<0, 2>
                                        : factor_box_kernel<0, BOX_MIN_BLOCKS(0)>;
    size_t smem = (size_t)BOX_BUF(kind) * BOX_THREADS * sizeof(double);
    cudaError_t e = cudaFuncSetAttribute((const void *)k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    int per_sm = 0;
    if (!e) e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, (const void *)k, BOX_THREADS, smem);
    if (e) return e;
    if (per_sm < 1) return cudaErrorLaunchOutOfResources;
    int64_t blocks = (int64_t)per_sm * num_sms, whole = (rows + BOX_THREADS - 1) / BOX_THREADS;
    if (levels > 0 && nlevels > 0) {
        int64_t want = ((int64_t)levels * (rows / nlevels) + BOX_THREADS - 1) / BOX_THREADS;
        if (want < blocks) blocks = want < 1 ? 1 : want;
    }
    if (blocks > whole) blocks = whole;
    k<<<(unsigned)blocks, BOX_THREADS, smem, stream>>>(*a, tickets, batch, order, ptrA, nnzA, valA, ptr, nnz, val,
                                                       pivot_shift, cap, st);
    return cudaGetLastError();
}
