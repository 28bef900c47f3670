/* dist_options.c: default options of the distributed planning */
#include "internal.h"

/* opt := TASKPOOL, 8 tasks per PE, equal weights (NULL), no budget (NULL),
 * level order (the winner on 2 x H200: 22x to 85x faster than index order
 * for every solver on the stencils, bench/results/h200x2-trsv-dist-v2);
 * PULL's lanes per row from the levels (pull_lanes 0); NULL opt is ignored */
void domino_dist_options_init(domino_dist_options *opt)
{
    if (!opt) return;
    opt->scheme = DOMINO_DIST_TASKPOOL;
    opt->tasks_per_pe = 8;
    opt->task_size = 0;
    opt->weight = NULL;
    opt->budget = NULL;
    opt->level_order = 1;
    opt->row_level = NULL;
    opt->pull_lanes = 0;
    opt->pull_copies = 0;
}
