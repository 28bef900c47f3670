/* cmd_solve_dist.c: "domino run -n N solve FILE.mtx --dist SOLVER": the
 * triangular solve of a Matrix Market file over the GPUs of a run */
#include "cmd_solve_dist.h"
#include "cli_util.h"
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the names --dist and --scheme take */
static const char *const solver_names[] = {"pull", "zerocopy", "push", "unified", NULL};
static const char *const scheme_names[] = {"taskpool", "contiguous", "linked", "auto", NULL};

/* index of name in names (NULL-terminated), -1 when absent */
static int name_index(const char *const *names, const char *name)
{
    for (int k = 0; name && names[k]; k++)
        if (strcmp(names[k], name) == 0) return k;
    return -1;
}

int dist_solve_solver_known(const char *name) { return name_index(solver_names, name) >= 0; }
int dist_solve_scheme_known(const char *name) { return name_index(scheme_names, name) >= 0; }

#ifndef DOMINO_HAVE_NVSHMEM
int dist_solve_run(const dist_solve_request *rq)
{
    (void)rq;
    return cli_no_nvshmem("solve --dist");
}
#else

/* what each name of solver_names and scheme_names stands for (unified: -1,
 * the solver of domino_dist_trsv_unified) */
static const int solver_ids[] = {DOMINO_DIST_PULL, DOMINO_DIST_ZEROCOPY, DOMINO_DIST_PUSH, -1};
static const domino_dist_scheme scheme_ids[] = {DOMINO_DIST_TASKPOOL, DOMINO_DIST_CONTIGUOUS,
                                                DOMINO_DIST_LINKED, DOMINO_DIST_AUTO};

/* what the run found (PE 0's) */
typedef struct dist_solve_outcome {
    int32_t n;            /* rows */
    int64_t nnz;          /* entries of the triangle */
    int npes;             /* PEs of the run */
    int is_pattern;       /* values were assigned */
    double solve_ms;      /* the timed solve, the largest over the PEs */
    double residual;      /* scaled residual */
    double forward_error; /* max relative forward error */
    int passed;           /* residual within tolerance */
    int32_t task_size;    /* of the plan */
    const char *taken;    /* the plan's scheme (AUTO's choice), a name of scheme_names */
    int lanes;            /* the pull solver's lanes per row */
    double remote_share;  /* entries whose row lives on another PE */
    double max_pe_mib;    /* the largest PE's share, MiB (the plan's formula) */
} dist_solve_outcome;

/* the plan of rq over npes PEs (the library's defaults but what rq sets) */
static domino_status plan_request(domino_handle h, const dist_solve_request *rq, domino_matrix T, int npes,
                                  domino_dist_plan **plan)
{
    domino_dist_options opt;
    int64_t *budget = NULL;
    domino_dist_options_init(&opt);
    opt.scheme = scheme_ids[name_index(scheme_names, rq->scheme)]; /* checked by the parser */
    if (rq->tasks > 0) { /* equal tasks, as many as asked */
        opt.tasks_per_pe = (int)rq->tasks;
        opt.level_tasks = 0;
    }
    if (rq->budget_mb > 0) {
        if (!(budget = malloc((size_t)npes * sizeof(int64_t))))
            return domino_error(h, DOMINO_OUT_OF_MEMORY, "solve: out of memory");
        for (int q = 0; q < npes; q++) budget[q] = rq->budget_mb << 20;
        opt.budget = budget;
    }
    domino_status s = domino_dist_plan_make(h, T, rq->upper ? DOMINO_UPPER : DOMINO_LOWER, npes, &opt, plan);
    free(budget);
    return s;
}

/* the solver of rq on every PE (unified: PE 0 drives every GPU, the others
 * wait), a warm-up solve, then the timed one into x */
