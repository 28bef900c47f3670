/* bench_dist_spgemm.c: "domino run -n N bench --suite spgemm": for each
 * problem, C = A A with single-GPU cuSPARSE (domino_gpu_spgemm) on PE 0's
 * GPU, then on all PEs the one-sided stationary-C, stationary-C with random
 * work stealing, stationary-A and locality-aware stealing (domino_dspgemm),
 * and NCCL SUMMA where NCCL was found (its broadcasts in the fetch column).  Every product is checked before
 * its time is reported: C x against A (A x) in double, within 1e3 eps of
 * |A| (|A| |x|), and nnz(C) against the single-GPU product's.  Times are
 * medians of the timed runs (the slowest PE's), after one warm-up run;
 * the component breakdown is the last run's, one line per PE.  Each
 * problem's first line gives the load balance: of A's tiles over the PEs
 * (max / mean entries) and of stationary-C's flops (its busiest PE's over
 * the mean, from the plan's model). */
#define _POSIX_C_SOURCE 200809L /* strdup, strtok_r */
#include "bench_dist_spgemm.h"
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
int bench_dist_spgemm_run(const spgemm_bench_request *rq)
{
    (void)rq;
    return cli_no_nvshmem("bench --suite spgemm");
}
#else
#define CHECK_EPS_FACTOR 1e3 /* C x within this many eps of |A| (|A| |x|) */

/* w = A (A x) and its scale wa = |A| (|A| |x|), on the host in double */
static void reference(domino_matrix A, const double *x, double *w, double *wa)
{
    domino_matrix_view v;
    domino_matrix_get_view(NULL, A, &v);
    double *ax = malloc(((size_t)v.nrows + 1) * sizeof(double)), *axa = malloc(((size_t)v.nrows + 1) * sizeof(double));
    for (int pass = 0; pass < 2 && ax && axa; pass++)
        for (int32_t i = 0; i < v.nrows; i++) {
            double s = 0, a = 0;
            for (int64_t k = v.ptr[i]; k < v.ptr[i + 1]; k++) {
                double val = v.type == DOMINO_FLOAT64 ? ((const double *)v.val)[k] : ((const float *)v.val)[k];
                s += val * (pass ? ax[v.ind[k]] : x[v.ind[k]]);
                a += fabs(val) * (pass ? axa[v.ind[k]] : fabs(x[v.ind[k]]));
            }
            if (pass) w[i] = s, wa[i] = a;
            else ax[i] = s, axa[i] = a;
        }
    free(ax);
    free(axa);
}

/* max |y - w| / max |A| (|A| |x|) */
static double check_error(const double *y, const double *w, const double *wa, int64_t m)
{
    double d = 0, scale = 0;
    for (int64_t i = 0; i < m; i++) {
        d = fmax(d, isfinite(y[i]) ? fabs(y[i] - w[i]) : INFINITY);
        scale = fmax(scale, wa[i]);
    }
    return d / fmax(scale, 1e-300);
}

/* what one configuration measured */
typedef struct spgemm_result {
    double seconds;     /* median of the slowest PE's totals */
    double fetch, merge, compute, claim, accumulate, imbalance; /* the last run's largest over PEs */
    double compute_avg; /* the last run's mean over PEs */
    double stolen;      /* tiles stolen, all PEs, last run */
    double nnz_c;       /* entries of C */
    double err;         /* check_error */
} spgemm_result;

/* one row of the table and the CSV (PE 0) */
static void report(FILE *csv, const char *problem, int32_t n, int64_t nnz, double flops, const char *config, int gpus,
                   int tiles, const spgemm_result *r, double base, double base_nnz, double tol, double bound)
{
    int ok = isfinite(r->seconds) && r->err <= tol && (isnan(base_nnz) || r->nnz_c == base_nnz);
    double gflops = flops / r->seconds * 1e-9, eff = base / (gpus * r->seconds);
    if (ok)
        printf("  %-20s %4d %5d %10.2f %8.1f %7.2f %5.0f%% %8.2f %8.2f %9.2f %9.2f %8.2f %6.0f %9.1e\n", config, gpus, tiles,
               r->seconds * 1e3, gflops, base / r->seconds, 100 * eff, r->fetch * 1e3, r->merge * 1e3, r->compute * 1e3,
               r->compute_avg * 1e3, r->imbalance * 1e3, r->stolen, r->err);
    else
        printf("  %-20s %4d %5d  FAILED (error %.2e, nnz(C) %.0f, single GPU's %.0f)\n", config, gpus, tiles, r->err,
               r->nnz_c, base_nnz);
    if (csv)
        fprintf(csv, "%s,%d,%lld,%.0f,%.6e,%s,%d,%d,%.6e,%.3f,%.4f,%.4f,%.6e,%.6e,%.6e,%.6e,%.6e,%.6e,%.6e,%.0f,%.3e,%.6e,%s\n",
                problem, n, (long long)nnz, r->nnz_c, flops, config, gpus, tiles, ok ? r->seconds : NAN,
                ok ? gflops : NAN, ok ? base / r->seconds : NAN, ok ? eff : NAN, r->fetch, r->merge, r->compute,
                r->compute_avg, r->claim, r->accumulate, r->imbalance, r->stolen, r->err, bound, ok ? "ok" : "failed");
}

