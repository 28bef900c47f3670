/* bench_dist_spmm.c: "domino run -n N bench --suite spmm": for each problem
 * and dense width, single-GPU cuSPARSE SpMM on PE 0's GPU, then on all PEs
 * the one-sided stationary-C (prefetching), stationary-C with random work
 * stealing, stationary-A (prefetching), stationary-C with locality-aware
 * stealing, stationary-C by row blocks (one product per C tile), and the
 * bulk-synchronous NCCL SUMMA where NCCL was found.
 * Every product is checked against the reference (the CPU for R-MAT scale
 * up to 18, else the single-GPU product) before its time is reported;
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
    fprintf(stderr, "domino bench --suite spmm: this build has no NVSHMEM\n");
    return 1;
}
#else
#define ANSWER_TOL_DOUBLE 1e-10
#define ANSWER_TOL_FLOAT 1e-4
#define CPU_REFERENCE_MAX_NNZ 3000000 /* beyond this the single-GPU product is the reference */

/* max |C - R| / max |R| */
static double rel_error(const void *C, const void *R, int64_t count, domino_type t)
{
    double d = 0, scale = 0;
    for (int64_t i = 0; i < count; i++) {
        double c = cli_get(t, C, i), r = cli_get(t, R, i);
        d = fmax(d, isfinite(c) ? fabs(c - r) : INFINITY);
        scale = fmax(scale, fabs(r));
    }
    return d / fmax(scale, 1e-300);
}

/* one row of the table and the CSV (PE 0) */
static void report(FILE *csv, const char *problem, int64_t nnz, int64_t width, const char *config, int gpus,
                   double seconds, double base, double compute, double imbalance, long long stolen, double err, double tol,
                   double bound)
{
    double gflops = 2.0 * (double)nnz * (double)width / seconds * 1e-9;
    int ok = isfinite(seconds) && err <= tol;
    if (ok)
        printf("  %-20s %4d %10.3f %9.1f %8.2f %9.3f %10.3f %7lld %9.1e\n", config, gpus, seconds * 1e3, gflops,
               base / seconds, compute * 1e3, imbalance * 1e3, stolen, err);
    else
        printf("  %-20s %4d  FAILED (error %.2e)\n", config, gpus, err);
    if (csv)
        fprintf(csv, "%s,%lld,%lld,%s,%d,%.6e,%.2f,%.4f,%.6e,%.6e,%lld,%.3e,%.6e,%s\n", problem, (long long)nnz,
                (long long)width, config, gpus, ok ? seconds : NAN, ok ? gflops : NAN, ok ? base / seconds : NAN,
                compute, imbalance, stolen, err, bound, ok ? "ok" : "failed");
}

/* single-GPU cuSPARSE on PE 0: median time, C into R */
static domino_status run_cusparse(domino_handle h, domino_matrix A, const void *B, int64_t width, size_t vs, int repeat,
                                  void *R, double *seconds)
{
    domino_matrix_view v;
    domino_dmatrix dA = NULL;
    void *dB = NULL, *dC = NULL;
    double *times = malloc(sizeof(double) * (size_t)repeat);
    domino_status s = domino_matrix_get_view(h, A, &v);
    if (!s) s = domino_dmatrix_upload(h, A, &dA);
    if (!s) s = domino_gpu_malloc(h, (size_t)(v.ncols * width) * vs, &dB);
    if (!s) s = domino_gpu_malloc(h, (size_t)(v.nrows * width) * vs, &dC);
    if (!s) s = domino_gpu_upload(h, dB, B, (size_t)(v.ncols * width) * vs);
    domino_spmm_plan plan = NULL; /* made once: the timings are the products' */
    if (!s) s = domino_gpu_spmm_plan(h, dA, width, dB, width, dC, width, &plan);
    if (!s) s = domino_gpu_spmm_run(h, plan); /* warm-up */
    for (int r = 0; r < repeat && !s && times; r++) {
        double t0 = domino_wtime();
        s = domino_gpu_spmm_run(h, plan);
        times[r] = domino_wtime() - t0;
    }
    domino_gpu_spmm_plan_free(plan);
    if (!s) s = domino_gpu_download(h, R, dC, (size_t)(v.nrows * width) * vs);
    if (!s && times) {
        *seconds = bench_median(times, repeat);
    }
    free(times);
    domino_dmatrix_free(dA);
    domino_gpu_free(dB);
    domino_gpu_free(dC);
    return s;
}

