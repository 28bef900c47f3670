/* test_stencil.c: compact stencil storage: detection, round trip, CPU solve, errors */
#include "check.h"
#include "internal.h"

#include <string.h>

static domino_handle h;

typedef struct grid {
    int32_t nx, ny, nz; /* grid size */
} grid;

/* 1 if A and B hold the same arrays and bitwise the same values */
static int same_arrays(domino_matrix A, domino_matrix B)
{
    if (!A || !B || A->nrows != B->nrows || A->ncols != B->ncols || A->nnz != B->nnz ||
        A->type != B->type)
        return 0;
    if (memcmp(A->ptr, B->ptr, ((size_t)A->nrows + 1) * sizeof(int64_t))) return 0;
    if (A->nnz && memcmp(A->ind, B->ind, (size_t)A->nnz * sizeof(int32_t))) return 0;
    if (A->nnz && memcmp(A->val, B->val, (size_t)A->nnz * domino_type_size(A->type))) return 0;
    return 1;
}

/* sign of an offset in the linear order */
static int lex_sign(const int *off)
{
    int lead = off[2] != 0 ? off[2] : (off[1] != 0 ? off[1] : off[0]);
    return (lead > 0) - (lead < 0);
}

/* offsets of s that can occur on grid g in part, in linear order; returns count
 */
static int expected_offsets(domino_stencil s, grid g, domino_part part, int *want)
{
    int off[3 * 33], count = 0, points = domino_stencil_offsets(s, off);
    for (int k = 0; k < points; k++) {
        const int *o = off + 3 * k;
        if (abs(o[0]) >= g.nx || abs(o[1]) >= g.ny || abs(o[2]) >= g.nz) continue;
        if (part == DOMINO_PART_LOWER && lex_sign(o) > 0) continue;
        if (part == DOMINO_PART_UPPER && lex_sign(o) < 0) continue;
        memcpy(want + 3 * count++, o, 3 * sizeof(int));
    }
    return count;
}

/* max |x - y| / max |y| over n values of type t */
static double relative_difference(const void *x, const void *y, int64_t n, domino_type t)
{
    double diff = 0, scale = 0;
    for (int64_t i = 0; i < n; i++) {
        double a = t == DOMINO_FLOAT64 ? ((const double *)x)[i] : ((const float *)x)[i];
        double b = t == DOMINO_FLOAT64 ? ((const double *)y)[i] : ((const float *)y)[i];
        if (fabs(a - b) > diff) diff = fabs(a - b);
        if (fabs(b) > scale) scale = fabs(b);
    }
    return scale > 0 ? diff / scale : diff;
}

/* stencil solves of S (both fills, both diags) against domino_ref_trsv on A */
static void check_solves(const domino_stencil_matrix *S, domino_matrix A, domino_part part)
{
    int64_t n = A->nrows;
    size_t size = domino_type_size(A->type);
    void *b = malloc((size_t)n * size), *x = malloc((size_t)n * size),
         *want = malloc((size_t)n * size);
    if (!b || !x || !want) {
        CHECK(0);
        goto done;
    }
    domino_rng rng;
    domino_rng_seed(&rng, (uint64_t)n * 7 + (uint64_t)part);
    for (int64_t i = 0; i < n; i++) {
        double v = 2 * domino_rng_uniform(&rng) - 1;
        if (A->type == DOMINO_FLOAT64)
            ((double *)b)[i] = v;
        else
            ((float *)b)[i] = (float)v;
    }
    double tol = 10.0 * (double)n * domino_type_eps(A->type);
    for (int f = 0; f < 2; f++) {
        domino_fill fill = (domino_fill)f;
        if ((part == DOMINO_PART_LOWER && fill == DOMINO_UPPER) ||
            (part == DOMINO_PART_UPPER && fill == DOMINO_LOWER))
            continue;
        for (int d = 0; d < 2; d++) {
            domino_diag diag = (domino_diag)d;
            CHECK_OK(h, domino_ref_stencil_trsv(h, S, fill, diag, b, x));
            CHECK_OK(h, domino_ref_trsv(h, DOMINO_OP_N, fill, diag, A, 1, b, n, want, n));
            double rel = relative_difference(x, want, n, A->type);
            CHECK(rel <= tol);
            if (rel > tol)
                fprintf(stderr, "  %dx%dx%d fill %d diag %d: relative difference %g > %g\n", S->nx,
                        S->ny, S->nz, f, d, rel, tol);
        }
    }
    /* in place: x == b */
    memcpy(x, b, (size_t)n * size);
    domino_fill fill = part == DOMINO_PART_UPPER ? DOMINO_UPPER : DOMINO_LOWER;
    CHECK_OK(h, domino_ref_stencil_trsv(h, S, fill, DOMINO_NON_UNIT, x, x));
    CHECK_OK(h, domino_ref_trsv(h, DOMINO_OP_N, fill, DOMINO_NON_UNIT, A, 1, b, n, want, n));
    CHECK(relative_difference(x, want, n, A->type) <= tol);
done:
    free(b);
    free(x);
    free(want);
}

