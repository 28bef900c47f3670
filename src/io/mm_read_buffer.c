/* mm_read_buffer.c: parse a Matrix Market coordinate file held in memory into CSR */
#include "internal.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * What is accepted (the reference is the NIST Matrix Market exchange format):
 *  - banner "%%MatrixMarket matrix coordinate FIELD SYMMETRY", keywords in any
 *    case; FIELD real, integer or pattern; SYMMETRY general, symmetric or
 *    skew-symmetric.  complex, hermitian and array files give
 *    DOMINO_NOT_SUPPORTED; pattern skew-symmetric is bad input.
 *  - comment lines (first non-blank character '%') and blank lines anywhere
 *    after the banner; lines may end with "\n" or "\r\n"; the last line needs
 *    no end of line; the buffer need not be NUL-terminated.
 *  - 1-based indices; values read with strtod (integer files too) and must
 *    be finite (Inf and NaN are rejected) and, for float32 output, within the
 *    float range.
 *  - duplicate entries are summed (as most readers do); in pattern files the
 *    values stay 1.
 *  - symmetric / skew-symmetric files: entries of either triangle are
 *    accepted.  They are mirrored into the full general matrix (skew: with
 *    the sign flipped) unless DOMINO_MM_KEEP_STORED, in which case the result
 *    keeps one entry per stored entry, moved into the lower triangle (skew:
 *    negated when moved), with the file's symmetry set on the matrix.  A
 *    skew-symmetric file may not hold a nonzero diagonal entry.
 * Every malformed input gives DOMINO_BAD_INPUT with "NAME:LINE: what".
 */

#define MM_SHOW_LEN 40   /* longest piece of a bad token quoted in a message */
#define MM_VALUE_LEN 128 /* longest value token accepted */

/* cursor over the lines of the buffer, and over the words of one line */
typedef struct mm_cursor {
    const char *data; /* the buffer, size bytes, not NUL-terminated */
    size_t size;      /* bytes of data */
    size_t pos;       /* offset of the next line */
    int64_t line;     /* 1-based number of the current line (0 before the first) */
    const char *text; /* current line without its end of line */
    size_t len;       /* bytes of the current line */
    size_t at;        /* offset of the next word inside the line */
} mm_cursor;

/* what the banner and size line say */
typedef struct mm_header {
    int pattern;              /* 1: no values in the entries */
    domino_symmetry symmetry; /* general, symmetric or skew-symmetric */
    int64_t nrows;            /* rows */
    int64_t ncols;            /* columns */
    int64_t nnz;              /* entries as stored in the file */
} mm_header;

/* coordinate triplets read so far (0-based) */
typedef struct mm_entries {
    int32_t *rows; /* row indices, size capacity */
    int32_t *cols; /* column indices, size capacity */
    double *vals;  /* values, size capacity (NULL for pattern files) */
    int64_t count; /* triplets stored */
} mm_entries;

static int is_space(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\v' || ch == '\f';
}

/* move to the next line; 0 at the end of the buffer */
static int next_line(mm_cursor *c)
{
    if (c->pos >= c->size) return 0;
    const char *start = c->data + c->pos;
    const char *end = memchr(start, '\n', c->size - c->pos);
    c->text = start;
    c->len = end ? (size_t)(end - start) : c->size - c->pos;
    c->pos += c->len + (end ? 1 : 0);
    c->line++;
    c->at = 0;
    return 1;
}

/* next word of the current line; 0 when the line has no more */
static int next_word(mm_cursor *c, const char **word, size_t *len)
{
    while (c->at < c->len && is_space(c->text[c->at])) c->at++;
    if (c->at >= c->len) return 0;
    size_t start = c->at;
    while (c->at < c->len && !is_space(c->text[c->at])) c->at++;
    *word = c->text + start;
    *len = c->at - start;
    return 1;
}

/* 1 if the current line is blank or a comment */
static int line_is_skippable(const mm_cursor *c)
{
    size_t k = 0;
    while (k < c->len && is_space(c->text[k])) k++;
    return k == c->len || c->text[k] == '%';
}

