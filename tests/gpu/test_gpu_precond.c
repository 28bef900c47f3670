/* test_gpu_precond.c: GPU ILU(0) / IC(0) factorizations against the CPU
 * reference (domino_ref_ilu0, ic0); the bad pivots are in
 * test_gpu_factor_pivots.c, GPU CG / BiCGSTAB in test_gpu_krylov.c */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */
#include "precond_cases.h"

/* What is checked:
 *  - GPU ILU(0) and IC(0) factors equal the CPU reference's entry by entry
 *    within FACTOR_EPS * eps * max|factor| (ILU(0) is computed with the same
 *    operations in the same order, IC(0) sums inner products in another
 *    order) on stencils D2N5 / D3N7 / D3N27, the shared real matrices
 *    (ILU(0): cage8, add32; IC(0): graph Laplacians + 0.01 I of crack and
 *    whitaker3), with our kernel and with cuSPARSE's csrilu02 / csric02
 *    (same factors);
 *  - the stencil paths taken where they should be: the table path (slot
 *    tables instead of searches on deep rows), factors bit for bit the
 *    searching kernel's; the line path (a warp a grid line), factors bit
 *    for bit the CPU's; the scan path (stencils without triangles: pivots
 *    by a warp scan along a grid line), factors within FACTOR_EPS of the
 *    CPU's, bit for bit when walked serially; the box path (D3N27, a
 *    thread a row), factors bit for bit the CPU's;
 *  - the box path's ILU(0) and IC(0) by grid lines (DOMINO_FACTOR_BOX_LINES: a warp a
 *    line, the in-line pivots scanned), factors within FACTOR_EPS of the
 *    CPU's, bit for bit walked, on D3N27 grids of lines shorter and longer
 *    than a warp's chunk, batched too;
 *  - batched (3 matrices, different values) equals one by one, and a bad
 *    pivot in the batch names its batch index (scan and box paths);
 *  - argument checks and a missing diagonal. */

static void test_factors(domino_handle h)
{
    domino_matrix A[4] = {stencil(h, DOMINO_D2N5, 20, 20, 1), stencil(h, DOMINO_D3N7, 8, 8, 8),
                          stencil(h, DOMINO_D3N27, 7, 6, 5), stencil(h, DOMINO_D2N9, 30, 30, 1)};
    const char *names[4] = {"d2n5 20x20", "d3n7 8^3", "d3n27 7x6x5", "d2n9 30x30"};
    for (int m = 0; m < 4; m++)
        for (int cus = 0; cus < 2; cus++) {
            check_factor(h, A[m], DOMINO_FACTOR_ILU0, cus, names[m]);
            check_factor(h, A[m], DOMINO_FACTOR_IC0, cus, names[m]);
        }
    for (int m = 0; m < 4; m++)
        domino_matrix_free(A[m]);
    const char *general[2] = {"cage8.mtx", "add32.mtx"};
    for (int m = 0; m < 2; m++) {
        domino_matrix G = NULL;
        if (domino_mm_read(h, shared_path(general[m]), DOMINO_FLOAT64, 0, &G)) {
            printf("skipped %s (%s)\n", general[m], domino_last_error(h));
            continue;
        }
        check_factor(h, G, DOMINO_FACTOR_ILU0, 0, general[m]);
        check_factor(h, G, DOMINO_FACTOR_ILU0, 1, general[m]);
        domino_matrix_free(G);
    }
    const char *patterns[2] = {"crack.mtx", "whitaker3.mtx"};
    for (int m = 0; m < 2; m++) {
        domino_matrix L = shifted_laplacian(h, patterns[m]);
        if (!L) continue;
        check_factor(h, L, DOMINO_FACTOR_IC0, 0, patterns[m]);
        check_factor(h, L, DOMINO_FACTOR_IC0, 1, patterns[m]);
        check_factor(h, L, DOMINO_FACTOR_ILU0, 0, patterns[m]);
        domino_matrix_free(L);
    }
}

/* every lanes-per-row kernel (DOMINO_FACTOR_LANES 4, 8, 16, 32) against the
 * CPU: rows shorter than, as long as and longer than the group, and rows
 * waiting on earlier groups of their own warp */
