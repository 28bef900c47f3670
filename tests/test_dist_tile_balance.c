/* test_dist_tile_balance.c: dist_tile_nnz_balance, the load balance of a
 * tile distribution that every distributed benchmark prints: a hand-made
 * matrix with counts worked out by hand, R-MAT against a count entry by
 * entry, ranks that own no tile, an empty matrix, bad arguments and
 * allocation failures (NaN, nothing leaked) */
#include "check.h"
#include "dist/dist_tile_cut.h"

/* the same balance counted entry by entry (uniform cuts as dist_split) */
static double brute_balance(domino_matrix A, int tiles, int ranks)
{
    domino_matrix_view v;
    domino_matrix_get_view(NULL, A, &v);
    double per_rank[64] = {0}, most = 0;
    for (int32_t r = 0; r < v.nrows; r++)
        for (int64_t e = v.ptr[r]; e < v.ptr[r + 1]; e++) {
            int i = 0, j = 0;
            while ((int64_t)v.nrows * (i + 1) / tiles <= r) i++;
            while ((int64_t)v.ncols * (j + 1) / tiles <= v.ind[e]) j++;
            per_rank[(i * tiles + j) % ranks] += 1;
        }
    for (int k = 0; k < ranks; k++) most = most > per_rank[k] ? most : per_rank[k];
    return most / ((double)v.nnz / ranks);
}

int main(void)
{
    domino_handle h = NULL;
    domino_matrix A = NULL, E = NULL, C = NULL;
    int64_t live = domino_debug_alloc_live();
    CHECK_OK(h, domino_create(&h));
    /* 4 x 4, 2 x 2 tiles: tile (0,0) holds 3 entries, (0,1) 1, (1,0) 0,
     * (1,1) 2; on 2 ranks tiles (i, j) go to rank j: 3 and 3 (even); on 3
     * ranks to ranks 0, 1, 2, 0: 5, 1, 0 -> 5 / 2 = 2.5; on 4 ranks 3 / 1.5 */
    const int32_t rows[6] = {0, 0, 1, 1, 2, 3}, cols[6] = {0, 3, 1, 0, 2, 3};
    CHECK_OK(h, domino_matrix_from_coo(h, DOMINO_CSR, DOMINO_FLOAT64, 4, 4, 6, rows, cols, NULL, &A));
    CHECK_NEAR(dist_tile_nnz_balance(A, 2, 2), 1.0, 0);
    CHECK_NEAR(dist_tile_nnz_balance(A, 2, 3), 2.5, 1e-15);
    CHECK_NEAR(dist_tile_nnz_balance(A, 2, 4), 2.0, 1e-15);
    CHECK_NEAR(dist_tile_nnz_balance(A, 1, 1), 1.0, 0);
    CHECK_NEAR(dist_tile_nnz_balance(A, 1, 4), 4.0, 0); /* one tile: one rank holds everything */
    CHECK_NEAR(dist_tile_nnz_balance(A, 7, 2), brute_balance(A, 7, 2), 1e-15); /* more tiles than rows */
    /* R-MAT: skewed, against the count entry by entry */
    CHECK_OK(h, domino_gen_rmat(h, 10, 8, 0.6, 0.4 / 3, 0.4 / 3, 0.4 / 3, 5, DOMINO_FLOAT64, &C));
    static const int tiles[] = {1, 2, 3, 4, 8}, ranks[] = {1, 2, 3, 4, 7, 16};
    for (int t = 0; t < 5; t++)
        for (int r = 0; r < 6; r++) {
            double b = dist_tile_nnz_balance(C, tiles[t], ranks[r]);
            CHECK_NEAR(b, brute_balance(C, tiles[t], ranks[r]), 1e-12);
            CHECK(b >= 1.0 - 1e-12 && b <= ranks[r] + 1e-12);
        }
    CHECK(dist_tile_nnz_balance(C, 2, 4) > 1.2); /* R-MAT's top-left tile: skewed */
    /* an empty matrix is even; bad arguments give NaN */
    CHECK_OK(h, domino_matrix_from_coo(h, DOMINO_CSR, DOMINO_FLOAT64, 5, 5, 0, NULL, NULL, NULL, &E));
    CHECK_NEAR(dist_tile_nnz_balance(E, 3, 2), 1.0, 0);
    CHECK(isnan(dist_tile_nnz_balance(NULL, 2, 2)));
    CHECK(isnan(dist_tile_nnz_balance(A, 0, 2)));
    CHECK(isnan(dist_tile_nnz_balance(A, 2, 0)));
    CHECK(isnan(dist_tile_nnz_balance(A, 5000, 2)));
    domino_matrix T = NULL;
    CHECK_OK(h, domino_matrix_convert(h, A, DOMINO_CSC, &T));
    CHECK(isnan(dist_tile_nnz_balance(T, 2, 2))); /* CSR only */
    domino_matrix_free(T);
    /* every allocation failing in turn: NaN, nothing leaked */
    for (int64_t k = 1; k <= 4; k++) {
        int64_t before = domino_debug_alloc_live();
        domino_debug_fail_alloc_after(k);
        CHECK(isnan(dist_tile_nnz_balance(C, 4, 3)));
        domino_debug_fail_alloc_after(0);
        CHECK(domino_debug_alloc_live() == before);
    }
    CHECK_NEAR(dist_tile_nnz_balance(C, 4, 3), brute_balance(C, 4, 3), 1e-12);
    domino_matrix_free(A);
    domino_matrix_free(C);
    domino_matrix_free(E);
    domino_destroy(h);
    CHECK(domino_debug_alloc_live() == live);
    return check_summary("test_dist_tile_balance");
}
