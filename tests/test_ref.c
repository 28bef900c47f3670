/* test_ref.c: the CPU reference (trsv, syncfree trsv, levels, residual, spmv) */
#include "check.h"
#include "test_values.h"
#include "domino.h"

#include <stdint.h>
#include <string.h>

/* ------------------------------------------------------------ helpers */


/* dense op(T) (row-major n x n) of the fill triangle of dense A */
static void dense_op_triangle(const double *A, int32_t n, domino_op op, domino_fill fill,
                              domino_diag diag, double *T)
{
    for (int32_t i = 0; i < n; i++)
        for (int32_t j = 0; j < n; j++) {
            int in = fill == DOMINO_LOWER ? j <= i : j >= i;
            double v = in ? A[i * n + j] : 0.0;
            if (i == j && diag == DOMINO_UNIT) v = 1.0;
            if (op == DOMINO_OP_N)
                T[i * n + j] = v;
            else
                T[j * n + i] = v;
        }
}

/* Random n x n matrix with about `per_row` entries per row in each triangle,
 * values in [-1, 1), diagonal 1 + (row + column off-diagonal abs sums), so
 * every triangle and its transpose is strictly diagonally dominant. */
static domino_matrix random_matrix(domino_handle h, domino_format f, domino_type t, int32_t n,
                                   int per_row, int with_upper)
{
    int64_t cap = (int64_t)n * (2 * per_row + 1);
    int32_t *rows = malloc((size_t)cap * sizeof(int32_t));
    int32_t *cols = malloc((size_t)cap * sizeof(int32_t));
    double *vals = malloc((size_t)cap * sizeof(double));
    double *absum = calloc((size_t)n, sizeof(double));
    int64_t nnz = 0;
    for (int32_t i = 0; i < n; i++)
        for (int e = 0; e < 2 * per_row; e++) {
            if (i == 0 || (!with_upper && e >= per_row)) continue;
            int32_t j = lcg_below(i);
            if (e >= per_row) { /* mirror position in the upper triangle */
                int32_t r = j;
                j = i, rows[nnz] = r;
            } else {
                rows[nnz] = i;
            }
            cols[nnz] = j;
            vals[nnz] = 2.0 * lcg_uniform() - 1.0;
            absum[rows[nnz]] += fabs(vals[nnz]);
            absum[cols[nnz]] += fabs(vals[nnz]);
            nnz++;
        }
    for (int32_t i = 0; i < n; i++) {
        rows[nnz] = cols[nnz] = i;
        vals[nnz++] = 1.0 + absum[i];
    }
    domino_matrix A = NULL;
    CHECK_OK(h, domino_matrix_from_coo(h, f, t, n, n, nnz, rows, cols, vals, &A));
    free(rows), free(cols), free(vals), free(absum);
    return A;
}

static const char *combo_name(domino_format f, domino_op op, domino_fill fill, domino_diag d,
                              domino_type t)
{
    static char buf[96];
    snprintf(buf, sizeof buf, "%s %s %s %s %s", f == DOMINO_CSR ? "CSR" : "CSC",
             op == DOMINO_OP_N ? "N" : "T", fill == DOMINO_LOWER ? "lower" : "upper",
             d == DOMINO_UNIT ? "unit" : "non-unit", t == DOMINO_FLOAT64 ? "double" : "float");
    return buf;
}

/* ------------------------------------------------------------ tests */

/* L = [2 0 0; 1 4 0; 3 -1 5], x = [1 2 3] gives b = [2 9 16] by hand */
static void test_hand_worked_literal(domino_handle h)
{
    const double L[9] = {2, 0, 0, 1, 4, 0, 3, -1, 5};
    const double b[3] = {2, 9, 16};
    /* unit: x0 = 2, x1 = 9 - 2 = 7, x2 = 16 - 6 + 7 = 17 */
    const double x_unit[3] = {2, 7, 17};
    /* L^T x = b: x2 = 16/5, x1 = (9 + x2)/4, x0 = (2 - x1 - 3 x2)/2 */
    const double x2 = 16.0 / 5, x1 = (9 + x2) / 4, x_t[3] = {(2 - x1 - 3 * x2) / 2, x1, x2};
    for (int f = 0; f < 2; f++) {
        domino_matrix A = from_dense(h, (domino_format)f, DOMINO_FLOAT64, 3, 3, L);
        double x[3];
        CHECK_OK(h, domino_ref_trsv(h, DOMINO_OP_N, DOMINO_LOWER, DOMINO_NON_UNIT, A, 1, b, 3, x, 3));
        for (int i = 0; i < 3; i++) CHECK_NEAR(x[i], i + 1.0, 4 * 2.2e-16 * 3);
        CHECK_OK(h, domino_ref_trsv(h, DOMINO_OP_N, DOMINO_LOWER, DOMINO_UNIT, A, 1, b, 3, x, 3));
        for (int i = 0; i < 3; i++) CHECK_NEAR(x[i], x_unit[i], 0.0);
        CHECK_OK(h, domino_ref_trsv(h, DOMINO_OP_T, DOMINO_LOWER, DOMINO_NON_UNIT, A, 1, b, 3, x, 3));
        for (int i = 0; i < 3; i++) CHECK_NEAR(x[i], x_t[i], 16 * 2.2e-16 * 17);
        /* upper triangle of L is its diagonal only */
        CHECK_OK(h, domino_ref_trsv(h, DOMINO_OP_N, DOMINO_UPPER, DOMINO_NON_UNIT, A, 1, b, 3, x, 3));
        CHECK_NEAR(x[0], 1.0, 0);
        CHECK_NEAR(x[1], 9.0 / 4, 0);
        CHECK_NEAR(x[2], 16.0 / 5, 1e-15);
        domino_matrix_free(A);
    }
}

