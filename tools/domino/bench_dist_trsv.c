/* bench_dist_trsv.c: "domino run -n N bench --suite trsv-dist": for each
 * problem, the single-GPU solves (cuSPARSE SpSV and domino's AUTO engine, on
 * PE 0's GPU), the unified-memory baseline (PE 0 drives all N GPUs), and the
 * NVSHMEM zero-copy and push solvers on the N PEs, contiguous and with 4,
 * 8, 16, 32 tasks per PE, and (stencil problems) the structured solve
 * by slabs of y over the PEs.  Every answer is checked against the CPU
 * reference before its time is reported; times are medians of the timed
 * solves (the largest over PEs for NVSHMEM). */
#define _POSIX_C_SOURCE 200809L /* strdup, strtok_r */
#include "bench_dist_trsv.h"
#include "bench_engines.h"
#include "bench_problems.h"
#include "bench_report.h"
#include "cli_util.h"
#include "domino.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef DOMINO_HAVE_NVSHMEM
int bench_dist_trsv_run(const dist_bench_request *rq)
{
    (void)rq;
    return cli_no_nvshmem("bench --suite trsv-dist");
}
#else
#define ANSWER_TOL 1e-8 /* forward error accepted against the CPU reference */

/* what a configuration runs */
typedef enum config_kind {
    K_CUSPARSE = 0, K_DOMINO = 1, K_UNIFIED = 2, K_ZEROCOPY = 3, K_PUSH = 4, K_PULL = 5,
    K_SLABS = 6 /* domino_dist_stencil: the structured solve by slabs of y (stencil problems) */
} config_kind;

typedef struct dist_config {
    const char *name;  /* as typed in --engines and printed */
    config_kind kind;  /* what runs */
    int scheme;        /* domino_dist_scheme */
    int tasks;         /* tasks per PE (TASKPOOL) */
    int level_order;   /* components taken level by level */
    int tied;          /* 1: task size tied to the level width (domino_dist_level_task_size) */
    int lanes;         /* PULL: lanes per row (0: the plan's, from the levels) */
    int plain;         /* UNIFIED: managed memory without advice (DOMINO_DIST_UM_PLAIN=1) */
    int copies;        /* PULL: x_i stored into its readers' arrays (domino_dist_options.pull_copies) */
} dist_config;

