/* bench_dist_plan.c: "domino bench --suite dist-plan": the balance and the
 * remote traffic of the distributions of domino_dist_plan_make on the trsv
 * suite's triangles (no GPU: planning only) */
#include "bench_dist_plan.h"
#include "bench_problems.h"
#include "domino.h"

#include <stdio.h>
#include <stdlib.h>

/* sum over levels of the busiest PE's entries, over the same with the
 * level's entries spread evenly: 1 when every level is shared evenly by the
 * PEs, npes when each level sits on one PE (the PEs take turns) */
static double level_imbalance(domino_matrix T, const domino_levels *lv, const domino_dist_plan *plan)
{
    domino_matrix_view v;
    domino_matrix_get_view(NULL, T, &v);
    int npes = plan->npes;
    double *work = calloc((size_t)npes, sizeof(double)), worst = 0, even = 0;
    if (!work) return 0;
    for (int32_t l = 0; l < lv->nlevels; l++) {
        double total = 0, top = 0;
        for (int p = 0; p < npes; p++) work[p] = 0;
        for (int64_t k = lv->level_ptr[l]; k < lv->level_ptr[l + 1]; k++) {
            int32_t r = lv->level_rows[k];
            work[domino_dist_pe_of(plan, r)] += (double)(v.ptr[r + 1] - v.ptr[r]);
        }
        for (int p = 0; p < npes; p++) {
            total += work[p];
            if (work[p] > top) top = work[p];
        }
        worst += top;
        even += total / npes;
    }
    free(work);
    return even > 0 ? worst / even : 1.0;
}

/* A model of the chain of waits: a dependency costs 1 within a GPU and
 * REMOTE_HOP across (4xH200: ~0.7 us a level on one GPU against ~2.3 us on
 * 4 PEs, 10^7-row DAG of 1000 levels, ../bench/results/h200x4-chunk) */
#define REMOTE_HOP 3.0

/* the longest chain of T (CSR, lower) under that model, over the longest
 * with every dependency local (levels - 1): 1 when chains never cross PEs,
 * REMOTE_HOP when every link does; 0 when out of memory */
static double chain_cost(domino_matrix T, const domino_levels *lv, const domino_dist_plan *plan)
{
    domino_matrix_view v;
    domino_matrix_get_view(NULL, T, &v);
    double *t = calloc((size_t)lv->n + 1, sizeof(double)), longest = 0;
    if (!t) return 0;
    for (int32_t l = 0; l < lv->nlevels; l++)
        for (int64_t k = lv->level_ptr[l]; k < lv->level_ptr[l + 1]; k++) {
            int32_t r = lv->level_rows[k];
            int q = domino_dist_pe_of(plan, r);
            for (int64_t e = v.ptr[r]; e < v.ptr[r + 1]; e++) {
                int32_t c = v.ind[e];
                if (c >= r) continue;
                double w = t[c] + (domino_dist_pe_of(plan, c) == q ? 1.0 : REMOTE_HOP);
                if (w > t[r]) t[r] = w;
            }
            if (t[r] > longest) longest = t[r];
        }
    free(t);
    return lv->nlevels > 1 ? longest / (lv->nlevels - 1) : 1.0;
}

/* one distribution of one problem into the table and the CSV */
#define LEVEL_TASK_MIN 64 /* smallest task of the level-tied pool */

/* tasks: tasks per PE of the pool, or 0 for the level-tied pool (8 per PE at most);
 * AUTO: the library's default plan (the level-tied pool or LINKED, named
 * by the one it took) */
