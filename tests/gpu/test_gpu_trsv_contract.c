/* test_gpu_trsv_contract.c: the contracts around the GPU triangular solve,
 * for every engine where they apply:
 *  - values update without re-analysis;
 *  - zero pivots (with and without check_pivot) and missing diagonals;
 *  - diagonal systems (the thread engine's streaming kernel);
 *  - bitwise determinism;
 *  - one plan solving six times into two X blocks (the one-launch solve's
 *    flag buffers taken in turn, auto's walk trial), a traced solve among
 *    them;
 *  - domino_trsv_trace: no row published before a row it reads, or before
 *    its warp took it;
 *  - a chain whose multipliers grow (the warp sweep must not take it);
 *  - bounded waits and caller-provided workspace;
 *  - misuse.
 * The checks of one solve are trsv_cases.h's; the solves over the shared
 * and generated matrices are test_gpu_trsv.c's.  Without a CUDA device
 * every section is reported as skipped. */
#define _POSIX_C_SOURCE 200809L
#include "trsv_cases.h"

#define SECTIONS 9 /* test sections, all skipped without a device */

/* ------------------------------------------------------------ values update */

/* analysis once, solve, all values times 2, update, solve with the same plan */
static void test_values_update_one(domino_handle h, domino_matrix A, domino_dmatrix dA,
                                   domino_matrix A2, domino_engine engine, const char *name)
{
    domino_trsv_options opt;
    domino_trsv_options_init(&opt);
    opt.engine = engine;
    solve_case c1 = {name, A, dA, DOMINO_LOWER, DOMINO_NON_UNIT, DOMINO_OP_N, 1, 0, NULL};
    solve_case c2 = c1;
    c2.T = A2;
    case_data d1, d2;
    char what[512];
    describe(what, sizeof what, &c1, &opt);
    domino_trsv_plan plan = NULL;
    if (!case_data_new(h, &c1, &d1)) return;
    if (!case_data_new(h, &c2, &d2)) {
        case_data_free(&d1);
        return;
    }
    CHECK_OK(h, domino_dmatrix_update_values(h, dA, A)); /* back to the first values */
    domino_status s = domino_trsv_analysis(h, c1.op, c1.fill, c1.diag, dA, 1, &opt, NULL, &plan);
    report(s == DOMINO_SUCCESS, what, "values update: analysis %s (%s)", domino_status_name(s),
           domino_last_error(h));
    memset(d1.X, POISON, d1.bytes);
    memset(d2.X, POISON, d2.bytes);
    if (!s) s = domino_gpu_upload(h, d1.dX, d1.X, d1.bytes);
    if (!s) s = domino_trsv_solve(h, plan, d1.dB, d1.ld, d1.dX, d1.ld, 1);
    if (!s) check_solution(h, &c1, &d1, what);
    if (!s) s = domino_dmatrix_update_values(h, dA, A2);
    if (!s) s = domino_gpu_upload(h, d2.dX, d2.X, d2.bytes);
    if (!s) s = domino_trsv_solve(h, plan, d2.dB, d2.ld, d2.dX, d2.ld, 1);
    report(s == DOMINO_SUCCESS, what, "values update: %s (%s)", domino_status_name(s),
           domino_last_error(h));
    strncat(what, " after values x2", sizeof what - strlen(what) - 1);
    if (!s) check_solution(h, &c2, &d2, what);
    domino_trsv_plan_free(plan);
    case_data_free(&d1);
    case_data_free(&d2);
}

static void test_values_update(domino_handle h)
{
    domino_matrix M = NULL;
    CHECK_OK(h, domino_gen_dag(h, 5000, 6, 50, 0, 77, DOMINO_FLOAT64, &M));
    for (int fmt = 0; M && fmt < 2; fmt++) {
        domino_matrix A = NULL, A2 = NULL;
        domino_dmatrix dA = NULL;
        domino_matrix_view v;
        CHECK_OK(h, domino_matrix_convert(h, M, fmt ? DOMINO_CSC : DOMINO_CSR, &A));
        if (A) CHECK_OK(h, domino_matrix_copy(h, A, &A2));
        if (A2) CHECK_OK(h, domino_dmatrix_upload(h, A, &dA));
        if (dA && !domino_matrix_get_view(h, A2, &v)) {
            for (int64_t k = 0; k < v.nnz; k++) ((double *)v.val)[k] *= 2;
            for (int e = 0; e < DOMINO_ENGINE_COUNT; e++)
                if (trsv_test_engine(e) != DOMINO_ENGINE_STENCIL) /* a DAG is no stencil */
                    test_values_update_one(h, A, dA, A2, trsv_test_engine(e),
                                       fmt ? "dag 5000 levels 50 (csc)" : "dag 5000 levels 50 (csr)");
        }
        domino_dmatrix_free(dA);
        domino_matrix_free(A);
        domino_matrix_free(A2);
    }
    domino_matrix_free(M);
}

