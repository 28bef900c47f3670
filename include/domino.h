/* domino.h: the one public header of libdomino, synchronization-free sparse
 * linear algebra on CPUs and GPUs.
 *
 * Conventions (the same for every call):
 *  - every call returns a domino_status: 0 success, -1..-99 misuse of the API,
 *    -100 and below failures at run time (bad input data, memory, device);
 *  - the first argument is a domino_handle, which keeps the message of the
 *    last error (domino_last_error); a NULL handle is accepted and then the
 *    message is kept per thread;
 *  - objects are opaque; their contents are read through views;
 *  - outputs come last; an output object is NULL after a failed call;
 *  - every *_free function accepts NULL.
 *
 * Matrices: CSR or CSC, values double or float, 32-bit indices, 64-bit row
 * (column) offsets so that nnz beyond 2^31 is representable.
 */
#ifndef DOMINO_H
#define DOMINO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DOMINO_VERSION_MAJOR 0
#define DOMINO_VERSION_MINOR 1

/* ---------------------------------------------------------------- status */

typedef enum domino_status {
    DOMINO_SUCCESS = 0,
    /* misuse of the API: the caller's bug */
    DOMINO_NULL_POINTER = -1,       /* a required pointer argument is NULL */
    DOMINO_INVALID_VALUE = -2,      /* an enum or size argument is out of range */
    DOMINO_DIMENSION_MISMATCH = -3, /* operands do not fit together */
    DOMINO_INVALID_OBJECT = -4,     /* object freed, corrupt, or of the wrong kind */
    /* failures at run time: the data or the machine */
    DOMINO_BAD_INPUT = -100,        /* malformed file or matrix (message says where) */
    DOMINO_ZERO_DIAGONAL = -101,    /* structurally missing diagonal (message: row) */
    DOMINO_ZERO_PIVOT = -102,       /* numerically zero pivot (message: row) */
    DOMINO_OUT_OF_MEMORY = -103,    /* host or device allocation failed */
    DOMINO_IO_ERROR = -104,         /* a file could not be opened, read or written */
    DOMINO_DEVICE_ERROR = -105,     /* CUDA, cuSPARSE, NCCL or NVSHMEM failure */
    DOMINO_NOT_SUPPORTED = -106,    /* valid request this build or machine cannot do */
    DOMINO_TIMEOUT = -107           /* a bounded wait expired (message: who waited for what) */
} domino_status;

/* name of a status, e.g. "DOMINO_BAD_INPUT" */
const char *domino_status_name(domino_status s);
/* 1 if s is a misuse of the API, 0 otherwise */
int domino_status_is_misuse(domino_status s);

/* ---------------------------------------------------------------- handle */

typedef struct domino_handle_s *domino_handle;

domino_status domino_create(domino_handle *h);
void domino_destroy(domino_handle h);
/* message of the last failed call on h (or of this thread when h is NULL);
 * "" when none.  Valid until the next call on h. */
const char *domino_last_error(domino_handle h);
/* print progress on stderr for long work (only when stderr is a terminal) */
domino_status domino_set_progress(domino_handle h, int enabled);

/* ------------------------------------------------------- allocation hooks */

/* Test hook: make the n-th allocation from now fail (n >= 1); 0 disables. */
void domino_debug_fail_alloc_after(int64_t n);
/* number of allocations made through domino since the start (tests) */
int64_t domino_debug_alloc_count(void);
/* number of allocations currently live (leak checks in tests) */
int64_t domino_debug_alloc_live(void);

/* ---------------------------------------------------------------- enums */

typedef enum domino_type { DOMINO_FLOAT64 = 0, DOMINO_FLOAT32 = 1 } domino_type;
typedef enum domino_format { DOMINO_CSR = 0, DOMINO_CSC = 1 } domino_format;
typedef enum domino_fill { DOMINO_LOWER = 0, DOMINO_UPPER = 1 } domino_fill;
typedef enum domino_diag { DOMINO_NON_UNIT = 0, DOMINO_UNIT = 1 } domino_diag;
typedef enum domino_op { DOMINO_OP_N = 0, DOMINO_OP_T = 1 } domino_op;
typedef enum domino_symmetry {
    DOMINO_GENERAL = 0,
    DOMINO_SYMMETRIC = 1,     /* only one triangle stored, mirrored */
    DOMINO_SKEW_SYMMETRIC = 2 /* only one triangle stored, mirrored with sign */
} domino_symmetry;

/* bytes of one value of type t (8 or 4) */
size_t domino_type_size(domino_type t);

/* ---------------------------------------------------------------- matrix */

typedef struct domino_matrix_s *domino_matrix;

/* What a matrix holds.  Pointers stay owned by the matrix. */
typedef struct domino_matrix_view {
    domino_format format;     /* CSR (ptr over rows) or CSC (ptr over columns) */
    domino_type type;         /* type of val */
    int32_t nrows;            /* number of rows */
    int32_t ncols;            /* number of columns */
    int64_t nnz;              /* number of stored entries */
    int64_t *ptr;             /* offsets, size (CSR: nrows, CSC: ncols) + 1 */
    int32_t *ind;             /* column (CSR) or row (CSC) indices, size nnz */
    void *val;                /* values (double or float), size nnz */
    domino_symmetry symmetry; /* how the stored entries are to be read */
    int is_pattern;           /* 1: came from a pattern file, val are all 1 */
} domino_matrix_view;

/* new matrix with allocated arrays: ptr zeroed, ind/val uninitialised */
domino_status domino_matrix_new(domino_handle h, domino_format format, domino_type type,
                                int32_t nrows, int32_t ncols, int64_t nnz, domino_matrix *A);
void domino_matrix_free(domino_matrix A);
domino_status domino_matrix_get_view(domino_handle h, domino_matrix A, domino_matrix_view *v);
/* set the symmetry and pattern flags of A */
domino_status domino_matrix_set_kind(domino_handle h, domino_matrix A, domino_symmetry symmetry,
                                     int is_pattern);

/* Build a CSR or CSC matrix from coordinate triplets (0-based); entries are
 * sorted and duplicates summed.  vals may be NULL (all ones). */
domino_status domino_matrix_from_coo(domino_handle h, domino_format format, domino_type type,
                                     int32_t nrows, int32_t ncols, int64_t nnz,
                                     const int32_t *rows, const int32_t *cols,
                                     const double *vals, domino_matrix *A);

domino_status domino_matrix_copy(domino_handle h, domino_matrix A, domino_matrix *B);
/* same matrix stored in the other format (CSR <-> CSC) */
domino_status domino_matrix_convert(domino_handle h, domino_matrix A, domino_format format,
                                    domino_matrix *B);
/* B = A^T in the same format as A */
domino_status domino_matrix_transpose(domino_handle h, domino_matrix A, domino_matrix *B);
/* same matrix with values of another type */
domino_status domino_matrix_cast(domino_handle h, domino_matrix A, domino_type type,
                                 domino_matrix *B);

/* what domino_matrix_triangle does with the diagonal */
typedef enum domino_diag_policy {
    DOMINO_DIAG_KEEP = 0,    /* keep the diagonal as stored (may be missing) */
    DOMINO_DIAG_ENSURE = 1,  /* insert missing or zero diagonal entries as 1 */
    DOMINO_DIAG_DOMINANT = 2,/* diagonal := 1 + sum |off-diagonal| of its row */
    DOMINO_DIAG_DROP = 3     /* strict triangle, no diagonal */
} domino_diag_policy;

/* B = lower or upper triangle of a square A (CSR or CSC, output in A's format) */
domino_status domino_matrix_triangle(domino_handle h, domino_matrix A, domino_fill fill,
                                     domino_diag_policy policy, domino_matrix *B);
/* L = graph Laplacian of the pattern of square CSR A plus shift I, double:
 * off-diagonals -1 (duplicates kept and summed), diagonal = number of
 * off-diagonal entries of the row + shift; SPD for a symmetric pattern and
 * shift > 0 (how pattern files get values for CG) */
domino_status domino_matrix_laplacian(domino_handle h, domino_matrix A, double shift,
                                      domino_matrix *L);
/* B = the full general matrix of A stored as symmetric / skew-symmetric */
domino_status domino_matrix_symmetric_expand(domino_handle h, domino_matrix A, domino_matrix *B);
/* sort indices inside each row (column) and sum duplicates, in place */
domino_status domino_matrix_sort(domino_handle h, domino_matrix A);

/* what domino_matrix_validate checks, besides offsets and index ranges */
enum {
    DOMINO_CHECK_SORTED = 1,        /* indices increase inside each row */
    DOMINO_CHECK_NO_DUPLICATES = 2, /* no index twice in a row */
    DOMINO_CHECK_DIAGONAL = 4,      /* every diagonal entry present and nonzero */
    DOMINO_CHECK_FINITE = 8,        /* no Inf or NaN value */
    DOMINO_CHECK_ALL = 15
};
/* Check A; on failure *bad_row (may be NULL) is the first bad row (column
 * for CSC) and the message says what is wrong. */
domino_status domino_matrix_validate(domino_handle h, domino_matrix A, int checks,
                                     int64_t *bad_row);

/* ----------------------------------------------------- Matrix Market I/O */

enum {
    DOMINO_MM_KEEP_STORED = 1 /* keep symmetric files as stored (one triangle) */
};
/* Read a Matrix Market coordinate file (.mtx or .mtx.gz) into CSR of the
 * given type.  Symmetric and skew-symmetric files are expanded unless
 * DOMINO_MM_KEEP_STORED.  Errors name the file and line. */
domino_status domino_mm_read(domino_handle h, const char *path, domino_type type, int flags,
                             domino_matrix *A);
/* the same from a buffer in memory; name is used in messages */
domino_status domino_mm_read_buffer(domino_handle h, const char *data, size_t size,
                                    const char *name, domino_type type, int flags,
                                    domino_matrix *A);
/* Write A (CSR or CSC) as a coordinate file: general, or symmetric /
 * skew-symmetric for a matrix kept as stored (DOMINO_MM_KEEP_STORED); values
 * printed with 17 significant digits so a read gives back the same doubles.
 * Pattern matrices are written as pattern; ".gz" paths are compressed. */
domino_status domino_mm_write(domino_handle h, const char *path, domino_matrix A);

/* ------------------------------------------------------------ generators */

typedef enum domino_stencil {
    DOMINO_D2N5 = 0,  /* 2D 5-point star */
    DOMINO_D2N9 = 1,  /* 2D 3x3 box */
    DOMINO_D3N7 = 2,  /* 3D 7-point star */
    DOMINO_D3N13 = 3, /* 3D star of radius 2 along each axis */
    DOMINO_D3N19 = 4, /* 3D 3x3x3 box without its 8 corners */
    DOMINO_D3N27 = 5, /* 3D 3x3x3 box */
    DOMINO_D3N33 = 6  /* 3D 27-point box plus the six radius-2 axis points */
} domino_stencil;

typedef enum domino_part {
    DOMINO_PART_FULL = 0,  /* the whole matrix */
    DOMINO_PART_LOWER = 1, /* lower triangle with the diagonal */
    DOMINO_PART_UPPER = 2  /* upper triangle with the diagonal */
} domino_part;

