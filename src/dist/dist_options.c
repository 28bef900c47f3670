/* dist_options.c: default options of the distributed planning */
#include "internal.h"

/* opt := AUTO (LINKED at a mean parallelism of DOMINO_DIST_LINKED_PARALLELISM
 * or less, see domino.h), else TASKPOOL, 8 tasks per PE tied to the level
 * width (level_tasks: with
 * PULL's grid of 12 blocks an SM on 4xH200, 4 PEs, against 8 equal tasks
 * per PE in the same commands, the 10^7-row DAGs of 10, 100 and 1000 levels
 * 1.16-1.20x, 2.7x and 3.6x faster, D3N7 256^3 1.10x, R-MAT 22 1.01x; 2 PEs
 * 1.15x and 1.65x on the DAGs of 10 and 100 levels: bench/results/
 * h200x4-grid), equal weights (NULL), no budget (NULL),
 * level order (the winner on 2 x H200: 22x to 85x faster than index order
 * for every solver on the stencils, bench/results/h200x2-trsv-dist-v2);
 * PULL's lanes per row from the levels (pull_lanes 0); PULL's copies (with
 * these defaults on 4xH200, 4 and 2 PEs: 10^7-row DAGs of 10 and 100 levels
 * 2.6-3.9x faster, of 1000 levels 0.7-2.6 % slower, R-MAT 22 1.14-1.19x,
 * stencils -5..+2 %: bench/results/h200x4-pull-copies); NULL opt is ignored */
void domino_dist_options_init(domino_dist_options *opt)
{
    if (!opt) return;
    opt->scheme = DOMINO_DIST_AUTO;
    opt->tasks_per_pe = 8;
    opt->task_size = 0;
    opt->weight = NULL;
    opt->budget = NULL;
    opt->level_order = 1;
    opt->row_level = NULL;
    opt->pull_lanes = 0;
    opt->level_tasks = 1;
    opt->pull_copies = 1;
}
