/* factor_plan.h: the plan of a GPU incomplete factorization and the kernel
 * launchers of factor_ilu0.cu and krylov_vec.cu (internal) */
#ifndef DOMINO_FACTOR_PLAN_H
#define DOMINO_FACTOR_PLAN_H

#include "gpu_internal.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DOMINO_FACTOR_PLAN_MAGIC 0x646f6d696e6f4631ULL

/* device record of one factorization: ticket and error reports */
typedef struct domino_factor_status {
    unsigned long long ticket;   /* next logical row (row-major over rows x batch); line and
                                    scan paths: next (line, batch) */
    unsigned long long replaced; /* pivots replaced */
    unsigned long long walked;   /* scan path: chunks walked lane after lane; box path: values
                                    found pending after their row's pivot */
    long long bad_pivot;         /* smallest b * n + row with a bad pivot, LLONG_MAX if none */
    int32_t missing_diag;        /* smallest row without a diagonal, INT32_MAX if none */
    int32_t unsorted_row;        /* smallest row unsorted or with a duplicate, INT32_MAX if none */
    int32_t stencil_mismatch;    /* smallest interior row off the stencil pattern, INT32_MAX if none */
    int32_t line_mismatch;       /* smallest row off the stencil pattern cut by the grid, INT32_MAX if none */
} domino_factor_status;

/* Entries of the stencil tables: slots of an interior row, slots left of
 * its diagonal (the offsets of a generator stencil are symmetric) */
#define FACTOR_STENCIL_SLOTS DOMINO_STENCIL_MAX_POINTS
#define FACTOR_STENCIL_LOWER (DOMINO_STENCIL_MAX_POINTS / 2)

/* The stencil paths of the factorization (factor_stencil.c).  When the
 * matrix is a generator stencil in natural order (x fastest) and every
 * interior row holds exactly the stencil's entries, entry s of an interior
 * row is its column row + offset[s], and the entry of row k that an update
 * of row i reads (or the entry of row i it meets) is a slot that depends
 * on the slots alone:
 *  - the table path: tables made once replace the row kernel's binary
 *    searches on the rows whose rows k are interior too ("deep" rows);
 *  - when every row, boundary rows too, holds exactly the stencil's
 *    entries that fall inside the grid (the bits of its mask), a warp
 *    factors a grid line (y, z) 32 rows at a time, waiting on the lines it
 *    reads, not on rows: the scan path (factor_scan.cu) for stencils
 *    without triangles, whose factorization changes only the pivots, or
 *    the experimental line path (factor_lines.cu);
 *  - on such rows of the 3x3x3 box (D3N27), the box path (factor_box.cu):
 *    a thread a row, its slots compile-time constants. */
#define FACTOR_STENCIL_LINES 8 /* other lines a line reads, at most */
typedef struct factor_stencil_args {
    int32_t nx, ny, nz;     /* the grid; nx == 0: no stencil path */
    int32_t rad[3];         /* largest |dx|, |dy|, |dz| of the stencil */
    int32_t npoints;        /* offsets of the stencil */
    int32_t width;          /* entries of an interior row of the factor pattern (ILU0 all, IC0 lower + 1) */
    int32_t lower;          /* entries left of the diagonal in an interior row (slot of the diagonal) */
    int32_t line_path;      /* 1: the line path (every row checked), 0: the table path */
    int32_t scan_path;      /* 1: the scan path (every row checked, triangle_free), 0: not */
    int32_t box_path;       /* 1: the box path (every row checked, the 3x3x3 box), 0: not */
    int32_t box_lines;      /* 1: the box path's ILU(0) or IC(0) by grid lines (factor_box_lines_kernel) */
    int32_t triangle_free;  /* 1: no two offsets differ by an offset: no point's neighbours are
                               neighbours of each other, so ILU(0) / IC(0) change only the
                               diagonal (D2N5, D3N7) */
    int32_t same_line;      /* offsets (dx < 0, 0, 0): the last same_line slots left of the
                               diagonal; -1: the line path cannot take the stencil */
    int32_t nlines;         /* other lines (dy, dz) != 0 the lower offsets reach */
    int32_t line_dy[FACTOR_STENCIL_LINES], line_dz[FACTOR_STENCIL_LINES]; /* their (dy, dz) */
    int32_t line_dx[FACTOR_STENCIL_LINES]; /* the largest dx of the offsets on each */
    int64_t offset[FACTOR_STENCIL_SLOTS]; /* column - row of slot s of an interior row, increasing */
    int8_t dxyz[FACTOR_STENCIL_SLOTS][3]; /* dx, dy, dz of slot s */
    int8_t line_of[FACTOR_STENCIL_SLOTS]; /* the other line q of lower slot s, -1 on its own line */
    /* bits s of the offsets that stay inside the grid along axis d for a
     * coordinate of class c (axis_class: c < rad below the low edge's
     * margin, c == rad inside, c > rad within the high edge's margin); a
     * row's mask is the AND over its three axes */
    uint64_t axis_mask[3][5];
    /* ILU0: slot[s1 * width + t] = the slot, in row k = row + offset[s1],
     * of the column of the row's slot t (t > s1), -1 when row k has none;
     * IC0: slot[s1 * lower + s2] = the slot, in the row, of the column of
     * row k's slot s2 (< lower), -1 when the row has none (it is < s1) */
    int8_t slot[FACTOR_STENCIL_LOWER * FACTOR_STENCIL_SLOTS];
    /* ILU0 (line path): target[s1 * npoints + s2] = the slot t of the row
     * whose column is row k's slot s2 (> lower), -1 when the row has none */
    int8_t target[FACTOR_STENCIL_LOWER * FACTOR_STENCIL_SLOTS];
} factor_stencil_args;