/* parse "d3n27", "D2N5", ... ; DOMINO_INVALID_VALUE if unknown */
domino_status domino_stencil_parse(const char *name, domino_stencil *s);
const char *domino_stencil_name(domino_stencil s);
/* number of points of a stencil (5, 9, 7, 13, 19, 27, 33) */
int domino_stencil_points(domino_stencil s);
/* the offsets of a stencil, in increasing linear order (z, then y, then x);
 * off has room for 3*33 ints: off[3k..3k+2] = dx, dy, dz of point k */
int domino_stencil_offsets(domino_stencil s, int *off);

/* Stencil matrix on an nx*ny*nz grid (nz = 1 for 2D), natural ordering with
 * x fastest: off-diagonals -1, diagonal = number of stencil points (strictly
 * diagonally dominant), CSR. */
domino_status domino_gen_stencil(domino_handle h, domino_stencil s, int32_t nx, int32_t ny,
                                 int32_t nz, domino_part part, domino_type type,
                                 domino_matrix *A);

/* R-MAT graph of 2^scale vertices and edge_factor*2^scale generated edges
 * (duplicates merged, self loops kept), values 1, CSR.  Reproducible for a
 * seed.  a+b+c+d must be 1. */
domino_status domino_gen_rmat(domino_handle h, int scale, int edge_factor, double a, double b,
                              double c, double d, uint64_t seed, domino_type type,
                              domino_matrix *A);

/* Random lower-triangular matrix of n rows with exactly `levels` levels
 * (dependency depth; 1 = diagonal only, n = a chain through every row) and
 * about nnz_per_row entries per row (diagonal included), strictly diagonally
 * dominant, CSR.  Rows of level l form one contiguous block; each row below
 * level 0 reads one row of level l-1 and others of earlier levels, chosen at
 * random within `band` rows before it when band > 0. */
domino_status domino_gen_dag(domino_handle h, int32_t n, int32_t nnz_per_row, int32_t levels,
                             int32_t band, uint64_t seed, domino_type type, domino_matrix *A);

/* A block of the pseudo-random dense matrix of ncols columns made from
 * seed, row-major: B[(r - row0) ldb + c - col0] = entry (r, c) for
 * row0 <= r < row0 + rows and col0 <= c < col0 + cols (col0 + cols <=
 * ncols, ldb >= cols), type's values, uniform in [-0.5, 0.5).  An entry is
 * a hash of seed and r ncols + c, so every block of one matrix agrees with
 * the others wherever it is made (domino_gpu_gen_dense makes the same
 * values on a GPU): the dense operands of the distributed SpMM are made
 * tile by tile by their owners, never whole on one host. */
domino_status domino_gen_dense(domino_handle h, uint64_t seed, int64_t ncols, int64_t row0, int64_t rows,
                               int64_t col0, int64_t cols, domino_type type, void *B, int64_t ldb);

/* ------------------------------------- distributed planning (plain C)
 * How the components of a triangular system (rows of x, columns of the CSC
 * of L, entries of b) are spread over npes PEs (one GPU each) for the
 * multi-GPU solvers.  Component i belongs to task i / task_size; tasks go to
 * PEs.  CONTIGUOUS: one task per PE, consecutive blocks in row order (the
 * paper's baseline).  TASKPOOL: tasks of equal size (tasks_per_pe * npes of
 * them, or by default smaller ones tied to the level width, level_tasks),
 * dealt round-robin to the PEs, weighted by the PEs' weights (free memory)
 * so a PE with twice the weight gets about twice the tasks.  LINKED: a task
 * per component, dealt level by level (dist_deal_linked.c): dependencies
 * one level apart stay on one GPU wherever the shares allow. */

typedef enum domino_dist_scheme {
    DOMINO_DIST_CONTIGUOUS = 0, /* one block of consecutive components per PE */
    DOMINO_DIST_TASKPOOL = 1,   /* equal tasks dealt round-robin, weighted */
    DOMINO_DIST_LINKED = 2,     /* a task per component: each level shared among the PEs
                                   by weight, a component going to the PE of its link (a
                                   predecessor one level up) while that PE's share lasts,
                                   so chains of dependencies stay on one GPU */
    DOMINO_DIST_AUTO = 3        /* TASKPOOL, or LINKED where the mean parallelism (n / levels)
                                   is at most DOMINO_DIST_LINKED_PARALLELISM, no task_size is
                                   given, LINKED sends fewer entries across PEs than the pool
                                   and every PE's share under LINKED fits its budget; the plan
                                   records the scheme it took */
} domino_dist_scheme;

/* AUTO takes LINKED at or below this mean parallelism (rows per level).
 * The PULL solver on 4 x H200, LINKED over level-tied TASKPOOL in the same
 * command: a 10^7-row DAG of 10^4 levels (parallelism 1000) 1.45x on 4
 * PEs, 1.26x on 2; R-MAT 22 (736) 1.01x, 1.01x (bench/results/h200x4-linked);
 * the DAG of 1000 levels (10^4) 1.22x on 4 PEs (1.738 against 2.126 ms),
 * 1.03x on 2, since the pull kernel's copies and lanes (it was 0.99x,
 * 1.01x before them); the DAG of 100 levels (10^5) 0.78x on 4 PEs
 * (bench/results/h200x4-big20).  Stencils (D3N7 256^3: 21902; D3N27
 * 192^3: 5290) stay on the pool: LINKED sends more of their entries
 * across PEs. */
#define DOMINO_DIST_LINKED_PARALLELISM 10000

typedef struct domino_dist_options {
    domino_dist_scheme scheme; /* CONTIGUOUS, TASKPOOL, LINKED or AUTO (AUTO); LINKED ignores
                                  tasks_per_pe, task_size and level_tasks */
    int tasks_per_pe;          /* TASKPOOL: tasks per PE on average, >= 1 (8); with
                                  level_tasks the fewest a PE gets */
    int32_t task_size;         /* TASKPOOL: components per task, overriding tasks_per_pe
                                  when > 0 (0); see domino_dist_level_task_size */
    const int64_t *weight;     /* npes weights > 0 (free bytes of each GPU), NULL = equal */
    const int64_t *budget;     /* npes byte budgets, NULL = none: a PE whose share
                                  needs more fails the plan with DOMINO_OUT_OF_MEMORY
                                  naming the PE, its bytes and its budget */
    int level_order;           /* multi-GPU solvers: 1 = each PE takes its components
                                  level by level (a topological order that keeps a whole
                                  wavefront in flight), 0 = in index order (1) */
    const int32_t *row_level;  /* level_order, LINKED, AUTO or level_tasks: the level of every row
                                  when the caller has them (domino_levels.row_level of this
                                  triangle, copied), NULL = computed by the plan (NULL); a
                                  level outside [0, n) is DOMINO_BAD_INPUT, other wrong
                                  levels are not detected (a level-ordered solve then waits
                                  until its timeout) */
    int pull_lanes;            /* DOMINO_DIST_PULL: lanes that read one row, 32 (a warp),
                                  16, 8, 4, 2 or 1 (fewer: more rows in flight per warp);
                                  0 = from the levels, domino_dist_pull_lanes (0) */
    int level_tasks;           /* TASKPOOL with task_size 0: 1 = tasks sized to the level
                                  width, domino_dist_level_task_size(n, levels, npes,
                                  tasks_per_pe, 64), the levels from row_level or computed
                                  (on 4 x H200 with the PULL solver's grid of 12 blocks an
                                  SM: 1.16-3.6x faster on 10^7-row DAGs, 1.10x on D3N7 256^3,
                                  1.01x on R-MAT 22; the ZEROCOPY solver 5.2x faster than
                                  unified memory on average, slower on R-MAT; the unified-
                                  memory baseline slower: set 0 for it), 0 = tasks_per_pe
                                  equal tasks (1) */
    int pull_copies;           /* DOMINO_DIST_PULL: 1 = the owner of x_i also stores it into the
                                  solution array of every PE with a row that reads it (stores
                                  over NVLink, every read local), 0 = those PEs read it from
                                  the owner over NVLink (1) */
} domino_dist_options;
/* defaults: AUTO (LINKED on deep problems where it pays, else TASKPOOL with
 * 8 tasks per PE, task_size 0, tied to the level width), equal weights, no
 * budget, level order, PULL's lanes per row from the levels, PULL's copies */
void domino_dist_options_init(domino_dist_options *opt);

typedef struct domino_dist_plan {
    int32_t n;              /* components */
    int npes;               /* PEs */
    domino_dist_scheme scheme; /* how it was made: CONTIGUOUS, TASKPOOL or LINKED (AUTO's
                                  choice), never AUTO */
    int level_order;        /* the solvers take components level by level (options) */
    int32_t *row_level;     /* level_order, LINKED, or level_tasks with TASKPOOL and task_size 0: the
                               level of each component, size n; else NULL */
    int pull_lanes;         /* DOMINO_DIST_PULL: lanes per row, 32, 16, 8, 4, 2 or 1 (options; 0 ->
                               domino_dist_pull_lanes with level order, else 32) */
    int pull_copies;        /* DOMINO_DIST_PULL: 1 = x_i stored into its readers' arrays (options) */
    int32_t task_size;      /* components per task (the last task may be shorter) */
    int32_t ntasks;         /* tasks, ceil(n / task_size) */
    int *task_pe;           /* PE of each task, size ntasks */
    int32_t *pe_tasks;      /* tasks of each PE, size npes */
    int32_t *pe_components; /* components of each PE, size npes */
    int64_t *pe_nnz;        /* entries of L's columns each PE holds, size npes */
    int64_t *pe_bytes;      /* device bytes of each PE's share, size npes (see below) */
    int64_t *pe_remote;     /* entries of each PE's columns whose row is on another PE
                               (contributions it sends), size npes */
} domino_dist_plan;

/* Plan the distribution of the triangle `fill` of square L (CSR or CSC,
 * any type; entries of the other triangle ignored) over npes >= 1 PEs.
 * Bytes of a PE's share: its columns' entries (value + int32 row index),
 * its column offsets (int64, one per component + 1), and per component x,
 * b, an int32 in-degree and a double left sum, plus n int32 in-degrees and
 * n doubles of left sums for the remote contributions (the zero-copy
 * model's symmetric arrays).  L stored as one triangle of a (skew-)symmetric
 * matrix is planned as if expanded; duplicate entries count as stored.  opt
 * may be NULL (defaults). */
domino_status domino_dist_plan_make(domino_handle h, domino_matrix L, domino_fill fill, int npes,
                                    const domino_dist_options *opt, domino_dist_plan **plan);
/* A task size tied to the level structure (adaptive tasks): the mean
 * level width n / nlevels divided by npes, at most ceil(n / (tasks_per_pe
 * npes)) (the usual pool's tasks) and at least min_size or that, whichever
 * is smaller, so that a level spans about npes tasks
 * and the pool spreads it; deep matrices get small tasks, shallow ones the
 * usual pool.  Returns 0 for bad arguments. */
int32_t domino_dist_level_task_size(int32_t n, int32_t nlevels, int npes, int tasks_per_pe,
                                    int32_t min_size);

/* Lanes per row of the PULL solver when the options leave it 0: the
 * fewest of 1, 2, 4, 8, 16, 32 with which a level's mean rows on one PE
 * (n / nlevels / npes) times the lanes reach DOMINO_DIST_PULL_THREADS
 * threads in flight on one PE, half that on several; 32 for bad
 * arguments. */
