/* test_dist_stencil.c: the structured-grid solve by slabs of y over the PEs
 * (domino_dist_stencil_*), one PE per GPU of the machine, against the CPU
 * reference on the whole grid (domino_ref_stencil_trsv).  Label dist.
 *  - 3D stencils reaching 1 line of y (D3N7: the queue kernel; D3N27: the
 *    tiled kernel, and the queue kernel forced) and 2 lines (D3N13, its
 *    second-order recurrence), a 2D one (D2N5, one z-plane), lower and
 *    upper, unit and not, double and float, grids that do not divide by the
 *    PEs, random coefficients, two solves per object;
 *  - refusals on every PE alike: a grid too thin for the PEs, a NULL S, one
 *    PE with a bad fill, one PE with another grid; a zero pivot named by its row of the whole grid;
 * a solve that outlives DOMINO_DIST_TIMEOUT_S ends with DOMINO_TIMEOUT, and the next solve of the
 * same object is right. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "check.h"
#include "domino.h"
#include "stencil_random.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double eps64 = 2.220446049250313e-16;
static const double eps32 = 1.1920929e-07;

/* two solves of the slab object of S against the CPU reference */
static void check_case(domino_handle h, domino_dist D, const domino_stencil_matrix *S,
                       domino_fill fill, domino_diag diag, const char *name)
{
    int rank = domino_dist_rank(D), npes = domino_dist_npes(D);
    int64_t N = (int64_t)S->nx * S->ny * S->nz;
    int dbl = S->type == DOMINO_FLOAT64;
    size_t vs = dbl ? sizeof(double) : sizeof(float);
    void *b = malloc(N * vs), *x = malloc(N * vs), *xr = malloc(N * vs);
    domino_dist_stencil T = NULL;
    CHECK_OK(h, domino_dist_stencil_make(h, D, S, fill, &T));
    for (int round = 0; round < 2 && T && b && x && xr; round++) {
        for (int64_t i = 0; i < N; i++) {
            double v = 1 + ((i * 7 + round) % 11) * 0.125 - (i % 5) * 0.25;
            if (dbl)
                ((double *)b)[i] = v;
            else
                ((float *)b)[i] = (float)v;
        }
        memset(x, 0xff, N * vs);
        CHECK_OK(h, domino_ref_stencil_trsv(h, S, fill, diag, b, xr));
        double seconds = -1;
        CHECK_OK(h, domino_dist_stencil_solve(h, T, diag, b, x, &seconds));
        CHECK(seconds >= 0);
        double err = 0, scale = 1;
        for (int64_t i = 0; i < N; i++) {
            double a = dbl ? ((double *)x)[i] : ((float *)x)[i];
            double r = dbl ? ((double *)xr)[i] : ((float *)xr)[i];
            err = fmax(err, isfinite(a) ? fabs(a - r) : INFINITY);
            scale = fmax(scale, fabs(r));
        }
        double tol = 64 * (dbl ? eps64 : eps32) * scale;
        if (!(err <= tol))
            fprintf(stderr, "PE %d/%d %s %s %s %s round %d: error %.3e\n", rank, npes, name,
                    fill == DOMINO_UPPER ? "upper" : "lower",
                    diag == DOMINO_UNIT ? "unit" : "non-unit", dbl ? "double" : "float", round,
                    err / scale);
        CHECK(err <= tol);
    }
    domino_dist_stencil_free(T);
    free(b);
    free(x);
    free(xr);
}

