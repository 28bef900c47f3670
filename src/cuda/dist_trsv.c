/* dist_trsv.c: the host side shared by the multi-GPU triangular solvers:
 * one GPU's share on the device, its per-solve preparation and error check,
 * and the public solve / free that dispatch to the driver */
#include "dist_trsv_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct domino_dist_trsv_s *dist_trsv_new(const domino_dist_plan *plan, int solver, int pe, int ngpu)
{
    struct domino_dist_trsv_s *T = domino_calloc(1, sizeof(*T));
    if (!T) return NULL;
    T->magic = DIST_TRSV_MAGIC;
    T->solver = solver;
    T->npes = plan->npes;
    T->ngpu = ngpu;
    T->pe = pe;
    T->n = plan->n;
    T->task_size = plan->task_size;
    T->ntasks = plan->ntasks;
    T->task_pe_h = domino_malloc((size_t)plan->ntasks * sizeof(int) + 1);
    if (!T->task_pe_h) {
        domino_free(T);
        return NULL;
    }
    memcpy(T->task_pe_h, plan->task_pe, (size_t)plan->ntasks * sizeof(int));
    for (int g = 0; g < DIST_MAX_GPUS; g++) T->g[g].device = -1; /* no GPU touched yet */
    return T;
}

void dist_trsv_delete(struct domino_dist_trsv_s *T)
{
    int back = 0;
    cudaGetDevice(&back);
    for (int g = 0; g < T->ngpu; g++) dist_trsv_gpu_free(&T->g[g]);
    cudaSetDevice(back);
    domino_free(T->task_pe_h);
    T->magic = DOMINO_FREED_MAGIC;
    domino_free(T);
}

domino_status dist_trsv_gpu_upload(domino_handle h, const char *what, const dist_share *S,
                                   const domino_dist_plan *plan, dist_trsv_gpu *g)
{
    cudaError_t e;
    dist_trsv_args *a = &g->a;
    size_t nloc = (size_t)S->nloc;
    if (S->nsrc > 32) /* (0 for the pull solver, which counts nothing) */
        return domino_error(h, DOMINO_NOT_SUPPORTED, "%s: %d count sources, at most 32 (one lane each)",
                            what, S->nsrc);
    if ((e = cudaGetDevice(&g->device))) return domino_cuda_status(h, e, what);
    g->nloc = S->nloc;
    g->comp_h = domino_malloc(nloc * sizeof(int32_t) + 1);
    if (!g->comp_h) return domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of host memory", what);
    memcpy(g->comp_h, S->comp, nloc * sizeof(int32_t));
    a->nloc = S->nloc;
    a->nsrc = S->nsrc;
    a->me = S->pe;
    a->task_size = plan->task_size;
    a->lanes = plan->pull_lanes;
    a->npes = plan->npes;
    int copy_mode = domino_env_int("DOMINO_DIST_PULL_COPY_MODE", (int)DIST_PULL_COPY_MODE_DEFAULT);
    a->pull_copy_mode = copy_mode >= 0 && copy_mode <= 3 ? (unsigned)copy_mode : DIST_PULL_COPY_MODE_DEFAULT;
    a->timeout_ns = (unsigned long long)(dist_timeout_seconds() * 1e9);
    int backoff = domino_env_int("DOMINO_DIST_BACKOFF_NS", 0); /* tuning experiments */
    a->backoff_ns = backoff > 0 && backoff <= 1000000 ? (unsigned)backoff : 0;
    int far_backoff = domino_env_int("DOMINO_DIST_FAR_BACKOFF_NS", 64); /* tuning experiments */
    a->far_backoff_ns = far_backoff > 64 && far_backoff <= 1000000 ? (unsigned)far_backoff : 64;
    int push_chunk = domino_env_int("DOMINO_DIST_PUSH_CHUNK", DOMINO_PUSH_CHUNK_DEFAULT); /* tuning experiments */
    a->push_chunk = push_chunk > 0 ? push_chunk : 0;
    if ((e = domino_device_copy_new((void **)&a->comp, S->comp, nloc * sizeof(int32_t))) ||
        (e = domino_device_copy_new((void **)&a->ptr, S->col_ptr, (nloc + 1) * sizeof(int64_t))) ||
        (e = domino_device_copy_new((void **)&a->row, S->col_row, (size_t)S->nnz * sizeof(int32_t))) ||
        (e = domino_device_copy_new((void **)&a->val, S->col_val, (size_t)S->nnz * sizeof(double))) ||
        (e = domino_device_copy_new((void **)&a->pivot, S->pivot, nloc * sizeof(double))) ||
        (e = domino_device_copy_new((void **)&a->b, NULL, nloc * sizeof(double))) ||
        (e = domino_device_copy_new((void **)&a->x, NULL, nloc * sizeof(double))) ||
        (e = domino_device_copy_new((void **)&a->need, S->need, (size_t)S->nsrc * nloc * sizeof(int32_t))) ||
        (e = domino_device_copy_new((void **)&g->task_pe, plan->task_pe, (size_t)plan->ntasks * sizeof(int))) ||
        (e = domino_device_copy_new((void **)&a->ticket, NULL, sizeof(unsigned))) ||
        (e = domino_device_copy_new((void **)&a->error, NULL, 4 * sizeof(int))) ||
        (S->readers &&
         (e = domino_device_copy_new((void **)&a->readers, S->readers, nloc * sizeof(uint32_t)))))
        return domino_cuda_status(h, e, what);
    a->task_pe = g->task_pe;
    g->blocks = dist_trsv_blocks(S->nloc, g->device, S->nsrc == 0 ? a->lanes : 0);
    return DOMINO_SUCCESS;
}

