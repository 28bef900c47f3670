/* dist_plan.c: plan how the components of a triangular system are spread over PEs */
#include "internal.h"

#include <inttypes.h>
#include <string.h>

#define WHAT "domino_dist_plan_make"

/* Check everything but the matrix's index arrays (checked while counting):
 * handle, matrix, fill, npes and the options' fields. */
static domino_status check_arguments(domino_handle h, domino_matrix L, domino_fill fill, int npes,
                                     const domino_dist_options *opt)
{
    if (!domino_handle_ok(h))
        return domino_error(NULL, DOMINO_INVALID_OBJECT, WHAT ": h is not a live handle");
    domino_status s = domino_check_matrix(h, L, WHAT);
    if (s) return s;
    if (L->nrows != L->ncols)
        return domino_error(h, DOMINO_DIMENSION_MISMATCH, WHAT ": L is %d x %d, not square",
                            L->nrows, L->ncols);
    if (fill != DOMINO_LOWER && fill != DOMINO_UPPER)
        return domino_error(h, DOMINO_INVALID_VALUE, WHAT ": bad fill %d", (int)fill);
    if (npes < 1)
        return domino_error(h, DOMINO_INVALID_VALUE, WHAT ": npes = %d, must be >= 1", npes);
    if (opt->scheme != DOMINO_DIST_CONTIGUOUS && opt->scheme != DOMINO_DIST_TASKPOOL &&
        opt->scheme != DOMINO_DIST_LINKED && opt->scheme != DOMINO_DIST_AUTO)
        return domino_error(h, DOMINO_INVALID_VALUE, WHAT ": bad scheme %d", (int)opt->scheme);
    if (opt->tasks_per_pe < 1)
        return domino_error(h, DOMINO_INVALID_VALUE, WHAT ": tasks_per_pe = %d, must be >= 1",
                            opt->tasks_per_pe);
    if (opt->pull_lanes < 0 || opt->pull_lanes > 32 || (opt->pull_lanes & (opt->pull_lanes - 1)))
        return domino_error(h, DOMINO_INVALID_VALUE,
                            WHAT ": pull_lanes = %d, must be 0, 1, 2, 4, 8, 16 or 32", opt->pull_lanes);
    if (opt->task_size < 0)
        return domino_error(h, DOMINO_INVALID_VALUE, WHAT ": task_size = %d, must be >= 0",
                            (int)opt->task_size);
    int64_t total = 0;
    for (int p = 0; opt->weight && p < npes; p++) {
        if (opt->weight[p] <= 0)
            return domino_error(h, DOMINO_INVALID_VALUE, WHAT ": weight[%d] = %" PRId64
                                ", must be > 0", p, opt->weight[p]);
        /* the round-robin credits stay within [-2 total, 2 total] */
        if (opt->weight[p] > INT64_MAX / 4 - total)
            return domino_error(h, DOMINO_INVALID_VALUE, WHAT ": weights sum beyond %" PRId64
                                " at weight[%d]", INT64_MAX / 4, p);
        total += opt->weight[p];
    }
    for (int p = 0; opt->budget && p < npes; p++)
        if (opt->budget[p] < 0)
            return domino_error(h, DOMINO_INVALID_VALUE, WHAT ": budget[%d] = %" PRId64
                                ", must be >= 0", p, opt->budget[p]);
    return DOMINO_SUCCESS;
}

/* task_size and ntasks of P (n, npes set).  CONTIGUOUS: ceil(n / npes)
 * components per task, task t on PE t (PEs past the last task get none).
 * LINKED: a task per component.
 * TASKPOOL: tasks_per_pe * npes tasks wanted, each of max(1, ceil(n /
 * wanted)) components, or task_size components when that is > 0.  At least 1 even for n = 0 (then no task). */
