/* levels_gpu.c: domino_dmatrix_levels, the level sets of a triangle of a
 * device CSR matrix, computed on the GPU (trsv_levelset.cu) and returned on
 * the host in domino_ref_levels' form */
#include "gpu_internal.h"

#include <stdlib.h>
#include <string.h>

domino_status domino_dmatrix_levels(domino_handle h, domino_fill fill, domino_dmatrix dA,
                                    domino_levels **levels)
{
    const char *fn = "domino_dmatrix_levels";
    if (!levels) return domino_error(h, DOMINO_NULL_POINTER, "%s: levels is NULL", fn);
    *levels = NULL;
    if (!dA || dA->magic != DOMINO_DMATRIX_MAGIC)
        return domino_error(h, DOMINO_INVALID_OBJECT, "%s: dA is NULL or not a live device matrix", fn);
    if (dA->format != DOMINO_CSR) return domino_error(h, DOMINO_INVALID_VALUE, "%s: dA must be CSR", fn);
    if (dA->nrows != dA->ncols)
        return domino_error(h, DOMINO_DIMENSION_MISMATCH, "%s: dA is %d x %d, not square", fn,
                            dA->nrows, dA->ncols);
    if (fill != DOMINO_LOWER && fill != DOMINO_UPPER)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: fill must be LOWER or UPPER", fn);
    struct domino_gpu_context *gpu;
    domino_status s = domino_gpu_context_get(h, &gpu);
    if (s) return s;
    int32_t n = dA->nrows, upper = fill == DOMINO_UPPER;
    size_t n1 = (size_t)n + 1, scan_bytes = domino_scan_scratch_bytes(n);
    int32_t *row_level = NULL, *level_rows = NULL, nlevels = 0;
    int64_t *level_count = NULL, *level_ptr_host = NULL;
    unsigned long long *offdiag = NULL, offdiag_host = 0;
    domino_solve_status *st = NULL;
    void *scan_tmp = NULL;
    domino_levels *L = domino_calloc(1, sizeof(*L));
    if (!L) return domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory", fn);
    cudaError_t e;
    if ((e = cudaMalloc((void **)&row_level, n1 * sizeof(int32_t))) ||
        (e = cudaMalloc((void **)&level_rows, n1 * sizeof(int32_t))) ||
        (e = cudaMalloc((void **)&level_count, 2 * n1 * sizeof(int64_t))) ||
        (e = cudaMalloc(&scan_tmp, scan_bytes + 16)) ||
        (e = cudaMalloc((void **)&st, sizeof(*st))) ||
        (e = cudaMalloc((void **)&offdiag, sizeof(*offdiag))) ||
        (e = domino_launch_status_reset(gpu->stream, st)) ||
        (e = domino_launch_levels(gpu->stream, n, dA->ptr, dA->ind, upper, row_level, level_rows,
                                  level_count, scan_tmp, scan_bytes, st, &nlevels,
                                  &level_ptr_host)) ||
        (e = domino_launch_triangle_offdiag(gpu->stream, n, dA->ptr, dA->ind, upper, offdiag)) ||
        (e = cudaMemcpyAsync(&offdiag_host, offdiag, sizeof(offdiag_host), cudaMemcpyDeviceToHost,
                             gpu->stream)) ||
        (e = cudaStreamSynchronize(gpu->stream))) {
        s = domino_cuda_status(h, e, fn);
        goto cleanup;
    }
    L->n = n;
    L->nlevels = nlevels;
    L->level_ptr = domino_malloc(((size_t)nlevels + 1) * sizeof(int64_t));
    L->level_rows = domino_malloc(n1 * sizeof(int32_t));
    L->row_level = domino_malloc(n1 * sizeof(int32_t));
    if (!L->level_ptr || !L->level_rows || !L->row_level) {
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory (n = %d)", fn, n);
        goto cleanup;
    }
    L->level_ptr[0] = 0;
    if (nlevels > 0) memcpy(L->level_ptr, level_ptr_host, ((size_t)nlevels + 1) * sizeof(int64_t));
    if ((s = domino_gpu_download(h, L->level_rows, level_rows, (size_t)n * sizeof(int32_t))) ||
        (s = domino_gpu_download(h, L->row_level, row_level, (size_t)n * sizeof(int32_t))))
        goto cleanup;
    L->parallelism = n > 0 ? (double)n / nlevels : 0.0;
    L->dependency = n > 0 ? (double)(offdiag_host + (unsigned long long)n) / n : 0.0;
cleanup:
    free(level_ptr_host); /* malloc'd by the launcher */
    cudaFree(row_level);
    cudaFree(level_rows);
    cudaFree(level_count);
    cudaFree(scan_tmp);
    cudaFree(st);
    cudaFree(offdiag);
    if (s) domino_levels_free(L);
    else *levels = L;
    return s;
}
