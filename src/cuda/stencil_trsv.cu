/* stencil_trsv.cu: kernels of the structured-grid triangular solve.
 *
 * A task is one x-line (fixed y, z) of the grid, in solve coordinates (see
 * stencil_gpu.h).  Warps take a z-queue from a ticket (D warps per queue, in
 * increasing z) and lines of their queue from its counter (increasing y), so
 * a warp only ever waits on lines handed out before its own: lines in
 * earlier queues, or earlier lines of its queue, each held by a running warp
 * that does not leave its queue before the queue is empty.  No block order,
 * no residency assumption, no global barrier.
 *
 * Two kernels:
 *   stencil_point_kernel  (PARTITION) the warp solves its line one equation
 *                         at a time, lanes split the equation's entries,
 *                         and each neighbour value is its own ready flag
 *                         (the pending sentinel of device_util.cuh);
 *   stencil_line_kernel   (MULTISTAGE, COMPRESSED, DOMINO) 32 equations at a
 *                         time, one per lane.  Off-line neighbours wait on
 *                         their value (MULTISTAGE) or on the state of their
 *                         line, the last x it has solved (COMPRESSED, DOMINO:
 *                         one acquire load per neighbour line and chunk,
 *                         released by a fence then a relaxed store); the
 *                         recurrence along the line, x_i = a_i + q1_i x_{i-1}
 *                         + q2_i x_{i-2}, is passed lane to lane through 32
 *                         shuffles (MULTISTAGE, COMPRESSED) or solved as an
 *                         inclusive warp scan of affine maps in log2(32)
 *                         steps (DOMINO).
 * Matrix data goes through the read-only path (__ldg); x of other lines is
 * read L2-coherent (__ldcg) after the wait.  A CSR row is read by offset
 * into the compact form's slots (FORM_CSR), or, once a row was not exactly
 * its stencil neighbours in order, walked and classified (FORM_CSR_WALK),
 * both before the wait, off the critical path.  Waits on
 * values polled by every lane back off from 32 ns, doubling up to
 * A.sleep_cap (32 ns by default since the 30th session: no doubling). */
#include "stencil_device.cuh"
#include "device_util.cuh"

#define STENCIL_BLOCK 128

/* next line task of the warp: (z, y) in *qz, *y; false when no queue is left.
 * *qz is the warp's queue, -1 before its first.  A queue hands out y from
 * A.y_lo (its counter's start) to A.y_hi - 1. */
__device__ bool next_line(const stencil_kernel_args &A, int *qz, int *y)
{
    /* every lane runs the loop, lane 0's atomics broadcast: a loop only
     * lane 0 ran left ptxas assuming the warp diverged, and every later
     * shuffle of the kernel a collective sequence (WARPSYNC.COLLECTIVE) */
    const bool leader = (threadIdx.x & 31) == 0;
    int z = *qz, yy = -1;
    for (;;) {
        if (z >= 0 && z < A.nz) {
            int t = 0;
            if (leader) t = atomicAdd(&A.queue_next[z], 1);
            yy = __shfl_sync(FULL_MASK, t, 0);
            if (yy < A.y_hi) break;
        }
        int q = 0;
        if (leader) q = atomicAdd(&A.st->ticket, 1);
        z = __shfl_sync(FULL_MASK, q, 0) / A.warps_per_queue;
        if (z >= A.nz) {
            yy = -1;
            break;
        }
    }
    *qz = z;
    *y = yy;
    return yy >= 0;
}

/* the triangle offset of row delta d whose neighbour of (xl, y, z) lies in
 * the grid, -1 if none */
__device__ __forceinline__ int find_offset(const stencil_kernel_args &A, int64_t d, int xl, int y,
                                           int z)
{
    for (int p = 0; p < A.nlow; p++)
        if (A.lowd[p] == d && inside(A, xl + A.lowx[p], y + A.lowy[p], z + A.lowz[p])) return p;
    return -1;
}

