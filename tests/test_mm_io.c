/* test_mm_io.c: Matrix Market read and write: formats, bad input, round trips, gz, allocation
 * failures */
#include "check.h"
#include "domino.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static domino_handle h;

/* path of a fixture in tests/data */
static const char *data_path(const char *file)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s/%s", DOMINO_TEST_DATA, file);
    return path;
}

/* path of a scratch file in the build directory */
static const char *build_path(const char *file)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s/%s", DOMINO_BUILD_DIR, file);
    return path;
}

/* value at (i, j) of a CSR matrix (0 when absent), and whether it is stored */
static double entry(domino_matrix A, int32_t i, int32_t j, int *stored)
{
    domino_matrix_view v;
    domino_matrix_get_view(h, A, &v);
    if (stored) *stored = 0;
    for (int64_t k = v.ptr[i]; k < v.ptr[i + 1]; k++) {
        if (v.ind[k] != j) continue;
        if (stored) *stored = 1;
        return v.type == DOMINO_FLOAT64 ? ((double *)v.val)[k] : ((float *)v.val)[k];
    }
    return 0.0;
}

/* 1 if A and B hold bit-identical arrays */
static int same_matrix(domino_matrix A, domino_matrix B)
{
    domino_matrix_view a, b;
    if (domino_matrix_get_view(h, A, &a) || domino_matrix_get_view(h, B, &b)) return 0;
    if (a.format != b.format || a.type != b.type || a.nrows != b.nrows || a.ncols != b.ncols ||
        a.nnz != b.nnz || a.symmetry != b.symmetry || a.is_pattern != b.is_pattern)
        return 0;
    int32_t np = a.format == DOMINO_CSR ? a.nrows : a.ncols;
    return memcmp(a.ptr, b.ptr, ((size_t)np + 1) * sizeof(int64_t)) == 0 &&
           memcmp(a.ind, b.ind, (size_t)a.nnz * sizeof(int32_t)) == 0 &&
           memcmp(a.val, b.val, (size_t)a.nnz * domino_type_size(a.type)) == 0;
}

static domino_matrix_view view_of(domino_matrix A)
{
    domino_matrix_view v;
    memset(&v, 0, sizeof v);
    domino_matrix_get_view(h, A, &v);
    return v;
}

/* ------------------------------------------------------------ good files */

static void test_general_real(void)
{
    domino_matrix A = NULL;
    CHECK_OK(h, domino_mm_read(h, data_path("general_real.mtx"), DOMINO_FLOAT64, 0, &A));
    if (!A) return;
    domino_matrix_view v = view_of(A);
    CHECK(v.format == DOMINO_CSR && v.nrows == 4 && v.ncols == 5 && v.nnz == 7);
    CHECK(v.symmetry == DOMINO_GENERAL && v.is_pattern == 0);
    CHECK(entry(A, 0, 0, NULL) == 1.5);
    CHECK(entry(A, 1, 1, NULL) == -2.25);
    CHECK(entry(A, 2, 0, NULL) == 3e-3);
    CHECK(entry(A, 3, 4, NULL) == 4.0);
    CHECK(entry(A, 0, 4, NULL) == -0.5);
    CHECK(entry(A, 1, 2, NULL) == 1e10);
    CHECK(entry(A, 3, 3, NULL) == 7.0);
    for (int32_t r = 0; r < v.nrows; r++)
        for (int64_t k = v.ptr[r] + 1; k < v.ptr[r + 1]; k++) CHECK(v.ind[k - 1] < v.ind[k]);
    domino_matrix_free(A);

    CHECK_OK(h, domino_mm_read(h, data_path("general_real.mtx"), DOMINO_FLOAT32, 0, &A));
    if (A) {
        v = view_of(A);
        CHECK(v.type == DOMINO_FLOAT32 && v.nnz == 7);
        CHECK(entry(A, 2, 0, NULL) == (double)3e-3f);
    }
    domino_matrix_free(A);
}

