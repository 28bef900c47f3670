/* test_matrix.c: copy, convert, transpose, cast, triangle, symmetric expansion and validation */
#include "check.h"
#include "internal.h"

#include <string.h>

static domino_handle h;

/* CSR or CSC matrix from triplets; NULL (and a failed check) on error */
static domino_matrix coo(domino_format format, int32_t m, int32_t n, int64_t nnz,
                         const int32_t *rows, const int32_t *cols, const double *vals)
{
    domino_matrix A = NULL;
    CHECK_OK(h, domino_matrix_from_coo(h, format, DOMINO_FLOAT64, m, n, nnz, rows, cols, vals, &A));
    return A;
}

/* dense row-major copy of A (either format) into out[m*n] */
static void to_dense(domino_matrix A, double *out)
{
    memset(out, 0, (size_t)A->nrows * (size_t)A->ncols * sizeof(double));
    for (int32_t p = 0; p < domino_matrix_nptr(A); p++)
        for (int64_t k = A->ptr[p]; k < A->ptr[p + 1]; k++) {
            int32_t r = A->format == DOMINO_CSR ? p : A->ind[k];
            int32_t c = A->format == DOMINO_CSR ? A->ind[k] : p;
            out[(size_t)r * A->ncols + c] += domino_matrix_value(A, k);
        }
}

/* 1 if A and B have the same format, sizes, arrays and values */
static int same_matrix(domino_matrix A, domino_matrix B)
{
    if (!A || !B) return 0;
    if (A->format != B->format || A->nrows != B->nrows || A->ncols != B->ncols || A->nnz != B->nnz)
        return 0;
    for (int32_t p = 0; p <= domino_matrix_nptr(A); p++)
        if (A->ptr[p] != B->ptr[p]) return 0;
    for (int64_t k = 0; k < A->nnz; k++) {
        if (A->ind[k] != B->ind[k]) return 0;
        if (fabs(domino_matrix_value(A, k) - domino_matrix_value(B, k)) > 0) return 0;
    }
    return 1;
}

/* the dense matrix of A equals want[m*n] */
static void check_dense(domino_matrix A, const double *want)
{
    CHECK(A != NULL);
    if (!A) return;
    double got[64];
    to_dense(A, got);
    for (int32_t k = 0; k < A->nrows * A->ncols; k++)
        CHECK_NEAR(got[k], want[k], 4 * domino_type_eps(A->type) * (1 + fabs(want[k])));
}

/* the 3x3 example [1 2 0; 0 3 4; 5 0 6], entries given out of order */
static const int32_t ex_rows[] = {2, 0, 1, 0, 2, 1};
static const int32_t ex_cols[] = {2, 1, 2, 0, 0, 1};
static const double ex_vals[] = {6, 2, 4, 1, 5, 3};

