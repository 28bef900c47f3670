/* dist_spmm_steal_local.c: stationary-C SpMM with locality-aware work
 * stealing (Brock, Buluc, Yelick, ICS 2024): spmm_drive_steal_local on the
 * MPI backend.  A 3D reservation grid, one slot per product A(i, l) B(l, j),
 * kept by C(i, j)'s owner and claimed by a fetch-and-add (the first claimer
 * gets 0); owners claim their own products first, then a rank claims only
 * products of other ranks' C tiles that involve an A or B tile it owns
 * itself, so a stolen product always reads one tile locally.  C must hold
 * zeros on entry. */
#include "spmm_internal.h"

#include <string.h>

domino_status dist_spmm_stationary_c_steal_local(domino_handle h, const dist_sparse *A,
                                                 const dist_dense *B, dist_dense *C, uint64_t seed,
                                                 dist_times *times)
{
    dist_times t;
    spmm_mpi m;
    spmm_ops o;
    os_window *slots = NULL;
    int64_t *mine = NULL;
    memset(&t, 0, sizeof(t));
    memset(&m, 0, sizeof(m));
    domino_status s = spmm_check(h, "dist_spmm_stationary_c_steal_local", A, B, C);
    if (s) return s;
    double start = domino_wtime();
    /* collective: every rank reaches it, zeroed slots */
    s = os_window_create(h, C->w, (size_t)C->tr * C->tc * A->tc * sizeof(int64_t), &slots, (void **)&mine);
    if (!s) s = spmm_mpi_begin(h, A, B, C, slots, &t, &m, &o);
    if (!s) s = spmm_drive_steal_local(&o, seed, &t.stolen);
    s = dist_close(h, C->w, s, start, &t, times);
    spmm_mpi_end(&m);
    os_window_free(h, slots);
    return s;
}