static domino_status solve_request(domino_handle h, domino_dist D, const dist_solve_request *rq, domino_matrix T,
                                   const domino_dist_plan *plan, const double *b, double *x, double *seconds)
{
    domino_fill fill = rq->upper ? DOMINO_UPPER : DOMINO_LOWER;
    domino_diag diag = rq->unit ? DOMINO_UNIT : DOMINO_NON_UNIT;
    domino_dist_trsv S = NULL;
    domino_status s = DOMINO_SUCCESS;
    int solver = solver_ids[name_index(solver_names, rq->solver)]; /* checked by the parser */
    if (solver < 0) {
        if (domino_dist_rank(D) == 0) s = domino_dist_trsv_unified(h, fill, diag, T, plan, &S);
    } else {
        s = domino_dist_trsv_make(h, D, (domino_dist_solver)solver, fill, diag, T, plan, &S);
    }
    if (!s && S) s = domino_dist_trsv_solve(h, S, b, x, NULL);
    if (!s && S) s = domino_dist_trsv_solve(h, S, b, x, seconds);
    domino_dist_trsv_free(S);
    return s;
}

/* PE 0: the plan's figures into out */
static void describe_plan(const domino_dist_plan *plan, dist_solve_outcome *out)
{
    int64_t remote = 0, nnz = 0, top = 0;
    for (int q = 0; q < plan->npes; q++) {
        remote += plan->pe_remote[q];
        nnz += plan->pe_nnz[q];
        if (plan->pe_bytes[q] > top) top = plan->pe_bytes[q];
    }
    out->task_size = plan->task_size;
    out->taken = "?";
    for (int k = 0; scheme_names[k]; k++)
        if (scheme_ids[k] == plan->scheme) out->taken = scheme_names[k];
    out->lanes = plan->pull_lanes;
    out->remote_share = nnz ? (double)remote / (double)nnz : 0.0;
    out->max_pe_mib = (double)top / 1048576.0;
}

static void print_outcome(const dist_solve_request *rq, const dist_solve_outcome *out)
{
    const char *tri = rq->upper ? "upper" : "lower";
    int pull = strcmp(rq->solver, "pull") == 0;
    if (!rq->json) {
        printf("file:           %s\n", rq->path);
        printf("system:         %s triangle%s, n %d, nnz %lld, double\n", tri,
               rq->unit ? " (unit diagonal)" : "", out->n, (long long)out->nnz);
        printf("solver:         %s on %d PEs, %s distribution%s, tasks of %d components", rq->solver,
               out->npes, out->taken, strcmp(rq->scheme, "auto") ? "" : " (auto)", out->task_size);
        if (pull) printf(", %d lanes a row", out->lanes);
        printf("\nshare:          %.1f MiB on the largest PE, %.3f of the entries cross PEs\n",
               out->max_pe_mib, out->remote_share);
        printf("solve:          %.3f ms (after a warm-up solve)\n", out->solve_ms);
        cli_print_answer(0, out->residual, out->forward_error, out->passed);
        return;
    }
    printf("{\n  \"file\": ");
    cli_json_string(stdout, rq->path);
    printf(",\n  \"triangle\": \"%s\",\n  \"unit\": %s,\n  \"pattern\": %s,\n", tri, rq->unit ? "true" : "false",
           out->is_pattern ? "true" : "false");
    printf("  \"n\": %d,\n  \"nnz\": %lld,\n  \"pes\": %d,\n", out->n, (long long)out->nnz, out->npes);
    printf("  \"solver\": \"%s\",\n  \"scheme\": \"%s\",\n  \"scheme_taken\": \"%s\",\n  \"task_size\": %d,\n",
           rq->solver, rq->scheme, out->taken, out->task_size);
    if (pull) printf("  \"lanes\": %d,\n", out->lanes);
    printf("  \"remote_share\": ");
    cli_json_number(stdout, out->remote_share);
    printf(",\n  \"max_pe_mib\": ");
    cli_json_number(stdout, out->max_pe_mib);
    printf(",\n  \"solve_ms\": ");
    cli_json_number(stdout, out->solve_ms);
    cli_print_answer(1, out->residual, out->forward_error, out->passed);
}

/* Collective: this PE's step status mine, agreed by every PE; each PE that
 * failed itself says why on its stderr (PE 0 also says so for the others:
 * the agreed message names the PE) */
