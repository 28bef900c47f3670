/* test_gpu_spmm.c: domino_gpu_spmm (cusparseSpMM, row-major) against
 * domino_ref_spmm: R-MAT and a shared matrix, double and float, one to 64
 * columns, leading dimensions larger than the width, one call and a plan
 * run twice; bad arguments.  domino_gpu_spmv (cusparseSpMV) against
 * domino_ref_spmv the same way (R-MAT double and float, cage8).  The chunk engine the same way, from 1 to 128
 * columns (one, two and four per lane), on rows cut by chunk boundaries,
 * empty rows and an A without entries, C's padding left alone; wider B
 * refused.  domino_gpu_spgemm (cusparseSpGEMM by row
 * blocks) against domino_ref_spgemm: the same matrices squared, in one
 * block and in many (DOMINO_SPGEMM_BLOCK_ROWS), and mismatched shapes.
 * domino_gpu_gen_dense against domino_gen_dense (bit for bit, double and
 * float, offsets and padded rows) and domino_gpu_dense_multiply against a
 * host product; bad arguments of both. */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */
#include "check.h"
#include "domino.h"
#include "test_values.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check_product(domino_handle h, const char *name, domino_matrix A, int64_t n, int64_t ld)
{
    domino_matrix_view v;
    domino_dmatrix dA = NULL;
    void *dB = NULL, *dC = NULL;
    CHECK_OK(h, domino_matrix_get_view(h, A, &v));
    size_t vs = v.type == DOMINO_FLOAT64 ? 8 : 4;
    void *B = calloc((size_t)(v.ncols * ld) + 1, vs), *C = calloc((size_t)(v.nrows * ld) + 1, vs),
         *R = calloc((size_t)(v.nrows * n) + 1, vs);
    lcg_state = 5;
    for (int64_t i = 0; i < v.ncols; i++)
        for (int64_t q = 0; q < n; q++) set_value(B, v.type, i * ld + q, 2 * lcg_uniform() - 1);
    CHECK_OK(h, domino_ref_spmm(h, DOMINO_OP_N, 1.0, A, (int32_t)n, B, ld, 0.0, R, n));
    CHECK_OK(h, domino_dmatrix_upload(h, A, &dA));
    CHECK_OK(h, domino_gpu_malloc(h, (size_t)(v.ncols * ld) * vs + 8, &dB));
    CHECK_OK(h, domino_gpu_malloc(h, (size_t)(v.nrows * ld) * vs + 8, &dC));
    CHECK_OK(h, domino_gpu_upload(h, dB, B, (size_t)(v.ncols * ld) * vs));
    CHECK_OK(h, domino_gpu_spmm(h, dA, n, dB, ld, dC, ld));
    CHECK_OK(h, domino_gpu_download(h, C, dC, (size_t)(v.nrows * ld) * vs));
    double diff = 0, scale = 0;
    for (int64_t i = 0; i < v.nrows; i++)
        for (int64_t q = 0; q < n; q++) {
            double c = get_value(C, v.type, i * ld + q), r = get_value(R, v.type, i * n + q);
            diff = fmax(diff, isfinite(c) ? fabs(c - r) : INFINITY);
            scale = fmax(scale, fabs(r));
        }
    if (diff <= 1e3 * domino_type_eps(v.type) * fmax(scale, 1.0)) {
        check_passed++;
    } else {
        check_failed++;
        fprintf(stderr, "FAIL: %s n=%lld ld=%lld: max diff %.3e\n", name, (long long)n, (long long)ld, diff);
    }
    /* the phased form: one plan, two products, the same answer */
    domino_spmm_plan plan = NULL;
    CHECK_OK(h, domino_gpu_spmm_plan(h, dA, n, dB, ld, dC, ld, &plan));
    CHECK_OK(h, domino_gpu_spmm_run(h, plan));
    CHECK_OK(h, domino_gpu_spmm_run(h, plan));
    domino_gpu_spmm_plan_free(plan);
    CHECK_OK(h, domino_gpu_download(h, C, dC, (size_t)(v.nrows * ld) * vs));
    double diff2 = 0;
    for (int64_t i = 0; i < v.nrows; i++)
        for (int64_t q = 0; q < n; q++)
            diff2 = fmax(diff2, fabs(get_value(C, v.type, i * ld + q) - get_value(R, v.type, i * n + q)));
    CHECK(diff2 <= 1e3 * domino_type_eps(v.type) * fmax(scale, 1.0));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_gpu_spmm(h, dA, n, dB, n - 1, dC, ld));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_gpu_spmm(h, dA, 0, dB, ld, dC, ld));
    domino_dmatrix_free(dA);
    domino_gpu_free(dB);
    domino_gpu_free(dC);
    free(B);
    free(C);
    free(R);
}

