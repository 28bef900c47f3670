/* ref_precond.c: apply a preconditioner z = M^{-1} r (Jacobi, ILU(0), IC(0))
 * for the CPU Krylov solvers; setup and free beside it */
#include "krylov_internal.h"

/* z = M^{-1} r.  ILU0: L y = r (unit lower), U z = y; IC0: L y = r,
 * L^T z = y; both through domino_ref_trsv on the stored factor. */
domino_status domino_ref_precond_apply(domino_handle h, krylov_precond *P, const double *r,
                                       double *z)
{
    int32_t n = P->n;
    domino_status s = DOMINO_SUCCESS;
    switch (P->kind) {
    case DOMINO_PRECOND_NONE:
        for (int32_t i = 0; i < n; i++)
            z[i] = r[i];
        break;
    case DOMINO_PRECOND_JACOBI:
        for (int32_t i = 0; i < n; i++)
            z[i] = P->inv_diag[i] * r[i];
        break;
    case DOMINO_PRECOND_ILU0:
        s = domino_ref_trsv(h, DOMINO_OP_N, DOMINO_LOWER, DOMINO_UNIT, P->factor, 1, r, n, P->work,
                            n);
        if (!s)
            s = domino_ref_trsv(h, DOMINO_OP_N, DOMINO_UPPER, DOMINO_NON_UNIT, P->factor, 1,
                                P->work, n, z, n);
        break;
    case DOMINO_PRECOND_IC0:
        s = domino_ref_trsv(h, DOMINO_OP_N, DOMINO_LOWER, DOMINO_NON_UNIT, P->factor, 1, r, n,
                            P->work, n);
        if (!s)
            s = domino_ref_trsv(h, DOMINO_OP_T, DOMINO_LOWER, DOMINO_NON_UNIT, P->factor, 1,
                                P->work, n, z, n);
        break;
    }
    return s;
}

/* inv_diag[i] = 1 / a_ii (duplicates summed); missing or zero diagonals fail */
static domino_status jacobi_setup(domino_handle h, const char *what, domino_matrix A,
                                  krylov_precond *P)
{
    int32_t n = A->nrows;
    P->inv_diag = domino_malloc(((size_t)n + 1) * sizeof(double));
    if (!P->inv_diag)
        return domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory (n = %d)", what, n);
    domino_status s = domino_ref_pivots(h, what, DOMINO_NON_UNIT, A, P->inv_diag);
    if (s) return s;
    for (int32_t i = 0; i < n; i++)
        P->inv_diag[i] = 1.0 / P->inv_diag[i];
    return DOMINO_SUCCESS;
}

/* S = A with every diagonal entry multiplied by 1 + shift (a copy) */
static domino_status shifted_copy(domino_handle h, domino_matrix A, double shift, domino_matrix *S)
{
    domino_status s = domino_matrix_copy(h, A, S);
    if (s) return s;
    domino_matrix M = *S;
    for (int32_t i = 0; i < domino_matrix_nptr(M); i++)
        for (int64_t k = M->ptr[i]; k < M->ptr[i + 1]; k++)
            if (M->ind[k] == i) domino_matrix_set_value(M, k, (1.0 + shift) * domino_matrix_value(M, k));
    return DOMINO_SUCCESS;
}

domino_status domino_ref_precond_setup(domino_handle h, const char *what, domino_matrix A,
                                       const domino_krylov_options *opt, krylov_precond *P)
{
    domino_precond_kind kind = opt->precond;
    double pivot_shift = opt->pivot_shift;
    domino_matrix shifted = NULL;
    *P = (krylov_precond){0};
    P->kind = kind;
    P->n = A->nrows;
    domino_status s = DOMINO_SUCCESS;
    if (kind == DOMINO_PRECOND_JACOBI) {
        s = jacobi_setup(h, what, A, P);
    } else if (kind == DOMINO_PRECOND_ILU0 || kind == DOMINO_PRECOND_IC0) {
        P->work = domino_malloc(((size_t)P->n + 1) * sizeof(double));
        if (!P->work)
            s = domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory (n = %d)", what, P->n);
        else if (opt->diag_shift > 0.0)
            s = shifted_copy(h, A, opt->diag_shift, &shifted);
        domino_matrix F = shifted ? shifted : A;
        if (s)
            ; /* reported above */
        else if (kind == DOMINO_PRECOND_ILU0)
            s = domino_ref_ilu0(h, F, pivot_shift, &P->factor, &P->pivots_replaced);
        else
            s = domino_ref_ic0(h, F, pivot_shift, &P->factor, &P->pivots_replaced);
    }
    domino_matrix_free(shifted);
    if (s) domino_ref_precond_free(P);
    return s;
}

void domino_ref_precond_free(krylov_precond *P)
{
    if (!P) return;
    domino_free(P->inv_diag);
    domino_free(P->work);
    domino_matrix_free(P->factor);
    P->inv_diag = NULL;
    P->work = NULL;
    P->factor = NULL;
}
