/* dist_stencil_nvshmem.cu: the structured-grid solve over PEs by slabs of
 * y (domino_dist_stencil_*; the slabs: src/dist/dist_slabs.h).
 *
 * Each PE uploads its slab (own lines and ghost lines) and runs the
 * single-GPU DOMINO kernel of stencil_trsv.cu / stencil_tile.cu on its own
 * lines.  Its solution array is symmetric, so that the PEs next to it
 * address it directly (nvshmem_ptr over NVLink): a kernel that solves a
 * value of a line a neighbour copies stores it there too.  The copies hold
 * the pending sentinel until then, so a value is its own flag on both
 * GPUs.  A solve: reset (sentinels, queues), every PE meets, the kernels,
 * every PE meets again (no late store reaches a reset copy), then every PE
 * gathers the whole solution from the others' arrays.
 *
 * The kernels call no NVSHMEM function, so they start with a plain launch
 * once every PE is ready; a kernel that waits on another PE only needs that
 * PE's kernel to run.  Should one PE's launch fail, the others' kernels
 * would wait on it forever: the host watches its kernel, and after
 * DOMINO_DIST_TIMEOUT_S seconds (60) writes zeros over its ghost lines
 * (copies on a stream of their own: the copy engine runs beside the
 * spinning kernel), so that every wait on another PE ends as if the values
 * had come; it waits for the kernel to end and fails with DOMINO_TIMEOUT,
 * which every PE then learns.  A kernel that still does not end leaves T
 * broken: later solves refuse it.  The kernels themselves read no abort
 * word: one in mapped host memory, read every 256 rounds of a wait, made
 * the solve 90x slower (D3N7 384^3 on 4 H200, 107 ms against 1.21 ms), and
 * one in device memory still cost the tiled kernel 11-12 %
 * (bench/results/h200x4-slab-fix).
 *
 * Ghost values are stored at system scope by the neighbour and polled
 * relaxed at GPU scope here, in this GPU's memory: the value is its own
 * flag, and both accesses meet in this GPU's L2. */
#include "dist_trsv_internal.h" /* dist_timeout_seconds */
#include "stencil_gpu.h"
#include "dist/nvshmem/dist_runtime.h"

#include <nvshmem.h>
#include <nvshmemx.h>

#include <string.h>

#define WHAT "domino_dist_stencil_make"
#define DIST_STENCIL_MAGIC 0x646f6d696e6f5453ULL /* "dominoTS" */
#define ABORT_GRACE_S 10.0 /* after zeroing the ghost lines, how long the kernel may take to end */

struct domino_dist_stencil_s {
    uint64_t magic;                 /* DIST_STENCIL_MAGIC while alive */
    domino_dist D;                  /* the run */
    int pe;                         /* this PE */
    domino_type type;               /* value type */
    dist_slabs P;                   /* the slabs, alike on every PE */
    domino_dstencil S;              /* this PE's slab on its GPU (compact form) */
    stencil_kernel_args A;          /* its solve: own lines, mirrors, launch shape */
    int blocks;                     /* grid of the solve */
    void *x;                        /* symmetric: this PE's local solution (room for the largest slab) */
    void *b;                        /* device: this PE's local right-hand side */
    void *full;                     /* device: the whole solution, gathered after a solve */
    void *peer[DIST_SLABS_MAX_PES]; /* every PE's x as this GPU addresses it */
    void *zeros;                    /* pinned host memory: zeros for the widest ghost band of a plane */
    cudaStream_t abort_stream;      /* non-blocking stream of the copies that end the waits */
    int broken;                     /* 1: a kernel or the zeros did not end after a timeout */
};

static void destroy(struct domino_dist_stencil_s *T)
{
    if (!T) return;
    if (!T->broken) { /* cudaFree waits for the device: not for a kernel that never ends */
        domino_dstencil_free(T->S);
        cudaFree(T->b);
        cudaFree(T->full);
        cudaFreeHost(T->zeros);
        if (T->abort_stream) cudaStreamDestroy(T->abort_stream);
    }
    if (T->x) domino_dist_free(T->D, T->x); /* collective: every PE frees alike */
    T->magic = DOMINO_FREED_MAGIC;
    domino_free(T);
}

