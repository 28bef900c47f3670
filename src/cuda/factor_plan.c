/* factor_plan.c: GPU incomplete factorizations ILU(0) / IC(0): options,
 * analysis (pattern only), compute, the factors as device matrices, free.
 * The kernels live in factor_ilu0.cu, the cuSPARSE baseline in
 * factor_cusparse.c. */
#include "factor_plan.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void domino_factor_plan_free(domino_factor_plan p)
{
    if (!p || p->magic != DOMINO_FACTOR_PLAN_MAGIC) return;
    domino_cusparse_factor_free(p);
    if (p->owns_pattern) {
        cudaFree(p->ptr);
        cudaFree(p->ind);
    }
    cudaFree(p->diag);
    cudaFree(p->val);
    cudaFree(p->work);
    cudaFree(p->order);
    cudaFree(p->line_order);
    cudaFree(p->progress);
    cudaFree(p->line_epoch);
    cudaFree(p->pivots);
    cudaFree(p->padded);
    cudaFree(p->st);
    if (p->alias)
        for (int32_t b = 0; b < p->batch; b++)
            p->alias[b].magic = DOMINO_FREED_MAGIC;
    domino_free(p->alias);
    p->magic = DOMINO_FREED_MAGIC;
    domino_free(p);
}

/* argument checks of the analysis */
static domino_status check_analysis(domino_handle h, domino_factor_kind kind, domino_dmatrix dA,
                                    const domino_factor_options *opt, const char *fn)
{
    if (!dA) return domino_error(h, DOMINO_NULL_POINTER, "%s: dA is NULL", fn);
    if (dA->magic != DOMINO_DMATRIX_MAGIC)
        return domino_error(h, DOMINO_INVALID_OBJECT, "%s: dA is not a live device matrix", fn);
    if (kind != DOMINO_FACTOR_ILU0 && kind != DOMINO_FACTOR_IC0)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: bad factorization kind %d", fn, (int)kind);
    if (dA->format != DOMINO_CSR) return domino_error(h, DOMINO_INVALID_VALUE, "%s: dA must be CSR", fn);
    if (dA->nrows != dA->ncols)
        return domino_error(h, DOMINO_DIMENSION_MISMATCH, "%s: matrix is %d x %d, not square", fn,
                            dA->nrows, dA->ncols);
    if (dA->type != DOMINO_FLOAT64)
        return domino_error(h, DOMINO_NOT_SUPPORTED, "%s: only double (FLOAT64) matrices for now", fn);
    if (opt->batch < 1) return domino_error(h, DOMINO_INVALID_VALUE, "%s: batch %d < 1", fn, opt->batch);
    if (!isfinite(opt->pivot_shift))
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: pivot_shift is not finite", fn);
    if (kind == DOMINO_FACTOR_IC0 && opt->pivot_shift < 0.0)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: pivot_shift %g < 0 for IC0", fn,
                            opt->pivot_shift);
    if (opt->use_cusparse && dA->nnz >= INT32_MAX)
        return domino_error(h, DOMINO_NOT_SUPPORTED, "%s: the cuSPARSE baseline needs nnz < 2^31", fn);
    if (opt->use_cusparse && kind == DOMINO_FACTOR_IC0 && opt->pivot_shift > 0.0)
        return domino_error(h, DOMINO_NOT_SUPPORTED,
                            "%s: csric02 has no pivot replacement (pivot_shift > 0)", fn);
    return DOMINO_SUCCESS;
}

