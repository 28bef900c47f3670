/* trsv_cases.h: the GPU triangular-solve test cases shared by the gpu tests
 * (test_gpu_trsv.c, test_gpu_trsv_lanes.c): a system, its reference
 * solution, and the checks of one engine's solve against it. */
#ifndef DOMINO_TRSV_CASES_H
#define DOMINO_TRSV_CASES_H

#include "check.h"
#include "test_values.h"
#include "domino.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What one solve is checked for (check_engine, check_solution); a request
 * an engine refuses by design (csc with nrhs > 1 or deterministic, cusparse
 * with nnz >= 2^31, stencil on a matrix that is none) is counted as skipped,
 * any other failure is a failure: X downloaded and compared with
 * domino_ref_trsv on the same host matrix: forward difference
 * max|x - x_ref| / max|x_ref| within FORWARD_EPS * eps for the strict cases
 * (well conditioned), else within max(FORWARD_EPS * eps, 2 ||S^-1||_inf
 * (||S x - b|| + ||S x_ref - b||) / max|x_ref|) with ||S^-1||_inf bounded
 * from diagonal dominance (Varah); the scaled residual of
 * domino_ref_trsv_residual <= RESIDUAL_EPS * eps; the padding rows of X
 * (ld = n + PAD) keep their poison bytes; B unchanged. */

#define FORWARD_EPS 1e3
#define RESIDUAL_EPS 100.0
#define PAD 5          /* ld = n + PAD */
#define POISON 0x5A    /* byte written to X before a solve */

static int check_skipped; /* requests refused by design */

/* engine e of DOMINO_ENGINE_COUNT, in the order the tests walk them */
static inline domino_engine trsv_test_engine(int e)
{
    static const domino_engine engines[DOMINO_ENGINE_COUNT] = {
        DOMINO_ENGINE_AUTO,  DOMINO_ENGINE_LEVELSET, DOMINO_ENGINE_WARP,       DOMINO_ENGINE_THREAD,
        DOMINO_ENGINE_CSC,   DOMINO_ENGINE_CUSPARSE, DOMINO_ENGINE_STENCIL,    DOMINO_ENGINE_BLOCK,
        DOMINO_ENGINE_LEVELBLOCK, DOMINO_ENGINE_STEPBLOCK};
    return engines[e];
}

/* one system to solve: op(T) X = B with T the fill triangle of the host T */
typedef struct solve_case {
    const char *matrix;     /* name for messages */
    domino_matrix T;        /* host matrix, CSR or CSC */
    domino_dmatrix dT;      /* its device copy */
    domino_fill fill;       /* triangle */
    domino_diag diag;       /* unit or not */
    domino_op op;           /* N or T */
    int32_t nrhs;           /* right-hand sides */
    int strict;             /* 1: forward difference <= FORWARD_EPS eps, no residual-based slack */
    const double *x_true;   /* NULL: random B; else every column of B is op(T) x_true */
} solve_case;

/* host and device blocks of one case, and what the reference gives */
typedef struct case_data {
    int32_t n;          /* order */
    int64_t ld;         /* leading dimension of B and X, n + PAD */
    domino_type type;   /* value type */
    size_t bytes;       /* bytes of a block, ld * nrhs values */
    void *B, *Xref, *X; /* host blocks */
    void *dB, *dX;      /* device blocks */
    double xref_scale;  /* max |Xref| */
    double res_ref;     /* max over columns of ||S xref - b||_inf */
    double inv_bound;   /* bound on ||S^-1||_inf (Varah), INFINITY if none */
} case_data;

/* ------------------------------------------------------------ small helpers */

/* count one check; on failure print "FAIL: <case>: <message>" */
static void report(int ok, const char *what, const char *fmt, ...)
{
    if (ok) {
        check_passed++;
        return;
    }
    check_failed++;
    va_list args;
    va_start(args, fmt);
    fprintf(stderr, "FAIL: %s: ", what);
    vfprintf(stderr, fmt, args);
    fprintf(stderr, "\n");
    va_end(args);
}

