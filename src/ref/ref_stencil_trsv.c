/* ref_stencil_trsv.c: triangular solve on a compact stencil matrix on the CPU */
#include "matrix/stencil_internal.h"
#include "ref_internal.h"

/* the off-diagonal offsets of one triangle and the centre */
typedef struct triangle_offsets {
    int count;                                /* off-diagonal offsets kept */
    int point[DOMINO_STENCIL_MAX_POINTS];     /* their index in S, increasing linear
                                                 order */
    int64_t delta[DOMINO_STENCIL_MAX_POINTS]; /* column - row of each */
    int centre;                               /* index of (0,0,0) in S, -1 if absent */
} triangle_offsets;

static triangle_offsets select_triangle(const domino_stencil_matrix *S, domino_fill fill)
{
    triangle_offsets t = {0, {0}, {0}, -1};
    for (int p = 0; p < S->npoints; p++) {
        int sign = stencil_offset_sign(S->offsets + 3 * p);
        if (sign == 0)
            t.centre = p;
        else if ((sign < 0) == (fill == DOMINO_LOWER)) {
            t.point[t.count] = p;
            t.delta[t.count++] = stencil_offset_delta(S->offsets + 3 * p, S->nx, S->ny);
        }
    }
    return t;
}

/* pivots of a non-unit solve: the smallest row with a zero centre
 * coefficient gives DOMINO_ZERO_PIVOT naming it and its (x,y,z) */
static domino_status check_pivots(domino_handle h, const domino_stencil_matrix *S,
                                  const triangle_offsets *t)
{
    const char *what = "domino_ref_stencil_trsv";
    if (t->centre < 0)
        return domino_error(h, DOMINO_ZERO_DIAGONAL,
                            "%s: row 0 (x=0,y=0,z=0) has no diagonal: the stencil has no centre "
                            "offset (0,0,0)",
                            what);
    int64_t n = stencil_rows(S);
    for (int64_t i = 0; i < n; i++) {
        double pivot = ref_get(S->coef, S->type, (int64_t)t->centre * n + i);
        if (pivot == 0.0)
            return domino_error(
                h, DOMINO_ZERO_PIVOT, "%s: zero pivot at row %lld (x=%lld,y=%lld,z=%lld)", what,
                (long long)i, (long long)(i % S->nx), (long long)((i / S->nx) % S->ny),
                (long long)(i / ((int64_t)S->nx * S->ny)));
    }
    return DOMINO_SUCCESS;
}

/* x_i = (b_i - sum_p T(i, i+delta_p) x_{i+delta_p}) / T_ii over the grid in
 * solve order (forward for lower, backward for upper), terms summed in
 * increasing offset order like domino_ref_trsv on the sorted CSR triangle */
static void substitute(const domino_stencil_matrix *S, const triangle_offsets *t, domino_fill fill,
                       domino_diag diag, double *x)
{
    int64_t n = stencil_rows(S);
    for (int64_t step = 0; step < n; step++) {
        int64_t i = fill == DOMINO_LOWER ? step : n - 1 - step;
        int32_t gx = (int32_t)(i % S->nx), gy = (int32_t)((i / S->nx) % S->ny),
                gz = (int32_t)(i / ((int64_t)S->nx * S->ny));
        double acc = x[i];
        for (int q = 0; q < t->count; q++) {
            if (!stencil_inside(S, S->offsets + 3 * t->point[q], gx, gy, gz)) continue;
            acc -= ref_get(S->coef, S->type, (int64_t)t->point[q] * n + i) * x[i + t->delta[q]];
        }
        x[i] =
            diag == DOMINO_UNIT ? acc : acc / ref_get(S->coef, S->type, (int64_t)t->centre * n + i);
    }
}

/* Solve T x = b for T the fill triangle of S (lower: offsets before the
 * centre in linear order, upper: after it; UNIT: centre taken as 1).
 * b, x: N values of S's type; x may equal b.  Computed in double. */
domino_status domino_ref_stencil_trsv(domino_handle h, const domino_stencil_matrix *S,
                                      domino_fill fill, domino_diag diag, const void *b, void *x)
{
    const char *what = "domino_ref_stencil_trsv";
    if (!domino_handle_ok(h))
        return domino_error(NULL, DOMINO_INVALID_OBJECT, "%s: h is not a live handle", what);
    domino_clear_error(h);
    domino_status s = domino_stencil_check(h, what, S);
    if (s) return s;
    if (fill != DOMINO_LOWER && fill != DOMINO_UPPER)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: bad fill %d", what, (int)fill);
    if (diag != DOMINO_NON_UNIT && diag != DOMINO_UNIT)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: bad diag %d", what, (int)diag);
    if (!b || !x)
        return domino_error(h, DOMINO_NULL_POINTER, "%s: %s is NULL", what, !b ? "b" : "x");
    triangle_offsets t = select_triangle(S, fill);
    if (diag == DOMINO_NON_UNIT) {
        s = check_pivots(h, S, &t);
        if (s) return s;
    }
    int64_t n = stencil_rows(S);
    double *work = domino_malloc((size_t)n * sizeof(double));
    if (!work)
        return domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory (n = %lld)", what,
                            (long long)n);
    for (int64_t i = 0; i < n; i++) work[i] = ref_get(b, S->type, i);
    substitute(S, &t, fill, diag, work);
    for (int64_t i = 0; i < n; i++) ref_set(x, S->type, i, work[i]);
    domino_free(work);
    return DOMINO_SUCCESS;
}
