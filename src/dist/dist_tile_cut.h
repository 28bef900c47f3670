/* dist_tile_cut.h: cutting a global CSR into a grid of tiles, shared by the
 * tiled distributed algorithms of every backend (internal) */
#ifndef DOMINO_DIST_TILE_CUT_H
#define DOMINO_DIST_TILE_CUT_H

#include "internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* b[0..parts] = an even split of len (domino_malloc; NULL when out of memory) */
int64_t *dist_split(int64_t len, int parts);
/* least common multiple of a, b >= 1: SUMMA's inner blocks on a grid */
int dist_lcm(int a, int b);
/* count[r * nc + c] = entries of the global CSR A in block (r, c) of the
 * grid cut at rows rb[0..nr] and columns cb[0..nc] (count zeroed first) */
void dist_count_blocks(domino_matrix A, const int64_t *rb, int nr, const int64_t *cb, int nc, int64_t *count);
/* the load balance of A (CSR) cut evenly into tiles x tiles tiles, tile
 * (i, j) on rank (i tiles + j) mod ranks: the most entries a rank stores
 * over the mean (1: even; ranks that own no tile count as 0); 1 for an
 * empty A, NaN for bad arguments or when out of memory */
double dist_tile_nnz_balance(domino_matrix A, int tiles, int ranks);
/* permute a[0..n) at random (xorshift seeded with seed): the order in
 * which work stealing visits other ranks' tiles */
void dist_shuffle(int *a, int n, uint64_t seed);
/* the same for 64-bit items (the same permutation as dist_shuffle for the same n and seed) */
void dist_shuffle64(int64_t *a, int64_t n, uint64_t seed);
/* the operands of a distributed C = A B: live CSR matrices stored general,
 * of one type, A's columns = B's rows; names what is wrong (what: the caller) */
domino_status dist_check_spgemm_operands(domino_handle h, domino_matrix A, domino_matrix B, const char *what);
/* dst (rows x cols, row-major, contiguous) = the block of the row-major B
 * (leading dimension ldb, values of vs bytes) at row row0, column col0 */
void dist_copy_block(void *dst, const void *B, int64_t ldb, int64_t row0, int64_t rows, int64_t col0,
                     int64_t cols, size_t vs);
/* T's row offsets, column indices and values copied to ptr, ind and val
 * (a tile laid out in a rank's windows) */
void dist_pack_tile(domino_matrix T, int64_t *ptr, int32_t *ind, void *val);
/* tile (i, j) of the global CSR A cut at rows rb and columns cb, as a new
 * CSR with local column indices */
domino_status dist_cut_tile(domino_handle h, domino_matrix A, const int64_t *rb, const int64_t *cb, int i,
                            int j, domino_matrix *T);

#ifdef __cplusplus
}
#endif
#endif
