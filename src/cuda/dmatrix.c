/* dmatrix.c: sparse matrices resident on the GPU: upload, new values, free */
#include "gpu_internal.h"

#include <string.h>

void domino_dmatrix_free(domino_dmatrix dA)
{
    if (!dA || dA->magic != DOMINO_DMATRIX_MAGIC || dA->borrowed) return;
    cudaFree(dA->ptr);
    cudaFree(dA->ind);
    cudaFree(dA->val);
    dA->magic = DOMINO_FREED_MAGIC;
    domino_free(dA);
}

domino_status domino_dmatrix_upload(domino_handle h, domino_matrix A, domino_dmatrix *out)
{
    if (!out) return domino_error(h, DOMINO_NULL_POINTER, "domino_dmatrix_upload: dA is NULL");
    *out = NULL;
    domino_status s = domino_check_matrix(h, A, "domino_dmatrix_upload");
    if (s) return s;
    struct domino_gpu_context *gpu;
    if ((s = domino_gpu_context_get(h, &gpu))) return s;
    if (A->symmetry != DOMINO_GENERAL)
        return domino_error(h, DOMINO_NOT_SUPPORTED,
                            "domino_dmatrix_upload: matrix is stored as (skew-)symmetric; expand it first");
    /* kernels trust offsets and indices: check them once here */
    if ((s = domino_matrix_validate(h, A, 0, NULL))) return s;
    struct domino_dmatrix_s *d = domino_calloc(1, sizeof(*d));
    if (!d) return domino_error(h, DOMINO_OUT_OF_MEMORY, "domino_dmatrix_upload: out of memory");
    d->magic = DOMINO_DMATRIX_MAGIC;
    d->format = A->format;
    d->type = A->type;
    d->nrows = A->nrows;
    d->ncols = A->ncols;
    d->nnz = A->nnz;
    d->sorted = 1;
    for (int32_t r = 0; r < domino_matrix_nptr(A) && d->sorted; r++)
        for (int64_t k = A->ptr[r] + 1; k < A->ptr[r + 1]; k++)
            if (A->ind[k] < A->ind[k - 1]) {
                d->sorted = 0;
                break;
            }
    size_t np = (size_t)domino_matrix_nptr(A) + 1, vs = domino_type_size(A->type);
    cudaError_t e;
    if ((e = domino_cuda_malloc((void **)&d->ptr, np * sizeof(int64_t))) ||
        (e = domino_cuda_malloc((void **)&d->ind, (size_t)A->nnz * sizeof(int32_t) + 4)) ||
        (e = domino_cuda_malloc(&d->val, (size_t)A->nnz * vs + 8)) ||
        (e = cudaMemcpyAsync(d->ptr, A->ptr, np * sizeof(int64_t), cudaMemcpyHostToDevice, gpu->stream)) ||
        (e = cudaMemcpyAsync(d->ind, A->ind, (size_t)A->nnz * sizeof(int32_t), cudaMemcpyHostToDevice,
                             gpu->stream)) ||
        (e = cudaMemcpyAsync(d->val, A->val, (size_t)A->nnz * vs, cudaMemcpyHostToDevice, gpu->stream)) ||
        (e = cudaStreamSynchronize(gpu->stream))) {
        domino_dmatrix_free(d);
        return domino_cuda_status(h, e, "domino_dmatrix_upload");
    }
    *out = d;
    return DOMINO_SUCCESS;
}

domino_status domino_dmatrix_update_values(domino_handle h, domino_dmatrix dA, domino_matrix A)
{
    domino_status s = domino_check_matrix(h, A, "domino_dmatrix_update_values");
    if (s) return s;
    if (!dA) return domino_error(h, DOMINO_NULL_POINTER, "domino_dmatrix_update_values: dA is NULL");
    if (dA->magic != DOMINO_DMATRIX_MAGIC)
        return domino_error(h, DOMINO_INVALID_OBJECT, "domino_dmatrix_update_values: dA is not live");
    if (A->format != dA->format || A->type != dA->type || A->nrows != dA->nrows ||
        A->ncols != dA->ncols || A->nnz != dA->nnz)
        return domino_error(h, DOMINO_DIMENSION_MISMATCH,
                            "domino_dmatrix_update_values: A does not have dA's pattern (format, type, size or nnz differ)");
    struct domino_gpu_context *gpu;
    if ((s = domino_gpu_context_get(h, &gpu))) return s;
    cudaError_t e = cudaMemcpyAsync(dA->val, A->val, (size_t)A->nnz * domino_type_size(A->type),
                                    cudaMemcpyHostToDevice, gpu->stream);
    if (!e) e = cudaStreamSynchronize(gpu->stream);
    if (e) return domino_cuda_status(h, e, "domino_dmatrix_update_values");
    dA->values_version++;
    return DOMINO_SUCCESS;
}
