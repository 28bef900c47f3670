/* krylov_gpu.c: preconditioned CG and BiCGSTAB on the GPU (cusparseSpMV,
 * cuBLAS vector operations, Jacobi / ILU(0) / IC(0) preconditioners whose
 * factorization and triangular solves run on the device).  The iterations
 * mirror src/ref/ref_krylov_cg.c and ref_krylov_bicgstab.c step by step. */
#include "factor_plan.h"

#include <cublas_v2.h>
#include <math.h>
#include <string.h>

/* from this many rows on, AUTO runs the preconditioner's solves with the
 * LEVELSET engine (see factor_setup) */
#define PRECOND_LEVELSET_MIN_ROWS 65536

/* a preconditioner M ready to apply z = M^{-1} r on the device */
typedef struct gpu_precond {
    domino_precond_kind kind;    /* which M */
    double *inv_diag;            /* JACOBI: 1 / a_ii */
    double *shifted;             /* values of A + diag_shift diag(A), or NULL */
    int32_t *bad_row;            /* JACOBI setup report */
    domino_factor_plan factor;   /* ILU0 / IC0 */
    domino_trsv_plan first;      /* L (unit for ILU0) */
    domino_trsv_plan second;     /* U (ILU0) or L^T (IC0) */
    double *work;                /* between the two solves, n */
} gpu_precond;

/* the state of one GPU Krylov solve */
typedef struct gpu_krylov {
    domino_handle h;
    struct domino_gpu_context *gpu;
    domino_dmatrix A;
    int32_t n;
    cublasHandle_t blas;
    cusparseSpMatDescr_t mat;    /* A with 32-bit offsets */
    cusparseDnVecDescr_t vx, vy; /* SpMV operands, pointers set per call */
    int32_t *ptr32;              /* A's offsets narrowed */
    void *spmv_buffer;           /* cusparseSpMV workspace */
    double *vec;                 /* the method's vectors, then b, x, r */
    double *b, *x, *r;           /* right-hand side, iterate, residual work */
    gpu_precond P;               /* the preconditioner */
    domino_krylov_options opt;   /* in use */
    domino_gpu_krylov_options gopt;
} gpu_krylov;

typedef domino_status (*gpu_iterate_fn)(gpu_krylov *K, double *w, domino_krylov_result *res);

/* ---------------------------------------------------------- primitives */

static domino_status blas_status(gpu_krylov *K, cublasStatus_t cs, const char *what)
{
    if (cs == CUBLAS_STATUS_SUCCESS) return DOMINO_SUCCESS;
    if (cs == CUBLAS_STATUS_ALLOC_FAILED)
        return domino_error(K->h, DOMINO_OUT_OF_MEMORY, "%s: cuBLAS out of memory", what);
    return domino_error(K->h, DOMINO_DEVICE_ERROR, "%s: cuBLAS error %d", what, (int)cs);
}

static domino_status dot(gpu_krylov *K, const double *x, const double *y, double *out)
{
    return blas_status(K, cublasDdot(K->blas, K->n, x, 1, y, 1, out), "GPU Krylov (dot)");
}

static domino_status nrm2(gpu_krylov *K, const double *x, double *out)
{
    return blas_status(K, cublasDnrm2(K->blas, K->n, x, 1, out), "GPU Krylov (nrm2)");
}

/* y += alpha x */
static domino_status axpy(gpu_krylov *K, double alpha, const double *x, double *y)
{
    return blas_status(K, cublasDaxpy(K->blas, K->n, &alpha, x, 1, y, 1), "GPU Krylov (axpy)");
}

static domino_status cuda(gpu_krylov *K, cudaError_t e, const char *what)
{
    return domino_cuda_status(K->h, e, what);
}

