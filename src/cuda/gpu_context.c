/* gpu_context.c: the device state of a handle, device memory helpers,
 * timers, and the translation of CUDA/cuSPARSE errors into statuses. */
#include "gpu_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

domino_status domino_cuda_status(domino_handle h, cudaError_t e, const char *what)
{
    if (e == cudaSuccess) return DOMINO_SUCCESS;
    cudaGetLastError(); /* clear a sticky-free error so later calls may go on */
    if (e == cudaErrorMemoryAllocation)
        return domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of device memory (%s)", what,
                            cudaGetErrorString(e));
    return domino_error(h, DOMINO_DEVICE_ERROR, "%s: CUDA error %d: %s", what, (int)e,
                        cudaGetErrorString(e));
}

domino_status domino_cusparse_status(domino_handle h, cusparseStatus_t e, const char *what)
{
    if (e == CUSPARSE_STATUS_SUCCESS) return DOMINO_SUCCESS;
    if (e == CUSPARSE_STATUS_ALLOC_FAILED || e == CUSPARSE_STATUS_INSUFFICIENT_RESOURCES)
        return domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: cuSPARSE: %s", what, cusparseGetErrorString(e));
    if (e == CUSPARSE_STATUS_NOT_SUPPORTED)
        return domino_error(h, DOMINO_NOT_SUPPORTED, "%s: cuSPARSE: %s", what, cusparseGetErrorString(e));
    return domino_error(h, DOMINO_DEVICE_ERROR, "%s: cuSPARSE error %d: %s", what, (int)e,
                        cusparseGetErrorString(e));
}

cudaError_t domino_device_copy_new(void **dst, const void *src, size_t bytes)
{
    cudaError_t e = domino_cuda_malloc(dst, bytes);
    if (e) return e;
    e = src ? cudaMemcpy(*dst, src, bytes, cudaMemcpyHostToDevice) : cudaMemset(*dst, 0, bytes ? bytes : 1);
    /* both run on the legacy stream: a pageable copy may return before its
     * DMA lands and the memset is asynchronous, and kernels on a handle's
     * non-blocking stream are not ordered after them */
    return e ? e : cudaStreamSynchronize(0);
}

int domino_gpu_count(void)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return count;
}

void domino_gpu_context_free(struct domino_gpu_context *gpu)
{
    if (!gpu) return;
    if (gpu->cusparse) cusparseDestroy(gpu->cusparse);
    if (gpu->timer_begin) cudaEventDestroy(gpu->timer_begin);
    if (gpu->timer_end) cudaEventDestroy(gpu->timer_end);
    if (gpu->stream) cudaStreamDestroy(gpu->stream);
    if (gpu->staging) cudaFreeHost(gpu->staging);
    domino_defer_pool_give(gpu->defer); /* the handle's reference (a job's may remain) */
    domino_free(gpu);
}

/* *buf (pinned, *bytes) replaced by a pinned buffer of `bytes` rounded up
 * to 64 KiB; NULL (the old one kept) when the allocation fails */
static void *pinned_grow(void **buf, size_t *bytes, size_t want)
{
    size_t size = (want + 65535) & ~(size_t)65535;
    void *grown = NULL;
    if (cudaMallocHost(&grown, size) != cudaSuccess) {
        (void)cudaGetLastError();
        return NULL;
    }
    if (*buf) cudaFreeHost(*buf);
    *buf = grown;
    *bytes = size;
    return grown;
}

struct domino_defer_pool *domino_defer_pool_take(struct domino_gpu_context *gpu, size_t bytes)
{
    struct domino_defer_pool *pool = gpu->defer;
    if (!pool) { /* the handle's cache, as its staging buffer: outside domino_malloc's count */
        pool = calloc(1, sizeof(*pool));
        if (!pool) return NULL;
        if (cudaStreamCreateWithFlags(&pool->side, cudaStreamNonBlocking) != cudaSuccess) {
            (void)cudaGetLastError();
            free(pool);
            return NULL;
        }
        pool->refs = 1;
        gpu->defer = pool;
    }
    if (pool->busy) return NULL;
    if (pool->bytes < bytes && !pinned_grow(&pool->buf, &pool->bytes, bytes))
        return NULL; /* grown rarely (pinned allocations synchronize the device) */
    pool->busy = 1;
    pool->refs++;
    return pool;
}