/* the chunk engine's C = A B (n columns, leading dimensions ld) equals
 * the CPU's within 1e3 eps of the largest entry, twice from one plan,
 * every row written (C starts as NaN) and C's padding columns untouched */
/* domino_gpu_spmv (cusparseSpMV, one plan run twice) against
 * domino_ref_spmv; bad arguments refused, the plan left NULL */
static void check_spmv(domino_handle h, const char *name, domino_matrix A)
{
    domino_matrix_view v;
    domino_dmatrix dA = NULL;
    domino_spmv_plan plan = NULL;
    void *dx = NULL, *dy = NULL;
    CHECK_OK(h, domino_matrix_get_view(h, A, &v));
    size_t vs = v.type == DOMINO_FLOAT64 ? 8 : 4;
    void *x = calloc((size_t)v.ncols + 1, vs), *y = calloc((size_t)v.nrows + 1, vs),
         *r = calloc((size_t)v.nrows + 1, vs);
    lcg_state = 9;
    for (int64_t i = 0; i < v.ncols; i++) set_value(x, v.type, i, 2 * lcg_uniform() - 1);
    CHECK_OK(h, domino_ref_spmv(h, DOMINO_OP_N, 1.0, A, x, 0.0, r));
    CHECK_OK(h, domino_dmatrix_upload(h, A, &dA));
    CHECK_OK(h, domino_gpu_malloc(h, (size_t)v.ncols * vs + 8, &dx));
    CHECK_OK(h, domino_gpu_malloc(h, (size_t)v.nrows * vs + 8, &dy));
    CHECK_OK(h, domino_gpu_upload(h, dx, x, (size_t)v.ncols * vs));
    CHECK_OK(h, domino_gpu_spmv_plan(h, dA, dx, dy, &plan));
    CHECK_OK(h, domino_gpu_spmv_run(h, plan));
    CHECK_OK(h, domino_gpu_spmv_run(h, plan));
    CHECK_OK(h, domino_gpu_synchronize(h));
    CHECK_OK(h, domino_gpu_download(h, y, dy, (size_t)v.nrows * vs));
    double diff = 0, scale = 0;
    for (int64_t i = 0; i < v.nrows; i++) {
        double c = get_value(y, v.type, i), e = get_value(r, v.type, i);
        diff = fmax(diff, isfinite(c) ? fabs(c - e) : INFINITY);
        scale = fmax(scale, fabs(e));
    }
    if (diff <= 1e3 * domino_type_eps(v.type) * fmax(scale, 1.0)) {
        check_passed++;
    } else {
        check_failed++;
        fprintf(stderr, "FAIL: spmv %s: max diff %.3e\n", name, diff);
    }
    domino_gpu_spmv_plan_free(plan);
    plan = NULL;
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_gpu_spmv_plan(h, dA, NULL, dy, &plan));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_gpu_spmv_plan(h, dA, dx, dy, NULL));
    CHECK_STATUS(h, DOMINO_INVALID_OBJECT, domino_gpu_spmv_plan(h, NULL, dx, dy, &plan));
    CHECK_STATUS(h, DOMINO_INVALID_OBJECT, domino_gpu_spmv_run(h, NULL));
    CHECK(plan == NULL);
    domino_dmatrix_free(dA);
    domino_gpu_free(dx);
    domino_gpu_free(dy);
    free(x);
    free(y);
    free(r);
}

