/* test_gen.c: stencil, R-MAT and random-DAG generators */
#include "check.h"
#include "internal.h"

#include <float.h>
#include <string.h>

static domino_handle h;

static int64_t positive(int64_t v) { return v > 0 ? v : 0; }

/* number of levels of the lower triangle of CSR L: longest dependency path,
 * computed row by row (O(nnz)) */
static int32_t lower_levels(domino_matrix L)
{
    int32_t n = L->nrows, deepest = 0;
    int32_t *level = malloc(((size_t)n + 1) * sizeof(int32_t));
    if (!level) return -1;
    for (int32_t i = 0; i < n; i++) {
        int32_t l = 1;
        for (int64_t k = L->ptr[i]; k < L->ptr[i + 1]; k++) {
            int32_t j = L->ind[k];
            if (j < i && level[j] + 1 > l) l = level[j] + 1;
        }
        level[i] = l;
        if (l > deepest) deepest = l;
    }
    free(level);
    return deepest;
}

/* 1 if A and B hold the same arrays and values */
static int same_arrays(domino_matrix A, domino_matrix B)
{
    if (!A || !B || A->nrows != B->nrows || A->ncols != B->ncols || A->nnz != B->nnz) return 0;
    if (memcmp(A->ptr, B->ptr, ((size_t)A->nrows + 1) * sizeof(int64_t))) return 0;
    if (A->nnz && memcmp(A->ind, B->ind, (size_t)A->nnz * sizeof(int32_t))) return 0;
    for (int64_t k = 0; k < A->nnz; k++)
        if (fabs(domino_matrix_value(A, k) - domino_matrix_value(B, k)) > 0) return 0;
    return 1;
}

static void test_stencil_table(void)
{
    static const char *names[] = {"D2N5", "D2N9", "D3N7", "D3N13", "D3N19", "D3N27", "D3N33"};
    static const int points[] = {5, 9, 7, 13, 19, 27, 33};
    for (int s = 0; s < 7; s++) {
        domino_stencil parsed = (domino_stencil)-1;
        CHECK_OK(NULL, domino_stencil_parse(names[s], &parsed));
        CHECK(parsed == (domino_stencil)s);
        char lower[8] = {0};
        for (int k = 0; names[s][k]; k++)
            lower[k] = (char)(names[s][k] >= 'A' && names[s][k] <= 'Z' ? names[s][k] - 'A' + 'a'
                                                                        : names[s][k]);
        CHECK_OK(NULL, domino_stencil_parse(lower, &parsed));
        CHECK(parsed == (domino_stencil)s);
        CHECK(strcmp(domino_stencil_name((domino_stencil)s), names[s]) == 0);
        CHECK(domino_stencil_points((domino_stencil)s) == points[s]);
        int off[3 * 33];
        CHECK(domino_stencil_offsets((domino_stencil)s, off) == points[s]);
        for (int k = 1; k < points[s]; k++) { /* increasing (dz, dy, dx) */
            int64_t before = off[3 * k - 3] + 8 * (off[3 * k - 2] + 8 * off[3 * k - 1]);
            int64_t here = off[3 * k] + 8 * (off[3 * k + 1] + 8 * off[3 * k + 2]);
            CHECK(before < here);
        }
    }
    domino_stencil parsed;
    CHECK_STATUS(NULL, DOMINO_INVALID_VALUE, domino_stencil_parse("d3n28", &parsed));
    CHECK_STATUS(NULL, DOMINO_INVALID_VALUE, domino_stencil_parse("d3n2", &parsed));
    CHECK_STATUS(NULL, DOMINO_INVALID_VALUE, domino_stencil_parse("", &parsed));
    CHECK_STATUS(NULL, DOMINO_NULL_POINTER, domino_stencil_parse(NULL, &parsed));
    CHECK(domino_stencil_points((domino_stencil)9) == 0);
    CHECK(strcmp(domino_stencil_name((domino_stencil)9), "unknown") == 0);
}

/* nnz of the full stencil matrix: per offset, the points whose neighbour
 * is inside the grid */
static int64_t expected_nnz(domino_stencil s, int32_t nx, int32_t ny, int32_t nz)
{
    int off[3 * 33];
    int points = domino_stencil_offsets(s, off);
    int64_t nnz = 0;
    for (int k = 0; k < points; k++)
        nnz += positive(nx - abs(off[3 * k])) * positive(ny - abs(off[3 * k + 1])) *
               positive(nz - abs(off[3 * k + 2]));
    return nnz;
}

