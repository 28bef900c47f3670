/* spmv_plan.c: y = A x on one GPU with cusparseSpMV, in phases (a plan,
 * then products as often as needed).  The dependency-free reference a
 * triangular solve of the same pattern is measured against in `domino
 * bench --suite trsv`: it reads every entry, row offset and vector once,
 * as the solve does, but waits for nothing. */
#include "gpu_internal.h"

#define WHAT "domino_gpu_spmv"
#define SPMV_MAGIC 0x646f6d696e6f5632ULL /* "dominoV2" */

struct domino_spmv_plan_s {
    uint64_t magic;            /* SPMV_MAGIC while alive */
    cusparseHandle_t sparse;   /* the handle's */
    cudaDataType vt;           /* value type (also the compute type) */
    double one, zero;          /* alpha and beta (double) */
    float onef, zerof;         /* (float) */
    int32_t *ptr32;            /* A's row offsets narrowed */
    void *work;                /* cusparseSpMV's workspace */
    cusparseSpMatDescr_t a;    /* A */
    cusparseDnVecDescr_t x, y; /* x and y */
};

void domino_gpu_spmv_plan_free(domino_spmv_plan P)
{
    if (!P || P->magic != SPMV_MAGIC) return;
    if (P->a) cusparseDestroySpMat(P->a);
    if (P->x) cusparseDestroyDnVec(P->x);
    if (P->y) cusparseDestroyDnVec(P->y);
    cudaFree(P->work);
    cudaFree(P->ptr32);
    P->magic = DOMINO_FREED_MAGIC;
    domino_free(P);
}

domino_status domino_gpu_spmv_plan(domino_handle h, domino_dmatrix dA, const void *dx, void *dy,
                                   domino_spmv_plan *out)
{
    struct domino_gpu_context *gpu;
    if (!out) return domino_error(h, DOMINO_NULL_POINTER, WHAT ": plan is NULL");
    *out = NULL;
    if (!dx || !dy) return domino_error(h, DOMINO_NULL_POINTER, WHAT ": x or y is NULL");
    domino_status s = domino_gpu_context_get(h, &gpu);
    if (s) return s;
    if (!dA || dA->magic != DOMINO_DMATRIX_MAGIC)
        return domino_error(h, DOMINO_INVALID_OBJECT, WHAT ": dA is not a live device matrix");
    if (dA->format != DOMINO_CSR) return domino_error(h, DOMINO_NOT_SUPPORTED, WHAT ": dA must be CSR");
    if (dA->nnz >= INT32_MAX)
        return domino_error(h, DOMINO_NOT_SUPPORTED, WHAT ": %lld entries need 64-bit row offsets",
                            (long long)dA->nnz);
    domino_spmv_plan P = domino_calloc(1, sizeof(*P));
    if (!P) return domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory");
    P->magic = SPMV_MAGIC;
    P->sparse = gpu->cusparse;
    P->vt = dA->type == DOMINO_FLOAT64 ? CUDA_R_64F : CUDA_R_32F;
    P->one = 1.0, P->zero = 0.0, P->onef = 1.0f, P->zerof = 0.0f;
    const void *alpha = dA->type == DOMINO_FLOAT64 ? (const void *)&P->one : (const void *)&P->onef;
    const void *beta = dA->type == DOMINO_FLOAT64 ? (const void *)&P->zero : (const void *)&P->zerof;
    size_t bytes = 0;
    cusparseStatus_t st = CUSPARSE_STATUS_SUCCESS;
    cudaError_t e = cudaMalloc((void **)&P->ptr32, ((size_t)dA->nrows + 1) * sizeof(int32_t));
    if (!e) e = domino_launch_offsets_to_int32(gpu->stream, dA->nrows + 1, dA->ptr, P->ptr32);
    if (!e) st = cusparseCreateCsr(&P->a, dA->nrows, dA->ncols, dA->nnz, P->ptr32, dA->ind, dA->val, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, P->vt);
    if (!e && !st) st = cusparseCreateDnVec(&P->x, dA->ncols, (void *)dx, P->vt);
    if (!e && !st) st = cusparseCreateDnVec(&P->y, dA->nrows, dy, P->vt);
    if (!e && !st)
        st = cusparseSpMV_bufferSize(P->sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, P->a, P->x, beta, P->y,
                                     P->vt, CUSPARSE_SPMV_ALG_DEFAULT, &bytes);
    if (!e && !st) e = cudaMalloc(&P->work, bytes ? bytes : 1);
#if CUSPARSE_VERSION >= 12400 /* once per plan: the products reuse it */
    if (!e && !st)
        st = cusparseSpMV_preprocess(P->sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, P->a, P->x, beta, P->y,
                                     P->vt, CUSPARSE_SPMV_ALG_DEFAULT, P->work);
#endif
    if (!e && !st) e = cudaStreamSynchronize(gpu->stream);
    if (e || st) {
        s = e ? domino_cuda_status(h, e, WHAT) : domino_cusparse_status(h, st, WHAT);
        domino_gpu_spmv_plan_free(P);
        return s;
    }
    *out = P;
    return DOMINO_SUCCESS;
}

domino_status domino_gpu_spmv_run(domino_handle h, domino_spmv_plan P)
{
    if (!P || P->magic != SPMV_MAGIC) return domino_error(h, DOMINO_INVALID_OBJECT, WHAT ": not a live plan");
    const void *alpha = P->vt == CUDA_R_64F ? (const void *)&P->one : (const void *)&P->onef;
    const void *beta = P->vt == CUDA_R_64F ? (const void *)&P->zero : (const void *)&P->zerof;
    cusparseStatus_t st = cusparseSpMV(P->sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, P->a, P->x, beta, P->y,
                                       P->vt, CUSPARSE_SPMV_ALG_DEFAULT, P->work);
    return st ? domino_cusparse_status(h, st, WHAT) : DOMINO_SUCCESS;
}
