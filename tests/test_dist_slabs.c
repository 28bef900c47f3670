/* test_dist_slabs.c: the slabs of the structured-grid solve over PEs
 * (dist_slabs_*, src/dist/dist_slabs.h), checked by running the slab
 * protocol on the CPU: every PE solves its own lines on its local grid (its
 * slice of the coefficients), reading ghost lines only from its own array,
 * and stores each solved value also where dist_slabs_mirror says a
 * neighbour keeps a copy, with the row formula the kernels use; then the
 * whole solution is gathered from every PE's own lines as the gather
 * kernel does.  Local arrays start as NaN, so a ghost value that no
 * neighbour delivered shows up in the answer.  PEs run plane by plane in
 * the order of the solve (an order in which every ghost value a line reads
 * was stored before), and the answer must be domino_ref_stencil_trsv's on
 * the whole grid.  2D and 3D stencils reaching 1 and 2 lines of y, lower
 * and upper, unit and not, grids that do not divide by the PEs, 1 to 6
 * PEs; then the refusals. */
#include "check.h"
#include "domino.h"
#include "dist/dist_slabs.h"
#include "internal.h" /* domino_free */
#include "stencil_random.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double eps = 2.220446049250313e-16;

/* 1 if offset p of S is in the fill triangle (linear order: dz, dy, dx) */
static int in_fill(const domino_stencil_matrix *S, int p, domino_fill fill)
{
    const int *o = S->offsets + 3 * p;
    int lead = o[2] ? o[2] : o[1] ? o[1] : o[0];
    return fill == DOMINO_LOWER ? lead <= 0 : lead >= 0;
}

/* PE q solves its own points of plane z on its local grid L (x[q]), and
 * stores each value into the neighbours' copies */
static void solve_plane(const dist_slabs *P, const domino_stencil_matrix *L, int q, int32_t z,
                        domino_fill fill, domino_diag diag, const double *b, double **x)
{
    const int upper = fill == DOMINO_UPPER;
    const int32_t nx = P->nx, nyl = P->nyl[q], own = P->y0[q + 1] - P->y0[q];
    const int64_t Nl = (int64_t)nx * nyl * P->nz;
    const double *c = L->coef;
    dist_slab_mirror m[2];
    dist_slabs_mirror(P, q, 0, &m[0]);
    dist_slabs_mirror(P, q, 1, &m[1]);
    for (int32_t k = 0; k < own; k++) {
        int32_t y = P->below[q] + (upper ? own - 1 - k : k); /* local real y */
        for (int32_t i = 0; i < nx; i++) {
            int32_t xx = upper ? nx - 1 - i : i;
            int64_t row = xx + (int64_t)nx * (y + (int64_t)nyl * z);
            int64_t grow = xx + (int64_t)nx * (y + P->origin[q] + (int64_t)P->ny * z);
            double sum = b[grow], centre = 1;
            for (int p = 0; p < L->npoints; p++) {
                const int *o = L->offsets + 3 * p;
                if (!in_fill(L, p, fill)) continue;
                if (!o[0] && !o[1] && !o[2]) {
                    centre = c[p * Nl + row];
                    continue;
                }
                int64_t ax = xx + o[0], ay = y + o[1], az = z + o[2];
                if (ax < 0 || ax >= nx || ay < 0 || ay >= nyl || az < 0 || az >= P->nz) continue;
                sum -= c[p * Nl + row] * x[q][ax + nx * (ay + (int64_t)nyl * az)];
            }
            double v = diag == DOMINO_UNIT ? sum : sum / centre;
            x[q][row] = v;
            for (int s = 0; s < 2; s++)
                if (y >= m[s].y_lo && y < m[s].y_hi)
                    x[s ? q + 1 : q - 1][dist_slab_mirror_row(&m[s], nx, xx, y, z)] = v;
        }
    }
}

