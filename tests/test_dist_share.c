/* test_dist_share.c: the shares of the multi-GPU triangular solvers
 * (dist_share_make), checked by running their protocol on the CPU: each
 * PE's components in order, a component proceeding once every source's
 * count reaches its need, exactly as the GPU kernel reads and writes them
 * for the zero-copy (one count per PE), push (one count) and
 * unified-memory (local and far counts) solvers, and the pull solver (a
 * component waits for every x_j of its row, read from the owner's array;
 * with copies, from the reader's own array, which the owner writes for
 * the PEs its readers mask names, and no bit of that mask is unused).  Any schedule that
 * finishes must give domino_ref_trsv's answer; a schedule that stalls means
 * a wrong need.  Random DAGs, stencils (lower and upper, CSR and CSC,
 * float), symmetric storage and the shared matrices, 1 to 6 PEs, the three
 * distributions, index and level order; then the errors. */
#include "check.h"
#include "domino.h"
#include "dist/dist_share.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef DOMINO_SHARED_MATRICES
#define DOMINO_SHARED_MATRICES "../shared/matrices"
#endif
#define FORWARD_EPS 1e3
#define MAX_PES 8
static const double eps = 2.220446049250313e-16;

/* the count and sum arrays of one run: npes "own" arrays (s_* of each PE,
 * or the local arrays of unified memory) and one shared array (managed) */
typedef struct arrays {
    int *in[MAX_PES + 1];
    double *sum[MAX_PES + 1];
} arrays;

/* source s of PE p and destination of a contribution to PE q's row */
static int src_of(dist_count_mode mode, int p, int s, int npes)
{
    if (mode == DIST_COUNT_PER_PE) return s;     /* PE s's own arrays */
    if (mode == DIST_COUNT_ONE) return p;        /* p's own arrays */
    return s == 0 ? p : npes;                    /* local, then managed */
}
static int dst_of(dist_count_mode mode, int p, int q, int npes)
{
    if (mode == DIST_COUNT_PER_PE) return p;     /* keep it */
    if (mode == DIST_COUNT_ONE) return q;        /* into the owner's */
    return q == p ? p : npes;                    /* local or managed */
}

/* run the protocol; 0 when every component was solved, -1 on a stall.
 * copies (pull): PE p reads x_j from its own copy, written by j's owner for
 * the PEs of its readers mask; -2 when a mask names a PE that never reads
 * the value */
static int run_protocol(dist_share **S, const domino_dist_plan *plan, dist_count_mode mode,
                        const double *b, double *x, int copies)
{
    arrays A;
    int32_t next[MAX_PES] = {0}, n = plan->n;
    int npes = plan->npes;
    for (int a = 0; a <= npes; a++) {
        A.in[a] = calloc((size_t)n + 1, sizeof(int));
        A.sum[a] = calloc((size_t)n + 1, sizeof(double));
    }
    char *done = calloc((size_t)n + 1, 1); /* pull: x_i computed */
    char *copy[MAX_PES], *read[MAX_PES];    /* pull with copies: x_i in PE p's array; read there */
    for (int p = 0; p < npes; p++) {
        copy[p] = calloc((size_t)n + 1, 1);
        read[p] = calloc((size_t)n + 1, 1);
    }
    int left = 0, progress = 1;
    for (int p = 0; p < npes; p++) left += S[p]->nloc;
    while (left > 0 && progress) {
        progress = 0;
        for (int p = 0; p < npes; p++) {
            dist_share *P = S[p];
            /* a few components per turn, so that the PEs interleave */
            for (int turn = 0; turn < 3 && next[p] < P->nloc; turn++) {
                int32_t k = next[p], i = P->comp[k];
                int ready = 1;
                double part = 0;
                if (mode == DIST_PULL_ROWS) { /* the row's x_j, each once computed */
                    for (int64_t e = P->col_ptr[k]; e < P->col_ptr[k + 1] && ready; e++)
                        ready = copies ? copy[p][P->col_row[e]] : done[P->col_row[e]];
                    if (!ready) break;
                    for (int64_t e = P->col_ptr[k]; e < P->col_ptr[k + 1]; e++) {
                        part += P->col_val[e] * x[P->col_row[e]];
                        read[p][P->col_row[e]] = 1;
                    }
                    x[i] = (b[i] - part) / P->pivot[k];
                    done[i] = 1;
                    copy[p][i] = 1;
                    for (int q = 0; copies && q < npes; q++)
                        if ((P->readers[k] >> q) & 1u) copy[q][i] = 1;
                    next[p]++;
                    left--;
                    progress = 1;
                    continue;
                }
                for (int s = 0; s < P->nsrc && ready; s++) {
                    int a = src_of(mode, p, s, npes), need = P->need[(size_t)s * P->nloc + k];
                    if (A.in[a][i] < need) ready = 0;
                    else if (need > 0) part += A.sum[a][i];
                }
                if (!ready) break;
                x[i] = (b[i] - part) / P->pivot[k];
                for (int64_t e = P->col_ptr[k]; e < P->col_ptr[k + 1]; e++) {
                    int32_t r = P->col_row[e];
                    int a = dst_of(mode, p, domino_dist_pe_of(plan, r), npes);
                    A.sum[a][r] += P->col_val[e] * x[i];
                    A.in[a][r]++;
                }
                next[p]++;
                left--;
                progress = 1;
            }
        }
    }
    int unused = 0; /* a reader bit of a PE that never read the value */
    for (int p = 0; copies && left == 0 && p < npes; p++)
        for (int32_t k = 0; k < S[p]->nloc; k++)
            for (int q = 0; q < npes; q++)
                if (((S[p]->readers[k] >> q) & 1u) && (q == p || !read[q][S[p]->comp[k]])) unused = 1;
    for (int a = 0; a <= npes; a++) {
        free(A.in[a]);
        free(A.sum[a]);
    }
    for (int p = 0; p < npes; p++) {
        free(copy[p]);
        free(read[p]);
    }
    free(done);
    return left != 0 ? -1 : unused ? -2 : 0;
}