/* move to the next line that is neither blank nor a comment; 0 at the end */
static int next_content_line(mm_cursor *c)
{
    while (next_line(c))
        if (!line_is_skippable(c)) return 1;
    return 0;
}

/* printable copy of at most MM_SHOW_LEN bytes of a word, for messages */
static const char *show(const char *word, size_t len, char *buf)
{
    size_t n = len < MM_SHOW_LEN ? len : MM_SHOW_LEN;
    for (size_t k = 0; k < n; k++) {
        unsigned char ch = (unsigned char)word[k];
        buf[k] = (ch >= 0x20 && ch < 0x7f) ? (char)ch : '?';
    }
    strcpy(buf + n, len > n ? "..." : "");
    return buf;
}

/* 1 if word equals keyword ignoring case */
static int word_is(const char *word, size_t len, const char *keyword)
{
    if (strlen(keyword) != len) return 0;
    for (size_t k = 0; k < len; k++) {
        char a = word[k], b = keyword[k];
        if (a >= 'A' && a <= 'Z') a = (char)(a - 'A' + 'a');
        if (a != b) return 0;
    }
    return 1;
}

/* decimal integer with optional sign; 0 ok, 1 not a number, 2 beyond 2^62 */
static int parse_integer(const char *word, size_t len, int64_t *out)
{
    size_t k = 0;
    int negative = 0;
    if (k < len && (word[k] == '+' || word[k] == '-')) negative = word[k++] == '-';
    if (k == len) return 1;
    int64_t v = 0;
    for (; k < len; k++) {
        if (word[k] < '0' || word[k] > '9') return 1;
        if (v > ((int64_t)1 << 62) / 10) return 2;
        v = 10 * v + (word[k] - '0');
    }
    *out = negative ? -v : v;
    return 0;
}

/* value word through strtod; 0 ok, 1 not a number */
static int parse_value(const char *word, size_t len, double *out)
{
    char buf[MM_VALUE_LEN + 1];
    if (len > MM_VALUE_LEN) return 1;
    memcpy(buf, word, len);
    buf[len] = '\0';
    char *end = NULL;
    *out = strtod(buf, &end);
    return end != buf + len;
}

#define BAD(...) domino_error(h, DOMINO_BAD_INPUT, __VA_ARGS__)

/* banner line: object, format, field and symmetry keywords */
static domino_status parse_banner(domino_handle h, const char *name, mm_cursor *c, mm_header *hd)
{
    const char *w[6] = {0};
    size_t n[6] = {0};
    char sb[MM_SHOW_LEN + 4];
    if (!next_line(c)) return BAD("%s:1: empty file", name);
    int words = 0;
    while (words < 6 && next_word(c, &w[words], &n[words])) words++;
    if (words == 0 || !word_is(w[0], n[0], "%%matrixmarket"))
        return BAD(
            "%s:1: missing Matrix Market banner (\"%%%%MatrixMarket matrix coordinate ...\")",
            name);
    if (words < 5) return BAD("%s:1: banner has %d words, expected 5", name, words);
    if (words > 5)
        return BAD("%s:1: unexpected word '%s' after the banner", name, show(w[5], n[5], sb));
    if (!word_is(w[1], n[1], "matrix"))
        return BAD("%s:1: unknown object '%s' in banner (expected matrix)", name,
                   show(w[1], n[1], sb));
    if (word_is(w[2], n[2], "array"))
        return domino_error(h, DOMINO_NOT_SUPPORTED,
                            "%s:1: dense 'array' files are not supported, only coordinate", name);
    if (!word_is(w[2], n[2], "coordinate"))
        return BAD("%s:1: unknown format '%s' in banner (expected coordinate)", name,
                   show(w[2], n[2], sb));
    if (word_is(w[3], n[3], "complex"))
        return domino_error(h, DOMINO_NOT_SUPPORTED, "%s:1: complex matrices are not supported",
                            name);
    hd->pattern = word_is(w[3], n[3], "pattern");
    if (!hd->pattern && !word_is(w[3], n[3], "real") && !word_is(w[3], n[3], "integer"))
        return BAD("%s:1: unknown field '%s' in banner (expected real, integer or pattern)", name,
                   show(w[3], n[3], sb));
    if (word_is(w[4], n[4], "hermitian"))
        return domino_error(h, DOMINO_NOT_SUPPORTED, "%s:1: hermitian matrices are not supported",
                            name);
    if (word_is(w[4], n[4], "general"))
        hd->symmetry = DOMINO_GENERAL;
    else if (word_is(w[4], n[4], "symmetric"))
        hd->symmetry = DOMINO_SYMMETRIC;
    else if (word_is(w[4], n[4], "skew-symmetric"))
        hd->symmetry = DOMINO_SKEW_SYMMETRIC;
    else
        return BAD(
            "%s:1: unknown symmetry '%s' in banner (expected general, symmetric or skew-symmetric)",
            name, show(w[4], n[4], sb));
    if (hd->pattern && hd->symmetry == DOMINO_SKEW_SYMMETRIC)
        return BAD("%s:1: a pattern file cannot be skew-symmetric", name);
    return DOMINO_SUCCESS;
}