static int unsupported_by_design(domino_engine e, int32_t nrhs, const domino_trsv_options *opt,
                                 int64_t nnz)
{
    if (e == DOMINO_ENGINE_CSC && (nrhs != 1 || (opt && opt->deterministic))) return 1;
    if (e == DOMINO_ENGINE_STEPBLOCK && opt && opt->deterministic) return 1;
    if (e == DOMINO_ENGINE_STENCIL) return 1; /* only stencils, as a CSR of the system */
    return e == DOMINO_ENGINE_CUSPARSE && nnz >= INT32_MAX;
}

static void describe(char *buf, size_t len, const solve_case *c, const domino_trsv_options *opt)
{
    domino_matrix_view v;
    domino_matrix_get_view(NULL, c->T, &v);
    snprintf(buf, len, "%s engine=%s fill=%s diag=%s op=%s fmt=%s type=%s nrhs=%d det=%d wait=%d",
             c->matrix, domino_engine_name(opt->engine), c->fill == DOMINO_LOWER ? "lower" : "upper",
             c->diag == DOMINO_UNIT ? "unit" : "non-unit", c->op == DOMINO_OP_N ? "N" : "T",
             v.format == DOMINO_CSR ? "csr" : "csc", v.type == DOMINO_FLOAT64 ? "double" : "float",
             c->nrhs, opt->deterministic, opt->max_wait_ms);
}

/* (i, j) of entry k (of row/column p) in S = op(T); 0 if outside the triangle */
static int s_entry(const domino_matrix_view *v, domino_op op, domino_fill fill, int32_t p,
                   int64_t k, int32_t *i, int32_t *j)
{
    int32_t r = v->format == DOMINO_CSR ? p : v->ind[k];
    int32_t c = v->format == DOMINO_CSR ? v->ind[k] : p;
    if (fill == DOMINO_LOWER ? c > r : c < r) return 0;
    *i = op == DOMINO_OP_N ? r : c;
    *j = op == DOMINO_OP_N ? c : r;
    return 1;
}

static int32_t outer_count(const domino_matrix_view *v)
{
    return v->format == DOMINO_CSR ? v->nrows : v->ncols;
}

/* acc = S x in long double (unit: diagonal 1, stored diagonal ignored) */
static void apply_s(const solve_case *c, const domino_matrix_view *v, const void *x,
                    domino_type xt, long double *acc)
{
    int32_t n = v->nrows, i, j;
    for (int32_t r = 0; r < n; r++)
        acc[r] = c->diag == DOMINO_UNIT ? (long double)get_value(x, xt, r) : 0.0L;
    for (int32_t p = 0; p < outer_count(v); p++)
        for (int64_t k = v->ptr[p]; k < v->ptr[p + 1]; k++)
            if (s_entry(v, c->op, c->fill, p, k, &i, &j) && !(i == j && c->diag == DOMINO_UNIT))
                acc[i] += (long double)get_value(v->val, v->type, k) * get_value(x, xt, j);
}

/* max over columns of ||S x - b||_inf for blocks of the case's type */
static double abs_residual(const solve_case *c, const case_data *d, const void *X)
{
    domino_matrix_view v;
    domino_matrix_get_view(NULL, c->T, &v);
    long double *acc = malloc((size_t)d->n * sizeof(long double));
    double worst = 0;
    size_t vs = domino_type_size(d->type);
    for (int32_t col = 0; acc && col < c->nrhs; col++) {
        const char *x = (const char *)X + (size_t)col * d->ld * vs;
        const char *b = (const char *)d->B + (size_t)col * d->ld * vs;
        apply_s(c, &v, x, d->type, acc);
        for (int32_t i = 0; i < d->n; i++) {
            double r = fabs((double)(acc[i] - get_value(b, d->type, i)));
            worst = r > worst || isnan(r) ? r : worst;
        }
    }
    free(acc);
    return acc ? worst : INFINITY;
}

