/* bench_precond.c: "domino bench --suite precond": our synchronization-free
 * ILU(0) / IC(0) against cuSPARSE csrilu02 / csric02 (time, same factors),
 * then CG + IC(0) and BiCGSTAB + ILU(0) time to solution against the same
 * loop with cuSPARSE's factors and SpSV solves. */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include "bench_precond.h"
#include "cmd_solve_krylov.h"
#include "domino.h"
#include "internal.h" /* domino_error */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FACTOR_RUNS 5   /* timed factorizations, median reported */
#define BENCH_RTOL 1e-8 /* Krylov tolerance */
#define RESIDUAL_SLACK 10.0 /* true residual must be <= RESIDUAL_SLACK * rtol */

/* one factorization + solver on one problem */
typedef struct precond_row {
    char problem[64];       /* name */
    const char *values;     /* how the values were made */
    int32_t n;              /* rows */
    int64_t nnz;            /* entries of A */
    const char *kind;       /* "ic0" or "ilu0" */
    const char *method;     /* "cg" or "bicgstab" */
    double fact_ms[2];      /* median factorization, ours / cuSPARSE */
    double fact_diff;       /* max |ours - cuSPARSE| / max |cuSPARSE| */
    const char *fact_method; /* domino_factor_plan_method of ours */
    int iterations[2];      /* ours / baseline loop */
    double setup_ms[2];     /* analysis + factorization + trsv analysis */
    double parts_ms[2][3];  /* setup parts: factor analysis, factorization, trsv analyses */
    double solve_ms[2];     /* iterations */
    double residual[2];     /* true relative residual */
    int failed;             /* 1: error or not converged */
    char status[160];       /* "ok" or what went wrong */
} precond_row;

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* analysis, a warm-up, FACTOR_RUNS timed computes (median ms); keeps the plan */
static domino_status time_factor(domino_handle h, domino_dmatrix dA, domino_factor_kind kind,
                                 int use_cusparse, double *median_ms, domino_factor_plan *plan)
{
    domino_factor_options opt;
    domino_factor_options_init(&opt);
    opt.use_cusparse = use_cusparse;
    double t[FACTOR_RUNS];
    domino_status s = domino_factor_analysis(h, kind, dA, &opt, plan);
    if (!s) s = domino_factor_compute(h, *plan, NULL, NULL);
    for (int r = 0; r < FACTOR_RUNS && !s; r++) {
        s = domino_factor_compute(h, *plan, NULL, NULL);
        t[r] = 1e3 * domino_factor_plan_compute_seconds(*plan);
    }
    if (s) return s;
    qsort(t, FACTOR_RUNS, sizeof(double), compare_double);
    *median_ms = t[FACTOR_RUNS / 2];
    return DOMINO_SUCCESS;
}

/* max |a - b| / max |b| of the two plans' factor values (host copies) */
static domino_status factor_difference(domino_handle h, domino_factor_plan a, domino_factor_plan b,
                                       double *diff)
{
    domino_dmatrix fa = NULL, fb = NULL;
    domino_matrix ma = NULL, mb = NULL;
    domino_matrix_view va, vb;
    domino_status s = domino_factor_get(h, a, 0, &fa);
    if (!s) s = domino_factor_get(h, b, 0, &fb);
    if (!s) s = domino_dmatrix_download(h, fa, &ma);
    if (!s) s = domino_dmatrix_download(h, fb, &mb);
    if (!s) s = domino_matrix_get_view(h, ma, &va);
    if (!s) s = domino_matrix_get_view(h, mb, &vb);
    if (!s && va.nnz != vb.nnz) s = domino_error(h, DOMINO_BAD_INPUT, "factor patterns differ");
    if (!s) {
        const double *x = va.val, *y = vb.val;
        double worst = 0.0, scale = 0.0;
        for (int64_t k = 0; k < va.nnz; k++) {
            if (fabs(y[k]) > scale) scale = fabs(y[k]);
            if (!(fabs(x[k] - y[k]) <= worst)) worst = fabs(x[k] - y[k]);
        }
        *diff = worst / (scale > 0 ? scale : 1.0);
    }
    domino_matrix_free(ma);
    domino_matrix_free(mb);
    return s;
}