/* ------------------------------------------------------------ pivots */

/* 10 x 10 lower bidiagonal CSR: diagonal 4 (row zero_row: explicit 0; row
 * missing_row: absent), subdiagonal -1 */
static domino_matrix pivot_matrix(domino_handle h, int32_t zero_row, int32_t missing_row)
{
    int32_t rows[20], cols[20];
    double vals[20];
    int64_t nnz = 0;
    for (int32_t i = 0; i < 10; i++) {
        if (i != missing_row) rows[nnz] = i, cols[nnz] = i, vals[nnz++] = i == zero_row ? 0.0 : 4.0;
        if (i > 0) rows[nnz] = i, cols[nnz] = i - 1, vals[nnz++] = -1.0;
    }
    domino_matrix A = NULL;
    CHECK_OK(h, domino_matrix_from_coo(h, DOMINO_CSR, DOMINO_FLOAT64, 10, 10, nnz, rows, cols,
                                       vals, &A));
    return A;
}

/* a solve of plan, with and without check_pivot, must fail with
 * DOMINO_ZERO_PIVOT naming row (what names the case in the report) */
static void expect_zero_pivot(domino_handle h, domino_trsv_plan plan, const void *dB, void *dX,
                              int64_t ld, int32_t row, const char *en, const char *what)
{
    char name[32];
    snprintf(name, sizeof name, "row %d", row);
    for (int check = 1; check >= 0; check--) { /* reported with or without the check */
        domino_status z = domino_trsv_solve(h, plan, dB, ld, dX, ld, check);
        report(z == DOMINO_ZERO_PIVOT && strstr(domino_last_error(h), name), en,
               "%s, zero pivot at %s: solve (check_pivot %d) returned %s (%s)", what, name, check,
               domino_status_name(z), domino_last_error(h));
    }
}

/* a non-unit analysis of dA must fail with DOMINO_ZERO_DIAGONAL naming row
 * and make no plan */
static void expect_missing_diagonal(domino_handle h, domino_dmatrix dA, const domino_trsv_options *opt,
                                    int32_t row, const char *en, const char *what)
{
    char name[32];
    domino_trsv_plan plan = NULL;
    snprintf(name, sizeof name, "row %d", row);
    domino_status s = domino_trsv_analysis(h, DOMINO_OP_N, DOMINO_LOWER, DOMINO_NON_UNIT, dA, 1, opt, NULL, &plan);
    report(s == DOMINO_ZERO_DIAGONAL && strstr(domino_last_error(h), name) && !plan, en,
           "%s, no diagonal in %s: analysis returned %s (%s)", what, name, domino_status_name(s),
           domino_last_error(h));
    domino_trsv_plan_free(plan);
}

static void test_pivots(domino_handle h)
{
    domino_matrix Z = pivot_matrix(h, 5, -1), D = pivot_matrix(h, -1, 3);
    domino_dmatrix dZ = NULL, dD = NULL;
    void *dB = NULL, *dX = NULL;
    double b[10];
    for (int i = 0; i < 10; i++) b[i] = 1.0 + i;
    if (Z) CHECK_OK(h, domino_dmatrix_upload(h, Z, &dZ));
    if (D) CHECK_OK(h, domino_dmatrix_upload(h, D, &dD));
    CHECK_OK(h, domino_gpu_malloc(h, sizeof b, &dB));
    CHECK_OK(h, domino_gpu_malloc(h, sizeof b, &dX));
    if (!dZ || !dD || !dB || !dX) goto cleanup;
    CHECK_OK(h, domino_gpu_upload(h, dB, b, sizeof b));
    for (int e = 0; e < DOMINO_ENGINE_COUNT; e++) {
        domino_trsv_options opt;
        domino_trsv_options_init(&opt);
        opt.engine = trsv_test_engine(e);
        if (opt.engine == DOMINO_ENGINE_STENCIL) continue; /* 10 rows: no stencil (test_gpu_stencil) */
        const char *en = domino_engine_name(opt.engine);
        domino_trsv_plan plan = NULL;
        domino_status s = DOMINO_SUCCESS;
        /* L and L^T (the upper solve of the lower triangle's transpose) */
        for (int op = 0; op < 2; op++) {
            s = domino_trsv_analysis(h, op ? DOMINO_OP_T : DOMINO_OP_N, DOMINO_LOWER, DOMINO_NON_UNIT, dZ,
                                     1, &opt, NULL, &plan);
            report(s == DOMINO_SUCCESS, en, "zero pivot: analysis (op %d) %s (%s)", op, domino_status_name(s),
                   domino_last_error(h));
            if (!s) expect_zero_pivot(h, plan, dB, dX, 10, 5, en, op ? "op T" : "op N");
            domino_trsv_plan_free(plan);
            plan = NULL;
        }
        expect_missing_diagonal(h, dD, &opt, 3, en, "bidiagonal");
        /* unit diagonal: the missing (and the zero) diagonal is not read */
        solve_case cd = {"missing diagonal row 3, unit", D, dD, DOMINO_LOWER, DOMINO_UNIT,
                         DOMINO_OP_N, 1, 0, NULL};
        solve_case cz = {"zero pivot row 5, unit", Z, dZ, DOMINO_LOWER, DOMINO_UNIT,
                         DOMINO_OP_N, 1, 0, NULL};
        case_data d;
        if (case_data_new(h, &cd, &d)) check_engine(h, &cd, &d, &opt, NULL), case_data_free(&d);
        if (case_data_new(h, &cz, &d)) check_engine(h, &cz, &d, &opt, NULL), case_data_free(&d);
    }
cleanup:
    domino_gpu_free(dB);
    domino_gpu_free(dX);
    domino_dmatrix_free(dZ);
    domino_dmatrix_free(dD);
    domino_matrix_free(Z);
    domino_matrix_free(D);
}

