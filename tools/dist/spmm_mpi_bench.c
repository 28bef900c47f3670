/* spmm_mpi_bench.c: "domino-spmm-mpi": the distributed SpMM algorithms on
 * the MPI backend, run under mpirun: R-MAT A (a=0.6, b=c=d=0.4/3, edge
 * factor 8, the same on every rank), a random dense B of width k, C = A B
 * on a T x T x T tile grid by stationary-C, stationary-C with random and
 * with locality-aware work stealing, and stationary-A; the answer checked against domino_ref_spmm first, then the
 * median of R runs with, over the ranks, the max and mean of the total,
 * compute, communication and barrier (imbalance) times, and the products
 * stolen.  Rank 0 prints a table and, with --csv, a CSV row per algorithm.
 *   mpirun -np 4 domino-spmm-mpi --scale 14 --k 64 --tiles 8 --repeat 5 */
#define _POSIX_C_SOURCE 200809L
#include "dist/dist_tile_cut.h"
#include "dist/dist_tiles.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* what was asked */
typedef struct bench_args {
    int scale, tiles, repeat; /* R-MAT scale, tiles per dimension, timed runs */
    int pr, pc;               /* SUMMA's process grid (0: the squarest that fits) */
    int spgemm;               /* 1: the SpGEMM algorithms on C = A A instead */
    int64_t k;                /* dense width */
    const char *csv;          /* CSV file (rank 0), or NULL */
} bench_args;

static int parse(int argc, char **argv, bench_args *a)
{
    a->scale = 14, a->tiles = 8, a->repeat = 5, a->k = 64, a->csv = NULL, a->pr = a->pc = 0, a->spgemm = 0;
    for (int i = 1; i < argc; i++) {
        if (i + 1 < argc && strcmp(argv[i], "--scale") == 0) a->scale = atoi(argv[++i]);
        else if (i + 1 < argc && strcmp(argv[i], "--tiles") == 0) a->tiles = atoi(argv[++i]);
        else if (i + 1 < argc && strcmp(argv[i], "--repeat") == 0) a->repeat = atoi(argv[++i]);
        else if (i + 1 < argc && strcmp(argv[i], "--k") == 0) a->k = atoll(argv[++i]);
        else if (i + 1 < argc && strcmp(argv[i], "--csv") == 0) a->csv = argv[++i];
        else if (i + 1 < argc && strcmp(argv[i], "--grid") == 0 && sscanf(argv[i + 1], "%dx%d", &a->pr, &a->pc) == 2) i++;
        else if (strcmp(argv[i], "--spgemm") == 0) a->spgemm = 1;
        else {
            fprintf(stderr, "usage: mpirun -np N domino-spmm-mpi [--scale S] [--k K] [--tiles T] "
                            "[--repeat R] [--grid PRxPC (SUMMA)] [--spgemm] [--csv FILE]\n");
            return 2;
        }
    }
    if (a->scale < 2 || a->scale > 24 || a->tiles < 1 || a->repeat < 1 || a->k < 1) {
        fprintf(stderr, "domino-spmm-mpi: scale 2..24, tiles >= 1, repeat >= 1, k >= 1\n");
        return 2;
    }
    return 0;
}

/* the roofline of stationary-C on this run (Brock, Buluc, Yelick, Sec. 5):
 * measured one-sided get bandwidth and local product rate (the CPU
 * reference's domino_ref_spmm on the whole matrix, on rank 0), and the bytes
 * and flops of the busiest rank; the bound is the larger of the times the
 * two would take alone; only tiles fetched from other ranks count */
typedef struct model {
    double get_gbs;   /* GB/s of a large get from another rank (from itself on one rank) */
    double gflops;    /* local product rate, 2 nnz k flops per product */
    double bytes_max; /* bytes the busiest rank fetches */
    double flops_max; /* flops the busiest rank does */
    double bound_ms;  /* max(bytes / bandwidth, flops / rate) */
} model;