void domino_dist_stencil_free(domino_dist_stencil T)
{
    if (T && T->magic == DIST_STENCIL_MAGIC) destroy(T);
}

void domino_dist_stencil_shape(domino_dist_stencil T, int32_t *own_lines, int *tile_u, int *tile_z,
                               int *warps)
{
    int alive = T && T->magic == DIST_STENCIL_MAGIC;
    if (own_lines) *own_lines = alive ? T->P.y0[T->pe + 1] - T->P.y0[T->pe] : 0;
    if (tile_u) *tile_u = alive ? T->A.tile_u : 0;
    if (tile_z) *tile_z = alive ? T->A.tile_z : 0;
    if (warps) *warps = alive ? T->A.warps_per_queue : 0;
}

/* this PE's slab on its GPU, its right-hand side and the gathered solution
 * (nothing collective) */
static domino_status setup_local(domino_handle h, struct domino_dist_stencil_s *T,
                                 const domino_stencil_matrix *S, domino_fill fill)
{
    domino_stencil_matrix local;
    domino_status s = dist_slabs_slice(h, WHAT, S, &T->P, T->pe, fill, &local);
    if (s) return s;
    s = domino_dstencil_upload(h, &local, fill, &T->S);
    domino_free(local.coef);
    if (s) return s;
    size_t vsize = domino_type_size(T->type);
    size_t n = (size_t)S->nx * S->ny * S->nz, nloc = (size_t)S->nx * T->P.nyl[T->pe] * S->nz;
    cudaError_t e = cudaMalloc(&T->b, (nloc ? nloc : 1) * vsize);
    if (!e) e = cudaMalloc(&T->full, (n ? n : 1) * vsize);
    int32_t band = T->P.below[T->pe] > T->P.above[T->pe] ? T->P.below[T->pe] : T->P.above[T->pe];
    size_t zbytes = (size_t)S->nx * band * vsize;
    if (!e) e = cudaHostAlloc(&T->zeros, zbytes ? zbytes : 1, cudaHostAllocDefault);
    if (!e) memset(T->zeros, 0, zbytes);
    if (!e) e = cudaStreamCreateWithFlags(&T->abort_stream, cudaStreamNonBlocking);
    return e ? domino_cuda_status(h, e, WHAT) : DOMINO_SUCCESS;
}

/* the symmetric solution array, every PE's address of it, and the solve's
 * arguments: own lines, the neighbours' copies, the launch shape */
static domino_status setup_shared(domino_handle h, struct domino_dist_stencil_s *T, domino_fill fill)
{
    const dist_slabs *P = &T->P;
    size_t most = 0;
    for (int q = 0; q < P->npes; q++) {
        size_t bytes = (size_t)P->nx * P->nyl[q] * P->nz * domino_type_size(T->type);
        if (bytes > most) most = bytes;
    }
    /* collective: every PE makes both calls */
    domino_status s = dist_check_room(h, T->D, most, WHAT);
    if (!s) s = domino_dist_malloc(h, T->D, most ? most : 8, &T->x);
    if ((s = domino_dist_agree(h, T->D, s))) return s;
    for (int q = 0; q < P->npes; q++)
        if (!(T->peer[q] = nvshmem_ptr(T->x, q)))
            return domino_error(h, DOMINO_NOT_SUPPORTED,
                                "%s: PE %d cannot address PE %d's memory directly (no peer access "
                                "between their GPUs); the slab solve needs one node with peer access",
                                WHAT, T->pe, q);
    stencil_kernel_args *A = &T->A;
    *A = T->S->args;
    A->slab = 1; /* the kernel instances that store the mirrors */
    dist_slabs_own(P, T->pe, fill == DOMINO_UPPER, &A->y_lo, &A->y_hi, &A->y_origin);
    for (int side = 0; side < 2; side++) {
        dist_slabs_mirror(P, T->pe, side, &A->mirror[side]);
        int r = side ? T->pe + 1 : T->pe - 1;
        A->mirror_x[side] = A->mirror[side].y_hi > A->mirror[side].y_lo ? T->peer[r] : NULL;
    }
    return domino_dstencil_slab_shape(h, T->S, A, &T->blocks);
}