/* every format x op x fill x diag x type on a full 4x4 (the other triangle
 * must be ignored), b = op(T) x_true with small integers (exact) */
static void test_hand_worked_all_combos(domino_handle h)
{
    const double A4[16] = {2, 1, 3, 4, 1, 4, 2, 1, 3, -1, 5, 2, 1, 2, -2, 8};
    const double x_true[4] = {1, -2, 3, 2};
    for (int combo = 0; combo < 32; combo++) {
        domino_format f = combo & 1 ? DOMINO_CSC : DOMINO_CSR;
        domino_op op = combo & 2 ? DOMINO_OP_T : DOMINO_OP_N;
        domino_fill fill = combo & 4 ? DOMINO_UPPER : DOMINO_LOWER;
        domino_diag d = combo & 8 ? DOMINO_UNIT : DOMINO_NON_UNIT;
        domino_type t = combo & 16 ? DOMINO_FLOAT32 : DOMINO_FLOAT64;
        double T[16], bd[4];
        dense_op_triangle(A4, 4, op, fill, d, T);
        for (int i = 0; i < 4; i++) {
            bd[i] = 0;
            for (int j = 0; j < 4; j++) bd[i] += T[i * 4 + j] * x_true[j];
        }
        double bbuf[4], xbuf[4];
        for (int i = 0; i < 4; i++) set_value(bbuf, t, i, bd[i]);
        domino_matrix A = from_dense(h, f, t, 4, 4, A4);
        domino_status s = domino_ref_trsv(h, op, fill, d, A, 1, bbuf, 4, xbuf, 4);
        CHECK_OK(h, s);
        double tol = 64 * domino_type_eps(t) * 4;
        int bad = 0;
        for (int i = 0; i < 4; i++) bad |= fabs(get_value(xbuf, t, i) - x_true[i]) > tol;
        if (bad) fprintf(stderr, "hand-worked combo %s wrong\n", combo_name(f, op, fill, d, t));
        CHECK(!bad);
        domino_matrix_free(A);
    }
}

/* multi-RHS equals column by column (bitwise); X == B in place equals out of place */
static void test_multi_rhs_and_alias(domino_handle h)
{
    for (int combo = 0; combo < 8; combo++) {
        domino_format f = combo & 1 ? DOMINO_CSC : DOMINO_CSR;
        domino_op op = combo & 2 ? DOMINO_OP_T : DOMINO_OP_N;
        domino_fill fill = combo & 4 ? DOMINO_UPPER : DOMINO_LOWER;
        enum { n = 40, nrhs = 3, ld = 43 };
        domino_matrix A = random_matrix(h, f, DOMINO_FLOAT64, n, 3, 1);
        double B[ld * nrhs], X[ld * nrhs], Xcol[n], inplace[ld * nrhs];
        for (int k = 0; k < ld * nrhs; k++) B[k] = 2 * lcg_uniform() - 1;
        memset(X, 0, sizeof X);
        CHECK_OK(h, domino_ref_trsv(h, op, fill, DOMINO_NON_UNIT, A, nrhs, B, ld, X, ld));
        for (int c = 0; c < nrhs; c++) {
            CHECK_OK(h, domino_ref_trsv(h, op, fill, DOMINO_NON_UNIT, A, 1, B + c * ld, ld, Xcol, n));
            CHECK(memcmp(Xcol, X + c * ld, sizeof Xcol) == 0);
        }
        memcpy(inplace, B, sizeof B);
        CHECK_OK(h, domino_ref_trsv(h, op, fill, DOMINO_NON_UNIT, A, nrhs, inplace, ld, inplace, ld));
        for (int c = 0; c < nrhs; c++) CHECK(memcmp(inplace + c * ld, X + c * ld, n * sizeof(double)) == 0);
        /* padding rows of X between n and ld stay untouched */
        CHECK(X[n] == 0.0 && X[ld + n + 1] == 0.0);
        domino_matrix_free(A);
    }
}