static void size_tasks(domino_dist_plan *P, domino_dist_scheme scheme, int tasks_per_pe,
                       int32_t task_size)
{
    int64_t wanted = scheme == DOMINO_DIST_CONTIGUOUS ? (int64_t)P->npes
                                                      : (int64_t)tasks_per_pe * P->npes;
    int64_t size = ((int64_t)P->n + wanted - 1) / wanted;
    if (scheme == DOMINO_DIST_TASKPOOL && task_size > 0) size = task_size;
    if (scheme == DOMINO_DIST_LINKED) size = 1;
    P->task_size = (int32_t)(size < 1 ? 1 : size);
    P->ntasks = (int32_t)(((int64_t)P->n + P->task_size - 1) / P->task_size);
}

/* Deal the tasks of P to the PEs.  CONTIGUOUS: task t to PE t; weights are
 * ignored (equal blocks).  TASKPOOL: smooth weighted round-robin (as nginx's
 * upstream balancer): before each task every PE adds its weight to its
 * credit, the PE with the largest credit (lowest index on ties) takes the
 * task and gives back the total weight.  Equal weights give PE t % npes;
 * over any run of tasks a PE's share is within one task of weight/total.
 * LINKED: every task on PE 0 for now (dist_deal_linked deals them once the
 * levels are known).  credit: scratch of npes. */
static void deal_tasks(domino_dist_plan *P, const int64_t *weight, int64_t *credit)
{
    for (int p = 0; p < P->npes; p++) credit[p] = 0;
    int64_t total = 0;
    for (int p = 0; p < P->npes; p++) total += weight ? weight[p] : 1;
    for (int32_t t = 0; t < P->ntasks; t++) {
        if (P->scheme != DOMINO_DIST_TASKPOOL) { /* LINKED: all on PE 0 until dealt by links */
            P->task_pe[t] = P->scheme == DOMINO_DIST_CONTIGUOUS ? (int)t : 0;
            continue;
        }
        int best = 0;
        for (int p = 0; p < P->npes; p++) {
            credit[p] += weight ? weight[p] : 1;
            if (credit[p] > credit[best]) best = p;
        }
        credit[best] -= total;
        P->task_pe[t] = best;
    }
    for (int32_t t = 0; t < P->ntasks; t++) {
        int64_t first = (int64_t)t * P->task_size;
        int64_t size = P->n - first < P->task_size ? P->n - first : P->task_size;
        P->pe_tasks[P->task_pe[t]]++;
        P->pe_components[P->task_pe[t]] += (int32_t)size;
    }
}

/* count an entry of triangle `fill` at (row, col), whose row and column
 * live on PEs pe_row and pe_col: its column's PE holds it, and sends it
 * to another PE when the row lives there */
static inline void count_entry(domino_fill fill, int32_t row, int32_t col, int pe_row, int pe_col,
                               int64_t *nnz, int64_t *remote)
{
    if (fill == DOMINO_LOWER ? col > row : col < row) return;
    nnz[pe_col]++;
    remote[pe_col] += pe_row != pe_col;
}

/* what is wrong with slice p of L: 0 nothing; 1 its offsets (beyond nnz,
 * decreasing, negative); 2 the index at *at, outside [0, n) */
static int slice_problem(domino_matrix L, int32_t n, int32_t p, int64_t *at)
{
    int64_t k0 = L->ptr[p], k1 = L->ptr[p + 1];
    if (k0 < 0 || k1 < k0 || k1 > L->nnz) return 1;
    for (int64_t k = k0; k < k1; k++)
        if (L->ind[k] < 0 || L->ind[k] >= n) {
            *at = k;
            return 2;
        }
    return 0;
}

/* DOMINO_BAD_INPUT naming what is wrong with slice p of L (slice_problem) */
static domino_status report_bad_slice(domino_handle h, domino_matrix L, int32_t n, int32_t p)
{
    const char *slice = L->format == DOMINO_CSR ? "row" : "column";
    int64_t at = 0;
    if (slice_problem(L, n, p, &at) == 2)
        return domino_error(h, DOMINO_BAD_INPUT, WHAT ": index %d out of range [0, %d) in %s %d", L->ind[at],
                            n, slice, p);
    return domino_error(h, DOMINO_BAD_INPUT, WHAT ": bad offsets at %s %d", slice, p);
}