/* single-GPU cuSPARSE on PE 0: one warm-up run, then the median of repeat;
 * C x of the last product into y */
static domino_status run_single(domino_handle h, domino_matrix A, const double *x, int repeat, double *y,
                                spgemm_result *r, domino_gpu_spgemm_info *info)
{
    domino_dmatrix dA = NULL, dC = NULL;
    double *times = malloc(sizeof(double) * (size_t)(repeat + 1));
    domino_status s = times ? domino_dmatrix_upload(h, A, &dA) : DOMINO_OUT_OF_MEMORY;
    for (int k = 0; k <= repeat && !s; k++) {
        domino_dmatrix_free(dC);
        dC = NULL;
        double t0 = domino_wtime();
        s = domino_gpu_spgemm(h, dA, dA, &dC, info);
        times[k] = domino_wtime() - t0;
    }
    if (!s) s = domino_dmatrix_multiply(h, dC, x, y);
    if (!s) {
        r->seconds = r->compute = r->compute_avg = bench_median(times + 1, repeat);
        r->nnz_c = (double)info->nnz;
    }
    free(times);
    domino_dmatrix_free(dA);
    domino_dmatrix_free(dC);
    return s;
}

/* one algorithm of plan P on all PEs: median of the slowest PE's totals;
 * every timed run's C counted (nnz(C) = want_nnz where known, every C tile
 * made once by the tile algorithms; *miscounted runs that were not), the
 * last run's breakdown into r and *t, and its C x into y */
static domino_status run_dist(domino_handle h, domino_dist D, domino_dspgemm P, int alg, int repeat, int tiles,
                              double want_nnz, const double *x, double *y, spgemm_result *r, domino_dspgemm_times *t,
                              int *miscounted)
{
    int npes = domino_dist_npes(D);
    double *times = malloc(sizeof(double) * (size_t)repeat), worst = 0, held = 0, made = 0;
    domino_status s = domino_dspgemm_run(h, P, (domino_dspgemm_algorithm)alg, t); /* warm-up */
    *miscounted = 0;
    /* run, max and sum are collective and agree their errors: every PE leaves the loop alike */
    for (int k = 0; k < repeat && !s; k++) {
        s = domino_dspgemm_run(h, P, (domino_dspgemm_algorithm)alg, t);
        if (!s) s = domino_dist_max(h, D, t->total, &worst);
        if (!s) s = domino_dist_sum(h, D, (double)t->nnz, &held);
        if (!s) s = domino_dist_sum(h, D, (double)t->tiles, &made);
        s = domino_dist_agree(h, D, s);
        if (times) times[k] = worst;
        if (!s && ((!isnan(want_nnz) && held != want_nnz) || (alg < 2 && made != (double)tiles * tiles))) (*miscounted)++;
    }
    if (!s) s = domino_dist_max(h, D, t->fetch, &r->fetch);
    if (!s) s = domino_dist_max(h, D, t->merge, &r->merge);
    if (!s) s = domino_dist_max(h, D, t->compute, &r->compute);
    if (!s) s = domino_dist_max(h, D, t->claim, &r->claim);
    if (!s) s = domino_dist_max(h, D, t->accumulate, &r->accumulate);
    if (!s) s = domino_dist_max(h, D, t->imbalance, &r->imbalance);
    if (!s) s = domino_dist_sum(h, D, t->compute / npes, &r->compute_avg);
    if (!s) s = domino_dist_sum(h, D, (double)t->stolen, &r->stolen);
    r->nnz_c = held;
    s = domino_dist_agree(h, D, s);
    if (!s) s = domino_dspgemm_multiply(h, P, x, y);
    if (!s && times) r->seconds = bench_median(times, repeat);
    free(times);
    return s;
}

