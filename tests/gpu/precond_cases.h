/* precond_cases.h: what the GPU factorization and Krylov tests share
 * (test_gpu_precond.c, test_gpu_factor_pivots.c, test_gpu_krylov.c): the
 * shared matrices' paths, the generated systems, and the check of a GPU
 * factor (ours or cuSPARSE's) against the CPU reference's, entry by entry
 * within FACTOR_EPS * eps * max|factor|. */
#ifndef DOMINO_PRECOND_CASES_H
#define DOMINO_PRECOND_CASES_H

#include "check.h"
#include "domino.h"
#include "cuda/factor_plan.h" /* white box: the factor's device arrays */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FACTOR_EPS 1e3
static const double eps = 2.220446049250313e-16;

static inline char *shared_path(const char *name)
{
    static char path[1024];
    const char *dir = getenv("DOMINO_SHARED_MATRICES"); /* override of the build's folder */
    snprintf(path, sizeof path, "%s/%s", dir ? dir : DOMINO_SHARED_MATRICES, name);
    return path;
}

/* copy of square CSR A with every diagonal entry times `factor` and every
 * off-diagonal times `off` */
static inline domino_matrix scaled_copy(domino_handle h, domino_matrix A, double factor, double off)
{
    domino_matrix B = NULL;
    domino_matrix_view v;
    CHECK_OK(h, domino_matrix_copy(h, A, &B));
    CHECK_OK(h, domino_matrix_get_view(h, B, &v));
    double *val = v.val;
    for (int32_t i = 0; i < v.nrows; i++)
        for (int64_t k = v.ptr[i]; k < v.ptr[i + 1]; k++)
            val[k] = (v.ind[k] == i ? factor : off) * val[k];
    return B;
}

/* graph Laplacian + 0.01 I of a shared pattern file (as tests/test_krylov.c) */
static inline domino_matrix shifted_laplacian(domino_handle h, const char *name)
{
    domino_matrix P = NULL, A = NULL;
    if (domino_mm_read(h, shared_path(name), DOMINO_FLOAT64, 0, &P)) return NULL;
    CHECK_OK(h, domino_matrix_laplacian(h, P, 0.01, &A));
    domino_matrix_free(P);
    return A;
}

static inline domino_matrix stencil(domino_handle h, domino_stencil s, int32_t nx, int32_t ny,
                                    int32_t nz)
{
    domino_matrix A = NULL;
    CHECK_OK(h, domino_gen_stencil(h, s, nx, ny, nz, DOMINO_PART_FULL, DOMINO_FLOAT64, &A));
    return A;
}

/* the factor values of batch index b of the plan (malloc'd, F's nnz of them),
 * NULL when the factor's size is not F's */
static inline double *factor_download(domino_handle h, domino_factor_plan plan, int32_t b,
                                      const domino_matrix_view *v, int64_t **ptr)
{
    domino_dmatrix dF = NULL;
    CHECK_OK(h, domino_factor_get(h, plan, b, &dF));
    if (!dF || dF->nnz != v->nnz) return NULL;
    double *got = malloc(sizeof(double) * (size_t)(v->nnz + 1));
    CHECK_OK(h, domino_gpu_download(h, got, dF->val, (size_t)v->nnz * sizeof(double)));
    if (ptr) {
        *ptr = malloc(sizeof(int64_t) * ((size_t)v->nrows + 1));
        CHECK_OK(h,
                 domino_gpu_download(h, *ptr, dF->ptr, ((size_t)v->nrows + 1) * sizeof(int64_t)));
    }
    return got;
}

/* max |gpu - cpu| / max |cpu| over the factor of batch index b; -1 on a pattern mismatch */
static inline double factor_difference(domino_handle h, domino_factor_plan plan, int32_t b,
                                       domino_matrix F)
{
    domino_matrix_view v;
    int64_t *ptr = NULL;
    CHECK_OK(h, domino_matrix_get_view(h, F, &v));
    double *got = factor_download(h, plan, b, &v, &ptr);
    if (!got) return -1.0;
    double worst = 0.0, scale = 0.0;
    const double *want = v.val;
    for (int64_t k = 0; k < v.nnz; k++) {
        if (fabs(want[k]) > scale) scale = fabs(want[k]);
        if (!(fabs(got[k] - want[k]) <= worst)) worst = fabs(got[k] - want[k]);
    }
    for (int32_t i = 0; i <= v.nrows; i++)
        if (ptr[i] != v.ptr[i]) worst = -1.0;
    free(got), free(ptr);
    return worst < 0 ? -1.0 : worst / (scale > 0 ? scale : 1.0);
}

