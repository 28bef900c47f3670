/* test_gpu_trsv_lanes.c: the level-set engine's single launch with 4, 8, 16
 * and 32 lanes per row and the lanes chosen from the levels
 * (DOMINO_LEVELSET_LANES = 4, 8, 16, 32, auto), and with a thread per row
 * (unset), against the CPU reference (trsv_cases.h):
 * a DAG with wide levels (its lanes chosen from the levels are 4), one with
 * long rows, R-MAT 12 (rows of hundreds of entries), a stencil storing both
 * triangles, orders not divisible by 8 (a warp's last positions past n),
 * over fill x diag x op x format x type x nrhs (1 and 3), waits bounded so
 * that a wrong wait fails instead of hanging; and the lanes the plan
 * chooses when not forced.  Without a CUDA device it reports every section skipped. */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv (trsv_cases.h) */
#include "trsv_cases.h"

#define SECTIONS 2 /* test sections, all skipped without a device */

/* the level-set engine on one case, once per lanes setting and with threads */
static void check_lanes(domino_handle h, const solve_case *c)
{
    static const char *const settings[] = {"DOMINO_LEVELSET_LANES=4",  "DOMINO_LEVELSET_LANES=8",
                                           "DOMINO_LEVELSET_LANES=16", "DOMINO_LEVELSET_LANES=32",
                                           "DOMINO_LEVELSET_LANES=auto", ""};
    check_case_settings(h, c, DOMINO_ENGINE_LEVELSET, settings, 6);
}

/* the matrices: wide levels, long rows, a power law */
static void test_lanes(domino_handle h)
{
    static const dag_case dags[] = {
        {40003, 6, 2, 0, 77, "dag n=40003 per_row=6 levels=2"}, /* 20000 rows a level, n % 8 != 0 */
        {2999, 40, 30, 0, 78, "dag n=2999 per_row=40 levels=30"}, /* 40 entries a row */
    };
    for_each_dag(h, dags, sizeof dags / sizeof dags[0], check_lanes);
    for_rmat_and_full_stencil(h, 33, 31, 29, check_lanes);
}

/* the plan's own choice ("auto"): 4 lanes on wide levels (n / levels >= 16384), 32 on narrow ones */
static void test_chosen(domino_handle h)
{
    CHECK(domino_dist_pull_lanes(40003, 2, 1) == 4);
    CHECK(domino_dist_pull_lanes(3000, 30, 1) == 32);
    domino_matrix M = NULL;
    domino_dmatrix dM = NULL;
    CHECK_OK(h, domino_gen_dag(h, 40003, 6, 2, 0, 77, DOMINO_FLOAT64, &M));
    if (M) CHECK_OK(h, domino_dmatrix_upload(h, M, &dM));
    if (dM) {
        solve_case c = {"dag n=40003 levels=2, lanes chosen", M, dM, DOMINO_LOWER, DOMINO_NON_UNIT,
                        DOMINO_OP_N, 1, 0, NULL};
        case_data d;
        if (case_data_new(h, &c, &d)) {
            const char *chosen = "DOMINO_LEVELSET_LANES=auto";
            check_engine_settings(h, &c, &d, DOMINO_ENGINE_LEVELSET, &chosen, 1);
            case_data_free(&d);
        }
    }
    domino_dmatrix_free(dM);
    domino_matrix_free(M);
}

int main(void)
{
    int64_t live = domino_debug_alloc_live();
    domino_handle h = NULL;
    CHECK_OK(NULL, domino_create(&h));
    if (domino_gpu_count() == 0) return skip_without_gpu(h, "test_gpu_trsv_lanes", SECTIONS);
    test_chosen(h);
    test_lanes(h);
    return finish_gpu_test(h, live, "test_gpu_trsv_lanes");
}