#define DOMINO_DIST_PULL_THREADS 65536
int domino_dist_pull_lanes(int32_t n, int32_t nlevels, int npes);

/* PE of component i (0 <= i < n); -1 for a NULL plan or i out of range */
int domino_dist_pe_of(const domino_dist_plan *plan, int32_t i);
void domino_dist_plan_free(domino_dist_plan *plan);

/* ------------------------------------- launching one process per GPU
 * The single-node start-up of the multi-GPU code without an external
 * launcher: npes processes forked from this one (before any CUDA call), PE
 * r selecting GPU r modulo the devices, a shared memory page for the PEs'
 * start-up handshake (NVSHMEM's unique ID), NVSHMEM_DISABLE_NVLS=1 set for
 * all.  One error path: when a PE fails (non-zero exit, signal), the others
 * are stopped (SIGTERM, then SIGKILL after a grace period) and the run
 * fails, saying which PE failed and how; never a hang on a dead PE. */

/* what a launched PE knows about its run */
typedef struct domino_launch_info {
    int rank;          /* this PE, 0 .. npes-1 */
    int npes;          /* PEs of the run */
    void *shared;      /* DOMINO_LAUNCH_SHARED_BYTES shared by all PEs, zeroed at start */
} domino_launch_info;
#define DOMINO_LAUNCH_SHARED_BYTES 4096
#define DOMINO_LAUNCH_MAX_PES 64

/* Run pe_main(info, arg) in npes (1..DOMINO_LAUNCH_MAX_PES) forked
 * processes and wait for all.  Returns the exit code of the run: 0 when
 * every PE returned 0, else the first failing PE's code (128 + signal for a
 * signal), with a message on stderr naming the PE; -1 if the processes
 * could not be started (message on stderr). */
int domino_launch(int npes, int (*pe_main)(const domino_launch_info *info, void *arg), void *arg);
/* the number of CUDA devices, counted in a short-lived child process so that
 * this one stays free of CUDA and may still launch PEs (a process that has
 * initialised CUDA cannot use it in forked children) */
int domino_launch_gpu_count(void);
/* the launch info of this process, or NULL when not started by domino_launch */
const domino_launch_info *domino_launch_self(void);

#ifdef DOMINO_HAVE_NVSHMEM
/* ------------------------------------- the distributed runtime (NVSHMEM)
 * Built only where NVSHMEM is found (library domino_nvshmem, which defines
 * DOMINO_HAVE_NVSHMEM).  One PE per GPU.  A PE started by domino_launch
 * joins through NVSHMEM's unique-ID bootstrap: PE 0 publishes the ID in the
 * launch's shared page, the others wait for it (60 s at most, then
 * DOMINO_TIMEOUT).  NVSHMEM_DISABLE_NVLS=1 is forced. */
typedef struct domino_dist_s *domino_dist;

/* join the run (collective over the launched PEs) */
domino_status domino_dist_join(domino_handle h, domino_dist *D);
int domino_dist_rank(domino_dist D);
int domino_dist_npes(domino_dist D);
/* symmetric memory (collective: every PE asks for the same bytes) */
domino_status domino_dist_malloc(domino_handle h, domino_dist D, size_t bytes, void **p);
void domino_dist_free(domino_dist D, void *p);
/* all PEs reach this point, their symmetric writes done */
domino_status domino_dist_barrier(domino_handle h, domino_dist D);
/* a ring check of the GPU-initiated path: each PE puts its rank into the
 * next PE's symmetric word from a kernel, waits on its own with
 * nvshmem_int_wait_until (bounded), and checks it holds its predecessor */
domino_status domino_dist_ring_check(domino_handle h, domino_dist D);
/* leave the run (collective); D is freed */
domino_status domino_dist_leave(domino_handle h, domino_dist D);
/* Collective: every PE learns whether any PE failed.  Returns
 * DOMINO_SUCCESS when every PE passed DOMINO_SUCCESS; mine when this PE
 * failed; else the status of the lowest failing PE, with a message naming
 * it (its own message is on that PE's handle and stderr). */
domino_status domino_dist_agree(domino_handle h, domino_dist D, domino_status mine);
/* the largest of every PE's v (collective) */
domino_status domino_dist_max(domino_handle h, domino_dist D, double v, double *max);
/* the sum of every PE's v (collective) */
domino_status domino_dist_sum(domino_handle h, domino_dist D, double v, double *sum);
/* Collective: the one-sided get bandwidth, GB/s: each PE reads `bytes`
 * from the next PE's symmetric memory (itself when alone) with blocking
 * host-initiated gets, best of 3; *gbs is this PE's. */
domino_status domino_dist_get_bandwidth(domino_handle h, domino_dist D, size_t bytes, double *gbs);

/* ------------------------------------- one-sided SpMM on GPUs (NVSHMEM)
 * C = A B (A sparse m x k, B dense k x n, C m x n, row-major) over the PEs
 * of D (Brock, Bulu\c{c}, Yelick, ICS 2024).  A, B and C are cut into a
 * tiles x tiles grid, tile (i, j) on PE (i tiles + j) mod npes, in
 * symmetric memory; every PE knows where every tile lives and reads the
 * tiles it needs with non-blocking gets, multiplying with cuSPARSE. */
typedef struct domino_dspmm_s *domino_dspmm;
typedef enum domino_dspmm_algorithm {
    DOMINO_DSPMM_STATIONARY_C = 0,      /* the owner of C(i, j) sums A(i, l) B(l, j) from l = i + j on,
                                           the next pair fetched while the current one is multiplied */
    DOMINO_DSPMM_STATIONARY_C_STEAL = 1, /* the same with random work stealing: products claimed on
                                           counters the C tiles' owners keep (atomics over NVLink),
                                           partial tiles added into C at its owner */
    DOMINO_DSPMM_STATIONARY_A = 2,      /* the owner of A(i, l) multiplies it by B(l, j) for every j
                                           from j = i + l on and adds each partial into C(i, j) at
                                           its owner (atomics over NVLink instead of the paper's
                                           remote queue) */
    DOMINO_DSPMM_STATIONARY_C_STEAL_LOCAL = 3, /* locality-aware work stealing: one slot per product
                                           at C's owner; owners take their products first, a PE
                                           steals only products that read an A or B tile it owns */
    DOMINO_DSPMM_STATIONARY_C_ROWS = 4  /* stationary-C by row blocks: the owner of C(i, j) fetches
                                           the t tiles of A's row block i, merges them into one CSR
                                           and multiplies it by B's whole column block j (in place
                                           when it holds it) in one product: C written once */
} domino_dspmm_algorithm;
/* what one PE spent (seconds) */
typedef struct domino_dspmm_times {
    double compute;       /* local products (cuSPARSE SpMM time, from events; NaN past
                             4096 products per PE) */
    double total;         /* from the common start to this PE's last product */
    double imbalance;     /* waiting in the closing barrier for slower PEs */
    int64_t stolen;       /* products computed for other PEs' C tiles */
    double fetch;         /* the gets, from the first get of a fetch to its completion, summed
                             over fetches (events on the fetch stream: overlaps the products, and
                             includes waits for a buffer a product still reads; NaN past 4096
                             fetches) */
} domino_dspmm_times;
/* Collective: every PE passes the same global CSR A (general) and B (host,
 * row-major, leading dimension ldb, A's type); tiles 1..256 per dimension. */
domino_status domino_dspmm_make(domino_handle h, domino_dist D, domino_matrix A, const void *B, int64_t n,
                                int64_t ldb, int tiles, domino_dspmm *P);
/* Collective: as domino_dspmm_make, but B is the pseudo-random dense
 * matrix domino_gen_dense(seed) of n columns, each tile made by its owner
 * on its GPU: no PE ever holds all of B, on the host or the GPU (B larger
 * than one host's memory; check the product with domino_dspmm_multiply).
 * The buffers an algorithm needs beyond A's, B's and C's tiles are made by
 * its first domino_dspmm_run. */
domino_status domino_dspmm_make_random(domino_handle h, domino_dist D, domino_matrix A, int64_t n, uint64_t seed,
                                       int tiles, domino_dspmm *P);
/* Collective: C = A B; times may be NULL */
domino_status domino_dspmm_run(domino_handle h, domino_dspmm P, domino_dspmm_algorithm algorithm,
                               domino_dspmm_times *times);
/* Collective: every PE gets all of C (host, m x n row-major, ldc >= n) */
domino_status domino_dspmm_gather(domino_handle h, domino_dspmm P, void *C, int64_t ldc);
/* Collective: y = C x (which 'C', y of m doubles) or y = B x ('B', y of k
 * doubles) for x of n doubles, on every PE, the PEs' tiles summed on the
 * GPUs (in double): the check C x = A (B x) without gathering C */
domino_status domino_dspmm_multiply(domino_handle h, domino_dspmm P, char which, const double *x, double *y);
/* The roofline of stationary-C (Brock et al., Sec. 5) for P: the bytes the
 * busiest PE fetches from other PEs and the flops (2 nnz width per
 * product) the busiest PE computes (not collective) */
void domino_dspmm_model(domino_dspmm P, double *remote_bytes_max, double *flops_max);
/* collective */
void domino_dspmm_free(domino_dspmm P);

/* C = A B, A and B sparse, over the PEs of D (the SpGEMM of Brock, Bulu\c{c},
 * Yelick, ICS 2024).  A (m x k) and B (k x n) are cut into a tiles x tiles
 * grid of CSR tiles, tile (i, j) of each on PE (i tiles + j) mod npes, in
 * symmetric memory; every PE knows where every tile lives.  C(i, j) is
 * made in one cuSPARSE product (domino_gpu_spgemm): row block i of A (its
 * tiles fetched with non-blocking gets and merged on the GPU) times column
 * block j of B (its tiles fetched and stacked), so C(i, j) needs no sparse
 * accumulation; the next blocks are fetched while the current product
 * runs, and a block already fetched is not fetched again.  C's tiles stay
 * on the GPU of the PE that made them, with 64-bit offsets. */