/* the last run's breakdown, PE by PE (collective: the PEs print in turn) */
static void print_pes(domino_handle h, domino_dist D, int alg, const domino_dspgemm_times *t)
{
    int rank = domino_dist_rank(D), npes = domino_dist_npes(D);
    for (int p = 0; p < npes; p++) {
        if (rank == p) {
            printf("      PE %d: %lld %s (%lld stolen), %.3g GFLOP, fetch %.2f, merge %.2f, compute %.2f, claim %.2f, "
                   "accumulate %.2f, imbalance %.2f ms (total %.2f)\n", p, (long long)t->tiles,
                   alg >= 2 ? "products" : "tiles", (long long)t->stolen, t->flops * 1e-9, t->fetch * 1e3,
                   t->merge * 1e3, t->compute * 1e3, t->claim * 1e3, t->accumulate * 1e3, t->imbalance * 1e3,
                   t->total * 1e3);
            fflush(stdout);
        }
        domino_dist_barrier(h, D);
    }
}

#ifdef DOMINO_HAVE_NCCL
/* NCCL SUMMA on all PEs on the squarest grid: median of the slowest PE's
 * totals (every timed run's nnz(C) counted against want_nnz), C x of the
 * last into y, the last run's largest compute and communication into r */
static domino_status run_summa(domino_handle h, domino_dist D, domino_matrix A, int repeat, double want_nnz,
                               const double *x, double *y, spgemm_result *r, int *pr, int *pc, int *miscounted)
{
    int npes = domino_dist_npes(D);
    for (int q = 1; q * q <= npes; q++)
        if (npes % q == 0) *pr = q, *pc = npes / q;
    domino_summa_spgemm S = NULL;
    domino_summa_gpu_times t;
    double *times = malloc(sizeof(double) * (size_t)repeat), worst = 0;
    int64_t nnz = 0;
    *miscounted = 0;
    domino_status s = domino_summa_gpu_spgemm_make(h, A, A, *pr, *pc, &S);
    s = domino_dist_agree(h, D, s);
    if (!s) s = domino_summa_gpu_spgemm_run(h, S, &t); /* warm-up */
    /* run and multiply agree their errors: every PE leaves the loop alike */
    for (int k = 0; k < repeat && !s; k++) {
        s = domino_summa_gpu_spgemm_run(h, S, &t);
        if (!s) s = domino_dist_max(h, D, t.total, &worst);
        if (!s) s = domino_summa_gpu_spgemm_multiply(h, S, x, y, &nnz);
        if (times) times[k] = worst;
        if (!s && !isnan(want_nnz) && (double)nnz != want_nnz) (*miscounted)++;
    }
    if (!s) s = domino_dist_max(h, D, t.compute, &r->compute);
    if (!s) s = domino_dist_max(h, D, t.communication, &r->fetch);
    if (!s) s = domino_dist_sum(h, D, t.compute / npes, &r->compute_avg);
    r->nnz_c = (double)nnz;
    if (!s && times) r->seconds = bench_median(times, repeat);
    free(times);
    domino_summa_gpu_spgemm_free(S);
    return domino_dist_agree(h, D, s);
}
#endif

/* the get bandwidth between PEs, measured once (GB/s) */
static double get_gbs;

/* one problem, every configuration; 0 or the count of wrong answers and
 * failed distributed products (a single-GPU product that fails, e.g. for
 * lack of memory, is reported, not counted) */
