/* test_dist_plan_linked.c: the LINKED distribution (a component on the PE
 * of a predecessor one level up) and AUTO (the library's default: the
 * level-tied pool, or LINKED where it pays) */
#include "dist_plan_check.h"

/* LINKED: each component on the PE of a predecessor one level up while
 * that PE's share of the level lasts.  By hand: a chain stays on one PE;
 * two interleaved chains on 2 PEs, one each, nothing remote.  A random
 * DAG on 3 PEs: every level within one component of an equal share, and
 * most components beside a predecessor one level up (a 10-level DAG of
 * 30,000 rows: 95 %; the rest found their link's PE full).  Weights;
 * levels given by the caller, and a bad one named */
static void test_linked(domino_handle h)
{
    int32_t rows[12] = {0, 1, 2, 3, 4, 5, 1, 2, 3, 4, 5}, cols[12] = {0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4};
    domino_matrix chain = NULL, pair = NULL, L = NULL;
    CHECK_OK(h, domino_matrix_from_coo(h, DOMINO_CSR, DOMINO_FLOAT64, 6, 6, 11, rows, cols, NULL, &chain));
    domino_dist_plan *P = make(h, chain, DOMINO_LOWER, 3, DOMINO_DIST_LINKED, 8, NULL, NULL);
    CHECK(P && P->scheme == DOMINO_DIST_LINKED && P->task_size == 1 && P->ntasks == 6);
    CHECK(P && P->pe_components[0] == 6 && P->pe_remote[0] == 0);
    domino_dist_plan_free(P);
    /* rows 2 and 4 read 0, 3 and 5 read 1 (pair[k] of the strict entries) */
    int32_t prow[10] = {0, 1, 2, 3, 4, 5, 2, 3, 4, 5}, pcol[10] = {0, 1, 2, 3, 4, 5, 0, 1, 2, 3};
    CHECK_OK(h, domino_matrix_from_coo(h, DOMINO_CSC, DOMINO_FLOAT64, 6, 6, 10, prow, pcol, NULL, &pair));
    P = make(h, pair, DOMINO_LOWER, 2, DOMINO_DIST_LINKED, 8, NULL, NULL);
    for (int32_t i = 0; P && i < 6; i++) CHECK(domino_dist_pe_of(P, i) == i % 2);
    CHECK(P && P->pe_remote[0] == 0 && P->pe_remote[1] == 0);
    domino_dist_plan_free(P);

    CHECK_OK(h, domino_gen_dag(h, 30000, 6, 10, 0, 11, DOMINO_FLOAT64, &L));
    domino_levels *lv = NULL;
    CHECK_OK(h, domino_ref_levels(h, DOMINO_OP_N, DOMINO_LOWER, L, &lv));
    P = make(h, L, DOMINO_LOWER, 3, DOMINO_DIST_LINKED, 8, NULL, NULL);
    domino_matrix_view v;
    CHECK_OK(h, domino_matrix_get_view(h, L, &v));
    int unbalanced = 0;
    int32_t beside = 0, linkable = 0;
    for (int32_t l = 0; P && lv && l < lv->nlevels; l++) {
        int64_t w = lv->level_ptr[l + 1] - lv->level_ptr[l], count[3] = {0, 0, 0};
        for (int64_t k = lv->level_ptr[l]; k < lv->level_ptr[l + 1]; k++) {
            int32_t r = lv->level_rows[k];
            int q = domino_dist_pe_of(P, r), near = 0;
            count[q]++;
            for (int64_t e = v.ptr[r]; e < v.ptr[r + 1]; e++)
                near |= v.ind[e] < r && lv->row_level[v.ind[e]] == l - 1 && domino_dist_pe_of(P, v.ind[e]) == q;
            beside += near;
            linkable += l > 0;
        }
        for (int p = 0; p < 3; p++) unbalanced += count[p] > (w + 2) / 3;
    }
    CHECK(P && lv && lv->nlevels == 10 && unbalanced == 0);
    CHECK(linkable == 27000 && beside >= 25000); /* 25,643 when written */
    domino_dist_plan_free(P);

    int64_t weight[2] = {1, 3};
    P = make(h, L, DOMINO_LOWER, 2, DOMINO_DIST_LINKED, 8, weight, NULL);
    CHECK(P && P->pe_components[1] >= 22500 - 10 && P->pe_components[1] <= 22500 + 10);
    domino_dist_plan_free(P);

    domino_dist_options opt;
    domino_dist_options_init(&opt);
    opt.scheme = DOMINO_DIST_LINKED;
    opt.row_level = lv ? lv->row_level : NULL; /* the caller's levels: the same plan */
    domino_dist_plan *Q = NULL;
    P = make(h, L, DOMINO_LOWER, 3, DOMINO_DIST_LINKED, 8, NULL, NULL);
    CHECK_OK(h, domino_dist_plan_make(h, L, DOMINO_LOWER, 3, &opt, &Q));
    CHECK(P && Q && memcmp(P->task_pe, Q->task_pe, 30000 * sizeof(int)) == 0);
    domino_dist_plan_free(P);
    domino_dist_plan_free(Q);
    Q = NULL;
    int32_t *bad = malloc(30000 * sizeof(int32_t));
    if (bad && lv) memcpy(bad, lv->row_level, 30000 * sizeof(int32_t));
    if (bad) bad[777] = -3;
    opt.row_level = bad;
    CHECK_STATUS(h, DOMINO_BAD_INPUT, domino_dist_plan_make(h, L, DOMINO_LOWER, 3, &opt, &Q));
    CHECK(Q == NULL && strstr(domino_last_error(h), "row_level[777] = -3") != NULL);
    opt.scheme = DOMINO_DIST_TASKPOOL; /* the level order's levels are checked alike */
    CHECK_STATUS(h, DOMINO_BAD_INPUT, domino_dist_plan_make(h, L, DOMINO_LOWER, 3, &opt, &Q));
    CHECK(Q == NULL && strstr(domino_last_error(h), "row_level[777] = -3") != NULL);
    free(bad);
    domino_levels_free(lv);
    domino_matrix_free(L);
    domino_matrix_free(pair);
    domino_matrix_free(chain);
}

