/* mm_write.c: write a CSR or CSC matrix as a Matrix Market coordinate file */
#include "internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>

#define MM_OUT_BUFFER ((size_t)1 << 16) /* bytes gathered before each write */
#define MM_OUT_LINE 256                 /* longest line written */

/* buffered output to a plain or a gzip file */
typedef struct mm_output {
    FILE *file;  /* plain output, or NULL */
    gzFile gz;   /* compressed output, or NULL */
    char *buf;   /* pending bytes, size MM_OUT_BUFFER */
    size_t used; /* bytes pending in buf */
    int failed;  /* 1 once a write failed */
} mm_output;

/* write the pending bytes */
static void out_flush(mm_output *o)
{
    if (o->used == 0 || o->failed) return;
    if (o->file)
        o->failed = fwrite(o->buf, 1, o->used, o->file) != o->used;
    else
        o->failed = gzwrite(o->gz, o->buf, (unsigned)o->used) != (int)o->used;
    o->used = 0;
}

/* append one formatted line (at most MM_OUT_LINE bytes) */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void
out_printf(mm_output *o, const char *fmt, ...)
{
    if (MM_OUT_BUFFER - o->used < MM_OUT_LINE) out_flush(o);
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(o->buf + o->used, MM_OUT_LINE, fmt, ap);
    va_end(ap);
    if (n < 0 || n >= (int)MM_OUT_LINE)
        o->failed = 1;
    else
        o->used += (size_t)n;
}

/* 1 if path ends with ".gz" */
static int ends_with_gz(const char *path)
{
    size_t n = strlen(path);
    return n >= 3 && strcmp(path + n - 3, ".gz") == 0;
}

/* banner, comment, size line and entries of A */
static void write_matrix(mm_output *o, const struct domino_matrix_s *A)
{
    static const char *symmetry_word[3] = {"general", "symmetric", "skew-symmetric"};
    int sym = A->symmetry >= DOMINO_GENERAL && A->symmetry <= DOMINO_SKEW_SYMMETRIC
                  ? (int)A->symmetry
                  : 0;
    out_printf(o, "%%%%MatrixMarket matrix coordinate %s %s\n", A->is_pattern ? "pattern" : "real",
               symmetry_word[sym]);
    out_printf(o, "%% written by domino\n");
    int32_t np = domino_matrix_nptr(A);
    out_printf(o, "%d %d %lld\n", A->nrows, A->ncols, (long long)A->ptr[np]);
    int csr = A->format == DOMINO_CSR;
    for (int32_t major = 0; major < np && !o->failed; major++) {
        for (int64_t k = A->ptr[major]; k < A->ptr[major + 1]; k++) {
            long long row = 1 + (long long)(csr ? major : A->ind[k]);
            long long col = 1 + (long long)(csr ? A->ind[k] : major);
            if (A->is_pattern)
                out_printf(o, "%lld %lld\n", row, col);
            else
                out_printf(o, "%lld %lld %.17g\n", row, col, domino_matrix_value(A, k));
        }
    }
    out_flush(o);
}

/* Write A (CSR or CSC) to path as "%%MatrixMarket matrix coordinate
 * real|pattern general|symmetric|skew-symmetric" (the symmetry A carries),
 * 1-based entries in storage order, values with 17 significant digits so a
 * read gives back the same doubles; paths ending ".gz" are gzip-compressed.
 * A file left half-written by a failure is removed. */
domino_status domino_mm_write(domino_handle h, const char *path, domino_matrix A)
{
    domino_status s = domino_check_matrix(h, A, "domino_mm_write");
    if (s) return s;
    if (!path) return domino_error(h, DOMINO_NULL_POINTER, "domino_mm_write: path is NULL");
    mm_output o = {0};
    o.buf = domino_malloc(MM_OUT_BUFFER);
    if (!o.buf)
        return domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory for the output buffer",
                            path);
    if (ends_with_gz(path))
        o.gz = gzopen(path, "wb");
    else
        o.file = fopen(path, "w");
    if (!o.gz && !o.file) {
        s = domino_error(h, DOMINO_IO_ERROR, "%s: cannot open for writing: %s", path,
                         strerror(errno));
        goto cleanup;
    }
    write_matrix(&o, A);
    int close_failed = o.file ? fclose(o.file) != 0 : gzclose(o.gz) != Z_OK;
    if (o.failed || close_failed) {
        remove(path);
        s = domino_error(h, DOMINO_IO_ERROR, "%s: write failed: %s", path, strerror(errno));
    }
cleanup:
    domino_free(o.buf);
    return s;
}
