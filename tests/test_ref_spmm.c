/* test_ref_spmm.c: the CPU reference SpMM (sparse x dense block) and SpGEMM
 * (sparse x sparse) against dense brute-force products and SpMV */
#include "check.h"
#include "test_values.h"
#include "domino.h"

#include <float.h>
#include <omp.h>
#include <stdint.h>
#include <string.h>

#ifndef DOMINO_SHARED_MATRICES
#define DOMINO_SHARED_MATRICES "../shared/matrices"
#endif

/* ------------------------------------------------------------ helpers */


/* dense row-major nrows x ncols of what A stands for (stored values read
 * back, duplicates summed, symmetric storage mirrored); pattern (may be
 * NULL) gets 1 where an entry is stored or mirrored */
static void to_dense(domino_matrix A, double *D, unsigned char *pattern)
{
    domino_matrix_view v;
    domino_matrix_get_view(NULL, A, &v);
    memset(D, 0, (size_t)v.nrows * (size_t)v.ncols * sizeof(double));
    if (pattern) memset(pattern, 0, (size_t)v.nrows * (size_t)v.ncols);
    int32_t np = v.format == DOMINO_CSR ? v.nrows : v.ncols;
    for (int32_t p = 0; p < np; p++)
        for (int64_t k = v.ptr[p]; k < v.ptr[p + 1]; k++) {
            int32_t r = v.format == DOMINO_CSR ? p : v.ind[k];
            int32_t c = v.format == DOMINO_CSR ? v.ind[k] : p;
            double x = get_value(v.val, v.type, k);
            D[(size_t)r * v.ncols + c] += x;
            if (pattern) pattern[(size_t)r * v.ncols + c] = 1;
            if (v.symmetry != DOMINO_GENERAL && r != c) {
                D[(size_t)c * v.ncols + r] += v.symmetry == DOMINO_SKEW_SYMMETRIC ? -x : x;
                if (pattern) pattern[(size_t)c * v.ncols + r] = 1;
            }
        }
}

/* random m x n matrix: about a quarter of the rows empty, duplicates in the
 * triplets (summed by from_coo), values in [-1, 1); lower: only j <= i */
static domino_matrix random_sparse(domino_handle h, domino_format f, domino_type t, int32_t m,
                                   int32_t n, int lower)
{
    int64_t cap = (int64_t)m * 6 + 1;
    int32_t *rows = malloc((size_t)cap * sizeof(int32_t));
    int32_t *cols = malloc((size_t)cap * sizeof(int32_t));
    double *vals = malloc((size_t)cap * sizeof(double));
    int64_t nnz = 0;
    for (int32_t i = 0; i < m && n > 0; i++) {
        if (lcg_uniform() < 0.25) continue; /* empty row */
        int count = 1 + lcg_below(4);
        for (int e = 0; e < count; e++) {
            int32_t limit = lower ? (i + 1 < n ? i + 1 : n) : n;
            rows[nnz] = i;
            cols[nnz] = lcg_below(limit);
            vals[nnz] = 2.0 * lcg_uniform() - 1.0;
            nnz++;
            if (lcg_uniform() < 0.2) { /* a duplicate of the same position */
                rows[nnz] = i, cols[nnz] = cols[nnz - 1], vals[nnz] = 0.5;
                nnz++;
            }
        }
    }
    domino_matrix A = NULL;
    CHECK_OK(h, domino_matrix_from_coo(h, f, t, m, n, nnz, rows, cols, vals, &A));
    free(rows);
    free(cols);
    free(vals);
    return A;
}

/* ------------------------------------------------------------ SpMM */

/* run C = alpha op(A) B + beta C on random blocks (ldb = k+2, ldc = k+1,
 * padding checked untouched; beta 0: C filled with NaN) against the dense
 * product of D (A's dense form) */
