/* dist_trsv_unified.c: the unified-memory baseline of the multi-GPU
 * triangular solve (Xie et al., ICPP 2021, Algorithm 2): one process drives
 * plan->npes GPUs; a contribution to a component of the same GPU goes to
 * device-local arrays, one that crosses GPUs to counts and sums in managed
 * memory, with system-scope atomics.  The managed arrays are mapped on every
 * GPU (cudaMemAdviseSetAccessedBy) so that they are read and updated in
 * place over NVLink instead of migrating on every fault; with
 * DOMINO_DIST_UM_PLAIN=1 (an experiment switch of the benchmarks) they are
 * left without advice, unified memory adopted directly: pages migrate to
 * the GPU that faults on them. */
#include "dist_trsv_internal.h"

#include <stdlib.h>
#include <string.h>

#define WHAT "domino_dist_trsv_unified"

static void unified_destroy(struct domino_dist_trsv_s *T)
{
    cudaFree(T->m_in);
    cudaFree(T->m_sum);
    dist_trsv_delete(T);
}

static domino_status unified_solve(domino_handle h, struct domino_dist_trsv_s *T, const double *b,
                                   double *x, double *seconds)
{
    const char *what = "domino_dist_trsv_solve (unified memory)";
    domino_status s = DOMINO_SUCCESS;
    cudaError_t e = cudaSuccess;
    size_t n = (size_t)T->n;
    int back;
    if (n > 0 && (!b || !x)) return domino_error(h, DOMINO_NULL_POINTER, "%s: %s is NULL", what, !b ? "b" : "x");
    cudaGetDevice(&back);
    for (int g = 0; g < T->ngpu && !s; g++) {
        dist_trsv_gpu *G = &T->g[g];
        if ((s = dist_trsv_gpu_prepare(h, what, G, b))) break;
        if ((e = cudaMemsetAsync(G->l_in, 0, n * sizeof(int), G->stream)) ||
            (e = cudaMemsetAsync(G->l_sum, 0, n * sizeof(double), G->stream)))
            break;
    }
    if (!s && !e) {
        cudaSetDevice(T->g[0].device);
        if (!(e = cudaMemsetAsync(T->m_in, 0, n * sizeof(int), T->g[0].stream)) &&
            !(e = cudaMemsetAsync(T->m_sum, 0, n * sizeof(double), T->g[0].stream)))
            for (int g = 0; g < T->ngpu && !e; g++) {
                cudaSetDevice(T->g[g].device);
                e = cudaStreamSynchronize(T->g[g].stream);
            }
    }
    double t0 = domino_wtime();
    for (int g = 0; g < T->ngpu && !s && !e; g++) {
        dist_trsv_gpu *G = &T->g[g];
        void *args[] = {&G->a};
        dim3 grid = {(unsigned)G->blocks, 1, 1}, block = {DIST_WARPS_PER_BLOCK * 32, 1, 1};
        if (!(e = cudaSetDevice(G->device)))
            e = cudaLaunchKernel(dist_trsv_kernel_fn(), grid, block, args, 0, G->stream);
    }
    /* every GPU's work ends before we return, even after a failed launch */
    for (int g = 0; g < T->ngpu && !s; g++) {
        cudaError_t f = cudaSetDevice(T->g[g].device);
        if (!f) f = cudaStreamSynchronize(T->g[g].stream);
        if (!e) e = f;
    }
    double t1 = domino_wtime();
    if (!s && e) s = domino_cuda_status(h, e, what);
    for (int g = 0; g < T->ngpu && !s; g++) s = dist_trsv_gpu_check(h, what, &T->g[g], g);
    for (int g = 0; g < T->ngpu && !s; g++) {
        dist_trsv_gpu *G = &T->g[g];
        double *xl = domino_malloc((size_t)G->nloc * sizeof(double) + 1);
        if (!xl) {
            s = domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of host memory", what);
            break;
        }
        if ((e = cudaSetDevice(G->device)) ||
            (e = cudaMemcpy(xl, G->a.x, (size_t)G->nloc * sizeof(double), cudaMemcpyDeviceToHost)))
            s = domino_cuda_status(h, e, what);
        for (int32_t k = 0; k < G->nloc && !s; k++) x[G->comp_h[k]] = xl[k];
        domino_free(xl);
    }
    cudaSetDevice(back);
    if (!s && seconds) *seconds = t1 - t0;
    return s;
}

