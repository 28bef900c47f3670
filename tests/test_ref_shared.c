/* test_ref_shared.c: the CPU reference on the real matrices of shared/matrices */
#define _POSIX_C_SOURCE 200809L /* opendir, readdir */
#include "check.h"
#include "domino.h"

#include <dirent.h>
#include <stdint.h>
#include <string.h>

/* How the systems are made: every *.mtx is read as double (symmetric files
 * expanded); pattern files get all-ones values from the reader.  The lower
 * (upper) triangle is taken with DOMINO_DIAG_DOMINANT, diagonal := 1 + sum of
 * |off-diagonal| of its row, so T is strictly row diagonally dominant with
 * ||T^-1||_inf <= 1: the system is well conditioned whatever the values.
 * b = op(T) x_true with x_true_i = 1 + (i % 7) / 8 (spmv of the triangle),
 * then the solve must give a scaled residual <= 100 eps and a small forward
 * error (op N: T well conditioned; op T: T^T is not diagonally dominant, so
 * its forward error is checked against the bound of check_solve). */

#define MAX_FILES 64

static double max_forward_error(const double *x, const double *x_true, int32_t n)
{
    double err = 0, scale = 0;
    for (int32_t i = 0; i < n; i++) {
        err = fmax(err, fabs(x[i] - x_true[i]));
        scale = fmax(scale, fabs(x_true[i]));
    }
    return scale > 0 ? err / scale : err;
}

/* ||op(T)||_inf of CSR T: max absolute row sum (op N) or column sum (op T) */
static double norm_inf(domino_handle h, domino_matrix T, domino_op op)
{
    domino_matrix_view v;
    CHECK_OK(h, domino_matrix_get_view(h, T, &v));
    double *sums = calloc((size_t)v.nrows + 1, sizeof(double)), norm = 0;
    for (int32_t i = 0; i < v.nrows; i++)
        for (int64_t k = v.ptr[i]; k < v.ptr[i + 1]; k++)
            sums[op == DOMINO_OP_N ? i : v.ind[k]] += fabs(((const double *)v.val)[k]);
    for (int32_t i = 0; i < v.nrows; i++) norm = fmax(norm, sums[i]);
    free(sums);
    return norm;
}

/* Solve op(T) x = b for b = op(T) x_true; check the scaled residual <= 100 eps
 * and the forward error against its bound ||op(T)^-1|| ||op(T)x - b||: the
 * dominant diagonal gives ||T^-1||_inf <= 1 and so ||T^-T||_inf <= n.  For
 * op N also the syncfree solve, bitwise equal. */
static void check_solve(domino_handle h, const char *name, domino_matrix T, domino_op op,
                        domino_fill fill, const double *x_true, double *b, double *x,
                        double *xs, int32_t n)
{
    const double eps = domino_type_eps(DOMINO_FLOAT64);
    double r = -1;
    CHECK_OK(h, domino_ref_spmv(h, op, 1.0, T, x_true, 0.0, b));
    CHECK_OK(h, domino_ref_trsv(h, op, fill, DOMINO_NON_UNIT, T, 1, b, n, x, n));
    CHECK_OK(h, domino_ref_trsv_residual(h, op, fill, DOMINO_NON_UNIT, T, 1, x, n, b, n, &r));
    double xnorm = 0, bnorm = 0, xtnorm = 0;
    for (int32_t i = 0; i < n; i++) {
        xnorm = fmax(xnorm, fabs(x[i]));
        bnorm = fmax(bnorm, fabs(b[i]));
        xtnorm = fmax(xtnorm, fabs(x_true[i]));
    }
    double inverse_norm = op == DOMINO_OP_N ? 1.0 : (double)n;
    double forward_bound = 2 * inverse_norm * fmax(r, eps) *
                           (norm_inf(h, T, op) * xnorm + bnorm) / xtnorm;
    double forward = max_forward_error(x, x_true, n);
    int ok = r >= 0 && r <= 100 * eps && forward <= forward_bound;
    if (op == DOMINO_OP_N) ok &= forward <= 1e-10; /* well conditioned: small in absolute terms */
    if (!ok)
        fprintf(stderr, "%s %s op %s: residual %.3g (bound %.3g), forward error %.3g (bound %.3g)\n",
                name, fill == DOMINO_LOWER ? "lower" : "upper", op == DOMINO_OP_N ? "N" : "T", r,
                100 * eps, forward, forward_bound);
    CHECK(ok);
    if (op != DOMINO_OP_N) return;
    CHECK_OK(h, domino_ref_trsv_syncfree(h, fill, DOMINO_NON_UNIT, T, b, xs, 2));
    int same = memcmp(x, xs, (size_t)n * sizeof(double)) == 0;
    if (!same) fprintf(stderr, "%s: syncfree differs from the sequential solve\n", name);
    CHECK(same);
}

