/* trsv_trace.c: domino_trsv_trace, one solve of a thread-engine plan that
 * records when each row was published (diagnostics of the hop costs) */
#include "trsv_plan.h"

domino_status domino_trsv_trace(domino_handle h, domino_trsv_plan p, const void *B, void *X,
                                int64_t *ns, int64_t *start_ns)
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
    uint64_t *d_trace = NULL, *both = NULL; /* publish times, then start times */
    size_t bytes = 2 * (size_t)(p->n > 0 ? p->n : 1) * sizeof(uint64_t);
    if (!(both = domino_malloc(bytes))) return domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory", fn);
    cudaError_t e = cudaMalloc((void **)&d_trace, bytes);
    if (!e) e = cudaMemsetAsync(d_trace, 0, bytes, gpu->stream); /* 0: not recorded */
    if (e) s = domino_cuda_status(h, e, fn);
    if (!s) s = domino_trsv_solve_traced(h, p, B, p->n, X, p->n, 0, d_trace);
    if (!s) {
        e = cudaMemcpyAsync(both, d_trace, bytes, cudaMemcpyDeviceToHost, gpu->stream);
        if (!e) e = cudaStreamSynchronize(gpu->stream);
        if (e) s = domino_cuda_status(h, e, fn);
    }
    cudaFree(d_trace);
    if (!s) {
        uint64_t first = UINT64_MAX; /* the earliest time recorded */
        for (int64_t i = 0; i < 2 * (int64_t)p->n; i++)
            if (both[i] > 0 && both[i] < first) first = both[i];
        for (int32_t i = 0; i < p->n; i++) {
            ns[i] = both[i] > 0 ? (int64_t)(both[i] - first) : -1;
            if (start_ns) start_ns[i] = both[p->n + i] > 0 ? (int64_t)(both[p->n + i] - first) : -1;
        }
    }
    domino_free(both);
    return s;
}
