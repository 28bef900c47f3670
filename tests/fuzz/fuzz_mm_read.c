/* fuzz_mm_read.c: libFuzzer entry point for the Matrix Market reader */
#include "domino.h"

#include <stdint.h>
#include <stdlib.h>

/* 1 if the view is a well-formed CSR matrix */
static int csr_is_valid(const domino_matrix_view *v)
{
    if (v->format != DOMINO_CSR || v->nrows < 0 || v->ncols < 0 || v->nnz < 0) return 0;
    if (v->ptr[0] != 0 || v->ptr[v->nrows] != v->nnz) return 0;
    for (int32_t r = 0; r < v->nrows; r++) {
        if (v->ptr[r + 1] < v->ptr[r]) return 0;
        for (int64_t k = v->ptr[r]; k < v->ptr[r + 1]; k++) {
            if (v->ind[k] < 0 || v->ind[k] >= v->ncols) return 0;
            if (k > v->ptr[r] && v->ind[k] <= v->ind[k - 1]) return 0; /* sorted, no duplicates */
            if (v->symmetry != DOMINO_GENERAL && v->ind[k] > r) return 0; /* lower triangle kept */
        }
    }
    for (int64_t k = 0; k < v->nnz; k++) {
        double x =
            v->type == DOMINO_FLOAT64 ? ((const double *)v->val)[k] : ((const float *)v->val)[k];
        if (x != x || x - x != 0) return 0; /* NaN or Inf */
        if (v->is_pattern && x != 1.0) return 0;
    }
    return 1;
}

#define FUZZ_MAX_ROWS (1 << 16) /* valid files with more rows only cost memory and time */

static int is_space(uint8_t ch)
{
    return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\v' || ch == '\f';
}

/* 1 if the size line declares more rows than FUZZ_MAX_ROWS yet fewer than
 * 2^31-1: a valid request for a big CSR row array that is not worth fuzzing
 * (larger counts are rejected by the reader and still go through it) */
static int too_many_rows(const uint8_t *data, size_t size)
{
    size_t at = 0;
    int line = 0;
    while (at < size) {
        size_t start = at;
        while (at < size && data[at] != '\n') at++;
        size_t end = at++;
        if (line++ == 0) continue; /* banner */
        while (start < end && is_space(data[start])) start++;
        if (start == end || data[start] == '%') continue;
        uint64_t rows = 0;
        if (start < end && data[start] == '+') start++;
        for (; start < end && data[start] >= '0' && data[start] <= '9'; start++) {
            rows = 10 * rows + (uint64_t)(data[start] - '0');
            if (rows >= INT32_MAX) return 0;
        }
        return rows > FUZZ_MAX_ROWS;
    }
    return 0;
}

/* Read data as a Matrix Market file in both modes and types; on success the
 * result must be valid CSR; a failure must leave the output NULL. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (too_many_rows(data, size)) return 0;
    for (int mode = 0; mode < 4; mode++) {
        domino_matrix A = NULL;
        domino_type type = (mode & 1) ? DOMINO_FLOAT32 : DOMINO_FLOAT64;
        int flags = (mode & 2) ? DOMINO_MM_KEEP_STORED : 0;
        domino_status s =
            domino_mm_read_buffer(NULL, (const char *)data, size, "fuzz", type, flags, &A);
        if (s != DOMINO_SUCCESS) {
            if (A != NULL ||
                (s != DOMINO_BAD_INPUT && s != DOMINO_NOT_SUPPORTED && s != DOMINO_OUT_OF_MEMORY))
                abort();
            continue;
        }
        domino_matrix_view v;
        if (domino_matrix_get_view(NULL, A, &v) != DOMINO_SUCCESS || !csr_is_valid(&v)) abort();
        domino_matrix_free(A);
    }
    return 0;
}
