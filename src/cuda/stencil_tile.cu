/* stencil_tile.cu: the tiled structured-grid solve (DOMINO on the compact
 * form, or on a CSR triangle whose rows are exactly their stencil
 * neighbours in order).
 *
 * The queue kernel of stencil_trsv.cu gives every line its own warp, so
 * every hop between neighbour lines goes through L2: the producer stores, a
 * polling lane sees the value, the warp loads its neighbours, about 2.5 us
 * on H100 for a 27-point stencil.  The critical path is ny + 2 nz such hops
 * (a line waits on (y-1, z) and (y+1, z-1), each one point further in x).
 *
 * Here a block takes a tile of tile_u x tile_z lines from a ticket, one
 * warp a line, in the skewed coordinates (u, z), u = y + tile_skew z, in
 * which every neighbour line lies at du <= 0, dz <= 0.  Tiles are ticketed
 * in the order of A.tile_order (stencil_tile_order.c: along the wavefront,
 * u0 + z0), so a tile only waits on tiles of smaller tickets, each held by a
 * running block: no residency or block-order assumption.
 *
 * Inside a tile, a warp writes each solved chunk to its line buffer in
 * shared memory as well as to x; the buffers are made pending before a tile
 * starts, so their values are their own flags, as those of x are.  A
 * neighbour line is read a line at a time, two coalesced loads (from the
 * buffer inside the tile, from x outside it) that are also the wait: once
 * the values land, the next of those reads sees them, where the queue
 * kernel polls one value, then loads (tile_line).  No fence on either side:
 * until the 30th session a progress word per warp, raised after
 * __threadfence_block and read before another, guarded the buffers, and
 * those fences also waited for the warp's stores to x and its loads of the
 * next chunk's coefficients, so that a hop inside a tile cost about what a
 * hop through L2 did.  H200, same process each (bench/results/h200-tile30):
 * D3N27 64^3 / 256^3 0.383 / 1.988 -> 0.215 / 1.297 ms, D3N33 0.532 /
 * 2.731 -> 0.317 / 2.021 ms, the tuner now taking taller tiles (16 x 1,
 * 4 x 4, 4 x 2 where it took 1 x 16, 1 x 8).
 *
 * A CSR triangle (since the 30th session; the queue kernel before) is read
 * as the compact form is, a lane a row: entry t of a row's walk is taken
 * to be the t-th of its stencil offsets inside the grid, and its column is
 * checked (csr_coefficients).  A row that is not so (entries stored twice,
 * one missing, one of no neighbour) makes the solve go again on the queue
 * kernel's walking instance (FORM_CSR_WALK), which sums duplicates and
 * names bad entries, and D keeps that kernel (csr_irregular).  H200, the whole suite tuned
 * (bench/results/h200-tile30/5-csr-tile): CSR input 1.90x -> 2.42x
 * cusparseSpSV on average, D3N27 256^3 4.33 -> 2.10 ms, D3N33 5.57 ->
 * 4.15 ms.
 *
 * The line solve itself is the DOMINO one: chunks of 32 points staggered by
 * (shift_y y + shift_z z) mod 32, coefficients fetched before the waits and
 * the next chunk's prefetched into L1, the in-line recurrence as a warp
 * scan.
 *
 * A kernel with 6 neighbour lines (D3N33) takes tiles of at most 8 warps,
 * so that its 18 coefficients stay in registers (up to 255 a thread; the
 * CSR kernel's capped at 168): with 128 they spilled, and D3N33 tiles lost
 * to the queue kernel.
 *
 * Tried on H100 and slower: the neighbours gathered offset by offset after
 * one lane per line polled its last value (D3N27 64^3 0.40 ms against 0.34
 * here); the coefficients read after the waits instead of before (D3N33
 * 64^3 1.08 ms against 0.63 with the early reads spilling to local
 * memory; an earlier gather 1.3x (D3N7) to 3.6x (D3N27) the time). */
#include "stencil_device.cuh"
#include "device_util.cuh"

/* warp of the tile (u0, z0) that solves line (y, z), -1 if none */
__device__ __forceinline__ int tile_warp(const stencil_kernel_args &A, int y, int z, int u0, int z0)
{
    int lu = y + A.tile_skew * z - u0, lz = z - z0;
    return lu >= 0 && lu < A.tile_u && lz >= 0 && lz < A.tile_z ? lu + A.tile_u * lz : -1;
}

