/* cmd_bench.c: "domino bench": time the triangular-solve engines on problems */
#define _POSIX_C_SOURCE 200809L
#include "bench_dist_plan.h"
#include "bench_dist_spgemm.h"
#include "bench_dist_spmm.h"
#include "bench_dist_trsv.h"
#include "bench_engines.h"
#include "bench_precond.h"
#include "bench_problems.h"
#include "bench_report.h"
#include "cli_util.h"
#include "commands.h"
#include "domino.h"
#include "internal.h"
#include "opts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char bench_usage[] =
    "usage: domino bench [--suite default|trsv|stencil|precond|dist-plan|trsv-dist|spmm|spgemm] [--quick]\n"
    "                    [--grid N | --problem NAME] [--pes N] [--budget-mb M] [--widths LIST] [--tiles T] [--lean]\n"
    "                    [--upper] [--repeat R] [--engines a,b,c] [--float] [--tune]\n"
    "                    [--json] [--csv FILE] [--json-out FILE]\n"
    "\n"
    "Times the triangular-solve engines: warm-up runs (on the GPU the first, timed as\n"
    "the first solve, then up to 7 more within 1 s, where auto's trials of its walks\n"
    "end), then R timed runs (median),\n"
    "each answer checked against the CPU reference (scaled residual, difference to\n"
    "the sequential solution).  Default problem: lower triangle of D3N27 on 64^3.\n"
    "Effective GB/s = (nnz*(8+4) + (n+1)*8 + 2*n*8) / solve time (float: 4 for 8\n"
    "in values and vectors; row offsets are int64).\n"
    "\n"
    "  --suite trsv     the GPU benchmark suite: every matrix in $DOMINO_MATRICES\n"
    "                   (default ../shared/matrices), stencils, random DAGs of\n"
    "                   depth 1..10^6, R-MAT; --quick makes it about 8x smaller\n"
    "  --suite stencil  structured-grid solves: D3N7, D3N13, D3N27, D3N33 on 64^3..256^3,\n"
    "                   lower and upper (--quick: 16^3, 24^3); engines stencil*,\n"
    "                   auto and cusparse unless --engines says otherwise\n"
    "  --suite precond  GPU ILU(0)/IC(0) and preconditioned CG/BiCGSTAB against the\n"
    "                   cuSPARSE csrilu02/csric02 + SpSV loop: 3D Poisson (D3N7,\n"
    "                   D3N27, 64^3..192^3; --quick 16^3, 24^3) and the shared\n"
    "                   matrices (SPD values made where needed, and said); takes\n"
    "                   only --quick, --csv, --json-out\n"
    "  --suite dist-plan  how the multi-GPU distributions (contiguous, task pool with\n"
    "                   4..32 tasks per PE, level-tied task pool, linked, and the library's\n"
    "                   default auto, named by what it took) spread the trsv suite's\n"
    "                   triangles over --pes N PEs (default 2): balance, remote share, modelled\n"
    "                   chain of waits, bytes;\n"
    "                   planning only, no GPU; takes --quick, --pes, --csv\n"
    "  --suite trsv-dist  the multi-GPU solves, run as domino run -n N bench --suite\n"
    "                   trsv-dist (or under mpirun): cusparse-1gpu, domino-1gpu, the\n"
    "                   unified-memory baseline um, um-tasks8, um-tasks32, um-tied (PE 0\n"
    "                   drives all N GPUs; um-plain, um-plain-tasks8: its managed arrays\n"
    "                   without advice), zerocopy and push, contiguous and -tasks4/8/16/32\n"
    "                   (zerocopy also -tasks64), and with the\n"
    "                   level order (-level: um-tasks8, zerocopy, zerocopy-tasks8,\n"
    "                   push-tasks8), and pull, pull-tasks8, pull-level, pull-tasks4/8/16/32-level\n"
    "                   (CSR pull, ours; pull-tied-level-copies is the library default, its\n"
    "                   lanes per row chosen from the levels), pull-tasks8-level-lanes32/16/8/4\n"
    "                   (that many lanes per row), zerocopy-tied and pull-tied-level (task size\n"
    "                   tied to the level width), pull-tasks8-level-copies and\n"
    "                   pull-tied-level-copies (each x_i also stored into the arrays of\n"
    "                   the PEs that read it; -lanes16/8/2/1, and pull-tasks8-level-copies-lanes1),\n"
    "                   pull-linked-level-copies (-lanes1/2/4/8/16), zerocopy-linked-level, um-linked-level (each\n"
    "                   component on the PE of a predecessor one level up, level by level),\n"
    "                   stencil-slabs (generated stencils: the\n"
    "                   structured solve by slabs of y over the PEs), on stencils,\n"
    "                   R-MAT, random DAGs and the shared matrices; --engines picks\n"
    "                   configurations, --problem takes a comma-separated list,\n"
    "                   --budget-mb M caps each GPU's share of the multi-GPU plans;\n"
    "                   takes --quick, --problem, --engines, --repeat, --budget-mb, --csv\n"
    "  --suite spmm     SpMM on GPUs, run as domino run -n N bench --suite spmm (or under\n"
    "                   mpirun): cuSPARSE on PE 0's GPU, then on all PEs the one-sided\n"
    "                   stationary-C, stationary-C with random and with locality-aware\n"
    "                   work stealing, stationary-C by row blocks (one product per C tile),\n"
    "                   stationary-A (--tiles T per dimension, default the PEs)\n"
    "                   and NCCL SUMMA; R-MAT 18, 20, 22\n"
    "                   (--problem rmat:S,...), --widths 128,256,512 (quick: rmat:12, 32);\n"
    "                   --engines names some of stationary-c, stationary-c+steal,\n"
    "                   stationary-a, stationary-c+steal-local, stationary-c-rows, summa,\n"
    "                   chunks-1gpu (domino's own SpMM kernel on one GPU, widths <= 128;\n"
    "                   DOMINO_SPMM_LOCAL=chunks|cusparse picks the one-sided products'\n"
    "                   local kernel, default chunks up to 128 columns by row blocks,\n"
    "                   cuSPARSE on tiles);\n"
    "                   --lean makes B on the GPUs tile by tile and checks C z = A (B z)\n"
    "                   (no host copy of B or C, for B larger than a host; SUMMA too);\n"
    "                   takes --quick, --problem, --widths, --tiles, --engines, --lean,\n"
    "                   --repeat, --float, --csv\n"
    "  --suite spgemm   C = A A on GPUs, run as domino run -n N bench --suite spgemm (or\n"
    "                   under mpirun): cuSPARSE on PE 0's GPU, then on all PEs the one-sided\n"
    "                   stationary-C, stationary-C with random and with locality-aware work\n"
    "                   stealing, and stationary-A (--tiles T per dimension, default 2 x PEs;\n"
    "                   at most 64 for the last two), and NCCL SUMMA, with each PE's time\n"
    "                   breakdown and the roofline model; R-MAT 18, 20, 22 (--problem\n"
    "                   rmat:S,...; quick: rmat:12); takes --quick, --problem, --tiles,\n"
    "                   --repeat, --float, --csv\n"
    "  --grid N         D3N27 on an N^3 grid\n"
    "  --problem NAME   STENCIL:N or STENCIL:NXxNY[xNZ] (e.g. d3n27:64, d2n5:1024x1024),\n"
    "                   with :upper for the upper triangle (d3n7:64:upper),\n"
    "                   dag:ROWS:PERROW:LEVELS[:BAND], rmat:SCALE, or FILE.mtx\n"
    "                   (generated and file matrices: lower triangle, diagonal made\n"
    "                   dominant where the generator does not)\n"
    "  --upper          upper triangles of every problem (backward solves)\n"
    "  --repeat R       timed runs per engine (default 10)\n"
    "  --engines LIST   comma-separated: cpu-seq, cpu-syncfree, and with a GPU auto,\n"
    "                   levelset, levelset-lanes (groups of lanes per row, chosen from the\n"
    "                   levels), warp, thread, thread-any (rows summed in the order their\n"
    "                   x arrive, DOMINO_ANY_ORDER=1), csc, block (one thread block, x in shared\n"
    "                   memory), block-global (the same, x in global memory), levelblock\n"
    "                   (level sets in one thread block), levelblock-global (x in global\n"
    "                   memory), stepblock (one thread block, rows in steps of 256, no\n"
    "                   analysis), stepblock-warp (its one-warp variant, experimental),\n"
    "                   cusparse, spmv (not a solve: cusparseSpMV of the same triangle,\n"
    "                   the dependency-free reference, checked against the CPU product),\n"
    "                   and on stencil problems\n"
    "                   the structured solves stencil (CSR input), stencil-compact,\n"
    "                   and the steps of the paper's ablation stencil-partition,\n"
    "                   stencil-multistage, stencil-compressed (default: all available\n"
    "                   but the structured and block ones; --suite stencil: see above)\n"
    "  --tune           structured solves autotune D, the warps per z-queue\n"
    "  --float          single precision\n"
    "  --json           print a JSON document instead of the table\n"
    "  --csv FILE       also write the results as CSV\n"
    "  --json-out FILE  also write the JSON document to FILE\n";

