/* test_mm_chunks.c: a Matrix Market buffer large enough to be parsed in
 * chunks on several threads reads exactly as on one thread: the same matrix
 * bit for bit (duplicates summed in file order, mirrored, kept stored), or
 * the same status and the same "name:line: what" for bad input wherever
 * the bad line lies */
#include "check.h"
#include "domino.h"

#include <omp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINES 300000 /* entry lines: about 6 MB, past the 4 MB where chunks start */
#define N 5000       /* rows and columns */

static domino_handle h;

/* a growing text buffer */
typedef struct text {
    char *data; /* bytes, NUL-terminated */
    size_t len; /* bytes used */
    size_t cap; /* bytes allocated */
} text;

static void put(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text *t, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(t->data + t->len, t->cap - t->len, fmt, ap);
        va_end(ap);
        if (n >= 0 && (size_t)n < t->cap - t->len) {
            t->len += (size_t)n;
            return;
        }
        t->cap = 2 * t->cap + 256;
        t->data = realloc(t->data, t->cap);
        if (!t->data) abort();
    }
}

/* what a generated file holds, and where it goes wrong */
typedef struct shape {
    const char *field;    /* real, integer or pattern */
    const char *symmetry; /* general, symmetric or skew-symmetric */
    int crlf;             /* lines end with \r\n */
    int64_t declared;     /* entries on the size line (LINES unless a case says otherwise) */
    int64_t bad_line;     /* entry line (0-based) replaced by bad_text, -1 for none */
    const char *bad_text; /* the bad line */
    int extra;            /* one more entry after the declared ones */
    int final_newline;    /* the last line ends with an end of line */
} shape;

/* the file of s: comments and blank lines every so often, duplicates, both
 * triangles for symmetric files (skew: off the diagonal only) */
static text make_file(const shape *s)
{
    text t = {0};
    const char *eol = s->crlf ? "\r\n" : "\n";
    int pattern = strcmp(s->field, "pattern") == 0, skew = strcmp(s->symmetry, "skew-symmetric") == 0;
    put(&t, "%%%%MatrixMarket matrix coordinate %s %s%s%% generated%s", s->field, s->symmetry, eol, eol);
    put(&t, "%d %d %lld%s", N, N, (long long)s->declared, eol);
    uint64_t x = 12345;
    int64_t total = LINES + (s->extra ? 1 : 0);
    for (int64_t k = 0; k < total; k++) {
        if (k % 997 == 0) put(&t, "%% comment at entry %lld%s", (long long)k, eol);
        if (k % 1499 == 0) put(&t, "   %s", eol);
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        int i = 1 + (int)((x >> 33) % N), j = 1 + (int)((x >> 13) % N);
        if (k % 101 == 0) j = i % N + 1; /* some duplicates of (i, i % N + 1) */
        if (skew && i == j) j = i % N + 1;
        int last = k == total - 1 && !s->final_newline;
        const char *end = last ? "" : eol;
        if (k == s->bad_line)
            put(&t, "%s%s", s->bad_text, end);
        else if (pattern)
            put(&t, "      %d  %d%s", i, j, end); /* indented: the file stays past 4 MB */
        else if (strcmp(s->field, "integer") == 0)
            put(&t, "    %d %d %d%s", i, j, (int)(x % 19) - 9, end);
        else
            put(&t, "%d %d %.17g%s", i, j, (double)(x >> 11) * 0x1.0p-53 - 0.5, end);
    }
    return t;
}

/* 1 when A and B hold the same CSR arrays, values bit for bit */
static int identical(domino_matrix A, domino_matrix B)
{
    domino_matrix_view a, b;
    if (domino_matrix_get_view(h, A, &a) || domino_matrix_get_view(h, B, &b)) return 0;
    if (a.nrows != b.nrows || a.ncols != b.ncols || a.nnz != b.nnz || a.symmetry != b.symmetry ||
        a.is_pattern != b.is_pattern || a.type != b.type)
        return 0;
    size_t vb = a.type == DOMINO_FLOAT64 ? sizeof(double) : sizeof(float);
    return memcmp(a.ptr, b.ptr, ((size_t)a.nrows + 1) * sizeof(int64_t)) == 0 &&
           memcmp(a.ind, b.ind, (size_t)a.nnz * sizeof(int32_t)) == 0 &&
           memcmp(a.val, b.val, (size_t)a.nnz * vb) == 0;
}

/* read s's file on one thread, then on all; the same matrix or the same
 * error (want: the one-thread status) */