static void check_chunks(domino_handle h, const char *name, domino_matrix A, int64_t n, int64_t ld)
{
    domino_matrix_view v;
    domino_dmatrix dA = NULL;
    domino_spmm_plan plan = NULL;
    void *dB = NULL, *dC = NULL;
    CHECK_OK(h, domino_matrix_get_view(h, A, &v));
    size_t vs = domino_type_size(v.type), cbytes = (size_t)(v.nrows * ld) * vs + 8;
    void *B = calloc((size_t)(v.ncols * ld) + 1, vs), *C = malloc(cbytes), *R = calloc((size_t)(v.nrows * n) + 1, vs);
    lcg_state = 7;
    for (int64_t i = 0; i < v.ncols; i++)
        for (int64_t q = 0; q < n; q++) set_value(B, v.type, i * ld + q, 2 * lcg_uniform() - 1);
    CHECK_OK(h, domino_ref_spmm(h, DOMINO_OP_N, 1.0, A, (int32_t)n, B, ld, 0.0, R, n));
    CHECK_OK(h, domino_dmatrix_upload(h, A, &dA));
    CHECK_OK(h, domino_gpu_malloc(h, (size_t)(v.ncols * ld) * vs + 8, &dB));
    CHECK_OK(h, domino_gpu_malloc(h, cbytes, &dC));
    CHECK_OK(h, domino_gpu_upload(h, dB, B, (size_t)(v.ncols * ld) * vs));
    memset(C, 0xff, cbytes); /* NaN in both types */
    CHECK_OK(h, domino_gpu_upload(h, dC, C, cbytes));
    CHECK_OK(h, domino_gpu_spmm_plan_engine(h, DOMINO_SPMM_CHUNKS, dA, n, dB, ld, dC, ld, &plan));
    for (int run = 0; run < 2 && plan; run++) {
        CHECK_OK(h, domino_gpu_spmm_run(h, plan));
        CHECK_OK(h, domino_gpu_download(h, C, dC, cbytes));
        double diff = 0, scale = 0;
        int64_t padding = 0;
        for (int64_t i = 0; i < v.nrows; i++) {
            for (int64_t q = 0; q < n; q++) {
                double c = get_value(C, v.type, i * ld + q), r = get_value(R, v.type, i * n + q);
                diff = fmax(diff, isfinite(c) ? fabs(c - r) : INFINITY);
                scale = fmax(scale, fabs(r));
            }
            for (int64_t q = n; q < ld; q++) padding += !isnan(get_value(C, v.type, i * ld + q));
        }
        if (diff <= 1e3 * domino_type_eps(v.type) * fmax(scale, 1.0) && padding == 0) {
            check_passed++;
        } else {
            check_failed++;
            fprintf(stderr, "FAIL: chunks %s n=%lld ld=%lld run %d: max diff %.3e, %lld padding entries written\n",
                    name, (long long)n, (long long)ld, run, diff, (long long)padding);
        }
    }
    domino_gpu_spmm_plan_free(plan);
    domino_dmatrix_free(dA);
    domino_gpu_free(dB);
    domino_gpu_free(dC);
    free(B);
    free(C);
    free(R);
}

/* a 3000 x 3000 matrix whose rows 0-4 are empty, row 5 full (12 chunks
 * of 256 entries, cut at both ends), the rest a diagonal entry or none */
static domino_matrix long_row_matrix(domino_handle h, domino_type type)
{
    enum { N = 3000 };
    int32_t *r = malloc(2 * N * sizeof(int32_t)), *c = malloc(2 * N * sizeof(int32_t));
    double *x = malloc(2 * N * sizeof(double));
    int64_t k = 0;
    domino_matrix A = NULL;
    for (int32_t j = 0; r && c && x && j < N; j++) r[k] = 5, c[k] = j, x[k++] = 1.0 / (j + 1);
    for (int32_t i = 6; r && c && x && i < N; i++)
        if (i % 3) r[k] = i, c[k] = i, x[k++] = 2.0 + i % 5;
    if (r && c && x) CHECK_OK(h, domino_matrix_from_coo(h, DOMINO_CSR, type, N, N, k, r, c, x, &A));
    free(r), free(c), free(x);
    return A;
}

/* C = A B on the GPU (rows of at most block_rows, 0: no cap) equals the
 * CPU's: the same pattern row by row (the GPU's rows in any order) and
 * values within 1e3 eps of the largest entry */