/* the get bandwidth between PEs, measured once (GB/s) */
static double get_gbs;

/* a one-sided algorithm of plan P on all PEs: median of the slowest PE's totals, C gathered */
static domino_status run_dspmm(domino_handle h, domino_dist D, domino_dspmm P, int64_t width, int alg, int repeat,
                               void *C, double *seconds, double *compute, double *imbalance, long long *stolen)
{
    domino_dspmm_times t;
    double *times = malloc(sizeof(double) * (size_t)repeat), worst = 0;
    domino_status s = domino_dspmm_run(h, P, (domino_dspmm_algorithm)alg, &t); /* warm-up */
    *imbalance = 0;
    *compute = NAN;
    /* run and max are collective: every PE fails alike in them, so none skips one */
    for (int r = 0; r < repeat && !s; r++) {
        s = domino_dspmm_run(h, P, (domino_dspmm_algorithm)alg, &t);
        if (!s) s = domino_dist_max(h, D, t.total, &worst);
        if (times) times[r] = worst;
        if (!s) s = domino_dist_max(h, D, t.imbalance, &worst);
        if (!s && worst > *imbalance) *imbalance = worst;
        if (!s) s = domino_dist_max(h, D, t.compute, compute); /* the last run's busiest PE */
        *stolen = (long long)t.stolen;
    }
    if (!s) s = domino_dspmm_gather(h, P, C, width);
    if (!s && times) {
        *seconds = bench_median(times, repeat);
    }
    free(times);
    return s;
}

#ifdef DOMINO_HAVE_NCCL
/* NCCL SUMMA on all PEs on the squarest grid: median of the slowest PE's totals */
static domino_status run_summa(domino_handle h, domino_dist D, domino_matrix A, const void *B, int64_t width, int repeat,
                               void *C, double *seconds, int *pr, int *pc)
{
    int npes = domino_dist_npes(D);
    for (int r = 1; r * r <= npes; r++)
        if (npes % r == 0) *pr = r, *pc = npes / r;
    domino_summa_gpu S = NULL;
    domino_summa_gpu_times t;
    double *times = malloc(sizeof(double) * (size_t)repeat), worst = 0;
    domino_status s = domino_summa_gpu_make(h, A, B, width, width, *pr, *pc, &S);
    s = domino_dist_agree(h, D, s);
    if (!s) s = domino_summa_gpu_spmm(h, S, &t);
    /* domino_summa_gpu_spmm fails on every PE alike (it agrees), so the max below is never skipped by one */
    for (int r = 0; r < repeat && !s; r++) {
        s = domino_summa_gpu_spmm(h, S, &t);
        if (!s) s = domino_dist_max(h, D, t.total, &worst);
        if (times) times[r] = worst;
    }
    if (!s) s = domino_summa_gpu_gather(h, S, C, width);
    if (!s && times) {
        *seconds = bench_median(times, repeat);
    }
    free(times);
    domino_summa_gpu_free(S);
    return domino_dist_agree(h, D, s);
}
#endif