/* class of coordinate c on an axis of size n for a stencil of radius r
 * (n > 2 r): c below r, r inside, r + 1 + (c - (n - r)) near the high
 * edge (a macro: host and device code) */
#define DOMINO_FACTOR_AXIS_CLASS(c, n, r) \
    ((c) < (r) ? (int)(c) : (c) >= (n) - (r) ? 2 * (r) - (int)((n) - 1 - (c)) : (r))

#ifdef __CUDACC__
#define DOMINO_FACTOR_HD __host__ __device__
#else
#define DOMINO_FACTOR_HD
#endif

static inline DOMINO_FACTOR_HD int domino_factor_popcount(uint64_t m)
{
#ifdef __CUDA_ARCH__
    return __popcll(m);
#else
    return __builtin_popcountll(m);
#endif
}

/* the bits below bit s (s < 64): the slots before slot s of a mask */
static inline DOMINO_FACTOR_HD uint64_t domino_factor_below(int s) { return (1ULL << s) - 1; }

/* Masks of grid a: the bits of the offsets whose neighbour lies inside the
 * grid (all of them on an interior row), along x at column x, along y and z
 * for the line (y, z), and for the row at (x, y, z) */
static inline DOMINO_FACTOR_HD uint64_t domino_factor_x_mask(const factor_stencil_args *a, int64_t x)
{
    return a->axis_mask[0][DOMINO_FACTOR_AXIS_CLASS(x, a->nx, a->rad[0])];
}
static inline DOMINO_FACTOR_HD uint64_t domino_factor_line_mask(const factor_stencil_args *a,
                                                                int64_t y, int64_t z)
{
    return a->axis_mask[1][DOMINO_FACTOR_AXIS_CLASS(y, a->ny, a->rad[1])] &
           a->axis_mask[2][DOMINO_FACTOR_AXIS_CLASS(z, a->nz, a->rad[2])];
}
static inline DOMINO_FACTOR_HD uint64_t domino_factor_row_mask(const factor_stencil_args *a,
                                                               int64_t x, int64_t y, int64_t z)
{
    return domino_factor_x_mask(a, x) & domino_factor_line_mask(a, y, z);
}

/* 1 if row i of grid a is deep: every row it reads is interior (its
 * stencil neighbours all inside the grid).  32-bit arithmetic (n < 2^31):
 * the factorization kernel asks it of every row. */
static inline DOMINO_FACTOR_HD int domino_factor_stencil_deep(const factor_stencil_args *a,
                                                              int32_t i)
{
    if (a->nx == 0) return 0;
    int32_t x = i % a->nx, r = i / a->nx, y = r % a->ny, z = r / a->ny;
    return x >= 2 * a->rad[0] && x < a->nx - 2 * a->rad[0] && y >= 2 * a->rad[1] &&
           y < a->ny - 2 * a->rad[1] && z >= 2 * a->rad[2] && z < a->nz - 2 * a->rad[2];
}

/* Line path: entries of the rows x' < x of a grid line whose y and z
 * classes leave the offsets myz (axis_mask[1] & axis_mask[2] & the factor's
 * slots): where row x starts, counted from the line's first entry */