#define MAX_ENGINES 32

/* what bench was asked */
typedef struct bench_request {
    const char *suite;       /* "default" or "trsv" */
    const char *problem;     /* --problem, or NULL */
    const char *engines;     /* --engines, or NULL */
    const char *csv_path;    /* --csv, or NULL */
    const char *json_path;   /* --json-out, or NULL */
    int64_t grid;            /* --grid, 0 if not given */
    int64_t repeat;          /* timed runs */
    int json, quick, use_float; /* flags */
    int upper, tune;         /* --upper, --tune */
    int64_t pes;             /* --pes (dist-plan) */
    int64_t budget_mb;       /* --budget-mb (trsv-dist) */
    const char *widths;      /* --widths (spmm) */
    int64_t tiles;           /* --tiles (spmm) */
    int lean;                /* --lean (spmm) */
    const bench_engine *engine_list[MAX_ENGINES]; /* engines to run */
    int nengines;            /* size of engine_list */
} bench_request;

/* what select_engines answers when a GPU engine was asked for without a GPU */
#define NEEDS_GPU 3

/* fill rq->engine_list from --engines or the defaults; OPTS_OK, OPTS_ERROR or NEEDS_GPU */
static int select_engines(bench_request *rq)
{
    int have_gpu = domino_gpu_count() > 0;
    rq->nengines = 0;
    if (!rq->engines && strcmp(rq->suite, "stencil") == 0)
        rq->engines = have_gpu ? "stencil,stencil-compact,stencil-partition,stencil-multistage,"
                                 "stencil-compressed,auto,cusparse"
                               : "cpu-seq";
    if (!rq->engines) {
        for (int i = 0; i < bench_engine_count; i++)
            if ((!bench_engines[i].is_gpu || have_gpu) && !bench_engine_is_stencil(&bench_engines[i]) &&
                bench_engines[i].gpu_engine != DOMINO_ENGINE_BLOCK && /* one SM: only when named */
                bench_engines[i].gpu_engine != DOMINO_ENGINE_LEVELBLOCK)
                rq->engine_list[rq->nengines++] = &bench_engines[i];
        return 0;
    }
    char buf[512];
    if (strlen(rq->engines) >= sizeof(buf))
        return opts_usage_error("bench", bench_usage, "--engines: list too long");
    strcpy(buf, rq->engines);
    for (char *name = strtok(buf, ","); name; name = strtok(NULL, ",")) {
        const bench_engine *e = bench_engine_find(name);
        if (!e) return opts_usage_error("bench", bench_usage, "--engines: unknown engine '%s'", name);
        if (e->is_gpu && !have_gpu) {
            fprintf(stderr, "domino bench: engine '%s' needs a GPU, and none is available "
                            "(no CUDA in this build or no device)\n", name);
            return NEEDS_GPU;
        }
        if (rq->nengines == MAX_ENGINES)
            return opts_usage_error("bench", bench_usage, "--engines: too many engines");
        rq->engine_list[rq->nengines++] = e;
    }
    if (rq->nengines == 0) return opts_usage_error("bench", bench_usage, "--engines: empty list");
    return 0;
}