static void check_spmm(domino_handle h, domino_matrix A, const double *D, domino_op op,
                       double alpha, double beta, int32_t k)
{
    domino_matrix_view v;
    domino_matrix_get_view(h, A, &v);
    domino_type t = v.type;
    size_t size = domino_type_size(t);
    int32_t nc = op == DOMINO_OP_N ? v.nrows : v.ncols, nb = op == DOMINO_OP_N ? v.ncols : v.nrows;
    int64_t ldb = k + 2, ldc = k + 1;
    void *B = malloc(((size_t)nb * ldb + 1) * size);
    void *C = malloc(((size_t)nc * ldc + 1) * size);
    double *C0 = malloc(((size_t)nc * ldc + 1) * sizeof(double));
    for (int64_t i = 0; i < nb * ldb; i++) set_value(B, t, i, 2.0 * lcg_uniform() - 1.0);
    for (int64_t i = 0; i < nc * ldc; i++) {
        int pad = i % ldc >= k;
        set_value(C, t, i, pad ? 777.0 : beta == 0.0 ? NAN : 2.0 * lcg_uniform() - 1.0);
        C0[i] = get_value(C, t, i);
    }
    CHECK_OK(h, domino_ref_spmm(h, op, alpha, A, k, B, ldb, beta, C, ldc));
    int bad = 0;
    double eps = domino_type_eps(t);
    for (int32_t i = 0; i < nc; i++)
        for (int32_t c = 0; c < ldc; c++) {
            double got = get_value(C, t, (int64_t)i * ldc + c), want = 777.0, bound = 0.0;
            if (c < k) {
                double sum = 0.0;
                for (int32_t j = 0; j < nb; j++) {
                    double a = op == DOMINO_OP_N ? D[(size_t)i * v.ncols + j]
                                                 : D[(size_t)j * v.ncols + i];
                    double b = get_value(B, t, (int64_t)j * ldb + c);
                    sum += a * b;
                    bound += fabs(a * b);
                }
                double old = beta == 0.0 ? 0.0 : C0[(int64_t)i * ldc + c];
                want = alpha * sum + beta * old;
                bound = fabs(alpha) * bound + fabs(beta * old);
            }
            double tol = (nb + 4) * eps * bound;
            if (!(fabs(got - want) <= tol)) {
                if (!bad)
                    fprintf(stderr, "spmm %dx%d op %d k %d alpha %g beta %g: C(%d,%d) = %.17g, "
                            "want %.17g\n", v.nrows, v.ncols, (int)op, k, alpha, beta, i, c,
                            got, want);
                bad++;
            }
        }
    CHECK(bad == 0);
    free(B);
    free(C);
    free(C0);
}

/* every op x format x type x alpha/beta on random rectangular and empty
 * shapes, k = 0, 1, 3 */
static void test_spmm_random(domino_handle h)
{
    static const int32_t shapes[][2] = {{0, 0}, {5, 0},   {0, 5},   {1, 1},
                                        {7, 5}, {5, 9}, {13, 13}, {40, 31}};
    static const double ab[][2] = {{1.0, 0.0}, {2.5, -0.5}, {0.0, 2.0}, {-1.0, 1.0}};
    static const int32_t ks[] = {0, 1, 3};
    for (int t = 0; t < 2; t++)
        for (int f = 0; f < 2; f++)
            for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
                int32_t m = shapes[s][0], n = shapes[s][1];
                domino_matrix A = random_sparse(h, (domino_format)f, (domino_type)t, m, n, 0);
                double *D = malloc((size_t)m * n * sizeof(double) + 1);
                to_dense(A, D, NULL);
                for (int op = 0; op < 2; op++)
                    for (size_t q = 0; q < sizeof ab / sizeof ab[0]; q++)
                        for (size_t kk = 0; kk < sizeof ks / sizeof ks[0]; kk++)
                            check_spmm(h, A, D, (domino_op)op, ab[q][0], ab[q][1], ks[kk]);
                free(D);
                domino_matrix_free(A);
            }
}

/* symmetric and skew-symmetric storage (one triangle) is read as the full
 * matrix, in both formats and ops */
static void test_spmm_symmetric(domino_handle h)
{
    for (int sym = 1; sym <= 2; sym++)
        for (int f = 0; f < 2; f++) {
            domino_matrix A = random_sparse(h, (domino_format)f, DOMINO_FLOAT64, 11, 11, 1);
            CHECK_OK(h, domino_matrix_set_kind(h, A, (domino_symmetry)sym, 0));
            double D[121];
            to_dense(A, D, NULL);
            for (int op = 0; op < 2; op++) {
                check_spmm(h, A, D, (domino_op)op, 1.5, 0.0, 2);
                check_spmm(h, A, D, (domino_op)op, -1.0, 0.5, 1);
            }
            domino_matrix_free(A);
        }
}

