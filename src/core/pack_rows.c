/* pack_rows.c: the warps of the thread engine's packed walk, on the CPU
 * (contract in internal.h; the GPU's is domino_launch_pack_rows) */
#include "internal.h"

int domino_pack_rows(int32_t n, const int64_t *ptr, int upper, int32_t *warp_first, int32_t *warps)
{
    int32_t w = 0;
    int lanes = 32; /* of the warp being filled: none open */
    for (int32_t r = 0; r < n; r++) {
        int32_t row = upper ? n - 1 - r : r;
        int64_t len = ptr[row + 1] - ptr[row];
        if (len > DOMINO_PACK_MAX_ROW) return -1;
        int g = DOMINO_PACK_LANES(len);
        if (r % 32 == 0) lanes = 32; /* a block of 32 rows starts a warp */
        if (lanes + g > 32) {        /* the row starts the next warp */
            warp_first[w++] = r;
            lanes = 0;
        }
        lanes += g;
    }
    warp_first[w] = n;
    *warps = w;
    return 0;
}