static const dist_config configs[] = {
    {"cusparse-1gpu", K_CUSPARSE, 0, 1, 0, 0, 0, 0, 0},    {"domino-1gpu", K_DOMINO, 0, 1, 0, 0, 0, 0, 0},
    {"um", K_UNIFIED, 0, 1, 0, 0, 0, 0, 0},                {"um-tasks8", K_UNIFIED, 1, 8, 0, 0, 0, 0, 0},
    {"zerocopy", K_ZEROCOPY, 0, 1, 0, 0, 0, 0, 0},         {"zerocopy-tasks4", K_ZEROCOPY, 1, 4, 0, 0, 0, 0, 0},
    {"zerocopy-tasks8", K_ZEROCOPY, 1, 8, 0, 0, 0, 0, 0},  {"zerocopy-tasks16", K_ZEROCOPY, 1, 16, 0, 0, 0, 0, 0},
    {"zerocopy-tasks32", K_ZEROCOPY, 1, 32, 0, 0, 0, 0, 0}, {"push", K_PUSH, 0, 1, 0, 0, 0, 0, 0},
    {"push-tasks4", K_PUSH, 1, 4, 0, 0, 0, 0, 0},          {"push-tasks8", K_PUSH, 1, 8, 0, 0, 0, 0, 0},
    {"push-tasks16", K_PUSH, 1, 16, 0, 0, 0, 0, 0},        {"push-tasks32", K_PUSH, 1, 32, 0, 0, 0, 0, 0},
    {"um-tasks8-level", K_UNIFIED, 1, 8, 1, 0, 0, 0, 0}, {"zerocopy-level", K_ZEROCOPY, 0, 1, 1, 0, 0, 0, 0},
    {"zerocopy-tasks8-level", K_ZEROCOPY, 1, 8, 1, 0, 0, 0, 0}, {"push-tasks8-level", K_PUSH, 1, 8, 1, 0, 0, 0, 0},
    {"pull", K_PULL, 0, 1, 0, 0, 0, 0, 0},              {"pull-tasks8", K_PULL, 1, 8, 0, 0, 0, 0, 0},
    {"pull-level", K_PULL, 0, 1, 1, 0, 0, 0, 0},        {"pull-tasks8-level", K_PULL, 1, 8, 1, 0, 0, 0, 0},
    {"zerocopy-tied", K_ZEROCOPY, 1, 8, 0, 1, 0, 0, 0}, {"pull-tied-level", K_PULL, 1, 8, 1, 1, 0, 0, 0},
    {"pull-tasks4-level", K_PULL, 1, 4, 1, 0, 0, 0, 0}, {"pull-tasks16-level", K_PULL, 1, 16, 1, 0, 0, 0, 0},
    {"pull-tasks32-level", K_PULL, 1, 32, 1, 0, 0, 0, 0},
    {"pull-tasks8-level-lanes16", K_PULL, 1, 8, 1, 0, 16, 0, 0}, {"pull-tasks8-level-lanes8", K_PULL, 1, 8, 1, 0, 8, 0, 0},
    {"pull-tasks8-level-lanes4", K_PULL, 1, 8, 1, 0, 4, 0, 0}, {"pull-tasks8-level-lanes32", K_PULL, 1, 8, 1, 0, 32, 0, 0},
    {"stencil-slabs", K_SLABS, 0, 1, 0, 0, 0, 0, 0},
    {"um-plain", K_UNIFIED, 0, 1, 0, 0, 0, 1, 0},      {"um-plain-tasks8", K_UNIFIED, 1, 8, 0, 0, 0, 1, 0},
    {"um-tasks32", K_UNIFIED, 1, 32, 0, 0, 0, 0, 0},   {"um-tied", K_UNIFIED, 1, 8, 0, 1, 0, 0, 0},
    {"zerocopy-tasks64", K_ZEROCOPY, 1, 64, 0, 0, 0, 0, 0},
    {"pull-tasks8-level-copies", K_PULL, 1, 8, 1, 0, 0, 0, 1},
    {"pull-tied-level-copies", K_PULL, 1, 8, 1, 1, 0, 0, 1},
    {"pull-tied-level-copies-lanes8", K_PULL, 1, 8, 1, 1, 8, 0, 1},
    {"pull-tied-level-copies-lanes16", K_PULL, 1, 8, 1, 1, 16, 0, 1},
    {"pull-tied-level-copies-lanes2", K_PULL, 1, 8, 1, 1, 2, 0, 1},
    {"pull-tied-level-copies-lanes4", K_PULL, 1, 8, 1, 1, 4, 0, 1},
    {"pull-tied-level-copies-lanes32", K_PULL, 1, 8, 1, 1, 32, 0, 1},
    /* LINKED: a component on the PE of a predecessor one level up (dist_deal_linked.c) */
    {"pull-linked-level-copies", K_PULL, 2, 8, 1, 0, 0, 0, 1},
    {"pull-linked-level-copies-lanes1", K_PULL, 2, 8, 1, 0, 1, 0, 1},
    {"pull-linked-level-copies-lanes2", K_PULL, 2, 8, 1, 0, 2, 0, 1},
    {"pull-linked-level-copies-lanes4", K_PULL, 2, 8, 1, 0, 4, 0, 1},
    {"pull-linked-level-copies-lanes8", K_PULL, 2, 8, 1, 0, 8, 0, 1},
    {"pull-linked-level-copies-lanes16", K_PULL, 2, 8, 1, 0, 16, 0, 1},
    {"zerocopy-linked-level", K_ZEROCOPY, 2, 8, 1, 0, 0, 0, 0},
    {"um-linked-level", K_UNIFIED, 2, 8, 1, 0, 0, 0, 0},
    {"pull-tied-level-copies-lanes1", K_PULL, 1, 8, 1, 1, 1, 0, 1},
    {"pull-tasks8-level-copies-lanes1", K_PULL, 1, 8, 1, 0, 1, 0, 1},
    /* AUTO: LINKED on narrow levels, else the level-tied pool (the library's defaults) */
    {"pull-auto", K_PULL, 3, 8, 1, 1, 0, 0, 1},
};
#define NCONFIGS ((int)(sizeof(configs) / sizeof(configs[0])))

