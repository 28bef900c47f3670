/* gpu_internal.h: what the CUDA layer of libdomino shares between its host
 * code (C11) and its kernels (CUDA, C style).  Not part of the public API. */
#ifndef DOMINO_GPU_INTERNAL_H
#define DOMINO_GPU_INTERNAL_H

#include "internal.h"

#include <cuda_runtime.h>
#include <cusparse.h>

#ifdef __cplusplus
extern "C" {
#endif

/* CSC push kernels (single-GPU csc engine, multi-GPU unified/zero-copy/push):
 * a column's sums, fence and counts go in rounds of this many entries, doubled
 * each round, so the first dependants of a hub's long column go on before its
 * warp is through it.  32 against one round on 4xH200, R-MAT 22: csc 111.4 ->
 * 33.3 ms, um on 4 PEs 171.9 -> 49.1 ms (bench/results/h200x4-chunk) */
#define DOMINO_PUSH_CHUNK_DEFAULT 32

/* device state of a handle, made at its first GPU call */
struct domino_gpu_context {
    int device;                 /* CUDA device ordinal */
    cudaStream_t stream;        /* all work of the handle goes here */
    cusparseHandle_t cusparse;  /* bound to stream */
    cudaEvent_t timer_begin;    /* domino_gpu_timer_begin */
    cudaEvent_t timer_end;      /* domino_gpu_timer_end */
    int num_sms;                /* multiprocessors of the device */
    double copy_gbs;            /* measured device-to-device copy bandwidth, 0 = not yet */
    char name[256];             /* device name */
    void *staging;              /* pinned host buffer for small downloads (domino_gpu_staging), NULL none */
    size_t staging_bytes;       /* its size */
    struct domino_defer_pool *defer; /* AUTO's deferred choice's copy room (domino_defer_pool_take), NULL none */
};

/* What AUTO's choice made beside the first solves (trsv_plan_deferred.c)
 * downloads its pattern with: a stream of its own beside the handle's and
 * a pinned buffer, one job at a time.  Shared by the handle and the job
 * under way (refs), so either may go first. */
struct domino_defer_pool {
    int refs;                   /* the handle's and a job's */
    int busy;                   /* 1: a job holds the buffer */
    cudaStream_t side;          /* the downloads and the choice's host function run here */
    void *buf;                  /* pinned host buffer */
    size_t bytes;               /* its size */
};
/* the pool with its buffer of at least `bytes` for a new job (refs + 1), or
 * NULL (a job holds it already, or the stream or buffer could not be had);
 * a job's pool given back (its side stream synchronized) */
struct domino_defer_pool *domino_defer_pool_take(struct domino_gpu_context *gpu, size_t bytes);
void domino_defer_pool_give(struct domino_defer_pool *pool);

/* a sparse matrix on the device */
struct domino_dmatrix_s {
    uint64_t magic;        /* DOMINO_DMATRIX_MAGIC while alive */
    domino_format format;  /* CSR or CSC */
    domino_type type;      /* value type */
    int32_t nrows, ncols;  /* dimensions */
    int64_t nnz;           /* entries */
    int64_t *ptr;          /* device offsets, size nptr+1 */
    int32_t *ind;          /* device indices, size nnz */
    void *val;             /* device values, size nnz */
    int64_t values_version;/* bumped by update_values; plans refresh derived data */
    int sorted;            /* 1: indices never decrease inside a row (or column) */
    int borrowed;          /* 1: struct and arrays belong to another object (a factor
                              plan's factor): domino_dmatrix_free leaves it alone */
};
#define DOMINO_DMATRIX_MAGIC 0x646f6d696e6f4431ULL

/* small device record of one solve: ticket counters and error reports */
typedef struct domino_solve_status {
    int32_t ticket;        /* next logical block to take */
    int32_t ticket2;       /* a second counter for multi-phase kernels */
    int32_t timeout_row;   /* smallest row whose wait timed out, INT32_MAX if none */
    int32_t missing_diag;  /* smallest row with no diagonal entry, INT32_MAX if none */
    int32_t zero_pivot;    /* smallest row with a zero diagonal value, INT32_MAX if none */
    int32_t levels;        /* levels the block engine's analysis found (trsv_block.cu) */
    int32_t outside_rows;  /* rows with entries outside the checked triangle (diag check) */
    int32_t long_rows;     /* the most long rows among 32 consecutive logical rows
                              (domino_launch_long_rows) */
    int32_t irregular_row; /* smallest row whose CSR entries are not exactly its stencil
                              neighbours in order (the tiled structured solve of a CSR
                              triangle, or the queue kernel's FORM_CSR: solved again by the
                              queue kernel's walking instance), INT32_MAX if none */
} domino_solve_status;

#ifdef __CUDACC__
/* a solve status as domino_launch_status_reset leaves it (by one thread) */
__device__ __forceinline__ void solve_status_reset(domino_solve_status *st)
{
    st->ticket = 0;
    st->ticket2 = 0;
    st->timeout_row = INT32_MAX;
    st->missing_diag = INT32_MAX;
    st->zero_pivot = INT32_MAX;
    st->levels = 0;
    st->outside_rows = 0;
    st->long_rows = 0;
    st->irregular_row = INT32_MAX;
}
#endif

/* *hst = the device status st, after everything queued on the handle's
 * stream before it (a pinned copy when the staging buffer can be had) */
struct domino_gpu_context;
cudaError_t domino_solve_status_read(struct domino_gpu_context *gpu, const domino_solve_status *st,
                                     domino_solve_status *hst);
/* get (creating on first use) the GPU context of h */
domino_status domino_gpu_context_get(domino_handle h, struct domino_gpu_context **gpu);
/* the context's pinned host buffer, grown to at least bytes (kept until
 * the handle is freed): NULL when pinned memory cannot be had (the caller
 * then uses pageable memory) */
void *domino_gpu_staging(struct domino_gpu_context *gpu, size_t bytes);
/* translate a CUDA error into a status with a message */
domino_status domino_cuda_status(domino_handle h, cudaError_t e, const char *what);
/* *dst = a new device array of bytes (at least 1), a copy of host src, or
 * zeroed when src is NULL; done when it returns */
cudaError_t domino_device_copy_new(void **dst, const void *src, size_t bytes);
domino_status domino_cusparse_status(domino_handle h, cusparseStatus_t e, const char *what);
/* a plan's device workspace from the process's pool of the current device,
 * in stream order on `stream` (plain cudaMalloc where no pool can be had);
 * given back after a device synchronization (gpu_cache.c) */
cudaError_t domino_pool_malloc(void **ptr, size_t bytes, cudaStream_t stream);
void domino_pool_free(void *ptr);
/* cudaMalloc (at least 1 byte) that, out of device memory, gives the
 * pool's reserve back and tries once more */
cudaError_t domino_cuda_malloc(void **ptr, size_t bytes);
/* a CUDA event (timing enabled) from the process's kept ones, else new;
 * given back to be kept (destroyed when the list is full) */
cudaError_t domino_event_take(cudaEvent_t *ev);
void domino_event_give(cudaEvent_t ev);

/* ---- kernel launchers (the .cu files of src/cuda), asynchronous on stream ---- */

/* Thread-per-row structure check of the rows of CSR (ptr, ind, val): reports
 * in *st the smallest row without diagonal and with a zero diagonal value,
 * and counts the rows holding entries outside the `upper` (else lower)
 * triangle; sorted = 1 promises sorted rows (read from the triangle's end);
 * longer >= 0 also sets st->long_rows as domino_launch_long_rows. */
/* st->long_rows = the most rows of more than `longer` entries among 32
 * consecutive logical rows (a warp's rows in the pull engines' stored-order
 * modes; upper triangles run their rows backwards); st as reset */
cudaError_t domino_launch_long_rows(cudaStream_t stream, int32_t n, const int64_t *ptr, int upper,
                                    int32_t longer, domino_solve_status *st);
cudaError_t domino_launch_diag_check(cudaStream_t stream, domino_type type, int32_t n,
                                     const int64_t *ptr, const int32_t *ind, const void *val,
                                     int upper, int sorted, int32_t longer, domino_solve_status *st);
/* X = D^-1 B (X = B when unit) for a diagonal system: every row of CSR
 * (ptr, val) holds exactly its diagonal entry, at val[ptr[i]]; a grid of
 * 8 blocks of 256 threads for each of num_sms multiprocessors at most */
cudaError_t domino_launch_trsv_diagonal(cudaStream_t stream, int num_sms, domino_type type, int32_t n,
                                        int32_t nrhs, const int64_t *ptr, const void *val, int unit,
                                        const void *B, int64_t ldb, void *X, int64_t ldx);
/* reset a solve status: tickets 0, errors INT32_MAX */
cudaError_t domino_launch_status_reset(cudaStream_t stream, domino_solve_status *st);

/* thresholds of the thread engine's paths (trsv_pull.cu), measured on an
 * H100; each has an environment variable for experiments (trsv_plan.c) */
typedef struct domino_pull_tuning {
    int long_row;          /* rows of more entries are solved by the whole warp (DOMINO_LONG_ROW) */
    int sweep_max_row;     /* a warp sweeps (affine scan) when its rows hold at most this many
                              entries (DOMINO_SWEEP_MAX_ROW) ... */
    int sweep_min_chained; /* ... and at least this many of lanes 1-31 read the row before theirs
                              (DOMINO_SWEEP_MIN_CHAINED) */
    int overlap_fill;      /* launch the solve with programmatic dependent launch, overlapping
                              the sentinel fill (DOMINO_OVERLAP_FILL, 0 or 1) */
    int short_near_first;  /* rows of at most DOMINO_PULL_WALK_SHORT entries hold the diagonal,
                              then the nearest dependency first (else last); longer rows always
                              last (trsv_plan.c, prepare_triangle) */
    int any_order;         /* thread per row: rows of at most 32 entries summed in the order their
                              x arrive (never in deterministic mode; DOMINO_ANY_ORDER, 0 or 1) */
    int long_prefetch;     /* a warp taking a long row first brings its first columns and values
                              into L1 (pull_long_row_start; DOMINO_LONG_PREFETCH, 0 or 1) */
} domino_pull_tuning;

/* The flag buffers of the one-launch pull solve (one right-hand side):
 * the solve publishes each x into flags (filled with the pending sentinel
 * before it) and stores it into X, and fills next_flags and resets next_st
 * for the solve after it, so no sentinel-fill launch precedes it.  A plan
 * owns two of each and swaps them after every solve. */
typedef struct domino_pull_flags {
    void *flags;                  /* n values, all pending */
    void *next_flags;             /* n values, made pending by this solve */
    domino_solve_status *next_st; /* reset by this solve */
} domino_pull_flags;

/* synchronization-free pull solve (the "domino" engines) of op N with the
 * fill triangle of CSR (ptr, ind, val); mode 0 warp sweep (sorted rows only),
 * 1 warp per row, 2 thread per row, 3 thread per row in the given order of
 * rows; tune: the measured thresholds of its paths (trsv_pull.cu); trace
 * (diagnostics, domino_trsv_trace; NULL: off, a kernel without it): 2 n
 * values, the GPU clock (ns) when each row's x was published, by row, then
 * when its warp took it (thread-per-row warps; 0 elsewhere).  flags (NULL:
 * X is filled with the sentinel first, in a launch of its own) makes it one
 * launch when nrhs is 1 and trace NULL; st is then the status that flags
 * belong to (reset by the solve before). */
cudaError_t domino_launch_trsv_pull(cudaStream_t stream, domino_type type, int32_t n,
                                    const int64_t *ptr, const int32_t *ind, const void *val,
                                    int upper, int unit, int mode, int32_t nrhs,
                                    const void *B, int64_t ldb, void *X, int64_t ldx,
                                    int64_t max_wait_ns, unsigned backoff_ns,
                                    domino_solve_status *st, const int32_t *order,
                                    domino_pull_tuning tune, uint64_t *trace,
                                    const domino_pull_flags *flags);

/* the thread engine's packed walk (trsv_packed.cu) of op N with the fill
 * triangle of CSR (ptr, ind, val), one right-hand side: warp w solves the
 * logical rows warp_first[w] .. warp_first[w + 1] - 1 (domino_pack_rows);
 * flags as in domino_launch_trsv_pull */
cudaError_t domino_launch_trsv_packed(cudaStream_t stream, domino_type type, int32_t n, int32_t warps,
                                      const int32_t *warp_first, const int64_t *ptr, const int32_t *ind,
                                      const void *val, int upper, int unit, const void *B, void *X,
                                      int64_t max_wait_ns, unsigned backoff_ns, domino_solve_status *st,
                                      const domino_pull_flags *flags);

/* the packing of the packed walk on the GPU (domino_pack_rows on the CPU):
 * warp_first (n + 1 values) and *warps, or *warps = -1 when nothing is
 * packed (a row of more than DOMINO_PACK_MAX_ROW entries, n < 2, or
 * scan_tmp too small); work: n + 1 values of scratch; synchronizes stream */
cudaError_t domino_launch_pack_rows(cudaStream_t stream, int32_t n, const int64_t *ptr, int upper,
                                    int64_t *work, void *scan_tmp, size_t scan_tmp_bytes,
                                    int32_t *warp_first, int32_t *warps);

/* fill the nrhs columns of X (n rows, leading dimension ldx) with the
 * pending sentinel and reset *st, in one launch (trsv_pull.cu) */
cudaError_t domino_launch_fill_pending(cudaStream_t stream, domino_type type, int32_t n,
                                       int32_t nrhs, void *X, int64_t ldx, domino_solve_status *st);

/* the same, rows taken in the given (topological) order, `lanes` (4, 8,
 * 16 or 32) lanes per row, as many blocks as run at once (trsv_pull.cu) */
cudaError_t domino_launch_trsv_pull_groups(cudaStream_t stream, domino_type type, int32_t n,
                                           const int64_t *ptr, const int32_t *ind, const void *val,
                                           int upper, int unit, int lanes, int32_t nrhs,
                                           const void *B, int64_t ldb, void *X, int64_t ldx,
                                           int64_t max_wait_ns, unsigned backoff_ns,
                                           domino_solve_status *st, const int32_t *order);

/* the block engine (trsv_block.cu): the whole solve in one block of
 * `threads` (128, 256, 512 or 1024) threads, `lanes` (2, 4, 8, 16 or 32)
 * lanes per row, x in shared memory when `shared` (n values must fit:
 * domino_trsv_block_fits), else in X */
cudaError_t domino_launch_trsv_block(cudaStream_t stream, domino_type type, int32_t n,
                                     const int64_t *ptr, const int32_t *ind, const void *val,
                                     int upper, int unit, int lanes, int threads, int shared, int32_t nrhs,
                                     const void *B, int64_t ldb, void *X, int64_t ldx,
                                     int64_t max_wait_ns, unsigned backoff_ns,
                                     domino_solve_status *st);
/* the shared memory one block may have on the current device (its opt-in
 * limit, asked once per device) */
cudaError_t domino_block_shared_limit(size_t *bytes);
/* raise kernel fn's dynamic shared memory limit to the current device's
 * opt-in limit when `bytes` passes 48 KiB, once per device: raised holds
 * the caller's flag for fn on each of DOMINO_RAISED_DEVICES devices (a
 * static array; NULL: every time); cudaErrorInvalidValue when bytes
 * passes the opt-in limit */
#define DOMINO_RAISED_DEVICES 64
cudaError_t domino_block_raise_shared(const void *fn, size_t bytes, char *raised);
/* *fits = n values of type fit in one block's shared memory on this device */
cudaError_t domino_trsv_block_fits(domino_type type, int32_t n, int *fits);
/* lanes per row of the block engine for rows of avg_row_len entries on average */
int domino_trsv_block_lanes(double avg_row_len);
/* threads of the block engine's block for levels of `parallelism` rows on average */
int domino_trsv_block_threads(int lanes, double parallelism);
/* the levels of the triangle by one block (n floats must fit in shared
 * memory), written to st->levels, which must be 0 beforehand */
cudaError_t domino_launch_trsv_block_levels(cudaStream_t stream, int32_t n, const int64_t *ptr,
                                            const int32_t *ind, int upper, int lanes, int threads,
                                            domino_solve_status *st);

/* the step-block engine (trsv_stepblock.cu): S X = B from CSR(S) (ptr,
 * ind, val; entries outside S's triangle skipped) by one block: 256
 * solving threads and `groups` (1-3) groups of 256 loading threads */
cudaError_t domino_launch_trsv_stepblock(cudaStream_t stream, domino_type type, int32_t n,
                                         const int64_t *ptr, const int32_t *ind, const void *val,
                                         int upper, int unit, int groups, int32_t nrhs,
                                         const void *B, int64_t ldb, void *X, int64_t ldx);
/* *fits = the engine's shared memory fits one block on this device and n
 * rows its 32-bit logical indices; when it does, the kernel is loaded and
 * its shared-memory limit raised (so a first solve times the solve) */
cudaError_t domino_stepblock_fits(domino_type type, int32_t n, int *fits);
/* its one-warp kernel (trsv_stepwarp.cu, the engine's default;
 * DOMINO_STEPBLOCK_WARP=0 takes the 256-thread one): a solving warp and
 * `loaders` (1-15, else 15) loading warps */
cudaError_t domino_launch_trsv_stepwarp(cudaStream_t stream, domino_type type, int32_t n,
                                        const int64_t *ptr, const int32_t *ind, const void *val,
                                        int upper, int unit, int loaders, int32_t nrhs,
                                        const void *B, int64_t ldb, void *X, int64_t ldx,
                                        int profile);
cudaError_t domino_stepwarp_fits(domino_type type, int32_t n, int *fits);
/* profile != 0 above: where the cycles went, on stderr (synchronizes) */
cudaError_t domino_stepwarp_profile_report(cudaStream_t stream);

/* the level-block engine (trsv_levelblock.cu): the device copy of a level
 * order (trsv_level_order.h) and how to run it */
typedef struct domino_levelblock_args {
    int32_t n;                    /* rows */
    int32_t nlevels;              /* levels */
    const int32_t *level_ptr;     /* positions of each level, nlevels+1 */
    const int32_t *level_entries; /* entries of each level, nlevels+1 */
    const int32_t *row;           /* row at each position, n */
    const int32_t *ptr;           /* entries of each position, n+1 */
    const int32_t *col;           /* column of each entry */
    const void *val;              /* value of each entry (domino_launch_levelblock_values) */
    const void *diag;             /* reciprocal of the diagonal at each position (ignored when
                                     unit) */
    int unit;                     /* unit diagonal */
    int lanes;                    /* lanes per row: 1, 2, 4, 8, 16 or 32 */
    int threads;                  /* threads that solve (a multiple of 32, at most
                                     LB_THREADS - 32 loaders) */
    int loaders;                  /* loader warps, 1 to 8 (the block's last warps) */
    int shared;                   /* 1: x in shared memory (n values must fit) */
} domino_levelblock_args;
/* *fits = x (n values) and the engine's ring fit one block's shared memory */
cudaError_t domino_levelblock_fits(domino_type type, int32_t n, int *fits);
/* S X = B by the level-block engine: one block, levels in turn */
cudaError_t domino_launch_trsv_levelblock(cudaStream_t stream, domino_type type,
                                          const domino_levelblock_args *a, int32_t nrhs,
                                          const void *B, int64_t ldb, void *X, int64_t ldx);
/* the level order's values from the engine arrays (aptr, aind, eval):
 * val[k] = eval[src[k]] (m entries), diag[q] = 1 / the sum of the
 * diagonal entries of row[q] (n positions) */
cudaError_t domino_launch_levelblock_values(cudaStream_t stream, domino_type type, int64_t m,
                                            const int32_t *src, int32_t n, const int32_t *row,
                                            const int64_t *aptr, const int32_t *aind,
                                            const void *eval, void *val, void *diag);

/* stable transpose of an n x n CSR restricted to its fill triangle (strict
 * part kept and the diagonal), giving CSR of T^T: tptr (n+1), tind, tval of
 * nnz(T) entries; scratch counters of n+1 int64 in work. */
cudaError_t domino_launch_triangle_transpose(cudaStream_t stream, domino_type type, int32_t n,
                                             const int64_t *ptr, const int32_t *ind,
                                             const void *val, int upper, int64_t *tptr,
                                             int32_t *tind, void *tval, int64_t *work,
                                             void *scan_tmp, size_t scan_tmp_bytes,
                                             int64_t *nnz_out_host);
/* the fill triangle (`upper`, else lower; the diagonal kept) of an n x n
 * CSR, copied into tptr (n+1), tind, tval, each row's entries in stored
 * order, reversed in the rows of rev_lo to rev_hi entries (of the copy);
 * scratch counters of n+1 int64 in work.  *nnz_out_host (the copy's
 * entries) is valid once the stream is. */
cudaError_t domino_launch_triangle_copy(cudaStream_t stream, domino_type type, int32_t n,
                                        const int64_t *ptr, const int32_t *ind, const void *val,
                                        int upper, int64_t rev_lo, int64_t rev_hi, int64_t *tptr,
                                        int32_t *tind, void *tval, int64_t *work, void *scan_tmp,
                                        size_t scan_tmp_bytes, int64_t *nnz_out_host);
/* reverse, in place, the entries of the rows of an n-row CSR that hold
 * rev_lo to rev_hi of them */
cudaError_t domino_launch_reverse_rows(cudaStream_t stream, domino_type type, int32_t n,
                                       const int64_t *ptr, int64_t rev_lo, int64_t rev_hi,
                                       int32_t *ind, void *val);
/* the pull engines walk rows of up to this many entries one entry at a time
 * (trsv_pull.cu); the plan orders rows by it (trsv_plan.c, prepare_triangle) */
#define DOMINO_PULL_WALK_SHORT 8
/* bytes of scan scratch for n+1 int64 */
size_t domino_scan_scratch_bytes(int32_t n);

/* synchronization-free CSC push solve (Liu et al.): column j of the CSC
 * (cptr, rind, val) of the system matrix; in_degree / left_sum scratch of n. */
cudaError_t domino_launch_trsv_push(cudaStream_t stream, domino_type type, int32_t n,
                                    const int64_t *cptr, const int32_t *rind, const void *val,
                                    int upper, int unit, const void *b, void *x,
                                    int32_t *in_degree, int32_t *done_count, double *left_sum,
                                    int compute_degree, int64_t max_wait_ns, int push_chunk,
                                    domino_solve_status *st);

/* *count (device) = off-diagonal entries of the triangle of the CSR */
cudaError_t domino_launch_triangle_offdiag(cudaStream_t stream, int32_t n, const int64_t *ptr,
                                           const int32_t *ind, int upper,
                                           unsigned long long *count);
/* level sets on the GPU: level of each row (pull, sync-free), then rows
 * sorted by level; the level offsets returned to the host (caller frees)
 * unless level_ptr_host is NULL (then no histogram, no copy back).  The
 * order needs level_count's scratch of 2(n+1) int32, the offsets 2(n+1)
 * int64. */
cudaError_t domino_launch_levels(cudaStream_t stream, int32_t n, const int64_t *ptr,
                                 const int32_t *ind, int upper, int32_t *row_level,
                                 int32_t *level_rows, int64_t *level_count,
                                 void *scan_tmp, size_t scan_tmp_bytes,
                                 domino_solve_status *st, int32_t *nlevels_host,
                                 int64_t **level_ptr_host);
/* one launch per level */
cudaError_t domino_launch_trsv_levelset(cudaStream_t stream, domino_type type, int32_t n,
                                        const int64_t *ptr, const int32_t *ind,
                                        const void *val, int upper, int unit, int32_t nrhs,
                                        const void *B, int64_t ldb, void *X, int64_t ldx,
                                        const int32_t *level_rows, int32_t nlevels,
                                        const int64_t *level_ptr_host, double avg_row_len);
/* copy int64 offsets to int32 (for cuSPARSE) */
cudaError_t domino_launch_offsets_to_int32(cudaStream_t stream, int32_t n1, const int64_t *in,
                                           int32_t *out);
/* spgemm_offsets.cu: out[i] = in[i] - base (a row block's offsets for
 * cuSPARSE), and out[i] = base + in[i] (a block's offsets placed back), i < n1 */
cudaError_t domino_launch_offsets_narrow(cudaStream_t stream, int32_t n1, const int64_t *in,
                                         int64_t base, int32_t *out);
cudaError_t domino_launch_offsets_widen(cudaStream_t stream, int32_t n1, const int32_t *in,
                                        int64_t base, int64_t *out);
/* *v := a CSR device matrix over ptr (rows + 1, 64-bit), ind and val that
 * another object owns (borrowed: domino_dmatrix_free leaves it alone;
 * columns unsorted as far as anyone knows) */
void domino_dmatrix_borrow(struct domino_dmatrix_s *v, domino_type type, int32_t rows, int32_t cols, int64_t nnz,
                           int64_t *ptr, int32_t *ind, void *val);
/* spmm_algorithm.c: the cusparseSpMM algorithm of every SpMM (default, or
 * DOMINO_SPMM_ALG=1|2|3); CSR_ALG3 wants cusparseSpMM_preprocess first */
cusparseSpMMAlg_t domino_spmm_algorithm(void);
/* spmm_chunks.cu: C = A B (accumulate: C += A B) for a CSR A (32-bit
 * offsets, fewer than 2^31 entries) and row-major B and C of at most
 * DOMINO_SPMM_CHUNKS_MAX_COLS columns, a warp per chunk of A's entries;
 * work: domino_spmm_chunks_work_bytes(nnz) device bytes */
#define DOMINO_SPMM_CHUNKS_MAX_COLS 128
size_t domino_spmm_chunks_work_bytes(int64_t nnz);
cudaError_t domino_launch_spmm_chunks(cudaStream_t stream, domino_type type, int32_t rows, int64_t nnz, int32_t cols,
                                      const int32_t *ptr, const int32_t *ind, const void *val, const void *B,
                                      int64_t ldb, void *C, int64_t ldc, int accumulate, void *work);
/* spmm_algorithm.c: 1 if a local product of a distributed SpMM with cols
 * columns runs on domino_launch_spmm_chunks, 0 for cusparseSpMM: the
 * environment's DOMINO_SPMM_LOCAL=chunks|cusparse (an experiment switch of
 * the benchmarks), else chunks up to DOMINO_SPMM_CHUNKS_MAX_COLS for the
 * row-block algorithm's products (row_blocks = 1), cuSPARSE for the tiles' */
int domino_spmm_local_chunks(int64_t cols, int row_blocks);
/* dense_gpu.cu: B = a block of the pseudo-random dense matrix (domino_gen_dense's values) */
cudaError_t domino_launch_gen_dense(cudaStream_t stream, uint64_t seed, int64_t ncols, int64_t row0, int64_t rows,
                                    int64_t col0, int64_t cols, domino_type type, void *B, int64_t ldb);
/* y += A x in double for a row-major dense A (rows x cols, leading dimension lda) */
cudaError_t domino_launch_dense_apply_add(cudaStream_t stream, domino_type type, int64_t rows, int64_t cols,
                                          const void *A, int64_t lda, const double *x, double *y);
/* csr_apply.cu: y += A x in double (A: rows of a CSR with 64-bit offsets,
 * values of type t; x, y device), a row a thread */
cudaError_t domino_launch_csr_apply_add(cudaStream_t stream, domino_type type, int32_t rows, const int64_t *ptr,
                                        const int32_t *ind, const void *val, const double *x, double *y);
/* spgemm_sum.cu: *C = the sum of the np device CSR matrices parts (each
 * rows x cols of type type, 64-bit offsets; on this GPU or a peer's), a
 * new device matrix; np = 0 gives an empty one */
domino_status domino_dmatrix_sum(domino_handle h, const domino_dmatrix *parts, int np, int32_t rows, int32_t cols,
                                 domino_type type, domino_dmatrix *C);
/* device-to-device copy bandwidth test, GB/s counting read + write */
double domino_measure_copy_bandwidth(cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