static domino_status agree_or_say(domino_handle h, domino_dist D, domino_status mine)
{
    if (mine && domino_dist_rank(D) != 0) cli_fail(h, mine, "solve");
    domino_status s = domino_dist_agree(h, D, mine);
    if (s && domino_dist_rank(D) == 0) cli_fail(h, s, "solve");
    return s;
}

int dist_solve_run(const dist_solve_request *rq)
{
    domino_handle h = NULL;
    domino_dist D = NULL;
    domino_matrix T = NULL;
    domino_matrix_view v;
    domino_dist_plan *plan = NULL;
    double *x_true = NULL, *b = NULL, *x = NULL, seconds = 0;
    dist_solve_outcome out;
    memset(&out, 0, sizeof(out));
    if (domino_create(&h)) {
        fprintf(stderr, "domino solve: cannot create a handle\n");
        return 1;
    }
    domino_status s = domino_dist_join(h, &D);
    if (s) {
        fprintf(stderr, "domino solve --dist: %s\n(start it as domino run -n N solve FILE --dist %s, "
                        "or under mpirun)\n", domino_last_error(h), rq->solver);
        domino_destroy(h);
        return 1;
    }
    int rank = domino_dist_rank(D);
    out.npes = domino_dist_npes(D);
    /* every PE reads the file and makes the same b = T x_true */
    s = cli_read_triangle(h, rq->path, DOMINO_FLOAT64, rq->upper, rq->unit, &out.is_pattern, &T);
    if (!s) s = domino_matrix_get_view(h, T, &v);
    if (!s) {
        out.n = v.nrows;
        out.nnz = v.nnz;
        x_true = cli_true_solution(DOMINO_FLOAT64, out.n, 1);
        b = cli_zero_block(DOMINO_FLOAT64, out.n, 1);
        x = cli_zero_block(DOMINO_FLOAT64, out.n, 1);
        if (!x_true || !b || !x)
            s = domino_error(h, DOMINO_OUT_OF_MEMORY, "solve: out of memory for vectors of %d", out.n);
    }
    if (!s) s = cli_make_rhs(h, DOMINO_OP_N, rq->unit ? DOMINO_UNIT : DOMINO_NON_UNIT, T, 1, x_true, b);
    if (!s) s = plan_request(h, rq, T, out.npes, &plan);
    if (!(s = agree_or_say(h, D, s))) {
        if (rank == 0 && out.is_pattern)
            fprintf(stderr, "domino solve: note: %s is a pattern file; values assigned: off-diagonals 1, "
                            "diagonal 1 + sum of |off-diagonals| of its row\n", rq->path);
        s = agree_or_say(h, D, solve_request(h, D, rq, T, plan, b, x, &seconds));
    }
    if (!s) { /* the answer, checked on the CPU by PE 0 */
        domino_status mine = DOMINO_SUCCESS;
        if (rank == 0) {
            out.solve_ms = seconds * 1e3;
            mine = domino_ref_trsv_residual(h, DOMINO_OP_N, rq->upper ? DOMINO_UPPER : DOMINO_LOWER,
                                            rq->unit ? DOMINO_UNIT : DOMINO_NON_UNIT, T, 1, x, out.n, b,
                                            out.n, &out.residual);
            out.forward_error = cli_max_rel_diff(DOMINO_FLOAT64, out.n, x, x_true);
            out.passed = !mine && out.residual <= cli_residual_tol(DOMINO_FLOAT64);
            describe_plan(plan, &out);
            if (!mine) print_outcome(rq, &out);
            fflush(stdout); /* before any PE's exit makes the launcher stop the others */
        }
        s = agree_or_say(h, D, mine);
    }
    /* a wrong answer is PE 0's to report and exit on (the others then end with 0) */
    int wrong = !s && rank == 0 && !out.passed;
    domino_free(x_true);
    domino_free(b);
    domino_free(x);
    domino_dist_plan_free(plan);
    domino_matrix_free(T);
    domino_dist_leave(h, D);
    domino_destroy(h);
    return s || wrong ? 1 : 0;
}
#endif /* DOMINO_HAVE_NVSHMEM */