/* every mode on one matrix, npes PEs, scheme / tasks; x against the reference */
static void check_case(domino_handle h, const char *name, domino_matrix A, domino_fill fill,
                       domino_diag diag, int npes, domino_dist_scheme scheme, int tasks, const double *xr,
                       const double *b)
{
    domino_dist_options opt;
    domino_dist_plan *plan = NULL;
    domino_matrix_view v;
    CHECK_OK(h, domino_matrix_get_view(h, A, &v));
    int32_t n = v.nrows;
    domino_dist_options_init(&opt);
    opt.scheme = scheme;
    opt.tasks_per_pe = tasks;
    opt.level_tasks = 0; /* tasks per PE as asked */
    opt.level_order = tasks == 4; /* the level order on one pool of each matrix */
    CHECK_OK(h, domino_dist_plan_make(h, A, fill, npes, &opt, &plan));
    double *x = malloc((size_t)n * sizeof(double) + 8);
    for (int mode = 0; plan && mode < 5; mode++) { /* 4: pull with copies */
        int copies = mode == 4;
        dist_count_mode cm = copies ? DIST_PULL_ROWS : (dist_count_mode)mode;
        dist_share *S[MAX_PES] = {NULL};
        int64_t nnz = 0, seen = 0;
        for (int p = 0; p < npes; p++) {
            CHECK_OK(h, dist_share_make(h, "test", A, fill, diag, plan, p, cm, &S[p]));
            if (S[p] && (cm == DIST_PULL_ROWS) != (S[p]->readers != NULL)) check_failed++;
            if (!S[p]) goto next;
            nnz += S[p]->nnz;
            seen += S[p]->nloc;
        }
        CHECK(seen == n); /* every component somewhere, once */
        for (int32_t i = 0; i < n; i++) x[i] = NAN;
        int r = run_protocol(S, plan, cm, b, x, copies);
        double d = 0, scale = 0;
        for (int32_t i = 0; i < n; i++) {
            d = fmax(d, isfinite(x[i]) ? fabs(x[i] - xr[i]) : INFINITY);
            scale = fmax(scale, fabs(xr[i]));
        }
        if (r == 0 && d <= FORWARD_EPS * eps * fmax(scale, 1.0)) {
            check_passed++;
        } else {
            check_failed++;
            fprintf(stderr, "FAIL: %s fill=%d diag=%d npes=%d scheme=%d tasks=%d mode=%d: %s, diff %.3e\n",
                    name, (int)fill, (int)diag, npes, (int)scheme, tasks, mode,
                    r == -1 ? "stalled" : r == -2 ? "unused reader bit" : "wrong", d);
        }
    next:
        for (int p = 0; p < npes; p++) dist_share_free(S[p]);
    }
    free(x);
    domino_dist_plan_free(plan);
}