static int run_problem(domino_handle h, domino_dist D, const spgemm_bench_request *rq, const char *name, domino_matrix A,
                       FILE *csv)
{
    domino_matrix_view v;
    domino_matrix_get_view(h, A, &v);
    int rank = domino_dist_rank(D), npes = domino_dist_npes(D), wrong = 0;
    int tiles = rq->tiles > 0 ? (int)rq->tiles : 2 * npes;
    double tol = CHECK_EPS_FACTOR * domino_type_eps(v.type);
    double *x = malloc(((size_t)v.ncols + 1) * sizeof(double)), *y = malloc(((size_t)v.nrows + 1) * sizeof(double));
    double *w = malloc(((size_t)v.nrows + 1) * sizeof(double)), *wa = malloc(((size_t)v.nrows + 1) * sizeof(double));
    domino_status s = x && y && w && wa ? DOMINO_SUCCESS : DOMINO_OUT_OF_MEMORY;
    uint64_t z = 12345; /* the same x on every PE */
    for (int32_t i = 0; x && i < v.ncols; i++) {
        z = z * 6364136223846793005ULL + 1442695040888963407ULL;
        x[i] = (double)(z >> 11) / 9007199254740992.0 - 0.5;
    }
    if (!s) reference(A, x, w, wa);
    /* the plan first: it knows the flops */
    domino_dspgemm P = NULL;
    domino_status made = s ? s : domino_dspgemm_make(h, D, A, A, tiles, &P);
    double flops = made ? NAN : domino_dspgemm_flops(P), mbytes = 0, mflops = 0;
    if (!made) domino_dspgemm_model(P, &mbytes, &mflops);
    if (rank == 0)
        printf("%s: n %d, nnz %lld, %.3g GFLOP (2 x multiply-adds), %d PEs, %d x %d tiles, tile nnz max/mean per PE "
               "%.2f, busiest PE's flops (stationary-C) max/mean %.2f\n"
               "  %-20s %4s %5s %10s %8s %7s %6s %8s %8s %9s %9s %8s %6s %9s\n",
               name, v.nrows, (long long)v.nnz, flops * 1e-9, npes, tiles, tiles, dist_tile_nnz_balance(A, tiles, npes),
               made ? NAN : mflops / (flops / npes), "config", "gpus", "tiles", "ms",
               "GFLOP/s", "xcuSP", "eff", "fetch", "merge", "compute", "comp avg", "imb ms", "stolen", "rel err");
    /* single-GPU cuSPARSE on PE 0 (the plan's memory is small beside the product's) */
    spgemm_result base, r;
    memset(&base, 0, sizeof(base));
    base.seconds = base.nnz_c = NAN;
    domino_gpu_spgemm_info info = {0, 0, 0};
    if (rank == 0 && !made) {
        domino_status c = run_single(h, A, x, rq->repeat, y, &base, &info);
        base.err = c ? INFINITY : check_error(y, w, wa, v.nrows);
        if (c) fprintf(stderr, "domino bench: cusparse-1gpu: %s\n", domino_last_error(h));
        else printf("  (single GPU: %d row block(s), %d with the memory-frugal ALG3)\n", info.blocks, info.frugal_blocks);
        report(csv, name, v.nrows, v.nnz, flops, "cusparse-1gpu", 1, 1, &base, base.seconds, NAN, tol, NAN);
        wrong += !c && !(base.err <= tol);
    }
    double shared[2] = {base.seconds, base.nnz_c}; /* PE 0's, for every PE's efficiency */
    if (!made) domino_dist_max(h, D, rank == 0 && isfinite(shared[0]) ? shared[0] : -1, &shared[0]);
    if (!made) domino_dist_max(h, D, rank == 0 && isfinite(shared[1]) ? shared[1] : -1, &shared[1]);
    double base_s = shared[0] > 0 ? shared[0] : NAN, base_nnz = shared[1] >= 0 ? shared[1] : NAN;
    static const char *const names[] = {"stationary-c", "stationary-c+steal", "stationary-a", "stationary-c+steal-local"};
    for (int alg = 0; alg < 4; alg++) {
        domino_dspgemm_times t;
        int miscounted = 0;
        memset(&r, 0, sizeof(r));
        memset(&t, 0, sizeof(t));
        r.seconds = NAN;
        s = made ? made : run_dist(h, D, P, alg, rq->repeat, tiles, base_nnz, x, y, &r, &t, &miscounted);
        r.err = s ? INFINITY : check_error(y, w, wa, v.nrows); /* y and w alike on every PE */
        int ok = !s && !miscounted && r.err <= tol && (isnan(base_nnz) || r.nnz_c == base_nnz);
        if (rank == 0) printf("  %s:%s\n", names[alg], ok ? "" : " (not checked: no breakdown)");
        fflush(stdout);
        if (ok) print_pes(h, D, alg, &t); /* only answers that were checked */
        if (!ok) r.seconds = NAN;
        double bound = NAN;
        if (rank == 0 && ok && alg == 0 && isfinite(base_s)) { /* the roofline of stationary-C (Brock et al., Sec. 5) */
            double rate = flops / base_s; /* cuSPARSE on one GPU, flop/s */
            double tb = mbytes / (get_gbs * 1e9), tf = mflops / rate;
            bound = tb > tf ? tb : tf;
            printf("  model: busiest PE fetches %.1f MiB from others at %.0f GB/s (%.2f ms) and computes %.3g GFLOP at "
                   "single-GPU cuSPARSE's %.1f GFLOP/s on the whole matrix (%.2f ms): bound %.2f ms, measured %.2f ms "
                   "(%.2fx; not a lower bound: tiles can multiply faster than the whole)\n",
                   mbytes / 1048576.0, get_gbs, tb * 1e3, mflops * 1e-9, rate * 1e-9, tf * 1e3,
                   bound * 1e3, r.seconds * 1e3, r.seconds / bound);
        }
        if (rank == 0) report(csv, name, v.nrows, v.nnz, flops, names[alg], npes, tiles, &r, base_s, base_nnz, tol, bound);
        if (rank == 0 && s) fprintf(stderr, "domino bench: %s: %s\n", names[alg], domino_last_error(h));
        if (rank == 0 && miscounted)
            fprintf(stderr, "domino bench: %s: %d timed runs made a C of the wrong size\n", names[alg], miscounted);
        wrong += rank == 0 && !ok;
    }
    if (made && rank == 0) fprintf(stderr, "domino bench: %s: %s\n", name, domino_last_error(h));
    domino_dspgemm_free(P);
#ifdef DOMINO_HAVE_NCCL
    if (domino_gpu_count() < npes) { /* NCCL takes one GPU per rank */
        if (rank == 0) printf("  summa-nccl: not run (%d PEs share %d GPU(s); NCCL takes one GPU per PE)\n", npes,
                              domino_gpu_count());
    } else { /* the bulk-synchronous baseline ("fetch" is its broadcasts), after the plan's memory is freed */
        int pr = 1, pc = npes, miscounted = 0;
        char label[64];
        memset(&r, 0, sizeof(r));
        r.seconds = NAN;
        s = made ? made : run_summa(h, D, A, rq->repeat, base_nnz, x, y, &r, &pr, &pc, &miscounted);
        r.err = s ? INFINITY : check_error(y, w, wa, v.nrows);
        int ok = !s && !miscounted && r.err <= tol && (isnan(base_nnz) || r.nnz_c == base_nnz);
        if (!ok) r.seconds = NAN;
        snprintf(label, sizeof(label), "summa-nccl-%dx%d", pr, pc);
        if (rank == 0) report(csv, name, v.nrows, v.nnz, flops, label, npes, pr * pc, &r, base_s, base_nnz, tol, NAN);
        if (rank == 0 && s) fprintf(stderr, "domino bench: %s: %s\n", label, domino_last_error(h));
        wrong += rank == 0 && !ok;
    }
#endif
    if (csv) fflush(csv);
    fflush(stdout);
    free(x), free(y), free(w), free(wa);
    return wrong + (made != DOMINO_SUCCESS);
}