/* rows unsorted and with duplicates (built by hand) give the sorted result */
static void test_unsorted_duplicates(domino_handle h)
{
    /* L = [2 0 0; 1 4 0; 3 -1 5] stored row 2 as (2: 2.0) (0: 3) (1: -1) (2: 3.0) */
    domino_matrix A = NULL;
    domino_matrix_view v;
    CHECK_OK(h, domino_matrix_new(h, DOMINO_CSR, DOMINO_FLOAT64, 3, 3, 7, &A));
    CHECK_OK(h, domino_matrix_get_view(h, A, &v));
    const int64_t ptr[4] = {0, 1, 3, 7};
    const int32_t ind[7] = {0, 1, 0, 2, 0, 1, 2};
    const double val[7] = {2, 4, 1, 2, 3, -1, 3};
    memcpy(v.ptr, ptr, sizeof ptr), memcpy(v.ind, ind, sizeof ind), memcpy(v.val, val, sizeof val);
    const double b[3] = {2, 9, 16};
    double x[3], xs[3];
    CHECK_OK(h, domino_ref_trsv(h, DOMINO_OP_N, DOMINO_LOWER, DOMINO_NON_UNIT, A, 1, b, 3, x, 3));
    for (int i = 0; i < 3; i++) CHECK_NEAR(x[i], i + 1.0, 1e-14);
    CHECK_OK(h, domino_ref_trsv_syncfree(h, DOMINO_LOWER, DOMINO_NON_UNIT, A, b, xs, 2));
    CHECK(memcmp(x, xs, sizeof x) == 0);
    CHECK_OK(h, domino_ref_trsv(h, DOMINO_OP_T, DOMINO_LOWER, DOMINO_NON_UNIT, A, 1, b, 3, x, 3));
    double r;
    CHECK_OK(h, domino_ref_trsv_residual(h, DOMINO_OP_T, DOMINO_LOWER, DOMINO_NON_UNIT, A, 1, x, 3, b, 3, &r));
    CHECK(r <= 10 * 3 * 2.2e-16);
    domino_matrix_free(A);
}

/* random matrices of sizes 1..500, every combination: scaled residual <= 10 n eps */
static void test_random_residuals(domino_handle h)
{
    const int32_t sizes[] = {1, 2, 3, 7, 16, 61, 128, 500};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        int32_t n = sizes[si];
        for (int combo = 0; combo < 32; combo++) {
            domino_format f = combo & 1 ? DOMINO_CSC : DOMINO_CSR;
            domino_op op = combo & 2 ? DOMINO_OP_T : DOMINO_OP_N;
            domino_fill fill = combo & 4 ? DOMINO_UPPER : DOMINO_LOWER;
            domino_diag d = combo & 8 ? DOMINO_UNIT : DOMINO_NON_UNIT;
            domino_type t = combo & 16 ? DOMINO_FLOAT32 : DOMINO_FLOAT64;
            domino_matrix A = random_matrix(h, f, t, n, 4, 1);
            size_t bytes = (size_t)n * domino_type_size(t);
            void *b = malloc(bytes), *x = malloc(bytes);
            for (int32_t i = 0; i < n; i++) set_value(b, t, i, 2 * lcg_uniform() - 1);
            CHECK_OK(h, domino_ref_trsv(h, op, fill, d, A, 1, b, n, x, n));
            double r = -1, bound = 10.0 * n * domino_type_eps(t);
            CHECK_OK(h, domino_ref_trsv_residual(h, op, fill, d, A, 1, x, n, b, n, &r));
            if (!(r >= 0 && r <= bound))
                fprintf(stderr, "n %d %s: residual %g > %g\n", n, combo_name(f, op, fill, d, t), r, bound);
            CHECK(r >= 0 && r <= bound);
            free(b), free(x);
            domino_matrix_free(A);
        }
    }
}