static void test_integer_and_pattern(void)
{
    domino_matrix A = NULL;
    CHECK_OK(h, domino_mm_read(h, data_path("integer_general.mtx"), DOMINO_FLOAT64, 0, &A));
    if (A) {
        CHECK(view_of(A).nnz == 4 && view_of(A).is_pattern == 0);
        CHECK(entry(A, 1, 1, NULL) == -4.0 && entry(A, 2, 0, NULL) == 7.0 &&
              entry(A, 2, 2, NULL) == 12.0);
    }
    domino_matrix_free(A);

    CHECK_OK(h, domino_mm_read(h, data_path("pattern_general.mtx"), DOMINO_FLOAT64, 0, &A));
    if (A) {
        domino_matrix_view v = view_of(A);
        CHECK(v.nrows == 3 && v.ncols == 4 && v.nnz == 4 && v.is_pattern == 1);
        for (int64_t k = 0; k < v.nnz; k++)
            CHECK(((double *)v.val)[k] == 1.0); /* duplicate stays 1 */
        int stored;
        entry(A, 1, 3, &stored);
        CHECK(stored);
    }
    domino_matrix_free(A);

    CHECK_OK(h, domino_mm_read(h, data_path("pattern_symmetric.mtx"), DOMINO_FLOAT64, 0, &A));
    if (A) {
        domino_matrix_view v = view_of(A);
        CHECK(v.nnz == 6 && v.is_pattern == 1 && v.symmetry == DOMINO_GENERAL);
        CHECK(entry(A, 0, 1, NULL) == 1.0 && entry(A, 1, 2, NULL) == 1.0);
    }
    domino_matrix_free(A);
}

static void test_symmetric(void)
{
    domino_matrix A = NULL;
    CHECK_OK(h, domino_mm_read(h, data_path("symmetric_real.mtx"), DOMINO_FLOAT64, 0, &A));
    if (A) {
        domino_matrix_view v = view_of(A);
        CHECK(v.nrows == 4 && v.nnz == 3 + 2 * 3 && v.symmetry == DOMINO_GENERAL);
        CHECK(entry(A, 0, 1, NULL) == -1.0 && entry(A, 1, 0, NULL) == -1.0);
        CHECK(entry(A, 1, 2, NULL) == -1.0 && entry(A, 2, 1, NULL) == -1.0);
        CHECK(entry(A, 0, 3, NULL) == 0.5 &&
              entry(A, 3, 0, NULL) == 0.5); /* upper entry mirrored */
        CHECK(entry(A, 3, 3, NULL) == 4.0);
    }
    domino_matrix_free(A);

    CHECK_OK(h, domino_mm_read(h, data_path("symmetric_real.mtx"), DOMINO_FLOAT64,
                               DOMINO_MM_KEEP_STORED, &A));
    if (A) {
        domino_matrix_view v = view_of(A);
        CHECK(v.nnz == 6 && v.symmetry == DOMINO_SYMMETRIC);
        int stored;
        CHECK(entry(A, 3, 0, &stored) == 0.5 && stored); /* moved into the lower triangle */
        entry(A, 0, 3, &stored);
        CHECK(!stored);
    }
    domino_matrix_free(A);
}

static void test_skew(void)
{
    domino_matrix A = NULL;
    CHECK_OK(h, domino_mm_read(h, data_path("skew_real.mtx"), DOMINO_FLOAT64, 0, &A));
    if (A) {
        CHECK(view_of(A).nnz == 6);
        CHECK(entry(A, 1, 0, NULL) == 2.0 && entry(A, 0, 1, NULL) == -2.0);
        CHECK(entry(A, 2, 0, NULL) == -1.0 && entry(A, 0, 2, NULL) == 1.0);
        CHECK(entry(A, 1, 2, NULL) == 5.0 && entry(A, 2, 1, NULL) == -5.0);
    }
    domino_matrix_free(A);
    CHECK_OK(h, domino_mm_read(h, data_path("skew_real.mtx"), DOMINO_FLOAT64, DOMINO_MM_KEEP_STORED,
                               &A));
    if (A) {
        CHECK(view_of(A).nnz == 3 && view_of(A).symmetry == DOMINO_SKEW_SYMMETRIC);
        CHECK(entry(A, 2, 1, NULL) == -5.0); /* (2,3,5) moved to (3,2,-5) */
    }
    domino_matrix_free(A);
    const char *zero_diag =
        "%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 2\n1 1 0\n2 1 3\n";
    CHECK_OK(h, domino_mm_read_buffer(h, zero_diag, strlen(zero_diag), "z", DOMINO_FLOAT64, 0, &A));
    if (A) CHECK(entry(A, 0, 1, NULL) == -3.0);
    domino_matrix_free(A);
}

