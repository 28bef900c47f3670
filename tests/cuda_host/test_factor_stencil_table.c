/* test_factor_stencil_table.c: the slot tables of the factorization
 * kernel's stencil path (host code of the CUDA layer; no GPU needed, label
 * cpu).
 *
 * For every generator stencil on grids with and without deep rows, on the
 * matrix domino_gen_stencil makes (the whole pattern for ILU(0), its lower
 * triangle for IC(0)): every deep row's rows k are interior (they hold
 * exactly the stencil's entries), and every table entry equals what the
 * kernel's binary search finds in the CSR: for ILU(0) the position in row
 * k's upper part of each later column of row i, for IC(0) the position in
 * row i, left of column k, of each column of row k's lower part.  Tables
 * are refused for grids without deep rows and for offsets that are not
 * symmetric or not in increasing order.  The flag of the scan path
 * (triangle_free) equals a search for triangles in the matrix.  The box
 * path's functions (domino_factor_box_*) equal D3N27's tables, and no
 * other stencil passes domino_factor_box_fits. */
#include "check.h"
#include "domino.h"
#include "cuda/factor_plan.h"

#include <string.h>

/* position of column c in ind[lo, hi), -1 if none */
static int64_t search(const int32_t *ind, int64_t lo, int64_t hi, int64_t c)
{
    for (int64_t q = lo; q < hi; q++)
        if (ind[q] == c) return q;
    return -1;
}

/* 1 if row r of v holds exactly columns r + a->offset[0, width) */
static int holds_stencil(const domino_matrix_view *v, const factor_stencil_args *a, int64_t r)
{
    if (v->ptr[r + 1] - v->ptr[r] != a->width) return 0;
    for (int s = 0; s < a->width; s++)
        if (v->ind[v->ptr[r] + s] != r + a->offset[s]) return 0;
    return 1;
}

/* every row of v holds exactly the columns row + offset[s] of the bits s
 * of its mask below width, in order (the line path's positions); returns
 * the rows that do not */
static int check_masks(const domino_matrix_view *v, const factor_stencil_args *a)
{
    int bad = 0;
    uint64_t below = a->width >= 64 ? ~0ULL : (1ULL << a->width) - 1;
    for (int64_t i = 0; i < v->nrows; i++) {
        int64_t x = i % a->nx, y = (i / a->nx) % a->ny, z = i / ((int64_t)a->nx * a->ny);
        uint64_t m = domino_factor_row_mask(a, x, y, z) & below;
        int64_t q = v->ptr[i], line = i / a->nx;
        uint64_t myz = domino_factor_line_mask(a, y, z) & below;
        int ok = v->ptr[line * a->nx] + domino_factor_row_prefix(a, x, myz) == q;
        if (x == a->nx - 1) /* the line's end too */
            ok &= v->ptr[line * a->nx] + domino_factor_row_prefix(a, a->nx, myz) == v->ptr[i + 1];
        for (int s = 0; s < a->width; s++)
            if (m >> s & 1) ok &= q < v->ptr[i + 1] && v->ind[q++] == i + a->offset[s];
        if (!ok || q != v->ptr[i + 1]) bad++;
    }
    return bad;
}

/* 1 if no row of v has two neighbours k, j (k != j, both off the
 * diagonal) with j among k's columns: a graph without triangles */
static int triangle_free(const domino_matrix_view *v)
{
    for (int64_t i = 0; i < v->nrows; i++)
        for (int64_t p = v->ptr[i]; p < v->ptr[i + 1]; p++) {
            int64_t k = v->ind[p];
            if (k == i) continue;
            for (int64_t q = v->ptr[i]; q < v->ptr[i + 1]; q++) {
                int64_t j = v->ind[q];
                if (j != i && j != k && search(v->ind, v->ptr[k], v->ptr[k + 1], j) >= 0) return 0;
            }
        }
    return 1;
}

/* table a (kind 0 ILU0, 1 IC0) against searches in the CSR v; returns the
 * deep rows seen, adds failures to *bad */
static int64_t check_table(const domino_matrix_view *v, const factor_stencil_args *a, int kind,
                           int *bad)
{
    int64_t deep = 0;
    for (int64_t i = 0; i < v->nrows; i++) {
        if (!domino_factor_stencil_deep(a, (int32_t)i)) continue;
        deep++;
        if (!holds_stencil(v, a, i)) {
            (*bad)++;
            continue;
        }
        int64_t p0 = v->ptr[i];
        for (int s1 = 0; s1 < a->lower; s1++) {
            int64_t k = v->ind[p0 + s1], k0 = v->ptr[k];
            if (!holds_stencil(v, a, k)) {
                (*bad)++;
                continue;
            }
            if (kind == 0) {
                for (int t = s1 + 1; t < a->width; t++) {
                    int64_t g = search(v->ind, k0 + a->lower + 1, v->ptr[k + 1], v->ind[p0 + t]);
                    int want = g < 0 ? -1 : (int)(g - k0);
                    if (a->slot[s1 * a->width + t] != want) (*bad)++;
                }
                for (int s2 = a->lower + 1; s2 < a->npoints; s2++) { /* the line path's inverse */
                    int64_t g = search(v->ind, p0 + s1 + 1, v->ptr[i + 1], v->ind[k0 + s2]);
                    int want = g < 0 ? -1 : (int)(g - p0);
                    if (a->target[s1 * a->npoints + s2] != want) (*bad)++;
                }
            } else
                for (int s2 = 0; s2 < a->lower; s2++) {
                    int64_t g = search(v->ind, p0, p0 + s1, v->ind[k0 + s2]);
                    int want = g < 0 ? -1 : (int)(g - p0);
                    if (a->slot[s1 * a->lower + s2] != want) (*bad)++;
                }
        }
    }
    return deep;
}