/* parse the command line; OPTS_OK, OPTS_HELP, OPTS_ERROR or NEEDS_GPU */
static int parse_request(int argc, char **argv, bench_request *rq)
{
    const opt_spec specs[] = {{"suite", 0, OPT_STRING, 0, 0, &rq->suite},
                              {"grid", 0, OPT_INT, 2, 1290, &rq->grid},
                              {"problem", 0, OPT_STRING, 0, 0, &rq->problem},
                              {"repeat", 0, OPT_INT, 1, 100000, &rq->repeat},
                              {"engines", 0, OPT_STRING, 0, 0, &rq->engines},
                              {"json", 0, OPT_FLAG, 0, 0, &rq->json},
                              {"csv", 0, OPT_STRING, 0, 0, &rq->csv_path},
                              {"json-out", 0, OPT_STRING, 0, 0, &rq->json_path},
                              {"quick", 0, OPT_FLAG, 0, 0, &rq->quick},
                              {"float", 0, OPT_FLAG, 0, 0, &rq->use_float},
                              {"upper", 0, OPT_FLAG, 0, 0, &rq->upper},
                              {"tune", 0, OPT_FLAG, 0, 0, &rq->tune},
                              {"pes", 0, OPT_INT, 1, 1024, &rq->pes},
                              {"budget-mb", 0, OPT_INT, 1, 1e9, &rq->budget_mb},
                              {"widths", 0, OPT_STRING, 0, 0, &rq->widths},
                              {"tiles", 0, OPT_INT, 1, 256, &rq->tiles},
                              {"lean", 0, OPT_FLAG, 0, 0, &rq->lean},
                              OPT_END};
    const char *pos[1];
    int npos = 0;
    int rc = opts_parse("bench", bench_usage, specs, argc, argv, 1, pos, 0, &npos);
    if (rc != OPTS_OK) return rc;
    int is_suite = strcmp(rq->suite, "trsv") == 0 || strcmp(rq->suite, "stencil") == 0 ||
                   strcmp(rq->suite, "precond") == 0 || strcmp(rq->suite, "dist-plan") == 0 ||
                   strcmp(rq->suite, "trsv-dist") == 0 || strcmp(rq->suite, "spmm") == 0 ||
                   strcmp(rq->suite, "spgemm") == 0;
    if (strcmp(rq->suite, "default") != 0 && !is_suite)
        return opts_usage_error("bench", bench_usage,
                                "--suite: unknown suite '%s' (default, trsv, stencil, precond, dist-plan, "
                                "trsv-dist, spmm, spgemm)", rq->suite);
    if (rq->widths && strcmp(rq->suite, "spmm") != 0)
        return opts_usage_error("bench", bench_usage, "--widths goes with --suite spmm");
    if (rq->tiles && strcmp(rq->suite, "spmm") != 0 && strcmp(rq->suite, "spgemm") != 0)
        return opts_usage_error("bench", bench_usage, "--tiles goes with --suite spmm or spgemm");
    if (rq->lean && strcmp(rq->suite, "spmm") != 0)
        return opts_usage_error("bench", bench_usage, "--lean goes with --suite spmm");
    if (strcmp(rq->suite, "spgemm") == 0)
        return rq->upper || rq->tune || rq->json || rq->json_path || rq->grid || rq->pes || rq->engines ||
                       rq->budget_mb
                   ? opts_usage_error("bench", bench_usage, "--suite spgemm takes only --quick, --problem, "
                                      "--tiles, --repeat, --float and --csv")
                   : OPTS_OK;
    if (strcmp(rq->suite, "spmm") == 0)
        return rq->upper || rq->tune || rq->json || rq->json_path || rq->grid || rq->pes || rq->budget_mb
                   ? opts_usage_error("bench", bench_usage, "--suite spmm takes only --quick, --problem, "
                                      "--widths, --tiles, --engines, --lean, --repeat, --float and --csv")
                   : OPTS_OK;
    if (rq->budget_mb && strcmp(rq->suite, "trsv-dist") != 0)
        return opts_usage_error("bench", bench_usage, "--budget-mb goes with --suite trsv-dist");
    if (strcmp(rq->suite, "trsv-dist") == 0)
        return rq->upper || rq->tune || rq->use_float || rq->json || rq->json_path || rq->grid || rq->pes
                   ? opts_usage_error("bench", bench_usage, "--suite trsv-dist takes only --quick, "
                                      "--problem, --engines, --repeat, --budget-mb and --csv")
                   : OPTS_OK;
    if (rq->pes && strcmp(rq->suite, "dist-plan") != 0)
        return opts_usage_error("bench", bench_usage, "--pes goes with --suite dist-plan");
    if (strcmp(rq->suite, "dist-plan") == 0)
        return rq->upper || rq->tune || rq->use_float || rq->engines || rq->json || rq->json_path
                   ? opts_usage_error("bench", bench_usage, "--suite dist-plan takes only --quick, "
                                      "--pes and --csv")
                   : OPTS_OK;
    if (strcmp(rq->suite, "precond") == 0)
        return rq->upper || rq->tune || rq->use_float || rq->engines || rq->json
                   ? opts_usage_error("bench", bench_usage, "--suite precond takes only --quick, "
                                      "--csv and --json-out")
                   : OPTS_OK;
    if (rq->grid && rq->problem)
        return opts_usage_error("bench", bench_usage, "--grid and --problem exclude each other");
    if (is_suite && (rq->grid || rq->problem))
        return opts_usage_error("bench", bench_usage, "--suite %s takes no --grid or --problem",
                                rq->suite);
    if (rq->quick && !is_suite)
        return opts_usage_error("bench", bench_usage, "--quick goes with --suite trsv or stencil");
    if (rq->upper && strcmp(rq->suite, "stencil") == 0)
        return opts_usage_error("bench", bench_usage, "--suite stencil has lower and upper already");
    return select_engines(rq);
}