static void test_crlf_and_buffers(void)
{
    domino_matrix A = NULL;
    CHECK_OK(h, domino_mm_read(h, data_path("crlf.mtx"), DOMINO_FLOAT64, 0, &A));
    if (A)
        CHECK(view_of(A).nnz == 3 && entry(A, 0, 0, NULL) == 1.25 && entry(A, 1, 0, NULL) == -3.0);
    domino_matrix_free(A);

    /* not NUL-terminated: the bytes after size must not be read */
    const char *text = "%%MatrixMarket matrix coordinate real general\n2 2 1\n2 1 2.5e1XYZ";
    size_t size = strlen(text) - 3;
    char *exact = malloc(size);
    memcpy(exact, text, size);
    CHECK_OK(h, domino_mm_read_buffer(h, exact, size, "exact", DOMINO_FLOAT64, 0, &A));
    if (A) CHECK(entry(A, 1, 0, NULL) == 25.0);
    domino_matrix_free(A);
    free(exact);

    /* duplicates are summed; an empty matrix is fine */
    const char *dup =
        "%%MatrixMarket matrix coordinate real general\n2 2 3\n1 2 1.5\n1 2 2.5\n2 2 1\n";
    CHECK_OK(h, domino_mm_read_buffer(h, dup, strlen(dup), "dup", DOMINO_FLOAT64, 0, &A));
    if (A) CHECK(view_of(A).nnz == 2 && entry(A, 0, 1, NULL) == 4.0);
    domino_matrix_free(A);
    const char *empty = "%%MatrixMarket matrix coordinate real general\n0 0 0\n";
    CHECK_OK(h, domino_mm_read_buffer(h, empty, strlen(empty), "empty", DOMINO_FLOAT64, 0, &A));
    if (A) CHECK(view_of(A).nrows == 0 && view_of(A).nnz == 0);
    domino_matrix_free(A);

    /* API misuse */
    CHECK_STATUS(h, DOMINO_NULL_POINTER,
                 domino_mm_read_buffer(h, dup, strlen(dup), "x", DOMINO_FLOAT64, 0, NULL));
    CHECK_STATUS(h, DOMINO_NULL_POINTER,
                 domino_mm_read_buffer(h, NULL, 5, "x", DOMINO_FLOAT64, 0, &A));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE,
                 domino_mm_read_buffer(h, dup, strlen(dup), "x", (domino_type)7, 0, &A));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE,
                 domino_mm_read_buffer(h, dup, strlen(dup), "x", DOMINO_FLOAT64, 8, &A));
    CHECK(A == NULL);
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_mm_read(h, NULL, DOMINO_FLOAT64, 0, &A));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_mm_write(h, "x.mtx", NULL));
}

/* ------------------------------------------------------------ bad input */

#define MM_GENERAL "%%MatrixMarket matrix coordinate real general\n"
#define MM_SYMMETRIC "%%MatrixMarket matrix coordinate real symmetric\n"

typedef struct bad_case {
    const char *text;     /* the file */
    domino_type type;     /* requested value type */
    domino_status status; /* expected status */
    const char *where;    /* expected in the message */
    size_t size;          /* bytes of text when it holds a NUL, else 0 */
} bad_case;

