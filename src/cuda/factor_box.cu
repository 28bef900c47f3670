/* factor_box.cu: the box path of the GPU ILU(0) / IC(0): a thread per row of
 * a 3x3x3 box stencil (D3N27) whose every row holds exactly its stencil
 * entries inside the grid (factor_stencil.c decides).
 *
 * Why: the table path (factor_ilu0.cu) gives a row a group of lanes that
 * walk its 13 steps (one per lower neighbour k) through working values in
 * global memory, 4,600-5,600 warp instructions a row on D3N27
 * (bench/results/h100-precond17), and at 128^3 and up it is bound by the
 * rows it can hold in flight.  Here one thread holds its whole row in
 * registers; the slots an update meets are compile-time constants of the
 * box (box_ilu_slot, box_ic_slot), and a boundary row only masks slots out
 * (the bits of domino_factor_row_mask), so no row searches and no table is
 * read.
 *
 * A row's steps come in two phases: the neighbours k two or more levels
 * behind (slots 0-7: z - 1, and (x - 1, y + 1, z - 1)) are usually done
 * long before the row's last dependency, so their steps run first; the
 * last five (slots 8-12: (x + 1, y + 1, z - 1) and the row's own plane)
 * hold the neighbours one level behind and run once those are published.
 * Each phase first polls the published pivots of its rows k together (one
 * memory latency however many are missing), then reads the other values
 * of row k with plain L2 loads the compiler may issue together, and re-polls
 * the rare one still pending (a value is its own ready flag:
 * device_util.cuh; the pivot is stored last but relaxed stores are not
 * ordered, so nothing is assumed).
 *
 * Rows are ticketed in the plan's level order (every row read holds a
 * smaller ticket: no deadlock, as in factor_ilu0.cu), 32 a warp; batch
 * matrices interleave as there (ticket t: row order[t / batch], matrix
 * t % batch).  Values are read from A itself (no working copy): slot s of
 * row i sits at ptr[i] + popcount(mask & below(s)) in the factor and in A
 * (IC(0)'s tril rows are prefixes of A's).
 *
 * Arithmetic: the CPU reference's (ref_ilu0.c, ref_ic0.c), each entry
 * updated in increasing column order with __dmul_rn / __dsub_rn and IEEE
 * division, IC(0)'s inner products summed in row k's order: the factors are
 * the CPU's bit for bit. */
#include "factor_plan.h"
#include "device_util.cuh"

#define BOX_THREADS 128     /* threads a block */
/* blocks an SM at least: ILU(0) 3 (159 registers a thread, none spilled;
 * with 4, 128 registers spilled 136 bytes), IC(0) 4 (114) */
#define BOX_MIN_BLOCKS(KIND) ((KIND) == 0 ? 3 : 4)
#define BOX_LOWER DOMINO_FACTOR_BOX_LOWER
#define BOX_LATE 8          /* the first slot of the second phase */
#define FULL_MASK 0xffffffffu

#define box_dx domino_factor_box_dx
#define box_dy domino_factor_box_dy
#define box_dz domino_factor_box_dz
#define box_index domino_factor_box_index
#define box_ilu_slot domino_factor_box_ilu_slot
#define box_ic_slot domino_factor_box_ic_slot

/* position of slot s in a row that starts at p with mask m (27 bits) */
__device__ __forceinline__ int64_t box_at(int64_t p, uint32_t m, int s)
{
    return p + __popc(m & ((1u << s) - 1u));
}

/* *at once it is published (the rare value still pending after its row's pivot was seen) */
__device__ __forceinline__ double box_published(const double *at, double u, int cap)
{
    unsigned ns = 32;
    while (is_pending(u)) {
        back_off(&ns, cap);
        u = load_relaxed(at);
    }
    return u;
}

/* The steps s in [S0, S1) of row i (at x, y, z, mask m; its factor row at
 * pf): find the rows k, poll their pivots together, then apply each row k
 * in increasing s.  w: the row's working values (KIND 0: all 27 slots; 1:
 * slots 0-13); pivot (IC(0)): a_ii less the squares so far. */
