/* test_dist_plan.c: distributed planning (partition, task dealing, statistics, budgets);
 * the LINKED and AUTO schemes are test_dist_plan_linked.c's */
#include "dist_plan_check.h"

#ifndef DOMINO_SHARED_MATRICES
#define DOMINO_SHARED_MATRICES "../shared/matrices"
#endif

/* ------------------------------------------------------------ tests */

static void test_options(void)
{
    domino_dist_options opt;
    memset(&opt, 0x5a, sizeof opt);
    domino_dist_options_init(&opt);
    CHECK(opt.scheme == DOMINO_DIST_AUTO);
    CHECK(opt.tasks_per_pe == 8 && opt.task_size == 0 && opt.level_order == 1 && opt.row_level == NULL);
    CHECK(opt.pull_lanes == 0 && opt.pull_copies == 1 && opt.level_tasks == 1);
    CHECK(opt.weight == NULL && opt.budget == NULL);
    domino_dist_options_init(NULL); /* ignored */
    domino_dist_plan_free(NULL);
    CHECK(domino_dist_pe_of(NULL, 0) == -1);
}

/* n = 10 over 3 PEs, by hand */
static void test_small_by_hand(domino_handle h)
{
    domino_matrix L = random_matrix(h, DOMINO_CSR, DOMINO_FLOAT64, 10, 3);
    domino_dist_plan *P = make(h, L, DOMINO_LOWER, 3, DOMINO_DIST_CONTIGUOUS, 2, NULL, NULL);
    const int contiguous[10] = {0, 0, 0, 0, 1, 1, 1, 1, 2, 2};
    CHECK(P && P->scheme == DOMINO_DIST_CONTIGUOUS && P->task_size == 4 && P->ntasks == 3);
    for (int32_t i = 0; P && i < 10; i++) CHECK(domino_dist_pe_of(P, i) == contiguous[i]);
    CHECK(P && P->pe_components[0] == 4 && P->pe_components[1] == 4 && P->pe_components[2] == 2);
    CHECK(P && domino_dist_pe_of(P, 10) == -1 && domino_dist_pe_of(P, -1) == -1);
    domino_dist_plan_free(P);
    /* task pool: 6 tasks wanted, size ceil(10/6) = 2, 5 tasks: PEs 0 1 2 0 1 */
    P = make(h, L, DOMINO_LOWER, 3, DOMINO_DIST_TASKPOOL, 2, NULL, NULL);
    const int pool[10] = {0, 0, 1, 1, 2, 2, 0, 0, 1, 1};
    CHECK(P && P->scheme == DOMINO_DIST_TASKPOOL && P->task_size == 2 && P->ntasks == 5);
    for (int32_t i = 0; P && i < 10; i++) CHECK(domino_dist_pe_of(P, i) == pool[i]);
    CHECK(P && P->pe_tasks[0] == 2 && P->pe_tasks[1] == 2 && P->pe_tasks[2] == 1);
    CHECK(P && P->pe_components[0] == 4 && P->pe_components[1] == 4 && P->pe_components[2] == 2);
    domino_dist_plan_free(P);
    /* more PEs than components: contiguous leaves the last PEs empty */
    P = make(h, L, DOMINO_LOWER, 7, DOMINO_DIST_CONTIGUOUS, 1, NULL, NULL);
    CHECK(P && P->task_size == 2 && P->ntasks == 5 && P->pe_components[5] == 0 &&
          P->pe_components[6] == 0 && P->pe_tasks[6] == 0);
    domino_dist_plan_free(P);
    /* 8 tasks per PE on 4 PEs, n = 100: size 4, 25 tasks, task t on PE t % 4 */
    domino_matrix_free(L);
    L = random_matrix(h, DOMINO_CSR, DOMINO_FLOAT64, 100, 4);
    P = make(h, L, DOMINO_LOWER, 4, DOMINO_DIST_TASKPOOL, 8, NULL, NULL);
    CHECK(P && P->task_size == 4 && P->ntasks == 25);
    int bad = 0;
    for (int32_t t = 0; P && t < P->ntasks; t++) bad += P->task_pe[t] != t % 4;
    CHECK(bad == 0);
    domino_dist_plan_free(P);
    /* opt NULL: the defaults (AUTO: a level of this matrix holds fewer than
     * DOMINO_DIST_LINKED_PARALLELISM rows, so LINKED, a task per component) */
    P = NULL;
    CHECK_OK(h, domino_dist_plan_make(h, L, DOMINO_LOWER, 4, NULL, &P));
    CHECK(P && P->scheme == DOMINO_DIST_LINKED && P->task_size == 1 && P->ntasks == 100);
    if (P) check_plan(h, L, DOMINO_LOWER, P);
    domino_dist_plan_free(P);
    domino_matrix_free(L);
}