/* pe_nnz and pe_remote of P (zeroed first) from the stored entries of L in
 * triangle `fill` (an entry of a symmetric or skew-symmetric L stands for
 * itself and its mirror), on the PE's host threads (domino_host_threads).
 * With check, bad offsets or indices are DOMINO_BAD_INPUT naming the first
 * bad slice (every slice is checked, the smallest bad one reported). */
static domino_status count_entries(domino_handle h, domino_matrix L, domino_fill fill,
                                   domino_dist_plan *P, int check)
{
    int32_t n = P->n;
    int np = P->npes;
    int64_t *nnz = P->pe_nnz, *remote = P->pe_remote;
    memset(nnz, 0, (size_t)np * sizeof(int64_t));
    memset(remote, 0, (size_t)np * sizeof(int64_t));
    if (check && L->ptr[0] != 0)
        return domino_error(h, DOMINO_BAD_INPUT, WHAT ": ptr[0] = %" PRId64 ", not 0", L->ptr[0]);
    int csr = L->format == DOMINO_CSR, mirror = L->symmetry != DOMINO_GENERAL;
    const int *task_pe = P->task_pe;
    const int32_t task_size = P->task_size;
    const int64_t *ptr = L->ptr;
    const int32_t *ind = L->ind;
    int32_t first_bad = n;
#pragma omp parallel for num_threads(domino_host_threads(np)) schedule(dynamic, 4096) \
    reduction(+ : nnz[:np], remote[:np]) reduction(min : first_bad)
    for (int32_t p = 0; p < n; p++) {
        int64_t at;
        if (check && slice_problem(L, n, p, &at)) {
            if (p < first_bad) first_bad = p;
            continue;
        }
        int pe_p = task_pe[p / task_size];
        for (int64_t k = ptr[p]; k < ptr[p + 1]; k++) {
            int32_t q = ind[k], row = csr ? p : q, col = csr ? q : p;
            int pe_q = task_size == 1 ? task_pe[q] : task_pe[q / task_size];
            int pe_row = csr ? pe_p : pe_q, pe_col = csr ? pe_q : pe_p;
            count_entry(fill, row, col, pe_row, pe_col, nnz, remote);
            if (mirror && row != col) count_entry(fill, col, row, pe_col, pe_row, nnz, remote);
        }
    }
    return first_bad < n ? report_bad_slice(h, L, n, first_bad) : DOMINO_SUCCESS;
}

/* device bytes of each PE's share, the formula of domino.h: entries (value
 * + int32 row), column offsets (int64, components + 1), per component x, b
 * (values), an int32 in-degree and a double left sum, and the symmetric n
 * int32 in-degrees + n double left sums */
static void count_bytes(domino_dist_plan *P, int64_t value_bytes)
{
    for (int p = 0; p < P->npes; p++) {
        int64_t c = P->pe_components[p];
        P->pe_bytes[p] = P->pe_nnz[p] * (value_bytes + 4) + 8 * (c + 1) +
                         c * (2 * value_bytes + 4 + 8) + (int64_t)P->n * (4 + 8);
    }
}

/* DOMINO_OUT_OF_MEMORY naming the first PE whose share exceeds its budget */
static domino_status check_budget(domino_handle h, const domino_dist_plan *P,
                                  const int64_t *budget)
{
    for (int p = 0; budget && p < P->npes; p++)
        if (P->pe_bytes[p] > budget[p])
            return domino_error(h, DOMINO_OUT_OF_MEMORY,
                                WHAT ": PE %d needs %" PRId64 " bytes (%d components, %" PRId64
                                " entries) but its budget is %" PRId64
                                " bytes; use more PEs or a larger budget",
                                p, P->pe_bytes[p], P->pe_components[p], P->pe_nnz[p], budget[p]);
    return DOMINO_SUCCESS;
}

