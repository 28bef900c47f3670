/* test_summa_nccl.c: the bulk-synchronous SUMMA SpMM and SpGEMM on GPUs
 * (NCCL broadcasts, cuSPARSE products) against domino_ref_spmm and
 * domino_ref_spgemm, one PE per GPU of the machine (forked by
 * domino_launch, or started by mpirun when run under it): every grid of
 * the PEs, R-MAT and a shared matrix, double and float, uneven splits,
 * fewer columns than grid columns; B made on the GPUs
 * (domino_summa_gpu_make_random: C against the CPU's product with
 * domino_gen_dense's B, C x by domino_summa_gpu_multiply against the
 * host's); SpGEMM checked by nnz(C) and C x against the CPU's C; a grid
 * that does not fit fails on every PE.  Label dist. */
#include "check.h"
#include "domino.h"
#include "test_values.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static void check_product(domino_handle h, int npes, const char *name, domino_matrix A, int64_t n, int pr, int pc)
{
    domino_matrix_view v;
    domino_summa_gpu S = NULL;
    domino_summa_gpu_times t;
    CHECK_OK(h, domino_matrix_get_view(h, A, &v));
    size_t vs = v.type == DOMINO_FLOAT64 ? 8 : 4;
    void *B = malloc((size_t)(v.ncols * n) * vs + 8), *C = malloc((size_t)(v.nrows * n) * vs + 8),
         *R = malloc((size_t)(v.nrows * n) * vs + 8);
    lcg_fill(B, v.type, v.ncols * n, 23); /* the same B on every PE */
    CHECK_OK(h, domino_ref_spmm(h, DOMINO_OP_N, 1.0, A, (int32_t)n, B, n, 0.0, R, n));
    CHECK_OK(h, domino_summa_gpu_make(h, A, B, n, n, pr, pc, &S));
    for (int round = 0; round < 2 && S; round++) {
        CHECK_OK(h, domino_summa_gpu_spmm(h, S, &t));
        CHECK(t.total >= 0 && t.compute >= 0 && t.communication >= 0);
        CHECK_OK(h, domino_summa_gpu_gather(h, S, C, n));
        CHECK_VALUES_CLOSE(C, R, v.type, v.nrows * n, "%s n=%lld grid %dx%d of %d", name, (long long)n, pr, pc, npes);
    }
    domino_summa_gpu_free(S);
    free(B);
    free(C);
    free(R);
}

/* B = domino_gen_dense(seed) made by the PEs: C against the CPU's product,
 * and C x summed over the PEs against the host's C x */
static void check_random(domino_handle h, int npes, const char *name, domino_matrix A, int64_t n, int pr, int pc)
{
    domino_matrix_view v;
    domino_summa_gpu S = NULL;
    CHECK_OK(h, domino_matrix_get_view(h, A, &v));
    size_t vs = domino_type_size(v.type);
    void *B = malloc((size_t)(v.ncols * n) * vs + 8), *C = malloc((size_t)(v.nrows * n) * vs + 8),
         *R = malloc((size_t)(v.nrows * n) * vs + 8);
    double *x = malloc(sizeof(double) * (size_t)n), *y = malloc(sizeof(double) * ((size_t)v.nrows + 1));
    CHECK_OK(h, domino_gen_dense(h, 11, n, 0, v.ncols, 0, n, v.type, B, n));
    CHECK_OK(h, domino_ref_spmm(h, DOMINO_OP_N, 1.0, A, (int32_t)n, B, n, 0.0, R, n));
    for (int64_t c = 0; c < n; c++) x[c] = (double)(c % 3) - 1;
    CHECK_OK(h, domino_summa_gpu_make_random(h, A, n, 11, pr, pc, &S));
    if (S) {
        CHECK_OK(h, domino_summa_gpu_spmm(h, S, NULL));
        CHECK_OK(h, domino_summa_gpu_gather(h, S, C, n));
        CHECK_VALUES_CLOSE(C, R, v.type, v.nrows * n, "%s (B made on the GPUs) n=%lld grid %dx%d of %d",
                           name, (long long)n, pr, pc, npes);
        CHECK_OK(h, domino_summa_gpu_multiply(h, S, x, y));
        CHECK(dense_times_close(C, v.type, v.nrows, n, x, y));
    }
    domino_summa_gpu_free(S);
    free(B), free(C), free(R), free(x), free(y);
}