static int report(domino_handle h, const problem_spec *spec, domino_matrix T,
                  const domino_levels *lv, int npes, domino_dist_scheme scheme, int tasks, FILE *csv)
{
    domino_dist_options opt;
    domino_dist_plan *plan = NULL;
    domino_dist_options_init(&opt);
    opt.scheme = scheme;
    opt.tasks_per_pe = tasks ? tasks : 8;
    opt.level_tasks = scheme == DOMINO_DIST_AUTO; /* else the level-tied pool's size is given below */
    if (!tasks && scheme != DOMINO_DIST_AUTO)
        opt.task_size = domino_dist_level_task_size(lv->n, lv->nlevels, npes, 8, LEVEL_TASK_MIN);
    opt.row_level = lv->row_level; /* the levels computed once per problem, not again by every plan */
    if (domino_dist_plan_make(h, T, DOMINO_LOWER, npes, &opt, &plan)) {
        fprintf(stderr, "domino bench: %s: %s\n", spec->name, domino_last_error(h));
        return 1;
    }
    int64_t nnz = 0, remote = 0, max_nnz = 0, max_bytes = 0;
    for (int p = 0; p < npes; p++) {
        nnz += plan->pe_nnz[p];
        remote += plan->pe_remote[p];
        if (plan->pe_nnz[p] > max_nnz) max_nnz = plan->pe_nnz[p];
        if (plan->pe_bytes[p] > max_bytes) max_bytes = plan->pe_bytes[p];
    }
    double imbalance = nnz ? (double)max_nnz / ((double)nnz / npes) : 1.0;
    double remote_share = nnz ? (double)remote / (double)nnz : 0.0;
    double by_level = level_imbalance(T, lv, plan), chain = chain_cost(T, lv, plan);
    char name[32];
    if (scheme == DOMINO_DIST_AUTO)
        snprintf(name, sizeof(name), "auto-%s", plan->scheme == DOMINO_DIST_LINKED ? "linked" : "levels");
    else if (scheme == DOMINO_DIST_CONTIGUOUS) snprintf(name, sizeof(name), "contiguous");
    else if (scheme == DOMINO_DIST_LINKED) snprintf(name, sizeof(name), "linked");
    else if (tasks) snprintf(name, sizeof(name), "taskpool-%d", tasks);
    else snprintf(name, sizeof(name), "taskpool-levels");
    printf("%-28s %-14s %9d %8.3f %9.3f %9.4f %7.3f %12.1f\n", spec->name, name, plan->ntasks,
           imbalance, by_level, remote_share, chain, (double)max_bytes / 1048576.0);
    if (csv)
        fprintf(csv, "%s,%s,%d,%d,%lld,%.5f,%.5f,%.5f,%.5f,%lld\n", spec->name, name, npes,
                plan->ntasks, (long long)nnz, imbalance, by_level, remote_share, chain,
                (long long)max_bytes);
    domino_dist_plan_free(plan);
    return 0;
}

int bench_dist_plan_run(int quick, int npes, const char *matrices_dir, const char *csv_path)
{
    problem_spec *specs = NULL;
    int count = 0, failed = 0;
    domino_handle h = NULL;
    if (bench_suite_trsv(quick, matrices_dir, &specs, &count) || domino_create(&h)) {
        fprintf(stderr, "domino bench: out of memory\n");
        free(specs);
        return 1;
    }
    FILE *csv = csv_path ? fopen(csv_path, "w") : NULL;
    if (csv_path && !csv) fprintf(stderr, "domino bench: cannot write '%s'\n", csv_path);
    if (csv)
        fprintf(csv, "problem,distribution,pes,tasks,nnz,nnz_max_over_mean,level_imbalance,"
                     "remote_share,chain_cost,max_pe_bytes\n");
    printf("# %d PEs; imbal = the largest PE's entries / the mean; by level = sum over the\n"
           "# levels of the busiest PE's entries / the same spread evenly (1: every level\n"
           "# shared evenly, %d: the PEs take turns); remote = share of the triangle's\n"
           "# entries whose row lives on another PE (contributions sent); MiB = the largest\n"
           "# PE's device bytes (domino_dist_plan_make's formula); chain = the longest chain\n"
           "# of waits, a dependency costing 1 on one PE and %.0f across, over the levels - 1\n"
           "%-28s %-14s %9s %8s %9s %9s %7s %12s\n", npes, npes, REMOTE_HOP, "problem", "distribution",
           "tasks", "imbal", "by level", "remote", "chain", "max MiB");
    for (int i = 0; i < count; i++) {
        bench_problem p;
        if (bench_problem_build(h, &specs[i], DOMINO_FLOAT64, &p)) {
            fprintf(stderr, "domino bench: %s: %s\n", specs[i].name, domino_last_error(h));
            failed++;
            continue;
        }
        /* the levels the problem's build computed */
        failed += report(h, &specs[i], p.T, p.levels, npes, DOMINO_DIST_CONTIGUOUS, 1, csv);
        for (int tasks = 4; tasks <= 32; tasks *= 2)
            failed += report(h, &specs[i], p.T, p.levels, npes, DOMINO_DIST_TASKPOOL, tasks, csv);
        failed += report(h, &specs[i], p.T, p.levels, npes, DOMINO_DIST_TASKPOOL, 0, csv);
        failed += report(h, &specs[i], p.T, p.levels, npes, DOMINO_DIST_LINKED, 0, csv);
        failed += report(h, &specs[i], p.T, p.levels, npes, DOMINO_DIST_AUTO, 0, csv);
        bench_problem_free(&p);
    }
    if (csv) fclose(csv);
    domino_destroy(h);
    free(specs);
    return failed ? 1 : 0;
}