/* a hand-built CSR with unsorted columns and a duplicate: rows read as stored */
static void test_spmm_unsorted(domino_handle h)
{
    domino_matrix A = NULL;
    CHECK_OK(h, domino_matrix_new(h, DOMINO_CSR, DOMINO_FLOAT64, 3, 4, 5, &A));
    domino_matrix_view v;
    CHECK_OK(h, domino_matrix_get_view(h, A, &v));
    static const int64_t ptr[] = {0, 3, 3, 5};
    static const int32_t ind[] = {3, 0, 3, 2, 1};
    static const double val[] = {1.0, 2.0, 4.0, -1.0, 3.0};
    memcpy(v.ptr, ptr, sizeof ptr);
    memcpy(v.ind, ind, sizeof ind);
    memcpy(v.val, val, sizeof val);
    double D[12];
    to_dense(A, D, NULL);
    CHECK_NEAR(D[3], 5.0, 0.0);
    for (int op = 0; op < 2; op++) check_spmm(h, A, D, (domino_op)op, 1.0, 1.0, 2);
    domino_matrix_free(A);
}

/* spmm of the shared bcsstk13 (stored symmetric) against spmv per column */
static void test_spmm_shared(domino_handle h)
{
    domino_matrix A = NULL, S = NULL;
    const char *path = DOMINO_SHARED_MATRICES "/bcsstk13.mtx";
    CHECK_OK(h, domino_mm_read(h, path, DOMINO_FLOAT64, 0, &A));
    CHECK_OK(h, domino_mm_read(h, path, DOMINO_FLOAT64, DOMINO_MM_KEEP_STORED, &S));
    if (!A || !S) goto done;
    domino_matrix_view v;
    domino_matrix_get_view(h, A, &v);
    int32_t n = v.nrows, k = 3;
    double *B = malloc((size_t)n * k * sizeof(double)), *C = malloc((size_t)n * k * sizeof(double));
    double *x = malloc((size_t)n * sizeof(double)), *y = malloc((size_t)n * sizeof(double));
    for (int64_t i = 0; i < (int64_t)n * k; i++) B[i] = lcg_uniform();
    CHECK_OK(h, domino_ref_spmm(h, DOMINO_OP_T, 1.0, S, k, B, k, 0.0, C, k));
    int bad = 0;
    for (int32_t c = 0; c < k; c++) {
        for (int32_t i = 0; i < n; i++) x[i] = B[(int64_t)i * k + c];
        CHECK_OK(h, domino_ref_spmv(h, DOMINO_OP_N, 1.0, A, x, 0.0, y));
        for (int32_t i = 0; i < n; i++) {
            double bound = 0.0; /* sum |a_ij x_j| of row i */
            for (int64_t e = v.ptr[i]; e < v.ptr[i + 1]; e++)
                bound += fabs(get_value(v.val, v.type, e) * x[v.ind[e]]);
            double tol = (double)(v.ptr[i + 1] - v.ptr[i] + 4) * 2.0 *
                         domino_type_eps(DOMINO_FLOAT64) * bound;
            if (!(fabs(C[(int64_t)i * k + c] - y[i]) <= tol)) bad++;
        }
    }
    CHECK(bad == 0);
    free(B), free(C), free(x), free(y);
done:
    domino_matrix_free(A);
    domino_matrix_free(S);
}

