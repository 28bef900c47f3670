/* test_gen_dense.c: domino_gen_dense, the pseudo-random dense blocks the
 * distributed SpMM makes its B from tile by tile: values in [-0.5, 0.5)
 * with the mean and spread of a uniform distribution, every block equal to
 * the same part of the whole matrix (any offsets, leading dimensions
 * larger than the block), float the rounded double, the same matrix for
 * the same seed and another for another seed or width, empty blocks, and
 * bad arguments named. */
#include "check.h"
#include "domino.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static domino_handle h;

/* the whole matrix, then blocks of it at every offset of a coarse grid */
static void test_blocks(void)
{
    enum { ROWS = 37, COLS = 23 };
    double *W = malloc(sizeof(double) * ROWS * COLS), *blk = malloc(sizeof(double) * ROWS * (COLS + 5));
    float *Wf = malloc(sizeof(float) * ROWS * COLS);
    CHECK_OK(h, domino_gen_dense(h, 7, COLS, 0, ROWS, 0, COLS, DOMINO_FLOAT64, W, COLS));
    CHECK_OK(h, domino_gen_dense(h, 7, COLS, 0, ROWS, 0, COLS, DOMINO_FLOAT32, Wf, COLS));
    double sum = 0, sq = 0, lo = 1, hi = -1;
    int rounded = 1;
    for (int k = 0; k < ROWS * COLS; k++) {
        sum += W[k], sq += W[k] * W[k];
        lo = fmin(lo, W[k]), hi = fmax(hi, W[k]);
        rounded &= Wf[k] == (float)W[k];
    }
    CHECK(lo >= -0.5 && hi < 0.5);
    CHECK(lo < -0.45 && hi > 0.45);              /* 851 draws reach both ends */
    CHECK(fabs(sum / (ROWS * COLS)) < 0.05);     /* mean 0, sd of the mean ~0.01 */
    CHECK(fabs(sq / (ROWS * COLS) - 1.0 / 12) < 0.01); /* variance 1/12 */
    CHECK(rounded);
    int same = 1;
    for (int r0 = 0; r0 < ROWS; r0 += 9)
        for (int c0 = 0; c0 < COLS; c0 += 5)
            for (int ld = 0; ld <= 5; ld += 5) {
                int rows = ROWS - r0 < 11 ? ROWS - r0 : 11, cols = COLS - c0 < 7 ? COLS - c0 : 7;
                CHECK_OK(h, domino_gen_dense(h, 7, COLS, r0, rows, c0, cols, DOMINO_FLOAT64, blk, cols + ld));
                for (int r = 0; r < rows; r++)
                    for (int c = 0; c < cols; c++) same &= blk[r * (cols + ld) + c] == W[(r0 + r) * COLS + c0 + c];
            }
    CHECK(same);
    /* the same again; another seed, another width: another matrix */
    CHECK_OK(h, domino_gen_dense(h, 7, COLS, 0, ROWS, 0, COLS, DOMINO_FLOAT64, blk, COLS));
    CHECK(memcmp(blk, W, sizeof(double) * ROWS * COLS) == 0);
    CHECK_OK(h, domino_gen_dense(h, 8, COLS, 0, ROWS, 0, COLS, DOMINO_FLOAT64, blk, COLS));
    int differ = 0;
    for (int k = 0; k < ROWS * COLS; k++) differ += blk[k] != W[k];
    CHECK(differ == ROWS * COLS);
    CHECK_OK(h, domino_gen_dense(h, 7, COLS + 1, 0, ROWS, 0, COLS, DOMINO_FLOAT64, blk, COLS));
    differ = 0;
    for (int k = COLS; k < ROWS * COLS; k++) differ += blk[k] != W[k];
    CHECK(differ == ROWS * COLS - COLS);
    /* rows far down a tall matrix (64-bit entry numbers) */
    CHECK_OK(h, domino_gen_dense(h, 7, 512, (int64_t)1 << 40, 2, 500, 12, DOMINO_FLOAT64, blk, 12));
    CHECK(blk[0] >= -0.5 && blk[23] < 0.5 && blk[0] != blk[23]);
    free(W), free(Wf), free(blk);
}

static void test_errors(void)
{
    double b[16];
    CHECK_OK(h, domino_gen_dense(h, 1, 4, 0, 0, 0, 4, DOMINO_FLOAT64, NULL, 4)); /* empty: B unused */
    CHECK_OK(h, domino_gen_dense(h, 1, 4, 3, 2, 4, 0, DOMINO_FLOAT64, NULL, 0));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_gen_dense(h, 1, 4, 0, 2, 0, 4, DOMINO_FLOAT64, NULL, 4));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_gen_dense(h, 1, 4, 0, 2, 1, 4, DOMINO_FLOAT64, b, 4));
    CHECK(strstr(domino_last_error(h), "domino_gen_dense") != NULL);
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_gen_dense(h, 1, 4, 0, 2, 0, 4, DOMINO_FLOAT64, b, 3));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_gen_dense(h, 1, 0, 0, 2, 0, 0, DOMINO_FLOAT64, b, 4));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_gen_dense(h, 1, 4, -1, 2, 0, 4, DOMINO_FLOAT64, b, 4));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_gen_dense(h, 1, 4, 0, -2, 0, 4, DOMINO_FLOAT64, b, 4));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_gen_dense(h, 1, 4, 0, 2, -1, 4, DOMINO_FLOAT64, b, 4));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_gen_dense(h, 1, 4, 0, 2, 0, 4, (domino_type)9, b, 4));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_gen_dense(h, 1, (int64_t)1 << 40, (int64_t)1 << 30, 2, 0, 4,
                                                           DOMINO_FLOAT64, b, 4)); /* past 2^63 entries */
}

int main(void)
{
    if (domino_create(&h)) return 1;
    test_blocks();
    test_errors();
    domino_destroy(h);
    return check_summary("test_gen_dense");
}
