/* dist_runtime.cu: the distributed runtime on NVSHMEM: join a run started by
 * domino_launch (unique-ID bootstrap through the launch's shared page),
 * symmetric memory, barrier, a ring check of GPU-initiated puts, leave.
 * Host code in CUDA C style; built only with NVSHMEM (-rdc). */
#include "gpu_internal.h"

#include <nvshmem.h>
#include <nvshmemx.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DIST_MAGIC 0x646f6d696e6f4431ULL
#define UID_READY 0x756964726561647aULL /* "uidready" */
#define UID_WAIT_S 60                    /* PE 0 has this long to publish the ID */
#define RING_WAIT_NS 5000000000ULL       /* a ring put must land within 5 s */

/* this PE's membership of a run */
struct domino_dist_s {
    uint64_t magic; /* DIST_MAGIC while joined */
    int rank;       /* this PE */
    int npes;       /* PEs of the run */
    int *ring;      /* symmetric word of the ring check */
    int *result;    /* device word: what the ring check saw, or a failure code */
};

/* the launch's shared page during start-up */
typedef struct uid_page {
    uint64_t ready;          /* UID_READY once uid is written */
    nvshmemx_uniqueid_t uid; /* PE 0's unique ID */
} uid_page;
static_assert(sizeof(uid_page) <= DOMINO_LAUNCH_SHARED_BYTES, "the unique ID must fit the page");

static double wall_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* PE 0 publishes the unique ID, the others wait for it */
static domino_status share_uid(domino_handle h, const domino_launch_info *pe, nvshmemx_uniqueid_t *uid)
{
    uid_page *page = (uid_page *)pe->shared;
    if (pe->rank == 0) {
        if (nvshmemx_get_uniqueid(uid) != 0)
            return domino_error(h, DOMINO_DEVICE_ERROR, "domino_dist_join: PE 0 could not get an NVSHMEM unique ID");
        memcpy(&page->uid, uid, sizeof(*uid));
        __atomic_store_n(&page->ready, UID_READY, __ATOMIC_RELEASE);
        return DOMINO_SUCCESS;
    }
    for (double t0 = wall_seconds(); __atomic_load_n(&page->ready, __ATOMIC_ACQUIRE) != UID_READY;) {
        if (wall_seconds() - t0 > UID_WAIT_S)
            return domino_error(h, DOMINO_TIMEOUT, "domino_dist_join: PE %d of %d waited %d s for PE 0's "
                                "NVSHMEM unique ID", pe->rank, pe->npes, UID_WAIT_S);
        struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
    }
    memcpy(uid, &page->uid, sizeof(*uid));
    return DOMINO_SUCCESS;
}

domino_status domino_dist_join(domino_handle h, domino_dist *out)
{
    const char *fn = "domino_dist_join";
    struct domino_gpu_context *gpu;
    nvshmemx_uniqueid_t uid = NVSHMEMX_UNIQUEID_INITIALIZER;
    nvshmemx_init_attr_t attr = NVSHMEMX_INIT_ATTR_INITIALIZER;
    if (!out) return domino_error(h, DOMINO_NULL_POINTER, "%s: D is NULL", fn);
    *out = NULL;
    const domino_launch_info *pe = domino_launch_self();
    if (!pe)
        return domino_error(h, DOMINO_NOT_SUPPORTED, "%s: this process was not started by "
                            "domino run -n N (the mpirun start-up is not written yet)", fn);
    setenv("NVSHMEM_DISABLE_NVLS", "1", 1);
    domino_status s = domino_gpu_context_get(h, &gpu); /* selects the PE's GPU */
    if (s || (s = share_uid(h, pe, &uid))) return s;
    if (nvshmemx_set_attr_uniqueid_args(pe->rank, pe->npes, &uid, &attr) != 0 ||
        nvshmemx_init_attr(NVSHMEMX_INIT_WITH_UNIQUEID, &attr) != 0)
        return domino_error(h, DOMINO_DEVICE_ERROR, "%s: PE %d of %d: NVSHMEM did not start", fn,
                            pe->rank, pe->npes);
    if (nvshmem_my_pe() != pe->rank || nvshmem_n_pes() != pe->npes) {
        nvshmem_finalize();
        return domino_error(h, DOMINO_DEVICE_ERROR, "%s: NVSHMEM says PE %d of %d, the launcher %d of %d",
                            fn, nvshmem_my_pe(), nvshmem_n_pes(), pe->rank, pe->npes);
    }
    struct domino_dist_s *D = (struct domino_dist_s *)domino_calloc(1, sizeof(*D));
    if (!D) {
        nvshmem_finalize();
        return domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory", fn);
    }
    D->magic = DIST_MAGIC;
    D->rank = pe->rank;
    D->npes = pe->npes;
    *out = D;
    return DOMINO_SUCCESS;
}