/* the reference (on the expanded matrix) and every case of one matrix */
static void check_matrix(domino_handle h, const char *name, domino_matrix A, int max_pes)
{
    domino_matrix E = NULL, D = NULL;
    domino_matrix_view v;
    CHECK_OK(h, domino_matrix_get_view(h, A, &v));
    int32_t n = v.nrows;
    double *b = malloc((size_t)n * sizeof(double) + 8), *xr = malloc((size_t)n * sizeof(double) + 8);
    for (int32_t i = 0; i < n; i++) b[i] = 1.0 + (i % 7) / 8.0;
    /* the reference wants a general double matrix */
    CHECK_OK(h, domino_matrix_symmetric_expand(h, A, &E));
    CHECK_OK(h, domino_matrix_cast(h, E, DOMINO_FLOAT64, &D));
    for (int fill = 0; fill < 2; fill++)
        for (int diag = 0; diag < 2; diag++) {
            if (diag == 1 && fill == 1) continue;
            domino_diag dg = diag ? DOMINO_UNIT : DOMINO_NON_UNIT;
            CHECK_OK(h, domino_ref_trsv(h, DOMINO_OP_N, (domino_fill)fill, dg, D, 1, b, n, xr, n));
            for (int npes = 1; npes <= max_pes; npes++) {
                check_case(h, name, A, (domino_fill)fill, dg, npes, DOMINO_DIST_CONTIGUOUS, 1, xr, b);
                check_case(h, name, A, (domino_fill)fill, dg, npes, DOMINO_DIST_TASKPOOL, 4, xr, b);
                check_case(h, name, A, (domino_fill)fill, dg, npes, DOMINO_DIST_LINKED, 4, xr, b); /* level order */
            }
            check_case(h, name, A, (domino_fill)fill, dg, 3, DOMINO_DIST_TASKPOOL, 32, xr, b);
            check_case(h, name, A, (domino_fill)fill, dg, 2, DOMINO_DIST_CONTIGUOUS, 4, xr, b); /* level order */
        }
    domino_matrix_free(E);
    domino_matrix_free(D);
    free(b);
    free(xr);
}

