/* cmd_solve.c: "domino solve FILE.mtx": solve with a triangle of a matrix and check the answer */
#include "bench_engines.h"
#include "cli_util.h"
#include "cmd_solve_dist.h"
#include "cmd_solve_krylov.h"
#include "commands.h"
#include "domino.h"
#include "internal.h"
#include "opts.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const char solve_usage[] =
    "usage: domino solve FILE.mtx [--upper] [--unit] [--transpose] [--rhs K]\n"
    "                    [--engine NAME] [--float] [--json]\n"
    "       domino solve FILE.mtx --krylov cg|bicgstab [--precond ilu0|ic0|jacobi|none]\n"
    "                    [--rtol R] [--maxit N] [--rhs ones|random|FILE.mtx]\n"
    "                    [--pivot-shift S] [--diag-shift A] [--gpu [--cusparse]] [--json]\n"
    "       domino run -n N solve FILE.mtx --dist pull|zerocopy|push|unified [--upper] [--unit]\n"
    "                    [--scheme auto|taskpool|contiguous|linked] [--tasks T] [--budget-mb M] [--json]\n"
    "\n"
    "Triangular mode (default): builds the lower (or upper) triangle of the matrix\n"
    "in FILE, makes right-hand sides b = op(T) x_true with x_true_i = (1 + (i % 7)/8)\n"
    "(column j scaled by j+1), solves op(T) x = b and prints the engine, the solve\n"
    "time, the scaled residual and the max relative forward error.  Real files keep\n"
    "their diagonal (a missing or zero one is an error naming the row); pattern\n"
    "files get values: off-diagonals 1, diagonal 1 + sum of the row's off-diagonal\n"
    "magnitudes.\n"
    "\n"
    "  --upper        use the upper triangle (default lower)\n"
    "  --unit         unit diagonal (the stored diagonal is dropped)\n"
    "  --transpose    solve T^T x = b\n"
    "  --rhs K        number of right-hand sides (default 1)\n"
    "  --engine NAME  cpu, cpu-syncfree, or a GPU engine: auto, levelset, warp,\n"
    "                 thread, block, levelblock, stepblock, csc, stencil (a grid stencil in\n"
    "                 natural order), cusparse (default: auto with a GPU, else\n"
    "                 cpu-syncfree for one right-hand side, else cpu)\n"
    "  --float        solve in single precision\n"
    "  --json         print a JSON document\n"
    "\n"
    "Krylov mode (--krylov): solves A x = b with the whole matrix (symmetric files\n"
    "are expanded) in double by preconditioned CG (A SPD) or right-preconditioned\n"
    "BiCGSTAB, from x = 0, on the CPU reference (engine \"cpu\") or with --gpu on\n"
    "the GPU: domino's synchronization-free ILU(0)/IC(0) and triangular solves\n"
    "(engine \"gpu\"), or with --cusparse the same loop on cuSPARSE's csrilu02 /\n"
    "csric02 and SpSV (\"gpu-cusparse\").  Pattern files get values: graph Laplacian plus 0.01 I\n"
    "(off-diagonals -1, diagonal = degree + 0.01; SPD for a symmetric pattern).\n"
    "Prints iterations, converged yes/no (and breakdown), the true relative\n"
    "residual ||b-Ax||/||b||, setup (preconditioner) and iteration times, and the\n"
    "pivots replaced; exit status 0 only when it converged.\n"
    "\n"
    "  --krylov M       cg or bicgstab\n"
    "  --precond P      ilu0, ic0, jacobi or none (default none)\n"
    "  --rtol R         stop when ||r|| <= R ||b||, R > 0 (default 1e-8)\n"
    "  --maxit N        iteration cap, N >= 1 (default 1000)\n"
    "  --rhs B          ones (default), random (uniform in [-1,1], fixed seed), or\n"
    "                   a coordinate Matrix Market file of size n x 1\n"
    "  --pivot-shift S  ilu0/ic0: replace a bad pivot by S and count it (default 0:\n"
    "                   a bad pivot is an error; ic0 needs S > 0)\n"
    "  --diag-shift A   ilu0/ic0: factor A + A*diag(A) instead (Manteuffel's shift,\n"
    "                   for SPD matrices where IC(0) breaks down; default 0)\n"
    "  --gpu            iterate on the GPU (times: analysis, factorization, iterations)\n"
    "  --cusparse       with --gpu: the cuSPARSE baseline loop\n"
    "  --json           print a JSON document with the residual history\n"
    "\n"
    "Multi-GPU mode (--dist, one PE per GPU, started by domino run -n N or mpirun):\n"
    "every PE reads FILE and makes the same b as the triangular mode; the\n"
    "components are planned over the PEs and solved by the chosen solver (pull:\n"
    "domino's CSR pull, the default and fastest; zerocopy and unified: the\n"
    "paper's Algorithms 3 and 2; push: remote atomics); one warm-up solve, then a\n"
    "timed one, checked on PE 0 against the CPU.  Double precision, one right-hand\n"
    "side.\n"
    "\n"
    "  --dist S         pull, zerocopy, push or unified\n"
    "  --scheme D       auto (the default: linked where a level holds 10000 rows or\n"
    "                   fewer on average and linked sends fewer entries across GPUs,\n"
    "                   else taskpool), taskpool (tasks tied to the level width),\n"
    "                   contiguous (a block of rows a PE) or linked (each row on the\n"
    "                   PE of a predecessor one level up)\n"
    "  --tasks T        taskpool (the scheme --tasks implies): T equal tasks per PE\n"
    "  --budget-mb M    each GPU's share may take at most M MiB (a plan over it is an\n"
    "                   error naming the PE)\n";

