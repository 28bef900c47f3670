/* no_cuda.c: the GPU entry points of a build without CUDA; each says so */
#include "internal.h"

#include <string.h>

#define NO_CUDA(h, fn) domino_error(h, DOMINO_NOT_SUPPORTED, "%s: this build of domino has no CUDA", fn)

void domino_gpu_context_free(struct domino_gpu_context *gpu) { (void)gpu; }
int domino_gpu_count(void) { return 0; }

domino_status domino_gpu_describe(domino_handle h, char *name, size_t name_len, double *copy_gbs)
{
    if (name && name_len) name[0] = '\0';
    if (copy_gbs) *copy_gbs = 0;
    return NO_CUDA(h, "domino_gpu_describe");
}
domino_status domino_gpu_malloc(domino_handle h, size_t bytes, void **dptr)
{
    (void)bytes;
    if (dptr) *dptr = NULL;
    return NO_CUDA(h, "domino_gpu_malloc");
}
void domino_gpu_free(void *dptr) { (void)dptr; }
domino_status domino_gpu_upload(domino_handle h, void *dst, const void *src, size_t bytes)
{
    (void)dst; (void)src; (void)bytes;
    return NO_CUDA(h, "domino_gpu_upload");
}
domino_status domino_gpu_download(domino_handle h, void *dst, const void *src, size_t bytes)
{
    (void)dst; (void)src; (void)bytes;
    return NO_CUDA(h, "domino_gpu_download");
}
domino_status domino_gpu_synchronize(domino_handle h) { return NO_CUDA(h, "domino_gpu_synchronize"); }
domino_status domino_gpu_timer_begin(domino_handle h) { return NO_CUDA(h, "domino_gpu_timer_begin"); }
domino_status domino_gpu_timer_end(domino_handle h, double *ms)
{
    if (ms) *ms = 0;
    return NO_CUDA(h, "domino_gpu_timer_end");
}
domino_status domino_dmatrix_upload(domino_handle h, domino_matrix A, domino_dmatrix *dA)
{
    (void)A;
    if (dA) *dA = NULL;
    return NO_CUDA(h, "domino_dmatrix_upload");
}
domino_status domino_dmatrix_update_values(domino_handle h, domino_dmatrix dA, domino_matrix A)
{
    (void)dA; (void)A;
    return NO_CUDA(h, "domino_dmatrix_update_values");
}
void domino_dmatrix_free(domino_dmatrix dA) { (void)dA; }
domino_status domino_trsv_buffer_size(domino_handle h, domino_op op, domino_fill fill,
                                      domino_diag diag, domino_dmatrix dA, int32_t nrhs,
                                      const domino_trsv_options *opt, size_t *bytes)
{
    (void)op; (void)fill; (void)diag; (void)dA; (void)nrhs; (void)opt;
    if (bytes) *bytes = 0;
    return NO_CUDA(h, "domino_trsv_buffer_size");
}
domino_status domino_trsv_analysis(domino_handle h, domino_op op, domino_fill fill,
                                   domino_diag diag, domino_dmatrix dA, int32_t nrhs,
                                   const domino_trsv_options *opt, void *buffer,
                                   domino_trsv_plan *plan)
{
    (void)op; (void)fill; (void)diag; (void)dA; (void)nrhs; (void)opt; (void)buffer;
    if (plan) *plan = NULL;
    return NO_CUDA(h, "domino_trsv_analysis");
}
domino_status domino_trsv_solve(domino_handle h, domino_trsv_plan plan, const void *B,
                                int64_t ldb, void *X, int64_t ldx, int check_pivot)
{
    (void)plan; (void)B; (void)ldb; (void)X; (void)ldx; (void)check_pivot;
    return NO_CUDA(h, "domino_trsv_solve");
}
domino_engine domino_trsv_plan_engine(domino_trsv_plan plan)
{
    (void)plan;
    return DOMINO_ENGINE_AUTO;
}
domino_status domino_trsv_plan_settle(domino_handle h, domino_trsv_plan plan)
{
    (void)plan;
    return NO_CUDA(h, "domino_trsv_plan_settle");
}
double domino_trsv_plan_analysis_seconds(domino_trsv_plan plan)
{
    (void)plan;
    return 0;
}
void domino_trsv_plan_free(domino_trsv_plan plan) { (void)plan; }
domino_status domino_trsv_trace(domino_handle h, domino_trsv_plan plan, const void *B, void *X,
                                int64_t *ns, int64_t *start_ns)
{
    (void)plan; (void)B; (void)X; (void)ns; (void)start_ns;
    return NO_CUDA(h, "domino_trsv_trace");
}
domino_status domino_dmatrix_levels(domino_handle h, domino_fill fill, domino_dmatrix dA,
                                    domino_levels **levels)
{
    (void)fill; (void)dA;
    if (levels) *levels = NULL;
    return NO_CUDA(h, "domino_dmatrix_levels");
}

