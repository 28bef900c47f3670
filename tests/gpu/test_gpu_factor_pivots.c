/* test_gpu_factor_pivots.c: bad pivots of the GPU ILU(0) / IC(0)
 * factorizations against the CPU reference's (domino_ref_ilu0, ic0) */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */
#include "precond_cases.h"

/* What is checked: zero pivots reported with the CPU's row (bcsstk13 IC(0):
 * row 95, also by cuSPARSE's csric02), the pivot_shift replacement count
 * equal to the CPU's, bcsstk13 + 0.3 diag factored as on the CPU; bad
 * pivots named and replaced as on the CPU on the line, scan, table (32, 16
 * and 8 lanes a row) and box paths; the grouped kernel (8 lanes a row) on
 * bcsstk13 too. */

/* Row r of A (freed here) made a bad pivot (ILU(0): its lower part and
 * diagonal zero, so its pivot is exactly 0; IC(0): a_rr = 0, a negative
 * pivot): the factorization names the row the CPU names, and with a shift
 * replaces what the CPU replaces, its factor the CPU's bit for bit (exact)
 * or within FACTOR_EPS.  The caller's environment picks the path; the plan
 * must take path (0 line, 1 scan, 2 table with lanes lanes a row, 3 box). */
static void check_bad_pivot(domino_handle h, domino_matrix A, int kind, int32_t r, int path,
                            int lanes, int exact, const char *label)
{
    domino_matrix F = NULL;
    domino_matrix_view v;
    CHECK_OK(h, domino_matrix_get_view(h, A, &v));
    double *val = v.val;
    for (int64_t k = v.ptr[r]; k < v.ptr[r + 1]; k++)
        if (v.ind[k] == r || (kind == 0 && v.ind[k] < r)) val[k] = 0.0;
    domino_dmatrix dA = NULL;
    domino_factor_plan plan = NULL;
    domino_factor_options opt;
    domino_factor_options_init(&opt);
    CHECK_OK(h, domino_dmatrix_upload(h, A, &dA));
    CHECK_OK(h, domino_factor_analysis(h, (domino_factor_kind)kind, dA, &opt, &plan));
    CHECK(plan && (path == 0   ? plan->stencil.line_path
                   : path == 1 ? plan->stencil.scan_path
                   : path == 3 ? plan->stencil.box_path
                               : plan->stencil.nx > 0 && !plan->stencil.line_path &&
                                     !plan->stencil.scan_path && !plan->stencil.box_path &&
                                     plan->lanes == lanes));
    CHECK_STATUS(h, DOMINO_ZERO_PIVOT, domino_factor_compute(h, plan, NULL, NULL));
    char want[32];
    snprintf(want, sizeof want, "row %d", r);
    CHECK(strstr(domino_last_error(h), want) != NULL);
    printf("%s %s, row %d: %s\n", label, kind ? "IC0 " : "ILU0", r, domino_last_error(h));
    domino_factor_plan_free(plan);
    int64_t cpu_replaced = 0, gpu_replaced = -1;
    opt.pivot_shift = kind ? 4.0 : 1e-3;
    if (kind)
        CHECK_OK(h, domino_ref_ic0(h, A, opt.pivot_shift, &F, &cpu_replaced));
    else
        CHECK_OK(h, domino_ref_ilu0(h, A, opt.pivot_shift, &F, &cpu_replaced));
    CHECK_OK(h, domino_factor_analysis(h, (domino_factor_kind)kind, dA, &opt, &plan));
    CHECK_OK(h, domino_factor_compute(h, plan, NULL, &gpu_replaced));
    CHECK(cpu_replaced >= 1 && gpu_replaced == cpu_replaced);
    double diff = F && plan ? factor_difference(h, plan, 0, F) : -1.0;
    CHECK(diff >= 0.0 && (exact ? diff == 0.0 : diff <= FACTOR_EPS * eps));
    printf("  shift %g: %lld replaced (CPU %lld), max rel diff %.2e\n", opt.pivot_shift,
           (long long)gpu_replaced, (long long)cpu_replaced, diff);
    domino_factor_plan_free(plan);
    domino_dmatrix_free(dA);
    domino_matrix_free(F);
    domino_matrix_free(A);
}

/* bad pivots on the line path (DOMINO_FACTOR_STENCIL=2, walked: the CPU's
 * factor bit for bit) and on the scan path (the default, within
 * FACTOR_EPS; it walks the chunk of the bad pivot lane after lane), at x =
 * 5, 31 and 32: inside a chunk and on both sides of a chunk boundary */