/* the Krylov solve from x = 0 twice (the first warms up), the second kept */
static domino_status time_solve(domino_handle h, domino_dmatrix dA, const double *b, double *x,
                                int32_t n, const precond_row *row, int baseline,
                                domino_krylov_result *res, domino_gpu_krylov_times *tm)
{
    domino_gpu_krylov_options opt;
    domino_gpu_krylov_options_init(&opt);
    opt.krylov.precond = strcmp(row->kind, "ic0") == 0 ? DOMINO_PRECOND_IC0 : DOMINO_PRECOND_ILU0;
    opt.krylov.rtol = BENCH_RTOL;
    opt.krylov.maxit = 5000;
    opt.baseline_cusparse = baseline;
    const char *det = getenv("DOMINO_PRECOND_DETERMINISTIC"); /* experiments */
    opt.deterministic = det && atoi(det) != 0;
    const char *engine = getenv("DOMINO_PRECOND_ENGINE"); /* experiments */
    if (engine && domino_engine_parse(engine, &opt.engine)) opt.engine = DOMINO_ENGINE_AUTO;
    domino_status s = DOMINO_SUCCESS;
    for (int run = 0; run < 2 && !s; run++) {
        memset(x, 0, (size_t)n * sizeof(double));
        if (run) domino_krylov_result_free(res);
        if (strcmp(row->method, "cg") == 0) s = domino_gpu_cg(h, dA, b, x, &opt, res, tm);
        else s = domino_gpu_bicgstab(h, dA, b, x, &opt, res, tm);
    }
    return s;
}

/* factor both ways, compare, solve both ways, check the true residuals */
static void run_row(domino_handle h, domino_dmatrix dA, const double *b, double *x, precond_row *row)
{
    domino_factor_plan plans[2] = {NULL, NULL};
    domino_factor_kind kind = strcmp(row->kind, "ic0") == 0 ? DOMINO_FACTOR_IC0 : DOMINO_FACTOR_ILU0;
    domino_status s = DOMINO_SUCCESS;
    for (int w = 0; w < 2 && !s; w++)
        s = time_factor(h, dA, kind, w, &row->fact_ms[w], &plans[w]);
    if (!s) s = factor_difference(h, plans[0], plans[1], &row->fact_diff);
    row->fact_method = domino_factor_plan_method(plans[0]);
    domino_factor_plan_free(plans[0]);
    domino_factor_plan_free(plans[1]);
    for (int w = 0; w < 2 && !s; w++) {
        domino_krylov_result res;
        domino_gpu_krylov_times tm;
        memset(&tm, 0, sizeof tm);
        s = time_solve(h, dA, b, x, row->n, row, w, &res, &tm);
        if (s) break;
        row->parts_ms[w][0] = 1e3 * tm.factor_analysis_seconds;
        row->parts_ms[w][1] = 1e3 * tm.factor_seconds;
        row->parts_ms[w][2] = 1e3 * tm.trsv_analysis_seconds;
        row->iterations[w] = res.iterations;
        row->setup_ms[w] = 1e3 * res.setup_seconds;
        row->solve_ms[w] = 1e3 * res.solve_seconds;
        row->residual[w] = res.relative_residual;
        if (!res.converged || !(res.relative_residual <= RESIDUAL_SLACK * BENCH_RTOL)) {
            row->failed = 1;
            snprintf(row->status, sizeof row->status, "FAILED: %s %s, true residual %.2e",
                     w ? "cusparse loop" : "ours", res.converged ? "converged" : "did not converge",
                     res.relative_residual);
        }
        domino_krylov_result_free(&res);
    }
    if (s) {
        row->failed = 1;
        snprintf(row->status, sizeof row->status, "ERROR: %s", domino_last_error(h));
    } else if (!row->failed) {
        snprintf(row->status, sizeof row->status, "ok");
    }
}

/* ------------------------------------------------------------ problems */

/* 1 unless DOMINO_PRECOND_ONLY (experiments: comma-separated substrings)
 * leaves the problem out */
static int wanted(const char *name)
{
    const char *only = getenv("DOMINO_PRECOND_ONLY");
    if (!only || !*only) return 1;
    char list[256];
    snprintf(list, sizeof list, "%s", only);
    for (char *save = NULL, *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save))
        if (strstr(name, t)) return 1;
    return 0;
}

/* A of problem `which`: generated stencils first, then the shared files;
 * an empty name when past the end, a NULL *A when left out.  *values says
 * how the values were made. */