static void test_factor_lanes(domino_handle h)
{
    domino_matrix A[2] = {stencil(h, DOMINO_D3N7, 9, 8, 7), stencil(h, DOMINO_D3N27, 7, 6, 5)};
    domino_matrix G = NULL;
    if (domino_mm_read(h, shared_path("cage8.mtx"), DOMINO_FLOAT64, 0, &G)) G = NULL;
    const char *lanes[4] = {"4", "8", "16", "32"};
    for (int l = 0; l < 4; l++) {
        char label[64];
        setenv("DOMINO_FACTOR_LANES", lanes[l], 1);
        for (int m = 0; m < 2; m++) {
            snprintf(label, sizeof label, "%s, %s lanes", m ? "d3n27 7x6x5" : "d3n7 9x8x7", lanes[l]);
            check_factor(h, A[m], DOMINO_FACTOR_ILU0, 0, label);
            check_factor(h, A[m], DOMINO_FACTOR_IC0, 0, label);
        }
        if (G) {
            snprintf(label, sizeof label, "cage8.mtx, %s lanes", lanes[l]);
            check_factor(h, G, DOMINO_FACTOR_ILU0, 0, label);
        }
    }
    unsetenv("DOMINO_FACTOR_LANES");
    domino_matrix_free(G);
    domino_matrix_free(A[0]);
    domino_matrix_free(A[1]);
}

/* A without the entries (r, c) and (c, r) (add 0), or with them added as
 * -0.5 (add 1) */
static domino_matrix edit_pair(domino_handle h, domino_matrix A, int32_t r, int32_t c, int add)
{
    domino_matrix_view v;
    domino_matrix B = NULL;
    CHECK_OK(h, domino_matrix_get_view(h, A, &v));
    size_t cap = (size_t)v.nnz + 2;
    int32_t *rows = malloc(sizeof(int32_t) * cap), *cols = malloc(sizeof(int32_t) * cap);
    double *vals = malloc(sizeof(double) * cap);
    int64_t m = 0;
    for (int32_t i = 0; i < v.nrows; i++)
        for (int64_t k = v.ptr[i]; k < v.ptr[i + 1]; k++) {
            if (!add && ((i == r && v.ind[k] == c) || (i == c && v.ind[k] == r))) continue;
            rows[m] = i, cols[m] = v.ind[k], vals[m] = ((const double *)v.val)[k];
            m++;
        }
    if (add) {
        rows[m] = r, cols[m] = c, vals[m++] = -0.5;
        rows[m] = c, cols[m] = r, vals[m++] = -0.5;
    }
    CHECK_OK(h, domino_matrix_from_coo(h, DOMINO_CSR, DOMINO_FLOAT64, v.nrows, v.ncols, m, rows, cols,
                                       vals, &B));
    free(rows), free(cols), free(vals);
    return B;
}

/* host copy of the factor values of plan (the caller frees), *nnz entries */
static double *factor_values(domino_handle h, domino_factor_plan plan, int64_t *nnz)
{
    domino_dmatrix dF = NULL;
    CHECK_OK(h, domino_factor_get(h, plan, 0, &dF));
    *nnz = dF ? dF->nnz : 0;
    double *x = malloc(sizeof(double) * (size_t)(*nnz + 1));
    if (dF) CHECK_OK(h, domino_gpu_download(h, x, dF->val, (size_t)*nnz * sizeof(double)));
    return x;
}

/* The stencil paths of the factorization (factor_stencil.c), white box
 * (plan->stencil), by DOMINO_FACTOR_STENCIL mode: 0 none (the searching
 * row kernel); 1 the table path where every interior row holds exactly the
 * stencil's entries, its factors bit for bit the searching kernel's (with
 * 32, 16 and 8 lanes a row, and with 4: entries past the held ones); 2 the
 * experimental line path where every row holds exactly its entries inside
 * the grid, its factors within FACTOR_EPS of the CPU's (its in-line part
 * by a scan where the stencil allows) and bit for bit with
 * DOMINO_FACTOR_LINES=walk; unset (the default) the scan path for such a
 * stencil without triangles (want_scan: D2N5, D3N7), its factors within
 * FACTOR_EPS of the CPU's and, with DOMINO_FACTOR_SCAN=serial, bit for bit
 * the CPU's, the box path for the 3x3x3 box (want_box: D3N27), its factors
 * bit for bit the CPU's, else the table path.
 * Stencils a pair of entries short or long in the interior take no path, a
 * pair short at a boundary row only the table path. */