/* Lanes 0..nwait-1 each wait until their neighbour line of line (y, z) has
 * solved every x the chunk starting at x0 reads (acquire); then the warp
 * synchronizes so that all lanes see what the states guard. */
__device__ __forceinline__ void wait_lines(const stencil_kernel_args &A, int y, int z, int x0)
{
    int lane = threadIdx.x & 31;
    const int32_t *state = A.line_state; /* the other lanes load line 0's, and need nothing */
    int need = -1;
    if (lane < A.nwait) {
        int wy = y + A.waity[lane], wz = z + A.waitz[lane];
        if (wy >= 0 && wy < A.ny && wz >= 0 && wz < A.nz) {
            need = min(A.nx - 1, x0 + 31 + A.waitx[lane]);
            state = &A.line_state[wy + (int64_t)A.ny * wz];
        }
    }
    unsigned ns = 32;
    for (;;) { /* every lane loads, the loop left by a vote (next_line) */
        const int32_t seen = load_acquire_i32(state);
        if (!__any_sync(FULL_MASK, seen < need)) break;
        back_off(&ns, A.sleep_cap);
    }
    __syncwarp();
}

/* DOMINO with more than 4 off-line neighbours (polling by every lane would
 * crowd L2): lanes 0..nwait-1 each wait for the last value the chunk starting
 * at x0 reads from their neighbour line (the value is its own flag), then
 * the warp synchronizes.  One polling lane per neighbour line instead of
 * every lane on every neighbour keeps the polling traffic off L2; the
 * values stored with it are checked again as they are read (rarely still
 * pending: the lanes of a chunk store together). */
template <typename T>
__device__ __forceinline__ void wait_last_values(const stencil_kernel_args &A, const T *x, int y,
                                                 int z, int x0)
{
    int lane = threadIdx.x & 31;
    const T *v = x; /* the other lanes wait for nothing */
    bool mine = false;
    if (lane < A.nwait) {
        int wy = y + A.waity[lane], wz = z + A.waitz[lane];
        int need = min(A.nx - 1, x0 + 31 + A.waitx[lane]);
        if (wy >= 0 && wy < A.ny && wz >= 0 && wz < A.nz && need >= 0) {
            v = &x[real_row(A, (wy + (int64_t)A.ny * wz) * A.nx + need)];
            mine = true;
        }
    }
    T seen = (T)0;
    for (;;) { /* predicated loads, the loop left by a vote (next_line) */
        seen = load_relaxed_if(mine, v, seen);
        if (!__any_sync(FULL_MASK, mine && is_pending(seen))) break;
        __nanosleep(32);
    }
    __syncwarp();
}

/* x_i = a + q1 x_{i-1} + q2 x_{i-2} along the lanes, x_{-1} = c1, x_{-2} = c2:
 * lane j's value is passed to all lanes by shuffle, 32 steps */
template <typename T, int ORDER>
__device__ __forceinline__ T recurrence_serial(T a, T q1, T q2, T c1, T c2)
{
    int lane = threadIdx.x & 31;
    T p1 = c1, p2 = c2, mine = 0;
#pragma unroll 8
    for (int j = 0; j < 32; j++) {
        T cand = ORDER == 2 ? a + q1 * p1 + q2 * p2 : a + q1 * p1;
        T xj = __shfl_sync(FULL_MASK, cand, j);
        if (lane == j) mine = xj;
        p2 = p1;
        p1 = xj;
    }
    return mine;
}

/* One lane's equation from its CSR row: entries of the triangle fetched
 * into registers before any wait (K of them; a longer walk, possible only
 * with duplicate entries, goes on from memory), then classified; the
 * off-line neighbours are loaded together, then waited for (flags).  An
 * entry outside the stencil marks the row bad and is skipped: no neighbour
 * of it is ever waited for. */
template <typename T, int K> struct csr_row {
    int64_t jb, je;  /* the row's entries */
    int32_t col[K];  /* entry of offset q (csr_by_offset), or the first K of the walk */
    T val[K];
};

