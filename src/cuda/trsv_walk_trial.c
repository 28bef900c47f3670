/* trsv_walk_trial.c: auto's choice between the thread engine's walks.
 *
 * Summing a row in stored order (each pending x met in turn) or in the
 * order the x arrive (pull_walk_any) wins on different matrices, by up to
 * 1.6x either way, and nothing cheap in the pattern told which (H100,
 * bench/results/h100-trsv6: arrival order faster on cage8, copter2,
 * fidapex6, bayer10, a banded DAG; slower on bcsstk33, whitaker3, R-MAT, a
 * DAG of 10^5 levels).  A plan with a packing (trsv_packed.cu: rows on
 * groups of lanes, small systems) has a third walk.  So an auto plan that
 * is not deterministic times its first four (six) solves, taking the walks
 * in turn, with CUDA events, and keeps the fastest (by the best of its two
 * solves; another walk than stored order only when at least 2% faster).
 * The choice is read without waiting: until the last trial's end event
 * has completed, solves keep stored order.  A failed event call ends the
 * trial in stored order. */
#include "trsv_plan.h"

#define TRIAL_MOST 6 /* p->walk_trials: 4, or 6 with the packed walk */
#define TRIAL_MARGIN 0.98f /* arrival order must take at most this share of stored order's time */

int domino_trial_events_make(cudaEvent_t *ev, int count)
{
    int failed = 0;
    for (int k = 0; k < count; k++)
        if (domino_event_take(&ev[k]) != cudaSuccess) {
            ev[k] = NULL;
            failed = 1;
        }
    if (failed) (void)cudaGetLastError(); /* not sticky: clear it */
    return failed ? -1 : 0;
}

void domino_trial_events_free(cudaEvent_t *ev, int count)
{
    for (int k = 0; k < count; k++)
        if (ev[k]) domino_event_give(ev[k]);
}

/* the walk of trial solve t: 0 stored order, 1 arrival order, 2 packed */
static void set_walk(struct domino_trsv_plan_s *p, int walk)
{
    p->tune.any_order = walk == 1;
    p->packed = walk == 2;
}

/* set the walk (p->tune.any_order, p->packed) of the solve about to
 * launch, and record the start of a trial solve; call before the launch */
void domino_walk_trial_begin(struct domino_trsv_plan_s *p, cudaStream_t stream)
{
    int t = p->walk_trial, walks = p->walk_trials / 2;
    if (t < 0) return;
    if (t < p->walk_trials && !p->trial_ev[t][0] && /* each pair made when first needed (a solve
                                                        may fail and come again) */
        domino_trial_events_make(p->trial_ev[t], 2)) {
        set_walk(p, 0);
        p->walk_trial = -1;
        return;
    }
    if (t < p->walk_trials) {
        set_walk(p, t % walks);
        if (cudaEventRecord(p->trial_ev[t][0], stream) != cudaSuccess) {
            (void)cudaGetLastError();
            set_walk(p, 0);
            p->walk_trial = -1;
        }
        return;
    }
    /* the choice, once the last trial has run */
    set_walk(p, 0);
    cudaError_t q = cudaEventQuery(p->trial_ev[p->walk_trials - 1][1]);
    if (q == cudaErrorNotReady) return;
    p->walk_trial = -1;
    if (q != cudaSuccess) {
        (void)cudaGetLastError();
        return;
    }
    float ms[TRIAL_MOST];
    for (int k = 0; k < p->walk_trials; k++)
        if (cudaEventElapsedTime(&ms[k], p->trial_ev[k][0], p->trial_ev[k][1]) != cudaSuccess) {
            (void)cudaGetLastError();
            return;
        }
    float best[3];
    for (int w = 0; w < walks; w++) best[w] = ms[w] < ms[w + walks] ? ms[w] : ms[w + walks];
    int pick = 0;
    for (int w = 1; w < walks; w++)
        if (best[w] <= TRIAL_MARGIN * best[0] && (pick == 0 || best[w] < best[pick])) pick = w;
    set_walk(p, pick);
}

/* record the end of a trial solve; call after a successful launch */
void domino_walk_trial_end(struct domino_trsv_plan_s *p, cudaStream_t stream)
{
    int t = p->walk_trial;
    if (t < 0 || t >= p->walk_trials) return;
    if (cudaEventRecord(p->trial_ev[t][1], stream) != cudaSuccess) {
        (void)cudaGetLastError();
        set_walk(p, 0);
        p->walk_trial = -1;
        return;
    }
    p->walk_trial = t + 1;
}

/* the trial's events */
void domino_walk_trial_free(struct domino_trsv_plan_s *p)
{
    domino_trial_events_free(&p->trial_ev[0][0], 2 * TRIAL_MOST);
}