/* the whole protocol for S over npes PEs; 1 when it matches the reference */
static void run_case(domino_handle h, const domino_stencil_matrix *S, domino_fill fill,
                     domino_diag diag, int npes, const char *name)
{
    dist_slabs P;
    domino_stencil_matrix L[DIST_SLABS_MAX_PES];
    double *x[DIST_SLABS_MAX_PES];
    int64_t N = (int64_t)S->nx * S->ny * S->nz;
    double *b = malloc(N * sizeof(double)), *xr = malloc(N * sizeof(double)),
           *full = malloc(N * sizeof(double));
    CHECK_OK(h, dist_slabs_make(h, "test", S, fill, npes, &P));
    for (int64_t i = 0; i < N; i++)
        b[i] = 1 + (i % 7) * 0.25 - (i % 3) * 0.5;
    CHECK_OK(h, domino_ref_stencil_trsv(h, S, fill, diag, b, xr));
    int sum_own = 0;
    for (int q = 0; q < npes; q++) {
        int64_t Nl = (int64_t)S->nx * P.nyl[q] * S->nz;
        CHECK_OK(h, dist_slabs_slice(h, "test", S, &P, q, fill, &L[q]));
        for (int p = 0; p < L[q].npoints; p++) /* the triangle's offsets only */
            CHECK(in_fill(&L[q], p, fill));
        x[q] = malloc(Nl * sizeof(double));
        for (int64_t i = 0; i < Nl; i++)
            x[q][i] = NAN;
        sum_own += P.y0[q + 1] - P.y0[q];
        int32_t lo, hi, origin;
        dist_slabs_own(&P, q, fill == DOMINO_UPPER, &lo, &hi, &origin);
        CHECK(hi - lo == P.y0[q + 1] - P.y0[q]);
        /* local solve y 0 is whole-grid solve y `origin` */
        int32_t real0 =
            fill == DOMINO_UPPER ? P.nyl[q] - 1 : 0; /* local real y of local solve y 0 */
        int32_t whole =
            fill == DOMINO_UPPER ? S->ny - 1 - (real0 + P.origin[q]) : real0 + P.origin[q];
        CHECK(whole == origin);
    }
    CHECK(sum_own == S->ny && P.y0[0] == 0 && P.y0[npes] == S->ny);
    int upper = fill == DOMINO_UPPER;
    for (int32_t k = 0; k < S->nz; k++)
        for (int t = 0; t < npes; t++) {
            int q = upper ? npes - 1 - t : t;
            solve_plane(&P, &L[q], q, upper ? S->nz - 1 - k : k, fill, diag, b, x);
        }
    for (int64_t i = 0; i < N; i++) { /* the gather kernel's reads */
        int32_t xx = (int32_t)(i % S->nx), y = (int32_t)((i / S->nx) % S->ny);
        int32_t z = (int32_t)(i / ((int64_t)S->nx * S->ny));
        int q = dist_slabs_owner(&P, y);
        full[i] = x[q][dist_slabs_local_row(&P, q, xx, y, z)];
    }
    double err = 0, scale = 1;
    for (int64_t i = 0; i < N; i++) {
        err = fmax(err, isfinite(full[i]) ? fabs(full[i] - xr[i]) : INFINITY);
        scale = fmax(scale, fabs(xr[i]));
    }
    if (!(err <= 64 * eps * scale))
        fprintf(stderr, "%s, %d PEs: error %.3e\n", name, npes, err / scale);
    CHECK(err <= 64 * eps * scale);
    for (int q = 0; q < npes; q++) {
        free(x[q]);
        domino_free(L[q].coef);
    }
    free(b);
    free(xr);
    free(full);
}

