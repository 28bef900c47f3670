/* cmd_trace.c: "domino trace PROBLEM": where the thread engine's solve time
 * goes, from the publish time of every row (domino_trsv_trace) */
#include "bench_problems.h"
#include "cli_util.h"
#include "commands.h"
#include "domino.h"
#include "opts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char trace_usage[] =
    "usage: domino trace PROBLEM [--csv FILE]\n"
    "\n"
    "Solves the lower triangle of PROBLEM (a name as in domino bench --problem:\n"
    "d3n27:64, dag:ROWS:PERROW:LEVELS[:BAND], rmat:S or FILE.mtx) once with the\n"
    "GPU thread engine, recording when each row's x was published, checks the\n"
    "answer against the CPU reference, and prints the hop of every row: its\n"
    "publish time minus that of its latest dependency, by where that dependency\n"
    "lies (the same warp of 32 rows, the same block of 256, another block; rows\n"
    "without dependencies count from the first time recorded, the first\n"
    "block's start), with the count, median, 90th percentile and mean, and the\n"
    "time per level; then the critical path, back from the last row published\n"
    "through each row's latest dependency, by row length, each hop split into\n"
    "the time before the row's warp took it and the time after.\n"
    "\n"
    "  --csv FILE   also write row,level,publish_ns,taken_ns,hop_ns,class per row\n"
    "               (taken_ns -1: not recorded)\n";

#define TRACE_CLASSES 4
static const char *const class_names[TRACE_CLASSES] = {"no dependency", "same warp",
                                                       "same block", "other block"};

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* count, median, p90 and mean of v[0..n) (sorted in place) */
static void print_stats(const char *name, int64_t *v, int64_t n)
{
    if (n == 0) {
        printf("  %-14s %10d\n", name, 0);
        return;
    }
    qsort(v, (size_t)n, sizeof(int64_t), cmp_i64);
    double mean = 0;
    for (int64_t i = 0; i < n; i++) mean += (double)v[i];
    printf("  %-14s %10lld %10.3f %10.3f %10.3f\n", name, (long long)n, v[n / 2] * 1e-3,
           v[(n * 9) / 10] * 1e-3, mean / n * 1e-3);
}

/* the critical path: from the row published last, each row's latest
 * dependency (dep, from report) back to a row without one; its rows and
 * hops by row length (entries of the row, diagonal included), which says
 * whether the long rows or the hops between short ones set the solve's
 * time, and each hop split at taken[i], when the row's warp took it: the
 * part before (the row's block not started yet, or its warp on another
 * long row) and the part after (the walk, the polls) */
#define TRACE_LENGTHS 5
static int length_class(int64_t len)
{
    static const int64_t upto[TRACE_LENGTHS - 1] = {8, 64, 512, 4096};
    int b = 0;
    while (b < TRACE_LENGTHS - 1 && len > upto[b]) b++;
    return b;
}

static void critical_path(const domino_matrix_view *v, int32_t n, const int64_t *ns,
                          const int64_t *taken, const int32_t *dep)
{
    static const char *const names[TRACE_LENGTHS] = {"1-8", "9-64", "65-512", "513-4096", "> 4096"};
    int64_t rows[TRACE_LENGTHS] = {0}, time[TRACE_LENGTHS] = {0}, all[TRACE_LENGTHS] = {0};
    int64_t before[TRACE_LENGTHS] = {0}; /* of time: before the row's warp took it */
    int32_t i = -1, length = 0;
    for (int32_t r = 0; r < n; r++) {
        all[length_class(v->ptr[r + 1] - v->ptr[r])]++;
        if (i < 0 || ns[r] > ns[i]) i = r;
    }
    for (; i >= 0; i = dep[i], length++) {
        int b = length_class(v->ptr[i + 1] - v->ptr[i]);
        rows[b]++;
        int64_t from = dep[i] < 0 ? 0 : ns[dep[i]];
        time[b] += ns[i] - from;
        if (taken[i] > from) before[b] += (taken[i] < ns[i] ? taken[i] : ns[i]) - from;
    }
    printf("critical path (latest dependencies back from the last row published): %d rows\n", length);
    printf("  %-14s %10s %12s %10s %12s %14s %12s\n", "row entries", "rows", "of all rows", "hops, us",
           "us a row", "before taken", "after");
    for (int b = 0; b < TRACE_LENGTHS; b++)
        if (all[b])
            printf("  %-14s %10lld %12lld %10.3f %12.3f %14.3f %12.3f\n", names[b], (long long)rows[b],
                   (long long)all[b], time[b] * 1e-3, rows[b] ? time[b] * 1e-3 / rows[b] : 0.0,
                   rows[b] ? before[b] * 1e-3 / rows[b] : 0.0,
                   rows[b] ? (time[b] - before[b]) * 1e-3 / rows[b] : 0.0);
}

