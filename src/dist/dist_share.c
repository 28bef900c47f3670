/* dist_share.c: build one PE's share of a distributed triangular solve */
#include "dist/dist_share.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

void dist_share_free(dist_share *S)
{
    if (!S) return;
    domino_free(S->comp);
    domino_free(S->col_ptr);
    domino_free(S->col_row);
    domino_free(S->col_val);
    domino_free(S->pivot);
    domino_free(S->need);
    domino_free(S->readers);
    domino_free(S);
}

/* the walk over A's stored entries as (row, col, value) of the triangle
 * `fill`: entries of the other triangle skipped, a symmetric entry standing
 * for its mirror too */
typedef struct share_walk {
    domino_matrix A;      /* the matrix */
    int lower;            /* 1: lower triangle */
    const domino_dist_plan *plan;
    int pe;               /* this PE */
    const int32_t *loc;   /* local index of each component of this PE, else -1 */
} share_walk;

/* 1 if (r, c) lies strictly inside the triangle */
static int strict(const share_walk *w, int32_t r, int32_t c)
{
    return w->lower ? r > c : r < c;
}

/* entry (index, v) of local component k's list: pass 0 counts it (and in
 * *remote when far: the other end is another PE's), pass 1 stores it in
 * the next free slot (atomic: threads share lists) */
static void place(dist_share *S, int pass, int64_t *next, int32_t k, int32_t index, double v, int far,
                  int64_t *remote)
{
    if (pass == 0) {
#pragma omp atomic
        S->col_ptr[k + 1]++;
        if (far) (*remote)++;
        return;
    }
    int64_t at;
#pragma omp atomic capture
    at = next[k]++;
    S->col_row[at] = index;
    S->col_val[at] = v;
}

/* pass 0: count column entries and needs; pass 1: fill the columns.  Runs
 * on OpenMP threads: counts are atomic, a column's slots taken with an
 * atomic capture (the order of a column's entries is not fixed); a
 * component's pivot comes from its own row or column of A, visited by one
 * thread.  *remote: this thread's count of entries sent away. */
static void visit(const share_walk *w, dist_share *S, dist_count_mode mode, int pass, int64_t *next,
                  int32_t r, int32_t c, double v, int64_t *remote)
{
    if (r == c) {
        if (pass == 0 && w->loc[r] >= 0) S->pivot[w->loc[r]] += v;
        return;
    }
    if (!strict(w, r, c)) return;
    int qc = domino_dist_pe_of(w->plan, c), qr = domino_dist_pe_of(w->plan, r);
    if (mode == DIST_PULL_ROWS) { /* the row of component r reads x_c */
        if (qr == w->pe) {
            place(S, pass, next, w->loc[r], c, v, qc != w->pe, remote);
        } else if (pass == 0 && qc == w->pe && S->readers) { /* another PE's row reads x_c */
            uint32_t bit = 1u << (unsigned)qr;
#pragma omp atomic
            S->readers[w->loc[c]] |= bit;
        }
        return;
    }
    if (qc == w->pe) place(S, pass, next, w->loc[c], r, v, qr != w->pe, remote); /* column c adds into r */
    if (pass == 0 && qr == w->pe) {
        int src = mode == DIST_COUNT_PER_PE ? qc : mode == DIST_COUNT_ONE ? 0 : (qc == w->pe ? 0 : 1);
#pragma omp atomic
        S->need[(size_t)src * S->nloc + w->loc[r]]++;
    }
}

/* one pass over every stored entry */
static void walk(const share_walk *w, dist_share *S, dist_count_mode mode, int pass, int64_t *next)
{
    domino_matrix A = w->A;
    int csr = A->format == DOMINO_CSR;
    int32_t nptr = domino_matrix_nptr(A);
    double sign = A->symmetry == DOMINO_SKEW_SYMMETRIC ? -1.0 : 1.0;
    int64_t remote = 0;
    int threads = domino_host_threads(S->npes); /* PEs started together on one node share its cores */
#pragma omp parallel for num_threads(threads) schedule(dynamic, 4096) reduction(+ : remote)
    for (int32_t a = 0; a < nptr; a++)
        for (int64_t k = A->ptr[a]; k < A->ptr[a + 1]; k++) {
            int32_t r = csr ? a : A->ind[k], c = csr ? A->ind[k] : a;
            double v = domino_matrix_value(A, k);
            visit(w, S, mode, pass, next, r, c, v, &remote);
            if (A->symmetry != DOMINO_GENERAL && r != c) visit(w, S, mode, pass, next, c, r, sign * v, &remote);
        }
    S->remote += remote;
}

/* the components of pe in solve order and their local indices */
static void list_components(const domino_dist_plan *plan, int pe, int lower, dist_share *S, int32_t *loc)
{
    int32_t k = 0;
    for (int32_t i = 0; i < plan->n; i++) loc[i] = -1;
    for (int32_t t = 0; t < plan->ntasks; t++) {
        if (plan->task_pe[t] != pe) continue;
        int64_t end = (int64_t)(t + 1) * plan->task_size;
        for (int32_t i = t * plan->task_size; i < plan->n && i < end; i++) S->comp[k++] = i;
    }
    if (!lower) /* the upper solve runs backwards */
        for (int32_t a = 0, b = k - 1; a < b; a++, b--) {
            int32_t t = S->comp[a];
            S->comp[a] = S->comp[b];
            S->comp[b] = t;
        }
    for (int32_t j = 0; j < k; j++) loc[S->comp[j]] = j;
}

/* reorder the components of S level by level (levels of the plan; stable:
 * index order, or its reverse for upper, within a level) and renumber loc */