static const bad_case bad_cases[] = {
    {"", DOMINO_FLOAT64, DOMINO_BAD_INPUT, "t.mtx:1:", 0},
    {"\n\n", DOMINO_FLOAT64, DOMINO_BAD_INPUT, "t.mtx:1:", 0},
    {"hello world\n1 1 1\n", DOMINO_FLOAT64, DOMINO_BAD_INPUT, "t.mtx:1:", 0},
    {"%%MatrixMarket matrix coordinate real\n1 1 1\n1 1 1\n", DOMINO_FLOAT64, DOMINO_BAD_INPUT,
     "t.mtx:1:", 0},
    {"%%MatrixMarket matrix coordinate real general extra\n1 1 1\n1 1 1\n", DOMINO_FLOAT64,
     DOMINO_BAD_INPUT, "t.mtx:1:", 0},
    {"%%MatrixMarket matrix coordinate double general\n1 1 1\n1 1 1\n", DOMINO_FLOAT64,
     DOMINO_BAD_INPUT, "t.mtx:1:", 0},
    {"%%MatrixMarket tensor coordinate real general\n1 1 1\n1 1 1\n", DOMINO_FLOAT64,
     DOMINO_BAD_INPUT, "t.mtx:1:", 0},
    {"%%MatrixMarket matrix coordinate real lower\n1 1 1\n1 1 1\n", DOMINO_FLOAT64,
     DOMINO_BAD_INPUT, "t.mtx:1:", 0},
    {"%%MatrixMarket matrix coordinate pattern skew-symmetric\n2 2 1\n2 1\n", DOMINO_FLOAT64,
     DOMINO_BAD_INPUT, "t.mtx:1:", 0},
    {"%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n", DOMINO_FLOAT64,
     DOMINO_NOT_SUPPORTED, "t.mtx:1:", 0},
    {"%%MatrixMarket matrix coordinate real hermitian\n1 1 1\n1 1 1\n", DOMINO_FLOAT64,
     DOMINO_NOT_SUPPORTED, "t.mtx:1:", 0},
    {"%%MatrixMarket matrix array real general\n1 1\n1\n", DOMINO_FLOAT64, DOMINO_NOT_SUPPORTED,
     "t.mtx:1:", 0},
    {MM_GENERAL "% only comments\n\n", DOMINO_FLOAT64, DOMINO_BAD_INPUT, "t.mtx:4:", 0},
    {MM_GENERAL "-2 2 1\n1 1 1\n", DOMINO_FLOAT64, DOMINO_BAD_INPUT, "t.mtx:2:", 0},
    {MM_GENERAL "2 x 1\n1 1 1\n", DOMINO_FLOAT64, DOMINO_BAD_INPUT, "t.mtx:2:", 0},
    {MM_GENERAL "2 2\n1 1 1\n", DOMINO_FLOAT64, DOMINO_BAD_INPUT, "t.mtx:2:", 0},
    {MM_GENERAL "2 2 1 9\n1 1 1\n", DOMINO_FLOAT64, DOMINO_BAD_INPUT, "t.mtx:2:", 0},
    {MM_GENERAL "2147483647 2 1\n1 1 1\n", DOMINO_FLOAT64, DOMINO_BAD_INPUT, "t.mtx:2:", 0},
    {MM_GENERAL "2 99999999999999999999999 1\n1 1 1\n", DOMINO_FLOAT64, DOMINO_BAD_INPUT,
     "t.mtx:2:", 0},
    {MM_GENERAL "2 2 5\n1 1 1\n1 2 1\n2 1 1\n2 2 1\n1 1 1\n", DOMINO_FLOAT64, DOMINO_BAD_INPUT,
     "t.mtx:2:", 0},
    {MM_GENERAL "%\n1000000 1000000 999999999\n1 1 1\n", DOMINO_FLOAT64, DOMINO_BAD_INPUT,
     "t.mtx:3:", 0},
    {MM_GENERAL "3 3 3\n1 1 1.5000000\n2 2 2.5000000\n", DOMINO_FLOAT64, DOMINO_BAD_INPUT,
     "t.mtx:4:", 0},
    {MM_GENERAL "3 3 1\n1 1 1\n2 2 2\n", DOMINO_FLOAT64, DOMINO_BAD_INPUT, "t.mtx:4:", 0},
    {MM_GENERAL "3 3 1\n0 1 1\n", DOMINO_FLOAT64, DOMINO_BAD_INPUT, "t.mtx:3:", 0},
    {MM_GENERAL "3 3 1\n1 0 1\n", DOMINO_FLOAT64, DOMINO_BAD_INPUT, "t.mtx:3:", 0},
    {MM_GENERAL "3 3 1\n4 1 1\n", DOMINO_FLOAT64, DOMINO_BAD_INPUT, "t.mtx:3:", 0},
    {MM_GENERAL "3 3 1\n1 -1 1\n", DOMINO_FLOAT64, DOMINO_BAD_INPUT, "t.mtx:3:", 0},
    {MM_GENERAL "3 3 1\n1 a 1\n", DOMINO_FLOAT64, DOMINO_BAD_INPUT, "t.mtx:3:", 0},
    {MM_GENERAL "3 3 1\n1 1 abc\n", DOMINO_FLOAT64, DOMINO_BAD_INPUT, "t.mtx:3:", 0},
    {MM_GENERAL "3 3 1\n1 1 1.5x\n", DOMINO_FLOAT64, DOMINO_BAD_INPUT, "t.mtx:3:", 0},
    {MM_GENERAL "3 3 1\n% padding comment\n1 1\n", DOMINO_FLOAT64, DOMINO_BAD_INPUT, "t.mtx:4:", 0},
    {MM_GENERAL "3 3 1\n% padding comment\n1\n", DOMINO_FLOAT64, DOMINO_BAD_INPUT, "t.mtx:4:", 0},
    {MM_GENERAL "3 3 1\n1 1 1 x\n", DOMINO_FLOAT64, DOMINO_BAD_INPUT, "t.mtx:3:", 0},
    {MM_GENERAL "3 3 1\n1 1 nan\n", DOMINO_FLOAT64, DOMINO_BAD_INPUT, "t.mtx:3:", 0},
    {MM_GENERAL "3 3 1\n1 1 -inf\n", DOMINO_FLOAT64, DOMINO_BAD_INPUT, "t.mtx:3:", 0},
    {MM_GENERAL "3 3 1\n1 1 1e999\n", DOMINO_FLOAT64, DOMINO_BAD_INPUT, "t.mtx:3:", 0},
    {MM_GENERAL "3 3 1\n1 1 1e300\n", DOMINO_FLOAT32, DOMINO_BAD_INPUT, "t.mtx:3:", 0},
    {MM_GENERAL "3 3 2\n1 1 1e308\n1 1 1e308\n", DOMINO_FLOAT64, DOMINO_BAD_INPUT, "t.mtx:", 0},
    {MM_GENERAL "3 3 1\n1 1\0001\n", DOMINO_FLOAT64, DOMINO_BAD_INPUT,
     "t.mtx:3:", sizeof(MM_GENERAL "3 3 1\n1 1\0001\n") - 1},
    {MM_SYMMETRIC "3 4 1\n1 1 1\n", DOMINO_FLOAT64, DOMINO_BAD_INPUT, "t.mtx:2:", 0},
    {"%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 1\n2 2 1\n", DOMINO_FLOAT64,
     DOMINO_BAD_INPUT, "t.mtx:3:", 0},
    {"%%MatrixMarket matrix coordinate real general\r\n% c\r\n3 3 2\r\n1 1 1\r\n9 1 1\r\n",
     DOMINO_FLOAT64, DOMINO_BAD_INPUT, "t.mtx:5:", 0},
};
#undef MM_GENERAL
#undef MM_SYMMETRIC