static const char *const suite_full[] = {
    "d3n7:192", "d3n27:192", "d3n7:256", "d3n27:256", "rmat:22", "rmat:23",
    "dag:10000000:8:10", "dag:10000000:8:1000", "dag:10000000:8:100000", "dag:20000000:8:1000000", NULL};
static const char *const suite_quick[] = {"d3n27:32", "dag:200000:8:100", "rmat:14", NULL};

/* one measured configuration of one problem */
typedef struct dist_result {
    double seconds;      /* median solve time, NAN when not run or failed */
    double error;        /* forward error against the reference */
    int32_t task_size;   /* of the plan */
    double remote_share; /* entries whose contribution crosses PEs, over all */
    char note[160];      /* why it failed */
    int skipped;         /* 1: the configuration does not apply to the problem (not a failure) */
} dist_result;

/* 1 if name is in the comma-separated list (NULL: every name) */
static int listed(const char *list, const char *name)
{
    if (!list) return 1;
    size_t len = strlen(name);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t l = end ? (size_t)(end - p) : strlen(p);
        if (l == len && strncmp(p, name, len) == 0) return 1;
        if (!end) break;
        p = end + 1;
    }
    return 0;
}

static double forward_error(int32_t n, const double *x, const double *xr)
{
    double d = 0, scale = 1;
    for (int32_t i = 0; i < n; i++) {
        d = fmax(d, isfinite(x[i]) ? fabs(x[i] - xr[i]) : INFINITY);
        scale = fmax(scale, fabs(xr[i]));
    }
    return d / scale;
}

/* the plan of a multi-GPU configuration */
static domino_status make_plan(domino_handle h, const bench_problem *p, const dist_config *c, int npes,
                               int64_t budget_mb, domino_dist_plan **plan)
{
    domino_dist_options opt;
    int64_t budget[DOMINO_LAUNCH_MAX_PES];
    domino_dist_options_init(&opt);
    opt.scheme = (domino_dist_scheme)c->scheme;
    opt.tasks_per_pe = c->tasks;
    opt.level_order = c->level_order;
    opt.pull_lanes = c->lanes;
    opt.pull_copies = c->copies;
    /* adaptive tasks: about npes tasks per level (dist-plan's level-tied pool);
     * the plan counts the levels of row_level, the same as p->levels */
    opt.level_tasks = c->tied;
    opt.row_level = p->levels->row_level; /* computed once with the problem */
    for (int q = 0; q < npes; q++) budget[q] = budget_mb << 20;
    if (budget_mb > 0) opt.budget = budget;
    return domino_dist_plan_make(h, p->T, p->solve.fill, npes, &opt, plan);
}

/* warm-up then repeat solves of T; median time and the last answer's error */
static domino_status time_solves(domino_handle h, domino_dist_trsv T, const bench_problem *p, int repeat,
                                 double *x, dist_result *r)
{
    double *times = malloc(sizeof(double) * (size_t)(repeat + 1));
    domino_status s = times ? DOMINO_SUCCESS : DOMINO_OUT_OF_MEMORY;
    for (int k = 0; k <= repeat && !s; k++) s = domino_dist_trsv_solve(h, T, p->b, x, k ? &times[k - 1] : NULL);
    if (!s) {
        r->seconds = bench_median(times, repeat);
        r->error = forward_error(p->n, x, p->x_ref);
    }
    free(times);
    return s;
}

