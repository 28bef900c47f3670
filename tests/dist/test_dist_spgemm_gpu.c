/* test_dist_spgemm_gpu.c: the one-sided SpGEMM on GPUs over NVSHMEM
 * (stationary-C, with random work stealing, stationary-A and
 * locality-aware work stealing) against domino_ref_spgemm,
 * one PE per GPU of the machine (DOMINO_TEST_PES sets another count, e.g.
 * 2 PEs sharing one GPU): R-MAT squared (double and float), cage8 squared,
 * R-MAT^T R-MAT, rectangular products whose dimensions the tile grid does
 * not divide, more tiles than rows (empty blocks), one tile; C gathered
 * (pattern and values) and C x against A (B x); with 2 PEs or more, the
 * stealing algorithms steal from a PE made slow; bad tile counts, shapes,
 * types and a gather before any run fail on every PE.  Label dist. */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */
#include "check.h"
#include "domino.h"
#include "test_values.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static void check_product(domino_handle h, domino_dist D, const char *name, domino_matrix A, domino_matrix B,
                          int tiles)
{
    domino_matrix R = NULL;
    domino_dspgemm P = NULL;
    domino_matrix_view va, vb;
    CHECK_OK(h, domino_matrix_get_view(h, A, &va));
    CHECK_OK(h, domino_matrix_get_view(h, B, &vb));
    CHECK_OK(h, domino_ref_spgemm(h, A, B, &R));
    /* the reference of C x: A (B x), and the size of its terms |A| (|B| |x|) */
    double *x = malloc(((size_t)vb.ncols + 1) * sizeof(double)), *bx = malloc(((size_t)vb.nrows + 1) * sizeof(double));
    double *abx = malloc(((size_t)va.nrows + 1) * sizeof(double)), *y = malloc(((size_t)va.nrows + 1) * sizeof(double));
    double *bxa = malloc(((size_t)vb.nrows + 1) * sizeof(double)), *abxa = malloc(((size_t)va.nrows + 1) * sizeof(double));
    lcg_fill(x, DOMINO_FLOAT64, vb.ncols, 77);
    csr_apply(B, x, bx, bxa);
    csr_apply(A, bx, abx, NULL);
    csr_apply(A, bxa, abxa, NULL); /* |A| |B| |x| with |x| <= 1: the scale of C x's rounding */
    CHECK_OK(h, domino_dspgemm_make(h, D, A, B, tiles, &P));
    for (int alg = 0; alg < 4 && P; alg++) {
        if (alg >= 2 && tiles > 64) break; /* partial products: at most 64 tiles */
        for (int round = 0; round < 2; round++) {
            domino_dspgemm_times t;
            domino_matrix G = NULL;
            double made = 0, flops = 0;
            CHECK_OK(h, domino_dspgemm_run(h, P, (domino_dspgemm_algorithm)alg, &t));
            CHECK(t.total >= 0 && t.imbalance >= 0 && t.compute >= 0 && t.fetch >= 0);
            CHECK_OK(h, domino_dist_sum(h, D, (double)t.tiles, &made));
            CHECK_OK(h, domino_dist_sum(h, D, t.flops, &flops));
            double held = 0;
            domino_matrix_view vr;
            CHECK_OK(h, domino_dist_sum(h, D, (double)t.nnz, &held));
            if (R && !domino_matrix_get_view(h, R, &vr)) CHECK(held == (double)vr.nnz); /* C's entries, once */
            if (alg < 2) CHECK(made == (double)tiles * tiles); /* every tile made once, stolen or not */
            CHECK(fabs(flops - domino_dspgemm_flops(P)) <= 1e-9 * flops);
            CHECK_OK(h, domino_dspgemm_gather(h, P, &G));
            double diff = 0, scale = 0;
            int64_t missing = 0;
            if (G && R && sparse_close(h, R, G, &diff, &scale, &missing)) {
                check_passed++;
            } else {
                check_failed++;
                fprintf(stderr, "FAIL: PE %d: %s tiles %d algorithm %d: %lld entries missing, max diff %.3e of %.3e\n",
                        domino_dist_rank(D), name, tiles, alg, (long long)missing, diff, scale);
            }
            domino_matrix_free(G);
            CHECK_OK(h, domino_dspgemm_multiply(h, P, x, y));
            double worst = 0, size = 0;
            for (int32_t i = 0; i < va.nrows; i++) {
                worst = fmax(worst, fabs(y[i] - abx[i]));
                size = fmax(size, abxa[i]);
            }
            if (worst <= 1e3 * domino_type_eps(va.type) * fmax(size, 1.0)) {
                check_passed++;
            } else {
                check_failed++;
                fprintf(stderr, "FAIL: PE %d: %s tiles %d algorithm %d: C x differs from A (B x) by %.3e (scale %.3e)\n",
                        domino_dist_rank(D), name, tiles, alg, worst, size);
            }
        }
    }
    if (domino_dist_rank(D) == 0) printf("checked %s, %d x %d tiles\n", name, tiles, tiles);
    domino_dspgemm_free(P);
    domino_matrix_free(R);
    free(x), free(bx), free(abx), free(y), free(bxa), free(abxa);
}