static domino_status measure_model(domino_handle h, os_world *w, const dist_sparse *A,
                                   const dist_dense *B, double ref_gflops, model *m)
{
    const size_t bytes = 16u << 20;
    int rank = os_rank(w), size = os_size(w);
    os_window *win = NULL;
    void *local = NULL, *buf = malloc(bytes);
    memset(m, 0, sizeof(*m));
    domino_status s = os_window_create(h, w, bytes, &win, &local);
    if (!s && rank == 0 && buf) {
        s = os_get(h, win, size > 1 ? 1 : 0, 0, buf, bytes); /* warm-up */
        double t0 = domino_wtime();
        for (int r = 0; r < 3 && !s; r++) s = os_get(h, win, size > 1 ? 1 : 0, 0, buf, bytes);
        m->get_gbs = 3.0 * bytes / (domino_wtime() - t0) / 1e9;
    }
    domino_status b = os_barrier(h, w);
    if (!s) s = b;
    os_window_free(h, win);
    double rate[2] = {m->get_gbs, ref_gflops}; /* known on rank 0 */
    if (!s) s = os_allreduce_f64(h, w, rate, 2, 1);
    m->get_gbs = rate[0];
    m->gflops = rate[1];
    /* bytes and flops per rank of stationary-C: each owned C tile fetches S pairs */
    double *bytes_rank = calloc((size_t)size, sizeof(double)), *flops_rank = calloc((size_t)size, sizeof(double));
    for (int t = 0; bytes_rank && flops_rank && t < A->tr * B->tc; t++) {
        int i = t / B->tc, j = t % B->tc, o = dist_tile_owner(w, B->tc, i, j);
        int64_t cols = B->cb[j + 1] - B->cb[j];
        for (int l = 0; l < A->tc; l++) { /* only what comes from another rank */
            int64_t nnz = A->nnz[i * A->tc + l], brows = B->rb[l + 1] - B->rb[l];
            if (dist_tile_owner(w, A->tc, i, l) != o)
                bytes_rank[o] += (double)nnz * 12 + (double)(A->rb[i + 1] - A->rb[i] + 1) * 8;
            if (dist_tile_owner(w, B->tc, l, j) != o) bytes_rank[o] += (double)(brows * cols) * 8;
            flops_rank[o] += 2.0 * (double)nnz * (double)cols;
        }
    }
    for (int r = 0; bytes_rank && flops_rank && r < size; r++) {
        if (bytes_rank[r] > m->bytes_max) m->bytes_max = bytes_rank[r];
        if (flops_rank[r] > m->flops_max) m->flops_max = flops_rank[r];
    }
    free(bytes_rank);
    free(flops_rank);
    free(buf);
    if (m->get_gbs > 0 && m->gflops > 0)
        m->bound_ms = 1e3 * fmax(m->bytes_max / (m->get_gbs * 1e9), m->flops_max / (m->gflops * 1e9));
    return s;
}

