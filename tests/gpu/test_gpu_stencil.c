/* test_gpu_stencil.c: the structured-grid GPU solve against the CPU reference
 *
 * Every stencil of the generators on small, odd and prime grids (1x1x1,
 * 1xNx1, lines longer than a warp), lower and upper, unit and non-unit, CSR
 * input (the triangle alone, the full matrix, or rows holding every entry
 * twice) and compact input, each variant; float on a subset; the
 * autotuner; then bad input: a CSR of another stencil, an entry that wraps
 * around the grid, a grid of the wrong size, unsorted rows, a zero pivot,
 * misuse.
 * Answers: max|x - x_ref| / max|x_ref| within FORWARD_EPS * eps, x_ref
 * from domino_ref_trsv on the same CSR (stored once).
 * The tiled solve is forced through DOMINO_STENCIL_TILE (setenv); the
 * solves and the bad input run again with DOMINO_STENCIL_STAGE=1, then =0. */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "test_values.h"
#include "domino.h"

#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#define FORWARD_EPS 1e3

/* off-diagonal values uniform in [-1, 1], diagonal 1 + sum |off| of its row */
static void randomize(domino_matrix A)
{
    domino_matrix_view v;
    domino_matrix_get_view(NULL, A, &v);
    for (int32_t i = 0; i < v.nrows; i++) {
        double sum = 0;
        int64_t dpos = -1;
        for (int64_t k = v.ptr[i]; k < v.ptr[i + 1]; k++) {
            if (v.ind[k] == i) {
                dpos = k;
                continue;
            }
            double x = 2 * rng_uniform() - 1;
            set_value(v.val, v.type, k, x);
            sum += fabs(x);
        }
        if (dpos >= 0) set_value(v.val, v.type, dpos, 1 + sum);
    }
}

/* one structured solve of the problem described, against the reference */
typedef struct stencil_case {
    domino_stencil stencil;
    int32_t nx, ny, nz;
    domino_part part;     /* what the CSR holds: FULL, LOWER or UPPER */
    domino_fill fill;     /* triangle solved */
    domino_diag diag;
    domino_type type;
    int compact;          /* 1: compact input */
    domino_stencil_variant variant;
    int warps_per_queue;  /* option */
    const char *tile;     /* DOMINO_STENCIL_TILE while D is made ("UxZ"), NULL: unset */
    int tile_refused;     /* 1: the tile may be too large for the stencil (queue kernel allowed) */
    int duplicated;       /* 1: CSR input with every entry stored twice, each half the value */
    int no_diagonal;      /* 1: CSR input without its diagonal entries (unit solves) */
} stencil_case;

/* *B = A with every entry stored twice, each half A's value (exact in
 * binary): the same matrix, whose rows run past the solve's register
 * slots.  NULL on failure. */
static domino_matrix duplicated_entries(domino_handle h, domino_matrix A)
{
    domino_matrix_view v, w;
    domino_matrix B = NULL;
    domino_matrix_get_view(NULL, A, &v);
    if (domino_matrix_new(h, DOMINO_CSR, v.type, v.nrows, v.ncols, 2 * v.nnz, &B) != 0) return NULL;
    domino_matrix_get_view(NULL, B, &w);
    for (int32_t i = 0; i <= v.nrows; i++) w.ptr[i] = 2 * v.ptr[i];
    for (int64_t k = 0; k < v.nnz; k++)
        for (int c = 0; c < 2; c++) {
            w.ind[2 * k + c] = v.ind[k];
            set_value(w.val, v.type, 2 * k + c, get_value(v.val, v.type, k) / 2);
        }
    return B;
}

/* *B = A without its diagonal entries: a unit triangle as it is often
 * stored, which the CSR readers by offset hand to the walk (no centre
 * entry).  NULL on failure. */
static domino_matrix without_diagonal(domino_handle h, domino_matrix A)
{
    domino_matrix_view v, w;
    domino_matrix B = NULL;
    domino_matrix_get_view(NULL, A, &v);
    int64_t nnz = 0; /* B's exact count: validation checks ptr[nrows] against it */
    for (int32_t i = 0; i < v.nrows; i++)
        for (int64_t k = v.ptr[i]; k < v.ptr[i + 1]; k++) nnz += v.ind[k] != i;
    if (domino_matrix_new(h, DOMINO_CSR, v.type, v.nrows, v.ncols, nnz, &B) != 0) return NULL;
    domino_matrix_get_view(NULL, B, &w);
    int64_t m = 0;
    for (int32_t i = 0; i < v.nrows; i++) {
        w.ptr[i] = m;
        for (int64_t k = v.ptr[i]; k < v.ptr[i + 1]; k++) {
            if (v.ind[k] == i) continue;
            w.ind[m] = v.ind[k];
            set_value(w.val, v.type, m++, get_value(v.val, v.type, k));
        }
    }
    w.ptr[v.nrows] = m;
    return B;
}

