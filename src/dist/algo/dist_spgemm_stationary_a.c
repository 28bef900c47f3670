/* dist_spgemm_stationary_a.c: stationary-A SpGEMM over the one-sided
 * layer: the owner of A(i, l) computes A(i, l) B(l, j) for every j, from
 * j = i + l on (mod the tile columns) so that the owners of one block
 * column of A do not all read the same B tile first, fetching B(l, j) with
 * gets and merging the products into partial tiles of C; the partials then
 * reach C's owners through the exchange of spgemm_partials.c. */
#include "spmm_internal.h"

#include <string.h>

domino_status dist_spgemm_stationary_a(domino_handle h, const dist_sparse *A, const dist_sparse *B,
                                       dist_sparse **C, dist_times *times)
{
    const char *fn = "dist_spgemm_stationary_a";
    dist_times t;
    spgemm_partials P;
    memset(&t, 0, sizeof(t));
    memset(&P, 0, sizeof(P));
    domino_status s = spgemm_check(h, fn, A, B, C);
    if (s) return s;
    double start = domino_wtime();
    int tc = B->tc, rank = os_rank(A->w);
    if (spgemm_partials_init(&P, A, B)) s = domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: rank %d: out of memory", fn, rank);
    for (int a = 0; !s && a < A->tr * A->tc; a++) {
        int i = a / A->tc, l = a % A->tc;
        if (dist_tile_owner(A->w, A->tc, i, l) != rank || A->nnz[a] == 0) continue;
        domino_matrix At = NULL;
        s = dist_sparse_get_tile(h, A, i, l, &At); /* a local read */
        for (int jj = 0; !s && jj < tc; jj++) {
            int j = (i + l + jj) % tc;
            domino_matrix Bt = NULL, Q = NULL;
            double t0 = domino_wtime();
            s = dist_sparse_get_tile(h, B, l, j, &Bt);
            t.communication += domino_wtime() - t0;
            t0 = domino_wtime();
            if (!s) s = domino_ref_spgemm(h, At, Bt, &Q);
            if (!s) s = spgemm_partial_add(h, &P, i * tc + j, Q);
            t.compute += domino_wtime() - t0;
            domino_matrix_free(Bt);
            P.claimed++;
        }
        domino_matrix_free(At);
    }
    s = spgemm_finish(h, A, B, s, &P, C, &t);
    t.total = domino_wtime() - start;
    if (times) *times = t;
    spgemm_partials_free(&P);
    return s;
}