static inline DOMINO_FACTOR_HD int64_t domino_factor_row_prefix(const factor_stencil_args *a,
                                                                int64_t x, uint64_t myz)
{
    const int r = a->rad[0];
    int64_t s = 0;
    for (int c = 0; c < r && c < x; c++) s += domino_factor_popcount(a->axis_mask[0][c] & myz);
    if (x > r) s += ((x < a->nx - r ? x : a->nx - r) - r) * domino_factor_popcount(a->axis_mask[0][r] & myz);
    for (int64_t c = a->nx - r; c < x; c++)
        s += domino_factor_popcount(a->axis_mask[0][DOMINO_FACTOR_AXIS_CLASS(c, a->nx, r)] & myz);
    return s;
}

/* The tables of stencil `off` (npoints offsets dx, dy, dz in increasing
 * linear order, domino_stencil_offsets) on grid nx x ny x nz for kind 0
 * (ILU0, the whole pattern) or 1 (IC0, its lower triangle): 1 with *a set,
 * or 0 (a->nx = 0) when the stencil is not symmetric, too large for the
 * tables, or the grid has no deep row. */
int domino_factor_stencil_table(const int *off, int npoints, int32_t nx, int32_t ny, int32_t nz,
                                int kind, factor_stencil_args *a);
struct domino_factor_plan_s {
    uint64_t magic;              /* DOMINO_FACTOR_PLAN_MAGIC while alive */
    domino_factor_kind kind;     /* ILU0 or IC0 */
    domino_dmatrix dA;           /* the caller's matrix, not owned */
    int32_t n;                   /* order */
    int32_t batch;               /* matrices of the pattern */
    int64_t nnz;                 /* entries of the factor pattern (ILU0: dA's, IC0: tril) */
    double pivot_shift;          /* 0: fail on a bad pivot */
    int use_cusparse;            /* csrilu02 / csric02 baseline */
    int64_t *ptr;                /* factor offsets (ILU0: dA->ptr, IC0: owned) */
    int32_t *ind;                /* factor indices (ILU0: dA->ind, IC0: owned) */
    int owns_pattern;            /* 1: ptr, ind are freed with the plan */
    int64_t *diag;               /* position of the diagonal of each row in the factor, n */
    double *val;                 /* factor values, batch * nnz (owned) */
    double *work;                /* the rows' working values, batch * nnz (owned; not with use_cusparse) */
    int32_t *order;              /* the rows' tickets, order_tickets: sorted by (level, row) of the
                                    lower triangle (n), or on a box system by key with -1 padding */
    int64_t order_tickets;       /* entries of order (tickets a matrix) */
    int32_t nlevels;             /* levels of the lower triangle (dependency depth), or keys */
    int lanes;                   /* lanes per row of the factorization kernel (4, 8, 16, 32) */
    factor_stencil_args stencil; /* the stencil path (nx 0: none; factor_stencil.c) */
    int32_t *line_order;         /* line, scan and box-lines paths: the grid lines (y + ny z) by y + w z,
                                    ny * nz */
    int32_t *progress;           /* line path: last x published of each line, ny * nz * batch */
    int32_t *line_epoch;         /* IC(0) by grid lines: the compute each line last started, ny * nz *
                                    batch (0 at the analysis; box_line_start) */
    int32_t epoch;               /* IC(0) by grid lines: the number of the last compute (from 1) */
    double *pivots;              /* scan path: the pivots, n * batch */
    double *padded;              /* line path: the slot-major working copy, width * n * batch */
    domino_factor_status *st;    /* device status record */
    struct domino_dmatrix_s *alias; /* batch device matrices aliasing ptr, ind, val */
    void *cusparse;              /* baseline objects (factor_cusparse.c) */
    double analysis_seconds;     /* wall time of the analysis */
    double compute_seconds;      /* wall time of the last compute */
    int64_t walked;              /* scan path: chunks walked lane after lane in the last compute */
};

/* cuSPARSE baseline (factor_cusparse.c): factor p->val in place, matrix by
 * matrix; *bad_row, *bad_batch the first zero pivot (-1 if none) */
domino_status domino_cusparse_factor(domino_handle h, struct domino_gpu_context *gpu,
                                     struct domino_factor_plan_s *p, int64_t *bad_row,
                                     int32_t *bad_batch);
void domino_cusparse_factor_free(struct domino_factor_plan_s *p);

/* ---- factor_ilu0.cu, asynchronous on stream ---- */

