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

domino_status domino_ref_precond_setup(domino_handle h, const char *what, domino_matrix A,
                                       domino_precond_kind kind, double pivot_shift,
                                       krylov_precond *P)
{
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
        else if (kind == DOMINO_PRECOND_ILU0)
            s = domino_ref_ilu0(h, A, pivot_shift, &P->factor, &P->pivots_replaced);
        else
            s = domino_ref_ic0(h, A, pivot_shift, &P->factor, &P->pivots_replaced);
    }
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