template <typename T, int K>
__device__ __forceinline__ void csr_prefetch(const stencil_kernel_args &A, int64_t row,
                                             csr_row<T, K> *R)
{
    const T *val = (const T *)A.val;
    R->jb = __ldg(&A.ptr[row]);
    R->je = __ldg(&A.ptr[row + 1]);
#pragma unroll
    for (int t = 0; t < K; t++) {
        int64_t j = A.upper ? R->je - 1 - t : R->jb + t;
        bool in = t < R->je - R->jb;
        R->col[t] = in ? __ldg(&A.ind[j]) : (int32_t)row;
        R->val[t] = in ? __ldg(&val[j]) : (T)0;
    }
}

/* Classify a lane's CSR row that csr_by_offset did not take, before any
 * wait (nothing here reads x), matching its entries one by one: the
 * in-line entries are summed into diag, m1, m2, and R->col[t] keeps the
 * column of an off-line neighbour, -1 otherwise.  Returns false when the
 * triangle goes on past the K register slots (duplicates), for csr_sum to
 * walk from memory. */
template <typename T, int K>
__device__ __forceinline__ bool csr_classify(const stencil_kernel_args &A, csr_row<T, K> *R,
                                             int64_t row, int xl, int y, int z, T *diag, T *m1,
                                             T *m2, bool *found_diag)
{
    const int64_t len = R->je - R->jb;
    int p = 0;
    bool done = false;
#pragma unroll
    for (int t = 0; t < K; t++) {
        int32_t c = R->col[t];
        R->col[t] = -1;
        if (done || t >= len) continue;
        int64_t d = A.upper ? row - c : c - row;
        if (d > 0) { /* the other triangle; sorted rows: the rest too */
            done = true;
            continue;
        }
        int q = match_offset(A, d, xl, y, z, &p);
        if (q < 0) {
            atomicMin(&A.st->timeout_row, (int32_t)row);
            continue;
        }
        if (!add_in_line(A.lowkind[q], R->val[t], diag, m1, m2, found_diag)) R->col[t] = c;
    }
    return done || len <= K;
}

/* The common case of a CSR row, read before any wait: the row holds
 * exactly its stencil neighbours inside the grid, each once, in column
 * order (as the tile kernel's csr_coefficients reads it), so that offset q
 * is entry popc(in below q) of the walk, `in` the offsets inside the grid.
 * Loads entry by offset into slot q, no walk and no search, boundary rows
 * too; false where the row is not so (duplicates, an entry missing or of
 * no neighbour, one too many before the other triangle's), and the caller
 * walks it instead (csr_prefetch, csr_classify).  Until the 32nd session
 * only interior rows were read so: the first and last chunks of a line,
 * about 2 in 9 on a 256^3 grid, took csr_classify's search, and D3N13
 * from CSR ran 2.2x the instructions of the compact form (ncu,
 * bench/results/h200x2-session32). */
template <typename T, int K>
__device__ __forceinline__ bool csr_by_offset(const stencil_kernel_args &A, csr_row<T, K> *R,
                                              int64_t row, int xl, unsigned line_mask)
{
    csr_reader r;
    csr_row_open(A, row, xl, line_mask, &r);
#pragma unroll
    for (int q = 0; q < K; q++) {
        R->val[q] = csr_entry<T>(A, &r, A.csr_low[q]);
        /* the column, once checked: from the offset, not from the load */
        R->col[q] = (r.in & A.csr_low[q].bit) != 0u ? r.row + A.csr_low[q].delta : -1;
    }
    R->jb = r.jb;
    R->je = r.je;
    return csr_row_end(A, &r);
}

/* After csr_by_offset found the row regular: the in-line entries summed
 * into diag, m1, m2; R->col[q] keeps an off-line neighbour's column, -1
 * otherwise (as csr_classify leaves it) */