static void run_case(domino_handle h, const stencil_case *c)
{
    domino_matrix A = NULL, A2 = NULL;
    domino_stencil_matrix *S = NULL;
    domino_dmatrix dA = NULL;
    domino_dstencil D = NULL;
    void *b = NULL, *x = NULL, *xref = NULL, *db = NULL, *dx = NULL;
    domino_stencil_options opt;
    char what[256];
    snprintf(what, sizeof(what), "%s %dx%dx%d part=%d fill=%s diag=%s type=%s %s variant=%s D=%d",
             domino_stencil_name(c->stencil), c->nx, c->ny, c->nz, (int)c->part,
             c->fill == DOMINO_LOWER ? "lower" : "upper", c->diag == DOMINO_UNIT ? "unit" : "non-unit",
             c->type == DOMINO_FLOAT64 ? "double" : "float",
             c->compact ? "compact" : c->duplicated ? "csr (entries twice)" : c->no_diagonal ? "csr (no diagonal)" : "csr",
             domino_stencil_variant_name(c->variant), c->warps_per_queue);
    int64_t n = (int64_t)c->nx * c->ny * c->nz;
    size_t vs = c->type == DOMINO_FLOAT64 ? 8 : 4, bytes = (size_t)n * vs;
    int ok = domino_gen_stencil(h, c->stencil, c->nx, c->ny, c->nz, c->part, c->type, &A) == 0;
    if (ok) randomize(A);
    b = malloc(bytes);
    x = malloc(bytes);
    xref = malloc(bytes);
    ok = ok && b && x && xref;
    for (int64_t i = 0; ok && i < n; i++) set_value(b, c->type, i, 2 * rng_uniform() - 1);
    ok = ok && domino_ref_trsv(h, DOMINO_OP_N, c->fill, c->diag, A, 1, b, n, xref, n) == 0;
    if (c->tile) setenv("DOMINO_STENCIL_TILE", c->tile, 1);
    if (c->compact) {
        ok = ok && domino_stencil_from_csr(h, A, c->nx, c->ny, c->nz, &S) == 0;
        ok = ok && domino_dstencil_upload(h, S, c->fill, &D) == 0;
    } else {
        if (ok && c->duplicated) ok = (A2 = duplicated_entries(h, A)) != NULL;
        if (ok && c->no_diagonal) ok = (A2 = without_diagonal(h, A)) != NULL;
        ok = ok && domino_dmatrix_upload(h, A2 ? A2 : A, &dA) == 0;
        ok = ok && domino_dstencil_from_dmatrix(h, dA, c->stencil, c->nx, c->ny, c->nz, c->fill, &D) == 0;
    }
    if (c->tile) unsetenv("DOMINO_STENCIL_TILE");
    ok = ok && domino_gpu_malloc(h, bytes, &db) == 0 && domino_gpu_malloc(h, bytes, &dx) == 0;
    ok = ok && domino_gpu_upload(h, db, b, bytes) == 0;
    domino_stencil_options_init(&opt);
    opt.variant = c->variant;
    opt.warps_per_queue = c->warps_per_queue;
    ok = ok && domino_dstencil_trsv(h, D, c->diag, &opt, db, dx) == 0;
    ok = ok && domino_gpu_download(h, x, dx, bytes) == 0;
    if (ok && c->tile) { /* the tiled kernel solved it */
        int tu = 0, tz = 0, want_u = 0, want_z = 0;
        domino_dstencil_tile(D, &tu, &tz);
        sscanf(c->tile, "%dx%d", &want_u, &want_z);
        int fell_back = c->tile_refused && tu == 0 && tz == 0;
        if ((tu != want_u || tz != want_z) && !fell_back) {
            check_failed++;
            fprintf(stderr, "FAIL: %s tile %s: solved with tile %dx%d\n", what, c->tile, tu, tz);
        }
    }
    if (!ok) {
        check_failed++;
        fprintf(stderr, "FAIL: %s: %s\n", what, domino_last_error(h));
        goto cleanup;
    }
    double diff = 0, scale = 0;
    for (int64_t i = 0; i < n; i++) {
        double r = get_value(xref, c->type, i), g = get_value(x, c->type, i);
        scale = fmax(scale, fabs(r));
        diff = fmax(diff, isfinite(g) ? fabs(g - r) : INFINITY);
    }
    double tol = FORWARD_EPS * domino_type_eps(c->type) * fmax(scale, 1e-300);
    if (diff <= tol) {
        check_passed++;
    } else {
        check_failed++;
        fprintf(stderr, "FAIL: %s: max |x - x_ref| = %.3e > %.3e\n", what, diff, tol);
    }
cleanup:
    domino_dstencil_free(D);
    domino_dmatrix_free(dA);
    domino_stencil_matrix_free(S);
    domino_matrix_free(A);
    domino_matrix_free(A2);
    domino_gpu_free(db);
    domino_gpu_free(dx);
    free(b);
    free(x);
    free(xref);
}

