/* mm_read.c: read a Matrix Market file (.mtx, or gzip-compressed) into CSR */
#define _POSIX_C_SOURCE 200809L
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#define MM_GZ_CHUNK ((size_t)1 << 20) /* bytes asked of gzread at a time */

/* whole plain file (or pipe) into a new buffer of *size bytes, starting
 * with the nhead bytes already read from f; size_hint is the file size when
 * known, else 0 */
static domino_status read_plain(domino_handle h, const char *path, FILE *f, size_t size_hint,
                                const unsigned char *head, size_t nhead, char **buf, size_t *size)
{
    size_t capacity = size_hint + 2; /* + 2: room for head; the end is seen without growing */
    *buf = domino_malloc(capacity);
    if (!*buf)
        return domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory for %zu bytes", path,
                            capacity);
    memcpy(*buf, head, nhead);
    *size = nhead;
    for (;;) {
        if (*size == capacity) {
            char *bigger = domino_realloc(*buf, 2 * capacity);
            if (!bigger)
                return domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory for %zu bytes",
                                    path, 2 * capacity);
            *buf = bigger;
            capacity *= 2;
        }
        size_t got = fread(*buf + *size, 1, capacity - *size, f);
        *size += got;
        if (ferror(f))
            return domino_error(h, DOMINO_IO_ERROR, "%s: cannot read: %s", path, strerror(errno));
        if (got == 0 || feof(f)) return DOMINO_SUCCESS;
    }
}

/* whole decompressed gzip file into a new buffer of *size bytes */
static domino_status read_gzip(domino_handle h, const char *path, size_t file_bytes, char **buf,
                               size_t *size)
{
    gzFile gz = gzopen(path, "rb");
    if (!gz) return domino_error(h, DOMINO_IO_ERROR, "%s: cannot open: %s", path, strerror(errno));
    domino_status s = DOMINO_SUCCESS;
    domino_progress progress;
    domino_progress_begin(h, &progress, path);
    size_t capacity = 2 * file_bytes + MM_GZ_CHUNK;
    *size = 0;
    *buf = domino_malloc(capacity);
    int out_of_memory = *buf == NULL;
    while (!out_of_memory) {
        if (capacity - *size < MM_GZ_CHUNK) {
            char *bigger = domino_realloc(*buf, 2 * capacity);
            out_of_memory = bigger == NULL;
            if (out_of_memory) break;
            *buf = bigger;
            capacity *= 2;
        }
        int got = gzread(gz, *buf + *size, (unsigned)MM_GZ_CHUNK);
        if (got <= 0) {
            int code = Z_OK;
            const char *what = gzerror(gz, &code);
            if (got < 0 || (code != Z_OK && code != Z_STREAM_END))
                s = domino_error(h, DOMINO_IO_ERROR, "%s: cannot decompress: %s", path, what);
            break;
        }
        *size += (size_t)got;
        if (file_bytes)
            domino_progress_update(&progress, (double)gzoffset(gz) / (double)file_bytes);
    }
    domino_progress_end(&progress);
    gzclose(gz);
    if (out_of_memory)
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory while decompressing", path);
    return s;
}

/* Read the Matrix Market coordinate file at path (gzip detected by its magic
 * bytes 0x1f 0x8b, whatever the name) into CSR of the given type; the rules
 * are those of domino_mm_read_buffer, messages name the path and line.
 * DOMINO_IO_ERROR when the file cannot be opened or read. */
domino_status domino_mm_read(domino_handle h, const char *path, domino_type type, int flags,
                             domino_matrix *A)
{
    if (!A) return domino_error(h, DOMINO_NULL_POINTER, "domino_mm_read: A is NULL");
    *A = NULL;
    if (!path) return domino_error(h, DOMINO_NULL_POINTER, "domino_mm_read: path is NULL");
    char *buf = NULL;
    size_t size = 0;
    domino_status s = DOMINO_SUCCESS;
    FILE *f = fopen(path, "rb");
    if (!f) return domino_error(h, DOMINO_IO_ERROR, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    size_t file_bytes = stat(path, &st) == 0 && S_ISREG(st.st_mode) ? (size_t)st.st_size : 0;
    unsigned char magic[2] = {0, 0};
    size_t got = fread(magic, 1, 2, f);
    int gzip = got == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
    if (gzip) {
        fclose(f);
        f = NULL;
        s = read_gzip(h, path, file_bytes, &buf, &size);
    } else if (ferror(f)) {
        s = domino_error(h, DOMINO_IO_ERROR, "%s: cannot read: %s", path, strerror(errno));
    } else {
        s = read_plain(h, path, f, file_bytes, magic, got, &buf, &size);
    }
    if (!s) s = domino_mm_read_buffer(h, buf, size, path, type, flags, A);
    if (f) fclose(f);
    domino_free(buf);
    return s;
}
