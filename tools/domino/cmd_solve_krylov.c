/* cmd_solve_krylov.c: "domino solve FILE --krylov cg|bicgstab [--gpu]":
 * preconditioned Krylov solve of A x = b with the whole matrix on the CPU
 * reference or on the GPU */
#include "cmd_solve_krylov.h"
#include "cli_util.h"
#include "domino.h"
#include "internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* what the Krylov solve found */
typedef struct krylov_outcome {
    int32_t n;                  /* rows */
    int64_t nnz;                /* entries of A as used (expanded) */
    int is_pattern;             /* values were assigned (graph Laplacian) */
    domino_krylov_result res;   /* iterations, convergence, history, times */
    double residual;            /* ||b - A x|| / ||b||, recomputed here */
    domino_gpu_krylov_times gpu_times; /* GPU: where the setup went */
} krylov_outcome;

/* ||v||_2 */
static double norm2(int32_t n, const double *v)
{
    double sum = 0.0;
    for (int32_t i = 0; i < n; i++)
        sum += v[i] * v[i];
    return sqrt(sum);
}

/* L = graph Laplacian of the pattern of square CSR A plus 0.01 I:
 * off-diagonals -1, diagonal = (number of off-diagonals of the row) + 0.01 */
/* the whole matrix of the file in double, pattern files turned into a Laplacian */
static domino_status load_matrix(domino_handle h, const krylov_request *rq, krylov_outcome *out,
                                 domino_matrix *A)
{
    domino_matrix read = NULL;
    domino_matrix_view v;
    *A = NULL;
    domino_status s = domino_mm_read(h, rq->path, DOMINO_FLOAT64, 0, &read);
    if (s || (s = domino_matrix_get_view(h, read, &v))) goto cleanup;
    if (v.nrows != v.ncols) {
        s = domino_error(h, DOMINO_DIMENSION_MISMATCH, "%s is %d x %d, not square",
                         rq->path, v.nrows, v.ncols);
        goto cleanup;
    }
    out->is_pattern = v.is_pattern;
    if (v.is_pattern) {
        s = domino_matrix_laplacian(h, read, KRYLOV_LAPLACIAN_SHIFT, A);
    } else {
        *A = read;
        read = NULL;
    }
    if (s || (s = domino_matrix_get_view(h, *A, &v))) goto cleanup;
    out->n = v.nrows;
    out->nnz = v.nnz;
cleanup:
    domino_matrix_free(read);
    return s;
}

/* b = column 0 of the n x 1 coordinate Matrix Market file path (missing entries 0) */
static domino_status rhs_from_file(domino_handle h, const char *path, int32_t n, double *b)
{
    domino_matrix B = NULL;
    domino_matrix_view v;
    domino_status s = domino_mm_read(h, path, DOMINO_FLOAT64, 0, &B);
    if (s || (s = domino_matrix_get_view(h, B, &v))) goto cleanup;
    if (v.nrows != n || v.ncols != 1) {
        s = domino_error(h, DOMINO_DIMENSION_MISMATCH,
                         "right-hand side file %s is %d x %d, the matrix needs %d x 1",
                         path, v.nrows, v.ncols, n);
        goto cleanup;
    }
    for (int32_t i = 0; i < n; i++) {
        b[i] = 0.0;
        for (int64_t e = v.ptr[i]; e < v.ptr[i + 1]; e++)
            if (v.ind[e] == 0) b[i] += cli_get(v.type, v.val, e);
    }
cleanup:
    domino_matrix_free(B);
    return s;
}

/* b as --rhs asks: ones, random (seeded, uniform in [-1,1]) or a file */
static domino_status make_rhs(domino_handle h, const char *rhs, int32_t n, double *b)
{
    if (strcmp(rhs, "ones") == 0) {
        for (int32_t i = 0; i < n; i++)
            b[i] = 1.0;
        return DOMINO_SUCCESS;
    }
    if (strcmp(rhs, "random") == 0) {
        domino_rng rng;
        domino_rng_seed(&rng, KRYLOV_RHS_SEED);
        for (int32_t i = 0; i < n; i++)
            b[i] = 2.0 * domino_rng_uniform(&rng) - 1.0;
        return DOMINO_SUCCESS;
    }
    return rhs_from_file(h, rhs, n, b);
}

