/* dist_slabs.c: the slabs of a structured-grid solve over PEs (see
 * dist_slabs.h): the split of y, the ghost lines, a PE's local grid, and
 * which of its lines each neighbour copies. */
#include "dist_slabs.h"
#include "internal.h"
#include "matrix/stencil_internal.h"

#include <string.h>

domino_status dist_slabs_make(domino_handle h, const char *what, const domino_stencil_matrix *S,
                              domino_fill fill, int npes, dist_slabs *P)
{
    domino_status s = domino_stencil_check(h, what, S);
    if (s) return s;
    if (!P) return domino_error(h, DOMINO_NULL_POINTER, "%s: the slabs are NULL", what);
    if (fill != DOMINO_LOWER && fill != DOMINO_UPPER)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: fill must be LOWER or UPPER", what);
    if (npes < 1 || npes > DIST_SLABS_MAX_PES)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: %d PEs (1 to %d)", what, npes,
                            DIST_SLABS_MAX_PES);
    memset(P, 0, sizeof(*P));
    P->npes = npes;
    P->nx = S->nx;
    P->ny = S->ny;
    P->nz = S->nz;
    for (int p = 0; p < S->npoints; p++) {
        if (!stencil_offset_in_fill(S, p, fill)) continue;
        int dy = S->offsets[3 * p + 1];
        if (-dy > P->reach_below) P->reach_below = -dy;
        if (dy > P->reach_above) P->reach_above = dy;
    }
    /* a PE's own lines must cover what its neighbours read from it, so that
     * every neighbour line of a line is on its PE or the next one */
    int32_t need = P->reach_below > P->reach_above ? P->reach_below : P->reach_above;
    if (need < 1) need = 1;
    if ((int64_t)need * npes > S->ny) {
        int most = (int)(S->ny / need);
        return domino_error(h, DOMINO_NOT_SUPPORTED,
                            "%s: ny = %d lines of y over %d PEs leaves a PE fewer than the %d its "
                            "neighbours read from it; at most %d PE%s for this grid and triangle",
                            what, S->ny, npes, need, most, most == 1 ? "" : "s");
    }
    int32_t base = S->ny / npes, extra = S->ny % npes;
    for (int q = 0; q < npes; q++) {
        P->y0[q + 1] = P->y0[q] + base + (q < extra ? 1 : 0);
        P->below[q] = q > 0 ? P->reach_below : 0;
        P->above[q] = q < npes - 1 ? P->reach_above : 0;
        P->nyl[q] = P->below[q] + (P->y0[q + 1] - P->y0[q]) + P->above[q];
        P->origin[q] = P->y0[q] - P->below[q];
    }
    return DOMINO_SUCCESS;
}

domino_status dist_slabs_slice(domino_handle h, const char *what, const domino_stencil_matrix *S,
                               const dist_slabs *P, int q, domino_fill fill,
                               domino_stencil_matrix *local)
{
    if (!S || !P || !local || q < 0 || q >= P->npes)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: bad slice request (PE %d)", what, q);
    *local = *S;
    local->ny = P->nyl[q];
    local->coef = NULL;
    local->npoints = 0;
    for (int p = 0; p < S->npoints; p++) /* the triangle's offsets, in their order */
        if (stencil_offset_in_fill(S, p, fill)) {
            memcpy(local->offsets + 3 * local->npoints, S->offsets + 3 * p, 3 * sizeof(int));
            local->npoints++;
        }
    size_t vsize = domino_type_size(S->type);
    size_t N = (size_t)S->nx * S->ny * S->nz, Nl = (size_t)S->nx * P->nyl[q] * S->nz;
    size_t plane = (size_t)S->nx * S->ny, lplane = (size_t)S->nx * P->nyl[q];
    char *coef = domino_malloc((Nl > 0 ? Nl : 1) *
                               (size_t)(local->npoints > 0 ? local->npoints : 1) * vsize);
    if (!coef)
        return domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of host memory (PE %d's slab)", what,
                            q);
    /* the local lines of a plane are consecutive lines of the whole grid's plane */
    int k = 0;
    for (int p = 0; p < S->npoints; p++) {
        if (!stencil_offset_in_fill(S, p, fill)) continue;
        for (int32_t z = 0; z < S->nz; z++)
            memcpy(coef + ((size_t)k * Nl + (size_t)z * lplane) * vsize,
                   (const char *)S->coef +
                       ((size_t)p * N + (size_t)z * plane + (size_t)P->origin[q] * S->nx) * vsize,
                   lplane * vsize);
        k++;
    }
    local->coef = coef;
    return DOMINO_SUCCESS;
}

void dist_slabs_mirror(const dist_slabs *P, int q, int side, dist_slab_mirror *m)
{
    memset(m, 0, sizeof(*m));
    int r = side ? q + 1 : q - 1;
    if (r < 0 || r >= P->npes) return;
    int32_t own = P->y0[q + 1] - P->y0[q];
    /* PE q-1 copies q's lowest reach_above lines (its lines above its own);
     * PE q+1 copies q's highest reach_below lines */
    int32_t count = side ? P->reach_below : P->reach_above;
    if (count == 0) return;
    m->y_lo = side ? P->below[q] + own - count : P->below[q];
    m->y_hi = m->y_lo + count;
    m->ny = P->nyl[r];
    m->dy = P->origin[q] - P->origin[r];
}

void dist_slabs_own(const dist_slabs *P, int q, int upper, int32_t *y_lo, int32_t *y_hi,
                    int32_t *origin)
{
    int32_t own = P->y0[q + 1] - P->y0[q];
    /* lower: local y as it is; upper: local solve y = nyl - 1 - local real y,
     * whole-grid solve y = ny - 1 - global real y */
    *y_lo = upper ? P->above[q] : P->below[q];
    *y_hi = *y_lo + own;
    *origin = upper ? P->ny - P->nyl[q] - P->origin[q] : P->origin[q];
}
