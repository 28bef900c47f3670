/* dist_pull_lanes.c: how many lanes the PULL solver gives one row, from
 * the level structure (pull_lanes 0) */
#include "internal.h"

/* Enough groups in flight: the mean rows of a level on one PE, times the
 * lanes, reach DOMINO_DIST_PULL_THREADS on one PE and half that on
 * several.  Wide levels get 2 lanes per row (16 rows per warp), narrow
 * ones a warp.
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
 *   fastest). */
int domino_dist_pull_lanes(int32_t n, int32_t nlevels, int npes)
{
    if (n < 1 || nlevels < 1 || npes < 1) return 32;
    double rows = (double)n / nlevels / npes; /* a level's rows on one PE */
    double threads = npes > 1 ? DOMINO_DIST_PULL_THREADS / 2 : DOMINO_DIST_PULL_THREADS;
    int lanes = 2;
    while (lanes < 32 && rows * lanes < threads) lanes *= 2;
    return lanes;
}