template <typename T, int K>
__device__ __forceinline__ void csr_offsets_classify(const stencil_kernel_args &A, csr_row<T, K> *R, T *diag,
                                                     T *m1, T *m2, bool *found_diag)
{
#pragma unroll
    for (int q = 0; q < K; q++) {
        const int32_t c = R->col[q];
        R->col[q] = -1;
        if (q < A.nlow && c >= 0 && !add_in_line(A.lowkind[q], R->val[q], diag, m1, m2, found_diag))
            R->col[q] = c;
    }
}

/* After the waits, called by every lane (the waits vote; a lane off the
 * line has R->col all -1 and gathers nothing): the off-line neighbours
 * classified by csr_classify are loaded together and waited for (flags),
 * then subtracted; an incomplete row goes on from memory past the K
 * slots. */
template <typename T, int K>
__device__ __forceinline__ void csr_sum(const stencil_kernel_args &A, const T *x, bool flags,
                                        csr_row<T, K> *R, bool complete, int64_t row, int xl,
                                        int y, int z, T *sum, T *diag, T *m1, T *m2,
                                        bool *found_diag)
{
    T xv[K];
#pragma unroll
    for (int t = 0; t < K; t++) {
        int32_t c = R->col[t];
        xv[t] = c >= 0 ? (flags ? load_relaxed(&x[c]) : __ldcg(&x[c])) : (T)0;
    }
    if (flags) wait_pending_warp<T, int32_t, K>(x, R->col, xv, A.sleep_cap);
#pragma unroll
    for (int t = 0; t < K; t++)
        if (R->col[t] >= 0) *sum -= R->val[t] * xv[t];
    if (__all_sync(FULL_MASK, complete)) return;
    /* duplicates: the rest of the walk, an entry a round for every lane,
     * the waits voting (a lane that waits alone in a branch made ptxas
     * turn every later shuffle into a collective sequence) */
    const T *val = (const T *)A.val;
    const int64_t len = R->je - R->jb;
    int p = 0;
    bool walking = !complete;
    for (int64_t t = K; __any_sync(FULL_MASK, walking); t++) {
        walking = walking && t < len;
        const int64_t j = A.upper ? R->je - 1 - t : R->jb + t;
        const int64_t c = walking ? __ldg(&A.ind[j]) : row;
        const int64_t d = A.upper ? row - c : c - row;
        walking = walking && d <= 0; /* the other triangle: the rest too */
        const int q = walking ? match_offset(A, d, xl, y, z, &p) : 0;
        if (walking && q < 0) atomicMin(&A.st->timeout_row, (int32_t)row);
        T v = walking && q >= 0 ? __ldg(&val[j]) : (T)0;
        int32_t nb = -1;
        if (walking && q >= 0 && !add_in_line(A.lowkind[q], v, diag, m1, m2, found_diag)) nb = (int32_t)c;
        T xv = nb >= 0 ? (flags ? load_relaxed(&x[nb]) : __ldcg(&x[nb])) : (T)0;
        if (flags) wait_pending_warp<T, int32_t, 1>(x, &nb, &xv, A.sleep_cap);
        if (nb >= 0) *sum -= v * xv;
    }
}

/* One lane's equation from the compact form: coefficients were fetched
 * before the waits; the neighbour loads are issued together. */
template <typename T, int K>
__device__ __forceinline__ void compact_gather(const stencil_kernel_args &A, const T *x, bool flags,
                                               const T *cval, int64_t r, int xl, int y, int z, bool valid,
                                               T *sum)
{
    T xv[K];
    int32_t nb[K];
#pragma unroll
    for (int k = 0; k < K; k++) {
        bool use = valid && k < A.noff && inside(A, xl + A.offx[k], y + A.offy[k], z + A.offz[k]);
        nb[k] = use ? (int32_t)real_row(A, r + A.offd[k]) : -1;
        xv[k] = use ? (flags ? load_relaxed(&x[nb[k]]) : __ldcg(&x[nb[k]])) : (T)0;
    }
    if (flags) wait_pending_warp<T, int32_t, K>(x, nb, xv, A.sleep_cap); /* every lane: a vote */
    if (valid) /* off the line: the sum stays 0, whatever the coefficients read */
#pragma unroll
        for (int k = 0; k < K; k++) *sum -= cval[k] * xv[k];
}

