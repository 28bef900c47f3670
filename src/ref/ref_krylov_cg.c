/* ref_krylov_cg.c: preconditioned conjugate gradients on the CPU */
#include "krylov_internal.h"

/* 1 and res->breakdown set when a scalar the recurrence divides by is zero
 * or not finite */
static int broke_down(double divisor, domino_krylov_result *res)
{
    if (divisor != 0.0 && isfinite(divisor)) return 0;
    res->breakdown = 1;
    return 1;
}

/* Saad, Iterative Methods, 2nd ed., Alg. 9.1 (preconditioned CG), from x
 * on input; work holds 4n doubles; fills iterations, converged, history. */
static domino_status cg_iterate(domino_handle h, domino_matrix A, const double *b, double *x,
                                const domino_krylov_options *opt, krylov_precond *P, double *work,
                                domino_krylov_result *res)
{
    int32_t n = A->nrows;
    double *r = work, *z = r + n, *p = z + n, *q = p + n;
    double relative, norm_b = krylov_norm(n, b);
    domino_status s = domino_ref_krylov_residual(h, A, b, x, r, &relative);
    if (s) return s;
    double scale = norm_b > 0.0 ? norm_b : 1.0;
    res->history[0] = relative;
    if (relative <= opt->rtol) {
        res->converged = 1;
        return DOMINO_SUCCESS;
    }
    if ((s = domino_ref_precond_apply(h, P, r, z))) return s;
    for (int32_t i = 0; i < n; i++)
        p[i] = z[i];
    double rz = krylov_dot(n, r, z);
    if (broke_down(rz, res)) return DOMINO_SUCCESS;
    while (res->iterations < opt->maxit) {
        if ((s = domino_ref_spmv(h, DOMINO_OP_N, 1.0, A, p, 0.0, q))) return s;
        double pq = krylov_dot(n, p, q);
        if (broke_down(pq, res)) break;
        double alpha = rz / pq;
        krylov_axpy(n, alpha, p, x);
        krylov_axpy(n, -alpha, q, r);
        relative = krylov_norm(n, r) / scale;
        res->history[++res->iterations] = relative;
        if (relative <= opt->rtol) {
            res->converged = 1;
            break;
        }
        if ((s = domino_ref_precond_apply(h, P, r, z))) return s;
        double rz_next = krylov_dot(n, r, z);
        if (broke_down(rz_next, res)) break;
        double beta = rz_next / rz;
        rz = rz_next;
        for (int32_t i = 0; i < n; i++)
            p[i] = z[i] + beta * p[i];
    }
    return DOMINO_SUCCESS;
}

/* Preconditioned CG: see domino.h.  x: initial guess in, solution out. */
domino_status domino_ref_cg(domino_handle h, domino_matrix A, const double *b, double *x,
                            const domino_krylov_options *opt, domino_krylov_result *res)
{
    return domino_ref_krylov_run(h, "domino_ref_cg", A, b, x, opt, res, 4, cg_iterate);
}
