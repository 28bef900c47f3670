/* dist_trsv_internal.h: the multi-GPU triangular solve shared by its
 * unified-memory driver (libdomino) and its NVSHMEM drivers (domino_nvshmem):
 * one kernel, fed with where each PE reads and writes its counts and sums */
#ifndef DOMINO_DIST_TRSV_INTERNAL_H
#define DOMINO_DIST_TRSV_INTERNAL_H

#include "dist/dist_share.h"
#include "gpu_internal.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DIST_MAX_GPUS 32        /* PEs (NVSHMEM) or GPUs (unified memory): one lane each */
#define DIST_WARPS_PER_BLOCK 4  /* 128 threads */
#define DIST_PULL_COPY_MODE_DEFAULT 3u /* dist_trsv_args.pull_copy_mode */
#define DIST_PULL_BLOCKS_PER_SM 12 /* the pull solver's persistent grid: 48 warps an SM, of 64 */
#define DIST_PULL_BLOCKS_PER_SM_THREAD 6 /* the same with a thread per row (1 lane): 24 warps */
#define DIST_PULL_BLOCKS_PER_SM_PAIR 8 /* the same with 2 lanes a row: 32 warps */
#define DIST_TIMEOUT_S 60.0     /* a wait on one row that sees no progress for this long gives up
                                   (DOMINO_DIST_TIMEOUT_S) */
#define DIST_TRSV_MAGIC 0x646f6d696e6f5431ULL /* "dominoT1" */

/* What one GPU's kernel reads and writes.  Component k (solve order) of this
 * GPU is row comp[k]; it waits until the count at each source s reaches
 * need[s][k] (src_in[s][row], acquire) and takes the matching sum
 * (src_sum[s][row]); then it adds val * x to dst_sum[q][r] and, after a
 * fence, 1 to dst_in[q][r] for every entry (r, row) of its column, q the
 * PE of row r. */
typedef struct dist_trsv_args {
    int32_t nloc;            /* components of this GPU */
    const int32_t *comp;     /* their rows, solve order */
    const int64_t *ptr;      /* column offsets, nloc + 1 */
    const int32_t *row;      /* rows of the strict entries */
    const double *val;       /* their values */
    const double *pivot;     /* diagonal (1 for unit) */
    const double *b;         /* right-hand side of the components */
    double *x;               /* their solution */
    int nsrc;                /* count sources, <= 32 */
    const int32_t *need;     /* nsrc x nloc */
    int *const *src_in;      /* nsrc count arrays (size n, indexed by row) */
    double *const *src_sum;  /* nsrc sum arrays */
    int me;                  /* this GPU's PE */
    int *const *dst_in;      /* npes count arrays: where a contribution to PE q's row goes */
    double *const *dst_sum;  /* npes sum arrays */
    double *const *peer_x;   /* PULL: every PE's solution array (size n, global index) as this GPU
                                addresses it; entry me is this GPU's own */
    const int *task_pe;      /* PE of each task */
    int32_t task_size;       /* components per task */
    unsigned src_local;      /* bit s: source s is this GPU's own memory (polled at GPU scope) */
    unsigned dst_local;      /* bit q: destination q is this GPU's own memory (GPU-scope atomics) */
    unsigned *ticket;        /* next component to take (0 at start) */
    int *error;              /* [0] 1 once a wait timed out, [1] its row, [2] its source */
    unsigned long long timeout_ns; /* a wait gives up after this */
    int lanes;               /* PULL: lanes per row, 32, 16, 8, 4, 2 or 1 (the kernel's instance) */
    const uint32_t *readers; /* PULL with copies: bit q of component k: PE q reads x of comp[k],
                                which this GPU also stores into peer_x[q]; every x_j is then
                                read from peer_x[me].  NULL: read from its owner's array */
    unsigned backoff_ns;     /* sleep between two polls of this GPU's own memory (tuning
                                experiments: DOMINO_DIST_BACKOFF_NS; 0, the default: none) */
    unsigned far_backoff_ns; /* polls of another GPU's memory sleep 64 ns, doubled after each
                                up to this (tuning experiments: DOMINO_DIST_FAR_BACKOFF_NS;
                                64, the default: always 64) */
    int npes;                /* PEs of the solve (entries of peer_x) */
    unsigned pull_copy_mode; /* PULL with copies (tuning experiments: DOMINO_DIST_PULL_COPY_MODE,
                                default DIST_PULL_COPY_MODE_DEFAULT): bit 0, lane q % lanes of
                                the group stores the copy of PE q (the stores of a warp's groups
                                to one PE go out together), else the u-th reader's; bit 1, every
                                x_j loaded at system scope, without looking up its owner */
    int push_chunk;          /* CSC kernel: a column's sums, fence and counts in rounds of this
                                many entries, doubled each round (tuning experiments:
                                DOMINO_DIST_PUSH_CHUNK; 0: the column in one round, as the
                                paper; default DOMINO_PUSH_CHUNK_DEFAULT) */
} dist_trsv_args;

