/* trsv_trace.c: domino_trsv_trace, one solve of a thread-engine plan that
 * records when each row was published (diagnostics of the hop costs) */
#include "trsv_plan.h"

domino_status domino_trsv_trace(domino_handle h, domino_trsv_plan p, const void *B, void *X,
                                int64_t *ns)
{
    const char *fn = "domino_trsv_trace";
    if (!p || !B || !X || !ns) return domino_error(h, DOMINO_NULL_POINTER, "%s: NULL argument", fn);
    if (p->magic != DOMINO_PLAN_MAGIC) return domino_error(h, DOMINO_INVALID_OBJECT, "%s: plan is not live", fn);
    if (p->engine != DOMINO_ENGINE_THREAD || p->nrhs != 1)
        return domino_error(h, DOMINO_NOT_SUPPORTED,
                            "%s: traces the thread engine with one right-hand side (plan: %s, nrhs %d)",
                            fn, domino_engine_name(p->engine), p->nrhs);
    struct domino_gpu_context *gpu;
    domino_status s = domino_gpu_context_get(h, &gpu);
    if (s) return s;
    uint64_t *d_trace = NULL;
    size_t bytes = (size_t)(p->n > 0 ? p->n : 1) * sizeof(uint64_t);
    cudaError_t e = cudaMalloc((void **)&d_trace, bytes);
    if (!e) e = cudaMemsetAsync(d_trace, 0, bytes, gpu->stream); /* 0: not published (timed out) */
    if (e) {
        cudaFree(d_trace);
        return domino_cuda_status(h, e, fn);
    }
    s = domino_trsv_solve_traced(h, p, B, p->n, X, p->n, 0, d_trace);
    if (!s) {
        e = cudaMemcpyAsync(ns, d_trace, (size_t)p->n * sizeof(uint64_t), cudaMemcpyDeviceToHost,
                            gpu->stream);
        if (!e) e = cudaStreamSynchronize(gpu->stream);
        if (e) s = domino_cuda_status(h, e, fn);
    }
    cudaFree(d_trace);
    if (s) return s;
    int64_t first = INT64_MAX;
    for (int32_t i = 0; i < p->n; i++)
        if (ns[i] > 0 && ns[i] < first) first = ns[i];
    for (int32_t i = 0; i < p->n; i++) ns[i] = ns[i] > 0 ? ns[i] - first : -1;
    return DOMINO_SUCCESS;
}