/* with PE 0 made slow (DOMINO_DSPGEMM_SLOW_PE), the others steal C tiles
 * (random stealing) and products (locality-aware) from it, and C is still
 * the CPU's (needs 2 PEs or more) */
static void check_stealing(domino_handle h, domino_dist D, domino_matrix A)
{
    domino_matrix R = NULL;
    domino_dspgemm P = NULL;
    CHECK_OK(h, domino_ref_spgemm(h, A, A, &R));
    CHECK_OK(h, domino_dspgemm_make(h, D, A, A, 4, &P));
    setenv("DOMINO_DSPGEMM_SLOW_PE", "0:25", 1);
    for (int alg = DOMINO_DSPGEMM_STATIONARY_C_STEAL; P && alg <= DOMINO_DSPGEMM_STATIONARY_C_STEAL_LOCAL; alg += 2) {
        domino_dspgemm_times t;
        domino_matrix G = NULL;
        double stolen = 0, diff = 0, scale = 0;
        int64_t missing = 0;
        CHECK_OK(h, domino_dspgemm_run(h, P, (domino_dspgemm_algorithm)alg, &t));
        CHECK_OK(h, domino_dist_sum(h, D, (double)t.stolen, &stolen));
        CHECK_OK(h, domino_dspgemm_gather(h, P, &G));
        if (stolen > 0 && G && R && sparse_close(h, R, G, &diff, &scale, &missing)) {
            check_passed++;
        } else {
            check_failed++;
            fprintf(stderr, "FAIL: PE %d: stealing from a slow PE, algorithm %d: %.0f stolen, %lld entries missing, "
                    "max diff %.3e\n", domino_dist_rank(D), alg, stolen, (long long)missing, diff);
        }
        if (domino_dist_rank(D) == 0) printf("stealing from a slow PE 0, algorithm %d: %.0f stolen\n", alg, stolen);
        domino_matrix_free(G);
    }
    unsetenv("DOMINO_DSPGEMM_SLOW_PE");
    domino_dspgemm_free(P);
    domino_matrix_free(R);
}

/* a random sparse m x n matrix of type t (about a third of the entries) */
static domino_matrix random_sparse(domino_handle h, int32_t m, int32_t n, domino_type t, uint64_t seed)
{
    double *dense = calloc((size_t)m * n + 1, sizeof(double));
    lcg_state = seed;
    for (int64_t q = 0; q < (int64_t)m * n; q++)
        if (lcg_uniform() < 0.33) dense[q] = 2 * lcg_uniform() - 1;
    domino_matrix M = from_dense(h, DOMINO_CSR, t, m, n, dense);
    free(dense);
    return M;
}

