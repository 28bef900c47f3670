/* dist_runtime.cu: the distributed runtime on NVSHMEM: join a run started by
 * domino_launch (unique-ID bootstrap through the launch's shared page),
 * symmetric memory, barrier, a ring check of GPU-initiated puts, leave.
 * Host code in CUDA C style; built only with NVSHMEM (-rdc). */
#include "gpu_internal.h"
#include "dist/nvshmem/dist_runtime.h"

#include <nvshmem.h>
#include <nvshmemx.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h> /* nanosleep */
#ifdef DOMINO_NVSHMEM_WITH_MPI
#include <mpi.h>
#endif

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
    int *words;     /* symmetric: [0] sent, [1] received by domino_dist_agree */
    double *value;  /* symmetric: [0] sent, [1] received (domino_dist_max, _sum) */
    int mpi_owned;  /* 1: MPI_Init was called here, MPI_Finalize at leave */
    int device;     /* this PE's GPU, current again in every collective here */
    int shared_gpu; /* 1: PEs share a GPU (domino_launch with more PEs than GPUs: NVSHMEM's
                       limited multi-process-per-GPU mode, which has no reductions: each
                       PE's word is read through its peer pointer instead) */
    size_t heap_used;  /* bytes of symmetric memory live through domino_dist_malloc */
    void **live;       /* those allocations, live_count of them (live_cap room) */
    size_t *live_bytes;/* and their sizes */
    int live_count, live_cap;
};

/* the launch's shared page during start-up */
typedef struct uid_page {
    uint64_t ready;          /* UID_READY once uid is written */
    nvshmemx_uniqueid_t uid; /* PE 0's unique ID */
} uid_page;
static_assert(sizeof(uid_page) <= DOMINO_LAUNCH_SHARED_BYTES, "the unique ID must fit the page");

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
    for (double t0 = domino_wtime(); __atomic_load_n(&page->ready, __ATOMIC_ACQUIRE) != UID_READY;) {
        if (domino_wtime() - t0 > UID_WAIT_S)
            return domino_error(h, DOMINO_TIMEOUT, "domino_dist_join: PE %d of %d waited %d s for PE 0's "
                                "NVSHMEM unique ID", pe->rank, pe->npes, UID_WAIT_S);
        struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
    }
    memcpy(uid, &page->uid, sizeof(*uid));
    return DOMINO_SUCCESS;
}

/* under mpirun: rank and size from MPI, PE 0's unique ID broadcast;
 * *owned = 1 when MPI was initialised here */
static domino_status mpi_uid(domino_handle h, int *rank, int *npes, nvshmemx_uniqueid_t *uid, int *owned)
{
#ifdef DOMINO_NVSHMEM_WITH_MPI
    int ready = 0;
    MPI_Initialized(&ready);
    if (!ready && MPI_Init(NULL, NULL) != MPI_SUCCESS)
        return domino_error(h, DOMINO_DEVICE_ERROR, "domino_dist_join: MPI_Init failed");
    *owned = !ready;
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, npes);
    if (*rank == 0 && nvshmemx_get_uniqueid(uid) != 0)
        MPI_Abort(MPI_COMM_WORLD, 1); /* the others would wait in the broadcast */
    MPI_Bcast(uid, sizeof(*uid), MPI_BYTE, 0, MPI_COMM_WORLD);
    return DOMINO_SUCCESS;
#else
    (void)rank; (void)npes; (void)uid; (void)owned;
    return domino_error(h, DOMINO_NOT_SUPPORTED, "domino_dist_join: started by mpirun, but this "
                        "build has no MPI (install libopenmpi-dev and rebuild)");
#endif
}

/* 1 when this process looks started by mpirun (Open MPI, MPICH, Slurm PMI) */
static int under_mpirun(void)
{
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMI_SIZE") || getenv("PMIX_RANK");
}

/* words[0] := "this PE failed with a device error", so that when the next
 * agreement cannot even write its word (a sticky CUDA error), the others
 * still learn of the failure instead of reading a stale success */
