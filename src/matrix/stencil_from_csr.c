/* stencil_from_csr.c: detect the stencil of a grid matrix in CSR, store it in compact form */
#include "matrix/stencil_internal.h"

#include <stdio.h>
#include <stdlib.h>

/* offsets within 2 per axis are numbered by key = (dz+2)*25 + (dy+2)*5 + dx+2,
 * which increases with the linear order */
#define OFFSET_KEYS 125

/* grid coordinates of row i */
typedef struct grid_point {
    int64_t x, y, z; /* coordinates, x fastest */
} grid_point;

static grid_point point_of(int64_t i, int32_t nx, int32_t ny)
{
    grid_point g = {i % nx, (i / nx) % ny, i / ((int64_t)nx * ny)};
    return g;
}

static int64_t abs64(int64_t v) { return v < 0 ? -v : v; }

/* Explain why column j is not a stencil neighbour of row i (a BAD_INPUT
 * error): either a small offset whose linear step lands on j but whose
 * neighbour falls off the grid (it wraps around a boundary), or a point
 * farther than 2 on an axis. */
static domino_status report_bad_entry(domino_handle h, int64_t i, int64_t j, int32_t nx, int32_t ny,
                                      int32_t nz)
{
    const char *what = "domino_stencil_from_csr";
    grid_point r = point_of(i, nx, ny), c = point_of(j, nx, ny);
    char where[160];
    snprintf(where, sizeof where, "row %lld (x=%lld,y=%lld,z=%lld) column %lld", (long long)i,
             (long long)r.x, (long long)r.y, (long long)r.z, (long long)j);
    int best = -1, best_size = 7;
    for (int key = 0; key < OFFSET_KEYS; key++) {
        int off[3] = {key % 5 - 2, (key / 5) % 5 - 2, key / 25 - 2};
        int size = abs(off[0]) + abs(off[1]) + abs(off[2]);
        if (stencil_offset_delta(off, nx, ny) == j - i && size < best_size) {
            best = key;
            best_size = size;
        }
    }
    if (best >= 0) {
        int off[3] = {best % 5 - 2, (best / 5) % 5 - 2, best / 25 - 2};
        int64_t xx = r.x + off[0], yy = r.y + off[1];
        const char *axis = (xx < 0 || xx >= nx) ? "x" : (yy < 0 || yy >= ny) ? "y" : "z";
        return domino_error(h, DOMINO_BAD_INPUT,
                            "%s: %s wraps around the %s boundary (offset %d,%d,%d leaves the "
                            "%d x %d x %d grid)",
                            what, where, axis, off[0], off[1], off[2], nx, ny, nz);
    }
    return domino_error(h, DOMINO_BAD_INPUT,
                        "%s: %s is not a grid neighbour within 2 per axis "
                        "(offset %lld,%lld,%lld)",
                        what, where, (long long)(c.x - r.x), (long long)(c.y - r.y),
                        (long long)(c.z - r.z));
}

/* key of the offset of entry (i, j), or -1 when j is no neighbour of i */
static int offset_key_of(int64_t i, int64_t j, int32_t nx, int32_t ny)
{
    grid_point r = point_of(i, nx, ny), c = point_of(j, nx, ny);
    int64_t dx = c.x - r.x, dy = c.y - r.y, dz = c.z - r.z;
    if (abs64(dx) > 2 || abs64(dy) > 2 || abs64(dz) > 2) return -1;
    return (int)((dz + 2) * 25 + (dy + 2) * 5 + dx + 2);
}

/* pass 1: mark the offsets A uses (used[key] = 1), checking every entry */
static domino_status find_offsets(domino_handle h, domino_matrix A, int32_t nx, int32_t ny,
                                  int32_t nz, int *used)
{
    int32_t n = A->nrows;
    for (int32_t i = 0; i < n; i++)
        for (int64_t k = A->ptr[i]; k < A->ptr[i + 1]; k++) {
            int32_t j = A->ind[k];
            if (j < 0 || j >= n)
                return domino_error(h, DOMINO_BAD_INPUT,
                                    "domino_stencil_from_csr: row %d column %d is outside 0..%d", i,
                                    j, n - 1);
            int key = offset_key_of(i, j, nx, ny);
            if (key < 0) return report_bad_entry(h, i, j, nx, ny, nz);
            used[key] = 1;
        }
    return DOMINO_SUCCESS;
}