cudaError_t domino_launch_factor_status_reset(cudaStream_t stream, domino_factor_status *st);
/* thread per row of CSR (ptr, ind): diag[i] = position of (i,i); missing
 * diagonals and unsorted / duplicate rows reported in st; count (may be
 * NULL) gets the entries of row i with column <= i */
cudaError_t domino_launch_factor_pattern(cudaStream_t stream, int32_t n, const int64_t *ptr,
                                         const int32_t *ind, int64_t *diag, int64_t *count,
                                         domino_factor_status *st);
/* exclusive sum of n+1 int64 (scratch of domino_scan_scratch_bytes(n)) */
cudaError_t domino_launch_scan_i64(cudaStream_t stream, int32_t n, const int64_t *in, int64_t *out,
                                   void *tmp, size_t tmp_bytes);
/* tril pattern: indL rows = the prefix of each row of (ptr, ind) up to the
 * diagonal; diagL[i] = ptrL[i+1] - 1 */
cudaError_t domino_launch_tril_fill(cudaStream_t stream, int32_t n, const int64_t *ptr,
                                    const int32_t *ind, const int64_t *ptrL, int32_t *indL,
                                    int64_t *diagL);
/* valL[b][ptrL[i] + t] = valA[b][ptr[i] + t], t < row length of L */
cudaError_t domino_launch_tril_gather(cudaStream_t stream, int32_t n, int32_t batch,
                                      const int64_t *ptr, int64_t nnzA, const double *valA,
                                      const int64_t *ptrL, int64_t nnzL, double *valL);
/* st->stencil_mismatch := the smallest interior row of grid a whose
 * entries in (ptr, ind) are not exactly row + a->offset[0, a->width);
 * st->line_mismatch := the smallest row (boundary rows too) whose entries
 * are not exactly those of the bits of its mask below width */
cudaError_t domino_launch_factor_stencil_check(cudaStream_t stream, const int64_t *ptr,
                                               const int32_t *ind, const factor_stencil_args *a,
                                               domino_factor_status *st);
/* the stencil path of plan p (analysis, factor_stencil.c): p->stencil set
 * when p's pattern is a generator stencil, else left empty (nx 0) */
domino_status domino_factor_stencil_setup(domino_handle h, struct domino_gpu_context *gpu,
                                          struct domino_factor_plan_s *p, const char *fn);
/* ---- factor_lines.cu: the line path ---- */

/* the line-path factorization (kind 0 ILU0 on A's pattern, ptr == ptrA; 1
 * IC0 on the lower triangle ptr) from A's values into val, batch matrices,
 * through padded (width * n * batch doubles: the slot-major working copy);
 * lines ticketed in line_order; progress all -1 and st reset on entry;
 * as many blocks as num_sms multiprocessors hold at once */
cudaError_t domino_launch_factor_lines(cudaStream_t stream, int kind, int num_sms,
                                       const factor_stencil_args *a, int32_t batch,
                                       const int64_t *ptrA, int64_t nnzA, const double *valA,
                                       const int64_t *ptr, int64_t nnz, double *val, double *padded,
                                       const int32_t *line_order, int32_t *progress,
                                       double pivot_shift, domino_factor_status *st);

/* ---- factor_scan.cu: the scan path ---- */

#define FACTOR_SCAN_OTHER 2 /* lower offsets on other lines the scan path takes, at most */
/* the scan-path factorization (a->triangle_free; kind 0 ILU0 on A's
 * pattern, ptr == ptrA; 1 IC0 on the lower triangle ptr) from A's values
 * into val, batch matrices; lines ticketed in line_order; pivots (batch *
 * n) all pending and st reset on entry; serial: every chunk walked lane
 * after lane (the CPU's factors bit for bit); as many blocks as num_sms
 * multiprocessors hold at once */
cudaError_t domino_launch_factor_scan(cudaStream_t stream, int kind, int num_sms,
                                      const factor_stencil_args *a, int32_t batch,
                                      const int64_t *ptrA, int64_t nnzA, const double *valA,
                                      const int64_t *ptr, int64_t nnz, double *val,
                                      const int32_t *line_order, double *pivots,
                                      double pivot_shift, int serial, domino_factor_status *st);

/* ---- factor_box.cu: the box path ---- */

