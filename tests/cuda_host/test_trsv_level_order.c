/* test_trsv_level_order.c: the level-block engine's schedule (host code of
 * the CUDA layer; no GPU needed, label cpu).
 *
 * For every op x fill x format of a full-pattern stencil matrix with
 * unsymmetric values (the other triangle must be skipped), of random DAGs
 * and of the shared matrices, trsv_level_order_make must give
 * domino_ref_levels' levels and rows (increasing row inside a level),
 * exactly S's off-diagonal triangle entries per row with their source
 * indices, each row's diagonal, consistent level_entries and widest; and
 * the engine's sweep (levels in turn, x started as b, each row's entries in
 * the order's sequence) run here on the CPU must equal domino_ref_trsv to
 * rounding.  Also: an empty system, a missing diagonal (-1). */
#include "check.h"
#include "domino.h"
#include "cuda/trsv_level_order.h"

#include <dirent.h>
#include <string.h>

/* the level-block sweep of S x = b on the CPU, as the kernel runs it */
static void sweep(const trsv_level_order *o, const double *aval, int unit, const double *b,
                  double *x)
{
    for (int32_t i = 0; i < o->n; i++) x[i] = b[i];
    for (int32_t l = 0; l < o->nlevels; l++)
        for (int32_t q = o->level_ptr[l]; q < o->level_ptr[l + 1]; q++) {
            double s = 0;
            for (int32_t k = o->ptr[q]; k < o->ptr[q + 1]; k++) s += aval[o->src[k]] * x[o->col[k]];
            int32_t i = o->row[q];
            x[i] = unit ? x[i] - s : (x[i] - s) / aval[o->diag_src[q]];
        }
}

/* the array row (CSR row or CSC column) holding entry k: ptr[r] <= k < ptr[r + 1] */
static int32_t array_row_of(const int64_t *ptr, int32_t n, int64_t k)
{
    int32_t lo = 0, hi = n; /* ptr[lo] <= k < ptr[hi] */
    while (hi - lo > 1) {
        int32_t mid = lo + (hi - lo) / 2;
        if (ptr[mid] <= k) lo = mid;
        else hi = mid;
    }
    return lo;
}