/* GPU g's share, its local arrays and its stream */
static domino_status setup_gpu(domino_handle h, struct domino_dist_trsv_s *T, domino_matrix A,
                               domino_fill fill, domino_diag diag, const domino_dist_plan *plan, int g)
{
    dist_share *S = NULL;
    dist_trsv_gpu *G = &T->g[g];
    size_t n = (size_t)T->n;
    cudaError_t e = cudaSetDevice(g);
    if (e) return domino_cuda_status(h, e, WHAT);
    domino_status s = dist_share_make(h, WHAT, A, fill, diag, plan, g, DIST_COUNT_LOCAL_FAR, &S);
    if (!s) s = dist_trsv_gpu_upload(h, WHAT, S, plan, G);
    dist_share_free(S);
    if (s) return s;
    if ((e = cudaStreamCreateWithFlags(&G->stream, cudaStreamNonBlocking))) return domino_cuda_status(h, e, WHAT);
    G->own_stream = 1;
    struct cudaMemLocation here;
    memset(&here, 0, sizeof(here));
    here.type = cudaMemLocationTypeDevice;
    here.id = g;
    if ((e = cudaMalloc((void **)&G->l_in, n * sizeof(int) + 1)) ||
        (e = cudaMalloc((void **)&G->l_sum, n * sizeof(double) + 1)))
        return domino_cuda_status(h, e, WHAT);
    const char *plain = getenv("DOMINO_DIST_UM_PLAIN");
    if (!(plain && !strcmp(plain, "1")) &&
        ((e = cudaMemAdvise(T->m_in, n * sizeof(int) + 1, cudaMemAdviseSetAccessedBy, here)) ||
         (e = cudaMemAdvise(T->m_sum, n * sizeof(double) + 1, cudaMemAdviseSetAccessedBy, here))))
        return domino_cuda_status(h, e, WHAT);
    int *src_in[2] = {G->l_in, T->m_in}, *dst_in[DIST_MAX_GPUS];
    double *src_sum[2] = {G->l_sum, T->m_sum}, *dst_sum[DIST_MAX_GPUS];
    for (int q = 0; q < T->npes; q++) {
        dst_in[q] = q == g ? G->l_in : T->m_in;
        dst_sum[q] = q == g ? G->l_sum : T->m_sum;
    }
    /* local arrays (source 0, destination g) on this GPU, managed ones anywhere */
    return dist_trsv_gpu_set_pointers(h, WHAT, G, src_in, src_sum, 2, 1u, dst_in, dst_sum, T->npes, 1u << g);
}

domino_status domino_dist_trsv_unified(domino_handle h, domino_fill fill, domino_diag diag,
                                       domino_matrix A, const domino_dist_plan *plan,
                                       domino_dist_trsv *out)
{
    struct domino_gpu_context *gpu;
    struct domino_dist_trsv_s *T = NULL;
    cudaError_t e;
    int back = 0, gpus = domino_gpu_count();
    size_t free_b = 0, total_b = 0;
    if (!out) return domino_error(h, DOMINO_NULL_POINTER, WHAT ": T is NULL");
    *out = NULL;
    domino_status s = domino_gpu_context_get(h, &gpu);
    if (s) return s;
    if (!plan) return domino_error(h, DOMINO_NULL_POINTER, WHAT ": plan is NULL");
    if (plan->npes > gpus || plan->npes > DIST_MAX_GPUS)
        return domino_error(h, DOMINO_NOT_SUPPORTED, WHAT ": the plan has %d PEs, this process sees %d "
                            "GPUs (at most %d)", plan->npes, gpus, DIST_MAX_GPUS);
    size_t n = (size_t)plan->n, managed = n * (sizeof(int) + sizeof(double)) + 2;
    cudaGetDevice(&back);
    if ((e = cudaMemGetInfo(&free_b, &total_b))) return domino_cuda_status(h, e, WHAT);
    if (managed > free_b)
        return domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": %zu bytes of managed memory asked, the GPU "
                            "has %zu free", managed, free_b);
    T = dist_trsv_new(plan, DOMINO_DIST_UNIFIED, 0, plan->npes);
    if (!T) return domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of host memory");
    T->solve = unified_solve;
    T->destroy = unified_destroy;
    if ((e = cudaMallocManaged((void **)&T->m_in, n * sizeof(int) + 1, cudaMemAttachGlobal)) ||
        (e = cudaMallocManaged((void **)&T->m_sum, n * sizeof(double) + 1, cudaMemAttachGlobal))) {
        s = domino_cuda_status(h, e, WHAT);
        goto cleanup;
    }
    for (int g = 0; g < plan->npes && !s; g++) s = setup_gpu(h, T, A, fill, diag, plan, g);
cleanup:
    cudaSetDevice(back);
    if (s) {
        unified_destroy(T);
        return s;
    }
    *out = T;
    return DOMINO_SUCCESS;
}
