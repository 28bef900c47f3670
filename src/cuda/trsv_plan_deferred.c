/* trsv_plan_deferred.c: AUTO's engine choice for a small system, made on a
 * host thread beside the plan's first solves.
 *
 * On a small system (at most DOMINO_LEVELBLOCK_AUTO_ROWS rows, one
 * right-hand side, the caller's arrays CSR(S), not deterministic) AUTO
 * picks between the thread engine, the structured-grid engine (a stencil
 * pattern) and the level-block engine (2 to 64 rows a level), from the
 * pattern on the host: its download, the stencil detection's samples, the
 * level count and the level order took 0.05-1.3 ms on an H200, two to ten
 * times the thread engine's own set-up (bench/results/h200-setup15).  So
 * the analysis sets up the thread engine, which solves any system, and
 * starts domino_trsv_deferred_start's thread, which downloads the pattern
 * on a stream of its own and makes the choice there; the first solve that
 * finds it finished (every solve looks, without waiting; the
 * one after DOMINO_DEFER_WAIT_SOLVES waits for it) verifies a stencil candidate on
 * the GPU and moves the plan to the engine chosen, as the analysis would
 * have.  The thread reads only dA's device arrays and its own host memory:
 * it touches neither the handle nor its stream.  DOMINO_DEFER_CHOICE=0
 * makes the choice in the analysis again (experiments). */
#include "trsv_plan.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#define DOMINO_DEFER_WAIT_SOLVES 7 /* the eighth solve waits: after auto's six walk-trial solves and its step trial */

struct trsv_deferred {
    pthread_t thread;        /* the host thread making the choice */
    int threaded;            /* 1: it runs there (0: no thread could start; made in the analysis) */
    atomic_int done;         /* 1 once it has finished: the fields below are set */
    /* what it reads */
    int device;              /* CUDA device of dA */
    domino_dmatrix dA;       /* the system (its pattern, downloaded once) */
    domino_fill fill;        /* the stored triangle (CSR(S): the plan's s_upper) */
    /* what it finds */
    int failed;              /* 1: a CUDA call or an allocation failed (the plan stays) */
    int ncand;               /* stencil candidates, cand[0..ncand) */
    domino_stencil_candidate cand[DOMINO_STENCIL_CANDIDATES];
    int32_t levels;          /* levels of S */
    trsv_level_order order;  /* the level-block order, block NULL when the engine does not pay */
    double download_s;       /* the pattern's download */
    double seconds;          /* the thread's whole time */
};

static void *deferred_main(void *arg)
{
    struct trsv_deferred *d = arg;
    double t0 = domino_wtime();
    int32_t n = d->dA->nrows, *level = NULL;
    int64_t *ptr = NULL;
    int32_t *ind = NULL;
    cudaStream_t stream = NULL;
    size_t ptr_bytes = ((size_t)n + 1) * sizeof(int64_t), ind_bytes = (size_t)d->dA->nnz * sizeof(int32_t);
    int upper = d->fill == DOMINO_UPPER;
    ptr = malloc(ptr_bytes);
    ind = malloc(ind_bytes + 1);
    level = malloc((size_t)n * sizeof(int32_t) + 1);
    if (!ptr || !ind || !level || cudaSetDevice(d->device) != cudaSuccess ||
        cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) != cudaSuccess ||
        cudaMemcpyAsync(ptr, d->dA->ptr, ptr_bytes, cudaMemcpyDeviceToHost, stream) != cudaSuccess ||
        cudaMemcpyAsync(ind, d->dA->ind, ind_bytes, cudaMemcpyDeviceToHost, stream) != cudaSuccess ||
        cudaStreamSynchronize(stream) != cudaSuccess) {
        (void)cudaGetLastError(); /* this thread's: the plan stays on the thread engine */
        d->failed = 1;
        goto done;
    }
    d->download_s = domino_wtime() - t0;
    d->ncand = domino_stencil_candidates(d->dA, d->fill, ptr, ind, d->cand);
    d->levels = trsv_levels(n, ptr, ind, 1, upper, level);
    if (domino_levelblock_pays(n, d->levels) &&
        trsv_level_order_make(n, ptr, ind, 1, upper, level, d->levels, &d->order))
        d->failed = 1; /* out of host memory, or past the engine's 32-bit offsets */
done:
    if (stream) cudaStreamDestroy(stream);
    free(ptr);
    free(ind);
    free(level);
    d->seconds = domino_wtime() - t0;
    atomic_store_explicit(&d->done, 1, memory_order_release);
    return NULL;
}

domino_status domino_trsv_deferred_start(domino_handle h, struct domino_gpu_context *gpu,
                                         struct domino_trsv_plan_s *p)
{
    struct trsv_deferred *d = domino_calloc(1, sizeof(*d));
    if (!d) return domino_error(h, DOMINO_OUT_OF_MEMORY, "domino_trsv_analysis: out of memory");
    atomic_init(&d->done, 0);
    d->device = gpu->device;
    d->dA = p->dA;
    d->fill = p->s_upper ? DOMINO_UPPER : DOMINO_LOWER;
    d->threaded = pthread_create(&d->thread, NULL, deferred_main, d) == 0;
    if (!d->threaded) (void)deferred_main(d); /* no thread to be had: the choice made now */
    p->deferred = d;
    p->solves = 0;
    return DOMINO_SUCCESS;
}

