/* test_dist_spmm_gpu.c: the one-sided SpMM on GPUs over NVSHMEM
 * (stationary-C with prefetching, with random and with locality-aware
 * work stealing, by row blocks, and stationary-A) against
 * domino_ref_spmm, one PE per GPU of the machine: R-MAT and a shared
 * matrix, double and float, tile grids that do not divide the sizes, more
 * tiles than PEs, one tile; a bad tile count fails on every PE.  B made
 * on the GPUs (domino_dspmm_make_random): the gathered C against the
 * CPU's product with domino_gen_dense's B, and domino_dspmm_multiply's
 * B x and C x against host sums.  One PE per
 * GPU, or DOMINO_TEST_PES (e.g. 2 PEs sharing one GPU).  Label dist. */
#include "check.h"
#include "domino.h"
#include "test_values.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static void check_product(domino_handle h, domino_dist D, const char *name, domino_matrix A, int64_t n, int tiles)
{
    domino_matrix_view v;
    domino_dspmm P = NULL;
    domino_dspmm_times t;
    CHECK_OK(h, domino_matrix_get_view(h, A, &v));
    size_t vs = v.type == DOMINO_FLOAT64 ? 8 : 4;
    void *B = malloc((size_t)(v.ncols * n) * vs + 8), *C = malloc((size_t)(v.nrows * n) * vs + 8),
         *R = malloc((size_t)(v.nrows * n) * vs + 8);
    lcg_fill(B, v.type, v.ncols * n, 31); /* the same B on every PE */
    CHECK_OK(h, domino_ref_spmm(h, DOMINO_OP_N, 1.0, A, (int32_t)n, B, n, 0.0, R, n));
    CHECK_OK(h, domino_dspmm_make(h, D, A, B, n, n, tiles, &P));
    for (int alg = 0; alg < 5 && P; alg++)
        for (int round = 0; round < 2; round++) {
            CHECK_OK(h, domino_dspmm_run(h, P, (domino_dspmm_algorithm)alg, &t));
            CHECK(t.total >= 0 && t.imbalance >= 0);
            CHECK_OK(h, domino_dspmm_gather(h, P, C, n));
            CHECK_VALUES_CLOSE(C, R, v.type, v.nrows * n, "PE %d: %s n=%lld tiles %d algorithm %d",
                               domino_dist_rank(D), name, (long long)n, tiles, alg);
        }
    domino_dspmm_free(P);
    free(B);
    free(C);
    free(R);
}

/* B = domino_gen_dense(seed) made by the PEs: every algorithm's C against
 * the CPU's product; B x and C x summed over the PEs against the host's */
static void check_random(domino_handle h, domino_dist D, const char *name, domino_matrix A, int64_t n, int tiles)
{
    domino_matrix_view v;
    domino_dspmm P = NULL;
    CHECK_OK(h, domino_matrix_get_view(h, A, &v));
    size_t vs = domino_type_size(v.type);
    void *B = malloc((size_t)(v.ncols * n) * vs + 8), *C = malloc((size_t)(v.nrows * n) * vs + 8),
         *R = malloc((size_t)(v.nrows * n) * vs + 8);
    double *x = malloc(sizeof(double) * (size_t)n), *y = malloc(sizeof(double) * ((size_t)v.nrows + v.ncols));
    CHECK_OK(h, domino_gen_dense(h, 5, n, 0, v.ncols, 0, n, v.type, B, n));
    CHECK_OK(h, domino_ref_spmm(h, DOMINO_OP_N, 1.0, A, (int32_t)n, B, n, 0.0, R, n));
    for (int64_t c = 0; c < n; c++) x[c] = (double)(c % 5) - 2;
    CHECK_OK(h, domino_dspmm_make_random(h, D, A, n, 5, tiles, &P));
    if (P) { /* B x: the tiles are the generator's */
        CHECK_OK(h, domino_dspmm_multiply(h, P, 'B', x, y));
        CHECK(dense_times_close(B, v.type, v.ncols, n, x, y));
    }
    for (int alg = 0; alg < 5 && P; alg++) {
        CHECK_OK(h, domino_dspmm_run(h, P, (domino_dspmm_algorithm)alg, NULL));
        CHECK_OK(h, domino_dspmm_gather(h, P, C, n));
        CHECK_VALUES_CLOSE(C, R, v.type, v.nrows * n, "PE %d: %s (B made on the GPUs) n=%lld tiles %d algorithm %d",
                           domino_dist_rank(D), name, (long long)n, tiles, alg);
        CHECK_OK(h, domino_dspmm_multiply(h, P, 'C', x, y)); /* C x from the tiles in place */
        CHECK(dense_times_close(C, v.type, v.nrows, n, x, y));
    }
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_dspmm_multiply(h, P, 'A', x, y));
    domino_dspmm_free(P);
    free(B), free(C), free(R), free(x), free(y);
}