/* the problems to run into a new array (free()); OPTS_OK or OPTS_ERROR */
static int list_problems(const bench_request *rq, problem_spec **specs, int *count)
{
    char why[256], grid[64];
    if (strcmp(rq->suite, "trsv") == 0) {
        const char *dir = getenv("DOMINO_MATRICES");
        if (bench_suite_trsv(rq->quick, dir && *dir ? dir : "../shared/matrices", specs, count)) {
            fprintf(stderr, "domino bench: out of memory\n");
            return OPTS_ERROR;
        }
        /* DOMINO_TRSV_ONLY=a,b,... (experiments): the problems whose name holds one of them */
        const char *only = getenv("DOMINO_TRSV_ONLY");
        if (only && *only) {
            int kept = 0;
            for (int i = 0; i < *count; i++) {
                char list[256];
                snprintf(list, sizeof list, "%s", only);
                int keep = 0;
                for (char *tok = strtok(list, ","); tok && !keep; tok = strtok(NULL, ","))
                    keep = strstr((*specs)[i].name, tok) != NULL;
                if (keep) (*specs)[kept++] = (*specs)[i];
            }
            *count = kept;
        }
        for (int i = 0; rq->upper && i < *count; i++) {
            (*specs)[i].fill = DOMINO_UPPER;
            if (strlen((*specs)[i].name) + 7 < sizeof((*specs)[i].name)) strcat((*specs)[i].name, ":upper");
        }
        return OPTS_OK;
    }
    if (strcmp(rq->suite, "stencil") == 0) {
        if (bench_suite_stencil(rq->quick, specs, count)) {
            fprintf(stderr, "domino bench: out of memory\n");
            return OPTS_ERROR;
        }
        return OPTS_OK;
    }
    *specs = calloc(1, sizeof(problem_spec));
    if (!*specs) return OPTS_ERROR;
    *count = 1;
    snprintf(grid, sizeof(grid), "d3n27:%lld", (long long)(rq->grid ? rq->grid : 64));
    if (problem_spec_parse(rq->problem ? rq->problem : grid, *specs, why, sizeof(why))) {
        free(*specs);
        *specs = NULL;
        return opts_usage_error("bench", bench_usage, "--problem: %s", why);
    }
    if (rq->upper && (*specs)->fill != DOMINO_UPPER) {
        (*specs)->fill = DOMINO_UPPER;
        size_t len = strlen((*specs)->name);
        if (len + 7 < sizeof((*specs)->name)) strcat((*specs)->name, ":upper");
    }
    return OPTS_OK;
}