/* wrong arguments: status and a message naming the argument */
static void test_spmm_misuse(domino_handle h)
{
    domino_matrix A = random_sparse(h, DOMINO_CSR, DOMINO_FLOAT64, 4, 3, 0);
    double B[12] = {0}, C[12] = {0};
    const domino_op N = DOMINO_OP_N;
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_ref_spmm(h, N, 1.0, A, -1, B, 3, 0.0, C, 3));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_ref_spmm(h, N, 1.0, A, 3, B, 2, 0.0, C, 3));
    CHECK(strstr(domino_last_error(h), "ldb") != NULL);
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_ref_spmm(h, N, 1.0, A, 3, B, 3, 0.0, C, 1));
    CHECK(strstr(domino_last_error(h), "ldc") != NULL);
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_ref_spmm(h, N, 1.0, A, 3, NULL, 3, 0.0, C, 3));
    CHECK(strstr(domino_last_error(h), "B") != NULL);
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_ref_spmm(h, N, 1.0, A, 3, B, 3, 0.0, NULL, 3));
    CHECK(strstr(domino_last_error(h), "C") != NULL);
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_ref_spmm(h, N, 1.0, NULL, 3, B, 3, 0.0, C, 3));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE,
                 domino_ref_spmm(h, (domino_op)7, 1.0, A, 3, B, 3, 0.0, C, 3));
    /* k = 0: nothing read or written, NULL blocks fine */
    CHECK_OK(h, domino_ref_spmm(h, N, 1.0, A, 0, NULL, 0, 0.0, NULL, 0));
    /* symmetric storage of a rectangular matrix */
    CHECK_OK(h, domino_matrix_set_kind(h, A, DOMINO_SYMMETRIC, 0));
    CHECK_STATUS(h, DOMINO_DIMENSION_MISMATCH, domino_ref_spmm(h, N, 1.0, A, 1, B, 1, 0.0, C, 1));
    domino_matrix_free(A);
}

/* ------------------------------------------------------------ SpGEMM */

/* C = A B against the dense product: CSR, sorted, no duplicates, pattern =
 * the structural product of the stored patterns, values near */
static void check_spgemm(domino_handle h, domino_matrix A, domino_matrix B)
{
    domino_matrix_view va, vb, vc;
    domino_matrix_get_view(h, A, &va);
    domino_matrix_get_view(h, B, &vb);
    int32_t m = va.nrows, p = va.ncols, n = vb.ncols;
    double *DA = malloc((size_t)m * p * sizeof(double) + 1);
    double *DB = malloc((size_t)p * n * sizeof(double) + 1);
    unsigned char *PA = malloc((size_t)m * p + 1), *PB = malloc((size_t)p * n + 1);
    to_dense(A, DA, PA);
    to_dense(B, DB, PB);
    domino_matrix C = NULL;
    CHECK_OK(h, domino_ref_spgemm(h, A, B, &C));
    if (!C) goto done;
    domino_matrix_get_view(h, C, &vc);
    CHECK(vc.format == DOMINO_CSR && vc.type == va.type && vc.nrows == m && vc.ncols == n);
    CHECK_OK(h, domino_matrix_validate(h, C, DOMINO_CHECK_SORTED | DOMINO_CHECK_NO_DUPLICATES,
                                       NULL));
    double eps = domino_type_eps(va.type);
    int64_t expected_nnz = 0;
    int bad = 0;
    for (int32_t i = 0; i < m; i++) {
        int64_t at = vc.ptr[i];
        for (int32_t c = 0; c < n; c++) {
            int structural = 0;
            double sum = 0.0, bound = 0.0;
            for (int32_t j = 0; j < p; j++) {
                structural |= PA[(size_t)i * p + j] && PB[(size_t)j * n + c];
                sum += DA[(size_t)i * p + j] * DB[(size_t)j * n + c];
                bound += fabs(DA[(size_t)i * p + j] * DB[(size_t)j * n + c]);
            }
            if (!structural) continue;
            expected_nnz++;
            if (at >= vc.ptr[i + 1] || vc.ind[at] != c) {
                bad++;
                continue;
            }
            double got = get_value(vc.val, vc.type, at++);
            if (!(fabs(got - sum) <= (p + 4) * eps * bound)) bad++;
        }
        if (at != vc.ptr[i + 1]) bad++;
    }
    CHECK(vc.nnz == expected_nnz);
    CHECK(bad == 0);
    if (bad) fprintf(stderr, "spgemm %dx%d * %dx%d: %d bad\n", m, p, p, n, bad);
done:
    domino_matrix_free(C);
    free(DA), free(DB), free(PA), free(PB);
}

