/* test_dist_trsv.c: the multi-GPU triangular solvers against the CPU
 * reference, one PE per GPU of the machine.  Label dist.
 *  - ZEROCOPY, PUSH and PULL (NVSHMEM, PEs forked by domino_launch, or started by
 *    mpirun when run under it) and UNIFIED (one process, every GPU):
 *    random DAGs of several depths, a 27-point stencil (lower and upper),
 *    the shared matrices (cage8 with a dominant diagonal, bcsstk13 as
 *    stored: one triangle of a symmetric matrix, luxembourg), unit and
 *    non-unit, contiguous and task-pool distributions, index and level
 *    order, two solves per plan;
 *  - a plan that does not fit the run fails on every PE alike, no hang;
 *  - a need that can never be met (white box) ends the solve with
 *    DOMINO_TIMEOUT naming the row on every PE, no hang. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "check.h"
#include "domino.h"
#include "cuda/dist_trsv_internal.h" /* white box: the need table */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FORWARD_EPS 1e3
static const double eps = 2.220446049250313e-16;

static const char *shared_path(const char *name)
{
    static char path[1024];
    const char *dir = getenv("DOMINO_SHARED_MATRICES");
    snprintf(path, sizeof path, "%s/%s", dir ? dir : DOMINO_SHARED_MATRICES, name);
    return path;
}

/* a test matrix: the whole matrix, which triangle, which diagonal */
typedef struct test_case {
    const char *name; /* printed */
    domino_matrix A;  /* owned */
    domino_fill fill; /* triangle solved */
    domino_diag diag; /* unit or not */
} test_case;

/* the matrices, alike on every PE; returns how many */
static int make_cases(domino_handle h, test_case *c)
{
    int k = 0;
    static const int32_t levels[] = {1, 40, 3000};
    for (int l = 0; l < 3; l++) {
        c[k] = (test_case){"dag", NULL, DOMINO_LOWER, DOMINO_NON_UNIT};
        CHECK_OK(h, domino_gen_dag(h, 30000, 6, levels[l], 0, 5 + l, DOMINO_FLOAT64, &c[k].A));
        k++;
    }
    c[k] = (test_case){"dag unit", NULL, DOMINO_LOWER, DOMINO_UNIT};
    CHECK_OK(h, domino_gen_dag(h, 5000, 4, 50, 0, 9, DOMINO_FLOAT64, &c[k++].A));
    domino_matrix S = NULL, R = NULL;
    CHECK_OK(h,
             domino_gen_stencil(h, DOMINO_D3N27, 20, 18, 16, DOMINO_PART_FULL, DOMINO_FLOAT64, &S));
    c[k++] = (test_case){"d3n27 lower", S, DOMINO_LOWER, DOMINO_NON_UNIT};
    domino_matrix S2 = NULL;
    CHECK_OK(h, domino_matrix_copy(h, S, &S2));
    c[k++] = (test_case){"d3n27 upper", S2, DOMINO_UPPER, DOMINO_NON_UNIT};
    CHECK_OK(h, domino_mm_read(h, shared_path("cage8.mtx"), DOMINO_FLOAT64, 0, &R));
    c[k] = (test_case){"cage8", NULL, DOMINO_LOWER, DOMINO_NON_UNIT};
    if (R) CHECK_OK(h, domino_matrix_triangle(h, R, DOMINO_LOWER, DOMINO_DIAG_DOMINANT, &c[k].A));
    domino_matrix_free(R);
    k++;
    c[k] = (test_case){"bcsstk13 (symmetric storage)", NULL, DOMINO_UPPER, DOMINO_NON_UNIT};
    CHECK_OK(h, domino_mm_read(h, shared_path("bcsstk13.mtx"), DOMINO_FLOAT64, 0, &c[k].A));
    k++;
    R = NULL;
    CHECK_OK(h, domino_mm_read(h, shared_path("luxembourg.mtx"), DOMINO_FLOAT64, 0, &R));
    c[k] = (test_case){"luxembourg", NULL, DOMINO_LOWER, DOMINO_NON_UNIT};
    if (R) CHECK_OK(h, domino_matrix_triangle(h, R, DOMINO_LOWER, DOMINO_DIAG_DOMINANT, &c[k].A));
    domino_matrix_free(R);
    k++;
    return k;
}

