/* bench_spmv.c: the "spmv" row of domino bench: cusparseSpMV of the
 * triangle (domino_gpu_spmv), the dependency-free reference of a solve of
 * the same pattern.  Not a solve: X receives T B, which run_engine checks
 * against the CPU product. */
#include "bench_engines.h"
#include "internal.h"

#include <stdio.h>
#include <string.h>

domino_status spmv_run(domino_handle h, const bench_engine *e, solve_problem *p, int repeat, void *X,
                       engine_timing *t)
{
    domino_matrix_view v;
    domino_spmv_plan plan = NULL;
    void *dB = NULL, *dY = NULL;
    double *times = NULL;
    int runs = repeat > 0 ? repeat : 1;
    domino_status s;
    (void)e;
    memset(t, 0, sizeof(*t));
    snprintf(t->used, sizeof(t->used), "spmv");
    if (p->op != DOMINO_OP_N || p->nrhs != 1)
        return domino_error(h, DOMINO_NOT_SUPPORTED, "bench spmv: one right-hand side, op N only");
    if ((s = domino_matrix_get_view(h, p->T, &v))) return s;
    size_t bytes = (size_t)p->n * domino_type_size(v.type);
    if (!(times = domino_malloc((size_t)runs * sizeof(double))))
        return domino_error(h, DOMINO_OUT_OF_MEMORY, "bench spmv: out of memory");
    if (!p->dT && (s = domino_dmatrix_upload(h, p->T, &p->dT))) goto cleanup;
    if ((s = domino_gpu_malloc(h, bytes, &dB)) || (s = domino_gpu_malloc(h, bytes, &dY)) ||
        (s = domino_gpu_upload(h, dB, p->B, bytes)))
        goto cleanup;
    double start = domino_wtime();
    if ((s = domino_gpu_spmv_plan(h, p->dT, dB, dY, &plan))) goto cleanup;
    t->analysis_ms = 1e3 * (domino_wtime() - start);
    /* the first product timed as the first solve is, then one more untimed */
    if ((s = domino_gpu_timer_begin(h)) || (s = domino_gpu_spmv_run(h, plan)) ||
        (s = domino_gpu_timer_end(h, &t->first_ms)) || (s = domino_gpu_spmv_run(h, plan)) ||
        (s = domino_gpu_synchronize(h)))
        goto cleanup;
    for (int r = 0; r < runs; r++)
        if ((s = domino_gpu_timer_begin(h)) || (s = domino_gpu_spmv_run(h, plan)) ||
            (s = domino_gpu_timer_end(h, &times[r])))
            goto cleanup;
    t->solve_ms_min = times[0];
    t->solve_ms = bench_median(times, runs);
    s = domino_gpu_download(h, X, dY, bytes);
cleanup:
    domino_gpu_spmv_plan_free(plan);
    domino_gpu_free(dB);
    domino_gpu_free(dY);
    domino_free(times);
    return s;
}