/* bound on ||S^-1||_inf from diagonal dominance: 1 / min(|s_ii| - sum_j |s_ij|)
 * by rows, or n / (the same by columns) through ||.||_inf <= n ||.||_1 */
static double inverse_bound(const solve_case *c)
{
    domino_matrix_view v;
    domino_matrix_get_view(NULL, c->T, &v);
    int32_t n = v.nrows, i, j;
    double *diag = calloc((size_t)n + 1, sizeof(double)), *row = calloc((size_t)n + 1, sizeof(double));
    double *col = calloc((size_t)n + 1, sizeof(double)), bound = INFINITY;
    if (!diag || !row || !col) goto cleanup;
    for (int32_t p = 0; p < outer_count(&v); p++)
        for (int64_t k = v.ptr[p]; k < v.ptr[p + 1]; k++) {
            if (!s_entry(&v, c->op, c->fill, p, k, &i, &j)) continue;
            double a = fabs(get_value(v.val, v.type, k));
            if (i == j)
                diag[i] += a;
            else
                row[i] += a, col[j] += a;
        }
    double by_row = INFINITY, by_col = INFINITY;
    for (int32_t r = 0; r < n; r++) {
        double d = c->diag == DOMINO_UNIT ? 1.0 : diag[r];
        by_row = fmin(by_row, d - row[r]);
        by_col = fmin(by_col, d - col[r]);
    }
    if (by_row > 0) bound = 1.0 / by_row;
    if (by_col > 0) bound = fmin(bound, n / by_col);
cleanup:
    free(diag), free(row), free(col);
    return bound;
}

/* ------------------------------------------------------------ one case */

static void case_data_free(case_data *d)
{
    free(d->B), free(d->Xref), free(d->X);
    domino_gpu_free(d->dB);
    domino_gpu_free(d->dX);
    memset(d, 0, sizeof(*d));
}

/* B (random, or op(T) x_true), the reference solution and device blocks */
static int case_data_new(domino_handle h, const solve_case *c, case_data *d)
{
    domino_matrix_view v;
    memset(d, 0, sizeof(*d));
    CHECK_OK(h, domino_matrix_get_view(h, c->T, &v));
    d->n = v.nrows;
    d->ld = (int64_t)v.nrows + PAD;
    d->type = v.type;
    size_t vs = domino_type_size(v.type);
    d->bytes = (size_t)d->ld * c->nrhs * vs;
    d->B = malloc(d->bytes), d->Xref = malloc(d->bytes), d->X = malloc(d->bytes);
    long double *acc = malloc(((size_t)d->n + 1) * sizeof(long double));
    int ok = d->B && d->Xref && d->X && acc;
    for (int32_t col = 0; ok && col < c->nrhs; col++) {
        char *b = (char *)d->B + (size_t)col * d->ld * vs;
        if (c->x_true) apply_s(c, &v, c->x_true, DOMINO_FLOAT64, acc);
        for (int64_t i = 0; i < d->ld; i++)
            set_value(b, d->type, i, c->x_true && i < d->n ? (double)acc[i] : 0.5 + rng_uniform());
    }
    free(acc);
    if (ok) memset(d->Xref, 0, d->bytes);
    if (ok) {
        domino_status s = domino_ref_trsv(h, c->op, c->fill, c->diag, c->T, c->nrhs, d->B, d->ld,
                                          d->Xref, d->ld);
        report(s == DOMINO_SUCCESS, c->matrix, "domino_ref_trsv returned %s (%s)",
               domino_status_name(s), domino_last_error(h));
        ok = s == DOMINO_SUCCESS;
    }
    for (int32_t col = 0; ok && col < c->nrhs; col++)
        for (int32_t i = 0; i < d->n; i++)
            d->xref_scale = fmax(d->xref_scale, fabs(get_value(d->Xref, d->type, col * d->ld + i)));
    if (ok) {
        d->res_ref = abs_residual(c, d, d->Xref);
        d->inv_bound = inverse_bound(c);
        domino_status s = domino_gpu_malloc(h, d->bytes, &d->dB);
        if (!s) s = domino_gpu_malloc(h, d->bytes, &d->dX);
        if (!s) s = domino_gpu_upload(h, d->dB, d->B, d->bytes);
        report(s == DOMINO_SUCCESS, c->matrix, "device blocks: %s (%s)", domino_status_name(s),
               domino_last_error(h));
        ok = s == DOMINO_SUCCESS;
    }
    if (!ok) case_data_free(d);
    return ok;
}

