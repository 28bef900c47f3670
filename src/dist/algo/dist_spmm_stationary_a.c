/* dist_spmm_stationary_a.c: stationary-A SpMM over the one-sided layer
 * (Brock, Buluc, Yelick, ICS 2024): spmm_drive_stationary_a on the MPI
 * backend.  The owner of A(i, l) fetches B(l, j) for every j (from
 * j = i + l on), computes the partial tile A(i, l) B(l, j) and adds it
 * into C(i, j) at C's owner.  The paper hands partial tiles to the owner
 * through a remote queue (a fetch-and-add reserves a slot, a put stores
 * the pointer) and the owner accumulates; this backend has an atomic
 * remote accumulate, which does both in one step.  C must hold zeros. */
#include "spmm_internal.h"

#include <string.h>

domino_status dist_spmm_stationary_a(domino_handle h, const dist_sparse *A, const dist_dense *B,
                                     dist_dense *C, dist_times *times)
{
    dist_times t;
    spmm_mpi m;
    spmm_ops o;
    memset(&t, 0, sizeof(t));
    domino_status s = spmm_check(h, "dist_spmm_stationary_a", A, B, C);
    if (s) return s;
    double start = domino_wtime();
    s = spmm_mpi_begin(h, A, B, C, NULL, &t, &m, &o);
    if (!s) s = spmm_drive_stationary_a(&o);
    s = dist_close(h, C->w, s, start, &t, times);
    spmm_mpi_end(&m);
    return s;
}