static domino_status make_problem(domino_handle h, int quick, const char *dir, int which,
                                  char *name, size_t name_len, const char **values, domino_matrix *A)
{
    static const int full_sizes[] = {64, 128, 192}, quick_sizes[] = {16, 24};
    static const char *full_files[] = {"bcsstk13.mtx", "bcsstk33.mtx", "crack.mtx", "whitaker3.mtx",
                                       "pushpull.mtx", "copter2.mtx", "luxembourg.mtx"};
    static const char *quick_files[] = {"bcsstk13.mtx", "crack.mtx"};
    const int *sizes = quick ? quick_sizes : full_sizes;
    int nsizes = quick ? 2 : 3, nfiles = quick ? 2 : 7;
    const char **files = quick ? quick_files : full_files;
    *A = NULL;
    name[0] = '\0';
    if (which < 2 * nsizes) {
        domino_stencil st = which < nsizes ? DOMINO_D3N7 : DOMINO_D3N27;
        int g = sizes[which % nsizes];
        snprintf(name, name_len, "%s_%d^3", domino_stencil_name(st), g);
        if (!wanted(name)) return DOMINO_SUCCESS;
        *values = "stencil (SPD, diagonally dominant)";
        return domino_gen_stencil(h, st, g, g, g, DOMINO_PART_FULL, DOMINO_FLOAT64, A);
    }
    which -= 2 * nsizes;
    if (which >= nfiles) return DOMINO_SUCCESS;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, files[which]);
    snprintf(name, name_len, "%s", files[which]);
    if (!wanted(name)) return DOMINO_SUCCESS;
    domino_matrix read = NULL;
    domino_matrix_view v;
    domino_status s = domino_mm_read(h, path, DOMINO_FLOAT64, 0, &read);
    if (!s) s = domino_matrix_get_view(h, read, &v);
    if (s) {
        domino_matrix_free(read);
        return s;
    }
    if (v.is_pattern) {
        *values = "pattern: graph Laplacian + 0.01 I";
        s = domino_matrix_laplacian(h, read, KRYLOV_LAPLACIAN_SHIFT, A);
        domino_matrix_free(read);
        return s;
    }
    /* bcsstk13: IC(0) of A breaks down at row 95; A + 0.3 diag(A) is used */
    *values = "A + 0.3 diag(A) (Manteuffel shift)";
    double *val = v.val;
    for (int32_t i = 0; i < v.nrows; i++)
        for (int64_t k = v.ptr[i]; k < v.ptr[i + 1]; k++)
            if (v.ind[k] == i) val[k] *= 1.3;
    *A = read;
    return DOMINO_SUCCESS;
}

/* ------------------------------------------------------------ output */

static void print_row(const precond_row *r)
{
    printf("%-16s %9d %10lld %-4s %9.3f %9.3f %6.2fx %8.1e  %-8s %5d %5d %10.3f %10.3f %6.2fx  %s\n",
           r->problem, r->n, (long long)r->nnz, r->kind, r->fact_ms[0], r->fact_ms[1],
           r->fact_ms[0] > 0 ? r->fact_ms[1] / r->fact_ms[0] : 0.0, r->fact_diff, r->method,
           r->iterations[0], r->iterations[1], r->setup_ms[0] + r->solve_ms[0],
           r->setup_ms[1] + r->solve_ms[1],
           r->setup_ms[0] + r->solve_ms[0] > 0
               ? (r->setup_ms[1] + r->solve_ms[1]) / (r->setup_ms[0] + r->solve_ms[0])
               : 0.0,
           r->status);
}