/* random rectangular and empty shapes, CSR and CSC inputs, both types */
static void test_spgemm_random(domino_handle h)
{
    static const int32_t shapes[][3] = {{0, 0, 0}, {4, 0, 3}, {0, 3, 4}, {3, 4, 0}, {1, 1, 1},
                                        {7, 5, 6}, {6, 9, 4}, {12, 12, 12}, {30, 17, 25}};
    for (int t = 0; t < 2; t++)
        for (int fa = 0; fa < 2; fa++)
            for (int fb = 0; fb < 2; fb++)
                for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
                    const int32_t *d = shapes[s];
                    domino_matrix A =
                        random_sparse(h, (domino_format)fa, (domino_type)t, d[0], d[1], 0);
                    domino_matrix B =
                        random_sparse(h, (domino_format)fb, (domino_type)t, d[1], d[2], 0);
                    check_spgemm(h, A, B);
                    domino_matrix_free(A);
                    domino_matrix_free(B);
                }
    /* symmetric storage, expanded */
    domino_matrix S = random_sparse(h, DOMINO_CSC, DOMINO_FLOAT64, 10, 10, 1);
    domino_matrix B = random_sparse(h, DOMINO_CSR, DOMINO_FLOAT64, 10, 7, 0);
    CHECK_OK(h, domino_matrix_set_kind(h, S, DOMINO_SKEW_SYMMETRIC, 0));
    check_spgemm(h, S, B);
    check_spgemm(h, S, S);
    domino_matrix_free(S);
    domino_matrix_free(B);
}

/* entries that sum to zero stay in the pattern */
static void test_spgemm_cancel(domino_handle h)
{
    int32_t r[] = {0, 0, 1, 1}, c[] = {0, 1, 0, 1};
    double v[] = {1.0, 1.0, 1.0, -1.0};
    domino_matrix A = NULL, C = NULL;
    CHECK_OK(h, domino_matrix_from_coo(h, DOMINO_CSR, DOMINO_FLOAT64, 2, 2, 4, r, c, v, &A));
    CHECK_OK(h, domino_ref_spgemm(h, A, A, &C)); /* [2 0; 0 2], all four stored */
    domino_matrix_view vc;
    if (C && !domino_matrix_get_view(h, C, &vc)) {
        CHECK(vc.nnz == 4);
        CHECK_NEAR(get_value(vc.val, vc.type, 1), 0.0, 0.0);
        CHECK_NEAR(get_value(vc.val, vc.type, 0), 2.0, 0.0);
    }
    check_spgemm(h, A, A);
    domino_matrix_free(C);
    domino_matrix_free(A);
}

