/* bench_dist_spmm.c: "domino run -n N bench --suite spmm": for each problem
 * and dense width, single-GPU cuSPARSE SpMM on PE 0's GPU, then on all PEs
 * the one-sided stationary-C (prefetching), stationary-C with random work
 * stealing, stationary-A (prefetching), stationary-C with locality-aware
 * stealing, stationary-C by row blocks (one product per C tile), and the
 * bulk-synchronous NCCL SUMMA where NCCL was found.
 * Every product is checked against the reference (the CPU for R-MAT scale
 * up to 18, else the single-GPU product) before its time is reported;
 * with --lean, B is made on the GPUs tile by tile (domino_dspmm_make_random)
 * and every product C is checked by C z against A (B z), so no host holds
 * B or C (R-MAT 24 at width 512: 69 GB each; SUMMA then makes its B blocks
 * on the GPUs too and is checked the same way);
 * times are medians of the timed runs, the slowest PE's; "stolen0" is
 * the products PE 0 stole in the last run.  Each problem's first line
 * gives the load balance of A's tiles over the PEs (max / mean entries). */
#define _POSIX_C_SOURCE 200809L /* strdup, strtok_r */
#include "bench_dist_spmm.h"
#include "bench_dist_common.h"
#include "bench_engines.h" /* bench_median */
#include "bench_problems.h"
#include "cli_util.h"
#include "dist/dist_tile_cut.h" /* dist_tile_nnz_balance */
#include "domino.h"
#include "internal.h" /* domino_wtime */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef DOMINO_HAVE_NVSHMEM
int bench_dist_spmm_run(const spmm_bench_request *rq)
{
    (void)rq;
    return cli_no_nvshmem("bench --suite spmm");
}
#else
#define ANSWER_TOL_DOUBLE 1e-10
#define ANSWER_TOL_FLOAT 1e-4
#define CPU_REFERENCE_MAX_NNZ 3000000 /* beyond this the single-GPU product is the reference */

/* max |C - R| / max |R| */
static double rel_error(const void *C, const void *R, int64_t count, domino_type t)
{
    double d = 0, scale = 0;
#pragma omp parallel for reduction(max : d, scale) schedule(static)
    for (int64_t i = 0; i < count; i++) {
        double c = cli_get(t, C, i), r = cli_get(t, R, i);
        d = fmax(d, isfinite(c) ? fabs(c - r) : INFINITY);
        scale = fmax(scale, fabs(r));
    }
    return d / fmax(scale, 1e-300);
}

/* what one configuration measured (the busiest PE's parts, seconds) */
typedef struct spmm_result {
    double seconds;   /* median of the slowest PE's totals */
    double compute;   /* local products */
    double imbalance; /* waiting in the closing barrier (the most over the timed runs) */
    double fetch;     /* the gets, from first get to completion (overlapping the products) */
    long long stolen; /* products PE 0 stole in the last run */
    double err;       /* of the answer */
    double bound;     /* the model's bound, NaN where none */
} spmm_result;

/* one row of the table and the CSV (PE 0) */
static void report(FILE *csv, const char *problem, int64_t nnz, int64_t width, const char *config, int gpus, double base,
                   double tol, const spmm_result *r)
{
    double gflops = 2.0 * (double)nnz * (double)width / r->seconds * 1e-9;
    int ok = isfinite(r->seconds) && r->err <= tol;
    if (ok)
        printf("  %-20s %4d %10.3f %9.1f %8.2f %9.3f %9.3f %10.3f %7lld %9.1e\n", config, gpus, r->seconds * 1e3,
               gflops, base / r->seconds, r->compute * 1e3, r->fetch * 1e3, r->imbalance * 1e3, r->stolen, r->err);
    else
        printf("  %-20s %4d  FAILED (error %.2e)\n", config, gpus, r->err);
    if (csv)
        fprintf(csv, "%s,%lld,%lld,%s,%d,%.6e,%.2f,%.4f,%.6e,%.6e,%lld,%.3e,%.6e,%.6e,%s\n", problem, (long long)nnz,
                (long long)width, config, gpus, ok ? r->seconds : NAN, ok ? gflops : NAN, ok ? base / r->seconds : NAN,
                r->compute, r->imbalance, r->stolen, r->err, r->bound, r->fetch, ok ? "ok" : "failed");
    /* every row out at once: a run stopped by a time limit keeps what it measured */
    fflush(stdout);
    if (csv) fflush(csv);
}