static void test_copy_convert_transpose(void)
{
    domino_matrix A = coo(DOMINO_CSR, 3, 3, 6, ex_rows, ex_cols, ex_vals);
    domino_matrix C = NULL, Back = NULL, T = NULL, TT = NULL, Copy = NULL;
    int64_t ptr[] = {0, 2, 4, 6};
    int32_t ind_csr[] = {0, 1, 1, 2, 0, 2}, ind_csc[] = {0, 2, 0, 1, 1, 2};
    double val_csc[] = {1, 5, 2, 3, 4, 6};
    CHECK_OK(h, domino_matrix_copy(h, A, &Copy));
    CHECK(same_matrix(A, Copy));
    CHECK(Copy && Copy->val != A->val);
    CHECK(memcmp(A->ind, ind_csr, sizeof(ind_csr)) == 0);
    CHECK_OK(h, domino_matrix_convert(h, A, DOMINO_CSC, &C));
    CHECK(C && C->format == DOMINO_CSC && C->nnz == 6);
    if (C) {
        CHECK(memcmp(C->ptr, ptr, sizeof(ptr)) == 0);
        CHECK(memcmp(C->ind, ind_csc, sizeof(ind_csc)) == 0);
        for (int k = 0; k < 6; k++) CHECK(((double *)C->val)[k] == val_csc[k]);
    }
    CHECK_OK(h, domino_matrix_convert(h, C, DOMINO_CSR, &Back));
    CHECK(same_matrix(A, Back));
    /* A^T = [1 0 5; 2 3 0; 0 4 6]: the arrays of CSC(A) */
    CHECK_OK(h, domino_matrix_transpose(h, A, &T));
    double at[] = {1, 0, 5, 2, 3, 0, 0, 4, 6};
    check_dense(T, at);
    CHECK(T && T->format == DOMINO_CSR);
    CHECK_OK(h, domino_matrix_transpose(h, T, &TT));
    CHECK(same_matrix(A, TT));
    domino_matrix_free(T);
    T = NULL;
    /* transpose of a CSC matrix, and of a rectangular one */
    CHECK_OK(h, domino_matrix_transpose(h, C, &T));
    check_dense(T, at);
    CHECK(T && T->format == DOMINO_CSC);
    domino_matrix_free(T);
    int32_t rr[] = {0, 1, 1}, rc[] = {3, 0, 2};
    double rv[] = {7, 8, 9};
    domino_matrix R = coo(DOMINO_CSR, 2, 4, 3, rr, rc, rv), RT = NULL;
    CHECK_OK(h, domino_matrix_transpose(h, R, &RT));
    double rt[] = {0, 8, 0, 0, 0, 9, 7, 0};
    CHECK(RT && RT->nrows == 4 && RT->ncols == 2);
    if (RT && RT->nrows == 4) check_dense(RT, rt);
    domino_matrix_free(R);
    domino_matrix_free(RT);
    domino_matrix_free(A);
    domino_matrix_free(C);
    domino_matrix_free(Back);
    domino_matrix_free(TT);
    domino_matrix_free(Copy);
}

static void test_cast(void)
{
    domino_matrix A = coo(DOMINO_CSC, 3, 3, 6, ex_rows, ex_cols, ex_vals), F = NULL, D = NULL;
    CHECK_OK(h, domino_matrix_cast(h, A, DOMINO_FLOAT32, &F));
    CHECK(F && F->type == DOMINO_FLOAT32 && F->format == DOMINO_CSC);
    double a[] = {1, 2, 0, 0, 3, 4, 5, 0, 6};
    check_dense(F, a);
    CHECK_OK(h, domino_matrix_cast(h, F, DOMINO_FLOAT64, &D));
    CHECK(same_matrix(A, D));
    domino_matrix_free(A);
    domino_matrix_free(F);
    domino_matrix_free(D);
}

/* T = [2 -1 0 3; -4 0 5 0; 0 7 0 0; 1 -2 0 8]: (1,1) an explicit zero,
 * (2,2) missing */
static const int32_t t_rows[] = {0, 0, 0, 1, 1, 1, 2, 3, 3, 3};
static const int32_t t_cols[] = {0, 1, 3, 0, 1, 2, 1, 0, 1, 3};
static const double t_vals[] = {2, -1, 3, -4, 0, 5, 7, 1, -2, 8};

/* triangle of T in both formats equals want (dense 4x4) with nnz */
static void check_triangle(domino_fill fill, domino_diag_policy policy, const double *want,
                           int64_t nnz)
{
    for (int f = 0; f < 2; f++) {
        domino_format format = f ? DOMINO_CSC : DOMINO_CSR;
        domino_matrix A = coo(format, 4, 4, 10, t_rows, t_cols, t_vals), B = NULL;
        CHECK_OK(h, domino_matrix_triangle(h, A, fill, policy, &B));
        check_dense(B, want);
        CHECK(B && B->nnz == nnz && B->format == format && B->symmetry == DOMINO_GENERAL);
        CHECK_OK(h, domino_matrix_validate(h, B, DOMINO_CHECK_SORTED | DOMINO_CHECK_NO_DUPLICATES,
                                           NULL));
        domino_matrix_free(A);
        domino_matrix_free(B);
    }
}

