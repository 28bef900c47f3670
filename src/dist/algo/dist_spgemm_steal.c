/* dist_spgemm_steal.c: stationary-C SpGEMM with random work stealing over
 * the one-sided layer: the walk SPGEMM_WALK_STEAL on the MPI backend.
 * Compute phase: each C tile claimed with a fetch-and-add on its counter
 * (kept by its owner), the first claimer makes it whole; owners take their
 * own tiles first, then every rank takes the others' tiles, column block
 * by column block in a random order.  Exchange phase: a tile made by a
 * thief reaches its owner through the exchange of spgemm_partials.c
 * (sparse tiles cannot be added remotely like dense ones; the paper passes
 * them through a remote queue). */
#include "spmm_internal.h"

domino_status dist_spgemm_stationary_c_steal(domino_handle h, const dist_sparse *A,
                                             const dist_sparse *B, uint64_t seed, dist_sparse **C,
                                             dist_times *times)
{
    return spgemm_mpi_run(h, "dist_spgemm_stationary_c_steal", A, B, SPGEMM_WALK_STEAL, seed, C, times);
}