typedef struct domino_dspgemm_s *domino_dspgemm;
typedef enum domino_dspgemm_algorithm {
    DOMINO_DSPGEMM_STATIONARY_C = 0,      /* the owner of C(i, j) makes it; a PE's tiles in the
                                             order of their column blocks (B fetched once each) */
    DOMINO_DSPGEMM_STATIONARY_C_STEAL = 1, /* random work stealing: C tiles claimed on counters
                                             their owners keep (atomics over NVLink); owners take
                                             their own first, then every PE takes others' tiles
                                             in a random order of column blocks */
    DOMINO_DSPGEMM_STATIONARY_A = 2,      /* the owner of A(i, l) multiplies it by B(l, j) for every
                                             j from j = i + l on; then every PE's partial products
                                             are exposed and C(i, j)'s owner sums its partials */
    DOMINO_DSPGEMM_STATIONARY_C_STEAL_LOCAL = 3 /* locality-aware work stealing: one slot per product
                                             A(i, l) B(l, j) at C(i, j)'s owner; owners claim their
                                             products first, then a PE claims products of others'
                                             tiles that read an A or B tile it owns, in a random
                                             order; partials summed as for stationary-A */
} domino_dspgemm_algorithm;
/* what one PE spent (seconds) and made */
typedef struct domino_dspgemm_times {
    double fetch;     /* waiting for fetched tiles (the gets not hidden behind a product) */
    double merge;     /* joining fetched tiles into a row block of A and a column block of B */
    double compute;   /* the local products (domino_gpu_spgemm, which returns when done; its
                         frees wait for the next item's gets, so part of them counts here) */
    double claim;     /* claiming tiles or products (work stealing) */
    double accumulate;/* summing partial products into C tiles (stationary-A, locality-aware) */
    double total;     /* from the common start to the closing barrier (summing partials included) */
    double imbalance; /* waiting in the closing barrier for slower PEs */
    int64_t tiles;    /* C tiles (stationary-C) or partial products (the others) made here */
    int64_t stolen;   /* of them, claimed for C tiles other PEs own (work stealing) */
    int64_t nnz;      /* entries of the C tiles this PE holds after the run */
    double flops;     /* 2 x the multiply-adds of the tiles or products made here */
} domino_dspgemm_times;
/* Collective: every PE passes the same global CSR A and B (general, one
 * type, A's columns = B's rows; each tile, each row block of A and each
 * column block of B fewer than 2^31 entries); tiles 1..256 per dimension
 * (stationary-A and locality-aware stealing: 1..64).  Collective calls
 * take the same arguments on every PE. */
domino_status domino_dspgemm_make(domino_handle h, domino_dist D, domino_matrix A, domino_matrix B, int tiles,
                                  domino_dspgemm *P);
/* Collective: C = A B (the C of an earlier run is dropped first); times may be NULL */
domino_status domino_dspgemm_run(domino_handle h, domino_dspgemm P, domino_dspgemm_algorithm algorithm,
                                 domino_dspgemm_times *times);
/* Collective: every PE gets all of C (a new host CSR; inside a row the
 * entries in the order the products left them, not sorted) */
domino_status domino_dspgemm_gather(domino_handle h, domino_dspgemm P, domino_matrix *C);
/* Collective: y = C x in double (x host, n values; y host, m values, the
 * same on every PE): the check A (B x) = C x of products too large to gather */
domino_status domino_dspgemm_multiply(domino_handle h, domino_dspgemm P, const double *x, double *y);
/* The roofline of stationary-C for P: the bytes the busiest PE fetches from
 * other PEs and the flops the busiest PE computes (not collective) */
void domino_dspgemm_model(domino_dspgemm P, double *remote_bytes_max, double *flops_max);
/* 2 x the multiply-adds of all of C = A B (not collective) */
double domino_dspgemm_flops(domino_dspgemm P);
/* collective */
void domino_dspgemm_free(domino_dspgemm P);
#endif

#ifdef DOMINO_HAVE_NCCL
/* ------------------------------------- bulk-synchronous SUMMA SpMM on GPUs
 * The baseline of the one-sided SpMM algorithms (library domino_nccl, built
 * where NCCL is found, which defines DOMINO_HAVE_NCCL): C = A B with A
 * sparse, one PE per GPU on a pr x pc grid (pr pc = PEs), started by
 * domino run -n N or mpirun.  The inner dimension is cut into lcm(pr, pc)
 * blocks; at each step A's block is broadcast along grid rows and B's
 * along grid columns (ncclBroadcast in split communicators), and each GPU
 * adds the product into its C tile (cusparseSpMM).  All steps in lock-step. */
typedef struct domino_summa_gpu_s *domino_summa_gpu;
/* what one PE spent (seconds, wall clock, each phase synchronized) */
typedef struct domino_summa_gpu_times {
    double compute;       /* the local products */
    double communication; /* the broadcasts */
    double total;         /* the whole product */
} domino_summa_gpu_times;
/* Collective: every PE passes the same global CSR A (m x k, general) and
 * row-major B (k x n, leading dimension ldb) and keeps its blocks on its
 * GPU; a grid that does not fit the PEs, or a failure on any PE, fails on
 * every PE. */
domino_status domino_summa_gpu_make(domino_handle h, domino_matrix A, const void *B, int64_t n,
                                    int64_t ldb, int pr, int pc, domino_summa_gpu *S);
/* Collective: the same with B the pseudo-random matrix domino_gen_dense(seed)
 * of n columns, each PE making its blocks on its GPU (no host holds B) */
domino_status domino_summa_gpu_make_random(domino_handle h, domino_matrix A, int64_t n, uint64_t seed, int pr,
                                           int pc, domino_summa_gpu *S);
/* Collective: C = A B; times may be NULL */
domino_status domino_summa_gpu_spmm(domino_handle h, domino_summa_gpu S, domino_summa_gpu_times *times);
/* Collective: every PE gets all of C (host, m x n row-major, ldc >= n, A's type) */
domino_status domino_summa_gpu_gather(domino_handle h, domino_summa_gpu S, void *C, int64_t ldc);
/* Collective: y = C x in double (x host, n values; y host, m values, the
 * same on every PE): the check C z = A (B z) without gathering C */
domino_status domino_summa_gpu_multiply(domino_handle h, domino_summa_gpu S, const double *x, double *y);
/* free S (collective: its communicators are destroyed) */
void domino_summa_gpu_free(domino_summa_gpu S);

/* The bulk-synchronous SUMMA SpGEMM, the baseline of the one-sided SpGEMM:
 * C = A B with A and B sparse on the same pr x pc grid and inner blocks;
 * at each step A's block is broadcast along grid rows and B's along grid
 * columns, each GPU multiplies them into a partial product of its C tile
 * (domino_gpu_spgemm), and sums its partials at the end. */
typedef struct domino_summa_spgemm_s *domino_summa_spgemm;
/* Collective: every PE passes the same global CSR A and B (general, one
 * type, A's columns = B's rows, each block fewer than 2^31 entries) */
domino_status domino_summa_gpu_spgemm_make(domino_handle h, domino_matrix A, domino_matrix B, int pr, int pc,
                                           domino_summa_spgemm *S);
/* Collective: C = A B (C's tiles stay on their GPUs); times may be NULL
 * (compute: the products and the final sum; communication: the broadcasts) */
domino_status domino_summa_gpu_spgemm_run(domino_handle h, domino_summa_spgemm S, domino_summa_gpu_times *times);
/* Collective: y = C x in double (x host, n values; y host, m values) and
 * *nnz (may be NULL) = entries of C, on every PE */
domino_status domino_summa_gpu_spgemm_multiply(domino_handle h, domino_summa_spgemm S, const double *x, double *y,
                                               int64_t *nnz);
/* collective */
void domino_summa_gpu_spgemm_free(domino_summa_spgemm S);
#endif

/* ------------------------------------- multi-GPU triangular solve
 * L x = b (or U x = b) spread over the PEs of a distribution plan
 * (domino_dist_plan_make), in double precision, one right-hand side: each
 * PE's GPU solves its components in order with the synchronization-free
 * CSC push kernel (warp per component) and learns of contributions from
 * other GPUs through counts and sums (Xie et al., ICPP 2021).  Three ways
 * to carry them: */
typedef enum domino_dist_solver {
    DOMINO_DIST_UNIFIED = 0,  /* Algorithm 2: one process drives plan->npes GPUs; the counts
                                 and sums of contributions that cross GPUs in managed memory,
                                 system-scope atomics (the baseline), mapped on every GPU
                                 (DOMINO_DIST_UM_PLAIN=1: no advice, pages migrate on
                                 faults) */
    DOMINO_DIST_ZEROCOPY = 1, /* Algorithm 3: PE q keeps its contributions in its own symmetric
                                 arrays; the owner of a row reads every PE's count (one lane
                                 per PE) and then the sums: read-only communication */
    DOMINO_DIST_PUSH = 2,     /* beyond the paper: a contribution is added into the owner's
                                 symmetric arrays with remote atomics; the owner polls its own
                                 memory only */
    DOMINO_DIST_PULL = 3,     /* beyond the paper: CSR pull, read-only; a component reads the
                                 x_j of its row from their owners' symmetric solution arrays,
                                 each value its own ready flag (no counts, no atomics) */
    DOMINO_DIST_DEFAULT = 3   /* PULL, the one to use: on 2 x H200 with level order and 8 tasks
                                 per PE it beat ZEROCOPY 2.8x (stencils) to 15x (R-MAT) and PUSH
                                 everywhere (bench/results/h200x2-trsv-dist-v2) */
} domino_dist_solver;
typedef struct domino_dist_trsv_s *domino_dist_trsv;

/* The unified-memory solver on GPUs 0 .. plan->npes-1 of this process for
 * the triangle `fill` of square A (CSR or CSC, any type; symmetric storage
 * expanded).  Never asks for more managed memory than the GPU has free
 * (DOMINO_OUT_OF_MEMORY).  A missing or zero diagonal (non-unit) is
 * reported with its row. */
domino_status domino_dist_trsv_unified(domino_handle h, domino_fill fill, domino_diag diag,
                                       domino_matrix A, const domino_dist_plan *plan,
                                       domino_dist_trsv *T);
#ifdef DOMINO_HAVE_NVSHMEM
/* Collective: the ZEROCOPY, PUSH or PULL solver, this PE's share of plan (made
 * alike on every PE, plan->npes = the run's PEs); A is the whole matrix,
 * the same on every PE.  Every PE fails alike when one fails. */
domino_status domino_dist_trsv_make(domino_handle h, domino_dist D, domino_dist_solver solver,
                                    domino_fill fill, domino_diag diag, domino_matrix A,
                                    const domino_dist_plan *plan, domino_dist_trsv *T);
#endif
/* Solve with b (host, all n) into x (host, all n: every PE receives the
 * whole solution); collective for the NVSHMEM solvers.  seconds: the
 * solve proper (from the start of the kernels, after the arrays are
 * cleared and the PEs met, to the end of the last), the largest over PEs;
 * may be NULL.  A wait that lasts longer than DOMINO_DIST_TIMEOUT_S
 * seconds (60) without its count moving ends the solve with DOMINO_TIMEOUT
 * naming the PE and row. */
domino_status domino_dist_trsv_solve(domino_handle h, domino_dist_trsv T, const double *b, double *x,
                                     double *seconds);
/* free T (collective for the NVSHMEM solvers); NULL is accepted */
void domino_dist_trsv_free(domino_dist_trsv T);

/* ----------------------------------------------- CPU reference (the oracle) */

/* Solve op(T) X = B on the CPU, where T is the fill triangle of A (entries of
 * the other triangle are ignored), A CSR or CSC.  B and X are column-major
 * blocks of nrhs columns of A's value type, leading dimensions ldb and ldx
 * (>= n); X may equal B.  A zero pivot gives DOMINO_ZERO_PIVOT naming the
 * row; a missing diagonal (non-unit) gives DOMINO_ZERO_DIAGONAL. */
domino_status domino_ref_trsv(domino_handle h, domino_op op, domino_fill fill, domino_diag diag,
                              domino_matrix A, int32_t nrhs, const void *B, int64_t ldb, void *X,
                              int64_t ldx);

/* Parallel synchronization-free solve on CPU threads (OpenMP, C11 atomics):
 * each row waits only for the rows it reads.  Same contract as
 * domino_ref_trsv with op N and one right-hand side; nthreads 0 = default. */
