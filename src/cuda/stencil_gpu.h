/* stencil_gpu.h: the structured-grid GPU solve (internal): the kernel's view
 * of a stencil triangle and the device stencil object.
 *
 * Coordinates.  An upper solve is a lower solve of the grid reflected through
 * its centre: row i becomes N-1-i, point (x,y,z) becomes
 * (nx-1-x, ny-1-y, nz-1-z), offsets change sign.  The kernels work in these
 * "solve coordinates", where every offset of the triangle precedes the centre
 * (delta < 0), and map rows back with row = upper ? N-1-r : r. */
#ifndef DOMINO_STENCIL_GPU_H
#define DOMINO_STENCIL_GPU_H

#include "gpu_internal.h"
#include "dist/dist_slabs.h"

#ifdef __cplusplus
extern "C" {
#endif

#define STENCIL_MAX_OFF 16  /* off-line offsets of one triangle (D3N33 has 14) */
#define STENCIL_MAX_LOW 17  /* offsets of one triangle, centre included */
#define STENCIL_MAX_WAIT 8  /* distinct neighbour lines of one triangle (D3N33 has 6) */
#define STENCIL_TILE_MAX_WARPS 16 /* lines of a tile of the tiled solve (a warp each) */
/* lines of a tile with W neighbour lines: 8 for 6 lines, which then have
 * up to 255 registers a thread instead of 128 (the compact form's kernel;
 * the CSR one is capped at 168, stencil_tile_csr_kernel) */
#define STENCIL_TILE_WARPS(W) ((W) > 4 ? 8 : 16)
#define STENCIL_TILE_MAX_LINES 6  /* neighbour lines the tiled solve takes (D3N33's 6) */

/* kind of an offset of the triangle, in solve coordinates */
#define STENCIL_CENTRE 0 /* (0,0,0) */
#define STENCIL_M1 1     /* (-1,0,0): the in-line recurrence */
#define STENCIL_M2 2     /* (-2,0,0): second order in-line recurrence */
#define STENCIL_OFF 3    /* another line: off-line offset number kind-3 */

/* One offset of a CSR row read by offset (csr_entry, stencil_device.cuh),
 * made with the offset tables (set_low_roles) */
typedef struct stencil_csr_slot {
    uint32_t bit;   /* 1 << q, q the offset's index into low*; 0: no offset (reads nothing) */
    uint32_t below; /* (1 << q) - 1: the offsets walked before it (bit - 1, stored so that
                       csr_entry derives nothing per entry) */
    int32_t delta;  /* its column less the row, real rows (lowd[q], negated upper) */
} stencil_csr_slot;

/* everything a stencil kernel reads, passed by value */
typedef struct stencil_kernel_args {
    int32_t nx, ny, nz;          /* grid */
    int64_t n;                   /* rows, nx*ny*nz */
    int upper;                   /* 1: rows are reflected (backward solve) */
    int unit;                    /* 1: unit diagonal (centre coefficients ignored) */
    int order;                   /* 0, 1 or 2: in-line offsets present (M1, M1+M2) */
    int noff;                    /* off-line offsets */
    int offx[STENCIL_MAX_OFF];   /* dx of off-line offset k (solve coordinates) */
    int offy[STENCIL_MAX_OFF];   /* dy */
    int offz[STENCIL_MAX_OFF];   /* dz */
    int64_t offd[STENCIL_MAX_OFF]; /* row delta of off-line offset k (< 0) */
    int shift_y, shift_z;        /* chunk stagger per line: (shift_y y + shift_z z) mod 32 */
    int nwait;                   /* neighbour lines a line waits on */
    int waity[STENCIL_MAX_WAIT]; /* dy of neighbour line w */
    int waitz[STENCIL_MAX_WAIT]; /* dz */
    int waitx[STENCIL_MAX_WAIT]; /* largest dx read from it */
    int waitoff[STENCIL_MAX_WAIT][3]; /* off-line offset k read from line w at dx = -1, 0, 1
                                    (-1: none) */
    int line_window;             /* 1: every off-line offset has |dx| <= 1 */
    int nlow;                    /* offsets of the triangle for the CSR walk, centre last */
    int64_t lowd[STENCIL_MAX_LOW]; /* their row deltas, increasing */
    int lowx[STENCIL_MAX_LOW];   /* dx */
    int lowy[STENCIL_MAX_LOW];   /* dy */
    int lowz[STENCIL_MAX_LOW];   /* dz */
    int lowkind[STENCIL_MAX_LOW];/* STENCIL_CENTRE, _M1, _M2 or STENCIL_OFF + k */
    /* the same offsets by role, index q into low* (-1: none): on the host,
     * whence the slots below (set_low_roles) */
    int low_centre, low_m1, low_m2; /* the centre, the in-line dx = -1 and -2 */
    int low_wait[STENCIL_MAX_WAIT][3]; /* the off-line offset of line w at dx = d - 1 */
    int off_low[STENCIL_MAX_OFF]; /* the offset of off-line offset k */
    /* the same as slots of csr_entry, indexed by role at compile time */
    stencil_csr_slot csr_centre, csr_m1, csr_m2;    /* in-line offsets */
    stencil_csr_slot csr_wait[STENCIL_MAX_WAIT][3]; /* tile kernel: line w at dx = d - 1 */
    stencil_csr_slot csr_off[STENCIL_MAX_LOW];      /* queue kernel (FORM_CSR): off-line k
                                                       (K slots, up to STENCIL_MAX_LOW, read;
                                                       those past noff are empty) */
    stencil_csr_slot csr_low[STENCIL_MAX_LOW];      /* queue kernel (FORM_CSR_WALK): offset q */
    uint32_t low_dx[5];          /* bits q of the offsets with lowx[q] = i - 2 (low_inside) */
    /* compact form: coefficient slots of N values each, indexed by (real) row;
     * slot 0 centre, 1 M1, 2 M2, 3+k off-line k; NULL when absent */
    const void *coef;            /* slots back to back, or NULL for the CSR form */
    /* CSR form */
    const int64_t *ptr;          /* row offsets */
    const int32_t *ind;          /* column indices */
    const void *val;             /* values */
    int64_t nnz;                 /* entries of the CSR */
    /* scheduling and state */
    int warps_per_queue;         /* D */
    int tile_u, tile_z;          /* TILE kernel: a block solves a tile of tile_u x tile_z lines
                                    in (u, z), u = y + tile_skew z; 0 = the queue kernel */
    int tile_skew;               /* smallest skew with every neighbour line at du <= 0 */
    int tile_poll_cap;           /* longest back-off between reads of another tile's line, ns */
    const int32_t *tile_order;   /* the tiles to solve in ticket order, tu * tiles_z + tz */
    int32_t tile_count;          /* entries of tile_order */
    int serial;                  /* DOMINO: 1 = the in-line recurrence by 32 shuffles, 0 = scan */
    int sleep_cap;               /* longest back-off of a wait on values polled by every lane
                                    (or on line states), ns: from 32, doubling */
    /* a slab of a solve over PEs (domino_dist_stencil; alone: 0, ny, 0, no mirrors) */
    int32_t y_lo, y_hi;          /* the lines solved here: y_lo <= y < y_hi (solve coordinates);
                                    the others are ghost lines, solved by a neighbour PE */
    int32_t y_origin;            /* solve-coordinate y, in the whole grid, of local y 0 (the
                                    chunk stagger follows the whole grid's y) */
    void *mirror_x[2];           /* the neighbours' solution arrays as this GPU addresses them
                                    (PE below, PE above), NULL: none */
    dist_slab_mirror mirror[2];  /* which lines each copies, and where */
    int slab;                    /* 1: a slab of the solve over PEs: the kernel instances that
                                    also store the mirrors (and nothing more: a wait on another
                                    PE ends when its values land, or when the host writes over
                                    the ghost lines after a timeout) */
    int csr_walk;                /* CSR form, queue kernel: 1 = the instance that walks each row
                                    (duplicates summed, bad entries named), set once a solve met a
                                    row that is not exactly its stencil neighbours in order;
                                    0 = the one that reads rows by offset and marks such a row */
    int32_t *line_state;         /* ny*nz: last solved x of each line, -1 at start */
    int32_t *queue_next;         /* nz: next y of each z-queue */
    domino_solve_status *st;     /* ticket = queue tickets; missing_diag, zero_pivot;
                                    timeout_row = smallest row with a bad CSR entry */
} stencil_kernel_args;

/* a stencil triangle on the GPU */
struct domino_dstencil_s {
    uint64_t magic;              /* DOMINO_DSTENCIL_MAGIC while alive */
    domino_type type;            /* value type */
    domino_fill fill;            /* which triangle */
    domino_stencil stencil;      /* CSR form: the stencil the caller named */
    int compact;                 /* 1: coefficients below; 0: CSR of dA */
    domino_dmatrix dA;           /* CSR form: the caller's matrix, not owned */
    domino_dmatrix dA_t;         /* transposed form: the matrix holding the transpose of
                                    the triangle, not owned (compact copy only) */
    void *coef;                  /* compact form: owned coefficient slots */
    size_t matrix_bytes;         /* bytes of matrix data a solve reads */
    stencil_kernel_args args;    /* the kernel's view (state pointers filled per solve) */
    int32_t *state;              /* owned: line states (ny*nz) then queue counters (nz) */
    domino_solve_status *st;     /* owned device status */
    int warps_per_queue;         /* D of the last solve, 0 before any */
    int tuned[4];                /* per variant: D found by the autotuner, 0 = not tuned */
    int tuned_serial[4];         /* per variant: the recurrence the autotuner kept (args.serial) */
    int serial_forced;           /* DOMINO_STENCIL_SERIAL: 0 or 1 forces args.serial, -1 unset */
    int tile_u, tile_z;          /* tile of the last solve (0 x 0: the queue kernel) */
    int tuned_tile[2];           /* DOMINO: the tile the autotuner kept (0 x 0: queue kernel) */
    int32_t *tile_order;         /* owned: the ticket order of tile_order_shape's tiles */
    int tile_order_shape[2];     /* the tile it was made for, 0 x 0: none yet */
    int32_t tile_order_count;    /* its entries */
    int tile_order_blocks;       /* blocks of that tile's kernel resident on the device */
    int tile_forced[2];          /* DOMINO_STENCIL_TILE=UxZ forces that tile, "0" the queue
                                    kernel; -1 x -1 unset */
    int tune_log;                /* DOMINO_STENCIL_TUNE_LOG: 1 = the autotuner prints each try */
    int csr_irregular;           /* 1: a solve of this CSR triangle (tiled, or the queue kernel
                                    reading by offset) met a row that is not exactly its stencil
                                    neighbours in order (duplicates, say): the queue kernel's
                                    walking instance from then on (args.csr_walk) */
};
#define DOMINO_DSTENCIL_MAGIC 0x646f6d696e6f5331ULL

/* Fill the offset tables of A from the offsets (dx,dy,dz triples) of a
 * stencil, keeping those of `fill` (centre included); slot_of[p] receives
 * the compact slot of point p (-1 when not in the triangle).  Also the
 * chunk stagger.  Fails with DOMINO_NOT_SUPPORTED (too many offsets, |d| > 2). */
domino_status domino_stencil_args_offsets(domino_handle h, const int *offsets, int npoints,
                                          domino_fill fill, stencil_kernel_args *A,
                                          int *slot_of);

/* Launch one solve of the given variant with `blocks` blocks of 128 threads
 * (of 32 tile_u tile_z threads when A->tile_u > 0: the tiled kernel),
 * after a launch that resets what it starts from: line states, queue
 * counters, st, and x (the pending sentinel) when the variant needs
 * per-point flags.  The two launches are also apart (the slab solve over
 * PEs meets the other PEs between them). */
cudaError_t domino_launch_stencil_trsv(cudaStream_t stream, domino_type type,
                                       const stencil_kernel_args *A, int variant, int blocks,
                                       const void *b, void *x);
cudaError_t domino_launch_stencil_reset(cudaStream_t stream, domino_type type,
                                        const stencil_kernel_args *A, int variant, void *x);
cudaError_t domino_launch_stencil_solve(cudaStream_t stream, domino_type type,
                                        const stencil_kernel_args *A, int variant, int blocks,
                                        const void *b, void *x);

/* The slab solve over PEs (domino_dist_stencil): A (D's arguments with its
 * own lines and mirrors set) gets the DOMINO variant's built-in warps per
 * queue and tile for its own lines, and its tile order; *blocks the grid. */
domino_status domino_dstencil_slab_shape(domino_handle h, domino_dstencil D, stencil_kernel_args *A,
                                         int *blocks);

/* full (n values of the whole grid, device) := every PE's own lines of the
 * slabs P, read from x[q] (PE q's local solution as this GPU addresses it) */
cudaError_t domino_launch_stencil_slab_gather(cudaStream_t stream, domino_type type,
                                              const dist_slabs *P, void *const *x, void *full);
/* check every entry of the CSR form of A (st->timeout_row: smallest bad row) */
cudaError_t domino_launch_stencil_validate(cudaStream_t stream, const stencil_kernel_args *A);

/* coef (zeroed, 3 + noff slots of n values) := the compact form of the CSR
 * triangle of A (validated before) */
cudaError_t domino_launch_stencil_compact(cudaStream_t stream, domino_type type,
                                          const stencil_kernel_args *A, void *coef);

/* coef (zeroed) := the compact form of A's triangle from src, the CSR of
 * its transpose (validated before) */
cudaError_t domino_launch_stencil_compact_transposed(cudaStream_t stream, domino_type type,
                                                    const stencil_kernel_args *A,
                                                    const int64_t *ptr, const int32_t *ind,
                                                    const void *val, void *coef);

/* The transposed stencil object of the trsv STENCIL engine's op T solves:
 * the fill triangle of the system whose transpose dA holds (dA's other
 * triangle is a stencil on the grid, checked before); only the compact
 * form, made by domino_dstencil_make_compact from dA's arrays directly. */
domino_status domino_dstencil_from_dmatrix_transposed(domino_handle h, domino_dmatrix dA,
                                                      domino_stencil st, int32_t nx, int32_t ny,
                                                      int32_t nz, domino_fill fill,
                                                      domino_dstencil *out);

/* For the trsv STENCIL engine: D (made by domino_dstencil_from_dmatrix or
 * _transposed) keeps a compact copy of its triangle and solves from it (and
 * the first solve's shape is made with it, domino_dstencil_prepare; where
 * make_compact fails, the caller frees D); refresh copies the values of dA
 * again (after domino_dmatrix_update_values). */
domino_status domino_dstencil_make_compact(domino_handle h, domino_dstencil D);
domino_status domino_dstencil_refresh(domino_handle h, domino_dstencil D);
/* what the first solve with the default options makes on the host (the
 * tiled kernel's ticket order, the kernel's residency), made ahead */
domino_status domino_dstencil_prepare(domino_handle h, domino_dstencil D);

/* Is the fill triangle of the CSR dA one of the generator stencils on some
 * grid?  A sampled interior row proposes the stencil and the grid, a kernel
 * checks every entry.  hptr/hind: dA's pattern already on the host (the
 * samples are read there), or NULL (they are downloaded).  *found 0
 * (nothing else set) or 1 with *st, *nx, *ny, *nz.  Errors only for CUDA
 * failures. */
domino_status domino_stencil_detect(domino_handle h, domino_dmatrix dA, domino_fill fill,
                                    const int64_t *hptr, const int32_t *hind, domino_stencil *st,
                                    int32_t *nx, int32_t *ny, int32_t *nz, int *found);

/* The detection in two steps, for a pattern already on the host: the grids
 * that a sampled row of (hptr, hind) proposes (host work only, no handle:
 * at most DOMINO_STENCIL_CANDIDATES written to cand, their count returned),
 * then the kernel's verdict on them in turn (as domino_stencil_detect). */
#define DOMINO_STENCIL_CANDIDATES 4
typedef struct domino_stencil_candidate {
    domino_stencil stencil;      /* the stencil proposed */
    int32_t nx, ny, nz;          /* on this grid */
} domino_stencil_candidate;
int domino_stencil_candidates(const domino_dmatrix dA, domino_fill fill, const int64_t *hptr,
                              const int32_t *hind, domino_stencil_candidate *cand);
domino_status domino_stencil_verify(domino_handle h, domino_dmatrix dA, domino_fill fill,
                                    const domino_stencil_candidate *cand, int ncand,
                                    domino_stencil *st, int32_t *nx, int32_t *ny, int32_t *nz,
                                    int *found);

/* The tiled solve (DOMINO on the compact form, A->tile_u x A->tile_z lines a
 * block; domino_launch_stencil_trsv launches it when A->tile_u > 0): blocks
 * resident on the device, tiles of the grid, shared memory a block needs,
 * and the launch (after the reset). */
cudaError_t domino_stencil_tile_resident(domino_type type, const stencil_kernel_args *A, int num_sms,
                                         int *blocks);
size_t domino_stencil_tile_smem(domino_type type, const stencil_kernel_args *A);
cudaError_t domino_launch_stencil_tile(cudaStream_t stream, domino_type type,
                                       const stencil_kernel_args *A, int blocks, const void *b,
                                       void *x);

/* A->tile_order, A->tile_count := D's ticket order of A's tile, and
 * D->tile_order_blocks its kernel's resident blocks (made at the first
 * solve with that tile, or ahead by domino_dstencil_prepare; errors named
 * after fn, the caller): the tiles that hold a line of the grid, by u0 + z0
 * of their first line (about when the wavefront reaches them), then z0.
 * Every neighbour line lies in a tile of smaller u0 + z0 or in the same
 * tile, so a tile only waits on tiles ticketed before it. */
domino_status domino_dstencil_tile_order(domino_handle h, const char *fn, domino_dstencil D,
                                         stencil_kernel_args *A);
/* the tiles of the grid along u and z for A's tile (tile tu * tiles_z + tz) */
void domino_stencil_tile_grid(const stencil_kernel_args *A, int64_t *tiles_u, int64_t *tiles_z);
/* the host part of the order: order[] (room for tiles_u x tiles_z) := the
 * ticket order of A's tile; returns the count, -1 when out of memory, -2
 * when the tiles do not fit int32 */
int64_t domino_stencil_tile_order_fill(const stencil_kernel_args *A, int32_t *order);

/* blocks of 128 threads of the variant's queue kernel resident on the device */
cudaError_t domino_stencil_resident_blocks(domino_type type, const stencil_kernel_args *A,
                                           int variant, int num_sms, int *blocks);

#ifdef __cplusplus
}
#endif
#endif