/* ------------------------------------------------------------ diagonal systems */

/* n x n CSR, one entry a row: (i, i) = 1 + i % 7 (row zero_row: 0), except
 * row moved (> 0), which holds (moved, moved - 1) = 0.5 instead: still n
 * entries, but that row has no diagonal */
static domino_matrix diagonal_matrix(domino_handle h, int32_t n, int32_t zero_row, int32_t moved)
{
    int32_t *rows = malloc((size_t)n * sizeof(int32_t)), *cols = malloc((size_t)n * sizeof(int32_t));
    double *vals = malloc((size_t)n * sizeof(double));
    domino_matrix A = NULL;
    if (rows && cols && vals) {
        for (int32_t i = 0; i < n; i++) rows[i] = cols[i] = i, vals[i] = i == zero_row ? 0.0 : 1.0 + i % 7;
        if (moved > 0 && moved < n) cols[moved] = moved - 1, vals[moved] = 0.5;
        CHECK_OK(h, domino_matrix_from_coo(h, DOMINO_CSR, DOMINO_FLOAT64, n, n, n, rows, cols, vals, &A));
    }
    free(rows);
    free(cols);
    free(vals);
    return A;
}

/* The thread engine solves a diagonal system (n entries, each row's
 * diagonal) with a streaming kernel: its zero pivot, values update, and a
 * system of n entries that is not diagonal (a row without diagonal) */
static void test_diagonal(domino_handle h)
{
    const int32_t n = 3000;
    domino_matrix Z = diagonal_matrix(h, n, 1234, -1), A = diagonal_matrix(h, n, -1, -1), A2 = NULL;
    domino_matrix M = diagonal_matrix(h, n, -1, 1500);
    domino_dmatrix dZ = NULL, dA = NULL, dM = NULL;
    domino_matrix_view v;
    void *dB = NULL, *dX = NULL;
    if (Z) CHECK_OK(h, domino_dmatrix_upload(h, Z, &dZ));
    if (A) CHECK_OK(h, domino_dmatrix_upload(h, A, &dA));
    if (M) CHECK_OK(h, domino_dmatrix_upload(h, M, &dM));
    if (A) CHECK_OK(h, domino_matrix_copy(h, A, &A2));
    CHECK_OK(h, domino_gpu_malloc(h, (size_t)n * sizeof(double), &dB));
    CHECK_OK(h, domino_gpu_malloc(h, (size_t)n * sizeof(double), &dX));
    if (!dZ || !dA || !dM || !A2 || !dB || !dX || domino_matrix_get_view(h, A2, &v)) goto cleanup;
    for (int64_t k = 0; k < v.nnz; k++) ((double *)v.val)[k] *= 2;
    static const domino_engine engines[2] = {DOMINO_ENGINE_AUTO, DOMINO_ENGINE_THREAD};
    for (int e = 0; e < 2; e++) {
        domino_trsv_options opt;
        domino_trsv_options_init(&opt);
        opt.engine = engines[e];
        const char *en = domino_engine_name(opt.engine);
        domino_trsv_plan plan = NULL;
        domino_status s = domino_trsv_analysis(h, DOMINO_OP_N, DOMINO_LOWER, DOMINO_NON_UNIT, dZ, 1, &opt,
                                               NULL, &plan);
        report(s == DOMINO_SUCCESS, en, "diagonal, zero pivot: analysis %s (%s)", domino_status_name(s),
               domino_last_error(h));
        if (!s) expect_zero_pivot(h, plan, dB, dX, n, 1234, en, "diagonal");
        domino_trsv_plan_free(plan);
        test_values_update_one(h, A, dA, A2, opt.engine, "diagonal 3000");
        CHECK_OK(h, domino_dmatrix_update_values(h, dA, A)); /* it leaves A2's values in dA */
        /* n entries, row 1500 without its diagonal: refused non-unit, solved unit */
        expect_missing_diagonal(h, dM, &opt, 1500, en, "n entries");
        for (int op = 0; op < 2; op++)
            for (int rhs = 0; rhs < 2; rhs++) {
                solve_case c = {"n entries, row 1500 without diagonal, unit", M, dM, DOMINO_LOWER,
                                DOMINO_UNIT, op ? DOMINO_OP_T : DOMINO_OP_N, rhs ? 3 : 1, 0, NULL};
                case_data d;
                if (case_data_new(h, &c, &d)) check_engine(h, &c, &d, &opt, NULL), case_data_free(&d);
                solve_case cd = {"diagonal 3000", A, dA, DOMINO_LOWER, DOMINO_NON_UNIT,
                                 op ? DOMINO_OP_T : DOMINO_OP_N, rhs ? 3 : 1, 0, NULL};
                if (case_data_new(h, &cd, &d)) check_engine(h, &cd, &d, &opt, NULL), case_data_free(&d);
            }
    }
cleanup:
    domino_gpu_free(dB);
    domino_gpu_free(dX);
    domino_dmatrix_free(dZ);
    domino_dmatrix_free(dA);
    domino_dmatrix_free(dM);
    domino_matrix_free(Z);
    domino_matrix_free(A);
    domino_matrix_free(A2);
    domino_matrix_free(M);
}