/* syncfree equals the sequential solve bitwise (CSR op N) with 1, 2, 4 threads */
static void test_syncfree_bitwise(domino_handle h)
{
    const int32_t sizes[] = {1, 5, 100, 500, 3000};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        int32_t n = sizes[si];
        for (int combo = 0; combo < 8; combo++) {
            domino_fill fill = combo & 1 ? DOMINO_UPPER : DOMINO_LOWER;
            domino_diag d = combo & 2 ? DOMINO_UNIT : DOMINO_NON_UNIT;
            domino_type t = combo & 4 ? DOMINO_FLOAT32 : DOMINO_FLOAT64;
            domino_matrix A = random_matrix(h, DOMINO_CSR, t, n, 5, 1);
            size_t bytes = (size_t)n * domino_type_size(t);
            void *b = malloc(bytes), *xs = malloc(bytes), *xp = malloc(bytes);
            for (int32_t i = 0; i < n; i++) set_value(b, t, i, 2 * lcg_uniform() - 1);
            CHECK_OK(h, domino_ref_trsv(h, DOMINO_OP_N, fill, d, A, 1, b, n, xs, n));
            int same = 1;
            for (int threads = 1; threads <= 4; threads *= 2)
                for (int rep = 0; rep < 4; rep++) {
                    memset(xp, 0xff, bytes);
                    CHECK_OK(h, domino_ref_trsv_syncfree(h, fill, d, A, b, xp, threads));
                    same &= memcmp(xs, xp, bytes) == 0;
                }
            if (!same) fprintf(stderr, "syncfree differs: n %d %s\n", n, combo_name(DOMINO_CSR, DOMINO_OP_N, fill, d, t));
            CHECK(same);
            /* x == b in place, default thread count */
            CHECK_OK(h, domino_ref_trsv_syncfree(h, fill, d, A, b, b, 0));
            CHECK(memcmp(xs, b, bytes) == 0);
            free(b), free(xs), free(xp);
            domino_matrix_free(A);
        }
    }
}

/* syncfree on CSC input (converted internally) agrees within rounding */
static void test_syncfree_csc(domino_handle h)
{
    enum { n = 300 };
    for (int fl = 0; fl < 2; fl++) {
        domino_fill fill = fl ? DOMINO_UPPER : DOMINO_LOWER;
        domino_matrix A = random_matrix(h, DOMINO_CSC, DOMINO_FLOAT64, n, 4, 1);
        double b[n], xs[n], xp[n], r;
        for (int i = 0; i < n; i++) b[i] = 2 * lcg_uniform() - 1;
        CHECK_OK(h, domino_ref_trsv(h, DOMINO_OP_N, fill, DOMINO_NON_UNIT, A, 1, b, n, xs, n));
        CHECK_OK(h, domino_ref_trsv_syncfree(h, fill, DOMINO_NON_UNIT, A, b, xp, 2));
        CHECK_OK(h, domino_ref_trsv_residual(h, DOMINO_OP_N, fill, DOMINO_NON_UNIT, A, 1, xp, n, b, n, &r));
        CHECK(r <= 10.0 * n * 2.2e-16);
        double diff = 0;
        for (int i = 0; i < n; i++) diff = fmax(diff, fabs(xs[i] - xp[i]));
        CHECK(diff <= 100 * n * 2.2e-16);
        domino_matrix_free(A);
    }
}