/* pattern work: diagonal positions (ILU0), tril pattern (IC0); checks */
static domino_status build_pattern(domino_handle h, struct domino_gpu_context *gpu,
                                   struct domino_factor_plan_s *p, const char *fn)
{
    domino_dmatrix dA = p->dA;
    int32_t n = p->n;
    int64_t *count = NULL;
    void *scan_tmp = NULL;
    size_t scan_bytes = domino_scan_scratch_bytes(n);
    domino_factor_status hst;
    domino_status s = DOMINO_SUCCESS;
    cudaError_t e;
    int ic0 = p->kind == DOMINO_FACTOR_IC0;
    if ((e = cudaMalloc((void **)&p->st, sizeof(domino_factor_status))) ||
        (e = cudaMalloc((void **)&p->diag, ((size_t)n + 1) * sizeof(int64_t))) ||
        (ic0 && (e = cudaMalloc((void **)&count, ((size_t)n + 1) * sizeof(int64_t)))) ||
        (e = domino_launch_factor_status_reset(gpu->stream, p->st)) ||
        (e = domino_launch_factor_pattern(gpu->stream, n, dA->ptr, dA->ind, p->diag, count, p->st)) ||
        (e = cudaMemcpyAsync(&hst, p->st, sizeof(hst), cudaMemcpyDeviceToHost, gpu->stream)) ||
        (e = cudaStreamSynchronize(gpu->stream))) {
        s = domino_cuda_status(h, e, fn);
        goto cleanup;
    }
    if (hst.unsorted_row != INT32_MAX) {
        s = domino_error(h, DOMINO_BAD_INPUT, "%s: row %d is not sorted or has a duplicate column",
                         fn, hst.unsorted_row);
        goto cleanup;
    }
    if (hst.missing_diag != INT32_MAX) {
        s = domino_error(h, DOMINO_ZERO_DIAGONAL, "%s: row %d has no diagonal entry", fn,
                         hst.missing_diag);
        goto cleanup;
    }
    if (!ic0) {
        p->ptr = dA->ptr;
        p->ind = dA->ind;
        p->nnz = dA->nnz;
        goto cleanup;
    }
    p->owns_pattern = 1;
    if ((e = cudaMalloc((void **)&p->ptr, ((size_t)n + 1) * sizeof(int64_t))) ||
        (e = cudaMalloc(&scan_tmp, scan_bytes + 16)) ||
        (e = domino_launch_scan_i64(gpu->stream, n, count, p->ptr, scan_tmp, scan_bytes)) ||
        (e = cudaMemcpyAsync(&p->nnz, p->ptr + n, sizeof(int64_t), cudaMemcpyDeviceToHost, gpu->stream)) ||
        (e = cudaStreamSynchronize(gpu->stream)) ||
        (e = cudaMalloc((void **)&p->ind, (size_t)p->nnz * sizeof(int32_t) + 4)) ||
        (e = domino_launch_tril_fill(gpu->stream, n, dA->ptr, dA->ind, p->ptr, p->ind, p->diag)) ||
        (e = cudaStreamSynchronize(gpu->stream)))
        s = domino_cuda_status(h, e, fn);
cleanup:
    cudaFree(count);
    cudaFree(scan_tmp);
    return s;
}

/* Lanes per row of the factorization kernel: a warp per row (32) below
 * FACTOR_FEW_LANES_ROWS rows; from FACTOR_MANY_LANES_ROWS rows 8 lanes;
 * between, the power of two that covers the mean row length of the factor
 * pattern, kept within 8-16.  H100, 3D Poisson (bench/results/h100-precond2,
 * the kernel with done flags): with 2.1M and 7.1M rows, fewer lanes keep
 * more rows in flight, and 8 or 16 lanes were 1.03-1.71x faster than a
 * warp per row (4 lanes did worse).  With 0.26M rows and on the real
 * matrices (up to 0.11M rows), a warp per row was fastest on all but one
 * (crack IC(0)); fewer lanes were up to 3.6x slower, because each row takes
 * longer.  The kernel with value flags (h100-precond7/precond-lanes8.txt):
 * at 7.1M rows 8 lanes beat 16 on D3N27 (IC(0) 21.2 -> 17.3 ms, ILU(0)
 * 24.2 -> 21.7 ms), at 2.1M rows 16 stayed better (IC(0) 7.4 against 8.5
 * ms).  DOMINO_FACTOR_LANES overrides the choice (experiments). */
#define FACTOR_FEW_LANES_ROWS 1000000
#define FACTOR_MANY_LANES_ROWS 4000000
static int factor_lanes(int32_t n, int64_t nnz)
{
    const char *env = getenv("DOMINO_FACTOR_LANES");
    if (env) {
        int l = atoi(env);
        if (l == 4 || l == 8 || l == 16 || l == 32) return l;
    }
    if (n < FACTOR_FEW_LANES_ROWS) return 32;
    if (n >= FACTOR_MANY_LANES_ROWS) return 8;
    return (double)nnz / (double)n > 8.0 ? 16 : 8;
}

/* p->order: rows sorted by level of dA's lower triangle (trsv_levelset.cu);
 * scratch from the stream's pool (no device-wide synchronization of
 * cudaFree) */