/* the row of a problem that could not be built */
static void error_row(const problem_spec *spec, const char *message, bench_row *row)
{
    memset(row, 0, sizeof(*row));
    snprintf(row->problem, sizeof(row->problem), "%s", spec->name);
    snprintf(row->engine, sizeof(row->engine), "-");
    row->failed = 1;
    row->residual = NAN;
    row->diff = NAN;
    snprintf(row->status, sizeof(row->status), "ERROR: %s", message);
}

/* the spmv row's answer X = T b against the CPU product:
 * max |X - T b| / max |T b| into *err */
static domino_status spmv_error(domino_handle h, const bench_problem *p, const void *X, double *err)
{
    size_t vs = domino_type_size(p->type);
    void *y = domino_calloc((size_t)p->n, vs);
    if (!y) return domino_error(h, DOMINO_OUT_OF_MEMORY, "bench: out of memory");
    domino_status s = domino_ref_spmv(h, DOMINO_OP_N, 1.0, p->T, p->b, 0.0, y);
    double diff = 0, scale = 0;
    for (int32_t i = 0; !s && i < p->n; i++) {
        double a = cli_get(p->type, X, i), b = cli_get(p->type, y, i);
        if (!(fabs(a - b) <= diff)) diff = fabs(a - b); /* NaN propagates */
        if (fabs(b) > scale) scale = fabs(b);
    }
    *err = scale > 0 ? diff / scale : diff;
    domino_free(y);
    return s;
}

