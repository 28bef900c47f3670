/* dist_spgemm_steal_local.c: stationary-C SpGEMM with locality-aware work
 * stealing: the walk SPGEMM_WALK_STEAL_LOCAL on the MPI backend.  One
 * reservation slot per product A(i, l) B(l, j) (a 3D grid kept by C(i, j)'s
 * owner, claimed by a fetch-and-add: the first claimer gets 0); owners
 * claim their own products first, then a rank claims only products of
 * other ranks' tiles that read an A or B tile it owns, merging them into
 * partial tiles that reach the owners through the exchange of
 * spgemm_partials.c. */
#include "spmm_internal.h"

domino_status dist_spgemm_stationary_c_steal_local(domino_handle h, const dist_sparse *A, const dist_sparse *B,
                                                   uint64_t seed, dist_sparse **C, dist_times *times)
{
    return spgemm_mpi_run(h, "dist_spgemm_stationary_c_steal_local", A, B, SPGEMM_WALK_STEAL_LOCAL, seed, C, times);
}