/* the slab solve of a generated stencil problem on every PE; a problem of
 * another kind is skipped */
static domino_status run_slabs(domino_handle h, domino_dist D, const bench_problem *p, const problem_spec *spec,
                               int repeat, double *x, dist_result *r)
{
    domino_stencil_matrix *S = NULL;
    domino_dist_stencil T = NULL;
    double *times = NULL;
    if (spec->kind != PROBLEM_STENCIL) {
        r->skipped = 1;
        snprintf(r->note, sizeof(r->note), "not a generated stencil");
        return DOMINO_SUCCESS;
    }
    domino_status s = domino_stencil_from_csr(h, p->T, spec->nx, spec->ny, spec->nz, &S);
    if (!s && !(times = malloc(sizeof(double) * (size_t)(repeat + 1)))) s = DOMINO_OUT_OF_MEMORY;
    s = domino_dist_agree(h, D, s);
    if (!s) s = domino_dist_stencil_make(h, D, S, p->solve.fill, &T);
    domino_stencil_matrix_free(S); /* each PE's slab is on its GPU */
    for (int k = 0; k <= repeat && !s; k++)
        s = domino_dist_stencil_solve(h, T, p->solve.diag, p->b, x, k ? &times[k - 1] : NULL);
    if (!s) {
        int32_t own;
        int tu, tz, warps;
        r->seconds = bench_median(times, repeat);
        r->error = forward_error(p->n, x, p->x_ref);
        domino_dist_stencil_shape(T, &own, &tu, &tz, &warps);
        if (tu > 0) snprintf(r->note, sizeof(r->note), "%d lines of y a PE, %dx%d tiles", own, tu, tz);
        else snprintf(r->note, sizeof(r->note), "%d lines of y a PE, queues of %d warps", own, warps);
    }
    free(times);
    domino_dist_stencil_free(T);
    return s;
}

/* one configuration on every PE; fills r on PE 0 */
static domino_status run_config(domino_handle h, domino_dist D, const bench_problem *p, const problem_spec *spec,
                                const dist_config *c, const dist_bench_request *rq, double *x, dist_result *r)
{
    int rank = domino_dist_rank(D), npes = domino_dist_npes(D);
    domino_status s = DOMINO_SUCCESS;
    domino_dist_plan *plan = NULL;
    domino_dist_trsv T = NULL;
    engine_timing t;
    if (c->kind == K_CUSPARSE || c->kind == K_DOMINO) {
        if (rank == 0) {
            const bench_engine *e = bench_engine_find(c->kind == K_CUSPARSE ? "cusparse" : "auto");
            solve_problem sp = p->solve;
            s = gpu_run(h, e, &sp, rq->repeat, x, &t);
            solve_problem_release(&sp);
            if (!s) {
                r->seconds = t.solve_ms * 1e-3;
                r->error = forward_error(p->n, x, p->x_ref);
                snprintf(r->note, sizeof(r->note), "%s", t.used);
            }
        }
    } else if (c->kind == K_SLABS) {
        s = run_slabs(h, D, p, spec, rq->repeat, x, r);
    } else if (c->kind == K_UNIFIED) {
        if (rank == 0) {
            s = make_plan(h, p, c, npes, 0, &plan);
            if (c->plain) setenv("DOMINO_DIST_UM_PLAIN", "1", 1);
            if (!s) s = domino_dist_trsv_unified(h, p->solve.fill, p->solve.diag, p->T, plan, &T);
            if (c->plain) unsetenv("DOMINO_DIST_UM_PLAIN");
            if (!s) s = time_solves(h, T, p, rq->repeat, x, r);
        }
    } else {
        s = make_plan(h, p, c, npes, rq->budget_mb, &plan);
        s = domino_dist_agree(h, D, s);
        domino_dist_solver solver = c->kind == K_ZEROCOPY ? DOMINO_DIST_ZEROCOPY
                                    : c->kind == K_PULL   ? DOMINO_DIST_PULL
                                                          : DOMINO_DIST_PUSH;
        if (!s) s = domino_dist_trsv_make(h, D, solver, p->solve.fill, p->solve.diag, p->T, plan, &T);
        if (!s) s = time_solves(h, T, p, rq->repeat, x, r);
        if (!s && c->kind == K_PULL) snprintf(r->note, sizeof(r->note), "lanes %d", plan->pull_lanes);
    }
    if (s && rank == 0) snprintf(r->note, sizeof(r->note), "%s", domino_last_error(h));
    if (plan) {
        int64_t remote = 0, nnz = 0;
        for (int q = 0; q < plan->npes; q++) {
            remote += plan->pe_remote[q];
            nnz += plan->pe_nnz[q];
        }
        r->task_size = plan->task_size;
        r->remote_share = nnz ? (double)remote / nnz : 0;
    }
    domino_dist_trsv_free(T);
    domino_dist_plan_free(plan);
    return domino_dist_agree(h, D, s);
}