/* the reference solution of case c for b */
static void reference(domino_handle h, const test_case *c, const double *b, double *xr)
{
    domino_matrix E = NULL;
    domino_matrix_view v;
    CHECK_OK(h, domino_matrix_symmetric_expand(h, c->A, &E));
    CHECK_OK(h, domino_matrix_get_view(h, c->A, &v));
    CHECK_OK(h, domino_ref_trsv(h, DOMINO_OP_N, c->fill, c->diag, E, 1, b, v.nrows, xr, v.nrows));
    domino_matrix_free(E);
}

/* max |x - xr| / max(1, max |xr|) */
static double forward_error(int32_t n, const double *x, const double *xr)
{
    double d = 0, scale = 1;
    for (int32_t i = 0; i < n; i++) {
        d = fmax(d, isfinite(x[i]) ? fabs(x[i] - xr[i]) : INFINITY);
        scale = fmax(scale, fabs(xr[i]));
    }
    return d / scale;
}

/* solve case c twice with T (second b different) against the reference */
static void check_solves(domino_handle h, const char *who, const test_case *c, domino_dist_trsv T)
{
    domino_matrix_view v;
    CHECK_OK(h, domino_matrix_get_view(h, c->A, &v));
    int32_t n = v.nrows;
    double *b = malloc(n * sizeof(double) + 8), *x = malloc(n * sizeof(double) + 8),
           *xr = malloc(n * sizeof(double) + 8);
    for (int round = 0; round < 2; round++) {
        for (int32_t i = 0; i < n; i++)
            b[i] = 1.0 + ((i * (round + 3)) % 11) / 8.0;
        reference(h, c, b, xr);
        double secs = -1;
        for (int32_t i = 0; i < n; i++)
            x[i] = NAN;
        domino_status s = domino_dist_trsv_solve(h, T, b, x, &secs);
        double d = s ? INFINITY : forward_error(n, x, xr);
        if (!s && d <= FORWARD_EPS * eps && secs >= 0) {
            check_passed++;
        } else {
            check_failed++;
            fprintf(stderr, "FAIL: %s %s round %d: %s (%s), forward error %.3e\n", who, c->name,
                    round, domino_status_name(s), s ? domino_last_error(h) : "", d);
        }
    }
    free(b);
    free(x);
    free(xr);
}

/* the plan of scheme s, a row of schemes[] */
static domino_dist_plan *make_plan(domino_handle h, const test_case *c, int npes, const int *s)
{
    domino_dist_options opt;
    domino_dist_plan *plan = NULL;
    domino_dist_options_init(&opt);
    opt.scheme = (domino_dist_scheme)s[0];
    opt.tasks_per_pe = s[1];
    opt.level_order = s[2];
    opt.pull_lanes = s[3];
    opt.pull_copies = s[4];
    opt.level_tasks = s[5];
    CHECK_OK(h, domino_dist_plan_make(h, c->A, c->fill, npes, &opt, &plan));
    return plan;
}

#define MAX_CASES 16
/* scheme, tasks per PE, level order, PULL's lanes per row and copies (the
 * other solvers ignore these two), tasks tied to the level width; the
 * twelfth row is the level-tied task pool, the thirteenth the LINKED deal
 * (a task per component), the last the library's defaults
 * (domino_dist_options_init: AUTO, one of the two by the levels' width) */