/* what the solve command was asked */
typedef struct solve_request {
    const char *path;            /* matrix file */
    int upper, unit, transpose;  /* flags */
    int use_float, json;         /* flags */
    int64_t nrhs;                /* right-hand sides */
    const bench_engine *engine;  /* which engine */
    int krylov;                  /* 1: Krylov mode, the rest is in kr */
    krylov_request kr;           /* the Krylov request */
    int dist;                    /* 1: multi-GPU mode, the rest is in dr */
    dist_solve_request dr;       /* the multi-GPU request */
} solve_request;

/* what it found */
typedef struct solve_outcome {
    int32_t n;            /* rows */
    int64_t nnz;          /* entries of the triangle */
    int is_pattern;       /* values were assigned */
    engine_timing timing; /* time and engine */
    double residual;      /* scaled residual */
    double forward_error; /* max relative forward error */
    int passed;           /* residual within tolerance */
} solve_outcome;

/* build, solve, check; fills out */
static domino_status run_solve(domino_handle h, const solve_request *rq, solve_outcome *out)
{
    domino_matrix T = NULL;
    domino_matrix_view v;
    void *x_true = NULL, *B = NULL, *X = NULL;
    solve_problem p;
    memset(&p, 0, sizeof(p));
    domino_status s = cli_read_triangle(h, rq->path, rq->use_float ? DOMINO_FLOAT32 : DOMINO_FLOAT64,
                                        rq->upper, rq->unit, &out->is_pattern, &T);
    if (s || (s = domino_matrix_get_view(h, T, &v))) goto cleanup;
    if (out->is_pattern)
        fprintf(stderr, "domino solve: note: %s is a pattern file; values assigned: off-diagonals 1, "
                        "diagonal 1 + sum of |off-diagonals| of its row\n", rq->path);
    out->n = v.nrows;
    out->nnz = v.nnz;
    p.T = T;
    p.op = rq->transpose ? DOMINO_OP_T : DOMINO_OP_N;
    p.fill = rq->upper ? DOMINO_UPPER : DOMINO_LOWER;
    p.diag = rq->unit ? DOMINO_UNIT : DOMINO_NON_UNIT;
    p.n = v.nrows;
    p.nrhs = (int32_t)rq->nrhs;
    x_true = cli_true_solution(v.type, p.n, p.nrhs);
    B = cli_zero_block(v.type, p.n, p.nrhs);
    X = cli_zero_block(v.type, p.n, p.nrhs);
    if (!x_true || !B || !X) {
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, "solve: out of memory for %d x %d vectors", p.n,
                         p.nrhs);
        goto cleanup;
    }
    if ((s = cli_make_rhs(h, p.op, p.diag, T, p.nrhs, x_true, B))) goto cleanup;
    p.B = B;
    if ((s = rq->engine->run(h, rq->engine, &p, 0, X, &out->timing))) goto cleanup;
    s = domino_ref_trsv_residual(h, p.op, p.fill, p.diag, T, p.nrhs, X, p.n, B, p.n, &out->residual);
    if (s) goto cleanup;
    out->forward_error = cli_max_rel_diff(v.type, (int64_t)p.n * p.nrhs, X, x_true);
    out->passed = out->residual <= cli_residual_tol(v.type);