/* run engine e on p and check its answer into row (a solve: scaled
 * residual and difference to the sequential solution; the spmv row: its
 * product against the CPU's) */
static void run_engine(domino_handle h, const bench_engine *e, bench_problem *p, int repeat,
                       void *X, bench_row *row)
{
    engine_timing t;
    snprintf(row->engine, sizeof(row->engine), "%s", e->name);
    memset(X, 0, (size_t)p->n * domino_type_size(p->type));
    row->residual = row->diff = NAN;
    int spmv = bench_engine_is_spmv(e);
    domino_status s = e->run(h, e, &p->solve, repeat, X, &t);
    if (s == DOMINO_NOT_SUPPORTED && bench_engine_is_stencil(e)) {
        snprintf(row->status, sizeof(row->status), "skipped: not a stencil problem");
        return;
    }
    if (s == DOMINO_NOT_SUPPORTED && spmv) {
        snprintf(row->status, sizeof(row->status), "skipped: %s", domino_last_error(h));
        return;
    }
    if (s || (spmv ? spmv_error(h, p, X, &row->residual)
                   : domino_ref_trsv_residual(h, DOMINO_OP_N, p->solve.fill, DOMINO_NON_UNIT, p->T, 1, X,
                                              p->n, p->b, p->n, &row->residual))) {
        row->failed = 1;
        snprintf(row->status, sizeof(row->status), "ERROR: %s", domino_last_error(h));
        fprintf(stderr, "domino bench: %s on %s: %s\n", e->name, row->problem, domino_last_error(h));
        return;
    }
    snprintf(row->used, sizeof(row->used), "%s", t.used);
    row->analysis_ms = t.analysis_ms;
    row->solve_ms = t.solve_ms;
    row->solve_ms_min = t.solve_ms_min;
    row->first_ms = t.first_ms;
    row->gbs = t.solve_ms > 0 ? bench_bytes(p->type, p->n, p->nnz) / (t.solve_ms * 1e-3) / 1e9 : 0;
    row->diff = spmv ? row->residual : cli_max_rel_diff(p->type, p->n, X, p->x_ref);
    row->failed = !(row->residual <= cli_residual_tol(p->type)) || !(row->diff <= cli_diff_tol(p->type));
    if (row->failed)
        snprintf(row->status, sizeof(row->status), "FAILED (residual %.2e, max rel diff %.2e)",
                 row->residual, row->diff);
    else
        snprintf(row->status, sizeof(row->status), "ok");
}