/* The matrix form a line kernel instance reads */
#define FORM_COMPACT 0  /* the compact form's coefficient slots */
#define FORM_CSR 1      /* a CSR triangle read by offset as the compact form is (csr_entry),
                           its neighbours gathered as the compact form's are; a row that is
                           not exactly its stencil neighbours in order marks irregular_row,
                           and the host solves again with FORM_CSR_WALK */
#define FORM_CSR_WALK 2 /* a CSR triangle of any entries: duplicates summed, entries of no
                           neighbour named (csr_by_offset where it can, else the walk) */

/* MULTISTAGE, COMPRESSED and DOMINO: a warp solves 32 equations of its line
 * at a time.  K register slots hold the coefficients of the off-line
 * offsets (FORM_COMPACT, FORM_CSR) or the triangle's entries of a row
 * (FORM_CSR_WALK); ORDER is the in-line recurrence (1 or 2).  DOMINO also
 * staggers the chunks of a line by (shift_y y + shift_z z) mod 32 points,
 * so that the chunk a neighbour line waits for ends exactly where it is
 * needed, not up to 31 points later.
 * FORM_CSR since the 32nd session: FORM_CSR_WALK's gather read its
 * columns from the row and waited on K = 8 slots for D3N13's 4
 * neighbours. */
template <typename T, int K, int ORDER, int FORM, bool SLAB>
__global__ void __launch_bounds__(STENCIL_BLOCK)
    stencil_line_kernel(const stencil_kernel_args A, int variant, const T *__restrict__ b, T *x)
{
    const bool WALK = FORM == FORM_CSR_WALK;
    const int lane = threadIdx.x & 31;
    const bool flags = variant != DOMINO_STENCIL_COMPRESSED; /* per-point flags */
    const bool scan = variant == DOMINO_STENCIL_DOMINO;
    const bool by_scan = scan && !A.serial;
    const T *coef = (const T *)A.coef;
    int z = -1, y;
    while (next_line(A, &z, &y)) {
        const int64_t line = (int64_t)y + (int64_t)A.ny * z;
        const int64_t base = line * A.nx;
        const int stagger = scan ? (A.shift_y * (y + A.y_origin) + A.shift_z * z) & 31 : 0;
        const unsigned line_mask = FORM != FORM_COMPACT ? low_line_mask(A, y, z) : 0u; /* CSR */
        T carry1 = 0, carry2 = 0;
        for (int x0 = -stagger; x0 < A.nx; x0 += 32) {
            const int xl = x0 + lane;
            const bool valid = xl >= 0 && xl < A.nx;
            const int64_t r = base + (valid ? xl : 0);
            const int64_t row = real_row(A, r);
            T sum = valid ? __ldg(&b[row]) : (T)0;
            T diag = 0, m1 = 0, m2 = 0;
            bool found_diag = true, complete = true;
            T cval[WALK ? 1 : K];
            csr_row<T, WALK ? K : 1> R;
            int64_t jb = 0, je = 0; /* FORM_CSR: the row's entries */
            bool regular = true;    /* CSR: read by offset (csr_entry, csr_by_offset) */
            if (FORM == FORM_COMPACT) { /* prefetch: nothing here depends on x */
                diag = __ldg(&coef[row]);
                m1 = __ldg(&coef[A.n + row]);
                if (ORDER == 2) m2 = __ldg(&coef[2 * A.n + row]);
#pragma unroll
                for (int k = 0; k < K; k++)
                    cval[k] = k < A.noff ? __ldg(&coef[(3 + k) * A.n + row]) : (T)0;
            } else if (FORM == FORM_CSR) { /* every lane (a lane off the line reads row `base`) */
                csr_reader rd;
                csr_row_begin<T, ORDER>(A, row, xl, line_mask, &rd, &diag, &m1, &m2);
#pragma unroll
                for (int k = 0; k < K; k++) cval[k] = csr_entry<T>(A, &rd, A.csr_off[k]);
                regular = csr_row_end(A, &rd);
                jb = rd.jb;
                je = rd.je;
            } else {
                if (valid) regular = csr_by_offset(A, &R, row, xl, line_mask);
                if (__any_sync(FULL_MASK, !regular)) { /* a vote: the warp stays converged */
                    if (!regular) csr_prefetch(A, row, &R);
                    __syncwarp();
                }
            }
            if (scan && x0 + 32 < A.nx) {
                if (FORM == FORM_COMPACT)
                    prefetch_compact(A, b, coef, base + x0 + 32 + lane, x0 + 32 + lane < A.nx);
                else if (valid) prefetch_csr(A, b, row, WALK ? R.jb : jb, WALK ? R.je : je);
            }
            if (WALK && valid) {
                found_diag = false;
                if (regular) csr_offsets_classify(A, &R, &diag, &m1, &m2, &found_diag);
                else complete = csr_classify(A, &R, row, xl, y, z, &diag, &m1, &m2, &found_diag);
            } else if (WALK) { /* off the line: no neighbour (csr_sum) */
#pragma unroll
                for (int t = 0; t < K; t++) R.col[t] = -1;
            }
            if (!flags) wait_lines(A, y, z, x0);
            else if (scan && A.noff > 4) wait_last_values(A, x, y, z, x0);
            if (!WALK) /* every lane (its waits vote), a lane off the line gathering nothing */
                compact_gather<T, K>(A, x, flags, cval, r, xl, y, z, valid, &sum);
            else /* the same */
                csr_sum(A, x, flags, &R, complete, row, xl, y, z, &sum, &diag, &m1, &m2, &found_diag);
            if (!valid) m1 = 0;
            if (xl < 1) m1 = 0; /* neighbours off the grid read nothing */
            if (xl < 2) m2 = 0;
            if (A.unit || !valid) diag = 1;
            if (!A.unit && valid) {
                if (!found_diag) atomicMin(&A.st->missing_diag, (int32_t)row);
                else if (diag == (T)0) atomicMin(&A.st->zero_pivot, (int32_t)row);
            }
            /* FORM_CSR: x of this row is wrong; the host solves again (FORM_CSR_WALK) */
            if (FORM == FORM_CSR && valid && !regular) atomicMin(&A.st->irregular_row, (int32_t)row);
            T inv = (T)1 / diag;
            T a = sum * inv, q1 = -m1 * inv, q2 = -m2 * inv;
            T xi = by_scan ? recurrence_scan<T, ORDER>(a, q1, q2, carry1, carry2)
                        : recurrence_serial<T, ORDER>(a, q1, q2, carry1, carry2);
            if (valid) {
                if (flags) store_relaxed(&x[row], publishable(xi));
                else x[row] = xi;
                if (SLAB && flags && slab_mirrored(A)) mirror_value(A, xl, y, z, publishable(xi));
            }
            carry1 = __shfl_sync(FULL_MASK, xi, 31);
            carry2 = __shfl_sync(FULL_MASK, xi, 30);
            if (!flags) { /* release the chunk: stores, fence, then the state */
                __syncwarp();
                if (lane == 0) {
                    __threadfence();
                    store_relaxed_i32(&A.line_state[line], min(A.nx - 1, x0 + 31));
                }
            }
        }
    }
}

