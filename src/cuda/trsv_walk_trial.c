/* trsv_walk_trial.c: auto's choice between the thread engine's two walks.
 *
 * Summing a row in stored order (each pending x met in turn) or in the
 * order the x arrive (pull_walk_any) wins on different matrices, by up to
 * 1.6x either way, and nothing cheap in the pattern told which (H100,
 * bench/results/h100-trsv6: arrival order faster on cage8, copter2,
 * fidapex6, bayer10, a banded DAG; slower on bcsstk33, whitaker3, R-MAT, a
 * DAG of 10^5 levels).  So an auto plan that is not deterministic times its
 * first four solves, alternating stored order and arrival order, with CUDA
 * events, and keeps the faster walk (by the best of its two solves; arrival
 * order only when at least 2% faster).  The choice is read without waiting:
 * until the fourth trial's end event has completed, solves keep stored
 * order.  A failed event call ends the trial in stored order. */
#include "trsv_plan.h"

#define TRIAL_SOLVES 4
#define TRIAL_MARGIN 0.98f /* arrival order must take at most this share of stored order's time */

int domino_trial_events_make(cudaEvent_t *ev, int count)
{
    int failed = 0;
    for (int k = 0; k < count; k++)
        if (cudaEventCreate(&ev[k]) != cudaSuccess) {
            ev[k] = NULL;
            failed = 1;
        }
    if (failed) (void)cudaGetLastError(); /* not sticky: clear it */
    return failed ? -1 : 0;
}

void domino_trial_events_free(cudaEvent_t *ev, int count)
{
    for (int k = 0; k < count; k++)
        if (ev[k]) cudaEventDestroy(ev[k]);
}

/* set p->tune.any_order for the solve about to launch, and record the
 * start of a trial solve; call before the launch */
void domino_walk_trial_begin(struct domino_trsv_plan_s *p, cudaStream_t stream)
{
    int t = p->walk_trial;
    if (t < 0) return;
    if (t == 0 && !p->trial_ev[0][0] && /* made once (a first solve may fail and come again) */
        domino_trial_events_make(&p->trial_ev[0][0], 2 * TRIAL_SOLVES)) {
        p->walk_trial = -1;
        return;
    }
    if (t < TRIAL_SOLVES) {
        p->tune.any_order = t & 1;
        if (cudaEventRecord(p->trial_ev[t][0], stream) != cudaSuccess) {
            (void)cudaGetLastError();
            p->tune.any_order = 0;
            p->walk_trial = -1;
        }
        return;
    }
    /* the choice, once the last trial has run */
    p->tune.any_order = 0;
    cudaError_t q = cudaEventQuery(p->trial_ev[TRIAL_SOLVES - 1][1]);
    if (q == cudaErrorNotReady) return;
    p->walk_trial = -1;
    if (q != cudaSuccess) {
        (void)cudaGetLastError();
        return;
    }
    float ms[TRIAL_SOLVES];
    for (int k = 0; k < TRIAL_SOLVES; k++)
        if (cudaEventElapsedTime(&ms[k], p->trial_ev[k][0], p->trial_ev[k][1]) != cudaSuccess) {
            (void)cudaGetLastError();
            return;
        }
    float stored = ms[0] < ms[2] ? ms[0] : ms[2], any = ms[1] < ms[3] ? ms[1] : ms[3];
    p->tune.any_order = any <= TRIAL_MARGIN * stored;
}

/* record the end of a trial solve; call after a successful launch */
void domino_walk_trial_end(struct domino_trsv_plan_s *p, cudaStream_t stream)
{
    int t = p->walk_trial;
    if (t < 0 || t >= TRIAL_SOLVES) return;
    if (cudaEventRecord(p->trial_ev[t][1], stream) != cudaSuccess) {
        (void)cudaGetLastError();
        p->tune.any_order = 0;
        p->walk_trial = -1;
        return;
    }
    p->walk_trial = t + 1;
}

/* the trial's events */
void domino_walk_trial_free(struct domino_trsv_plan_s *p)
{
    domino_trial_events_free(&p->trial_ev[0][0], 2 * TRIAL_SOLVES);
}