/* detect, compare offsets, round trip and solve one generated matrix */
static void check_one(domino_stencil s, grid g, domino_part part, domino_type type)
{
    domino_matrix A = NULL, B = NULL, L = NULL, Lgen = NULL;
    domino_stencil_matrix *S = NULL;
    CHECK_OK(h, domino_gen_stencil(h, s, g.nx, g.ny, g.nz, part, type, &A));
    CHECK_OK(h, domino_stencil_from_csr(h, A, g.nx, g.ny, g.nz, &S));
    if (!A || !S) goto done;
    int want[3 * 33];
    int count = expected_offsets(s, g, part, want);
    CHECK(S->npoints == count);
    CHECK(S->npoints == count && memcmp(S->offsets, want, (size_t)count * 3 * sizeof(int)) == 0);
    CHECK(S->nx == g.nx && S->ny == g.ny && S->nz == g.nz && S->type == type);
    CHECK_OK(h, domino_stencil_to_csr(h, S, part, &B));
    CHECK(same_arrays(A, B));
    if (part == DOMINO_PART_FULL) {
        CHECK_OK(h, domino_stencil_to_csr(h, S, DOMINO_PART_LOWER, &L));
        CHECK_OK(h, domino_gen_stencil(h, s, g.nx, g.ny, g.nz, DOMINO_PART_LOWER, type, &Lgen));
        CHECK(same_arrays(L, Lgen));
    }
    int lower = 0, upper = 0;
    for (int k = 0; k < count; k++) {
        lower += lex_sign(want + 3 * k) <= 0;
        upper += lex_sign(want + 3 * k) >= 0;
    }
    size_t n = (size_t)g.nx * g.ny * g.nz;
    CHECK(domino_stencil_matrix_bytes(S, DOMINO_LOWER) ==
          (size_t)lower * n * domino_type_size(type));
    CHECK(domino_stencil_matrix_bytes(S, DOMINO_UPPER) ==
          (size_t)upper * n * domino_type_size(type));
    check_solves(S, A, part);
done:
    domino_matrix_free(A);
    domino_matrix_free(B);
    domino_matrix_free(L);
    domino_matrix_free(Lgen);
    domino_stencil_matrix_free(S);
}

static void test_generated(void)
{
    static const grid grids2[] = {{1, 1, 1}, {1, 7, 1},  {9, 1, 1},  {2, 2, 1},
                                  {5, 7, 1}, {11, 3, 1}, {40, 33, 1}};
    static const grid grids3[] = {{1, 1, 1}, {1, 6, 1}, {6, 1, 1},  {1, 1, 5},
                                  {2, 3, 4}, {5, 7, 3}, {11, 3, 2}, {16, 16, 16}};
    for (int s = 0; s < 7; s++) {
        int two_d = s == DOMINO_D2N5 || s == DOMINO_D2N9;
        const grid *grids = two_d ? grids2 : grids3;
        int ngrids = two_d ? 7 : 8;
        for (int k = 0; k < ngrids; k++)
            for (int part = 0; part < 3; part++)
                check_one((domino_stencil)s, grids[k], (domino_part)part, DOMINO_FLOAT64);
        grid g = two_d ? (grid){11, 3, 1} : (grid){5, 7, 3};
        check_one((domino_stencil)s, g, DOMINO_PART_FULL, DOMINO_FLOAT32);
    }
}

/* a CSR matrix on n rows: the diagonal plus one extra entry (row, col) */
static domino_matrix diagonal_plus(int32_t n, int32_t ncols, int32_t row, int32_t col)
{
    int32_t rows[64], cols[64];
    double vals[64];
    int32_t k = 0;
    for (int32_t i = 0; i < n && i < ncols && k < 63; i++, k++) rows[k] = cols[k] = i, vals[k] = 4;
    rows[k] = row, cols[k] = col, vals[k] = -1, k++;
    domino_matrix A = NULL;
    CHECK_OK(h, domino_matrix_from_coo(h, DOMINO_CSR, DOMINO_FLOAT64, n, ncols, k, rows, cols, vals,
                                       &A));
    return A;
}

/* expect `want` from from_csr on A with a message containing each of two
 * strings */