/* Where line w of a warp's line reads from: -2 off the grid, -1 x (another
 * tile, or a ghost line of a slab, which a neighbour PE solves), else the
 * tile's warp that solves it */
__device__ __forceinline__ int line_source(const stencil_kernel_args &A, int w, int y, int z, int u0,
                                           int z0)
{
    int wy = y + A.waity[w], wz = z + A.waitz[w];
    if (w >= A.nwait || wy < 0 || wy >= A.ny || wz < 0 || wz >= A.nz) return -2;
    if (wy < A.y_lo || wy >= A.y_hi) return -1;
    return tile_warp(A, wy, wz, u0, z0);
}

/* v[w] (lane's point xa) and e[w] (lanes 0, 1: point xb) of every
 * neighbour line w reloaded where `pending` (all of them when false):
 * from x for a line of another tile, from its buffer for a line of the
 * tile, 0 off the grid.  Predicated loads, no branch (load_relaxed_if). */
template <typename T, int W>
__device__ __forceinline__ void line_reads(const stencil_kernel_args &A, const T *x, const T *xs,
                                           const int *src, int y, int z, int xa, int xb, bool pending,
                                           T *v, T *e)
{
    const int lane = threadIdx.x & 31;
    const bool in_a = xa >= 0 && xa < A.nx, in_b = lane < 2 && xb < A.nx;
    const int ca = in_a ? xa : 0, cb = in_b ? xb : 0;
#pragma unroll
    for (int w = 0; w < W; w++) {
        const bool ra = !pending || is_pending(v[w]), rb = !pending || is_pending(e[w]);
        const int64_t l = (y + A.waity[w]) + (int64_t)A.ny * (z + A.waitz[w]);
        const int64_t at = src[w] == -1 ? l * A.nx : 0;
        const T *buf = xs + (int64_t)(src[w] >= 0 ? src[w] : 0) * A.nx;
        if (!pending) v[w] = e[w] = (T)0;
        v[w] = load_relaxed_if(ra && in_a && src[w] == -1, &x[real_row(A, at + ca)], v[w]);
        e[w] = load_relaxed_if(rb && in_b && src[w] == -1, &x[real_row(A, at + cb)], e[w]);
        v[w] = load_relaxed_shared_if(ra && in_a && src[w] >= 0, &buf[ca], v[w]);
        e[w] = load_relaxed_shared_if(rb && in_b && src[w] >= 0, &buf[cb], e[w]);
    }
}

/* The coefficients of a CSR triangle's row `row` (solve-coordinate point
 * xl of line (y, z)), as the compact form holds them: false where the row
 * is not exactly its stencil neighbours inside the grid in column order,
 * each once (duplicates, an entry missing, one too many before the other
 * triangle's); its values are then wrong, and the caller marks the row
 * (irregular_row) so that the whole solve is made again by the queue
 * kernel's walking instance, which sums duplicates and names bad entries.
 * The reading itself is csr_row_begin, csr_entry and csr_row_end
 * (stencil_device.cuh), which the queue kernel's CSR forms share. */
template <typename T, int W, int ORDER>
__device__ __forceinline__ bool csr_coefficients(const stencil_kernel_args &A, int64_t row, int xl,
                                                 unsigned line_mask, int64_t *jb, int64_t *je, T *diag,
                                                 T *m1, T *m2, T *c)
{
    csr_reader r;
    csr_row_begin<T, ORDER>(A, row, xl, line_mask, &r, diag, m1, m2);
#pragma unroll
    for (int w = 0; w < W; w++)
#pragma unroll
        for (int d = 0; d < 3; d++) c[3 * w + d] = csr_entry<T>(A, &r, A.csr_wait[w][d]);
    *jb = r.jb;
    *je = r.je;
    return csr_row_end(A, &r);
}