static void preset_failure(domino_dist D)
{
    int fail = D->rank * 1024 + (int)(-DOMINO_DEVICE_ERROR);
    cudaMemcpy(D->words, &fail, sizeof(int), cudaMemcpyHostToDevice);
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
    int rank = 0, npes = 0, mpi_owned = 0;
    if (!pe && !under_mpirun())
        return domino_error(h, DOMINO_NOT_SUPPORTED, "%s: this process was started neither by "
                            "domino run -n N nor by mpirun", fn);
    setenv("NVSHMEM_DISABLE_NVLS", "1", 1);
    domino_status s = domino_gpu_context_get(h, &gpu); /* selects the PE's GPU */
    if (s) return s;
    if (pe) {
        rank = pe->rank;
        npes = pe->npes;
        s = share_uid(h, pe, &uid);
    } else {
        s = mpi_uid(h, &rank, &npes, &uid, &mpi_owned);
    }
    if (s) return s;
    if (nvshmemx_set_attr_uniqueid_args(rank, npes, &uid, &attr) != 0 ||
        nvshmemx_init_attr(NVSHMEMX_INIT_WITH_UNIQUEID, &attr) != 0)
        return domino_error(h, DOMINO_DEVICE_ERROR, "%s: PE %d of %d: NVSHMEM did not start", fn,
                            rank, npes);
    if (nvshmem_my_pe() != rank || nvshmem_n_pes() != npes) {
        nvshmem_finalize();
        return domino_error(h, DOMINO_DEVICE_ERROR, "%s: NVSHMEM says PE %d of %d, the launcher %d of %d",
                            fn, nvshmem_my_pe(), nvshmem_n_pes(), rank, npes);
    }
    struct domino_dist_s *D = (struct domino_dist_s *)domino_calloc(1, sizeof(*D));
    if (!D) {
        nvshmem_finalize();
        return domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory", fn);
    }
    D->magic = DIST_MAGIC;
    D->rank = rank;
    D->npes = npes;
    D->mpi_owned = mpi_owned;
    D->device = gpu->device;
    /* PEs share a GPU only in a run domino_launch forked on one node with more PEs than GPUs
     * (every PE sees the same count, so all decide alike; under mpirun: one GPU per PE) */
    int devices = 0;
    if (pe && cudaGetDeviceCount(&devices) == cudaSuccess) D->shared_gpu = npes > devices;
    D->words = (int *)nvshmem_malloc(2 * sizeof(int));
    D->value = (double *)nvshmem_malloc(2 * sizeof(double));
    if (!D->words || !D->value) {
        domino_dist_leave(h, D);
        return domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: PE %d: no symmetric memory for its "
                            "agreement words", fn, rank);
    }
    preset_failure(D);
    *out = D;
    return DOMINO_SUCCESS;
}

domino_status domino_dist_agree(domino_handle h, domino_dist D, domino_status mine)
{
    const char *fn = "domino_dist_agree";
    if (!D || D->magic != DIST_MAGIC) return domino_error(h, DOMINO_INVALID_OBJECT, "%s: not joined", fn);
    /* the lowest failing PE wins: it sends rank * 1024 + (-status), others INT_MAX.
     * Every step runs whatever failed before, so that no PE misses a collective. */
    int send = mine ? D->rank * 1024 + (int)(-mine) : 0x7fffffff, got = 0x7fffffff;
    cudaSetDevice(D->device);
    cudaError_t e = cudaMemcpy(D->words, &send, sizeof(int), cudaMemcpyHostToDevice), e2 = cudaSuccess;
    if (!e && D->shared_gpu) e = cudaDeviceSynchronize(); /* the word landed before the others read it */
    nvshmem_barrier_all();
    int rc = 0;
    if (D->shared_gpu) { /* every PE's word read through its peer pointer */
        for (int pe = 0; pe < D->npes && !e2; pe++) {
            int w = 0x7fffffff;
            const int *peer = (const int *)nvshmem_ptr(D->words, pe);
            if (!peer) rc = -1;
            else if (!(e2 = cudaMemcpy(&w, peer, sizeof(int), cudaMemcpyDeviceToHost)) && w < got) got = w;
        }
        nvshmem_barrier_all(); /* every word read before any is written again */
    } else {
        rc = nvshmem_int_min_reduce(NVSHMEM_TEAM_WORLD, D->words + 1, D->words, 1);
        e2 = cudaMemcpy(&got, D->words + 1, sizeof(int), cudaMemcpyDeviceToHost);
    }
    preset_failure(D);
    if (mine) return mine;
    if (e || e2) return domino_cuda_status(h, e ? e : e2, fn);
    if (rc != 0) return domino_error(h, DOMINO_DEVICE_ERROR, "%s: PE %d: the reduction failed", fn, D->rank);
    if (got == 0x7fffffff) return DOMINO_SUCCESS;
    return domino_error(h, (domino_status)(-(got % 1024)), "PE %d failed (status %d); its message is "
                        "on its stderr", got / 1024, -(got % 1024));
}

