/* dist_pull_lanes.c: how many lanes the PULL solver gives one row, from
 * the level structure (pull_lanes 0) */
#include "internal.h"

/* Enough groups in flight: the mean rows of a level on one PE, times the
 * lanes, reach DOMINO_DIST_PULL_THREADS.  Wide levels get 2 lanes per row
 * (16 rows per warp), narrow ones a warp.  On 1, 2 and 4 H200s this picked
 * the fastest of 4/8/16/32 lanes in 10 of 12 cases (D3N7 256^3, D3N27
 * 192^3, a 10^7-row DAG of 1000 levels, R-MAT 22); on the DAG it was 8%
 * off on 2 PEs and 22% on 4 (bench/results/h200x4-trsv-dist-v1).  With
 * copies and level-tied tasks on the 10^7-row DAGs of 10 and 100 levels
 * (bench/results/h200x4-pull-copies, lanes1-*.csv) it picks the fastest
 * of 1/2/4 lanes in all four cases: 2 lanes (10 levels on 4 and 2 PEs,
 * 100 levels on 2: 1.2-1.4x faster than 4), 4 (100 levels on 4 PEs); a
 * thread per row was slower than 2 lanes in every case. */
int domino_dist_pull_lanes(int32_t n, int32_t nlevels, int npes)
{
    if (n < 1 || nlevels < 1 || npes < 1) return 32;
    double rows = (double)n / nlevels / npes; /* a level's rows on one PE */
    int lanes = 2;
    while (lanes < 32 && rows * lanes < DOMINO_DIST_PULL_THREADS) lanes *= 2;
    return lanes;
}
