/* dist_pull_lanes.c: how many lanes the PULL solver gives one row, from
 * the level structure (pull_lanes 0) */
#include "internal.h"

/* Enough groups in flight: the mean rows of a level on one PE, times the
 * lanes, reach DOMINO_DIST_PULL_THREADS on one PE and half that on
 * several.  The widest levels get a thread per row, narrow ones a warp.
 * - One PE (bench/results/h200x4-trsv-dist-v1, before the copies): the
 *   fastest of 4/8/16/32 lanes on D3N7 256^3, D3N27 192^3, a 10^7-row DAG
 *   of 1000 levels and R-MAT 22.
 * - Several PEs, where each value read across PEs is copied into its
 *   reader's memory (bench/results/h200x4-hop16/lanes, 2 to 32 lanes on 2
 *   and 4 H200s, the 10^7-row DAGs of 10, 100 and 1000 levels, D3N7
 *   256^3, D3N27 192^3): the full threshold took 5 of the 10 fastest (the
 *   1000-level DAG 18% slower than the best on 2 PEs and 7% on 4, D3N27
 *   26% on 2 PEs); half of it takes 9 of 10, all but D3N7 on 4 PEs (8
 *   lanes, 13% slower than 16: on 2 PEs the same product, 4 lanes, is the
 *   fastest).
 * - A thread per row, on a grid of 6 blocks an SM instead of 12
 *   (bench/results/h200-pull-thread17, the 10^7-row DAGs of 10 and 100
 *   levels): on one H200 1.00 and 1.13 ms against 1.21 and 1.31 with 2
 *   lanes; on 2 PEs 0.628 and 0.626 against 0.701 and 0.775 (on 12 blocks
 *   an SM, where 2 lanes had won before, a thread per row took 0.736 and
 *   0.751).  On 4 PEs the 100-level DAG (25000 rows a level a PE, under
 *   the threshold) keeps 2 lanes: 0.530 against 0.562. */
int domino_dist_pull_lanes(int32_t n, int32_t nlevels, int npes)
{
    if (n < 1 || nlevels < 1 || npes < 1) return 32;
    double rows = (double)n / nlevels / npes; /* a level's rows on one PE */
    double threads = npes > 1 ? DOMINO_DIST_PULL_THREADS / 2 : DOMINO_DIST_PULL_THREADS;
    int lanes = 1;
    while (lanes < 32 && rows * lanes < threads) lanes *= 2;
    return lanes;
}