/* *out = the sum (take_max 0) or the largest (1) of every PE's v */
static domino_status reduce_one(domino_handle h, domino_dist D, double v, double *out, int take_max, const char *fn)
{
    if (!D || D->magic != DIST_MAGIC) return domino_error(h, DOMINO_INVALID_OBJECT, "%s: not joined", fn);
    if (!out) return domino_error(h, DOMINO_NULL_POINTER, "%s: the result is NULL", fn);
    cudaSetDevice(D->device);
    cudaError_t e = cudaMemcpy(D->value, &v, sizeof(double), cudaMemcpyHostToDevice), e2 = cudaSuccess;
    if (!e && D->shared_gpu) e = cudaDeviceSynchronize(); /* the value landed before the others read it */
    nvshmem_barrier_all();
    int rc = 0;
    if (D->shared_gpu) { /* every PE's value read through its peer pointer, summed in PE order */
        double r = take_max ? -INFINITY : 0;
        for (int pe = 0; pe < D->npes && !e2 && !rc; pe++) {
            double w = 0;
            const double *peer = (const double *)nvshmem_ptr(D->value, pe);
            if (!peer) rc = -1;
            else if (!(e2 = cudaMemcpy(&w, peer, sizeof(double), cudaMemcpyDeviceToHost))) r = take_max ? fmax(r, w) : r + w;
        }
        nvshmem_barrier_all(); /* every value read before any is written again */
        *out = r;
    } else {
        rc = take_max ? nvshmem_double_max_reduce(NVSHMEM_TEAM_WORLD, D->value + 1, D->value, 1)
                      : nvshmem_double_sum_reduce(NVSHMEM_TEAM_WORLD, D->value + 1, D->value, 1);
        e2 = cudaMemcpy(out, D->value + 1, sizeof(double), cudaMemcpyDeviceToHost);
    }
    if (e || e2) return domino_cuda_status(h, e ? e : e2, fn);
    if (rc != 0) return domino_error(h, DOMINO_DEVICE_ERROR, "%s: PE %d: the reduction failed", fn, D->rank);
    return DOMINO_SUCCESS;
}

domino_status domino_dist_max(domino_handle h, domino_dist D, double v, double *max)
{
    return reduce_one(h, D, v, max, 1, "domino_dist_max");
}

domino_status domino_dist_sum(domino_handle h, domino_dist D, double v, double *sum)
{
    return reduce_one(h, D, v, sum, 0, "domino_dist_sum");
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
    /* the heap's use, for dist_check_room (an allocation the table cannot hold is
     * counted for good: the check then errs on the side of refusing) */
    D->heap_used += bytes;
    if (D->live_count == D->live_cap) {
        int cap = D->live_cap ? 2 * D->live_cap : 64;
        void **live = (void **)domino_realloc(D->live, (size_t)cap * sizeof(void *));
        if (live) D->live = live;
        size_t *sizes = live ? (size_t *)domino_realloc(D->live_bytes, (size_t)cap * sizeof(size_t)) : NULL;
        if (sizes) D->live_bytes = sizes, D->live_cap = cap;
    }
    if (D->live_count < D->live_cap) {
        D->live[D->live_count] = *p;
        D->live_bytes[D->live_count++] = bytes;
    }
    return DOMINO_SUCCESS;
}