/* one GPU's part of a solve: its share on the device */
typedef struct dist_trsv_gpu {
    int device;              /* CUDA device, -1 until the share is uploaded */
    cudaStream_t stream;     /* its work (owned unless borrowed) */
    int own_stream;          /* 1: stream made here */
    int32_t nloc;            /* components */
    int32_t *comp_h;         /* host copy of comp, to place the solution */
    dist_trsv_args a;        /* kernel arguments (device pointers) */
    void *pointers;          /* device block of src_in, src_sum, dst_in, dst_sum */
    int *task_pe;            /* device copy of the plan's task_pe */
    int *l_in;               /* unified memory: device-local counts (size n) */
    double *l_sum;           /* unified memory: device-local sums (size n) */
    int blocks;              /* persistent grid */
} dist_trsv_gpu;

/* a multi-GPU solve ready to run */
struct domino_dist_trsv_s {
    uint64_t magic;          /* DIST_TRSV_MAGIC while alive */
    int solver;              /* domino_dist_solver */
    int npes;                /* PEs of the plan */
    int ngpu;                /* GPUs driven by this process: npes (unified) or 1 */
    int pe;                  /* this process's PE (0 for unified memory) */
    int32_t n;               /* order */
    int32_t task_size;       /* of the plan */
    int *task_pe_h;          /* host copy of the plan's task_pe */
    int32_t ntasks;          /* tasks */
    dist_trsv_gpu g[DIST_MAX_GPUS]; /* the GPUs */
    int *m_in;               /* unified memory: managed counts for contributions crossing GPUs */
    double *m_sum;           /* unified memory: managed sums */
    void *dist;              /* NVSHMEM: the run (domino_dist) */
    int *s_in;               /* NVSHMEM: symmetric counts, size n */
    double *s_sum;           /* NVSHMEM: symmetric sums, size n */
    double *s_x;             /* NVSHMEM: symmetric solution, size n, to gather x */
    int *s_status;           /* NVSHMEM: symmetric words for agreeing on errors and times */
    double *s_time;          /* NVSHMEM: symmetric time, max over PEs */
    double **peer_x;         /* NVSHMEM: device array of every PE's s_x as this GPU addresses it */
    domino_status (*solve)(domino_handle h, struct domino_dist_trsv_s *T, const double *b,
                           double *x, double *seconds); /* the driver's solve */
    void (*destroy)(struct domino_dist_trsv_s *T);     /* the driver's clean-up */
};

/* DOMINO_DIST_TIMEOUT_S when set (> 0, at most 1e9), else DIST_TIMEOUT_S:
 * how long a wait that can only end through another GPU may last (the
 * kernels' waits here, the slab solve's watch of its kernel) */
double dist_timeout_seconds(void);

/* the kernel and its launch shape on the current device (blocks for a
 * persistent grid of nloc components) */
const void *dist_trsv_kernel_fn(void);
/* The PULL kernel with `lanes` lanes per component (32, 16, 8, 4, 2 or 1;
 * any other value gives 32): they read the x_j of its row (ptr, row = column
 * indices, val) from their owners' peer_x (with readers: from peer_x[me],
 * where the owners store copies), each polled until it no longer holds the
 * pending sentinel, and publish x_i in peer_x[me][i] and, with readers, in
 * the arrays of the PEs that read it (the value is its own ready flag).
 * Same grid as above. */
const void *dist_trsv_pull_kernel_fn(int lanes);
/* x[0..n) := the pending sentinel (stream-ordered) */
cudaError_t dist_trsv_fill_pending(double *x, int32_t n, cudaStream_t stream);
int dist_trsv_blocks(int32_t nloc, int device, int pull_lanes); /* 0: the CSC kernel */
/* x_full[comp[k]] = x[k], k < nloc (stream-ordered) */
cudaError_t dist_trsv_scatter(const int32_t *comp, const double *x, int32_t nloc, double *x_full,
                              cudaStream_t stream);
/* x_full[i] = peer_x[q][i] for every row i whose PE q (task_pe[i / task_size]) is not me */
cudaError_t dist_trsv_gather(double *x_full, double *const *peer_x, const int *task_pe, int32_t task_size,
                             int32_t n, int me, cudaStream_t stream);

/* Upload share S of plan to the current device into g (kernel arguments
 * except the source and destination arrays, which the driver fills with
 * dist_trsv_gpu_set_pointers; the tasks' PEs and PULL's lanes per row
 * from the plan). */
domino_status dist_trsv_gpu_upload(domino_handle h, const char *what, const dist_share *S,
                                   const domino_dist_plan *plan, dist_trsv_gpu *g);
/* src_local / dst_local: bit masks of the sources and destinations that are
 * this GPU's own memory */
domino_status dist_trsv_gpu_set_pointers(domino_handle h, const char *what, dist_trsv_gpu *g,
                                         int *const *src_in, double *const *src_sum, int nsrc,
                                         unsigned src_local, int *const *dst_in, double *const *dst_sum,
                                         int npes, unsigned dst_local);
/* zero the ticket and error word and copy b's components (host, full) in */
domino_status dist_trsv_gpu_prepare(domino_handle h, const char *what, dist_trsv_gpu *g, const double *b);
/* after a solve: DOMINO_TIMEOUT naming the PE, row and source when a wait gave up */
domino_status dist_trsv_gpu_check(domino_handle h, const char *what, dist_trsv_gpu *g, int pe);
void dist_trsv_gpu_free(dist_trsv_gpu *g);
/* a new T with the plan's task map; NULL when out of memory */
struct domino_dist_trsv_s *dist_trsv_new(const domino_dist_plan *plan, int solver, int pe, int ngpu);
void dist_trsv_delete(struct domino_dist_trsv_s *T);

#ifdef __cplusplus
}
#endif
#endif
