/* stencil_tile.cu: the tiled structured-grid solve (DOMINO on the compact
 * form).
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
 * running block: no residency or block-order assumption.  Inside a tile, a
 * warp writes each solved chunk to its line buffer in shared memory as well
 * as to x, then raises its progress word (the last x solved); a warp whose
 * neighbour line is in the tile waits on that word and reads the values
 * from shared memory, so a hop inside the tile costs a few hundred
 * nanoseconds and only the hops across tiles go through L2.  Lines of other
 * tiles are waited for as in the queue kernel: one lane per neighbour line
 * polls the last value the chunk needs (values are their own flags).
 *
 * The line solve itself is the DOMINO one: chunks of 32 points staggered by
 * (shift_y y + shift_z z) mod 32, coefficients fetched before the waits and
 * the next chunk's prefetched into L1, the in-line recurrence as a warp
 * scan.  (Tried and slower, H100: the loads from other tiles issued before
 * the wait on the tile's lines, and the coefficients read after the waits:
 * 1.3x (D3N7) to 3.6x (D3N27) the time.) */
#include "stencil_device.cuh"
#include "device_util.cuh"

#define TILE_MAX_WARPS STENCIL_TILE_MAX_WARPS

/* warp of the tile (u0, z0) that solves line (y, z), -1 if none */
__device__ __forceinline__ int tile_warp(const stencil_kernel_args &A, int y, int z, int u0, int z0)
{
    int lu = y + A.tile_skew * z - u0, lz = z - z0;
    return lu >= 0 && lu < A.tile_u && lz >= 0 && lz < A.tile_z ? lu + A.tile_u * lz : -1;
}

/* Lanes 0..nwait-1 wait until their neighbour line has solved every x the
 * chunk starting at x0 reads: through its progress word when the line is
 * in the tile (nbw >= 0), else through the last value needed (values are
 * their own flags); then the warp synchronizes (all lanes see what the
 * waits guard). */
template <typename T>
__device__ __forceinline__ void tile_wait(const stencil_kernel_args &A, const T *x,
                                          const volatile int *done, int nbw, int64_t nbline, int x0)
{
    int lane = threadIdx.x & 31;
    if (lane < A.nwait && nbw > -2) {
        int need = min(A.nx - 1, x0 + 31 + A.waitx[lane]);
        if (need >= 0) {
            if (nbw >= 0) {
                while (done[nbw] < need) {
                }
                __threadfence_block();
            } else {
                const T *v = &x[real_row(A, nbline * A.nx + need)];
                while (is_pending(load_relaxed(v))) __nanosleep(32);
            }
        }
    }
    __syncwarp();
}

/* sum -= the off-line terms of the lane's equation (solve-coordinate row r,
 * point (xl, y, z)), after the waits: neighbours in the tile from shared
 * memory, the others from x, loaded together and loaded again while one
 * is still pending (rarely: the lanes of a chunk store together, and the
 * wait saw the last of them) */
template <typename T, int K>
__device__ __forceinline__ void tile_gather(const stencil_kernel_args &A, const T *x, const T *xs,
                                            const T *cval, int64_t r, int xl, int y, int z, int u0,
                                            int z0, T *sum)
{
    T xv[K];
    unsigned from_x = 0; /* bit k: neighbour k read from x */
    bool missing = false;
#pragma unroll
    for (int k = 0; k < K; k++) {
        int ky = y + A.offy[k], kz = z + A.offz[k], kx = xl + A.offx[k];
        bool use = k < A.noff && inside(A, kx, ky, kz);
        int wk = use ? tile_warp(A, ky, kz, u0, z0) : -1;
        if (use && wk < 0) from_x |= 1u << k;
        xv[k] = !use ? (T)0 : wk >= 0 ? xs[wk * A.nx + kx] : load_relaxed(&x[real_row(A, r + A.offd[k])]);
    }
#pragma unroll
    for (int k = 0; k < K; k++) missing |= (from_x >> k & 1u) && is_pending(xv[k]);
    unsigned ns = 32;
    while (missing) {
        back_off(&ns, A.sleep_cap);
        missing = false;
#pragma unroll
        for (int k = 0; k < K; k++)
            if ((from_x >> k & 1u) && is_pending(xv[k])) {
                xv[k] = load_relaxed(&x[real_row(A, r + A.offd[k])]);
                missing |= is_pending(xv[k]);
            }
    }
#pragma unroll
    for (int k = 0; k < K; k++) *sum -= cval[k] * xv[k];
}

/* One warp solves line (y, z) of the tile (u0, z0), writing x and its line
 * buffer mine[] and raising done[w] after each chunk. */