static int write_csv(const char *path, const precond_row *rows, int count)
{
    FILE *f = fopen(path, "w");
    if (!f) return 1;
    fprintf(f, "problem,values,n,nnz,factor,factor_ms,cusparse_factor_ms,factor_speedup,factor_max_rel_diff,"
               "method,iterations,cusparse_iterations,setup_ms,solve_ms,cusparse_setup_ms,"
               "cusparse_solve_ms,time_to_solution_ms,cusparse_time_to_solution_ms,"
               "ms_per_iteration,cusparse_ms_per_iteration,residual,cusparse_residual,"
               "factor_analysis_ms,setup_factor_ms,trsv_analysis_ms,cusparse_factor_analysis_ms,"
               "cusparse_setup_factor_ms,cusparse_trsv_analysis_ms,factor_method,status\n");
    for (int i = 0; i < count; i++) {
        const precond_row *r = &rows[i];
        double t0 = r->setup_ms[0] + r->solve_ms[0], t1 = r->setup_ms[1] + r->solve_ms[1];
        fprintf(f, "%s,\"%s\",%d,%lld,%s,%.6f,%.6f,%.4f,%.3e,%s,%d,%d,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,"
                   "%.6f,%.6f,%.3e,%.3e,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%s,\"%s\"\n",
                r->problem, r->values, r->n, (long long)r->nnz, r->kind, r->fact_ms[0], r->fact_ms[1],
                r->fact_ms[0] > 0 ? r->fact_ms[1] / r->fact_ms[0] : 0.0, r->fact_diff, r->method,
                r->iterations[0], r->iterations[1], r->setup_ms[0], r->solve_ms[0], r->setup_ms[1],
                r->solve_ms[1], t0, t1, r->iterations[0] ? r->solve_ms[0] / r->iterations[0] : 0.0,
                r->iterations[1] ? r->solve_ms[1] / r->iterations[1] : 0.0, r->residual[0],
                r->residual[1], r->parts_ms[0][0], r->parts_ms[0][1], r->parts_ms[0][2],
                r->parts_ms[1][0], r->parts_ms[1][1], r->parts_ms[1][2],
                r->fact_method ? r->fact_method : "none", r->status);
    }
    return fclose(f) != 0;
}

