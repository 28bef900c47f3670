/* dist_pull_lanes.c: how many lanes the PULL solver gives one row, from
 * the level structure (pull_lanes 0) */
#include "internal.h"

/* Enough groups in flight: the mean rows of a level on one PE, times the
 * lanes, reach DOMINO_DIST_PULL_THREADS.  Wide levels get 4 lanes per row
 * (8 rows per warp), narrow ones a warp.  On 1, 2 and 4 H200s this picked
 * the fastest of 4/8/16/32 lanes in 10 of 12 cases (D3N7 256^3, D3N27
 * 192^3, a 10^7-row DAG of 1000 levels, R-MAT 22); on the DAG it was 8%
 * off on 2 PEs and 22% on 4 (bench/results/h200x4-trsv-dist-v1). */
int domino_dist_pull_lanes(int32_t n, int32_t nlevels, int npes)
{
    if (n < 1 || nlevels < 1 || npes < 1) return 32;
    double rows = (double)n / nlevels / npes; /* a level's rows on one PE */
    int lanes = 4;
    while (lanes < 32 && rows * lanes < DOMINO_DIST_PULL_THREADS) lanes *= 2;
    return lanes;
}