/* weights 1:2:1 give tasks 1:2:1, each share within one task */
static void test_weights(domino_handle h)
{
    domino_matrix L = random_matrix(h, DOMINO_CSR, DOMINO_FLOAT64, 400, 2);
    const int64_t w121[3] = {1, 2, 1};
    domino_dist_plan *P = make(h, L, DOMINO_LOWER, 3, DOMINO_DIST_TASKPOOL, 8, w121, NULL);
    CHECK(P && P->ntasks == 24 && P->pe_tasks[0] == 6 && P->pe_tasks[1] == 12 &&
          P->pe_tasks[2] == 6);
    /* every prefix of the dealing is within one task of the proportions */
    int32_t seen[3] = {0, 0, 0};
    int bad = 0;
    for (int32_t t = 0; P && t < P->ntasks; t++) {
        seen[P->task_pe[t]]++;
        for (int p = 0; p < 3; p++) bad += fabs(seen[p] - (t + 1) * w121[p] / 4.0) > 1.0;
    }
    CHECK(bad == 0);
    domino_dist_plan_free(P);
    /* free bytes of real GPUs (80 GB, 40 GB, 139 GB) with 13 tasks per PE */
    const int64_t wbig[3] = {80000000000LL, 40000000000LL, 139000000000LL};
    P = make(h, L, DOMINO_LOWER, 3, DOMINO_DIST_TASKPOOL, 13, wbig, NULL);
    for (int p = 0; P && p < 3; p++)
        CHECK(fabs(P->pe_tasks[p] - (double)P->ntasks * wbig[p] / 259e9) <= 1.0);
    domino_dist_plan_free(P);
    /* equal weights given explicitly equal no weights */
    const int64_t weq[3] = {7, 7, 7};
    domino_dist_plan *A = make(h, L, DOMINO_LOWER, 3, DOMINO_DIST_TASKPOOL, 8, weq, NULL);
    domino_dist_plan *B = make(h, L, DOMINO_LOWER, 3, DOMINO_DIST_TASKPOOL, 8, NULL, NULL);
    CHECK(A && B && memcmp(A->task_pe, B->task_pe, (size_t)A->ntasks * sizeof(int)) == 0);
    domino_dist_plan_free(A);
    domino_dist_plan_free(B);
    /* contiguous ignores the weights */
    P = make(h, L, DOMINO_LOWER, 3, DOMINO_DIST_CONTIGUOUS, 8, w121, NULL);
    CHECK(P && P->pe_components[0] == 134 && P->pe_components[1] == 134 &&
          P->pe_components[2] == 132);
    domino_dist_plan_free(P);
    domino_matrix_free(L);
}