domino_status domino_ref_trsv_syncfree(domino_handle h, domino_fill fill, domino_diag diag,
                                       domino_matrix A, const void *b, void *x, int nthreads);

/* CPU model of the multi-PE zero-copy solve (Xie et al., ICPP 2021,
 * Algorithm 3) on one POSIX thread per PE of plan (domino_dist_plan_make of
 * A's triangle `fill`): PE p owns the components plan gives it (x_i, b_i,
 * column i of T), solves them in order, and keeps its contributions to other
 * PEs' components in its own arrays (a count and a sum per row); the owner
 * of row i reads every other PE's count, waits for its known share, then
 * its sum (acquire / release).  No PE writes another's memory.  Same
 * contract as domino_ref_trsv_syncfree (op N, one right-hand side; sums in
 * another order, so equal to rounding); plan->n must be A's order. */
domino_status domino_ref_trsv_dist(domino_handle h, domino_fill fill, domino_diag diag,
                                   domino_matrix A, const domino_dist_plan *plan, const void *b,
                                   void *x);

/* Level sets of the dependency graph of a triangular solve */
typedef struct domino_levels {
    int32_t n;            /* number of rows */
    int32_t nlevels;      /* number of levels (dependency depth) */
    int64_t *level_ptr;   /* rows of level l are level_rows[level_ptr[l] .. level_ptr[l+1]), size nlevels+1 */
    int32_t *level_rows;  /* rows ordered by level, size n */
    int32_t *row_level;   /* level of each row, size n */
    double parallelism;   /* n / nlevels */
    double dependency;    /* nnz of the triangle / n */
} domino_levels;

/* levels of op(T) for T the fill triangle of square A */
domino_status domino_ref_levels(domino_handle h, domino_op op, domino_fill fill, domino_matrix A,
                                domino_levels **levels);
void domino_levels_free(domino_levels *levels);

/* scaled residual max over columns of ||op(T)x - b||_inf / (||T||_inf ||x||_inf + ||b||_inf) */
domino_status domino_ref_trsv_residual(domino_handle h, domino_op op, domino_fill fill,
                                       domino_diag diag, domino_matrix A, int32_t nrhs,
                                       const void *X, int64_t ldx, const void *B, int64_t ldb,
                                       double *residual);

/* y = alpha op(A) x + beta y on the CPU (A CSR or CSC, vectors of A's type) */
domino_status domino_ref_spmv(domino_handle h, domino_op op, double alpha, domino_matrix A,
                              const void *x, double beta, void *y);

/* C = alpha op(A) B + beta C on the CPU (OpenMP over rows of C): A CSR or
 * CSC of any type, B and C dense ROW-major blocks of A's type with k
 * columns (B: op(A)'s columns x k, leading dimension ldb >= k; C: op(A)'s
 * rows x k, ldc >= k), summed in double; beta 0 ignores C's old values
 * (NaN included).  Symmetric storage is expanded; CSR op T and CSC op N
 * convert A once (nnz of extra memory).  The reference of the SpMM of the
 * distributed algorithms. */
domino_status domino_ref_spmm(domino_handle h, domino_op op, double alpha, domino_matrix A,
                              int32_t k, const void *B, int64_t ldb, double beta, void *C,
                              int64_t ldc);

/* C = A B on the CPU (Gustavson, a dense accumulator per thread, OpenMP
 * over rows): A and B CSR (or CSC, converted) of one type, A's columns =
 * B's rows; C is a new CSR of that type with sorted rows, entries that sum
 * to zero kept (the pattern is structural), int64 offsets, so nnz(C) may
 * pass 2^31.  Symmetric storage is expanded.  Scratch: about 12 bytes x
 * threads x B's columns.  DOMINO_DIMENSION_MISMATCH names both shapes. */
domino_status domino_ref_spgemm(domino_handle h, domino_matrix A, domino_matrix B,
                                domino_matrix *C);

/* machine epsilon of a value type *//* machine epsilon of a value type */
double domino_type_eps(domino_type t);

/* ------------------------------------------------ compact stencil matrices
 * A matrix on an nx*ny*nz grid (natural ordering, x fastest: row
 * i = x + nx*(y + ny*z)) stored without column indices: one coefficient per
 * row and stencil offset.  Offset (dx,dy,dz) of row i is column
 * i + dx + nx*(dy + ny*dz) when that point lies inside the grid. */

#define DOMINO_STENCIL_MAX_POINTS 33

typedef struct domino_stencil_matrix {
    int32_t nx, ny, nz;  /* grid size, each >= 1; N = nx*ny*nz rows */
    int npoints;         /* number of offsets, 0..DOMINO_STENCIL_MAX_POINTS */
    int offsets[3 * DOMINO_STENCIL_MAX_POINTS]; /* dx,dy,dz of point p at 3p..3p+2,
                            |d| <= 2, in strictly increasing linear order (dz, dy, dx) */
    domino_type type;    /* type of coef */
    void *coef;          /* npoints arrays of N values, point-major: coef[p*N + i] is
                            the coefficient of row i for offset p, 0 where the
                            neighbour is outside the grid */
} domino_stencil_matrix;

/* free S and its coefficients (accepts NULL) */
void domino_stencil_matrix_free(domino_stencil_matrix *S);

/* Detect the stencil of a square CSR (or CSC) matrix A of order nx*ny*nz:
 * every entry (i,j) must be a grid neighbour of i within 2 per axis that
 * does not wrap around a grid boundary (else DOMINO_BAD_INPUT naming the row,
 * its (x,y,z) and the column).  S holds the union of the offsets used (a
 * lower or upper triangle gives only lower or upper offsets plus the
 * centre); duplicate entries are summed; absent entries are 0.
 * n != nx*ny*nz or A not square: DOMINO_DIMENSION_MISMATCH; more than 33
 * offsets: DOMINO_NOT_SUPPORTED.  Free S with domino_stencil_matrix_free. */
domino_status domino_stencil_from_csr(domino_handle h, domino_matrix A, int32_t nx, int32_t ny,
                                      int32_t nz, domino_stencil_matrix **S);

/* CSR (sorted) of the offsets of S in `part` (lower: linear offset <= 0,
 * upper: >= 0): one entry for every offset whose neighbour is inside the
 * grid, zero coefficients included, so domino_gen_stencil -> from_csr ->
 * to_csr gives back the generator's matrix exactly. */
domino_status domino_stencil_to_csr(domino_handle h, const domino_stencil_matrix *S,
                                    domino_part part, domino_matrix *A);

/* Solve T x = b on the CPU directly on the compact form, T the fill
 * triangle of S (lower: forward over the grid, upper: backward); b and x of
 * S's type, n values; x may equal b; computed in double.  Non-unit: a zero
 * centre coefficient is DOMINO_ZERO_PIVOT naming the row and its (x,y,z), no
 * centre offset at all DOMINO_ZERO_DIAGONAL. */
domino_status domino_ref_stencil_trsv(domino_handle h, const domino_stencil_matrix *S,
                                      domino_fill fill, domino_diag diag, const void *b,
                                      void *x);

/* bytes of the coefficients of the fill triangle of S (centre included),
 * values only; 0 for NULL */
size_t domino_stencil_matrix_bytes(const domino_stencil_matrix *S, domino_fill fill);

/* ------------------------------------------- incomplete factorizations, Krylov
 * CPU reference of ILU(0), IC(0) and preconditioned CG / BiCGSTAB (the oracle
 * of the GPU side).  Preconditioner triangular solves go through
 * domino_ref_trsv. */

/* ILU(0) of square CSR A (rows sorted, no duplicates, every diagonal stored;
 * symmetric storage is expanded): *LU has A's pattern and holds L strictly
 * below the diagonal (unit diagonal implied) and U on and above it, A ~ L U
 * (IKJ variant, Saad, Iterative Methods for Sparse Linear Systems, 2nd ed.,
 * Alg. 10.4).  A missing diagonal is DOMINO_ZERO_DIAGONAL naming the row.  A
 * pivot that is exactly 0 or not finite is DOMINO_ZERO_PIVOT naming the row
 * when pivot_shift == 0; otherwise it is replaced by pivot_shift itself (the
 * caller picks the sign) and counted in *replaced (may be NULL). */
domino_status domino_ref_ilu0(domino_handle h, domino_matrix A, double pivot_shift,
                              domino_matrix *LU, int64_t *replaced);

/* IC(0) of symmetric positive definite CSR A, stored full, as its lower
 * triangle, or symmetric: only entries with col <= row are read.  *L is lower
 * triangular CSR (diagonal included) on the pattern of tril(A), A ~ L L^T.
 * A pivot d (L_ii = sqrt(d)) that is not > 0 or not finite is
 * DOMINO_ZERO_PIVOT naming the row when pivot_shift == 0; otherwise d :=
 * pivot_shift (which must then be > 0) and it is counted in *replaced. */
domino_status domino_ref_ic0(domino_handle h, domino_matrix A, double pivot_shift,
                             domino_matrix *L, int64_t *replaced);

typedef enum domino_precond_kind {
    DOMINO_PRECOND_NONE = 0,   /* M = I */
    DOMINO_PRECOND_JACOBI = 1, /* M = diag(A) */
    DOMINO_PRECOND_ILU0 = 2,   /* M = L U of domino_ref_ilu0 */
    DOMINO_PRECOND_IC0 = 3     /* M = L L^T of domino_ref_ic0 */
} domino_precond_kind;

typedef struct domino_krylov_options {
    domino_precond_kind precond; /* preconditioner (NONE by default) */
    double rtol;                 /* stop when ||r|| <= rtol ||b|| (1e-8) */
    int maxit;                   /* iteration cap (1000) */
    double pivot_shift;          /* pivot_shift of ilu0 / ic0 (0: fail on a bad pivot) */
    double diag_shift;           /* ilu0 / ic0 factor A + diag_shift diag(A) instead of A
                                    (Manteuffel's shifted incomplete Cholesky, Math. Comp.
                                    34, 1980); 0 by default */
} domino_krylov_options;
/* defaults: NONE, 1e-8, 1000, pivot_shift 0, diag_shift 0 */
void domino_krylov_options_init(domino_krylov_options *opt);

typedef struct domino_krylov_result {
    int iterations;           /* iterations done */
    int converged;            /* 1: the iterated residual reached rtol */
    int breakdown;            /* 1: stopped on a zero or non-finite scalar (rho, p'Ap, ...) */
    double relative_residual; /* ||b - A x|| / ||b||, recomputed at the end */
    double *history;          /* iterated relative residual, size iterations+1; free with
                                 domino_krylov_result_free */
    double setup_seconds;     /* building the preconditioner */
    double solve_seconds;     /* the iterations */
    int64_t pivots_replaced;  /* pivots shifted while factoring */
} domino_krylov_result;
/* free the history; safe on a zeroed struct */
void domino_krylov_result_free(domino_krylov_result *res);

/* Preconditioned conjugate gradients (Saad, Alg. 9.1) for SPD A (square,
 * double, CSR; any preconditioner).  x holds the initial guess on input and
 * the solution on output; b and x have n doubles.  opt may be NULL
 * (defaults).  Not converging in maxit iterations, or a breakdown, is not an
 * error: SUCCESS with converged = 0.  Float A is DOMINO_NOT_SUPPORTED. */
