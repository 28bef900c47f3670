/* matrix_validate.c: check the structure (and optionally order, duplicates, diagonal, values) of a matrix */
#include "internal.h"

#include <math.h>

/* offsets: ptr[0] == 0, non-decreasing, ptr[np] == nnz; sets *bad_slice */
static domino_status check_offsets(domino_handle h, const struct domino_matrix_s *A,
                                   const char *slice, int64_t *bad_slice)
{
    int32_t np = domino_matrix_nptr(A);
    if (!A->ptr || (A->nnz > 0 && (!A->ind || !A->val))) {
        *bad_slice = 0;
        return domino_error(h, DOMINO_BAD_INPUT, "domino_matrix_validate: missing arrays");
    }
    if (A->ptr[0] != 0) {
        *bad_slice = 0;
        return domino_error(h, DOMINO_BAD_INPUT, "domino_matrix_validate: ptr[0] = %lld, not 0",
                            (long long)A->ptr[0]);
    }
    for (int32_t p = 0; p < np; p++) {
        if (A->ptr[p + 1] < A->ptr[p]) {
            *bad_slice = p;
            return domino_error(h, DOMINO_BAD_INPUT,
                                "domino_matrix_validate: %s %d: ptr decreases (%lld then %lld)",
                                slice, p, (long long)A->ptr[p], (long long)A->ptr[p + 1]);
        }
    }
    if (A->ptr[np] != A->nnz) {
        *bad_slice = np > 0 ? np - 1 : 0;
        return domino_error(h, DOMINO_BAD_INPUT,
                            "domino_matrix_validate: ptr[%d] = %lld but nnz = %lld", np,
                            (long long)A->ptr[np], (long long)A->nnz);
    }
    return DOMINO_SUCCESS;
}

/* the checks of one slice p; last_seen: per index, last slice holding it
 * (only with DOMINO_CHECK_NO_DUPLICATES) */
static domino_status check_slice(domino_handle h, const struct domino_matrix_s *A, int checks,
                                 const char *slice, int32_t p, int32_t *last_seen)
{
    int32_t nind = domino_matrix_nind(A);
    const char *other = A->format == DOMINO_CSR ? "column" : "row";
    double diagonal = 0.0;
    int has_diagonal = 0;
    for (int64_t k = A->ptr[p]; k < A->ptr[p + 1]; k++) {
        int32_t q = A->ind[k];
        if (q < 0 || q >= nind)
            return domino_error(h, DOMINO_BAD_INPUT,
                                "domino_matrix_validate: %s %d: %s index %d outside [0, %d)", slice,
                                p, other, q, nind);
        if ((checks & DOMINO_CHECK_SORTED) && k > A->ptr[p] && q < A->ind[k - 1])
            return domino_error(h, DOMINO_BAD_INPUT,
                                "domino_matrix_validate: %s %d: unsorted, %s %d after %d", slice,
                                p, other, q, A->ind[k - 1]);
        if (checks & DOMINO_CHECK_NO_DUPLICATES) {
            if (last_seen[q] == p)
                return domino_error(h, DOMINO_BAD_INPUT,
                                    "domino_matrix_validate: %s %d: %s %d appears twice", slice, p,
                                    other, q);
            last_seen[q] = p;
        }
        double v = domino_matrix_value(A, k);
        if ((checks & DOMINO_CHECK_FINITE) && !isfinite(v))
            return domino_error(h, DOMINO_BAD_INPUT,
                                "domino_matrix_validate: %s %d, %s %d: value %g is not finite",
                                slice, p, other, q, v);
        if (q == p) {
            has_diagonal = 1;
            diagonal += v;
        }
    }
    if ((checks & DOMINO_CHECK_DIAGONAL) && (!has_diagonal || diagonal == 0.0))
        return domino_error(h, DOMINO_ZERO_DIAGONAL, "domino_matrix_validate: %s %d: diagonal %s",
                            slice, p, has_diagonal ? "is zero" : "is missing");
    return DOMINO_SUCCESS;
}

/* Check A: always that it is live, ptr[0] == 0, ptr non-decreasing,
 * ptr[np] == nnz and every index in range; plus the DOMINO_CHECK_* flags
 * in `checks`.  Failures give DOMINO_BAD_INPUT (DOMINO_ZERO_DIAGONAL for a
 * missing or zero diagonal) with *bad_row (when not NULL) the first bad row
 * (column for CSC). */
domino_status domino_matrix_validate(domino_handle h, domino_matrix A, int checks,
                                     int64_t *bad_row)
{
    if (bad_row) *bad_row = -1;
    if (!domino_handle_ok(h))
        return domino_error(NULL, DOMINO_INVALID_OBJECT,
                            "domino_matrix_validate: h is not a live handle");
    domino_status s = domino_check_matrix(h, A, "domino_matrix_validate");
    if (s) return s;
    if (checks & ~DOMINO_CHECK_ALL)
        return domino_error(h, DOMINO_INVALID_VALUE, "domino_matrix_validate: bad checks 0x%x",
                            (unsigned)checks);
    const char *slice = A->format == DOMINO_CSR ? "row" : "column";
    int64_t bad = -1;
    int32_t *last_seen = NULL;
    s = check_offsets(h, A, slice, &bad);
    if (s) goto cleanup;
    if ((checks & DOMINO_CHECK_DIAGONAL) && A->nrows != A->ncols) {
        bad = A->nrows < A->ncols ? A->nrows : A->ncols;
        s = domino_error(h, DOMINO_BAD_INPUT,
                         "domino_matrix_validate: diagonal check on a %d x %d matrix (not square)",
                         A->nrows, A->ncols);
        goto cleanup;
    }
    int32_t nind = domino_matrix_nind(A);
    if (checks & DOMINO_CHECK_NO_DUPLICATES) {
        last_seen = domino_malloc(((size_t)nind + 1) * sizeof(int32_t));
        if (!last_seen) {
            s = domino_error(h, DOMINO_OUT_OF_MEMORY, "domino_matrix_validate: out of memory");
            goto cleanup;
        }
        for (int32_t q = 0; q < nind; q++) last_seen[q] = -1;
    }
    int32_t np = domino_matrix_nptr(A);
    for (int32_t p = 0; p < np; p++) {
        s = check_slice(h, A, checks, slice, p, last_seen);
        if (s) {
            bad = p;
            goto cleanup;
        }
    }
cleanup:
    domino_free(last_seen);
    if (s && bad_row) *bad_row = bad;
    return s;
}