cleanup:
    solve_problem_release(&p);
    domino_free(x_true);
    domino_free(B);
    domino_free(X);
    domino_matrix_free(T);
    return s;
}

static void print_outcome(const solve_request *rq, const solve_outcome *out)
{
    const char *tri = rq->upper ? "upper" : "lower";
    if (!rq->json) {
        printf("file:           %s\n", rq->path);
        printf("system:         %s%s triangle%s, n %d, nnz %lld, %lld rhs, %s\n",
               rq->transpose ? "transposed " : "", tri, rq->unit ? " (unit diagonal)" : "", out->n,
               (long long)out->nnz, (long long)rq->nrhs, rq->use_float ? "float" : "double");
        printf("engine:         %s", rq->engine->name);
        if (strcmp(out->timing.used, rq->engine->name) != 0) printf(" (ran %s)", out->timing.used);
        printf("\nanalysis:       %.3f ms\nsolve:          %.3f ms\n", out->timing.analysis_ms,
               out->timing.solve_ms);
        cli_print_answer(0, out->residual, out->forward_error, out->passed);
        return;
    }
    printf("{\n  \"file\": ");
    cli_json_string(stdout, rq->path);
    printf(",\n  \"triangle\": \"%s\",\n  \"transpose\": %s,\n  \"unit\": %s,\n", tri,
           rq->transpose ? "true" : "false", rq->unit ? "true" : "false");
    printf("  \"pattern\": %s,\n  \"type\": \"%s\",\n", out->is_pattern ? "true" : "false",
           rq->use_float ? "float" : "double");
    printf("  \"n\": %d,\n  \"nnz\": %lld,\n  \"nrhs\": %lld,\n", out->n, (long long)out->nnz,
           (long long)rq->nrhs);
    printf("  \"engine\": \"%s\",\n  \"engine_used\": \"%s\",\n", rq->engine->name, out->timing.used);
    printf("  \"analysis_ms\": ");
    cli_json_number(stdout, out->timing.analysis_ms);
    printf(",\n  \"solve_ms\": ");
    cli_json_number(stdout, out->timing.solve_ms);
    cli_print_answer(1, out->residual, out->forward_error, out->passed);
}

/* the raw option values, before they are checked against each other */
typedef struct solve_args {
    const char *engine, *rhs, *krylov, *precond; /* NULL when not given */
    double rtol, pivot_shift, diag_shift;        /* NAN when not given */
    int64_t maxit;                               /* -1 when not given */
    int gpu, cusparse;                           /* --gpu, --cusparse */
    const char *dist, *scheme;                   /* NULL when not given */
    int64_t tasks, budget_mb;                    /* -1 when not given */
} solve_args;

/* the multi-GPU request from the options; OPTS_OK or OPTS_ERROR */
static int parse_dist(const solve_args *a, solve_request *rq)
{
    dist_solve_request *dr = &rq->dr;
    if (a->krylov || a->engine || a->rhs || rq->transpose || rq->use_float || a->precond ||
        !isnan(a->rtol) || a->maxit >= 0 || !isnan(a->pivot_shift) || !isnan(a->diag_shift) || a->gpu ||
        a->cusparse)
        return opts_usage_error("solve", solve_usage, "--dist solves a triangle in double with one "
                                "right-hand side: it takes none of --krylov, --engine, --rhs, --transpose, "
                                "--float and the Krylov options");
    if (!dist_solve_solver_known(a->dist))
        return opts_usage_error("solve", solve_usage, "--dist: unknown solver '%s' (pull, zerocopy, "
                                "push or unified)", a->dist);
    if (a->scheme && !dist_solve_scheme_known(a->scheme))
        return opts_usage_error("solve", solve_usage, "--scheme: unknown distribution '%s' (auto, "
                                "taskpool, contiguous or linked)", a->scheme);
    dr->path = rq->path;
    dr->upper = rq->upper;
    dr->unit = rq->unit;
    dr->json = rq->json;
    dr->solver = a->dist;
    dr->scheme = a->scheme ? a->scheme : a->tasks > 0 ? "taskpool" : "auto";
    if (a->tasks > 0 && strcmp(dr->scheme, "taskpool") != 0)
        return opts_usage_error("solve", solve_usage, "--tasks goes with --scheme taskpool");
    dr->tasks = a->tasks > 0 ? a->tasks : 0;
    dr->budget_mb = a->budget_mb > 0 ? a->budget_mb : 0;
    return OPTS_OK;
}