/* all checks of one (A, op, fill, diag); returns the failures */
static int check_case(domino_handle h, const char *what, domino_matrix A, domino_op op,
                      domino_fill fill, domino_diag diag)
{
    int before = check_failed;
    domino_matrix_view v;
    if (domino_matrix_get_view(h, A, &v)) return 1;
    int32_t n = v.nrows;
    int s_upper = (fill == DOMINO_UPPER) != (op == DOMINO_OP_T);
    int csr_of_s = (v.format == DOMINO_CSR) == (op == DOMINO_OP_N);
    trsv_level_order o;
    domino_levels *L = NULL;
    double *b = malloc((size_t)n * sizeof(double) + 8), *x = malloc((size_t)n * sizeof(double) + 8),
           *xr = malloc((size_t)n * sizeof(double) + 8);
    int64_t *seen = calloc((size_t)v.nnz + 1, sizeof(int64_t));
    int32_t *level = malloc((size_t)n * sizeof(int32_t) + 4);
    CHECK(b && x && xr && seen && level);
    /* the levels, then the order made from them (as AUTO does) */
    int32_t counted = level ? trsv_levels(n, v.ptr, v.ind, csr_of_s, s_upper, level) : -1;
    CHECK(trsv_level_order_make(n, v.ptr, v.ind, csr_of_s, s_upper, level, counted, &o) == 0);
    CHECK_OK(h, domino_ref_levels(h, op, fill, A, &L));
    if (!L || !b || !x || !xr || !seen || o.n != n) goto cleanup;
    CHECK(o.nlevels == L->nlevels);
    CHECK(counted == L->nlevels);
    int32_t widest = 0;
    for (int32_t l = 0; l < o.nlevels && l < L->nlevels; l++) {
        CHECK(o.level_ptr[l] == L->level_ptr[l]);
        CHECK(o.level_entries[l] == o.ptr[o.level_ptr[l]]);
        if (o.level_ptr[l + 1] - o.level_ptr[l] > widest) widest = o.level_ptr[l + 1] - o.level_ptr[l];
    }
    CHECK(o.level_ptr[o.nlevels] == n && o.level_entries[o.nlevels] == o.m);
    CHECK(o.widest == widest);
    /* rows, entries and diagonals against the arrays */
    int64_t m = 0, bad_row = 0, bad_entry = 0, bad_diag = 0;
    for (int32_t q = 0; q < n; q++) {
        int32_t i = o.row[q];
        if (i != L->level_rows[q]) bad_row++;
        for (int32_t k = o.ptr[q]; k < o.ptr[q + 1]; k++) {
            int64_t sk = o.src[k];
            int32_t kr = array_row_of(v.ptr, n, sk);
            int32_t r = csr_of_s ? kr : v.ind[sk], c = csr_of_s ? v.ind[sk] : kr;
            int below = s_upper ? c > r : c < r;
            if (r != i || c != o.col[k] || !below || seen[sk]++) bad_entry++;
            if (L->row_level[c] >= L->row_level[i]) bad_entry++;
        }
        int64_t d = o.diag_src[q];
        if (d < 0 || d >= v.nnz || v.ind[d] != i || !(v.ptr[i] <= d && d < v.ptr[i + 1])) bad_diag++;
    }
    for (int32_t r = 0; r < n; r++) /* every triangle entry taken once */
        for (int64_t k = v.ptr[r]; k < v.ptr[r + 1]; k++) {
            int32_t i = csr_of_s ? r : v.ind[k], c = csr_of_s ? v.ind[k] : r;
            if (i != c && (s_upper ? c > i : c < i)) m++;
        }
    CHECK(bad_row == 0);
    CHECK(bad_entry == 0);
    CHECK(bad_diag == 0);
    CHECK(o.m == m);
    /* the sweep against the reference solve */
    for (int32_t i = 0; i < n; i++) b[i] = 1.0 + (i % 13) * 0.25;
    sweep(&o, (const double *)v.val, diag == DOMINO_UNIT, b, x);
    CHECK_OK(h, domino_ref_trsv(h, op, fill, diag, A, 1, b, n, xr, n));
    double worst = 0, scale = 0;
    for (int32_t i = 0; i < n; i++) {
        double d = fabs(x[i] - xr[i]);
        if (d > worst) worst = d;
        if (fabs(xr[i]) > scale) scale = fabs(xr[i]);
    }
    CHECK(worst <= 1e-12 * (scale > 1 ? scale : 1));
cleanup:
    if (check_failed != before)
        fprintf(stderr, "  in %s, op %s, fill %s, %s\n", what, op == DOMINO_OP_N ? "N" : "T",
                fill == DOMINO_LOWER ? "lower" : "upper", diag == DOMINO_UNIT ? "unit" : "non-unit");
    trsv_level_order_free(&o);
    domino_levels_free(L);
    free(b);
    free(x);
    free(xr);
    free(level);
    free(seen);
    return check_failed - before;
}

/* every op x fill x format (x unit / non-unit) of A */
static void check_all(domino_handle h, const char *what, domino_matrix A, int both_fills)
{
    domino_matrix C = NULL;
    CHECK_OK(h, domino_matrix_convert(h, A, DOMINO_CSC, &C));
    for (int f = 0; f < 2; f++) {
        domino_matrix M = f ? C : A;
        if (!M) continue;
        for (int op = 0; op < 2; op++)
            for (int fl = 0; fl < (both_fills ? 2 : 1); fl++)
                for (int u = 0; u < 2; u++)
                    check_case(h, what, M, op ? DOMINO_OP_T : DOMINO_OP_N,
                               fl ? DOMINO_UPPER : DOMINO_LOWER, u ? DOMINO_UNIT : DOMINO_NON_UNIT);
    }
    domino_matrix_free(C);
}

/* off-diagonal values of A made unsymmetric: -(1 + (k % 7) / 10) */
static void unsymmetric_values(domino_handle h, domino_matrix A)
{
    domino_matrix_view v;
    if (domino_matrix_get_view(h, A, &v)) return;
    for (int32_t r = 0; r < v.nrows; r++)
        for (int64_t k = v.ptr[r]; k < v.ptr[r + 1]; k++)
            if (v.ind[k] != r) ((double *)v.val)[k] = -(1.0 + (double)(k % 7) / 10.0);
}