/* ------------------------------------------------------------ determinism */

/* 5 solves with deterministic = 1 give the same bits */
static void test_determinism(domino_handle h)
{
    static const domino_engine engines[] = {DOMINO_ENGINE_AUTO, DOMINO_ENGINE_THREAD,
                                            DOMINO_ENGINE_WARP, DOMINO_ENGINE_LEVELSET};
    domino_matrix A = NULL;
    domino_dmatrix dA = NULL;
    CHECK_OK(h, domino_gen_dag(h, 200000, 8, 1000, 0, 4242, DOMINO_FLOAT64, &A));
    if (A) CHECK_OK(h, domino_dmatrix_upload(h, A, &dA));
    if (!dA) goto cleanup;
    for (int op = 0; op < 2; op++) {
        solve_case c = {"dag n=200000 levels=1000", A, dA, DOMINO_LOWER, DOMINO_NON_UNIT,
                        (domino_op)op, 1, 0, NULL};
        case_data d;
        if (!case_data_new(h, &c, &d)) continue;
        double *first = malloc(d.bytes);
        for (int e = 0; first && e < 4; e++) {
            domino_trsv_options opt;
            domino_trsv_options_init(&opt);
            opt.engine = engines[e];
            opt.deterministic = 1;
            char what[512];
            describe(what, sizeof what, &c, &opt);
            domino_trsv_plan plan = NULL;
            domino_status s = domino_trsv_analysis(h, c.op, c.fill, c.diag, dA, 1, &opt, NULL, &plan);
            int same = 1;
            for (int run = 0; !s && run < 5; run++) {
                memset(d.X, POISON, d.bytes);
                s = domino_gpu_upload(h, d.dX, d.X, d.bytes);
                if (!s) s = domino_trsv_solve(h, plan, d.dB, d.ld, d.dX, d.ld, 0);
                if (!s) s = domino_gpu_download(h, d.X, d.dX, d.bytes);
                if (!s && run == 0) memcpy(first, d.X, d.bytes), check_solution(h, &c, &d, what);
                if (!s && run > 0) same &= memcmp(first, d.X, d.bytes) == 0;
            }
            report(s == DOMINO_SUCCESS, what, "determinism: %s (%s)", domino_status_name(s),
                   domino_last_error(h));
            if (!s) report(same, what, "5 deterministic solves are not bitwise identical");
            domino_trsv_plan_free(plan);
        }
        free(first);
        case_data_free(&d);
    }
    domino_trsv_options opt;
    domino_trsv_options_init(&opt);
    opt.engine = DOMINO_ENGINE_CSC;
    opt.deterministic = 1;
    domino_trsv_plan plan = NULL;
    CHECK_STATUS(h, DOMINO_NOT_SUPPORTED, domino_trsv_analysis(h, DOMINO_OP_N, DOMINO_LOWER,
                                                               DOMINO_NON_UNIT, dA, 1, &opt, NULL, &plan));
    CHECK(plan == NULL);
cleanup:
    domino_dmatrix_free(dA);
    domino_matrix_free(A);
}

/* ------------------------------------------------------------ repeated solves */

