/* trsv_plan_deferred.c: AUTO's engine choice for a small system, made
 * beside the plan's first solves.
 *
 * On a small system (at most DOMINO_LEVELBLOCK_AUTO_ROWS rows, one
 * right-hand side, the caller's arrays CSR(S), not deterministic) AUTO
 * picks between the thread engine, the structured-grid engine (a stencil
 * pattern) and the level-block engine (2 to 64 rows a level), from the
 * pattern on the host: its download, the stencil detection's samples, the
 * level count and the level order took 0.05-1.3 ms on an H200, two to ten
 * times the thread engine's own set-up (bench/results/h200-setup15).  So
 * the analysis sets up the thread engine, which solves any system, and
 * queues on the handle's side stream (domino_defer_pool) the pattern's
 * download into pinned memory and a host function that makes the choice
 * from it (host work only: no CUDA call, no handle).  The first solve that
 * finds it finished (every solve looks, without waiting; the one after
 * DOMINO_DEFER_WAIT_SOLVES waits for it) verifies a stencil candidate on
 * the GPU and moves the plan to the engine chosen, as the analysis would
 * have.  A first version ran the choice on a thread of its own, which
 * downloaded the pattern itself: its CUDA calls slowed the first solves by
 * up to 80 us (h200-setup15/check).  One job a handle at a time: while one
 * is under way, another small system's analysis makes its choice itself.
 * DOMINO_DEFER_CHOICE=0 always does (experiments).  The choice only makes
 * a correct plan faster: where it cannot be started or applied (a failed
 * copy, out of memory), the plan stays on the thread engine and the call
 * succeeds (DOMINO_ANALYSIS_TRACE=1 says why). */
#include "trsv_plan.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#define DOMINO_DEFER_WAIT_SOLVES 7 /* the eighth solve waits: after auto's six walk-trial solves and its step trial */

struct trsv_deferred {
    atomic_int done;         /* 1 once the host function has finished: the fields below are set */
    struct domino_defer_pool *pool; /* the side stream and the pinned pattern (pool->buf) */
    /* what it reads */
    domino_dmatrix dA;       /* the system: host fields only (the pattern is in pool->buf) */
    domino_fill fill;        /* the stored triangle (CSR(S): the plan's s_upper) */
    /* what it finds */
    int failed;              /* 1: out of host memory (the plan stays) */
    int ncand;               /* stencil candidates, cand[0..ncand) */
    domino_stencil_candidate cand[DOMINO_STENCIL_CANDIDATES];
    int32_t levels;          /* levels of S */
    trsv_level_order order;  /* the level-block order, block NULL when the engine does not pay */
    double seconds;          /* the host function's time */
};

/* the choice, from the pattern in pinned memory (a host function of the
 * side stream: no CUDA calls) */
static void CUDART_CB deferred_choice(void *arg)
{
    struct trsv_deferred *d = arg;
    double t0 = domino_wtime();
    int32_t n = d->dA->nrows;
    const int64_t *ptr = (const int64_t *)d->pool->buf;
    const int32_t *ind = (const int32_t *)(ptr + n + 1);
    int upper = d->fill == DOMINO_UPPER;
    int32_t *level = malloc((size_t)n * sizeof(int32_t) + 1);
    if (!level) {
        d->failed = 1;
    } else {
        d->ncand = domino_stencil_candidates(d->dA, d->fill, ptr, ind, d->cand);
        d->levels = trsv_levels(n, ptr, ind, 1, upper, level);
        if (domino_levelblock_pays(n, d->levels) &&
            trsv_level_order_make(n, ptr, ind, 1, upper, level, d->levels, &d->order))
            d->failed = 1; /* out of host memory, or past the engine's 32-bit offsets */
    }
    free(level);
    d->seconds = domino_wtime() - t0;
    atomic_store_explicit(&d->done, 1, memory_order_release);
}

size_t domino_trsv_deferred_bytes(domino_dmatrix dA)
{
    return ((size_t)dA->nrows + 1) * sizeof(int64_t) + (size_t)dA->nnz * sizeof(int32_t) + 8;
}

/* the plan left on the thread engine, its pool given back, when its job
 * could not be started (why: for the trace) */
static domino_status not_started(struct domino_trsv_plan_s *p, const char *why)
{
    domino_defer_pool_give(p->defer_pool);
    p->defer_pool = NULL;
    if (domino_env_int("DOMINO_ANALYSIS_TRACE", 0))
        fprintf(stderr, "deferred choice: not started (%s): the plan stays on the thread engine\n", why);
    return DOMINO_SUCCESS;
}