/* what every PE must pass alike (grid, type, fill, offsets), folded into
 * an integer below 2^52 (exact in a double) */
static double fingerprint(const domino_stencil_matrix *S, domino_fill fill)
{
    uint64_t f = 1469598103934665603ULL; /* FNV-1a */
    int32_t words[6] = {S->nx, S->ny, S->nz, (int32_t)S->type, (int32_t)fill, S->npoints};
    for (int k = 0; k < 6 + 3 * S->npoints; k++) {
        uint32_t w = (uint32_t)(k < 6 ? words[k] : S->offsets[k - 6]);
        for (int byte = 0; byte < 4; byte++) f = (f ^ ((w >> (8 * byte)) & 0xff)) * 1099511628211ULL;
    }
    return (double)(f >> 12);
}

domino_status domino_dist_stencil_make(domino_handle h, domino_dist D, const domino_stencil_matrix *S,
                                       domino_fill fill, domino_dist_stencil *out)
{
    struct domino_dist_stencil_s *T = NULL;
    struct domino_gpu_context *gpu = NULL;
    int npes = domino_dist_npes(D), devices = 0;
    if (npes < 1) return domino_error(h, DOMINO_INVALID_OBJECT, WHAT ": D is not a joined run");
    if (out) *out = NULL;
    /* everything local first, every error through the agreement below: a
     * PE that fails here must not leave the others in a collective call */
    domino_status s = DOMINO_SUCCESS;
    if (!out)
        s = domino_error(h, DOMINO_NULL_POINTER, WHAT ": T is NULL");
    else if (!S)
        s = domino_error(h, DOMINO_NULL_POINTER, WHAT ": S is NULL");
    else if (S->type != DOMINO_FLOAT64 && S->type != DOMINO_FLOAT32)
        s = domino_error(h, DOMINO_NOT_SUPPORTED, WHAT ": S must be double or float");
    else if (fill != DOMINO_LOWER && fill != DOMINO_UPPER)
        s = domino_error(h, DOMINO_INVALID_VALUE, WHAT ": fill must be LOWER or UPPER");
    else if (cudaGetDeviceCount(&devices) == cudaSuccess && npes > devices)
        /* PEs sharing a GPU: one PE's spinning blocks could keep the other's
         * from ever starting */
        s = domino_error(h, DOMINO_NOT_SUPPORTED,
                         WHAT ": %d PEs on %d GPUs; the slab solve needs a GPU per PE", npes, devices);
    /* the same S everywhere: every PE's fingerprint, -1 where one failed
     * (that PE's error then comes through the agreement) */
    double mine = !s ? fingerprint(S, fill) : -1, most = 0, least = 0;
    domino_status f1 = domino_dist_max(h, D, mine, &most); /* collective, whatever failed */
    domino_status f2 = domino_dist_max(h, D, -mine, &least);
    if (!s) s = f1 ? f1 : f2;
    if (!s && -least >= 0 && most != -least)
        s = domino_error(h, DOMINO_INVALID_VALUE,
                         WHAT ": S or fill differs between the PEs (grid, type, offsets)");
    if (!s) s = domino_gpu_context_get(h, &gpu);
    if (!s && !(T = (struct domino_dist_stencil_s *)domino_calloc(1, sizeof(*T))))
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of host memory");
    if (!s) {
        T->magic = DIST_STENCIL_MAGIC;
        T->D = D;
        T->pe = domino_dist_rank(D);
        T->type = S->type;
        s = dist_slabs_make(h, WHAT, S, fill, npes, &T->P);
    }
    if (!s) s = setup_local(h, T, S, fill);
    if ((s = domino_dist_agree(h, D, s))) goto failed;
    s = setup_shared(h, T, fill);
    if ((s = domino_dist_agree(h, D, s))) goto failed;
    *out = T;
    return DOMINO_SUCCESS;
failed:
    destroy(T);
    return s;
}

