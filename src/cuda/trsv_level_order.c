/* trsv_level_order.c: trsv_level_order_make, the level-block engine's
 * schedule built on the host (see trsv_level_order.h) */
#include "trsv_level_order.h"
#include "internal.h"

#include <string.h>

#define LO_ALIGN(x) (((x) + 255) & ~(size_t)255)

size_t trsv_level_order_layout(int32_t n, int32_t nlevels, int64_t m, size_t off[TRSV_LO_ARRAYS])
{
    size_t words[TRSV_LO_ARRAYS]; /* int32 words of each array */
    words[TRSV_LO_LEVEL_PTR] = words[TRSV_LO_LEVEL_ENTRIES] = (size_t)nlevels + 1;
    words[TRSV_LO_ROW] = words[TRSV_LO_DIAG_SRC] = (size_t)n;
    words[TRSV_LO_PTR] = (size_t)n + 1;
    words[TRSV_LO_COL] = words[TRSV_LO_SRC] = (size_t)m;
    size_t at = 0;
    for (int a = 0; a < TRSV_LO_ARRAYS; a++) {
        off[a] = at;
        at += LO_ALIGN(words[a] * sizeof(int32_t));
    }
    return at;
}

void trsv_level_order_free(trsv_level_order *o)
{
    if (!o) return;
    domino_free(o->block);
    memset(o, 0, sizeof(*o));
}

/* S's rows: offsets rp, columns rc and source indices rs (NULL: the index
 * of the entry itself); filter: skip entries outside S's strict triangle
 * (CSR(S) read in place), else every entry is one (CSC(S) transposed) */
typedef struct s_rows {
    const int64_t *rp;
    const int32_t *rc;
    const int32_t *rs;
    int filter;
    int s_upper;
} s_rows;

/* is entry k of row i of R an off-diagonal entry of S's triangle? */
static inline int is_entry(const s_rows *R, int32_t i, int64_t k)
{
    int32_t c = R->rc[k];
    return !R->filter || (R->s_upper ? c > i : c < i);
}

/* the transpose of CSC(S)'s off-diagonal triangle entries as rows of S
 * (entries of a row by increasing column), and each row's diagonal */
static int transpose_rows(int32_t n, const int64_t *ptr, const int32_t *ind, int s_upper,
                          int64_t **rp, int32_t **rc, int32_t **rs, int32_t *diag_by_row)
{
    int64_t *p = domino_calloc((size_t)n + 2, sizeof(int64_t));
    if (!p) return -1;
    *rp = p;
    for (int32_t j = 0; j < n; j++)
        for (int64_t k = ptr[j]; k < ptr[j + 1]; k++) {
            int32_t r = ind[k];
            if (r == j) diag_by_row[r] = (int32_t)k;
            else if (s_upper ? j > r : j < r) p[r + 2]++;
        }
    for (int32_t i = 0; i < n; i++) p[i + 2] += p[i + 1];
    int64_t m = p[n + 1];
    *rc = domino_malloc((size_t)m * sizeof(int32_t) + 1);
    *rs = domino_malloc((size_t)m * sizeof(int32_t) + 1);
    if (!*rc || !*rs) return -1;
    for (int32_t j = 0; j < n; j++) /* p[r + 1]: the next free slot of row r */
        for (int64_t k = ptr[j]; k < ptr[j + 1]; k++) {
            int32_t r = ind[k];
            if (r == j || !(s_upper ? j > r : j < r)) continue;
            int64_t at = p[r + 1]++;
            (*rc)[at] = j;
            (*rs)[at] = (int32_t)k;
        }
    return 0;
}

/* CSR(S): a row's level is one more than the highest of the columns it
 * reads (before it in solve order), kept in a register: one store a row,
 * no per-entry branch on the layout (the generic loop, a load and a store
 * of level[j] for each entry, took 6-10 ns an entry on the H200 machine's
 * host: pushpull's 101,097 entries 0.60 ms, h200-check7/trace.txt) */
static int32_t levels_of_rows(int32_t n, const int64_t *ptr, const int32_t *ind, int s_upper,
                              int32_t *level)
{
    int32_t most = 0;
    for (int32_t t = 0; t < n; t++) {
        int32_t j = s_upper ? n - 1 - t : t, lj = 0;
        if (s_upper) {
            for (int64_t k = ptr[j]; k < ptr[j + 1]; k++) {
                int32_t c = ind[k], v = c > j ? level[c] + 1 : 0;
                lj = v > lj ? v : lj;
            }
        } else {
            for (int64_t k = ptr[j]; k < ptr[j + 1]; k++) {
                int32_t c = ind[k], v = c < j ? level[c] + 1 : 0;
                lj = v > lj ? v : lj;
            }
        }
        level[j] = lj;
        if (lj + 1 > most) most = lj + 1;
    }
    return most;
}

/* CSC(S): a column's level is final when reached (the columns before it
 * have raised it), and it raises the rows of its entries */
static int32_t levels_of_columns(int32_t n, const int64_t *ptr, const int32_t *ind, int s_upper,
                                 int32_t *level)
{
    int32_t most = 0;
    memset(level, 0, (size_t)n * sizeof(int32_t));
    for (int32_t t = 0; t < n; t++) {
        int32_t j = s_upper ? n - 1 - t : t, next = level[j] + 1;
        for (int64_t k = ptr[j]; k < ptr[j + 1]; k++) {
            int32_t c = ind[k];
            if ((s_upper ? c < j : c > j) && next > level[c]) level[c] = next;
        }
        if (next > most) most = next;
    }
    return most;
}