/* one problem at one width, every configuration; 0 or the count of wrong answers */
static int run_case(domino_handle h, domino_dist D, const spmm_bench_request *rq, const char *name, domino_matrix A,
                    int64_t width, FILE *csv)
{
    domino_matrix_view v;
    domino_matrix_get_view(h, A, &v);
    int rank = domino_dist_rank(D), npes = domino_dist_npes(D), wrong = 0;
    int is_float = v.type == DOMINO_FLOAT32;
    size_t vs = domino_type_size(v.type);
    double tol = is_float ? ANSWER_TOL_FLOAT : ANSWER_TOL_DOUBLE;
    /* npes tiles per dimension: C's column block j and B's (l, j) on PE j,
     * A's tiles fetched; every PE the same flops, npes products of whole
     * column blocks.  On 4 H200s this was 6.9x faster than 2 npes + 1 tiles
     * (a 2D spread of owners, but 9x more, 9x narrower products; R-MAT 22,
     * width 128: bench/results/h200x4-spmm-v1) */
    int tiles = rq->tiles > 0 ? (int)rq->tiles : npes;
    size_t cbytes = (size_t)(v.nrows * width) * vs + 8;
    void *B = malloc((size_t)(v.ncols * width) * vs + 8), *C = malloc(cbytes);
    void *R = rank == 0 ? malloc(cbytes) : NULL, *G = rank == 0 ? malloc(cbytes) : NULL; /* PE 0 checks */
    domino_status s = B && C && (rank != 0 || (R && G)) ? DOMINO_SUCCESS : DOMINO_OUT_OF_MEMORY;
    uint64_t x = 12345; /* the same B on every PE */
    for (int64_t i = 0; B && i < v.ncols * width; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        double b = (double)(x >> 11) / 9007199254740992.0 - 0.5;
        cli_set(v.type, B, i, b);
    }
    if (rank == 0)
        printf("%s: n %d, nnz %lld, width %lld, %d PEs, %d x %d tiles, tile nnz max/mean per PE %.2f\n"
               "  %-20s %4s %10s %9s %8s %9s %10s %7s %9s\n", name, v.nrows, (long long)v.nnz, (long long)width, npes,
               tiles, tiles, dist_tile_nnz_balance(A, tiles, npes), "config", "gpus", "ms", "GFLOP/s",
               "xcuSP", "comp ms", "imb ms", "stolen0", "rel err");
    /* the reference and single-GPU cuSPARSE, on PE 0 */
    double base = NAN, secs = NAN, imb = 0;
    long long stolen = 0;
    domino_status c = DOMINO_SUCCESS;
    if (rank == 0 && !s) {
        c = run_cusparse(h, A, B, width, vs, rq->repeat, G, &base);
        if (!c && v.nnz <= CPU_REFERENCE_MAX_NNZ) { /* the CPU checks cuSPARSE too */
            c = domino_ref_spmm(h, DOMINO_OP_N, 1.0, A, (int32_t)width, B, width, 0.0, R, width);
            double e = c ? INFINITY : rel_error(G, R, v.nrows * width, v.type);
            report(csv, name, v.nnz, width, "cusparse-1gpu", 1, base, base, base, 0, 0, e, tol, NAN);
            wrong += !(e <= tol);
        } else if (!c) {
            memcpy(R, G, (size_t)(v.nrows * width) * vs);
            report(csv, name, v.nnz, width, "cusparse-1gpu", 1, base, base, base, 0, 0, 0, tol, NAN);
        }
        if (c) fprintf(stderr, "domino bench: cusparse-1gpu: %s\n", domino_last_error(h));
    }
    if (domino_dist_agree(h, D, s ? s : c)) {
        free(B), free(R), free(C), free(G);
        return 1;
    }
    static const char *const names[] = {"stationary-c", "stationary-c+steal", "stationary-a",
                                        "stationary-c+steal-local", "stationary-c-rows"};
    domino_dspmm P = NULL; /* one plan for every algorithm (each run starts from a zero C) */
    domino_status made = domino_dspmm_make(h, D, A, B, width, width, tiles, &P);
    double mbytes = 0, mflops = 0;
    if (!made) domino_dspmm_model(P, &mbytes, &mflops);
    for (int alg = 0; alg < 5; alg++) {
        double comp = NAN;
        s = made ? made : run_dspmm(h, D, P, width, alg, rq->repeat, C, &secs, &comp, &imb, &stolen);
        double bound = NAN;
        if (rank == 0 && !s && alg == 0) { /* the roofline of stationary-C (Brock et al., Sec. 5) */
            double rate = 2.0 * (double)v.nnz * (double)width / base; /* cuSPARSE on one GPU, flop/s */
            double tb = mbytes / (get_gbs * 1e9), tf = mflops / rate;
            bound = tb > tf ? tb : tf;
            printf("  model: busiest PE fetches %.1f MiB from others at %.0f GB/s (%.3f ms) and computes %.3f GFLOP "
                   "at cuSPARSE's %.0f GFLOP/s (%.3f ms): bound %.3f ms, measured %.3f ms (%.2fx the bound)\n",
                   mbytes / 1048576.0, get_gbs, tb * 1e3, mflops * 1e-9, rate * 1e-9, tf * 1e3,
                   bound * 1e3, secs * 1e3, secs / bound);
        }
        double e = s ? INFINITY : rank == 0 ? rel_error(C, R, v.nrows * width, v.type) : 0;
        if (rank == 0) report(csv, name, v.nnz, width, names[alg], npes, s ? NAN : secs, base, comp, imb, stolen, e, tol, bound);
        if (rank == 0 && s) fprintf(stderr, "domino bench: %s: %s\n", names[alg], domino_last_error(h));
        wrong += rank == 0 && !s && !(e <= tol);
    }
    domino_dspmm_free(P);
#ifdef DOMINO_HAVE_NCCL
    int pr = 1, pc = npes;
    s = run_summa(h, D, A, B, width, rq->repeat, C, &secs, &pr, &pc);
    char label[64];
    snprintf(label, sizeof(label), "summa-nccl-%dx%d", pr, pc);
    double e = s ? INFINITY : rank == 0 ? rel_error(C, R, v.nrows * width, v.type) : 0;
    if (rank == 0) report(csv, name, v.nnz, width, label, npes, s ? NAN : secs, base, NAN, 0, 0, e, tol, NAN);
    if (rank == 0 && s) fprintf(stderr, "domino bench: %s: %s\n", label, domino_last_error(h));
    wrong += rank == 0 && !s && !(e <= tol);
#endif
    if (csv) fflush(csv);
    fflush(stdout);
    free(B), free(R), free(C), free(G);
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
    const char *problems = rq->problems ? rq->problems : rq->quick ? "rmat:12" : "rmat:18,rmat:20,rmat:22";
    const char *widths = rq->widths ? rq->widths : rq->quick ? "32" : "128,256,512";
    if (rank == 0) {
        printf("# domino bench --suite spmm: %d PEs, %s, %d timed runs (median of the slowest PE); one-sided get "
               "%.0f GB/s (PE 0 from PE 1, 64 MiB)\n", domino_dist_npes(D), rq->use_float ? "float" : "double",
               rq->repeat, get_gbs);
        if (rq->csv_path && !(csv = fopen(rq->csv_path, "w"))) fprintf(stderr, "domino bench: cannot write %s\n", rq->csv_path);
        if (csv) fprintf(csv, "problem,nnz,width,config,gpus,seconds,gflops,x_cusparse_1gpu,compute_max_s,imbalance_max_s,"
                              "stolen_pe0,rel_error,model_bound_s,status\n");
    }
    char *plist = strdup(problems), *psave = NULL;
    for (char *p = strtok_r(plist, ",", &psave); p && !failed; p = strtok_r(NULL, ",", &psave)) {
        problem_spec spec;
        char why[256];
        domino_matrix A = NULL;
        domino_status s = DOMINO_INVALID_VALUE;
        if (problem_spec_parse(p, &spec, why, sizeof(why)) == 0) s = bench_problem_product_matrix(h, &spec, rq->use_float, &A);
        if (domino_dist_agree(h, D, s)) {
            if (rank == 0) fprintf(stderr, "domino bench: %s: not an R-MAT or general file problem\n", p);
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