static void test_bad_input(void)
{
    size_t ncases = sizeof bad_cases / sizeof bad_cases[0];
    for (size_t k = 0; k < ncases; k++) {
        const bad_case *c = &bad_cases[k];
        domino_matrix A = (domino_matrix)1;
        domino_status s = domino_mm_read_buffer(h, c->text, c->size ? c->size : strlen(c->text),
                                                "t.mtx", c->type, 0, &A);
        const char *msg = domino_last_error(h);
        if (s != c->status || !strstr(msg, c->where) || A != NULL) {
            fprintf(stderr, "bad case %zu: got %s '%s', expected %s with '%s'\n", k,
                    domino_status_name(s), msg, domino_status_name(c->status), c->where);
            check_failed++;
        } else {
            check_passed++;
        }
        if (s == DOMINO_SUCCESS) domino_matrix_free(A);
    }
}

/* bad fixture files: status and "path:line:" in the message */
static void test_bad_files(void)
{
    struct {
        const char *file;
        domino_status status;
        const char *line;
    } files[] = {
        {"bad_complex.mtx", DOMINO_NOT_SUPPORTED, ":1:"},
        {"bad_index_zero.mtx", DOMINO_BAD_INPUT, ":5:"},
        {"bad_truncated.mtx", DOMINO_BAD_INPUT, ":5:"},
        {"bad_extra_entry.mtx", DOMINO_BAD_INPUT, ":6:"},
    };
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        domino_matrix A = NULL;
        char where[4200];
        snprintf(where, sizeof where, "%s%s", data_path(files[k].file), files[k].line);
        CHECK_STATUS(h, files[k].status,
                     domino_mm_read(h, data_path(files[k].file), DOMINO_FLOAT64, 0, &A));
        CHECK(A == NULL && strstr(domino_last_error(h), where) != NULL);
    }
    domino_matrix A = NULL;
    CHECK_STATUS(h, DOMINO_IO_ERROR,
                 domino_mm_read(h, build_path("no/such/file.mtx"), DOMINO_FLOAT64, 0, &A));
    CHECK(strstr(domino_last_error(h), "no/such/file.mtx") != NULL);
    CHECK_STATUS(h, DOMINO_IO_ERROR, domino_mm_read(h, DOMINO_TEST_DATA, DOMINO_FLOAT64, 0, &A));
    CHECK(A == NULL);
    CHECK_OK(h, domino_mm_read(h, data_path("general_real.mtx"), DOMINO_FLOAT64, 0, &A));
    CHECK_STATUS(h, DOMINO_IO_ERROR, domino_mm_write(h, build_path("no/such/dir/out.mtx"), A));
    CHECK(strstr(domino_last_error(h), "no/such/dir/out.mtx") != NULL);
    domino_matrix_free(A);
}

