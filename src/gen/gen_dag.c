/* gen_dag.c: random lower-triangular matrix with a prescribed number of levels, built directly in CSR */
#include "internal.h"

/* rows drawn from one random stream; streams are seeded by block index so
 * the matrix does not depend on the number of threads */
#define DAG_BLOCK 4096

/* the shape of the DAG: level sizes and where each row may read */
typedef struct dag_shape {
    int32_t n;           /* rows */
    int32_t levels;      /* levels */
    int32_t extra;       /* most columns beyond the level link: nnz_per_row - 2 */
    int32_t band;        /* > 0: columns within band rows before the row */
} dag_shape;

/* first row of level l: levels as equal as possible */
static int32_t level_start(const dag_shape *g, int64_t l)
{
    return (int32_t)(l * g->n / g->levels);
}

/* level of row i (inverse of level_start) */
static int32_t row_level(const dag_shape *g, int32_t i)
{
    int64_t l = ((int64_t)i * g->levels + g->levels - 1) / g->n; /* first guess, then adjust */
    while (l > 0 && level_start(g, l) > i) l--;
    while (l + 1 < g->levels && level_start(g, l + 1) <= i) l++;
    return (int32_t)l;
}

/* where row i (level l > 0) reads: the level link is drawn from
 * [link_lo, link_hi), extra columns from [extra_lo, link_hi) */
typedef struct row_window {
    int32_t link_lo, link_hi; /* candidates of the link into level l-1 */
    int32_t extra_lo;         /* first candidate of the other columns */
    int32_t extras;           /* number of other columns */
} row_window;

static row_window window_of(const dag_shape *g, int32_t i, int32_t l)
{
    row_window w;
    int32_t prev = level_start(g, l - 1), start = level_start(g, l);
    int32_t lo = g->band > 0 && (int64_t)i - g->band > 0 ? i - g->band : 0;
    w.link_hi = start;
    w.link_lo = lo > prev ? lo : prev;
    if (w.link_lo >= start) w.link_lo = start - 1; /* band misses level l-1: its last row */
    w.extra_lo = lo < start ? lo : start;
    int64_t available = (int64_t)start - w.extra_lo - 1; /* all but the link */
    if (available < 0) available = 0;
    w.extras = g->extra < available ? g->extra : (int32_t)available;
    return w;
}

/* entries of row i */
static int64_t row_count(const dag_shape *g, int32_t i)
{
    int32_t l = row_level(g, i);
    return l == 0 ? 1 : 2 + window_of(g, i, l).extras;
}

/* sort a short row of columns with their values (insertion sort) */
static void sort_short_row(int32_t *col, double *val, int len)
{
    for (int a = 1; a < len; a++) {
        int32_t c = col[a];
        double v = val[a];
        int b = a - 1;
        for (; b >= 0 && col[b] > c; b--) {
            col[b + 1] = col[b];
            val[b + 1] = val[b];
        }
        col[b + 1] = c;
        val[b + 1] = v;
    }
}

/* columns and values of row i into col/val (room for row_count entries);
 * extra columns: Floyd's sampling of distinct values (Bentley and Floyd,
 * CACM 1987), skipping the link column */
static int draw_row(const dag_shape *g, int32_t i, domino_rng *rng, int32_t *col, double *val)
{
    int32_t l = row_level(g, i);
    int len = 0;
    if (l > 0) {
        row_window w = window_of(g, i, l);
        int32_t link = w.link_lo + (int32_t)domino_rng_below(rng, (uint64_t)(w.link_hi - w.link_lo));
        col[len++] = link;
        int64_t range = (int64_t)w.link_hi - w.extra_lo - 1; /* candidates without the link */
        for (int64_t j = range - w.extras; j < range; j++) {
            int64_t t = (int64_t)domino_rng_below(rng, (uint64_t)j + 1);
            int32_t pick = (int32_t)(w.extra_lo + t), last = (int32_t)(w.extra_lo + j);
            if (pick >= link) pick++;
            if (last >= link) last++;
            int seen = 0;
            for (int k = 1; k < len; k++) seen |= col[k] == pick;
            col[len++] = seen ? last : pick;
        }
    }
    double off_sum = 0.0;
    for (int k = 0; k < len; k++) {
        val[k] = -(0.1 + 0.9 * domino_rng_uniform(rng));
        off_sum -= val[k];
    }
    col[len] = i;
    val[len++] = 1.0 + off_sum;
    sort_short_row(col, val, len);
    return len;
}