/* The 3x3x3 box (D3N27): slot s is (dx, dy, dz) in [-1, 1]^3, x fastest,
 * the diagonal slot 13.  Its tables as functions, which the box kernel
 * unrolls into constants (test_factor_stencil_table checks them against
 * domino_factor_stencil_table's). */
#define DOMINO_FACTOR_BOX_LOWER 13
static inline DOMINO_FACTOR_HD int domino_factor_box_dx(int s) { return s % 3 - 1; }
static inline DOMINO_FACTOR_HD int domino_factor_box_dy(int s) { return s / 3 % 3 - 1; }
static inline DOMINO_FACTOR_HD int domino_factor_box_dz(int s) { return s / 9 - 1; }
/* the slot of offset (dx, dy, dz), -1 outside the box */
static inline DOMINO_FACTOR_HD int domino_factor_box_index(int dx, int dy, int dz)
{
    return (dx < -1 || dx > 1 || dy < -1 || dy > 1 || dz < -1 || dz > 1) ? -1
                                                                       : (dz + 1) * 9 + (dy + 1) * 3 + dx + 1;
}
/* ILU(0) (slot[s * 27 + t]): the slot of row k = i + offset(s) that holds
 * the column of row i's slot t > s, -1 unless right of k's diagonal */
static inline DOMINO_FACTOR_HD int domino_factor_box_ilu_slot(int s, int t)
{
    int q = domino_factor_box_index(domino_factor_box_dx(t) - domino_factor_box_dx(s),
                                    domino_factor_box_dy(t) - domino_factor_box_dy(s),
                                    domino_factor_box_dz(t) - domino_factor_box_dz(s));
    return t > s && q > DOMINO_FACTOR_BOX_LOWER ? q : -1;
}
/* IC(0) (slot[s * 13 + s2]): the slot of row i that holds the column of
 * row k's slot s2 < 13 (k = i + offset(s)), -1 unless left of slot s */
static inline DOMINO_FACTOR_HD int domino_factor_box_ic_slot(int s, int s2)
{
    int q = domino_factor_box_index(domino_factor_box_dx(s) + domino_factor_box_dx(s2),
                                    domino_factor_box_dy(s) + domino_factor_box_dy(s2),
                                    domino_factor_box_dz(s) + domino_factor_box_dz(s2));
    return q >= 0 && q < s ? q : -1;
}
/* 1 if stencil a (domino_factor_stencil_table's) is the box, its slots in
 * the order above, on a grid of fewer than 2^31 points whose planes hold
 * fewer than 2^31 / 27 (factor_stencil_table.c) */
int domino_factor_box_fits(const factor_stencil_args *a);
/* the box-path factorization (a box stencil, every row exactly its entries
 * inside the grid; kind 0 ILU0 on A's pattern, ptr == ptrA; 1 IC0 on the
 * lower triangle ptr) from A's values into val, batch matrices; a thread
 * per row, tickets t of matrix t / tickets the rows order[t % tickets] (-1:
 * none; nlevels keys: the grid keeps a few keys' rows in flight); val all
 * pending and st reset on entry; waits back off up to cap ns */
cudaError_t domino_launch_factor_box(cudaStream_t stream, int kind, int num_sms, int32_t nlevels,
                                     const factor_stencil_args *a, int64_t tickets,
                                     int32_t batch, const int32_t *order, const int64_t *ptrA,
                                     int64_t nnzA, const double *valA, const int64_t *ptr,
                                     int64_t nnz, double *val, double pivot_shift, int cap,
                                     domino_factor_status *st);

/* factor_box_lines.cu: the box path's ILU(0) (kind 0, ptr == ptrA) or
 * IC(0) (kind 1, the lower triangle ptr) by grid lines (from A's values
 * into val, batch matrices): a warp a line,
 * lines ticketed in line_order (by y + 2 z), the in-line pivots scanned
 * (walk: walked lane after lane, the CPU's factors bit for bit); st reset
 * on entry; ILU(0): val all pending on entry; IC(0): each line makes its
 * own values pending (no pass over val before the launch), then raises its
 * word of line_epoch (ny * nz * batch, every word below epoch on entry) to
 * epoch; waits back off up to cap ns */
cudaError_t domino_launch_factor_box_lines(cudaStream_t stream, int kind, int num_sms, const factor_stencil_args *a,
                                           int32_t batch, const int32_t *line_order, const int64_t *ptrA,
                                           int64_t nnzA, const double *valA, const int64_t *ptr, int64_t nnz,
                                           double *val, double pivot_shift, int cap, int walk,
                                           int32_t *line_epoch, int32_t epoch, domino_factor_status *st);