/* PARTITION: a warp solves its line one equation at a time; lanes split the
 * entries of the equation (compact: lane k takes off-line offset k) and
 * wait on each neighbour value. */
template <typename T, bool COMPACT>
__global__ void __launch_bounds__(STENCIL_BLOCK)
    stencil_point_kernel(const stencil_kernel_args A, const T *__restrict__ b, T *x)
{
    const int lane = threadIdx.x & 31;
    const T *coef = (const T *)A.coef;
    const T *val = (const T *)A.val;
    int z = -1, y;
    while (next_line(A, &z, &y)) {
        const int64_t base = ((int64_t)y + (int64_t)A.ny * z) * A.nx;
        T p1 = 0, p2 = 0;
        for (int xl = 0; xl < A.nx; xl++) {
            const int64_t r = base + xl, row = real_row(A, r);
            T part = 0, dpart = 0;
            int found = COMPACT ? 1 : 0;
            if (COMPACT) {
                if (lane < A.noff && inside(A, xl + A.offx[lane], y + A.offy[lane], z + A.offz[lane]))
                    part = __ldg(&coef[(3 + lane) * A.n + row]) *
                           wait_published(x, real_row(A, r + A.offd[lane]));
                if (lane == 31) {
                    dpart = __ldg(&coef[row]);
                    if (A.order >= 1 && xl >= 1) part += __ldg(&coef[A.n + row]) * p1;
                    if (A.order >= 2 && xl >= 2) part += __ldg(&coef[2 * A.n + row]) * p2;
                }
            } else {
                int64_t jb = __ldg(&A.ptr[row]), je = __ldg(&A.ptr[row + 1]);
                for (int64_t t = lane; t < je - jb; t += 32) {
                    int64_t j = A.upper ? je - 1 - t : jb + t;
                    int64_t c = __ldg(&A.ind[j]);
                    int64_t d = A.upper ? row - c : c - row;
                    if (d > 0) continue;
                    int p = find_offset(A, d, xl, y, z);
                    if (p < 0) {
                        atomicMin(&A.st->timeout_row, (int32_t)row);
                        continue;
                    }
                    T v = __ldg(&val[j]);
                    int kind = A.lowkind[p];
                    if (kind == STENCIL_CENTRE) {
                        dpart += v;
                        found = 1;
                    } else if (kind == STENCIL_M1) {
                        part += v * p1;
                    } else if (kind == STENCIL_M2) {
                        part += v * p2;
                    } else {
                        part += v * wait_published(x, real_row(A, r + d));
                    }
                }
            }
            part = warp_sum(part);
            dpart = warp_sum(dpart);
            found = __any_sync(FULL_MASK, found);
            T diag = A.unit ? (T)1 : dpart;
            T xi = (__ldg(&b[row]) - part) / diag;
            if (lane == 0) {
                if (!A.unit && !found) atomicMin(&A.st->missing_diag, (int32_t)row);
                else if (!A.unit && dpart == (T)0) atomicMin(&A.st->zero_pivot, (int32_t)row);
                store_relaxed(&x[row], publishable(xi));
            }
            p2 = p1;
            p1 = xi;
        }
    }
}

