/* dist_level_task_size.c: a task size tied to the level structure (the
 * adaptive task pool of the multi-GPU solve) */
#include "internal.h"

int32_t domino_dist_level_task_size(int32_t n, int32_t nlevels, int npes, int tasks_per_pe,
                                    int32_t min_size)
{
    if (n < 0 || nlevels < 1 || npes < 1 || tasks_per_pe < 1 || min_size < 1) return 0;
    int64_t wanted = (int64_t)tasks_per_pe * npes;
    int64_t pool = ((int64_t)n + wanted - 1) / wanted;                 /* the usual pool's size */
    int64_t level = (int64_t)n / nlevels / npes;                        /* a level over the PEs */
    int64_t size = level < pool ? level : pool;
    int64_t most = pool > 1 ? pool : 1;
    int64_t least = min_size < most ? min_size : most; /* never coarser than the usual pool */
    if (size < least) size = least;
    return (int32_t)size;
}