#define NSCHEMES 14
static const int schemes[NSCHEMES][6] = {
    {DOMINO_DIST_CONTIGUOUS, 1, 0, 0, 0, 0}, {DOMINO_DIST_TASKPOOL, 8, 0, 0, 0, 0},
    {DOMINO_DIST_TASKPOOL, 32, 0, 0, 0, 0},  {DOMINO_DIST_TASKPOOL, 8, 1, 0, 0, 0},
    {DOMINO_DIST_CONTIGUOUS, 1, 1, 0, 0, 0}, {DOMINO_DIST_TASKPOOL, 8, 1, 4, 0, 0},
    {DOMINO_DIST_CONTIGUOUS, 1, 1, 8, 0, 0}, {DOMINO_DIST_TASKPOOL, 8, 1, 0, 1, 0},
    {DOMINO_DIST_TASKPOOL, 32, 0, 4, 1, 0},  {DOMINO_DIST_TASKPOOL, 8, 1, 1, 1, 0},
    {DOMINO_DIST_CONTIGUOUS, 1, 1, 2, 1, 0}, {DOMINO_DIST_TASKPOOL, 8, 1, 0, 1, 1},
    {DOMINO_DIST_LINKED, 8, 1, 0, 1, 0},     {DOMINO_DIST_AUTO, 8, 1, 0, 1, 1}};

/* the unified-memory solver on every GPU of this process */
static int pe_unified(const domino_launch_info *info, void *arg)
{
    (void)info;
    int npes = *(int *)arg;
    domino_handle h = NULL;
    test_case c[MAX_CASES];
    CHECK_OK(h, domino_create(&h));
    int nc = make_cases(h, c);
    for (int k = 0; k < nc; k++) {
        for (int sc = 0; sc < NSCHEMES && c[k].A; sc++) {
            domino_dist_plan *plan = make_plan(h, &c[k], npes, schemes[sc]);
            domino_dist_trsv T = NULL;
            CHECK_OK(h, domino_dist_trsv_unified(h, c[k].fill, c[k].diag, c[k].A, plan, &T));
            if (T) check_solves(h, "unified", &c[k], T);
            domino_dist_trsv_free(T);
            domino_dist_plan_free(plan);
        }
        domino_matrix_free(c[k].A);
    }
    domino_destroy(h);
    return check_summary("test_dist_trsv (unified memory)") ? 1 : 0;
}

/* a wait that can never end: bump one need of PE 0's middle component */
static void check_timeout(domino_handle h, domino_dist D, const test_case *c)
{
    domino_dist_plan *plan = make_plan(h, c, domino_dist_npes(D), schemes[1]);
    domino_dist_trsv T = NULL;
    setenv("DOMINO_DIST_TIMEOUT_S", "2", 1);
    CHECK_OK(h, domino_dist_trsv_make(h, D, DOMINO_DIST_PUSH, c->fill, c->diag, c->A, plan, &T));
    unsetenv("DOMINO_DIST_TIMEOUT_S");
    if (T && domino_dist_rank(D) == 0) {
        int32_t k = T->g[0].nloc / 2, need = 0;
        int32_t *at = (int32_t *)T->g[0].a.need + k;
        cudaMemcpy(&need, at, sizeof(need), cudaMemcpyDeviceToHost);
        need += 1;
        cudaMemcpy(at, &need, sizeof(need), cudaMemcpyHostToDevice);
    }
    int32_t n = plan ? plan->n : 0;
    double *b = calloc(n + 1, sizeof(double)), *x = calloc(n + 1, sizeof(double));
    if (T) {
        domino_status s = domino_dist_trsv_solve(h, T, b, x, NULL);
        CHECK(s == DOMINO_TIMEOUT);
        if (domino_dist_rank(D) == 0) CHECK(strstr(domino_last_error(h), "PE 0: row") != NULL);
        fprintf(stderr, "PE %d (expected timeout): %s\n", domino_dist_rank(D),
                domino_last_error(h));
    }
    free(b);
    free(x);
    domino_dist_trsv_free(T);
    domino_dist_plan_free(plan);
}

