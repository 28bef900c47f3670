/* spmm_cusparse.c: C = A B on one GPU with cusparseSpMM, the single-GPU
 * SpMM and the reference the distributed SpMM algorithms are measured
 * against */
#include "gpu_internal.h"

#define WHAT "domino_gpu_spmm"

domino_status domino_gpu_spmm(domino_handle h, domino_dmatrix dA, int64_t n, const void *dB, int64_t ldb, void *dC,
                              int64_t ldc)
{
    struct domino_gpu_context *gpu;
    domino_status s = domino_gpu_context_get(h, &gpu);
    if (s) return s;
    if (!dA || dA->magic != DOMINO_DMATRIX_MAGIC)
        return domino_error(h, DOMINO_INVALID_OBJECT, WHAT ": dA is not a live device matrix");
    if (dA->format != DOMINO_CSR) return domino_error(h, DOMINO_NOT_SUPPORTED, WHAT ": dA must be CSR");
    if (n < 1 || ldb < n || ldc < n || !dB || !dC)
        return domino_error(h, DOMINO_INVALID_VALUE, WHAT ": n %lld, ldb %lld, ldc %lld (B and C non-NULL, "
                            "leading dimensions >= n)", (long long)n, (long long)ldb, (long long)ldc);
    if (dA->nnz >= INT32_MAX)
        return domino_error(h, DOMINO_NOT_SUPPORTED, WHAT ": %lld entries need 64-bit column indices",
                            (long long)dA->nnz);
    cudaDataType vt = dA->type == DOMINO_FLOAT64 ? CUDA_R_64F : CUDA_R_32F;
    double one = 1.0, zero = 0.0;
    float onef = 1.0f, zerof = 0.0f;
    const void *alpha = dA->type == DOMINO_FLOAT64 ? (const void *)&one : (const void *)&onef;
    const void *beta = dA->type == DOMINO_FLOAT64 ? (const void *)&zero : (const void *)&zerof;
    int32_t *ptr32 = NULL;
    void *work = NULL;
    size_t bytes = 0;
    cusparseSpMatDescr_t a = NULL;
    cusparseDnMatDescr_t b = NULL, c = NULL;
    cudaError_t e = cudaMalloc((void **)&ptr32, ((size_t)dA->nrows + 1) * sizeof(int32_t));
    if (!e) e = domino_launch_offsets_to_int32(gpu->stream, dA->nrows + 1, dA->ptr, ptr32);
    cusparseStatus_t st = CUSPARSE_STATUS_SUCCESS;
    if (!e) st = cusparseCreateCsr(&a, dA->nrows, dA->ncols, dA->nnz, ptr32, dA->ind, dA->val, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, vt);
    if (!e && !st) st = cusparseCreateDnMat(&b, dA->ncols, n, ldb, (void *)dB, vt, CUSPARSE_ORDER_ROW);
    if (!e && !st) st = cusparseCreateDnMat(&c, dA->nrows, n, ldc, dC, vt, CUSPARSE_ORDER_ROW);
    if (!e && !st)
        st = cusparseSpMM_bufferSize(gpu->cusparse, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                     alpha, a, b, beta, c, vt, CUSPARSE_SPMM_ALG_DEFAULT, &bytes);
    if (!e && !st) e = cudaMalloc(&work, bytes ? bytes : 1);
    if (!e && !st)
        st = cusparseSpMM(gpu->cusparse, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, a,
                          b, beta, c, vt, CUSPARSE_SPMM_ALG_DEFAULT, work);
    if (!e && !st) e = cudaStreamSynchronize(gpu->stream);
    if (a) cusparseDestroySpMat(a);
    if (b) cusparseDestroyDnMat(b);
    if (c) cusparseDestroyDnMat(c);
    cudaFree(work);
    cudaFree(ptr32);
    if (e) return domino_cuda_status(h, e, WHAT);
    if (st) return domino_cusparse_status(h, st, WHAT);
    return DOMINO_SUCCESS;
}
