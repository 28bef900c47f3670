/* stencil_matrix_bytes.c: bytes of one triangle of a compact stencil matrix */
#include "matrix/stencil_internal.h"

/* values only: (offsets of the fill triangle, centre included) * N * value
 * size; 0 for NULL or a bad fill */
size_t domino_stencil_matrix_bytes(const domino_stencil_matrix *S, domino_fill fill)
{
    if (!S || (fill != DOMINO_LOWER && fill != DOMINO_UPPER)) return 0;
    size_t points = 0;
    for (int p = 0; p < S->npoints && p < DOMINO_STENCIL_MAX_POINTS; p++)
        points += (size_t)stencil_offset_in_fill(S, p, fill);
    return points * (size_t)stencil_rows(S) * domino_type_size(S->type);
}