int bench_dist_spgemm_run(const spgemm_bench_request *rq)
{
    domino_handle h = NULL;
    domino_dist D = NULL;
    FILE *csv = NULL;
    int wrong = 0, failed = 0;
    int started = bench_dist_begin("spgemm", &h, &D, &get_gbs);
    if (started) return started;
    int rank = domino_dist_rank(D);
    const char *problems = rq->problems ? rq->problems : rq->quick ? "rmat:12" : "rmat:18,rmat:20,rmat:22";
    if (rank == 0) {
        printf("# domino bench --suite spgemm: C = A A, %d PEs, %s, %d timed runs after a warm-up (median of the "
               "slowest PE); one-sided get %.0f GB/s (PE 0 from PE 1, 64 MiB)\n", domino_dist_npes(D),
               rq->use_float ? "float" : "double", rq->repeat, get_gbs);
        if (rq->csv_path && !(csv = fopen(rq->csv_path, "w"))) fprintf(stderr, "domino bench: cannot write %s\n", rq->csv_path);
        if (csv)
            fprintf(csv, "problem,n,nnz,nnz_c,flops,config,gpus,tiles,seconds,gflops,x_cusparse_1gpu,efficiency,"
                         "fetch_max_s,merge_max_s,compute_max_s,compute_avg_s,claim_max_s,accumulate_max_s,imbalance_max_s,stolen,"
                         "rel_error,model_bound_s,status\n");
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
        wrong += run_problem(h, D, rq, spec.name, A, csv);
        domino_matrix_free(A);
    }
    free(plist);
    if (csv) fclose(csv);
    domino_dist_leave(h, D);
    domino_destroy(h);
    if (wrong && rank == 0) fprintf(stderr, "domino bench: %d wrong answers or failed products\n", wrong);
    return failed ? 1 : wrong ? 3 : 0;
}
#endif /* DOMINO_HAVE_NVSHMEM */