/* *relative = ||b - A x|| / ||b|| (||b - A x|| when b = 0); r is n doubles of work */
static domino_status true_residual(domino_handle h, domino_matrix A, int32_t n, const double *b,
                                   const double *x, double *r, double *relative)
{
    memcpy(r, b, (size_t)n * sizeof(double));
    domino_status s = domino_ref_spmv(h, DOMINO_OP_N, -1.0, A, x, 1.0, r);
    if (s) return s;
    double norm_b = norm2(n, b);
    *relative = norm2(n, r) / (norm_b > 0.0 ? norm_b : 1.0);
    return DOMINO_SUCCESS;
}

/* the GPU solve: A uploaded, domino_gpu_cg / bicgstab from x */
static domino_status run_gpu(domino_handle h, const krylov_request *rq, domino_matrix A,
                             const double *b, double *x, krylov_outcome *out)
{
    domino_dmatrix dA = NULL;
    domino_gpu_krylov_options opt;
    domino_gpu_krylov_options_init(&opt);
    opt.krylov = rq->options;
    opt.baseline_cusparse = rq->gpu_baseline;
    domino_status s = domino_dmatrix_upload(h, A, &dA);
    if (!s && strcmp(rq->method, "cg") == 0)
        s = domino_gpu_cg(h, dA, b, x, &opt, &out->res, &out->gpu_times);
    else if (!s)
        s = domino_gpu_bicgstab(h, dA, b, x, &opt, &out->res, &out->gpu_times);
    domino_dmatrix_free(dA);
    return s;
}

/* "cpu", "gpu" or "gpu-cusparse" */
static const char *engine_label(const krylov_request *rq)
{
    return !rq->gpu ? "cpu" : rq->gpu_baseline ? "gpu-cusparse" : "gpu";
}

/* load, build b, iterate from x = 0, check; fills out */
static domino_status run_krylov(domino_handle h, const krylov_request *rq, krylov_outcome *out)
{
    domino_matrix A = NULL;
    double *b = NULL, *x = NULL, *r = NULL;
    domino_status s = load_matrix(h, rq, out, &A);
    if (s) goto cleanup;
    if (out->is_pattern)
        fprintf(stderr, "domino solve: note: %s is a pattern file; values assigned: graph "
                        "Laplacian plus 0.01 I (off-diagonals -1, diagonal = degree + 0.01; "
                        "SPD for a symmetric pattern)\n", rq->path);
    size_t bytes = ((size_t)out->n + 1) * sizeof(double);
    b = domino_malloc(bytes);
    x = domino_calloc((size_t)out->n + 1, sizeof(double));
    r = domino_malloc(bytes);
    if (!b || !x || !r) {
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, "out of memory for vectors of %d", out->n);
        goto cleanup;
    }
    if ((s = make_rhs(h, rq->rhs, out->n, b))) goto cleanup;
    if (rq->gpu)
        s = run_gpu(h, rq, A, b, x, out);
    else if (strcmp(rq->method, "cg") == 0)
        s = domino_ref_cg(h, A, b, x, &rq->options, &out->res);
    else
        s = domino_ref_bicgstab(h, A, b, x, &rq->options, &out->res);
    if (s) goto cleanup;
    s = true_residual(h, A, out->n, b, x, r, &out->residual);
cleanup:
    domino_matrix_free(A);
    domino_free(b);
    domino_free(x);
    domino_free(r);
    return s;
}

static void print_text(const krylov_request *rq, const krylov_outcome *out)
{
    const domino_krylov_result *res = &out->res;
    printf("file:           %s\n", rq->path);
    printf("system:         n %d, nnz %lld, double%s\n", out->n, (long long)out->nnz,
           out->is_pattern ? ", pattern (graph Laplacian + 0.01 I)" : "");
    printf("method:         %s, preconditioner %s\n", rq->method, rq->precond_name);
    printf("engine:         %s\n", engine_label(rq));
    printf("rhs:            %s\n", rq->rhs);
    printf("rtol:           %.3e, maxit %d\n", rq->options.rtol, rq->options.maxit);
    printf("iterations:     %d\n", res->iterations);
    printf("converged:      %s%s\n", res->converged ? "yes" : "no",
           res->breakdown ? " (breakdown)" : "");
    printf("residual:       %.3e (||b-Ax||/||b||)\n", out->residual);
    printf("setup:          %.3f ms (preconditioner)\n", res->setup_seconds * 1e3);
    if (rq->gpu) {
        const domino_gpu_krylov_times *t = &out->gpu_times;
        printf("  analysis:     %.3f ms (factor pattern %.3f, triangular solves %.3f)\n",
               (t->factor_analysis_seconds + t->trsv_analysis_seconds) * 1e3,
               t->factor_analysis_seconds * 1e3, t->trsv_analysis_seconds * 1e3);
        printf("  factorization: %.3f ms (%s)\n", t->factor_seconds * 1e3,
               t->factor_method ? t->factor_method : "none");
        printf("transfers:      %.3f ms (b, x to and from the device)\n", t->transfer_seconds * 1e3);
    }
    printf("iteration time: %.3f ms\n", res->solve_seconds * 1e3);
    printf("pivots replaced: %lld\n", (long long)res->pivots_replaced);
}

