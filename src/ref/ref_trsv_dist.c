/* ref_trsv_dist.c: CPU model of the multi-PE zero-copy triangular solve
 * (Xie et al., ICPP 2021, Algorithm 3), one POSIX thread per PE: the
 * protocol and the distribution of domino_dist_plan_make checked where
 * every step can be watched, the oracle of the NVSHMEM solver */
#define _POSIX_C_SOURCE 200809L /* sched_yield */
#include "ref_internal.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>

/* what the PEs share; a PE writes only its own row of s_in / s_sum and its
 * own components' entries of l_sum (read-only communication).  A PE needs no
 * count of its own contributions (the device-local in-degree of the GPU
 * solver): it solves its components in order, so they are complete. */
typedef struct dist_model {
    domino_matrix C;           /* CSC of A: column j of the triangle is component j's */
    ref_walk w;                /* lower/upper of the triangle */
    const domino_dist_plan *plan; /* owner of each component */
    const void *b;             /* right-hand side, C's type */
    const double *pivot;       /* diagonal (1 for unit) */
    double *x;                 /* solution, written by the owner */
    int32_t *need;             /* npes x n: entries of row i whose column PE q owns */
    double *l_sum;             /* n: contributions from a component's own PE */
    _Atomic int32_t *s_in;     /* npes x n: PE q's finished contributions to row i */
    double *s_sum;             /* npes x n: their sum, final once s_in reaches need */
    _Atomic int gate;          /* 0 until every PE thread runs, then 1 (go) or -1 (give up) */
} dist_model;

/* the job of one thread */
typedef struct pe_job {
    dist_model *m; /* shared model */
    int pe;        /* this PE */
} pe_job;

/* 1 if entry (row, col) of the CSC lies strictly inside the triangle */
static int strict_entry(ref_walk w, int32_t row, int32_t col)
{
    return row != col && (w.lower ? row > col : row < col);
}

/* wait until PE q's share of row i is complete (acquire), then return its sum */
static double remote_share(const dist_model *m, int q, int32_t i)
{
    int32_t n = m->C->nrows;
    size_t at = (size_t)q * n + i;
    unsigned spins = 0;
    while (atomic_load_explicit(&m->s_in[at], memory_order_acquire) < m->need[at])
        if (++spins % 64 == 0) sched_yield();
    return m->s_sum[at];
}

/* one PE: its components in solve order; each waits for the other PEs'
 * shares of its row, is solved, then pushes its column's contributions to
 * l_* (own components) or its own s_* row (components of other PEs) */
static void *pe_main(void *arg)
{
    pe_job *job = arg;
    dist_model *m = job->m;
    domino_matrix C = m->C;
    int32_t n = C->nrows;
    int p = job->pe, npes = m->plan->npes, go;
    while ((go = atomic_load_explicit(&m->gate, memory_order_acquire)) == 0) sched_yield();
    if (go < 0) return NULL;
    for (int32_t t = 0; t < n; t++) {
        int32_t i = ref_walk_step(m->w, t, n);
        if (domino_dist_pe_of(m->plan, i) != p) continue;
        double acc = ref_get(m->b, C->type, i) - m->l_sum[i];
        for (int q = 0; q < npes; q++)
            if (q != p) acc -= remote_share(m, q, i);
        /* the own PE's earlier components already pushed theirs (solve order) */
        double xi = acc / m->pivot[i];
        m->x[i] = xi;
        for (int64_t k = C->ptr[i]; k < C->ptr[i + 1]; k++) {
            int32_t r = C->ind[k];
            if (!strict_entry(m->w, r, i)) continue;
            double v = domino_matrix_value(C, k) * xi;
            if (domino_dist_pe_of(m->plan, r) == p) {
                m->l_sum[r] += v;
            } else {
                size_t at = (size_t)p * n + r;
                m->s_sum[at] += v;
                atomic_store_explicit(&m->s_in[at],
                                      atomic_load_explicit(&m->s_in[at], memory_order_relaxed) + 1,
                                      memory_order_release);
            }
        }
    }
    return NULL;
}

