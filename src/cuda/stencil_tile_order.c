/* stencil_tile_order.c: the ticket order of the tiled structured solve
 * (see stencil_tile.cu and domino_dstencil_tile_order in stencil_gpu.h).
 *
 * A line (y, z) is reached by the wavefront at about y + 2z hops on a
 * 27-point stencil and y + z on a 7-point one; in the tile coordinates
 * (u, z), u = y + skew z, both are about u + z.  Ticketing tiles by the
 * u0 + z0 of their first line hands them to blocks in the order the
 * wavefront reaches them, so the blocks resident at any time hold the tiles
 * the wavefront crosses, not a few planes (ticketing z-major) or a few
 * columns (u-major). */
#include "stencil_gpu.h"

/* 1 if tile (u0, z0) holds a line of the grid solved here (y_lo <= y < y_hi) */
static int tile_holds_line(const stencil_kernel_args *A, int64_t u0, int z0)
{
    for (int z = z0; z < z0 + A->tile_z && z < A->nz; z++) {
        int64_t ylo = u0 - (int64_t)A->tile_skew * z, yhi = ylo + A->tile_u - 1;
        if (yhi >= A->y_lo && ylo < A->y_hi) return 1;
    }
    return 0;
}

void domino_stencil_tile_grid(const stencil_kernel_args *A, int64_t *tiles_u, int64_t *tiles_z)
{
    *tiles_u = (A->ny + (int64_t)A->tile_skew * (A->nz - 1) + A->tile_u - 1) / A->tile_u;
    *tiles_z = (A->nz + A->tile_z - 1) / A->tile_z;
}

/* The tiles holding a line, ordered by u0 + z0, then z0, by counting (the
 * qsort before took 0.27-0.33 ms for D3N27 192^3's 4,776 tiles of 1 x 8
 * lines on the 2-core CI machine, this 0.09-0.12 ms).  No two tiles share
 * (u0 + z0, z0), so the order is unique: the tiles are placed bucket by
 * bucket of u0 + z0, each bucket filled in increasing tz. */
int64_t domino_stencil_tile_order_fill(const stencil_kernel_args *A, int32_t *order)
{
    int64_t tiles_u, tiles_z;
    domino_stencil_tile_grid(A, &tiles_u, &tiles_z);
    if (tiles_u <= 0 || tiles_z <= 0) return 0;
    if (tiles_u > INT32_MAX / tiles_z) return -2;
    /* u0 + z0 lies in [0, whens); start[w + 1] counts bucket w, then start[w] is its first slot */
    const int64_t whens = (tiles_u - 1) * A->tile_u + (tiles_z - 1) * A->tile_z + 1;
    int64_t *start = domino_calloc((size_t)whens + 1, sizeof(int64_t));
    if (!start) return -1;
    for (int64_t tz = 0; tz < tiles_z; tz++)
        for (int64_t tu = 0; tu < tiles_u; tu++)
            if (tile_holds_line(A, tu * A->tile_u, (int)(tz * A->tile_z)))
                start[tu * A->tile_u + tz * A->tile_z + 1]++;
    for (int64_t w = 0; w < whens; w++) start[w + 1] += start[w];
    const int64_t count = start[whens];
    for (int64_t tz = 0; tz < tiles_z; tz++)
        for (int64_t tu = 0; tu < tiles_u; tu++)
            if (tile_holds_line(A, tu * A->tile_u, (int)(tz * A->tile_z)))
                order[start[tu * A->tile_u + tz * A->tile_z]++] = (int32_t)(tu * tiles_z + tz);
    domino_free(start);
    return count;
}

domino_status domino_dstencil_tile_order(domino_handle h, const char *fn, domino_dstencil D,
                                         stencil_kernel_args *A)
{
    if (D->tile_order && D->tile_order_shape[0] == A->tile_u && D->tile_order_shape[1] == A->tile_z) {
        A->tile_order = D->tile_order;
        A->tile_count = D->tile_order_count;
        return DOMINO_SUCCESS;
    }
    struct domino_gpu_context *gpu;
    domino_status s = domino_gpu_context_get(h, &gpu);
    if (s) return s;
    int64_t tiles_u, tiles_z;
    domino_stencil_tile_grid(A, &tiles_u, &tiles_z);
    if (tiles_u > 0 && tiles_z > 0 && tiles_u > INT32_MAX / tiles_z)
        return domino_error(h, DOMINO_NOT_SUPPORTED, "%s: %lld x %lld tiles are too many", fn,
                            (long long)tiles_u, (long long)tiles_z);
    int32_t *order = domino_malloc((size_t)(tiles_u * tiles_z > 0 ? tiles_u * tiles_z : 1) * sizeof(int32_t));
    int64_t count = order ? domino_stencil_tile_order_fill(A, order) : -1;
    if (count < 0) { /* -1: out of memory (-2 was excluded above) */
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory (tile order)", fn);
        goto cleanup;
    }
    domino_pool_free(D->tile_order); /* synchronizes the device: no solve still reads it */
    D->tile_order = NULL;
    D->tile_order_shape[0] = D->tile_order_shape[1] = 0;
    cudaError_t e = domino_pool_malloc((void **)&D->tile_order, (size_t)(count > 0 ? count : 1) * sizeof(int32_t),
                                       gpu->stream);
    /* residency once per tile, not per solve */
    if (!e) e = domino_stencil_tile_resident(D->type, A, gpu->num_sms, &D->tile_order_blocks);
    if (e) {
        s = domino_cuda_status(h, e, fn);
        goto cleanup;
    }
    /* on the handle's stream, which the solve runs on (a plain cudaMemcpy
     * would run on the legacy stream, not ordered before it) */
    if ((s = domino_gpu_upload(h, D->tile_order, order, (size_t)count * sizeof(int32_t)))) goto cleanup;
    D->tile_order_shape[0] = A->tile_u;
    D->tile_order_shape[1] = A->tile_z;
    D->tile_order_count = (int32_t)count;
    A->tile_order = D->tile_order;
    A->tile_count = (int32_t)count;
cleanup:
    domino_free(order);
    return s;
}
