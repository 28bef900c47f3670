/* dist_spmm_stationary_c.c: stationary-C SpMM over the one-sided layer
 * (Brock, Buluc, Yelick, "RDMA-Based Algorithms for Sparse Matrix
 * Multiplication on GPUs", ICS 2024): spmm_drive_stationary_c on the MPI
 * backend.  Each rank computes the C tiles it owns, fetching A(i, l) and
 * B(l, j) with one-sided gets, the next pair started before the current
 * product runs; the sum starts at l = i + j so that owners of C tiles on
 * one row or column do not all read the same tile first. */
#include "spmm_internal.h"

#include <string.h>

domino_status dist_spmm_stationary_c(domino_handle h, const dist_sparse *A, const dist_dense *B,
                                     dist_dense *C, dist_times *times)
{
    dist_times t;
    spmm_mpi m;
    spmm_ops o;
    memset(&t, 0, sizeof(t));
    domino_status s = spmm_check(h, "dist_spmm_stationary_c", A, B, C);
    if (s) return s;
    double start = domino_wtime();
    s = spmm_mpi_begin(h, A, B, C, NULL, &t, &m, &o);
    if (!s) s = spmm_drive_stationary_c(&o);
    if (!s) s = os_window_sync(h, C->wval); /* the tiles were written with plain stores */
    s = dist_close(h, C->w, s, start, &t, times);
    spmm_mpi_end(&m);
    return s;
}