/* the level of every component into P->row_level: copied from given
 * (each in [0, n), else DOMINO_BAD_INPUT naming it), or computed (symmetric
 * storage expanded first) */
static domino_status plan_levels(domino_handle h, domino_matrix L, domino_fill fill, const int32_t *given,
                                 domino_dist_plan *P)
{
    domino_matrix E = NULL;
    domino_levels *lv = NULL;
    domino_status s = DOMINO_SUCCESS;
    P->row_level = domino_malloc((size_t)P->n * sizeof(int32_t) + 1);
    if (!P->row_level) return domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory for %d levels", P->n);
    if (given) {
        for (int32_t i = 0; i < P->n; i++)
            if (given[i] < 0 || given[i] >= P->n)
                return domino_error(h, DOMINO_BAD_INPUT, WHAT ": row_level[%d] = %d, outside [0, %d)", i,
                                    given[i], P->n);
        memcpy(P->row_level, given, (size_t)P->n * sizeof(int32_t));
        return DOMINO_SUCCESS;
    }
    if (L->symmetry != DOMINO_GENERAL) s = domino_matrix_symmetric_expand(h, L, &E);
    if (!s) s = domino_ref_levels(h, DOMINO_OP_N, fill, E ? E : L, &lv);
    if (!s) memcpy(P->row_level, lv->row_level, (size_t)P->n * sizeof(int32_t));
    domino_matrix_free(E);
    domino_levels_free(lv);
    return s;
}

/* the number of levels of the plan's row_level */
static int32_t count_levels(const domino_dist_plan *P)
{
    int32_t top = -1;
    for (int32_t i = 0; i < P->n; i++)
        if (P->row_level[i] > top) top = P->row_level[i];
    return top + 1;
}

/* pe_nnz and pe_remote of P counted again after a new deal (L checked by
 * the first count) */
static domino_status recount_entries(domino_handle h, domino_matrix L, domino_fill fill, domino_dist_plan *P)
{
    return count_entries(h, L, fill, P, 0);
}

/* level_tasks: P's tasks sized to the width of its nlevels levels and
 * dealt and counted again; L was checked by the first count.  credit: scratch */
static domino_status tie_tasks(domino_handle h, domino_matrix L, domino_fill fill,
                               const domino_dist_options *opt, int32_t nlevels, domino_dist_plan *P,
                               int64_t *credit)
{
    int32_t size = domino_dist_level_task_size(P->n, nlevels, P->npes, opt->tasks_per_pe, 64);
    if (size < 1 || size == P->task_size) return DOMINO_SUCCESS; /* n = 0, or the same pool */
    size_t np = (size_t)P->npes;
    size_tasks(P, DOMINO_DIST_TASKPOOL, opt->tasks_per_pe, size);
    domino_free(P->task_pe);
    P->task_pe = domino_calloc((size_t)P->ntasks, sizeof(int));
    if (!P->task_pe)
        return domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory (%d tasks)", P->ntasks);
    memset(P->pe_tasks, 0, np * sizeof(int32_t));
    memset(P->pe_components, 0, np * sizeof(int32_t));
    deal_tasks(P, opt->weight, credit);
    return recount_entries(h, L, fill, P);
}

/* LINKED: P's components dealt by their links (dist_deal_linked, the
 * nlevels levels known) and counted again; L was checked by the first count.
 * A plan without task_pe (AUTO's pool set aside) first gets a task per
 * component. */
