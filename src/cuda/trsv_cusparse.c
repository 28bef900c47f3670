/* trsv_cusparse.c: the cusparseSpSV / cusparseSpSM baseline as an engine */
#include "trsv_plan.h"

#include <string.h>

/* cuSPARSE objects of a plan */
typedef struct cusparse_plan {
    cusparseSpMatDescr_t mat;   /* CSR of the caller's arrays, 32-bit offsets */
    cusparseSpSVDescr_t spsv;   /* nrhs == 1 */
    cusparseSpSMDescr_t spsm;   /* nrhs > 1 */
    cusparseOperation_t op;     /* op on the arrays' matrix */
    cudaDataType dtype;         /* value type */
    void *buffer;               /* cuSPARSE workspace */
    void *dummy;                /* vectors for the analysis call, freed after it */
    size_t buffer_bytes;        /* size of buffer */
    int64_t ldb, ldx;           /* leading dimensions the SpSM analysis saw */
} cusparse_plan;

static void set_alpha(domino_type t, double *ad, float *af, const void **alpha)
{
    *ad = 1.0;
    *af = 1.0f;
    *alpha = t == DOMINO_FLOAT64 ? (const void *)ad : (const void *)af;
}

void domino_cusparse_trsv_free(struct domino_trsv_plan_s *p)
{
    cusparse_plan *c = p->cusparse_plan;
    if (c) {
        if (c->mat) cusparseDestroySpMat(c->mat);
        if (c->spsv) cusparseSpSV_destroyDescr(c->spsv);
        if (c->spsm) cusparseSpSM_destroyDescr(c->spsm);
        domino_pool_free(c->buffer);
        domino_pool_free(c->dummy);
        domino_free(c);
        p->cusparse_plan = NULL;
    }
    domino_pool_free(p->ptr32);
    p->ptr32 = NULL;
}

/* dense descriptors of an n x nrhs block (vector when nrhs == 1) */
static cusparseStatus_t make_dense(const struct domino_trsv_plan_s *p, cudaDataType dt, const void *B,
                                   int64_t ldb, void *X, int64_t ldx, cusparseDnVecDescr_t *vb,
                                   cusparseDnVecDescr_t *vx, cusparseDnMatDescr_t *mb,
                                   cusparseDnMatDescr_t *mx)
{
    cusparseStatus_t cs;
    if (p->nrhs == 1) {
        cs = cusparseCreateDnVec(vb, p->n, (void *)B, dt);
        if (!cs) cs = cusparseCreateDnVec(vx, p->n, X, dt);
        return cs;
    }
    cs = cusparseCreateDnMat(mb, p->n, p->nrhs, ldb, (void *)B, dt, CUSPARSE_ORDER_COL);
    if (!cs) cs = cusparseCreateDnMat(mx, p->n, p->nrhs, ldx, X, dt, CUSPARSE_ORDER_COL);
    return cs;
}

static void free_dense(cusparseDnVecDescr_t vb, cusparseDnVecDescr_t vx, cusparseDnMatDescr_t mb,
                       cusparseDnMatDescr_t mx)
{
    if (vb) cusparseDestroyDnVec(vb);
    if (vx) cusparseDestroyDnVec(vx);
    if (mb) cusparseDestroyDnMat(mb);
    if (mx) cusparseDestroyDnMat(mx);
}

