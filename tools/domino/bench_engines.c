/* bench_engines.c: the engines the CLI runs (CPU reference solvers and the
 * GPU engines of the library) and how each kind is timed */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */
#include "bench_engines.h"
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const bench_engine bench_engines[] = {
    {"cpu-seq", 0, CPU_SEQUENTIAL, DOMINO_ENGINE_AUTO, cpu_run, 0, 0, NULL},
    {"cpu-syncfree", 0, CPU_SYNCFREE, DOMINO_ENGINE_AUTO, cpu_run, 0, 0, NULL},
    {"auto", 1, CPU_SEQUENTIAL, DOMINO_ENGINE_AUTO, gpu_run, 0, 0, NULL},
    {"levelset", 1, CPU_SEQUENTIAL, DOMINO_ENGINE_LEVELSET, gpu_run, 0, 0, NULL},
    {"levelset-lanes", 1, CPU_SEQUENTIAL, DOMINO_ENGINE_LEVELSET, gpu_run, 0, 0, "DOMINO_LEVELSET_LANES=auto"},
    {"warp", 1, CPU_SEQUENTIAL, DOMINO_ENGINE_WARP, gpu_run, 0, 0, NULL},
    {"thread-any", 1, CPU_SEQUENTIAL, DOMINO_ENGINE_THREAD, gpu_run, 0, 0, "DOMINO_ANY_ORDER=1"},
    {"thread", 1, CPU_SEQUENTIAL, DOMINO_ENGINE_THREAD, gpu_run, 0, 0, NULL},
    {"thread-packed", 1, CPU_SEQUENTIAL, DOMINO_ENGINE_THREAD, gpu_run, 0, 0, "DOMINO_PACKED=1"},
    {"csc", 1, CPU_SEQUENTIAL, DOMINO_ENGINE_CSC, gpu_run, 0, 0, NULL},
    {"block", 1, CPU_SEQUENTIAL, DOMINO_ENGINE_BLOCK, gpu_run, 0, 0, NULL},
    {"block-global", 1, CPU_SEQUENTIAL, DOMINO_ENGINE_BLOCK, gpu_run, 0, 0, "DOMINO_BLOCK_SHARED=0"},
    {"levelblock", 1, CPU_SEQUENTIAL, DOMINO_ENGINE_LEVELBLOCK, gpu_run, 0, 0, NULL},
    {"levelblock-global", 1, CPU_SEQUENTIAL, DOMINO_ENGINE_LEVELBLOCK, gpu_run, 0, 0, "DOMINO_LEVELBLOCK_SHARED=0"},
    {"stepblock", 1, CPU_SEQUENTIAL, DOMINO_ENGINE_STEPBLOCK, gpu_run, 0, 0, NULL},
    {"stepblock-warp", 1, CPU_SEQUENTIAL, DOMINO_ENGINE_STEPBLOCK, gpu_run, 0, 0, "DOMINO_STEPBLOCK_WARP=1"},
    {"stepblock-256", 1, CPU_SEQUENTIAL, DOMINO_ENGINE_STEPBLOCK, gpu_run, 0, 0, "DOMINO_STEPBLOCK_WARP=0"},
    {"cusparse", 1, CPU_SEQUENTIAL, DOMINO_ENGINE_CUSPARSE, gpu_run, 0, 0, NULL},
    {"spmv", 1, CPU_SEQUENTIAL, DOMINO_ENGINE_CUSPARSE, spmv_run, 0, 0, NULL},
    {"stencil", 1, CPU_SEQUENTIAL, DOMINO_ENGINE_AUTO, stencil_run, DOMINO_STENCIL_DOMINO, 0, NULL},
    {"stencil-compact", 1, CPU_SEQUENTIAL, DOMINO_ENGINE_AUTO, stencil_run, DOMINO_STENCIL_DOMINO, 1, NULL},
    {"stencil-partition", 1, CPU_SEQUENTIAL, DOMINO_ENGINE_AUTO, stencil_run, DOMINO_STENCIL_PARTITION, 0, NULL},
    {"stencil-multistage", 1, CPU_SEQUENTIAL, DOMINO_ENGINE_AUTO, stencil_run, DOMINO_STENCIL_MULTISTAGE, 0, NULL},
    {"stencil-compressed", 1, CPU_SEQUENTIAL, DOMINO_ENGINE_AUTO, stencil_run, DOMINO_STENCIL_COMPRESSED, 0, NULL},
};
const int bench_engine_count = (int)(sizeof(bench_engines) / sizeof(bench_engines[0]));