/* with a budget: does the problem fit one GPU's budget, and N GPUs'? */
static void report_budget(domino_handle h, const bench_problem *p, int npes, int64_t budget_mb)
{
    domino_dist_plan *plan = NULL;
    const dist_config tp8 = {"", K_ZEROCOPY, 1, 8, 0, 0, 0, 0, 0};
    domino_status s1 = make_plan(h, p, &tp8, 1, budget_mb, &plan);
    printf("# budget %lld MiB per GPU: on 1 GPU %s", (long long)budget_mb,
           s1 ? "does not fit" : "fits");
    if (s1) printf(" (%s)", domino_last_error(h));
    else printf(" (%.0f MiB)", plan->pe_bytes[0] / 1048576.0);
    domino_dist_plan_free(plan);
    plan = NULL;
    domino_status sn = make_plan(h, p, &tp8, npes, budget_mb, &plan);
    printf("; on %d GPUs %s", npes, sn ? "does not fit" : "fits");
    for (int q = 0; !sn && q < npes; q++) printf("%s%.0f", q ? "/" : " (MiB per PE ", plan->pe_bytes[q] / 1048576.0);
    printf("%s\n", sn ? "" : ")");
    domino_dist_plan_free(plan);
}

/* PE 0: the table rows and CSV lines of one problem */
static void report(const bench_problem *p, const problem_spec *spec, int npes, const dist_result *r,
                   const int *run, FILE *csv, double copy_gbs)
{
    double base_um = r[2].seconds, base_cus = r[0].seconds, base_dom = r[1].seconds;
    double bytes = bench_bytes(DOMINO_FLOAT64, p->n, p->nnz); /* the solvers are double */
    printf("%s: n %d, nnz %lld, levels %d, parallelism %.0f, dependency %.2f\n", spec->name, p->n,
           (long long)p->nnz, p->levels->nlevels, p->levels->parallelism, p->levels->dependency);
    printf("  %-22s %4s %10s %8s %7s %8s %8s %8s %9s %6s\n", "config", "gpus", "ms", "GB/s", "%copy",
           "xUM", "xcuSP", "xdomino", "fwd-err", "remote");
    for (int c = 0; c < NCONFIGS; c++) {
        if (!run[c]) continue;
        int gpus = configs[c].kind <= K_DOMINO ? 1 : npes;
        double ms = r[c].seconds * 1e3, gbs = bytes / r[c].seconds * 1e-9;
        int ok = isfinite(r[c].seconds) && r[c].error <= ANSWER_TOL;
        if (r[c].skipped) {
            printf("  %-22s %4d  n/a: %s\n", configs[c].name, gpus, r[c].note);
            continue;
        }
        if (!ok) {
            printf("  %-22s %4d  FAILED: %s (error %.2e)\n", configs[c].name, gpus, r[c].note, r[c].error);
        } else {
            printf("  %-22s %4d %10.3f %8.1f %7.1f %8.2f %8.2f %8.2f %9.1e %6.3f %s\n", configs[c].name, gpus,
                   ms, gbs, copy_gbs > 0 ? 100 * gbs / copy_gbs : 0, base_um / r[c].seconds,
                   base_cus / r[c].seconds, base_dom / r[c].seconds, r[c].error, r[c].remote_share,
                   configs[c].kind == K_DOMINO || configs[c].kind == K_PULL || configs[c].kind == K_SLABS
                       ? r[c].note
                       : "");
        }
        if (csv)
            fprintf(csv, "%s,%d,%lld,%d,%.1f,%.3f,%s,%d,%d,%d,%.6e,%.2f,%.4f,%.4f,%.4f,%.3e,%.4f,%s\n",
                    spec->name, p->n, (long long)p->nnz, p->levels->nlevels, p->levels->parallelism,
                    p->levels->dependency, configs[c].name, gpus, configs[c].tasks, r[c].task_size,
                    ok ? r[c].seconds : NAN, ok ? gbs : NAN, ok ? base_um / r[c].seconds : NAN,
                    ok ? base_cus / r[c].seconds : NAN, ok ? base_dom / r[c].seconds : NAN, r[c].error,
                    r[c].remote_share, ok ? "ok" : "failed");
    }
    if (csv) fflush(csv);
    fflush(stdout);
}