/* AUTO on a narrow problem where LINKED sends fewer entries across PEs but
 * loads one PE more (R-MAT hubs): LINKED without a budget; with budgets
 * that the pool meets and LINKED does not, the pool (no failure) */
static void test_auto_budget(domino_handle h)
{
    domino_matrix R = NULL, T = NULL;
    domino_dist_plan *A = NULL, *B = NULL;
    CHECK_OK(h, domino_gen_rmat(h, 13, 8, 0.57, 0.19, 0.19, 0.05, 3, DOMINO_FLOAT64, &R));
    if (R) CHECK_OK(h, domino_matrix_triangle(h, R, DOMINO_LOWER, DOMINO_DIAG_DOMINANT, &T));
    domino_dist_options opt;
    domino_dist_options_init(&opt);
    opt.scheme = DOMINO_DIST_TASKPOOL;
    if (T) CHECK_OK(h, domino_dist_plan_make(h, T, DOMINO_LOWER, 4, &opt, &A)); /* the pool */
    opt.scheme = DOMINO_DIST_AUTO;
    if (T) CHECK_OK(h, domino_dist_plan_make(h, T, DOMINO_LOWER, 4, &opt, &B));
    int64_t pool_max = 0, linked_max = 0, pool_remote = 0, linked_remote = 0;
    for (int p = 0; A && B && p < 4; p++) {
        if (A->pe_bytes[p] > pool_max) pool_max = A->pe_bytes[p];
        if (B->pe_bytes[p] > linked_max) linked_max = B->pe_bytes[p];
        pool_remote += A->pe_remote[p], linked_remote += B->pe_remote[p];
    }
    CHECK(B && B->scheme == DOMINO_DIST_LINKED && linked_remote < pool_remote);
    CHECK(linked_max > pool_max); /* the hubs' chains on one PE */
    if (B) check_plan(h, T, DOMINO_LOWER, B);
    domino_dist_plan_free(B);
    B = NULL;
    int64_t budget[4] = {pool_max, pool_max, pool_max, pool_max};
    opt.budget = budget;
    if (T) CHECK_OK(h, domino_dist_plan_make(h, T, DOMINO_LOWER, 4, &opt, &B));
    CHECK(A && B && B->scheme == DOMINO_DIST_TASKPOOL && B->ntasks == A->ntasks &&
          memcmp(A->task_pe, B->task_pe, (size_t)A->ntasks * sizeof(int)) == 0);
    if (B) check_plan(h, T, DOMINO_LOWER, B);
    domino_dist_plan_free(A);
    domino_dist_plan_free(B);
    domino_matrix_free(T);
    domino_matrix_free(R);
}

