/* trsv_level_order.c: trsv_level_order_make, the level-block engine's
 * schedule built on the host (see trsv_level_order.h) */
#include "trsv_level_order.h"
#include "internal.h"

#include <string.h>

void trsv_level_order_free(trsv_level_order *o)
{
    if (!o) return;
    domino_free(o->level_ptr);
    domino_free(o->level_entries);
    domino_free(o->row);
    domino_free(o->ptr);
    domino_free(o->col);
    domino_free(o->src);
    domino_free(o->diag_src);
    memset(o, 0, sizeof(*o));
}

/* S's rows as CSR of their off-diagonal triangle entries (rptr, rcol, rsrc)
 * and each row's diagonal (diag_src); entries of a row in the order the
 * arrays hold them (CSR(S): stored order; CSC(S): increasing column) */
typedef struct s_rows {
    int64_t *rptr;   /* n+1 */
    int32_t *rcol;   /* m */
    int64_t *rsrc;   /* m */
} s_rows;

/* is (r, c) an off-diagonal entry of S's triangle? */
static int in_triangle(int32_t r, int32_t c, int s_upper)
{
    return s_upper ? c > r : c < r;
}

static int rows_of_s(int32_t n, const int64_t *ptr, const int32_t *ind, int csr_of_s, int s_upper,
                     s_rows *R, int64_t *diag_src, int64_t *m)
{
    int64_t *fill = domino_calloc((size_t)n + 1, sizeof(int64_t));
    R->rptr = domino_calloc((size_t)n + 1, sizeof(int64_t));
    if (!fill || !R->rptr) {
        domino_free(fill);
        return -1;
    }
    for (int32_t i = 0; i < n; i++) diag_src[i] = -1;
    for (int32_t i = 0; i < n; i++)
        for (int64_t k = ptr[i]; k < ptr[i + 1]; k++) {
            int32_t r = csr_of_s ? i : ind[k], c = csr_of_s ? ind[k] : i;
            if (r == c) diag_src[r] = k;
            else if (in_triangle(r, c, s_upper)) R->rptr[r + 1]++;
        }
    for (int32_t i = 0; i < n; i++) R->rptr[i + 1] += R->rptr[i];
    *m = R->rptr[n];
    if (*m >= INT32_MAX) {
        domino_free(fill);
        return -2;
    }
    R->rcol = domino_malloc((size_t)*m * sizeof(int32_t) + 1);
    R->rsrc = domino_malloc((size_t)*m * sizeof(int64_t) + 1);
    if (!R->rcol || !R->rsrc) {
        domino_free(fill);
        return -1;
    }
    for (int32_t i = 0; i < n; i++)
        for (int64_t k = ptr[i]; k < ptr[i + 1]; k++) {
            int32_t r = csr_of_s ? i : ind[k], c = csr_of_s ? ind[k] : i;
            if (r == c || !in_triangle(r, c, s_upper)) continue;
            int64_t at = R->rptr[r] + fill[r]++;
            R->rcol[at] = c;
            R->rsrc[at] = k;
        }
    domino_free(fill);
    return 0;
}

int trsv_level_order_make(int32_t n, const int64_t *ptr, const int32_t *ind, int csr_of_s,
                          int s_upper, trsv_level_order *o)
{
    s_rows R = {NULL, NULL, NULL};
    int32_t *level = NULL;
    int64_t *diag_by_row = NULL; /* diagonal entry of each row, -1 if none */
    int rc = -1;
    memset(o, 0, sizeof(*o));
    o->n = n;
    diag_by_row = domino_malloc((size_t)n * sizeof(int64_t) + 1);
    level = domino_malloc((size_t)n * sizeof(int32_t) + 1);
    if (!diag_by_row || !level) goto cleanup;
    if ((rc = rows_of_s(n, ptr, ind, csr_of_s, s_upper, &R, diag_by_row, &o->m))) goto cleanup;
    rc = -1;
    /* levels in solve order: a row's dependencies come before it */
    for (int32_t t = 0; t < n; t++) {
        int32_t i = s_upper ? n - 1 - t : t, li = 0;
        for (int64_t k = R.rptr[i]; k < R.rptr[i + 1]; k++)
            if (level[R.rcol[k]] + 1 > li) li = level[R.rcol[k]] + 1;
        level[i] = li;
        if (li + 1 > o->nlevels) o->nlevels = li + 1;
    }
    o->level_ptr = domino_calloc((size_t)o->nlevels + 2, sizeof(int32_t));
    o->level_entries = domino_calloc((size_t)o->nlevels + 2, sizeof(int32_t));
    o->row = domino_malloc((size_t)n * sizeof(int32_t) + 1);
    o->ptr = domino_malloc(((size_t)n + 1) * sizeof(int32_t));
    o->col = domino_malloc((size_t)o->m * sizeof(int32_t) + 1);
    o->src = domino_malloc((size_t)o->m * sizeof(int64_t) + 1);
    o->diag_src = domino_malloc((size_t)n * sizeof(int64_t) + 1);
    if (!o->level_ptr || !o->level_entries || !o->row || !o->ptr || !o->col || !o->src ||
        !o->diag_src)
        goto cleanup;
    /* counting sort of the rows by level, increasing row inside a level */
    for (int32_t i = 0; i < n; i++) o->level_ptr[level[i] + 1]++;
    for (int32_t l = 0; l < o->nlevels; l++) {
        if (o->level_ptr[l + 1] > o->widest) o->widest = o->level_ptr[l + 1];
        o->level_ptr[l + 1] += o->level_ptr[l];
    }
    for (int32_t i = 0; i < n; i++) o->row[o->level_ptr[level[i]]++] = i; /* level_ptr[l]: end of l */
    for (int32_t l = o->nlevels; l > 0; l--) o->level_ptr[l] = o->level_ptr[l - 1];
    o->level_ptr[0] = 0;
    /* the entries and the diagonal in position order */
    int32_t at = 0;
    for (int32_t q = 0; q < n; q++) {
        int32_t i = o->row[q];
        o->ptr[q] = at;
        o->diag_src[q] = diag_by_row[i];
        for (int64_t k = R.rptr[i]; k < R.rptr[i + 1]; k++, at++) {
            o->col[at] = R.rcol[k];
            o->src[at] = R.rsrc[k];
        }
    }
    o->ptr[n] = at;
    for (int32_t l = 0; l <= o->nlevels; l++) o->level_entries[l] = o->ptr[o->level_ptr[l]];
    rc = 0;
cleanup:
    domino_free(level);
    domino_free(diag_by_row);
    domino_free(R.rptr);
    domino_free(R.rcol);
    domino_free(R.rsrc);
    if (rc) trsv_level_order_free(o);
    return rc;
}