static domino_status build_order(domino_handle h, struct domino_gpu_context *gpu,
                                 struct domino_factor_plan_s *p, const char *fn)
{
    int32_t n = p->n, *row_level = NULL, *sort_scratch = NULL;
    domino_solve_status *st = NULL;
    cudaStream_t s = gpu->stream;
    cudaError_t e, e2;
    if (!(e = cudaMalloc((void **)&p->order, ((size_t)n + 1) * sizeof(int32_t))) &&
        !(e = cudaMallocAsync((void **)&row_level, ((size_t)n + 1) * sizeof(int32_t), s)) &&
        !(e = cudaMallocAsync((void **)&sort_scratch, 2 * ((size_t)n + 1) * sizeof(int32_t), s)) &&
        !(e = cudaMallocAsync((void **)&st, sizeof(domino_solve_status), s)) &&
        !(e = domino_launch_status_reset(s, st)))
        e = domino_launch_levels(s, n, p->dA->ptr, p->dA->ind, 0, row_level, p->order,
                                 (int64_t *)sort_scratch, NULL, 0, st, &p->nlevels, NULL);
    if (row_level && (e2 = cudaFreeAsync(row_level, s)) && !e) e = e2;
    if (sort_scratch && (e2 = cudaFreeAsync(sort_scratch, s)) && !e) e = e2;
    if (st && (e2 = cudaFreeAsync(st, s)) && !e) e = e2;
    p->order_tickets = n;
    /* the order is complete when the analysis returns (its time, its errors) */
    if ((e2 = cudaStreamSynchronize(s)) && !e) e = e2;
    return domino_cuda_status(h, e, fn);
}

/* values, working values (our kernel only) and the device matrices that
 * alias the values */
static domino_status allocate_values(domino_handle h, struct domino_factor_plan_s *p, const char *fn)
{
    cudaError_t e;
    size_t bytes = (size_t)p->batch * (size_t)p->nnz * sizeof(double) + 8;
    if ((e = cudaMalloc((void **)&p->val, bytes)) ||
        (!p->use_cusparse && !p->stencil.line_path && !p->stencil.scan_path && !p->stencil.box_path &&
         (e = cudaMalloc((void **)&p->work, bytes))))
        return domino_cuda_status(h, e, fn);
    p->alias = domino_calloc((size_t)p->batch, sizeof(struct domino_dmatrix_s));
    if (!p->alias) return domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory", fn);
    for (int32_t b = 0; b < p->batch; b++) {
        domino_dmatrix_borrow(&p->alias[b], DOMINO_FLOAT64, p->n, p->n, p->nnz, p->ptr, p->ind,
                              p->val + (size_t)b * (size_t)p->nnz);
        p->alias[b].sorted = 1;
    }
    return DOMINO_SUCCESS;
}

domino_status domino_factor_analysis(domino_handle h, domino_factor_kind kind, domino_dmatrix dA,
                                     const domino_factor_options *opt, domino_factor_plan *plan)
{
    const char *fn = "domino_factor_analysis";
    if (!plan) return domino_error(h, DOMINO_NULL_POINTER, "%s: plan is NULL", fn);
    *plan = NULL;
    double t0 = domino_wtime();
    domino_factor_options use;
    domino_factor_options_init(&use);
    if (opt) use = *opt;
    struct domino_gpu_context *gpu;
    domino_status s = domino_gpu_context_get(h, &gpu);
    if (s || (s = check_analysis(h, kind, dA, &use, fn))) return s;
    struct domino_factor_plan_s *p = domino_calloc(1, sizeof(*p));
    if (!p) return domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory", fn);
    p->magic = DOMINO_FACTOR_PLAN_MAGIC;
    p->kind = kind;
    p->dA = dA;
    p->n = dA->nrows;
    p->batch = use.batch;
    p->pivot_shift = use.pivot_shift;
    p->use_cusparse = use.use_cusparse;
    /* the stencil paths and the level order are our kernels': the cuSPARSE
     * baseline does not pay for them; the line path needs no level order
     * and no working copy */
    if ((s = build_pattern(h, gpu, p, fn)) ||
        (!p->use_cusparse && (s = domino_factor_stencil_setup(h, gpu, p, fn))) ||
        (!p->use_cusparse && !p->stencil.line_path && !p->stencil.scan_path && !p->stencil.box_lines &&
         !p->order && (s = build_order(h, gpu, p, fn))) ||
        (s = allocate_values(h, p, fn))) {
        domino_factor_plan_free(p);
        return s;
    }
    p->lanes = factor_lanes(p->n, p->nnz);
    p->analysis_seconds = domino_wtime() - t0;
    *plan = p;
    return DOMINO_SUCCESS;
}

/* our kernel into p->val: the row kernel from the initial values in
 * p->work (prepared: work, the pending factor and the status already set
 * up by domino_launch_factor_prepare), or the line, scan or box kernels
 * (stencil paths) from src, the values of A, after their own set-up (IC(0)
 * by grid lines: a new epoch, each line making its values pending);
 * reports the first bad pivot */