static void test_stencil_pivots(domino_handle h)
{
    static const int32_t xs[3] = {5, 31, 32}; /* inside a chunk, the last and the first of one */
    for (int m = 0; m < 2; m++)
        for (int q = 0; q < 6; q++) {
            const int32_t r = xs[q / 2] + 40 * (6 + 11 * 4); /* (x, 6, 4) of 40 x 11 x 10 */
            if (m == 0) setenv("DOMINO_FACTOR_STENCIL", "2", 1);
            if (m == 0) setenv("DOMINO_FACTOR_LINES", "walk", 1);
            check_bad_pivot(h, stencil(h, DOMINO_D3N7, 40, 11, 10), q & 1, r, m, 0, m == 0,
                            m ? "d3n7 40x11x10, scan path" : "d3n7 40x11x10, line path");
            unsetenv("DOMINO_FACTOR_STENCIL");
            unsetenv("DOMINO_FACTOR_LINES");
        }
}

/* bad pivots on a deep row of the table path (D3N27 with
 * DOMINO_FACTOR_BOX=0; 32, 16 and 8 lanes a row; ILU(0) the CPU's
 * operations bit for bit, IC(0) sums in another order), and on the box path
 * (the default for D3N27, both kinds bit for bit) on a deep row, a corner
 * and a face, and on a deep row of a larger grid (40 x 38 x 36: keys of
 * several warps) */
static void test_deep_pivots(domino_handle h)
{
    const char *lanes[3] = {"32", "16", "8"};
    const int32_t r = 6 + 12 * (6 + 11 * 5); /* (6, 6, 5) of 12 x 11 x 10 */
    setenv("DOMINO_FACTOR_BOX", "0", 1);
    for (int l = 0; l < 3; l++)
        for (int kind = 0; kind < 2; kind++) {
            char label[64];
            snprintf(label, sizeof label, "d3n27 12x11x10, table path, %s lanes", lanes[l]);
            setenv("DOMINO_FACTOR_LANES", lanes[l], 1);
            check_bad_pivot(h, stencil(h, DOMINO_D3N27, 12, 11, 10), kind, r, 2, atoi(lanes[l]),
                            kind == 0, label);
            unsetenv("DOMINO_FACTOR_LANES");
        }
    setenv("DOMINO_FACTOR_BOX", "1", 1);
    const int32_t rows[3] = {r, 0, 11 + 12 * (0 + 11 * 4)}; /* (6, 6, 5), (0, 0, 0), (11, 0, 4) */
    for (int q = 0; q < 3; q++)
        for (int kind = 0; kind < 2; kind++)
            check_bad_pivot(h, stencil(h, DOMINO_D3N27, 12, 11, 10), kind, rows[q], 3, 0, 1,
                            "d3n27 12x11x10, box path");
    /* 40 x 38 x 36 (254 keys of 215 rows on average, several warps each): a
     * deep row's bad pivot, the factor bit for bit the CPU's */
    for (int kind = 0; kind < 2; kind++)
        check_bad_pivot(h, stencil(h, DOMINO_D3N27, 40, 38, 36), kind, 20 + 40 * (19 + 38 * 18), 3, 0, 1,
                        "d3n27 40x38x36, box path (warps of deep rows)");
    /* ILU(0) and IC(0) by grid lines (DOMINO_FACTOR_BOX_LINES): the same
     * rows, and a row in the middle of a long line's second chunk; walked,
     * bit for bit, and scanned (the chunks with a bad pivot walked, the
     * others within FACTOR_EPS) */
    const char *lines[2] = {"walk", "1"};
    for (int mode = 0; mode < 2; mode++) {
        setenv("DOMINO_FACTOR_BOX_LINES", lines[mode], 1);
        for (int kind = 0; kind < 2; kind++) {
            for (int q = 0; q < 3; q++)
                check_bad_pivot(h, stencil(h, DOMINO_D3N27, 12, 11, 10), kind, rows[q], 3, 0, mode == 0,
                                "d3n27 12x11x10, box path by lines");
            check_bad_pivot(h, stencil(h, DOMINO_D3N27, 40, 38, 36), kind, 20 + 40 * (19 + 38 * 18), 3, 0,
                            mode == 0, "d3n27 40x38x36, box path by lines");
            check_bad_pivot(h, stencil(h, DOMINO_D3N27, 70, 6, 5), kind, 45 + 70 * (3 + 6 * 2), 3, 0, mode == 0,
                            "d3n27 70x6x5, box path by lines");
        }
    }
    unsetenv("DOMINO_FACTOR_BOX_LINES");
    unsetenv("DOMINO_FACTOR_BOX");
}