/* compare the solution in d->dX with the reference; what names the case */
static void check_solution(domino_handle h, const solve_case *c, case_data *d, const char *what)
{
    size_t vs = domino_type_size(d->type);
    domino_status s = domino_gpu_download(h, d->X, d->dX, d->bytes);
    report(s == DOMINO_SUCCESS, what, "download X: %s (%s)", domino_status_name(s), domino_last_error(h));
    if (s) return;
    double diff = 0, eps = domino_type_eps(d->type);
    int finite = 1, pad_ok = 1;
    for (int32_t col = 0; col < c->nrhs; col++) {
        for (int32_t i = 0; i < d->n; i++) {
            double x = get_value(d->X, d->type, col * d->ld + i);
            finite &= isfinite(x) != 0;
            diff = fmax(diff, fabs(x - get_value(d->Xref, d->type, col * d->ld + i)));
        }
        const unsigned char *pad = (const unsigned char *)d->X + ((size_t)col * d->ld + d->n) * vs;
        for (size_t k = 0; k < PAD * vs; k++) pad_ok &= pad[k] == POISON;
    }
    double scale = d->xref_scale > 0 ? d->xref_scale : 1.0;
    double tol = FORWARD_EPS * eps;
    if (!c->strict && isfinite(d->inv_bound))
        tol = fmax(tol, 2 * d->inv_bound * (abs_residual(c, d, d->X) + d->res_ref) / scale);
    report(finite && diff / scale <= tol, what, "forward difference %.3g (bound %.3g)%s",
           diff / scale, tol, finite ? "" : ", x has Inf or NaN");
    double r = -1;
    s = domino_ref_trsv_residual(h, c->op, c->fill, c->diag, c->T, c->nrhs, d->X, d->ld, d->B,
                                 d->ld, &r);
    report(s == DOMINO_SUCCESS && r >= 0 && r <= RESIDUAL_EPS * eps, what,
           "scaled residual %.3g (bound %.3g), %s", r, RESIDUAL_EPS * eps, domino_status_name(s));
    report(pad_ok, what, "padding rows of X were written");
    char *b_after = malloc(d->bytes);
    if (b_after && !domino_gpu_download(h, b_after, d->dB, d->bytes))
        report(memcmp(b_after, d->B, d->bytes) == 0, what, "B was changed by the solve");
    free(b_after);
}

/* poison X, solve with a new plan, check; a refusal by design is a skip;
 * the plan solves `solves` times, each answer checked (an AUTO plan times
 * its walks on its first solves) */
static void check_engine_solves(domino_handle h, const solve_case *c, case_data *d,
                                const domino_trsv_options *opt, void *buffer, int solves)
{
    char what[512];
    describe(what, sizeof what, c, opt);
    domino_matrix_view v;
    domino_matrix_get_view(NULL, c->T, &v);
    domino_trsv_plan plan = NULL;
    domino_status s = domino_trsv_analysis(h, c->op, c->fill, c->diag, c->dT, c->nrhs, opt,
                                           buffer, &plan);
    if (s == DOMINO_NOT_SUPPORTED && unsupported_by_design(opt->engine, c->nrhs, opt, v.nnz)) {
        check_skipped++;
        return;
    }
    report(s == DOMINO_SUCCESS && plan, what, "analysis returned %s (%s)", domino_status_name(s),
           domino_last_error(h));
    if (s || !plan) return;
    domino_engine ran = domino_trsv_plan_engine(plan);
    report(opt->engine == DOMINO_ENGINE_AUTO ? ran != DOMINO_ENGINE_AUTO : ran == opt->engine, what,
           "plan runs engine %s", domino_engine_name(ran));
    for (int k = 0; k < solves; k++) {
        memset(d->X, POISON, d->bytes);
        s = domino_gpu_upload(h, d->dX, d->X, d->bytes);
        if (!s) s = domino_trsv_solve(h, plan, d->dB, d->ld, d->dX, d->ld, c->nrhs == 1);
        if (!s) s = domino_gpu_synchronize(h);
        report(s == DOMINO_SUCCESS, what, "solve %d returned %s (%s)", k, domino_status_name(s),
               domino_last_error(h));
        if (s) break;
        check_solution(h, c, d, what);
    }
    domino_trsv_plan_free(plan);
}

