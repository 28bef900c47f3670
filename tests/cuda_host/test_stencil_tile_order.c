/* test_stencil_tile_order.c: the ticket order of the tiled structured solve
 * (host code of the CUDA layer; no GPU needed, label cpu).
 *
 * The tiled kernel's freedom from deadlock rests on two facts this test
 * checks for every generator stencil, both triangles, odd and flat grids and
 * every tile of up to 16 lines: (1) every tile that holds a line of the grid
 * is ticketed exactly once, and no empty tile is; (2) every neighbour line a
 * line waits on lies in a tile ticketed before its own, or in its own tile
 * at a smaller or equal (u, z) position that is not its own (so the waits
 * inside a tile are acyclic, and across tiles only go to tiles held by
 * blocks that took their ticket earlier).  It checks (3) too: the tickets
 * go by the u0 + z0 of a tile's first line, then by z0 (the wavefront's
 * order, which stencil_tile_order.c makes by counting).  Also for a slab of
 * the solve over PEs (domino_dist_stencil: own lines y_lo <= y < y_hi; the
 * others are ghost lines, read from x, never in a tile).
 *
 * It also checks that an upper triangle's offsets, in solve coordinates,
 * are numbered exactly as the lower triangle's (off-line offsets and
 * neighbour lines in the same order): numbered the other way, the tiled
 * kernel's upper solves were 16-20% slower (bench/results/h100-stencil6). */
#include "check.h"
#include "domino.h"
#include "cuda/stencil_gpu.h"

#include <stdlib.h>
#include <string.h>

/* tile index (tu * tiles_z + tz) of line (y, z) and its position in the tile */
static int64_t tile_of(const stencil_kernel_args *A, int64_t tiles_z, int y, int z, int *lu, int *lz)
{
    int64_t u = y + (int64_t)A->tile_skew * z;
    *lu = (int)(u % A->tile_u);
    *lz = z % A->tile_z;
    return (u / A->tile_u) * tiles_z + z / A->tile_z;
}

/* checks (1), (2) and (3) for A with its tile set; returns the failures */
static int check_order(const stencil_kernel_args *A)
{
    int64_t tiles_u, tiles_z;
    domino_stencil_tile_grid(A, &tiles_u, &tiles_z);
    int64_t tiles = tiles_u * tiles_z;
    int32_t *order = malloc((size_t)tiles * sizeof(int32_t));
    int64_t *pos = malloc((size_t)tiles * sizeof(int64_t));
    char *holds = calloc((size_t)tiles, 1);
    int bad = 0;
    if (!order || !pos || !holds) {
        bad = 1;
        goto cleanup;
    }
    int64_t count = domino_stencil_tile_order_fill(A, order);
    if (count < 0) {
        bad = 1;
        goto cleanup;
    }
    for (int64_t t = 0; t < tiles; t++) pos[t] = -1;
    for (int64_t p = 0; p < count; p++) {
        if (order[p] < 0 || order[p] >= tiles || pos[order[p]] >= 0) {
            bad++; /* out of range, twice */
            continue;
        }
        pos[order[p]] = p;
        /* (3) the tickets go by u0 + z0, then z0, strictly */
        if (p > 0 && order[p - 1] >= 0 && order[p - 1] < tiles) {
            int64_t z0 = order[p] % tiles_z * A->tile_z, w = order[p] / tiles_z * A->tile_u + z0;
            int64_t pz0 = order[p - 1] % tiles_z * A->tile_z, pw = order[p - 1] / tiles_z * A->tile_u + pz0;
            if (pw > w || (pw == w && pz0 >= z0)) bad++;
        }
    }
    for (int z = 0; z < A->nz; z++)
        for (int y = A->y_lo; y < A->y_hi; y++) {
            int lu, lz;
            int64_t t = tile_of(A, tiles_z, y, z, &lu, &lz);
            holds[t] = 1;
            if (pos[t] < 0) {
                bad++; /* a line in no ticketed tile */
                continue;
            }
            for (int w = 0; w < A->nwait; w++) {
                int wy = y + A->waity[w], wz = z + A->waitz[w];
                if (A->waity[w] + A->tile_skew * A->waitz[w] > 0 || A->waitz[w] > 0) bad++;
                if (wy < 0 || wy >= A->ny || wz < 0 || wz >= A->nz) continue;
                if (wy < A->y_lo || wy >= A->y_hi) continue; /* a slab's ghost line: another PE's */
                int nu, nz;
                int64_t nt = tile_of(A, tiles_z, wy, wz, &nu, &nz);
                if (pos[nt] < 0 || pos[nt] > pos[t]) bad++; /* waits on a later ticket */
                if (nt == t && (nu > lu || nz > lz || (nu == lu && nz == lz))) bad++;
            }
        }
    for (int64_t t = 0; t < tiles; t++)
        if (pos[t] >= 0 && !holds[t]) bad++; /* an empty tile ticketed */
cleanup:
    free(order);
    free(pos);
    free(holds);
    return bad;
}