domino_status domino_cusparse_trsv_analysis(domino_handle h, struct domino_gpu_context *gpu,
                                            struct domino_trsv_plan_s *p)
{
    const char *fn = "domino_trsv_analysis (cusparse)";
    domino_dmatrix dA = p->dA;
    cusparse_plan *c = domino_calloc(1, sizeof(*c));
    if (!c) return domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory", fn);
    p->cusparse_plan = c;
    int csr = dA->format == DOMINO_CSR;
    int tr = (p->op == DOMINO_OP_T) != !csr;  /* op on CSR(A) or on CSR(A^T) */
    domino_fill fill = csr ? p->fill : (p->fill == DOMINO_LOWER ? DOMINO_UPPER : DOMINO_LOWER);
    cusparseFillMode_t fm = fill == DOMINO_LOWER ? CUSPARSE_FILL_MODE_LOWER : CUSPARSE_FILL_MODE_UPPER;
    cusparseDiagType_t dt = p->diag == DOMINO_UNIT ? CUSPARSE_DIAG_TYPE_UNIT : CUSPARSE_DIAG_TYPE_NON_UNIT;
    c->op = tr ? CUSPARSE_OPERATION_TRANSPOSE : CUSPARSE_OPERATION_NON_TRANSPOSE;
    c->dtype = p->type == DOMINO_FLOAT64 ? CUDA_R_64F : CUDA_R_32F;
    size_t vs = domino_type_size(p->type), bytes = 0;
    cudaError_t e;
    cusparseStatus_t cs;
    cusparseDnVecDescr_t vb = NULL, vx = NULL;
    cusparseDnMatDescr_t mb = NULL, mx = NULL;
    double ad;
    float af;
    const void *alpha;
    set_alpha(p->type, &ad, &af, &alpha);
    if ((e = domino_pool_malloc((void **)&p->ptr32, ((size_t)p->n + 1) * sizeof(int32_t), gpu->stream)) ||
        (e = domino_launch_offsets_to_int32(gpu->stream, p->n + 1, dA->ptr, p->ptr32)) ||
        (e = domino_pool_malloc(&c->dummy, 2 * (size_t)p->n * p->nrhs * vs + 16, gpu->stream)))
        return domino_cuda_status(h, e, fn);
    cs = cusparseCreateCsr(&c->mat, p->n, p->n, dA->nnz, p->ptr32, dA->ind, dA->val,
                           CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, c->dtype);
    if (!cs) cs = cusparseSpMatSetAttribute(c->mat, CUSPARSE_SPMAT_FILL_MODE, &fm, sizeof(fm));
    if (!cs) cs = cusparseSpMatSetAttribute(c->mat, CUSPARSE_SPMAT_DIAG_TYPE, &dt, sizeof(dt));
    char *d0 = c->dummy, *d1 = d0 + (size_t)p->n * p->nrhs * vs;
    if (!cs) cs = make_dense(p, c->dtype, d0, p->n, d1, p->n, &vb, &vx, &mb, &mx);
    if (!cs && p->nrhs == 1) {
        cs = cusparseSpSV_createDescr(&c->spsv);
        if (!cs) cs = cusparseSpSV_bufferSize(gpu->cusparse, c->op, alpha, c->mat, vb, vx, c->dtype,
                                              CUSPARSE_SPSV_ALG_DEFAULT, c->spsv, &bytes);
        if (!cs && (e = domino_pool_malloc(&c->buffer, bytes + 16, gpu->stream))) goto cuda_fail;
        if (!cs) cs = cusparseSpSV_analysis(gpu->cusparse, c->op, alpha, c->mat, vb, vx, c->dtype,
                                            CUSPARSE_SPSV_ALG_DEFAULT, c->spsv, c->buffer);
    } else if (!cs) {
        cusparseOperation_t opb = CUSPARSE_OPERATION_NON_TRANSPOSE;
        cs = cusparseSpSM_createDescr(&c->spsm);
        if (!cs) cs = cusparseSpSM_bufferSize(gpu->cusparse, c->op, opb, alpha, c->mat, mb, mx,
                                              c->dtype, CUSPARSE_SPSM_ALG_DEFAULT, c->spsm, &bytes);
        if (!cs && (e = domino_pool_malloc(&c->buffer, bytes + 16, gpu->stream))) goto cuda_fail;
        if (!cs) cs = cusparseSpSM_analysis(gpu->cusparse, c->op, opb, alpha, c->mat, mb, mx,
                                            c->dtype, CUSPARSE_SPSM_ALG_DEFAULT, c->spsm, c->buffer);
    }
    free_dense(vb, vx, mb, mx);
    cudaStreamSynchronize(gpu->stream);
    domino_pool_free(c->dummy);
    c->dummy = NULL;
    c->buffer_bytes = bytes;
    c->ldb = c->ldx = p->n;
    if (cs) return domino_cusparse_status(h, cs, fn);
    p->values_version = dA->values_version;
    return domino_cuda_status(h, cudaStreamSynchronize(gpu->stream), fn);
cuda_fail:
    free_dense(vb, vx, mb, mx);
    return domino_cuda_status(h, e, fn);
}