static void same_both_ways(const shape *s, int flags, domino_type type, domino_status want,
                           const char *message_part)
{
    text t = make_file(s);
    CHECK(t.len > (9u << 19)); /* 4.5 MB */
    domino_matrix one = NULL, many = NULL;
    char first[512];
    omp_set_num_threads(1);
    domino_status s1 = domino_mm_read_buffer(h, t.data, t.len, "big.mtx", type, flags, &one);
    snprintf(first, sizeof first, "%s", domino_last_error(h));
    omp_set_num_threads(4);
    domino_status s4 = domino_mm_read_buffer(h, t.data, t.len, "big.mtx", type, flags, &many);
    CHECK(s1 == want);
    CHECK(s4 == s1);
    if (s1) {
        CHECK(strcmp(first, domino_last_error(h)) == 0);
        if (message_part) CHECK(strstr(domino_last_error(h), message_part) != NULL);
        if (strcmp(first, domino_last_error(h)) != 0)
            printf("  one thread: %s\n  several:    %s\n", first, domino_last_error(h));
    } else {
        CHECK(one && many && identical(one, many));
    }
    domino_matrix_free(one);
    domino_matrix_free(many);
    free(t.data);
}

static void test_good_files(void)
{
    shape s = {"real", "general", 0, LINES, -1, NULL, 0, 1};
    same_both_ways(&s, 0, DOMINO_FLOAT64, DOMINO_SUCCESS, NULL);
    same_both_ways(&s, 0, DOMINO_FLOAT32, DOMINO_SUCCESS, NULL);
    s.crlf = 1, s.final_newline = 0;
    same_both_ways(&s, 0, DOMINO_FLOAT64, DOMINO_SUCCESS, NULL);
    s = (shape){"real", "symmetric", 0, LINES, -1, NULL, 0, 1};
    same_both_ways(&s, 0, DOMINO_FLOAT64, DOMINO_SUCCESS, NULL); /* mirrored */
    same_both_ways(&s, DOMINO_MM_KEEP_STORED, DOMINO_FLOAT64, DOMINO_SUCCESS, NULL);
    s.symmetry = "skew-symmetric";
    same_both_ways(&s, 0, DOMINO_FLOAT64, DOMINO_SUCCESS, NULL);
    same_both_ways(&s, DOMINO_MM_KEEP_STORED, DOMINO_FLOAT64, DOMINO_SUCCESS, NULL);
    s = (shape){"pattern", "symmetric", 1, LINES, -1, NULL, 0, 1};
    same_both_ways(&s, 0, DOMINO_FLOAT64, DOMINO_SUCCESS, NULL);
    s = (shape){"integer", "general", 0, LINES, -1, NULL, 0, 0};
    same_both_ways(&s, 0, DOMINO_FLOAT64, DOMINO_SUCCESS, NULL);
}

static void test_bad_files(void)
{
    /* a bad line early, in the middle and near the end */
    static const int64_t where[3] = {10, LINES / 2 + 7, LINES - 3};
    for (int k = 0; k < 3; k++) {
        shape s = {"real", "general", k == 1, LINES, where[k], "3 0 1.5", 0, 1};
        same_both_ways(&s, 0, DOMINO_FLOAT64, DOMINO_BAD_INPUT, "column index '0' out of range");
        s.bad_text = "3 4 1.5 junk";
        same_both_ways(&s, 0, DOMINO_FLOAT64, DOMINO_BAD_INPUT, "trailing garbage 'junk'");
        s.bad_text = "3 4 nan";
        same_both_ways(&s, 0, DOMINO_FLOAT64, DOMINO_BAD_INPUT, "is not finite");
        s.bad_text = "3 4 1e300";
        same_both_ways(&s, 0, DOMINO_FLOAT32, DOMINO_BAD_INPUT, "overflows float32");
        s.bad_text = "3";
        same_both_ways(&s, 0, DOMINO_FLOAT64, DOMINO_BAD_INPUT, "entry has no column index");
        s.symmetry = "skew-symmetric", s.bad_text = "7 7 2.0";
        same_both_ways(&s, 0, DOMINO_FLOAT64, DOMINO_BAD_INPUT, "nonzero diagonal entry (7, 7)");
    }
    /* counts that do not match the size line */
    shape s = {"real", "general", 0, LINES + 1, -1, NULL, 0, 1};
    same_both_ways(&s, 0, DOMINO_FLOAT64, DOMINO_BAD_INPUT, "file ends after 300000 of the 300001");
    s.declared = LINES, s.extra = 1;
    same_both_ways(&s, 0, DOMINO_FLOAT64, DOMINO_BAD_INPUT, "extra entry beyond the 300000 declared");
    s.extra = 0, s.final_newline = 0, s.bad_line = LINES - 1, s.bad_text = "% a comment ends the file";
    s.declared = LINES - 1;
    same_both_ways(&s, 0, DOMINO_FLOAT64, DOMINO_SUCCESS, NULL);
}

int main(void)
{
    CHECK_OK(NULL, domino_create(&h));
    int64_t live = domino_debug_alloc_live();
    test_good_files();
    test_bad_files();
    CHECK(domino_debug_alloc_live() == live);
    domino_destroy(h);
    return check_summary("test_mm_chunks");
}