/* ------------------------------------------------------ shared matrices */

static const char *shared_files[] = {
    "Pd.mtx",       "add32.mtx",    "adder_dcop_05.mtx", "bayer10.mtx",    "bcspwr10.mtx",
    "bcsstk13.mtx", "bcsstk33.mtx", "cage8.mtx",         "copter2.mtx",    "crack.mtx",
    "cryg2500.mtx", "fidapex6.mtx", "hangGlider_2.mtx",  "luxembourg.mtx", "nnc1374.mtx",
    "pushpull.mtx", "rajat01.mtx",  "watt_2.mtx",        "whitaker3.mtx",  "zenios.mtx",
};

/* header of a Matrix Market file read independently: 0 on success */
static int read_header(const char *path, int *symmetric, int *pattern, long long *rows,
                       long long *cols, long long *stored)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    int ok = 0;
    if (!f) return 1;
    if (fgets(line, sizeof line, f)) {
        *symmetric = strstr(line, "symmetric") != NULL;
        *pattern = strstr(line, "pattern") != NULL;
        while (fgets(line, sizeof line, f)) {
            if (line[0] == '%') continue;
            ok = sscanf(line, "%lld %lld %lld", rows, cols, stored) == 3;
            break;
        }
    }
    fclose(f);
    return !ok;
}

static char *shared_path(const char *file)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s/%s", DOMINO_SHARED_MATRICES, file);
    return path;
}

/* every shared matrix: sizes as in its header, nnz = 2 stored - diagonal when symmetric */
static void test_shared_matrices(void)
{
    for (size_t f = 0; f < sizeof shared_files / sizeof shared_files[0]; f++) {
        const char *path = shared_path(shared_files[f]);
        int symmetric = 0, pattern = 0;
        long long rows = 0, cols = 0, stored = 0;
        if (read_header(path, &symmetric, &pattern, &rows, &cols, &stored)) {
            fprintf(stderr, "cannot read the header of %s\n", path);
            check_failed++;
            continue;
        }
        domino_matrix full = NULL, kept = NULL;
        CHECK_OK(h, domino_mm_read(h, path, DOMINO_FLOAT64, 0, &full));
        CHECK_OK(h, domino_mm_read(h, path, DOMINO_FLOAT64, DOMINO_MM_KEEP_STORED, &kept));
        if (full && kept) {
            domino_matrix_view a = view_of(full), s = view_of(kept);
            CHECK(a.nrows == rows && a.ncols == cols && a.is_pattern == pattern);
            CHECK(s.nnz == stored);
            long long diagonal = 0, upper = 0;
            for (int32_t r = 0; r < s.nrows; r++)
                for (int64_t k = s.ptr[r]; k < s.ptr[r + 1]; k++) {
                    diagonal += s.ind[k] == r;
                    upper += s.ind[k] > r;
                }
            if (symmetric) {
                CHECK(a.nnz == 2 * stored - diagonal);
                CHECK(upper == 0 && s.symmetry == DOMINO_SYMMETRIC);
            } else {
                CHECK(a.nnz == stored && same_matrix(full, kept));
            }
        }
        domino_matrix_free(full);
        domino_matrix_free(kept);
    }
}

/* read path with flags and type, write it to out, read back, compare bitwise */
static void round_trip(const char *path, const char *out, domino_type type, int flags)
{
    domino_matrix A = NULL, B = NULL;
    CHECK_OK(h, domino_mm_read(h, path, type, flags, &A));
    CHECK_OK(h, domino_mm_write(h, out, A));
    CHECK_OK(h, domino_mm_read(h, out, type, flags, &B));
    if (A && B && !same_matrix(A, B)) {
        fprintf(stderr, "round trip of %s through %s changed the matrix\n", path, out);
        check_failed++;
    } else {
        check_passed++;
    }
    domino_matrix_free(A);
    domino_matrix_free(B);
}