/* the Krylov request from the options; OPTS_OK or OPTS_ERROR */
static int parse_krylov(const solve_args *a, solve_request *rq)
{
    static const char *const precond_names[] = {"none", "jacobi", "ilu0", "ic0"};
    krylov_request *kr = &rq->kr;
    if (rq->upper || rq->unit || rq->transpose || rq->use_float || a->engine || a->scheme ||
        a->tasks >= 0 || a->budget_mb >= 0)
        return opts_usage_error("solve", solve_usage, "--upper, --unit, --transpose, --float, "
                                "--engine, --scheme, --tasks and --budget-mb do not apply to --krylov");
    if (strcmp(a->krylov, "cg") != 0 && strcmp(a->krylov, "bicgstab") != 0)
        return opts_usage_error("solve", solve_usage,
                                "--krylov: unknown method '%s' (cg or bicgstab)", a->krylov);
    domino_krylov_options_init(&kr->options);
    kr->path = rq->path;
    kr->method = a->krylov;
    kr->precond_name = a->precond ? a->precond : "none";
    kr->rhs = a->rhs ? a->rhs : "ones";
    kr->json = rq->json;
    int found = 0;
    for (int k = 0; k < 4; k++)
        if (strcmp(kr->precond_name, precond_names[k]) == 0) {
            kr->options.precond = (domino_precond_kind)k;
            found = 1;
        }
    if (!found)
        return opts_usage_error("solve", solve_usage, "--precond: unknown preconditioner '%s' "
                                "(ilu0, ic0, jacobi or none)", kr->precond_name);
    if (!isnan(a->rtol) && !(a->rtol > 0.0))
        return opts_usage_error("solve", solve_usage, "--rtol: %g is not > 0", a->rtol);
    if (!isnan(a->rtol)) kr->options.rtol = a->rtol;
    if (a->maxit >= 1) kr->options.maxit = (int)a->maxit;
    if (!isnan(a->pivot_shift)) kr->options.pivot_shift = a->pivot_shift;
    if (!isnan(a->diag_shift) && !(a->diag_shift >= 0.0))
        return opts_usage_error("solve", solve_usage, "--diag-shift: %g is not >= 0", a->diag_shift);
    if (!isnan(a->diag_shift)) kr->options.diag_shift = a->diag_shift;
    if (a->cusparse && !a->gpu)
        return opts_usage_error("solve", solve_usage, "--cusparse goes with --gpu");
    kr->gpu = a->gpu;
    kr->gpu_baseline = a->cusparse;
    return OPTS_OK;
}

/* the triangular-solve engine and right-hand side count; OPTS_OK or OPTS_ERROR */
static int parse_triangular(const solve_args *a, solve_request *rq)
{
    if (a->precond || !isnan(a->rtol) || a->maxit >= 0 || !isnan(a->pivot_shift) ||
        !isnan(a->diag_shift) || a->gpu || a->cusparse)
        return opts_usage_error("solve", solve_usage, "--precond, --rtol, --maxit, "
                                "--pivot-shift, --diag-shift, --gpu and --cusparse need --krylov");
    if (a->scheme || a->tasks >= 0 || a->budget_mb >= 0)
        return opts_usage_error("solve", solve_usage, "--scheme, --tasks and --budget-mb need --dist");
    if (a->rhs && opts_parse_int(a->rhs, 1, 4096, &rq->nrhs) != 0)
        return opts_usage_error("solve", solve_usage, "--rhs: '%s' is not a whole number in "
                                "[1, 4096] (ones/random/FILE need --krylov)", a->rhs);
    if (a->engine) {
        rq->engine = bench_engine_find(a->engine);
        if (!rq->engine)
            return opts_usage_error("solve", solve_usage, "--engine: unknown engine '%s'",
                                    a->engine);
    } else if (domino_gpu_count() > 0) {
        rq->engine = bench_engine_find("auto");
    } else {
        rq->engine = bench_engine_find(rq->nrhs == 1 && !rq->transpose ? "cpu-syncfree" : "cpu-seq");
    }
    return OPTS_OK;
}