static void expect_rejected(domino_matrix A, grid g, domino_status want, const char *text1,
                            const char *text2)
{
    domino_stencil_matrix *S = (domino_stencil_matrix *)&S; /* must be reset to NULL */
    CHECK_STATUS(h, want, domino_stencil_from_csr(h, A, g.nx, g.ny, g.nz, &S));
    CHECK(S == NULL);
    const char *message = domino_last_error(h);
    CHECK(strstr(message, text1) != NULL);
    CHECK(!text2 || strstr(message, text2) != NULL);
    if (!strstr(message, text1) || (text2 && !strstr(message, text2)))
        fprintf(stderr, "  message: %s\n", message);
}

static void test_bad_inputs(void)
{
    /* 4x3x1: row 4 is (x=0,y=1); column 3 is i-1, which wraps around x */
    domino_matrix A = diagonal_plus(12, 12, 4, 3);
    expect_rejected(A, (grid){4, 3, 1}, DOMINO_BAD_INPUT, "row 4 (x=0,y=1,z=0) column 3",
                    "wraps around the x boundary");
    domino_matrix_free(A);
    /* 4x4x2: row 16 is (0,0,1); column 12 is i-4 (dy = -1), which wraps around y
     */
    A = diagonal_plus(32, 32, 16, 12);
    expect_rejected(A, (grid){4, 4, 2}, DOMINO_BAD_INPUT, "row 16", "wraps around the y boundary");
    domino_matrix_free(A);
    /* 8x2x1: column 3 of row 0 is offset (3,0,0), too far */
    A = diagonal_plus(16, 16, 0, 3);
    expect_rejected(A, (grid){8, 2, 1}, DOMINO_BAD_INPUT, "row 0 (x=0,y=0,z=0) column 3",
                    "not a grid neighbour");
    /* wrong n and wrong grid */
    expect_rejected(A, (grid){8, 3, 1}, DOMINO_DIMENSION_MISMATCH, "16 x 16", "8 x 3 x 1");
    expect_rejected(A, (grid){0, 3, 1}, DOMINO_INVALID_VALUE, "size below 1", NULL);
    domino_matrix_free(A);
    /* non-square */
    A = diagonal_plus(12, 13, 0, 12);
    expect_rejected(A, (grid){4, 3, 1}, DOMINO_DIMENSION_MISMATCH, "12 x 13", NULL);
    domino_matrix_free(A);
    /* more than 33 offsets: centre of a 5x5x5 grid joined to all 125 points */
    int32_t rows[125], cols[125];
    for (int k = 0; k < 125; k++) rows[k] = 62, cols[k] = k;
    CHECK_OK(h, domino_matrix_from_coo(h, DOMINO_CSR, DOMINO_FLOAT64, 125, 125, 125, rows, cols,
                                       NULL, &A));
    expect_rejected(A, (grid){5, 5, 5}, DOMINO_NOT_SUPPORTED, "125 distinct offsets", NULL);
    domino_matrix_free(A);
    domino_stencil_matrix *S = NULL;
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_stencil_from_csr(h, NULL, 1, 1, 1, &S));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_stencil_from_csr(h, A, 1, 1, 1, NULL));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_stencil_to_csr(h, NULL, DOMINO_PART_FULL, &A));
    CHECK(A == NULL);
    domino_stencil_matrix_free(NULL);
    CHECK(domino_stencil_matrix_bytes(NULL, DOMINO_LOWER) == 0);
}