/* zero pivot and missing diagonal name the right (smallest) row */
static void test_diagonal_errors(domino_handle h)
{
    /* row 2 has an explicit zero diagonal, row 3 none */
    const double Z[16] = {2, 0, 0, 0, 1, 4, 0, 0, 3, -1, 0, 0, 1, 1, 1, 0};
    /* row 1 has no diagonal, row 2 an explicit zero: row 1 first */
    const int32_t rows[5] = {0, 1, 2, 2, 3}, cols[5] = {0, 0, 2, 1, 3};
    const double vals[5] = {1, 1, 0, 1, 1};
    const double b[4] = {1, 1, 1, 1};
    double x[4];
    for (int f = 0; f < 2; f++) {
        domino_format fmt = (domino_format)f;
        domino_matrix A = from_dense(h, fmt, DOMINO_FLOAT64, 4, 4, Z), M = NULL;
        CHECK_OK(h, domino_matrix_from_coo(h, fmt, DOMINO_FLOAT64, 4, 4, 5, rows, cols, vals, &M));
        /* Z: from_dense drops the zero, so row 2 is missing too: use M for zero pivot */
        CHECK_STATUS(h, DOMINO_ZERO_DIAGONAL, domino_ref_trsv(h, DOMINO_OP_N, DOMINO_LOWER, DOMINO_NON_UNIT, A, 1, b, 4, x, 4));
        CHECK(strstr(domino_last_error(h), "row 2 has no diagonal entry") != NULL);
        CHECK_STATUS(h, DOMINO_ZERO_DIAGONAL, domino_ref_trsv(h, DOMINO_OP_T, DOMINO_UPPER, DOMINO_NON_UNIT, M, 1, b, 4, x, 4));
        CHECK(strstr(domino_last_error(h), "row 1 has no diagonal entry") != NULL);
        CHECK_STATUS(h, DOMINO_ZERO_DIAGONAL, domino_ref_trsv_syncfree(h, DOMINO_LOWER, DOMINO_NON_UNIT, M, b, x, 2));
        CHECK(strstr(domino_last_error(h), "row 1 has no diagonal entry") != NULL);
        /* unit diagonal: nothing missing */
        CHECK_OK(h, domino_ref_trsv(h, DOMINO_OP_N, DOMINO_LOWER, DOMINO_UNIT, M, 1, b, 4, x, 4));
        CHECK_OK(h, domino_ref_trsv_syncfree(h, DOMINO_LOWER, DOMINO_UNIT, M, b, x, 2));
        domino_matrix_free(A);
        domino_matrix_free(M);
        /* explicit zero pivot at row 2 (kept by from_coo: the value is stored) */
        const int32_t r2[4] = {0, 1, 2, 3}, c2[4] = {0, 1, 2, 3};
        const double v2[4] = {1, 1, 0, 1};
        CHECK_OK(h, domino_matrix_from_coo(h, fmt, DOMINO_FLOAT32, 4, 4, 4, r2, c2, v2, &M));
        float bf[4] = {1, 1, 1, 1}, xf[4];
        CHECK_STATUS(h, DOMINO_ZERO_PIVOT, domino_ref_trsv(h, DOMINO_OP_N, DOMINO_UPPER, DOMINO_NON_UNIT, M, 1, bf, 4, xf, 4));
        CHECK(strstr(domino_last_error(h), "zero pivot at row 2") != NULL);
        CHECK_STATUS(h, DOMINO_ZERO_PIVOT, domino_ref_trsv_syncfree(h, DOMINO_UPPER, DOMINO_NON_UNIT, M, bf, xf, 4));
        CHECK(strstr(domino_last_error(h), "zero pivot at row 2") != NULL);
        domino_matrix_free(M);
    }
}

/* levels of hand-worked graphs */
static void test_levels_hand_worked(domino_handle h)
{
    enum { n = 6 };
    int32_t rows[2 * n], cols[2 * n];
    int64_t nnz = 0;
    for (int32_t i = 0; i < n; i++) { /* chain: lower bidiagonal */
        rows[nnz] = i, cols[nnz++] = i;
        if (i > 0) rows[nnz] = i, cols[nnz++] = i - 1;
    }
    domino_matrix C = NULL, D = NULL;
    domino_levels *L = NULL;
    CHECK_OK(h, domino_matrix_from_coo(h, DOMINO_CSR, DOMINO_FLOAT64, n, n, nnz, rows, cols, NULL, &C));
    for (int op = 0; op < 2; op++) {
        CHECK_OK(h, domino_ref_levels(h, (domino_op)op, DOMINO_LOWER, C, &L));
        CHECK(L && L->nlevels == n && L->n == n);
        for (int32_t i = 0; L && i < n; i++)
            CHECK(L->row_level[i] == (op == 0 ? i : n - 1 - i));
        if (L) CHECK_NEAR(L->dependency, (2.0 * n - 1) / n, 1e-15);
        domino_levels_free(L);
        /* upper triangle of the chain is its diagonal: one level */
        CHECK_OK(h, domino_ref_levels(h, (domino_op)op, DOMINO_UPPER, C, &L));
        CHECK(L && L->nlevels == 1 && L->level_ptr[1] == n);
        if (L) {
            CHECK_NEAR(L->parallelism, (double)n, 0);
            CHECK_NEAR(L->dependency, 1.0, 0);
        }
        domino_levels_free(L);
    }
    domino_matrix_free(C);
    /* DAG: row 1 <- 0, row 3 <- 1, 2, row 4 <- 2 */
    const int32_t dr[10] = {0, 1, 2, 3, 4, 1, 3, 3, 4}, dc[10] = {0, 1, 2, 3, 4, 0, 1, 2, 2};
    const int32_t level_n[5] = {0, 1, 0, 2, 1}, level_t[5] = {2, 1, 1, 0, 0};
    const int32_t rows_n[5] = {0, 2, 1, 4, 3};
    for (int f = 0; f < 2; f++) {
        CHECK_OK(h, domino_matrix_from_coo(h, (domino_format)f, DOMINO_FLOAT64, 5, 5, 9, dr, dc, NULL, &D));
        CHECK_OK(h, domino_ref_levels(h, DOMINO_OP_N, DOMINO_LOWER, D, &L));
        CHECK(L && L->nlevels == 3 && memcmp(L->row_level, level_n, sizeof level_n) == 0);
        CHECK(L && memcmp(L->level_rows, rows_n, sizeof rows_n) == 0);
        CHECK(L && L->level_ptr[0] == 0 && L->level_ptr[1] == 2 && L->level_ptr[2] == 4 && L->level_ptr[3] == 5);
        if (L) {
            CHECK_NEAR(L->parallelism, 5.0 / 3, 1e-15);
            CHECK_NEAR(L->dependency, 9.0 / 5, 1e-15);
        }
        domino_levels_free(L);
        CHECK_OK(h, domino_ref_levels(h, DOMINO_OP_T, DOMINO_LOWER, D, &L));
        CHECK(L && L->nlevels == 3 && memcmp(L->row_level, level_t, sizeof level_t) == 0);
        domino_levels_free(L);
        domino_matrix_free(D);
    }
    /* empty matrix: no levels */
    CHECK_OK(h, domino_matrix_from_coo(h, DOMINO_CSR, DOMINO_FLOAT64, 0, 0, 0, NULL, NULL, NULL, &D));
    CHECK_OK(h, domino_ref_levels(h, DOMINO_OP_N, DOMINO_LOWER, D, &L));
    CHECK(L && L->nlevels == 0 && L->n == 0 && L->level_ptr[0] == 0);
    domino_levels_free(L);
    domino_levels_free(NULL);
    CHECK_OK(h, domino_ref_trsv(h, DOMINO_OP_N, DOMINO_LOWER, DOMINO_NON_UNIT, D, 1, NULL, 0, NULL, 0));
    domino_matrix_free(D);
}

