/* gpu_cache.c: what plans take and give back often, kept for the next
 * plan: device workspaces from a memory pool of the process (one a
 * device), and CUDA events.
 *
 * A plan's analysis allocated its workspace with cudaMalloc, 6-170 us on
 * an H200 (DOMINO_ANALYSIS_TRACE, bench/results/h200-first19), and its
 * auto trials made their CUDA events on its first solves, ~1.2 us each.
 * A plan made after another was freed now takes both back: the workspace
 * from a stream-ordered pool (cudaMallocFromPoolAsync) that keeps up to
 * DOMINO_POOL_KEEP_MB (default 1024) of freed memory reserved, the events
 * from a list.  Plans may outlive their handle, so both belong to the
 * process, not to a handle; a mutex guards them (handles may live on
 * several host threads).  A free synchronizes the device first, as
 * cudaFree did, so no kernel still running reads memory taken again.
 * Out of device memory, the pool gives its reserve back and tries once
 * more, and so does domino_cuda_malloc, the cudaMalloc of the arrays a
 * caller owns (matrices, vectors), so the reserve never makes one fail. */
#include "gpu_internal.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>

#define CACHE_DEVICES 16 /* devices of a process the caches serve */
#define CACHE_EVENTS  64 /* events kept a device */

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static cudaMemPool_t pools[CACHE_DEVICES];              /* NULL until first used */
static int pool_failed[CACHE_DEVICES];                  /* 1: no pool here: plain cudaMalloc */
static cudaEvent_t events[CACHE_DEVICES][CACHE_EVENTS]; /* kept events */
static int nevents[CACHE_DEVICES];                      /* how many */

/* the current device as an index of the caches, -1 past them */
static int cache_device(void)
{
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= CACHE_DEVICES) {
        (void)cudaGetLastError();
        return -1;
    }
    return dev;
}

/* the pool of the current device, made on first use when `make` is set;
 * NULL: none (then plain cudaMalloc/cudaFree) */
static cudaMemPool_t device_pool(int make)
{
    int dev = cache_device();
    if (dev < 0) return NULL;
    pthread_mutex_lock(&cache_lock);
    if (make && !pools[dev] && !pool_failed[dev]) {
        struct cudaMemPoolProps props;
        memset(&props, 0, sizeof(props));
        props.allocType = cudaMemAllocationTypePinned;
        props.location.type = cudaMemLocationTypeDevice;
        props.location.id = dev;
        uint64_t keep = (uint64_t)domino_env_int("DOMINO_POOL_KEEP_MB", 1024) << 20;
        if (keep == 0 || cudaMemPoolCreate(&pools[dev], &props) != cudaSuccess) {
            (void)cudaGetLastError();
            pools[dev] = NULL;
            pool_failed[dev] = 1;
        } else if (cudaMemPoolSetAttribute(pools[dev], cudaMemPoolAttrReleaseThreshold, &keep) !=
                   cudaSuccess) {
            (void)cudaGetLastError(); /* kept nothing: still a pool */
        }
    }
    cudaMemPool_t pool = pools[dev];
    pthread_mutex_unlock(&cache_lock);
    return pool;
}

/* the pool's reserve given back after the device is idle (a free's memory
 * may wait for its stream); 1 when done */
static int reserve_given_back(cudaMemPool_t pool)
{
    if (pool && cudaDeviceSynchronize() == cudaSuccess && cudaMemPoolTrimTo(pool, 0) == cudaSuccess)
        return 1;
    (void)cudaGetLastError();
    return 0;
}

cudaError_t domino_pool_malloc(void **ptr, size_t bytes, cudaStream_t stream)
{
    cudaMemPool_t pool = device_pool(1);
    if (!pool) return cudaMalloc(ptr, bytes ? bytes : 1);
    cudaError_t e = cudaMallocFromPoolAsync(ptr, bytes ? bytes : 1, pool, stream);
    if (e == cudaErrorMemoryAllocation) { /* once more without the reserve */
        (void)cudaGetLastError();
        if (reserve_given_back(pool)) e = cudaMallocFromPoolAsync(ptr, bytes ? bytes : 1, pool, stream);
    }
    return e;
}

cudaError_t domino_cuda_malloc(void **ptr, size_t bytes)
{
    cudaError_t e = cudaMalloc(ptr, bytes ? bytes : 1);
    if (e != cudaErrorMemoryAllocation) return e;
    (void)cudaGetLastError();
    return reserve_given_back(device_pool(0)) ? cudaMalloc(ptr, bytes ? bytes : 1) : e;
}

void domino_pool_free(void *ptr)
{
    if (!ptr) return;
    if (!device_pool(1)) {
        cudaFree(ptr);
        return;
    }
    /* what reads it may still run on any stream: wait, as cudaFree does */
    if (cudaDeviceSynchronize() != cudaSuccess) (void)cudaGetLastError();
    if (cudaFreeAsync(ptr, 0) != cudaSuccess) (void)cudaGetLastError();
}

cudaError_t domino_event_take(cudaEvent_t *ev)
{
    int dev = cache_device();
    if (dev >= 0) {
        pthread_mutex_lock(&cache_lock);
        *ev = nevents[dev] > 0 ? events[dev][--nevents[dev]] : NULL;
        pthread_mutex_unlock(&cache_lock);
        if (*ev) return cudaSuccess;
    }
    return cudaEventCreate(ev);
}

void domino_event_give(cudaEvent_t ev)
{
    if (!ev) return;
    int dev = cache_device();
    if (dev >= 0) {
        pthread_mutex_lock(&cache_lock);
        int kept = nevents[dev] < CACHE_EVENTS;
        if (kept) events[dev][nevents[dev]++] = ev;
        pthread_mutex_unlock(&cache_lock);
        if (kept) return;
    }
    cudaEventDestroy(ev);
}