/* DOMINO_FACTOR_LINES_TRACE: wait for stream, then write to file a CSV
 * line for every chunk of factor_box_lines_kernel's device trace (lines x
 * batch x chunks records of fields words; line_order on the device; warps
 * the grid's); 0 or the CUDA error (a file that cannot be written is said
 * on stderr) */
cudaError_t domino_factor_lines_trace_write(const char *file, cudaStream_t stream,
                                            const unsigned long long *trace, int32_t chunks, int fields,
                                            const factor_stencil_args *a, int32_t batch,
                                            const int32_t *line_order, int warps);
/* rows of the grid nx x ny x nz whose key x + 2 y + 4 z is key */
int64_t domino_factor_box_key_rows(int64_t key, int32_t nx, int32_t ny, int32_t nz);
/* the box path's tickets: order[start[key] + rank] = each row of the grid,
 * rank its place among the rows of its key (start on the device, from
 * domino_factor_box_key_rows, padded as the caller likes) */
cudaError_t domino_launch_factor_box_order(cudaStream_t stream, int32_t nx, int32_t ny, int32_t nz,
                                           const int64_t *start, int32_t *order);
/* the back-off cap of the row and box kernels' waits, ns (FACTOR_SLEEP_CAP
 * in factor_ilu0.cu, or DOMINO_FACTOR_POLL) */
int domino_factor_poll_cap(void);
/* val[0, count) := the pending sentinel */
cudaError_t domino_launch_factor_pending(cudaStream_t stream, int64_t count, double *val);
/* the row kernel's set-up in one launch: work := A's values (ic0: its
 * lower triangle, ptr the factor's pattern), val := pending, st reset */
cudaError_t domino_launch_factor_prepare(cudaStream_t stream, int ic0, int32_t n, int32_t batch,
                                         const int64_t *ptrA, int64_t nnzA, const double *valA,
                                         const int64_t *ptr, int64_t nnz, double *work, double *val,
                                         domino_factor_status *st);
/* the synchronization-free factorization: kind 0 ILU0 on (ptr, ind, diag),
 * kind 1 IC0 on the tril pattern; the rows' initial values in work (batch *
 * nnz, overwritten), the factor into val (batch * nnz, all pending on entry:
 * each value is published once, final, and is its own ready flag); rows
 * taken in the given order of tickets entries (a topological order of the
 * lower triangle: rows sorted by level, or by key with -1 padding); st reset; lanes per row 4, 8, 16 or 32 (anything else:
 * 32); deep rows of stencil (nx 0: none) take their positions from its
 * tables */
cudaError_t domino_launch_factor(cudaStream_t stream, int kind, int32_t n, int32_t batch,
                                 const int64_t *ptr, const int32_t *ind, const int64_t *diag,
                                 const int32_t *order, int64_t tickets, int64_t nnz, double *work, double *val,
                                 double pivot_shift, domino_factor_status *st, int lanes,
                                 const factor_stencil_args *stencil);

/* ---- krylov_vec.cu ---- */

/* val[k] *= factor for every diagonal entry (k in row i, ind[k] == i) */
cudaError_t domino_launch_scale_diagonal(cudaStream_t stream, int32_t n, const int64_t *ptr,
                                         const int32_t *ind, double *val, double factor);
/* inv_diag[i] = 1 / (sum of the diagonal entries of row i); *bad_row: the
 * smallest row whose diagonal is missing or zero (set INT32_MAX first) */
cudaError_t domino_launch_inverse_diagonal(cudaStream_t stream, int32_t n, const int64_t *ptr,
                                           const int32_t *ind, const double *val,
                                           double *inv_diag, int32_t *bad_row);
/* z = d .* r */
cudaError_t domino_launch_vmul(cudaStream_t stream, int32_t n, const double *d, const double *r,
                               double *z);
/* y = x + beta y */
cudaError_t domino_launch_xpby(cudaStream_t stream, int32_t n, const double *x, double beta,
                               double *y);
/* p = r + beta (p - omega v) */
cudaError_t domino_launch_bicgstab_p(cudaStream_t stream, int32_t n, const double *r, double beta,
                                     double omega, const double *v, double *p);
/* z = x - alpha y */
cudaError_t domino_launch_xmay(cudaStream_t stream, int32_t n, const double *x, double alpha,
                               const double *y, double *z);

#ifdef __cplusplus
}
#endif
#endif