/* y = alpha A x + beta y */
static domino_status spmv(gpu_krylov *K, double alpha, const double *x, double beta, double *y)
{
    cusparseStatus_t cs = cusparseDnVecSetValues(K->vx, (void *)x);
    if (!cs) cs = cusparseDnVecSetValues(K->vy, y);
    if (!cs)
        cs = cusparseSpMV(K->gpu->cusparse, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, K->mat, K->vx,
                          &beta, K->vy, CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, K->spmv_buffer);
    return domino_cusparse_status(K->h, cs, "GPU Krylov (SpMV)");
}

/* z = M^{-1} r (z does not alias r) */
static domino_status precond_apply(gpu_krylov *K, const double *r, double *z)
{
    gpu_precond *P = &K->P;
    cudaStream_t st = K->gpu->stream;
    domino_status s;
    switch (P->kind) {
    case DOMINO_PRECOND_JACOBI:
        return cuda(K, domino_launch_vmul(st, K->n, P->inv_diag, r, z), "GPU Krylov (Jacobi)");
    case DOMINO_PRECOND_ILU0:
    case DOMINO_PRECOND_IC0:
        s = domino_trsv_solve(K->h, P->first, r, K->n, P->work, K->n, 0);
        if (!s) s = domino_trsv_solve(K->h, P->second, P->work, K->n, z, K->n, 0);
        return s;
    default:
        return cuda(K, cudaMemcpyAsync(z, r, (size_t)K->n * sizeof(double), cudaMemcpyDeviceToDevice, st),
                    "GPU Krylov (copy)");
    }
}

/* ||b - A x|| / ||b|| (||b - A x|| when b = 0) into *relative; *norm_b */
static domino_status residual(gpu_krylov *K, const double *b, const double *x, double *r,
                              double *relative, double *norm_b)
{
    domino_status s = cuda(K, cudaMemcpyAsync(r, b, (size_t)K->n * sizeof(double),
                                              cudaMemcpyDeviceToDevice, K->gpu->stream),
                           "GPU Krylov (residual)");
    double norm_r = 0.0;
    if (!s) s = spmv(K, -1.0, x, 1.0, r);
    if (!s) s = nrm2(K, b, norm_b);
    if (!s) s = nrm2(K, r, &norm_r);
    if (!s) *relative = *norm_b > 0.0 ? norm_r / *norm_b : norm_r;
    return s;
}

/* 1 and res->breakdown set when a scalar is zero or not finite */
static int broke_down(double divisor, domino_krylov_result *res)
{
    if (divisor != 0.0 && isfinite(divisor)) return 0;
    res->breakdown = 1;
    return 1;
}

/* ---------------------------------------------------------- iterations */

/* Saad Alg. 9.1 as domino_ref_cg; w holds 4n doubles (r, z, p, q) */
static domino_status cg_iterate(gpu_krylov *K, double *w, domino_krylov_result *res)
{
    int32_t n = K->n;
    double *r = w, *z = r + n, *p = z + n, *q = p + n, *x = K->x;
    cudaStream_t st = K->gpu->stream;
    double relative, norm_b, rz, pq, rz_next, norm_r;
    domino_status s = residual(K, K->b, x, r, &relative, &norm_b);
    if (s) return s;
    double scale = norm_b > 0.0 ? norm_b : 1.0;
    res->history[0] = relative;
    if (relative <= K->opt.rtol) {
        res->converged = 1;
        return DOMINO_SUCCESS;
    }
    if ((s = precond_apply(K, r, z)) ||
        (s = cuda(K, cudaMemcpyAsync(p, z, (size_t)n * sizeof(double), cudaMemcpyDeviceToDevice, st),
                  "GPU CG")) ||
        (s = dot(K, r, z, &rz)))
        return s;
    if (broke_down(rz, res)) return DOMINO_SUCCESS;
    while (res->iterations < K->opt.maxit) {
        if ((s = spmv(K, 1.0, p, 0.0, q)) || (s = dot(K, p, q, &pq))) return s;
        if (broke_down(pq, res)) break;
        double alpha = rz / pq;
        if ((s = axpy(K, alpha, p, x)) || (s = axpy(K, -alpha, q, r)) || (s = nrm2(K, r, &norm_r)))
            return s;
        relative = norm_r / scale;
        res->history[++res->iterations] = relative;
        if (relative <= K->opt.rtol) {
            res->converged = 1;
            break;
        }
        if ((s = precond_apply(K, r, z)) || (s = dot(K, r, z, &rz_next))) return s;
        if (broke_down(rz_next, res)) break;
        double beta = rz_next / rz;
        rz = rz_next;
        if ((s = cuda(K, domino_launch_xpby(st, n, z, beta, p), "GPU CG"))) return s;
    }
    return DOMINO_SUCCESS;
}