/* structure and values of the stencil matrices of s on one grid */
static void check_stencil_grid(domino_stencil s, int32_t nx, int32_t ny, int32_t nz)
{
    domino_matrix F = NULL, L = NULL, U = NULL, FT = NULL, F32 = NULL;
    int64_t n = (int64_t)nx * ny * nz;
    CHECK_OK(h, domino_gen_stencil(h, s, nx, ny, nz, DOMINO_PART_FULL, DOMINO_FLOAT64, &F));
    CHECK_OK(h, domino_gen_stencil(h, s, nx, ny, nz, DOMINO_PART_LOWER, DOMINO_FLOAT64, &L));
    CHECK_OK(h, domino_gen_stencil(h, s, nx, ny, nz, DOMINO_PART_UPPER, DOMINO_FLOAT64, &U));
    CHECK_OK(h, domino_gen_stencil(h, s, nx, ny, nz, DOMINO_PART_FULL, DOMINO_FLOAT32, &F32));
    if (!F || !L || !U || !F32) goto cleanup;
    CHECK(F->nrows == n && F->ncols == n && F->format == DOMINO_CSR);
    CHECK(F->nnz == expected_nnz(s, nx, ny, nz));
    if (s == DOMINO_D3N7)
        CHECK(F->nnz == 7 * n - 2 * ((int64_t)ny * nz + (int64_t)nx * nz + (int64_t)nx * ny));
    if (s == DOMINO_D2N5) CHECK(F->nnz == 5 * n - 2 * ((int64_t)nx + ny));
    CHECK(L->nnz == (F->nnz + n) / 2 && U->nnz == L->nnz);
    CHECK_OK(h, domino_matrix_validate(h, F, DOMINO_CHECK_ALL, NULL));
    CHECK_OK(h, domino_matrix_validate(h, L, DOMINO_CHECK_ALL, NULL));
    CHECK_OK(h, domino_matrix_validate(h, U, DOMINO_CHECK_ALL, NULL));
    /* symmetric: A == A^T */
    CHECK_OK(h, domino_matrix_transpose(h, F, &FT));
    CHECK(same_arrays(F, FT));
    CHECK(F32->type == DOMINO_FLOAT32);
    CHECK(F32->nnz == F->nnz && memcmp(F32->ind, F->ind, (size_t)F->nnz * 4) == 0);
    /* values; lower + upper - diagonal == full, row by row */
    int points = domino_stencil_points(s);
    int ok = 1;
    for (int32_t i = 0; i < F->nrows && ok; i++) {
        int64_t lk = L->ptr[i], uk = U->ptr[i];
        for (int64_t k = F->ptr[i]; k < F->ptr[i + 1]; k++) {
            int32_t j = F->ind[k];
            double v = domino_matrix_value(F, k);
            ok &= v == (j == i ? (double)points : -1.0);
            if (j <= i) ok &= lk < L->ptr[i + 1] && L->ind[lk] == j && domino_matrix_value(L, lk++) == v;
            if (j >= i) ok &= uk < U->ptr[i + 1] && U->ind[uk] == j && domino_matrix_value(U, uk++) == v;
        }
        ok &= lk == L->ptr[i + 1] && uk == U->ptr[i + 1];
    }
    CHECK(ok);
    if (!ok) fprintf(stderr, "  %s on %d x %d x %d\n", domino_stencil_name(s), nx, ny, nz);
cleanup:
    domino_matrix_free(F);
    domino_matrix_free(L);
    domino_matrix_free(U);
    domino_matrix_free(FT);
    domino_matrix_free(F32);
}

static void test_stencil_structure(void)
{
    static const int32_t grids[][3] = {{1, 1, 1}, {2, 1, 1}, {1, 3, 1}, {5, 4, 1}, {3, 7, 1},
                                       {2, 3, 4}, {5, 4, 3}, {1, 1, 6}, {7, 6, 5}, {4, 4, 4}};
    for (int s = 0; s < 7; s++)
        for (int g = 0; g < 10; g++) {
            if (s <= DOMINO_D2N9 && grids[g][2] != 1) continue;
            check_stencil_grid((domino_stencil)s, grids[g][0], grids[g][1], grids[g][2]);
        }
}

/* levels of the lower triangle against the closed forms.  With x fastest:
 * D2N5 nx+ny-1, D3N7 nx+ny+nz-2; for the box stencils a row step may move
 * x forward by one and a plane step x and y forward by one, so with
 * a = min(nx,2), b = min(ny,2): D2N9 nx + a(ny-1), D3N27 nx + a(ny-1) +
 * ab(nz-1) (checked here against the longest path for every grid) */
