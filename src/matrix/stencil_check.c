/* stencil_check.c: consistency check of a compact stencil matrix (internal) */
#include "matrix/stencil_internal.h"

/* key of an offset in the linear order: dz, then dy, then dx */
static int offset_key(const int *off) { return (off[2] + 2) * 25 + (off[1] + 2) * 5 + off[0] + 2; }

domino_status domino_stencil_check(domino_handle h, const char *what,
                                   const domino_stencil_matrix *S)
{
    if (!S) return domino_error(h, DOMINO_NULL_POINTER, "%s: S is NULL", what);
    if (S->nx < 1 || S->ny < 1 || S->nz < 1 || stencil_rows(S) > INT32_MAX)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: bad grid %d x %d x %d", what, S->nx,
                            S->ny, S->nz);
    if (S->npoints < 0 || S->npoints > DOMINO_STENCIL_MAX_POINTS)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: npoints = %d not in 0..%d", what,
                            S->npoints, DOMINO_STENCIL_MAX_POINTS);
    if (S->type != DOMINO_FLOAT64 && S->type != DOMINO_FLOAT32)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: bad type %d", what, (int)S->type);
    if (!S->coef) return domino_error(h, DOMINO_NULL_POINTER, "%s: S->coef is NULL", what);
    int previous = -1;
    for (int p = 0; p < S->npoints; p++) {
        const int *off = S->offsets + 3 * p;
        for (int a = 0; a < 3; a++)
            if (off[a] < -2 || off[a] > 2)
                return domino_error(h, DOMINO_INVALID_VALUE,
                                    "%s: offset %d (%d,%d,%d) is beyond 2 on an axis", what, p,
                                    off[0], off[1], off[2]);
        int key = offset_key(off);
        if (key <= previous)
            return domino_error(h, DOMINO_INVALID_VALUE,
                                "%s: offset %d (%d,%d,%d) is not after the one before it", what, p,
                                off[0], off[1], off[2]);
        previous = key;
    }
    return DOMINO_SUCCESS;
}