/* max |gpu - cpu| / |cpu| over the diagonal entries (the pivots, or their
 * square roots) of the factor of batch index b: relative, so that errors of
 * small pivots show; -1 on a size mismatch */
static inline double pivot_difference(domino_handle h, domino_factor_plan plan, int32_t b,
                                      domino_matrix F)
{
    domino_matrix_view v;
    CHECK_OK(h, domino_matrix_get_view(h, F, &v));
    double *got = factor_download(h, plan, b, &v, NULL), worst = 0.0;
    if (!got) return -1.0;
    const double *want = v.val;
    for (int32_t r = 0; r < v.nrows; r++)
        for (int64_t k = v.ptr[r]; k < v.ptr[r + 1]; k++)
            if (v.ind[k] == r) {
                double e = fabs(got[k] - want[k]) / (want[k] != 0.0 ? fabs(want[k]) : 1.0);
                if (!(e <= worst)) worst = e;
            }
    free(got);
    return worst;
}

/* GPU factor (ours, or cuSPARSE's) of A equals the CPU reference's */
static inline void check_factor(domino_handle h, domino_matrix A, domino_factor_kind kind,
                                int use_cusparse, const char *label)
{
    domino_matrix F = NULL;
    int64_t cpu_replaced = 0, gpu_replaced = -1;
    if (kind == DOMINO_FACTOR_ILU0)
        CHECK_OK(h, domino_ref_ilu0(h, A, 0.0, &F, &cpu_replaced));
    else
        CHECK_OK(h, domino_ref_ic0(h, A, 0.0, &F, &cpu_replaced));
    domino_dmatrix dA = NULL;
    domino_factor_plan plan = NULL;
    domino_factor_options opt;
    domino_factor_options_init(&opt);
    opt.use_cusparse = use_cusparse;
    CHECK_OK(h, domino_dmatrix_upload(h, A, &dA));
    CHECK_OK(h, domino_factor_analysis(h, kind, dA, &opt, &plan));
    CHECK_OK(h, domino_factor_compute(h, plan, NULL, &gpu_replaced));
    CHECK(gpu_replaced == cpu_replaced);
    if (use_cusparse) CHECK(strcmp(domino_factor_plan_method(plan), "cusparse") == 0);
    double diff = F && plan ? factor_difference(h, plan, 0, F) : -1.0;
    printf("%-34s %s %-8s max rel diff %.2e (%.1f eps)  analysis %.3f ms compute %.3f ms\n", label,
           kind == DOMINO_FACTOR_ILU0 ? "ILU0" : "IC0 ", use_cusparse ? "cusparse" : "domino", diff,
           diff / eps, 1e3 * domino_factor_plan_analysis_seconds(plan),
           1e3 * domino_factor_plan_compute_seconds(plan));
    CHECK(diff >= 0.0 && diff <= FACTOR_EPS * eps);
    domino_factor_plan_free(plan);
    domino_dmatrix_free(dA);
    domino_matrix_free(F);
}

/* a test's start: the handle made; 1 where there is no CUDA device (h
 * destroyed, every section skipped), else 0 with the host allocations
 * counted in *live once the handle's GPU context exists */
static inline int precond_test_begin(domino_handle *h, const char *name, int64_t *live)
{
    *h = NULL;
    CHECK_OK(*h, domino_create(h));
    if (domino_gpu_count() == 0) {
        printf("%s: no CUDA device on this machine: every section skipped\n", name);
        domino_destroy(*h);
        return 1;
    }
    CHECK_OK(*h, domino_gpu_synchronize(*h));
    *live = domino_debug_alloc_live();
    return 0;
}

/* a test's end: nothing left allocated since live, h destroyed, the
 * summary as the exit status */
static inline int precond_test_end(domino_handle h, int64_t live, const char *name)
{
    CHECK(domino_debug_alloc_live() == live);
    domino_destroy(h);
    return check_summary(name);
}

#endif