/* the device's copy bandwidth (GB/s, read + written), measured once on PE 0 */
static double copy_gbs;

/* report() for a product on one GPU, then its effective bandwidth: A, B
 * and C each moved once (A's offsets, columns and values; B read, C
 * written) over its time, against the device's copy bandwidth */
static void report_one_gpu(FILE *csv, const char *problem, const domino_matrix_view *v, int64_t width,
                           const char *config, double base, double tol, const spmm_result *r)
{
    report(csv, problem, v->nnz, width, config, 1, base, tol, r);
    size_t vs = domino_type_size(v->type);
    double bytes = (double)(v->nrows + 1) * 8 + (double)v->nnz * (4 + vs) +
                   (double)(v->ncols + v->nrows) * (double)width * (double)vs;
    if (isfinite(r->seconds) && r->err <= tol && copy_gbs > 0)
        printf("  %-20s effective bandwidth %.0f GB/s (A, B and C once), %.0f%% of the device's copy %.0f GB/s\n",
               config, bytes / r->seconds * 1e-9, 100 * bytes / r->seconds * 1e-9 / copy_gbs, copy_gbs);
}

/* a row for single-GPU cuSPARSE */
static spmm_result baseline_result(double seconds, double err)
{
    spmm_result r = {seconds, seconds, 0, 0, 0, err, NAN};
    return r;
}

/* a single-GPU product on PE 0 (cuSPARSE, or domino's chunk kernel):
 * median time; B uploaded from the host, or (B NULL) made on the GPU by
 * domino_gen_dense(seed); then C downloaded into R (B given), or y = C z
 * (B NULL: C may not fit a host) */
static domino_status run_single(domino_handle h, domino_spmm_engine engine, domino_matrix A, const void *B,
                                uint64_t seed, int64_t width, int repeat, void *R, const double *z, double *y,
                                double *seconds)
{
    domino_matrix_view v;
    domino_dmatrix dA = NULL;
    void *dB = NULL, *dC = NULL;
    double *times = malloc(sizeof(double) * (size_t)repeat);
    domino_status s = domino_matrix_get_view(h, A, &v);
    size_t vs = domino_type_size(v.type);
    if (!s && !times) s = domino_error(h, DOMINO_OUT_OF_MEMORY, "domino bench: cuSPARSE's times: out of memory");
    if (!s) s = domino_dmatrix_upload(h, A, &dA);
    if (!s) s = domino_gpu_malloc(h, (size_t)(v.ncols * width) * vs, &dB);
    if (!s) s = domino_gpu_malloc(h, (size_t)(v.nrows * width) * vs, &dC);
    if (!s) s = B ? domino_gpu_upload(h, dB, B, (size_t)(v.ncols * width) * vs)
                  : domino_gpu_gen_dense(h, seed, width, 0, v.ncols, 0, width, v.type, dB, width);
    domino_spmm_plan plan = NULL; /* made once: the timings are the products' */
    if (!s) s = domino_gpu_spmm_plan_engine(h, engine, dA, width, dB, width, dC, width, &plan);
    if (!s) s = domino_gpu_spmm_run(h, plan); /* warm-up */
    for (int r = 0; r < repeat && !s; r++) {
        double t0 = domino_wtime();
        s = domino_gpu_spmm_run(h, plan);
        times[r] = domino_wtime() - t0;
    }
    domino_gpu_spmm_plan_free(plan);
    if (!s) s = B ? domino_gpu_download(h, R, dC, (size_t)(v.nrows * width) * vs)
                  : domino_gpu_dense_multiply(h, v.type, v.nrows, width, dC, width, z, y);
    if (!s) *seconds = bench_median(times, repeat);
    free(times);
    domino_dmatrix_free(dA);
    domino_gpu_free(dB);
    domino_gpu_free(dC);
    return s;
}

