/* stencil_internal.h: helpers shared by the compact stencil routines, never public */
#ifndef DOMINO_STENCIL_INTERNAL_H
#define DOMINO_STENCIL_INTERNAL_H

#include "internal.h"

/* sign of an offset in the linear order (dz first, then dy, then dx):
 * -1 lower, 0 centre, +1 upper.  For an offset whose neighbour can lie in
 * the grid this is the sign of its column - row. */
static inline int stencil_offset_sign(const int *off)
{
    int dx = off[0], dy = off[1], dz = off[2];
    int lead = dz != 0 ? dz : (dy != 0 ? dy : dx);
    return (lead > 0) - (lead < 0);
}

/* 1 if offset p of S is in the fill triangle (diagonal included) */
static inline int stencil_offset_in_fill(const domino_stencil_matrix *S, int p, domino_fill fill)
{
    int sign = stencil_offset_sign(S->offsets + 3 * p);
    return fill == DOMINO_LOWER ? sign <= 0 : sign >= 0;
}

/* column - row of offset (dx, dy, dz) on an nx*ny grid layer */
static inline int64_t stencil_offset_delta(const int *off, int32_t nx, int32_t ny)
{
    return (int64_t)off[0] + (int64_t)nx * ((int64_t)off[1] + (int64_t)ny * off[2]);
}

/* 1 if the neighbour at offset off of grid point (x, y, z) is inside the grid
 */
static inline int stencil_inside(const domino_stencil_matrix *S, const int *off, int32_t x,
                                 int32_t y, int32_t z)
{
    int64_t xx = (int64_t)x + off[0], yy = (int64_t)y + off[1], zz = (int64_t)z + off[2];
    return xx >= 0 && xx < S->nx && yy >= 0 && yy < S->ny && zz >= 0 && zz < S->nz;
}

/* number of rows of S */
static inline int64_t stencil_rows(const domino_stencil_matrix *S)
{
    return (int64_t)S->nx * S->ny * S->nz;
}

/* Check S (non-NULL, grid >= 1 and below 2^31 points, 0..33 offsets within
 * 2 per axis in strictly increasing linear order, valid type, coef set);
 * `what` names the caller in the message. */
domino_status domino_stencil_check(domino_handle h, const char *what,
                                   const domino_stencil_matrix *S);

#endif /* DOMINO_STENCIL_INTERNAL_H */