static domino_status link_components(domino_handle h, domino_matrix L, domino_fill fill,
                                     const domino_dist_options *opt, int32_t nlevels, domino_dist_plan *P)
{
    if (!P->task_pe) {
        size_tasks(P, DOMINO_DIST_LINKED, opt->tasks_per_pe, 0);
        domino_free(P->task_pe);
        P->task_pe = domino_calloc((size_t)P->ntasks, sizeof(int));
        if (!P->task_pe)
            return domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory (%d tasks)", P->ntasks);
    }
    domino_status s = dist_deal_linked(h, WHAT, L, fill, opt->weight, nlevels, P);
    return s ? s : recount_entries(h, L, fill, P);
}

/* 1 where a level holds on average DOMINO_DIST_LINKED_PARALLELISM rows
 * or fewer: deep problems, whose chains kept on one GPU pay fewer NVLink
 * hops (AUTO then tries LINKED) */
static int levels_narrow(int32_t n, int32_t nlevels)
{
    return nlevels >= 1 && (int64_t)n <= (int64_t)nlevels * DOMINO_DIST_LINKED_PARALLELISM;
}

/* the entries sent across PEs by P's deal */
static int64_t remote_entries(const domino_dist_plan *P)
{
    int64_t r = 0;
    for (int p = 0; p < P->npes; p++) r += P->pe_remote[p];
    return r;
}

/* AUTO on narrow levels: P holds the task pool's deal; LINKED replaces it
 * where it sends fewer entries across PEs (the random DAGs and R-MAT: 14-
 * 24 % fewer on 4 PEs, bench/results/h200x4-linked) and every PE's share
 * fits its budget (LINKED follows the chains, not the bytes: on R-MAT 22
 * its largest PE holds 2.2x the mean entries on 4 PEs, the pool's 1.03x,
 * bench/results/dist-plan-linked); else the pool stays (the stencils,
 * whose level-tied pool keeps their planes together: on a 2D 5-point 256^2
 * grid 0.4 % of the entries cross PEs against LINKED's 25 %, `domino bench
 * --suite dist-plan`).  The pool's per-PE counts are kept aside while
 * LINKED is tried. */
static domino_status auto_link(domino_handle h, domino_matrix L, domino_fill fill,
                               const domino_dist_options *opt, int32_t nlevels, domino_dist_plan *P)
{
    int np = P->npes;
    int64_t *keep = domino_malloc(4 * (size_t)np * sizeof(int64_t));
    if (!keep) return domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory (%d PEs)", np);
    int *pool_pe = P->task_pe;
    int32_t pool_size = P->task_size, pool_tasks = P->ntasks;
    int64_t pool_remote = remote_entries(P);
    for (int p = 0; p < np; p++) {
        keep[p] = P->pe_tasks[p], keep[np + p] = P->pe_components[p];
        keep[2 * np + p] = P->pe_nnz[p], keep[3 * np + p] = P->pe_remote[p];
    }
    P->task_pe = NULL; /* link_components makes a task per component */
    domino_status s = link_components(h, L, fill, opt, nlevels, P);
    int fits = 1;
    if (!s) count_bytes(P, (int64_t)domino_type_size(L->type));
    for (int p = 0; !s && opt->budget && p < np; p++) fits &= P->pe_bytes[p] <= opt->budget[p];
    if (!s && fits && remote_entries(P) < pool_remote) {
        P->scheme = DOMINO_DIST_LINKED;
        domino_free(pool_pe);
    } else { /* the pool stays */
        domino_free(P->task_pe);
        P->task_pe = pool_pe, P->task_size = pool_size, P->ntasks = pool_tasks;
        for (int p = 0; p < np; p++) {
            P->pe_tasks[p] = (int32_t)keep[p], P->pe_components[p] = (int32_t)keep[np + p];
            P->pe_nnz[p] = keep[2 * np + p], P->pe_remote[p] = keep[3 * np + p];
        }
    }
    domino_free(keep);
    return s;
}

/* *plan = the distribution of the components of triangle `fill` of square L
 * (CSR or CSC, any type, other triangle ignored) over npes PEs with the
 * scheme, tasks, weights and budgets of opt (NULL: defaults); see domino.h.
 * Each PE's entries, remote entries and bytes are counted; a PE over its
 * budget fails with DOMINO_OUT_OF_MEMORY.  *plan is NULL after a failure. */
