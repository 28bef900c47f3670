/* trsv_level_order.h: the schedule of the level-block engine
 * (trsv_levelblock.cu): the rows of a triangular system S in level order,
 * each with its off-diagonal entries, copied in that order.  Host code,
 * plain C (tests/cuda_host/test_trsv_level_order.c checks it on the CPU). */
#ifndef DOMINO_TRSV_LEVEL_ORDER_H
#define DOMINO_TRSV_LEVEL_ORDER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* the arrays of an order, in the order they lie in its block */
enum {
    TRSV_LO_LEVEL_PTR, TRSV_LO_LEVEL_ENTRIES, TRSV_LO_ROW, TRSV_LO_PTR, TRSV_LO_COL, TRSV_LO_SRC,
    TRSV_LO_DIAG_SRC, TRSV_LO_ARRAYS
};

/* Positions q = 0..n-1 number the rows of S level by level (level(i) = 1 +
 * the largest level of the rows x_i reads, 0 for none); inside a level, in
 * increasing row.  Entry k of position q is S(row[q], col[k]), stored in
 * the source arrays at src[k].  The arrays share one block (so that one
 * copy takes them to the GPU), laid out by trsv_level_order_layout. */
typedef struct trsv_level_order {
    int32_t n;               /* rows of S */
    int32_t nlevels;         /* levels (0 when n = 0) */
    int64_t m;               /* off-diagonal entries of S's triangle */
    int32_t widest;          /* most positions of one level */
    void *block;             /* the arrays below (domino_malloc) */
    size_t bytes;            /* its size */
    int32_t *level_ptr;      /* positions of level l: [level_ptr[l], level_ptr[l+1]), nlevels+1 */
    int32_t *level_entries;  /* entries of level l: [level_entries[l], level_entries[l+1]),
                                nlevels+1 (= ptr[level_ptr[l]]) */
    int32_t *row;            /* row of S at each position, n */
    int32_t *ptr;            /* entries of position q: [ptr[q], ptr[q+1]), n+1 */
    int32_t *col;            /* column of each entry, m */
    int32_t *src;            /* index of each entry in the source arrays, m */
    int32_t *diag_src;       /* index of each position's diagonal entry in the source arrays
                                (the last one stored when a row repeats it), -1 if none, n */
} trsv_level_order;

/* byte offsets of the arrays of an order of n rows, nlevels levels and m
 * entries in its block (off[TRSV_LO_*], 256-byte aligned); returns the
 * block's size.  Larger n, nlevels or m never give a smaller size. */
size_t trsv_level_order_layout(int32_t n, int32_t nlevels, int64_t m, size_t off[TRSV_LO_ARRAYS]);

/* level[i] := the level of row i of S (n ints, the caller's) from arrays
 * ptr (n+1) / ind (ptr[n]) that hold CSR(S) (csr_of_s = 1) or CSC(S) (0);
 * S is upper (s_upper = 1) or lower triangular, and stored entries of the
 * other triangle are skipped.  One pass over the arrays: AUTO's count,
 * before it pays for an order.  Returns the number of levels (0 when n = 0). */
int32_t trsv_levels(int32_t n, const int64_t *ptr, const int32_t *ind, int csr_of_s, int s_upper,
                    int32_t *level);

/* The level order of S from the same arrays, its rows' levels and their
 * count taken from `levels` and `nlevels` (trsv_levels's; levels NULL:
 * found here).  Returns 0, -1 when out of
 * memory, -2 when n or the arrays' entries pass 2^31 - 2^12 (the engine's
 * 32-bit offsets, indices and loop counters).  Free with
 * trsv_level_order_free (also after a failure). */
int trsv_level_order_make(int32_t n, const int64_t *ptr, const int32_t *ind, int csr_of_s,
                          int s_upper, const int32_t *levels, int32_t nlevels,
                          trsv_level_order *o);
void trsv_level_order_free(trsv_level_order *o);

#ifdef __cplusplus
}
#endif

#endif