static int write_json(const char *path, const char *device, const precond_row *rows, int count)
{
    FILE *f = fopen(path, "w");
    if (!f) return 1;
    fprintf(f, "{\n  \"suite\": \"precond\",\n  \"device\": \"%s\",\n  \"rtol\": %g,\n  \"rows\": [\n",
            device, BENCH_RTOL);
    for (int i = 0; i < count; i++) {
        const precond_row *r = &rows[i];
        fprintf(f, "    {\"problem\": \"%s\", \"values\": \"%s\", \"n\": %d, \"nnz\": %lld, "
                   "\"factor\": \"%s\", \"factor_method\": \"%s\", \"factor_ms\": %.6f, "
                   "\"cusparse_factor_ms\": %.6f, "
                   "\"factor_max_rel_diff\": %.3e, \"method\": \"%s\", \"iterations\": %d, "
                   "\"cusparse_iterations\": %d, \"setup_ms\": %.6f, \"solve_ms\": %.6f, "
                   "\"cusparse_setup_ms\": %.6f, \"cusparse_solve_ms\": %.6f, \"residual\": %.3e, "
                   "\"cusparse_residual\": %.3e, \"setup_parts_ms\": [%.6f, %.6f, %.6f], "
                   "\"cusparse_setup_parts_ms\": [%.6f, %.6f, %.6f], \"failed\": %s, \"status\": \"%s\"}%s\n",
                r->problem, r->values, r->n, (long long)r->nnz, r->kind,
                r->fact_method ? r->fact_method : "none", r->fact_ms[0], r->fact_ms[1], r->fact_diff, r->method, r->iterations[0], r->iterations[1],
                r->setup_ms[0], r->solve_ms[0], r->setup_ms[1], r->solve_ms[1], r->residual[0],
                r->residual[1], r->parts_ms[0][0], r->parts_ms[0][1], r->parts_ms[0][2],
                r->parts_ms[1][0], r->parts_ms[1][1], r->parts_ms[1][2],
                r->failed ? "true" : "false", r->status, i + 1 < count ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
    return fclose(f) != 0;
}

/* ------------------------------------------------------------ the suite */

/* both rows (CG + IC0, BiCGSTAB + ILU0) of one problem; b = A * ones */
static void run_problem(domino_handle h, domino_matrix A, const char *name, const char *values,
                        precond_row *rows)
{
    domino_matrix_view v;
    domino_dmatrix dA = NULL;
    double *b = NULL, *x = NULL, *ones = NULL;
    domino_status s = domino_matrix_get_view(h, A, &v);
    if (!s) {
        b = malloc(sizeof(double) * ((size_t)v.nrows + 1));
        x = malloc(sizeof(double) * ((size_t)v.nrows + 1));
        ones = malloc(sizeof(double) * ((size_t)v.nrows + 1));
        if (!b || !x || !ones) s = domino_error(h, DOMINO_OUT_OF_MEMORY, "bench: out of memory");
    }
    for (int32_t i = 0; !s && i < v.nrows; i++)
        ones[i] = 1.0;
    if (!s) s = domino_ref_spmv(h, DOMINO_OP_N, 1.0, A, ones, 0.0, b);
    /* experiments: DOMINO_PRECOND_PERTURB=k moves every 7th b_i by k ulps
     * (how far rounding alone moves the iteration counts) */
    const char *perturb = getenv("DOMINO_PRECOND_PERTURB");
    for (int32_t i = 0; !s && perturb && i < v.nrows; i += 7)
        for (int k = 0; k < atoi(perturb); k++)
            b[i] = nextafter(b[i], INFINITY);
    if (!s) s = domino_dmatrix_upload(h, A, &dA);
    for (int k = 0; k < 2; k++) {
        precond_row *r = &rows[k];
        memset(r, 0, sizeof(*r));
        snprintf(r->problem, sizeof r->problem, "%s", name);
        r->values = values;
        r->n = v.nrows;
        r->nnz = v.nnz;
        r->kind = k ? "ilu0" : "ic0";
        r->method = k ? "bicgstab" : "cg";
        if (s) {
            r->failed = 1;
            snprintf(r->status, sizeof r->status, "ERROR: %s", domino_last_error(h));
        } else {
            run_row(h, dA, b, x, r);
        }
        print_row(r);
        fflush(stdout);
    }
    domino_dmatrix_free(dA);
    free(b), free(x), free(ones);
}

int bench_precond_run(int quick, const char *matrices_dir, const char *csv_path,
                      const char *json_path)
{
    if (domino_gpu_count() == 0) {
        fprintf(stderr, "domino bench --suite precond: no CUDA device (or a build without CUDA)\n");
        return 1;
    }
    domino_handle h = NULL;
    if (domino_create(&h)) return 1;
    char device[256] = "";
    domino_gpu_describe(h, device, sizeof device, NULL);
    printf("precond suite on %s: double, rtol %.0e, factorization median of %d; time to solution = "
           "setup (analysis + factorization + trsv analysis) + iterations, b = A * ones, x0 = 0\n",
           device, BENCH_RTOL, FACTOR_RUNS);
    printf("%-16s %9s %10s %-4s %9s %9s %7s %8s  %-8s %5s %5s %10s %10s %7s  %s\n", "problem", "n",
           "nnz", "fact", "ours_ms", "cusp_ms", "speedup", "diff", "method", "it", "it_cu",
           "tts_ms", "cu_tts_ms", "speedup", "status");
    precond_row *rows = NULL;
    int count = 0, failed = 0;
    for (int which = 0;; which++) {
        char name[64];
        const char *values = "";
        domino_matrix A = NULL;
        domino_status s = make_problem(h, quick, matrices_dir, which, name, sizeof name, &values, &A);
        if (!s && !name[0]) break;
        if (!s && !A) continue;
        if (s) {
            printf("%-16s skipped: %s\n", name, domino_last_error(h));
            continue;
        }
        precond_row *grown = realloc(rows, sizeof(precond_row) * (size_t)(count + 2));
        if (!grown) {
            domino_matrix_free(A);
            failed = 1;
            break;
        }
        rows = grown;
        run_problem(h, A, name, values, rows + count);
        failed |= rows[count].failed | rows[count + 1].failed;
        count += 2;
        domino_matrix_free(A);
    }
    printf("values: generated stencils as generated; pattern files as graph Laplacian + 0.01 I; "
           "bcsstk13 as A + 0.3 diag(A) (IC(0) of A breaks down at row 95)\n");
    printf("setup (ms): factor analysis + factorization + trsv analyses, ours | cuSPARSE loop\n");
    for (int i = 0; i < count; i++)
        printf("%-16s %-4s %8.3f %8.3f %8.3f | %8.3f %8.3f %8.3f\n", rows[i].problem, rows[i].kind,
               rows[i].parts_ms[0][0], rows[i].parts_ms[0][1], rows[i].parts_ms[0][2],
               rows[i].parts_ms[1][0], rows[i].parts_ms[1][1], rows[i].parts_ms[1][2]);
    if (csv_path && write_csv(csv_path, rows, count)) {
        fprintf(stderr, "domino bench: cannot write %s\n", csv_path);
        failed = 1;
    }
    if (json_path && write_json(json_path, device, rows, count)) {
        fprintf(stderr, "domino bench: cannot write %s\n", json_path);
        failed = 1;
    }
    free(rows);
    domino_destroy(h);
    return failed ? 1 : 0;
}