/* One plan, many solves.  The one-launch pull solve publishes x into a flag
 * buffer that the solve before it filled (two buffers, used in turn), and
 * stores it into the caller's X: six solves alternating between two (B, X)
 * pairs must each give their own answer, with every row of X written (X is
 * poisoned before each), also with a traced solve (the two-launch path) and
 * a bounded-wait plan among them; lower op N and op T.  An auto plan's
 * first four solves try both walks (trsv_walk_trial.c), the rest use the
 * faster. */
static void test_repeated_solves(domino_handle h)
{
    static const domino_engine engines[] = {DOMINO_ENGINE_AUTO, DOMINO_ENGINE_THREAD,
                                            DOMINO_ENGINE_WARP, DOMINO_ENGINE_LEVELSET};
    domino_matrix A = NULL;
    domino_dmatrix dA = NULL;
    CHECK_OK(h, domino_gen_dag(h, 20000, 6, 100, 0, 4343, DOMINO_FLOAT64, &A));
    if (A) CHECK_OK(h, domino_dmatrix_upload(h, A, &dA));
    int64_t *ns = malloc(20000 * sizeof(int64_t));
    for (int op = 0; dA && ns && op < 2; op++) {
        solve_case c = {"dag n=20000 levels=100 (repeated solves)", A, dA, DOMINO_LOWER,
                        DOMINO_NON_UNIT, (domino_op)op, 1, 0, NULL};
        case_data d[2];
        if (!case_data_new(h, &c, &d[0])) continue;
        if (!case_data_new(h, &c, &d[1])) {
            case_data_free(&d[0]);
            continue;
        }
        for (int e = 0; e < 4; e++) {
            domino_trsv_options opt;
            domino_trsv_options_init(&opt);
            opt.engine = engines[e];
            opt.max_wait_ms = e == 2 ? 2000 : 0;
            char what[512], what_run[600];
            describe(what, sizeof what, &c, &opt);
            domino_trsv_plan plan = NULL;
            domino_status s = domino_trsv_analysis(h, c.op, c.fill, c.diag, dA, 1, &opt, NULL, &plan);
            report(s == DOMINO_SUCCESS, what, "repeated solves: analysis %s (%s)",
                   domino_status_name(s), domino_last_error(h));
            for (int run = 0; !s && run < 6; run++) {
                case_data *dd = &d[run % 2];
                int traced = run == 2 && opt.engine == DOMINO_ENGINE_THREAD;
                snprintf(what_run, sizeof what_run, "%s, solve %d of 6 into X%d%s", what, run + 1,
                         run % 2, traced ? " (traced)" : "");
                memset(dd->X, POISON, dd->bytes);
                s = domino_gpu_upload(h, dd->dX, dd->X, dd->bytes);
                if (!s && traced) s = domino_trsv_trace(h, plan, dd->dB, dd->dX, ns, NULL);
                else if (!s) s = domino_trsv_solve(h, plan, dd->dB, dd->ld, dd->dX, dd->ld, 1);
                report(s == DOMINO_SUCCESS, what_run, "%s (%s)", domino_status_name(s),
                       domino_last_error(h));
                if (!s) check_solution(h, &c, dd, what_run);
            }
            domino_trsv_plan_free(plan);
        }
        case_data_free(&d[0]);
        case_data_free(&d[1]);
    }
    free(ns);
    domino_dmatrix_free(dA);
    domino_matrix_free(A);
}

/* ------------------------------------------------------------ trace */

/* domino_trsv_trace on the thread engine: the answer is the reference's,
 * every row was published, and no row before a row it reads (lower and
 * upper, a DAG whose warps sweep and one whose rows go thread by thread);
 * other engines and nrhs > 1 are refused */