int main(void)
{
    domino_handle h = NULL;
    domino_matrix A = NULL, B = NULL;
    int64_t live = domino_debug_alloc_live();
    CHECK_OK(h, domino_create(&h));
    static const int32_t levels[] = {1, 9, 300};
    for (int k = 0; k < 3; k++) {
        CHECK_OK(h, domino_gen_dag(h, 1500, 5, levels[k], 0, 21 + k, DOMINO_FLOAT64, &A));
        check_matrix(h, "dag", A, 6);
        domino_matrix_free(A);
        A = NULL;
    }
    CHECK_OK(h, domino_gen_stencil(h, DOMINO_D3N27, 7, 6, 5, DOMINO_PART_FULL, DOMINO_FLOAT64, &A));
    check_matrix(h, "d3n27 7x6x5", A, 4);
    CHECK_OK(h, domino_matrix_convert(h, A, DOMINO_CSC, &B));
    check_matrix(h, "d3n27 7x6x5 csc", B, 3);
    domino_matrix_free(A);
    domino_matrix_free(B);
    A = B = NULL;
    CHECK_OK(h, domino_gen_stencil(h, DOMINO_D2N5, 23, 11, 1, DOMINO_PART_FULL, DOMINO_FLOAT32, &A));
    check_matrix(h, "d2n5 float", A, 3);
    domino_matrix_free(A);
    A = NULL;
    /* shared matrices: bcsstk13 as stored (symmetric, one triangle) and
     * cage8 (general) with a dominant diagonal */
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", DOMINO_SHARED_MATRICES, "bcsstk13.mtx");
    CHECK_OK(h, domino_mm_read(h, path, DOMINO_FLOAT64, 0, &A));
    if (A) check_matrix(h, "bcsstk13 symmetric storage", A, 3);
    domino_matrix_free(A);
    A = NULL;
    snprintf(path, sizeof(path), "%s/%s", DOMINO_SHARED_MATRICES, "cage8.mtx");
    CHECK_OK(h, domino_mm_read(h, path, DOMINO_FLOAT64, 0, &B));
    if (B) CHECK_OK(h, domino_matrix_triangle(h, B, DOMINO_LOWER, DOMINO_DIAG_DOMINANT, &A));
    if (A) check_matrix(h, "cage8", A, 4);
    domino_matrix_free(A);
    domino_matrix_free(B);
    A = B = NULL;

    /* the plan's levels: computed, or copied from the caller's, alike */
    {
        domino_dist_options opt;
        domino_dist_plan *P1 = NULL, *P2 = NULL;
        domino_levels *lv = NULL;
        CHECK_OK(h, domino_gen_dag(h, 3000, 4, 60, 0, 77, DOMINO_FLOAT64, &A));
        CHECK_OK(h, domino_ref_levels(h, DOMINO_OP_N, DOMINO_LOWER, A, &lv));
        domino_dist_options_init(&opt);
        opt.level_order = 1;
        CHECK_OK(h, domino_dist_plan_make(h, A, DOMINO_LOWER, 3, &opt, &P1));
        opt.row_level = lv ? lv->row_level : NULL;
        CHECK_OK(h, domino_dist_plan_make(h, A, DOMINO_LOWER, 3, &opt, &P2));
        if (P1 && P2 && lv) {
            CHECK(P1->row_level && P2->row_level);
            CHECK(memcmp(P1->row_level, lv->row_level, 3000 * sizeof(int32_t)) == 0);
            CHECK(memcmp(P2->row_level, lv->row_level, 3000 * sizeof(int32_t)) == 0);
        }
        opt.scheme = DOMINO_DIST_TASKPOOL, opt.level_order = 0, opt.level_tasks = 0;
        domino_dist_plan *P3 = NULL;
        CHECK_OK(h, domino_dist_plan_make(h, A, DOMINO_LOWER, 3, &opt, &P3));
        CHECK(P3 && P3->row_level == NULL); /* index order, equal tasks: no levels kept */
        domino_dist_plan_free(P1);
        domino_dist_plan_free(P2);
        domino_dist_plan_free(P3);
        domino_levels_free(lv);
        domino_matrix_free(A);
        A = NULL;
    }

    /* errors: a missing diagonal and a zero pivot named by row, a PE
     * outside the plan, a plan of another size */
    domino_dist_plan *plan = NULL;
    dist_share *S = NULL;
    int32_t rows[] = {0, 1, 1, 2, 3, 3}, cols[] = {0, 0, 1, 1, 2, 3};
    double vals[] = {2, 1, 0, 1, 1, 4};
    CHECK_OK(h, domino_matrix_from_coo(h, DOMINO_CSR, DOMINO_FLOAT64, 4, 4, 6, rows, cols, vals, &A));
    CHECK_OK(h, domino_dist_plan_make(h, A, DOMINO_LOWER, 2, NULL, &plan));
    for (int p = 0; p < 2; p++) {
        domino_status s = dist_share_make(h, "test", A, DOMINO_LOWER, DOMINO_NON_UNIT, plan, p, DIST_COUNT_PER_PE, &S);
        int own1 = domino_dist_pe_of(plan, 1) == p, own2 = domino_dist_pe_of(plan, 2) == p;
        /* row 1 (zero pivot) comes first in solve order on its PE */
        CHECK(s == (own1 ? DOMINO_ZERO_PIVOT : own2 ? DOMINO_ZERO_DIAGONAL : DOMINO_SUCCESS));
        if (own1) CHECK(strstr(domino_last_error(h), "row 1") != NULL);
        else if (own2) CHECK(strstr(domino_last_error(h), "row 2") != NULL);
        CHECK(S == NULL || s == DOMINO_SUCCESS);
        dist_share_free(S);
        S = NULL;
    }
    CHECK_STATUS(h, DOMINO_SUCCESS, dist_share_make(h, "test", A, DOMINO_LOWER, DOMINO_UNIT, plan, 1, DIST_COUNT_ONE, &S));
    dist_share_free(S);
    S = NULL;
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, dist_share_make(h, "test", A, DOMINO_LOWER, DOMINO_UNIT, plan, 2, DIST_COUNT_ONE, &S));
    CHECK_OK(h, domino_gen_dag(h, 5, 2, 2, 0, 1, DOMINO_FLOAT64, &B));
    CHECK_STATUS(h, DOMINO_DIMENSION_MISMATCH, dist_share_make(h, "test", B, DOMINO_LOWER, DOMINO_UNIT, plan, 0, DIST_COUNT_ONE, &S));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, dist_share_make(h, "test", A, DOMINO_LOWER, DOMINO_UNIT, NULL, 0, DIST_COUNT_ONE, &S));
    CHECK(S == NULL);
    domino_dist_plan_free(plan);
    domino_matrix_free(A);
    domino_matrix_free(B);
    domino_destroy(h);
    CHECK(domino_debug_alloc_live() == live);
    return check_summary("test_dist_share");
}