static int pe_main(const domino_launch_info *info, void *arg)
{
    (void)info;
    (void)arg;
    domino_handle h = NULL;
    domino_dist D = NULL;
    domino_matrix A = NULL, F = NULL, M = NULL;
    char name[128];
    CHECK_OK(h, domino_create(&h));
    CHECK_OK(h, domino_dist_join(h, &D));
    if (!D) return 2;
    CHECK_OK(h, domino_gen_rmat(h, 10, 8, 0.6, 0.4 / 3, 0.4 / 3, 0.4 / 3, 7, DOMINO_FLOAT64, &A));
    if (A) {
        check_product(h, D, "rmat 10", A, 64, 1);
        check_product(h, D, "rmat 10", A, 64, 3);
        check_product(h, D, "rmat 10", A, 7, 5); /* uneven columns */
        check_product(h, D, "rmat 10", A, 48, domino_dist_npes(D)); /* B's column blocks in place */
        CHECK_OK(h, domino_matrix_cast(h, A, DOMINO_FLOAT32, &F));
    }
    if (F) check_product(h, D, "rmat 10 float", F, 16, 4);
    snprintf(name, sizeof(name), "%s/cage8.mtx", DOMINO_SHARED_MATRICES);
    CHECK_OK(h, domino_mm_read(h, name, DOMINO_FLOAT64, 0, &M));
    if (M) check_product(h, D, "cage8", M, 32, 4);
    if (A) check_random(h, D, "rmat 10", A, 40, domino_dist_npes(D));
    if (A) check_random(h, D, "rmat 10", A, 9, 3);
    if (F) check_random(h, D, "rmat 10 float", F, 24, 2);
    /* a bad tile count: every PE fails, none hangs */
    domino_dspmm P = NULL;
    if (A) {
        domino_matrix_view v;
        CHECK_OK(h, domino_matrix_get_view(h, A, &v));
        double *Bw = calloc((size_t)v.ncols * 2 + 1, sizeof(double));
        CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_dspmm_make(h, D, A, Bw, 2, 2, 0, &P));
        CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_dspmm_make(h, D, A, NULL, 2, 2, 2, &P));
        CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_dspmm_make_random(h, D, A, 0, 5, 2, &P));
        free(Bw);
    }
    CHECK(P == NULL);
    int rank = domino_dist_rank(D), npes = domino_dist_npes(D);
    domino_matrix_free(A);
    domino_matrix_free(F);
    domino_matrix_free(M);
    CHECK_OK(h, domino_dist_leave(h, D));
    domino_destroy(h);
    snprintf(name, sizeof(name), "test_dist_spmm_gpu PE %d of %d", rank, npes);
    return check_summary(name) ? 1 : 0;
}

int main(void)
{
    int npes = domino_launch_gpu_count(); /* CUDA stays out of this process */
    if (npes == 0) {
        printf("test_dist_spmm_gpu: no CUDA device, skipped\n");
        return 0;
    }
    if (getenv("DOMINO_TEST_PES") && atoi(getenv("DOMINO_TEST_PES")) > 0) npes = atoi(getenv("DOMINO_TEST_PES"));
    CHECK(domino_launch(npes, pe_main, NULL) == 0);
    return check_summary("test_dist_spmm_gpu");
}