/* every stencil, grid, triangle, input form and variant (double, non-unit),
 * plus unit diagonals, full-matrix CSR, float and the autotuner */
static void test_solves(domino_handle h)
{
    static const int32_t grids3[][3] = {{1, 1, 1}, {1, 7, 1}, {7, 5, 3}, {37, 3, 5}, {67, 5, 4}, {2, 2, 9}};
    static const int32_t grids2[][3] = {{1, 1, 1}, {1, 7, 1}, {7, 5, 1}, {37, 3, 1}, {100, 9, 1}, {2, 13, 1}};
    for (int st = DOMINO_D2N5; st <= DOMINO_D3N33; st++) {
        int is2d = st == DOMINO_D2N5 || st == DOMINO_D2N9;
        for (int g = 0; g < 6; g++) {
            const int32_t *grid = is2d ? grids2[g] : grids3[g];
            for (int fill = 0; fill < 2; fill++)
                for (int compact = 0; compact < 2; compact++)
                    for (int v = 0; v < DOMINO_STENCIL_VARIANT_COUNT; v++) {
                        stencil_case c = {(domino_stencil)st, grid[0], grid[1], grid[2],
                                          fill ? DOMINO_PART_UPPER : DOMINO_PART_LOWER,
                                          fill ? DOMINO_UPPER : DOMINO_LOWER, DOMINO_NON_UNIT,
                                          DOMINO_FLOAT64, compact, (domino_stencil_variant)v, 0, NULL, 0, 0, 0};
                        run_case(h, &c);
                    }
        }
        /* the full matrix as CSR input (the other triangle skipped), unit
         * diagonal, float, an explicit D and the autotuner, on a larger grid */
        int32_t nx = is2d ? 150 : 40, ny = is2d ? 70 : 33, nz = is2d ? 1 : 21;
        for (int fill = 0; fill < 2; fill++) {
            domino_fill f = fill ? DOMINO_UPPER : DOMINO_LOWER;
            stencil_case full = {(domino_stencil)st, nx, ny, nz, DOMINO_PART_FULL, f, DOMINO_NON_UNIT,
                                 DOMINO_FLOAT64, 0, DOMINO_STENCIL_DOMINO, 0, NULL, 0, 0, 0};
            run_case(h, &full);
            full.variant = DOMINO_STENCIL_PARTITION;
            run_case(h, &full);
            full.compact = 1;
            full.variant = DOMINO_STENCIL_DOMINO;
            run_case(h, &full);
            stencil_case unit = full;
            unit.diag = DOMINO_UNIT;
            run_case(h, &unit);
            unit.compact = 0;
            run_case(h, &unit);
            unit.part = fill ? DOMINO_PART_UPPER : DOMINO_PART_LOWER;
            unit.no_diagonal = 1; /* the tile or the by-offset read hands it to the walk */
            run_case(h, &unit);
            stencil_case single = full;
            single.type = DOMINO_FLOAT32;
            run_case(h, &single);
            single.compact = 0;
            single.variant = DOMINO_STENCIL_MULTISTAGE;
            run_case(h, &single);
            stencil_case tuned = full;
            tuned.warps_per_queue = -1;
            run_case(h, &tuned);
            tuned.warps_per_queue = 1;
            tuned.variant = DOMINO_STENCIL_COMPRESSED;
            run_case(h, &tuned);
        }
    }
}

