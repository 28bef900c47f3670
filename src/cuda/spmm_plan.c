/* spmm_plan.c: C = A B on one GPU with cusparseSpMM, the single-GPU
 * SpMM and the reference the distributed SpMM algorithms are measured
 * against; or, when asked, with domino's chunk kernel (spmm_chunks.cu, B
 * of at most 128 columns).  A plan holds the descriptors, the 32-bit row
 * offsets and the workspace, so that repeated products (and their timings)
 * pay only for the product. */
#include "gpu_internal.h"

#include <string.h>

#define WHAT "domino_gpu_spmm"
#define SPMM_MAGIC 0x646f6d696e6f5331ULL /* "dominoS1" */

struct domino_spmm_plan_s {
    uint64_t magic;            /* SPMM_MAGIC while alive */
    cusparseHandle_t sparse;   /* the handle's */
    cudaStream_t stream;       /* the handle's */
    cudaDataType vt;           /* value type */
    domino_spmm_engine engine; /* cusparseSpMM or the chunk kernel */
    domino_type type;          /* A's, B's and C's values */
    cusparseSpMMAlg_t alg;     /* domino_spmm_algorithm() when planned */
    int32_t rows, n;           /* A's rows, B's and C's columns */
    int64_t nnz, ldb, ldc;     /* A's entries; B's and C's leading dimensions */
    const int32_t *ind;        /* A's column indices (dA's) */
    const void *val, *dB;      /* A's values (dA's), B */
    void *dC;                  /* C */
    double one, zero;          /* alpha and beta (double) */
    float onef, zerof;         /* (float) */
    int32_t *ptr32;            /* A's row offsets narrowed */
    void *work;                /* cusparseSpMM's or the chunk kernel's workspace */
    cusparseSpMatDescr_t a;    /* A */
    cusparseDnMatDescr_t b, c; /* B and C, row-major */
};

void domino_gpu_spmm_plan_free(domino_spmm_plan P)
{
    if (!P || P->magic != SPMM_MAGIC) return;
    if (P->a) cusparseDestroySpMat(P->a);
    if (P->b) cusparseDestroyDnMat(P->b);
    if (P->c) cusparseDestroyDnMat(P->c);
    cudaFree(P->work);
    cudaFree(P->ptr32);
    P->magic = DOMINO_FREED_MAGIC;
    domino_free(P);
}

/* the chunk kernel's plan: offsets narrowed, the chunks' workspace */
static domino_status plan_chunks(domino_handle h, domino_spmm_plan P, domino_dmatrix dA)
{
    cudaError_t e = cudaMalloc((void **)&P->ptr32, ((size_t)dA->nrows + 1) * sizeof(int32_t));
    if (!e) e = domino_launch_offsets_to_int32(P->stream, dA->nrows + 1, dA->ptr, P->ptr32);
    if (!e) e = cudaMalloc(&P->work, domino_spmm_chunks_work_bytes(dA->nnz));
    if (!e) e = cudaStreamSynchronize(P->stream);
    return e ? domino_cuda_status(h, e, WHAT) : DOMINO_SUCCESS;
}

domino_status domino_gpu_spmm_plan(domino_handle h, domino_dmatrix dA, int64_t n, const void *dB, int64_t ldb, void *dC,
                                   int64_t ldc, domino_spmm_plan *out)
{
    return domino_gpu_spmm_plan_engine(h, DOMINO_SPMM_CUSPARSE, dA, n, dB, ldb, dC, ldc, out);
}

