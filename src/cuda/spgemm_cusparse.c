/* spgemm_cusparse.c: C = A B on one GPU with cusparseSpGEMM (the single-GPU
 * SpGEMM, and the reference the distributed ones are measured against).
 * cuSPARSE takes 32-bit offsets and, with its default algorithm, a
 * workspace that grows with the number of products (GPU-NOTES: 28 GB for
 * R-MAT scale 20 squared, and no algorithm squares scale 22).  So A is
 * multiplied by row blocks: the whole of A first, with the default
 * algorithm; where that lacks resources, the same block with the
 * memory-frugal CUSPARSE_SPGEMM_ALG3; where that does too, or where the
 * block's product would pass 2^31 entries, the block's two halves.  The
 * blocks' products are then placed one after another in C, whose offsets
 * are 64-bit.  Peak device memory: the blocks' products and C together
 * when there are several blocks; one block's product becomes C. */
#include "gpu_internal.h"

#include <stdlib.h>
#include <string.h>

#define WHAT "domino_gpu_spgemm"
#define SPGEMM_CHUNK_FRACTION 0.2f /* ALG3: the share of the products computed at a time */
#define OPN CUSPARSE_OPERATION_NON_TRANSPOSE

/* one row block's product on the device, offsets from 0 */
typedef struct spgemm_block {
    int32_t r0, r1; /* rows [r0, r1) of A and of C */
    int64_t nnz;    /* entries */
    int32_t *ptr;   /* r1 - r0 + 1 offsets */
    int32_t *ind;   /* nnz columns */
    void *val;      /* nnz values */
} spgemm_block;

/* one product under way */
typedef struct spgemm_run {
    domino_handle h;              /* for errors */
    struct domino_gpu_context *gpu; /* stream and cuSPARSE handle */
    domino_dmatrix dA, dB;        /* the operands */
    cudaDataType vt;              /* value type */
    size_t vs;                    /* bytes of a value */
    double one, zero;             /* alpha and beta (double) */
    float onef, zerof;            /* (float) */
    int32_t *b_ptr;               /* B's offsets narrowed to 32 bits */
    cusparseSpMatDescr_t b;       /* B */
    int64_t *a_ptr;               /* A's offsets, host copy (block sizes) */
    int32_t max_rows;             /* rows of a block at most (DOMINO_SPGEMM_BLOCK_ROWS) */
    spgemm_block *blocks;         /* the products made, in row order */
    int nblocks, cap;             /* used and allocated entries of blocks */
    int frugal;                   /* blocks multiplied with ALG3 */
} spgemm_run;

static void block_free(spgemm_block *blk)
{
    cudaFree(blk->ptr);
    cudaFree(blk->ind);
    cudaFree(blk->val);
    blk->ptr = NULL, blk->ind = NULL, blk->val = NULL;
}

/* what a failed call says about the cause: out of memory or resources */
static int lacks_resources(cusparseStatus_t st, cudaError_t e)
{
    return st == CUSPARSE_STATUS_INSUFFICIENT_RESOURCES || st == CUSPARSE_STATUS_ALLOC_FAILED ||
           e == cudaErrorMemoryAllocation;
}

/* *blk with no entries: its rows + 1 offsets, all 0 */
static cudaError_t empty_block(cudaStream_t stream, int32_t rows, spgemm_block *blk)
{
    size_t bytes = ((size_t)rows + 1) * sizeof(int32_t);
    cudaError_t e = cudaMalloc((void **)&blk->ptr, bytes);
    if (!e) e = cudaMemsetAsync(blk->ptr, 0, bytes, stream);
    if (!e) e = cudaStreamSynchronize(stream);
    return e;
}

/* rows [r0, r1) of A times B with algorithm alg into *blk; on success with
 * nothing kept, *too_big is 1 where memory or cuSPARSE's resources do not
 * suffice and 2 where a count passes 2^31 (another algorithm will not help) */