/* CSR rows holding every entry twice (legal: sorted, the duplicates
 * summed), so that a row's triangle runs past the kernel's register
 * slots and the rest is walked from memory: every stencil with lines of
 * neighbours, both triangles, each variant (the per-point flags and the
 * line states) */
static void test_duplicates(domino_handle h)
{
    static const domino_stencil st[] = {DOMINO_D3N7, DOMINO_D3N13, DOMINO_D3N27, DOMINO_D3N33};
    for (int s = 0; s < 4; s++)
        for (int fill = 0; fill < 2; fill++)
            for (int v = 0; v < DOMINO_STENCIL_VARIANT_COUNT; v++) {
                stencil_case c = {st[s], 37, 6, 5, fill ? DOMINO_PART_UPPER : DOMINO_PART_LOWER,
                                  fill ? DOMINO_UPPER : DOMINO_LOWER, DOMINO_NON_UNIT,
                                  DOMINO_FLOAT64, 0, (domino_stencil_variant)v, 0, NULL, 0, 1, 0};
                run_case(h, &c);
            }
}

/* the tiled solve (DOMINO, compact and CSR input) forced to tiles of every shape,
 * one line up to the most a block takes, on every stencil, odd and larger
 * grids, both triangles; float and unit diagonal on one grid.  D3N33 (6
 * neighbour lines where the grid has them) takes at most 8 lines a tile:
 * larger ones may fall back to the queue kernel, and must still solve. */
static void test_tiles(domino_handle h)
{
    static const int32_t grids[][3] = {{1, 1, 1}, {1, 7, 1}, {7, 5, 3},   {37, 3, 5},
                                       {67, 5, 4}, {2, 2, 9}, {40, 33, 21}, {31, 17, 1}};
    static const char *tiles[] = {"1x1", "2x2", "4x4", "16x1", "2x8", "3x5"};
    for (int st = DOMINO_D2N5; st <= DOMINO_D3N33; st++)
        for (int g = 0; g < 8; g++)
            for (int fill = 0; fill < 2; fill++)
                for (int t = 0; t < 6; t++) {
                    int is2d = st == DOMINO_D2N5 || st == DOMINO_D2N9;
                    if (is2d && grids[g][2] != 1) continue;
                    stencil_case c = {(domino_stencil)st, grids[g][0], grids[g][1], grids[g][2],
                                      fill ? DOMINO_PART_UPPER : DOMINO_PART_LOWER,
                                      fill ? DOMINO_UPPER : DOMINO_LOWER, DOMINO_NON_UNIT,
                                      DOMINO_FLOAT64, 1, DOMINO_STENCIL_DOMINO, 0, tiles[t], 0, 0, 0};
                    int u = 0, z = 0;
                    sscanf(tiles[t], "%dx%d", &u, &z);
                    c.tile_refused = st == DOMINO_D3N33 && u * z > 8;
                    run_case(h, &c);
                    /* CSR input: the triangle alone; on 2 x 2 tiles also the
                     * full matrix (the other triangle after each row's
                     * entries) and rows holding every entry twice, which the
                     * tiled kernel hands back to the queue kernel */
                    stencil_case r = c;
                    r.compact = 0;
                    run_case(h, &r);
                    if (t == 1) {
                        r.part = DOMINO_PART_FULL;
                        run_case(h, &r);
                        r.part = c.part;
                        r.duplicated = 1;
                        r.tile_refused = 1;
                        run_case(h, &r);
                    }
                    if (g == 6 && t == 3) {
                        c.type = DOMINO_FLOAT32;
                        run_case(h, &c);
                        c.diag = DOMINO_UNIT;
                        run_case(h, &c);
                    }
                }
}