/* |y - C x| against A (A x) where C = A A, tolerance from |A|(|A||x|) */
static void check_square_by_spmv(domino_handle h, domino_matrix A, const char *name)
{
    domino_matrix C = NULL, full = NULL, Acsr = NULL;
    CHECK_OK(h, domino_ref_spgemm(h, A, A, &C));
    CHECK_OK(h, domino_matrix_symmetric_expand(h, A, &full)); /* general: a copy */
    if (full) CHECK_OK(h, domino_matrix_convert(h, full, DOMINO_CSR, &Acsr));
    if (!C || !Acsr) goto done;
    domino_matrix_view v;
    domino_matrix_get_view(h, Acsr, &v);
    int32_t n = v.nrows;
    double *x = malloc((size_t)n * sizeof(double)), *ax = malloc((size_t)n * sizeof(double));
    double *aax = malloc((size_t)n * sizeof(double)), *cx = malloc((size_t)n * sizeof(double));
    double *abs_ax = calloc((size_t)n, sizeof(double)), *bound = calloc((size_t)n, sizeof(double));
    int64_t longest = 0;
    for (int32_t i = 0; i < n; i++) /* vectors of A's type */
        set_value(x, v.type, i, 0.5 + lcg_uniform());
    CHECK_OK(h, domino_ref_spmv(h, DOMINO_OP_N, 1.0, A, x, 0.0, ax));
    CHECK_OK(h, domino_ref_spmv(h, DOMINO_OP_N, 1.0, A, ax, 0.0, aax));
    CHECK_OK(h, domino_ref_spmv(h, DOMINO_OP_N, 1.0, C, x, 0.0, cx));
    for (int pass = 0; pass < 2; pass++)
        for (int32_t i = 0; i < n; i++) {
            if (v.ptr[i + 1] - v.ptr[i] > longest) longest = v.ptr[i + 1] - v.ptr[i];
            for (int64_t k = v.ptr[i]; k < v.ptr[i + 1]; k++) {
                double a = fabs(get_value(v.val, v.type, k));
                if (pass == 0)
                    abs_ax[i] += a * get_value(x, v.type, v.ind[k]);
                else
                    bound[i] += a * abs_ax[v.ind[k]];
            }
        }
    int bad = 0;
    double eps = domino_type_eps(v.type);
    /* float: ax, C and the results rounded to float (a few eps each); both
     * types: sums in double of up to longest^2 terms */
    double units = 8.0 + (double)longest * (double)longest * DBL_EPSILON / eps, worst = 0.0;
    for (int32_t i = 0; i < n; i++) {
        double err = fabs(get_value(aax, v.type, i) - get_value(cx, v.type, i));
        if (!(err <= units * eps * bound[i])) bad++;
        if (bound[i] > 0.0 && err / (eps * bound[i]) > worst) worst = err / (eps * bound[i]);
    }
    CHECK(bad == 0);
    domino_matrix_view vc;
    domino_matrix_get_view(h, C, &vc);
    printf("%s: n = %d, nnz(A) = %lld, nnz(A*A) = %lld, %d bad rows, worst %.2f eps\n", name,
           n, (long long)v.nnz, (long long)vc.nnz, bad, worst);
    free(x), free(ax), free(aax), free(cx), free(abs_ax), free(bound);
done:
    domino_matrix_free(C);
    domino_matrix_free(full);
    domino_matrix_free(Acsr);
}

/* R-MAT scale 8, bcsstk13 (expanded and stored symmetric), cage8 as CSC */
static void test_spgemm_large(domino_handle h)
{
    domino_matrix A = NULL, S = NULL, G = NULL, Gcsc = NULL;
    CHECK_OK(h, domino_gen_rmat(h, 8, 8, 0.57, 0.19, 0.19, 0.05, 7, DOMINO_FLOAT64, &A));
    if (A) check_square_by_spmv(h, A, "rmat8");
    domino_matrix_free(A);
    A = NULL;
    const char *bcs = DOMINO_SHARED_MATRICES "/bcsstk13.mtx";
    CHECK_OK(h, domino_mm_read(h, bcs, DOMINO_FLOAT64, 0, &A));
    CHECK_OK(h, domino_mm_read(h, bcs, DOMINO_FLOAT64, DOMINO_MM_KEEP_STORED, &S));
    if (A) check_square_by_spmv(h, A, "bcsstk13");
    if (S) check_square_by_spmv(h, S, "bcsstk13 stored symmetric");
    CHECK_OK(h, domino_mm_read(h, DOMINO_SHARED_MATRICES "/cage8.mtx", DOMINO_FLOAT32, 0, &G));
    CHECK_OK(h, domino_matrix_convert(h, G, DOMINO_CSC, &Gcsc));
    if (Gcsc) check_square_by_spmv(h, Gcsc, "cage8 float CSC");
    /* the same C for 1 and 3 threads, bit for bit */
    domino_matrix C1 = NULL, C3 = NULL;
    int saved = omp_get_max_threads();
    omp_set_num_threads(1);
    CHECK_OK(h, domino_ref_spgemm(h, A, A, &C1));
    omp_set_num_threads(3);
    CHECK_OK(h, domino_ref_spgemm(h, A, A, &C3));
    omp_set_num_threads(saved);
    domino_matrix_view v1, v3;
    if (C1 && C3 && !domino_matrix_get_view(h, C1, &v1) && !domino_matrix_get_view(h, C3, &v3)) {
        CHECK(v1.nnz == v3.nnz);
        CHECK(v1.nnz == v3.nnz && !memcmp(v1.ptr, v3.ptr, ((size_t)v1.nrows + 1) * 8) &&
              !memcmp(v1.ind, v3.ind, (size_t)v1.nnz * 4) &&
              !memcmp(v1.val, v3.val, (size_t)v1.nnz * 8));
    }
    domino_matrix_free(C1);
    domino_matrix_free(C3);
    domino_matrix_free(A);
    domino_matrix_free(S);
    domino_matrix_free(G);
    domino_matrix_free(Gcsc);
}

