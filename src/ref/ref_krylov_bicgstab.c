/* ref_krylov_bicgstab.c: right-preconditioned BiCGSTAB on the CPU */
#include "krylov_internal.h"

/* the vectors of one BiCGSTAB run, each of n doubles, carved from one block */
typedef struct bicgstab_vectors {
    double *r, *r_hat, *p, *p_hat, *v, *s, *s_hat, *t;
} bicgstab_vectors;

static bicgstab_vectors carve(double *work, int32_t n)
{
    bicgstab_vectors w;
    w.r = work, w.r_hat = w.r + n, w.p = w.r_hat + n, w.p_hat = w.p + n;
    w.v = w.p_hat + n, w.s = w.v + n, w.s_hat = w.s + n, w.t = w.s_hat + n;
    return w;
}

/* 1 and res->breakdown set when a scalar is zero or not finite */
static int broke_down(double divisor, domino_krylov_result *res)
{
    if (divisor != 0.0 && isfinite(divisor)) return 0;
    res->breakdown = 1;
    return 1;
}

/* van der Vorst (1992) with right preconditioning, A M^{-1} u = b, x =
 * M^{-1} u: p_hat = M^{-1} p, s_hat = M^{-1} s, x += alpha p_hat + omega
 * s_hat.  work holds 8n doubles. */
static domino_status bicgstab_iterate(domino_handle h, domino_matrix A, const double *b, double *x,
                                      const domino_krylov_options *opt, krylov_precond *P,
                                      double *work, domino_krylov_result *res)
{
    int32_t n = A->nrows;
    bicgstab_vectors w = carve(work, n);
    double relative, norm_b = krylov_norm(n, b), scale = norm_b > 0.0 ? norm_b : 1.0;
    domino_status s = domino_ref_krylov_residual(h, A, b, x, w.r, &relative);
    if (s) return s;
    res->history[0] = relative;
    res->converged = relative <= opt->rtol;
    for (int32_t i = 0; i < n; i++)
        w.r_hat[i] = w.r[i], w.p[i] = 0.0, w.v[i] = 0.0;
    double rho = 1.0, alpha = 1.0, omega = 1.0;
    while (!res->converged && res->iterations < opt->maxit) {
        double rho_next = krylov_dot(n, w.r_hat, w.r);
        if (broke_down(rho_next, res)) break;
        double beta = (rho_next / rho) * (alpha / omega);
        rho = rho_next;
        for (int32_t i = 0; i < n; i++)
            w.p[i] = w.r[i] + beta * (w.p[i] - omega * w.v[i]);
        if ((s = domino_ref_precond_apply(h, P, w.p, w.p_hat))) return s;
        if ((s = domino_ref_spmv(h, DOMINO_OP_N, 1.0, A, w.p_hat, 0.0, w.v))) return s;
        double r_hat_v = krylov_dot(n, w.r_hat, w.v);
        if (broke_down(r_hat_v, res)) break;
        alpha = rho / r_hat_v;
        for (int32_t i = 0; i < n; i++)
            w.s[i] = w.r[i] - alpha * w.v[i];
        krylov_axpy(n, alpha, w.p_hat, x);
        relative = krylov_norm(n, w.s) / scale;
        if (relative <= opt->rtol) { /* half step suffices: r = s */
            res->history[++res->iterations] = relative;
            res->converged = 1;
            break;
        }
        if ((s = domino_ref_precond_apply(h, P, w.s, w.s_hat))) return s;
        if ((s = domino_ref_spmv(h, DOMINO_OP_N, 1.0, A, w.s_hat, 0.0, w.t))) return s;
        double tt = krylov_dot(n, w.t, w.t);
        if (broke_down(tt, res)) break;
        omega = krylov_dot(n, w.t, w.s) / tt;
        krylov_axpy(n, omega, w.s_hat, x);
        for (int32_t i = 0; i < n; i++)
            w.r[i] = w.s[i] - omega * w.t[i];
        relative = krylov_norm(n, w.r) / scale;
        res->history[++res->iterations] = relative;
        res->converged = relative <= opt->rtol;
        if (!res->converged && broke_down(omega, res)) break;
    }
    return DOMINO_SUCCESS;
}

/* Right-preconditioned BiCGSTAB: see domino.h.  x: initial guess in,
 * solution out. */
domino_status domino_ref_bicgstab(domino_handle h, domino_matrix A, const double *b, double *x,
                                  const domino_krylov_options *opt, domino_krylov_result *res)
{
    return domino_ref_krylov_run(h, "domino_ref_bicgstab", A, b, x, opt, res, 8, bicgstab_iterate);
}