domino_status domino_ref_cg(domino_handle h, domino_matrix A, const double *b, double *x,
                            const domino_krylov_options *opt, domino_krylov_result *res);

/* Right-preconditioned BiCGSTAB (van der Vorst, SIAM J. Sci. Stat. Comput.
 * 13(2), 1992) for general square A; same contract as domino_ref_cg. */
domino_status domino_ref_bicgstab(domino_handle h, domino_matrix A, const double *b, double *x,
                                  const domino_krylov_options *opt,
                                  domino_krylov_result *res);

/* ------------------------------------------------------------------ GPU
 * GPU engines of the triangular solve, in the cuSPARSE style: a matrix made
 * resident on the device, a plan per sparsity pattern (buffer size ->
 * analysis), then solves as often as needed; a values-only update keeps the
 * analysis.  Work is queued on the handle's stream.  Without CUDA (build or
 * machine) every call returns DOMINO_NOT_SUPPORTED. */

/* number of usable CUDA devices (0 without CUDA) */
int domino_gpu_count(void);
/* name of the current device and its measured device-to-device copy
 * bandwidth in GB/s (bytes read + written), measured once per handle */
domino_status domino_gpu_describe(domino_handle h, char *name, size_t name_len,
                                  double *copy_gbs);

/* device memory the caller owns */
domino_status domino_gpu_malloc(domino_handle h, size_t bytes, void **dptr);
void domino_gpu_free(void *dptr);
domino_status domino_gpu_upload(domino_handle h, void *dst, const void *src, size_t bytes);
domino_status domino_gpu_download(domino_handle h, void *dst, const void *src, size_t bytes);
/* wait for the handle's stream */
domino_status domino_gpu_synchronize(domino_handle h);
/* event timing on the handle's stream: begin, then end gives the milliseconds */
domino_status domino_gpu_timer_begin(domino_handle h);
domino_status domino_gpu_timer_end(domino_handle h, double *ms);

/* a sparse matrix resident on the GPU (CSR or CSC, as on the host) */
typedef struct domino_dmatrix_s *domino_dmatrix;
domino_status domino_dmatrix_upload(domino_handle h, domino_matrix A, domino_dmatrix *dA);
/* C = A B on the GPU with cusparseSpMM (the single-GPU SpMM, and the
 * reference of the distributed ones): dA CSR with fewer than 2^31 entries,
 * dB and dC device arrays of dA's type, row-major (dB: dA's columns x n,
 * ldb >= n; dC: dA's rows x n, ldc >= n); returns after the product. */
domino_status domino_gpu_spmm(domino_handle h, domino_dmatrix dA, int64_t n, const void *dB, int64_t ldb,
                              void *dC, int64_t ldc);
/* the same in phases: a plan (descriptors, offsets, workspace) for these
 * arrays, then products as often as needed (each returns when done) */
typedef struct domino_spmm_plan_s *domino_spmm_plan;
domino_status domino_gpu_spmm_plan(domino_handle h, domino_dmatrix dA, int64_t n, const void *dB, int64_t ldb,
                                   void *dC, int64_t ldc, domino_spmm_plan *plan);
/* the engine of a plan: cusparseSpMM (domino_gpu_spmm_plan's), or
 * domino's chunk kernel for narrow B (n <= 128: A's entries cut into equal
 * chunks, a warp a chunk, the lanes across B's columns; a row cut by a
 * chunk boundary summed with atomics, so its rounding may vary from run to
 * run).  A wider B with the chunk engine: DOMINO_NOT_SUPPORTED. */
typedef enum domino_spmm_engine { DOMINO_SPMM_CUSPARSE = 0, DOMINO_SPMM_CHUNKS = 1 } domino_spmm_engine;
domino_status domino_gpu_spmm_plan_engine(domino_handle h, domino_spmm_engine engine, domino_dmatrix dA, int64_t n,
                                          const void *dB, int64_t ldb, void *dC, int64_t ldc, domino_spmm_plan *plan);
domino_status domino_gpu_spmm_run(domino_handle h, domino_spmm_plan plan);
void domino_gpu_spmm_plan_free(domino_spmm_plan plan);
/* y = A x on the GPU with cusparseSpMV: dA CSR with fewer than 2^31
 * entries, dx (dA's columns) and dy (dA's rows) device arrays of dA's
 * type.  A plan (descriptors, 32-bit row offsets, workspace) for these
 * arrays, then products as often as needed, each queued on the handle's
 * stream (domino_gpu_synchronize waits for it).  The dependency-free
 * reference of `domino bench --suite trsv`: the product reads what a
 * triangular solve of the same pattern reads, and waits for nothing. */
typedef struct domino_spmv_plan_s *domino_spmv_plan;
domino_status domino_gpu_spmv_plan(domino_handle h, domino_dmatrix dA, const void *dx, void *dy,
                                   domino_spmv_plan *plan);
domino_status domino_gpu_spmv_run(domino_handle h, domino_spmv_plan plan);
void domino_gpu_spmv_plan_free(domino_spmv_plan plan);
/* domino_gen_dense on the GPU: the same values, bit for bit, into the
 * device array dB (row-major, leading dimension ldb); returns when done */
domino_status domino_gpu_gen_dense(domino_handle h, uint64_t seed, int64_t ncols, int64_t row0, int64_t rows,
                                   int64_t col0, int64_t cols, domino_type type, void *dB, int64_t ldb);
/* y = A x on the GPU for a dense device array dA (rows x cols, row-major,
 * leading dimension lda, type's values), x (cols) and y (rows) host
 * doubles, sums in double: the check of dense products too large to bring
 * to the host (C z against A (B z)) */
domino_status domino_gpu_dense_multiply(domino_handle h, domino_type type, int64_t rows, int64_t cols,
                                        const void *dA, int64_t lda, const double *x, double *y);
/* C = A B on one GPU with cusparseSpGEMM (the single-GPU SpGEMM, and the
 * reference of the distributed ones): dA and dB CSR of one type, dA's
 * columns = dB's rows, each with fewer than 2^31 entries.  *dC is a new
 * device matrix (CSR, 64-bit offsets, so nnz(C) may pass 2^31; rows as
 * cuSPARSE leaves them, dC->sorted 0).  A row block of A is multiplied with
 * the default algorithm, with the memory-frugal CUSPARSE_SPGEMM_ALG3 where
 * that lacks resources, and split in two where ALG3 does too (or where its
 * product would pass 2^31 entries); DOMINO_OUT_OF_MEMORY only when a single
 * row cannot be multiplied.  The environment's DOMINO_SPGEMM_BLOCK_ROWS
 * caps a block's rows (tests).  info (may be NULL) says how C was made. */
typedef struct domino_gpu_spgemm_info {
    int blocks;        /* row blocks multiplied (1: all of A at once) */
    int frugal_blocks; /* of them, those that needed CUSPARSE_SPGEMM_ALG3 */
    int64_t nnz;       /* entries of C */
} domino_gpu_spgemm_info;
domino_status domino_gpu_spgemm(domino_handle h, domino_dmatrix dA, domino_dmatrix dB,
                                domino_dmatrix *dC, domino_gpu_spgemm_info *info);
/* y = A x in double on the GPU (x: dA's columns, y: dA's rows, both host
 * arrays); any number of entries: the check of products too large to
 * bring to the host (C x against A (B x)), a row a thread, not a fast SpMV */
domino_status domino_dmatrix_multiply(domino_handle h, domino_dmatrix dA, const double *x, double *y);
/* new values for the same pattern (A must have dA's pattern) */
domino_status domino_dmatrix_update_values(domino_handle h, domino_dmatrix dA, domino_matrix A);
void domino_dmatrix_free(domino_dmatrix dA);

typedef enum domino_engine {
    DOMINO_ENGINE_AUTO = 0,     /* cheap analysis picks one of the below */
    DOMINO_ENGINE_LEVELSET = 1, /* level sets built on the GPU; the rows in level order in one
                                   synchronization-free launch, a thread per row (with the
                                   environment's DOMINO_LEVELSET_LANES = 4, 8, 16, 32 or auto:
                                   that many lanes per row, as the multi-GPU pull solver) */
    DOMINO_ENGINE_WARP = 2,     /* synchronization-free, warp per row, CSR pull */
    DOMINO_ENGINE_THREAD = 3,   /* synchronization-free, thread per short row, warp per long row */
    DOMINO_ENGINE_CSC = 4,      /* synchronization-free CSC push (Liu et al.), warp per column */
    DOMINO_ENGINE_CUSPARSE = 5, /* cusparseSpSV, the baseline */
    DOMINO_ENGINE_STENCIL = 6,  /* the structured-grid solve (domino_dstencil_trsv): AUTO takes it
                                   when a sampled row and a check of every entry show one of the
                                   generator stencils on some grid (sorted CSR dA; op T solves
                                   from the transpose the analysis makes); solves synchronize */
    DOMINO_ENGINE_BLOCK = 7,    /* synchronization-free in one thread block (one SM): x in shared
                                   memory when n values fit (else in X, polled through L2), a group
                                   of 2-32 lanes per row, the block sized from the levels (counted
                                   by one block in the analysis).  Experimental: on an H100 it beat
                                   the thread engine on a few small deep systems (cryg2500 2x) and
                                   lost on most (bench/results/h100-trsv3); AUTO never takes it */
    DOMINO_ENGINE_LEVELBLOCK = 8, /* level sets in one thread block: the analysis (on the host)
                                   numbers the rows level by level and copies their entries in
                                   that order; one block solves the levels in turn, a barrier
                                   between levels, x in shared memory when n values fit, the
                                   coming levels' entries copied into shared memory ahead by a
                                   loader warp.  AUTO takes it for systems whose x fits shared
                                   memory (at most DOMINO_LEVELBLOCK_AUTO_ROWS rows) with 2 to 64
                                   rows a level on average */
    DOMINO_ENGINE_STEPBLOCK = 9 /* one thread block, no analysis: the rows in steps of 256, each
                                   step in rounds with a barrier between them (a row is solved
                                   once its recent columns hold values, read from shared
                                   memory); the rest of the block loads the coming steps and
                                   sums each row's entries whose columns were solved already.
                                   For deep, narrow systems; not deterministic.  AUTO tries it
                                   on its second solve when the first (thread engine) took
                                   longer than one SM could read the matrix, and keeps it when
                                   it is faster */
} domino_engine;
#define DOMINO_ENGINE_COUNT 10
/* the largest systems AUTO considers for the level-block engine */
#define DOMINO_LEVELBLOCK_AUTO_ROWS 32768
#define DOMINO_LEVELBLOCK_AUTO_NNZ (1 << 21)
const char *domino_engine_name(domino_engine e);
/* parse "auto", "levelset", "warp", "thread", "csc", "cusparse", "stencil", "block", "levelblock" */
domino_status domino_engine_parse(const char *name, domino_engine *e);

