/* test_gpu_trsv_levelblock.c: the level-block engine
 * (DOMINO_ENGINE_LEVELBLOCK) with 1, 2, 4 and 32 lanes per row
 * (DOMINO_LEVELBLOCK_LANES), 32 and 256 solving threads
 * (DOMINO_LEVELBLOCK_THREADS: one warp synchronizes itself, more use a
 * named barrier), x in shared memory and in global memory
 * (DOMINO_LEVELBLOCK_SHARED=0), against the CPU reference (trsv_cases.h):
 * a chain (30000 levels: the loader's ring wraps hundreds of times), a
 * deep DAG of narrow levels, wide levels and 40-entry rows (levels larger
 * than half the ring, read from memory), R-MAT 12, a stencil storing both
 * triangles; over fill x diag x op x format x type x nrhs (1 and 3).
 * Then a system too large for shared memory, AUTO's choice on a deep
 * narrow system, and a diagonal stored twice in every row.  Without a CUDA device it reports every section skipped. */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv (trsv_cases.h) */
#include "trsv_cases.h"

#define SECTIONS 2 /* test sections, all skipped without a device */

/* the engine on one case for every setting */
static void check_levelblock(domino_handle h, const solve_case *c)
{
    static const char *const lanes[] = {"1", "2", "4", "32"};
    case_data d;
    if (!case_data_new(h, c, &d)) return;
    for (int shared = 0; shared < 2; shared++)
        for (int k = 0; k < 4; k++) {
            char setting[128];
            const char *one = setting;
            snprintf(setting, sizeof setting,
                     "DOMINO_LEVELBLOCK_SHARED=%d,DOMINO_LEVELBLOCK_THREADS=%s,DOMINO_LEVELBLOCK_LANES=%s",
                     shared, k % 2 ? "256" : "32", lanes[k]);
            check_engine_settings(h, c, &d, DOMINO_ENGINE_LEVELBLOCK, &one, 1);
        }
    case_data_free(&d);
}

static void test_levelblock(domino_handle h)
{
    static const dag_case dags[] = {
        {30011, 2, 30011, 0, 90, "dag n=30011 chain"},
        {20000, 6, 2000, 0, 91, "dag n=20000 per_row=6 levels=2000"},
        {20011, 6, 3, 0, 92, "dag n=20011 per_row=6 levels=3 (wide)"},
        {2999, 40, 30, 0, 93, "dag n=2999 per_row=40 levels=30"},
    };
    for_each_dag(h, dags, sizeof dags / sizeof dags[0], check_levelblock);
    for_rmat_and_full_stencil(h, 23, 19, 17, check_levelblock);
}

/* a lower bidiagonal CSR of n rows whose diagonal is stored twice in every
 * row (1.5 + 2.5): the pivots are the sums, as in the other engines */
static domino_matrix repeated_diagonal(domino_handle h, int32_t n)
{
    domino_matrix A = NULL;
    domino_matrix_view v;
    CHECK_OK(h, domino_matrix_new(h, DOMINO_CSR, DOMINO_FLOAT64, n, n, 3 * (int64_t)n - 1, &A));
    if (!A || domino_matrix_get_view(h, A, &v)) return A;
    double *val = v.val;
    int64_t k = 0;
    for (int32_t i = 0; i < n; i++) {
        v.ptr[i] = k;
        if (i > 0) v.ind[k] = i - 1, val[k++] = -1.0;
        v.ind[k] = i, val[k++] = 1.5;
        v.ind[k] = i, val[k++] = 2.5;
    }
    v.ptr[n] = k;
    return A;
}

/* x beyond shared memory; AUTO on a deep narrow system; repeated diagonals */
static void test_sizes(domino_handle h)
{
    domino_matrix M = NULL;
    CHECK_OK(h, domino_gen_dag(h, 200003, 4, 3000, 0, 79, DOMINO_FLOAT64, &M));
    if (M)
        check_plan_engine(h, "dag n=200003 levels=3000 (global x)", M, DOMINO_ENGINE_LEVELBLOCK,
                          DOMINO_ENGINE_LEVELBLOCK, 0);
    domino_matrix_free(M);
    M = NULL;
    CHECK_OK(h, domino_gen_dag(h, 5000, 8, 1000, 0, 80, DOMINO_FLOAT64, &M));
    if (M)
        check_plan_engine(h, "dag n=5000 levels=1000, auto", M, DOMINO_ENGINE_AUTO,
                          DOMINO_ENGINE_LEVELBLOCK, 0);
    domino_matrix_free(M);
    M = repeated_diagonal(h, 300);
    if (M)
        check_plan_engine(h, "bidiagonal n=300, diagonal stored twice", M,
                          DOMINO_ENGINE_LEVELBLOCK, DOMINO_ENGINE_LEVELBLOCK, 0);
    domino_matrix_free(M);
}

int main(void)
{
    int64_t live = domino_debug_alloc_live();
    domino_handle h = NULL;
    CHECK_OK(NULL, domino_create(&h));
    if (domino_gpu_count() == 0) return skip_without_gpu(h, "test_gpu_trsv_levelblock", SECTIONS);
    test_sizes(h);
    test_levelblock(h);
    return finish_gpu_test(h, live, "test_gpu_trsv_levelblock");
}