/* levels of the lower triangle in CSR and CSC agree; print the statistics */
static void check_levels(domino_handle h, const char *name, domino_matrix A, domino_matrix L)
{
    domino_levels *lv = NULL, *lv_csc = NULL;
    domino_matrix C = NULL;
    domino_matrix_view va, vl;
    CHECK_OK(h, domino_matrix_get_view(h, A, &va));
    CHECK_OK(h, domino_matrix_get_view(h, L, &vl));
    CHECK_OK(h, domino_ref_levels(h, DOMINO_OP_N, DOMINO_LOWER, L, &lv));
    CHECK_OK(h, domino_matrix_convert(h, L, DOMINO_CSC, &C));
    if (C) CHECK_OK(h, domino_ref_levels(h, DOMINO_OP_N, DOMINO_LOWER, C, &lv_csc));
    if (lv && lv_csc) {
        CHECK(lv->nlevels == lv_csc->nlevels);
        CHECK(memcmp(lv->row_level, lv_csc->row_level, (size_t)lv->n * sizeof(int32_t)) == 0);
    }
    if (lv)
        printf("%-20s n %7d nnz %8lld lower nnz %8lld levels %6d parallelism %9.2f "
               "dependency %6.2f\n",
               name, va.nrows, (long long)va.nnz, (long long)vl.nnz, lv->nlevels,
               lv->parallelism, lv->dependency);
    domino_levels_free(lv);
    domino_levels_free(lv_csc);
    domino_matrix_free(C);
}

static void test_one_matrix(domino_handle h, const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    domino_matrix A = NULL, L = NULL, U = NULL;
    domino_matrix_view v;
    double *x_true = NULL, *b = NULL, *x = NULL, *xs = NULL;
    CHECK_OK(h, domino_mm_read(h, path, DOMINO_FLOAT64, 0, &A));
    if (!A) return;
    CHECK_OK(h, domino_matrix_get_view(h, A, &v));
    CHECK(v.nrows == v.ncols);
    CHECK_OK(h, domino_matrix_triangle(h, A, DOMINO_LOWER, DOMINO_DIAG_DOMINANT, &L));
    CHECK_OK(h, domino_matrix_triangle(h, A, DOMINO_UPPER, DOMINO_DIAG_DOMINANT, &U));
    int32_t n = v.nrows;
    x_true = malloc((size_t)n * sizeof(double));
    b = malloc((size_t)n * sizeof(double));
    x = malloc((size_t)n * sizeof(double));
    xs = malloc((size_t)n * sizeof(double));
    if (!L || !U || !x_true || !b || !x || !xs) goto cleanup;
    for (int32_t i = 0; i < n; i++) x_true[i] = 1.0 + (i % 7) / 8.0;
    check_solve(h, name, L, DOMINO_OP_N, DOMINO_LOWER, x_true, b, x, xs, n);
    check_solve(h, name, U, DOMINO_OP_N, DOMINO_UPPER, x_true, b, x, xs, n);
    check_solve(h, name, L, DOMINO_OP_T, DOMINO_LOWER, x_true, b, x, xs, n);
    check_levels(h, name, A, L);
cleanup:
    free(x_true), free(b), free(x), free(xs);
    domino_matrix_free(A);
    domino_matrix_free(L);
    domino_matrix_free(U);
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
    const char *dir = DOMINO_SHARED_MATRICES;
    DIR *d = opendir(dir);
    if (!d) {
        printf("test_ref_shared: SKIPPED, no folder %s\n", dir);
        return 0;
    }
    char *names[MAX_FILES];
    int count = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t len = strlen(e->d_name);
        if (len > 4 && strcmp(e->d_name + len - 4, ".mtx") == 0 && count < MAX_FILES)
            names[count++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)count, sizeof names[0], compare_names);
    CHECK(count > 0); /* the folder exists: it must hold the matrices */
    int64_t live = domino_debug_alloc_live();
    domino_handle h = NULL;
    CHECK_OK(NULL, domino_create(&h));
    for (int k = 0; k < count; k++) {
        test_one_matrix(h, dir, names[k]);
        free(names[k]);
    }
    domino_destroy(h);
    CHECK(domino_debug_alloc_live() == live);
    return check_summary("test_ref_shared");
}
