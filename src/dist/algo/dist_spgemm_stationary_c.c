/* dist_spgemm_stationary_c.c: stationary-C SpGEMM over the one-sided layer
 * (Brock, Buluc, Yelick, ICS 2024): the walk SPGEMM_WALK_STATIONARY_C on
 * the MPI backend.  The owner of C(i, j) fetches A(i, l) and B(l, j) for
 * every l (from l = i + j on), multiplies them with the CPU reference
 * (domino_ref_spgemm) and merges the products into its tile; its tiles are
 * taken by column block. */
#include "spmm_internal.h"

domino_status dist_spgemm_stationary_c(domino_handle h, const dist_sparse *A, const dist_sparse *B,
                                       dist_sparse **C, dist_times *times)
{
    return spgemm_mpi_run(h, "dist_spgemm_stationary_c", A, B, SPGEMM_WALK_STATIONARY_C, 0, C, times);
}