static void check_stencil_path(domino_handle h, domino_matrix A, domino_factor_kind kind,
                               int want_table, int want_line, int want_scan, int want_box,
                               const char *label)
{
    enum { MODES = 6 };
    domino_matrix F = NULL;
    int64_t replaced = 0;
    if (kind == DOMINO_FACTOR_ILU0) CHECK_OK(h, domino_ref_ilu0(h, A, 0.0, &F, &replaced));
    else CHECK_OK(h, domino_ref_ic0(h, A, 0.0, &F, &replaced));
    domino_dmatrix dA = NULL;
    CHECK_OK(h, domino_dmatrix_upload(h, A, &dA));
    double *got[MODES] = {NULL, NULL, NULL, NULL, NULL, NULL};
    int64_t nnz[MODES] = {0, 0, 0, 0, 0, 0};
    /* DOMINO_FACTOR_STENCIL of each mode; mode 3: the line path walked
     * (DOMINO_FACTOR_LINES=walk), mode 5: the scan path walked
     * (DOMINO_FACTOR_SCAN=serial) */
    const char *modes[MODES] = {"0", "1", "2", "2", NULL, NULL};
    for (int mode = 0; mode < MODES; mode++) {
        domino_factor_plan plan = NULL;
        if (modes[mode]) setenv("DOMINO_FACTOR_STENCIL", modes[mode], 1);
        CHECK_OK(h, domino_factor_analysis(h, kind, dA, NULL, &plan));
        unsetenv("DOMINO_FACTOR_STENCIL");
        if (!plan) continue;
        int line = plan->stencil.line_path, scan = plan->stencil.scan_path, box = plan->stencil.box_path;
        int table = plan->stencil.nx > 0 && !line && !scan && !box;
        int want_l = (mode == 2 || mode == 3) && want_line, want_s = mode >= 4 && want_scan;
        int want_b = mode >= 4 && want_box;
        int walked = mode == 3 || mode == 5;
        CHECK(line == want_l);
        CHECK(scan == want_s);
        CHECK(box == want_b);
        CHECK(table == (mode >= 1 && want_table && !want_l && !want_s && !want_b));
        CHECK(strcmp(domino_factor_plan_method(plan), line   ? "stencil-lines"
                                                      : scan  ? "stencil-scan"
                                                      : box   ? "stencil-box"
                                                      : table ? "stencil-table"
                                                              : "rows") == 0);
        if (mode == 3) setenv("DOMINO_FACTOR_LINES", "walk", 1);
        if (mode == 5) setenv("DOMINO_FACTOR_SCAN", "serial", 1);
        CHECK_OK(h, domino_factor_compute(h, plan, NULL, NULL));
        unsetenv("DOMINO_FACTOR_LINES");
        unsetenv("DOMINO_FACTOR_SCAN");
        double diff = F ? factor_difference(h, plan, 0, F) : -1.0;
        double pdiff = F ? pivot_difference(h, plan, 0, F) : -1.0;
        if (mode)
            printf("%-34s %s %-6s path%s max rel diff %.2e (%.1f eps), pivots %.1f eps  analysis %.3f"
                   " compute %.3f ms  walked %lld\n",
                   label, kind == DOMINO_FACTOR_ILU0 ? "ILU0" : "IC0 ",
                   line ? "line" : scan ? "scan" : box ? "box" : table ? "table" : "no",
                   (line || scan) && walked ? " (walk)" : "", diff, diff / eps, pdiff / eps,
                   1e3 * domino_factor_plan_analysis_seconds(plan),
                   1e3 * domino_factor_plan_compute_seconds(plan), (long long)plan->walked);
        CHECK(diff >= 0.0 && diff <= FACTOR_EPS * eps);
        if (line || scan) CHECK(pdiff >= 0.0 && pdiff <= FACTOR_EPS * eps);
        if (((line || scan) && walked) || box) CHECK(diff == 0.0);
        got[mode] = factor_values(h, plan, &nnz[mode]);
        domino_factor_plan_free(plan);
    }
    CHECK(nnz[0] == nnz[1] && got[0] && got[1] &&
          memcmp(got[0], got[1], sizeof(double) * (size_t)nnz[0]) == 0);
    for (int mode = 0; mode < MODES; mode++)
        free(got[mode]);
    domino_dmatrix_free(dA);
    domino_matrix_free(F);
}