/* zero pivot, missing centre, CSC input and bad arguments of the solve */
static void test_solve_errors(void)
{
    domino_matrix A = NULL, C = NULL, Lstrict = NULL;
    domino_stencil_matrix *S = NULL, *T = NULL, *U = NULL;
    double b[105], x[105];
    for (int i = 0; i < 105; i++) b[i] = 1;
    CHECK_OK(h, domino_gen_stencil(h, DOMINO_D3N7, 5, 7, 3, DOMINO_PART_FULL, DOMINO_FLOAT64, &A));
    CHECK_OK(h, domino_stencil_from_csr(h, A, 5, 7, 3, &S));
    CHECK_OK(h, domino_matrix_convert(h, A, DOMINO_CSC, &C));
    CHECK_OK(h, domino_stencil_from_csr(h, C, 5, 7, 3, &T));
    if (!S || !T) goto done;
    CHECK(S->npoints == T->npoints && memcmp(S->coef, T->coef, 7 * 105 * sizeof(double)) == 0);
    int centre = 3; /* (0,0,0) is the middle of the 7 sorted offsets */
    CHECK(S->offsets[3 * centre] == 0 && S->offsets[3 * centre + 1] == 0 &&
          S->offsets[3 * centre + 2] == 0);
    ((double *)S->coef)[centre * 105 + 37] = 0; /* row 37 = (2,0,1) */
    CHECK_STATUS(h, DOMINO_ZERO_PIVOT,
                 domino_ref_stencil_trsv(h, S, DOMINO_LOWER, DOMINO_NON_UNIT, b, x));
    CHECK(strstr(domino_last_error(h), "row 37 (x=2,y=0,z=1)") != NULL);
    CHECK_STATUS(h, DOMINO_ZERO_PIVOT,
                 domino_ref_stencil_trsv(h, S, DOMINO_UPPER, DOMINO_NON_UNIT, b, x));
    CHECK_OK(h, domino_ref_stencil_trsv(h, S, DOMINO_LOWER, DOMINO_UNIT, b, x));
    CHECK_STATUS(h, DOMINO_NULL_POINTER,
                 domino_ref_stencil_trsv(h, S, DOMINO_LOWER, DOMINO_UNIT, NULL, x));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE,
                 domino_ref_stencil_trsv(h, S, (domino_fill)5, DOMINO_UNIT, b, x));
    CHECK_STATUS(h, DOMINO_NULL_POINTER,
                 domino_ref_stencil_trsv(h, NULL, DOMINO_LOWER, DOMINO_UNIT, b, x));
    S->offsets[0] = 3; /* corrupt: beyond 2 */
    CHECK_STATUS(h, DOMINO_INVALID_VALUE,
                 domino_ref_stencil_trsv(h, S, DOMINO_LOWER, DOMINO_UNIT, b, x));
    /* strict lower triangle: no centre offset */
    CHECK_OK(h, domino_matrix_triangle(h, A, DOMINO_LOWER, DOMINO_DIAG_DROP, &Lstrict));
    CHECK_OK(h, domino_stencil_from_csr(h, Lstrict, 5, 7, 3, &U));
    if (U) {
        CHECK(U->npoints == 3);
        CHECK_STATUS(h, DOMINO_ZERO_DIAGONAL,
                     domino_ref_stencil_trsv(h, U, DOMINO_LOWER, DOMINO_NON_UNIT, b, x));
        CHECK(strstr(domino_last_error(h), "row 0") != NULL);
        CHECK_OK(h, domino_ref_stencil_trsv(h, U, DOMINO_LOWER, DOMINO_UNIT, b, x));
    }
done:
    domino_matrix_free(A);
    domino_matrix_free(C);
    domino_matrix_free(Lstrict);
    domino_stencil_matrix_free(S);
    domino_stencil_matrix_free(T);
    domino_stencil_matrix_free(U);
}

/* every allocation of from_csr (CSC input: conversion too), to_csr and the
 * solve fails in turn: OUT_OF_MEMORY, NULL outputs, nothing leaked */
static void test_allocation_failures(void)
{
    domino_matrix A = NULL, C = NULL;
    CHECK_OK(h, domino_gen_stencil(h, DOMINO_D3N19, 4, 3, 5, DOMINO_PART_FULL, DOMINO_FLOAT64, &A));
    CHECK_OK(h, domino_matrix_convert(h, A, DOMINO_CSC, &C));
    double b[60], x[60];
    for (int i = 0; i < 60; i++) b[i] = i;
    int64_t live = domino_debug_alloc_live();
    int failures = 0, bad = 0;
    for (int64_t n = 1; n < 100; n++) {
        domino_stencil_matrix *S = NULL;
        domino_matrix B = NULL;
        domino_debug_fail_alloc_after(n);
        domino_status s = domino_stencil_from_csr(h, C, 4, 3, 5, &S);
        if (!s) s = domino_stencil_to_csr(h, S, DOMINO_PART_LOWER, &B);
        if (!s) s = domino_ref_stencil_trsv(h, S, DOMINO_UPPER, DOMINO_NON_UNIT, b, x);
        domino_debug_fail_alloc_after(0);
        if (s == DOMINO_SUCCESS) {
            domino_matrix_free(B);
            domino_stencil_matrix_free(S);
            CHECK(domino_debug_alloc_live() == live);
            break;
        }
        failures++;
        bad += s != DOMINO_OUT_OF_MEMORY;
        domino_matrix_free(B);
        domino_stencil_matrix_free(S);
        bad += domino_debug_alloc_live() != live;
    }
    CHECK(failures >= 5);
    CHECK(bad == 0);
    domino_matrix_free(A);
    domino_matrix_free(C);
}

int main(void)
{
    CHECK_OK(NULL, domino_create(&h));
    int64_t live = domino_debug_alloc_live();
    test_generated();
    test_bad_inputs();
    test_solve_errors();
    test_allocation_failures();
    CHECK(domino_debug_alloc_live() == live);
    domino_destroy(h);
    return check_summary("test_stencil");
}