static void test_triangle(void)
{
    double keep_lower[] = {2, 0, 0, 0, -4, 0, 0, 0, 0, 7, 0, 0, 1, -2, 0, 8};
    check_triangle(DOMINO_LOWER, DOMINO_DIAG_KEEP, keep_lower, 7);
    double ensure_lower[] = {2, 0, 0, 0, -4, 1, 0, 0, 0, 7, 1, 0, 1, -2, 0, 8};
    check_triangle(DOMINO_LOWER, DOMINO_DIAG_ENSURE, ensure_lower, 8);
    /* row sums of |off-diagonal| in the lower triangle: 0, 4, 7, 3 */
    double dominant_lower[] = {1, 0, 0, 0, -4, 5, 0, 0, 0, 7, 8, 0, 1, -2, 0, 4};
    check_triangle(DOMINO_LOWER, DOMINO_DIAG_DOMINANT, dominant_lower, 8);
    double drop_lower[] = {0, 0, 0, 0, -4, 0, 0, 0, 0, 7, 0, 0, 1, -2, 0, 0};
    check_triangle(DOMINO_LOWER, DOMINO_DIAG_DROP, drop_lower, 4);
    double keep_upper[] = {2, -1, 0, 3, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 8};
    check_triangle(DOMINO_UPPER, DOMINO_DIAG_KEEP, keep_upper, 6);
    double ensure_upper[] = {2, -1, 0, 3, 0, 1, 5, 0, 0, 0, 1, 0, 0, 0, 0, 8};
    check_triangle(DOMINO_UPPER, DOMINO_DIAG_ENSURE, ensure_upper, 7);
    /* upper row sums: 4, 5, 0, 0 */
    double dominant_upper[] = {5, -1, 0, 3, 0, 6, 5, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    check_triangle(DOMINO_UPPER, DOMINO_DIAG_DOMINANT, dominant_upper, 7);
    double drop_upper[] = {0, -1, 0, 3, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    check_triangle(DOMINO_UPPER, DOMINO_DIAG_DROP, drop_upper, 3);
    /* flags: a pattern input stays pattern unless DOMINANT */
    domino_matrix A = coo(DOMINO_CSR, 4, 4, 10, t_rows, t_cols, NULL), B = NULL;
    CHECK_OK(h, domino_matrix_set_kind(h, A, DOMINO_GENERAL, 1));
    CHECK_OK(h, domino_matrix_triangle(h, A, DOMINO_LOWER, DOMINO_DIAG_KEEP, &B));
    CHECK(B && B->is_pattern == 1);
    domino_matrix_free(B);
    CHECK_OK(h, domino_matrix_triangle(h, A, DOMINO_LOWER, DOMINO_DIAG_DOMINANT, &B));
    CHECK(B && B->is_pattern == 0);
    domino_matrix_free(B);
    domino_matrix_free(A);
}

static void test_symmetric_expand(void)
{
    /* symmetric, mostly lower with (0,2) stored in the upper triangle */
    int32_t sr[] = {0, 1, 2, 2, 0}, sc[] = {0, 0, 1, 2, 2};
    double sv[] = {4, 1, 2, 5, 3};
    double full[] = {4, 1, 3, 1, 0, 2, 3, 2, 5};
    /* skew: (1,0)=1, (2,0)=2 lower, (1,2)=3 upper */
    int32_t kr[] = {1, 2, 1}, kc[] = {0, 0, 2};
    double kv[] = {1, 2, 3};
    double skew[] = {0, -1, -2, 1, 0, 3, 2, -3, 0};
    for (int f = 0; f < 2; f++) {
        domino_format format = f ? DOMINO_CSC : DOMINO_CSR;
        domino_matrix S = coo(format, 3, 3, 5, sr, sc, sv), K = coo(format, 3, 3, 3, kr, kc, kv);
        domino_matrix B = NULL;
        CHECK_OK(h, domino_matrix_set_kind(h, S, DOMINO_SYMMETRIC, 0));
        CHECK_OK(h, domino_matrix_symmetric_expand(h, S, &B));
        check_dense(B, full);
        CHECK(B && B->nnz == 8 && B->symmetry == DOMINO_GENERAL && B->format == format);
        CHECK_OK(h, domino_matrix_validate(h, B, DOMINO_CHECK_SORTED | DOMINO_CHECK_NO_DUPLICATES,
                                           NULL));
        domino_matrix_free(B);
        /* the triangle of a symmetric matrix is that of its full matrix */
        CHECK_OK(h, domino_matrix_triangle(h, S, DOMINO_UPPER, DOMINO_DIAG_KEEP, &B));
        double upper[] = {4, 1, 3, 0, 0, 2, 0, 0, 5};
        check_dense(B, upper);
        domino_matrix_free(B);
        CHECK_OK(h, domino_matrix_set_kind(h, K, DOMINO_SKEW_SYMMETRIC, 0));
        CHECK_OK(h, domino_matrix_symmetric_expand(h, K, &B));
        check_dense(B, skew);
        CHECK(B && B->nnz == 6);
        domino_matrix_free(B);
        /* a general matrix is copied */
        CHECK_OK(h, domino_matrix_set_kind(h, K, DOMINO_GENERAL, 0));
        CHECK_OK(h, domino_matrix_symmetric_expand(h, K, &B));
        CHECK(same_matrix(K, B));
        domino_matrix_free(B);
        domino_matrix_free(S);
        domino_matrix_free(K);
    }
}

/* a fresh valid 4x4 CSR with full nonzero diagonal:
 * [4 1 0 0; 0 4 1 0; 1 0 4 1; 0 0 1 4] */
static domino_matrix valid_matrix(domino_format format)
{
    int32_t r[] = {0, 0, 1, 1, 2, 2, 2, 3, 3}, c[] = {0, 1, 1, 2, 0, 2, 3, 2, 3};
    double v[] = {4, 1, 4, 1, 1, 4, 1, 1, 4};
    return coo(format, 4, 4, 9, r, c, v);
}

/* validate A with checks: expect status want and bad row */
static void expect_invalid(domino_matrix A, int checks, domino_status want, int64_t row)
{
    int64_t bad = -7;
    CHECK_STATUS(h, want, domino_matrix_validate(h, A, checks, &bad));
    CHECK(bad == row);
    if (bad != row) fprintf(stderr, "  bad_row %lld, expected %lld\n", (long long)bad, (long long)row);
    CHECK(strlen(domino_last_error(h)) > 0);
}

static void test_validate(void)
{
    domino_matrix A = valid_matrix(DOMINO_CSR);
    CHECK_OK(h, domino_matrix_validate(h, A, DOMINO_CHECK_ALL, NULL));
    /* unsorted row 2: columns 0 2 3 -> 2 0 3 */
    A->ind[4] = 2;
    A->ind[5] = 0;
    CHECK_OK(h, domino_matrix_validate(h, A, 0, NULL));
    expect_invalid(A, DOMINO_CHECK_SORTED, DOMINO_BAD_INPUT, 2);
    domino_matrix_free(A);
    /* duplicate in row 1: columns 1 2 -> 1 1 */
    A = valid_matrix(DOMINO_CSR);
    A->ind[3] = 1;
    CHECK_OK(h, domino_matrix_validate(h, A, DOMINO_CHECK_SORTED, NULL));
    expect_invalid(A, DOMINO_CHECK_NO_DUPLICATES, DOMINO_BAD_INPUT, 1);
    expect_invalid(A, DOMINO_CHECK_ALL, DOMINO_BAD_INPUT, 1);
    /* an unsorted duplicate is caught too: row 2 as 3 0 3 */
    domino_matrix_free(A);
    A = valid_matrix(DOMINO_CSR);
    A->ind[4] = 3;
    A->ind[5] = 0;
    expect_invalid(A, DOMINO_CHECK_NO_DUPLICATES, DOMINO_BAD_INPUT, 2);
    domino_matrix_free(A);
    /* index out of range: always checked */
    A = valid_matrix(DOMINO_CSR);
    A->ind[8] = 4;
    expect_invalid(A, 0, DOMINO_BAD_INPUT, 3);
    A->ind[8] = -1;
    expect_invalid(A, 0, DOMINO_BAD_INPUT, 3);
    domino_matrix_free(A);
    /* bad offsets */
    A = valid_matrix(DOMINO_CSR);
    A->ptr[2] = 1; /* ptr 0 2 1 7 9: decreases after row 1 */
    expect_invalid(A, 0, DOMINO_BAD_INPUT, 1);
    A->ptr[2] = 4;
    A->ptr[0] = 1;
    expect_invalid(A, 0, DOMINO_BAD_INPUT, 0);
    A->ptr[0] = 0;
    A->ptr[4] = 8;
    expect_invalid(A, 0, DOMINO_BAD_INPUT, 3);
    A->ptr[4] = 9;
    CHECK_OK(h, domino_matrix_validate(h, A, DOMINO_CHECK_ALL, NULL));
    /* zero diagonal in row 1, then a NaN in row 3 */
    ((double *)A->val)[2] = 0.0;
    CHECK_OK(h, domino_matrix_validate(h, A, DOMINO_CHECK_SORTED | DOMINO_CHECK_FINITE, NULL));
    expect_invalid(A, DOMINO_CHECK_DIAGONAL, DOMINO_ZERO_DIAGONAL, 1);
    ((double *)A->val)[2] = 4.0;
    ((double *)A->val)[7] = NAN;
    CHECK_OK(h, domino_matrix_validate(h, A, DOMINO_CHECK_DIAGONAL, NULL));
    expect_invalid(A, DOMINO_CHECK_FINITE, DOMINO_BAD_INPUT, 3);
    ((double *)A->val)[7] = INFINITY;
    expect_invalid(A, DOMINO_CHECK_ALL, DOMINO_BAD_INPUT, 3);
    domino_matrix_free(A);
    /* missing diagonal: row 2 without (2,2), in CSR and (column 2) in CSC */
    int32_t r[] = {0, 1, 2, 3}, c[] = {0, 1, 0, 3};
    for (int f = 0; f < 2; f++) {
        A = coo(f ? DOMINO_CSC : DOMINO_CSR, 4, 4, 4, r, c, NULL);
        CHECK_OK(h, domino_matrix_validate(h, A, DOMINO_CHECK_SORTED | DOMINO_CHECK_NO_DUPLICATES |
                                                     DOMINO_CHECK_FINITE,
                                           NULL));
        expect_invalid(A, DOMINO_CHECK_DIAGONAL, DOMINO_ZERO_DIAGONAL, 2);
        domino_matrix_free(A);
    }
    /* a diagonal check on a rectangular matrix */
    int32_t rr[] = {0, 1}, rc[] = {0, 1};
    A = coo(DOMINO_CSR, 2, 3, 2, rr, rc, NULL);
    CHECK_OK(h, domino_matrix_validate(h, A, DOMINO_CHECK_SORTED, NULL));
    CHECK_STATUS(h, DOMINO_BAD_INPUT, domino_matrix_validate(h, A, DOMINO_CHECK_DIAGONAL, NULL));
    domino_matrix_free(A);
}

/* run op with the k-th allocation failing, k = 1, 2, ... until it succeeds;
 * every failure must be OUT_OF_MEMORY with no output and no leak */
typedef domino_status (*matrix_op)(domino_matrix A, domino_matrix *B);
static domino_status op_convert(domino_matrix A, domino_matrix *B)
{
    return domino_matrix_convert(h, A, DOMINO_CSC, B);
}
static domino_status op_transpose(domino_matrix A, domino_matrix *B)
{
    return domino_matrix_transpose(h, A, B);
}
static domino_status op_cast(domino_matrix A, domino_matrix *B)
{
    return domino_matrix_cast(h, A, DOMINO_FLOAT32, B);
}
static domino_status op_triangle_dominant(domino_matrix A, domino_matrix *B)
{
    return domino_matrix_triangle(h, A, DOMINO_UPPER, DOMINO_DIAG_DOMINANT, B);
}
static domino_status op_expand(domino_matrix A, domino_matrix *B)
{
    return domino_matrix_symmetric_expand(h, A, B);
}
static domino_status op_validate(domino_matrix A, domino_matrix *B)
{
    *B = NULL;
    return domino_matrix_validate(h, A, DOMINO_CHECK_ALL & ~DOMINO_CHECK_DIAGONAL, NULL);
}

static void failure_loop(const char *name, matrix_op op, domino_matrix A)
{
    int64_t live = domino_debug_alloc_live();
    int succeeded = 0, failures = 0;
    for (int64_t k = 1; k <= 100 && !succeeded; k++) {
        domino_matrix B = (domino_matrix)1;
        domino_debug_fail_alloc_after(k);
        domino_status s = op(A, &B);
        domino_debug_fail_alloc_after(0);
        CHECK(s == DOMINO_SUCCESS || s == DOMINO_OUT_OF_MEMORY);
        if (s == DOMINO_SUCCESS) {
            succeeded = 1;
            domino_matrix_free(B);
        } else {
            failures++;
            CHECK(B == NULL);
        }
        CHECK(domino_debug_alloc_live() == live);
    }
    CHECK(succeeded);
    CHECK(failures >= 1);
    if (!succeeded || failures < 1) fprintf(stderr, "  in failure loop of %s\n", name);
}

static void test_allocation_failures(void)
{
    domino_matrix A = coo(DOMINO_CSR, 4, 4, 10, t_rows, t_cols, t_vals);
    domino_matrix S = coo(DOMINO_CSC, 4, 4, 10, t_rows, t_cols, t_vals);
    CHECK_OK(h, domino_matrix_set_kind(h, S, DOMINO_SYMMETRIC, 0));
    failure_loop("convert", op_convert, A);
    failure_loop("transpose", op_transpose, A);
    failure_loop("cast", op_cast, A);
    failure_loop("triangle", op_triangle_dominant, A);
    failure_loop("triangle of symmetric", op_triangle_dominant, S);
    failure_loop("expand", op_expand, S);
    failure_loop("validate", op_validate, A);
    domino_matrix_free(A);
    domino_matrix_free(S);
}

static void test_misuse(void)
{
    domino_matrix A = valid_matrix(DOMINO_CSR), B = (domino_matrix)1;
    struct domino_matrix_s dead;
    memset(&dead, 0, sizeof(dead));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_matrix_copy(h, A, NULL));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_matrix_copy(h, NULL, &B));
    CHECK(B == NULL);
    CHECK_STATUS(h, DOMINO_INVALID_OBJECT, domino_matrix_copy(h, &dead, &B));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_matrix_convert(h, NULL, DOMINO_CSC, &B));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_matrix_convert(h, A, (domino_format)7, &B));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_matrix_transpose(h, A, NULL));
    CHECK_STATUS(h, DOMINO_INVALID_OBJECT, domino_matrix_transpose(h, &dead, &B));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_matrix_cast(h, A, (domino_type)5, &B));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_matrix_cast(h, NULL, DOMINO_FLOAT32, &B));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE,
                 domino_matrix_triangle(h, A, (domino_fill)3, DOMINO_DIAG_KEEP, &B));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE,
                 domino_matrix_triangle(h, A, DOMINO_LOWER, (domino_diag_policy)9, &B));
    CHECK_STATUS(h, DOMINO_NULL_POINTER,
                 domino_matrix_triangle(h, NULL, DOMINO_LOWER, DOMINO_DIAG_KEEP, &B));
    CHECK(B == NULL);
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_matrix_symmetric_expand(h, NULL, &B));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_matrix_symmetric_expand(h, A, NULL));
    CHECK_STATUS(h, DOMINO_NULL_POINTER, domino_matrix_validate(h, NULL, 0, NULL));
    CHECK_STATUS(h, DOMINO_INVALID_OBJECT, domino_matrix_validate(h, &dead, 0, NULL));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, domino_matrix_validate(h, A, 64, NULL));
    int32_t rr[] = {0, 1}, rc[] = {0, 1};
    domino_matrix R = coo(DOMINO_CSR, 2, 3, 2, rr, rc, NULL);
    CHECK_STATUS(h, DOMINO_DIMENSION_MISMATCH,
                 domino_matrix_triangle(h, R, DOMINO_LOWER, DOMINO_DIAG_KEEP, &B));
    CHECK_OK(h, domino_matrix_set_kind(h, R, DOMINO_SYMMETRIC, 0));
    CHECK_STATUS(h, DOMINO_BAD_INPUT, domino_matrix_symmetric_expand(h, R, &B));
    CHECK(B == NULL);
    CHECK(domino_status_is_misuse(DOMINO_NULL_POINTER));
    /* the NULL handle works too */
    CHECK_OK(NULL, domino_matrix_copy(NULL, A, &B));
    domino_matrix_free(B);
    domino_matrix_free(R);
    domino_matrix_free(A);
}

int main(void)
{
    if (domino_create(&h)) return 1;
    int64_t live = domino_debug_alloc_live();
    test_copy_convert_transpose();
    test_cast();
    test_triangle();
    test_symmetric_expand();
    test_validate();
    test_allocation_failures();
    test_misuse();
    CHECK(domino_debug_alloc_live() == live);
    domino_destroy(h);
    return check_summary("test_matrix");
}