void domino_defer_pool_give(struct domino_defer_pool *pool)
{
    if (!pool) return;
    (void)cudaStreamSynchronize(pool->side); /* the job's copies and host function are over */
    pool->busy = 0;
    if (--pool->refs > 0) return;
    cudaStreamDestroy(pool->side);
    if (pool->buf) cudaFreeHost(pool->buf);
    free(pool);
}

/* Pinned staging: a pageable download of AUTO's pattern moved 0.9 GB/s
 * on an H200 machine (crack's 204 KB in 0.23 ms, bench/results/
 * h200-check7/trace.txt); pinned memory takes the copy engine's speed.
 * Allocating (and freeing) pinned memory synchronizes the device, so the
 * buffer grows rarely: to at least twice its size (up to 16 MiB), in
 * 64 KiB steps.  A failed allocation leaves the old buffer. */
void *domino_gpu_staging(struct domino_gpu_context *gpu, size_t bytes)
{
    if (gpu->staging && gpu->staging_bytes >= bytes) return gpu->staging;
    size_t grown_to = 2 * gpu->staging_bytes;
    if (grown_to > ((size_t)16 << 20)) grown_to = (size_t)16 << 20;
    if (grown_to < bytes) grown_to = bytes;
    return pinned_grow(&gpu->staging, &gpu->staging_bytes, grown_to);
}

cudaError_t domino_solve_status_read(struct domino_gpu_context *gpu, const domino_solve_status *st,
                                     domino_solve_status *hst)
{
    domino_solve_status *pinned = domino_gpu_staging(gpu, sizeof(*pinned));
    cudaError_t e = cudaMemcpyAsync(pinned ? pinned : hst, st, sizeof(*hst), cudaMemcpyDeviceToHost, gpu->stream);
    if (!e) e = cudaStreamSynchronize(gpu->stream);
    if (!e && pinned) *hst = *pinned;
    return e;
}

domino_status domino_gpu_context_get(domino_handle h, struct domino_gpu_context **out)
{
    *out = NULL;
    if (!h) return domino_error(h, DOMINO_NULL_POINTER, "GPU calls need a handle (h is NULL)");
    if (h->magic != DOMINO_HANDLE_MAGIC)
        return domino_error(NULL, DOMINO_INVALID_OBJECT, "h is not a live handle");
    if (h->gpu) {
        *out = h->gpu;
        return DOMINO_SUCCESS;
    }
    if (domino_gpu_count() == 0)
        return domino_error(h, DOMINO_NOT_SUPPORTED, "no CUDA device on this machine");
    struct domino_gpu_context *gpu = domino_calloc(1, sizeof(*gpu));
    if (!gpu) return domino_error(h, DOMINO_OUT_OF_MEMORY, "GPU context: out of memory");
    domino_status s = DOMINO_SUCCESS;
    cudaError_t e;
    struct cudaDeviceProp prop;
    /* one GPU per PE: launched by domino run, or a local rank of mpirun */
    const domino_launch_info *pe = domino_launch_self();
    const char *local = getenv("OMPI_COMM_WORLD_LOCAL_RANK");
    if (!local) local = getenv("MPI_LOCALRANKID");
    if (!local) local = getenv("SLURM_LOCALID");
    int count = 0, rank = pe ? pe->rank : local ? atoi(local) : -1;
    if (rank >= 0 && cudaGetDeviceCount(&count) == cudaSuccess && count > 0 &&
        (e = cudaSetDevice(rank % count))) {
        s = domino_cuda_status(h, e, "GPU context: selecting the PE's GPU");
        goto cleanup;
    }
    if ((e = cudaGetDevice(&gpu->device)) || (e = cudaGetDeviceProperties(&prop, gpu->device)) ||
        (e = cudaStreamCreateWithFlags(&gpu->stream, cudaStreamNonBlocking)) ||
        (e = cudaEventCreate(&gpu->timer_begin)) || (e = cudaEventCreate(&gpu->timer_end))) {
        s = domino_cuda_status(h, e, "GPU context");
        goto cleanup;
    }
    gpu->num_sms = prop.multiProcessorCount;
    snprintf(gpu->name, sizeof(gpu->name), "%s", prop.name);
    cusparseStatus_t cs = cusparseCreate(&gpu->cusparse);
    if (cs == CUSPARSE_STATUS_SUCCESS) cs = cusparseSetStream(gpu->cusparse, gpu->stream);
    if (cs != CUSPARSE_STATUS_SUCCESS) {
        s = domino_cusparse_status(h, cs, "GPU context");
        goto cleanup;
    }
    h->gpu = gpu;
    *out = gpu;
    return DOMINO_SUCCESS;
cleanup:
    domino_gpu_context_free(gpu);
    return s;
}

