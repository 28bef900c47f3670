/* test_dist_spmm.c: the SpMM algorithms over the one-sided layer
 * (stationary-C, with random and with locality-aware work stealing,
 * stationary-A; run under
 * mpirun, any number of ranks) against domino_ref_spmm on the whole
 * matrix: R-MAT and a shared matrix, double and float, even and uneven tile
 * grids, A in row blocks and B in column blocks (one inner tile: the
 * layout of stationary-C by row blocks on GPUs), a grid with more tile
 * rows than matrix rows (empty tiles), one
 * tile; a product whose shapes do not fit is refused on every rank. */
#include "check.h"
#include "dist/dist_tiles.h"
#include "test_values.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* C = A B distributed on a tr x ts x tc grid, gathered, against the reference */
static void check_product(domino_handle h, os_world *w, const char *name, domino_matrix A,
                          int64_t k, int tr, int ts, int tc)
{
    domino_matrix_view v;
    dist_sparse *dA = NULL;
    dist_dense *dB = NULL, *dC = NULL;
    dist_times t;
    CHECK_OK(h, domino_matrix_get_view(h, A, &v));
    size_t vs = v.type == DOMINO_FLOAT64 ? 8 : 4;
    void *B = malloc((size_t)(v.ncols * k) * vs + 8), *C = malloc((size_t)(v.nrows * k) * vs + 8),
         *R = malloc((size_t)(v.nrows * k) * vs + 8);
    lcg_fill(B, v.type, v.ncols * k, 99); /* the same B on every rank */
    CHECK_OK(h, domino_ref_spmm(h, DOMINO_OP_N, 1.0, A, (int32_t)k, B, k, 0.0, R, k));
    CHECK_OK(h, dist_sparse_from_global(h, w, A, tr, ts, &dA));
    CHECK_OK(h, dist_dense_from_global(h, w, v.type, v.ncols, k, B, k, ts, tc, &dB));
    CHECK_OK(h, dist_dense_from_global(h, w, v.type, v.nrows, k, NULL, 0, tr, tc, &dC));
    /* steal 0: stationary-C, 1: with random work stealing, 2: stationary-A,
     * 3: with locality-aware work stealing */
    for (int steal = 0; steal < 4 && dA && dB && dC; steal++) {
        if (steal) { /* into a fresh C of zeros */
            dist_dense_free(h, dC);
            dC = NULL;
            CHECK_OK(h, dist_dense_from_global(h, w, v.type, v.nrows, k, NULL, 0, tr, tc, &dC));
            if (!dC) break;
        }
        if (steal == 0) CHECK_OK(h, dist_spmm_stationary_c(h, dA, dB, dC, &t));
        if (steal == 1) CHECK_OK(h, dist_spmm_stationary_c_steal(h, dA, dB, dC, 5, &t));
        if (steal == 2) CHECK_OK(h, dist_spmm_stationary_a(h, dA, dB, dC, &t));
        if (steal == 3) CHECK_OK(h, dist_spmm_stationary_c_steal_local(h, dA, dB, dC, 3, &t));
        CHECK(t.total >= t.compute && t.compute >= 0 && t.communication >= 0);
        CHECK_OK(h, dist_dense_gather(h, dC, C, k));
        CHECK_VALUES_CLOSE(C, R, v.type, v.nrows * k, "rank %d: %s k=%lld grid %dx%dx%d steal=%d",
                           os_rank(w), name, (long long)k, tr, ts, tc, steal);
    }
    dist_sparse_free(h, dA);
    dist_dense_free(h, dB);
    dist_dense_free(h, dC);
    free(B);
    free(C);
    free(R);
}

int main(void)
{
    domino_handle h = NULL;
    os_world *w = NULL;
    domino_matrix A = NULL, F = NULL, S = NULL;
    CHECK_OK(h, domino_create(&h));
    CHECK_OK(h, os_world_init(h, &w));
    if (!w) return check_summary("test_dist_spmm");
    int size = os_size(w);
    CHECK_OK(h, domino_gen_rmat(h, 9, 8, 0.6, 0.4 / 3, 0.4 / 3, 0.4 / 3, 7, DOMINO_FLOAT64, &A));
    if (A) {
        check_product(h, w, "rmat 9", A, 16, 2, 2, 2);
        check_product(h, w, "rmat 9", A, 5, 3, 5, 2);   /* uneven tiles */
        check_product(h, w, "rmat 9", A, 33, size, 3, 1);
        check_product(h, w, "rmat 9", A, 1, 1, 1, 1);   /* one tile */
        /* by row blocks: one tile in the inner dimension, t = ranks (the GPU's
         * stationary-C by row blocks: C(i, j) and B's column block j on rank j,
         * A's row block i read whole from rank i) */
        check_product(h, w, "rmat 9 by row blocks", A, 12, size, 1, size);
        CHECK_OK(h, domino_matrix_cast(h, A, DOMINO_FLOAT32, &F));
        if (F) check_product(h, w, "rmat 9 float", F, 8, 2, 3, 2);
    }
    char path[1024];
    snprintf(path, sizeof(path), "%s/cage8.mtx", DOMINO_SHARED_MATRICES);
    CHECK_OK(h, domino_mm_read(h, path, DOMINO_FLOAT64, 0, &S));
    if (S) check_product(h, w, "cage8", S, 7, 4, 2, 3);
    /* more tile rows than matrix rows: empty tiles */
    int32_t rows[] = {0, 1, 2, 2}, cols[] = {1, 0, 2, 0};
    double vals[] = {1, 2, 3, 4};
    domino_matrix T = NULL;
    CHECK_OK(h, domino_matrix_from_coo(h, DOMINO_CSR, DOMINO_FLOAT64, 3, 3, 4, rows, cols, vals, &T));
    if (T) check_product(h, w, "3x3 on 5x4 tiles", T, 2, 5, 4, 3);
    /* shapes that do not fit */
    dist_sparse *dA = NULL;
    dist_dense *dB = NULL, *dC = NULL;
    if (T) {
        CHECK_OK(h, dist_sparse_from_global(h, w, T, 1, 2, &dA));
        CHECK_OK(h, dist_dense_from_global(h, w, DOMINO_FLOAT64, 3, 2, NULL, 0, 3, 1, &dB));
        CHECK_OK(h, dist_dense_from_global(h, w, DOMINO_FLOAT64, 3, 2, NULL, 0, 1, 1, &dC));
        if (dA && dB && dC) {
            CHECK_STATUS(h, DOMINO_DIMENSION_MISMATCH, dist_spmm_stationary_c(h, dA, dB, dC, NULL));
            CHECK_STATUS(h, DOMINO_DIMENSION_MISMATCH, dist_spmm_stationary_c_steal(h, dA, dB, dC, 1, NULL));
            CHECK_STATUS(h, DOMINO_DIMENSION_MISMATCH, dist_spmm_stationary_a(h, dA, dB, dC, NULL));
            CHECK_STATUS(h, DOMINO_DIMENSION_MISMATCH, dist_spmm_stationary_c_steal_local(h, dA, dB, dC, 1, NULL));
        }
    }
    dist_sparse_free(h, dA);
    dist_dense_free(h, dB);
    dist_dense_free(h, dC);
    domino_matrix_free(A);
    domino_matrix_free(F);
    domino_matrix_free(S);
    domino_matrix_free(T);
    char name[64];
    snprintf(name, sizeof(name), "test_dist_spmm rank %d of %d", os_rank(w), size);
    int code = check_summary(name);
    CHECK_OK(h, os_world_finalize(h, w));
    domino_destroy(h);
    return code;
}