int main(void)
{
    domino_handle h = NULL;
    if (domino_create(&h)) return 1;
    static const struct {
        domino_stencil st;
        int32_t nx, ny, nz;
    } grids[] = {
        {DOMINO_D3N7, 9, 13, 6},  {DOMINO_D3N27, 7, 17, 5}, {DOMINO_D3N13, 8, 15, 6},
        {DOMINO_D3N33, 6, 14, 5}, {DOMINO_D2N5, 11, 19, 1}, {DOMINO_D2N9, 10, 12, 1},
    };
    for (size_t g = 0; g < sizeof(grids) / sizeof(grids[0]); g++) {
        domino_stencil_matrix *S = stencil_random(h, grids[g].st, grids[g].nx, grids[g].ny,
                                                  grids[g].nz, DOMINO_FLOAT64, 11 + (unsigned)g);
        if (!S) continue;
        for (int f = 0; f < 2; f++)
            for (int npes = 1; npes <= 6; npes++) {
                domino_fill fill = f ? DOMINO_UPPER : DOMINO_LOWER;
                dist_slabs P;
                if (dist_slabs_make(NULL, "probe", S, fill, npes,
                                    &P)) { /* too many PEs for this grid */
                    CHECK(npes * 2 > grids[g].ny);
                    continue;
                }
                run_case(h, S, fill, npes % 2 ? DOMINO_NON_UNIT : DOMINO_UNIT, npes,
                         domino_stencil_name(grids[g].st));
            }
        domino_stencil_matrix_free(S);
    }

    /* what a neighbour copies: D3N7 lower reads only the line below */
    domino_stencil_matrix *S = stencil_random(h, DOMINO_D3N7, 4, 10, 3, DOMINO_FLOAT64, 5);
    dist_slabs P;
    dist_slab_mirror m;
    if (S) {
        CHECK_OK(h, dist_slabs_make(h, "test", S, DOMINO_LOWER, 3, &P));
        CHECK(P.reach_below == 1 && P.reach_above == 0);
        CHECK(P.y0[1] == 4 && P.y0[2] == 7 && P.y0[3] == 10);
        CHECK(P.below[0] == 0 && P.below[1] == 1 && P.above[1] == 0 && P.nyl[1] == 4);
        dist_slabs_mirror(&P, 1, 0, &m); /* PE 0 reads nothing above its own lines */
        CHECK(m.y_lo == 0 && m.y_hi == 0);
        dist_slabs_mirror(&P, 1, 1, &m); /* PE 2 copies PE 1's top line */
        CHECK(m.y_lo == 3 && m.y_hi == 4 && m.ny == 4 && m.dy == 3 - 6);
        dist_slabs_mirror(&P, 2, 1, &m); /* no PE above the last */
        CHECK(m.y_hi == 0);
        /* refusals: too many PEs for the grid, a bad PE count, a bad fill */
        CHECK_STATUS(h, DOMINO_NOT_SUPPORTED, dist_slabs_make(h, "test", S, DOMINO_LOWER, 11, &P));
        CHECK(strstr(domino_last_error(h), "at most 10 PEs") != NULL);
        CHECK_STATUS(h, DOMINO_INVALID_VALUE, dist_slabs_make(h, "test", S, DOMINO_LOWER, 0, &P));
        CHECK_STATUS(h, DOMINO_INVALID_VALUE,
                     dist_slabs_make(h, "test", S, DOMINO_LOWER, DIST_SLABS_MAX_PES + 1, &P));
        CHECK_STATUS(h, DOMINO_INVALID_VALUE, dist_slabs_make(h, "test", S, (domino_fill)7, 2, &P));
        domino_stencil_matrix_free(S);
    }
    /* D3N13 reaches 2 lines of y: ny = 7 fits 3 PEs, not 4 */
    S = stencil_random(h, DOMINO_D3N13, 5, 7, 4, DOMINO_FLOAT64, 6);
    if (S) {
        CHECK_OK(h, dist_slabs_make(h, "test", S, DOMINO_UPPER, 3, &P));
        CHECK(P.reach_below == 0 && P.reach_above == 2);
        CHECK_STATUS(h, DOMINO_NOT_SUPPORTED, dist_slabs_make(h, "test", S, DOMINO_UPPER, 4, &P));
        CHECK(strstr(domino_last_error(h), "at most 3 PEs") != NULL);
        domino_stencil_matrix_free(S);
    }
    CHECK_STATUS(h, DOMINO_NULL_POINTER, dist_slabs_make(h, "test", NULL, DOMINO_LOWER, 2, &P));
    domino_destroy(h);
    return check_summary("test_dist_slabs");
}
