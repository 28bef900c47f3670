/* host_threads.c: how many OpenMP threads one process's host work uses */
#include "internal.h"

#include <omp.h>
#include <stdlib.h>

/* the node's cores (no more than OpenMP's thread count: OMP_NUM_THREADS,
 * omp_set_num_threads), shared among npes PEs when this process is one of
 * several started together (domino run -n N, or mpirun); npes <= 0: the
 * PEs of this run (domino run's, else mpirun's local size, else 1); at
 * least 1 */
int domino_host_threads(int npes)
{
    const domino_launch_info *self = domino_launch_self();
    const char *local = getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
    if (npes <= 0) npes = self ? self->npes : local ? atoi(local) : 1;
    int threads = omp_get_num_procs(), most = omp_get_max_threads();
    if (most < threads) threads = most;
    if (npes > 1 && (self || getenv("OMPI_COMM_WORLD_SIZE"))) threads /= npes;
    return threads < 1 ? 1 : threads;
}