/* the hop and class of every row of lower-triangular T from the times ns */
static int report(const problem_spec *spec, const bench_problem *p, const int64_t *ns,
                  const int64_t *taken, const char *csv_path)
{
    domino_matrix_view v;
    if (domino_matrix_get_view(NULL, p->T, &v)) return -1;
    int64_t *hops[TRACE_CLASSES];
    int32_t *dep_of = malloc((size_t)(p->n > 0 ? p->n : 1) * sizeof(int32_t)); /* latest dependency, -1 none */
    int64_t counts[TRACE_CLASSES] = {0, 0, 0, 0}, end = 0, unpublished = 0;
    int rc = 0;
    FILE *csv = NULL;
    for (int c = 0; c < TRACE_CLASSES; c++) hops[c] = malloc((size_t)(p->n > 0 ? p->n : 1) * sizeof(int64_t));
    if (csv_path && !(csv = fopen(csv_path, "w"))) {
        fprintf(stderr, "domino trace: cannot write %s\n", csv_path);
        rc = -1;
        goto cleanup;
    }
    for (int c = 0; c < TRACE_CLASSES; c++)
        if (!hops[c]) rc = -1;
    if (!dep_of) rc = -1;
    if (rc) goto cleanup;
    if (csv) fprintf(csv, "row,level,publish_ns,taken_ns,hop_ns,class\n");
    for (int32_t i = 0; i < p->n; i++) {
        if (ns[i] < 0) {
            unpublished++;
            continue;
        }
        int64_t latest = -1;
        int32_t dep = -1;
        for (int64_t k = v.ptr[i]; k < v.ptr[i + 1]; k++) {
            int32_t j = v.ind[k];
            if (j < i && ns[j] >= latest) {
                latest = ns[j];
                dep = j;
            }
        }
        dep_of[i] = dep;
        int c = dep < 0 ? 0 : dep / 32 == i / 32 ? 1 : dep / 256 == i / 256 ? 2 : 3;
        int64_t hop = dep < 0 ? ns[i] : ns[i] - latest;
        hops[c][counts[c]++] = hop;
        if (ns[i] > end) end = ns[i];
        if (csv)
            fprintf(csv, "%d,%d,%lld,%lld,%lld,%s\n", i, p->levels ? p->levels->row_level[i] : -1,
                    (long long)ns[i], (long long)taken[i], (long long)hop, class_names[c]);
    }
    printf("trace of the thread engine: %s, n %d, nnz %lld, levels %d\n", spec->name, p->n,
           (long long)p->nnz, p->levels ? p->levels->nlevels : 0);
    printf("first to last publish %.3f us, %.3f us a level%s\n", end * 1e-3,
           p->levels && p->levels->nlevels ? end * 1e-3 / p->levels->nlevels : 0.0,
           unpublished ? " (some rows never published)" : "");
    printf("  %-14s %10s %10s %10s %10s   (hop: publish - latest dependency's publish, us)\n",
           "class", "rows", "median", "p90", "mean");
    for (int c = 0; c < TRACE_CLASSES; c++) print_stats(class_names[c], hops[c], counts[c]);
    if (!unpublished) critical_path(&v, p->n, ns, taken, dep_of);
cleanup:
    if (csv) fclose(csv);
    free(dep_of);
    for (int c = 0; c < TRACE_CLASSES; c++) free(hops[c]);
    return rc;
}