static void check_spgemm(domino_handle h, const char *name, domino_matrix A, domino_matrix B,
                         const char *block_rows)
{
    domino_matrix R = NULL, G = NULL;
    domino_dmatrix dA = NULL, dB = NULL, dC = NULL;
    domino_gpu_spgemm_info info = {0, 0, 0};
    if (block_rows) setenv("DOMINO_SPGEMM_BLOCK_ROWS", block_rows, 1);
    CHECK_OK(h, domino_ref_spgemm(h, A, B, &R));
    CHECK_OK(h, domino_dmatrix_upload(h, A, &dA));
    CHECK_OK(h, domino_dmatrix_upload(h, B, &dB));
    CHECK_OK(h, domino_gpu_spgemm(h, dA, dB, &dC, &info));
    if (dC) CHECK_OK(h, domino_dmatrix_download(h, dC, &G));
    unsetenv("DOMINO_SPGEMM_BLOCK_ROWS");
    double diff = 0, scale = 0;
    int64_t missing = 0;
    domino_matrix_view r, g;
    if (R && G && !domino_matrix_get_view(h, R, &r) && !domino_matrix_get_view(h, G, &g)) {
        int ok = sparse_close(h, R, G, &diff, &scale, &missing);
        if (ok) check_passed++;
        else check_failed++;
        printf("%s %s: spgemm nnz %lld (cpu %lld), %d block(s), %d with ALG3, max diff %.2e of %.2e\n",
               ok ? "ok  " : "FAIL", name, (long long)g.nnz, (long long)r.nnz, info.blocks, info.frugal_blocks,
               diff, scale);
        CHECK(info.nnz == g.nnz);
        if (block_rows) CHECK(info.blocks >= (r.nrows + atoi(block_rows) - 1) / atoi(block_rows));
    }
    domino_matrix_free(R);
    domino_matrix_free(G);
    domino_dmatrix_free(dA);
    domino_dmatrix_free(dB);
    domino_dmatrix_free(dC);
}

/* a block of the pseudo-random matrix on the GPU equals the CPU's, and
 * y = B x on the GPU equals the host's sum */
static void check_dense(domino_handle h, domino_type type)
{
    enum { NC = 45, R0 = 1000003, ROWS = 301, C0 = 7, COLS = 33, LD = 40 };
    size_t vs = domino_type_size(type);
    void *B = calloc((size_t)ROWS * LD, vs), *G = calloc((size_t)ROWS * LD, vs), *dB = NULL;
    double x[COLS], y[ROWS], want[ROWS];
    CHECK_OK(h, domino_gen_dense(h, 99, NC, R0, ROWS, C0, COLS, type, B, LD));
    CHECK_OK(h, domino_gpu_malloc(h, (size_t)ROWS * LD * vs, &dB));
    CHECK_OK(h, domino_gpu_upload(h, dB, G, (size_t)ROWS * LD * vs)); /* zero padding */
    CHECK_OK(h, domino_gpu_gen_dense(h, 99, NC, R0, ROWS, C0, COLS, type, dB, LD));
    CHECK_OK(h, domino_gpu_download(h, G, dB, (size_t)ROWS * LD * vs));
    CHECK(memcmp(B, G, (size_t)ROWS * LD * vs) == 0);
    double worst = 0;
    for (int c = 0; c < COLS; c++) x[c] = 1.0 / (c + 1) - 0.25;
    for (int r = 0; r < ROWS; r++) {
        want[r] = 0;
        for (int c = 0; c < COLS; c++) want[r] += get_value(B, type, (int64_t)r * LD + c) * x[c];
    }
    CHECK_OK(h, domino_gpu_dense_multiply(h, type, ROWS, COLS, dB, LD, x, y));
    for (int r = 0; r < ROWS; r++) worst = fmax(worst, fabs(y[r] - want[r]));
    CHECK(worst <= 64 * DBL_EPSILON * COLS);
    /* bad arguments */
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_gpu_gen_dense(h, 99, NC, R0, ROWS, C0, NC, type, dB, LD));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_gpu_gen_dense(h, 99, NC, R0, ROWS, C0, COLS, type, NULL, LD));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_gpu_dense_multiply(h, type, ROWS, COLS, dB, COLS - 1, x, y));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_gpu_dense_multiply(h, type, ROWS, COLS, dB, LD, NULL, y));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_gpu_dense_multiply(h, (domino_type)9, ROWS, COLS, dB, LD, x, y));
    CHECK_OK(h, domino_gpu_dense_multiply(h, type, 0, COLS, dB, LD, x, NULL)); /* nothing to do */
    domino_gpu_free(dB);
    free(B), free(G);
}