static void test_trace(domino_handle h)
{
    domino_matrix M[2] = {NULL, NULL};
    CHECK_OK(h, domino_gen_dag(h, 30000, 6, 300, 0, 77, DOMINO_FLOAT64, &M[0]));
    CHECK_OK(h, domino_gen_dag(h, 30000, 2, 30000, 0, 78, DOMINO_FLOAT64, &M[1])); /* a chain */
    for (int m = 0; m < 2; m++) {
        domino_dmatrix dA = NULL;
        if (!M[m] || domino_dmatrix_upload(h, M[m], &dA)) continue;
        domino_matrix_view v;
        CHECK_OK(h, domino_matrix_get_view(h, M[m], &v));
        for (int fill = 0; fill < 2; fill++) {
            solve_case c = {m ? "chain n=30000 (trace)" : "dag n=30000 levels=300 (trace)", M[m], dA,
                            fill ? DOMINO_UPPER : DOMINO_LOWER, DOMINO_NON_UNIT, DOMINO_OP_N, 1, 0, NULL};
            case_data d;
            if (!case_data_new(h, &c, &d)) continue;
            domino_trsv_options opt;
            domino_trsv_options_init(&opt);
            opt.engine = DOMINO_ENGINE_THREAD;
            char what[512];
            describe(what, sizeof what, &c, &opt);
            domino_trsv_plan plan = NULL;
            int64_t *ns = malloc(2 * (size_t)v.nrows * sizeof(int64_t)), *taken = ns ? ns + v.nrows : NULL;
            domino_status s = domino_trsv_analysis(h, c.op, c.fill, c.diag, dA, 1, &opt, NULL, &plan);
            memset(d.X, POISON, d.bytes); /* the padding rows must stay as they are */
            if (!s) s = domino_gpu_upload(h, d.dX, d.X, d.bytes);
            if (!s && ns) s = domino_trsv_trace(h, plan, d.dB, d.dX, ns, taken);
            if (!s) s = domino_gpu_download(h, d.X, d.dX, d.bytes);
            report(s == DOMINO_SUCCESS && ns, what, "trace: %s (%s)", domino_status_name(s),
                   domino_last_error(h));
            if (!s && ns) {
                check_solution(h, &c, &d, what);
                int64_t unpublished = 0, early = 0, before_taken = 0;
                for (int32_t i = 0; i < v.nrows; i++) {
                    if (ns[i] < 0) unpublished++;
                    if (taken[i] >= 0 && ns[i] >= 0 && taken[i] > ns[i]) before_taken++;
                    for (int64_t k = v.ptr[i]; k < v.ptr[i + 1]; k++) {
                        int32_t j = v.ind[k];
                        if ((fill ? j > i : j < i) && ns[j] > ns[i]) early++;
                    }
                }
                report(unpublished == 0, what, "trace: %lld rows never published", (long long)unpublished);
                report(early == 0, what, "trace: %lld rows published before a row they read",
                       (long long)early);
                report(before_taken == 0, what, "trace: %lld rows published before their warp took them",
                       (long long)before_taken);
            }
            domino_trsv_plan_free(plan);
            plan = NULL;
            opt.engine = DOMINO_ENGINE_LEVELSET;
            if (ns && !domino_trsv_analysis(h, c.op, c.fill, c.diag, dA, 1, &opt, NULL, &plan))
                CHECK_STATUS(h, DOMINO_NOT_SUPPORTED, domino_trsv_trace(h, plan, d.dB, d.dX, ns, taken));
            domino_trsv_plan_free(plan);
            free(ns);
            case_data_free(&d);
        }
        domino_dmatrix_free(dA);
    }
    domino_matrix_free(M[0]);
    domino_matrix_free(M[1]);
}

/* ------------------------------------------------------------ growing chains */

/* A chain whose multipliers grow (x_i = b_i + 100 x_(i-1), b chosen so that
 * x = 1 exactly): every intermediate of a solve in row order is a small
 * integer, so every engine must return 1 to the last bit or near it; the
 * warp sweep's affine scan would cancel numbers of 10^60 and return garbage
 * or NaN, so its gate must refuse such warps.  Lower and upper (the
 * transposed arrays), double and float (float: multiplier 3, 2^-20). */