static void test_stencil_path(domino_handle h)
{
    enum { COUNT = 11 };
    domino_matrix A[COUNT] = {stencil(h, DOMINO_D3N7, 13, 12, 11), stencil(h, DOMINO_D3N27, 11, 10, 9),
                              stencil(h, DOMINO_D3N33, 13, 13, 12), stencil(h, DOMINO_D2N9, 21, 20, 1),
                              stencil(h, DOMINO_D3N13, 45, 9, 10), stencil(h, DOMINO_D3N19, 70, 7, 6),
                              NULL, NULL, NULL, stencil(h, DOMINO_D2N5, 23, 19, 1),
                              stencil(h, DOMINO_D3N7, 71, 9, 7)};
    const char *names[COUNT] = {"d3n7 13x12x11", "d3n27 11x10x9", "d3n33 13x13x12", "d2n9 21x20",
                                "d3n13 45x9x10", "d3n19 70x7x6", "d3n7 10^3 less an interior pair",
                                "d3n7 10^3 less a boundary pair", "d3n7 10^3 and an interior pair",
                                "d2n5 23x19", "d3n7 71x9x7"};
    domino_matrix P = stencil(h, DOMINO_D3N7, 10, 10, 10);
    const int32_t mid = 5 + 10 * (5 + 10 * 5);
    A[6] = edit_pair(h, P, mid, mid - 1, 0);
    A[7] = edit_pair(h, P, 1, 0, 0);
    A[8] = edit_pair(h, P, mid, mid - 3, 1);
    domino_matrix_free(P);
    /* 32 lanes a row, 16 and 8 (plans of 10^6 rows and more), 4: entries
     * past the held ones */
    const char *lanes[4] = {"32", "16", "8", "4"};
    for (int l = 0; l < 4; l++) {
        setenv("DOMINO_FACTOR_LANES", lanes[l], 1);
        for (int m = 0; m < COUNT; m++) {
            char label[64];
            int exact = m < 6 || m > 8, scan = m == 0 || m > 8;
            snprintf(label, sizeof label, "%s, %s lanes", names[m], lanes[l]);
            check_stencil_path(h, A[m], DOMINO_FACTOR_ILU0, m != 6 && m != 8, exact, scan, m == 1, label);
            check_stencil_path(h, A[m], DOMINO_FACTOR_IC0, m != 6 && m != 8, exact, scan, m == 1, label);
        }
    }
    unsetenv("DOMINO_FACTOR_LANES");
    for (int m = 0; m < COUNT; m++)
        domino_matrix_free(A[m]);
    /* ILU(0) of a D3N7 without diagonal dominance (off-diagonals in [-1, 1],
     * diagonal in [2, 3): pivots small, negative, cancelling): the scan
     * path walks the chunks where its scan could lose accuracy */
    domino_matrix R = stencil(h, DOMINO_D3N7, 75, 10, 9);
    domino_matrix_view v;
    CHECK_OK(h, domino_matrix_get_view(h, R, &v));
    double *val = v.val;
    uint64_t state = 12345;
    for (int32_t i = 0; i < v.nrows; i++)
        for (int64_t k = v.ptr[i]; k < v.ptr[i + 1]; k++) {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            double u = (double)(state >> 11) * 0x1p-53;
            val[k] = v.ind[k] == i ? 2.0 + u : 2.0 * u - 1.0;
        }
    check_stencil_path(h, R, DOMINO_FACTOR_ILU0, 1, 1, 1, 0, "d3n7 75x10x9, values without dominance");
    domino_matrix_free(R);
}