/* SUMMA's C = A B has the CPU's entries and C x = the CPU's C x */
static void check_spgemm(domino_handle h, int npes, const char *name, domino_matrix A, domino_matrix B, int pr, int pc)
{
    domino_matrix R = NULL;
    domino_summa_spgemm S = NULL;
    domino_summa_gpu_times t;
    domino_matrix_view r, vb;
    CHECK_OK(h, domino_ref_spgemm(h, A, B, &R));
    if (!R || domino_matrix_get_view(h, R, &r) || domino_matrix_get_view(h, B, &vb)) { /* the same on every PE */
        check_failed++;
        domino_matrix_free(R);
        return;
    }
    double *x = malloc(((size_t)vb.ncols + 1) * sizeof(double)), *y = malloc(((size_t)r.nrows + 1) * sizeof(double));
    double *want = malloc(((size_t)r.nrows + 1) * sizeof(double)), *mag = malloc(((size_t)r.nrows + 1) * sizeof(double));
    lcg_fill(x, DOMINO_FLOAT64, vb.ncols, 41);
    csr_apply(R, x, want, mag); /* the CPU's C x, and the size of its terms */
    double scale = 0;
    for (int32_t i = 0; i < r.nrows; i++) scale = fmax(scale, mag[i]);
    CHECK_OK(h, domino_summa_gpu_spgemm_make(h, A, B, pr, pc, &S));
    for (int round = 0; round < 2 && S; round++) {
        int64_t nnz = -1;
        CHECK_OK(h, domino_summa_gpu_spgemm_run(h, S, &t));
        CHECK(t.total >= 0 && t.compute >= 0 && t.communication >= 0);
        CHECK_OK(h, domino_summa_gpu_spgemm_multiply(h, S, x, y, &nnz));
        double diff = 0;
        for (int32_t i = 0; i < r.nrows; i++) diff = fmax(diff, fabs(y[i] - want[i]));
        if (nnz == r.nnz && diff <= 1e3 * domino_type_eps(r.type) * fmax(scale, 1.0)) {
            check_passed++;
        } else {
            check_failed++;
            fprintf(stderr, "FAIL: spgemm %s grid %dx%d of %d: nnz %lld (cpu %lld), C x differs by %.3e (scale %.3e)\n",
                    name, pr, pc, npes, (long long)nnz, (long long)r.nnz, diff, scale);
        }
    }
    domino_summa_gpu_spgemm_free(S);
    domino_matrix_free(R);
    free(x), free(y), free(want), free(mag);
}

static int pe_main(const domino_launch_info *info, void *arg)
{
    int npes = info ? info->npes : *(int *)arg;
    domino_handle h = NULL;
    domino_matrix A = NULL, F = NULL, M = NULL;
    char name[96];
    CHECK_OK(h, domino_create(&h));
    CHECK_OK(h, domino_gen_rmat(h, 10, 8, 0.6, 0.4 / 3, 0.4 / 3, 0.4 / 3, 7, DOMINO_FLOAT64, &A));
    for (int pr = 1; pr <= npes && A; pr++)
        if (npes % pr == 0) {
            check_product(h, npes, "rmat 10", A, 64, pr, npes / pr);
            check_product(h, npes, "rmat 10", A, 7, pr, npes / pr);
        }
    if (A) check_product(h, npes, "rmat 10, one column", A, 1, 1, npes);
    for (int pr = 1; pr <= npes && A; pr++)
        if (npes % pr == 0) check_random(h, npes, "rmat 10", A, 24, pr, npes / pr);
    if (A) CHECK_OK(h, domino_matrix_cast(h, A, DOMINO_FLOAT32, &F));
    if (F) check_product(h, npes, "rmat 10 float", F, 16, npes, 1);
    if (F) check_random(h, npes, "rmat 10 float", F, 9, 1, npes);
    snprintf(name, sizeof(name), "%s/cage8.mtx", DOMINO_SHARED_MATRICES);
    CHECK_OK(h, domino_mm_read(h, name, DOMINO_FLOAT64, 0, &M));
    if (M) check_product(h, npes, "cage8", M, 32, 1, npes);
    for (int pr = 1; pr <= npes && A; pr++)
        if (npes % pr == 0) check_spgemm(h, npes, "rmat 10 squared", A, A, pr, npes / pr);
    if (F) check_spgemm(h, npes, "rmat 10 float squared", F, F, 1, npes);
    if (M) check_spgemm(h, npes, "cage8 squared", M, M, npes, 1);
    if (A && M) { /* shapes that do not fit: every PE fails, none hangs */
        domino_summa_spgemm G = NULL;
        CHECK_STATUS(h, DOMINO_DIMENSION_MISMATCH, domino_summa_gpu_spgemm_make(h, A, M, 1, npes, &G));
        CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_summa_gpu_spgemm_make(h, A, A, npes + 1, 1, &G));
        CHECK(G == NULL);
    }
    /* a grid for another number of PEs: every PE fails, none hangs */
    domino_summa_gpu S = NULL;
    if (A) {
        domino_matrix_view v;
        CHECK_OK(h, domino_matrix_get_view(h, A, &v));
        double *Bw = calloc((size_t)v.ncols * 2 + 1, sizeof(double));
        CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_summa_gpu_make(h, A, Bw, 2, 2, npes + 1, 1, &S));
        CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_summa_gpu_make_random(h, A, 2, 11, npes + 1, 1, &S));
        CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_summa_gpu_make(h, A, NULL, 2, 2, 1, npes, &S));
        free(Bw);
    }
    CHECK(S == NULL);
    domino_matrix_free(A);
    domino_matrix_free(F);
    domino_matrix_free(M);
    domino_destroy(h);
    snprintf(name, sizeof(name), "test_summa_nccl PE %d of %d", info ? info->rank : -1, npes);
    return check_summary(name) ? 1 : 0;
}

int main(void)
{
    if (getenv("OMPI_COMM_WORLD_SIZE")) { /* under mpirun: NCCL's ID through MPI */
        int size = atoi(getenv("OMPI_COMM_WORLD_SIZE"));
        if (domino_gpu_count() < size) {
            printf("test_summa_nccl: %d ranks, %d GPUs: skipped\n", size, domino_gpu_count());
            return 0;
        }
        return pe_main(NULL, &size);
    }
    int npes = domino_launch_gpu_count(); /* CUDA stays out of this process */
    if (npes == 0) {
        printf("test_summa_nccl: no CUDA device, skipped\n");
        return 0;
    }
    CHECK(domino_launch(npes, pe_main, NULL) == 0);
    return check_summary("test_summa_nccl");
}