/* check_engine_solves with one solve */
static void check_engine(domino_handle h, const solve_case *c, case_data *d,
                         const domino_trsv_options *opt, void *buffer)
{
    check_engine_solves(h, c, d, opt, buffer, 1);
}

/* set (set = 1) or unset each variable of an environment setting
 * "NAME=VALUE[,NAME=VALUE...]" ("" sets nothing); the includer defines
 * _POSIX_C_SOURCE for setenv */
static inline void apply_setting(const char *setting, int set)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", setting);
    for (char *item = strtok(buf, ","); item; item = strtok(NULL, ",")) {
        char *eq = strchr(item, '=');
        if (!eq) continue;
        *eq = 0;
        if (set) setenv(item, eq + 1, 1);
        else unsetenv(item);
    }
}

/* d's case solved by engine once under each of count environment settings
 * (read by the analysis), each undone after; waits bounded so that a wrong
 * wait fails instead of hanging */
static inline void check_engine_settings(domino_handle h, const solve_case *c, case_data *d,
                                         domino_engine engine, const char *const *settings,
                                         int count)
{
    domino_trsv_options opt;
    domino_trsv_options_init(&opt);
    opt.engine = engine;
    opt.max_wait_ms = 10000;
    for (int k = 0; k < count; k++) {
        apply_setting(settings[k], 1);
        check_engine(h, c, d, &opt, NULL);
        apply_setting(settings[k], 0);
    }
}

/* c solved by engine under each setting, with a case_data of its own */
static inline void check_case_settings(domino_handle h, const solve_case *c, domino_engine engine,
                                       const char *const *settings, int count)
{
    case_data d;
    if (!case_data_new(h, c, &d)) return;
    check_engine_settings(h, c, &d, engine, settings, count);
    case_data_free(&d);
}

/* main's answer without a CUDA device: its sections reported as skipped,
 * h destroyed, the summary's exit code */
static inline int skip_without_gpu(domino_handle h, const char *name, int sections)
{
    printf("%s: no CUDA device on this machine: %d skipped (every test section)\n", name, sections);
    domino_destroy(h);
    return check_summary(name);
}

/* a test's end: h destroyed, nothing left allocated since live, the skipped
 * cases counted, the summary as the exit status */
static inline int finish_gpu_test(domino_handle h, int64_t live, const char *name)
{
    domino_destroy(h);
    CHECK(domino_debug_alloc_live() == live);
    printf("%s: %d skipped\n", name, check_skipped);
    return check_summary(name);
}

/* ------------------------------------------------------------ generated systems */

/* T for fill and diag from the double CSR base M: a lower-only base gives its
 * upper triangle as its transpose; a full base serves both fills as is (the
 * solver must skip the other triangle).  Unit: each row's off-diagonals are
 * scaled so that those of the fill triangle sum to 0.9 in absolute value
 * (||T^-1||_inf <= 10) and the stored diagonal is set to 3, which a solver
 * must ignore. */