static void test_round_trips(void)
{
    round_trip(shared_path("add32.mtx"), build_path("io_rt_add32.mtx"), DOMINO_FLOAT64, 0);
    round_trip(shared_path("bayer10.mtx"), build_path("io_rt_bayer10.mtx"), DOMINO_FLOAT64, 0);
    round_trip(shared_path("cage8.mtx"), build_path("io_rt_cage8.mtx"), DOMINO_FLOAT32, 0);
    round_trip(shared_path("rajat01.mtx"), build_path("io_rt_rajat01.mtx"), DOMINO_FLOAT64, 0);
    round_trip(shared_path("bcsstk13.mtx"), build_path("io_rt_bcsstk13.mtx"), DOMINO_FLOAT64, 0);
    round_trip(shared_path("bcsstk13.mtx"), build_path("io_rt_bcsstk13_kept.mtx"), DOMINO_FLOAT64,
               DOMINO_MM_KEEP_STORED);
    round_trip(shared_path("bcspwr10.mtx"), build_path("io_rt_bcspwr10_kept.mtx"), DOMINO_FLOAT64,
               DOMINO_MM_KEEP_STORED);
    round_trip(data_path("skew_real.mtx"), build_path("io_rt_skew.mtx"), DOMINO_FLOAT64,
               DOMINO_MM_KEEP_STORED);
    round_trip(data_path("general_real.mtx"), build_path("io_rt_general.mtx"), DOMINO_FLOAT64, 0);

    /* a symmetric matrix written with its keyword expands like the original */
    domino_matrix A = NULL, B = NULL;
    CHECK_OK(h, domino_mm_read(h, shared_path("zenios.mtx"), DOMINO_FLOAT64, 0, &A));
    round_trip(shared_path("zenios.mtx"), build_path("io_rt_zenios_kept.mtx"), DOMINO_FLOAT64,
               DOMINO_MM_KEEP_STORED);
    CHECK_OK(h, domino_mm_read(h, build_path("io_rt_zenios_kept.mtx"), DOMINO_FLOAT64, 0, &B));
    CHECK(A && B && same_matrix(A, B));
    domino_matrix_free(A);
    domino_matrix_free(B);

    /* a CSC matrix is written entry by entry from its columns */
    int32_t rows[] = {0, 2, 1, 2, 0};
    int32_t cols[] = {0, 0, 1, 2, 3};
    double vals[] = {0.1, -1.0 / 3.0, 2.0, 1e-300, 7.0};
    domino_matrix C = NULL, R = NULL;
    CHECK_OK(h,
             domino_matrix_from_coo(h, DOMINO_CSC, DOMINO_FLOAT64, 3, 4, 5, rows, cols, vals, &C));
    CHECK_OK(h, domino_mm_write(h, build_path("io_rt_csc.mtx"), C));
    CHECK_OK(h, domino_mm_read(h, build_path("io_rt_csc.mtx"), DOMINO_FLOAT64, 0, &R));
    if (R) {
        CHECK(view_of(R).nrows == 3 && view_of(R).ncols == 4 && view_of(R).nnz == 5);
        for (int k = 0; k < 5; k++) CHECK(entry(R, rows[k], cols[k], NULL) == vals[k]);
    }
    domino_matrix_free(C);
    domino_matrix_free(R);
}

/* copy the first `keep` bytes of src to dst (keep 0: all); bytes copied */
static long copy_file(const char *src, const char *dst, long keep)
{
    FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
    long n = 0;
    int ch;
    while (in && out && (keep == 0 || n < keep) && (ch = fgetc(in)) != EOF) {
        fputc(ch, out);
        n++;
    }
    if (in) fclose(in);
    if (out) fclose(out);
    return n;
}