static void test_stencil_levels(void)
{
    static const int32_t grids[][3] = {{1, 1, 1}, {1, 5, 1}, {4, 1, 1}, {6, 5, 1}, {3, 8, 1},
                                       {2, 2, 2}, {5, 4, 3}, {1, 4, 5}, {3, 1, 4}, {9, 7, 6}};
    for (int g = 0; g < 10; g++) {
        int32_t nx = grids[g][0], ny = grids[g][1], nz = grids[g][2];
        int32_t a = nx < 2 ? nx : 2, b = ny < 2 ? ny : 2;
        domino_stencil stencils[] = {DOMINO_D2N5, DOMINO_D2N9, DOMINO_D3N7, DOMINO_D3N27};
        int32_t want[] = {nx + ny - 1, nx + a * (ny - 1), nx + ny + nz - 2,
                          nx + a * (ny - 1) + a * b * (nz - 1)};
        for (int k = 0; k < 4; k++) {
            if (k < 2 && nz != 1) continue;
            domino_matrix L = NULL;
            CHECK_OK(h, domino_gen_stencil(h, stencils[k], nx, ny, nz, DOMINO_PART_LOWER,
                                           DOMINO_FLOAT64, &L));
            if (!L) continue;
            int32_t got = lower_levels(L);
            CHECK(got == want[k]);
            if (got != want[k])
                fprintf(stderr, "  %s %dx%dx%d: %d levels, expected %d\n",
                        domino_stencil_name(stencils[k]), nx, ny, nz, got, want[k]);
            domino_matrix_free(L);
        }
    }
}

static void test_stencil_errors(void)
{
    domino_matrix A = (domino_matrix)1;
    CHECK_STATUS(h, DOMINO_NULL_POINTER,
                 domino_gen_stencil(h, DOMINO_D3N7, 2, 2, 2, DOMINO_PART_FULL, DOMINO_FLOAT64, NULL));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE,
                 domino_gen_stencil(h, DOMINO_D2N5, 4, 4, 2, DOMINO_PART_FULL, DOMINO_FLOAT64, &A));
    CHECK(A == NULL);
    CHECK_STATUS(h, DOMINO_INVALID_VALUE,
                 domino_gen_stencil(h, DOMINO_D3N7, 0, 4, 2, DOMINO_PART_FULL, DOMINO_FLOAT64, &A));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE,
                 domino_gen_stencil(h, DOMINO_D3N7, 4, -1, 2, DOMINO_PART_FULL, DOMINO_FLOAT64, &A));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE,
                 domino_gen_stencil(h, DOMINO_D3N7, 2048, 1024, 1024, DOMINO_PART_FULL,
                                    DOMINO_FLOAT64, &A));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE,
                 domino_gen_stencil(h, (domino_stencil)11, 2, 2, 2, DOMINO_PART_FULL,
                                    DOMINO_FLOAT64, &A));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE,
                 domino_gen_stencil(h, DOMINO_D3N7, 2, 2, 2, (domino_part)5, DOMINO_FLOAT64, &A));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE,
                 domino_gen_stencil(h, DOMINO_D3N7, 2, 2, 2, DOMINO_PART_FULL, (domino_type)3, &A));
    /* an allocation failure leaves nothing behind */
    int64_t live = domino_debug_alloc_live();
    domino_debug_fail_alloc_after(2);
    CHECK_STATUS(h, DOMINO_OUT_OF_MEMORY,
                 domino_gen_stencil(h, DOMINO_D3N7, 4, 4, 4, DOMINO_PART_FULL, DOMINO_FLOAT64, &A));
    domino_debug_fail_alloc_after(0);
    CHECK(A == NULL && domino_debug_alloc_live() == live);
    /* a medium grid, as a smoke test of the parallel build */
    double t = domino_wtime();
    CHECK_OK(h, domino_gen_stencil(h, DOMINO_D3N27, 64, 64, 64, DOMINO_PART_FULL, DOMINO_FLOAT64, &A));
    CHECK(A && A->nnz == expected_nnz(DOMINO_D3N27, 64, 64, 64));
    printf("D3N27 64^3: %lld nnz in %.3f s\n", A ? (long long)A->nnz : 0LL, domino_wtime() - t);
    domino_matrix_free(A);
}

