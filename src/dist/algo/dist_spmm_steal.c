/* dist_spmm_steal.c: stationary-C SpMM with random work stealing (Brock,
 * Buluc, Yelick, ICS 2024, Sec. 4): spmm_drive_steal on the MPI backend.
 * The products A(i, l) B(l, j) of a C tile are claimed one at a time by a
 * fetch-and-add on the tile's counter (the reservation grid, kept by the
 * tile's owner); owners claim their own tiles first, then every rank claims
 * what is left of other ranks' tiles in a random order and adds its partial
 * tiles into the owner's C with an atomic accumulate.  C must hold zeros
 * on entry. */
#include "spmm_internal.h"

#include <string.h>

domino_status dist_spmm_stationary_c_steal(domino_handle h, const dist_sparse *A,
                                           const dist_dense *B, dist_dense *C, uint64_t seed,
                                           dist_times *times)
{
    dist_times t;
    spmm_mpi m;
    spmm_ops o;
    os_window *counters = NULL;
    int64_t *mine = NULL;
    memset(&t, 0, sizeof(t));
    memset(&m, 0, sizeof(m));
    domino_status s = spmm_check(h, "dist_spmm_stationary_c_steal", A, B, C);
    if (s) return s;
    double start = domino_wtime();
    /* collective: every rank reaches it, zeroed counters */
    s = os_window_create(h, C->w, (size_t)C->tr * C->tc * sizeof(int64_t), &counters, (void **)&mine);
    if (!s) s = spmm_mpi_begin(h, A, B, C, counters, &t, &m, &o);
    if (!s) s = spmm_drive_steal(&o, seed, &t.stolen);
    s = dist_close(h, C->w, s, start, &t, times);
    spmm_mpi_end(&m);
    os_window_free(h, counters);
    return s;
}
