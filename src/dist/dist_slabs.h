/* dist_slabs.h: the slabs of a structured-grid solve spread over PEs
 * (domino_dist_stencil), planned on the host in plain C (unit-tested in CI)
 * and read by the kernels (stencil_trsv.cu, stencil_tile.cu).
 *
 * PE q owns the x-lines of real y in [y0[q], y0[q+1]) for every z.  Its
 * GPU holds a local grid nx x nyl[q] x nz: below its own lines, the
 * `below` lines of y its triangle reads from PE q-1 (ghost lines), above
 * them the `above` lines it reads from PE q+1; global real y is local real
 * y + origin[q].  A ghost line is solved by its owner, which also stores
 * each of its values into the copy (the value is its own flag there, as in
 * the owner's array); nothing else crosses GPUs. */
#ifndef DOMINO_DIST_SLABS_H
#define DOMINO_DIST_SLABS_H

#include "domino.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DIST_SLABS_MAX_PES 32

#ifdef __CUDACC__
#define DIST_SLABS_HD __host__ __device__
#else
#define DIST_SLABS_HD
#endif

/* the slabs of one solve, alike on every PE */
typedef struct dist_slabs {
    int npes;                           /* PEs */
    int32_t nx, ny, nz;                 /* the whole grid */
    int32_t reach_below;                /* lines of smaller y the triangle reads (-min dy) */
    int32_t reach_above;                /* lines of larger y it reads (max dy) */
    int32_t y0[DIST_SLABS_MAX_PES + 1]; /* PE q owns real y in [y0[q], y0[q+1]) */
    int32_t below[DIST_SLABS_MAX_PES];  /* ghost lines under PE q's own (0 on PE 0) */
    int32_t above[DIST_SLABS_MAX_PES];  /* ghost lines over them (0 on the last PE) */
    int32_t nyl[DIST_SLABS_MAX_PES];    /* local ny: below + own + above */
    int32_t origin[DIST_SLABS_MAX_PES]; /* global real y of local real y 0 */
} dist_slabs;

/* One neighbour PE that keeps a copy of some of this PE's lines: its
 * ghost lines.  Filled by dist_slabs_mirror; all zero when there is none. */
typedef struct dist_slab_mirror {
    int32_t y_lo, y_hi; /* this PE's local real y of the lines copied: [y_lo, y_hi) */
    int32_t ny;         /* the neighbour's local ny */
    int32_t dy;         /* the neighbour's local real y of this PE's local real y: y + dy */
} dist_slab_mirror;

/* P := the slabs of the fill triangle of S (offsets of S; its coefficients
 * are not read) over npes PEs: own lines split as evenly as y allows.
 * DOMINO_NOT_SUPPORTED when some PE would own fewer lines than the
 * triangle reaches in y (a line's neighbour two PEs away), naming the
 * largest PE count that works; DOMINO_INVALID_VALUE for npes outside
 * 1..DIST_SLABS_MAX_PES or a fill that is neither LOWER nor UPPER. */
domino_status dist_slabs_make(domino_handle h, const char *what, const domino_stencil_matrix *S,
                              domino_fill fill, int npes, dist_slabs *P);

/* local := PE q's local grid of the fill triangle of S (the offsets of the
 * triangle, centre included, with their coefficients on its nyl[q] lines
 * per plane, ghost lines included), coefficients allocated (domino_malloc;
 * free with domino_free(local->coef)) */
domino_status dist_slabs_slice(domino_handle h, const char *what, const domino_stencil_matrix *S,
                               const dist_slabs *P, int q, domino_fill fill,
                               domino_stencil_matrix *local);

/* The neighbour on `side` (0: PE q-1, 1: PE q+1) of PE q that copies its
 * lines: *m zero (y_lo = y_hi = 0) when there is none or it reads none. */
void dist_slabs_mirror(const dist_slabs *P, int q, int side, dist_slab_mirror *m);

/* PE q's own lines in the solve coordinates of its local grid (an upper
 * solve reflects y): [*y_lo, *y_hi); *origin = the solve-coordinate y, in
 * the whole grid, of local solve-coordinate y 0 */
void dist_slabs_own(const dist_slabs *P, int q, int upper, int32_t *y_lo, int32_t *y_hi,
                    int32_t *origin);

/* the PE that owns real y of the whole grid (host and kernels) */
static inline DIST_SLABS_HD int dist_slabs_owner(const dist_slabs *P, int32_t y)
{
    int q = 0;
    while (q < P->npes - 1 && y >= P->y0[q + 1]) q++;
    return q;
}

/* the row, in PE q's local grid, of point (x, y, z) of the whole grid (real
 * coordinates; y within q's local lines) (host and kernels) */
static inline DIST_SLABS_HD int64_t dist_slabs_local_row(const dist_slabs *P, int q, int32_t x,
                                                         int32_t y, int32_t z)
{
    return (int64_t)x + (int64_t)P->nx * ((int64_t)(y - P->origin[q]) + (int64_t)P->nyl[q] * z);
}

/* the row, in the local grid of a neighbour with mirror m, of local row
 * (x, y, z) (real coordinates) of this PE (host and kernels) */
static inline DIST_SLABS_HD int64_t dist_slab_mirror_row(const dist_slab_mirror *m, int32_t nx,
                                                         int32_t x, int32_t y, int32_t z)
{
    return (int64_t)x + (int64_t)nx * ((int64_t)(y + m->dy) + (int64_t)m->ny * z);
}

#ifdef __cplusplus
}
#endif
#endif