/* a budget exactly met passes; one byte less fails naming the PE */
static void test_budget(domino_handle h)
{
    domino_matrix L = random_matrix(h, DOMINO_CSR, DOMINO_FLOAT32, 300, 5);
    domino_dist_plan *P = make(h, L, DOMINO_LOWER, 3, DOMINO_DIST_TASKPOOL, 4, NULL, NULL);
    int64_t budget[3] = {0, 0, 0};
    for (int p = 0; P && p < 3; p++) budget[p] = P->pe_bytes[p];
    domino_dist_plan *Q = make(h, L, DOMINO_LOWER, 3, DOMINO_DIST_TASKPOOL, 4, NULL, budget);
    CHECK(Q != NULL);
    domino_dist_plan_free(Q);
    budget[1]--;
    domino_dist_options opt;
    domino_dist_options_init(&opt);
    opt.scheme = DOMINO_DIST_TASKPOOL, opt.tasks_per_pe = 4, opt.budget = budget, opt.level_tasks = 0;
    static domino_dist_plan sentinel;
    Q = &sentinel; /* must come back NULL */
    CHECK_STATUS(h, DOMINO_OUT_OF_MEMORY, domino_dist_plan_make(h, L, DOMINO_LOWER, 3, &opt, &Q));
    CHECK(Q == NULL);
    CHECK(strstr(domino_last_error(h), "PE 1") != NULL);
    CHECK(strstr(domino_last_error(h), "budget") != NULL);
    /* the same matrix fits on more PEs under the same per-PE budget */
    int64_t one = P ? P->pe_bytes[1] - 1 : 0;
    int64_t budget6[6] = {one, one, one, one, one, one};
    opt.budget = budget6;
    CHECK_OK(h, domino_dist_plan_make(h, L, DOMINO_LOWER, 6, &opt, &Q));
    domino_dist_plan_free(Q);
    /* no handle: message kept per thread */
    opt.budget = budget;
    CHECK_STATUS(NULL, DOMINO_OUT_OF_MEMORY,
                 domino_dist_plan_make(NULL, L, DOMINO_LOWER, 3, &opt, &Q));
    CHECK(strstr(domino_last_error(NULL), "PE 1") != NULL);
    domino_dist_plan_free(P);
    domino_matrix_free(L);
}

static void test_bad_arguments(domino_handle h)
{
    domino_matrix L = random_matrix(h, DOMINO_CSR, DOMINO_FLOAT64, 20, 2), R = NULL;
    int32_t rows[2] = {0, 1}, cols[2] = {0, 2};
    CHECK_OK(h, domino_matrix_from_coo(h, DOMINO_CSR, DOMINO_FLOAT64, 2, 3, 2, rows, cols, NULL, &R));
    domino_dist_options opt;
    domino_dist_options_init(&opt);
    domino_dist_plan *P = NULL;
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_dist_plan_make(h, L, DOMINO_LOWER, 2, &opt, NULL));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_dist_plan_make(h, NULL, DOMINO_LOWER, 2, &opt, &P));
    CHECK_STATUS(h, DOMINO_DIMENSION_MISMATCH,
                 domino_dist_plan_make(h, R, DOMINO_LOWER, 2, &opt, &P));
    CHECK(strstr(domino_last_error(h), "2 x 3") != NULL);
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_dist_plan_make(h, L, DOMINO_LOWER, 0, &opt, &P));
    CHECK(strstr(domino_last_error(h), "npes = 0") != NULL);
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_dist_plan_make(h, L, (domino_fill)5, 2, &opt, &P));
    opt.tasks_per_pe = 0;
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_dist_plan_make(h, L, DOMINO_LOWER, 2, &opt, &P));
    CHECK(strstr(domino_last_error(h), "tasks_per_pe = 0") != NULL);
    opt.tasks_per_pe = 8, opt.scheme = (domino_dist_scheme)9;
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_dist_plan_make(h, L, DOMINO_LOWER, 2, &opt, &P));
    opt.scheme = DOMINO_DIST_TASKPOOL;
    static const int bad_lanes[3] = {3, 64, -4};
    for (int k = 0; k < 3; k++) {
        char want[32];
        opt.pull_lanes = bad_lanes[k];
        CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_dist_plan_make(h, L, DOMINO_LOWER, 2, &opt, &P));
        snprintf(want, sizeof want, "pull_lanes = %d,", bad_lanes[k]);
        CHECK(strstr(domino_last_error(h), want) != NULL);
    }
    opt.pull_lanes = 1; /* a thread per row */
    CHECK_OK(h, domino_dist_plan_make(h, L, DOMINO_LOWER, 2, &opt, &P));
    if (P) CHECK(P->pull_lanes == 1);
    domino_dist_plan_free(P);
    P = NULL;
    opt.pull_lanes = 0;
    const int64_t negative[2] = {5, -3}, zero[2] = {0, 1}, huge[2] = {INT64_MAX, INT64_MAX};
    opt.weight = negative;
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_dist_plan_make(h, L, DOMINO_LOWER, 2, &opt, &P));
    CHECK(strstr(domino_last_error(h), "weight[1] = -3") != NULL);
    opt.weight = zero;
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_dist_plan_make(h, L, DOMINO_LOWER, 2, &opt, &P));
    opt.weight = huge;
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_dist_plan_make(h, L, DOMINO_LOWER, 2, &opt, &P));
    opt.weight = NULL, opt.budget = negative;
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_dist_plan_make(h, L, DOMINO_LOWER, 2, &opt, &P));
    CHECK(strstr(domino_last_error(h), "budget[1] = -3") != NULL);
    CHECK(P == NULL);
    /* an index out of range is bad input naming the row */
    domino_matrix_view v;
    CHECK_OK(h, domino_matrix_get_view(h, L, &v));
    int32_t saved = v.ind[v.ptr[7]];
    v.ind[v.ptr[7]] = 20;
    opt.budget = NULL;
    CHECK_STATUS(h, DOMINO_BAD_INPUT, domino_dist_plan_make(h, L, DOMINO_LOWER, 2, &opt, &P));
    CHECK(strstr(domino_last_error(h), "row 7") != NULL);
    v.ind[v.ptr[7]] = saved;
    domino_matrix_free(L);
    domino_matrix_free(R);
}

