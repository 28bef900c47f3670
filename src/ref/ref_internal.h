/* ref_internal.h: helpers shared by the CPU reference (src/ref), never public */
#ifndef DOMINO_REF_INTERNAL_H
#define DOMINO_REF_INTERNAL_H

#include "internal.h"

/* How a solve with op(T) walks the storage of A.  Storage slice p (row p of
 * CSR, column p of CSC) holds entries with minor index j.  With
 * dot = (CSR) xor (op T) the slice p is row p of op(T) ("dot" form:
 * x_p = (b_p - sum_j T_pj x_j) / T_pp); otherwise it is column p of op(T)
 * ("axpy" form: once x_p is final, b_j -= T_jp x_p). */
typedef struct ref_walk {
    int dot;   /* 1: slices are rows of op(T); 0: slices are columns of op(T) */
    int lower; /* 1: op(T) is lower triangular (solve order 0..n-1), 0: upper */
} ref_walk;

static inline ref_walk ref_walk_of(domino_format format, domino_op op, domino_fill fill)
{
    ref_walk w;
    w.dot = (format == DOMINO_CSR) != (op == DOMINO_OP_T);
    w.lower = (fill == DOMINO_LOWER) != (op == DOMINO_OP_T);
    return w;
}

/* 1 if the entry at slice p, minor index j belongs to op(T) (diagonal included) */
static inline int ref_walk_in_triangle(ref_walk w, int32_t p, int32_t j)
{
    int32_t row = w.dot ? p : j, col = w.dot ? j : p; /* position in op(T) */
    return w.lower ? col <= row : col >= row;
}

/* the t-th row of op(T) in solve (topological) order */
static inline int32_t ref_walk_step(ref_walk w, int32_t t, int32_t n)
{
    return w.lower ? t : n - 1 - t;
}

/* value i of a dense vector of type t, as a double */
static inline double ref_get(const void *v, domino_type t, int64_t i)
{
    return t == DOMINO_FLOAT64 ? ((const double *)v)[i] : (double)((const float *)v)[i];
}

/* store x as value i of a dense vector of type t */
static inline void ref_set(void *v, domino_type t, int64_t i, double x)
{
    if (t == DOMINO_FLOAT64)
        ((double *)v)[i] = x;
    else
        ((float *)v)[i] = (float)x;
}

/* Check the arguments every triangular routine shares: a live handle and
 * matrix, valid op/fill/diag, A square and stored general.  `what` names the
 * calling function in messages.  Clears the last error first. */
domino_status domino_ref_check_triangle(domino_handle h, const char *what, domino_op op,
                                        domino_fill fill, domino_diag diag, domino_matrix A);
/* live handle (error cleared), live matrix A, op N or T */
domino_status domino_ref_check_op(domino_handle h, const char *what, domino_op op, domino_matrix A);
/* checks of the dense blocks of a solve: nrhs >= 1, B and X given when
 * n > 0, leading dimensions >= n */
domino_status domino_ref_check_blocks(domino_handle h, const char *what, int32_t n, int32_t nrhs,
                                      const void *B, int64_t ldb, const void *X, int64_t ldx);

/* pivot[i] = the diagonal of T at row i (stored duplicates summed in stored
 * order), or 1 for a unit diagonal.  Non-unit: the smallest row with no
 * stored diagonal gives DOMINO_ZERO_DIAGONAL, or with a zero sum
 * DOMINO_ZERO_PIVOT, whichever row comes first.  pivot has size n. */
domino_status domino_ref_pivots(domino_handle h, const char *what, domino_diag diag,
                                domino_matrix A, double *pivot);

#endif /* DOMINO_REF_INTERNAL_H */