/* AUTO: LINKED where a level holds DOMINO_DIST_LINKED_PARALLELISM rows or
 * fewer on average and LINKED sends fewer entries across PEs (the same plan
 * as LINKED asked), else TASKPOOL (the same plan as TASKPOOL asked): the
 * DAGs of 1000 and 10000 rows a level LINKED, that of 15000 the pool, a 2D
 * 5-point 256^2 grid (512 rows a level, its planes kept together by the
 * pool) the pool; an explicit task size is a task pool; in index order
 * with equal tasks the levels it counted are not kept */
static void test_auto(domino_handle h)
{
    domino_matrix G = NULL;
    domino_dist_plan *P = NULL;
    CHECK_OK(h, domino_gen_stencil(h, DOMINO_D2N5, 256, 256, 1, DOMINO_PART_LOWER, DOMINO_FLOAT64, &G));
    if (G) CHECK_OK(h, domino_dist_plan_make(h, G, DOMINO_LOWER, 4, NULL, &P));
    CHECK(P && P->scheme == DOMINO_DIST_TASKPOOL && P->row_level != NULL);
    if (P) check_plan(h, G, DOMINO_LOWER, P);
    domino_dist_plan_free(P);
    domino_matrix_free(G);
    test_auto_budget(h);
    static const int32_t levels[3] = {30, 3, 2}; /* 1000, 10000 and 15000 rows a level */
    for (int k = 0; k < 3; k++) {
        domino_matrix L = NULL;
        domino_dist_options opt;
        domino_dist_plan *A = NULL, *B = NULL;
        CHECK_OK(h, domino_gen_dag(h, 30000, 6, levels[k], 0, 19, DOMINO_FLOAT64, &L));
        domino_dist_options_init(&opt);
        CHECK_OK(h, domino_dist_plan_make(h, L, DOMINO_LOWER, 3, &opt, &A));
        domino_dist_scheme want = k < 2 ? DOMINO_DIST_LINKED : DOMINO_DIST_TASKPOOL;
        opt.scheme = want;
        CHECK_OK(h, domino_dist_plan_make(h, L, DOMINO_LOWER, 3, &opt, &B));
        CHECK(A && B && A->scheme == want && B->scheme == want);
        CHECK(A && B && A->task_size == B->task_size && A->ntasks == B->ntasks &&
              memcmp(A->task_pe, B->task_pe, (size_t)A->ntasks * sizeof(int)) == 0);
        CHECK(A && B && A->pull_lanes == B->pull_lanes && A->row_level && B->row_level);
        if (A) check_plan(h, L, DOMINO_LOWER, A);
        domino_dist_plan_free(A);
        domino_dist_plan_free(B);
        A = NULL;
        opt.scheme = DOMINO_DIST_AUTO, opt.task_size = 7;
        CHECK_OK(h, domino_dist_plan_make(h, L, DOMINO_LOWER, 3, &opt, &A));
        CHECK(A && A->scheme == DOMINO_DIST_TASKPOOL && A->task_size == 7);
        domino_dist_plan_free(A);
        A = NULL;
        opt.task_size = 0, opt.level_order = 0, opt.level_tasks = 0;
        CHECK_OK(h, domino_dist_plan_make(h, L, DOMINO_LOWER, 3, &opt, &A));
        CHECK(A && A->scheme == want && (A->row_level != NULL) == (want == DOMINO_DIST_LINKED));
        domino_dist_plan_free(A);
        domino_matrix_free(L);
    }
}

int main(void)
{
    domino_handle h = NULL;
    CHECK_OK(NULL, domino_create(&h));
    int64_t live = domino_debug_alloc_live();
    test_linked(h);
    test_auto(h);
    CHECK(domino_debug_alloc_live() == live);
    domino_destroy(h);
    return check_summary("test_dist_plan_linked");
}