/* Wait for the stream like cudaStreamSynchronize (polling, so the time
 * stays exact), but give up `limit` seconds after t0 (*timed_out = 1). */
static cudaError_t wait_solve(cudaStream_t stream, double t0, double limit, int *timed_out)
{
    *timed_out = 0;
    for (;;) {
        cudaError_t e = cudaStreamQuery(stream);
        if (e != cudaErrorNotReady) return e;
        if (domino_wtime() - t0 > limit) {
            *timed_out = 1;
            return cudaSuccess;
        }
    }
}

/* Zeros over this PE's ghost lines, plane by plane, on T's own stream
 * (the solve's kernel is still running): every wait on another PE's values
 * then ends; the solve's answer is void, its next reset makes them pending
 * again. */
static cudaError_t end_ghost_waits(struct domino_dist_stencil_s *T)
{
    const dist_slabs *P = &T->P;
    size_t vsize = domino_type_size(T->type), line = (size_t)P->nx * vsize;
    int32_t nyl = P->nyl[T->pe], below = P->below[T->pe], above = P->above[T->pe];
    cudaError_t e = cudaSuccess;
    for (int32_t z = 0; z < P->nz && !e; z++) {
        char *plane = (char *)T->x + (size_t)z * nyl * line;
        if (below > 0)
            e = cudaMemcpyAsync(plane, T->zeros, below * line, cudaMemcpyHostToDevice, T->abort_stream);
        if (!e && above > 0)
            e = cudaMemcpyAsync(plane + (size_t)(nyl - above) * line, T->zeros, above * line,
                                cudaMemcpyHostToDevice, T->abort_stream);
    }
    return e;
}

/* the solve's status on this PE: a zero pivot named by its row of the
 * whole grid */
static domino_status solve_status(domino_handle h, struct domino_dist_stencil_s *T, cudaStream_t stream)
{
    const char *fn = "domino_dist_stencil_solve";
    domino_solve_status st;
    cudaError_t e = cudaMemcpyAsync(&st, T->S->st, sizeof(st), cudaMemcpyDeviceToHost, stream);
    if (!e) e = cudaStreamSynchronize(stream);
    if (e) return domino_cuda_status(h, e, fn);
    if (st.zero_pivot == INT32_MAX) return DOMINO_SUCCESS;
    const dist_slabs *P = &T->P;
    int64_t row = st.zero_pivot, nyl = P->nyl[T->pe];
    int32_t x = (int32_t)(row % P->nx), y = (int32_t)((row / P->nx) % nyl + P->origin[T->pe]);
    int32_t z = (int32_t)(row / ((int64_t)P->nx * nyl));
    return domino_error(h, DOMINO_ZERO_PIVOT, "%s: PE %d: zero pivot in row %lld (x,y,z = %d,%d,%d)", fn,
                        T->pe, (long long)x + (long long)P->nx * (y + (long long)P->ny * z), x, y, z);
}

