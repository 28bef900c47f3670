/* test_gpu_levels.c: domino_dmatrix_levels (the GPU level pass of the
 * level-set engine and the factorizations) against domino_ref_levels, row by
 * row: every shared matrix (lower and upper triangle), DAGs of chosen depth
 * (a chain through every row, whose links the pass resolves inside a warp;
 * banded DAGs; 4-entry rows with in-warp dependencies of any distance), 3D
 * stencils storing both triangles (upper rows walk the lower entries first),
 * R-MAT (rows of hundreds of entries), random rows of both triangles
 * unsorted, with duplicates and without diagonals on orders 1-5000 (lanes
 * past n, partial warps); each case three times (the pass is
 * synchronization-free: arrival order must not change a level); bad input.
 * Without a CUDA device it reports every section skipped. */
#define _POSIX_C_SOURCE 200809L /* opendir, readdir */
#include "check.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#define SECTIONS 4 /* test sections, all skipped without a device */
#define REPEATS 3  /* runs of the pass per case */

static int check_skipped; /* sections or files that could not run */

/* the GPU levels of the fill triangle of A equal the CPU reference's */
static void check_levels(domino_handle h, const char *name, domino_matrix A, domino_fill fill)
{
    domino_levels *ref = NULL;
    domino_dmatrix dA = NULL;
    CHECK_OK(h, domino_ref_levels(h, DOMINO_OP_N, fill, A, &ref));
    CHECK_OK(h, domino_dmatrix_upload(h, A, &dA));
    for (int r = 0; r < REPEATS && ref && dA; r++) {
        domino_levels *gpu = NULL;
        CHECK_OK(h, domino_dmatrix_levels(h, fill, dA, &gpu));
        if (!gpu) break;
        int same = gpu->n == ref->n && gpu->nlevels == ref->nlevels;
        int32_t bad_row = -1;
        for (int32_t i = 0; same && i < ref->n; i++)
            if (gpu->row_level[i] != ref->row_level[i] || gpu->level_rows[i] != ref->level_rows[i]) {
                bad_row = i;
                same = 0;
            }
        for (int32_t l = 0; same && l <= ref->nlevels; l++) same = gpu->level_ptr[l] == ref->level_ptr[l];
        same = same && gpu->dependency == ref->dependency && gpu->parallelism == ref->parallelism;
        if (!same)
            printf("test_gpu_levels: %s (%s, run %d): GPU %d levels, CPU %d; first bad row %d\n", name,
                   fill == DOMINO_LOWER ? "lower" : "upper", r, gpu->nlevels, ref->nlevels, bad_row);
        CHECK(same);
        domino_levels_free(gpu);
    }
    domino_dmatrix_free(dA);
    domino_levels_free(ref);
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* every shared matrix, both triangles of its pattern (values as read) */
static void test_shared(domino_handle h)
{
    DIR *d = opendir(DOMINO_SHARED_MATRICES);
    if (!d) {
        printf("test_gpu_levels: %s not readable, skipped\n", DOMINO_SHARED_MATRICES);
        check_skipped++;
        return;
    }
    char *names[64];
    int count = 0;
    for (struct dirent *e; (e = readdir(d)) && count < 64;) {
        size_t len = strlen(e->d_name);
        if (len > 4 && !strcmp(e->d_name + len - 4, ".mtx")) names[count++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)count, sizeof(char *), compare_names);
    for (int f = 0; f < count; f++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", DOMINO_SHARED_MATRICES, names[f]);
        domino_matrix A = NULL;
        domino_matrix_view v;
        CHECK_OK(h, domino_mm_read(h, path, DOMINO_FLOAT64, 0, &A));
        if (A) CHECK_OK(h, domino_matrix_get_view(h, A, &v));
        if (A && v.nrows == v.ncols) {
            check_levels(h, names[f], A, DOMINO_LOWER);
            check_levels(h, names[f], A, DOMINO_UPPER);
        }
        domino_matrix_free(A);
        free(names[f]);
    }
}

/* DAGs of chosen depth, their transposes (upper), R-MAT */
static void test_generated(domino_handle h)
{
    static const struct { int32_t n, per_row, levels, band; const char *name; } dags[] = {
        {5000, 3, 5000, 0, "chain n=5000"},
        {20000, 8, 100, 0, "dag n=20000 levels=100"},
        {30001, 4, 3000, 64, "dag n=30001 levels=3000 band=64"},
        {200000, 4, 1000, 0, "dag n=200000 levels=1000"},
    };
    for (int k = 0; k < 4; k++) {
        domino_matrix L = NULL, U = NULL;
        CHECK_OK(h, domino_gen_dag(h, dags[k].n, dags[k].per_row, dags[k].levels, dags[k].band,
                                   91 + k, DOMINO_FLOAT64, &L));
        if (L) CHECK_OK(h, domino_matrix_transpose(h, L, &U));
        if (L) check_levels(h, dags[k].name, L, DOMINO_LOWER);
        if (U) check_levels(h, dags[k].name, U, DOMINO_UPPER);
        domino_matrix_free(U);
        domino_matrix_free(L);
    }
    domino_matrix R = NULL;
    CHECK_OK(h, domino_gen_rmat(h, 12, 8, 0.6, 0.4 / 3, 0.4 / 3, 0.4 / 3, 5, DOMINO_FLOAT64, &R));
    if (R) {
        check_levels(h, "rmat 12", R, DOMINO_LOWER);
        check_levels(h, "rmat 12", R, DOMINO_UPPER);
    }
    domino_matrix_free(R);
}

/* random rows: entries of both triangles in any order, duplicates, some
 * rows without a diagonal, 0 to 40 entries; orders around warp sizes */
static void test_unsorted(domino_handle h)
{
    static const int32_t orders[] = {1, 2, 31, 33, 64, 257, 5000};
    uint64_t seed = 12345;
    for (int k = 0; k < 7; k++) {
        int32_t n = orders[k];
        int64_t *ptr = malloc(((size_t)n + 1) * sizeof(int64_t)), nnz = 0;
        int32_t *ind = malloc((size_t)n * 41 * sizeof(int32_t));
        domino_matrix A = NULL;
        domino_matrix_view v;
        if (!ptr || !ind) {
            CHECK(!"out of memory");
            free(ptr);
            free(ind);
            return;
        }
        for (int32_t i = 0; i < n; i++) {
            ptr[i] = nnz;
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            int len = (int)((seed >> 33) % ((i % 97 == 5) ? 41 : 7));
            for (int t = 0; t < len; t++) {
                seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
                int32_t j = (int32_t)((seed >> 33) % (uint64_t)n);
                if ((seed >> 20) % 4 == 0 && i > 0) j = i - 1; /* links, often twice */
                ind[nnz++] = j;
            }
        }
        ptr[n] = nnz;
        CHECK_OK(h, domino_matrix_new(h, DOMINO_CSR, DOMINO_FLOAT64, n, n, nnz, &A));
        if (A) CHECK_OK(h, domino_matrix_get_view(h, A, &v));
        if (A) {
            memcpy(v.ptr, ptr, ((size_t)n + 1) * sizeof(int64_t));
            memcpy(v.ind, ind, (size_t)nnz * sizeof(int32_t));
            for (int64_t e = 0; e < nnz; e++) ((double *)v.val)[e] = 1.0;
            char name[64];
            snprintf(name, sizeof name, "random unsorted n=%d", n);
            check_levels(h, name, A, DOMINO_LOWER);
            check_levels(h, name, A, DOMINO_UPPER);
        }
        domino_matrix_free(A);
        free(ptr);
        free(ind);
    }
}

/* 3D stencils storing both triangles */
static void test_stencils(domino_handle h)
{
    static const domino_stencil st[] = {DOMINO_D3N7, DOMINO_D3N27, DOMINO_D3N13};
    for (int k = 0; k < 3; k++) {
        domino_matrix A = NULL;
        CHECK_OK(h, domino_gen_stencil(h, st[k], 40, 33, 21, DOMINO_PART_FULL, DOMINO_FLOAT64, &A));
        if (A) {
            check_levels(h, domino_stencil_name(st[k]), A, DOMINO_LOWER);
            check_levels(h, domino_stencil_name(st[k]), A, DOMINO_UPPER);
        }
        domino_matrix_free(A);
    }
}

/* misuse: NULL output, a CSC or non-square matrix, a bad fill */
static void test_bad_input(domino_handle h)
{
    domino_matrix A = NULL, C = NULL, R = NULL;
    domino_dmatrix dA = NULL, dC = NULL, dR = NULL;
    domino_levels *L = NULL;
    CHECK_OK(h, domino_gen_dag(h, 100, 3, 10, 0, 7, DOMINO_FLOAT64, &A));
    if (A) CHECK_OK(h, domino_matrix_convert(h, A, DOMINO_CSC, &C));
    if (A) CHECK_OK(h, domino_dmatrix_upload(h, A, &dA));
    if (C) CHECK_OK(h, domino_dmatrix_upload(h, C, &dC));
    CHECK_OK(h, domino_matrix_new(h, DOMINO_CSR, DOMINO_FLOAT64, 2, 3, 0, &R));
    if (R) CHECK_OK(h, domino_dmatrix_upload(h, R, &dR));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_dmatrix_levels(h, DOMINO_LOWER, dA, NULL));
    CHECK_STATUS(h, DOMINO_INVALID_OBJECT, domino_dmatrix_levels(h, DOMINO_LOWER, NULL, &L));
    CHECK(L == NULL);
    if (dC) CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_dmatrix_levels(h, DOMINO_LOWER, dC, &L));
    if (dR) CHECK_STATUS(h, DOMINO_DIMENSION_MISMATCH, domino_dmatrix_levels(h, DOMINO_LOWER, dR, &L));
    if (dA) CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_dmatrix_levels(h, (domino_fill)7, dA, &L));
    CHECK(L == NULL);
    domino_dmatrix_free(dR);
    domino_dmatrix_free(dC);
    domino_dmatrix_free(dA);
    domino_matrix_free(R);
    domino_matrix_free(C);
    domino_matrix_free(A);
}

int main(void)
{
    int64_t live = domino_debug_alloc_live();
    domino_handle h = NULL;
    CHECK_OK(NULL, domino_create(&h));
    if (domino_gpu_count() == 0) {
        printf("test_gpu_levels: no CUDA device on this machine: %d skipped (every test section)\n",
               SECTIONS);
        domino_destroy(h);
        return check_summary("test_gpu_levels");
    }
    test_bad_input(h);
    test_unsorted(h);
    test_generated(h);
    test_stencils(h);
    test_shared(h);
    domino_destroy(h);
    CHECK(domino_debug_alloc_live() == live);
    printf("test_gpu_levels: %d skipped\n", check_skipped);
    return check_summary("test_gpu_levels");
}