int main(void)
{
    static const int grids[][3] = {{9, 8, 7}, {12, 11, 13}, {5, 5, 5}, {30, 9, 10}, {3, 20, 20}};
    domino_handle h = NULL;
    CHECK_OK(h, domino_create(&h));
    int off[3 * DOMINO_STENCIL_MAX_POINTS];
    for (int st = 0; st < 7; st++) {
        int npoints = domino_stencil_offsets((domino_stencil)st, off);
        int is3d = st >= DOMINO_D3N7;
        for (int g = 0; g < 5; g++) {
            int32_t nx = grids[g][0], ny = grids[g][1], nz = is3d ? grids[g][2] : 1;
            domino_matrix A = NULL, L = NULL;
            domino_matrix_view v, vl;
            CHECK_OK(h, domino_gen_stencil(h, (domino_stencil)st, nx, ny, nz, DOMINO_PART_FULL,
                                           DOMINO_FLOAT64, &A));
            CHECK_OK(h, domino_gen_stencil(h, (domino_stencil)st, nx, ny, nz, DOMINO_PART_LOWER,
                                           DOMINO_FLOAT64, &L));
            if (!A || !L) continue;
            CHECK_OK(h, domino_matrix_get_view(h, A, &v));
            CHECK_OK(h, domino_matrix_get_view(h, L, &vl));
            for (int kind = 0; kind < 2; kind++) {
                factor_stencil_args a;
                int made = domino_factor_stencil_table(off, npoints, nx, ny, nz, kind, &a);
                /* deep rows exist iff every dimension exceeds 4 radii */
                int rad[3] = {0, 0, 0};
                for (int p = 0; p < npoints; p++)
                    for (int d = 0; d < 3; d++)
                        if (abs(off[3 * p + d]) > rad[d]) rad[d] = abs(off[3 * p + d]);
                int want = nx > 4 * rad[0] && ny > 4 * rad[1] && nz > 4 * rad[2];
                CHECK(made == want);
                if (!made) {
                    CHECK(a.nx == 0 && !domino_factor_stencil_deep(&a, 0));
                    continue;
                }
                int bad = check_masks(kind ? &vl : &v, &a);
                CHECK(bad == 0);
                /* the scan path's test: no triangles in the matrix, only D2N5 and D3N7 */
                if (kind == 0) CHECK(a.triangle_free == triangle_free(&v));
                CHECK(a.triangle_free == (st == DOMINO_D2N5 || st == DOMINO_D3N7));
                int same = 0;
                for (int p = 0; p < a.lower; p++)
                    same += a.dxyz[p][1] == 0 && a.dxyz[p][2] == 0;
                CHECK(a.same_line == same && a.same_line == rad[0] && a.nlines >= 1);
                for (int p = 0; p < a.lower; p++) { /* each lower slot's line */
                    int q = a.line_of[p];
                    CHECK(q < 0 ? a.dxyz[p][1] == 0 && a.dxyz[p][2] == 0
                                : q < a.nlines && a.line_dy[q] == a.dxyz[p][1] &&
                                      a.line_dz[q] == a.dxyz[p][2] && a.line_dx[q] >= a.dxyz[p][0]);
                }
                CHECK(domino_factor_box_fits(&a) == (st == DOMINO_D3N27));
                for (int s1 = 0; st == DOMINO_D3N27 && s1 < a.lower; s1++)
                    for (int t = 0; t < a.width; t++) {
                        int q = kind == 0 ? domino_factor_box_ilu_slot(s1, t) : domino_factor_box_ic_slot(s1, t);
                        CHECK(kind == 0 ? a.slot[s1 * a.width + t] == q
                                        : t >= a.lower || a.slot[s1 * a.lower + t] == q);
                    }
                int64_t deep = check_table(kind ? &vl : &v, &a, kind, &bad);
                int64_t want_deep = (int64_t)(nx - 4 * rad[0]) * (ny - 4 * rad[1]) * (nz - 4 * rad[2]);
                CHECK(deep == want_deep);
                CHECK(bad == 0);
                if (bad || deep != want_deep)
                    fprintf(stderr, "  %s %dx%dx%d %s: %d bad entries, %lld deep rows (want %lld)\n",
                            domino_stencil_name((domino_stencil)st), nx, ny, nz, kind ? "IC0" : "ILU0",
                            bad, (long long)deep, (long long)want_deep);
            }
            domino_matrix_free(A);
            domino_matrix_free(L);
        }
    }
    /* refused: offsets out of order, not symmetric, no diagonal */
    factor_stencil_args a;
    int bad_order[9] = {0, 0, -1, -1, 0, 0, 1, 0, 0}, one_sided[6] = {-1, 0, 0, 0, 0, 0},
        no_diag[6] = {-1, 0, 0, 1, 0, 0};
    CHECK(domino_factor_stencil_table(bad_order, 3, 9, 9, 9, 0, &a) == 0);
    CHECK(domino_factor_stencil_table(one_sided, 2, 9, 9, 9, 0, &a) == 0);
    CHECK(domino_factor_stencil_table(no_diag, 2, 9, 9, 9, 1, &a) == 0 && a.nx == 0);
    CHECK(domino_factor_stencil_table(NULL, 3, 9, 9, 9, 0, &a) == 0);
    domino_destroy(h);
    return check_summary("test_factor_stencil_table");
}