/* speedups of rows[0..count) against cusparse, else cpu-seq */
static void set_speedups(bench_row *rows, int count)
{
    const bench_row *base = NULL;
    for (int pass = 0; pass < 2 && !base; pass++)
        for (int i = 0; i < count && !base; i++)
            if (!rows[i].failed && strcmp(rows[i].engine, pass ? "cpu-seq" : "cusparse") == 0)
                base = &rows[i];
    for (int i = 0; i < count; i++) {
        if (!base || rows[i].failed || rows[i].solve_ms <= 0) continue;
        rows[i].speedup = base->solve_ms / rows[i].solve_ms;
        snprintf(rows[i].baseline, sizeof(rows[i].baseline), "%s", base->engine);
    }
}

/* build one problem, run every engine on it, add the rows; number of failed rows */
static int run_problem(domino_handle h, const bench_request *rq, const problem_spec *spec,
                       bench_report *report)
{
    bench_problem p;
    bench_row rows[MAX_ENGINES];
    int failed = 0;
    domino_type type = rq->use_float ? DOMINO_FLOAT32 : DOMINO_FLOAT64;
    if (bench_problem_build(h, spec, type, &p)) {
        const char *msg = domino_last_error(h);
        if (strstr(msg, spec->name))
            fprintf(stderr, "domino bench: %s\n", msg);
        else
            fprintf(stderr, "domino bench: %s: %s\n", spec->name, msg);
        error_row(spec, domino_last_error(h), &rows[0]);
        if (!rq->json) bench_print_table_row(stdout, &rows[0]);
        bench_report_add(report, &rows[0]);
        return 1;
    }
    p.solve.stencil_tune = rq->tune;
    void *X = cli_zero_block(type, p.n, 1);
    for (int k = 0; k < rq->nengines; k++) {
        bench_row *row = &rows[k];
        memset(row, 0, sizeof(*row));
        snprintf(row->problem, sizeof(row->problem), "%s", spec->name);
        row->n = p.n;
        row->nnz = p.nnz;
        row->nlevels = p.levels->nlevels;
        row->parallelism = p.levels->parallelism;
        row->dependency = p.levels->dependency;
        if (isatty(2))
            fprintf(stderr, "domino bench: %s: engine %d/%d %s\n", spec->name, k + 1, rq->nengines,
                    rq->engine_list[k]->name);
        if (!X) {
            snprintf(row->engine, sizeof(row->engine), "%s", rq->engine_list[k]->name);
            snprintf(row->status, sizeof(row->status), "ERROR: out of memory");
            row->failed = 1;
        } else {
            run_engine(h, rq->engine_list[k], &p, (int)rq->repeat, X, row);
        }
    }
    set_speedups(rows, rq->nengines);
    for (int k = 0; k < rq->nengines; k++) {
        failed += rows[k].failed;
        if (!rq->json) bench_print_table_row(stdout, &rows[k]);
        bench_report_add(report, &rows[k]);
    }
    domino_free(X);
    bench_problem_free(&p);
    return failed;
}

/* write the report to the files asked for; 0 or 1 */
static int write_files(const bench_request *rq, const bench_report *report)
{
    int rc = 0;
    const char *paths[2] = {rq->csv_path, rq->json_path};
    for (int i = 0; i < 2; i++) {
        if (!paths[i]) continue;
        FILE *f = fopen(paths[i], "w");
        if (!f) {
            fprintf(stderr, "domino bench: cannot write '%s'\n", paths[i]);
            rc = 1;
            continue;
        }
        if (i == 0)
            bench_write_csv(f, report);
        else
            bench_write_json(f, report);
        if (fclose(f) != 0) {
            fprintf(stderr, "domino bench: error writing '%s'\n", paths[i]);
            rc = 1;
        }
    }
    return rc;
}