/* the experiment switch DOMINO_SPMM_CHUNKS_SWEEP: DOMINO_SPMM_CHUNKS_OPT
 * set to opt for the next runs, and label = name-opt<opt> */
static void chunks_opt_set(int opt, const char *name, char *label, size_t len)
{
    char value[16];
    snprintf(value, sizeof(value), "%d", opt);
    setenv("DOMINO_SPMM_CHUNKS_OPT", value, 1);
    snprintf(label, len, "%s-opt%d", name, opt);
}

/* DOMINO_SPMM_CHUNKS_OPT back to keep (as the process started; "" = unset) after a sweep */
static void chunks_opt_restore(const char *sweep, const char *keep)
{
    if (sweep && keep[0]) setenv("DOMINO_SPMM_CHUNKS_OPT", keep, 1);
    else if (sweep) unsetenv("DOMINO_SPMM_CHUNKS_OPT");
}

/* the get bandwidth between PEs, measured once (GB/s) */
static double get_gbs;

/* a one-sided algorithm of plan P on all PEs: median of the slowest PE's totals */
static domino_status run_dspmm(domino_handle h, domino_dist D, domino_dspmm P, int alg, int repeat, spmm_result *res)
{
    domino_dspmm_times t;
    double *times = malloc(sizeof(double) * (size_t)repeat), worst = 0;
    domino_status s = domino_dspmm_run(h, P, (domino_dspmm_algorithm)alg, &t); /* warm-up */
    res->imbalance = 0;
    res->compute = res->fetch = NAN;
    /* run and max are collective: every PE fails alike in them, so none skips one */
    for (int r = 0; r < repeat && !s; r++) {
        s = domino_dspmm_run(h, P, (domino_dspmm_algorithm)alg, &t);
        if (!s) s = domino_dist_max(h, D, t.total, &worst);
        if (times) times[r] = worst;
        if (!s) s = domino_dist_max(h, D, t.imbalance, &worst);
        if (!s && worst > res->imbalance) res->imbalance = worst;
        /* the last run's busiest PE in each part */
        if (!s) s = domino_dist_max(h, D, t.compute, &res->compute);
        if (!s) s = domino_dist_max(h, D, t.fetch, &res->fetch);
        res->stolen = (long long)t.stolen;
    }
    if (!s && times) res->seconds = bench_median(times, repeat);
    free(times);
    return s;
}


/* the configurations of the suite after cuSPARSE: the one-sided algorithms
 * (in domino_dspmm_algorithm order), then SUMMA */
static const char *const config_names[] = {"stationary-c", "stationary-c+steal", "stationary-a",
                                           "stationary-c+steal-local", "stationary-c-rows", "summa"};
#define CONFIGS 6

/* 1 if name is in the comma-separated list (NULL: every name) */
static int listed(const char *list, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = list; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (strncmp(p, name, len) == 0 && (p[len] == ',' || p[len] == '\0')) return 1;
    return list == NULL;
}

/* max |y - w| / max |w| */
static double vector_error(const double *y, const double *w, int64_t count)
{
    double d = 0, scale = 0;
#pragma omp parallel for reduction(max : d, scale) schedule(static)
    for (int64_t i = 0; i < count; i++) {
        d = fmax(d, isfinite(y[i]) ? fabs(y[i] - w[i]) : INFINITY);
        scale = fmax(scale, fabs(w[i]));
    }
    return d / fmax(scale, 1e-300);
}

/* lean: w = A (B z) on PE 0, B = domino_gen_dense(seed) (k x width of A's
 * type) made on the GPU a block of rows at a time and multiplied there,
 * A applied on the host in double */