domino_status domino_cusparse_trsv_update(domino_handle h, struct domino_gpu_context *gpu,
                                          struct domino_trsv_plan_s *p)
{
    cusparse_plan *c = p->cusparse_plan;
    cusparseStatus_t cs;
    if (p->nrhs == 1)
        cs = cusparseSpSV_updateMatrix(gpu->cusparse, c->spsv, p->dA->val, CUSPARSE_SPSV_UPDATE_GENERAL);
    else
        cs = cusparseSpSM_updateMatrix(gpu->cusparse, c->spsm, p->dA->val, CUSPARSE_SPSM_UPDATE_GENERAL);
    if (cs) return domino_cusparse_status(h, cs, "domino_trsv_solve (cusparse update)");
    p->values_version = p->dA->values_version;
    return DOMINO_SUCCESS;
}

domino_status domino_cusparse_trsv_solve(domino_handle h, struct domino_gpu_context *gpu,
                                         struct domino_trsv_plan_s *p, const void *B, int64_t ldb,
                                         void *X, int64_t ldx)
{
    cusparse_plan *c = p->cusparse_plan;
    cusparseDnVecDescr_t vb = NULL, vx = NULL;
    cusparseDnMatDescr_t mb = NULL, mx = NULL;
    double ad;
    float af;
    const void *alpha;
    set_alpha(p->type, &ad, &af, &alpha);
    cusparseStatus_t cs = make_dense(p, c->dtype, B, ldb, X, ldx, &vb, &vx, &mb, &mx);
    if (!cs && p->nrhs > 1 && (ldb != c->ldb || ldx != c->ldx)) {
        /* SpSM analyses a layout: analyse again for these leading dimensions */
        size_t bytes = 0;
        cusparseOperation_t opb = CUSPARSE_OPERATION_NON_TRANSPOSE;
        cs = cusparseSpSM_bufferSize(gpu->cusparse, c->op, opb, alpha, c->mat, mb, mx, c->dtype,
                                     CUSPARSE_SPSM_ALG_DEFAULT, c->spsm, &bytes);
        if (!cs && bytes > c->buffer_bytes) {
            cudaStreamSynchronize(gpu->stream);
            domino_pool_free(c->buffer);
            c->buffer = NULL;
            if (domino_pool_malloc(&c->buffer, bytes + 16, gpu->stream) != cudaSuccess) cs = CUSPARSE_STATUS_ALLOC_FAILED;
            else c->buffer_bytes = bytes;
        }
        if (!cs) cs = cusparseSpSM_analysis(gpu->cusparse, c->op, opb, alpha, c->mat, mb, mx,
                                            c->dtype, CUSPARSE_SPSM_ALG_DEFAULT, c->spsm, c->buffer);
        if (!cs) {
            c->ldb = ldb;
            c->ldx = ldx;
        }
    }
    if (!cs && p->nrhs == 1)
        cs = cusparseSpSV_solve(gpu->cusparse, c->op, alpha, c->mat, vb, vx, c->dtype,
                                CUSPARSE_SPSV_ALG_DEFAULT, c->spsv);
    else if (!cs)
        cs = cusparseSpSM_solve(gpu->cusparse, c->op, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, c->mat,
                                mb, mx, c->dtype, CUSPARSE_SPSM_ALG_DEFAULT, c->spsm);
    free_dense(vb, vx, mb, mx);
    return domino_cusparse_status(h, cs, "domino_trsv_solve (cusparse)");
}
