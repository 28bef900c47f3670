/* test_gpu_trsv_block.c: the one-block engine (DOMINO_ENGINE_BLOCK) with
 * 2, 4, 8, 16 and 32 lanes per row (DOMINO_BLOCK_LANES), blocks of 128 and
 * 1024 threads (DOMINO_BLOCK_THREADS), x in shared memory and in global
 * memory (DOMINO_BLOCK_SHARED=0), against the CPU reference
 * (trsv_cases.h): a chain (every row waits for the one before), a DAG with
 * wide levels and n not a multiple of any group count, a DAG of 40-entry
 * rows, R-MAT 12 (rows of hundreds of entries), a stencil storing both
 * triangles, over fill x diag x op x format x type x nrhs (1 and 3), waits
 * bounded so that a wrong wait fails instead of hanging; then a system too
 * large for shared memory (the engine falls back to global memory) and a
 * small one with the block sized from its levels.  Without a CUDA device it reports every
 * section skipped. */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv (trsv_cases.h) */
#include "trsv_cases.h"

#define SECTIONS 3 /* test sections, all skipped without a device */

/* the block engine on one case, for every lanes setting (and the plan's
 * own), blocks of 1024 and 128 threads (a warp per scheduler), x shared and
 * global */
static void check_block(domino_handle h, const solve_case *c)
{
    static const char *const lanes[] = {",DOMINO_BLOCK_LANES=2",  ",DOMINO_BLOCK_LANES=4",
                                        ",DOMINO_BLOCK_LANES=8",  ",DOMINO_BLOCK_LANES=16",
                                        ",DOMINO_BLOCK_LANES=32", ""};
    case_data d;
    if (!case_data_new(h, c, &d)) return;
    for (int shared = 0; shared < 2; shared++)
        for (int k = 0; k < 6; k++) {
            char setting[128];
            const char *one = setting;
            snprintf(setting, sizeof setting, "DOMINO_BLOCK_SHARED=%d,DOMINO_BLOCK_THREADS=%s%s",
                     shared, k % 2 ? "128" : "1024", lanes[k]);
            check_engine_settings(h, c, &d, DOMINO_ENGINE_BLOCK, &one, 1);
        }
    case_data_free(&d);
}

/* the matrices: a chain, wide levels, long rows, a power law, both triangles */
static void test_block(domino_handle h)
{
    static const dag_case dags[] = {
        {3001, 2, 3001, 0, 76, "dag n=3001 chain"},
        {20011, 6, 3, 0, 77, "dag n=20011 per_row=6 levels=3"}, /* wide levels, n prime */
        {2999, 40, 30, 0, 78, "dag n=2999 per_row=40 levels=30"}, /* 40 entries a row */
    };
    for_each_dag(h, dags, sizeof dags / sizeof dags[0], check_block);
    for_rmat_and_full_stencil(h, 23, 19, 17, check_block);
}

/* n beyond shared memory (x in global memory), and a small system with the block sized from its
 * levels */
static void test_sizes(domino_handle h)
{
    domino_matrix M = NULL;
    CHECK_OK(h, domino_gen_dag(h, 300007, 4, 2000, 0, 79, DOMINO_FLOAT64, &M));
    if (M)
        check_plan_engine(h, "dag n=300007 levels=2000, block (global x)", M, DOMINO_ENGINE_BLOCK,
                          DOMINO_ENGINE_BLOCK, 20000);
    domino_matrix_free(M);
    M = NULL;
    CHECK_OK(h, domino_gen_dag(h, 5000, 8, 500, 0, 80, DOMINO_FLOAT64, &M));
    if (M)
        check_plan_engine(h, "dag n=5000 levels=500, block sized from the levels", M,
                          DOMINO_ENGINE_BLOCK, DOMINO_ENGINE_BLOCK, 20000);
    domino_matrix_free(M);
}

int main(void)
{
    int64_t live = domino_debug_alloc_live();
    domino_handle h = NULL;
    CHECK_OK(NULL, domino_create(&h));
    if (domino_gpu_count() == 0) return skip_without_gpu(h, "test_gpu_trsv_block", SECTIONS);
    test_sizes(h);
    test_block(h);
    return finish_gpu_test(h, live, "test_gpu_trsv_block");
}