/* the plan on the structured-grid engine, from the grid found */
static domino_status take_stencil(domino_handle h, struct domino_trsv_plan_s *p, domino_stencil st,
                                  const int32_t *grid)
{
    domino_status s = domino_dstencil_from_dmatrix(h, p->dA, st, grid[0], grid[1], grid[2],
                                                   p->s_upper ? DOMINO_UPPER : DOMINO_LOWER, &p->dstencil);
    if (!s) s = domino_dstencil_make_compact(h, p->dstencil);
    if (s) {
        domino_dstencil_free(p->dstencil);
        p->dstencil = NULL;
        return s;
    }
    p->engine = DOMINO_ENGINE_STENCIL;
    return DOMINO_SUCCESS;
}

/* the plan on the level-block engine: the order and the values to the room
 * the analysis kept for them, no one-launch flags (it does not read them) */
static domino_status take_levelblock(domino_handle h, struct domino_gpu_context *gpu,
                                     struct domino_trsv_plan_s *p, const trsv_level_order *o)
{
    char *base = (char *)p->buffer;
    domino_status s = domino_levelblock_setup(h, gpu, p, base + p->lb_room[0], base + p->lb_room[1],
                                              base + p->lb_room[2], o);
    if (s) return s;
    domino_dmatrix dA = p->dA;
    cudaError_t e = domino_launch_levelblock_values(gpu->stream, p->type, p->lb_m, p->lb_src, p->n, p->lb.row,
                                                    dA->ptr, dA->ind, dA->val, (void *)p->lb.val,
                                                    (void *)p->lb.diag);
    if (!e) e = domino_launch_status_reset(gpu->stream, p->st);
    if (!e) e = cudaStreamSynchronize(gpu->stream);
    if (e) return domino_cuda_status(h, e, "domino_trsv_solve: level order values");
    p->engine = DOMINO_ENGINE_LEVELBLOCK;
    p->flags[0] = p->flags[1] = NULL;
    return DOMINO_SUCCESS;
}

domino_status domino_trsv_deferred_apply(domino_handle h, struct domino_gpu_context *gpu,
                                         struct domino_trsv_plan_s *p, int force)
{
    struct trsv_deferred *d = p->deferred;
    if (!d) return DOMINO_SUCCESS;
    int wait = force || p->solves >= DOMINO_DEFER_WAIT_SOLVES;
    if (!wait && !atomic_load_explicit(&d->done, memory_order_acquire)) return DOMINO_SUCCESS;
    double t0 = domino_wtime();
    if (d->threaded) pthread_join(d->thread, NULL);
    p->deferred = NULL;
    domino_status s = DOMINO_SUCCESS;
    domino_stencil st = DOMINO_D2N5;
    int32_t grid[3] = {0, 0, 0};
    int found = 0;
    domino_engine before = p->engine;
    if (!d->failed && d->ncand)
        s = domino_stencil_verify(h, p->dA, d->fill, d->cand, d->ncand, &st, &grid[0], &grid[1], &grid[2],
                                  &found);
    if (!s && found) s = take_stencil(h, p, st, grid);
    else if (!s && !d->failed && d->order.block) s = take_levelblock(h, gpu, p, &d->order);
    if (!s && p->engine != before) { /* the thread engine's trials end with it */
        p->walk_trial = -1;
        p->step_trial = -1;
        p->packed = 0;
        p->tune.any_order = 0;
    }
    if (domino_env_int("DOMINO_ANALYSIS_TRACE", 0))
        fprintf(stderr,
                "deferred choice: %s after %d solves%s, n %d, levels %d, candidates %d: thread %.3f ms "
                "(download %.3f), %s %.3f ms\n",
                domino_engine_name(p->engine), p->solves, d->failed ? " (its thread failed)" : "", p->n,
                d->levels, d->ncand, 1e3 * d->seconds, 1e3 * d->download_s, wait ? "waited and applied" : "applied",
                1e3 * (domino_wtime() - t0));
    trsv_level_order_free(&d->order);
    domino_free(d);
    return s;
}

void domino_trsv_deferred_free(struct domino_trsv_plan_s *p)
{
    struct trsv_deferred *d = p->deferred;
    if (!d) return;
    if (d->threaded) pthread_join(d->thread, NULL);
    trsv_level_order_free(&d->order);
    domino_free(d);
    p->deferred = NULL;
}

domino_status domino_trsv_plan_settle(domino_handle h, domino_trsv_plan p)
{
    if (!p) return domino_error(h, DOMINO_NULL_POINTER, "domino_trsv_plan_settle: plan is NULL");
    if (p->magic != DOMINO_PLAN_MAGIC)
        return domino_error(h, DOMINO_INVALID_OBJECT, "domino_trsv_plan_settle: plan is not live");
    if (!p->deferred) return DOMINO_SUCCESS;
    struct domino_gpu_context *gpu;
    domino_status s = domino_gpu_context_get(h, &gpu);
    return s ? s : domino_trsv_deferred_apply(h, gpu, p, 1);
}