/* the problem names to run into specs (free()), count */
static int list_problems(const dist_bench_request *rq, problem_spec **specs, int *count)
{
    char why[256];
    problem_spec *files = NULL;
    int nfiles = 0, n = 0;
    const char *dir = getenv("DOMINO_MATRICES");
    *specs = calloc(600, sizeof(problem_spec));
    if (!*specs) return -1;
    if (rq->problems) {
        char *list = strdup(rq->problems), *save = NULL;
        for (char *tok = strtok_r(list, ",", &save); tok && n < 600; tok = strtok_r(NULL, ",", &save)) {
            if (problem_spec_parse(tok, &(*specs)[n], why, sizeof(why))) {
                fprintf(stderr, "domino bench: %s: %s\n", tok, why);
                free(list);
                return -1;
            }
            n++;
        }
        free(list);
        *count = n;
        return 0;
    }
    const char *const *gen = rq->quick ? suite_quick : suite_full;
    for (int i = 0; gen[i]; i++)
        if (problem_spec_parse(gen[i], &(*specs)[n], why, sizeof(why)) == 0) n++;
    /* the shared real matrices (quick: two of them) */
    if (bench_suite_trsv(1, dir && *dir ? dir : "../shared/matrices", &files, &nfiles) == 0)
        for (int i = 0; i < nfiles && n < 600; i++)
            if (files[i].kind == PROBLEM_FILE && (!rq->quick || i < 2)) (*specs)[n++] = files[i];
    free(files);
    *count = n;
    return 0;
}