/* The scan path's accuracy guards, against the CPU (factor and pivots):
 *  - D2N5 64x40 with every value times 2^k, k = -360 .. 520: the scan
 *    works on values scaled near 1, so no chunk is walked, nothing
 *    overflows, no false zero pivot;
 *  - an anisotropic D3N7 (x neighbours -1, the others -1e-3, diagonal
 *    2 + 4e-3): along x the pivots approach 1.065 with d_i = 2.004 -
 *    1/d_{i-1}, each step passing 0.88 of its predecessor's relative error;
 *  - x-lines whose pivots halve at every step, d_x = 2^-x, with in-line
 *    terms 1.5 d_x (diagonal 2.5 2^-x, 1 at x = 0, no other-line coupling:
 *    d_x 2^x = 2.5 - 1.5 / (d_{x-1} 2^(x-1)) held on its unstable root 1):
 *    relative errors grow 1.5x a step, so full chunks are walked lane after lane
 *    (walked > 0) and the factors stay the CPU's (ILU(0) in exact binary
 *    values, IC(0) with sqrt(3) 2^-x off the diagonal). */
static void test_scan_accuracy(domino_handle h)
{
    static const int powers[5] = {-360, -345, 0, 345, 520};
    for (int p = 0; p < 5; p++) {
        domino_matrix A = stencil(h, DOMINO_D2N5, 64, 40, 1);
        domino_matrix_view v;
        CHECK_OK(h, domino_matrix_get_view(h, A, &v));
        double *val = v.val;
        for (int64_t k = 0; k < v.nnz; k++) val[k] = ldexp(val[k], powers[p]);
        char label[64];
        snprintf(label, sizeof label, "d2n5 64x40 times 2^%d", powers[p]);
        check_stencil_path(h, A, DOMINO_FACTOR_ILU0, 1, 1, 1, 0, label);
        check_stencil_path(h, A, DOMINO_FACTOR_IC0, 1, 1, 1, 0, label);
        domino_matrix_free(A);
    }
    for (int shape = 0; shape < 2; shape++)
        for (int kind = 0; kind < 2; kind++) {
            domino_matrix A = stencil(h, DOMINO_D3N7, 70, 6, 5);
            domino_matrix_view v;
            CHECK_OK(h, domino_matrix_get_view(h, A, &v));
            double *val = v.val;
            for (int32_t i = 0; i < v.nrows; i++) {
                int x = i % 70;
                for (int64_t k = v.ptr[i]; k < v.ptr[i + 1]; k++) {
                    int32_t c = v.ind[k];
                    if (shape == 0) /* anisotropic */
                        val[k] = c == i ? 2.0 + 4e-3 : (c == i - 1 || c == i + 1) ? -1.0 : -1e-3;
                    else if (c == i) /* halving pivots: d_0 = 1 starts them on the unstable root */
                        val[k] = x == 0 ? 1.0 : ldexp(2.5, -x);
                    else if (c == i - 1)
                        val[k] = kind ? -sqrt(3.0) * ldexp(1.0, -x) : ldexp(-3.0, -x);
                    else if (c == i + 1)
                        val[k] = kind ? -sqrt(3.0) * ldexp(1.0, -x - 1) : ldexp(-1.0, -x - 1);
                    else
                        val[k] = 0.0;
                }
            }
            const char *label = shape ? "d3n7 70x6x5 halving pivots" : "d3n7 70x6x5 anisotropic";
            check_stencil_path(h, A, (domino_factor_kind)kind, 1, 1, 1, 0, label);
            if (shape == 1) {
                domino_dmatrix dA = NULL;
                domino_factor_plan plan = NULL;
                CHECK_OK(h, domino_dmatrix_upload(h, A, &dA));
                CHECK_OK(h, domino_factor_analysis(h, (domino_factor_kind)kind, dA, NULL, &plan));
                CHECK_OK(h, domino_factor_compute(h, plan, NULL, NULL));
                CHECK(plan && plan->stencil.scan_path && plan->walked > 0);
                domino_factor_plan_free(plan);
                domino_dmatrix_free(dA);
            }
            domino_matrix_free(A);
        }
}


/* M[0..count): copies of A, diagonal times 1 + 0.25 b, the rest times 1 -
 * 0.2 b; their values on the GPU one matrix after another (returned) */
