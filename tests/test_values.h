/* test_values.h: what the tests share for making and reading values:
 * reproducible uniform generators, typed access to double/float arrays,
 * and the comparison of dense and sparse results */
#ifndef DOMINO_TEST_VALUES_H
#define DOMINO_TEST_VALUES_H

#include "check.h"
#include "domino.h"

#include <stdint.h>
#include <stdlib.h>

static uint64_t test_rng_state = 0x9e3779b97f4a7c15ULL;

/* splitmix64 in [0, 1); the sequence restarts with test_rng_state */
static inline double rng_uniform(void)
{
    uint64_t z = (test_rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return (double)((z ^ (z >> 31)) >> 11) / 9007199254740992.0;
}

static uint64_t lcg_state = 12345;

/* a 64-bit LCG, uniform in [0, 1); the sequence restarts with lcg_state */
static inline double lcg_uniform(void)
{
    lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(lcg_state >> 11) / 9007199254740992.0;
}
/* uniform in 0 .. bound-1 */
static inline int32_t lcg_below(int32_t bound) { return (int32_t)(lcg_uniform() * bound); }

/* v[i] of a double or float array */
static inline double get_value(const void *v, domino_type t, int64_t i)
{
    return t == DOMINO_FLOAT64 ? ((const double *)v)[i] : (double)((const float *)v)[i];
}

/* 1 if the count values of C equal R's (both of type t) within 1e3 eps of
 * t times max(1, max |R|); *diff gets the largest difference (INFINITY for
 * a value that is not finite) */
static inline int values_close(const void *C, const void *R, domino_type t, int64_t count, double *diff)
{
    double d = 0, scale = 0;
    for (int64_t i = 0; i < count; i++) {
        double c = get_value(C, t, i), r = get_value(R, t, i);
        d = fmax(d, isfinite(c) ? fabs(c - r) : INFINITY);
        scale = fmax(scale, fabs(r));
    }
    *diff = d;
    return d <= 1e3 * domino_type_eps(t) * fmax(scale, 1.0);
}

/* one check on check.h's counters (include check.h first): C's count
 * values close to R's (values_close); on failure "FAIL: ", then what the
 * printf-style arguments say, then the largest difference, on stderr */
#define CHECK_VALUES_CLOSE(C, R, t, count, ...)                 \
    do {                                                        \
        double diff_ = 0;                                       \
        if (values_close((C), (R), (t), (count), &diff_)) {     \
            check_passed++;                                     \
        } else {                                                \
            check_failed++;                                     \
            fprintf(stderr, "FAIL: ");                          \
            fprintf(stderr, __VA_ARGS__);                       \
            fprintf(stderr, ": max diff %.3e\n", diff_);        \
        }                                                       \
    } while (0)

/* 1 if y (rows values) is M x for the dense row-major M (rows x n, type t)
 * within 16 eps n of max(1, max |M x|), all in double: the check of the
 * distributed products' C x and B x */
static inline int dense_times_close(const void *M, domino_type t, int64_t rows, int64_t n, const double *x,
                                    const double *y)
{
    double d = 0, scale = 0;
    for (int64_t r = 0; r < rows; r++) {
        double want = 0;
        for (int64_t c = 0; c < n; c++) want += get_value(M, t, r * n + c) * x[c];
        d = fmax(d, fabs(y[r] - want));
        scale = fmax(scale, fabs(want));
    }
    return d <= 16 * 2.220446049250313e-16 * (double)n * fmax(scale, 1.0);
}

/* 1 if G has R's shape, pattern and values, in any order inside a row, each
 * value within 1e3 eps of max(1, max |R|) (R: the CPU's product; a column
 * G gives twice counts as missing); *diff, *scale and *missing (entries
 * not matched) say how close it came */
static inline int sparse_close(domino_handle h, domino_matrix R, domino_matrix G, double *diff, double *scale,
                               int64_t *missing)
{
    domino_matrix_view r, g;
    *diff = 0, *scale = 0, *missing = 0;
    if (!R || !G || domino_matrix_get_view(h, R, &r) || domino_matrix_get_view(h, G, &g)) return 0;
    int64_t *where = malloc(((size_t)r.ncols + 1) * sizeof(int64_t)); /* column -> entry of R's row, -1 */
    if (!where) return 0;
    for (int64_t k = 0; k < r.nnz; k++) *scale = fmax(*scale, fabs(get_value(r.val, r.type, k)));
    for (int32_t c = 0; c < r.ncols; c++) where[c] = -1;
    int same_shape = g.nrows == r.nrows && g.ncols == r.ncols && g.nnz == r.nnz && g.type == r.type;
    for (int32_t i = 0; same_shape && i < r.nrows; i++) {
        if (g.ptr[i + 1] - g.ptr[i] != r.ptr[i + 1] - r.ptr[i]) (*missing)++;
        for (int64_t k = r.ptr[i]; k < r.ptr[i + 1]; k++) where[r.ind[k]] = k;
        for (int64_t k = g.ptr[i]; k < g.ptr[i + 1]; k++) {
            int64_t q = g.ind[k] >= 0 && g.ind[k] < r.ncols ? where[g.ind[k]] : -1;
            if (q < 0) (*missing)++; /* not in R's row, or a column given twice */
            else *diff = fmax(*diff, fabs(get_value(g.val, g.type, k) - get_value(r.val, r.type, q)));
            if (q >= 0) where[g.ind[k]] = -1;
        }
        for (int64_t k = r.ptr[i]; k < r.ptr[i + 1]; k++) where[r.ind[k]] = -1;
    }
    free(where);
    return same_shape && *missing == 0 && *diff <= 1e3 * domino_type_eps(r.type) * fmax(*scale, 1.0);
}

/* y = M x (host CSR, double accumulation); |M| |x| into ya when not NULL */
static inline void csr_apply(domino_matrix M, const double *x, double *y, double *ya)
{
    domino_matrix_view v;
    domino_matrix_get_view(NULL, M, &v);
    for (int32_t i = 0; i < v.nrows; i++) {
        double s = 0, a = 0;
        for (int64_t k = v.ptr[i]; k < v.ptr[i + 1]; k++) {
            s += get_value(v.val, v.type, k) * x[v.ind[k]];
            a += fabs(get_value(v.val, v.type, k) * x[v.ind[k]]);
        }
        y[i] = s;
        if (ya) ya[i] = a;
    }
}

/* v[i] = x in a double or float array */
static inline void set_value(void *v, domino_type t, int64_t i, double x)
{
    if (t == DOMINO_FLOAT64) ((double *)v)[i] = x;
    else ((float *)v)[i] = (float)x;
}

/* v[0..count) of type t := uniform in [-1, 1) from the LCG started at
 * seed (the same values on every rank that passes the same seed) */
static inline void lcg_fill(void *v, domino_type t, int64_t count, uint64_t seed)
{
    lcg_state = seed;
    for (int64_t i = 0; i < count; i++) set_value(v, t, i, 2 * lcg_uniform() - 1);
}

/* a matrix of format f and type t holding the nonzeros of the dense
 * row-major m x n array (a failure counts as a failed check; NULL then) */
static inline domino_matrix from_dense(domino_handle h, domino_format f, domino_type t, int32_t m,
                                       int32_t n, const double *dense)
{
    size_t cap = (size_t)m * (size_t)n + 1;
    int32_t *rows = malloc(cap * sizeof(int32_t)), *cols = malloc(cap * sizeof(int32_t));
    double *vals = malloc(cap * sizeof(double));
    int64_t nnz = 0;
    domino_matrix A = NULL;
    for (int32_t i = 0; rows && cols && vals && i < m; i++)
        for (int32_t j = 0; j < n; j++)
            if (dense[(size_t)i * n + j] != 0.0) {
                rows[nnz] = i, cols[nnz] = j, vals[nnz] = dense[(size_t)i * n + j];
                nnz++;
            }
    if (rows && cols && vals)
        CHECK_OK(h, domino_matrix_from_coo(h, f, t, m, n, nnz, rows, cols, vals, &A));
    else
        check_failed++; /* out of memory in the test itself */
    free(rows);
    free(cols);
    free(vals);
    return A;
}

#endif