int bench_dist_trsv_run(const dist_bench_request *rq)
{
    domino_handle h = NULL;
    domino_dist D = NULL;
    problem_spec *specs = NULL;
    int nspecs = 0, failed = 0, wrong = 0, run[NCONFIGS];
    FILE *csv = NULL;
    char name[128] = "";
    double copy_gbs = 0;
    for (const char *p = rq->configs; p && *p;) { /* every name asked must exist */
        const char *end = strchr(p, ',');
        size_t l = end ? (size_t)(end - p) : strlen(p);
        int known = 0;
        for (int c = 0; c < NCONFIGS; c++) known |= strlen(configs[c].name) == l && !strncmp(configs[c].name, p, l);
        if (!known) { /* the names from the table: never out of date */
            fprintf(stderr, "domino bench: --engines: unknown configuration '%.*s' of --suite trsv-dist (", (int)l, p);
            for (int c = 0; c < NCONFIGS; c++) fprintf(stderr, "%s%s", c ? ", " : "", configs[c].name);
            fprintf(stderr, ")\n");
            return 2;
        }
        p = end ? end + 1 : p + l;
    }
    if (domino_create(&h)) return 1;
    if (domino_dist_join(h, &D)) {
        fprintf(stderr, "domino bench --suite trsv-dist: %s\n(start it as domino run -n N bench --suite "
                        "trsv-dist, or under mpirun)\n", domino_last_error(h));
        domino_destroy(h);
        return 2;
    }
    int rank = domino_dist_rank(D), npes = domino_dist_npes(D);
    for (int c = 0; c < NCONFIGS; c++) run[c] = listed(rq->configs, configs[c].name);
    if (list_problems(rq, &specs, &nspecs)) failed = 1;
    if (rank == 0 && !failed) {
        domino_gpu_describe(h, name, sizeof(name), &copy_gbs);
        printf("# domino bench --suite trsv-dist: %d PEs, %s, device copy %.0f GB/s, %d timed solves "
               "(median); x = speed-up over um (same GPUs), cusparse-1gpu, domino-1gpu\n",
               npes, name, copy_gbs, rq->repeat);
        if (rq->csv_path && !(csv = fopen(rq->csv_path, "w"))) {
            fprintf(stderr, "domino bench: cannot write %s\n", rq->csv_path);
            failed = 1;
        }
        if (csv)
            fprintf(csv, "problem,n,nnz,levels,parallelism,dependency,config,gpus,tasks_per_pe,task_size,"
                         "seconds,gbs,x_um,x_cusparse_1gpu,x_domino_1gpu,forward_error,remote_share,status\n");
    }
    if (domino_dist_agree(h, D, failed ? DOMINO_INVALID_VALUE : DOMINO_SUCCESS)) failed = 1;
    for (int k = 0; k < nspecs && !failed; k++) {
        bench_problem p;
        dist_result r[NCONFIGS];
        domino_status s = bench_problem_build(h, &specs[k], DOMINO_FLOAT64, &p);
        if (rank == 0 && s) fprintf(stderr, "domino bench: %s: %s\n", specs[k].name, domino_last_error(h));
        if (domino_dist_agree(h, D, s)) continue;
        if (rank == 0 && rq->budget_mb > 0) report_budget(h, &p, npes, rq->budget_mb);
        double *x = malloc((size_t)p.n * sizeof(double) + 8);
        for (int c = 0; c < NCONFIGS; c++) {
            r[c].seconds = r[c].error = NAN;
            r[c].task_size = 0;
            r[c].remote_share = 0;
            r[c].note[0] = '\0';
            r[c].skipped = 0;
            if (run[c] && x) run_config(h, D, &p, &specs[k], &configs[c], rq, x, &r[c]);
            else if (run[c]) snprintf(r[c].note, sizeof(r[c].note), "out of host memory");
        }
        if (rank == 0) report(&p, &specs[k], npes, r, run, csv, copy_gbs);
        for (int c = 0; c < NCONFIGS; c++) /* a wrong answer fails the run; a solver that could not run does not */
            if (run[c] && !r[c].skipped && isfinite(r[c].seconds) && !(r[c].error <= ANSWER_TOL)) wrong++;
        free(x);
        bench_problem_free(&p);
    }
    if (csv) fclose(csv);
    free(specs);
    domino_dist_leave(h, D);
    domino_destroy(h);
    if (wrong && rank == 0) fprintf(stderr, "domino bench: %d wrong answers\n", wrong);
    return failed ? 1 : wrong ? 3 : 0;
}
#endif /* DOMINO_HAVE_NVSHMEM */
