/* dist_plan_check.h: what the tests of the distributed planning share: a
 * random matrix, a plan checked against its matrix by brute force, a plan
 * of a given scheme (test_dist_plan.c, test_dist_plan_linked.c) */
#ifndef DOMINO_TESTS_DIST_PLAN_CHECK_H
#define DOMINO_TESTS_DIST_PLAN_CHECK_H
#include "check.h"
#include "domino.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t lcg_state = 4242;
/* uniform integer in [0, bound) from a simple LCG */
static inline int32_t lcg_below(int32_t bound)
{
    lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (int32_t)((double)(lcg_state >> 11) / 9007199254740992.0 * bound);
}

/* random n x n matrix (format f), about per_row entries per row, diagonal kept */
static inline domino_matrix random_matrix(domino_handle h, domino_format f, domino_type t, int32_t n,
                                   int per_row)
{
    int64_t cap = (int64_t)n * (per_row + 1) + 1;
    int32_t *rows = malloc((size_t)cap * sizeof(int32_t));
    int32_t *cols = malloc((size_t)cap * sizeof(int32_t));
    int64_t nnz = 0;
    for (int32_t i = 0; i < n; i++) {
        rows[nnz] = i, cols[nnz] = i, nnz++;
        for (int e = 0; e < per_row; e++) rows[nnz] = i, cols[nnz] = lcg_below(n), nnz++;
    }
    domino_matrix A = NULL;
    CHECK_OK(h, domino_matrix_from_coo(h, f, t, n, n, nnz, rows, cols, NULL, &A));
    free(rows);
    free(cols);
    return A;
}

/* Check plan against L by brute force: every component on one valid PE,
 * task i / task_size, pe_tasks / pe_components from task_pe, sums, and
 * pe_nnz, pe_remote, pe_bytes recounted from the stored entries of the
 * triangle (mirrored for symmetric storage). */
static inline void check_plan(domino_handle h, domino_matrix L, domino_fill fill,
                       const domino_dist_plan *P)
{
    domino_matrix_view v;
    CHECK_OK(h, domino_matrix_get_view(h, L, &v));
    int32_t n = v.nrows;
    int np = P->npes;
    CHECK(P->n == n);
    CHECK(P->task_size >= 1);
    CHECK(P->ntasks == (int32_t)(((int64_t)n + P->task_size - 1) / P->task_size));
    int32_t *comp = calloc((size_t)np, sizeof(int32_t)), *tasks = calloc((size_t)np, sizeof(int32_t));
    int64_t *nnz = calloc((size_t)np, sizeof(int64_t)), *remote = calloc((size_t)np, sizeof(int64_t));
    int bad = 0;
    for (int32_t t = 0; t < P->ntasks; t++) {
        if (P->task_pe[t] < 0 || P->task_pe[t] >= np) bad++;
        else tasks[P->task_pe[t]]++;
    }
    for (int32_t i = 0; i < n; i++) {
        int p = domino_dist_pe_of(P, i);
        if (p < 0 || p >= np || p != P->task_pe[i / P->task_size]) bad++;
        else comp[p]++;
    }
    CHECK(bad == 0);
    int64_t sum_comp = 0, sum_nnz = 0, triangle = 0;
    for (int64_t p = 0; p < v.nrows; p++)
        for (int64_t k = v.ptr[p]; k < v.ptr[p + 1]; k++)
            for (int mirror = 0; mirror < 2; mirror++) {
                int32_t r = v.format == DOMINO_CSR ? (int32_t)p : v.ind[k];
                int32_t c = v.format == DOMINO_CSR ? v.ind[k] : (int32_t)p;
                if (mirror) {
                    if (v.symmetry == DOMINO_GENERAL || r == c) continue;
                    int32_t tmp = r;
                    r = c, c = tmp;
                }
                if (fill == DOMINO_LOWER ? c > r : c < r) continue;
                triangle++;
                int owner = domino_dist_pe_of(P, c);
                nnz[owner]++;
                if (domino_dist_pe_of(P, r) != owner) remote[owner]++;
            }
    int64_t vb = (int64_t)domino_type_size(v.type);
    for (int p = 0; p < np; p++) {
        CHECK(P->pe_tasks[p] == tasks[p]);
        CHECK(P->pe_components[p] == comp[p]);
        CHECK(P->pe_nnz[p] == nnz[p]);
        CHECK(P->pe_remote[p] == remote[p]);
        int64_t c = comp[p];
        CHECK(P->pe_bytes[p] == nnz[p] * (vb + 4) + 8 * (c + 1) + c * (2 * vb + 12) + 12 * (int64_t)n);
        sum_comp += P->pe_components[p];
        sum_nnz += P->pe_nnz[p];
    }
    CHECK(sum_comp == n);
    CHECK(sum_nnz == triangle);
    free(comp), free(tasks), free(nnz), free(remote);
}

/* plan with the given scheme, tasks per PE, weights, budgets (checked) */
static inline domino_dist_plan *make(domino_handle h, domino_matrix L, domino_fill fill, int npes,
                              domino_dist_scheme scheme, int tasks_per_pe, const int64_t *weight,
                              const int64_t *budget)
{
    domino_dist_options opt;
    domino_dist_options_init(&opt);
    opt.scheme = scheme, opt.tasks_per_pe = tasks_per_pe, opt.weight = weight, opt.budget = budget;
    opt.level_tasks = 0; /* tasks_per_pe equal tasks */
    domino_dist_plan *P = NULL;
    CHECK_OK(h, domino_dist_plan_make(h, L, fill, npes, &opt, &P));
    if (P) check_plan(h, L, fill, P);
    if (P) CHECK(P->pull_lanes == 32 && P->pull_copies == 1); /* small matrices, narrow levels: a warp per row; copies by default */
    return P;
}

#endif
