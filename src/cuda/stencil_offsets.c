/* stencil_offsets.c: the offset tables of a stencil triangle in solve
 * coordinates (see stencil_gpu.h), for the structured-grid kernels */
#include "stencil_gpu.h"
#include "matrix/stencil_internal.h"

#include <stdlib.h>
#include <string.h>

/* record neighbour line (dy, dz) read up to dx in A's wait list */
static int add_wait(stencil_kernel_args *A, int dx, int dy, int dz)
{
    for (int w = 0; w < A->nwait; w++)
        if (A->waity[w] == dy && A->waitz[w] == dz) {
            if (dx > A->waitx[w]) A->waitx[w] = dx;
            return 0;
        }
    if (A->nwait == STENCIL_MAX_WAIT) return -1;
    A->waity[A->nwait] = dy;
    A->waitz[A->nwait] = dz;
    A->waitx[A->nwait] = dx;
    A->nwait++;
    return 0;
}

/* insert offset (dx,dy,dz) of kind `kind` into the CSR walk table, keeping
 * the row deltas increasing */
static void add_low(stencil_kernel_args *A, int dx, int dy, int dz, int kind)
{
    int64_t d = (int64_t)dx + (int64_t)A->nx * ((int64_t)dy + (int64_t)A->ny * dz);
    int p = A->nlow;
    while (p > 0 && A->lowd[p - 1] > d) {
        A->lowd[p] = A->lowd[p - 1];
        A->lowx[p] = A->lowx[p - 1];
        A->lowy[p] = A->lowy[p - 1];
        A->lowz[p] = A->lowz[p - 1];
        A->lowkind[p] = A->lowkind[p - 1];
        p--;
    }
    A->lowd[p] = d;
    A->lowx[p] = dx;
    A->lowy[p] = dy;
    A->lowz[p] = dz;
    A->lowkind[p] = kind;
    A->nlow++;
}

/* ceil(num / den) for den > 0, 0 when num <= 0 */
static int ceil_positive(int num, int den) { return num > 0 ? (num + den - 1) / den : 0; }

/* The smallest stagger s(y,z) = shift_y y + shift_z z with
 * s(y,z) - s(y+dy, z+dz) >= dx for every neighbour line (dy, dz) read up to
 * dx: then the chunk of the neighbour that a chunk waits for ends where it
 * is needed (up to the 32-point wrap of the stagger). */
static void set_stagger(stencil_kernel_args *A)
{
    int a = 0, b = 0;
    for (int w = 0; w < A->nwait; w++)
        if (A->waitz[w] == 0 && A->waity[w] < 0) {
            int need = ceil_positive(A->waitx[w], -A->waity[w]);
            if (need > a) a = need;
        }
    for (int w = 0; w < A->nwait; w++)
        if (A->waitz[w] < 0) {
            int need = ceil_positive(A->waitx[w] + a * A->waity[w], -A->waitz[w]);
            if (need > b) b = need;
        }
    A->shift_y = a;
    A->shift_z = b;
}

/* The skew of the tiled solve: the smallest s >= 0 with dy + s dz <= 0 for
 * every neighbour line (dy, dz), so that in (u, z) = (y + s z, z) every
 * neighbour line lies at du <= 0, dz <= 0 (dz < 0 or dy < 0 always). */
static void set_tile_skew(stencil_kernel_args *A)
{
    int s = 0;
    for (int w = 0; w < A->nwait; w++)
        if (A->waitz[w] < 0) {
            int need = ceil_positive(A->waity[w], -A->waitz[w]);
            if (need > s) s = need;
        }
    A->tile_skew = s;
}

/* slot of offset q (-1: an empty slot) for csr_entry; sign -1 for an
 * upper triangle (its real columns lie at row - lowd) */
static stencil_csr_slot csr_slot(const stencil_kernel_args *A, int q, int sign)
{
    stencil_csr_slot s = {0, 0, 0};
    if (q < 0) return s;
    s.bit = 1u << q;
    s.below = s.bit - 1u;
    /* the CSR form has int32 columns, so its deltas fit; a larger grid
     * has only the compact form, which reads no slot */
    int64_t d = sign * A->lowd[q];
    s.delta = d >= INT32_MIN && d <= INT32_MAX ? (int32_t)d : 0;
    return s;
}

/* low_centre, low_m1, low_m2, low_wait and off_low: where each role's
 * offset is in the CSR walk's list (low*); the same as csr_entry's slots,
 * and the offsets of each dx (low_dx) */