static domino_matrix make_variant(domino_handle h, domino_matrix M, int lower_only,
                                  domino_fill fill, domino_diag diag)
{
    domino_matrix T = NULL;
    domino_matrix_view v;
    if (lower_only && fill == DOMINO_UPPER)
        CHECK_OK(h, domino_matrix_transpose(h, M, &T));
    else
        CHECK_OK(h, domino_matrix_copy(h, M, &T));
    if (!T || diag != DOMINO_UNIT) return T;
    CHECK_OK(h, domino_matrix_get_view(h, T, &v));
    double *val = v.val;
    for (int32_t i = 0; i < v.nrows; i++) {
        double off = 0;
        for (int64_t k = v.ptr[i]; k < v.ptr[i + 1]; k++)
            if (fill == DOMINO_LOWER ? v.ind[k] < i : v.ind[k] > i) off += fabs(val[k]);
        double f = off > 0 ? 0.9 / off : 1.0;
        for (int64_t k = v.ptr[i]; k < v.ptr[i + 1]; k++) val[k] = v.ind[k] == i ? 3.0 : val[k] * f;
    }
    return T;
}

/* fn on every combination of one base matrix M (double CSR: its lower
 * triangle, or both triangles when full, the other one to be skipped):
 * fill x diag x format x type x op x nrhs (1 and 3) */
/* Td in format fmt (0 CSR, 1 CSC) and type (0 double, 1 float) on the host
 * (*T) and the GPU (*dT); both NULL on failure (reported) */
static inline void upload_variant(domino_handle h, domino_matrix Td, int fmt, int type,
                                  domino_matrix *T, domino_dmatrix *dT)
{
    domino_matrix F = NULL;
    *T = NULL;
    *dT = NULL;
    CHECK_OK(h, domino_matrix_convert(h, Td, fmt ? DOMINO_CSC : DOMINO_CSR, &F));
    if (F) CHECK_OK(h, domino_matrix_cast(h, F, (domino_type)type, T));
    if (*T) CHECK_OK(h, domino_dmatrix_upload(h, *T, dT));
    domino_matrix_free(F);
}

typedef void (*case_fn)(domino_handle h, const solve_case *c);
static inline void for_each_combination(domino_handle h, const char *name, domino_matrix M, int full, case_fn fn)
{
    for (int fill = 0; fill < 2; fill++)
        for (int diag = 0; diag < 2; diag++) {
            domino_matrix Td = make_variant(h, M, !full, (domino_fill)fill, (domino_diag)diag);
            for (int fmt = 0; Td && fmt < 2; fmt++)
                for (int type = 0; type < 2; type++) {
                    domino_matrix T = NULL;
                    domino_dmatrix dT = NULL;
                    upload_variant(h, Td, fmt, type, &T, &dT);
                    for (int op = 0; dT && op < 2; op++)
                        for (int rhs = 0; rhs < 2; rhs++) {
                            solve_case c = {name, T, dT, (domino_fill)fill, (domino_diag)diag,
                                            (domino_op)op, rhs ? 3 : 1, 0, NULL};
                            fn(h, &c);
                        }
                    domino_dmatrix_free(dT);
                    domino_matrix_free(T);
                }
            domino_matrix_free(Td);
        }
}

/* a generated DAG (domino_gen_dag, double) */
typedef struct dag_case {
    int32_t n, per_row, levels, band; /* the generator's shape */
    uint64_t seed;                    /* its seed */
    const char *name;                 /* in messages */
} dag_case;

/* fn on every combination of each DAG's lower triangle */
static inline void for_each_dag(domino_handle h, const dag_case *dags, size_t count, case_fn fn)
{
    for (size_t k = 0; k < count; k++) {
        domino_matrix M = NULL;
        CHECK_OK(h, domino_gen_dag(h, dags[k].n, dags[k].per_row, dags[k].levels, dags[k].band,
                                   dags[k].seed, DOMINO_FLOAT64, &M));
        if (M) for_each_combination(h, dags[k].name, M, 0, fn);
        domino_matrix_free(M);
    }
}

/* fn over every combination of two hard systems: R-MAT 12's lower
 * triangle (rows of hundreds of entries) and a D3N7 stencil on nx*ny*nz
 * storing both triangles (the solve must skip the other one) */
