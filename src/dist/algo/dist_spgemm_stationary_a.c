/* dist_spgemm_stationary_a.c: stationary-A SpGEMM over the one-sided
 * layer: the walk SPGEMM_WALK_STATIONARY_A on the MPI backend.  The owner
 * of A(i, l) computes A(i, l) B(l, j) for every j with a product to make,
 * from j = i + l on (mod the tile columns) so that the owners of one block
 * column of A do not all read the same B tile first, merging the products
 * into partial tiles of C; the partials then reach C's owners through the
 * exchange of spgemm_partials.c. */
#include "spmm_internal.h"

domino_status dist_spgemm_stationary_a(domino_handle h, const dist_sparse *A, const dist_sparse *B,
                                       dist_sparse **C, dist_times *times)
{
    return spgemm_mpi_run(h, "dist_spgemm_stationary_a", A, B, SPGEMM_WALK_STATIONARY_A, 0, C, times);
}