/* 1 if the upper triangle's offset tables of a symmetric stencil equal the
 * lower triangle's (grid nx x ny x nz) */
static int same_numbering(const int *offsets, int npoints, int nx, int ny, int nz)
{
    stencil_kernel_args L, U;
    int slot_of[DOMINO_STENCIL_MAX_POINTS];
    memset(&L, 0, sizeof(L));
    L.nx = nx, L.ny = ny, L.nz = nz, L.n = (int64_t)nx * ny * nz;
    U = L;
    U.upper = 1;
    if (domino_stencil_args_offsets(NULL, offsets, npoints, DOMINO_LOWER, &L, slot_of) ||
        domino_stencil_args_offsets(NULL, offsets, npoints, DOMINO_UPPER, &U, slot_of))
        return 0;
    int same = L.noff == U.noff && L.nwait == U.nwait && L.order == U.order && L.nlow == U.nlow;
    for (int k = 0; same && k < L.noff; k++)
        same = L.offx[k] == U.offx[k] && L.offy[k] == U.offy[k] && L.offz[k] == U.offz[k];
    for (int w = 0; same && w < L.nwait; w++)
        same = L.waity[w] == U.waity[w] && L.waitz[w] == U.waitz[w] && L.waitx[w] == U.waitx[w];
    for (int p = 0; same && p < L.nlow; p++)
        same = L.lowkind[p] == U.lowkind[p];
    return same;
}

/* 1 if csr_entry's slot s is offset q's (q = -1: an empty slot) */
static int slot_is(const stencil_kernel_args *A, stencil_csr_slot s, int q)
{
    if (q < 0) return s.bit == 0 && s.below == 0 && s.delta == 0;
    int64_t delta = A->upper ? -A->lowd[q] : A->lowd[q];
    return s.bit == 1u << q && s.below == (1u << q) - 1u && s.delta == delta;
}

/* 1 if the slots of csr_entry are the role tables' offsets, and low_dx
 * splits the offsets by dx */
static int slots_consistent(const stencil_kernel_args *A)
{
    if (!slot_is(A, A->csr_centre, A->low_centre) || !slot_is(A, A->csr_m1, A->low_m1) ||
        !slot_is(A, A->csr_m2, A->low_m2))
        return 0;
    for (int w = 0; w < STENCIL_MAX_WAIT; w++)
        for (int d = 0; d < 3; d++)
            if (!slot_is(A, A->csr_wait[w][d], w < A->nwait ? A->low_wait[w][d] : -1)) return 0;
    for (int k = 0; k < STENCIL_MAX_LOW; k++)
        if (!slot_is(A, A->csr_off[k], k < A->noff ? A->off_low[k] : -1)) return 0;
    for (int q = 0; q < STENCIL_MAX_LOW; q++)
        if (!slot_is(A, A->csr_low[q], q < A->nlow ? q : -1)) return 0;
    for (int q = 0; q < A->nlow; q++)
        for (int i = 0; i < 5; i++)
            if (!(A->low_dx[i] >> q & 1u) != (A->lowx[q] != i - 2)) return 0;
    for (int i = 0; i < 5; i++)
        if (A->low_dx[i] >> A->nlow) return 0;
    return 1;
}