domino_status domino_gpu_spmm_plan_engine(domino_handle h, domino_spmm_engine engine, domino_dmatrix dA, int64_t n,
                                          const void *dB, int64_t ldb, void *dC, int64_t ldc, domino_spmm_plan *out)
{
    struct domino_gpu_context *gpu;
    if (!out) return domino_error(h, DOMINO_NULL_POINTER, WHAT ": plan is NULL");
    *out = NULL;
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
    if (engine != DOMINO_SPMM_CUSPARSE && engine != DOMINO_SPMM_CHUNKS)
        return domino_error(h, DOMINO_INVALID_VALUE, WHAT ": engine %d is none of DOMINO_SPMM_CUSPARSE, _CHUNKS",
                            (int)engine);
    if (engine == DOMINO_SPMM_CHUNKS && n > DOMINO_SPMM_CHUNKS_MAX_COLS)
        return domino_error(h, DOMINO_NOT_SUPPORTED, WHAT ": the chunk engine takes at most %d columns, not %lld",
                            DOMINO_SPMM_CHUNKS_MAX_COLS, (long long)n);
    domino_spmm_plan P = domino_calloc(1, sizeof(*P));
    if (!P) return domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory");
    P->magic = SPMM_MAGIC;
    P->sparse = gpu->cusparse;
    P->stream = gpu->stream;
    P->engine = engine;
    P->type = dA->type;
    P->rows = dA->nrows;
    P->n = (int32_t)n;
    P->nnz = dA->nnz;
    P->ldb = ldb;
    P->ldc = ldc;
    P->ind = dA->ind;
    P->val = dA->val;
    P->dB = dB;
    P->dC = dC;
    if (engine == DOMINO_SPMM_CHUNKS) {
        if ((s = plan_chunks(h, P, dA))) {
            domino_gpu_spmm_plan_free(P);
            return s;
        }
        *out = P;
        return DOMINO_SUCCESS;
    }
    P->vt = dA->type == DOMINO_FLOAT64 ? CUDA_R_64F : CUDA_R_32F;
    cusparseSpMMAlg_t alg = P->alg = domino_spmm_algorithm();
    P->one = 1.0, P->zero = 0.0, P->onef = 1.0f, P->zerof = 0.0f;
    const void *alpha = dA->type == DOMINO_FLOAT64 ? (const void *)&P->one : (const void *)&P->onef;
    const void *beta = dA->type == DOMINO_FLOAT64 ? (const void *)&P->zero : (const void *)&P->zerof;
    size_t bytes = 0;
    cusparseStatus_t st = CUSPARSE_STATUS_SUCCESS;
    cudaError_t e = cudaMalloc((void **)&P->ptr32, ((size_t)dA->nrows + 1) * sizeof(int32_t));
    if (!e) e = domino_launch_offsets_to_int32(P->stream, dA->nrows + 1, dA->ptr, P->ptr32);
    if (!e) st = cusparseCreateCsr(&P->a, dA->nrows, dA->ncols, dA->nnz, P->ptr32, dA->ind, dA->val, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, P->vt);
    if (!e && !st) st = cusparseCreateDnMat(&P->b, dA->ncols, n, ldb, (void *)dB, P->vt, CUSPARSE_ORDER_ROW);
    if (!e && !st) st = cusparseCreateDnMat(&P->c, dA->nrows, n, ldc, dC, P->vt, CUSPARSE_ORDER_ROW);
    if (!e && !st)
        st = cusparseSpMM_bufferSize(P->sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                     alpha, P->a, P->b, beta, P->c, P->vt, alg, &bytes);
    if (!e && !st) e = cudaMalloc(&P->work, bytes ? bytes : 1);
    if (!e && !st && alg == CUSPARSE_SPMM_CSR_ALG3) /* once per plan: the products reuse it */
        st = cusparseSpMM_preprocess(P->sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                     alpha, P->a, P->b, beta, P->c, P->vt, alg, P->work);
    if (!e && !st) e = cudaStreamSynchronize(P->stream);
    if (e || st) {
        s = e ? domino_cuda_status(h, e, WHAT) : domino_cusparse_status(h, st, WHAT);
        domino_gpu_spmm_plan_free(P);
        return s;
    }
    *out = P;
    return DOMINO_SUCCESS;
}

domino_status domino_gpu_spmm_run(domino_handle h, domino_spmm_plan P)
{
    if (!P || P->magic != SPMM_MAGIC) return domino_error(h, DOMINO_INVALID_OBJECT, WHAT ": not a live plan");
    if (P->engine == DOMINO_SPMM_CHUNKS) {
        cudaError_t e = domino_launch_spmm_chunks(P->stream, P->type, P->rows, P->nnz, P->n, P->ptr32, P->ind, P->val,
                                                  P->dB, P->ldb, P->dC, P->ldc, 0, P->work);
        if (!e) e = cudaStreamSynchronize(P->stream);
        return e ? domino_cuda_status(h, e, WHAT " (chunks)") : DOMINO_SUCCESS;
    }
    const void *alpha = P->vt == CUDA_R_64F ? (const void *)&P->one : (const void *)&P->onef;
    const void *beta = P->vt == CUDA_R_64F ? (const void *)&P->zero : (const void *)&P->zerof;
    cusparseStatus_t st = cusparseSpMM(P->sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                       alpha, P->a, P->b, beta, P->c, P->vt, P->alg, P->work);
    if (st) return domino_cusparse_status(h, st, WHAT);
    cudaError_t e = cudaStreamSynchronize(P->stream);
    return e ? domino_cuda_status(h, e, WHAT) : DOMINO_SUCCESS;
}

domino_status domino_gpu_spmm(domino_handle h, domino_dmatrix dA, int64_t n, const void *dB, int64_t ldb, void *dC,
                              int64_t ldc)
{
    domino_spmm_plan P = NULL;
    domino_status s = domino_gpu_spmm_plan(h, dA, n, dB, ldb, dC, ldc, &P);
    if (!s) s = domino_gpu_spmm_run(h, P);
    domino_gpu_spmm_plan_free(P);
    return s;
}
