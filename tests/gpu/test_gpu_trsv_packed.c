/* test_gpu_trsv_packed.c: the thread engine's packed walk (rows on groups
 * of lanes, trsv_packed.cu) against the CPU reference (trsv_cases.h):
 * forced (DOMINO_PACKED=1, with and without back-off), and AUTO's walk
 * trial, which takes the stored, arrival-order and packed walks in turn on
 * a plan's first six solves (eight solves of one plan, each checked).  On
 * DAGs of rows of 4, 6 and 28 entries (groups of 1, 2 and 7 lanes, in-warp
 * dependencies), of 200 and 1500 entries (rows owning a warp, 7 and 47
 * entries a lane), R-MAT 12's lower triangle, over fill x diag x op x
 * format x type x nrhs (1 and 3: three right-hand sides take the thread
 * walks), and on the shared matrices bayer10, hangGlider_2 and
 * adder_dcop_05 (lower triangle, dominant diagonal); waits bounded so that a
 * wrong wait fails instead of hanging.  Without a CUDA device it reports
 * every section skipped. */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv (trsv_cases.h) */
#include "trsv_cases.h"

#define SECTIONS 2 /* test sections, all skipped without a device */
#define AUTO_SOLVES 8 /* the walk trial's six, then the chosen walk */

/* the packed walk forced, then AUTO's trial, on one case */
static void check_packed(domino_handle h, const solve_case *c)
{
    static const char *const forced[] = {"DOMINO_PACKED=1", "DOMINO_PACKED=1,DOMINO_BACKOFF_NS=0"};
    case_data d;
    if (!case_data_new(h, c, &d)) return;
    check_engine_settings(h, c, &d, DOMINO_ENGINE_THREAD, forced, 2);
    domino_trsv_options opt; /* AUTO, its trial's solves and then the chosen walk */
    domino_trsv_options_init(&opt);
    opt.max_wait_ms = 10000;
    check_engine_solves(h, c, &d, &opt, NULL, AUTO_SOLVES);
    case_data_free(&d);
}

/* generated matrices, every combination */
static void test_generated(domino_handle h)
{
    static const dag_case dags[] = {
        {2999, 28, 8, 0, 81, "dag n=2999 per_row=28 levels=8"},
        {4001, 6, 50, 0, 82, "dag n=4001 per_row=6 levels=50"},
        {3001, 4, 300, 0, 83, "dag n=3001 per_row=4 levels=300"},
        {1500, 200, 12, 0, 84, "dag n=1500 per_row=200 levels=12"},
        {4000, 1500, 5, 0, 85, "dag n=4000 per_row=1500 levels=5"},
    };
    for_each_dag(h, dags, sizeof dags / sizeof dags[0], check_packed);
    domino_matrix R = NULL, Lo = NULL;
    CHECK_OK(h, domino_gen_rmat(h, 12, 8, 0.6, 0.4 / 3, 0.4 / 3, 0.4 / 3, 5, DOMINO_FLOAT64, &R));
    if (R) CHECK_OK(h, domino_matrix_triangle(h, R, DOMINO_LOWER, DOMINO_DIAG_DOMINANT, &Lo));
    if (Lo) for_each_combination(h, "rmat 12 lower", Lo, 0, check_packed);
    domino_matrix_free(Lo);
    domino_matrix_free(R);
}

/* the shared matrices the walk is for: small, shallow, rows of 10-30
 * entries (bayer10) and a row of hundreds or thousands (hangGlider_2,
 * adder_dcop_05) */
static void test_shared(domino_handle h)
{
    static const char *const names[] = {"bayer10.mtx", "hangGlider_2.mtx", "adder_dcop_05.mtx"};
    for_each_shared_lower(h, "test_gpu_trsv_packed", names, 3, check_packed);
}

int main(void)
{
    int64_t live = domino_debug_alloc_live();
    domino_handle h = NULL;
    CHECK_OK(NULL, domino_create(&h));
    if (domino_gpu_count() == 0) return skip_without_gpu(h, "test_gpu_trsv_packed", SECTIONS);
    test_generated(h);
    test_shared(h);
    return finish_gpu_test(h, live, "test_gpu_trsv_packed");
}