static double *scaled_batch(domino_handle h, domino_matrix A, int count, domino_matrix *M)
{
    domino_matrix_view v;
    CHECK_OK(h, domino_matrix_get_view(h, A, &v));
    size_t bytes = (size_t)v.nnz * sizeof(double);
    double *values = NULL;
    CHECK_OK(h, domino_gpu_malloc(h, count * bytes, (void **)&values));
    for (int b = 0; b < count; b++) {
        M[b] = scaled_copy(h, A, 1.0 + 0.25 * b, 1.0 - 0.2 * b);
        domino_matrix_view mv;
        CHECK_OK(h, domino_matrix_get_view(h, M[b], &mv));
        CHECK_OK(h, domino_gpu_upload(h, (char *)values + b * bytes, mv.val, bytes));
    }
    return values;
}

/* scaled_batch's matrices and values, A and its device copy, freed */
static void free_batch(domino_matrix A, domino_dmatrix dA, int count, domino_matrix *M, double *values)
{
    for (int b = 0; b < count; b++)
        domino_matrix_free(M[b]);
    domino_dmatrix_free(dA);
    domino_gpu_free(values);
    domino_matrix_free(A);
}

/* 3 matrices of one pattern factored in one launch equal one by one */
static void check_batch(domino_handle h, domino_matrix A, const char *method)
{
    enum { BATCH = 3 };
    domino_matrix M[BATCH];
    domino_matrix_view v;
    CHECK_OK(h, domino_matrix_get_view(h, A, &v));
    double *values = scaled_batch(h, A, BATCH, M);
    domino_dmatrix dA = NULL;
    CHECK_OK(h, domino_dmatrix_upload(h, A, &dA));
    for (int kind = 0; kind < 2; kind++) {
        for (int cus = 0; cus < 2; cus++) {
            domino_factor_options opt;
            domino_factor_options_init(&opt);
            opt.batch = BATCH;
            opt.use_cusparse = cus;
            domino_factor_plan plan = NULL;
            CHECK_OK(h, domino_factor_analysis(h, (domino_factor_kind)kind, dA, &opt, &plan));
            CHECK(plan && strcmp(domino_factor_plan_method(plan), cus ? "cusparse" : method) == 0);
            CHECK_OK(h, domino_factor_compute(h, plan, values, NULL));
            for (int b = 0; b < BATCH; b++) {
                domino_matrix F = NULL;
                if (kind) CHECK_OK(h, domino_ref_ic0(h, M[b], 0.0, &F, NULL));
                else CHECK_OK(h, domino_ref_ilu0(h, M[b], 0.0, &F, NULL));
                double diff = factor_difference(h, plan, b, F);
                CHECK(diff >= 0.0 && diff <= FACTOR_EPS * eps);
                printf("batch %d of %d %s %-13s: max rel diff to the CPU %.2e\n", b, BATCH,
                       kind ? "IC0 " : "ILU0", cus ? "cusparse" : method, diff);
                domino_matrix_free(F);
            }
            domino_factor_plan_free(plan);
        }
    }
    /* matrix 1 with a_00 = 0 (pivot 0 at row 0): "row 0 of batch 1" named */
    double zero = 0.0;
    domino_matrix_view mv;
    CHECK_OK(h, domino_matrix_get_view(h, M[1], &mv));
    for (int64_t k = mv.ptr[0]; k < mv.ptr[1]; k++)
        if (mv.ind[k] == 0)
            CHECK_OK(h, domino_gpu_upload(h, values + v.nnz + k, &zero, sizeof(double)));
    domino_factor_options opt;
    domino_factor_options_init(&opt);
    opt.batch = BATCH;
    domino_factor_plan plan = NULL;
    CHECK_OK(h, domino_factor_analysis(h, DOMINO_FACTOR_ILU0, dA, &opt, &plan));
    CHECK_STATUS(h, DOMINO_ZERO_PIVOT, domino_factor_compute(h, plan, values, NULL));
    CHECK(strstr(domino_last_error(h), "row 0 of batch 1") != NULL);
    domino_factor_plan_free(plan);
    free_batch(A, dA, BATCH, M, values);
}

/* the batch on D3N7 40x9x8 (lines of two chunks; the path of the caller's
 * environment: method) and, with_box, on D3N27 12x9x8 (the box path,
 * forced, and the table path in the key order), and AUTO's choice of the
 * box path (IC(0) of 2^20 rows) */
