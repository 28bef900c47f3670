/* dist_tile_balance.c: the load balance of a tile distribution, the same
 * for every backend: A cut evenly into tiles x tiles tiles (dist_split),
 * tile (i, j) on rank (i tiles + j) mod ranks (dist_tile_owner); the
 * entries a rank stores, max over the ranks divided by the mean */
#include "dist/dist_tile_cut.h"

#include <math.h>

double dist_tile_nnz_balance(domino_matrix A, int tiles, int ranks)
{
    if (!A || A->format != DOMINO_CSR || tiles < 1 || tiles > 4096 || ranks < 1) return NAN;
    if (A->nnz == 0) return 1.0; /* nothing to store: even */
    size_t tt = (size_t)tiles * tiles;
    int64_t *rb = dist_split(A->nrows, tiles), *cb = dist_split(A->ncols, tiles);
    int64_t *count = domino_malloc(tt * sizeof(int64_t));
    double *per_rank = domino_calloc((size_t)ranks, sizeof(double)), balance = NAN;
    if (rb && cb && count && per_rank) {
        dist_count_blocks(A, rb, tiles, cb, tiles, count);
        for (size_t t = 0; t < tt; t++) per_rank[t % (size_t)ranks] += (double)count[t]; /* (i tiles + j) mod ranks */
        double most = 0;
        for (int r = 0; r < ranks; r++) most = fmax(most, per_rank[r]);
        balance = most / ((double)A->nnz / ranks);
    }
    domino_free(rb);
    domino_free(cb);
    domino_free(count);
    domino_free(per_rank);
    return balance;
}
