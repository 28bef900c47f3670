/* test_gpu_trsv_long_rows.c: rows solved by a whole warp in the thread-per-
 * row paths of the pull engines (DOMINO_LONG_ROW: rows of more entries go
 * to the warp), against the CPU reference (trsv_cases.h): the thread
 * engine (sorted rows: warp sweep or thread per row; DOMINO_PULL_MODE=2:
 * thread per row only, rows summed in arrival order, DOMINO_ANY_ORDER=1;
 * every warp of rows of up to 8 entries sweeping,
 * DOMINO_SWEEP_MAX_ROW=8 with DOMINO_SWEEP_MIN_CHAINED=0) and the level-set
 * engine (rows in level order), with DOMINO_LONG_ROW 1 (every row with an
 * off-diagonal entry by a warp), 8 and the default; on R-MAT 12 (rows of
 * hundreds of entries), a DAG of 40-entry rows, a stencil storing both
 * triangles, a DAG of 4-entry rows (in-warp dependencies of any distance), over fill x diag x op x
 * format x type x nrhs (1 and 3), and on the shared matrices with a few very long rows
 * (adder_dcop_05, hangGlider_2, cryg2500: lower triangle, dominant diagonal) and a triangle whose
 * last 10 rows hold every column (rows of ~9000 entries); waits bounded so that
 * a wrong wait fails instead of hanging. Without a CUDA device it reports every section skipped. */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv (trsv_cases.h) */
#include "trsv_cases.h"

#define SECTIONS 2 /* test sections, all skipped without a device */

/* the thread and level-set engines on one case, for each long-row setting */
static void check_long_rows(domino_handle h, const solve_case *c)
{
    static const char *const long_row[] = {"DOMINO_LONG_ROW=1", "DOMINO_LONG_ROW=8", ""};
    case_data d;
    if (!case_data_new(h, c, &d)) return;
    for (int k = 0; k < 3; k++) {
        /* thread engine: as chosen, thread per row only, every warp of rows of
         * up to 8 entries sweeping (chained or not); level-set engine */
        char thread_only[96], sweep[128];
        snprintf(thread_only, sizeof thread_only, "%s,DOMINO_PULL_MODE=2,DOMINO_ANY_ORDER=1",
                 long_row[k]);
        snprintf(sweep, sizeof sweep, "%s,DOMINO_SWEEP_MAX_ROW=8,DOMINO_SWEEP_MIN_CHAINED=0",
                 long_row[k]);
        const char *thread_settings[] = {long_row[k], thread_only, sweep};
        check_engine_settings(h, c, &d, DOMINO_ENGINE_THREAD, thread_settings, 3);
        check_engine_settings(h, c, &d, DOMINO_ENGINE_LEVELSET, &long_row[k], 1);
    }
    case_data_free(&d);
}

/* a lower triangle of n rows whose last `dense` rows hold every column
 * before them (rows of thousands of entries, several in one warp), the
 * others a chain of 1-3 nearer dependencies; the diagonal dominant */
static domino_matrix very_long_rows(domino_handle h, int32_t n, int32_t dense)
{
    int64_t cap = 4 * (int64_t)n + (int64_t)dense * n, nnz = 0;
    int32_t *ri = malloc((size_t)cap * sizeof(int32_t)), *ci = malloc((size_t)cap * sizeof(int32_t));
    double *v = malloc((size_t)cap * sizeof(double));
    domino_matrix M = NULL;
    if (!ri || !ci || !v) {
        CHECK(!"very_long_rows: out of memory");
        goto cleanup;
    }
    for (int32_t i = 0; i < n; i++) {
        int64_t first = nnz;
        if (i >= n - dense) {
            for (int32_t j = 0; j < i; j++) ri[nnz] = i, ci[nnz] = j, v[nnz++] = -1.0 / (1 + (i + j) % 7);
        } else {
            static const int32_t back[3] = {1, 7, 300};
            for (int t = 0; t < 3; t++)
                if (i >= back[t] && (t == 0 || (i + t) % 3 != 0))
                    ri[nnz] = i, ci[nnz] = i - back[t], v[nnz++] = -0.25 - 0.125 * t;
        }
        double off = 0;
        for (int64_t k = first; k < nnz; k++) off -= v[k];
        ri[nnz] = i, ci[nnz] = i, v[nnz++] = off + 1.0;
    }
    CHECK_OK(h, domino_matrix_from_coo(h, DOMINO_CSR, DOMINO_FLOAT64, n, n, nnz, ri, ci, v, &M));
cleanup:
    free(ri);
    free(ci);
    free(v);
    return M;
}

/* generated matrices, every combination */
static void test_generated(domino_handle h)
{
    domino_matrix M = NULL, R = NULL, Lo = NULL, F = NULL;
    CHECK_OK(h, domino_gen_rmat(h, 12, 8, 0.6, 0.4 / 3, 0.4 / 3, 0.4 / 3, 5, DOMINO_FLOAT64, &R));
    if (R) CHECK_OK(h, domino_matrix_triangle(h, R, DOMINO_LOWER, DOMINO_DIAG_DOMINANT, &Lo));
    if (Lo) for_each_combination(h, "rmat 12 lower", Lo, 0, check_long_rows);
    CHECK_OK(h, domino_gen_dag(h, 2999, 40, 30, 0, 78, DOMINO_FLOAT64, &M)); /* 40 entries a row */
    if (M) for_each_combination(h, "dag n=2999 per_row=40 levels=30", M, 0, check_long_rows);
    CHECK_OK(h,
             domino_gen_stencil(h, DOMINO_D3N27, 13, 11, 9, DOMINO_PART_FULL, DOMINO_FLOAT64, &F));
    if (F) for_each_combination(h, "stencil D3N27 13x11x9 full", F, 1, check_long_rows);
    domino_matrix_free(M);
    M = NULL;
    CHECK_OK(h, domino_gen_dag(h, 3001, 4, 300, 0, 79, DOMINO_FLOAT64,
                               &M)); /* short rows, in-warp deps */
    if (M) for_each_combination(h, "dag n=3001 per_row=4 levels=300", M, 0, check_long_rows);
    domino_matrix_free(M);
    M = very_long_rows(h, 9000, 10); /* rows of 8991-9000 entries, 8 of them in the last warp */
    if (M) for_each_combination(h, "9000 rows, the last 10 dense", M, 0, check_long_rows);
    domino_matrix_free(F);
    domino_matrix_free(M);
    domino_matrix_free(Lo);
    domino_matrix_free(R);
}

/* shared matrices with a few rows of hundreds or thousands of entries */
static void test_shared(domino_handle h)
{
    static const char *const names[] = {"adder_dcop_05.mtx", "hangGlider_2.mtx", "cryg2500.mtx"};
    for_each_shared_lower(h, "test_gpu_trsv_long_rows", names, 3, check_long_rows);
}

int main(void)
{
    int64_t live = domino_debug_alloc_live();
    domino_handle h = NULL;
    CHECK_OK(NULL, domino_create(&h));
    if (domino_gpu_count() == 0) return skip_without_gpu(h, "test_gpu_trsv_long_rows", SECTIONS);
    test_generated(h);
    test_shared(h);
    return finish_gpu_test(h, live, "test_gpu_trsv_long_rows");
}