const bench_engine *bench_engine_find(const char *name)
{
    if (strcmp(name, "cpu") == 0) name = "cpu-seq";
    for (int i = 0; i < bench_engine_count; i++)
        if (strcmp(bench_engines[i].name, name) == 0) return &bench_engines[i];
    return NULL;
}

int bench_engine_is_stencil(const bench_engine *e) { return e->run == stencil_run; }

int bench_engine_is_spmv(const bench_engine *e) { return e->run == spmv_run; }

void solve_problem_release(solve_problem *p)
{
    domino_matrix_free(p->T_transposed);
    domino_dmatrix_free(p->dT);
    p->T_transposed = NULL;
    p->dT = NULL;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bench_median(double *times, int count)
{
    if (count <= 0) return 0;
    qsort(times, (size_t)count, sizeof(double), compare_doubles);
    return count % 2 ? times[count / 2] : 0.5 * (times[count / 2 - 1] + times[count / 2]);
}

/* the synchronization-free CPU solve of op(T) X = B, one column at a time;
 * op T runs as op N on the transposed triangle */
static domino_status cpu_syncfree_solve(domino_handle h, solve_problem *p, void *X)
{
    domino_matrix A = p->T;
    domino_fill fill = p->fill;
    domino_matrix_view v;
    domino_status s;
    if (p->op == DOMINO_OP_T) {
        if (!p->T_transposed && (s = domino_matrix_transpose(h, p->T, &p->T_transposed))) return s;
        A = p->T_transposed;
        fill = fill == DOMINO_LOWER ? DOMINO_UPPER : DOMINO_LOWER;
    }
    if ((s = domino_matrix_get_view(h, A, &v))) return s;
    size_t column_bytes = (size_t)p->n * domino_type_size(v.type);
    for (int32_t j = 0; j < p->nrhs; j++) {
        s = domino_ref_trsv_syncfree(h, fill, p->diag, A, (const char *)p->B + j * column_bytes,
                                     (char *)X + j * column_bytes, 0);
        if (s) return s;
    }
    return DOMINO_SUCCESS;
}

/* one CPU solve of the kind of e */
static domino_status cpu_solve_once(domino_handle h, const bench_engine *e, solve_problem *p,
                                    void *X)
{
    if (e->cpu == CPU_SYNCFREE) return cpu_syncfree_solve(h, p, X);
    return domino_ref_trsv(h, p->op, p->fill, p->diag, p->T, p->nrhs, p->B, p->n, X, p->n);
}

domino_status cpu_run(domino_handle h, const bench_engine *e, solve_problem *p, int repeat,
                      void *X, engine_timing *t)
{
    domino_status s = DOMINO_SUCCESS;
    int runs = repeat > 0 ? repeat : 1;
    double *times = domino_malloc((size_t)runs * sizeof(double));
    memset(t, 0, sizeof(*t));
    snprintf(t->used, sizeof(t->used), "%s", e->name);
    if (!times) return domino_error(h, DOMINO_OUT_OF_MEMORY, "bench: out of memory");
    if (repeat > 0 && (s = cpu_solve_once(h, e, p, X))) goto cleanup; /* warm-up */
    for (int r = 0; r < runs; r++) {
        double start = domino_wtime();
        if ((s = cpu_solve_once(h, e, p, X))) goto cleanup;
        times[r] = 1e3 * (domino_wtime() - start);
    }
    t->solve_ms = bench_median(times, runs);
    t->solve_ms_min = times[0];
cleanup:
    domino_free(times);
    return s;
}

/* the timed GPU solves of a plan: warm-up with pivot check (the first
 * solve, timed as such), up to BENCH_SETTLE_SOLVES more within
 * BENCH_SETTLE_SECONDS (an auto plan times its walks on its first six
 * solves, and the step-block engine on one, then keeps the fastest: the
 * timed solves are the steady state), then repeat solves each between timer
 * events; every engine gets the same */
#define BENCH_SETTLE_SOLVES 7
#define BENCH_SETTLE_SECONDS 1.0
static domino_status gpu_timed_solves(domino_handle h, domino_trsv_plan plan, solve_problem *p,
                                      const void *dB, void *dX, int repeat, engine_timing *t)
{
    int runs = repeat > 0 ? repeat : 1;
    double *times = domino_malloc((size_t)runs * sizeof(double));
    domino_status s = DOMINO_SUCCESS;
    if (!times) return domino_error(h, DOMINO_OUT_OF_MEMORY, "bench: out of memory");
    if (repeat > 0) {
        /* DOMINO_BENCH_FIRST_CHECK=0 (diagnostics): the first solve without its pivot read-back */
        const char *first_check = getenv("DOMINO_BENCH_FIRST_CHECK");
        int check = !first_check || atoi(first_check) != 0;
        double start = domino_wtime();
        if ((s = domino_gpu_timer_begin(h))) goto cleanup;
        if ((s = domino_trsv_solve(h, plan, dB, p->n, dX, p->n, check))) goto cleanup;
        if ((s = domino_gpu_timer_end(h, &t->first_ms))) goto cleanup;
        for (int k = 0; k < BENCH_SETTLE_SOLVES && domino_wtime() - start < BENCH_SETTLE_SECONDS; k++)
            if ((s = domino_trsv_solve(h, plan, dB, p->n, dX, p->n, 0)) || (s = domino_gpu_synchronize(h)))
                goto cleanup;
    }
    for (int r = 0; r < runs; r++) {
        if ((s = domino_gpu_timer_begin(h))) goto cleanup;
        /* a single solve (repeat 0) checks its pivots itself */
        if ((s = domino_trsv_solve(h, plan, dB, p->n, dX, p->n, repeat == 0))) goto cleanup;
        if ((s = domino_gpu_timer_end(h, &times[r]))) goto cleanup;
    }
    t->solve_ms = bench_median(times, runs);
    t->solve_ms_min = times[0];
cleanup:
    domino_free(times);
    return s;
}

domino_status gpu_run(domino_handle h, const bench_engine *e, solve_problem *p, int repeat,
                      void *X, engine_timing *t)
{
    domino_trsv_options opt;
    domino_trsv_plan plan = NULL;
    domino_matrix_view v;
    void *dB = NULL, *dX = NULL;
    char name[64] = "", *saved = NULL; /* the engine's setting: its name, its value before */
    domino_status s;
    memset(t, 0, sizeof(*t));
    snprintf(t->used, sizeof(t->used), "%s", e->name);
    if ((s = domino_matrix_get_view(h, p->T, &v))) return s;
    size_t bytes = (size_t)p->n * (size_t)p->nrhs * domino_type_size(v.type);
    if (!p->dT && (s = domino_dmatrix_upload(h, p->T, &p->dT))) goto cleanup;
    domino_trsv_options_init(&opt);
    opt.engine = e->gpu_engine;
    if (e->setting) { /* read by the analysis; the caller's value restored below */
        const char *eq = strchr(e->setting, '=');
        snprintf(name, sizeof name, "%.*s", (int)(eq - e->setting), e->setting);
        const char *before = getenv(name);
        if (before) saved = strdup(before);
        setenv(name, eq + 1, 1);
    }
    if ((s = domino_gpu_malloc(h, bytes, &dB))) goto cleanup;
    if ((s = domino_gpu_malloc(h, bytes, &dX))) goto cleanup;
    if ((s = domino_gpu_upload(h, dB, p->B, bytes))) goto cleanup;
    /* a first analysis and solve load the engine's kernels (lazy module
     * loading) and warm the allocator; the second analysis is timed, and so
     * is the first solve after it */
    if ((s = domino_trsv_analysis(h, p->op, p->fill, p->diag, p->dT, p->nrhs, &opt, NULL, &plan)))
        goto cleanup;
    if ((s = domino_trsv_solve(h, plan, dB, p->n, dX, p->n, 1))) goto cleanup;
    domino_trsv_plan_free(plan);
    plan = NULL;
    if ((s = domino_trsv_analysis(h, p->op, p->fill, p->diag, p->dT, p->nrhs, &opt, NULL, &plan)))
        goto cleanup;
    t->analysis_ms = 1e3 * domino_trsv_plan_analysis_seconds(plan);
    if ((s = gpu_timed_solves(h, plan, p, dB, dX, repeat, t))) goto cleanup;
    /* the engine after the solves: auto may change it on its first ones */
    snprintf(t->used, sizeof(t->used), "%s%s", domino_engine_name(domino_trsv_plan_engine(plan)),
             !e->setting ? "" : strstr(e->name, "-lanes") ? "-lanes" : strstr(e->name, "-global") ? "-global"
                                                          : strstr(e->name, "-any") ? "-any"
                                                          : strstr(e->name, "-packed") ? "-packed"
                                                          : strstr(e->name, "-warp") ? "-warp"
                                                          : strstr(e->name, "-256") ? "-256" : "");
    s = domino_gpu_download(h, X, dX, bytes);
cleanup:
    if (e->setting && saved) setenv(name, saved, 1);
    else if (e->setting) unsetenv(name);
    free(saved);
    domino_trsv_plan_free(plan);
    domino_gpu_free(dB);
    domino_gpu_free(dX);
    return s;
}