int cmd_trace(int argc, char **argv)
{
    const char *csv_path = NULL;
    const opt_spec specs[] = {{"csv", 0, OPT_STRING, 0, 0, &csv_path}, OPT_END};
    const char *pos[1];
    int npos = 0;
    int rc = opts_parse("trace", trace_usage, specs, argc, argv, 1, pos, 1, &npos);
    if (rc == OPTS_HELP) return 0;
    if (rc != OPTS_OK) return 2;
    if (npos != 1) return opts_usage_error("trace", trace_usage, "expected one PROBLEM");
    problem_spec spec;
    char why[256];
    if (problem_spec_parse(pos[0], &spec, why, sizeof why))
        return opts_usage_error("trace", trace_usage, "%s", why);
    if (spec.fill != DOMINO_LOWER)
        return opts_usage_error("trace", trace_usage, "traces lower triangles only");

    if (domino_gpu_count() == 0) { /* before building what may be a large problem */
        fprintf(stderr, "domino trace: needs a GPU (no CUDA device on this machine)\n");
        return 1;
    }
    domino_handle h = NULL;
    bench_problem p;
    memset(&p, 0, sizeof p);
    domino_dmatrix dT = NULL;
    domino_trsv_plan plan = NULL;
    void *dB = NULL, *dX = NULL, *x = NULL;
    int64_t *ns = NULL;
    domino_status s;
    if (domino_create(&h)) {
        fprintf(stderr, "domino trace: cannot create a handle\n");
        return 1;
    }
    rc = 1;
    if ((s = bench_problem_build(h, &spec, DOMINO_FLOAT64, &p))) goto cleanup;
    size_t bytes = (size_t)p.n * sizeof(double);
    domino_trsv_options opt;
    domino_trsv_options_init(&opt);
    opt.engine = DOMINO_ENGINE_THREAD;
    ns = malloc(2 * (size_t)(p.n > 0 ? p.n : 1) * sizeof(int64_t)); /* publish, then taken times */
    x = malloc(bytes > 0 ? bytes : 1);
    if (!ns || !x) {
        fprintf(stderr, "domino trace: out of memory\n");
        goto cleanup;
    }
    if ((s = domino_dmatrix_upload(h, p.T, &dT)) || (s = domino_gpu_malloc(h, bytes, &dB)) ||
        (s = domino_gpu_malloc(h, bytes, &dX)) || (s = domino_gpu_upload(h, dB, p.b, bytes)) ||
        (s = domino_trsv_analysis(h, DOMINO_OP_N, DOMINO_LOWER, DOMINO_NON_UNIT, dT, 1, &opt, NULL,
                                  &plan)) ||
        (s = domino_trsv_solve(h, plan, dB, p.n, dX, p.n, 1)) || /* warm-up: module loading */
        (s = domino_trsv_trace(h, plan, dB, dX, ns, ns + p.n)) || (s = domino_gpu_download(h, x, dX, bytes)))
        goto cleanup;
    double diff = cli_max_rel_diff(DOMINO_FLOAT64, p.n, x, p.x_ref);
    if (!(diff <= 1e-10)) {
        fprintf(stderr, "domino trace: the traced solve differs from the CPU reference (%.3g)\n", diff);
        goto cleanup;
    }
    rc = report(&spec, &p, ns, ns + p.n, csv_path) ? 1 : 0;
cleanup:
    if (rc && s) rc = cli_fail(h, s, "trace");
    free(ns);
    free(x);
    domino_trsv_plan_free(plan);
    domino_gpu_free(dB);
    domino_gpu_free(dX);
    domino_dmatrix_free(dT);
    bench_problem_free(&p);
    domino_destroy(h);
    return rc;
}
