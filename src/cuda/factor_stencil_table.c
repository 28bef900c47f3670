/* factor_stencil_table.c: the slot tables of the factorization kernel's
 * stencil path (factor_stencil_args in factor_plan.h).  Host code, no GPU:
 * tests/cuda_host/test_factor_stencil_table.c checks the tables against
 * searches in generated matrices. */
#include "factor_plan.h"

#include <stdint.h>
#include <string.h>

/* slot of column offset c among offset[0, count), -1 if none */
static int slot_of(const int64_t *offset, int count, int64_t c)
{
    for (int s = 0; s < count; s++)
        if (offset[s] == c) return s;
    return -1;
}

int domino_factor_stencil_table(const int *off, int npoints, int32_t nx, int32_t ny, int32_t nz,
                                int kind, factor_stencil_args *a)
{
    memset(a, 0, sizeof(*a)); /* line_path, scan_path 0: the caller decides */
    if (!off || npoints < 1 || npoints > FACTOR_STENCIL_SLOTS || nx < 1 || ny < 1 || nz < 1) return 0;
    int64_t all[FACTOR_STENCIL_SLOTS];
    int rad[3] = {0, 0, 0}, lower = 0;
    for (int p = 0; p < npoints; p++) {
        for (int d = 0; d < 3; d++) {
            int m = off[3 * p + d] < 0 ? -off[3 * p + d] : off[3 * p + d];
            if (m > rad[d]) rad[d] = m;
        }
        all[p] = off[3 * p] + (int64_t)nx * (off[3 * p + 1] + (int64_t)ny * off[3 * p + 2]);
        if (p > 0 && all[p] <= all[p - 1]) return 0; /* not in increasing linear order */
        if (all[p] < 0) lower++;
    }
    /* symmetric, with a diagonal: slot `lower` is offset 0 */
    if (2 * lower + 1 != npoints || all[lower] != 0 || lower > FACTOR_STENCIL_LOWER) return 0;
    for (int p = 0; p < npoints; p++)
        if (all[p] != -all[npoints - 1 - p]) return 0;
    for (int d = 0; d < 3; d++) {
        int32_t size = d == 0 ? nx : d == 1 ? ny : nz;
        if (size <= 4 * rad[d]) return 0; /* no deep row */
    }
    int width = kind == 0 ? npoints : lower + 1;
    memset(a->slot, 0xff, sizeof(a->slot)); /* -1 */
    memset(a->target, 0xff, sizeof(a->target));
    for (int s1 = 0; s1 < lower; s1++) {
        if (kind == 0) { /* row k = i + all[s1]: its entries right of the diagonal */
            for (int t = s1 + 1; t < width; t++) {
                int s2 = slot_of(all, npoints, all[t] - all[s1]);
                a->slot[s1 * width + t] = (int8_t)(s2 > lower ? s2 : -1);
            }
            for (int s2 = lower + 1; s2 < npoints; s2++)
                a->target[s1 * npoints + s2] = (int8_t)slot_of(all, npoints, all[s1] + all[s2]);
        } else { /* row k's entries left of its diagonal, met in row i left of slot s1 */
            for (int s2 = 0; s2 < lower; s2++)
                a->slot[s1 * lower + s2] = (int8_t)slot_of(all, s1, all[s1] + all[s2]);
        }
    }
    /* the line path's geometry: offsets per axis, masks per class, the
     * same-line offsets (the last ones left of the diagonal) and the other
     * lines the lower offsets reach; same_line -1 where the line path
     * cannot take the stencil (the table path still can) */
    a->npoints = npoints;
    memset(a->line_of, 0xff, sizeof(a->line_of));
    for (int p = 0; p < npoints; p++) {
        for (int d = 0; d < 3; d++) a->dxyz[p][d] = (int8_t)off[3 * p + d];
        int own = off[3 * p + 1] == 0 && off[3 * p + 2] == 0;
        if (p >= lower || a->same_line < 0) continue;
        if (own) {
            a->same_line++;
            continue;
        }
        if (a->same_line > 0) { /* an other-line offset after a same-line one */
            a->same_line = -1;
            continue;
        }
        int q = 0;
        while (q < a->nlines && (a->line_dy[q] != off[3 * p + 1] || a->line_dz[q] != off[3 * p + 2])) q++;
        if (q == FACTOR_STENCIL_LINES) {
            a->same_line = -1;
            continue;
        }
        if (q == a->nlines) {
            a->nlines++;
            a->line_dy[q] = off[3 * p + 1];
            a->line_dz[q] = off[3 * p + 2];
            a->line_dx[q] = off[3 * p];
        }
        if (off[3 * p] > a->line_dx[q]) a->line_dx[q] = off[3 * p];
        a->line_of[p] = (int8_t)q;
    }
    for (int d = 0; d < 3; d++)
        for (int c = 0; c <= 2 * rad[d]; c++) {
            uint64_t m = 0;
            for (int p = 0; p < npoints; p++) {
                int dd = off[3 * p + d];
                if (c < rad[d] ? dd >= -c : c > rad[d] ? dd <= 2 * rad[d] - c : 1) m |= 1ULL << p;
            }
            a->axis_mask[d][c] = m;
        }
    a->triangle_free = 1; /* offsets p, q, r != 0 with off[p] - off[q] == off[r]: a triangle */
    for (int p = 0; p < npoints; p++)
        for (int q = 0; q < npoints; q++) {
            if (p == q || p == lower || q == lower) continue;
            for (int r = 0; r < npoints; r++)
                if (r != lower && off[3 * r] == off[3 * p] - off[3 * q] &&
                    off[3 * r + 1] == off[3 * p + 1] - off[3 * q + 1] &&
                    off[3 * r + 2] == off[3 * p + 2] - off[3 * q + 2])
                    a->triangle_free = 0;
        }
    a->nx = nx;
    a->ny = ny;
    a->nz = nz;
    for (int d = 0; d < 3; d++) a->rad[d] = rad[d];
    a->width = width;
    a->lower = lower;
    for (int s = 0; s < width; s++) a->offset[s] = all[s];
    return 1;
}

int domino_factor_box_fits(const factor_stencil_args *a)
{
    if (a->nx == 0 || a->npoints != 27 || a->lower != DOMINO_FACTOR_BOX_LOWER) return 0;
    for (int s = 0; s < 27; s++)
        if (a->dxyz[s][0] != domino_factor_box_dx(s) || a->dxyz[s][1] != domino_factor_box_dy(s) ||
            a->dxyz[s][2] != domino_factor_box_dz(s))
            return 0;
    /* rows as int32; a row's lower neighbours start less than 2^31 entries before it */
    return (int64_t)a->nx * a->ny * a->nz < INT32_MAX &&
           27 * ((int64_t)a->nx * a->ny + a->nx + 1) < INT32_MAX;
}