int main(void)
{
    if (domino_gpu_count() == 0) {
        printf("test_gpu_spmm: no CUDA device, skipped\n");
        return 0;
    }
    domino_handle h = NULL;
    domino_matrix A = NULL, F = NULL, M = NULL;
    CHECK_OK(h, domino_create(&h));
    CHECK_OK(h, domino_gen_rmat(h, 11, 8, 0.6, 0.4 / 3, 0.4 / 3, 0.4 / 3, 3, DOMINO_FLOAT64, &A));
    if (A) {
        check_product(h, "rmat 11", A, 1, 1);
        check_product(h, "rmat 11", A, 64, 64);
        check_product(h, "rmat 11", A, 7, 9);
        CHECK_OK(h, domino_matrix_cast(h, A, DOMINO_FLOAT32, &F));
    }
    if (F) check_product(h, "rmat 11 float", F, 32, 32);
    if (A) check_spmv(h, "rmat 11", A);
    if (F) check_spmv(h, "rmat 11 float", F);
    static const int64_t chunk_widths[][2] = {{1, 1}, {7, 9}, {32, 32}, {33, 40}, {64, 64}, {65, 65}, {100, 101},
                                              {128, 128}};
    for (int w = 0; w < 8; w++) {
        if (A) check_chunks(h, "rmat 11", A, chunk_widths[w][0], chunk_widths[w][1]);
        if (F) check_chunks(h, "rmat 11 float", F, chunk_widths[w][0], chunk_widths[w][1]);
    }
    for (int t = 0; t < 2; t++) {
        domino_matrix L = long_row_matrix(h, t ? DOMINO_FLOAT32 : DOMINO_FLOAT64), Z = NULL;
        if (L) check_chunks(h, "long row", L, 32, 33), check_chunks(h, "long row", L, 128, 128);
        CHECK_OK(h, domino_matrix_from_coo(h, DOMINO_CSR, t ? DOMINO_FLOAT32 : DOMINO_FLOAT64, 50, 40, 0, NULL, NULL,
                                           NULL, &Z));
        if (Z) check_chunks(h, "no entries", Z, 5, 6);
        domino_matrix_free(L);
        domino_matrix_free(Z);
    }
    if (A) { /* more than 128 columns, or no such engine */
        domino_dmatrix dA = NULL;
        domino_spmm_plan plan = NULL;
        void *dX = NULL;
        CHECK_OK(h, domino_dmatrix_upload(h, A, &dA));
        CHECK_OK(h, domino_gpu_malloc(h, 2048 * 129 * sizeof(double), &dX));
        CHECK_STATUS(h, DOMINO_NOT_SUPPORTED,
                     domino_gpu_spmm_plan_engine(h, DOMINO_SPMM_CHUNKS, dA, 129, dX, 129, dX, 129, &plan));
        CHECK_STATUS(h, DOMINO_INVALID_VALUE,
                     domino_gpu_spmm_plan_engine(h, (domino_spmm_engine)7, dA, 8, dX, 8, dX, 8, &plan));
        CHECK(plan == NULL);
        domino_dmatrix_free(dA);
        domino_gpu_free(dX);
    }
    char path[1024];
    snprintf(path, sizeof(path), "%s/cage8.mtx", DOMINO_SHARED_MATRICES);
    CHECK_OK(h, domino_mm_read(h, path, DOMINO_FLOAT64, 0, &M));
    if (M) check_product(h, "cage8", M, 16, 16);
    if (M) check_spmv(h, "cage8", M);
    if (A) check_spgemm(h, "rmat 11 squared", A, A, NULL);
    if (A) check_spgemm(h, "rmat 11 squared, blocks of 100 rows", A, A, "100");
    if (F) check_spgemm(h, "rmat 11 float squared, blocks of 7 rows", F, F, "7");
    if (M) check_spgemm(h, "cage8 squared", M, M, NULL);
    if (A) { /* R-MAT's empty rows and columns: blocks of A with no entries, rows of C with none */
        domino_matrix T = NULL;
        CHECK_OK(h, domino_matrix_transpose(h, A, &T));
        if (T) check_spgemm(h, "rmat 11 transposed times rmat 11, blocks of 3 rows", T, A, "3");
        domino_matrix_free(T);
    }
    if (A && M) { /* 2048 x 2048 times 1015 x 1015 */
        domino_dmatrix dA = NULL, dM = NULL, dC = NULL;
        CHECK_OK(h, domino_dmatrix_upload(h, A, &dA));
        CHECK_OK(h, domino_dmatrix_upload(h, M, &dM));
        CHECK_STATUS(h, DOMINO_DIMENSION_MISMATCH, domino_gpu_spgemm(h, dA, dM, &dC, NULL));
        CHECK(dC == NULL);
        CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_gpu_spgemm(h, dA, NULL, &dC, NULL));
        domino_dmatrix_free(dA);
        domino_dmatrix_free(dM);
    }
    check_dense(h, DOMINO_FLOAT64);
    check_dense(h, DOMINO_FLOAT32);
    domino_matrix_free(A);
    domino_matrix_free(F);
    domino_matrix_free(M);
    domino_destroy(h);
    return check_summary("test_gpu_spmm");
}