static inline void for_rmat_and_full_stencil(domino_handle h, int32_t nx, int32_t ny, int32_t nz,
                                             case_fn fn)
{
    domino_matrix R = NULL, Lo = NULL, F = NULL;
    CHECK_OK(h, domino_gen_rmat(h, 12, 8, 0.6, 0.4 / 3, 0.4 / 3, 0.4 / 3, 5, DOMINO_FLOAT64, &R));
    if (R) CHECK_OK(h, domino_matrix_triangle(h, R, DOMINO_LOWER, DOMINO_DIAG_DOMINANT, &Lo));
    if (Lo) for_each_combination(h, "rmat 12 lower", Lo, 0, fn);
    domino_matrix_free(R);
    domino_matrix_free(Lo);
    char name[64];
    snprintf(name, sizeof name, "stencil D3N7 %dx%dx%d full", nx, ny, nz);
    CHECK_OK(h, domino_gen_stencil(h, DOMINO_D3N7, nx, ny, nz, DOMINO_PART_FULL, DOMINO_FLOAT64, &F));
    if (F) for_each_combination(h, name, F, 1, fn);
    domino_matrix_free(F);
}

/* fn on every combination of the lower triangle (dominant diagonal) of
 * each shared matrix named; one that cannot be read is a skip, said under
 * the test's name */
static inline void for_each_shared_lower(domino_handle h, const char *test, const char *const *names,
                                         int count, case_fn fn)
{
    for (int f = 0; f < count; f++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", DOMINO_SHARED_MATRICES, names[f]);
        domino_matrix A = NULL, L = NULL;
        if (domino_mm_read(h, path, DOMINO_FLOAT64, 0, &A)) {
            printf("%s: %s not readable, skipped\n", test, path);
            check_skipped++;
            continue;
        }
        CHECK_OK(h, domino_matrix_triangle(h, A, DOMINO_LOWER, DOMINO_DIAG_DOMINANT, &L));
        if (L) for_each_combination(h, names[f], L, 0, fn);
        domino_matrix_free(L);
        domino_matrix_free(A);
    }
}

/* one plan of `engine` on M's lower triangle (one right-hand side, waits
 * bounded by wait_ms, 0 = none): the engine it took (its choice settled)
 * must be `expect`, and the solves of a second plan right */
static inline void check_plan_engine(domino_handle h, const char *name, domino_matrix M,
                                     domino_engine engine, domino_engine expect, int wait_ms)
{
    domino_dmatrix dM = NULL;
    CHECK_OK(h, domino_dmatrix_upload(h, M, &dM));
    if (!dM) return;
    solve_case c = {name, M, dM, DOMINO_LOWER, DOMINO_NON_UNIT, DOMINO_OP_N, 1, 0, NULL};
    case_data d;
    if (case_data_new(h, &c, &d)) {
        domino_trsv_options opt;
        domino_trsv_options_init(&opt);
        opt.engine = engine;
        opt.max_wait_ms = wait_ms;
        domino_trsv_plan plan = NULL;
        CHECK_OK(h, domino_trsv_analysis(h, DOMINO_OP_N, DOMINO_LOWER, DOMINO_NON_UNIT, dM, 1, &opt,
                                         NULL, &plan));
        if (plan) CHECK_OK(h, domino_trsv_plan_settle(h, plan)); /* AUTO's choice on a small system */
        if (plan && domino_trsv_plan_engine(plan) != expect) {
            CHECK(domino_trsv_plan_engine(plan) == expect);
            fprintf(stderr, "  %s: engine %s, expected %s\n", name,
                    domino_engine_name(domino_trsv_plan_engine(plan)), domino_engine_name(expect));
        }
        domino_trsv_plan_free(plan);
        /* ten solves of a new plan, each checked: AUTO moves a small
         * system's plan to its engine on one of them (trsv_plan_deferred.c) */
        check_engine_solves(h, &c, &d, &opt, NULL, 10);
        case_data_free(&d);
    }
    domino_dmatrix_free(dM);
}

#endif