/* One warp solves line (y, z) of the tile (u0, z0), writing x and its line
 * buffer `mine` (nx values in shared memory, pending when the tile starts).
 *
 * The neighbours are read line by line: a chunk of 32 points at x0 reads
 * x0 - 1 .. x0 + 32 of each neighbour line w (every off-line offset has
 * |dx| <= 1), lane j holding v[w] = point x0 - 1 + j and, lanes 0 and 1,
 * e[w] = point x0 + 31 + j; the terms are then passed by shuffles.  Those
 * are two coalesced loads, from x for a line of another tile, from the
 * line's buffer for a line of the tile, and they are also the wait: values
 * are their own flags in both, so the loads are repeated (backing off
 * while a value of x is missing) until none of the points the chunk needs
 * is pending.  A hop from another tile costs one read after the values
 * land (plus at most one back-off), not a poll then a load; a hop inside
 * the tile costs a shared-memory read, with no fence on either side (why
 * none: the top of the file).
 * Only the points of an offset enter the sum (the others may be pending). */
template <typename T, int W, int ORDER, bool SLAB, bool CSR>
__device__ __forceinline__ void tile_line(const stencil_kernel_args &A, const T *__restrict__ b,
                                          T *x, T *xs, int me, int y, int z, int u0, int z0)
{
    const int lane = threadIdx.x & 31;
    const T *coef = (const T *)A.coef;
    const int64_t line = (int64_t)y + (int64_t)A.ny * z, base = line * A.nx;
    const int stagger = (A.shift_y * (y + A.y_origin) + A.shift_z * z) & 31;
    T *mine = xs + (int64_t)me * A.nx;
    int src[W];
#pragma unroll
    for (int w = 0; w < W; w++) src[w] = line_source(A, w, y, z, u0, z0);
    const unsigned line_mask = CSR ? low_line_mask(A, y, z) : 0u; /* csr_coefficients */
    T carry1 = 0, carry2 = 0;
    for (int x0 = -stagger; x0 < A.nx; x0 += 32) {
        const int xl = x0 + lane, xa = x0 - 1 + lane, xb = x0 + 31 + lane;
        const bool valid = xl >= 0 && xl < A.nx;
        const int64_t r = base + (valid ? xl : 0);
        const int64_t row = real_row(A, r);
        T sum = valid ? __ldg(&b[row]) : (T)0;
        T diag, m1, m2 = 0;
        T c[3 * W]; /* the coefficient of (line w, dx = d - 1), before the waits */
        bool regular = true;
        if (CSR) {
            int64_t jb, je;
            regular = csr_coefficients<T, W, ORDER>(A, row, xl, line_mask, &jb, &je, &diag, &m1, &m2, c);
            if (W <= 4 && valid && !regular) atomicMin(&A.st->irregular_row, (int32_t)row);
            if (valid && x0 + 32 < A.nx) prefetch_csr(A, b, row, jb, je);
        } else {
            diag = __ldg(&coef[row]);
            m1 = __ldg(&coef[A.n + row]);
            if (ORDER == 2) m2 = __ldg(&coef[2 * A.n + row]);
#pragma unroll
            for (int w = 0; w < W; w++)
#pragma unroll
                for (int d = 0; d < 3; d++) {
                    int k = w < A.nwait ? A.waitoff[w][d] : -1;
                    c[3 * w + d] = k >= 0 ? __ldg(&coef[(3 + k) * A.n + row]) : (T)0;
                }
            if (x0 + 32 < A.nx) prefetch_compact(A, b, coef, base + x0 + 32 + lane, x0 + 32 + lane < A.nx);
        }
        __syncwarp(); /* converged again after the prefetch: no collective shuffles below */
        T v[W], e[W];
        line_reads<T, W>(A, x, xs, src, y, z, xa, xb, false, v, e);
        unsigned ns = 32;
        for (;;) { /* the points the chunk needs, until none is pending */
            bool missing_x = false, missing_tile = false;
#pragma unroll
            for (int w = 0; w < W; w++) {
                int need = min(A.nx - 1, x0 + 31 + A.waitx[w]);
                bool m = (xa <= need && is_pending(v[w])) || (lane < 2 && xb <= need && is_pending(e[w]));
                missing_x |= m && src[w] == -1;
                missing_tile |= m && src[w] >= 0;
            }
            const bool wait_x = __any_sync(FULL_MASK, missing_x), wait_tile = __any_sync(FULL_MASK, missing_tile);
            if (!wait_x && !wait_tile) break;
            /* back off while a value of x is missing, not for the tile's
             * buffers (a select: a branch here made the shuffles collective) */
            __nanosleep(wait_x ? ns : 0u);
            ns = wait_x && ns < (unsigned)A.tile_poll_cap ? ns << 1 : ns;
            line_reads<T, W>(A, x, xs, src, y, z, xa, xb, true, v, e);
        }
#pragma unroll
        for (int w = 0; w < W; w++)
#pragma unroll
            for (int d = 0; d < 3; d++) {
                /* point x0 + lane + d - 1: v of lane `from`, or e beyond 31 */
                int from = lane + d;
                T lo = __shfl_sync(FULL_MASK, v[w], from & 31), hi = __shfl_sync(FULL_MASK, e[w], from & 31);
                if (w < A.nwait && A.waitoff[w][d] >= 0) sum -= c[3 * w + d] * (from < 32 ? lo : hi);
            }
        if (!valid) m1 = 0;
        if (xl < 1) m1 = 0; /* neighbours off the grid read nothing */
        if (xl < 2) m2 = 0;
        if (A.unit || !valid) diag = 1;
        if (!A.unit && valid && diag == (T)0) atomicMin(&A.st->zero_pivot, (int32_t)row);
        /* with 6 neighbour lines (D3N33) an irregular row is marked after
         * the waits: a branch on the CSR entries before them held the
         * neighbour reads until every entry had landed (D3N33 256^3 on
         * 2 x 2 tiles 4.10 -> 3.87 ms); with 4 (D3N27) that was 2-4 %
         * slower (bench/results/h200x2-session32) */
        if (CSR && W > 4 && valid && !regular) atomicMin(&A.st->irregular_row, (int32_t)row);
        T inv = (T)1 / diag;
        T xi = recurrence_scan<T, ORDER>(sum * inv, -m1 * inv, -m2 * inv, carry1, carry2);
        if (valid) {
            store_relaxed_shared(&mine[xl], publishable(xi)); /* the tile's readers first */
            store_relaxed(&x[row], publishable(xi));
            if (SLAB && slab_mirrored(A)) mirror_value(A, xl, y, z, publishable(xi));
        }
        carry1 = __shfl_sync(FULL_MASK, xi, 31);
        carry2 = __shfl_sync(FULL_MASK, xi, 30);
    }
}