static void test_batch(domino_handle h, const char *method, int with_box)
{
    check_batch(h, stencil(h, DOMINO_D3N7, 40, 9, 8), method);
    if (!with_box) return;
    setenv("DOMINO_FACTOR_BOX", "1", 1);
    check_batch(h, stencil(h, DOMINO_D3N27, 12, 9, 8), "stencil-box");
    setenv("DOMINO_FACTOR_BOX", "0", 1); /* the table path in the box's key order, padded */
    check_batch(h, stencil(h, DOMINO_D3N27, 12, 9, 8), "stencil-table");
    unsetenv("DOMINO_FACTOR_BOX");
    /* AUTO: IC(0) and ILU(0) of a box of 2^20 rows and more (64 x 128 x
     * 128) go by grid lines (from 2^18 rows); IC(0) by the box path with
     * DOMINO_FACTOR_BOX_LINES=0 */
    domino_matrix B = stencil(h, DOMINO_D3N27, 64, 128, 128);
    domino_dmatrix dB = NULL;
    CHECK_OK(h, domino_dmatrix_upload(h, B, &dB));
    for (int kind = 0; kind < 3; kind++) {
        domino_factor_plan plan = NULL;
        if (kind == 2) setenv("DOMINO_FACTOR_BOX_LINES", "0", 1);
        CHECK_OK(h, domino_factor_analysis(h, kind ? DOMINO_FACTOR_IC0 : DOMINO_FACTOR_ILU0, dB, NULL, &plan));
        unsetenv("DOMINO_FACTOR_BOX_LINES");
        CHECK(plan && strcmp(domino_factor_plan_method(plan), kind == 2 ? "stencil-box" : "stencil-box-lines") == 0);
        domino_factor_plan_free(plan);
    }
    domino_dmatrix_free(dB);
    domino_matrix_free(B);
}

/* the box path's ILU(0) and IC(0) by grid lines (DOMINO_FACTOR_BOX_LINES):
 * on D3N27 grids whose lines are one chunk, several, or a chunk and a few
 * rows (stagger), factors within FACTOR_EPS of the CPU's with the in-line
 * pivots scanned ("1"), bit for bit walked ("walk"), alone and in a batch
 * of 3 (different values) */
static void test_box_lines(domino_handle h)
{
    enum { GRIDS = 6, BATCH = 3 };
    const int32_t grid[GRIDS][3] = {{11, 10, 9}, {12, 9, 8}, {70, 6, 5}, {33, 7, 9}, {5, 40, 6}, {40, 38, 36}};
    const char *modes[2] = {"1", "walk"};
    setenv("DOMINO_FACTOR_BOX", "1", 1);
    for (int g = 0; g < GRIDS; g++) {
        domino_matrix A = stencil(h, DOMINO_D3N27, grid[g][0], grid[g][1], grid[g][2]), M[BATCH];
        double *values = scaled_batch(h, A, BATCH, M);
        domino_dmatrix dA = NULL;
        CHECK_OK(h, domino_dmatrix_upload(h, A, &dA));
        for (int kind = 0; kind < 2; kind++)
            for (int mode = 0; mode < 2; mode++)
                for (int batch = 1; batch <= BATCH; batch += BATCH - 1) {
                    setenv("DOMINO_FACTOR_BOX_LINES", modes[mode], 1);
                    domino_factor_options opt;
                    domino_factor_options_init(&opt);
                    opt.batch = batch;
                    domino_factor_plan plan = NULL;
                    CHECK_OK(h, domino_factor_analysis(h, kind ? DOMINO_FACTOR_IC0 : DOMINO_FACTOR_ILU0, dA, &opt,
                                                       &plan));
                    CHECK(plan && strcmp(domino_factor_plan_method(plan), "stencil-box-lines") == 0);
                    CHECK_OK(h, domino_factor_compute(h, plan, batch > 1 ? values : NULL, NULL));
                    unsetenv("DOMINO_FACTOR_BOX_LINES");
                    for (int b = 0; b < batch; b++) {
                        domino_matrix F = NULL;
                        domino_matrix Ab = batch > 1 ? M[b] : A;
                        if (kind)
                            CHECK_OK(h, domino_ref_ic0(h, Ab, 0.0, &F, NULL));
                        else
                            CHECK_OK(h, domino_ref_ilu0(h, Ab, 0.0, &F, NULL));
                        double diff = F ? factor_difference(h, plan, b, F) : -1.0;
                        CHECK(diff >= 0.0 && diff <= FACTOR_EPS * eps);
                        if (mode == 1) CHECK(diff == 0.0);
                        printf("d3n27 %dx%dx%d %s box lines (%s), matrix %d of %d: max rel diff to the CPU %.2e"
                               " (%.1f eps), chunks walked %lld\n",
                               grid[g][0], grid[g][1], grid[g][2], kind ? "IC0 " : "ILU0", modes[mode], b, batch,
                               diff, diff / eps, (long long)plan->walked);
                        domino_matrix_free(F);
                    }
                    domino_factor_plan_free(plan);
                }
        free_batch(A, dA, BATCH, M, values);
    }
    unsetenv("DOMINO_FACTOR_BOX");
}