/* 1 if the role tables name every offset of the triangle once: off_low
 * (the queue kernel's reading of a CSR row by offset) inverts lowkind's
 * off-line numbers, low_centre / low_m1 / low_m2 its in-line ones */
static int roles_consistent(const stencil_kernel_args *A)
{
    int seen[STENCIL_MAX_LOW] = {0};
    for (int k = 0; k < A->noff; k++) {
        int q = A->off_low[k];
        if (q < 0 || q >= A->nlow || A->lowkind[q] != STENCIL_OFF + k || seen[q]++) return 0;
    }
    for (int k = A->noff; k < STENCIL_MAX_OFF; k++)
        if (A->off_low[k] != -1) return 0;
    const int inline_q[3] = {A->low_centre, A->low_m1, A->low_m2};
    for (int r = 0; r < 3; r++) {
        int q = inline_q[r];
        if (q < -1 || q >= A->nlow || (q >= 0 && (A->lowkind[q] != r || seen[q]++))) return 0;
    }
    for (int q = 0; q < A->nlow; q++)
        if (!seen[q]) return 0;
    return slots_consistent(A);
}

int main(void)
{
    static const int grids[][3] = {{1, 1, 1}, {5, 7, 9}, {3, 30, 2}, {2, 1, 40}, {17, 17, 17}, {4, 64, 1}};
    int offsets[3 * DOMINO_STENCIL_MAX_POINTS], slot_of[DOMINO_STENCIL_MAX_POINTS];
    for (int st = 0; st < 7; st++) {
        int npoints = domino_stencil_offsets((domino_stencil)st, offsets);
        CHECK(npoints > 0);
        CHECK(same_numbering(offsets, npoints, 9, 8, 7));
        for (int g = 0; g < 6; g++)
            for (int fill = 0; fill < 2; fill++) {
                stencil_kernel_args A;
                memset(&A, 0, sizeof(A));
                A.nx = grids[g][0];
                A.ny = grids[g][1];
                A.nz = grids[g][2];
                A.n = (int64_t)A.nx * A.ny * A.nz;
                A.upper = fill;
                domino_status s = domino_stencil_args_offsets(NULL, offsets, npoints,
                                                              fill ? DOMINO_UPPER : DOMINO_LOWER, &A, slot_of);
                CHECK(s == DOMINO_SUCCESS);
                if (s) continue;
                CHECK(roles_consistent(&A));
                /* every line, then a slab's own lines (domino_dist_stencil) */
                for (int slab = 0; slab < (A.ny >= 5 ? 2 : 1); slab++) {
                    A.y_lo = slab ? 2 : 0;
                    A.y_hi = slab ? A.ny - 1 : A.ny;
                    for (int u = 1; u <= STENCIL_TILE_MAX_WARPS; u++)
                        for (int z = 1; u * z <= STENCIL_TILE_MAX_WARPS; z++) {
                            A.tile_u = u;
                            A.tile_z = z;
                            int bad = check_order(&A);
                            CHECK(bad == 0);
                            if (bad)
                                fprintf(stderr, "  %s %dx%dx%d %s lines %d..%d tile %dx%d: %d violations\n",
                                        domino_stencil_name((domino_stencil)st), A.nx, A.ny, A.nz,
                                        fill ? "upper" : "lower", A.y_lo, A.y_hi - 1, u, z, bad);
                        }
                }
            }
    }
    return check_summary("test_stencil_tile_order");
}