/* wrong arguments: status and message */
static void test_spgemm_misuse(domino_handle h)
{
    domino_matrix A = random_sparse(h, DOMINO_CSR, DOMINO_FLOAT64, 3, 4, 0);
    domino_matrix B = random_sparse(h, DOMINO_CSC, DOMINO_FLOAT64, 5, 2, 0);
    domino_matrix F = random_sparse(h, DOMINO_CSR, DOMINO_FLOAT32, 4, 2, 0);
    domino_matrix C = A;
    CHECK_STATUS(h, DOMINO_DIMENSION_MISMATCH, domino_ref_spgemm(h, A, B, &C));
    CHECK(C == NULL);
    CHECK(strstr(domino_last_error(h), "3 x 4") && strstr(domino_last_error(h), "5 x 2"));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_ref_spgemm(h, A, F, &C));
    CHECK(strstr(domino_last_error(h), "float32") != NULL);
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_ref_spgemm(h, NULL, B, &C));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_ref_spgemm(h, A, NULL, &C));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_ref_spgemm(h, A, B, NULL));
    domino_matrix_free(A);
    domino_matrix_free(B);
    domino_matrix_free(F);
}

/* ------------------------------------------------- allocation failures */

/* fail the 1st, 2nd, ... allocation of each call until it succeeds: every
 * failure is DOMINO_OUT_OF_MEMORY and leaves no allocation behind */
static void test_alloc_failures(domino_handle h)
{
    domino_matrix S = random_sparse(h, DOMINO_CSC, DOMINO_FLOAT64, 12, 12, 1);
    domino_matrix B = random_sparse(h, DOMINO_CSR, DOMINO_FLOAT64, 12, 9, 0);
    CHECK_OK(h, domino_matrix_set_kind(h, S, DOMINO_SYMMETRIC, 0));
    double X[12 * 2], Y[12 * 2];
    for (int i = 0; i < 24; i++) X[i] = lcg_uniform();
    for (int which = 0; which < 2; which++) {
        int failures = 0;
        for (int64_t fail_at = 1; fail_at < 200; fail_at++) {
            int64_t live = domino_debug_alloc_live();
            domino_matrix C = NULL;
            domino_debug_fail_alloc_after(fail_at);
            domino_status s = which == 0
                                  ? domino_ref_spmm(h, DOMINO_OP_N, 1.0, S, 2, X, 2, 0.0, Y, 2)
                                  : domino_ref_spgemm(h, S, B, &C);
            domino_debug_fail_alloc_after(0);
            domino_matrix_free(C);
            CHECK(domino_debug_alloc_live() == live);
            if (s == DOMINO_SUCCESS) break;
            CHECK_STATUS(h, DOMINO_OUT_OF_MEMORY, s);
            failures++;
        }
        CHECK(failures >= 3);
    }
    domino_matrix_free(S);
    domino_matrix_free(B);
}

int main(void)
{
    lcg_state = 2026; /* the sequence this test was written with */
    int64_t live_at_start = domino_debug_alloc_live();
    double start = omp_get_wtime();
    domino_handle h = NULL;
    CHECK_OK(NULL, domino_create(&h));
    test_spmm_random(h);
    test_spmm_symmetric(h);
    test_spmm_unsorted(h);
    test_spmm_shared(h);
    test_spmm_misuse(h);
    test_spgemm_random(h);
    test_spgemm_cancel(h);
    test_spgemm_large(h);
    test_spgemm_misuse(h);
    test_alloc_failures(h);
    domino_destroy(h);
    CHECK(domino_debug_alloc_live() == live_at_start);
    printf("test_ref_spmm: %.2f s\n", omp_get_wtime() - start);
    return check_summary("test_ref_spmm");
}