static void test_rmat(void)
{
    domino_matrix A = NULL, B = NULL, C = NULL;
    int scale = 10, edge_factor = 8;
    CHECK_OK(h, domino_gen_rmat(h, scale, edge_factor, 0.57, 0.19, 0.19, 0.05, 42, DOMINO_FLOAT64, &A));
    CHECK_OK(h, domino_gen_rmat(h, scale, edge_factor, 0.57, 0.19, 0.19, 0.05, 42, DOMINO_FLOAT64, &B));
    CHECK_OK(h, domino_gen_rmat(h, scale, edge_factor, 0.57, 0.19, 0.19, 0.05, 43, DOMINO_FLOAT64, &C));
    if (A && B && C) {
        CHECK(A->nrows == 1024 && A->ncols == 1024 && A->format == DOMINO_CSR);
        CHECK(A->nnz > 0 && A->nnz <= (int64_t)edge_factor << scale);
        CHECK(same_arrays(A, B));
        CHECK(!same_arrays(A, C));
        CHECK_OK(h, domino_matrix_validate(h, A, DOMINO_CHECK_ALL & ~DOMINO_CHECK_DIAGONAL, NULL));
        int ones = 1;
        for (int64_t k = 0; k < A->nnz; k++) ones &= domino_matrix_value(A, k) == 1.0;
        CHECK(ones);
        /* skew: with a > d the first rows get more edges than the last */
        CHECK(A->ptr[64] - A->ptr[0] > A->ptr[1024] - A->ptr[960]);
    }
    domino_matrix_free(A);
    domino_matrix_free(B);
    domino_matrix_free(C);
    /* a = 1: every edge is (0, 0) */
    CHECK_OK(h, domino_gen_rmat(h, 3, 2, 1.0, 0.0, 0.0, 0.0, 7, DOMINO_FLOAT32, &A));
    CHECK(A && A->nnz == 1 && A->ind[0] == 0 && A->ptr[1] == 1 && A->type == DOMINO_FLOAT32);
    domino_matrix_free(A);
    /* d = 1: every edge is (n-1, n-1) */
    CHECK_OK(h, domino_gen_rmat(h, 3, 2, 0.0, 0.0, 0.0, 1.0, 7, DOMINO_FLOAT64, &A));
    CHECK(A && A->nnz == 1 && A->ind[0] == 7 && A->ptr[7] == 0);
    domino_matrix_free(A);
    A = (domino_matrix)1;
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_gen_rmat(h, 4, 4, 0.5, 0.2, 0.2, 0.2, 1, DOMINO_FLOAT64, &A));
    CHECK(A == NULL);
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_gen_rmat(h, 4, 4, 1.2, -0.2, 0.0, 0.0, 1, DOMINO_FLOAT64, &A));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_gen_rmat(h, 0, 4, 0.25, 0.25, 0.25, 0.25, 1, DOMINO_FLOAT64, &A));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_gen_rmat(h, 31, 4, 0.25, 0.25, 0.25, 0.25, 1, DOMINO_FLOAT64, &A));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_gen_rmat(h, 4, 0, 0.25, 0.25, 0.25, 0.25, 1, DOMINO_FLOAT64, &A));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_gen_rmat(h, 4, 4, NAN, 0.25, 0.25, 0.25, 1, DOMINO_FLOAT64, &A));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_gen_rmat(h, 4, 4, 0.25, 0.25, 0.25, 0.25, 1, DOMINO_FLOAT64, NULL));
    int64_t live = domino_debug_alloc_live();
    for (int64_t k = 1; k <= 8; k++) {
        domino_debug_fail_alloc_after(k);
        domino_status s = domino_gen_rmat(h, 6, 4, 0.57, 0.19, 0.19, 0.05, 1, DOMINO_FLOAT64, &A);
        domino_debug_fail_alloc_after(0);
        CHECK(s == DOMINO_SUCCESS || s == DOMINO_OUT_OF_MEMORY);
        domino_matrix_free(A);
        CHECK(domino_debug_alloc_live() == live);
    }
}