void domino_dist_free(domino_dist D, void *p)
{
    if (!D || D->magic != DIST_MAGIC || !p) return;
    for (int k = D->live_count - 1; k >= 0; k--)
        if (D->live[k] == p) {
            D->heap_used -= D->live_bytes[k];
            D->live[k] = D->live[--D->live_count];
            D->live_bytes[k] = D->live_bytes[D->live_count];
            break;
        }
    nvshmem_free(p);
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

domino_status domino_dist_get_bandwidth(domino_handle h, domino_dist D, size_t bytes, double *gbs)
{
    const char *fn = "domino_dist_get_bandwidth";
    void *src = NULL, *dst = NULL;
    if (!gbs) return domino_error(h, DOMINO_NULL_POINTER, "%s: gbs is NULL", fn);
    *gbs = 0;
    if (!D || D->magic != DIST_MAGIC) return domino_error(h, DOMINO_INVALID_OBJECT, "%s: not joined", fn);
    cudaSetDevice(D->device);
    /* both symmetric: a get's destination is then registered for every transport */
    domino_status s = domino_dist_malloc(h, D, bytes ? bytes : 1, &src);
    domino_status s2 = domino_dist_malloc(h, D, bytes ? bytes : 1, &dst);
    if (!s) s = s2;
    cudaError_t e = cudaSuccess;
    if (!s && (e = cudaMemset(src, 1, bytes))) s = domino_cuda_status(h, e, fn);
    if ((s = domino_dist_agree(h, D, s))) { /* every PE leaves here alike */
        domino_dist_free(D, dst);
        domino_dist_free(D, src);
        return s;
    }
    int from = (D->rank + 1) % D->npes;
    double best = 1e30;
    for (int r = 0; r < 3; r++) {
        double t0 = domino_wtime();
        nvshmem_getmem(dst, src, bytes, from);
        double t = domino_wtime() - t0;
        if (t < best) best = t;
    }
    nvshmem_barrier_all(); /* nobody frees what another still reads */
    domino_dist_free(D, dst);
    domino_dist_free(D, src);
    *gbs = best > 0 ? (double)bytes / best * 1e-9 : 0;
    return DOMINO_SUCCESS;
}

domino_status domino_dist_leave(domino_handle h, domino_dist D)
{
    if (!D || D->magic != DIST_MAGIC)
        return domino_error(h, DOMINO_INVALID_OBJECT, "domino_dist_leave: not joined");
    if (D->ring) nvshmem_free(D->ring);
    if (D->words) nvshmem_free(D->words);
    if (D->value) nvshmem_free(D->value);
    nvshmem_finalize();
#ifdef DOMINO_NVSHMEM_WITH_MPI
    if (D->mpi_owned) MPI_Finalize();
#endif
    domino_free(D->live);
    domino_free(D->live_bytes);
    D->magic = DOMINO_FREED_MAGIC;
    domino_free(D);
    return DOMINO_SUCCESS;
}

/* dst[i] += src[i], i < count */
__global__ void add_doubles_kernel(double *dst, const double *src, size_t count)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x)
        dst[i] += src[i];
}