static int compare_doubles(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static const char *const algorithm_names[] = {"stationary-c", "stationary-c+steal", "stationary-c+steal-local",
                                              "stationary-a", "summa", "stationary-c-rows"};
#define ALGORITHMS 6
#define ALG_SUMMA 4 /* the bulk-synchronous baseline, on its own layout */
#define ALG_ROWS 5  /* stationary-C by row blocks: A in t x 1 tiles, B in 1 x t */

/* the distributed operands: a t x t x t tile grid; A in row blocks (t x 1)
 * and B in column blocks (1 x t) for stationary-C by row blocks, which is
 * stationary-C with one tile in the inner dimension (the layout of the
 * GPU's DOMINO_DSPMM_STATIONARY_C_ROWS with t = ranks: C(i, j) and B's
 * column block j on rank j, row block i of A read whole from rank i); and
 * SUMMA's own */
typedef struct operands {
    dist_sparse *A, *Ar;
    dist_dense *B, *C, *Br, *Cr;
    dist_summa *S;
} operands;

/* one run of algorithm alg into its C (zeroed first), or of SUMMA into S */
static domino_status run_once(domino_handle h, int alg, operands *o, dist_times *t)
{
    if (alg == ALG_SUMMA) return dist_spmm_summa(h, o->S, t);
    dist_dense *C = alg == ALG_ROWS ? o->Cr : o->C;
    domino_status s = dist_dense_zero(h, C);
    if (s) return s;
    if (alg == 1) return dist_spmm_stationary_c_steal(h, o->A, o->B, C, 7, t);
    if (alg == 2) return dist_spmm_stationary_c_steal_local(h, o->A, o->B, C, 7, t);
    if (alg == 3) return dist_spmm_stationary_a(h, o->A, o->B, C, t);
    if (alg == ALG_ROWS) return dist_spmm_stationary_c(h, o->Ar, o->Br, C, t);
    return dist_spmm_stationary_c(h, o->A, o->B, C, t);
}

/* max |C - R| / max |R| of the gathered product (from S when not NULL);
 * collective for SUMMA (R NULL on the ranks without the reference), rank 0
 * only otherwise */
static double check_answer(domino_handle h, const dist_dense *C, dist_summa *S, const double *R, int64_t m,
                           int64_t k)
{
    double *G = malloc((size_t)(m * k) * sizeof(double) + 8), d = 0, scale = 0;
    if (!G || (S ? dist_summa_gather(h, S, G, k) : dist_dense_gather(h, C, G, k))) {
        free(G);
        return INFINITY;
    }
    if (!R) { /* a rank without the reference only took part in the gather */
        free(G);
        return 0;
    }
    for (int64_t i = 0; i < m * k; i++) {
        d = fmax(d, fabs(G[i] - R[i]));
        scale = fmax(scale, fabs(R[i]));
    }
    free(G);
    return d / fmax(scale, 1e-300);
}

/* --spgemm: C = A A with the SpGEMM algorithms, per-rank medians reduced
 * like the SpMM table, the product checked on rank 0 (pattern and values) */
static int run_spgemm(domino_handle h, os_world *w, domino_matrix A, const bench_args *a)
{
    static const char *const names[] = {"spgemm-stationary-c", "spgemm-c+steal", "spgemm-c+steal-local",
                                        "spgemm-stationary-a"};
    int rank = os_rank(w), size = os_size(w);
    dist_sparse *dA = NULL;
    domino_matrix R = NULL;
    if (rank == 0 && domino_ref_spgemm(h, A, A, &R)) os_abort(w, 1, domino_last_error(h));
    if (dist_sparse_from_global(h, w, A, a->tiles, a->tiles, &dA)) os_abort(w, 1, domino_last_error(h));
    FILE *csv = rank == 0 && a->csv ? fopen(a->csv, "w") : NULL;
    if (csv) fprintf(csv, "algorithm,ranks,scale,nnz_a,nnz_c,tiles,total_ms,compute_max_ms,compute_mean_ms,comm_max_ms,"
                          "comm_mean_ms,imbalance_max_ms,imbalance_mean_ms,stolen,same_product\n");
    if (rank == 0)
        printf("%d ranks, R-MAT scale %d, C = A A (nnz A %lld, nnz C %lld), %d x %d tiles, tile nnz max/mean per rank "
               "%.2f\n%-22s %9s %9s %9s %9s %9s %9s %9s %7s %5s\n", size, a->scale, (long long)A->nnz, (long long)R->nnz,
               a->tiles, a->tiles, dist_tile_nnz_balance(A, a->tiles, size), "algorithm", "total", "comp max",
               "comp avg", "comm max", "comm avg", "imb max", "imb avg", "stolen", "same");
    for (int alg = 0; alg < 4; alg++) {
        double *runs = malloc((size_t)a->repeat * 7 * sizeof(double)), med[7], mx[7], sm[7];
        int64_t stolen = 0;
        int same = 0;
        for (int r = 0; r <= a->repeat; r++) {
            dist_sparse *dC = NULL;
            dist_times t;
            domino_status s = alg == 0   ? dist_spgemm_stationary_c(h, dA, dA, &dC, &t)
                              : alg == 1 ? dist_spgemm_stationary_c_steal(h, dA, dA, 7, &dC, &t)
                              : alg == 2 ? dist_spgemm_stationary_c_steal_local(h, dA, dA, 7, &dC, &t)
                                         : dist_spgemm_stationary_a(h, dA, dA, &dC, &t);
            if (s) os_abort(w, 1, domino_last_error(h));
            if (r == 0) { /* the first run is checked, the others timed */
                domino_matrix G = NULL;
                if (dist_sparse_gather(h, dC, &G)) os_abort(w, 1, domino_last_error(h));
                if (rank == 0) {
                    same = G->nnz == R->nnz;
                    for (int64_t k = 0; same && k < R->nnz; k++)
                        same = G->ind[k] == R->ind[k] &&
                               fabs(((double *)G->val)[k] - ((double *)R->val)[k]) <= 1e-10 * (1 + fabs(((double *)R->val)[k]));
                    for (int32_t i = 0; same && i <= R->nrows; i++) same = G->ptr[i] == R->ptr[i];
                }
                domino_matrix_free(G);
            } else {
                double v[7] = {t.total, t.compute, t.compute, t.communication, t.communication, t.imbalance, t.imbalance};
                for (int q = 0; q < 7; q++) runs[q * a->repeat + r - 1] = v[q];
                stolen = t.stolen;
            }
            dist_sparse_free(h, dC);
        }
        for (int q = 0; q < 7; q++) {
            qsort(runs + q * a->repeat, (size_t)a->repeat, sizeof(double), compare_doubles);
            med[q] = runs[q * a->repeat + a->repeat / 2];
            mx[q] = sm[q] = med[q];
        }
        os_allreduce_f64(h, w, mx, 7, 1);
        os_allreduce_f64(h, w, sm, 7, 0);
        os_allreduce_i64(h, w, &stolen, 1);
        if (rank == 0) {
            printf("%-22s %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %7lld %5s\n", names[alg], 1e3 * mx[0], 1e3 * mx[1],
                   1e3 * sm[2] / size, 1e3 * mx[3], 1e3 * sm[4] / size, 1e3 * mx[5], 1e3 * sm[6] / size,
                   (long long)stolen, same ? "yes" : "NO");
            if (csv)
                fprintf(csv, "%s,%d,%d,%lld,%lld,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%lld,%d\n", names[alg], size,
                        a->scale, (long long)A->nnz, (long long)R->nnz, a->tiles, 1e3 * mx[0], 1e3 * mx[1],
                        1e3 * sm[2] / size, 1e3 * mx[3], 1e3 * sm[4] / size, 1e3 * mx[5], 1e3 * sm[6] / size,
                        (long long)stolen, same);
            if (!same) fprintf(stderr, "domino-spmm-mpi: %s: WRONG PRODUCT\n", names[alg]);
        }
        free(runs);
    }
    if (csv) fclose(csv);
    dist_sparse_free(h, dA);
    domino_matrix_free(R);
    return 0;
}

int main(int argc, char **argv)
{
    bench_args a;
    int rc = parse(argc, argv, &a);
    if (rc) return rc;
    domino_handle h = NULL;
    os_world *w = NULL;
    domino_matrix A = NULL;
    operands o = {NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    if (domino_create(&h) || os_world_init(h, &w)) return 1;
    int rank = os_rank(w), size = os_size(w);
    domino_status s = domino_gen_rmat(h, a.scale, 8, 0.6, 0.4 / 3, 0.4 / 3, 0.4 / 3, 1, DOMINO_FLOAT64, &A);
    if (!s && a.spgemm) {
        rc = run_spgemm(h, w, A, &a);
        domino_matrix_free(A);
        os_world_finalize(h, w);
        domino_destroy(h);
        return rc;
    }
    int64_t n = (int64_t)1 << a.scale;
    double *B = malloc((size_t)(n * a.k) * sizeof(double)), *R = malloc((size_t)(n * a.k) * sizeof(double));
    if (s || !B || !R) os_abort(w, 1, "out of memory or R-MAT failed");
    uint64_t x = 12345;
    for (int64_t i = 0; i < n * a.k; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        B[i] = (double)(x >> 11) / 9007199254740992.0 - 0.5;
    }
    double ref_start = domino_wtime(), ref_gflops = 0;
    if (rank == 0 && domino_ref_spmm(h, DOMINO_OP_N, 1.0, A, (int32_t)a.k, B, a.k, 0.0, R, a.k))
        os_abort(w, 1, domino_last_error(h));
    if (rank == 0) ref_gflops = 2.0 * (double)A->nnz * (double)a.k / (domino_wtime() - ref_start) / 1e9;
    if (dist_sparse_from_global(h, w, A, a.tiles, a.tiles, &o.A) ||
        dist_dense_from_global(h, w, DOMINO_FLOAT64, n, a.k, B, a.k, a.tiles, a.tiles, &o.B) ||
        dist_dense_from_global(h, w, DOMINO_FLOAT64, n, a.k, NULL, 0, a.tiles, a.tiles, &o.C) ||
        dist_sparse_from_global(h, w, A, a.tiles, 1, &o.Ar) ||
        dist_dense_from_global(h, w, DOMINO_FLOAT64, n, a.k, B, a.k, 1, a.tiles, &o.Br) ||
        dist_dense_from_global(h, w, DOMINO_FLOAT64, n, a.k, NULL, 0, a.tiles, a.tiles, &o.Cr))
        os_abort(w, 1, domino_last_error(h));
    /* SUMMA's grid: asked, or the squarest pr x pc = size */
    if (!a.pr)
        for (int pr = 1; pr * pr <= size; pr++)
            if (size % pr == 0) a.pr = pr, a.pc = size / pr;
    if (dist_summa_make(h, w, A, B, a.k, a.k, a.pr, a.pc, &o.S)) os_abort(w, 1, domino_last_error(h));
    double balance = dist_tile_nnz_balance(A, a.tiles, size); /* max / mean entries of A per rank */
    model m;
    if (measure_model(h, w, o.A, o.B, ref_gflops, &m)) os_abort(w, 1, domino_last_error(h));
    if (rank == 0)
        printf("model: one-sided get %.2f GB/s (rank %d to 0, 16 MiB), local product %.2f GFLOP/s; "
               "stationary-C fetches %.1f MiB from other ranks and does %.3f GFLOP on its busiest "
               "rank: roofline bound %.3f ms (the larger of the two alone)\n",
               m.get_gbs, size > 1 ? 1 : 0, m.gflops, m.bytes_max / 1048576.0, m.flops_max / 1e9,
               m.bound_ms);
    FILE *csv = rank == 0 && a.csv ? fopen(a.csv, "w") : NULL;
    if (csv)
        fprintf(csv, "algorithm,ranks,scale,n,nnz,k,tiles,nnz_imbalance,total_ms,compute_max_ms,"
                     "compute_mean_ms,comm_max_ms,comm_mean_ms,imbalance_max_ms,imbalance_mean_ms,"
                     "stolen,rel_error,model_bound_ms,get_gbs,local_gflops\n");
    if (rank == 0)
        printf("%d ranks, R-MAT scale %d (n %lld, nnz %lld), k %lld, %d x %d tiles, tile nnz max/mean per "
               "rank %.2f\n%-22s %9s %9s %9s %9s %9s %9s %9s %7s %9s\n", size, a.scale, (long long)n,
               (long long)A->nnz, (long long)a.k, a.tiles, a.tiles, balance, "algorithm",
               "total", "comp max", "comp avg", "comm max", "comm avg", "imb max", "imb avg", "stolen",
               "rel err");
    for (int alg = 0; alg < ALGORITHMS; alg++) {
        dist_times t;
        double err = INFINITY, *totals = malloc((size_t)a.repeat * sizeof(double) * 8);
        if (run_once(h, alg, &o, &t)) os_abort(w, 1, domino_last_error(h));
        dist_dense *C = alg == ALG_ROWS ? o.Cr : o.C;
        if (alg == ALG_SUMMA) err = check_answer(h, C, o.S, rank == 0 ? R : NULL, n, a.k); /* collective */
        else if (rank == 0) err = check_answer(h, C, NULL, R, n, a.k); /* rank 0 holds the reference */
        os_barrier(h, w); /* nobody zeroes C for the next run while rank 0 still reads it */
        double stats[7] = {0}; /* medians of the per-rank values over the runs, then reduced */
        double *runs = totals;
        for (int r = 0; r < a.repeat; r++) {
            if (run_once(h, alg, &o, &t)) os_abort(w, 1, domino_last_error(h));
            double v[7] = {t.total, t.compute, t.compute, t.communication, t.communication,
                           t.imbalance, t.imbalance};
            for (int q = 0; q < 7; q++) runs[q * a.repeat + r] = v[q];
            stats[6] = (double)t.stolen;
        }
        double med[7], mx[7], sm[7];
        for (int q = 0; q < 7; q++) {
            qsort(runs + q * a.repeat, (size_t)a.repeat, sizeof(double), compare_doubles);
            med[q] = runs[q * a.repeat + a.repeat / 2];
            mx[q] = sm[q] = med[q];
        }
        int64_t stolen = (int64_t)stats[6];
        os_allreduce_f64(h, w, mx, 7, 1);
        os_allreduce_f64(h, w, sm, 7, 0);
        os_allreduce_i64(h, w, &stolen, 1);
        char name[64];
        if (alg == ALG_SUMMA) snprintf(name, sizeof(name), "summa-%dx%d", a.pr, a.pc);
        else snprintf(name, sizeof(name), "%s", algorithm_names[alg]);
        if (rank == 0) {
            printf("%-22s %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %7lld %9.2e\n", name, 1e3 * mx[0],
                   1e3 * mx[1], 1e3 * sm[2] / size, 1e3 * mx[3], 1e3 * sm[4] / size, 1e3 * mx[5],
                   1e3 * sm[6] / size, (long long)stolen, err);
            if (csv)
                fprintf(csv, "%s,%d,%d,%lld,%lld,%lld,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%lld,%.3e,"
                        "%.4f,%.3f,%.3f\n",
                        name, size, a.scale, (long long)n, (long long)A->nnz, (long long)a.k, a.tiles,
                        balance, 1e3 * mx[0], 1e3 * mx[1], 1e3 * sm[2] / size, 1e3 * mx[3],
                        1e3 * sm[4] / size, 1e3 * mx[5], 1e3 * sm[6] / size, (long long)stolen, err,
                        m.bound_ms, m.get_gbs, m.gflops);
            if (!(err <= 1e-12)) fprintf(stderr, "domino-spmm-mpi: %s: WRONG ANSWER (%.3e)\n", name, err);
        }
        free(totals);
    }
    if (csv) fclose(csv);
    dist_summa_free(o.S);
    dist_sparse_free(h, o.A);
    dist_sparse_free(h, o.Ar);
    dist_dense_free(h, o.B);
    dist_dense_free(h, o.C);
    dist_dense_free(h, o.Br);
    dist_dense_free(h, o.Cr);
    domino_matrix_free(A);
    free(B);
    free(R);
    os_world_finalize(h, w);
    domino_destroy(h);
    return 0;
}