/* one PE of the NVSHMEM solvers */
static int pe_nvshmem(const domino_launch_info *info, void *arg)
{
    (void)info;
    (void)arg;
    domino_handle h = NULL;
    domino_dist D = NULL;
    test_case c[MAX_CASES];
    char who[64];
    CHECK_OK(h, domino_create(&h));
    CHECK_OK(h, domino_dist_join(h, &D));
    if (!D) {
        fprintf(stderr, "cannot join: %s\n", domino_last_error(h));
        return 2;
    }
    int npes = domino_dist_npes(D), rank = domino_dist_rank(D);
    int nc = make_cases(h, c);
    for (int k = 0; k < nc; k++) {
        for (int solver = DOMINO_DIST_ZEROCOPY; solver <= DOMINO_DIST_PULL && c[k].A; solver++)
            for (int sc = 0; sc < NSCHEMES; sc++) {
                domino_dist_plan *plan = make_plan(h, &c[k], npes, schemes[sc]);
                domino_dist_trsv T = NULL;
                snprintf(who, sizeof who, "PE %d/%d %s scheme %d", rank, npes,
                         solver == DOMINO_DIST_ZEROCOPY ? "zerocopy"
                         : solver == DOMINO_DIST_PUSH   ? "push"
                                                        : "pull",
                         sc);
                CHECK_OK(h, domino_dist_trsv_make(h, D, (domino_dist_solver)solver, c[k].fill,
                                                  c[k].diag, c[k].A, plan, &T));
                if (T) check_solves(h, who, &c[k], T);
                domino_dist_trsv_free(T);
                domino_dist_plan_free(plan);
            }
    }
    /* a plan for another number of PEs: every PE fails alike */
    domino_dist_plan *wrong = make_plan(h, &c[0], npes + 1, schemes[1]);
    domino_dist_trsv T = NULL;
    CHECK_STATUS(h, DOMINO_DIMENSION_MISMATCH,
                 domino_dist_trsv_make(h, D, DOMINO_DIST_ZEROCOPY, DOMINO_LOWER, DOMINO_NON_UNIT,
                                       c[0].A, wrong, &T));
    domino_dist_plan_free(wrong);
    /* PE 0 alone has a bad solver: the others learn it from agreement */
    domino_dist_plan *plan = make_plan(h, &c[0], npes, schemes[1]);
    domino_status s =
        domino_dist_trsv_make(h, D, rank == 0 ? DOMINO_DIST_UNIFIED : DOMINO_DIST_PUSH,
                              DOMINO_LOWER, DOMINO_NON_UNIT, c[0].A, plan, &T);
    CHECK(s == DOMINO_INVALID_VALUE && T == NULL);
    if (rank != 0) CHECK(strstr(domino_last_error(h), "PE 0 failed") != NULL);
    domino_dist_plan_free(plan);
    check_timeout(h, D, &c[1]);
    for (int k = 0; k < nc; k++)
        domino_matrix_free(c[k].A);
    CHECK_OK(h, domino_dist_leave(h, D));
    domino_destroy(h);
    snprintf(who, sizeof who, "test_dist_trsv PE %d of %d", rank, npes);
    return check_summary(who) ? 1 : 0;
}

int main(void)
{
    if (getenv("OMPI_COMM_WORLD_SIZE")) { /* started by mpirun: join through MPI */
        int size = atoi(getenv("OMPI_COMM_WORLD_SIZE"));
        if (domino_gpu_count() < size) {
            printf("test_dist_trsv: %d ranks, %d GPUs: skipped\n", size, domino_gpu_count());
            return 0;
        }
        return pe_nvshmem(NULL, NULL);
    }
    int npes = domino_launch_gpu_count(); /* CUDA stays out of this process */
    if (npes == 0) {
        printf("test_dist_trsv: no CUDA device, skipped\n");
        return 0;
    }
    CHECK(domino_launch(npes, pe_nvshmem, NULL) == 0);
    CHECK(domino_launch(1, pe_unified, &npes) == 0);
    return check_summary("test_dist_trsv");
}