/* a solve of dA declared as stencil st on the grid; its status */
static domino_status solve_declared(domino_handle h, domino_matrix A, domino_stencil st, int32_t nx,
                                    int32_t ny, int32_t nz, domino_fill fill)
{
    domino_dmatrix dA = NULL;
    domino_dstencil D = NULL;
    void *db = NULL, *dx = NULL;
    domino_matrix_view v;
    domino_matrix_get_view(h, A, &v);
    size_t bytes = (size_t)v.nrows * 8;
    domino_status s = domino_dmatrix_upload(h, A, &dA);
    if (!s) s = domino_dstencil_from_dmatrix(h, dA, st, nx, ny, nz, fill, &D);
    if (!s) s = domino_gpu_malloc(h, bytes, &db);
    if (!s) s = domino_gpu_malloc(h, bytes, &dx);
    if (!s) {
        double *ones = malloc(bytes);
        for (int32_t i = 0; ones && i < v.nrows; i++) ones[i] = 1;
        s = ones ? domino_gpu_upload(h, db, ones, bytes) : DOMINO_OUT_OF_MEMORY;
        free(ones);
    }
    if (!s) s = domino_dstencil_trsv(h, D, DOMINO_NON_UNIT, NULL, db, dx);
    domino_dstencil_free(D);
    domino_dmatrix_free(dA);
    domino_gpu_free(db);
    domino_gpu_free(dx);
    return s;
}

static void test_bad_input(domino_handle h)
{
    domino_matrix A = NULL, W = NULL;
    /* a D3N27 triangle is not a D3N7 one: rejected, naming a row */
    CHECK_OK(h, domino_gen_stencil(h, DOMINO_D3N27, 9, 8, 7, DOMINO_PART_LOWER, DOMINO_FLOAT64, &A));
    CHECK_STATUS(h, DOMINO_BAD_INPUT, solve_declared(h, A, DOMINO_D3N7, 9, 8, 7, DOMINO_LOWER));
    CHECK(strstr(domino_last_error(h), "row") && strstr(domino_last_error(h), "column"));
    /* ... in the other direction it is fine: D3N7 entries are D3N27 neighbours */
    domino_matrix_free(A);
    A = NULL;
    CHECK_OK(h, domino_gen_stencil(h, DOMINO_D3N7, 9, 8, 7, DOMINO_PART_FULL, DOMINO_FLOAT64, &A));
    CHECK_OK(h, solve_declared(h, A, DOMINO_D3N27, 9, 8, 7, DOMINO_UPPER));
    /* the wrong grid: size mismatch, and a grid of the right size but other shape */
    CHECK_STATUS(h, DOMINO_DIMENSION_MISMATCH, solve_declared(h, A, DOMINO_D3N7, 9, 8, 8, DOMINO_LOWER));
    CHECK_STATUS(h, DOMINO_BAD_INPUT, solve_declared(h, A, DOMINO_D3N7, 8, 9, 7, DOMINO_LOWER));
    domino_matrix_free(A);
    /* an entry that wraps around the grid: row 5 = (0,1) of a 5x4 D2N5 grid
     * reading column 4 = (4,0), a delta of -1 that is not its x-1 neighbour */
    int32_t rows[64], cols[64];
    double vals[64];
    int64_t nnz = 0;
    for (int32_t i = 0; i < 20; i++) {
        rows[nnz] = i; cols[nnz] = i; vals[nnz++] = 4;
        if (i % 5) { rows[nnz] = i; cols[nnz] = i - 1; vals[nnz++] = -1; }
        if (i >= 5) { rows[nnz] = i; cols[nnz] = i - 5; vals[nnz++] = -1; }
    }
    rows[nnz] = 5; cols[nnz] = 4; vals[nnz++] = -1;
    CHECK_OK(h, domino_matrix_from_coo(h, DOMINO_CSR, DOMINO_FLOAT64, 20, 20, nnz, rows, cols, vals, &W));
    CHECK_STATUS(h, DOMINO_BAD_INPUT, solve_declared(h, W, DOMINO_D2N5, 5, 4, 1, DOMINO_LOWER));
    CHECK(strstr(domino_last_error(h), "row 5") && strstr(domino_last_error(h), "column 4"));
    domino_matrix_free(W);
    /* a zero pivot, named */
    nnz = 0;
    for (int32_t i = 0; i < 20; i++) {
        rows[nnz] = i; cols[nnz] = i; vals[nnz++] = i == 13 ? 0 : 4;
        if (i % 5) { rows[nnz] = i; cols[nnz] = i - 1; vals[nnz++] = -1; }
    }
    CHECK_OK(h, domino_matrix_from_coo(h, DOMINO_CSR, DOMINO_FLOAT64, 20, 20, nnz, rows, cols, vals, &W));
    CHECK_STATUS(h, DOMINO_ZERO_PIVOT, solve_declared(h, W, DOMINO_D2N5, 5, 4, 1, DOMINO_LOWER));
    CHECK(strstr(domino_last_error(h), "row 13") != NULL);
    domino_matrix_free(W);
    /* no diagonal entry in row 7 */
    nnz = 0;
    for (int32_t i = 0; i < 20; i++) {
        if (i != 7) { rows[nnz] = i; cols[nnz] = i; vals[nnz++] = 4; }
        if (i % 5) { rows[nnz] = i; cols[nnz] = i - 1; vals[nnz++] = -1; }
    }
    CHECK_OK(h, domino_matrix_from_coo(h, DOMINO_CSR, DOMINO_FLOAT64, 20, 20, nnz, rows, cols, vals, &W));
    CHECK_STATUS(h, DOMINO_ZERO_DIAGONAL, solve_declared(h, W, DOMINO_D2N5, 5, 4, 1, DOMINO_LOWER));
    CHECK(strstr(domino_last_error(h), "row 7") != NULL);
    domino_matrix_free(W);
    /* misuse */
    domino_dstencil D = NULL;
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_dstencil_from_dmatrix(h, NULL, DOMINO_D3N7, 2, 2, 2, DOMINO_LOWER, &D));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_dstencil_upload(h, NULL, DOMINO_LOWER, &D));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_dstencil_trsv(h, NULL, DOMINO_NON_UNIT, NULL, &D, &D));
    CHECK(D == NULL);
    domino_dstencil_free(NULL);
}