typedef struct domino_trsv_options {
    domino_engine engine; /* which engine (AUTO by default) */
    int deterministic;    /* 1: bitwise identical results from run to run: the thread engine
                             sums every row in stored order.  0: an AUTO plan on the thread
                             engine times its first four solves, summing rows of up to 32
                             entries in stored order and in the order their x arrive, in turn,
                             and keeps the faster (DOMINO_ANY_ORDER=0/1 in the environment
                             forces one); with one right-hand side on at most 2^25 rows, its
                             first six, the third walk packed (each row on lanes of its own,
                             summed in arrival order; DOMINO_PACKED=0/1 turns it off or
                             forces it); in arrival order the last bits may differ between
                             runs */
    int max_wait_ms;      /* >0: a dependency wait longer than this fails with DOMINO_TIMEOUT */
    int level_launches;   /* LEVELSET: 1 = one launch per level, the classic level-set solve
                             (the stream orders the levels; nothing waits on a flag);
                             0 = one synchronization-free launch over the rows in level
                             order (0; DOMINO_LEVELSET_LAUNCHES=1 in the environment forces 1) */
} domino_trsv_options;
/* defaults: AUTO, not deterministic, no wait bound, one level-set launch */
void domino_trsv_options_init(domino_trsv_options *opt);

typedef struct domino_trsv_plan_s *domino_trsv_plan;
/* workspace bytes the plan needs if the caller provides it */
domino_status domino_trsv_buffer_size(domino_handle h, domino_op op, domino_fill fill,
                                      domino_diag diag, domino_dmatrix dA, int32_t nrhs,
                                      const domino_trsv_options *opt, size_t *bytes);
/* Analysis of op(T) X = B for the fill triangle T of dA: checks the diagonal
 * (a structurally missing one is DOMINO_ZERO_DIAGONAL naming the row) and
 * prepares the engine.  buffer: device memory of domino_trsv_buffer_size
 * bytes owned by the caller, or NULL to let the plan take it from a
 * memory pool of the process (one a device; freed plans' memory is kept for
 * the next, up to DOMINO_POOL_KEEP_MB, default 1024, read once; 0: plain
 * cudaMalloc).  dA must outlive the plan. */
domino_status domino_trsv_analysis(domino_handle h, domino_op op, domino_fill fill,
                                   domino_diag diag, domino_dmatrix dA, int32_t nrhs,
                                   const domino_trsv_options *opt, void *buffer,
                                   domino_trsv_plan *plan);
/* Solve with device blocks B, X (column-major, nrhs columns, leading
 * dimensions ldb, ldx).  A numerically zero pivot (a zero diagonal value,
 * non-unit) is DOMINO_ZERO_PIVOT naming the row, always: the general
 * engines know it from the values (analysis or values update) and return
 * it before launching anything, X untouched; the structured engine finds
 * it while solving.  Asynchronous on the handle's stream unless
 * check_pivot = 1: then the call waits for the solve and reports what the
 * kernels found (a dependency wait beyond max_wait_ms: DOMINO_TIMEOUT
 * naming the row; a kernel error).  A plan carries state from one
 * solve to the next (which of its two flag buffers the one-launch solve
 * uses, the walk trial of AUTO), so its solves must run in the order they
 * were called and must not be captured into a CUDA graph. */
domino_status domino_trsv_solve(domino_handle h, domino_trsv_plan plan, const void *B,
                                int64_t ldb, void *X, int64_t ldx, int check_pivot);
/* the engine a plan runs (what AUTO chose).  AUTO on a small system (at
 * most DOMINO_LEVELBLOCK_AUTO_ROWS rows, one right-hand side, CSR op N or
 * CSC op T, not deterministic) solves with the thread engine while the
 * analysis's copy of the pattern and a host function, queued on a side
 * stream of the handle, decide between it, the structured-grid and the
 * level-block engines; the first solve after that function is done (the
 * eighth at the latest, which waits for it) moves the plan to the engine
 * chosen, and that solve synchronizes the handle's stream.  Until then
 * this says THREAD; it stays THREAD where the choice could not be made or
 * applied (a failed copy, out of memory: the plan solves as it is).  A
 * handle and its plans are used by one host thread at a time. */
domino_engine domino_trsv_plan_engine(domino_trsv_plan plan);
/* wait for that choice and move the plan to its engine now (nothing to do
 * for other plans): for a caller who wants the engine known, or the
 * choice's host work done, before its first solve */
domino_status domino_trsv_plan_settle(domino_handle h, domino_trsv_plan plan);
/* seconds of the analysis as measured by the plan (host wall clock, synchronized) */
double domino_trsv_plan_analysis_seconds(domino_trsv_plan plan);
/* Diagnostics: one solve (as domino_trsv_solve, B and X on the GPU, one
 * right-hand side) of a plan of the thread engine that also records, for
 * each row i, the GPU clock when x_i was published, into the host array
 * ns[0..n) (-1: never published, a bounded wait gave up), and, when
 * start_ns is not NULL, when its warp took it into start_ns[0..n): the
 * block's start for a row walked by one thread, the warp's turn to it for
 * a long row walked by the whole warp (-1: not recorded, rows of the warp
 * sweep).  Both in nanoseconds after the earliest time recorded.
 * DOMINO_NOT_SUPPORTED for the other engines and for nrhs > 1.  The solve
 * runs a kernel of its own (the timed kernel is not slowed); `domino
 * trace` reports from it. */
domino_status domino_trsv_trace(domino_handle h, domino_trsv_plan plan, const void *B, void *X,
                                int64_t *ns, int64_t *start_ns);
void domino_trsv_plan_free(domino_trsv_plan plan);

/* ------------------------------------------- structured-grid GPU solve
 * Triangular solves of stencil matrices on nx*ny*nz grids (natural order, x
 * fastest) with no analysis of the nonzero pattern: the dependencies follow
 * from the grid and the offsets.  Work is split into x-line tasks (fixed y,
 * z) served by warps from z-queues (Chen, Yang, Liu, Ma, J. Software 2023);
 * a line waits on the state of the lines it reads.  Lower solves run the grid
 * forward, upper solves backward. */

/* a stencil triangle on the GPU, in compact form or as a CSR it reads */
typedef struct domino_dstencil_s *domino_dstencil;

/* Copy the coefficients of the fill triangle of S (centre included) to the
 * GPU.  The triangle's offsets must have |dx|, |dy|, |dz| <= 2. */
domino_status domino_dstencil_upload(domino_handle h, const domino_stencil_matrix *S,
                                     domino_fill fill, domino_dstencil *D);
/* Solve with a CSR dA (square, rows sorted) that the caller says holds
 * stencil s on an nx*ny*nz grid in natural order: nothing is copied or
 * analysed (dA must outlive D).  Entries of the other triangle are ignored;
 * every entry of the fill triangle is checked while solving, and one that is
 * not a grid neighbour of s makes the solve fail with DOMINO_BAD_INPUT naming
 * the row, its (x,y,z) and the column.  Absent neighbours count as zeros. */
domino_status domino_dstencil_from_dmatrix(domino_handle h, domino_dmatrix dA, domino_stencil s,
                                           int32_t nx, int32_t ny, int32_t nz, domino_fill fill,
                                           domino_dstencil *D);
void domino_dstencil_free(domino_dstencil D);

typedef enum domino_stencil_variant {
    DOMINO_STENCIL_DOMINO = 0,     /* all of the below, and the in-line recurrence of 32
                                      points solved as a warp scan of affine maps (default;
                                      where it is of second order, as in D3N13 and D3N33,
                                      the autotuner also tries 32 shuffles).  On the compact
                                      form it may take the tiled kernel: a block solves a
                                      tile of up to 16 lines, passing values through shared
                                      memory (domino_dstencil_tile) */
    DOMINO_STENCIL_PARTITION = 1,  /* the paper's task partition alone: a warp solves its line
                                      one equation at a time; per-point ready flags */
    DOMINO_STENCIL_MULTISTAGE = 2, /* + 32 equations of a line at once, one lane each; the
                                      in-line chain passed through shuffles; per-point flags */
    DOMINO_STENCIL_COMPRESSED = 3  /* + one state per line (its last solved x), read with
                                      acquire; coefficients fetched before the waits */
} domino_stencil_variant;
#define DOMINO_STENCIL_VARIANT_COUNT 4
const char *domino_stencil_variant_name(domino_stencil_variant v);

typedef struct domino_stencil_options {
    domino_stencil_variant variant; /* algorithm (DOMINO) */
    int warps_per_queue;            /* D, warps serving one z-queue: 0 = built-in table
                                       (D, and for DOMINO on the compact form the built-in
                                       tile where a line waits on the plane before at y + 1:
                                       D3N19, D3N27, D3N33), -1 = autotune at the first solve
                                       (D values, then tiles; kept in D), > 0 = that D, the
                                       queue kernel.
                                       Experiments: DOMINO_STENCIL_SERIAL=0/1 forces the
                                       recurrence, DOMINO_STENCIL_SLEEP_CAP the longest wait
                                       back-off in ns (512; 32 on a 2D grid),
                                       DOMINO_STENCIL_TUNE_LOG=1 prints each autotuner try,
                                       DOMINO_STENCIL_TILE=UxZ forces the tiled solve with a
                                       U x Z tile ("0": never tiled; unset: the autotuner
                                       decides, else the built-in choice),
                                       DOMINO_STENCIL_TILE_POLL its longest back-off between
                                       reads of another tile's line (32 ns); read when D is
                                       made */
} domino_stencil_options;
void domino_stencil_options_init(domino_stencil_options *opt);

/* Solve T x = b, T the triangle of D, b and x device vectors of n values of
 * D's type (x != b).  Synchronous: returns when x is solved, with
 * DOMINO_BAD_INPUT (CSR entry outside the stencil), DOMINO_ZERO_DIAGONAL (no
 * centre entry, non-unit) or DOMINO_ZERO_PIVOT (zero centre), each naming the
 * row and its (x,y,z).  opt may be NULL (defaults). */
domino_status domino_dstencil_trsv(domino_handle h, domino_dstencil D, domino_diag diag,
                                   const domino_stencil_options *opt, const void *d_b,
                                   void *d_x);
/* warps per queue of the last solve of D (table or autotuned), 0 before any */
int domino_dstencil_warps_per_queue(domino_dstencil D);
/* tile of the last solve of D (DOMINO on the compact form: a block solves
 * *tile_u x *tile_z lines, one warp each, and passes values between them in
 * shared memory); 0 x 0 when it took the queue kernel or before any solve */
void domino_dstencil_tile(domino_dstencil D, int *tile_u, int *tile_z);
/* bytes of the matrix data a solve reads (compact coefficients, or the CSR) */
size_t domino_dstencil_bytes(domino_dstencil D);

#ifdef DOMINO_HAVE_NVSHMEM
/* ------------------------------- multi-GPU structured-grid triangular solve
 * The structured solve (domino_dstencil_trsv, DOMINO variant) spread over
 * the PEs of D by slabs of y: PE q owns the x-lines of a range of y for
 * every z, plus copies of the few lines of its neighbour PEs that its own
 * read (ghost lines).  Each PE runs the single-GPU kernel on its slab; when
 * it solves a value that a neighbour keeps a copy of, it also stores it
 * there, over NVLink, where the value is its own ready flag.  No other
 * communication, no analysis, no barrier inside the solve; the planes move
 * through the PEs as a pipeline.  Needs PEs that address each other's
 * memory (one node); ny at least the PEs times the lines of y the triangle
 * reaches (DOMINO_NOT_SUPPORTED otherwise, naming the most PEs that work). */