static domino_status run_kernel(domino_handle h, struct domino_gpu_context *gpu,
                                struct domino_factor_plan_s *p, const double *src, int prepared,
                                int64_t *replaced, const char *fn)
{
    domino_factor_status hst;
    int ic0 = p->kind == DOMINO_FACTOR_IC0;
    int64_t lines = (int64_t)p->stencil.ny * p->stencil.nz;
    cudaError_t e = cudaSuccess;
    if (prepared)
        ; /* the row kernel's values pending and status reset (domino_launch_factor_prepare) */
    else if (p->stencil.line_path)
        e = cudaMemsetAsync(p->progress, 0xff, (size_t)lines * (size_t)p->batch * sizeof(int32_t),
                            gpu->stream);
    else if (p->stencil.scan_path)
        e = domino_launch_factor_pending(gpu->stream, (int64_t)p->batch * p->n, p->pivots);
    else if (p->stencil.box_lines && ic0) /* each line makes its own values pending */
        p->epoch = p->epoch >= INT32_MAX - 1 ? 1 : p->epoch + 1;
    else
        e = domino_launch_factor_pending(gpu->stream, (int64_t)p->batch * p->nnz, p->val);
    if (!e && !prepared) e = domino_launch_factor_status_reset(gpu->stream, p->st);
    if (!e && p->stencil.scan_path) {
        const char *env = getenv("DOMINO_FACTOR_SCAN"); /* "serial": every chunk walked */
        e = domino_launch_factor_scan(gpu->stream, ic0, gpu->num_sms, &p->stencil, p->batch,
                                      p->dA->ptr, p->dA->nnz, src, p->ptr, p->nnz, p->val,
                                      p->line_order, p->pivots, p->pivot_shift,
                                      env && strcmp(env, "serial") == 0, p->st);
    } else if (!e && p->stencil.box_lines) {
        const char *env = getenv("DOMINO_FACTOR_BOX_LINES"); /* "walk": every chunk walked */
        e = domino_launch_factor_box_lines(gpu->stream, ic0, gpu->num_sms, &p->stencil, p->batch, p->line_order,
                                           p->dA->ptr, p->dA->nnz, src, p->ptr, p->nnz, p->val,
                                           p->pivot_shift, domino_factor_poll_cap(),
                                           env && strcmp(env, "walk") == 0, p->line_epoch, p->epoch, p->st);
    } else if (!e && p->stencil.box_path) {
        e = domino_launch_factor_box(gpu->stream, ic0, gpu->num_sms, p->nlevels, &p->stencil, p->order_tickets,
                                     p->batch, p->order, p->dA->ptr,
                                     p->dA->nnz, src, p->ptr, p->nnz, p->val, p->pivot_shift,
                                     domino_factor_poll_cap(), p->st);
    } else if (!e && p->stencil.line_path)
        e = domino_launch_factor_lines(gpu->stream, ic0, gpu->num_sms, &p->stencil, p->batch,
                                       p->dA->ptr, p->dA->nnz, src, p->ptr, p->nnz, p->val,
                                       p->padded, p->line_order, p->progress, p->pivot_shift, p->st);
    else if (!e)
        e = domino_launch_factor(gpu->stream, ic0, p->n, p->batch, p->ptr, p->ind, p->diag, p->order,
                                 p->order_tickets, p->nnz, p->work, p->val, p->pivot_shift, p->st,
                                 p->lanes, &p->stencil);
    if (!e) e = cudaMemcpyAsync(&hst, p->st, sizeof(hst), cudaMemcpyDeviceToHost, gpu->stream);
    if (!e) e = cudaStreamSynchronize(gpu->stream);
    if (e) return domino_cuda_status(h, e, fn);
    p->walked = (int64_t)hst.walked;
    if (hst.bad_pivot != LLONG_MAX) {
        long long row = hst.bad_pivot % p->n, b = hst.bad_pivot / p->n;
        const char *what = p->kind == DOMINO_FACTOR_IC0 ? "non-positive" : "zero";
        if (p->batch > 1)
            return domino_error(h, DOMINO_ZERO_PIVOT, "%s: %s pivot at row %lld of batch %lld", fn,
                                what, row, b);
        return domino_error(h, DOMINO_ZERO_PIVOT, "%s: %s pivot at row %lld", fn, what, row);
    }
    *replaced = (int64_t)hst.replaced;
    return DOMINO_SUCCESS;
}