/* the AUTO engine of domino_trsv_* on a stencil CSR takes the structured
 * solve (lower and upper, op N and op T -- the compact copy of S scattered
 * from the CSR of S^T --, one or several right-hand sides, new values, pivots);
 * on a DAG it does not, and a forced STENCIL engine says why; thin grids
 * (most lines on the boundary) are detected too */
static void test_trsv_auto(domino_handle h)
{
    static const struct { domino_stencil st; int32_t nx, ny, nz; } probs[] = {
        {DOMINO_D3N27, 20, 17, 13}, {DOMINO_D2N5, 61, 40, 1}, {DOMINO_D3N13, 9, 33, 7}, {DOMINO_D3N7, 40, 1, 30},
        {DOMINO_D3N19, 70, 7, 6}, {DOMINO_D3N27, 50, 6, 5}}; /* thin grids: the detector's windows */
    for (int k = 0; k < (int)(sizeof probs / sizeof probs[0]); k++)
        for (int fo = 0; fo < 4; fo++) {
            int fill = fo & 1;
            domino_op op = fo >> 1 ? DOMINO_OP_T : DOMINO_OP_N; /* op T: S^T scattered, not transposed */
            domino_matrix A = NULL;
            domino_dmatrix dA = NULL;
            domino_trsv_plan plan = NULL;
            domino_fill f = fill ? DOMINO_UPPER : DOMINO_LOWER;
            /* one right-hand side on every other grid: AUTO then samples the
             * pattern it downloaded for the level count (small systems) */
            const int32_t nrhs = k % 2 ? 1 : 3;
            int32_t n = probs[k].nx * probs[k].ny * probs[k].nz;
            size_t bytes = (size_t)n * nrhs * sizeof(double);
            double *b = malloc(bytes), *x = malloc(bytes), *xref = malloc(bytes);
            void *db = NULL, *dx = NULL;
            CHECK_OK(h, domino_gen_stencil(h, probs[k].st, probs[k].nx, probs[k].ny, probs[k].nz,
                                           DOMINO_PART_FULL, DOMINO_FLOAT64, &A));
            if (!A || !b || !x || !xref) goto next;
            randomize(A);
            for (size_t i = 0; i < (size_t)n * nrhs; i++) b[i] = 2 * rng_uniform() - 1;
            CHECK_OK(h, domino_ref_trsv(h, op, f, DOMINO_NON_UNIT, A, nrhs, b, n, xref, n));
            CHECK_OK(h, domino_dmatrix_upload(h, A, &dA));
            CHECK_OK(h, domino_gpu_malloc(h, bytes, &db));
            CHECK_OK(h, domino_gpu_malloc(h, bytes, &dx));
            if (!dA || !db || !dx) goto next;
            CHECK_OK(h, domino_gpu_upload(h, db, b, bytes));
            CHECK_OK(h, domino_trsv_analysis(h, op, f, DOMINO_NON_UNIT, dA, nrhs, NULL, NULL, &plan));
            if (!plan) goto next;
            CHECK_OK(h, domino_trsv_plan_settle(h, plan)); /* a small system's choice, made beside */
            CHECK(domino_trsv_plan_engine(plan) == DOMINO_ENGINE_STENCIL);
            for (int round = 0; round < 2; round++) {
                if (round == 1) { /* new values, same plan */
                    randomize(A);
                    CHECK_OK(h, domino_dmatrix_update_values(h, dA, A));
                    CHECK_OK(h, domino_ref_trsv(h, op, f, DOMINO_NON_UNIT, A, nrhs, b, n, xref, n));
                }
                CHECK_OK(h, domino_trsv_solve(h, plan, db, n, dx, n, 1));
                CHECK_OK(h, domino_gpu_download(h, x, dx, bytes));
                double diff = 0, scale = 0;
                for (size_t i = 0; i < (size_t)n * nrhs; i++) {
                    scale = fmax(scale, fabs(xref[i]));
                    diff = fmax(diff, isfinite(x[i]) ? fabs(x[i] - xref[i]) : INFINITY);
                }
                if (diff <= FORWARD_EPS * domino_type_eps(DOMINO_FLOAT64) * scale) {
                    check_passed++;
                } else {
                    check_failed++;
                    fprintf(stderr, "FAIL: trsv auto %s %s%s round %d: max diff %.3e\n",
                            domino_stencil_name(probs[k].st), fill ? "upper" : "lower",
                            op == DOMINO_OP_T ? " op T" : "", round, diff);
                }
            }
        next:
            domino_trsv_plan_free(plan);
            domino_dmatrix_free(dA);
            domino_matrix_free(A);
            domino_gpu_free(db);
            domino_gpu_free(dx);
            free(b);
            free(x);
            free(xref);
        }
    /* a random DAG is not a stencil */
    domino_matrix G = NULL;
    domino_dmatrix dG = NULL;
    domino_trsv_plan plan = NULL;
    domino_trsv_options opt;
    CHECK_OK(h, domino_gen_dag(h, 5000, 6, 40, 0, 3, DOMINO_FLOAT64, &G));
    if (G) CHECK_OK(h, domino_dmatrix_upload(h, G, &dG));
    if (dG) {
        CHECK_OK(h, domino_trsv_analysis(h, DOMINO_OP_N, DOMINO_LOWER, DOMINO_NON_UNIT, dG, 1, NULL, NULL, &plan));
        if (plan) CHECK_OK(h, domino_trsv_plan_settle(h, plan));
        CHECK(plan && domino_trsv_plan_engine(plan) != DOMINO_ENGINE_STENCIL);
        domino_trsv_plan_free(plan);
        plan = NULL;
        domino_trsv_options_init(&opt);
        opt.engine = DOMINO_ENGINE_STENCIL;
        CHECK_STATUS(h, DOMINO_NOT_SUPPORTED,
                     domino_trsv_analysis(h, DOMINO_OP_N, DOMINO_LOWER, DOMINO_NON_UNIT, dG, 1, &opt, NULL, &plan));
        CHECK(plan == NULL);
    }
    domino_dmatrix_free(dG);
    domino_matrix_free(G);
}

int main(void)
{
    domino_handle h = NULL;
    if (domino_gpu_count() == 0) {
        printf("test_gpu_stencil: no CUDA device, skipped\n");
        return 0;
    }
    test_rng_state = 0x2545f4914f6cdd1dULL; /* the sequence this test was written with */
    CHECK_OK(h, domino_create(&h));
    test_solves(h);
    test_duplicates(h);
    test_tiles(h);
    test_bad_input(h);
    test_trsv_auto(h);
    /* the entry check and the compact copy with every block's rows staged
     * in shared memory, then with none (stencil_convert.cu stages by
     * default the triangles of 8 entries a row or more: D3N19, D3N27,
     * D3N33): the same answers and the same bad input found; the full
     * D3N33 (33 entries a row) overflows the stage and takes the unstaged
     * reads */
    setenv("DOMINO_STENCIL_STAGE", "1", 1);
    test_solves(h);
    test_bad_input(h);
    setenv("DOMINO_STENCIL_STAGE", "0", 1);
    test_solves(h);
    test_bad_input(h);
    unsetenv("DOMINO_STENCIL_STAGE");
    domino_destroy(h);
    return check_summary("test_gpu_stencil");
}