/* everything a solve starts from, in one launch: x := the pending sentinel
 * (variants with per-point flags), line states -1, queue counters at the
 * first own line, the status reset */
template <typename T>
__global__ void stencil_reset_kernel(const stencil_kernel_args A, bool flags, T *x)
{
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    const int64_t first = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    const int64_t lines = (int64_t)A.ny * A.nz;
    if (flags)
        for (int64_t i = first; i < A.n; i += stride) make_pending(&x[i]);
    for (int64_t i = first; i < lines; i += stride) A.line_state[i] = -1;
    for (int64_t i = first; i < A.nz; i += stride) A.queue_next[i] = A.y_lo;
    if (first == 0) solve_status_reset(A.st);
}

/* register slots a kernel needs: off-line offsets (compact form, CSR read by
 * offset) or triangle entries (CSR walked) */
static int slots_of(const stencil_kernel_args *A)
{
    int need = A->coef || !A->csr_walk ? A->noff : A->nlow;
    return need <= 4 ? 4 : need <= 8 ? 8 : STENCIL_MAX_LOW;
}

#define LINE_KERNEL(K, O, F, S) (const void *)stencil_line_kernel<T, K, O, F, S>
#define LINE_KERNELS(O, F, S)                                                                \
    (slots == 4 ? LINE_KERNEL(4, O, F, S) : slots == 8 ? LINE_KERNEL(8, O, F, S)             \
                                                       : LINE_KERNEL(STENCIL_MAX_LOW, O, F, S))

