/* test_dist_summa.c: the bulk-synchronous SUMMA SpMM baseline (run under
 * mpirun, any number of ranks) against domino_ref_spmm on the whole
 * matrix: every grid pr x pc of the ranks (1 x N, N x 1, and the ones
 * between), R-MAT and a shared matrix, double and float, dimensions that
 * the grid does not divide, more grid rows than matrix rows (empty tiles),
 * one column of B; a grid that does not fit the ranks is refused on every
 * rank. */
#include "check.h"
#include "dist/dist_tiles.h"
#include "test_values.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* C = A B with n columns on a pr x pc grid, gathered, against the reference */
static void check_product(domino_handle h, os_world *w, const char *name, domino_matrix A, int64_t n,
                          int pr, int pc)
{
    domino_matrix_view v;
    dist_summa *S = NULL;
    dist_times t;
    CHECK_OK(h, domino_matrix_get_view(h, A, &v));
    size_t vs = v.type == DOMINO_FLOAT64 ? 8 : 4;
    void *B = malloc((size_t)(v.ncols * n) * vs + 8), *C = malloc((size_t)(v.nrows * n) * vs + 8),
         *R = malloc((size_t)(v.nrows * n) * vs + 8);
    lcg_fill(B, v.type, v.ncols * n, 17); /* the same B on every rank */
    CHECK_OK(h, domino_ref_spmm(h, DOMINO_OP_N, 1.0, A, (int32_t)n, B, n, 0.0, R, n));
    CHECK_OK(h, dist_summa_make(h, w, A, B, n, n, pr, pc, &S));
    for (int round = 0; round < 2 && S; round++) { /* the same plan twice */
        CHECK_OK(h, dist_spmm_summa(h, S, &t));
        CHECK(t.total >= t.compute && t.compute >= 0 && t.communication >= 0);
        CHECK_OK(h, dist_summa_gather(h, S, C, n));
        CHECK_VALUES_CLOSE(C, R, v.type, v.nrows * n, "rank %d: %s n=%lld grid %dx%d",
                           os_rank(w), name, (long long)n, pr, pc);
    }
    dist_summa_free(S);
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
    if (!w) return check_summary("test_dist_summa");
    int size = os_size(w);
    CHECK_OK(h, domino_gen_rmat(h, 9, 8, 0.6, 0.4 / 3, 0.4 / 3, 0.4 / 3, 7, DOMINO_FLOAT64, &A));
    for (int pr = 1; pr <= size && A; pr++) {
        if (size % pr) continue;
        check_product(h, w, "rmat 9", A, 16, pr, size / pr);
        check_product(h, w, "rmat 9", A, 7, pr, size / pr); /* uneven column split */
    }
    if (A) check_product(h, w, "rmat 9", A, 1, 1, size);       /* fewer columns than grid columns */
    if (A) CHECK_OK(h, domino_matrix_cast(h, A, DOMINO_FLOAT32, &F));
    if (F) check_product(h, w, "rmat 9 float", F, 8, size, 1);
    char path[1024];
    snprintf(path, sizeof(path), "%s/cage8.mtx", DOMINO_SHARED_MATRICES);
    CHECK_OK(h, domino_mm_read(h, path, DOMINO_FLOAT64, 0, &S));
    if (S) check_product(h, w, "cage8", S, 5, 1, size);
    /* fewer matrix rows than grid rows: empty tiles */
    int32_t rows[] = {0, 1, 1}, cols[] = {1, 0, 2};
    double vals[] = {1, 2, 3};
    domino_matrix T = NULL;
    CHECK_OK(h, domino_matrix_from_coo(h, DOMINO_CSR, DOMINO_FLOAT64, 2, 3, 3, rows, cols, vals, &T));
    if (T) check_product(h, w, "2x3 on a column of ranks", T, 3, size, 1);
    /* a grid that does not fit the ranks: refused everywhere */
    dist_summa *bad = NULL;
    double b[9] = {0};
    if (T) CHECK_STATUS(h, DOMINO_INVALID_VALUE, dist_summa_make(h, w, T, b, 3, 3, size + 1, 1, &bad));
    CHECK(bad == NULL);
    domino_matrix_free(A);
    domino_matrix_free(F);
    domino_matrix_free(S);
    domino_matrix_free(T);
    char name[64];
    snprintf(name, sizeof(name), "test_dist_summa rank %d of %d", os_rank(w), size);
    int code = check_summary(name);
    CHECK_OK(h, os_world_finalize(h, w));
    domino_destroy(h);
    return code;
}
