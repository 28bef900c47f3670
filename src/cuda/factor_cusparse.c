/* factor_cusparse.c: the cuSPARSE csrilu02 / csric02 baseline of the GPU
 * incomplete factorizations (deprecated since CUDA 12.2, still shipped):
 * level-scheduled, one matrix of a batch after the other. */
#define DISABLE_CUSPARSE_DEPRECATED /* documented switch: keep the build warning-free */
#include "factor_plan.h"

#include <string.h>

/* cuSPARSE objects of a factor plan, made at the first compute */
typedef struct cusparse_factor {
    int32_t *ptr32;             /* 32-bit offsets of the factor pattern */
    cusparseMatDescr_t descr;   /* general, base 0 */
    csrilu02Info_t ilu;         /* ILU0 */
    csric02Info_t ic;           /* IC0 */
    void *buffer;               /* workspace */
} cusparse_factor;

void domino_cusparse_factor_free(struct domino_factor_plan_s *p)
{
    cusparse_factor *c = p->cusparse;
    if (!c) return;
    if (c->descr) cusparseDestroyMatDescr(c->descr);
    if (c->ilu) cusparseDestroyCsrilu02Info(c->ilu);
    if (c->ic) cusparseDestroyCsric02Info(c->ic);
    cudaFree(c->buffer);
    cudaFree(c->ptr32);
    domino_free(c);
    p->cusparse = NULL;
}

/* descriptors, buffer and the (pattern) analysis on matrix 0's values */
static domino_status setup(domino_handle h, struct domino_gpu_context *gpu,
                           struct domino_factor_plan_s *p, cusparse_factor *c, const char *fn)
{
    int m = p->n, nnz = (int)p->nnz, bytes = 0;
    cudaError_t e;
    if ((e = cudaMalloc((void **)&c->ptr32, ((size_t)m + 1) * sizeof(int32_t))) ||
        (e = domino_launch_offsets_to_int32(gpu->stream, m + 1, p->ptr, c->ptr32)))
        return domino_cuda_status(h, e, fn);
    cusparseStatus_t cs = cusparseCreateMatDescr(&c->descr);
    if (!cs) cs = cusparseSetMatIndexBase(c->descr, CUSPARSE_INDEX_BASE_ZERO);
    if (!cs) cs = cusparseSetMatType(c->descr, CUSPARSE_MATRIX_TYPE_GENERAL);
    if (!cs && p->kind == DOMINO_FACTOR_ILU0) {
        cs = cusparseCreateCsrilu02Info(&c->ilu);
        if (!cs) cs = cusparseDcsrilu02_bufferSize(gpu->cusparse, m, nnz, c->descr, p->val,
                                                   c->ptr32, p->ind, c->ilu, &bytes);
    } else if (!cs) {
        cs = cusparseCreateCsric02Info(&c->ic);
        if (!cs) cs = cusparseDcsric02_bufferSize(gpu->cusparse, m, nnz, c->descr, p->val,
                                                  c->ptr32, p->ind, c->ic, &bytes);
    }
    if (cs) return domino_cusparse_status(h, cs, fn);
    if ((e = cudaMalloc(&c->buffer, (size_t)bytes + 16))) return domino_cuda_status(h, e, fn);
    if (p->kind == DOMINO_FACTOR_ILU0)
        cs = cusparseDcsrilu02_analysis(gpu->cusparse, m, nnz, c->descr, p->val, c->ptr32, p->ind,
                                        c->ilu, CUSPARSE_SOLVE_POLICY_USE_LEVEL, c->buffer);
    else
        cs = cusparseDcsric02_analysis(gpu->cusparse, m, nnz, c->descr, p->val, c->ptr32, p->ind,
                                       c->ic, CUSPARSE_SOLVE_POLICY_USE_LEVEL, c->buffer);
    if (!cs && p->kind == DOMINO_FACTOR_ILU0 && p->pivot_shift != 0.0) {
        double tol = 0.0, boost = p->pivot_shift;
        cs = cusparseDcsrilu02_numericBoost(gpu->cusparse, c->ilu, 1, &tol, &boost);
    }
    return domino_cusparse_status(h, cs, fn);
}

domino_status domino_cusparse_factor(domino_handle h, struct domino_gpu_context *gpu,
                                     struct domino_factor_plan_s *p, int64_t *bad_row,
                                     int32_t *bad_batch)
{
    const char *fn = "domino_factor_compute (cusparse)";
    *bad_row = -1;
    *bad_batch = 0;
    cusparse_factor *c = p->cusparse;
    if (!c) {
        c = domino_calloc(1, sizeof(*c));
        if (!c) return domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory", fn);
        p->cusparse = c;
        domino_status s = setup(h, gpu, p, c, fn);
        if (s) {
            domino_cusparse_factor_free(p);
            return s;
        }
    }
    int m = p->n, nnz = (int)p->nnz;
    for (int32_t b = 0; b < p->batch; b++) {
        double *v = p->val + (size_t)b * (size_t)p->nnz;
        cusparseStatus_t cs;
        int position = -1;
        if (p->kind == DOMINO_FACTOR_ILU0) {
            cs = cusparseDcsrilu02(gpu->cusparse, m, nnz, c->descr, v, c->ptr32, p->ind, c->ilu,
                                   CUSPARSE_SOLVE_POLICY_USE_LEVEL, c->buffer);
            if (!cs) cs = cusparseXcsrilu02_zeroPivot(gpu->cusparse, c->ilu, &position);
        } else {
            cs = cusparseDcsric02(gpu->cusparse, m, nnz, c->descr, v, c->ptr32, p->ind, c->ic,
                                  CUSPARSE_SOLVE_POLICY_USE_LEVEL, c->buffer);
            if (!cs) cs = cusparseXcsric02_zeroPivot(gpu->cusparse, c->ic, &position);
        }
        if (cs == CUSPARSE_STATUS_ZERO_PIVOT) {
            *bad_row = position;
            *bad_batch = b;
            break;
        }
        if (cs) return domino_cusparse_status(h, cs, fn);
    }
    return domino_cuda_status(h, cudaStreamSynchronize(gpu->stream), fn);
}