static void set_low_roles(stencil_kernel_args *A, int sign)
{
    A->low_centre = A->low_m1 = A->low_m2 = -1;
    for (int w = 0; w < STENCIL_MAX_WAIT; w++) A->low_wait[w][0] = A->low_wait[w][1] = A->low_wait[w][2] = -1;
    for (int k = 0; k < STENCIL_MAX_OFF; k++) A->off_low[k] = -1;
    for (int q = 0; q < A->nlow; q++) {
        int kind = A->lowkind[q];
        if (kind == STENCIL_CENTRE) A->low_centre = q;
        else if (kind == STENCIL_M1) A->low_m1 = q;
        else if (kind == STENCIL_M2) A->low_m2 = q;
        else A->off_low[kind - STENCIL_OFF] = q;
        if (kind >= STENCIL_OFF)
            for (int w = 0; w < A->nwait; w++)
                for (int d = 0; d < 3; d++)
                    if (A->waitoff[w][d] == kind - STENCIL_OFF) A->low_wait[w][d] = q;
    }
    A->csr_centre = csr_slot(A, A->low_centre, sign);
    A->csr_m1 = csr_slot(A, A->low_m1, sign);
    A->csr_m2 = csr_slot(A, A->low_m2, sign);
    for (int w = 0; w < STENCIL_MAX_WAIT; w++)
        for (int d = 0; d < 3; d++) A->csr_wait[w][d] = csr_slot(A, w < A->nwait ? A->low_wait[w][d] : -1, sign);
    for (int k = 0; k < STENCIL_MAX_LOW; k++)
        A->csr_off[k] = csr_slot(A, k < A->noff && k < STENCIL_MAX_OFF ? A->off_low[k] : -1, sign);
    for (int q = 0; q < STENCIL_MAX_LOW; q++) A->csr_low[q] = csr_slot(A, q < A->nlow ? q : -1, sign);
    for (int i = 0; i < 5; i++) A->low_dx[i] = 0;
    for (int q = 0; q < A->nlow; q++) A->low_dx[A->lowx[q] + 2] |= 1u << q;
}

domino_status domino_stencil_args_offsets(domino_handle h, const int *offsets, int npoints,
                                          domino_fill fill, stencil_kernel_args *A,
                                          int *slot_of)
{
    int sign = fill == DOMINO_UPPER ? -1 : 1;
    A->noff = A->nlow = A->nwait = A->order = 0;
    A->line_window = 1;
    for (int w = 0; w < STENCIL_MAX_WAIT; w++) A->waitoff[w][0] = A->waitoff[w][1] = A->waitoff[w][2] = -1;
    /* the offsets in increasing order of their solve-coordinate delta: an
     * upper triangle's reflected ones taken from the last, so that its
     * neighbour lines and offsets are numbered as a lower triangle's (the
     * oldest line of the wavefront first, the line y - 1 last).  Numbered
     * the other way, the tiled solve's upper triangles were 16-20% slower
     * than its lower ones on D3N19 and D3N27, and now run as fast (H100,
     * bench/results/h100-stencil6/upper-order.txt);
     * DOMINO_STENCIL_UPPER_ORDER=0 keeps the old numbering (A/B). */
    const char *env = getenv("DOMINO_STENCIL_UPPER_ORDER");
    int reverse = fill == DOMINO_UPPER && !(env && atoi(env) == 0);
    for (int q = 0; q < npoints; q++) {
        int p = reverse ? npoints - 1 - q : q;
        const int *off = offsets + 3 * p;
        int side = stencil_offset_sign(off);
        slot_of[p] = -1;
        if (fill == DOMINO_LOWER ? side > 0 : side < 0) continue;
        int dx = sign * off[0], dy = sign * off[1], dz = sign * off[2];
        if (dx < -2 || dx > 2 || dy < -2 || dy > 2 || dz < -2 || dz > 2)
            return domino_error(h, DOMINO_NOT_SUPPORTED,
                                "structured solve: offset (%d,%d,%d) is beyond 2 on an axis",
                                off[0], off[1], off[2]);
        int kind;
        if (dx == 0 && dy == 0 && dz == 0) {
            kind = STENCIL_CENTRE;
            slot_of[p] = 0;
        } else if (dy == 0 && dz == 0) { /* dx is -1 or -2 in solve coordinates */
            kind = dx == -1 ? STENCIL_M1 : STENCIL_M2;
            slot_of[p] = kind;
            if (A->order < -dx) A->order = -dx;
        } else {
            if (A->noff == STENCIL_MAX_OFF)
                return domino_error(h, DOMINO_NOT_SUPPORTED,
                                    "structured solve: more than %d offsets outside the x-line",
                                    STENCIL_MAX_OFF);
            int k = A->noff++;
            A->offx[k] = dx;
            A->offy[k] = dy;
            A->offz[k] = dz;
            A->offd[k] = (int64_t)dx + (int64_t)A->nx * ((int64_t)dy + (int64_t)A->ny * dz);
            kind = STENCIL_OFF + k;
            slot_of[p] = kind;
            if (add_wait(A, dx, dy, dz))
                return domino_error(h, DOMINO_NOT_SUPPORTED,
                                    "structured solve: more than %d neighbour lines", STENCIL_MAX_WAIT);
            if (dx < -1 || dx > 1) A->line_window = 0;
            else
                for (int w = 0; w < A->nwait; w++)
                    if (A->waity[w] == dy && A->waitz[w] == dz) A->waitoff[w][dx + 1] = k;
        }
        add_low(A, dx, dy, dz, kind);
    }
    set_stagger(A);
    set_tile_skew(A);
    set_low_roles(A, sign);
    return DOMINO_SUCCESS;
}
