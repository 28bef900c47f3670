/* test_factor_box_order.c: the tickets of the box path of the GPU ILU(0) /
 * IC(0) (factor_box.cu; host code of the CUDA layer, no GPU needed, label
 * cpu).
 *
 * The box kernel's freedom from deadlock rests on the order by key x + 2 y
 * + 4 z, each key's rows padded to a multiple of 32; its constant-mask path
 * on the deep rows being first in each chunk of a key.  For every grid of 1
 * to 9 a side and a few larger ones, and chunks of 32 and 256 rows, the
 * whole key and none, this test checks that domino_factor_box_place gives
 * each row a ticket of its own key, inside the key's rows (so the padding
 * stays at its end), each ticket once; that within each chunk the deep rows
 * (2 <= x < nx - 2, likewise y and z) come first, and that a chunk holds
 * the rows of the plain order's same chunk, each part in the order by z,
 * then y.  It prints the share of warps whose 32 rows are all deep (those
 * take the constant-mask path). */
#include "check.h"
#include "domino.h"
#include "cuda/factor_plan.h"

#include <stdio.h>
#include <stdlib.h>

static int deep_row(int32_t x, int32_t y, int32_t z, int32_t nx, int32_t ny, int32_t nz)
{
    return x >= 2 && x < nx - 2 && y >= 2 && y < ny - 2 && z >= 2 && z < nz - 2;
}

/* the checks on one grid and chunk; *all_deep / *warps: warps of 32 deep
 * rows, warps */
static void check_grid(int32_t nx, int32_t ny, int32_t nz, int32_t chunk, int64_t *all_deep, int64_t *warps)
{
    const int64_t keys = (int64_t)nx + 2 * (int64_t)ny + 4 * (int64_t)nz - 6;
    const int64_t n = (int64_t)nx * ny * nz;
    int64_t *start = malloc(((size_t)keys + 1) * sizeof(int64_t));
    int64_t *rows = calloc((size_t)keys, sizeof(int64_t)), *deeps = calloc((size_t)keys, sizeof(int64_t));
    int64_t tickets = start ? domino_factor_box_starts(nx, ny, nz, start) : 0;
    int32_t *order = malloc((size_t)(tickets > 0 ? tickets : 1) * sizeof(int32_t));
    int64_t *plain = malloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t)); /* rank by z, then y */
    int bad = !start || !rows || !deeps || !order || !plain;
    for (int64_t t = 0; !bad && t < tickets; t++)
        order[t] = -1;
    for (int64_t i = 0; !bad && i < n; i++) {
        int32_t x = (int32_t)(i % nx), y = (int32_t)(i / nx % ny), z = (int32_t)(i / ((int64_t)nx * ny));
        int64_t key = x + 2 * (int64_t)y + 4 * (int64_t)z;
        rows[key]++;
        deeps[key] += deep_row(x, y, z, nx, ny, nz);
        plain[i] = rows[key] - 1; /* rows of a key come by z, then y, in index order */
        int64_t t = domino_factor_box_place(x, y, z, nx, ny, nz, start, chunk);
        if (t < start[key] || t >= start[key + 1] || order[t] != -1) {
            bad = 1;
            break;
        }
        order[t] = (int32_t)i;
    }
    for (int64_t k = 0; !bad && k < keys; k++) {
        /* the key's rows, padded to whole warps; in each chunk its deep
         * rows first, the chunk's rows the plain order's, each part by z
         * then y */
        bad |= start[k + 1] - start[k] != (rows[k] + 31) / 32 * 32 ||
               rows[k] != domino_factor_box_key_rows(k, nx, ny, nz);
        int64_t size = chunk > 0 ? chunk : rows[k] > 0 ? rows[k] : 1;
        int64_t prev_d = -1, prev_o = -1, others = 0;
        for (int64_t t = start[k]; !bad && t < start[k + 1]; t++) {
            int64_t r = t - start[k];
            int32_t i = order[t];
            if (r % size == 0) prev_d = prev_o = -1, others = 0;
            if (r >= rows[k]) {
                bad |= i != -1;
                continue;
            }
            int32_t x = i % nx, y = i / nx % ny, z = i / (nx * ny);
            int d = deep_row(x, y, z, nx, ny, nz) && chunk >= 0;
            if (chunk < 0) bad |= plain[i] != r;
            bad |= plain[i] / size != r / size || (d && others > 0) || plain[i] <= (d ? prev_d : prev_o);
            if (d) prev_d = plain[i];
            else prev_o = plain[i], others++;
        }
        (void)deeps;
        for (int64_t w = start[k]; !bad && w < start[k + 1]; w += 32) {
            int all = 1;
            for (int64_t t = w; t < w + 32; t++)
                all &= order[t] >= 0 && deep_row(order[t] % nx, order[t] / nx % ny, order[t] / (nx * ny), nx,
                                                 ny, nz);
            *all_deep += all;
            (*warps)++;
        }
    }
    if (bad) printf("grid %d x %d x %d: bad tickets\n", nx, ny, nz);
    CHECK(!bad);
    free(start);
    free(plain);
    free(rows);
    free(deeps);
    free(order);
}

int main(void)
{
    int64_t all_deep = 0, warps = 0;
    const int32_t chunks[4] = {-1, 0, 32, 256};
    for (int c = 0; c < 4; c++)
        for (int32_t nx = 1; nx <= 9; nx++)
            for (int32_t ny = 1; ny <= 9; ny++)
                for (int32_t nz = 1; nz <= 9; nz++)
                    check_grid(nx, ny, nz, chunks[c], &all_deep, &warps);
    const int32_t big[5][3] = {{40, 38, 36}, {64, 64, 64}, {5, 70, 33}, {97, 6, 41}, {128, 96, 20}};
    for (int g = 0; g < 5; g++)
        for (int c = 0; c < 4; c++) {
            all_deep = warps = 0;
            check_grid(big[g][0], big[g][1], big[g][2], chunks[c], &all_deep, &warps);
            printf("grid %d x %d x %d, chunk %d: %lld of %lld warps all deep (%.1f %%)\n", big[g][0], big[g][1],
                   big[g][2], chunks[c], (long long)all_deep, (long long)warps,
                   100.0 * (double)all_deep / (double)(warps ? warps : 1));
            /* the GPU tests' D3N27 40 x 38 x 36 takes the constant path (a chunk
             * of a warp cannot: its deep rows only move within the warp) */
            if (g < 2 && (chunks[c] == 0 || chunks[c] >= 256)) CHECK(all_deep > 0);
        }
    return check_summary("test_factor_box_order");
}