static domino_status block_product(spgemm_run *R, int32_t r0, int32_t r1, cusparseSpGEMMAlg_t alg,
                                   spgemm_block *blk, int *too_big)
{
    domino_dmatrix dA = R->dA, dB = R->dB;
    cudaStream_t stream = R->gpu->stream;
    cusparseHandle_t sp = R->gpu->cusparse;
    int64_t first = R->a_ptr[r0], nnz_a = R->a_ptr[r1] - first;
    int32_t rows = r1 - r0;
    *too_big = 0;
    if (nnz_a >= INT32_MAX) {
        *too_big = 2;
        return DOMINO_SUCCESS;
    }
    const void *alpha = R->vt == CUDA_R_64F ? (const void *)&R->one : (const void *)&R->onef;
    const void *beta = R->vt == CUDA_R_64F ? (const void *)&R->zero : (const void *)&R->zerof;
    cusparseSpMatDescr_t a = NULL, c = NULL;
    cusparseSpGEMMDescr_t sd = NULL;
    int32_t *a_ptr = NULL;
    void *buf1 = NULL, *buf2 = NULL, *buf3 = NULL;
    size_t s1 = 0, s2 = 0, s3 = 0;
    int64_t c_rows = 0, c_cols = 0, c_nnz = 0, products = 1;
    int over = 0, none; /* C's block passes 2^31 entries; it has none */
    cusparseStatus_t st = CUSPARSE_STATUS_SUCCESS;
    cudaError_t e;
    blk->r0 = r0, blk->r1 = r1, blk->nnz = 0;
    blk->ptr = NULL, blk->ind = NULL, blk->val = NULL;
    none = nnz_a == 0 || dB->nnz == 0; /* an empty product: not cuSPARSE's case */
    if (none) {
        e = empty_block(stream, rows, blk);
        goto done;
    }
    e = cudaMalloc((void **)&a_ptr, ((size_t)rows + 1) * sizeof(int32_t));
    if (!e) e = domino_launch_offsets_narrow(stream, rows + 1, dA->ptr + r0, first, a_ptr);
    if (!e)
        st = cusparseCreateCsr(&a, rows, dA->ncols, nnz_a, a_ptr, dA->ind + first,
                               (char *)dA->val + (size_t)first * R->vs, CUSPARSE_INDEX_32I,
                               CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, R->vt);
    if (!e && !st)
        st = cusparseCreateCsr(&c, rows, dB->ncols, 0, NULL, NULL, NULL, CUSPARSE_INDEX_32I,
                               CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, R->vt);
    if (!e && !st) st = cusparseSpGEMM_createDescr(&sd);
    if (!e && !st)
        st = cusparseSpGEMM_workEstimation(sp, OPN, OPN, alpha, a, R->b, beta, c, R->vt, alg, sd, &s1, NULL);
    if (!e && !st) e = cudaMalloc(&buf1, s1 ? s1 : 1);
    if (!e && !st)
        st = cusparseSpGEMM_workEstimation(sp, OPN, OPN, alpha, a, R->b, beta, c, R->vt, alg, sd, &s1, buf1);
    /* A's block reaching only empty rows of B: no products (where the
     * algorithm does not count them, the call fails and cuSPARSE goes on) */
    if (!e && !st && cusparseSpGEMM_getNumProducts(sd, &products) != CUSPARSE_STATUS_SUCCESS) products = 1;
    none = !e && !st && products == 0;
    if (none) {
        e = empty_block(stream, rows, blk);
        goto done;
    }
    if (alg == CUSPARSE_SPGEMM_ALG3) { /* the memory the chunked compute needs */
        if (!e && !st)
            st = cusparseSpGEMM_estimateMemory(sp, OPN, OPN, alpha, a, R->b, beta, c, R->vt, alg, sd,
                                               SPGEMM_CHUNK_FRACTION, &s3, NULL, NULL);
        if (!e && !st) e = cudaMalloc(&buf3, s3 ? s3 : 1);
        if (!e && !st)
            st = cusparseSpGEMM_estimateMemory(sp, OPN, OPN, alpha, a, R->b, beta, c, R->vt, alg, sd,
                                               SPGEMM_CHUNK_FRACTION, &s3, buf3, &s2);
        cudaFree(buf3);
    } else if (!e && !st) {
        st = cusparseSpGEMM_compute(sp, OPN, OPN, alpha, a, R->b, beta, c, R->vt, alg, sd, &s2, NULL);
    }
    if (!e && !st) e = cudaMalloc(&buf2, s2 ? s2 : 1);
    if (!e && !st)
        st = cusparseSpGEMM_compute(sp, OPN, OPN, alpha, a, R->b, beta, c, R->vt, alg, sd, &s2, buf2);
    if (!e && !st) st = cusparseSpMatGetSize(c, &c_rows, &c_cols, &c_nnz);
    over = !e && !st && c_nnz >= INT32_MAX;
    if (!e && !st && !over) e = cudaMalloc((void **)&blk->ptr, ((size_t)rows + 1) * sizeof(int32_t));
    if (!e && !st && !over) e = cudaMalloc((void **)&blk->ind, (size_t)c_nnz * sizeof(int32_t) + 4);
    if (!e && !st && !over) e = cudaMalloc(&blk->val, (size_t)c_nnz * R->vs + 8);
    if (!e && !st && !over) st = cusparseCsrSetPointers(c, blk->ptr, blk->ind, blk->val);
    if (!e && !st && !over) st = cusparseSpGEMM_copy(sp, OPN, OPN, alpha, a, R->b, beta, c, R->vt, alg, sd);
    if (!e && !st && !over) e = cudaStreamSynchronize(stream);
done:
    if (sd) cusparseSpGEMM_destroyDescr(sd);
    if (a) cusparseDestroySpMat(a);
    if (c) cusparseDestroySpMat(c);
    cudaFree(a_ptr);
    cudaFree(buf1);
    cudaFree(buf2);
    if (e || st || over) {
        block_free(blk);
        if (over || lacks_resources(st, e)) {
            cudaGetLastError(); /* a failed cudaMalloc leaves its error behind */
            *too_big = over ? 2 : 1;
            return DOMINO_SUCCESS;
        }
        return e ? domino_cuda_status(R->h, e, WHAT) : domino_cusparse_status(R->h, st, WHAT);
    }
    blk->nnz = none ? 0 : c_nnz;
    return DOMINO_SUCCESS;
}