/* size line "rows cols entries", checked against int32 and the bytes left */
static domino_status parse_size_line(domino_handle h, const char *name, mm_cursor *c, mm_header *hd)
{
    static const char *what[3] = {"rows", "columns", "entries"};
    int64_t v[3];
    const char *w;
    size_t n;
    char sb[MM_SHOW_LEN + 4];
    if (!next_content_line(c))
        return BAD("%s:%lld: missing size line", name, (long long)c->line + 1);
    long long line = (long long)c->line;
    for (int k = 0; k < 3; k++) {
        if (!next_word(c, &w, &n))
            return BAD("%s:%lld: size line has no number of %s (expected rows columns entries)",
                       name, line, what[k]);
        int bad = parse_integer(w, n, &v[k]);
        if (bad == 1)
            return BAD("%s:%lld: number of %s '%s' is not an integer", name, line, what[k],
                       show(w, n, sb));
        if (bad == 2 || (k < 2 && v[k] >= INT32_MAX))
            return BAD("%s:%lld: number of %s '%s' is too large (at most %d)", name, line, what[k],
                       show(w, n, sb), INT32_MAX - 1);
        if (v[k] < 0)
            return BAD("%s:%lld: number of %s %lld is negative", name, line, what[k],
                       (long long)v[k]);
    }
    if (next_word(c, &w, &n))
        return BAD("%s:%lld: trailing garbage '%s' on the size line", name, line, show(w, n, sb));
    hd->nrows = v[0];
    hd->ncols = v[1];
    hd->nnz = v[2];
    if (hd->symmetry != DOMINO_GENERAL && hd->nrows != hd->ncols)
        return BAD("%s:%lld: symmetric file with a non-square size %lld x %lld", name, line,
                   (long long)v[0], (long long)v[1]);
    if (hd->nnz > hd->nrows * hd->ncols)
        return BAD("%s:%lld: %lld entries declared, more than a %lld x %lld matrix holds", name,
                   line, (long long)v[2], (long long)v[0], (long long)v[1]);
    size_t least_bytes = hd->pattern ? 4 : 6; /* "1 1\n" or "1 1 1\n" */
    size_t left = c->size - c->pos;
    if (hd->nnz > 0 && (uint64_t)hd->nnz > (left + 1) / least_bytes)
        return BAD("%s:%lld: %lld entries declared but the %zu bytes that follow cannot hold them "
                   "(truncated file?)",
                   name, line, (long long)v[2], left);
    return DOMINO_SUCCESS;
}

/* one row or column index word, checked against 1..limit; 0-based into *out */
static domino_status parse_index(domino_handle h, const char *name, mm_cursor *c, const char *what,
                                 int64_t limit, int32_t *out)
{
    const char *w;
    size_t n;
    char sb[MM_SHOW_LEN + 4];
    int64_t v = 0;
    if (!next_word(c, &w, &n))
        return BAD("%s:%lld: entry has no %s index", name, (long long)c->line, what);
    int bad = parse_integer(w, n, &v);
    if (bad == 1)
        return BAD("%s:%lld: %s index '%s' is not an integer", name, (long long)c->line, what,
                   show(w, n, sb));
    if (bad == 2 || v < 1 || v > limit)
        return BAD("%s:%lld: %s index '%s' out of range 1..%lld", name, (long long)c->line, what,
                   show(w, n, sb), (long long)limit);
    *out = (int32_t)(v - 1);
    return DOMINO_SUCCESS;
}