static domino_status lean_reference(domino_handle h, domino_matrix A, int64_t width, uint64_t seed, const double *z,
                                    double *w)
{
    domino_matrix_view v;
    domino_status s = domino_matrix_get_view(h, A, &v);
    size_t vs = domino_type_size(v.type);
    int64_t block = ((int64_t)256 << 20) / ((int64_t)vs * width) + 1; /* rows of B per 256 MiB */
    double *u = malloc(((size_t)v.ncols + 1) * sizeof(double));
    void *dB = NULL;
    if (!s && !u) s = domino_error(h, DOMINO_OUT_OF_MEMORY, "domino bench: B z: out of memory");
    if (!s) s = domino_gpu_malloc(h, (size_t)(block * width) * vs, &dB);
    for (int64_t r = 0; r < v.ncols && !s; r += block) {
        int64_t rows = v.ncols - r < block ? v.ncols - r : block;
        s = domino_gpu_gen_dense(h, seed, width, r, rows, 0, width, v.type, dB, width);
        if (!s) s = domino_gpu_dense_multiply(h, v.type, rows, width, dB, width, z, u + r);
    }
    if (!s) { /* w = A u */
#pragma omp parallel for schedule(dynamic, 4096)
        for (int32_t i = 0; i < v.nrows; i++) {
            double sum = 0;
            for (int64_t k = v.ptr[i]; k < v.ptr[i + 1]; k++)
                sum += (v.type == DOMINO_FLOAT64 ? ((const double *)v.val)[k] : ((const float *)v.val)[k]) * u[v.ind[k]];
            w[i] = sum;
        }
    }
    domino_gpu_free(dB);
    free(u);
    return s;
}

/* how the products of one case are checked (PE 0 decides) */
typedef struct spmm_check {
    int lean;         /* 0: C gathered against R; 1: C z against w = A (B z) */
    int64_t count;    /* entries compared: m width, or m */
    domino_type type; /* values of C */
    const void *R;    /* the reference product (PE 0; not lean) */
    void *C;          /* room for a gathered C (every PE; not lean) */
    int64_t width;    /* C's leading dimension */
    const double *z;  /* the vector (lean) */
    const double *w;  /* A (B z) (PE 0; lean) */
    double *y;        /* room for C z (every PE; lean) */
} spmm_check;

/* PE 0: the error of the C gathered into k->C, or of the C z in k->y */
static double answer_error(const spmm_check *k)
{
    return k->lean ? vector_error(k->y, k->w, k->count) : rel_error(k->C, k->R, k->count, k->type);
}

/* Collective: the error of plan P's C (on PE 0; 0 elsewhere), INFINITY when it cannot be read */
static double product_error(domino_handle h, domino_dist D, domino_dspmm P, const spmm_check *k)
{
    domino_status s = k->lean ? domino_dspmm_multiply(h, P, 'C', k->z, k->y) : domino_dspmm_gather(h, P, k->C, k->width);
    return s ? INFINITY : domino_dist_rank(D) == 0 ? answer_error(k) : 0;
}

#ifdef DOMINO_HAVE_NCCL
/* NCCL SUMMA on all PEs on the squarest grid, B from the host or (lean)
 * made on the GPUs: median of the slowest PE's totals into r, its answer's
 * error as k says (C gathered, or C z) */
static domino_status run_summa(domino_handle h, domino_dist D, domino_matrix A, const void *B, int64_t width,
                               uint64_t seed, int repeat, const spmm_check *k, spmm_result *r, int *pr, int *pc)
{
    int npes = domino_dist_npes(D), rank = domino_dist_rank(D);
    for (int q = 1; q * q <= npes; q++)
        if (npes % q == 0) *pr = q, *pc = npes / q;
    domino_summa_gpu S = NULL;
    domino_summa_gpu_times t;
    double *times = malloc(sizeof(double) * (size_t)repeat), worst = 0;
    domino_status s = k->lean ? domino_summa_gpu_make_random(h, A, width, seed, *pr, *pc, &S)
                              : domino_summa_gpu_make(h, A, B, width, width, *pr, *pc, &S);
    s = domino_dist_agree(h, D, s);
    if (!s) s = domino_summa_gpu_spmm(h, S, &t);
    /* domino_summa_gpu_spmm fails on every PE alike (it agrees), so the max below is never skipped by one */
    for (int q = 0; q < repeat && !s; q++) {
        s = domino_summa_gpu_spmm(h, S, &t);
        if (!s) s = domino_dist_max(h, D, t.total, &worst);
        if (times) times[q] = worst;
    }
    if (!s) s = k->lean ? domino_summa_gpu_multiply(h, S, k->z, k->y) : domino_summa_gpu_gather(h, S, k->C, k->width);
    if (!s && times) r->seconds = bench_median(times, repeat);
    if (!s) r->err = rank == 0 ? answer_error(k) : 0;
    free(times);
    domino_summa_gpu_free(S);
    return domino_dist_agree(h, D, s);
}
#endif