/* this warp's line buffer made pending (before a tile's lines start) */
template <typename T> __device__ __forceinline__ void buffer_reset(const stencil_kernel_args &A, T *buf)
{
    T p;
    make_pending(&p);
    for (int i = threadIdx.x & 31; i < A.nx; i += 32) store_relaxed_shared(&buf[i], p);
}

/* Blocks of 32 tile_u tile_z threads take tiles from the ticket until none
 * is left.  Dynamic shared memory: one line buffer of nx values per warp. */
template <typename T, int W, int ORDER, bool SLAB, bool CSR>
__device__ __forceinline__ void tile_blocks(const stencil_kernel_args &A, const T *__restrict__ b, T *x)
{
    extern __shared__ __align__(16) unsigned char tile_smem[];
    __shared__ int ticket;
    T *xs = (T *)tile_smem;
    const int w = threadIdx.x >> 5;
    const int lu = w % A.tile_u, lz = w / A.tile_u;
    const int tiles_z = (A.nz + A.tile_z - 1) / A.tile_z;
    buffer_reset(A, xs + (int64_t)w * A.nx);
    for (;;) {
        if (threadIdx.x == 0) ticket = atomicAdd(&A.st->ticket, 1);
        __syncthreads(); /* the ticket, and the buffers made pending */
        const int t = ticket;
        if (t >= A.tile_count) break;
        const int32_t tile = __ldg(&A.tile_order[t]);
        const int u0 = (tile / tiles_z) * A.tile_u, z0 = (tile % tiles_z) * A.tile_z;
        const int z = z0 + lz, y = u0 + lu - A.tile_skew * z;
        if (z < A.nz && y >= A.y_lo && y < A.y_hi) tile_line<T, W, ORDER, SLAB, CSR>(A, b, x, xs, w, y, z, u0, z0);
        __syncthreads(); /* every warp done with the buffers */
        buffer_reset(A, xs + (int64_t)w * A.nx);
    }
}

/* the compact form (a slab's or a whole grid's) */
template <typename T, int W, int ORDER, bool SLAB>
__global__ void __launch_bounds__(32 * STENCIL_TILE_WARPS(W))
    stencil_tile_kernel(const stencil_kernel_args A, const T *__restrict__ b, T *x)
{
    tile_blocks<T, W, ORDER, SLAB, false>(A, b, x);
}