/* fill the rows of M (ptr already set), block by block */
static void fill_rows(const dag_shape *g, uint64_t seed, int32_t max_len,
                      struct domino_matrix_s *M, int *failed)
{
    int64_t blocks = ((int64_t)g->n + DAG_BLOCK - 1) / DAG_BLOCK;
#pragma omp parallel
    {
        int32_t *col = domino_malloc((size_t)max_len * sizeof(int32_t));
        double *val = domino_malloc((size_t)max_len * sizeof(double));
        if (!col || !val) {
#pragma omp atomic write
            *failed = 1;
        }
#pragma omp for schedule(dynamic, 8)
        for (int64_t b = 0; b < blocks; b++) {
            if (!col || !val) continue;
            domino_rng rng;
            domino_rng_seed(&rng, seed ^ (0xd1b54a32d192ed03ULL * (uint64_t)(b + 1)));
            int64_t first = b * DAG_BLOCK, last = first + DAG_BLOCK;
            if (last > g->n) last = g->n;
            for (int64_t i = first; i < last; i++) {
                int len = draw_row(g, (int32_t)i, &rng, col, val);
                int64_t out = M->ptr[i];
                for (int k = 0; k < len; k++) {
                    M->ind[out + k] = col[k];
                    domino_matrix_set_value(M, out + k, val[k]);
                }
            }
        }
        domino_free(col);
        domino_free(val);
    }
}

/* Random lower-triangular n x n matrix with exactly `levels` levels.  Level
 * l is the block of rows [l*n/levels, (l+1)*n/levels).  A row of level 0
 * holds its diagonal only; a row i of level l > 0 reads one row of level
 * l-1 (which makes its depth l) and up to nnz_per_row - 2 other distinct
 * rows of earlier levels, all at random.  With band > 0 every column lies
 * in [i - band, i); when level l-1 has no row in that window the link is
 * the last row of level l-1 anyway (then the row has no other columns).
 * Rows have fewer entries when there are not enough candidate columns;
 * rows below level 0 have at least two (nnz_per_row 1 still links them).
 * Off-diagonals uniform in [-1, -0.1], diagonal 1 + sum |off-diagonals|.
 * CSR, sorted; reproducible for a seed, whatever the thread count. */
domino_status domino_gen_dag(domino_handle h, int32_t n, int32_t nnz_per_row, int32_t levels,
                             int32_t band, uint64_t seed, domino_type type, domino_matrix *A)
{
    if (!A) return domino_error(h, DOMINO_NULL_POINTER, "domino_gen_dag: A is NULL");
    *A = NULL;
    if (!domino_handle_ok(h))
        return domino_error(NULL, DOMINO_INVALID_OBJECT, "domino_gen_dag: h is not a live handle");
    if (n < 1 || nnz_per_row < 1 || band < 0)
        return domino_error(h, DOMINO_INVALID_VALUE,
                            "domino_gen_dag: n = %d, nnz_per_row = %d, band = %d: need n >= 1, "
                            "nnz_per_row >= 1, band >= 0",
                            n, nnz_per_row, band);
    if (levels < 1 || levels > n)
        return domino_error(h, DOMINO_INVALID_VALUE, "domino_gen_dag: levels %d outside [1, %d]",
                            levels, n);
    if (type != DOMINO_FLOAT64 && type != DOMINO_FLOAT32)
        return domino_error(h, DOMINO_INVALID_VALUE, "domino_gen_dag: bad type %d", (int)type);
    dag_shape g = {n, levels, nnz_per_row > 2 ? nnz_per_row - 2 : 0, band};
    int64_t nnz = 0;
#pragma omp parallel for reduction(+ : nnz) schedule(static)
    for (int32_t i = 0; i < n; i++) nnz += row_count(&g, i);
    domino_matrix M = NULL;
    domino_status s = domino_matrix_new(h, DOMINO_CSR, type, n, n, nnz, &M);
    if (s) return s;
#pragma omp parallel for schedule(static)
    for (int32_t i = 0; i < n; i++) M->ptr[i + 1] = row_count(&g, i);
    for (int32_t i = 0; i < n; i++) M->ptr[i + 1] += M->ptr[i];
    int failed = 0;
    fill_rows(&g, seed, g.extra + 2, M, &failed);
    if (failed) {
        domino_matrix_free(M);
        return domino_error(h, DOMINO_OUT_OF_MEMORY, "domino_gen_dag: out of memory");
    }
    *A = M;
    return DOMINO_SUCCESS;
}