domino_status domino_dist_plan_make(domino_handle h, domino_matrix L, domino_fill fill, int npes,
                                    const domino_dist_options *opt, domino_dist_plan **plan)
{
    if (!plan) return domino_error(h, DOMINO_NULL_POINTER, WHAT ": plan is NULL");
    *plan = NULL;
    domino_dist_options defaults;
    domino_dist_options_init(&defaults);
    if (!opt) opt = &defaults;
    domino_status s = check_arguments(h, L, fill, npes, opt);
    if (s) return s;
    int64_t *credit = NULL;
    domino_dist_plan *P = domino_calloc(1, sizeof(domino_dist_plan));
    if (!P) return domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory");
    P->n = L->nrows;
    P->npes = npes;
    int automatic = opt->scheme == DOMINO_DIST_AUTO; /* TASKPOOL until the levels are known */
    P->scheme = automatic ? DOMINO_DIST_TASKPOOL : opt->scheme;
    P->level_order = opt->level_order != 0;
    P->pull_lanes = opt->pull_lanes ? opt->pull_lanes : 32; /* 0: from the levels, below */
    P->pull_copies = opt->pull_copies != 0;
    size_tasks(P, P->scheme, opt->tasks_per_pe, opt->task_size);
    size_t np = (size_t)npes;
    P->task_pe = domino_calloc((size_t)P->ntasks, sizeof(int));
    P->pe_tasks = domino_calloc(np, sizeof(int32_t));
    P->pe_components = domino_calloc(np, sizeof(int32_t));
    P->pe_nnz = domino_calloc(np, sizeof(int64_t));
    P->pe_bytes = domino_calloc(np, sizeof(int64_t));
    P->pe_remote = domino_calloc(np, sizeof(int64_t));
    credit = domino_calloc(np, sizeof(int64_t));
    if (!P->task_pe || !P->pe_tasks || !P->pe_components || !P->pe_nnz || !P->pe_bytes ||
        !P->pe_remote || !credit) {
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory (%d tasks, %d PEs)",
                         P->ntasks, npes);
        goto cleanup;
    }
    deal_tasks(P, opt->weight, credit);
    s = count_entries(h, L, fill, P, 1);
    if (s) goto cleanup;
    /* AUTO, level_tasks and LINKED deal again once the levels are known; the
     * budget is checked on the final deal */
    int tie = opt->level_tasks && P->scheme == DOMINO_DIST_TASKPOOL && opt->task_size == 0;
    if (P->level_order || tie || automatic || P->scheme == DOMINO_DIST_LINKED)
        s = plan_levels(h, L, fill, opt->row_level, P);
    int32_t nlevels = !s && P->row_level ? count_levels(P) : 0;
    if (!s && P->scheme == DOMINO_DIST_LINKED) s = link_components(h, L, fill, opt, nlevels, P);
    if (!s && tie) s = tie_tasks(h, L, fill, opt, nlevels, P, credit);
    if (!s && automatic && opt->task_size == 0 && levels_narrow(P->n, nlevels))
        s = auto_link(h, L, fill, opt, nlevels, P);
    if (!P->level_order && !tie && P->scheme != DOMINO_DIST_LINKED) { /* AUTO's levels, not kept */
        domino_free(P->row_level);
        P->row_level = NULL;
    }
    if (!s) {
        count_bytes(P, (int64_t)domino_type_size(L->type));
        s = check_budget(h, P, opt->budget);
    }
    if (!s && P->level_order && !opt->pull_lanes)
        P->pull_lanes = domino_dist_pull_lanes(P->n, nlevels, P->npes);
cleanup:
    domino_free(credit);
    if (s)
        domino_dist_plan_free(P);
    else
        *plan = P;
    return s;
}