/* van der Vorst with right preconditioning, as domino_ref_bicgstab; w
 * holds 8n doubles (r, r_hat, p, p_hat, v, s, s_hat, t) */
static domino_status bicgstab_iterate(gpu_krylov *K, double *w, domino_krylov_result *res)
{
    int32_t n = K->n;
    double *r = w, *r_hat = r + n, *p = r_hat + n, *p_hat = p + n, *v = p_hat + n;
    double *sv = v + n, *s_hat = sv + n, *t = s_hat + n, *x = K->x;
    cudaStream_t st = K->gpu->stream;
    size_t bytes = (size_t)n * sizeof(double);
    double relative, norm_b, norm;
    domino_status s = residual(K, K->b, x, r, &relative, &norm_b);
    if (s) return s;
    double scale = norm_b > 0.0 ? norm_b : 1.0;
    res->history[0] = relative;
    res->converged = relative <= K->opt.rtol;
    if ((s = cuda(K, cudaMemcpyAsync(r_hat, r, bytes, cudaMemcpyDeviceToDevice, st), "GPU BiCGSTAB")) ||
        (s = cuda(K, cudaMemsetAsync(p, 0, bytes, st), "GPU BiCGSTAB")) ||
        (s = cuda(K, cudaMemsetAsync(v, 0, bytes, st), "GPU BiCGSTAB")))
        return s;
    double rho = 1.0, alpha = 1.0, omega = 1.0, rho_next, r_hat_v, tt, ts;
    while (!res->converged && res->iterations < K->opt.maxit) {
        if ((s = dot(K, r_hat, r, &rho_next))) return s;
        if (broke_down(rho_next, res)) break;
        double beta = (rho_next / rho) * (alpha / omega);
        rho = rho_next;
        if ((s = cuda(K, domino_launch_bicgstab_p(st, n, r, beta, omega, v, p), "GPU BiCGSTAB")) ||
            (s = precond_apply(K, p, p_hat)) || (s = spmv(K, 1.0, p_hat, 0.0, v)) ||
            (s = dot(K, r_hat, v, &r_hat_v)))
            return s;
        if (broke_down(r_hat_v, res)) break;
        alpha = rho / r_hat_v;
        if ((s = cuda(K, domino_launch_xmay(st, n, r, alpha, v, sv), "GPU BiCGSTAB")) ||
            (s = axpy(K, alpha, p_hat, x)) || (s = nrm2(K, sv, &norm)))
            return s;
        relative = norm / scale;
        if (relative <= K->opt.rtol) { /* half step suffices: r = s */
            res->history[++res->iterations] = relative;
            res->converged = 1;
            break;
        }
        if ((s = precond_apply(K, sv, s_hat)) || (s = spmv(K, 1.0, s_hat, 0.0, t)) ||
            (s = dot(K, t, t, &tt)))
            return s;
        if (broke_down(tt, res)) break;
        if ((s = dot(K, t, sv, &ts))) return s;
        omega = ts / tt;
        if ((s = axpy(K, omega, s_hat, x)) ||
            (s = cuda(K, domino_launch_xmay(st, n, sv, omega, t, r), "GPU BiCGSTAB")) ||
            (s = nrm2(K, r, &norm)))
            return s;
        relative = norm / scale;
        res->history[++res->iterations] = relative;
        res->converged = relative <= K->opt.rtol;
        if (!res->converged && broke_down(omega, res)) break;
    }
    return DOMINO_SUCCESS;
}

