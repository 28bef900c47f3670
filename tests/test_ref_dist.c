/* test_ref_dist.c: the CPU model of the multi-PE zero-copy solve
 * (domino_ref_trsv_dist) against domino_ref_trsv: random DAGs, stencils and
 * the shared matrices, lower and upper, unit and non-unit, CSR and CSC,
 * double and float, 1 to 7 PEs, the three distributions and several task counts;
 * then errors (zero pivot, missing diagonal, a plan of another size) */
#include "check.h"
#include "domino.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef DOMINO_SHARED_MATRICES
#define DOMINO_SHARED_MATRICES "../shared/matrices"
#endif
#define FORWARD_EPS 1e3

/* max |x - y| / max |y| over n values of type t */
static double rel_diff(domino_type t, int32_t n, const void *x, const void *y)
{
    double d = 0, scale = 0;
    for (int32_t i = 0; i < n; i++) {
        double a = t == DOMINO_FLOAT64 ? ((const double *)x)[i] : ((const float *)x)[i];
        double r = t == DOMINO_FLOAT64 ? ((const double *)y)[i] : ((const float *)y)[i];
        d = fmax(d, isfinite(a) ? fabs(a - r) : INFINITY);
        scale = fmax(scale, fabs(r));
    }
    return scale > 0 ? d / scale : d;
}

/* solve T x = b with npes PEs under scheme / tasks; compare with the reference */
static void check_case(domino_handle h, const char *name, domino_matrix A, domino_fill fill,
                       domino_diag diag, int npes, domino_dist_scheme scheme, int tasks)
{
    domino_matrix_view v;
    domino_dist_options opt;
    domino_dist_plan *plan = NULL;
    CHECK_OK(h, domino_matrix_get_view(h, A, &v));
    size_t vs = v.type == DOMINO_FLOAT64 ? 8 : 4;
    void *b = malloc((size_t)v.nrows * vs + 8), *x = malloc((size_t)v.nrows * vs + 8),
         *xr = malloc((size_t)v.nrows * vs + 8);
    for (int32_t i = 0; i < v.nrows; i++) {
        double bi = 1.0 + (i % 7) / 8.0;
        if (v.type == DOMINO_FLOAT64) ((double *)b)[i] = bi;
        else ((float *)b)[i] = (float)bi;
    }
    domino_dist_options_init(&opt);
    opt.scheme = scheme;
    opt.tasks_per_pe = tasks;
    opt.level_tasks = 0; /* tasks per PE as asked */
    CHECK_OK(h, domino_dist_plan_make(h, A, fill, npes, &opt, &plan));
    CHECK_OK(h, domino_ref_trsv(h, DOMINO_OP_N, fill, diag, A, 1, b, v.nrows, xr, v.nrows));
    domino_status s = plan ? domino_ref_trsv_dist(h, fill, diag, A, plan, b, x) : DOMINO_NULL_POINTER;
    double d = s ? INFINITY : rel_diff(v.type, v.nrows, x, xr);
    if (!s && d <= FORWARD_EPS * domino_type_eps(v.type)) {
        check_passed++;
    } else {
        check_failed++;
        fprintf(stderr, "FAIL: %s fill=%d diag=%d npes=%d scheme=%d tasks=%d: %s, diff %.3e\n", name,
                (int)fill, (int)diag, npes, (int)scheme, tasks, domino_status_name(s), d);
    }
    domino_dist_plan_free(plan);
    free(b);
    free(x);
    free(xr);
}

/* every PE count, scheme, fill and diag on one matrix */
static void check_matrix(domino_handle h, const char *name, domino_matrix A, int max_pes)
{
    static const int tasks[] = {1, 4, 32, 8};
    for (int npes = 1; npes <= max_pes; npes++)
        for (int fill = 0; fill < 2; fill++)
            for (int k = 0; k < 4; k++) {
                domino_dist_scheme scheme = k == 0   ? DOMINO_DIST_CONTIGUOUS
                                            : k == 3 ? DOMINO_DIST_LINKED
                                                     : DOMINO_DIST_TASKPOOL;
                check_case(h, name, A, (domino_fill)fill, DOMINO_NON_UNIT, npes, scheme, tasks[k]);
            }
    check_case(h, name, A, DOMINO_LOWER, DOMINO_UNIT, 3, DOMINO_DIST_TASKPOOL, 8);
}