typedef struct domino_dist_stencil_s *domino_dist_stencil;

/* Collective: the fill triangle of S (the whole compact stencil matrix,
 * double or float, the same on every PE; see domino_stencil_from_csr) over
 * the PEs of D.  Each PE copies its slab to its GPU. */
domino_status domino_dist_stencil_make(domino_handle h, domino_dist D, const domino_stencil_matrix *S,
                                       domino_fill fill, domino_dist_stencil *T);
/* Collective: solve T x = b, b and x host arrays of all n values of S's
 * type (every PE passes b and receives all of x).  seconds (may be NULL):
 * the solve proper (from the start of the kernels, after the slabs were
 * reset and the PEs met, to the end of the last), the largest over PEs.
 * A zero pivot (non-unit) is DOMINO_ZERO_PIVOT naming the row of the whole
 * grid and its (x,y,z) on the PE that owns it (the others name that PE).
 * A solve whose kernel has not ended after DOMINO_DIST_TIMEOUT_S seconds
 * (60; a PE whose launch failed leaves the others waiting) has its waits
 * ended and fails with DOMINO_TIMEOUT on every PE; T stays usable, unless
 * a kernel did not stop even then (later solves: DOMINO_INVALID_OBJECT;
 * free T, whose device memory is then left to the process's end). */
domino_status domino_dist_stencil_solve(domino_handle h, domino_dist_stencil T, domino_diag diag,
                                        const void *b, void *x, double *seconds);
/* lines of y each PE owns, and the kernel it runs: tile_u x tile_z lines a
 * block (0 x 0: the queue kernel with `warps` warps per queue); any
 * pointer may be NULL */
void domino_dist_stencil_shape(domino_dist_stencil T, int32_t *own_lines, int *tile_u, int *tile_z,
                               int *warps);
/* collective; NULL is accepted */
void domino_dist_stencil_free(domino_dist_stencil T);
#endif

/* ---------------------------------------- GPU incomplete factorizations
 * cuSPARSE style: a plan per sparsity pattern (analysis, pattern only, cheap),
 * then compute as often as the values change.  Double only for now (float
 * dA is DOMINO_NOT_SUPPORTED).  Our kernel is synchronization-free: one
 * launch, a group of 8-32 lanes per row, rows taken from an atomic ticket in
 * level order of the lower triangle (computed once by the analysis), each
 * row waiting only for the factor values it reads, each value published
 * once and its own ready flag (no fences).  The plan keeps a working copy
 * of the values besides the factor (2 x batch x nnz doubles; the cuSPARSE
 * baseline 1 x, and no level order).  The arithmetic is the
 * CPU reference's (domino_ref_ilu0 / domino_ref_ic0): ILU(0) factors equal
 * it bitwise (no fused multiply-add), IC(0) to rounding (the inner products
 * are summed in a different order). */

typedef struct domino_factor_plan_s *domino_factor_plan;

typedef enum domino_factor_kind {
    DOMINO_FACTOR_ILU0 = 0, /* A ~ L U, L unit lower, U upper, A's pattern */
    DOMINO_FACTOR_IC0 = 1   /* A ~ L L^T on tril(A), A symmetric positive definite */
} domino_factor_kind;

typedef struct domino_factor_options {
    double pivot_shift; /* 0: a zero / non-finite pivot (IC0: one not > 0) fails with
                           DOMINO_ZERO_PIVOT naming the row (and the batch index);
                           else the pivot is replaced by pivot_shift (IC0: d := pivot_shift,
                           which must be > 0, L_ii = sqrt(d)), as the CPU reference does */
    int batch;          /* number of matrices of dA's pattern, values back to back (1) */
    int use_cusparse;   /* 1: cuSPARSE csrilu02 / csric02 (the baseline; deprecated in
                           CUDA 12.2+); batches are factored one by one; pivot_shift > 0 is
                           passed to csrilu02_numericBoost (replaces pivots == 0 only) and is
                           not supported for csric02; replaced counts are not known (0) */
} domino_factor_options;
/* defaults: pivot_shift 0, batch 1, use_cusparse 0 */
void domino_factor_options_init(domino_factor_options *opt);

/* Analysis of the factorization `kind` of square CSR dA (double, rows sorted,
 * no duplicates, every diagonal stored; IC0 reads only the lower triangle):
 * diagonal positions, the level order of the rows, for IC0 the pattern of
 * tril(dA); when dA is a generator stencil in natural order (the detector of
 * the triangular solve, then a check of every interior row), the slot
 * tables of the stencil path, and when every row holds exactly its
 * stencil's entries inside the grid and the stencil has no triangles (D2N5,
 * D3N7), the scan path's line order instead of the level order
 * (domino_factor_plan_method).  A missing diagonal is
 * DOMINO_ZERO_DIAGONAL naming the row, an unsorted row or a duplicate
 * DOMINO_BAD_INPUT naming the row.  dA must outlive the plan.  opt may be NULL. */
domino_status domino_factor_analysis(domino_handle h, domino_factor_kind kind, domino_dmatrix dA,
                                     const domino_factor_options *opt, domino_factor_plan *plan);

/* Compute the factor values into the plan's device arrays.  d_values: NULL =
 * dA's current values (batch must be 1), else device memory holding batch *
 * nnz(dA) doubles (matrix b at d_values + b * nnz(dA)), the values of dA's
 * pattern (IC0: of the whole of dA's pattern, only the lower triangle read).
 * Synchronous: a bad pivot (pivot_shift == 0) is DOMINO_ZERO_PIVOT whose
 * message names the first bad row "row R" (and "batch B" when batch > 1, the
 * smallest batch index with a bad pivot).  *replaced (may be NULL): pivots
 * replaced, summed over the batch. */
domino_status domino_factor_compute(domino_handle h, domino_factor_plan plan,
                                    const void *d_values, int64_t *replaced);

/* The factor of matrix `batch_index` as a device matrix aliasing the plan's
 * arrays (no copy), ready for domino_trsv_analysis: ILU0 one CSR matrix LU
 * with dA's pattern, L strictly below the diagonal (unit diagonal implied,
 * solve with DOMINO_LOWER + DOMINO_UNIT) and U on and above (DOMINO_UPPER +
 * DOMINO_NON_UNIT); IC0 the lower-triangular CSR L (solve L with op N,
 * L^T with op T, DOMINO_LOWER + DOMINO_NON_UNIT).  Owned by the plan
 * (domino_dmatrix_free leaves it alone); valid until the plan is freed; its
 * values_version is bumped by every compute, so trsv plans made on it
 * refresh their value-derived data. */
domino_status domino_factor_get(domino_handle h, domino_factor_plan plan, int32_t batch_index,
                                domino_dmatrix *factor);

/* seconds of the analysis and of the last compute (synchronized wall clock) */
double domino_factor_plan_analysis_seconds(domino_factor_plan plan);
double domino_factor_plan_compute_seconds(domino_factor_plan plan);
/* how the plan factors: "cusparse" (the baseline), "stencil-scan" (a
 * stencil without triangles, D2N5 / D3N7, every row exactly its entries
 * inside the grid: only the pivots change, found by a warp scan along grid
 * lines; factors within a few ulps of the CPU reference's, bit for bit with
 * DOMINO_FACTOR_SCAN=serial), "stencil-table" (a
 * generator stencil in natural order: the positions of the entries an
 * update meets come from a table of slots, not from searches),
 * "stencil-lines" (the experimental line path, DOMINO_FACTOR_STENCIL=2),
 * "rows" (the synchronization-free row kernel with searches); "none" for a
 * NULL or freed plan.  A static string. */
const char *domino_factor_plan_method(domino_factor_plan plan);
void domino_factor_plan_free(domino_factor_plan plan);

/* *A = a new host matrix with the pattern and values of device matrix dA
 * (e.g. a factor from domino_factor_get); free with domino_matrix_free */
domino_status domino_dmatrix_download(domino_handle h, domino_dmatrix dA, domino_matrix *A);
/* the level sets (domino_ref_levels, op N) of the fill triangle of square CSR dA, computed
 * on the GPU by the synchronization-free level pass the level-set engine and
 * the factorizations use; returned on the host, freed with
 * domino_levels_free.  Equal to the CPU reference's. */
domino_status domino_dmatrix_levels(domino_handle h, domino_fill fill, domino_dmatrix dA,
                                    domino_levels **levels);

/* ---------------------------------------------------- GPU Krylov solvers */

typedef struct domino_gpu_krylov_options {
    domino_krylov_options krylov; /* as for domino_ref_cg / domino_ref_bicgstab */
    int baseline_cusparse;        /* 1: cuSPARSE csrilu02/csric02 factors and SpSV solves
                                     (engine CUSPARSE), the baseline loop */
    domino_engine engine;         /* engine of the preconditioner's triangular solves when
                                     not baseline (AUTO: LEVELSET from 65536 rows on, else
                                     domino_trsv's AUTO choice) */
    int deterministic;            /* 1: trsv plans asked deterministic, so runs are bitwise
                                     reproducible */
} domino_gpu_krylov_options;
/* defaults: domino_krylov_options_init, baseline 0, engine AUTO, deterministic 0 */
void domino_gpu_krylov_options_init(domino_gpu_krylov_options *opt);

/* where the setup time of a GPU Krylov solve went (seconds, synchronized) */
typedef struct domino_gpu_krylov_times {
    double factor_analysis_seconds; /* domino_factor_analysis (or Jacobi setup) */
    double factor_seconds;          /* domino_factor_compute */
    double trsv_analysis_seconds;   /* the two domino_trsv_analysis */
    double transfer_seconds;        /* b, x up and x down (outside setup and solve) */
    const char *factor_method;      /* domino_factor_plan_method of the factorization, "none"
                                       without one (Jacobi, no preconditioner) */
} domino_gpu_krylov_times;

/* Preconditioned CG on the GPU: the contract of domino_ref_cg (same
 * iteration, history, breakdown and convergence rules), with A a square CSR
 * double device matrix (sorted rows) and b, x HOST arrays of n doubles (x:
 * initial guess in, solution out).  SpMV by cusparseSpMV, vector operations
 * by cuBLAS.  res->setup_seconds = factor analysis + factorization + trsv
 * analyses (or Jacobi setup), res->solve_seconds = the iterations (device
 * synchronized); relative_residual is recomputed on the device at the end.
 * times may be NULL.  Needs nnz(A) < 2^31 (32-bit offsets for cuSPARSE). */
domino_status domino_gpu_cg(domino_handle h, domino_dmatrix A, const double *b, double *x,
                            const domino_gpu_krylov_options *opt, domino_krylov_result *res,
                            domino_gpu_krylov_times *times);

/* Right-preconditioned BiCGSTAB on the GPU: the contract of
 * domino_ref_bicgstab, arguments as domino_gpu_cg. */
domino_status domino_gpu_bicgstab(domino_handle h, domino_dmatrix A, const double *b, double *x,
                                  const domino_gpu_krylov_options *opt,
                                  domino_krylov_result *res, domino_gpu_krylov_times *times);

#ifdef __cplusplus
}
#endif
#endif /* DOMINO_H */
