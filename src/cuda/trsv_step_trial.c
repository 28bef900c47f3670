/* trsv_step_trial.c: auto's choice between the thread engine and the
 * step-block engine (trsv_stepblock.cu).
 *
 * The step-block engine hands dependencies over inside one SM, so it wins
 * where the thread engine's time goes into dependency hops through L2
 * (deep, narrow systems) and loses badly where it goes into bandwidth (one
 * SM reads a fraction of what the GPU reads).  Which one holds is not
 * known without counting levels, which costs as much as a solve.  So an
 * auto plan on the thread engine (not deterministic) times its first
 * solve with CUDA events; when that solve took longer than one SM could
 * read the system (bytes / STEP_TRIAL_SM_BYTES_PER_MS) and longer than
 * the step-block engine has ever taken for that many rows
 * (STEP_TRIAL_NS_PER_ROW), the next solve runs the step-block engine,
 * timed too, and the plan keeps it when it took at most
 * STEP_TRIAL_MARGIN of the thread engine's time.  (The trial solve is the
 * price: on the H200 the step-block engine took up to 100x the thread
 * engine's time on shallow systems, bench/results/h200-stepblock; the
 * per-row floor keeps those from trying it.)  The times
 * are read without waiting: until an end event has completed, solves stay
 * on the thread engine.  DOMINO_STEP_TRIAL=0 turns the trial off. */
#include "trsv_plan.h"

#define STEP_TRIAL_SM_BYTES_PER_MS 2.0e8 /* one SM's read bandwidth, generously: 200 GB/s */
#define STEP_TRIAL_NS_PER_ROW 8.0 /* its best on an H200: 8.7 ms for 10^6 rows, 90 ms for 10^7 */
#define STEP_TRIAL_MARGIN 0.9f

/* bytes a solve reads and writes: entries, offsets, b and x */
static double solve_bytes(const struct domino_trsv_plan_s *p)
{
    double vs = (double)domino_type_size(p->type);
    return (double)p->dA->nnz * (4.0 + vs) + 8.0 * ((double)p->n + 1) + 2.0 * vs * p->n * p->nrhs;
}

/* an event pair's time, or -1 when not complete (or failed: then the trial ends) */
static float elapsed_or_pending(struct domino_trsv_plan_s *p, int k)
{
    cudaError_t q = cudaEventQuery(p->step_ev[k][1]);
    if (q == cudaErrorNotReady) return -1.0f;
    float ms = 0.0f;
    if (q != cudaSuccess || cudaEventElapsedTime(&ms, p->step_ev[k][0], p->step_ev[k][1]) != cudaSuccess) {
        (void)cudaGetLastError();
        p->step_trial = -1;
        return -1.0f;
    }
    return ms;
}

domino_engine domino_step_trial_begin(struct domino_trsv_plan_s *p, cudaStream_t stream)
{
    int t = p->step_trial;
    p->step_timing = -1;
    if (t < 0) return p->engine;
    int k = -1; /* the event pair this solve records, if any */
    domino_engine run = p->engine;
    if (t == 0) {
        k = 0;
    } else if (t == 1) {
        float ms = elapsed_or_pending(p, 0);
        if (p->step_trial < 0 || ms < 0) return run;
        p->step_thread_ms = ms;
        if (ms * STEP_TRIAL_SM_BYTES_PER_MS <= solve_bytes(p) ||
            ms <= 1e-6 * STEP_TRIAL_NS_PER_ROW * p->n * p->nrhs) {
            p->step_trial = -1; /* bandwidth bound, or faster than the engine ever was */
            return run;
        }
        k = 1;
        run = DOMINO_ENGINE_STEPBLOCK;
    } else {
        float ms = elapsed_or_pending(p, 1);
        if (p->step_trial < 0 || ms < 0) return run;
        p->step_trial = -1;
        if (ms <= STEP_TRIAL_MARGIN * p->step_thread_ms) {
            p->engine = DOMINO_ENGINE_STEPBLOCK;
            p->walk_trial = -1;
        }
        return p->engine;
    }
    if ((!p->step_ev[k][0] && /* each pair made when first needed (a solve may fail and come again) */
         domino_trial_events_make(p->step_ev[k], 2)) ||
        cudaEventRecord(p->step_ev[k][0], stream) != cudaSuccess) {
        (void)cudaGetLastError();
        p->step_trial = -1;
        return p->engine;
    }
    p->step_timing = k;
    return run;
}

void domino_step_trial_end(struct domino_trsv_plan_s *p, cudaStream_t stream)
{
    int k = p->step_timing;
    p->step_timing = -1;
    if (k < 0 || p->step_trial < 0) return;
    if (cudaEventRecord(p->step_ev[k][1], stream) != cudaSuccess) {
        (void)cudaGetLastError();
        p->step_trial = -1;
        return;
    }
    p->step_trial = k + 1;
}

void domino_step_trial_free(struct domino_trsv_plan_s *p)
{
    domino_trial_events_free(&p->step_ev[0][0], 4);
}