/* bad slices of a matrix large enough to be counted on several threads:
 * the first in index order is named whichever thread meets which first,
 * and a negative offset past it is not read through */
static void test_bad_slices_in_order(domino_handle h)
{
    domino_matrix L = NULL;
    domino_dist_plan *P = NULL;
    domino_matrix_view v;
    CHECK_OK(h, domino_gen_dag(h, 40000, 6, 50, 0, 5, DOMINO_FLOAT64, &L));
    if (!L) return;
    CHECK_OK(h, domino_matrix_get_view(h, L, &v));
    int32_t keep_a = v.ind[v.ptr[9000]], keep_b = v.ind[v.ptr[30000]];
    int64_t keep_p = v.ptr[35001];
    v.ind[v.ptr[30000]] = -1;
    v.ptr[35001] = -5; /* row 35000's offsets decrease, row 35001's start is negative */
    CHECK_STATUS(h, DOMINO_BAD_INPUT, domino_dist_plan_make(h, L, DOMINO_LOWER, 4, NULL, &P));
    CHECK(strstr(domino_last_error(h), "index -1 out of range [0, 40000) in row 30000") != NULL);
    v.ind[v.ptr[9000]] = 40000;
    CHECK_STATUS(h, DOMINO_BAD_INPUT, domino_dist_plan_make(h, L, DOMINO_LOWER, 4, NULL, &P));
    CHECK(strstr(domino_last_error(h), "in row 9000") != NULL);
    v.ind[v.ptr[9000]] = keep_a, v.ind[v.ptr[30000]] = keep_b;
    CHECK_STATUS(h, DOMINO_BAD_INPUT, domino_dist_plan_make(h, L, DOMINO_LOWER, 4, NULL, &P));
    CHECK(strstr(domino_last_error(h), "bad offsets at row 35000") != NULL);
    CHECK(P == NULL);
    v.ptr[35001] = keep_p;
    CHECK_OK(h, domino_dist_plan_make(h, L, DOMINO_LOWER, 4, NULL, &P));
    domino_dist_plan_free(P);
    domino_matrix_free(L);
}