/* CSR and CSC of the same matrix give the same levels, for all fill x op;
 * the levels are consistent: every dependency sits in an earlier level */
static void test_levels_csr_csc(domino_handle h)
{
    enum { n = 400 };
    lcg_state = 777;
    domino_matrix R = random_matrix(h, DOMINO_CSR, DOMINO_FLOAT64, n, 3, 1);
    lcg_state = 777;
    domino_matrix C = random_matrix(h, DOMINO_CSC, DOMINO_FLOAT64, n, 3, 1);
    domino_matrix_view v;
    CHECK_OK(h, domino_matrix_get_view(h, R, &v));
    for (int combo = 0; combo < 4; combo++) {
        domino_op op = combo & 1 ? DOMINO_OP_T : DOMINO_OP_N;
        domino_fill fill = combo & 2 ? DOMINO_UPPER : DOMINO_LOWER;
        domino_levels *LR = NULL, *LC = NULL;
        CHECK_OK(h, domino_ref_levels(h, op, fill, R, &LR));
        CHECK_OK(h, domino_ref_levels(h, op, fill, C, &LC));
        if (!LR || !LC) continue;
        CHECK(LR->nlevels == LC->nlevels && LR->nlevels > 1);
        CHECK(memcmp(LR->row_level, LC->row_level, n * sizeof(int32_t)) == 0);
        CHECK(memcmp(LR->level_rows, LC->level_rows, n * sizeof(int32_t)) == 0);
        CHECK_NEAR(LR->dependency, LC->dependency, 1e-15);
        int ok = 1; /* check against CSR entries (i, j): dependency edge of op(T) */
        for (int32_t i = 0; i < n; i++)
            for (int64_t k = v.ptr[i]; k < v.ptr[i + 1]; k++) {
                int32_t j = v.ind[k];
                if (j == i || (fill == DOMINO_LOWER ? j > i : j < i)) continue;
                int32_t needs = op == DOMINO_OP_N ? i : j, needed = op == DOMINO_OP_N ? j : i;
                ok &= LR->row_level[needs] > LR->row_level[needed];
            }
        CHECK(ok);
        domino_levels_free(LR);
        domino_levels_free(LC);
    }
    domino_matrix_free(R);
    domino_matrix_free(C);
}