/* a CSR triangle, in at most 168 registers with 6 neighbour lines, so that
 * 3 blocks of 2 x 2 lines (D3N33's tile from 2^21 rows) fit an SM:
 * reading the rows by slot (csr_entry) left ptxas 191 otherwise */
#if __CUDACC_VER_MAJOR__ > 12 || (__CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 4)
#define TILE_CSR_MAXNREG(W) __maxnreg__((W) > 4 ? 168 : 128)
#else
#define TILE_CSR_MAXNREG(W) /* __maxnreg__ is CUDA 12.4's: older toolkits leave it to ptxas */
#endif
template <typename T, int W, int ORDER>
__global__ void __launch_bounds__(32 * STENCIL_TILE_WARPS(W)) TILE_CSR_MAXNREG(W)
    stencil_tile_csr_kernel(const stencil_kernel_args A, const T *__restrict__ b, T *x)
{
    tile_blocks<T, W, ORDER, false, true>(A, b, x);
}

/* the kernel for A: neighbour lines held (2, 4 or 6), in-line order, a
 * slab of the solve over PEs (A->slab, compact form only) or not, the CSR
 * form (A->coef NULL) or the compact one */
#define TILE_KERNEL(W, O, S) (const void *)stencil_tile_kernel<T, W, O, S>
#define TILE_CSR_KERNEL(W, O) (const void *)stencil_tile_csr_kernel<T, W, O>
#define TILE_KERNELS(O, S)                                                                    \
    (A->nwait <= 2 ? TILE_KERNEL(2, O, S) : A->nwait <= 4 ? TILE_KERNEL(4, O, S) : TILE_KERNEL(6, O, S))
#define TILE_CSR_KERNELS(O)                                                                   \
    (A->nwait <= 2 ? TILE_CSR_KERNEL(2, O) : A->nwait <= 4 ? TILE_CSR_KERNEL(4, O) : TILE_CSR_KERNEL(6, O))

template <typename T> static const void *tile_kernel_of(const stencil_kernel_args *A)
{
    if (A->slab) return A->order >= 2 ? TILE_KERNELS(2, true) : TILE_KERNELS(1, true);
    if (!A->coef) return A->order >= 2 ? TILE_CSR_KERNELS(2) : TILE_CSR_KERNELS(1);
    return A->order >= 2 ? TILE_KERNELS(2, false) : TILE_KERNELS(1, false);
}

static const void *kernel_of(domino_type type, const stencil_kernel_args *A)
{
    return type == DOMINO_FLOAT64 ? tile_kernel_of<double>(A) : tile_kernel_of<float>(A);
}

extern "C" size_t domino_stencil_tile_smem(domino_type type, const stencil_kernel_args *A)
{
    size_t value = type == DOMINO_FLOAT64 ? sizeof(double) : sizeof(float);
    return (size_t)A->tile_u * A->tile_z * A->nx * value;
}

/* the kernel with its shared memory allowed (above the default 48 KB when needed) */
static cudaError_t prepare(domino_type type, const stencil_kernel_args *A, const void **kernel,
                           size_t *smem)
{
    *kernel = kernel_of(type, A);
    *smem = domino_stencil_tile_smem(type, A);
    return cudaFuncSetAttribute(*kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)*smem);
}

extern "C" cudaError_t domino_stencil_tile_resident(domino_type type, const stencil_kernel_args *A,
                                                    int num_sms, int *blocks)
{
    const void *kernel;
    size_t smem;
    int per_sm = 0;
    cudaError_t e = prepare(type, A, &kernel, &smem);
    if (!e)
        e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, 32 * A->tile_u * A->tile_z,
                                                          smem);
    *blocks = per_sm * num_sms;
    return e;
}

extern "C" cudaError_t domino_launch_stencil_tile(cudaStream_t stream, domino_type type,
                                                  const stencil_kernel_args *A, int blocks,
                                                  const void *b, void *x)
{
    const void *kernel;
    size_t smem;
    cudaError_t e = prepare(type, A, &kernel, &smem);
    if (e) return e;
    stencil_kernel_args args = *A;
    void *params[3] = {&args, &b, &x};
    return cudaLaunchKernel(kernel, dim3((unsigned)blocks), dim3(32 * A->tile_u * A->tile_z), params,
                            smem, stream);
}