/* upper triangle, CSC equal to CSR, float values */
static void test_upper_and_csc(domino_handle h)
{
    domino_matrix A = random_matrix(h, DOMINO_CSR, DOMINO_FLOAT64, 257, 6), C = NULL;
    CHECK_OK(h, domino_matrix_convert(h, A, DOMINO_CSC, &C));
    for (int fill = 0; fill < 2; fill++)
        for (int scheme = 0; scheme < 3; scheme++) { /* CONTIGUOUS, TASKPOOL, LINKED */
            domino_dist_plan *P = make(h, A, (domino_fill)fill, 5, (domino_dist_scheme)scheme, 4, NULL, NULL);
            domino_dist_plan *Q = make(h, C, (domino_fill)fill, 5, (domino_dist_scheme)scheme, 4, NULL, NULL);
            CHECK(P && Q && P->ntasks == Q->ntasks && P->task_size == Q->task_size);
            if (P && Q) {
                CHECK(memcmp(P->task_pe, Q->task_pe, (size_t)P->ntasks * sizeof(int)) == 0);
                CHECK(memcmp(P->pe_nnz, Q->pe_nnz, 5 * sizeof(int64_t)) == 0);
                CHECK(memcmp(P->pe_remote, Q->pe_remote, 5 * sizeof(int64_t)) == 0);
                CHECK(memcmp(P->pe_bytes, Q->pe_bytes, 5 * sizeof(int64_t)) == 0);
            }
            domino_dist_plan_free(P);
            domino_dist_plan_free(Q);
        }
    domino_matrix_free(A);
    domino_matrix_free(C);
}

/* 3D 7-point stencil 8^3 on 2 contiguous PEs: the lower triangle's remote
 * entries are the -z neighbours across the cut (plane 4 reads plane 3):
 * 64 of them, all sent by PE 0; the full matrix gives the same plan as its
 * lower part */
static void test_stencil(domino_handle h)
{
    domino_matrix full = NULL, lower = NULL;
    CHECK_OK(h, domino_gen_stencil(h, DOMINO_D3N7, 8, 8, 8, DOMINO_PART_FULL, DOMINO_FLOAT64, &full));
    CHECK_OK(h, domino_gen_stencil(h, DOMINO_D3N7, 8, 8, 8, DOMINO_PART_LOWER, DOMINO_FLOAT64, &lower));
    domino_dist_plan *P = make(h, full, DOMINO_LOWER, 2, DOMINO_DIST_CONTIGUOUS, 8, NULL, NULL);
    domino_dist_plan *Q = make(h, lower, DOMINO_LOWER, 2, DOMINO_DIST_CONTIGUOUS, 8, NULL, NULL);
    CHECK(P && P->pe_remote[0] == 64 && P->pe_remote[1] == 0);
    CHECK(P && Q && memcmp(P->pe_nnz, Q->pe_nnz, 2 * sizeof(int64_t)) == 0);
    CHECK(P && Q && memcmp(P->pe_remote, Q->pe_remote, 2 * sizeof(int64_t)) == 0);
    domino_dist_plan_free(P);
    domino_dist_plan_free(Q);
    for (int tpp = 4; tpp <= 32; tpp *= 2) {
        P = make(h, full, DOMINO_UPPER, 3, DOMINO_DIST_TASKPOOL, tpp, NULL, NULL);
        domino_dist_plan_free(P);
    }
    domino_matrix_free(full);
    domino_matrix_free(lower);
}

/* a real matrix: expanded and kept-as-stored (symmetric) give the same plan */
static void test_shared(domino_handle h)
{
    const char *path = DOMINO_SHARED_MATRICES "/bcsstk13.mtx";
    domino_matrix A = NULL, S = NULL;
    CHECK_OK(h, domino_mm_read(h, path, DOMINO_FLOAT64, 0, &A));
    CHECK_OK(h, domino_mm_read(h, path, DOMINO_FLOAT64, DOMINO_MM_KEEP_STORED, &S));
    if (!A || !S) goto done;
    for (int fill = 0; fill < 2; fill++) {
        domino_dist_plan *P = make(h, A, (domino_fill)fill, 4, DOMINO_DIST_TASKPOOL, 8, NULL, NULL);
        domino_dist_plan *Q = make(h, S, (domino_fill)fill, 4, DOMINO_DIST_TASKPOOL, 8, NULL, NULL);
        CHECK(P && Q && memcmp(P->pe_nnz, Q->pe_nnz, 4 * sizeof(int64_t)) == 0);
        CHECK(P && Q && memcmp(P->pe_remote, Q->pe_remote, 4 * sizeof(int64_t)) == 0);
        domino_dist_plan_free(P);
        domino_dist_plan_free(Q);
    }
done:
    domino_matrix_free(A);
    domino_matrix_free(S);
}