int32_t trsv_levels(int32_t n, const int64_t *ptr, const int32_t *ind, int csr_of_s, int s_upper,
                    int32_t *level)
{
    return csr_of_s ? levels_of_rows(n, ptr, ind, s_upper, level)
                    : levels_of_columns(n, ptr, ind, s_upper, level);
}

int trsv_level_order_make(int32_t n, const int64_t *ptr, const int32_t *ind, int csr_of_s,
                          int s_upper, const int32_t *levels, int32_t nlevels,
                          trsv_level_order *o)
{
    int32_t *made = NULL, *diag_by_row = NULL, *count = NULL, *trs = NULL, *trc = NULL;
    int64_t *trp = NULL;
    int rc = -1;
    memset(o, 0, sizeof(*o));
    o->n = n;
    if (ptr[n] > INT32_MAX - 4096 || n > INT32_MAX - 4096) return -2; /* 32-bit loops stay clear */
    const int32_t *level = levels;
    if (!level) {
        if (!(made = domino_malloc((size_t)n * sizeof(int32_t) + 1))) goto cleanup;
        nlevels = trsv_levels(n, ptr, ind, csr_of_s, s_upper, made);
        level = made;
    }
    o->nlevels = nlevels;
    s_rows R = {ptr, ind, NULL, 1, s_upper};
    if (!csr_of_s) { /* S's rows made, each row's diagonal found on the way */
        diag_by_row = domino_malloc((size_t)n * sizeof(int32_t) + 1);
        if (!diag_by_row) goto cleanup;
        for (int32_t i = 0; i < n; i++) diag_by_row[i] = -1;
        if (transpose_rows(n, ptr, ind, s_upper, &trp, &trc, &trs, diag_by_row)) goto cleanup;
        R.rp = trp;
        R.rc = trc;
        R.rs = trs;
        R.filter = 0;
        o->m = trp[n];
    } else { /* the entries of S's strict triangle, counted without a branch */
        for (int32_t i = 0; i < n; i++) {
            int64_t row_m = 0;
            if (s_upper)
                for (int64_t k = ptr[i]; k < ptr[i + 1]; k++) row_m += ind[k] > i;
            else
                for (int64_t k = ptr[i]; k < ptr[i + 1]; k++) row_m += ind[k] < i;
            o->m += row_m;
        }
    }
    size_t off[TRSV_LO_ARRAYS];
    o->bytes = trsv_level_order_layout(n, o->nlevels, o->m, off);
    o->block = domino_malloc(o->bytes);
    count = domino_calloc((size_t)o->nlevels + 1, sizeof(int32_t));
    if (!o->block || !count) goto cleanup;
    char *base = (char *)o->block;
    o->level_ptr = (int32_t *)(base + off[TRSV_LO_LEVEL_PTR]);
    o->level_entries = (int32_t *)(base + off[TRSV_LO_LEVEL_ENTRIES]);
    o->row = (int32_t *)(base + off[TRSV_LO_ROW]);
    o->ptr = (int32_t *)(base + off[TRSV_LO_PTR]);
    o->col = (int32_t *)(base + off[TRSV_LO_COL]);
    o->src = (int32_t *)(base + off[TRSV_LO_SRC]);
    o->diag_src = (int32_t *)(base + off[TRSV_LO_DIAG_SRC]);
    /* counting sort of the rows by level, increasing row inside a level */
    for (int32_t i = 0; i < n; i++) count[level[i]]++;
    int32_t start = 0;
    for (int32_t l = 0; l < o->nlevels; l++) {
        if (count[l] > o->widest) o->widest = count[l];
        o->level_ptr[l] = start;
        start += count[l];
        count[l] = o->level_ptr[l]; /* now the next free position of level l */
    }
    o->level_ptr[o->nlevels] = n;
    for (int32_t i = 0; i < n; i++) o->row[count[level[i]]++] = i;
    /* the entries and the diagonal in position order (CSR(S): the row's
     * last diagonal entry stored, found on the way) */
    int32_t at = 0;
    for (int32_t q = 0; q < n; q++) {
        int32_t i = o->row[q], d = diag_by_row ? diag_by_row[i] : -1;
        o->ptr[q] = at;
        for (int64_t k = R.rp[i]; k < R.rp[i + 1]; k++) {
            if (!is_entry(&R, i, k)) {
                if (R.rc[k] == i) d = (int32_t)k;
                continue;
            }
            o->col[at] = R.rc[k];
            o->src[at] = R.rs ? R.rs[k] : (int32_t)k;
            at++;
        }
        o->diag_src[q] = d;
    }
    o->ptr[n] = at;
    for (int32_t l = 0; l <= o->nlevels; l++) o->level_entries[l] = o->ptr[o->level_ptr[l]];
    rc = 0;
cleanup:
    domino_free(made);
    domino_free(diag_by_row);
    domino_free(count);
    domino_free(trp);
    domino_free(trc);
    domino_free(trs);
    if (rc) trsv_level_order_free(o);
    return rc;
}