/* pass 2: coef[p*N + i] += A(i,j) for the offset p of each entry */
static void fill_coefficients(domino_matrix A, const int *point_of_key, domino_stencil_matrix *S)
{
    int32_t n = A->nrows;
    for (int32_t i = 0; i < n; i++)
        for (int64_t k = A->ptr[i]; k < A->ptr[i + 1]; k++) {
            int64_t at = (int64_t)point_of_key[offset_key_of(i, A->ind[k], S->nx, S->ny)] * n + i;
            if (S->type == DOMINO_FLOAT64)
                ((double *)S->coef)[at] += ((const double *)A->val)[k];
            else
                ((float *)S->coef)[at] += ((const float *)A->val)[k];
        }
}

/* A as a general CSR matrix: A itself, or a converted copy in *work */
static domino_status general_csr(domino_handle h, domino_matrix A, domino_matrix *work,
                                 domino_matrix *csr)
{
    domino_matrix expanded = NULL;
    domino_status s = DOMINO_SUCCESS;
    *csr = A;
    if (A->symmetry != DOMINO_GENERAL) {
        s = domino_matrix_symmetric_expand(h, A, &expanded);
        if (s) return s;
        *csr = expanded;
    }
    if ((*csr)->format != DOMINO_CSR) {
        s = domino_matrix_convert(h, *csr, DOMINO_CSR, work);
        domino_matrix_free(expanded);
        if (s) return s;
        *csr = *work;
    } else {
        *work = expanded;
    }
    return DOMINO_SUCCESS;
}

/* Compact stencil form of square A (CSR or CSC, order nx*ny*nz, natural
 * ordering x fastest): the union of the offsets of its entries, in
 * increasing linear order, and their coefficients (duplicates summed, absent
 * entries 0).  Errors: see domino.h. */
domino_status domino_stencil_from_csr(domino_handle h, domino_matrix A, int32_t nx, int32_t ny,
                                      int32_t nz, domino_stencil_matrix **S)
{
    const char *what = "domino_stencil_from_csr";
    if (!S) return domino_error(h, DOMINO_NULL_POINTER, "%s: S is NULL", what);
    *S = NULL;
    if (!domino_handle_ok(h))
        return domino_error(NULL, DOMINO_INVALID_OBJECT, "%s: h is not a live handle", what);
    domino_clear_error(h);
    domino_status s = domino_check_matrix(h, A, what);
    if (s) return s;
    if (nx < 1 || ny < 1 || nz < 1)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: grid %d x %d x %d has a size below 1",
                            what, nx, ny, nz);
    int64_t n = (int64_t)nx * ny * nz;
    if (A->nrows != A->ncols || A->nrows != n)
        return domino_error(h, DOMINO_DIMENSION_MISMATCH,
                            "%s: A is %d x %d, the %d x %d x %d grid needs %lld x %lld", what,
                            A->nrows, A->ncols, nx, ny, nz, (long long)n, (long long)n);
    domino_matrix work = NULL, csr = NULL;
    domino_stencil_matrix *M = NULL;
    int used[OFFSET_KEYS] = {0}, point_of_key[OFFSET_KEYS];
    s = general_csr(h, A, &work, &csr);
    if (s) goto cleanup;
    s = find_offsets(h, csr, nx, ny, nz, used);
    if (s) goto cleanup;
    int npoints = 0;
    for (int key = 0; key < OFFSET_KEYS; key++) npoints += used[key];
    if (npoints > DOMINO_STENCIL_MAX_POINTS) {
        s = domino_error(h, DOMINO_NOT_SUPPORTED, "%s: A uses %d distinct offsets, at most %d",
                         what, npoints, DOMINO_STENCIL_MAX_POINTS);
        goto cleanup;
    }
    M = domino_calloc(1, sizeof(*M));
    if (M)
        M->coef =
            domino_calloc((size_t)(npoints ? npoints : 1) * (size_t)n, domino_type_size(A->type));
    if (!M || !M->coef) {
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory for %d offsets of %lld rows",
                         what, npoints, (long long)n);
        goto cleanup;
    }
    M->nx = nx, M->ny = ny, M->nz = nz, M->type = A->type;
    for (int key = 0; key < OFFSET_KEYS; key++) {
        if (!used[key]) continue;
        int *off = M->offsets + 3 * M->npoints;
        off[0] = key % 5 - 2, off[1] = (key / 5) % 5 - 2, off[2] = key / 25 - 2;
        point_of_key[key] = M->npoints++;
    }
    fill_coefficients(csr, point_of_key, M);
    *S = M;
    M = NULL;
cleanup:
    domino_stencil_matrix_free(M);
    domino_matrix_free(work);
    return s;
}