/* plans of L with opt, the k-th allocation failing for k = 1, 2, ... until
 * one succeeds: each failure DOMINO_OUT_OF_MEMORY with no plan and no
 * leak; the number of failures, or -1 when none succeeded in 100 */
static int alloc_failures(domino_handle h, domino_matrix L, const domino_dist_options *opt)
{
    int64_t live = domino_debug_alloc_live();
    int failures = 0, leaks = 0;
    for (int64_t k = 1; k < 100; k++) {
        domino_dist_plan *P = NULL;
        domino_debug_fail_alloc_after(k);
        domino_status s = domino_dist_plan_make(h, L, DOMINO_LOWER, 3, opt, &P);
        domino_debug_fail_alloc_after(0);
        if (s == DOMINO_SUCCESS) {
            domino_dist_plan_free(P);
            CHECK(leaks == 0 && domino_debug_alloc_live() == live);
            return failures;
        }
        failures++;
        CHECK(s == DOMINO_OUT_OF_MEMORY && P == NULL);
        leaks += domino_debug_alloc_live() != live;
    }
    return -1;
}

/* every allocation failing in turn: DOMINO_OUT_OF_MEMORY, no plan, no leak
 * (the task pool, then the linked deal's own allocations) */
static void test_alloc_failures(domino_handle h)
{
    domino_matrix L = random_matrix(h, DOMINO_CSR, DOMINO_FLOAT64, 50, 3);
    domino_dist_options opt;
    domino_dist_options_init(&opt);
    CHECK(alloc_failures(h, L, &opt) >= 7);
    opt.scheme = DOMINO_DIST_LINKED;
    CHECK(alloc_failures(h, L, &opt) >= 11);
    domino_matrix_free(L);
}

/* n = 0: no tasks, no components, bytes of the empty offsets */
static void test_empty(domino_handle h)
{
    domino_matrix E = NULL;
    CHECK_OK(h, domino_matrix_new(h, DOMINO_CSC, DOMINO_FLOAT64, 0, 0, 0, &E));
    for (int scheme = 0; scheme < 3; scheme++) {
        domino_dist_plan *P = make(h, E, DOMINO_LOWER, 3, (domino_dist_scheme)scheme, 8, NULL, NULL);
        CHECK(P && P->n == 0 && P->ntasks == 0 && P->task_size >= 1);
        CHECK(P && P->pe_bytes[2] == 8 && domino_dist_pe_of(P, 0) == -1);
        domino_dist_plan_free(P);
    }
    domino_matrix_free(E);
}

/* an explicit task size, and the level-tied size */
static void test_task_size(domino_handle h)
{
    domino_matrix L = NULL;
    domino_dist_options opt;
    domino_dist_plan *plan = NULL;
    CHECK_OK(h, domino_gen_dag(h, 1000, 4, 10, 0, 5, DOMINO_FLOAT64, &L));
    domino_dist_options_init(&opt);
    CHECK(opt.task_size == 0);
    opt.task_size = 7;
    CHECK_OK(h, domino_dist_plan_make(h, L, DOMINO_LOWER, 3, &opt, &plan));
    CHECK(plan && plan->task_size == 7 && plan->ntasks == (1000 + 6) / 7);
    CHECK(plan && domino_dist_pe_of(plan, 6) == 0 && domino_dist_pe_of(plan, 7) == 1 &&
          domino_dist_pe_of(plan, 21) == 0);
    domino_dist_plan_free(plan);
    plan = NULL;
    opt.task_size = -1;
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_dist_plan_make(h, L, DOMINO_LOWER, 3, &opt, &plan));
    opt.task_size = 5;
    opt.scheme = DOMINO_DIST_CONTIGUOUS; /* contiguous blocks ignore it */
    CHECK_OK(h, domino_dist_plan_make(h, L, DOMINO_LOWER, 3, &opt, &plan));
    CHECK(plan && plan->task_size == 334);
    domino_dist_plan_free(plan);
    domino_matrix_free(L);
    /* a level over the PEs, capped by the usual pool, at least min_size */
    CHECK(domino_dist_level_task_size(10000000, 1000, 2, 8, 1) == 5000);
    CHECK(domino_dist_level_task_size(10000000, 1, 2, 8, 1) == 625000);
    CHECK(domino_dist_level_task_size(1000000, 1000000, 4, 8, 32) == 32);
    CHECK(domino_dist_level_task_size(0, 1, 2, 8, 1) == 1);
    CHECK(domino_dist_level_task_size(100, 10, 4, 8, 64) == 4); /* min_size above the pool's 4 */
    CHECK(domino_dist_level_task_size(10, 0, 2, 8, 1) == 0);
    CHECK(domino_dist_level_task_size(10, 1, 0, 8, 1) == 0);
}