/* spmv against a dense computation, both formats and types, beta 0 with NaN y */
static void test_spmv(domino_handle h)
{
    enum { m = 7, n = 5 };
    double dense[m * n];
    for (int k = 0; k < m * n; k++) dense[k] = lcg_uniform() < 0.4 ? 2 * lcg_uniform() - 1 : 0.0;
    for (int combo = 0; combo < 8; combo++) {
        domino_format f = combo & 1 ? DOMINO_CSC : DOMINO_CSR;
        domino_op op = combo & 2 ? DOMINO_OP_T : DOMINO_OP_N;
        domino_type t = combo & 4 ? DOMINO_FLOAT32 : DOMINO_FLOAT64;
        domino_matrix A = from_dense(h, f, t, m, n, dense);
        int ny = op == DOMINO_OP_N ? m : n, nx = op == DOMINO_OP_N ? n : m;
        double xb[m], yb[m], y0[m], want[m];
        for (int i = 0; i < nx; i++) set_value(xb, t, i, 2 * lcg_uniform() - 1);
        for (int i = 0; i < ny; i++) set_value(yb, t, i, 2 * lcg_uniform() - 1), y0[i] = get_value(yb, t, i);
        for (int i = 0; i < ny; i++) {
            double s = 0;
            for (int j = 0; j < nx; j++)
                s += (op == DOMINO_OP_N ? dense[i * n + j] : dense[j * n + i]) * get_value(xb, t, j);
            want[i] = 1.5 * s - 0.5 * y0[i];
        }
        CHECK_OK(h, domino_ref_spmv(h, op, 1.5, A, xb, -0.5, yb));
        double tol = 16 * domino_type_eps(t) * (nx + 1);
        for (int i = 0; i < ny; i++) CHECK_NEAR(get_value(yb, t, i), want[i], tol);
        for (int i = 0; i < ny; i++) set_value(yb, t, i, NAN);
        CHECK_OK(h, domino_ref_spmv(h, op, 1.5, A, xb, 0.0, yb));
        for (int i = 0; i < ny; i++) CHECK_NEAR(get_value(yb, t, i), want[i] + 0.5 * y0[i], tol);
        domino_matrix_free(A);
    }
}

/* misuse: NULL pointers, non-square, nrhs 0, ld too small, bad enums */
static void test_misuse(domino_handle h)
{
    const double R[6] = {1, 0, 0, 1, 1, 1};
    domino_matrix A = from_dense(h, DOMINO_CSR, DOMINO_FLOAT64, 3, 3,
                                 (const double[9]){1, 0, 0, 1, 1, 0, 1, 1, 1});
    domino_matrix W = from_dense(h, DOMINO_CSR, DOMINO_FLOAT64, 2, 3, R);
    double b[6] = {1, 1, 1, 1, 1, 1}, x[6], r;
    domino_levels *L = NULL;
    const domino_op N = DOMINO_OP_N;
    const domino_fill LO = DOMINO_LOWER;
    const domino_diag NU = DOMINO_NON_UNIT;
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_ref_trsv(h, N, LO, NU, NULL, 1, b, 3, x, 3));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_ref_trsv(h, N, LO, NU, A, 1, NULL, 3, x, 3));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_ref_trsv(h, N, LO, NU, A, 1, b, 3, NULL, 3));
    CHECK_STATUS(h, DOMINO_DIMENSION_MISMATCH, domino_ref_trsv(h, N, LO, NU, W, 1, b, 3, x, 3));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_ref_trsv(h, N, LO, NU, A, 0, b, 3, x, 3));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_ref_trsv(h, N, LO, NU, A, 1, b, 2, x, 3));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_ref_trsv(h, N, LO, NU, A, 1, b, 3, x, 2));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_ref_trsv(h, N, LO, NU, A, 2, b, 3, b, 4));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_ref_trsv(h, (domino_op)7, LO, NU, A, 1, b, 3, x, 3));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_ref_trsv(h, N, (domino_fill)7, NU, A, 1, b, 3, x, 3));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_ref_trsv(h, N, LO, (domino_diag)7, A, 1, b, 3, x, 3));
    CHECK(domino_status_is_misuse(domino_ref_trsv(h, N, LO, NU, A, 1, b, 3, x, 2)));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_ref_trsv_syncfree(h, LO, NU, NULL, b, x, 1));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_ref_trsv_syncfree(h, LO, NU, A, NULL, x, 1));
    CHECK_STATUS(h, DOMINO_DIMENSION_MISMATCH, domino_ref_trsv_syncfree(h, LO, NU, W, b, x, 1));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_ref_trsv_syncfree(h, LO, NU, A, b, x, -1));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_ref_levels(h, N, LO, A, NULL));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_ref_levels(h, N, LO, NULL, &L));
    CHECK(L == NULL);
    CHECK_STATUS(h, DOMINO_DIMENSION_MISMATCH, domino_ref_levels(h, N, LO, W, &L));
    CHECK(L == NULL);
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_ref_trsv_residual(h, N, LO, NU, A, 1, x, 3, b, 3, NULL));
    CHECK_STATUS(h, DOMINO_DIMENSION_MISMATCH, domino_ref_trsv_residual(h, N, LO, NU, W, 1, x, 3, b, 3, &r));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_ref_trsv_residual(h, N, LO, NU, A, 0, x, 3, b, 3, &r));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_ref_trsv_residual(h, N, LO, NU, A, 1, x, 1, b, 3, &r));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_ref_spmv(h, N, 1.0, NULL, x, 0.0, b));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_ref_spmv(h, N, 1.0, A, NULL, 0.0, b));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_ref_spmv(h, (domino_op)3, 1.0, A, x, 0.0, b));
    /* the residual of an exact solution is 0; of a zero system 0 (denominator 0) */
    const double xe[3] = {1, 0, 0}, be[3] = {1, 1, 1}, zero[3] = {0, 0, 0};
    CHECK_OK(h, domino_ref_trsv_residual(h, N, LO, NU, A, 1, xe, 3, be, 3, &r));
    CHECK_NEAR(r, 0.0, 0.0);
    CHECK_OK(h, domino_ref_trsv_residual(h, N, LO, NU, A, 1, zero, 3, zero, 3, &r));
    CHECK_NEAR(r, 0.0, 0.0);
    /* residual of a wrong solution is large: x = 0, b = 1 gives 1 */
    CHECK_OK(h, domino_ref_trsv_residual(h, N, LO, NU, A, 1, zero, 3, be, 3, &r));
    CHECK_NEAR(r, 1.0, 0.0);
    domino_matrix_free(A);
    domino_matrix_free(W);
}