/* structured-grid solve */
domino_status domino_dstencil_upload(domino_handle h, const domino_stencil_matrix *S,
                                     domino_fill fill, domino_dstencil *D)
{
    (void)S; (void)fill;
    if (D) *D = NULL;
    return NO_CUDA(h, "domino_dstencil_upload");
}
domino_status domino_dstencil_from_dmatrix(domino_handle h, domino_dmatrix dA, domino_stencil s,
                                           int32_t nx, int32_t ny, int32_t nz, domino_fill fill,
                                           domino_dstencil *D)
{
    (void)dA; (void)s; (void)nx; (void)ny; (void)nz; (void)fill;
    if (D) *D = NULL;
    return NO_CUDA(h, "domino_dstencil_from_dmatrix");
}
void domino_dstencil_free(domino_dstencil D) { (void)D; }
domino_status domino_dstencil_trsv(domino_handle h, domino_dstencil D, domino_diag diag,
                                   const domino_stencil_options *opt, const void *b, void *x)
{
    (void)D; (void)diag; (void)opt; (void)b; (void)x;
    return NO_CUDA(h, "domino_dstencil_trsv");
}
int domino_dstencil_warps_per_queue(domino_dstencil D) { (void)D; return 0; }
void domino_dstencil_tile(domino_dstencil D, int *tile_u, int *tile_z)
{
    (void)D;
    if (tile_u) *tile_u = 0;
    if (tile_z) *tile_z = 0;
}
size_t domino_dstencil_bytes(domino_dstencil D) { (void)D; return 0; }

/* GPU incomplete factorizations and Krylov solvers */

domino_status domino_factor_analysis(domino_handle h, domino_factor_kind kind, domino_dmatrix dA,
                                     const domino_factor_options *opt, domino_factor_plan *plan)
{
    (void)kind; (void)dA; (void)opt;
    if (plan) *plan = NULL;
    return NO_CUDA(h, "domino_factor_analysis");
}
domino_status domino_factor_compute(domino_handle h, domino_factor_plan plan,
                                    const void *d_values, int64_t *replaced)
{
    (void)plan; (void)d_values;
    if (replaced) *replaced = 0;
    return NO_CUDA(h, "domino_factor_compute");
}
domino_status domino_factor_get(domino_handle h, domino_factor_plan plan, int32_t batch_index,
                                domino_dmatrix *factor)
{
    (void)plan; (void)batch_index;
    if (factor) *factor = NULL;
    return NO_CUDA(h, "domino_factor_get");
}
double domino_factor_plan_analysis_seconds(domino_factor_plan plan)
{
    (void)plan;
    return 0;
}
double domino_factor_plan_compute_seconds(domino_factor_plan plan)
{
    (void)plan;
    return 0;
}
const char *domino_factor_plan_method(domino_factor_plan plan)
{
    (void)plan;
    return "none";
}
void domino_factor_plan_free(domino_factor_plan plan) { (void)plan; }
domino_status domino_gpu_cg(domino_handle h, domino_dmatrix A, const double *b, double *x,
                            const domino_gpu_krylov_options *opt, domino_krylov_result *res,
                            domino_gpu_krylov_times *times)
{
    (void)A; (void)b; (void)x; (void)opt; (void)times;
    if (res) memset(res, 0, sizeof(*res));
    return NO_CUDA(h, "domino_gpu_cg");
}
domino_status domino_gpu_bicgstab(domino_handle h, domino_dmatrix A, const double *b, double *x,
                                  const domino_gpu_krylov_options *opt,
                                  domino_krylov_result *res, domino_gpu_krylov_times *times)
{
    (void)A; (void)b; (void)x; (void)opt; (void)times;
    if (res) memset(res, 0, sizeof(*res));
    return NO_CUDA(h, "domino_gpu_bicgstab");
}
domino_status domino_dmatrix_download(domino_handle h, domino_dmatrix dA, domino_matrix *A)
{
    (void)dA;
    if (A) *A = NULL;
    return NO_CUDA(h, "domino_dmatrix_download");
}