domino_status dist_sum_doubles(domino_handle h, domino_dist D, double *dst, double *src, size_t count)
{
    const char *fn = "dist_sum_doubles";
    if (!D || D->magic != DIST_MAGIC) return domino_error(h, DOMINO_INVALID_OBJECT, "%s: not joined", fn);
    cudaSetDevice(D->device);
    cudaError_t e = cudaDeviceSynchronize();
    nvshmem_barrier_all();
    int rc = 0;
    if (!D->shared_gpu) {
        rc = nvshmem_double_sum_reduce(NVSHMEM_TEAM_WORLD, dst, src, count);
    } else { /* every PE's src added in PE order through its peer pointer */
        if (!e) e = cudaMemset(dst, 0, count * sizeof(double));
        int blocks = (int)((count + 255) / 256 < 4096 ? (count + 255) / 256 : 4096);
        for (int pe = 0; pe < D->npes && !e && !rc && count; pe++) {
            const double *peer = (const double *)nvshmem_ptr(src, pe);
            if (!peer) rc = -1;
            else add_doubles_kernel<<<blocks, 256>>>(dst, peer, count);
            e = cudaGetLastError();
        }
        if (!e) e = cudaDeviceSynchronize();
        nvshmem_barrier_all(); /* every src read before any is written again */
    }
    if (e) return domino_cuda_status(h, e, fn);
    if (rc) return domino_error(h, DOMINO_DEVICE_ERROR, "%s: PE %d: the sum over PEs failed", fn, D->rank);
    return DOMINO_SUCCESS;
}

/* the symmetric heap's size per PE as NVSHMEM_SYMMETRIC_SIZE sets it (a
 * number with an optional k, m, g or t suffix, powers of 2), else
 * NVSHMEM's default of 1 GiB */
static double heap_limit(void)
{
    const char *v = getenv("NVSHMEM_SYMMETRIC_SIZE");
    char *end = NULL;
    double x = v ? strtod(v, &end) : 0;
    if (!v || end == v || x <= 0) return (double)(1 << 30);
    int shift = 0;
    switch (*end) {
    case 'k': case 'K': shift = 10; break;
    case 'm': case 'M': shift = 20; break;
    case 'g': case 'G': shift = 30; break;
    case 't': case 'T': shift = 40; break;
    default: break;
    }
    return ldexp(x, shift);
}

domino_status dist_sum_to_host(domino_handle h, domino_dist D, domino_status s, double *sum, double *mine,
                               size_t count, double *y, const char *what)
{
    if ((s = domino_dist_agree(h, D, s))) return s;
    s = dist_sum_doubles(h, D, sum, mine, count);
    cudaError_t e = cudaSuccess;
    if (!s && (e = cudaMemcpy(y, sum, count * sizeof(double), cudaMemcpyDeviceToHost)))
        s = domino_cuda_status(h, e, what);
    return domino_dist_agree(h, D, s);
}

domino_status dist_check_room(domino_handle h, domino_dist D, size_t bytes, const char *what)
{
    size_t free_bytes = 0, total = 0;
    domino_status s = DOMINO_SUCCESS;
    if (!D || D->magic != DIST_MAGIC) return domino_error(h, DOMINO_INVALID_OBJECT, "dist_check_room: not joined");
    cudaSetDevice(D->device);
    cudaError_t e = cudaMemGetInfo(&free_bytes, &total);
    /* NVSHMEM maps the heap in chunks and keeps its own structures: keep room */
    size_t margin = ((size_t)1 << 30) + bytes / 32, per_pe = bytes;
    if (D->shared_gpu) bytes *= (size_t)D->npes; /* every PE on the one GPU asks alike (an upper bound) */
    double limit = heap_limit();
    if (e) s = domino_cuda_status(h, e, what);
    else if ((double)(D->heap_used + per_pe) + (double)(256 << 20) > limit) /* NVSHMEM fails inside
                                                                         nvshmem_malloc there */
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: PE %d needs %.2f GB more symmetric memory, %.2f GB is in use, "
                         "and NVSHMEM_SYMMETRIC_SIZE allows %.2f GB", what, D->rank, per_pe / 1e9,
                         D->heap_used / 1e9, limit / 1e9);
    else if (bytes + margin > free_bytes)
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: PE %d needs %.2f GB of symmetric memory, its GPU has %.2f GB "
                         "free", what, D->rank, bytes / 1e9, free_bytes / 1e9);
    return domino_dist_agree(h, D, s);
}
