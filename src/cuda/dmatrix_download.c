/* dmatrix_download.c: a host copy of a device matrix (pattern and values) */
#include "gpu_internal.h"

/* *A = new host matrix of dA's format, type, pattern and values */
domino_status domino_dmatrix_download(domino_handle h, domino_dmatrix dA, domino_matrix *A)
{
    const char *fn = "domino_dmatrix_download";
    if (!A) return domino_error(h, DOMINO_NULL_POINTER, "%s: A is NULL", fn);
    *A = NULL;
    if (!dA) return domino_error(h, DOMINO_NULL_POINTER, "%s: dA is NULL", fn);
    if (dA->magic != DOMINO_DMATRIX_MAGIC)
        return domino_error(h, DOMINO_INVALID_OBJECT, "%s: dA is not a live device matrix", fn);
    struct domino_gpu_context *gpu;
    domino_matrix M = NULL;
    domino_status s = domino_gpu_context_get(h, &gpu);
    if (s || (s = domino_matrix_new(h, dA->format, dA->type, dA->nrows, dA->ncols, dA->nnz, &M)))
        return s;
    size_t np = (size_t)domino_matrix_nptr(M) + 1;
    cudaError_t e;
    if ((e = cudaMemcpyAsync(M->ptr, dA->ptr, np * sizeof(int64_t), cudaMemcpyDeviceToHost, gpu->stream)) ||
        (e = cudaMemcpyAsync(M->ind, dA->ind, (size_t)dA->nnz * sizeof(int32_t), cudaMemcpyDeviceToHost,
                             gpu->stream)) ||
        (e = cudaMemcpyAsync(M->val, dA->val, (size_t)dA->nnz * domino_type_size(dA->type),
                             cudaMemcpyDeviceToHost, gpu->stream)) ||
        (e = cudaStreamSynchronize(gpu->stream))) {
        domino_matrix_free(M);
        return domino_cuda_status(h, e, fn);
    }
    *A = M;
    return DOMINO_SUCCESS;
}