domino_status dist_trsv_gpu_set_pointers(domino_handle h, const char *what, dist_trsv_gpu *g,
                                         int *const *src_in, double *const *src_sum, int nsrc,
                                         unsigned src_local, int *const *dst_in, double *const *dst_sum,
                                         int npes, unsigned dst_local)
{
    g->a.src_local = src_local;
    g->a.dst_local = dst_local;
    size_t bytes = (size_t)(2 * nsrc + 2 * npes) * sizeof(void *);
    void **host = domino_malloc(bytes);
    if (!host) return domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of host memory", what);
    memcpy(host, src_in, nsrc * sizeof(void *));
    memcpy(host + nsrc, src_sum, nsrc * sizeof(void *));
    memcpy(host + 2 * nsrc, dst_in, npes * sizeof(void *));
    memcpy(host + 2 * nsrc + npes, dst_sum, npes * sizeof(void *));
    cudaError_t e = domino_device_copy_new(&g->pointers, host, bytes);
    domino_free(host);
    if (e) return domino_cuda_status(h, e, what);
    void **dev = (void **)g->pointers;
    g->a.src_in = (int *const *)dev;
    g->a.src_sum = (double *const *)(dev + nsrc);
    g->a.dst_in = (int *const *)(dev + 2 * nsrc);
    g->a.dst_sum = (double *const *)(dev + 2 * nsrc + npes);
    return DOMINO_SUCCESS;
}

domino_status dist_trsv_gpu_prepare(domino_handle h, const char *what, dist_trsv_gpu *g, const double *b)
{
    cudaError_t e;
    double *bl = domino_malloc((size_t)g->nloc * sizeof(double) + 1);
    if (!bl) return domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of host memory", what);
    for (int32_t k = 0; k < g->nloc; k++) bl[k] = b[g->comp_h[k]];
    if ((e = cudaSetDevice(g->device)) ||
        (e = cudaMemcpyAsync((void *)g->a.b, bl, (size_t)g->nloc * sizeof(double),
                             cudaMemcpyHostToDevice, g->stream)) ||
        (e = cudaMemsetAsync(g->a.ticket, 0, sizeof(unsigned), g->stream)) ||
        (e = cudaMemsetAsync(g->a.error, 0, 4 * sizeof(int), g->stream)) ||
        (e = cudaStreamSynchronize(g->stream))) {
        domino_free(bl);
        return domino_cuda_status(h, e, what);
    }
    domino_free(bl);
    return DOMINO_SUCCESS;
}

domino_status dist_trsv_gpu_check(domino_handle h, const char *what, dist_trsv_gpu *g, int pe)
{
    int err[4];
    cudaError_t e = cudaSetDevice(g->device);
    if (!e) e = cudaMemcpy(err, g->a.error, sizeof(err), cudaMemcpyDeviceToHost);
    if (e) return domino_cuda_status(h, e, what);
    if (err[0])
        return domino_error(h, DOMINO_TIMEOUT, "%s: PE %d: row %d waited more than %.0f s without "
                            "progress for what source %d sends (for the zero-copy and pull solvers "
                            "the source is the PE; a PE or GPU that never delivered: wrong dependency "
                            "or a dead PE)", what, pe, err[1], g->a.timeout_ns * 1e-9, err[2]);
    return DOMINO_SUCCESS;
}

void dist_trsv_gpu_free(dist_trsv_gpu *g)
{
    if (g->device < 0) return; /* never uploaded: nothing on any GPU */
    cudaSetDevice(g->device);
    dist_trsv_args *a = &g->a;
    cudaFree((void *)a->comp);
    cudaFree((void *)a->ptr);
    cudaFree((void *)a->row);
    cudaFree((void *)a->val);
    cudaFree((void *)a->pivot);
    cudaFree((void *)a->b);
    cudaFree(a->x);
    cudaFree((void *)a->need);
    cudaFree(a->ticket);
    cudaFree(a->error);
    cudaFree((void *)a->readers);
    cudaFree(g->task_pe);
    cudaFree(g->pointers);
    cudaFree(g->l_in);
    cudaFree(g->l_sum);
    if (g->own_stream && g->stream) cudaStreamDestroy(g->stream);
    domino_free(g->comp_h);
    memset(g, 0, sizeof(*g));
}

domino_status domino_dist_trsv_solve(domino_handle h, domino_dist_trsv T, const double *b, double *x,
                                     double *seconds)
{
    const char *what = "domino_dist_trsv_solve";
    if (!domino_handle_ok(h)) return domino_error(NULL, DOMINO_INVALID_OBJECT, "%s: h is not a live handle", what);
    if (!T || T->magic != DIST_TRSV_MAGIC)
        return domino_error(h, DOMINO_INVALID_OBJECT, "%s: T is not a live multi-GPU solve", what);
    if (seconds) *seconds = 0;
    /* b and x are checked by the driver: the NVSHMEM ones make every PE fail alike */
    return T->solve(h, T, b, x, seconds);
}

void domino_dist_trsv_free(domino_dist_trsv T)
{
    if (!T || T->magic != DIST_TRSV_MAGIC) return;
    T->destroy(T);
}

double dist_timeout_seconds(void)
{
    const char *env = getenv("DOMINO_DIST_TIMEOUT_S");
    return env && atof(env) > 0 ? fmin(atof(env), 1e9) : DIST_TIMEOUT_S;
}