static void test_generated(domino_handle h)
{
    const domino_stencil st[3] = {DOMINO_D3N7, DOMINO_D3N27, DOMINO_D2N5};
    for (int s = 0; s < 3; s++) {
        domino_matrix A = NULL;
        CHECK_OK(h, domino_gen_stencil(h, st[s], 5, 4, s == 2 ? 1 : 3, DOMINO_PART_FULL,
                                       DOMINO_FLOAT64, &A));
        if (!A) continue;
        unsymmetric_values(h, A);
        check_all(h, "stencil (full pattern)", A, 1);
        domino_matrix_free(A);
    }
    const int32_t dags[3][3] = {{300, 6, 1}, {500, 5, 40}, {400, 3, 400}}; /* n, nnz/row, levels */
    for (int d = 0; d < 3; d++) {
        domino_matrix A = NULL;
        CHECK_OK(h, domino_gen_dag(h, dags[d][0], dags[d][1], dags[d][2], 0, 7 + d, DOMINO_FLOAT64, &A));
        if (A) check_all(h, "dag", A, 0);
        domino_matrix_free(A);
    }
}

static void test_edges(void)
{
    /* an empty system */
    int64_t ptr0[1] = {0};
    trsv_level_order o;
    CHECK(trsv_level_order_make(0, ptr0, NULL, 1, 0, NULL, 0, &o) == 0);
    CHECK(o.nlevels == 0 && o.m == 0 && o.level_ptr && o.level_ptr[0] == 0 && o.ptr[0] == 0);
    trsv_level_order_free(&o);
    int32_t level[2];
    CHECK(trsv_levels(0, ptr0, NULL, 1, 0, level) == 0);
    /* a missing diagonal: row 1 of [[2 .],[1 .]] */
    int64_t ptr[3] = {0, 1, 2};
    int32_t ind[2] = {0, 0};
    CHECK(trsv_level_order_make(2, ptr, ind, 1, 0, NULL, 0, &o) == 0);
    CHECK(o.nlevels == 2 && o.m == 1 && o.row[1] == 1 && o.diag_src[0] == 0 && o.diag_src[1] == -1);
    trsv_level_order_free(&o);
    CHECK(trsv_levels(2, ptr, ind, 1, 0, level) == 2);
}

/* the shared matrices of up to 12000 rows (lower triangle; the file's values) */
static void test_shared(domino_handle h)
{
    DIR *dir = opendir(DOMINO_SHARED_MATRICES);
    if (!dir) {
        printf("test_trsv_level_order: %s not found, shared matrices skipped\n", DOMINO_SHARED_MATRICES);
        return;
    }
    struct dirent *de;
    int done = 0;
    while ((de = readdir(dir)) && done < 6) {
        size_t len = strlen(de->d_name);
        if (len < 5 || strcmp(de->d_name + len - 4, ".mtx")) continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", DOMINO_SHARED_MATRICES, de->d_name);
        domino_matrix A = NULL;
        if (domino_mm_read(h, path, DOMINO_FLOAT64, 0, &A)) continue;
        domino_matrix_view v;
        if (!domino_matrix_get_view(h, A, &v) && v.nrows == v.ncols && v.nrows <= 12000 &&
            v.nnz <= 120000) {
            int has_diag = 1;
            for (int32_t r = 0; has_diag && r < v.nrows; r++) { /* every row needs its diagonal */
                int found = 0, len = (int)(v.ptr[r + 1] - v.ptr[r]);
                for (int64_t k = v.ptr[r]; k < v.ptr[r + 1]; k++) {
                    found |= v.ind[k] == r; /* values that keep the solve tame */
                    ((double *)v.val)[k] = v.ind[k] == r ? 2.0 : (double)((k % 7) - 3) * 0.1 / len;
                }
                has_diag = found;
            }
            if (has_diag) {
                check_case(h, de->d_name, A, DOMINO_OP_N, DOMINO_LOWER, DOMINO_NON_UNIT);
                check_case(h, de->d_name, A, DOMINO_OP_T, DOMINO_UPPER, DOMINO_UNIT);
                done++;
            }
        }
        domino_matrix_free(A);
    }
    closedir(dir);
    printf("test_trsv_level_order: %d shared matrices\n", done);
}

int main(void)
{
    domino_handle h = NULL;
    CHECK_OK(NULL, domino_create(&h));
    test_edges();
    test_generated(h);
    test_shared(h);
    domino_destroy(h);
    return check_summary("test_trsv_level_order");
}
