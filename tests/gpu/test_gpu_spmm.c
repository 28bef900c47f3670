/* test_gpu_spmm.c: domino_gpu_spmm (cusparseSpMM, row-major) against
 * domino_ref_spmm: R-MAT and a shared matrix, double and float, one to 64
 * columns, leading dimensions larger than the width, one call and a plan
 * run twice; bad arguments. */
#include "check.h"
#include "domino.h"
#include "test_values.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

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
    char path[1024];
    snprintf(path, sizeof(path), "%s/cage8.mtx", DOMINO_SHARED_MATRICES);
    CHECK_OK(h, domino_mm_read(h, path, DOMINO_FLOAT64, 0, &M));
    if (M) check_product(h, "cage8", M, 16, 16);
    domino_matrix_free(A);
    domino_matrix_free(F);
    domino_matrix_free(M);
    domino_destroy(h);
    return check_summary("test_gpu_spmm");
}