domino_status domino_dist_stencil_solve(domino_handle h, domino_dist_stencil T, domino_diag diag,
                                        const void *b, void *x, double *seconds)
{
    const char *fn = "domino_dist_stencil_solve";
    struct domino_gpu_context *gpu = NULL;
    if (!T || T->magic != DIST_STENCIL_MAGIC)
        return domino_error(h, DOMINO_NULL_POINTER, "%s: T is NULL or freed", fn);
    domino_dist D = T->D;
    const dist_slabs *P = &T->P;
    const int variant = DOMINO_STENCIL_DOMINO;
    size_t vsize = domino_type_size(T->type), n = (size_t)P->nx * P->ny * P->nz;
    cudaError_t e = cudaSuccess;
    domino_status s = DOMINO_SUCCESS;
    if (T->broken)
        s = domino_error(h, DOMINO_INVALID_OBJECT,
                         "%s: PE %d: an earlier solve's kernel did not end; T can only be freed", fn, T->pe);
    else if (n > 0 && (!b || !x))
        s = domino_error(h, DOMINO_NULL_POINTER, "%s: PE %d: %s is NULL", fn, T->pe, !b ? "b" : "x");
    else if (diag != DOMINO_UNIT && diag != DOMINO_NON_UNIT)
        s = domino_error(h, DOMINO_INVALID_VALUE, "%s: bad diag %d", fn, (int)diag);
    if (!s) s = domino_gpu_context_get(h, &gpu);
    stencil_kernel_args A = T->A;
    A.unit = diag == DOMINO_UNIT;
    if (!s && n > 0) {
        /* this PE's lines of b, plane by plane (its ghost lines' too: never
         * read): a plane's local lines are consecutive in b */
        size_t plane = (size_t)P->nx * P->ny, lplane = (size_t)P->nx * P->nyl[T->pe];
        for (int32_t z = 0; z < P->nz && !e; z++)
            e = cudaMemcpyAsync((char *)T->b + (size_t)z * lplane * vsize,
                                (const char *)b + ((size_t)z * plane + (size_t)P->origin[T->pe] * P->nx) * vsize,
                                lplane * vsize, cudaMemcpyHostToDevice, gpu->stream);
        if (!e) e = domino_launch_stencil_reset(gpu->stream, T->type, &A, variant, T->x);
        if (!e) e = cudaStreamSynchronize(gpu->stream);
        if (e) s = domino_cuda_status(h, e, fn);
    }
    if ((s = domino_dist_agree(h, D, s))) return s; /* nobody starts unless all are reset */
    double t0 = domino_wtime();
    int timed_out = 0;
    e = domino_launch_stencil_solve(gpu->stream, T->type, &A, variant, T->blocks, T->b, T->x);
    if (!e) e = wait_solve(gpu->stream, t0, dist_timeout_seconds(), &timed_out);
    double mine = domino_wtime() - t0, worst = 0;
    if (timed_out) {
        /* end the waits, and the kernel with them; past the grace, T is broken */
        int still = 0;
        e = end_ghost_waits(T);
        if (!e) e = wait_solve(gpu->stream, domino_wtime(), ABORT_GRACE_S, &still);
        else still = 1; /* no zeros: the kernel may spin on */
        if (!still) { /* the zeros land before the next reset, within the same grace */
            int late = 0;
            e = wait_solve(T->abort_stream, domino_wtime(), ABORT_GRACE_S, &late);
            still = late || e != cudaSuccess;
        }
        T->broken = still;
        s = domino_error(h, DOMINO_TIMEOUT,
                         "%s: PE %d: the solve did not end within %.0f s (a neighbour PE's kernel "
                         "never delivered its ghost lines)%s%s%s",
                         fn, T->pe, mine, still ? "; the kernel did not stop, T can only be freed" : "",
                         e ? "; ending it: " : "", e ? cudaGetErrorString(e) : "");
    } else
        s = e ? domino_cuda_status(h, e, fn) : solve_status(h, T, gpu->stream);
    if ((s = domino_dist_agree(h, D, s))) return s; /* every kernel has ended */
    s = domino_dist_max(h, D, mine, &worst);
    if ((s = domino_dist_agree(h, D, s))) return s;
    if (n > 0) {
        e = domino_launch_stencil_slab_gather(gpu->stream, T->type, P, T->peer, T->full);
        if (!e) e = cudaMemcpyAsync(x, T->full, n * vsize, cudaMemcpyDeviceToHost, gpu->stream);
        if (!e) e = cudaStreamSynchronize(gpu->stream);
        if (e) s = domino_cuda_status(h, e, fn);
    }
    /* nobody resets its x before the others have read it */
    if ((s = domino_dist_agree(h, D, s))) return s;
    if (seconds) *seconds = worst;
    return DOMINO_SUCCESS;
}