static int pe_main(const domino_launch_info *info, void *arg)
{
    (void)info;
    (void)arg;
    domino_handle h = NULL;
    domino_dist D = NULL;
    domino_matrix A = NULL, F = NULL, M = NULL, T = NULL, X = NULL, Y = NULL, Z = NULL;
    char name[128];
    CHECK_OK(h, domino_create(&h));
    CHECK_OK(h, domino_dist_join(h, &D));
    if (!D) return 2;
    int npes = domino_dist_npes(D), rank = domino_dist_rank(D);
    CHECK_OK(h, domino_gen_rmat(h, 9, 8, 0.6, 0.4 / 3, 0.4 / 3, 0.4 / 3, 7, DOMINO_FLOAT64, &A));
    if (A) {
        check_product(h, D, "rmat 9 squared", A, A, 1);
        check_product(h, D, "rmat 9 squared", A, A, npes);
        check_product(h, D, "rmat 9 squared", A, A, 3);
        check_product(h, D, "rmat 9 squared", A, A, 5); /* 512 rows: uneven blocks */
        CHECK_OK(h, domino_matrix_cast(h, A, DOMINO_FLOAT32, &F));
        CHECK_OK(h, domino_matrix_transpose(h, A, &T));
    }
    if (A && npes > 1) check_stealing(h, D, A);
    if (F) check_product(h, D, "rmat 9 float squared", F, F, 4);
    if (T) check_product(h, D, "rmat 9 transposed times rmat 9", T, A, 4);
    snprintf(name, sizeof(name), "%s/cage8.mtx", DOMINO_SHARED_MATRICES);
    CHECK_OK(h, domino_mm_read(h, name, DOMINO_FLOAT64, 0, &M));
    if (M) check_product(h, D, "cage8 squared", M, M, 4);
    X = random_sparse(h, 37, 23, DOMINO_FLOAT64, 5);
    Y = random_sparse(h, 23, 41, DOMINO_FLOAT64, 6);
    if (X && Y) check_product(h, D, "37 x 23 times 23 x 41", X, Y, 5);
    domino_matrix_free(X);
    domino_matrix_free(Y);
    X = random_sparse(h, 7, 5, DOMINO_FLOAT64, 8);
    Y = random_sparse(h, 5, 6, DOMINO_FLOAT64, 9);
    if (X && Y) check_product(h, D, "7 x 5 times 5 x 6, 8 tiles (empty blocks)", X, Y, 8);
    /* bad input: every PE fails alike, none hangs */
    domino_dspgemm P = NULL;
    if (A && M) {
        CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_dspgemm_make(h, D, A, A, 0, &P));
        CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_dspgemm_make(h, D, A, A, 257, &P));
        CHECK_STATUS(h, DOMINO_DIMENSION_MISMATCH, domino_dspgemm_make(h, D, A, M, 2, &P));
        CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_dspgemm_make(h, D, A, NULL, 2, &P));
    }
    if (A && F) CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_dspgemm_make(h, D, A, F, 2, &P));
    CHECK(P == NULL);
    if (X && Y) { /* gathered before any run: no PE made the tiles */
        CHECK_OK(h, domino_dspgemm_make(h, D, X, Y, 2, &P));
        CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_dspgemm_gather(h, P, &Z));
        CHECK(Z == NULL);
        CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_dspgemm_run(h, P, (domino_dspgemm_algorithm)7, NULL));
        domino_dspgemm_free(P);
        P = NULL;
        CHECK_OK(h, domino_dspgemm_make(h, D, X, Y, 65, &P)); /* partial products take at most 64 tiles */
        CHECK_STATUS(h, DOMINO_NOT_SUPPORTED, domino_dspgemm_run(h, P, DOMINO_DSPGEMM_STATIONARY_A, NULL));
        domino_dspgemm_free(P);
    }
    domino_matrix_free(X);
    domino_matrix_free(Y);
    domino_matrix_free(A);
    domino_matrix_free(F);
    domino_matrix_free(T);
    domino_matrix_free(M);
    CHECK_OK(h, domino_dist_leave(h, D));
    domino_destroy(h);
    snprintf(name, sizeof(name), "test_dist_spgemm_gpu PE %d of %d", rank, npes);
    return check_summary(name) ? 1 : 0;
}

int main(void)
{
    int npes = domino_launch_gpu_count(); /* CUDA stays out of this process */
    if (npes == 0) {
        printf("test_dist_spgemm_gpu: no CUDA device, skipped\n");
        return 0;
    }
    if (getenv("DOMINO_TEST_PES") && atoi(getenv("DOMINO_TEST_PES")) > 0) npes = atoi(getenv("DOMINO_TEST_PES"));
    CHECK(domino_launch(npes, pe_main, NULL) == 0);
    return check_summary("test_dist_spgemm_gpu");
}