/* one problem at one width, every configuration asked for; 0 or the count of wrong answers */
static int run_case(domino_handle h, domino_dist D, const spmm_bench_request *rq, const char *name, domino_matrix A,
                    int64_t width, FILE *csv)
{
    domino_matrix_view v;
    domino_matrix_get_view(h, A, &v);
    int rank = domino_dist_rank(D), npes = domino_dist_npes(D), wrong = 0, lean = rq->lean;
    int is_float = v.type == DOMINO_FLOAT32;
    size_t vs = domino_type_size(v.type);
    double tol = is_float ? ANSWER_TOL_FLOAT : ANSWER_TOL_DOUBLE;
    const uint64_t seed = 12345; /* the same B on every PE */
    /* npes tiles per dimension: C's column block j and B's (l, j) on PE j,
     * A's tiles fetched; every PE the same flops, npes products of whole
     * column blocks.  On 4 H200s this was 6.9x faster than 2 npes + 1 tiles
     * (a 2D spread of owners, but 9x more, 9x narrower products; R-MAT 22,
     * width 128: bench/results/h200x4-spmm-v1) */
    int tiles = rq->tiles > 0 ? (int)rq->tiles : npes;
    spmm_check k = {lean, lean ? v.nrows : v.nrows * width, v.type, NULL, NULL, width, NULL, NULL, NULL};
    size_t cbytes = (size_t)(v.nrows * width) * vs + 8;
    void *B = NULL, *R = NULL, *G = NULL;
    double *z = NULL, *w = NULL;
    domino_status s = DOMINO_SUCCESS;
    if (lean) {
        z = malloc((size_t)width * sizeof(double));
        k.y = malloc(((size_t)v.nrows + 1) * sizeof(double));
        if (rank == 0) w = malloc(((size_t)v.nrows + 1) * sizeof(double));
        if (!z || !k.y || (rank == 0 && !w))
            s = domino_error(h, DOMINO_OUT_OF_MEMORY, "domino bench: PE %d: the check's vectors: out of memory", rank);
        for (int64_t c = 0; z && c < width; c++) z[c] = (double)((c * 7919) % 1009) / 1009.0 - 0.5;
        k.z = z;
        k.w = w;
    } else {
        B = malloc((size_t)(v.ncols * width) * vs + 8);
        k.C = malloc(cbytes);
        if (rank == 0) R = malloc(cbytes), G = malloc(cbytes); /* PE 0 checks */
        if (!B || !k.C || (rank == 0 && (!R || !G)))
            s = domino_error(h, DOMINO_OUT_OF_MEMORY, "domino bench: PE %d: B and C on the host: out of memory (--lean "
                             "makes them on the GPUs)", rank);
        if (!s) s = domino_gen_dense(h, seed, width, 0, v.ncols, 0, width, v.type, B, width);
        k.R = R;
    }
    if (rank == 0)
        printf("%s: n %d, nnz %lld, width %lld, %d PEs, %d x %d tiles, tile nnz max/mean per PE %.2f%s\n"
               "  %-20s %4s %10s %9s %8s %9s %9s %10s %7s %9s\n", name, v.nrows, (long long)v.nnz, (long long)width, npes,
               tiles, tiles, dist_tile_nnz_balance(A, tiles, npes),
               lean ? ", B made on the GPUs, checked by C z = A (B z)" : "", "config", "gpus", "ms", "GFLOP/s",
               "xcuSP", "comp ms", "fetch ms", "imb ms", "stolen0", "rel err");
    /* the reference and single-GPU cuSPARSE, on PE 0 */
    double base = NAN;
    domino_status c = DOMINO_SUCCESS;
    if (rank == 0 && !s && lean) {
        c = lean_reference(h, A, width, seed, z, w);
        if (c) fprintf(stderr, "domino bench: A (B z): %s\n", domino_last_error(h));
        /* cuSPARSE may not fit one GPU (B and C whole): the one-sided runs go on without it */
        domino_status cs = c ? c : run_single(h, DOMINO_SPMM_CUSPARSE, A, NULL, seed, width, rq->repeat, NULL, z, k.y, &base);
        double e = cs ? INFINITY : vector_error(k.y, w, v.nrows);
        if (!c && cs) fprintf(stderr, "domino bench: cusparse-1gpu: %s\n", domino_last_error(h));
        spmm_result r = baseline_result(cs ? NAN : base, e);
        if (!c) report_one_gpu(csv, name, &v, width, "cusparse-1gpu", base, tol, &r);
        if (cs) base = NAN;
        wrong += !cs && !(e <= tol);
    } else if (rank == 0 && !s) {
        c = run_single(h, DOMINO_SPMM_CUSPARSE, A, B, seed, width, rq->repeat, G, NULL, NULL, &base);
        if (!c && v.nnz <= CPU_REFERENCE_MAX_NNZ) { /* the CPU checks cuSPARSE too */
            c = domino_ref_spmm(h, DOMINO_OP_N, 1.0, A, (int32_t)width, B, width, 0.0, R, width);
            double e = c ? INFINITY : rel_error(G, R, v.nrows * width, v.type);
            spmm_result r = baseline_result(base, e);
            report_one_gpu(csv, name, &v, width, "cusparse-1gpu", base, tol, &r);
            wrong += !(e <= tol);
        } else if (!c) {
            memcpy(R, G, (size_t)(v.nrows * width) * vs);
            spmm_result r = baseline_result(base, 0);
            report_one_gpu(csv, name, &v, width, "cusparse-1gpu", base, tol, &r);
        }
        if (c) fprintf(stderr, "domino bench: cusparse-1gpu: %s\n", domino_last_error(h));
    }
    /* domino's chunk kernel on one GPU, where asked and B narrow enough:
     * checked like cuSPARSE, timed against it */
    /* (DOMINO_SPMM_CHUNKS_SWEEP=N, an experiment switch: one row for each
     * DOMINO_SPMM_CHUNKS_OPT from 0 to N - 1) */
    const char *sweep = getenv("DOMINO_SPMM_CHUNKS_SWEEP"), *given = getenv("DOMINO_SPMM_CHUNKS_OPT");
    char keep[16] = "";
    if (given) snprintf(keep, sizeof(keep), "%s", given);
    for (int opt = 0, last = sweep ? atoi(sweep) : 1; rank == 0 && !s && !c && listed(rq->engines, "chunks-1gpu") &&
                                                       width <= 128 && opt < last; opt++) {
        double t = NAN, e = INFINITY;
        char label[32] = "chunks-1gpu";
        if (sweep) chunks_opt_set(opt, "chunks-1gpu", label, sizeof(label));
        domino_status cs = lean ? run_single(h, DOMINO_SPMM_CHUNKS, A, NULL, seed, width, rq->repeat, NULL, z, k.y, &t)
                                : run_single(h, DOMINO_SPMM_CHUNKS, A, B, seed, width, rq->repeat, G, NULL, NULL, &t);
        if (!cs) e = lean ? vector_error(k.y, w, v.nrows) : rel_error(G, R, v.nrows * width, v.type);
        if (cs) fprintf(stderr, "domino bench: %s: %s\n", label, domino_last_error(h));
        spmm_result r = baseline_result(cs ? NAN : t, e);
        report_one_gpu(csv, name, &v, width, label, base, tol, &r);
        wrong += !(e <= tol);
    }
    chunks_opt_restore(sweep, keep); /* as the other PEs have it */
    if (s) fprintf(stderr, "%s\n", domino_last_error(h));
    if (domino_dist_agree(h, D, s ? s : c)) {
        free(B), free(R), free(k.C), free(G), free(z), free(w), free(k.y);
        return 1;
    }
    domino_dspmm P = NULL; /* one plan for every algorithm (each run starts from a zero C) */
    domino_status made = lean ? domino_dspmm_make_random(h, D, A, width, seed, tiles, &P)
                              : domino_dspmm_make(h, D, A, B, width, width, tiles, &P);
    if (made && rank == 0) fprintf(stderr, "domino bench: the plan: %s\n", domino_last_error(h));
    double mbytes = 0, mflops = 0;
    if (!made) domino_dspmm_model(P, &mbytes, &mflops);
    for (int run = 0; run < 5 * 16; run++) { /* an algorithm, or (sweep) stationary-C by row blocks per option */
        int alg = run / 16, opt = run % 16;
        if (!listed(rq->engines, config_names[alg]) || opt >= (sweep && alg == 4 ? atoi(sweep) : 1)) continue;
        char label[40];
        snprintf(label, sizeof(label), "%s", config_names[alg]);
        if (sweep && alg == 4) chunks_opt_set(opt, config_names[alg], label, sizeof(label)); /* every PE alike */
        spmm_result r = {NAN, NAN, 0, NAN, 0, INFINITY, NAN};
        s = made ? made : run_dspmm(h, D, P, alg, rq->repeat, &r);
        double secs = s ? NAN : r.seconds;
        if (rank == 0 && !s && !isnan(base) && alg != DOMINO_DSPMM_STATIONARY_A) { /* the roofline of
                                                          stationary-C and its variants (Brock et al., Sec. 5) */
            double rate = 2.0 * (double)v.nnz * (double)width / base; /* cuSPARSE on one GPU, flop/s */
            double tb = mbytes / (get_gbs * 1e9), tf = mflops / rate;
            double bound = r.bound = tb > tf ? tb : tf;
            if (alg == 0 || !listed(rq->engines, config_names[0]))
                printf("  model: busiest PE fetches %.1f MiB from others at %.0f GB/s (%.3f ms) and computes %.3f "
                       "GFLOP at cuSPARSE's %.0f GFLOP/s (%.3f ms): bound %.3f ms, measured %.3f ms (%.2fx the "
                       "bound)\n", mbytes / 1048576.0, get_gbs, tb * 1e3, mflops * 1e-9, rate * 1e-9, tf * 1e3,
                       bound * 1e3, secs * 1e3, secs / bound);
        }
        r.err = s ? INFINITY : product_error(h, D, P, &k);
        r.seconds = secs;
        if (rank == 0) report(csv, name, v.nnz, width, label, npes, base, tol, &r);
        if (rank == 0 && s && s != made) fprintf(stderr, "domino bench: %s: %s\n", label, domino_last_error(h));
        wrong += rank == 0 && !s && !(r.err <= tol);
    }
    if (sweep && keep[0]) setenv("DOMINO_SPMM_CHUNKS_OPT", keep, 1);
    else if (sweep) unsetenv("DOMINO_SPMM_CHUNKS_OPT");
    domino_dspmm_free(P);
#ifdef DOMINO_HAVE_NCCL
    if (listed(rq->engines, "summa")) {
        int pr = 1, pc = npes;
        spmm_result r = {NAN, NAN, 0, NAN, 0, INFINITY, NAN};
        s = run_summa(h, D, A, B, width, seed, rq->repeat, &k, &r, &pr, &pc);
        char label[64];
        snprintf(label, sizeof(label), "summa-nccl-%dx%d", pr, pc);
        if (s) r.seconds = NAN, r.err = INFINITY;
        if (rank == 0) report(csv, name, v.nnz, width, label, npes, base, tol, &r);
        if (rank == 0 && s) fprintf(stderr, "domino bench: %s: %s\n", label, domino_last_error(h));
        wrong += rank == 0 && !s && !(r.err <= tol);
    }
#endif
    if (csv) fflush(csv);
    fflush(stdout);
    free(B), free(R), free(k.C), free(G), free(z), free(w), free(k.y);
    return wrong;
}