domino_status domino_factor_compute(domino_handle h, domino_factor_plan p, const void *d_values,
                                    int64_t *replaced)
{
    const char *fn = "domino_factor_compute";
    if (replaced) *replaced = 0;
    if (!p) return domino_error(h, DOMINO_NULL_POINTER, "%s: plan is NULL", fn);
    if (p->magic != DOMINO_FACTOR_PLAN_MAGIC)
        return domino_error(h, DOMINO_INVALID_OBJECT, "%s: plan is not live", fn);
    if (p->dA->magic != DOMINO_DMATRIX_MAGIC)
        return domino_error(h, DOMINO_INVALID_OBJECT, "%s: the plan's matrix was freed", fn);
    if (!d_values && p->batch > 1)
        return domino_error(h, DOMINO_NULL_POINTER, "%s: batch %d needs d_values", fn, p->batch);
    double t0 = domino_wtime();
    struct domino_gpu_context *gpu;
    domino_status s = domino_gpu_context_get(h, &gpu);
    if (s) return s;
    const double *src = d_values ? (const double *)d_values : (const double *)p->dA->val;
    /* the initial values: cuSPARSE factors in place, in p->val; our row
     * kernel gets its working copy, pending factor and status in one launch
     * (prepared); the line, scan and box kernels (stencil paths, never with
     * cuSPARSE) read src themselves */
    cudaError_t e = cudaSuccess;
    const int prepared = !p->use_cusparse && !p->stencil.line_path && !p->stencil.scan_path && !p->stencil.box_path;
    if (prepared)
        e = domino_launch_factor_prepare(gpu->stream, p->kind == DOMINO_FACTOR_IC0, p->n, p->batch, p->dA->ptr,
                                         p->dA->nnz, src, p->ptr, p->nnz, p->work, p->val, p->st);
    else if (p->use_cusparse && p->kind == DOMINO_FACTOR_ILU0)
        e = cudaMemcpyAsync(p->val, src, (size_t)p->batch * (size_t)p->nnz * sizeof(double),
                            cudaMemcpyDeviceToDevice, gpu->stream);
    else if (p->use_cusparse)
        e = domino_launch_tril_gather(gpu->stream, p->n, p->batch, p->dA->ptr, p->dA->nnz, src,
                                      p->ptr, p->nnz, p->val);
    if (e) return domino_cuda_status(h, e, fn);
    int64_t count = 0, bad_row = -1;
    int32_t bad_batch = 0;
    if (p->use_cusparse) {
        s = domino_cusparse_factor(h, gpu, p, &bad_row, &bad_batch);
        if (!s && bad_row >= 0) {
            if (p->batch > 1)
                s = domino_error(h, DOMINO_ZERO_PIVOT, "%s (cusparse): zero pivot at row %lld of batch %d",
                                 fn, (long long)bad_row, bad_batch);
            else
                s = domino_error(h, DOMINO_ZERO_PIVOT, "%s (cusparse): zero pivot at row %lld", fn,
                                 (long long)bad_row);
        }
    } else {
        s = run_kernel(h, gpu, p, src, prepared, &count, fn);
    }
    for (int32_t b = 0; b < p->batch; b++)
        p->alias[b].values_version++;
    p->compute_seconds = domino_wtime() - t0;
    if (s) return s;
    if (replaced) *replaced = count;
    return DOMINO_SUCCESS;
}

domino_status domino_factor_get(domino_handle h, domino_factor_plan p, int32_t batch_index,
                                domino_dmatrix *factor)
{
    const char *fn = "domino_factor_get";
    if (!factor || !p) return domino_error(h, DOMINO_NULL_POINTER, "%s: NULL plan or factor", fn);
    *factor = NULL;
    if (p->magic != DOMINO_FACTOR_PLAN_MAGIC)
        return domino_error(h, DOMINO_INVALID_OBJECT, "%s: plan is not live", fn);
    if (batch_index < 0 || batch_index >= p->batch)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: batch index %d not in [0, %d)", fn,
                            batch_index, p->batch);
    *factor = &p->alias[batch_index];
    return DOMINO_SUCCESS;
}

double domino_factor_plan_analysis_seconds(domino_factor_plan p)
{
    return (p && p->magic == DOMINO_FACTOR_PLAN_MAGIC) ? p->analysis_seconds : 0;
}

double domino_factor_plan_compute_seconds(domino_factor_plan p)
{
    return (p && p->magic == DOMINO_FACTOR_PLAN_MAGIC) ? p->compute_seconds : 0;
}

const char *domino_factor_plan_method(domino_factor_plan p)
{
    if (!p || p->magic != DOMINO_FACTOR_PLAN_MAGIC) return "none";
    if (p->use_cusparse) return "cusparse";
    if (p->stencil.line_path) return "stencil-lines";
    if (p->stencil.scan_path) return "stencil-scan";
    if (p->stencil.box_lines) return "stencil-box-lines";
    if (p->stencil.box_path) return "stencil-box";
    return p->stencil.nx > 0 ? "stencil-table" : "rows";
}
