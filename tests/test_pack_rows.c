/* test_pack_rows.c: the packing of the thread engine's packed walk
 * (domino_pack_rows, src/core/pack_rows.c; the kernel is
 * src/cuda/trsv_packed.cu).  For random row lengths, lower and upper:
 * every logical row lies in exactly one warp, in order; a warp's rows
 * take at most 32 lanes and never cross a multiple of 32 rows; a warp ends
 * only there or where its next row would not fit (greedy); each lane of a row owns at most four
 * entries (64 for a row owning the warp), and the lanes' strided entries
 * cover the row exactly once.  Then a row too long, one row, n = 0. */
#include "check.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* the properties above for the packing of ptr (n rows) */
static void check_packing(int32_t n, const int64_t *ptr, int upper)
{
    int32_t *first = malloc(((size_t)n + 1) * sizeof(int32_t)), warps = -1;
    CHECK(domino_pack_rows(n, ptr, upper, first, &warps) == 0);
    CHECK(warps >= (n > 0) && warps <= n);
    CHECK(first[0] == 0 && first[warps] == n);
    int ok = 1;
    for (int32_t w = 0; w < warps && ok; w++) {
        int rows = first[w + 1] - first[w], lanes = 0;
        ok = rows >= 1 && first[w] / 32 == (first[w + 1] - 1) / 32;
        for (int32_t r = first[w]; r < first[w + 1] && ok; r++) {
            int32_t row = upper ? n - 1 - r : r;
            int64_t len = ptr[row + 1] - ptr[row];
            int g = DOMINO_PACK_LANES(len);
            lanes += g;
            /* lane sub owns entries sub + g t, t < count: at most 4 (64 owning the warp) */
            int64_t covered = 0;
            for (int sub = 0; sub < g; sub++) {
                int64_t count = len > sub ? (len - sub + g - 1) / g : 0;
                covered += count;
                ok = ok && count <= (g == 32 ? 64 : 4);
            }
            ok = ok && covered == len;
        }
        ok = ok && lanes <= 32;
        if (ok && w + 1 < warps) { /* greedy: the next warp's first row did not fit */
            int32_t r = first[w + 1], row = upper ? n - 1 - r : r;
            ok = r % 32 == 0 || lanes + DOMINO_PACK_LANES(ptr[row + 1] - ptr[row]) > 32;
        }
    }
    CHECK(ok);
    free(first);
}

/* offsets of n rows of random lengths, 0 .. most */
static int64_t *random_rows(int32_t n, int most, unsigned *seed)
{
    int64_t *ptr = malloc(((size_t)n + 1) * sizeof(int64_t));
    ptr[0] = 0;
    for (int32_t i = 0; i < n; i++) {
        *seed = *seed * 1103515245u + 12345u;
        int len = (int)((*seed >> 8) % (unsigned)(most + 1));
        if ((*seed >> 4) % 8 == 0) len = len % 5; /* many short rows */
        ptr[i + 1] = ptr[i] + len;
    }
    return ptr;
}

int main(void)
{
    unsigned seed = 12345u;
    int mosts[] = {4, 8, 30, 130, 2048};
    for (int m = 0; m < 5; m++)
        for (int trial = 0; trial < 4; trial++) {
            int32_t n = 1 + (int32_t)((seed = seed * 1103515245u + 12345u) >> 8) % 3000;
            int64_t *ptr = random_rows(n, mosts[m], &seed);
            check_packing(n, ptr, 0);
            check_packing(n, ptr, 1);
            free(ptr);
        }
    /* 32 rows of one entry: one warp; 33: two */
    int64_t ones[34];
    for (int i = 0; i <= 33; i++) ones[i] = i;
    int32_t first[34], warps = 0;
    CHECK(domino_pack_rows(32, ones, 0, first, &warps) == 0 && warps == 1);
    CHECK(domino_pack_rows(33, ones, 0, first, &warps) == 0 && warps == 2 && first[1] == 32);
    /* rows of 28 entries take 7 lanes: four a warp */
    int64_t p28[9];
    for (int i = 0; i <= 8; i++) p28[i] = 28 * i;
    CHECK(domino_pack_rows(8, p28, 0, first, &warps) == 0 && warps == 2 && first[1] == 4);
    /* 33 rows of one entry: rows 0-31, then row 32 (a block of 32 rows starts a warp) */
    CHECK(domino_pack_rows(33, ones, 0, first, &warps) == 0 && first[1] == 32);
    /* a row of more than DOMINO_PACK_MAX_ROW entries: not packed */
    int64_t longrow[3] = {0, 1, 2 + DOMINO_PACK_MAX_ROW};
    CHECK(domino_pack_rows(2, longrow, 0, first, &warps) == -1);
    int64_t edge[3] = {0, 1, 1 + DOMINO_PACK_MAX_ROW};
    CHECK(domino_pack_rows(2, edge, 0, first, &warps) == 0 && warps == 2);
    /* no rows */
    CHECK(domino_pack_rows(0, ones, 0, first, &warps) == 0 && warps == 0 && first[0] == 0);
    return check_summary("test_pack_rows");
}