template <typename T, int K, int ORDER>
__device__ __forceinline__ void tile_line(const stencil_kernel_args &A, const T *__restrict__ b,
                                          T *x, T *xs, volatile int *done, int w, int y, int z,
                                          int u0, int z0)
{
    const int lane = threadIdx.x & 31;
    const T *coef = (const T *)A.coef;
    const int64_t line = (int64_t)y + (int64_t)A.ny * z, base = line * A.nx;
    const int stagger = (A.shift_y * y + A.shift_z * z) & 31;
    T *mine = xs + (int64_t)w * A.nx;
    /* lane < nwait: its neighbour line, -2 off the grid, -1 another tile, else its warp */
    int nbw = -2;
    int64_t nbline = 0;
    if (lane < A.nwait) {
        int wy = y + A.waity[lane], wz = z + A.waitz[lane];
        if (wy >= 0 && wy < A.ny && wz >= 0 && wz < A.nz) {
            nbw = tile_warp(A, wy, wz, u0, z0);
            nbline = wy + (int64_t)A.ny * wz;
        }
    }
    T carry1 = 0, carry2 = 0;
    for (int x0 = -stagger; x0 < A.nx; x0 += 32) {
        const int xl = x0 + lane;
        const bool valid = xl >= 0 && xl < A.nx;
        const int64_t r = base + (valid ? xl : 0);
        const int64_t row = real_row(A, r);
        T sum = valid ? __ldg(&b[row]) : (T)0;
        T diag = __ldg(&coef[row]), m1 = __ldg(&coef[A.n + row]), m2 = 0;
        if (ORDER == 2) m2 = __ldg(&coef[2 * A.n + row]);
        T cval[K];
#pragma unroll
        for (int k = 0; k < K; k++) cval[k] = k < A.noff ? __ldg(&coef[(3 + k) * A.n + row]) : (T)0;
        if (x0 + 32 < A.nx) prefetch_compact(A, b, coef, base + x0 + 32 + lane, x0 + 32 + lane < A.nx);
        tile_wait(A, x, done, nbw, nbline, x0);
        if (valid) tile_gather<T, K>(A, x, xs, cval, r, xl, y, z, u0, z0, &sum);
        else m1 = 0;
        if (xl < 1) m1 = 0; /* neighbours off the grid read nothing */
        if (xl < 2) m2 = 0;
        if (A.unit || !valid) diag = 1;
        if (!A.unit && valid && diag == (T)0) atomicMin(&A.st->zero_pivot, (int32_t)row);
        T inv = (T)1 / diag;
        T xi = recurrence_scan<T, ORDER>(sum * inv, -m1 * inv, -m2 * inv, carry1, carry2);
        if (valid) {
            store_relaxed(&x[row], publishable(xi));
            mine[xl] = xi;
        }
        carry1 = __shfl_sync(FULL_MASK, xi, 31);
        carry2 = __shfl_sync(FULL_MASK, xi, 30);
        __syncwarp(); /* the chunk's buffer writes, then the progress word */
        if (lane == 0) {
            __threadfence_block();
            done[w] = min(A.nx - 1, x0 + 31);
        }
    }
}

/* Blocks of 32 tile_u tile_z threads take tiles from the ticket until none
 * is left.  Dynamic shared memory: the progress words (TILE_MAX_WARPS ints,
 * padded to 128 bytes), then one line buffer of nx values per warp. */
template <typename T, int K, int ORDER>
__global__ void __launch_bounds__(32 * TILE_MAX_WARPS)
    stencil_tile_kernel(const stencil_kernel_args A, const T *__restrict__ b, T *x)
{
    extern __shared__ __align__(16) unsigned char tile_smem[];
    __shared__ int ticket;
    volatile int *done = (volatile int *)tile_smem;
    T *xs = (T *)(tile_smem + TILE_MAX_WARPS * sizeof(int) * 2);
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    const int lu = w % A.tile_u, lz = w / A.tile_u;
    const int tiles_z = (A.nz + A.tile_z - 1) / A.tile_z;
    if (lane == 0) done[w] = -1;
    for (;;) {
        if (threadIdx.x == 0) ticket = atomicAdd(&A.st->ticket, 1);
        __syncthreads(); /* the ticket, and the progress words reset */
        const int t = ticket;
        if (t >= A.tile_count) break;
        const int32_t tile = __ldg(&A.tile_order[t]);
        const int u0 = (tile / tiles_z) * A.tile_u, z0 = (tile % tiles_z) * A.tile_z;
        const int z = z0 + lz, y = u0 + lu - A.tile_skew * z;
        if (z < A.nz && y >= 0 && y < A.ny) tile_line<T, K, ORDER>(A, b, x, xs, done, w, y, z, u0, z0);
        __syncthreads(); /* every warp done with the buffers */
        if (lane == 0) done[w] = -1;
    }
}

/* register slots of the off-line coefficients */
static int tile_slots(const stencil_kernel_args *A)
{
    return A->noff <= 4 ? 4 : A->noff <= 8 ? 8 : A->noff <= 12 ? 12 : STENCIL_TILE_MAX_OFF;
}

#define TILE_KERNEL(K, O) (const void *)stencil_tile_kernel<T, K, O>
#define TILE_KERNELS(O)                                                                       \
    (slots == 4    ? TILE_KERNEL(4, O)                                                        \
     : slots == 8  ? TILE_KERNEL(8, O)                                                        \
     : slots == 12 ? TILE_KERNEL(12, O)                                                       \
                   : TILE_KERNEL(STENCIL_TILE_MAX_OFF, O))

template <typename T> static const void *tile_kernel_of(const stencil_kernel_args *A)
{
    int slots = tile_slots(A);
    return A->order >= 2 ? TILE_KERNELS(2) : TILE_KERNELS(1);
}

static const void *kernel_of(domino_type type, const stencil_kernel_args *A)
{
    return type == DOMINO_FLOAT64 ? tile_kernel_of<double>(A) : tile_kernel_of<float>(A);
}

extern "C" size_t domino_stencil_tile_smem(domino_type type, const stencil_kernel_args *A)
{
    size_t value = type == DOMINO_FLOAT64 ? sizeof(double) : sizeof(float);
    return TILE_MAX_WARPS * sizeof(int) * 2 + (size_t)A->tile_u * A->tile_z * A->nx * value;
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