/* need[q][i] for every row i: its strict entries in columns PE q owns */
static void count_shares(dist_model *m)
{
    domino_matrix C = m->C;
    int32_t n = C->nrows;
    for (int32_t j = 0; j < n; j++) {
        int q = domino_dist_pe_of(m->plan, j);
        for (int64_t k = C->ptr[j]; k < C->ptr[j + 1]; k++)
            if (strict_entry(m->w, C->ind[k], j)) m->need[(size_t)q * n + C->ind[k]]++;
    }
}

/* run the PEs, one thread each; DOMINO_OUT_OF_MEMORY if threads cannot start */
static domino_status run_pes(domino_handle h, const char *what, dist_model *m)
{
    int npes = m->plan->npes, started = 0;
    pthread_t *threads = domino_malloc((size_t)npes * sizeof(pthread_t));
    pe_job *jobs = domino_malloc((size_t)npes * sizeof(pe_job));
    domino_status s = DOMINO_SUCCESS;
    if (!threads || !jobs) {
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory for %d PEs", what, npes);
        goto cleanup;
    }
    for (; started < npes; started++) {
        jobs[started].m = m;
        jobs[started].pe = started;
        if (pthread_create(&threads[started], NULL, pe_main, &jobs[started]) != 0) break;
    }
    /* nobody works before every PE runs: a missing PE would leave the others waiting */
    atomic_store_explicit(&m->gate, started == npes ? 1 : -1, memory_order_release);
    if (started < npes)
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: could start only %d of %d PE threads", what,
                         started, npes);
    for (int p = 0; p < started; p++) pthread_join(threads[p], NULL);
cleanup:
    domino_free(threads);
    domino_free(jobs);
    return s;
}

domino_status domino_ref_trsv_dist(domino_handle h, domino_fill fill, domino_diag diag,
                                   domino_matrix A, const domino_dist_plan *plan, const void *b,
                                   void *x)
{
    const char *what = "domino_ref_trsv_dist";
    dist_model m;
    memset(&m, 0, sizeof(m));
    domino_status s = domino_ref_check_triangle(h, what, DOMINO_OP_N, fill, diag, A);
    if (s) return s;
    int32_t n = A->nrows;
    if (!plan) return domino_error(h, DOMINO_NULL_POINTER, "%s: plan is NULL", what);
    if (plan->n != n)
        return domino_error(h, DOMINO_DIMENSION_MISMATCH, "%s: the plan has %d components, A %d rows",
                            what, plan->n, n);
    if (n > 0 && (!b || !x))
        return domino_error(h, DOMINO_NULL_POINTER, "%s: %s is NULL", what, !b ? "b" : "x");
    size_t cells = (size_t)plan->npes * (size_t)n;
    double *pivot = domino_malloc((size_t)n * sizeof(double) + 1);
    m.x = domino_malloc((size_t)n * sizeof(double) + 1);
    m.l_sum = domino_calloc((size_t)n + 1, sizeof(double));
    m.need = domino_calloc(cells + 1, sizeof(int32_t));
    m.s_sum = domino_calloc(cells + 1, sizeof(double));
    m.s_in = domino_malloc((cells + 1) * sizeof(_Atomic int32_t));
    if (!pivot || !m.x || !m.l_sum || !m.need || !m.s_sum || !m.s_in) {
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory (n = %d, %d PEs)", what, n,
                         plan->npes);
        goto cleanup;
    }
    if ((s = domino_ref_pivots(h, what, diag, A, pivot))) goto cleanup;
    if (A->format == DOMINO_CSC) m.C = A;
    else if ((s = domino_matrix_convert(h, A, DOMINO_CSC, &m.C))) goto cleanup;
    for (size_t c = 0; c < cells; c++) atomic_init(&m.s_in[c], 0);
    atomic_init(&m.gate, 0);
    m.w = ref_walk_of(DOMINO_CSC, DOMINO_OP_N, fill);
    m.plan = plan;
    m.b = b;
    m.pivot = pivot;
    count_shares(&m);
    if ((s = run_pes(h, what, &m))) goto cleanup;
    for (int32_t i = 0; i < n; i++) ref_set(x, A->type, i, m.x[i]);
cleanup:
    if (m.C != A) domino_matrix_free(m.C);
    domino_free(pivot);
    domino_free(m.x);
    domino_free(m.l_sum);
    domino_free(m.need);
    domino_free(m.s_sum);
    domino_free((void *)m.s_in);
    return s;
}