/* the value word of an entry: finite, and within float range for float32 */
static domino_status parse_entry_value(domino_handle h, const char *name, mm_cursor *c,
                                       domino_type type, double *out)
{
    const char *w;
    size_t n;
    char sb[MM_SHOW_LEN + 4];
    if (!next_word(c, &w, &n)) return BAD("%s:%lld: entry has no value", name, (long long)c->line);
    if (parse_value(w, n, out))
        return BAD("%s:%lld: value '%s' is not a number", name, (long long)c->line, show(w, n, sb));
    if (!isfinite(*out))
        return BAD("%s:%lld: value '%s' is not finite", name, (long long)c->line, show(w, n, sb));
    if (type == DOMINO_FLOAT32 && fabs(*out) > FLT_MAX)
        return BAD("%s:%lld: value '%s' overflows float32", name, (long long)c->line,
                   show(w, n, sb));
    return DOMINO_SUCCESS;
}

/* append one triplet */
static void push(mm_entries *e, int32_t row, int32_t col, double val)
{
    e->rows[e->count] = row;
    e->cols[e->count] = col;
    if (e->vals) e->vals[e->count] = val;
    e->count++;
}

/* parse the current line as one entry and store it (mirrored when asked) */
static domino_status parse_entry(domino_handle h, const char *name, mm_cursor *c,
                                 const mm_header *hd, domino_type type, int keep_stored,
                                 mm_entries *e)
{
    int32_t row, col;
    double val = 1.0;
    const char *w;
    size_t n;
    char sb[MM_SHOW_LEN + 4];
    domino_status s = parse_index(h, name, c, "row", hd->nrows, &row);
    if (!s) s = parse_index(h, name, c, "column", hd->ncols, &col);
    if (!s && !hd->pattern) s = parse_entry_value(h, name, c, type, &val);
    if (s) return s;
    if (next_word(c, &w, &n))
        return BAD("%s:%lld: trailing garbage '%s' after the entry", name, (long long)c->line,
                   show(w, n, sb));
    int skew = hd->symmetry == DOMINO_SKEW_SYMMETRIC;
    if (skew && row == col && val != 0.0)
        return BAD("%s:%lld: skew-symmetric file has a nonzero diagonal entry (%d, %d)", name,
                   (long long)c->line, row + 1, col + 1);
    if (hd->symmetry == DOMINO_GENERAL) {
        push(e, row, col, val);
    } else if (keep_stored) {
        if (row < col)
            push(e, col, row, skew ? -val : val); /* into the lower triangle */
        else
            push(e, row, col, val);
    } else {
        push(e, row, col, val);
        if (row != col) push(e, col, row, skew ? -val : val);
    }
    return DOMINO_SUCCESS;
}

/* read the declared entries, then check nothing but comments follows */
static domino_status parse_entries(domino_handle h, const char *name, mm_cursor *c,
                                   const mm_header *hd, domino_type type, int keep_stored,
                                   mm_entries *e)
{
    domino_progress progress;
    domino_progress_begin(h, &progress, name);
    domino_status s = DOMINO_SUCCESS;
    for (int64_t k = 0; k < hd->nnz && !s; k++) {
        if (!next_content_line(c)) {
            s = BAD("%s:%lld: file ends after %lld of the %lld declared entries", name,
                    (long long)(c->line > 0 ? c->line : 1), (long long)k, (long long)hd->nnz);
            break;
        }
        s = parse_entry(h, name, c, hd, type, keep_stored, e);
        if ((k & 0xffff) == 0xffff)
            domino_progress_update(&progress, (double)c->pos / (double)c->size);
    }
    domino_progress_end(&progress);
    if (!s && next_content_line(c))
        s = BAD("%s:%lld: extra entry beyond the %lld declared on the size line", name,
                (long long)c->line, (long long)hd->nnz);
    return s;
}