/* the kernel of a variant and shape, as a function pointer */
template <typename T> static const void *select_kernel(const stencil_kernel_args *A, int variant)
{
    bool compact = A->coef != NULL;
    if (variant == DOMINO_STENCIL_PARTITION)
        return compact ? (const void *)stencil_point_kernel<T, true>
                       : (const void *)stencil_point_kernel<T, false>;
    int slots = slots_of(A);
    /* a slab of the solve over PEs (A->slab): the compact form only */
    if (compact && A->slab)
        return A->order >= 2 ? LINE_KERNELS(2, FORM_COMPACT, true) : LINE_KERNELS(1, FORM_COMPACT, true);
    if (compact) return A->order >= 2 ? LINE_KERNELS(2, FORM_COMPACT, false) : LINE_KERNELS(1, FORM_COMPACT, false);
    if (A->csr_walk)
        return A->order >= 2 ? LINE_KERNELS(2, FORM_CSR_WALK, false) : LINE_KERNELS(1, FORM_CSR_WALK, false);
    return A->order >= 2 ? LINE_KERNELS(2, FORM_CSR, false) : LINE_KERNELS(1, FORM_CSR, false);
}

static const void *kernel_of(domino_type type, const stencil_kernel_args *A, int variant)
{
    return type == DOMINO_FLOAT64 ? select_kernel<double>(A, variant)
                                  : select_kernel<float>(A, variant);
}

extern "C" cudaError_t domino_stencil_resident_blocks(domino_type type,
                                                      const stencil_kernel_args *A, int variant,
                                                      int num_sms, int *blocks)
{
    int per_sm = 0;
    cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel_of(type, A, variant),
                                                                  STENCIL_BLOCK, 0);
    *blocks = per_sm * num_sms;
    return e;
}

extern "C" cudaError_t domino_launch_stencil_reset(cudaStream_t stream, domino_type type,
                                                   const stencil_kernel_args *A, int variant, void *x)
{
    if (A->n == 0) return cudaSuccess;
    const bool flags = variant != DOMINO_STENCIL_COMPRESSED;
    int64_t items = flags ? A->n : (int64_t)A->ny * A->nz;
    int reset_blocks = (int)((items + 255) / 256 < 4096 ? (items + 255) / 256 : 4096);
    if (type == DOMINO_FLOAT64)
        stencil_reset_kernel<double><<<reset_blocks, 256, 0, stream>>>(*A, flags, (double *)x);
    else
        stencil_reset_kernel<float><<<reset_blocks, 256, 0, stream>>>(*A, flags, (float *)x);
    return cudaGetLastError();
}

extern "C" cudaError_t domino_launch_stencil_trsv(cudaStream_t stream, domino_type type,
                                                  const stencil_kernel_args *A, int variant,
                                                  int blocks, const void *b, void *x)
{
    cudaError_t e = domino_launch_stencil_reset(stream, type, A, variant, x);
    return e ? e : domino_launch_stencil_solve(stream, type, A, variant, blocks, b, x);
}

extern "C" cudaError_t domino_launch_stencil_solve(cudaStream_t stream, domino_type type,
                                                   const stencil_kernel_args *A, int variant,
                                                   int blocks, const void *b, void *x)
{
    if (A->n == 0) return cudaSuccess;
    if (A->tile_u > 0) return domino_launch_stencil_tile(stream, type, A, blocks, b, x);
    stencil_kernel_args args = *A;
    void *params[4];
    params[0] = &args;
    if (variant == DOMINO_STENCIL_PARTITION) {
        params[1] = &b;
        params[2] = &x;
    } else {
        params[1] = &variant;
        params[2] = &b;
        params[3] = &x;
    }
    return cudaLaunchKernel(kernel_of(type, A, variant), dim3((unsigned)blocks), dim3(STENCIL_BLOCK),
                            params, 0, stream);
}