/* ---------------------------------------------------------- setup */

/* Jacobi: inv_diag = 1 / diag(A); a missing or zero diagonal fails */
static domino_status jacobi_setup(gpu_krylov *K, const char *what)
{
    gpu_precond *P = &K->P;
    cudaStream_t st = K->gpu->stream;
    int32_t bad = INT32_MAX;
    domino_status s;
    if ((s = cuda(K, cudaMalloc((void **)&P->inv_diag, ((size_t)K->n + 1) * sizeof(double)), what)) ||
        (s = cuda(K, cudaMalloc((void **)&P->bad_row, sizeof(int32_t)), what)) ||
        (s = cuda(K, cudaMemcpyAsync(P->bad_row, &bad, sizeof(bad), cudaMemcpyHostToDevice, st), what)) ||
        (s = cuda(K, domino_launch_inverse_diagonal(st, K->n, K->A->ptr, K->A->ind, K->A->val,
                                                    P->inv_diag, P->bad_row), what)) ||
        (s = cuda(K, cudaMemcpyAsync(&bad, P->bad_row, sizeof(bad), cudaMemcpyDeviceToHost, st), what)) ||
        (s = cuda(K, cudaStreamSynchronize(st), what)))
        return s;
    if (bad != INT32_MAX)
        return domino_error(K->h, DOMINO_ZERO_PIVOT, "%s: Jacobi: zero or missing diagonal at row %d",
                            what, bad);
    return DOMINO_SUCCESS;
}

/* ILU0 / IC0: factor (of A + diag_shift diag(A)), then the two trsv plans */

/* The trsv plan of one factor solve.  AUTO: the trsv AUTO choice, which
 * takes the structured-grid engine when the factor is a stencil (ILU(0) of
 * a stencil matrix keeps its pattern); otherwise on large systems the
 * level-ordered synchronization-free engine (on 3D grids the natural-order
 * engines see only about one row per grid line in flight: H100, D3N7 192^3
 * CG + IC0 0.14 s levelset against 3.0 s thread), the trsv AUTO choice on
 * small ones, where it measured faster (bcsstk13 CG + IC0 43 ms against
 * 147 ms). */
static domino_status factor_trsv_plan(gpu_krylov *K, domino_op op, domino_fill fill,
                                      domino_diag diag, domino_dmatrix F,
                                      const domino_trsv_options *to, domino_trsv_plan *plan)
{
    domino_status s = domino_trsv_analysis(K->h, op, fill, diag, F, 1, to, NULL, plan);
    if (s || to->engine != DOMINO_ENGINE_AUTO || K->n < PRECOND_LEVELSET_MIN_ROWS ||
        domino_trsv_plan_engine(*plan) == DOMINO_ENGINE_STENCIL)
        return s;
    domino_trsv_options level = *to;
    level.engine = DOMINO_ENGINE_LEVELSET;
    domino_trsv_plan_free(*plan);
    *plan = NULL;
    return domino_trsv_analysis(K->h, op, fill, diag, F, 1, &level, NULL, plan);
}