#define MM_PARALLEL_BYTES (4u << 20) /* entries of at least this many bytes are parsed by chunks */

/* The fast path of parse_entries, on the host threads: the entry lines
 * split into chunks at line ends, the content lines of each counted, then
 * each chunk parsed into its place (a chunk of k lines at 2k slots where
 * mirrored entries may add one, moved together afterwards), so the
 * triplets come in file order as with one thread.  Messages go to each
 * thread's own slot and are dropped: 1 when a count or a line is wrong,
 * and the caller parses again in order for the message (only bad files
 * pay twice); 0 when every declared entry was read and nothing but
 * comments follows.  The first chunk's thread shows the progress on h. */
static int parse_entries_by_chunks(domino_handle h, const char *name, const mm_cursor *c,
                                   const mm_header *hd, domino_type type, int keep_stored, int threads,
                                   mm_entries *e)
{
    size_t first = c->pos, bytes = c->size - c->pos;
    int chunks = threads;
    size_t *at = domino_malloc(((size_t)chunks + 1) * sizeof(size_t));
    int64_t *lines = domino_malloc(((size_t)chunks + 1) * sizeof(int64_t));
    int64_t *made = domino_calloc((size_t)chunks, sizeof(int64_t));
    int failed = !at || !lines || !made;
    for (int t = 0; !failed && t <= chunks; t++) { /* chunk t is [at[t], at[t + 1]) */
        size_t p = first + bytes / (size_t)chunks * (size_t)t;
        if (t == chunks) p = c->size;
        else if (t > 0 && p > first) { /* just past the end of the line that holds p - 1 */
            const char *nl = memchr(c->data + p - 1, '\n', c->size - (p - 1));
            p = nl ? (size_t)(nl - c->data) + 1 : c->size;
        }
        at[t] = t > 0 && p < at[t - 1] ? at[t - 1] : p;
    }
    if (!failed) {
#pragma omp parallel for num_threads(threads) schedule(static, 1)
        for (int t = 0; t < chunks; t++) {
            mm_cursor k = {.data = c->data, .size = at[t + 1], .pos = at[t]};
            int64_t count = 0;
            while (next_content_line(&k)) count++;
            lines[t + 1] = count;
        }
        lines[0] = 0;
        for (int t = 0; t < chunks; t++) lines[t + 1] += lines[t];
        failed = lines[chunks] != hd->nnz;
    }
    int mult = hd->symmetry != DOMINO_GENERAL && !keep_stored ? 2 : 1;
    if (!failed) {
        domino_progress progress;
        domino_progress_begin(h, &progress, name);
#pragma omp parallel for num_threads(threads) schedule(static, 1) reduction(| : failed)
        for (int t = 0; t < chunks; t++) {
            mm_cursor k = {.data = c->data, .size = at[t + 1], .pos = at[t]};
            int64_t base = mult * lines[t];
            mm_entries mine = {e->rows + base, e->cols + base, e->vals ? e->vals + base : NULL, 0};
            while (!failed && next_content_line(&k)) {
                failed = parse_entry(NULL, name, &k, hd, type, keep_stored, &mine) != DOMINO_SUCCESS;
                if (t == 0 && (mine.count & 0xffff) == 0)
                    domino_progress_update(&progress, (double)(k.pos - at[0]) / (double)(at[1] - at[0]));
            }
            made[t] = mine.count;
        }
        domino_progress_end(&progress);
    }
    for (int t = 0; !failed && t < chunks; t++) { /* chunk t's triplets moved down into place */
        int64_t base = mult * lines[t];
        if (base != e->count) {
            memmove(e->rows + e->count, e->rows + base, (size_t)made[t] * sizeof(int32_t));
            memmove(e->cols + e->count, e->cols + base, (size_t)made[t] * sizeof(int32_t));
            if (e->vals) memmove(e->vals + e->count, e->vals + base, (size_t)made[t] * sizeof(double));
        }
        e->count += made[t];
    }
    if (failed) e->count = 0;
    domino_free(at);
    domino_free(lines);
    domino_free(made);
    return failed;
}