int bench_dist_spmm_run(const spmm_bench_request *rq)
{
    domino_handle h = NULL;
    domino_dist D = NULL;
    FILE *csv = NULL;
    int wrong = 0, failed = 0;
    int started = bench_dist_begin("spmm", &h, &D, &get_gbs);
    if (started) return started;
    int rank = domino_dist_rank(D);
    for (const char *p = rq->engines; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
        size_t len = strcspn(p, ",");
        int known = (len == 8 && strncmp(p, "cusparse", 8) == 0) || /* always run: the baseline */
                    (len == 11 && strncmp(p, "chunks-1gpu", 11) == 0);
        for (int c = 0; c < CONFIGS && !known; c++)
            known = strlen(config_names[c]) == len && strncmp(p, config_names[c], len) == 0;
        if (!known) {
            if (rank == 0)
                fprintf(stderr, "domino bench --suite spmm: --engines: unknown configuration '%.*s' (stationary-c, "
                                "stationary-c+steal, stationary-a, stationary-c+steal-local, stationary-c-rows, summa, "
                                "chunks-1gpu)\n",
                        (int)len, p);
            domino_dist_leave(h, D);
            domino_destroy(h);
            return 2;
        }
    }
    const char *problems = rq->problems ? rq->problems : rq->quick ? "rmat:12" : "rmat:18,rmat:20,rmat:22";
    const char *widths = rq->widths ? rq->widths : rq->quick ? "32" : "128,256,512";
    if (rank == 0) {
        char device[256] = "?";
        if (domino_gpu_describe(h, device, sizeof(device), &copy_gbs)) copy_gbs = 0; /* then no bandwidth lines */
        printf("# domino bench --suite spmm: %d PEs, %s, %d timed runs (median of the slowest PE); one-sided get "
               "%.0f GB/s (PE 0 from PE 1, 64 MiB); PE 0's GPU %s, copy %.0f GB/s\n", domino_dist_npes(D),
               rq->use_float ? "float" : "double", rq->repeat, get_gbs, device, copy_gbs);
        if (rq->csv_path && !(csv = fopen(rq->csv_path, "w"))) fprintf(stderr, "domino bench: cannot write %s\n", rq->csv_path);
        if (csv) fprintf(csv, "problem,nnz,width,config,gpus,seconds,gflops,x_cusparse_1gpu,compute_max_s,imbalance_max_s,"
                              "stolen_pe0,rel_error,model_bound_s,fetch_max_s,status\n");
    }
    char *plist = strdup(problems), *psave = NULL;
    for (char *p = strtok_r(plist, ",", &psave); p && !failed; p = strtok_r(NULL, ",", &psave)) {
        problem_spec spec;
        char why[256];
        domino_matrix A = NULL;
        domino_status s = DOMINO_INVALID_VALUE;
        if (problem_spec_parse(p, &spec, why, sizeof(why)) == 0) s = bench_problem_product_matrix(h, &spec, rq->use_float, &A);
        if (domino_dist_agree(h, D, s)) {
            if (rank == 0) fprintf(stderr, "domino bench: %s: not an R-MAT, stencil (d3n27:N) or Matrix Market problem\n", p);
            failed = 1;
            break;
        }
        char *wlist = strdup(widths), *wsave = NULL;
        for (char *w = strtok_r(wlist, ",", &wsave); w; w = strtok_r(NULL, ",", &wsave))
            if (atoll(w) > 0) wrong += run_case(h, D, rq, spec.name, A, atoll(w), csv);
        free(wlist);
        domino_matrix_free(A);
    }
    free(plist);
    if (csv) fclose(csv);
    domino_dist_leave(h, D);
    domino_destroy(h);
    if (wrong && rank == 0) fprintf(stderr, "domino bench: %d wrong answers\n", wrong);
    return failed ? 1 : wrong ? 3 : 0;
}
#endif /* DOMINO_HAVE_NVSHMEM */