static void test_gzip(void)
{
    char gz[4096];
    snprintf(gz, sizeof gz, "%s", build_path("io_rt_crack.mtx.gz"));
    round_trip(shared_path("crack.mtx"), gz, DOMINO_FLOAT64, DOMINO_MM_KEEP_STORED);
    round_trip(shared_path("fidapex6.mtx"), build_path("io_rt_fidapex6.mtx.gz"), DOMINO_FLOAT64, 0);
    FILE *f = fopen(gz, "rb");
    unsigned char magic[2] = {0, 0};
    CHECK(f && fread(magic, 1, 2, f) == 2 && magic[0] == 0x1f && magic[1] == 0x8b);
    if (f) fclose(f);

    /* detected by its magic bytes, whatever the name */
    domino_matrix A = NULL, B = NULL;
    long bytes = copy_file(gz, build_path("io_gz_named_plain.mtx"), 0);
    CHECK_OK(h, domino_mm_read(h, gz, DOMINO_FLOAT64, 0, &A));
    CHECK_OK(h, domino_mm_read(h, build_path("io_gz_named_plain.mtx"), DOMINO_FLOAT64, 0, &B));
    CHECK(A && B && same_matrix(A, B));
    domino_matrix_free(A);
    domino_matrix_free(B);

    /* a truncated compressed file fails cleanly */
    copy_file(gz, build_path("io_gz_truncated.mtx.gz"), bytes / 2);
    domino_status s =
        domino_mm_read(h, build_path("io_gz_truncated.mtx.gz"), DOMINO_FLOAT64, 0, &A);
    CHECK(s == DOMINO_IO_ERROR || s == DOMINO_BAD_INPUT);
    CHECK(A == NULL && strstr(domino_last_error(h), "io_gz_truncated.mtx.gz") != NULL);
}

/* ------------------------------------------------- allocation failures */

/* for k = 1.. make the k-th allocation fail: want or out of memory, no leak */
static void alloc_failures_of_read(const char *path, int flags, domino_status want)
{
    int64_t live_before = domino_debug_alloc_live();
    int succeeded = 0;
    for (int64_t k = 1; k <= 40 && !succeeded; k++) {
        domino_matrix A = NULL;
        domino_debug_fail_alloc_after(k);
        domino_status s = domino_mm_read(h, path, DOMINO_FLOAT64, flags, &A);
        domino_debug_fail_alloc_after(0);
        CHECK(s == want || s == DOMINO_OUT_OF_MEMORY);
        CHECK(s == DOMINO_SUCCESS || A == NULL);
        succeeded = s == want;
        domino_matrix_free(A);
        CHECK(domino_debug_alloc_live() == live_before);
    }
    CHECK(succeeded);
}

static void test_alloc_failures(void)
{
    alloc_failures_of_read(data_path("symmetric_real.mtx"), 0, DOMINO_SUCCESS);
    alloc_failures_of_read(data_path("symmetric_real.mtx"), DOMINO_MM_KEEP_STORED, DOMINO_SUCCESS);
    alloc_failures_of_read(data_path("pattern_general.mtx"), 0, DOMINO_SUCCESS);
    alloc_failures_of_read(build_path("io_rt_general.mtx"), 0, DOMINO_SUCCESS);
    alloc_failures_of_read(build_path("io_rt_crack.mtx.gz"), 0, DOMINO_SUCCESS);
    alloc_failures_of_read(data_path("bad_truncated.mtx"), 0, DOMINO_BAD_INPUT);
    alloc_failures_of_read(data_path("bad_extra_entry.mtx"), 0, DOMINO_BAD_INPUT);

    domino_matrix A = NULL;
    CHECK_OK(h, domino_mm_read(h, data_path("general_real.mtx"), DOMINO_FLOAT64, 0, &A));
    int64_t live_before = domino_debug_alloc_live();
    for (int64_t k = 1; k <= 3; k++) {
        domino_debug_fail_alloc_after(k);
        domino_status s = domino_mm_write(h, build_path("io_alloc_write.mtx"), A);
        domino_debug_fail_alloc_after(0);
        CHECK(s == DOMINO_SUCCESS || s == DOMINO_OUT_OF_MEMORY);
        CHECK(domino_debug_alloc_live() == live_before);
    }
    domino_matrix_free(A);
}

int main(void)
{
    if (domino_create(&h)) return 1;
    test_general_real();
    test_integer_and_pattern();
    test_symmetric();
    test_skew();
    test_crlf_and_buffers();
    test_bad_input();
    test_bad_files();
    test_shared_matrices();
    test_round_trips();
    test_gzip();
    test_alloc_failures();
    domino_destroy(h);
    return check_summary("test_mm_io");
}