int domino_dist_rank(domino_dist D) { return D && D->magic == DIST_MAGIC ? D->rank : -1; }
int domino_dist_npes(domino_dist D) { return D && D->magic == DIST_MAGIC ? D->npes : 0; }

domino_status domino_dist_malloc(domino_handle h, domino_dist D, size_t bytes, void **p)
{
    if (!p) return domino_error(h, DOMINO_NULL_POINTER, "domino_dist_malloc: p is NULL");
    *p = NULL;
    if (!D || D->magic != DIST_MAGIC)
        return domino_error(h, DOMINO_INVALID_OBJECT, "domino_dist_malloc: not joined");
    *p = nvshmem_malloc(bytes ? bytes : 1);
    if (!*p)
        return domino_error(h, DOMINO_OUT_OF_MEMORY, "domino_dist_malloc: PE %d: no %zu bytes of "
                            "symmetric memory (NVSHMEM_SYMMETRIC_SIZE sets the heap)", D->rank, bytes);
    return DOMINO_SUCCESS;
}

void domino_dist_free(domino_dist D, void *p)
{
    if (D && D->magic == DIST_MAGIC && p) nvshmem_free(p);
}

domino_status domino_dist_barrier(domino_handle h, domino_dist D)
{
    if (!D || D->magic != DIST_MAGIC)
        return domino_error(h, DOMINO_INVALID_OBJECT, "domino_dist_barrier: not joined");
    nvshmem_barrier_all();
    return DOMINO_SUCCESS;
}

/* one thread: put rank into the next PE's ring word, then wait (bounded)
 * for the previous PE's put into ours; *result = what arrived, or -2 */
__global__ void ring_kernel(int *ring, int rank, int npes, int *result)
{
    nvshmem_int_p(ring, rank, (rank + 1) % npes);
    nvshmem_quiet();
    uint64_t t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    volatile int *mine = ring;
    int got = *mine;
    while (got < 0) {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
        if (t - t0 > RING_WAIT_NS) {
            got = -2;
            break;
        }
        got = *mine;
    }
    *result = got;
}

domino_status domino_dist_ring_check(domino_handle h, domino_dist D)
{
    const char *fn = "domino_dist_ring_check";
    struct domino_gpu_context *gpu;
    int got = -3, *result = NULL;
    if (!D || D->magic != DIST_MAGIC) return domino_error(h, DOMINO_INVALID_OBJECT, "%s: not joined", fn);
    domino_status s = domino_gpu_context_get(h, &gpu);
    if (!s && !D->ring) s = domino_dist_malloc(h, D, sizeof(int), (void **)&D->ring);
    if (s) return s;
    cudaError_t e = cudaMalloc((void **)&result, sizeof(int));
    if (!e) e = cudaMemset(D->ring, 0xff, sizeof(int)); /* -1: nothing arrived */
    if (!e) e = cudaDeviceSynchronize();
    if (e) {
        cudaFree(result);
        return domino_cuda_status(h, e, fn);
    }
    nvshmem_barrier_all(); /* every ring word is -1 before any put */
    void *args[] = {&D->ring, &D->rank, &D->npes, &result};
    if (nvshmemx_collective_launch((const void *)ring_kernel, dim3(1), dim3(1), args, 0, gpu->stream)) {
        cudaFree(result);
        return domino_error(h, DOMINO_DEVICE_ERROR, "%s: PE %d: the collective launch failed", fn, D->rank);
    }
    e = cudaStreamSynchronize(gpu->stream);
    if (!e) e = cudaMemcpy(&got, result, sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(result);
    if (e) return domino_cuda_status(h, e, fn);
    nvshmem_barrier_all();
    int want = (D->rank + D->npes - 1) % D->npes;
    if (got == -2)
        return domino_error(h, DOMINO_TIMEOUT, "%s: PE %d waited 5 s for PE %d's put", fn, D->rank, want);
    if (got != want)
        return domino_error(h, DOMINO_DEVICE_ERROR, "%s: PE %d received %d, expected %d", fn, D->rank,
                            got, want);
    return DOMINO_SUCCESS;
}

domino_status domino_dist_leave(domino_handle h, domino_dist D)
{
    if (!D || D->magic != DIST_MAGIC)
        return domino_error(h, DOMINO_INVALID_OBJECT, "domino_dist_leave: not joined");
    if (D->ring) nvshmem_free(D->ring);
    nvshmem_finalize();
    D->magic = DOMINO_FREED_MAGIC;
    domino_free(D);
    return DOMINO_SUCCESS;
}