/* run the problems and print; the exit code */
static int run_bench(domino_handle h, const bench_request *rq, const problem_spec *specs, int nspecs)
{
    bench_report report;
    int failed = 0;
    memset(&report, 0, sizeof(report));
    report.type = rq->use_float ? DOMINO_FLOAT32 : DOMINO_FLOAT64;
    report.repeat = (int)rq->repeat;
    snprintf(report.suite, sizeof(report.suite), "%s", rq->suite);
    if (domino_gpu_count() > 0 &&
        domino_gpu_describe(h, report.device, sizeof(report.device), &report.copy_gbs) == DOMINO_SUCCESS)
        report.has_gpu = 1;
    if (strcmp(rq->suite, "trsv") == 0 && !report.has_gpu)
        fprintf(stderr, "domino bench: warning: no GPU; the trsv suite is meant for a GPU machine and "
                        "%s\n", rq->quick ? "runs the CPU engines only"
                                          : "the CPU engines on 10^7 rows will be slow");
    if (!rq->json) bench_print_table_header(stdout, &report);
    for (int i = 0; i < nspecs; i++) failed += run_problem(h, rq, &specs[i], &report);
    if (rq->json) bench_write_json(stdout, &report);
    int rc = write_files(rq, &report);
    if (failed) fprintf(stderr, "domino bench: %d result%s FAILED\n", failed, failed == 1 ? "" : "s");
    bench_report_free(&report);
    return failed || rc ? 1 : 0;
}

int cmd_bench(int argc, char **argv)
{
    bench_request rq;
    problem_spec *specs = NULL;
    int nspecs = 0;
    memset(&rq, 0, sizeof(rq));
    rq.suite = "default";
    rq.repeat = 10;
    int rc = parse_request(argc, argv, &rq);
    if (rc == OPTS_HELP) return 0;
    if (rc == NEEDS_GPU) return 1;
    if (rc != OPTS_OK) return 2;
    if (strcmp(rq.suite, "dist-plan") == 0) {
        const char *dir = getenv("DOMINO_MATRICES");
        return bench_dist_plan_run(rq.quick, rq.pes ? (int)rq.pes : 2,
                                   dir && *dir ? dir : "../shared/matrices", rq.csv_path);
    }
    if (strcmp(rq.suite, "spgemm") == 0) {
        spgemm_bench_request d = {rq.quick, rq.problem, rq.tiles, (int)rq.repeat, rq.use_float, rq.csv_path};
        return bench_dist_spgemm_run(&d);
    }
    if (strcmp(rq.suite, "spmm") == 0) {
        spmm_bench_request d = {rq.quick,    rq.problem,  rq.widths,  rq.tiles, (int)rq.repeat,
                                rq.use_float, rq.csv_path, rq.engines, rq.lean};
        return bench_dist_spmm_run(&d);
    }
    if (strcmp(rq.suite, "trsv-dist") == 0) {
        dist_bench_request d = {rq.quick, rq.problem, rq.engines, (int)rq.repeat, rq.budget_mb, rq.csv_path};
        return bench_dist_trsv_run(&d);
    }
    if (strcmp(rq.suite, "precond") == 0) {
        const char *dir = getenv("DOMINO_MATRICES");
        return bench_precond_run(rq.quick, dir && *dir ? dir : "../shared/matrices", rq.csv_path,
                                 rq.json_path);
    }
    rc = list_problems(&rq, &specs, &nspecs);
    if (rc != OPTS_OK) return rc;
    domino_handle h = NULL;
    if (domino_create(&h)) {
        fprintf(stderr, "domino bench: cannot create a handle\n");
        free(specs);
        return 1;
    }
    domino_set_progress(h, 1);
    rc = run_bench(h, &rq, specs, nspecs);
    domino_destroy(h);
    free(specs);
    return rc;
}