/* first bad pivot's row as the CPU's; replaced counts as the CPU's */
static void test_pivots(domino_handle h)
{
    domino_matrix A = NULL, S = NULL;
    if (domino_mm_read(h, shared_path("bcsstk13.mtx"), DOMINO_FLOAT64, 0, &A)) return;
    domino_dmatrix dA = NULL;
    domino_factor_plan plan = NULL;
    domino_factor_options opt;
    domino_factor_options_init(&opt);
    CHECK_OK(h, domino_dmatrix_upload(h, A, &dA));
    CHECK_OK(h, domino_factor_analysis(h, DOMINO_FACTOR_IC0, dA, &opt, &plan));
    CHECK_STATUS(h, DOMINO_ZERO_PIVOT, domino_factor_compute(h, plan, NULL, NULL));
    CHECK(strstr(domino_last_error(h), "row 95") != NULL);
    domino_factor_plan_free(plan);
    opt.use_cusparse = 1;
    CHECK_OK(h, domino_factor_analysis(h, DOMINO_FACTOR_IC0, dA, &opt, &plan));
    CHECK_STATUS(h, DOMINO_ZERO_PIVOT, domino_factor_compute(h, plan, NULL, NULL));
    printf("cusparse csric02 on bcsstk13: %s\n", domino_last_error(h));
    domino_factor_plan_free(plan);
    /* pivot_shift 1e10: the same pivots are replaced as on the CPU */
    domino_matrix F = NULL;
    int64_t cpu_replaced = 0, gpu_replaced = -1;
    CHECK_OK(h, domino_ref_ic0(h, A, 1e10, &F, &cpu_replaced));
    opt.use_cusparse = 0;
    opt.pivot_shift = 1e10;
    CHECK_OK(h, domino_factor_analysis(h, DOMINO_FACTOR_IC0, dA, &opt, &plan));
    CHECK_OK(h, domino_factor_compute(h, plan, NULL, &gpu_replaced));
    printf("bcsstk13 IC0 pivot_shift 1e10: replaced cpu %lld gpu %lld\n", (long long)cpu_replaced,
           (long long)gpu_replaced);
    CHECK(cpu_replaced > 0 && gpu_replaced == cpu_replaced);
    domino_factor_plan_free(plan);
    domino_matrix_free(F);
    domino_dmatrix_free(dA);
    /* Manteuffel's shift: the factor exists and equals the CPU's */
    S = scaled_copy(h, A, 1.3, 1.0);
    check_factor(h, S, DOMINO_FACTOR_IC0, 0, "bcsstk13 + 0.3 diag");
    check_factor(h, S, DOMINO_FACTOR_IC0, 1, "bcsstk13 + 0.3 diag");
    domino_matrix_free(S);
    domino_matrix_free(A);
    /* 2 x 2: ILU pivot 0 at row 1, IC pivot -3 at row 1; with a shift */
    const int32_t rows[4] = {0, 0, 1, 1}, cols[4] = {0, 1, 0, 1};
    const double singular[4] = {1, 1, 1, 1}, indefinite[4] = {1, 2, 2, 1};
    for (int kind = 0; kind < 2; kind++) {
        domino_matrix M = NULL;
        CHECK_OK(h, domino_matrix_from_coo(h, DOMINO_CSR, DOMINO_FLOAT64, 2, 2, 4, rows, cols,
                                           kind ? indefinite : singular, &M));
        CHECK_OK(h, domino_dmatrix_upload(h, M, &dA));
        opt.pivot_shift = 0.0;
        CHECK_OK(h, domino_factor_analysis(h, (domino_factor_kind)kind, dA, &opt, &plan));
        CHECK_STATUS(h, DOMINO_ZERO_PIVOT, domino_factor_compute(h, plan, NULL, NULL));
        CHECK(strstr(domino_last_error(h), "row 1") != NULL);
        domino_factor_plan_free(plan);
        opt.pivot_shift = kind ? 4.0 : 1e-3;
        CHECK_OK(h, domino_factor_analysis(h, (domino_factor_kind)kind, dA, &opt, &plan));
        CHECK_OK(h, domino_factor_compute(h, plan, NULL, &gpu_replaced));
        CHECK(gpu_replaced == 1);
        double v[4] = {0};
        domino_dmatrix dF = NULL;
        CHECK_OK(h, domino_factor_get(h, plan, 0, &dF));
        if (dF) CHECK_OK(h, domino_gpu_download(h, v, dF->val, (size_t)dF->nnz * sizeof(double)));
        if (kind)
            CHECK(dF && dF->nnz == 3 && fabs(v[2] - 2.0) <= 4 * eps && fabs(v[1] - 2.0) <= 4 * eps);
        else
            CHECK(dF && dF->nnz == 4 && fabs(v[3] - 1e-3) <= 1e-3 * eps);
        domino_factor_plan_free(plan);
        domino_dmatrix_free(dA);
        domino_matrix_free(M);
    }
}

int main(void)
{
    domino_handle h = NULL;
    int64_t live = 0;
    if (precond_test_begin(&h, "test_gpu_factor_pivots", &live))
        return check_summary("test_gpu_factor_pivots");
    test_stencil_pivots(h);
    test_deep_pivots(h);
    test_pivots(h);
    setenv("DOMINO_FACTOR_LANES", "8", 1); /* the grouped kernel (plans of 1e6 rows and more) */
    test_pivots(h);
    unsetenv("DOMINO_FACTOR_LANES");
    return precond_test_end(h, live, "test_gpu_factor_pivots");
}