static void test_growing_chain(domino_handle h)
{
    const int32_t n = 1000;
    int32_t *ri = malloc(2 * (size_t)n * sizeof(int32_t)), *ci = malloc(2 * (size_t)n * sizeof(int32_t));
    double *v = malloc(2 * (size_t)n * sizeof(double));
    for (int t = 0; ri && ci && v && t < 2; t++) {
        domino_type type = t ? DOMINO_FLOAT32 : DOMINO_FLOAT64;
        double m = t ? 3.0 : 100.0;
        int64_t nnz = 0;
        for (int32_t i = 0; i < n; i++) {
            ri[nnz] = i, ci[nnz] = i, v[nnz++] = 1.0;
            if (i > 0) ri[nnz] = i, ci[nnz] = i - 1, v[nnz++] = -m;
        }
        domino_matrix A = NULL;
        domino_dmatrix dA = NULL;
        CHECK_OK(h, domino_matrix_from_coo(h, DOMINO_CSR, type, n, n, nnz, ri, ci, v, &A));
        if (A) CHECK_OK(h, domino_dmatrix_upload(h, A, &dA));
        for (int op = 0; dA && op < 2; op++) { /* op T: the upper triangle A^T, a backward chain */
            size_t vs = t ? sizeof(float) : sizeof(double), bytes = (size_t)n * vs;
            void *b = malloc(bytes), *x = malloc(bytes), *dB = NULL, *dX = NULL;
            for (int32_t i = 0; b && i < n; i++) { /* row i of op(A) x = 1: 1 - m (first row: 1) */
                int first = op ? i == n - 1 : i == 0;
                double bi = first ? 1.0 : 1.0 - m;
                if (t) ((float *)b)[i] = (float)bi;
                else ((double *)b)[i] = bi;
            }
            domino_trsv_options opt;
            domino_trsv_options_init(&opt);
            opt.engine = DOMINO_ENGINE_THREAD;
            domino_trsv_plan plan = NULL;
            domino_status s = b && x ? domino_gpu_malloc(h, bytes, &dB) : DOMINO_OUT_OF_MEMORY;
            if (!s) s = domino_gpu_malloc(h, bytes, &dX);
            if (!s) s = domino_gpu_upload(h, dB, b, bytes);
            if (!s) s = domino_trsv_analysis(h, (domino_op)op, DOMINO_LOWER, DOMINO_NON_UNIT, dA, 1, &opt,
                                             NULL, &plan);
            if (!s) s = domino_trsv_solve(h, plan, dB, n, dX, n, 1);
            if (!s) s = domino_gpu_download(h, x, dX, bytes);
            double worst = 0;
            for (int32_t i = 0; !s && i < n; i++) {
                double xi = t ? ((float *)x)[i] : ((double *)x)[i];
                double e = fabs(xi - 1.0);
                if (!(e <= worst)) worst = isnan(e) ? INFINITY : e;
            }
            report(s == DOMINO_SUCCESS && worst <= 1e-6, t ? "growing chain float" : "growing chain double",
                   "op %s: %s, max |x - 1| = %.3g (%s)", op ? "T" : "N", domino_status_name(s), worst,
                   domino_last_error(h));
            domino_trsv_plan_free(plan);
            domino_gpu_free(dB);
            domino_gpu_free(dX);
            free(b);
            free(x);
        }
        domino_dmatrix_free(dA);
        domino_matrix_free(A);
    }
    free(ri);
    free(ci);
    free(v);
}

/* ------------------------------------------------------------ bounded waits, workspace */

/* per engine, CSR and CSC: max_wait_ms = 2000 on a normal matrix succeeds;
 * domino_trsv_buffer_size + domino_gpu_malloc buffer given to the analysis */
static void test_wait_and_workspace(domino_handle h)
{
    domino_matrix M[2] = {NULL, NULL};
    domino_dmatrix dM[2] = {NULL, NULL};
    CHECK_OK(h, domino_gen_dag(h, 20000, 6, 100, 50, 99, DOMINO_FLOAT64, &M[0]));
    if (M[0]) CHECK_OK(h, domino_matrix_convert(h, M[0], DOMINO_CSC, &M[1]));
    for (int fmt = 0; fmt < 2; fmt++)
        if (M[fmt]) CHECK_OK(h, domino_dmatrix_upload(h, M[fmt], &dM[fmt]));
    for (int fmt = 0; dM[0] && dM[1] && fmt < 2; fmt++) {
        solve_case c = {fmt ? "dag n=20000 levels=100 csc" : "dag n=20000 levels=100 csr", M[fmt],
                        dM[fmt], DOMINO_LOWER, DOMINO_NON_UNIT, DOMINO_OP_N, 1, 0, NULL};
        case_data d;
        if (!case_data_new(h, &c, &d)) continue;
        for (int e = 0; e < DOMINO_ENGINE_COUNT; e++) {
            domino_trsv_options opt;
            domino_trsv_options_init(&opt);
            opt.engine = trsv_test_engine(e);
            if (opt.engine == DOMINO_ENGINE_STENCIL) continue; /* a DAG is no stencil */
            opt.max_wait_ms = 2000;
            check_engine(h, &c, &d, &opt, NULL);
            opt.max_wait_ms = 0;
            size_t bytes = 0;
            void *buffer = NULL;
            domino_status s = domino_trsv_buffer_size(h, c.op, c.fill, c.diag, c.dT, 1, &opt, &bytes);
            if (!s) s = domino_gpu_malloc(h, bytes, &buffer);
            report(s == DOMINO_SUCCESS, c.matrix, "engine %s: buffer size / malloc: %s (%s)",
                   domino_engine_name(opt.engine), domino_status_name(s), domino_last_error(h));
            if (!s) check_engine(h, &c, &d, &opt, buffer); /* caller's workspace */
            domino_gpu_free(buffer);
        }
        case_data_free(&d);
    }
    for (int fmt = 0; fmt < 2; fmt++) domino_dmatrix_free(dM[fmt]), domino_matrix_free(M[fmt]);
}

/* ------------------------------------------------------------ misuse */