/* the CSR matrix of the triplets; sums of duplicates must stay finite */
static domino_status build_matrix(domino_handle h, const char *name, const mm_header *hd,
                                  domino_type type, int keep_stored, const mm_entries *e,
                                  domino_matrix *A)
{
    domino_matrix M = NULL;
    domino_status s =
        domino_matrix_from_coo(h, DOMINO_CSR, type, (int32_t)hd->nrows, (int32_t)hd->ncols,
                               e->count, e->rows, e->cols, e->vals, &M);
    if (s) return s;
    for (int32_t r = 0; r < M->nrows && !s; r++) {
        for (int64_t k = M->ptr[r]; k < M->ptr[r + 1]; k++) {
            if (hd->pattern) {
                domino_matrix_set_value(M, k, 1.0); /* duplicates stay 1 */
            } else if (!isfinite(domino_matrix_value(M, k))) {
                s = BAD("%s: duplicate entries at (%d, %d) sum to a non-finite value", name, r + 1,
                        M->ind[k] + 1);
                break;
            }
        }
    }
    if (!s)
        s = domino_matrix_set_kind(h, M, keep_stored ? hd->symmetry : DOMINO_GENERAL, hd->pattern);
    if (s) {
        domino_matrix_free(M);
        return s;
    }
    *A = M;
    return DOMINO_SUCCESS;
}

/* Read the Matrix Market coordinate file of `size` bytes at data (need not be
 * NUL-terminated) into a CSR matrix of the given type; name is used in
 * messages "name:line: what".  *A is NULL on failure. */
domino_status domino_mm_read_buffer(domino_handle h, const char *data, size_t size,
                                    const char *name, domino_type type, int flags, domino_matrix *A)
{
    if (!A) return domino_error(h, DOMINO_NULL_POINTER, "domino_mm_read_buffer: A is NULL");
    *A = NULL;
    if (!domino_handle_ok(h))
        return domino_error(NULL, DOMINO_INVALID_OBJECT,
                            "domino_mm_read_buffer: h is not a live handle");
    if (!data && size > 0)
        return domino_error(h, DOMINO_NULL_POINTER, "domino_mm_read_buffer: data is NULL");
    if (type != DOMINO_FLOAT64 && type != DOMINO_FLOAT32)
        return domino_error(h, DOMINO_INVALID_VALUE, "domino_mm_read_buffer: bad type %d",
                            (int)type);
    if (flags & ~DOMINO_MM_KEEP_STORED)
        return domino_error(h, DOMINO_INVALID_VALUE, "domino_mm_read_buffer: unknown flags 0x%x",
                            (unsigned)flags);
    if (!name) name = "<buffer>";
    int keep_stored = (flags & DOMINO_MM_KEEP_STORED) != 0;
    mm_cursor c = {.data = data ? data : "", .size = size};
    mm_header hd = {0};
    mm_entries e = {0};
    domino_status s = parse_banner(h, name, &c, &hd);
    if (!s) s = parse_size_line(h, name, &c, &hd);
    if (s) goto cleanup;
    /* nnz is bounded by the bytes of the file, so this cannot be absurd */
    size_t capacity = (size_t)hd.nnz * (hd.symmetry != DOMINO_GENERAL && !keep_stored ? 2 : 1);
    e.rows = domino_malloc(capacity * sizeof(int32_t));
    e.cols = domino_malloc(capacity * sizeof(int32_t));
    if (!hd.pattern) e.vals = domino_malloc(capacity * sizeof(double));
    if (!e.rows || !e.cols || (!hd.pattern && !e.vals)) {
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory for %lld entries", name,
                         (long long)hd.nnz);
        goto cleanup;
    }
    int threads = domino_host_threads(0);
    if (threads < 2 || c.size - c.pos < MM_PARALLEL_BYTES ||
        parse_entries_by_chunks(h, name, &c, &hd, type, keep_stored, threads, &e))
        s = parse_entries(h, name, &c, &hd, type, keep_stored, &e);
    if (!s) s = build_matrix(h, name, &hd, type, keep_stored, &e, A);
cleanup:
    domino_free(e.rows);
    domino_free(e.cols);
    domino_free(e.vals);
    return s;
}