/* parse the command line into rq; OPTS_OK, OPTS_HELP or OPTS_ERROR */
static int parse_request(int argc, char **argv, solve_request *rq)
{
    solve_args a = {NULL, NULL, NULL, NULL, NAN, NAN, NAN, -1, 0, 0, NULL, NULL, -1, -1};
    const opt_spec specs[] = {{"upper", 0, OPT_FLAG, 0, 0, &rq->upper},
                              {"unit", 0, OPT_FLAG, 0, 0, &rq->unit},
                              {"transpose", 0, OPT_FLAG, 0, 0, &rq->transpose},
                              {"rhs", 0, OPT_STRING, 0, 0, &a.rhs},
                              {"engine", 0, OPT_STRING, 0, 0, &a.engine},
                              {"float", 0, OPT_FLAG, 0, 0, &rq->use_float},
                              {"json", 0, OPT_FLAG, 0, 0, &rq->json},
                              {"krylov", 0, OPT_STRING, 0, 0, &a.krylov},
                              {"precond", 0, OPT_STRING, 0, 0, &a.precond},
                              {"rtol", 0, OPT_DOUBLE, -1e308, 1e308, &a.rtol},
                              {"maxit", 0, OPT_INT, 1, INT_MAX - 1, &a.maxit},
                              {"pivot-shift", 0, OPT_DOUBLE, -1e308, 1e308, &a.pivot_shift},
                              {"diag-shift", 0, OPT_DOUBLE, -1e308, 1e308, &a.diag_shift},
                              {"gpu", 0, OPT_FLAG, 0, 0, &a.gpu},
                              {"cusparse", 0, OPT_FLAG, 0, 0, &a.cusparse},
                              {"dist", 0, OPT_STRING, 0, 0, &a.dist},
                              {"scheme", 0, OPT_STRING, 0, 0, &a.scheme},
                              {"tasks", 0, OPT_INT, 1, 1 << 20, &a.tasks},
                              {"budget-mb", 0, OPT_INT, 1, INT64_MAX >> 21, &a.budget_mb},
                              OPT_END};
    const char *pos[1];
    int npos = 0;
    int rc = opts_parse("solve", solve_usage, specs, argc, argv, 1, pos, 1, &npos);
    if (rc != OPTS_OK) return rc;
    if (npos != 1) return opts_usage_error("solve", solve_usage, "expected one FILE.mtx");
    rq->path = pos[0];
    rq->krylov = a.krylov != NULL;
    rq->dist = a.dist != NULL;
    if (rq->dist) return parse_dist(&a, rq);
    return rq->krylov ? parse_krylov(&a, rq) : parse_triangular(&a, rq);
}

int cmd_solve(int argc, char **argv)
{
    solve_request rq;
    solve_outcome out;
    memset(&rq, 0, sizeof(rq));
    memset(&out, 0, sizeof(out));
    rq.nrhs = 1;
    int rc = parse_request(argc, argv, &rq);
    if (rc == OPTS_HELP) return 0;
    if (rc != OPTS_OK) return 2;
    if (rq.dist) return dist_solve_run(&rq.dr);
    if (rq.krylov) return krylov_solve_run(&rq.kr);
    if (rq.engine->is_gpu && domino_gpu_count() == 0) {
        fprintf(stderr, "domino solve: engine '%s' needs a GPU, and none is available "
                        "(no CUDA in this build or no device); use --engine cpu or cpu-syncfree\n",
                rq.engine->name);
        return 1;
    }
    domino_handle h = NULL;
    if (domino_create(&h)) {
        fprintf(stderr, "domino solve: cannot create a handle\n");
        return 1;
    }
    domino_set_progress(h, 1);
    domino_status s = run_solve(h, &rq, &out);
    if (s) {
        rc = cli_fail(h, s, "solve");
    } else {
        print_outcome(&rq, &out);
        rc = out.passed ? 0 : 1;
    }
    domino_destroy(h);
    return rc;
}