/* the plan of L over 4 PEs under opt, checked: its task size (-1 when it
 * failed), and whether it holds levels */
static int32_t planned_task_size(domino_handle h, domino_matrix L, const domino_dist_options *opt,
                                 int *has_levels)
{
    domino_dist_plan *plan = NULL;
    CHECK_OK(h, domino_dist_plan_make(h, L, DOMINO_LOWER, 4, opt, &plan));
    if (!plan) return -1;
    check_plan(h, L, DOMINO_LOWER, plan);
    int32_t size = plan->task_size;
    *has_levels = plan->row_level != NULL;
    domino_dist_plan_free(plan);
    return size;
}

/* level_tasks: the task size tied to the plan's levels, only with a task
 * pool and no explicit size, in level order or not; the budget checked on it */
static void test_level_tasks(domino_handle h)
{
    domino_matrix L = NULL;
    domino_dist_options opt;
    domino_dist_plan *plan = NULL;
    domino_levels *lv = NULL;
    int has_levels = 0;
    CHECK_OK(h, domino_gen_dag(h, 20000, 4, 10, 0, 7, DOMINO_FLOAT64, &L));
    CHECK_OK(h, domino_ref_levels(h, DOMINO_OP_N, DOMINO_LOWER, L, &lv));
    CHECK(lv && lv->nlevels == 10 && domino_dist_level_task_size(20000, 10, 4, 8, 64) == 500);
    domino_levels_free(lv);
    domino_dist_options_init(&opt);
    CHECK(opt.level_tasks == 1); /* the default */
    opt.scheme = DOMINO_DIST_TASKPOOL; /* AUTO would link this DAG of 2000 rows a level */
    CHECK(planned_task_size(h, L, &opt, &has_levels) == 500 && has_levels);
    opt.level_order = 0; /* index order: the levels counted all the same */
    CHECK(planned_task_size(h, L, &opt, &has_levels) == 500 && has_levels);
    opt.scheme = DOMINO_DIST_CONTIGUOUS; /* contiguous blocks ignore it */
    CHECK(planned_task_size(h, L, &opt, &has_levels) == 5000 && !has_levels);
    opt.scheme = DOMINO_DIST_TASKPOOL;
    opt.level_order = 1, opt.task_size = 100; /* an explicit size wins */
    CHECK(planned_task_size(h, L, &opt, &has_levels) == 100);
    opt.task_size = 0;
    const int64_t tiny[4] = {1, 1, 1, 1};
    opt.budget = tiny;
    CHECK_STATUS(h, DOMINO_OUT_OF_MEMORY, domino_dist_plan_make(h, L, DOMINO_LOWER, 4, &opt, &plan));
    CHECK(plan == NULL && strstr(domino_last_error(h), "PE 0 needs") != NULL);
    opt.budget = NULL; /* PULL's copies: any non-zero is on */
    for (int copies = 0; copies < 3; copies++) {
        opt.pull_copies = copies;
        CHECK_OK(h, domino_dist_plan_make(h, L, DOMINO_LOWER, 4, &opt, &plan));
        CHECK(plan && plan->pull_copies == (copies != 0));
        domino_dist_plan_free(plan);
        plan = NULL;
    }
    domino_matrix_free(L);
}

