/* gen_dense.c: a block of a pseudo-random dense matrix on the CPU */
#include "dense_random.h"
#include "internal.h"

/* the checks domino_gen_dense and domino_gpu_gen_dense share: 0, or the
 * status already reported on h */
domino_status domino_gen_dense_check(domino_handle h, const char *fn, int64_t ncols, int64_t row0, int64_t rows,
                                     int64_t col0, int64_t cols, domino_type type, const void *B, int64_t ldb)
{
    if (type != DOMINO_FLOAT64 && type != DOMINO_FLOAT32)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: type %d is neither FLOAT64 nor FLOAT32", fn, (int)type);
    if (ncols < 1 || row0 < 0 || rows < 0 || col0 < 0 || cols < 0 || col0 + cols > ncols || ldb < cols)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: block rows %lld + %lld, columns %lld + %lld of a matrix of "
                            "%lld columns, ldb %lld (need ncols >= 1, a block inside, ldb >= its columns)", fn,
                            (long long)row0, (long long)rows, (long long)col0, (long long)cols, (long long)ncols,
                            (long long)ldb);
    if (row0 + rows > INT64_MAX / ncols)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: row %lld of %lld columns passes 2^63 entries", fn,
                            (long long)(row0 + rows), (long long)ncols);
    if (!B && rows > 0 && cols > 0) return domino_error(h, DOMINO_NULL_POINTER, "%s: B is NULL", fn);
    return DOMINO_SUCCESS;
}

domino_status domino_gen_dense(domino_handle h, uint64_t seed, int64_t ncols, int64_t row0, int64_t rows, int64_t col0,
                               int64_t cols, domino_type type, void *B, int64_t ldb)
{
    domino_status s = domino_gen_dense_check(h, "domino_gen_dense", ncols, row0, rows, col0, cols, type, B, ldb);
    if (s) return s;
    uint64_t key = domino_dense_random_key(seed);
#pragma omp parallel for schedule(static)
    for (int64_t r = 0; r < rows; r++) {
        uint64_t at = (uint64_t)(row0 + r) * (uint64_t)ncols + (uint64_t)col0;
        if (type == DOMINO_FLOAT64)
            for (int64_t c = 0; c < cols; c++) ((double *)B)[r * ldb + c] = domino_dense_random_entry(key, at + c);
        else
            for (int64_t c = 0; c < cols; c++) ((float *)B)[r * ldb + c] = (float)domino_dense_random_entry(key, at + c);
    }
    return DOMINO_SUCCESS;
}