/* argument checks and a missing diagonal */
static void test_misuse(domino_handle h)
{
    domino_matrix A = stencil(h, DOMINO_D2N5, 4, 4, 1), F = NULL;
    domino_dmatrix dA = NULL, dF = NULL;
    domino_factor_plan plan = NULL;
    CHECK_OK(h, domino_dmatrix_upload(h, A, &dA));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_factor_analysis(h, DOMINO_FACTOR_ILU0, dA, NULL, NULL));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_factor_analysis(h, DOMINO_FACTOR_ILU0, NULL, NULL, &plan));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE,
                 domino_factor_analysis(h, (domino_factor_kind)5, dA, NULL, &plan));
    CHECK(plan == NULL);
    CHECK_OK(h, domino_factor_analysis(h, DOMINO_FACTOR_ILU0, dA, NULL, &plan));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_factor_get(h, plan, 1, &dF));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_factor_compute(h, NULL, NULL, NULL));
    domino_factor_plan_free(plan);
    domino_factor_plan_free(NULL);
    /* missing diagonal */
    CHECK_OK(h, domino_matrix_triangle(h, A, DOMINO_LOWER, DOMINO_DIAG_DROP, &F));
    domino_dmatrix dS = NULL;
    CHECK_OK(h, domino_dmatrix_upload(h, F, &dS));
    CHECK_STATUS(h, DOMINO_ZERO_DIAGONAL, domino_factor_analysis(h, DOMINO_FACTOR_IC0, dS, NULL, &plan));
    CHECK(strstr(domino_last_error(h), "row 0") != NULL);
    domino_dmatrix_free(dS);
    domino_matrix_free(F);
    domino_dmatrix_free(dA);
    domino_matrix_free(A);
}

int main(void)
{
    domino_handle h = NULL;
    int64_t live = 0;
    if (precond_test_begin(&h, "test_gpu_precond", &live)) return check_summary("test_gpu_precond");
    test_factors(h);
    test_factor_lanes(h);
    setenv("DOMINO_FACTOR_BOX", "1", 1); /* the box path on small grids too (AUTO: IC(0) of 2^20 rows) */
    test_stencil_path(h);
    unsetenv("DOMINO_FACTOR_BOX");
    test_scan_accuracy(h);
    test_batch(h, "stencil-scan", 1);
    setenv("DOMINO_FACTOR_STENCIL", "2", 1); /* the batch on the line path (an exact D3N7) */
    test_batch(h, "stencil-lines", 0);
    setenv("DOMINO_FACTOR_STENCIL", "1", 1); /* on the table path (the default takes the scan path) */
    test_batch(h, "stencil-table", 0);
    unsetenv("DOMINO_FACTOR_STENCIL");
    /* the grouped kernel (8 lanes a row: what plans of 1e6 rows and more
     * take) on the batches too */
    setenv("DOMINO_FACTOR_LANES", "8", 1);
    test_batch(h, "stencil-scan", 1);
    unsetenv("DOMINO_FACTOR_LANES");
    test_box_lines(h);
    test_misuse(h);
    return precond_test_end(h, live, "test_gpu_precond");
}