/* PULL's lanes per row from the levels: the measured problems of
 * h200x4-trsv-dist-v1 (one PE) and h200x4-hop16/lanes (2 and 4 PEs; the
 * fastest there except D3N7 on 4 PEs, 16), a thread per row on the widest
 * levels (h200x2-eff17), then through the plan */
static void test_pull_lanes(domino_handle h)
{
    CHECK(domino_dist_pull_lanes(16777216, 766, 1) == 4);  /* D3N7 256^3 */
    CHECK(domino_dist_pull_lanes(16777216, 766, 2) == 4);
    CHECK(domino_dist_pull_lanes(16777216, 766, 4) == 8);
    CHECK(domino_dist_pull_lanes(7077888, 1338, 1) == 16); /* D3N27 192^3 */
    CHECK(domino_dist_pull_lanes(7077888, 1338, 2) == 16);
    CHECK(domino_dist_pull_lanes(7077888, 1338, 4) == 32);
    CHECK(domino_dist_pull_lanes(10000000, 1000, 1) == 8); /* DAG of 1000 levels */
    CHECK(domino_dist_pull_lanes(10000000, 1000, 2) == 8);
    CHECK(domino_dist_pull_lanes(10000000, 1000, 4) == 16);
    CHECK(domino_dist_pull_lanes(4194304, 5699, 1) == 32); /* R-MAT 22 */
    CHECK(domino_dist_pull_lanes(4194304, 5699, 4) == 32);
    CHECK(domino_dist_pull_lanes(10000000, 10, 4) == 1);   /* DAGs of 10 and 100 levels */
    CHECK(domino_dist_pull_lanes(10000000, 10, 2) == 1);
    CHECK(domino_dist_pull_lanes(10000000, 10, 1) == 1);
    CHECK(domino_dist_pull_lanes(10000000, 100, 4) == 2);
    CHECK(domino_dist_pull_lanes(10000000, 100, 2) == 1);
    CHECK(domino_dist_pull_lanes(10000000, 100, 1) == 1);
    CHECK(domino_dist_pull_lanes(0, 1, 1) == 32 && domino_dist_pull_lanes(10, 0, 1) == 32 &&
          domino_dist_pull_lanes(10, 1, 0) == 32);
    domino_matrix L = NULL;
    domino_dist_options opt;
    domino_dist_plan *plan = NULL;
    CHECK_OK(h, domino_gen_dag(h, 200000, 4, 1, 0, 3, DOMINO_FLOAT64, &L)); /* one level */
    domino_dist_options_init(&opt);
    CHECK_OK(h, domino_dist_plan_make(h, L, DOMINO_LOWER, 2, &opt, &plan));
    CHECK(plan && plan->pull_lanes == 1);
    domino_dist_plan_free(plan);
    plan = NULL;
    opt.pull_lanes = 16; /* asked for: kept */
    CHECK_OK(h, domino_dist_plan_make(h, L, DOMINO_LOWER, 2, &opt, &plan));
    CHECK(plan && plan->pull_lanes == 16);
    domino_dist_plan_free(plan);
    plan = NULL;
    opt.pull_lanes = 0, opt.level_order = 0; /* index order: a warp (the lanes read no levels) */
    CHECK_OK(h, domino_dist_plan_make(h, L, DOMINO_LOWER, 2, &opt, &plan));
    CHECK(plan && plan->pull_lanes == 32);
    domino_dist_plan_free(plan);
    domino_matrix_free(L);
}

int main(void)
{
    domino_handle h = NULL;
    CHECK_OK(NULL, domino_create(&h));
    int64_t live = domino_debug_alloc_live();
    test_options();
    test_small_by_hand(h);
    test_weights(h);
    test_budget(h);
    test_bad_arguments(h);
    test_bad_slices_in_order(h);
    test_upper_and_csc(h);
    test_stencil(h);
    test_shared(h);
    test_alloc_failures(h);
    test_empty(h);
    test_task_size(h);
    test_pull_lanes(h);
    test_level_tasks(h);
    CHECK(domino_debug_alloc_live() == live);
    domino_destroy(h);
    return check_summary("test_dist_plan");
}