/* rows [r0, r1) of C, as one block or, where it does not fit, as two */
static domino_status multiply_rows(spgemm_run *R, int32_t r0, int32_t r1)
{
    spgemm_block blk;
    int too_big = r1 - r0 > R->max_rows ? 2 : 0; /* as block_product's: 2, halve at once */
    domino_status s = DOMINO_SUCCESS;
    if (!too_big) s = block_product(R, r0, r1, CUSPARSE_SPGEMM_DEFAULT, &blk, &too_big);
    if (!s && too_big == 1) {
        s = block_product(R, r0, r1, CUSPARSE_SPGEMM_ALG3, &blk, &too_big);
        if (!s && !too_big) R->frugal++;
    }
    if (s) return s;
    if (too_big) {
        if (r1 - r0 == 1)
            return domino_error(R->h, DOMINO_OUT_OF_MEMORY,
                                WHAT ": row %d of A times B does not fit on the GPU", r0);
        int32_t mid = r0 + (r1 - r0) / 2;
        if ((s = multiply_rows(R, r0, mid))) return s;
        return multiply_rows(R, mid, r1);
    }
    if (R->nblocks == R->cap) {
        int cap = R->cap ? 2 * R->cap : 8;
        spgemm_block *more = domino_realloc(R->blocks, (size_t)cap * sizeof(*more));
        if (!more) {
            block_free(&blk);
            return domino_error(R->h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory");
        }
        R->blocks = more, R->cap = cap;
    }
    R->blocks[R->nblocks++] = blk;
    return DOMINO_SUCCESS;
}

/* C from the blocks: offsets widened and shifted, entries copied */
static domino_status assemble(spgemm_run *R, struct domino_dmatrix_s *C)
{
    cudaStream_t stream = R->gpu->stream;
    int64_t total = 0;
    for (int q = 0; q < R->nblocks; q++)
        total += R->blocks[q].nnz;
    C->nnz = total;
    cudaError_t e = cudaMalloc((void **)&C->ptr, ((size_t)C->nrows + 1) * sizeof(int64_t));
    if (!e && R->nblocks == 1 && R->blocks[0].ind) { /* the usual case: no second copy of C */
        spgemm_block *blk = &R->blocks[0];
        C->ind = blk->ind, C->val = blk->val;
        blk->ind = NULL, blk->val = NULL;
        e = domino_launch_offsets_widen(stream, blk->r1 - blk->r0 + 1, blk->ptr, 0, C->ptr);
        if (!e) e = cudaStreamSynchronize(stream);
        return e ? domino_cuda_status(R->h, e, WHAT) : DOMINO_SUCCESS;
    }
    if (!e) e = cudaMalloc((void **)&C->ind, (size_t)total * sizeof(int32_t) + 4);
    if (!e) e = cudaMalloc(&C->val, (size_t)total * R->vs + 8);
    if (!e) e = cudaMemsetAsync(C->ptr, 0, sizeof(int64_t), stream); /* C of no rows */
    int64_t base = 0;
    for (int q = 0; q < R->nblocks && !e; q++) {
        spgemm_block *blk = &R->blocks[q];
        /* a block's last offset is the next one's first: both write base + nnz */
        e = domino_launch_offsets_widen(stream, blk->r1 - blk->r0 + 1, blk->ptr, base, C->ptr + blk->r0);
        if (!e && blk->nnz)
            e = cudaMemcpyAsync(C->ind + base, blk->ind, (size_t)blk->nnz * sizeof(int32_t),
                                cudaMemcpyDeviceToDevice, stream);
        if (!e && blk->nnz)
            e = cudaMemcpyAsync((char *)C->val + (size_t)base * R->vs, blk->val,
                                (size_t)blk->nnz * R->vs, cudaMemcpyDeviceToDevice, stream);
        base += blk->nnz;
    }
    if (!e) e = cudaStreamSynchronize(stream);
    return e ? domino_cuda_status(R->h, e, WHAT) : DOMINO_SUCCESS;
}

/* the operands' checks; names what is wrong */
static domino_status check_operands(domino_handle h, domino_dmatrix dA, domino_dmatrix dB)
{
    if (!dA || !dB) return domino_error(h, DOMINO_NULL_POINTER, WHAT ": dA or dB is NULL");
    if (dA->magic != DOMINO_DMATRIX_MAGIC || dB->magic != DOMINO_DMATRIX_MAGIC)
        return domino_error(h, DOMINO_INVALID_OBJECT, WHAT ": dA or dB is not a live device matrix");
    if (dA->format != DOMINO_CSR || dB->format != DOMINO_CSR)
        return domino_error(h, DOMINO_NOT_SUPPORTED, WHAT ": dA and dB must be CSR");
    if (dA->type != dB->type)
        return domino_error(h, DOMINO_INVALID_VALUE, WHAT ": dA and dB have different value types");
    if (dA->ncols != dB->nrows)
        return domino_error(h, DOMINO_DIMENSION_MISMATCH, WHAT ": A is %d x %d, B is %d x %d", dA->nrows,
                            dA->ncols, dB->nrows, dB->ncols);
    if (dB->nnz >= INT32_MAX)
        return domino_error(h, DOMINO_NOT_SUPPORTED, WHAT ": B has %lld entries; cuSPARSE takes fewer than 2^31",
                            (long long)dB->nnz);
    return DOMINO_SUCCESS;
}

domino_status domino_gpu_spgemm(domino_handle h, domino_dmatrix dA, domino_dmatrix dB,
                                domino_dmatrix *dC, domino_gpu_spgemm_info *info)
{
    if (!dC) return domino_error(h, DOMINO_NULL_POINTER, WHAT ": dC is NULL");
    *dC = NULL;
    if (info) memset(info, 0, sizeof(*info));
    domino_status s = check_operands(h, dA, dB);
    if (s) return s;
    spgemm_run R;
    struct domino_dmatrix_s *C = NULL;
    cudaError_t e;
    cusparseStatus_t st;
    memset(&R, 0, sizeof(R));
    R.h = h;
    if ((s = domino_gpu_context_get(h, &R.gpu))) return s;
    R.dA = dA, R.dB = dB;
    R.vt = dA->type == DOMINO_FLOAT64 ? CUDA_R_64F : CUDA_R_32F;
    R.vs = domino_type_size(dA->type);
    R.one = 1.0, R.zero = 0.0, R.onef = 1.0f, R.zerof = 0.0f;
    const char *cap = getenv("DOMINO_SPGEMM_BLOCK_ROWS");
    R.max_rows = cap && atoi(cap) > 0 ? atoi(cap) : INT32_MAX;
    C = domino_calloc(1, sizeof(*C));
    R.a_ptr = domino_malloc(((size_t)dA->nrows + 1) * sizeof(int64_t));
    if (!C || !R.a_ptr) {
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory");
        goto cleanup;
    }
    C->magic = DOMINO_DMATRIX_MAGIC;
    C->format = DOMINO_CSR;
    C->type = dA->type;
    C->nrows = dA->nrows;
    C->ncols = dB->ncols;
    C->sorted = 0; /* as cuSPARSE leaves the rows */
    e = cudaMemcpyAsync(R.a_ptr, dA->ptr, ((size_t)dA->nrows + 1) * sizeof(int64_t),
                                    cudaMemcpyDeviceToHost, R.gpu->stream);
    if (!e) e = cudaMalloc((void **)&R.b_ptr, ((size_t)dB->nrows + 1) * sizeof(int32_t));
    if (!e) e = domino_launch_offsets_to_int32(R.gpu->stream, dB->nrows + 1, dB->ptr, R.b_ptr);
    if (!e) e = cudaStreamSynchronize(R.gpu->stream);
    if (e) {
        s = domino_cuda_status(h, e, WHAT);
        goto cleanup;
    }
    st = cusparseCreateCsr(&R.b, dB->nrows, dB->ncols, dB->nnz, R.b_ptr, dB->ind, dB->val,
                           CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                           CUSPARSE_INDEX_BASE_ZERO, R.vt);
    if (st) {
        s = domino_cusparse_status(h, st, WHAT);
        goto cleanup;
    }
    if (dA->nrows > 0 && (s = multiply_rows(&R, 0, dA->nrows))) goto cleanup;
    if ((s = assemble(&R, C))) goto cleanup;
    if (info) {
        info->blocks = R.nblocks;
        info->frugal_blocks = R.frugal;
        info->nnz = C->nnz;
    }
    *dC = C;
    C = NULL;
cleanup:
    if (C) {
        cudaFree(C->ptr);
        cudaFree(C->ind);
        cudaFree(C->val);
        domino_free(C);
    }
    for (int q = 0; q < R.nblocks; q++)
        block_free(&R.blocks[q]);
    domino_free(R.blocks);
    if (R.b) cusparseDestroySpMat(R.b);
    cudaFree(R.b_ptr);
    domino_free(R.a_ptr);
    return s;
}