static domino_status factor_setup(gpu_krylov *K, const char *what, domino_krylov_result *res,
                                  domino_gpu_krylov_times *times)
{
    gpu_precond *P = &K->P;
    cudaStream_t st = K->gpu->stream;
    int ic0 = P->kind == DOMINO_PRECOND_IC0;
    domino_status s;
    double t0 = domino_wtime();
    if (K->opt.diag_shift > 0.0) {
        size_t bytes = (size_t)K->A->nnz * sizeof(double);
        if ((s = cuda(K, cudaMalloc((void **)&P->shifted, bytes + 8), what)) ||
            (s = cuda(K, cudaMemcpyAsync(P->shifted, K->A->val, bytes, cudaMemcpyDeviceToDevice, st), what)) ||
            (s = cuda(K, domino_launch_scale_diagonal(st, K->n, K->A->ptr, K->A->ind, P->shifted,
                                                      1.0 + K->opt.diag_shift), what)))
            return s;
    }
    domino_factor_options fo;
    domino_factor_options_init(&fo);
    fo.pivot_shift = K->opt.pivot_shift;
    fo.use_cusparse = K->gopt.baseline_cusparse;
    s = domino_factor_analysis(K->h, ic0 ? DOMINO_FACTOR_IC0 : DOMINO_FACTOR_ILU0, K->A, &fo, &P->factor);
    if (s) return s;
    double t1 = domino_wtime();
    if ((s = domino_factor_compute(K->h, P->factor, P->shifted, &res->pivots_replaced))) return s;
    double t2 = domino_wtime();
    domino_dmatrix F = NULL;
    domino_trsv_options to;
    domino_trsv_options_init(&to);
    to.engine = K->gopt.baseline_cusparse ? DOMINO_ENGINE_CUSPARSE : K->gopt.engine;
    to.deterministic = !K->gopt.baseline_cusparse && K->gopt.deterministic;
    if ((s = domino_factor_get(K->h, P->factor, 0, &F)) ||
        (s = cuda(K, cudaMalloc((void **)&P->work, ((size_t)K->n + 1) * sizeof(double)), what)) ||
        (s = factor_trsv_plan(K, DOMINO_OP_N, DOMINO_LOWER, ic0 ? DOMINO_NON_UNIT : DOMINO_UNIT, F,
                              &to, &P->first)) ||
        (s = factor_trsv_plan(K, ic0 ? DOMINO_OP_T : DOMINO_OP_N, ic0 ? DOMINO_LOWER : DOMINO_UPPER,
                              DOMINO_NON_UNIT, F, &to, &P->second)))
        return s;
    times->factor_analysis_seconds = t1 - t0;
    times->factor_seconds = t2 - t1;
    times->trsv_analysis_seconds = domino_wtime() - t2;
    times->factor_method = domino_factor_plan_method(P->factor);
    return DOMINO_SUCCESS;
}

static void precond_free(gpu_precond *P)
{
    domino_trsv_plan_free(P->first);
    domino_trsv_plan_free(P->second);
    domino_factor_plan_free(P->factor);
    cudaFree(P->inv_diag);
    cudaFree(P->shifted);
    cudaFree(P->bad_row);
    cudaFree(P->work);
}

/* cuBLAS, the SpMV descriptors and workspace, the vectors */
static domino_status solver_setup(gpu_krylov *K, int work_vectors, const char *what)
{
    int32_t n = K->n;
    cudaStream_t st = K->gpu->stream;
    domino_status s;
    if ((s = blas_status(K, cublasCreate(&K->blas), what)) ||
        (s = blas_status(K, cublasSetStream(K->blas, st), what)) ||
        (s = cuda(K, cudaMalloc((void **)&K->vec, ((size_t)work_vectors + 3) * (size_t)n * sizeof(double) + 8), what)) ||
        (s = cuda(K, cudaMalloc((void **)&K->ptr32, ((size_t)n + 1) * sizeof(int32_t)), what)) ||
        (s = cuda(K, domino_launch_offsets_to_int32(st, n + 1, K->A->ptr, K->ptr32), what)))
        return s;
    K->b = K->vec + (size_t)work_vectors * n;
    K->x = K->b + n;
    K->r = K->x + n;
    double one = 1.0, zero = 0.0;
    size_t bytes = 0;
    cusparseStatus_t cs = cusparseCreateCsr(&K->mat, n, n, K->A->nnz, K->ptr32, K->A->ind, K->A->val,
                                            CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                            CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F);
    if (!cs) cs = cusparseCreateDnVec(&K->vx, n, K->x, CUDA_R_64F);
    if (!cs) cs = cusparseCreateDnVec(&K->vy, n, K->r, CUDA_R_64F);
    if (!cs) cs = cusparseSpMV_bufferSize(K->gpu->cusparse, CUSPARSE_OPERATION_NON_TRANSPOSE, &one,
                                          K->mat, K->vx, &zero, K->vy, CUDA_R_64F,
                                          CUSPARSE_SPMV_ALG_DEFAULT, &bytes);
    if (cs) return domino_cusparse_status(K->h, cs, what);
    return cuda(K, cudaMalloc(&K->spmv_buffer, bytes + 16), what);
}