domino_status domino_dist_trsv_unified(domino_handle h, domino_fill fill, domino_diag diag,
                                       domino_matrix A, const domino_dist_plan *plan,
                                       domino_dist_trsv *T)
{
    (void)fill; (void)diag; (void)A; (void)plan;
    if (T) *T = NULL;
    return NO_CUDA(h, "domino_dist_trsv_unified");
}
domino_status domino_dist_trsv_solve(domino_handle h, domino_dist_trsv T, const double *b, double *x,
                                     double *seconds)
{
    (void)T; (void)b; (void)x;
    if (seconds) *seconds = 0;
    return NO_CUDA(h, "domino_dist_trsv_solve");
}
void domino_dist_trsv_free(domino_dist_trsv T) { (void)T; }
domino_status domino_gpu_spmm(domino_handle h, domino_dmatrix dA, int64_t n, const void *dB, int64_t ldb,
                              void *dC, int64_t ldc)
{
    (void)dA; (void)n; (void)dB; (void)ldb; (void)dC; (void)ldc;
    return NO_CUDA(h, "domino_gpu_spmm");
}
domino_status domino_gpu_spmm_plan(domino_handle h, domino_dmatrix dA, int64_t n, const void *dB, int64_t ldb,
                                   void *dC, int64_t ldc, domino_spmm_plan *plan)
{
    (void)dA; (void)n; (void)dB; (void)ldb; (void)dC; (void)ldc;
    if (plan) *plan = NULL;
    return NO_CUDA(h, "domino_gpu_spmm_plan");
}
domino_status domino_gpu_spmm_plan_engine(domino_handle h, domino_spmm_engine engine, domino_dmatrix dA, int64_t n,
                                          const void *dB, int64_t ldb, void *dC, int64_t ldc, domino_spmm_plan *plan)
{
    (void)engine; (void)dA; (void)n; (void)dB; (void)ldb; (void)dC; (void)ldc;
    if (plan) *plan = NULL;
    return NO_CUDA(h, "domino_gpu_spmm_plan_engine");
}
domino_status domino_gpu_spmm_run(domino_handle h, domino_spmm_plan plan)
{
    (void)plan;
    return NO_CUDA(h, "domino_gpu_spmm_run");
}
void domino_gpu_spmm_plan_free(domino_spmm_plan plan) { (void)plan; }
domino_status domino_gpu_spmv_plan(domino_handle h, domino_dmatrix dA, const void *dx, void *dy,
                                   domino_spmv_plan *plan)
{
    (void)dA; (void)dx; (void)dy;
    if (plan) *plan = NULL;
    return NO_CUDA(h, "domino_gpu_spmv_plan");
}
domino_status domino_gpu_spmv_run(domino_handle h, domino_spmv_plan plan)
{
    (void)plan;
    return NO_CUDA(h, "domino_gpu_spmv_run");
}
void domino_gpu_spmv_plan_free(domino_spmv_plan plan) { (void)plan; }
domino_status domino_gpu_gen_dense(domino_handle h, uint64_t seed, int64_t ncols, int64_t row0, int64_t rows,
                                   int64_t col0, int64_t cols, domino_type type, void *dB, int64_t ldb)
{
    (void)seed; (void)ncols; (void)row0; (void)rows; (void)col0; (void)cols; (void)type; (void)dB; (void)ldb;
    return NO_CUDA(h, "domino_gpu_gen_dense");
}
domino_status domino_gpu_dense_multiply(domino_handle h, domino_type type, int64_t rows, int64_t cols,
                                        const void *dA, int64_t lda, const double *x, double *y)
{
    (void)type; (void)rows; (void)cols; (void)dA; (void)lda; (void)x; (void)y;
    return NO_CUDA(h, "domino_gpu_dense_multiply");
}
domino_status domino_dmatrix_multiply(domino_handle h, domino_dmatrix dA, const double *x, double *y)
{
    (void)dA; (void)x; (void)y;
    return NO_CUDA(h, "domino_dmatrix_multiply");
}
domino_status domino_gpu_spgemm(domino_handle h, domino_dmatrix dA, domino_dmatrix dB,
                                domino_dmatrix *dC, domino_gpu_spgemm_info *info)
{
    (void)dA; (void)dB; (void)info;
    if (dC) *dC = NULL;
    return NO_CUDA(h, "domino_gpu_spgemm");
}