static int pe_main(const domino_launch_info *info, void *arg)
{
    (void)info;
    (void)arg;
    domino_handle h = NULL;
    domino_dist D = NULL;
    char who[64];
    CHECK_OK(h, domino_create(&h));
    CHECK_OK(h, domino_dist_join(h, &D));
    if (!D) {
        fprintf(stderr, "cannot join: %s\n", domino_last_error(h));
        return 2;
    }
    int npes = domino_dist_npes(D), rank = domino_dist_rank(D);
    static const struct {
        domino_stencil st;
        int32_t nx, ny, nz;
        const char *tile; /* DOMINO_STENCIL_TILE while the object is made, NULL: unset */
    } grids[] = {
        {DOMINO_D3N7, 45, 37, 12, NULL}, {DOMINO_D3N27, 40, 35, 11, NULL},
        {DOMINO_D3N27, 33, 29, 9, "0"},  {DOMINO_D3N13, 38, 41, 10, NULL},
        {DOMINO_D2N5, 70, 66, 1, NULL},
    };
    for (size_t g = 0; g < sizeof(grids) / sizeof(grids[0]); g++)
        for (int type = 0; type < 2; type++) {
            domino_type t = type ? DOMINO_FLOAT32 : DOMINO_FLOAT64;
            domino_stencil_matrix *S = stencil_random(h, grids[g].st, grids[g].nx, grids[g].ny,
                                                      grids[g].nz, t, 3 + (unsigned)g);
            if (!S) continue;
            if (grids[g].tile) setenv("DOMINO_STENCIL_TILE", grids[g].tile, 1);
            for (int f = 0; f < 2; f++)
                check_case(h, D, S, f ? DOMINO_UPPER : DOMINO_LOWER,
                           (f + type) % 2 ? DOMINO_UNIT : DOMINO_NON_UNIT,
                           domino_stencil_name(grids[g].st));
            unsetenv("DOMINO_STENCIL_TILE");
            domino_stencil_matrix_free(S);
        }

    domino_dist_stencil T = NULL;
    /* a grid too thin for the PEs (D3N13 reaches 2 lines of y): refused on every PE */
    domino_stencil_matrix *S =
        stencil_random(h, DOMINO_D3N13, 8, 2 * npes - 1, 4, DOMINO_FLOAT64, 1);
    if (S && npes > 1) {
        CHECK_STATUS(h, DOMINO_NOT_SUPPORTED, domino_dist_stencil_make(h, D, S, DOMINO_LOWER, &T));
        CHECK(T == NULL && strstr(domino_last_error(h), "at most") != NULL);
    }
    domino_stencil_matrix_free(S);
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_dist_stencil_make(h, D, NULL, DOMINO_LOWER, &T));
    /* PE 0 alone asks for a bad fill: the others learn it from agreement */
    S = stencil_random(h, DOMINO_D3N7, 16, 4 * npes, 6, DOMINO_FLOAT64, 2);
    if (S) {
        domino_status s =
            domino_dist_stencil_make(h, D, S, rank == 0 ? (domino_fill)7 : DOMINO_LOWER, &T);
        CHECK(s == DOMINO_INVALID_VALUE && T == NULL);
        if (rank != 0) CHECK(strstr(domino_last_error(h), "PE 0 failed") != NULL);
        /* a zero centre at (3, last y, 2) of the whole grid: the last PE's
         * slab; every PE reports it with its row of the whole grid */
        int64_t N = (int64_t)S->nx * S->ny * S->nz,
                row = 3 + (int64_t)S->nx * (S->ny - 1 + (int64_t)S->ny * 2);
        for (int p = 0; p < S->npoints; p++) {
            const int *o = S->offsets + 3 * p;
            if (!o[0] && !o[1] && !o[2]) ((double *)S->coef)[p * N + row] = 0;
        }
        double *b = calloc((size_t)N, sizeof(double)), *x = calloc((size_t)N, sizeof(double));
        CHECK_OK(h, domino_dist_stencil_make(h, D, S, DOMINO_LOWER, &T));
        if (T && b && x) {
            char want[64];
            snprintf(want, sizeof want, "row %lld (x,y,z = 3,%d,2)", (long long)row, S->ny - 1);
            CHECK_STATUS(h, DOMINO_ZERO_PIVOT,
                         domino_dist_stencil_solve(h, T, DOMINO_NON_UNIT, b, x, NULL));
            if (rank == npes - 1) CHECK(strstr(domino_last_error(h), want) != NULL);
            /* unit: the centre is not read, the solve goes through */
            CHECK_OK(h, domino_dist_stencil_solve(h, T, DOMINO_UNIT, b, x, NULL));
        }
        domino_dist_stencil_free(T);
        free(b);
        free(x);
        domino_stencil_matrix_free(S);
    }
    /* PE 0 passes another grid: refused on every PE (the fingerprints differ) */
    S = stencil_random(h, DOMINO_D3N7, 12, rank == 0 ? 4 * npes + 1 : 4 * npes, 5, DOMINO_FLOAT64,
                       7);
    if (S && npes > 1) {
        CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_dist_stencil_make(h, D, S, DOMINO_LOWER, &T));
        CHECK(T == NULL && strstr(domino_last_error(h), "differs") != NULL);
    }
    domino_stencil_matrix_free(S);
    /* a solve that outlives DOMINO_DIST_TIMEOUT_S: its waits are ended and it
     * fails with DOMINO_TIMEOUT on every PE, no hang (what a PE whose launch
     * failed would leave the others); T stays usable: the next solve is right */
    S = stencil_random(h, DOMINO_D3N27, 64, 16 * npes, 32, DOMINO_FLOAT64, 4);
    if (S) {
        int64_t N = (int64_t)S->nx * S->ny * S->nz;
        double *b = calloc((size_t)N, sizeof(double)), *x = calloc((size_t)N, sizeof(double));
        double *xr = calloc((size_t)N, sizeof(double));
        CHECK_OK(h, domino_dist_stencil_make(h, D, S, DOMINO_LOWER, &T));
        if (T && b && x && xr) {
            for (int64_t i = 0; i < N; i++)
                b[i] = 1 + (i % 13) * 0.5;
            setenv("DOMINO_DIST_TIMEOUT_S", "1e-7", 1);
            CHECK_STATUS(h, DOMINO_TIMEOUT,
                         domino_dist_stencil_solve(h, T, DOMINO_NON_UNIT, b, x, NULL));
            unsetenv("DOMINO_DIST_TIMEOUT_S");
            CHECK_OK(h, domino_ref_stencil_trsv(h, S, DOMINO_LOWER, DOMINO_NON_UNIT, b, xr));
            CHECK_OK(h, domino_dist_stencil_solve(h, T, DOMINO_NON_UNIT, b, x, NULL));
            double err = 0, scale = 1;
            for (int64_t i = 0; i < N; i++) {
                err = fmax(err, isfinite(x[i]) ? fabs(x[i] - xr[i]) : INFINITY);
                scale = fmax(scale, fabs(xr[i]));
            }
            CHECK(err <= 64 * eps64 * scale);
        }
        domino_dist_stencil_free(T);
        free(b);
        free(x);
        free(xr);
        domino_stencil_matrix_free(S);
    }
    CHECK_OK(h, domino_dist_leave(h, D));
    domino_destroy(h);
    snprintf(who, sizeof who, "test_dist_stencil PE %d of %d", rank, npes);
    return check_summary(who) ? 1 : 0;
}

int main(void)
{
    int npes = domino_launch_gpu_count(); /* CUDA stays out of this process */
    if (npes == 0) {
        printf("test_dist_stencil: no CUDA device, skipped\n");
        return 0;
    }
    CHECK(domino_launch(npes, pe_main, NULL) == 0);
    return check_summary("test_dist_stencil");
}