static void solver_free(gpu_krylov *K)
{
    precond_free(&K->P);
    if (K->vx) cusparseDestroyDnVec(K->vx);
    if (K->vy) cusparseDestroyDnVec(K->vy);
    if (K->mat) cusparseDestroySpMat(K->mat);
    if (K->blas) cublasDestroy(K->blas);
    cudaFree(K->spmv_buffer);
    cudaFree(K->ptr32);
    cudaFree(K->vec);
}

/* argument checks shared by CG and BiCGSTAB (as domino_ref_krylov_check) */
static domino_status check_args(gpu_krylov *K, const char *what, const double *b, const double *x,
                                const domino_gpu_krylov_options *opt, domino_krylov_result *res)
{
    domino_handle h = K->h;
    if (!res) return domino_error(h, DOMINO_NULL_POINTER, "%s: res is NULL", what);
    *res = (domino_krylov_result){0};
    domino_dmatrix A = K->A;
    if (!A) return domino_error(h, DOMINO_NULL_POINTER, "%s: A is NULL", what);
    if (A->magic != DOMINO_DMATRIX_MAGIC)
        return domino_error(h, DOMINO_INVALID_OBJECT, "%s: A is not a live device matrix", what);
    if (A->nrows != A->ncols)
        return domino_error(h, DOMINO_DIMENSION_MISMATCH, "%s: matrix is %d x %d, not square", what,
                            A->nrows, A->ncols);
    if (A->type != DOMINO_FLOAT64)
        return domino_error(h, DOMINO_NOT_SUPPORTED, "%s: only double (FLOAT64) matrices are supported for now", what);
    if (A->format != DOMINO_CSR) return domino_error(h, DOMINO_INVALID_VALUE, "%s: A must be CSR", what);
    if (A->nnz >= INT32_MAX) return domino_error(h, DOMINO_NOT_SUPPORTED, "%s: needs nnz < 2^31", what);
    if (!b || !x) return domino_error(h, DOMINO_NULL_POINTER, "%s: %s is NULL", what, !b ? "b" : "x");
    domino_gpu_krylov_options_init(&K->gopt);
    if (opt) K->gopt = *opt;
    K->opt = K->gopt.krylov;
    const domino_krylov_options *u = &K->opt;
    if (u->precond < DOMINO_PRECOND_NONE || u->precond > DOMINO_PRECOND_IC0)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: bad preconditioner %d", what, (int)u->precond);
    if (!(u->rtol >= 0.0) || !isfinite(u->rtol))
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: rtol = %g is not a finite value >= 0", what, u->rtol);
    if (u->maxit < 0) return domino_error(h, DOMINO_INVALID_VALUE, "%s: maxit = %d < 0", what, u->maxit);
    if (!isfinite(u->pivot_shift))
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: pivot_shift is not finite", what);
    if (!(u->diag_shift >= 0.0) || !isfinite(u->diag_shift))
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: diag_shift = %g is not a finite value >= 0",
                            what, u->diag_shift);
    if ((int)K->gopt.engine < 0 || (int)K->gopt.engine >= DOMINO_ENGINE_COUNT)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: bad engine %d", what, (int)K->gopt.engine);
    return DOMINO_SUCCESS;
}

/* what CG and BiCGSTAB share: checks, setup (timed), upload, iterate (timed),
 * true residual, download, one cleanup */