domino_status domino_gpu_describe(domino_handle h, char *name, size_t name_len, double *copy_gbs)
{
    struct domino_gpu_context *gpu;
    domino_status s = domino_gpu_context_get(h, &gpu);
    if (s) return s;
    if (name && name_len) snprintf(name, name_len, "%s", gpu->name);
    if (copy_gbs) {
        if (gpu->copy_gbs == 0) gpu->copy_gbs = domino_measure_copy_bandwidth(gpu->stream);
        *copy_gbs = gpu->copy_gbs;
    }
    return DOMINO_SUCCESS;
}

domino_status domino_gpu_malloc(domino_handle h, size_t bytes, void **dptr)
{
    struct domino_gpu_context *gpu;
    if (!dptr) return domino_error(h, DOMINO_NULL_POINTER, "domino_gpu_malloc: dptr is NULL");
    *dptr = NULL;
    domino_status s = domino_gpu_context_get(h, &gpu);
    if (s) return s;
    return domino_cuda_status(h, domino_cuda_malloc(dptr, bytes), "domino_gpu_malloc");
}

void domino_gpu_free(void *dptr)
{
    if (dptr) cudaFree(dptr);
}

domino_status domino_gpu_upload(domino_handle h, void *dst, const void *src, size_t bytes)
{
    struct domino_gpu_context *gpu;
    domino_status s = domino_gpu_context_get(h, &gpu);
    if (s) return s;
    if (bytes && (!dst || !src)) return domino_error(h, DOMINO_NULL_POINTER, "domino_gpu_upload: NULL pointer");
    cudaError_t e = cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, gpu->stream);
    if (!e) e = cudaStreamSynchronize(gpu->stream);
    return domino_cuda_status(h, e, "domino_gpu_upload");
}

domino_status domino_gpu_download(domino_handle h, void *dst, const void *src, size_t bytes)
{
    struct domino_gpu_context *gpu;
    domino_status s = domino_gpu_context_get(h, &gpu);
    if (s) return s;
    if (bytes && (!dst || !src)) return domino_error(h, DOMINO_NULL_POINTER, "domino_gpu_download: NULL pointer");
    cudaError_t e = cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, gpu->stream);
    if (!e) e = cudaStreamSynchronize(gpu->stream);
    return domino_cuda_status(h, e, "domino_gpu_download");
}

domino_status domino_gpu_synchronize(domino_handle h)
{
    struct domino_gpu_context *gpu;
    domino_status s = domino_gpu_context_get(h, &gpu);
    if (s) return s;
    return domino_cuda_status(h, cudaStreamSynchronize(gpu->stream), "domino_gpu_synchronize");
}

domino_status domino_gpu_timer_begin(domino_handle h)
{
    struct domino_gpu_context *gpu;
    domino_status s = domino_gpu_context_get(h, &gpu);
    if (s) return s;
    return domino_cuda_status(h, cudaEventRecord(gpu->timer_begin, gpu->stream), "domino_gpu_timer_begin");
}

domino_status domino_gpu_timer_end(domino_handle h, double *ms)
{
    struct domino_gpu_context *gpu;
    if (!ms) return domino_error(h, DOMINO_NULL_POINTER, "domino_gpu_timer_end: ms is NULL");
    *ms = 0;
    domino_status s = domino_gpu_context_get(h, &gpu);
    if (s) return s;
    float t = 0;
    cudaError_t e = cudaEventRecord(gpu->timer_end, gpu->stream);
    if (!e) e = cudaEventSynchronize(gpu->timer_end);
    if (!e) e = cudaEventElapsedTime(&t, gpu->timer_begin, gpu->timer_end);
    *ms = t;
    return domino_cuda_status(h, e, "domino_gpu_timer_end");
}