static domino_status order_by_level(domino_handle h, const char *what, const int32_t *level, dist_share *S,
                                    int32_t *loc)
{
    int32_t top = 0;
    for (int32_t k = 0; k < S->nloc; k++)
        if (level[S->comp[k]] > top) top = level[S->comp[k]];
    int32_t *count = domino_calloc((size_t)top + 2, sizeof(int32_t));
    int32_t *sorted = domino_malloc((size_t)S->nloc * sizeof(int32_t) + 1);
    if (!count || !sorted) {
        domino_free(count);
        domino_free(sorted);
        return domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: PE %d: out of host memory for the level order",
                            what, S->pe);
    }
    for (int32_t k = 0; k < S->nloc; k++) count[level[S->comp[k]] + 1]++;
    for (int32_t l = 0; l <= top; l++) count[l + 1] += count[l];
    for (int32_t k = 0; k < S->nloc; k++) sorted[count[level[S->comp[k]]]++] = S->comp[k];
    for (int32_t k = 0; k < S->nloc; k++) {
        S->comp[k] = sorted[k];
        loc[sorted[k]] = k;
    }
    domino_free(count);
    domino_free(sorted);
    return DOMINO_SUCCESS;
}

domino_status dist_share_make(domino_handle h, const char *what, domino_matrix A, domino_fill fill,
                              domino_diag diag, const domino_dist_plan *plan, int pe,
                              dist_count_mode mode, dist_share **out)
{
    domino_status s = DOMINO_SUCCESS;
    int32_t *loc = NULL;
    int64_t *next = NULL;
    dist_share *S = NULL;
    *out = NULL;
    if ((s = domino_check_matrix(h, A, what))) return s;
    if (!plan) return domino_error(h, DOMINO_NULL_POINTER, "%s: plan is NULL", what);
    if (A->nrows != A->ncols || plan->n != A->nrows)
        return domino_error(h, DOMINO_DIMENSION_MISMATCH, "%s: A is %d x %d, the plan has %d components",
                            what, A->nrows, A->ncols, plan->n);
    if (pe < 0 || pe >= plan->npes)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: PE %d is not in the plan's 0..%d", what, pe,
                            plan->npes - 1);
    if (fill != DOMINO_LOWER && fill != DOMINO_UPPER)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: bad fill %d", what, (int)fill);
    if (diag != DOMINO_NON_UNIT && diag != DOMINO_UNIT)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: bad diag %d", what, (int)diag);
    if (plan->level_order && !plan->row_level)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: the plan asks for the level order but has no levels", what);
    int copies = mode == DIST_PULL_ROWS && plan->pull_copies; /* readers wanted */
    if (copies && plan->npes > 32) /* readers: a bit per PE */
        return domino_error(h, DOMINO_NOT_SUPPORTED, "%s: %d PEs, at most 32", what, plan->npes);
    int32_t n = A->nrows;
    S = domino_calloc(1, sizeof(*S));
    if (!S) goto oom;
    S->pe = pe;
    S->npes = plan->npes;
    S->n = n;
    S->nloc = plan->pe_components[pe];
    S->nsrc = mode == DIST_COUNT_PER_PE ? plan->npes : mode == DIST_COUNT_ONE ? 1 : mode == DIST_PULL_ROWS ? 0 : 2;
    size_t nloc = (size_t)S->nloc;
    loc = domino_malloc((size_t)n * sizeof(int32_t) + 1);
    S->comp = domino_malloc(nloc * sizeof(int32_t) + 1);
    S->col_ptr = domino_calloc(nloc + 1, sizeof(int64_t));
    S->pivot = domino_calloc(nloc + 1, sizeof(double));
    S->need = domino_calloc((size_t)S->nsrc * nloc + 1, sizeof(int32_t));
    if (copies) S->readers = domino_calloc(nloc + 1, sizeof(uint32_t));
    if (!loc || !S->comp || !S->col_ptr || !S->pivot || !S->need || (copies && !S->readers))
        goto oom;
    share_walk w = {A, fill == DOMINO_LOWER, plan, pe, loc};
    list_components(plan, pe, w.lower, S, loc);
    if (plan->level_order && (s = order_by_level(h, what, plan->row_level, S, loc))) goto cleanup;
    walk(&w, S, mode, 0, NULL);
    for (size_t k = 0; k < nloc; k++) S->col_ptr[k + 1] += S->col_ptr[k];
    S->nnz = S->col_ptr[nloc];
    next = domino_malloc(nloc * sizeof(int64_t) + 1);
    S->col_row = domino_malloc((size_t)S->nnz * sizeof(int32_t) + 1);
    S->col_val = domino_malloc((size_t)S->nnz * sizeof(double) + 1);
    if (!next || !S->col_row || !S->col_val) goto oom;
    memcpy(next, S->col_ptr, nloc * sizeof(int64_t));
    walk(&w, S, mode, 1, next);
    for (size_t k = 0; k < nloc; k++) {
        if (diag == DOMINO_UNIT) {
            S->pivot[k] = 1.0;
        } else if (S->pivot[k] == 0.0) {
            /* stored and zero, or not stored: tell which */
            int32_t i = S->comp[k], stored = 0;
            for (int64_t e = A->ptr[i]; e < A->ptr[i + 1]; e++) stored |= A->ind[e] == i;
            s = domino_error(h, stored ? DOMINO_ZERO_PIVOT : DOMINO_ZERO_DIAGONAL,
                             stored ? "%s: zero pivot at row %d" : "%s: row %d has no diagonal entry",
                             what, i);
            goto cleanup;
        }
    }
    *out = S;
    S = NULL;
    goto cleanup;
oom:
    s = domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: PE %d: out of host memory for its share", what, pe);
cleanup:
    domino_free(loc);
    domino_free(next);
    dist_share_free(S);
    return s;
}