static void test_misuse(domino_handle h)
{
    domino_matrix A = NULL, R = NULL, A_small = NULL;
    domino_dmatrix dA = NULL, dR = NULL;
    domino_trsv_plan plan = NULL;
    domino_trsv_options opt;
    domino_trsv_options_init(&opt);
    void *dB = NULL;
    size_t bytes = 0;
    const domino_op N = DOMINO_OP_N;
    const domino_fill L = DOMINO_LOWER;
    const domino_diag U = DOMINO_NON_UNIT;
    CHECK_OK(h, domino_gen_dag(h, 100, 4, 10, 0, 3, DOMINO_FLOAT64, &A));
    CHECK_OK(h, domino_gen_dag(h, 90, 4, 10, 0, 3, DOMINO_FLOAT64, &A_small));
    CHECK_OK(h, domino_matrix_new(h, DOMINO_CSR, DOMINO_FLOAT64, 5, 7, 0, &R));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_dmatrix_upload(h, NULL, &dA));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_dmatrix_upload(h, A, NULL));
    CHECK_STATUS(NULL, DOMINO_NULL_POINTER, domino_dmatrix_upload(NULL, A, &dA));
    CHECK(dA == NULL);
    CHECK_OK(h, domino_dmatrix_upload(h, A, &dA));
    CHECK_OK(h, domino_dmatrix_upload(h, R, &dR));
    CHECK_OK(h, domino_gpu_malloc(h, 2 * 105 * sizeof(double), &dB));
    if (!dA || !dR || !dB) goto cleanup;
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_trsv_buffer_size(h, N, L, U, dA, 1, &opt, NULL));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_trsv_buffer_size(h, N, L, U, NULL, 1, &opt, &bytes));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_trsv_analysis(h, N, L, U, NULL, 1, &opt, NULL, &plan));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_trsv_analysis(h, N, L, U, dA, 1, &opt, NULL, NULL));
    CHECK_STATUS(h, DOMINO_DIMENSION_MISMATCH, domino_trsv_analysis(h, N, L, U, dR, 1, &opt, NULL, &plan));
    CHECK_STATUS(h, DOMINO_DIMENSION_MISMATCH, domino_trsv_buffer_size(h, N, L, U, dR, 1, &opt, &bytes));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_trsv_analysis(h, N, L, U, dA, 0, &opt, NULL, &plan));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_trsv_analysis(h, N, L, U, dA, -1, &opt, NULL, &plan));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_trsv_buffer_size(h, N, L, U, dA, 0, &opt, &bytes));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE,
                 domino_trsv_analysis(h, (domino_op)7, L, U, dA, 1, &opt, NULL, &plan));
    opt.engine = (domino_engine)99;
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_trsv_analysis(h, N, L, U, dA, 1, &opt, NULL, &plan));
    CHECK(plan == NULL);
    CHECK(domino_status_is_misuse(DOMINO_DIMENSION_MISMATCH));
    CHECK_STATUS(h, DOMINO_DIMENSION_MISMATCH, domino_dmatrix_update_values(h, dA, A_small));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_dmatrix_update_values(h, NULL, A));
    opt.engine = DOMINO_ENGINE_THREAD;
    CHECK_OK(h, domino_trsv_analysis(h, N, L, U, dA, 1, &opt, NULL, &plan));
    if (!plan) goto cleanup;
    double *b = (double *)dB, *x = b + 105;
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_trsv_solve(h, NULL, b, 100, x, 100, 0));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_trsv_solve(h, plan, NULL, 100, x, 100, 0));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_trsv_solve(h, plan, b, 100, NULL, 100, 0));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_trsv_solve(h, plan, b, 100, b, 100, 0));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_trsv_solve(h, plan, b, 100, b + 50, 100, 0));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_trsv_solve(h, plan, b, 99, x, 100, 0));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_trsv_solve(h, plan, b, 100, x, 99, 0));
    CHECK_OK(h, domino_trsv_solve(h, plan, b, 100, x, 100, 0));
    CHECK_OK(h, domino_gpu_synchronize(h));
cleanup:
    domino_trsv_plan_free(plan);
    domino_gpu_free(dB);
    domino_dmatrix_free(dA);
    domino_dmatrix_free(dR);
    domino_matrix_free(A);
    domino_matrix_free(A_small);
    domino_matrix_free(R);
}

/* ------------------------------------------------------------ main */

int main(void)
{
    int64_t live = domino_debug_alloc_live();
    domino_handle h = NULL;
    CHECK_OK(NULL, domino_create(&h));
    if (domino_gpu_count() == 0) return skip_without_gpu(h, "test_gpu_trsv_contract", SECTIONS);
    char name[256] = "";
    domino_gpu_describe(h, name, sizeof name, NULL);
    printf("test_gpu_trsv_contract: device %s\n", name);
    test_misuse(h);
    test_pivots(h);
    test_diagonal(h);
    test_wait_and_workspace(h);
    test_values_update(h);
    test_determinism(h);
    test_repeated_solves(h);
    test_trace(h);
    test_growing_chain(h);
    return finish_gpu_test(h, live, "test_gpu_trsv_contract");
}