/* the n-th allocation fails, for n = 1, 2, ... until the call succeeds:
 * every failure is OUT_OF_MEMORY, leaves outputs NULL and leaks nothing */
static void test_alloc_failures(domino_handle h)
{
    enum { n = 200 };
    domino_matrix A = random_matrix(h, DOMINO_CSR, DOMINO_FLOAT64, n, 3, 1);
    domino_matrix C = random_matrix(h, DOMINO_CSC, DOMINO_FLOAT64, n, 3, 1);
    double b[n], x[n], r;
    for (int i = 0; i < n; i++) b[i] = 1.0;
    for (int which = 0; which < 6; which++) {
        int64_t live = domino_debug_alloc_live();
        int failures = 0;
        for (int64_t fail_at = 1; fail_at < 100; fail_at++) {
            domino_levels *L = NULL;
            domino_status s;
            domino_debug_fail_alloc_after(fail_at);
            switch (which) {
            case 0: s = domino_ref_levels(h, DOMINO_OP_T, DOMINO_LOWER, A, &L); break;
            case 1: s = domino_ref_levels(h, DOMINO_OP_N, DOMINO_UPPER, C, &L); break;
            case 2: s = domino_ref_trsv_syncfree(h, DOMINO_LOWER, DOMINO_NON_UNIT, A, b, x, 2); break;
            case 3: s = domino_ref_trsv_syncfree(h, DOMINO_UPPER, DOMINO_NON_UNIT, C, b, x, 2); break;
            case 4: s = domino_ref_trsv(h, DOMINO_OP_T, DOMINO_LOWER, DOMINO_UNIT, C, 1, b, n, x, n); break;
            default: s = domino_ref_trsv_residual(h, DOMINO_OP_N, DOMINO_LOWER, DOMINO_UNIT, C, 1, x, n, b, n, &r); break;
            }
            domino_debug_fail_alloc_after(0);
            if (s == DOMINO_SUCCESS) {
                domino_levels_free(L);
                break;
            }
            failures++;
            CHECK_STATUS(h, DOMINO_OUT_OF_MEMORY, s);
            CHECK(L == NULL);
            CHECK(domino_debug_alloc_live() == live);
        }
        CHECK(failures >= 1);
        CHECK(domino_debug_alloc_live() == live);
    }
    domino_matrix_free(A);
    domino_matrix_free(C);
}

int main(void)
{
    int64_t live_at_start = domino_debug_alloc_live();
    domino_handle h = NULL;
    CHECK_OK(NULL, domino_create(&h));
    test_hand_worked_literal(h);
    test_hand_worked_all_combos(h);
    test_multi_rhs_and_alias(h);
    test_unsorted_duplicates(h);
    test_random_residuals(h);
    test_syncfree_bitwise(h);
    test_syncfree_csc(h);
    test_diagonal_errors(h);
    test_levels_hand_worked(h);
    test_levels_csr_csc(h);
    test_spmv(h);
    test_misuse(h);
    test_alloc_failures(h);
    domino_destroy(h);
    CHECK(domino_debug_alloc_live() == live_at_start);
    return check_summary("test_ref");
}