int main(void)
{
    domino_handle h = NULL;
    domino_matrix A = NULL, B = NULL, F = NULL;
    int64_t live = domino_debug_alloc_live();
    CHECK_OK(h, domino_create(&h));
    /* random DAGs (full lower triangles) of several depths, and a chain */
    static const int32_t levels[] = {1, 7, 100, 2000};
    for (int k = 0; k < 4; k++) {
        CHECK_OK(h, domino_gen_dag(h, 2000, 6, levels[k], 0, 11 + k, DOMINO_FLOAT64, &A));
        check_matrix(h, "dag", A, 7);
        domino_matrix_free(A);
        A = NULL;
    }
    /* stencils: full matrices (both triangles), CSR and CSC, double and float */
    CHECK_OK(h, domino_gen_stencil(h, DOMINO_D3N27, 9, 8, 7, DOMINO_PART_FULL, DOMINO_FLOAT64, &A));
    check_matrix(h, "d3n27 9x8x7", A, 5);
    CHECK_OK(h, domino_matrix_convert(h, A, DOMINO_CSC, &B));
    check_matrix(h, "d3n27 9x8x7 csc", B, 3);
    CHECK_OK(h, domino_gen_stencil(h, DOMINO_D2N5, 31, 17, 1, DOMINO_PART_FULL, DOMINO_FLOAT32, &F));
    check_matrix(h, "d2n5 31x17 float", F, 4);
    domino_matrix_free(B);
    domino_matrix_free(F);
    B = F = NULL;
    /* shared matrices with a dominant diagonal */
    static const char *const names[] = {"bcsstk13.mtx", "luxembourg.mtx", "cage8.mtx"};
    for (int k = 0; k < 3; k++) {
        char path[1024];
        domino_matrix R = NULL, T = NULL;
        snprintf(path, sizeof(path), "%s/%s", DOMINO_SHARED_MATRICES, names[k]);
        CHECK_OK(h, domino_mm_read(h, path, DOMINO_FLOAT64, 0, &R));
        if (R) CHECK_OK(h, domino_matrix_triangle(h, R, DOMINO_LOWER, DOMINO_DIAG_DOMINANT, &T));
        if (T) {
            for (int npes = 1; npes <= 4; npes++)
                check_case(h, names[k], T, DOMINO_LOWER, DOMINO_NON_UNIT, npes, DOMINO_DIST_TASKPOOL, 8);
            check_case(h, names[k], T, DOMINO_LOWER, DOMINO_NON_UNIT, 3, DOMINO_DIST_CONTIGUOUS, 1);
            check_case(h, names[k], T, DOMINO_LOWER, DOMINO_NON_UNIT, 4, DOMINO_DIST_LINKED, 8);
        }
        domino_matrix_free(R);
        domino_matrix_free(T);
    }
    /* errors: a plan of another matrix, a missing plan, a zero pivot */
    domino_dist_plan *plan = NULL;
    double b[4] = {1, 2, 3, 4}, x[4];
    CHECK_OK(h, domino_gen_dag(h, 4, 2, 2, 0, 1, DOMINO_FLOAT64, &B));
    CHECK_OK(h, domino_dist_plan_make(h, B, DOMINO_LOWER, 2, NULL, &plan));
    CHECK_STATUS(h, DOMINO_DIMENSION_MISMATCH, domino_ref_trsv_dist(h, DOMINO_LOWER, DOMINO_NON_UNIT, A, plan, b, x));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_ref_trsv_dist(h, DOMINO_LOWER, DOMINO_NON_UNIT, B, NULL, b, x));
    domino_dist_plan_free(plan);
    plan = NULL;
    int32_t rows[] = {0, 1, 1, 2, 2}, cols[] = {0, 0, 1, 1, 2};
    double vals[] = {2, 1, 0, 1, 3};
    domino_matrix Z = NULL;
    CHECK_OK(h, domino_matrix_from_coo(h, DOMINO_CSR, DOMINO_FLOAT64, 3, 3, 5, rows, cols, vals, &Z));
    CHECK_OK(h, domino_dist_plan_make(h, Z, DOMINO_LOWER, 2, NULL, &plan));
    CHECK_STATUS(h, DOMINO_ZERO_PIVOT, domino_ref_trsv_dist(h, DOMINO_LOWER, DOMINO_NON_UNIT, Z, plan, b, x));
    domino_dist_plan_free(plan);
    domino_matrix_free(Z);
    domino_matrix_free(A);
    domino_matrix_free(B);
    domino_destroy(h);
    CHECK(domino_debug_alloc_live() == live); /* nothing left behind */
    return check_summary("test_ref_dist");
}