template <int KIND, int S0, int S1>
__device__ __forceinline__ void box_steps(const factor_stencil_args &a, int32_t i, int32_t x, int32_t y,
                                          int32_t z, uint32_t m, int64_t pf,
                                          const int64_t *__restrict__ ptr, double *w, const double *v,
                                          int cap, double *pivot)
{
    constexpr int K = S1 - S0;
    int32_t dk[K];  /* row k starts at pf + dk */
    uint32_t mk[K]; /* its mask */
    double d[K];    /* its pivot */
#pragma unroll
    for (int s = S0; s < S1; s++) {
        const int32_t k = i + box_dx(s) + a.nx * (box_dy(s) + a.ny * box_dz(s));
        dk[s - S0] = (m >> s & 1) ? (int32_t)(__ldg(&ptr[k]) - pf) : 0;
        mk[s - S0] = (m >> s & 1) ? (uint32_t)domino_factor_row_mask(&a, x + box_dx(s), y + box_dy(s),
                                                                     z + box_dz(s))
                                  : 0u;
    }
#pragma unroll
    for (int s = S0; s < S1; s++)
        d[s - S0] = (m >> s & 1) ? __ldcg(&v[box_at(pf + dk[s - S0], mk[s - S0], BOX_LOWER)]) : 0.0;
    /* every round reloads the pending pivots together */
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
#pragma unroll
    for (int s = S0; s < S1; s++) {
        if (!(m >> s & 1)) continue;
        const int64_t pk = pf + dk[s - S0];
        const uint32_t mks = mk[s - S0];
        if (KIND == 0) {
            /* l_is = w_s / u_kk; w_t -= l_is u_kq for the slots t > s row k meets */
            double u[27];
#pragma unroll
            for (int t = s + 1; t < 27; t++)
                if (box_ilu_slot(s, t) >= 0 && (m >> t & 1)) u[t] = __ldcg(&v[box_at(pk, mks, box_ilu_slot(s, t))]);
            const double l = w[s] / d[s - S0];
#pragma unroll
            for (int t = s + 1; t < 27; t++)
                if (box_ilu_slot(s, t) >= 0 && (m >> t & 1)) {
                    double ut = u[t];
                    if (is_pending(ut)) ut = box_published(&v[box_at(pk, mks, box_ilu_slot(s, t))], ut, cap);
                    w[t] = __dsub_rn(w[t], __dmul_rn(l, ut));
                }
            w[s] = l;
        } else {
            /* l_is = (a_is - sum over row k's slots s2 of l_i,g l_k,s2) / l_kk */
            double lk[BOX_LOWER];
#pragma unroll
            for (int s2 = 0; s2 < BOX_LOWER; s2++)
                if (box_ic_slot(s, s2) >= 0 && (m >> box_ic_slot(s, s2) & 1)) lk[s2] = __ldcg(&v[box_at(pk, mks, s2)]);
            double sum = w[s];
#pragma unroll
            for (int s2 = 0; s2 < BOX_LOWER; s2++)
                if (box_ic_slot(s, s2) >= 0 && (m >> box_ic_slot(s, s2) & 1)) {
                    double l2 = lk[s2];
                    if (is_pending(l2)) l2 = box_published(&v[box_at(pk, mks, s2)], l2, cap);
                    sum = __dsub_rn(sum, __dmul_rn(w[box_ic_slot(s, s2)], l2));
                }
            const double l = sum / d[s - S0];
            w[s] = l;
            *pivot = __dsub_rn(*pivot, __dmul_rn(l, l));
        }
    }
}

/* KIND 0 ILU(0) on A's pattern (ptr == ptrA), 1 IC(0) on its lower triangle
 * (ptr); the factor into val (all pending on entry), st reset */
template <int KIND>
__global__ void __launch_bounds__(BOX_THREADS, BOX_MIN_BLOCKS(KIND))
factor_box_kernel(const factor_stencil_args a, int32_t batch, const int32_t *__restrict__ order,
                  const int64_t *__restrict__ ptrA, int64_t nnzA, const double *__restrict__ valA,
                  const int64_t *__restrict__ ptr, int64_t nnz, double *val, double pivot_shift,
                  int cap, domino_factor_status *st)
{
    constexpr int W = KIND == 0 ? 27 : BOX_LOWER + 1; /* slots of a factor row */
    const int32_t n = a.nx * a.ny * a.nz;
    const int lane = threadIdx.x & 31;
    unsigned long long t0 = 0;
    if (lane == 0) t0 = atomicAdd(&st->ticket, 32ULL);
    const unsigned long long t = __shfl_sync(FULL_MASK, t0, 0) + (unsigned long long)lane;
    if (t >= (unsigned long long)n * (unsigned long long)batch) return;
    const int32_t i = __ldg(&order[t / (unsigned long long)batch]);
    const int32_t b = (int32_t)(t % (unsigned long long)batch);
    const double *A = valA + (int64_t)b * nnzA;
    double *v = val + (int64_t)b * nnz;
    const int32_t x = i % a.nx, r = i / a.nx, y = r % a.ny, z = r / a.ny;
    const uint32_t m = (uint32_t)domino_factor_row_mask(&a, x, y, z);
    const int64_t pa = __ldg(&ptrA[i]), pf = __ldg(&ptr[i]);
    double w[W];
#pragma unroll
    for (int s = 0; s < W; s++)
        w[s] = (m >> s & 1) ? __ldg(&A[box_at(pa, m, s)]) : 0.0;
    double pivot = w[BOX_LOWER];
    box_steps<KIND, 0, BOX_LATE>(a, i, x, y, z, m, pf, ptr, w, v, cap, &pivot);
    box_steps<KIND, BOX_LATE, BOX_LOWER>(a, i, x, y, z, m, pf, ptr, w, v, cap, &pivot);
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

extern "C" cudaError_t domino_launch_factor_box(cudaStream_t stream, int kind, const factor_stencil_args *a,
                                                int32_t batch, const int32_t *order, const int64_t *ptrA,
                                                int64_t nnzA, const double *valA, const int64_t *ptr,
                                                int64_t nnz, double *val, double pivot_shift, int cap,
                                                domino_factor_status *st)
{
    int64_t rows = (int64_t)a->nx * a->ny * a->nz * batch;
    if (rows == 0) return cudaSuccess;
    int64_t blocks = (rows + BOX_THREADS - 1) / BOX_THREADS;
    if (blocks > INT32_MAX) return cudaErrorInvalidValue;
    if (kind == 0)
        factor_box_kernel<0><<<(unsigned)blocks, BOX_THREADS, 0, stream>>>(*a, batch, order, ptrA, nnzA, valA,
                                                                           ptr, nnz, val, pivot_shift, cap, st);
    else
        factor_box_kernel<1><<<(unsigned)blocks, BOX_THREADS, 0, stream>>>(*a, batch, order, ptrA, nnzA, valA,
                                                                           ptr, nnz, val, pivot_shift, cap, st);
    return cudaGetLastError();
}
