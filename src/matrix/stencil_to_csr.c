/* stencil_to_csr.c: CSR of one part of a compact stencil matrix */
#include "matrix/stencil_internal.h"

#include <stdlib.h>

/* 1 if offset p of S belongs to `part` */
static int offset_in_part(const domino_stencil_matrix *S, int p, domino_part part)
{
    if (part == DOMINO_PART_FULL) return 1;
    return stencil_offset_in_fill(S, p, part == DOMINO_PART_LOWER ? DOMINO_LOWER : DOMINO_UPPER);
}

/* number of in-grid neighbours of row (x, y, z) over the kept offsets */
static int64_t row_count(const domino_stencil_matrix *S, const int *kept, int nkept, int32_t x,
                         int32_t y, int32_t z)
{
    int64_t count = 0;
    for (int q = 0; q < nkept; q++) count += stencil_inside(S, S->offsets + 3 * kept[q], x, y, z);
    return count;
}

/* write the rows of M: counts, prefix sum, then entries in offset order
 * (increasing linear order, so columns are sorted) */
static void build_rows(const domino_stencil_matrix *S, const int *kept, int nkept,
                       struct domino_matrix_s *M)
{
    int64_t n = stencil_rows(S), i = 0;
    for (int32_t z = 0; z < S->nz; z++)
        for (int32_t y = 0; y < S->ny; y++)
            for (int32_t x = 0; x < S->nx; x++, i++)
                M->ptr[i + 1] = M->ptr[i] + row_count(S, kept, nkept, x, y, z);
    i = 0;
    for (int32_t z = 0; z < S->nz; z++)
        for (int32_t y = 0; y < S->ny; y++)
            for (int32_t x = 0; x < S->nx; x++, i++) {
                int64_t out = M->ptr[i];
                for (int q = 0; q < nkept; q++) {
                    const int *off = S->offsets + 3 * kept[q];
                    if (!stencil_inside(S, off, x, y, z)) continue;
                    int64_t at = (int64_t)kept[q] * n + i;
                    M->ind[out] = (int32_t)(i + stencil_offset_delta(off, S->nx, S->ny));
                    if (S->type == DOMINO_FLOAT64)
                        ((double *)M->val)[out] = ((const double *)S->coef)[at];
                    else
                        ((float *)M->val)[out] = ((const float *)S->coef)[at];
                    out++;
                }
            }
}

/* CSR, sorted, of the offsets of S in `part` (FULL: all; LOWER: linear
 * offset <= 0; UPPER: >= 0): one entry for each offset whose neighbour is
 * inside the grid, zero coefficients included, so a matrix from
 * domino_gen_stencil comes back unchanged through domino_stencil_from_csr. */
domino_status domino_stencil_to_csr(domino_handle h, const domino_stencil_matrix *S,
                                    domino_part part, domino_matrix *A)
{
    const char *what = "domino_stencil_to_csr";
    if (!A) return domino_error(h, DOMINO_NULL_POINTER, "%s: A is NULL", what);
    *A = NULL;
    if (!domino_handle_ok(h))
        return domino_error(NULL, DOMINO_INVALID_OBJECT, "%s: h is not a live handle", what);
    domino_clear_error(h);
    domino_status s = domino_stencil_check(h, what, S);
    if (s) return s;
    if (part != DOMINO_PART_FULL && part != DOMINO_PART_LOWER && part != DOMINO_PART_UPPER)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: bad part %d", what, (int)part);
    int kept[DOMINO_STENCIL_MAX_POINTS], nkept = 0;
    for (int p = 0; p < S->npoints; p++)
        if (offset_in_part(S, p, part)) kept[nkept++] = p;
    int64_t nnz = 0;
    for (int q = 0; q < nkept; q++) {
        const int *off = S->offsets + 3 * kept[q];
        int64_t span[3] = {S->nx - (int64_t)abs(off[0]), S->ny - (int64_t)abs(off[1]),
                           S->nz - (int64_t)abs(off[2])};
        if (span[0] > 0 && span[1] > 0 && span[2] > 0) nnz += span[0] * span[1] * span[2];
    }
    int32_t n = (int32_t)stencil_rows(S);
    domino_matrix M = NULL;
    s = domino_matrix_new(h, DOMINO_CSR, S->type, n, n, nnz, &M);
    if (s) return s;
    build_rows(S, kept, nkept, M);
    *A = M;
    return DOMINO_SUCCESS;
}
