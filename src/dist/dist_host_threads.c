/* dist_host_threads.c: how many OpenMP threads one PE's host planning uses */
#include "internal.h"

#include <omp.h>
#include <stdlib.h>

/* the node's cores, shared among npes PEs when this process is one of
 * several started together (domino run -n N, or mpirun); at least 1 */
int dist_host_threads(int npes)
{
    int threads = omp_get_num_procs();
    if (npes > 1 && (domino_launch_self() || getenv("OMPI_COMM_WORLD_SIZE"))) threads /= npes;
    return threads < 1 ? 1 : threads;
}