static domino_status gpu_krylov_run(domino_handle h, const char *what, domino_dmatrix A,
                                    const double *b, double *x,
                                    const domino_gpu_krylov_options *opt, domino_krylov_result *res,
                                    domino_gpu_krylov_times *times, int work_vectors,
                                    gpu_iterate_fn iterate)
{
    gpu_krylov K;
    memset(&K, 0, sizeof(K));
    K.h = h;
    K.A = A;
    domino_gpu_krylov_times tm;
    memset(&tm, 0, sizeof(tm));
    tm.factor_method = "none";
    if (res) *res = (domino_krylov_result){0};
    domino_status s = domino_gpu_context_get(h, &K.gpu);
    if (s) return s;
    domino_clear_error(h);
    if ((s = check_args(&K, what, b, x, opt, res))) return s;
    K.n = A->nrows;
    K.P.kind = K.opt.precond;
    size_t bytes = (size_t)K.n * sizeof(double);
    if ((s = solver_setup(&K, work_vectors, what))) goto cleanup;
    res->history = domino_malloc(((size_t)K.opt.maxit + 1) * sizeof(double));
    if (!res->history) {
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory (maxit = %d)", what, K.opt.maxit);
        goto cleanup;
    }
    double t0 = domino_wtime();
    if (K.P.kind == DOMINO_PRECOND_JACOBI) s = jacobi_setup(&K, what);
    else if (K.P.kind != DOMINO_PRECOND_NONE) s = factor_setup(&K, what, res, &tm);
    if (s || (s = cuda(&K, cudaStreamSynchronize(K.gpu->stream), what))) goto cleanup;
    res->setup_seconds = domino_wtime() - t0;
    t0 = domino_wtime();
    if ((s = cuda(&K, cudaMemcpyAsync(K.b, b, bytes, cudaMemcpyHostToDevice, K.gpu->stream), what)) ||
        (s = cuda(&K, cudaMemcpyAsync(K.x, x, bytes, cudaMemcpyHostToDevice, K.gpu->stream), what)) ||
        (s = cuda(&K, cudaStreamSynchronize(K.gpu->stream), what)))
        goto cleanup;
    tm.transfer_seconds = domino_wtime() - t0;
    t0 = domino_wtime();
    s = iterate(&K, K.vec, res);
    if (!s) s = cuda(&K, cudaStreamSynchronize(K.gpu->stream), what);
    res->solve_seconds = domino_wtime() - t0;
    if (s) goto cleanup;
    double norm_b;
    if ((s = residual(&K, K.b, K.x, K.r, &res->relative_residual, &norm_b))) goto cleanup;
    t0 = domino_wtime();
    if ((s = cuda(&K, cudaMemcpyAsync(x, K.x, bytes, cudaMemcpyDeviceToHost, K.gpu->stream), what)) ||
        (s = cuda(&K, cudaStreamSynchronize(K.gpu->stream), what)))
        goto cleanup;
    tm.transfer_seconds += domino_wtime() - t0;
    if (times) *times = tm;
cleanup:
    solver_free(&K);
    if (s) domino_krylov_result_free(res);
    return s;
}

domino_status domino_gpu_cg(domino_handle h, domino_dmatrix A, const double *b, double *x,
                            const domino_gpu_krylov_options *opt, domino_krylov_result *res,
                            domino_gpu_krylov_times *times)
{
    return gpu_krylov_run(h, "domino_gpu_cg", A, b, x, opt, res, times, 4, cg_iterate);
}

domino_status domino_gpu_bicgstab(domino_handle h, domino_dmatrix A, const double *b, double *x,
                                  const domino_gpu_krylov_options *opt,
                                  domino_krylov_result *res, domino_gpu_krylov_times *times)
{
    return gpu_krylov_run(h, "domino_gpu_bicgstab", A, b, x, opt, res, times, 8, bicgstab_iterate);
}
