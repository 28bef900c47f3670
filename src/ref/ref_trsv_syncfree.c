/* ref_trsv_syncfree.c: synchronization-free parallel triangular solve on CPU threads */
#define _POSIX_C_SOURCE 200809L /* sched_yield */
#include "ref_internal.h"

#include <omp.h>
#include <sched.h>
#include <stdatomic.h>

/* R = the CSR form of CSC matrix A (same values and type), one counting pass */
static domino_status csc_to_csr(domino_handle h, const char *what, domino_matrix A,
                                domino_matrix *R)
{
    int32_t n = A->nrows;
    domino_status s = domino_matrix_new(h, DOMINO_CSR, A->type, n, A->ncols, A->nnz, R);
    if (s) return s;
    domino_matrix M = *R;
    int64_t *next = domino_malloc(((size_t)n + 1) * sizeof(int64_t));
    if (!next) {
        domino_matrix_free(M);
        *R = NULL;
        return domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory (n = %d)", what, n);
    }
    for (int64_t k = 0; k < A->nnz; k++)
        M->ptr[A->ind[k] + 1]++;
    for (int32_t i = 0; i < n; i++)
        M->ptr[i + 1] += M->ptr[i];
    for (int32_t i = 0; i <= n; i++)
        next[i] = M->ptr[i];
    for (int32_t col = 0; col < A->ncols; col++) {
        for (int64_t k = A->ptr[col]; k < A->ptr[col + 1]; k++) {
            int64_t dst = next[A->ind[k]]++;
            M->ind[dst] = col;
            domino_matrix_set_value(M, dst, domino_matrix_value(A, k));
        }
    }
    domino_free(next);
    return DOMINO_SUCCESS;
}

/* spin until row j is published; yield now and then so that more threads
 * than cores still make progress */
static void wait_for_row(const _Atomic int *row_ready)
{
    unsigned spins = 0;
    while (!atomic_load_explicit(row_ready, memory_order_acquire)) {
        if (++spins % 256 == 0) sched_yield();
    }
}

#define SYNCFREE_CHUNK 64 /* rows per ticket: one atomic per 64 rows, not per row */

/* The parallel solve of CSR matrix L (dot form, op N).  Chunks of
 * SYNCFREE_CHUNK rows are handed out in solve order from a shared ticket
 * counter and solved in order by the thread that took them, so every row a
 * thread waits for was already taken by a running thread: no deadlock.  Each row sums in
 * stored order then divides, exactly like domino_ref_trsv.
 * After Liu et al., "A synchronization-free algorithm for parallel sparse
 * triangular solves", Euro-Par 2016, Sec. 3 (here on CPU threads). */
static void solve_rows(domino_matrix L, ref_walk w, const void *b, const double *pivot, double *x,
                       _Atomic int *row_ready, int nthreads)
{
    int32_t n = L->nrows;
    _Atomic int32_t ticket;
    atomic_init(&ticket, 0);
#pragma omp parallel num_threads(nthreads)
    {
        for (;;) {
            int32_t first =
                atomic_fetch_add_explicit(&ticket, SYNCFREE_CHUNK, memory_order_relaxed);
            if (first >= n) break;
            int32_t last = n - first > SYNCFREE_CHUNK ? first + SYNCFREE_CHUNK : n;
            for (int32_t t = first; t < last; t++) {
                int32_t i = ref_walk_step(w, t, n);
                double acc = ref_get(b, L->type, i);
                for (int64_t k = L->ptr[i]; k < L->ptr[i + 1]; k++) {
                    int32_t j = L->ind[k];
                    if (j == i || !ref_walk_in_triangle(w, i, j)) continue;
                    wait_for_row(&row_ready[j]);
                    acc -= domino_matrix_value(L, k) * x[j];
                }
                x[i] = acc / pivot[i];
                atomic_store_explicit(&row_ready[i], 1, memory_order_release);
            }
        }
    }
}

/* Solve T x = b (op N, one right-hand side) for T the fill triangle of A
 * (CSR, or CSC converted to CSR first) with nthreads OpenMP threads
 * (0: the OpenMP default), each row waiting only for the rows it reads.
 * Same result, errors and messages as domino_ref_trsv; x may equal b. */
domino_status domino_ref_trsv_syncfree(domino_handle h, domino_fill fill, domino_diag diag,
                                       domino_matrix A, const void *b, void *x, int nthreads)
{
    const char *what = "domino_ref_trsv_syncfree";
    domino_status s = domino_ref_check_triangle(h, what, DOMINO_OP_N, fill, diag, A);
    if (s) return s;
    int32_t n = A->nrows;
    if (n > 0 && (!b || !x))
        return domino_error(h, DOMINO_NULL_POINTER, "%s: %s is NULL", what, !b ? "b" : "x");
    if (nthreads < 0)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: nthreads = %d < 0", what, nthreads);
    if (nthreads == 0) nthreads = omp_get_max_threads();
    domino_matrix csr = NULL;
    double *pivot = domino_malloc((size_t)n * sizeof(double));
    double *xwork = domino_malloc((size_t)n * sizeof(double));
    _Atomic int *row_ready = domino_malloc((size_t)n * sizeof(_Atomic int));
    if (!pivot || !xwork || !row_ready) {
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory (n = %d)", what, n);
        goto cleanup;
    }
    s = domino_ref_pivots(h, what, diag, A, pivot);
    if (s) goto cleanup;
    if (A->format == DOMINO_CSC) {
        s = csc_to_csr(h, what, A, &csr);
        if (s) goto cleanup;
    }
    for (int32_t i = 0; i < n; i++)
        atomic_init(&row_ready[i], 0);
    ref_walk w = ref_walk_of(DOMINO_CSR, DOMINO_OP_N, fill);
    solve_rows(csr ? csr : A, w, b, pivot, xwork, row_ready, nthreads);
    for (int32_t i = 0; i < n; i++)
        ref_set(x, A->type, i, xwork[i]);
cleanup:
    domino_matrix_free(csr);
    domino_free(pivot);
    domino_free(xwork);
    domino_free((void *)row_ready);
    return s;
}