static void print_json(const krylov_request *rq, const krylov_outcome *out)
{
    const domino_krylov_result *res = &out->res;
    printf("{\n  \"file\": ");
    cli_json_string(stdout, rq->path);
    printf(",\n  \"mode\": \"krylov\",\n  \"method\": \"%s\",\n  \"precond\": \"%s\",\n",
           rq->method, rq->precond_name);
    printf("  \"engine\": \"%s\",\n  \"n\": %d,\n  \"nnz\": %lld,\n  \"pattern\": %s,\n",
           engine_label(rq), out->n, (long long)out->nnz, out->is_pattern ? "true" : "false");
    printf("  \"rhs\": ");
    cli_json_string(stdout, rq->rhs);
    printf(",\n  \"rtol\": ");
    cli_json_number(stdout, rq->options.rtol);
    printf(",\n  \"maxit\": %d,\n  \"pivot_shift\": ", rq->options.maxit);
    cli_json_number(stdout, rq->options.pivot_shift);
    printf(",\n  \"diag_shift\": ");
    cli_json_number(stdout, rq->options.diag_shift);
    printf(",\n  \"iterations\": %d,\n  \"converged\": %s,\n  \"breakdown\": %s,\n",
           res->iterations, res->converged ? "true" : "false", res->breakdown ? "true" : "false");
    printf("  \"relative_residual\": ");
    cli_json_number(stdout, out->residual);
    printf(",\n  \"setup_ms\": ");
    cli_json_number(stdout, res->setup_seconds * 1e3);
    printf(",\n  \"iterations_ms\": ");
    cli_json_number(stdout, res->solve_seconds * 1e3);
    if (rq->gpu) {
        const domino_gpu_krylov_times *t = &out->gpu_times;
        printf(",\n  \"analysis_ms\": ");
        cli_json_number(stdout, (t->factor_analysis_seconds + t->trsv_analysis_seconds) * 1e3);
        printf(",\n  \"factorization_ms\": ");
        cli_json_number(stdout, t->factor_seconds * 1e3);
        printf(",\n  \"factor_method\": \"%s\"", t->factor_method ? t->factor_method : "none");
        printf(",\n  \"transfer_ms\": ");
        cli_json_number(stdout, t->transfer_seconds * 1e3);
    }
    printf(",\n  \"pivots_replaced\": %lld,\n  \"history\": [", (long long)res->pivots_replaced);
    for (int i = 0; res->history && i <= res->iterations; i++) {
        printf(i ? ", " : "");
        cli_json_number(stdout, res->history[i]);
    }
    printf("]\n}\n");
}

int krylov_solve_run(const krylov_request *rq)
{
    krylov_outcome out;
    memset(&out, 0, sizeof(out));
    domino_handle h = NULL;
    if (domino_create(&h)) {
        fprintf(stderr, "domino solve: cannot create a handle\n");
        return 1;
    }
    domino_set_progress(h, 1);
    int rc;
    domino_status s = run_krylov(h, rq, &out);
    if (s) {
        rc = cli_fail(h, s, "solve");
    } else {
        if (rq->json)
            print_json(rq, &out);
        else
            print_text(rq, &out);
        rc = out.res.converged ? 0 : 1;
        if (!out.res.converged)
            fprintf(stderr, "domino solve: %s did not converge: %s after %d iterations "
                            "(relative residual %.3e, rtol %.3e)\n", rq->method,
                    out.res.breakdown ? "breakdown" : "iteration limit reached",
                    out.res.iterations, out.residual, rq->options.rtol);
    }
    domino_krylov_result_free(&out.res);
    domino_destroy(h);
    return rc;
}