/* checks of one DAG: levels, lower, sorted, valid, band, dominance */
static void check_dag(int32_t n, int32_t per_row, int32_t levels, int32_t band, uint64_t seed)
{
    domino_matrix A = NULL, B = NULL;
    CHECK_OK(h, domino_gen_dag(h, n, per_row, levels, band, seed, DOMINO_FLOAT64, &A));
    CHECK_OK(h, domino_gen_dag(h, n, per_row, levels, band, seed, DOMINO_FLOAT64, &B));
    if (!A || !B) goto cleanup;
    CHECK(same_arrays(A, B));
    CHECK(A->nrows == n && A->ncols == n && A->format == DOMINO_CSR);
    CHECK_OK(h, domino_matrix_validate(h, A, DOMINO_CHECK_ALL, NULL));
    int32_t got = lower_levels(A);
    CHECK(got == levels);
    int ok = 1;
    for (int32_t i = 0; i < n && ok; i++) {
        int64_t l = ((int64_t)i + 1) * levels / n; /* level of i: largest l with start_l <= i */
        while (l > 0 && l * n / levels > i) l--;
        while (l + 1 < levels && (l + 1) * n / levels <= i) l++;
        int32_t start = (int32_t)(l * n / levels), prev_last = start - 1;
        int64_t len = A->ptr[i + 1] - A->ptr[i];
        double off_sum = 0.0, diagonal = 0.0;
        int reads_previous = 0;
        ok &= len <= (per_row > 2 ? per_row : 2) && A->ind[A->ptr[i + 1] - 1] == i;
        if (l == 0) ok &= len == 1;
        for (int64_t k = A->ptr[i]; k < A->ptr[i + 1]; k++) {
            int32_t j = A->ind[k];
            double v = domino_matrix_value(A, k);
            if (j == i) {
                diagonal = v;
                continue;
            }
            ok &= j < start && v >= -1.0 && v <= -0.1;
            off_sum += fabs(v);
            reads_previous |= (int64_t)j >= (l - 1) * n / levels;
            if (band > 0) ok &= i - j <= band || (j == prev_last && len == 2);
        }
        if (l > 0) ok &= reads_previous;
        if (levels == n && i > 0) ok &= len >= 2 && A->ind[A->ptr[i + 1] - 2] == i - 1;
        ok &= diagonal > off_sum && fabs(diagonal - 1.0 - off_sum) <= 8 * DBL_EPSILON * diagonal;
        if (!ok) fprintf(stderr, "  dag n=%d levels=%d band=%d: row %d wrong\n", n, levels, band, i);
    }
    CHECK(ok);
    CHECK(got == levels);
cleanup:
    domino_matrix_free(A);
    domino_matrix_free(B);
}

static void test_dag(void)
{
    int32_t level_counts[] = {1, 2, 10, 1000};
    for (int k = 0; k < 4; k++) {
        check_dag(1000, 8, level_counts[k], 0, 1);
        check_dag(1000, 8, level_counts[k], 30, 2);
        check_dag(1000, 3, level_counts[k], 200, 3);
    }
    check_dag(1, 8, 1, 0, 4);
    check_dag(7, 1, 7, 0, 5);
    check_dag(997, 20, 13, 5, 6);
    /* rows with enough candidates have nnz_per_row entries: level 1 of 2 */
    domino_matrix A = NULL, C = NULL;
    CHECK_OK(h, domino_gen_dag(h, 1000, 8, 2, 0, 9, DOMINO_FLOAT64, &A));
    CHECK(A && A->nnz == 500 + 500 * 8);
    CHECK_OK(h, domino_gen_dag(h, 1000, 8, 2, 0, 10, DOMINO_FLOAT64, &C));
    CHECK(A && C && !same_arrays(A, C));
    domino_matrix_free(A);
    domino_matrix_free(C);
    A = (domino_matrix)1;
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_gen_dag(h, 10, 4, 0, 0, 1, DOMINO_FLOAT64, &A));
    CHECK(A == NULL);
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_gen_dag(h, 10, 4, 11, 0, 1, DOMINO_FLOAT64, &A));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_gen_dag(h, 0, 4, 1, 0, 1, DOMINO_FLOAT64, &A));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_gen_dag(h, 10, 0, 1, 0, 1, DOMINO_FLOAT64, &A));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_gen_dag(h, 10, 4, 2, -1, 1, DOMINO_FLOAT64, &A));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_gen_dag(h, 10, 4, 2, 0, 1, DOMINO_FLOAT64, NULL));
    int64_t live = domino_debug_alloc_live();
    for (int64_t k = 1; k <= 8; k++) {
        domino_debug_fail_alloc_after(k);
        domino_status s = domino_gen_dag(h, 100, 5, 10, 0, 1, DOMINO_FLOAT32, &A);
        domino_debug_fail_alloc_after(0);
        CHECK(s == DOMINO_SUCCESS || s == DOMINO_OUT_OF_MEMORY);
        domino_matrix_free(A);
        CHECK(domino_debug_alloc_live() == live);
    }
}

int main(void)
{
    if (domino_create(&h)) return 1;
    int64_t live = domino_debug_alloc_live();
    test_stencil_table();
    test_stencil_structure();
    test_stencil_levels();
    test_stencil_errors();
    test_rmat();
    test_dag();
    CHECK(domino_debug_alloc_live() == live);
    domino_destroy(h);
    return check_summary("test_gen");
}
