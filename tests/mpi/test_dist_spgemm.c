/* test_dist_spgemm.c: the SpGEMM algorithms over the one-sided layer
 * (stationary-C plain, with random and with locality-aware work stealing,
 * and stationary-A; run under mpirun, any number of ranks) against domino_ref_spgemm on the whole
 * matrices: the same pattern, values within tolerance; R-MAT C = A A, a
 * rectangular product, float, uneven and empty tiles; tiled matrices
 * gathered back equal their source */
#include "check.h"
#include "dist/dist_tiles.h"

#include <math.h>
#include <stdio.h>

/* 1 if X and Y have one pattern and values within tol (relative to max |Y|) */
static int same_matrix(domino_matrix X, domino_matrix Y, double tol)
{
    domino_matrix_view x, y;
    if (domino_matrix_get_view(NULL, X, &x) || domino_matrix_get_view(NULL, Y, &y)) return 0;
    if (x.nrows != y.nrows || x.ncols != y.ncols || x.nnz != y.nnz) return 0;
    double scale = 0, diff = 0;
    for (int32_t r = 0; r <= x.nrows; r++)
        if (x.ptr[r] != y.ptr[r]) return 0;
    for (int64_t k = 0; k < x.nnz; k++) {
        if (x.ind[k] != y.ind[k]) return 0;
        double a = x.type == DOMINO_FLOAT64 ? ((double *)x.val)[k] : ((float *)x.val)[k];
        double b = y.type == DOMINO_FLOAT64 ? ((double *)y.val)[k] : ((float *)y.val)[k];
        diff = fmax(diff, fabs(a - b));
        scale = fmax(scale, fabs(b));
    }
    return diff <= tol * fmax(scale, 1.0);
}

static void check_spgemm(domino_handle h, os_world *w, const char *name, domino_matrix A,
                         domino_matrix B, int tr, int ts, int tc)
{
    dist_sparse *dA = NULL, *dB = NULL, *dC = NULL;
    domino_matrix R = NULL, G = NULL, GA = NULL;
    dist_times t;
    domino_matrix_view v;
    CHECK_OK(h, domino_matrix_get_view(h, A, &v));
    CHECK_OK(h, domino_ref_spgemm(h, A, B, &R));
    CHECK_OK(h, dist_sparse_from_global(h, w, A, tr, ts, &dA));
    CHECK_OK(h, dist_sparse_from_global(h, w, B, ts, tc, &dB));
    if (dA) { /* a tiled matrix gathered back is its source */
        CHECK_OK(h, dist_sparse_gather(h, dA, &GA));
        CHECK(GA && same_matrix(GA, A, 0));
    }
    /* steal 0: stationary-C, 1: with random work stealing, 2: with
     * locality-aware work stealing, 3: stationary-A */
    for (int steal = 0; steal < 4 && dA && dB; steal++) {
        if (steal == 1) CHECK_OK(h, dist_spgemm_stationary_c_steal(h, dA, dB, 9, &dC, &t));
        else if (steal == 2) CHECK_OK(h, dist_spgemm_stationary_c_steal_local(h, dA, dB, 4, &dC, &t));
        else if (steal == 3) CHECK_OK(h, dist_spgemm_stationary_a(h, dA, dB, &dC, &t));
        else CHECK_OK(h, dist_spgemm_stationary_c(h, dA, dB, &dC, &t));
        if (dC) CHECK_OK(h, dist_sparse_gather(h, dC, &G));
        if (G && R && same_matrix(G, R, 1e3 * domino_type_eps(v.type))) {
            check_passed++;
        } else {
            check_failed++;
            fprintf(stderr, "FAIL: rank %d: %s grid %dx%dx%d steal=%d: the product differs from the "
                    "reference\n", os_rank(w), name, tr, ts, tc, steal);
        }
        dist_sparse_free(h, dC);
        domino_matrix_free(G);
        dC = NULL;
        G = NULL;
    }
    dist_sparse_free(h, dA);
    dist_sparse_free(h, dB);
    dist_sparse_free(h, dC);
    domino_matrix_free(R);
    domino_matrix_free(G);
    domino_matrix_free(GA);
}

int main(void)
{
    domino_handle h = NULL;
    os_world *w = NULL;
    domino_matrix A = NULL, F = NULL, T = NULL, U = NULL;
    CHECK_OK(h, domino_create(&h));
    CHECK_OK(h, os_world_init(h, &w));
    if (!w) return check_summary("test_dist_spgemm");
    CHECK_OK(h, domino_gen_rmat(h, 8, 8, 0.6, 0.4 / 3, 0.4 / 3, 0.4 / 3, 3, DOMINO_FLOAT64, &A));
    if (A) {
        check_spgemm(h, w, "rmat 8 squared", A, A, 2, 2, 2);
        check_spgemm(h, w, "rmat 8 squared", A, A, 3, 4, 5);
        check_spgemm(h, w, "rmat 8 squared", A, A, 1, 1, 1);
        CHECK_OK(h, domino_matrix_cast(h, A, DOMINO_FLOAT32, &F));
        if (F) check_spgemm(h, w, "rmat 8 float", F, F, 2, 3, 2);
    }
    /* rectangular 5 x 4 times 4 x 3, on more tile rows than rows (empty tiles) */
    int32_t ra[] = {0, 0, 2, 3, 4, 4}, ca[] = {0, 3, 1, 2, 0, 3};
    double va[] = {1, 2, 3, 4, 5, 6};
    int32_t rb[] = {0, 1, 1, 2, 3}, cb[] = {2, 0, 1, 1, 2};
    double vb[] = {1, -1, 2, 3, -4};
    CHECK_OK(h, domino_matrix_from_coo(h, DOMINO_CSR, DOMINO_FLOAT64, 5, 4, 6, ra, ca, va, &T));
    CHECK_OK(h, domino_matrix_from_coo(h, DOMINO_CSR, DOMINO_FLOAT64, 4, 3, 5, rb, cb, vb, &U));
    if (T && U) {
        check_spgemm(h, w, "5x4 * 4x3", T, U, 7, 2, 2);
        check_spgemm(h, w, "5x4 * 4x3", T, U, 2, 3, 1);
    }
    domino_matrix_free(A);
    domino_matrix_free(F);
    domino_matrix_free(T);
    domino_matrix_free(U);
    char name[64];
    snprintf(name, sizeof(name), "test_dist_spgemm rank %d of %d", os_rank(w), os_size(w));
    int code = check_summary(name);
    CHECK_OK(h, os_world_finalize(h, w));
    domino_destroy(h);
    return code;
}