domino_status domino_trsv_deferred_start(domino_handle h, struct domino_trsv_plan_s *p)
{
    (void)h;
    domino_dmatrix dA = p->dA;
    size_t ptr_bytes = ((size_t)dA->nrows + 1) * sizeof(int64_t), ind_bytes = (size_t)dA->nnz * sizeof(int32_t);
    struct trsv_deferred *d = domino_calloc(1, sizeof(*d));
    if (!d) return not_started(p, "out of host memory");
    atomic_init(&d->done, 0);
    d->dA = dA;
    d->fill = p->s_upper ? DOMINO_UPPER : DOMINO_LOWER;
    d->pool = p->defer_pool; /* before the host function is queued: it reads it */
    /* dA's arrays are on the device: the analysis synchronized its stream */
    cudaStream_t side = p->defer_pool->side;
    char *buf = p->defer_pool->buf;
    cudaError_t e = cudaMemcpyAsync(buf, dA->ptr, ptr_bytes, cudaMemcpyDeviceToHost, side);
    if (!e) e = cudaMemcpyAsync(buf + ptr_bytes, dA->ind, ind_bytes, cudaMemcpyDeviceToHost, side);
    if (!e) e = cudaLaunchHostFunc(side, deferred_choice, d);
    if (e) { /* the host function was not queued: nothing reads d */
        (void)cudaStreamSynchronize(side);
        (void)cudaGetLastError();
        domino_free(d);
        return not_started(p, cudaGetErrorString(e));
    }
    p->defer_pool = NULL;
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
    cudaError_t e = domino_launch_status_reset(gpu->stream, p->st);
    if (e) return domino_cuda_status(h, e, "domino_trsv_solve: level-block engine");
    if ((s = domino_levelblock_values(h, gpu, p))) return s;
    p->engine = DOMINO_ENGINE_LEVELBLOCK;
    p->flags[0] = p->flags[1] = NULL;
    return DOMINO_SUCCESS;
}

/* the side stream waited for: 1 when the host function has finished.  0
 * only after a CUDA error broke the stream, when the function may not have
 * run, or may run still */
static int job_over(struct trsv_deferred *d)
{
    if (cudaStreamSynchronize(d->pool->side) != cudaSuccess) (void)cudaGetLastError();
    return atomic_load_explicit(&d->done, memory_order_acquire);
}

/* the job's end: its pool given back, its findings dropped; where the
 * host function may still read them (job_over 0), the job and the pool are
 * left as they are (a leak, after a CUDA error only) rather than freed */
static void deferred_end(struct domino_trsv_plan_s *p)
{
    struct trsv_deferred *d = p->deferred;
    p->deferred = NULL;
    if (!job_over(d)) return;
    domino_defer_pool_give(d->pool);
    trsv_level_order_free(&d->order);
    domino_free(d);
}

domino_status domino_trsv_deferred_apply(domino_handle h, struct domino_gpu_context *gpu,
                                         struct domino_trsv_plan_s *p, int force)
{
    struct trsv_deferred *d = p->deferred;
    if (!d) return DOMINO_SUCCESS;
    int wait = force || p->solves >= DOMINO_DEFER_WAIT_SOLVES;
    if (!wait && !atomic_load_explicit(&d->done, memory_order_acquire)) return DOMINO_SUCCESS;
    double t0 = domino_wtime();
    int over = job_over(d); /* done, or waited for; 0: the download failed */
    int failed = !over || d->failed;
    domino_status s = DOMINO_SUCCESS;
    domino_stencil st = DOMINO_D2N5;
    int32_t grid[3] = {0, 0, 0};
    int found = 0;
    domino_engine before = p->engine;
    if (!failed && d->ncand)
        s = domino_stencil_verify(h, p->dA, d->fill, d->cand, d->ncand, &st, &grid[0], &grid[1], &grid[2],
                                  &found);
    if (!s && found) s = take_stencil(h, p, st, grid);
    else if (!s && !failed && d->order.block) s = take_levelblock(h, gpu, p, &d->order);
    /* out of device memory on the way (the check's scratch, the stencil's copy,
     * the level-block set-up): the plan stays on its engine, which solves */
    const char *kept = s ? domino_last_error(h) : NULL;
    if (s) {
        (void)cudaGetLastError();
        p->engine = before;
        s = DOMINO_SUCCESS;
    }
    if (p->engine != before) { /* the thread engine's trials end with it */
        p->walk_trial = -1;
        p->step_trial = -1;
        p->packed = 0;
        p->tune.any_order = 0;
    }
    if (domino_env_int("DOMINO_ANALYSIS_TRACE", 0))
        fprintf(stderr,
                "deferred choice: %s after %d solves%s%s%s, n %d, levels %d, candidates %d: host function "
                "%.3f ms, %s %.3f ms\n",
                domino_engine_name(p->engine), p->solves, failed ? " (failed: kept)" : "", kept ? ", kept: " : "",
                kept ? kept : "", p->n, over ? d->levels : 0, over ? d->ncand : 0, over ? 1e3 * d->seconds : 0.0,
                wait ? "waited and applied" : "applied", 1e3 * (domino_wtime() - t0));
    deferred_end(p);
    return s;
}

void domino_trsv_deferred_free(struct domino_trsv_plan_s *p)
{
    if (p->deferred) deferred_end(p);
    domino_defer_pool_give(p->defer_pool); /* taken, never started */
    p->defer_pool = NULL;
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
