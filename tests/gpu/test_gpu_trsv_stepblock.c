/* test_gpu_trsv_stepblock.c: the step-block engine (DOMINO_ENGINE_STEPBLOCK):
 * its 256-thread kernel (DOMINO_STEPBLOCK_WARP=0) with 1, 2 and 3 loader
 * groups (DOMINO_STEPBLOCK_GROUPS), and its one-warp kernel (the default)
 * with 1 and 15 loader warps, against the CPU
 * reference (trsv_cases.h): every fill x diag x format x type x op x nrhs
 * on generated DAGs (a chain: 256 rounds a step; rows of 40 entries, which
 * overflow the 8 pending columns a row carries; a band, whose columns are
 * all recent), R-MAT 12 (rows of hundreds of entries) and a stencil storing
 * both triangles; a system of many steps (the window refilled ~100 times);
 * AUTO's trial on a deep system, every solve checked.
 * Without a CUDA device every section is reported as skipped. */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */
#include "trsv_cases.h"

#define SECTIONS 3

/* the engine on one case for every setting */
static void check_stepblock(domino_handle h, const solve_case *c)
{
    static const char *const settings[] = {
        "DOMINO_STEPBLOCK_WARP=0,DOMINO_STEPBLOCK_GROUPS=1", "DOMINO_STEPBLOCK_WARP=0,DOMINO_STEPBLOCK_GROUPS=2",
        "DOMINO_STEPBLOCK_WARP=0,DOMINO_STEPBLOCK_GROUPS=3",
        "DOMINO_STEPBLOCK_WARP=1,DOMINO_STEPBLOCK_LOADERS=1", "DOMINO_STEPBLOCK_WARP=1"};
    check_case_settings(h, c, DOMINO_ENGINE_STEPBLOCK, settings, 5);
}

static void test_combinations(domino_handle h)
{
    static const dag_case dags[] = {
        {30011, 2, 30011, 0, 70, "dag n=30011 chain"},
        {20000, 6, 2000, 0, 71, "dag n=20000 per_row=6 levels=2000"},
        {20011, 6, 3, 0, 72, "dag n=20011 per_row=6 levels=3 (wide)"},
        {2999, 40, 30, 0, 73, "dag n=2999 per_row=40 levels=30 (overflow)"},
        {20000, 8, 2000, 100, 74, "dag n=20000 per_row=8 levels=2000 band=100"},
    };
    for_each_dag(h, dags, sizeof dags / sizeof dags[0], check_stepblock);
    for_rmat_and_full_stencil(h, 23, 19, 17, check_stepblock);
}

/* many steps; AUTO's trial on a deep narrow system: six solves of one
 * plan, each checked (which engine it keeps depends on the timings) */
static void test_sizes_and_auto(domino_handle h)
{
    domino_matrix M = NULL;
    CHECK_OK(h, domino_gen_dag(h, 300007, 5, 30000, 0, 81, DOMINO_FLOAT64, &M));
    if (M)
        check_plan_engine(h, "dag n=300007 levels=30000", M, DOMINO_ENGINE_STEPBLOCK,
                          DOMINO_ENGINE_STEPBLOCK, 0);
    domino_dmatrix dM = NULL;
    if (M) CHECK_OK(h, domino_dmatrix_upload(h, M, &dM));
    if (dM) {
        solve_case c = {"dag n=300007 levels=30000, auto, 6 solves", M, dM, DOMINO_LOWER,
                        DOMINO_NON_UNIT, DOMINO_OP_N, 1, 0, NULL};
        case_data d;
        if (case_data_new(h, &c, &d)) {
            domino_trsv_plan plan = NULL;
            CHECK_OK(h, domino_trsv_analysis(h, DOMINO_OP_N, DOMINO_LOWER, DOMINO_NON_UNIT, dM, 1, NULL,
                                             NULL, &plan));
            for (int k = 0; plan && k < 6; k++) {
                char what[256];
                snprintf(what, sizeof what, "%s, solve %d", c.matrix, k);
                memset(d.X, POISON, d.bytes);
                domino_status s = domino_gpu_upload(h, d.dX, d.X, d.bytes);
                if (!s) s = domino_trsv_solve(h, plan, d.dB, d.ld, d.dX, d.ld, 1);
                if (!s) s = domino_gpu_synchronize(h);
                report(s == DOMINO_SUCCESS, what, "solve returned %s (%s)", domino_status_name(s),
                       domino_last_error(h));
                if (!s) check_solution(h, &c, &d, what);
            }
            if (plan)
                printf("test_gpu_trsv_stepblock: auto on %s kept engine %s\n", c.matrix,
                       domino_engine_name(domino_trsv_plan_engine(plan)));
            domino_trsv_plan_free(plan);
            case_data_free(&d);
        }
    }
    domino_dmatrix_free(dM);
    domino_matrix_free(M);
}

/* deterministic plans refuse the engine */
static void test_misuse(domino_handle h)
{
    domino_matrix M = NULL;
    domino_dmatrix dM = NULL;
    CHECK_OK(h, domino_gen_dag(h, 1000, 4, 10, 0, 82, DOMINO_FLOAT64, &M));
    if (M) CHECK_OK(h, domino_dmatrix_upload(h, M, &dM));
    if (dM) {
        domino_trsv_options opt;
        domino_trsv_options_init(&opt);
        opt.engine = DOMINO_ENGINE_STEPBLOCK;
        opt.deterministic = 1;
        domino_trsv_plan plan = NULL;
        CHECK_STATUS(h, DOMINO_NOT_SUPPORTED,
                     domino_trsv_analysis(h, DOMINO_OP_N, DOMINO_LOWER, DOMINO_NON_UNIT, dM, 1, &opt,
                                          NULL, &plan));
        CHECK(plan == NULL);
    }
    domino_dmatrix_free(dM);
    domino_matrix_free(M);
}

int main(void)
{
    int64_t live = domino_debug_alloc_live();
    domino_handle h = NULL;
    CHECK_OK(NULL, domino_create(&h));
    if (domino_gpu_count() == 0) return skip_without_gpu(h, "test_gpu_trsv_stepblock", SECTIONS);
    test_misuse(h);
    test_sizes_and_auto(h);
    test_combinations(h);
    return finish_gpu_test(h, live, "test_gpu_trsv_stepblock");
}
