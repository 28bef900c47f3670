/* summa_spgemm_nccl.c: the bulk-synchronous SUMMA SpGEMM on GPUs, the
 * baseline of the one-sided SpGEMM (issue 9): one PE per GPU on a pr x pc
 * grid, started by domino run -n N or mpirun.  The layout is the SpMM
 * SUMMA's: K = lcm(pr, pc) inner blocks, A(r, l) on (r, l mod pc), B(l, c)
 * on (l mod pr, c), C(r, c) on (r, c).  At step l, A(r, l) is broadcast
 * along grid rows and B(l, c) along grid columns (offsets, indices and
 * values; every PE knows every block's size), every GPU multiplies them
 * (domino_gpu_spgemm) into a partial product of its C tile, and after the
 * last step it sums its partials (domino_dmatrix_sum).  All steps in
 * lock-step. */
#define _POSIX_C_SOURCE 200809L
#include "cuda/gpu_internal.h"
#include "dist/dist_tile_cut.h"
#include "dist/nccl/summa_nccl.h"

#include <stdlib.h>
#include <string.h>

#define WHAT "domino_summa_gpu_spgemm"

/* one GPU's part of a SUMMA SpGEMM */
struct domino_summa_spgemm_s {
    int rank, size;            /* this PE, PEs */
    int pr, pc, K, myr, myc;   /* grid, inner blocks, this PE's grid row and column */
    domino_type type;          /* value type */
    int64_t m, k, n;           /* A m x k, B k x n, C m x n */
    int64_t *rb, *kb, *cb;     /* boundaries of C's rows, the inner blocks, C's columns */
    int64_t *a_nnz;            /* entries of A(r, l), pr x K */
    int64_t *b_nnz;            /* entries of B(l, c), K x pc */
    domino_dmatrix *a;         /* K: A(myr, l) where this PE holds it, else NULL (device, 64-bit offsets) */
    domino_dmatrix *b;         /* K: B(l, myc) where this PE holds it, else NULL */
    int64_t *ra_ptr, *rb_ptr;  /* receive buffers: offsets of an A and a B block */
    int32_t *ra_ind, *rb_ind;  /* their indices */
    void *ra_val, *rb_val;     /* and values */
    domino_dmatrix c;          /* C(myr, myc) after a run */
    ncclComm_t world, row, col; /* all PEs, this grid row, this grid column */
    int *flag;                 /* device word of summa_nccl_agree */
    cudaStream_t stream;       /* the handle's */
};

void domino_summa_gpu_spgemm_free(domino_summa_spgemm S)
{
    if (!S) return;
    for (int l = 0; l < S->K; l++) {
        if (S->a) domino_dmatrix_free(S->a[l]);
        if (S->b) domino_dmatrix_free(S->b[l]);
    }
    domino_free(S->a);
    domino_free(S->b);
    domino_dmatrix_free(S->c);
    cudaFree(S->ra_ptr);
    cudaFree(S->ra_ind);
    cudaFree(S->ra_val);
    cudaFree(S->rb_ptr);
    cudaFree(S->rb_ind);
    cudaFree(S->rb_val);
    cudaFree(S->flag);
    if (S->row) ncclCommDestroy(S->row);
    if (S->col) ncclCommDestroy(S->col);
    if (S->world) ncclCommDestroy(S->world);
    domino_free(S->rb);
    domino_free(S->kb);
    domino_free(S->cb);
    domino_free(S->a_nnz);
    domino_free(S->b_nnz);
    domino_free(S);
}

static domino_status agree(domino_handle h, domino_summa_spgemm S, domino_status s)
{
    return summa_nccl_agree(h, S->world, S->stream, S->rank, S->flag, s, WHAT);
}

/* this PE's blocks of A and B on its GPU, and receive buffers for the
 * largest blocks of its grid row (A) and column (B) */
static domino_status own_blocks(domino_handle h, domino_matrix A, domino_matrix B, domino_summa_spgemm S)
{
    size_t vs = domino_type_size(S->type);
    int64_t rows = S->rb[S->myr + 1] - S->rb[S->myr], max_a = 1, max_b = 1, max_k = 1;
    domino_status s = DOMINO_SUCCESS;
    for (int l = 0; l < S->K; l++) {
        int64_t na = S->a_nnz[(size_t)S->myr * S->K + l], nb = S->b_nnz[(size_t)l * S->pc + S->myc];
        if (na > max_a) max_a = na;
        if (nb > max_b) max_b = nb;
        if (S->kb[l + 1] - S->kb[l] > max_k) max_k = S->kb[l + 1] - S->kb[l];
        if (na >= INT32_MAX || nb >= INT32_MAX)
            return domino_error(h, DOMINO_NOT_SUPPORTED, WHAT ": block A(%d, %d) or B(%d, %d) has 2^31 entries or "
                                "more; use more PEs", S->myr, l, l, S->myc);
    }
    for (int l = 0; l < S->K && !s; l++) {
        domino_matrix T = NULL;
        if (l % S->pc == S->myc) {
            s = dist_cut_tile(h, A, S->rb, S->kb, S->myr, l, &T);
            if (!s) s = domino_dmatrix_upload(h, T, &S->a[l]);
            domino_matrix_free(T);
            T = NULL;
        }
        if (!s && l % S->pr == S->myr) {
            s = dist_cut_tile(h, B, S->kb, S->cb, l, S->myc, &T);
            if (!s) s = domino_dmatrix_upload(h, T, &S->b[l]);
            domino_matrix_free(T);
        }
    }
    cudaError_t e = cudaSuccess;
    if (!s) e = cudaMalloc((void **)&S->ra_ptr, (size_t)(rows + 1) * sizeof(int64_t));
    if (!s && !e) e = cudaMalloc((void **)&S->ra_ind, (size_t)max_a * sizeof(int32_t));
    if (!s && !e) e = cudaMalloc(&S->ra_val, (size_t)max_a * vs);
    if (!s && !e) e = cudaMalloc((void **)&S->rb_ptr, (size_t)(max_k + 1) * sizeof(int64_t));
    if (!s && !e) e = cudaMalloc((void **)&S->rb_ind, (size_t)max_b * sizeof(int32_t));
    if (!s && !e) e = cudaMalloc(&S->rb_val, (size_t)max_b * vs);
    if (!s && e) s = domino_cuda_status(h, e, WHAT ": buffers");
    return s;
}

domino_status domino_summa_gpu_spgemm_make(domino_handle h, domino_matrix A, domino_matrix B, int pr, int pc,
                                           domino_summa_spgemm *out)
{
    struct domino_gpu_context *gpu;
    ncclUniqueId id;
    if (!out) return domino_error(h, DOMINO_NULL_POINTER, WHAT ": S is NULL");
    *out = NULL;
    domino_status s = domino_check_matrix(h, A, WHAT);
    if (!s) s = domino_check_matrix(h, B, WHAT);
    if (s) return s;
    if (A->format != DOMINO_CSR || A->symmetry != DOMINO_GENERAL || B->format != DOMINO_CSR ||
        B->symmetry != DOMINO_GENERAL)
        return domino_error(h, DOMINO_NOT_SUPPORTED, WHAT ": A and B must be CSR stored general");
    if (A->type != B->type) return domino_error(h, DOMINO_INVALID_VALUE, WHAT ": A and B have different value types");
    if (A->ncols != B->nrows)
        return domino_error(h, DOMINO_DIMENSION_MISMATCH, WHAT ": A is %d x %d, B is %d x %d", A->nrows, A->ncols,
                            B->nrows, B->ncols);
    if ((s = domino_gpu_context_get(h, &gpu))) return s; /* selects the PE's GPU */
    domino_summa_spgemm S = domino_calloc(1, sizeof(*S));
    if (!S) return domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory");
    S->stream = gpu->stream;
    setenv("NCCL_NVLS_ENABLE", "0", 1); /* never NVLink multicast objects */
    cudaError_t fe = cudaMalloc((void **)&S->flag, sizeof(int)); /* before the collectives: agree never lacks it */
    if (fe) {
        s = domino_cuda_status(h, fe, WHAT ": agreement word");
        goto failed;
    }
    if ((s = summa_nccl_share_id(h, &id, &S->rank, &S->size))) goto failed;
    if ((s = summa_nccl_status(h, ncclCommInitRank(&S->world, S->size, id, S->rank), WHAT ": ncclCommInitRank",
                               S->rank)))
        goto failed;
    /* from here every PE takes part in every collective, failed or not */
    S->type = A->type;
    S->m = A->nrows;
    S->k = A->ncols;
    S->n = B->ncols;
    S->pr = pr;
    S->pc = pc;
    if (pr < 1 || pc < 1 || (int64_t)pr * pc != S->size) {
        s = domino_error(h, DOMINO_INVALID_VALUE, WHAT ": a %d x %d grid for %d PEs", pr, pc, S->size);
        S->pr = 1, S->pc = S->size; /* a grid to split by, so the collectives still match */
    }
    S->K = dist_lcm(S->pr, S->pc);
    S->myr = S->rank / S->pc;
    S->myc = S->rank % S->pc;
    S->rb = dist_split(S->m, S->pr);
    S->kb = dist_split(S->k, S->K);
    S->cb = dist_split(S->n, S->pc);
    S->a_nnz = domino_calloc((size_t)S->pr * S->K, sizeof(int64_t));
    S->b_nnz = domino_calloc((size_t)S->K * S->pc, sizeof(int64_t));
    S->a = domino_calloc((size_t)S->K, sizeof(domino_dmatrix));
    S->b = domino_calloc((size_t)S->K, sizeof(domino_dmatrix));
    if (!s && (!S->rb || !S->kb || !S->cb || !S->a_nnz || !S->b_nnz || !S->a || !S->b))
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory (PE %d)", S->rank);
    if (!s) { /* every PE knows every block's size */
        dist_count_blocks(A, S->rb, S->pr, S->kb, S->K, S->a_nnz);
        dist_count_blocks(B, S->kb, S->K, S->cb, S->pc, S->b_nnz);
    }
    if (!s) s = own_blocks(h, A, B, S);
    domino_status g1 = summa_nccl_status(h, ncclCommSplit(S->world, S->myr, S->myc, &S->row, NULL), WHAT ": row split",
                                         S->rank);
    domino_status g2 = summa_nccl_status(h, ncclCommSplit(S->world, S->myc, S->myr, &S->col, NULL),
                                         WHAT ": column split", S->rank);
    if (!s) s = g1 ? g1 : g2;
    s = agree(h, S, s);
    if (s) goto failed;
    *out = S;
    return DOMINO_SUCCESS;
failed:
    domino_summa_gpu_spgemm_free(S);
    return s;
}

/* the root's block (or nothing) into the receive buffers, broadcast from root over comm */
static ncclResult_t broadcast_block(domino_summa_spgemm S, domino_dmatrix own, int64_t rows, int64_t nnz, int64_t *ptr,
                                    int32_t *ind, void *val, int root, ncclComm_t comm, cudaError_t *e)
{
    size_t vs = domino_type_size(S->type);
    ncclDataType_t nt = S->type == DOMINO_FLOAT64 ? ncclFloat64 : ncclFloat32;
    if (own) { /* the sender's block into the buffers it broadcasts from */
        *e = cudaMemcpyAsync(ptr, own->ptr, (size_t)(rows + 1) * sizeof(int64_t), cudaMemcpyDeviceToDevice, S->stream);
        if (!*e && nnz) *e = cudaMemcpyAsync(ind, own->ind, (size_t)nnz * sizeof(int32_t), cudaMemcpyDeviceToDevice, S->stream);
        if (!*e && nnz) *e = cudaMemcpyAsync(val, own->val, (size_t)nnz * vs, cudaMemcpyDeviceToDevice, S->stream);
    }
    ncclResult_t r = ncclBroadcast(ptr, ptr, (size_t)(rows + 1), ncclInt64, root, comm, S->stream);
    if (!r && nnz) r = ncclBroadcast(ind, ind, (size_t)nnz, ncclInt32, root, comm, S->stream);
    if (!r && nnz) r = ncclBroadcast(val, val, (size_t)nnz, nt, root, comm, S->stream);
    return r;
}

domino_status domino_summa_gpu_spgemm_run(domino_handle h, domino_summa_spgemm S, domino_summa_gpu_times *t)
{
    domino_summa_gpu_times z;
    memset(&z, 0, sizeof(z));
    if (t) *t = z;
    if (!S) return domino_error(h, DOMINO_NULL_POINTER, WHAT ": S is NULL");
    int64_t rows = S->rb[S->myr + 1] - S->rb[S->myr], cols = S->cb[S->myc + 1] - S->cb[S->myc];
    domino_dmatrix_free(S->c);
    S->c = NULL;
    domino_dmatrix *parts = domino_calloc((size_t)S->K + 1, sizeof(domino_dmatrix));
    int np = 0;
    domino_status s = parts ? DOMINO_SUCCESS : domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory");
    s = agree(h, S, s);
    cudaError_t e = cudaSuccess;
    ncclResult_t nr = ncclSuccess; /* the first NCCL failure */
    int stop = s != DOMINO_SUCCESS; /* agreed: every PE alike */
    double start = domino_wtime();
    for (int l = 0; l < S->K && !stop; l++) { /* every PE takes part in every step, failed or not */
        int aroot = l % S->pc, broot = l % S->pr;
        int64_t na = S->a_nnz[(size_t)S->myr * S->K + l], nb = S->b_nnz[(size_t)l * S->pc + S->myc];
        int64_t kr = S->kb[l + 1] - S->kb[l];
        double t0 = domino_wtime();
        if (nr == ncclSuccess) {
            cudaError_t ea = cudaSuccess, eb = cudaSuccess;
            ncclResult_t r = ncclGroupStart();
            if (!r)
                r = broadcast_block(S, aroot == S->myc && !e ? S->a[l] : NULL, rows, na, S->ra_ptr, S->ra_ind, S->ra_val,
                                    aroot, S->row, &ea);
            if (!r)
                r = broadcast_block(S, broot == S->myr && !e ? S->b[l] : NULL, kr, nb, S->rb_ptr, S->rb_ind, S->rb_val,
                                    broot, S->col, &eb);
            ncclResult_t r2 = ncclGroupEnd();
            nr = r ? r : r2;
            if (!e) e = ea ? ea : eb;
        }
        if (!e) e = cudaStreamSynchronize(S->stream);
        z.communication += domino_wtime() - t0;
        t0 = domino_wtime();
        if (!s && !e && nr == ncclSuccess && na > 0 && nb > 0 && rows > 0 && cols > 0) { /* A(myr, l) B(l, myc) */
            struct domino_dmatrix_s a, b;
            domino_dmatrix_borrow(&a, S->type, (int32_t)rows, (int32_t)kr, na, S->ra_ptr, S->ra_ind, S->ra_val);
            domino_dmatrix_borrow(&b, S->type, (int32_t)kr, (int32_t)cols, nb, S->rb_ptr, S->rb_ind, S->rb_val);
            s = domino_gpu_spgemm(h, &a, &b, &parts[np], NULL);
            if (!s) np++;
        }
        z.compute += domino_wtime() - t0;
    }
    if (!s && nr != ncclSuccess) s = summa_nccl_status(h, nr, WHAT ": broadcast", S->rank);
    if (!s && e) s = domino_cuda_status(h, e, WHAT);
    double t0 = domino_wtime();
    if (!s) s = domino_dmatrix_sum(h, parts, np, (int32_t)rows, (int32_t)cols, S->type, &S->c);
    z.compute += domino_wtime() - t0;
    for (int k = 0; parts && k < np; k++) domino_dmatrix_free(parts[k]);
    domino_free(parts);
    z.total = domino_wtime() - start;
    if (t) *t = z;
    return agree(h, S, s);
}

domino_status domino_summa_gpu_spgemm_multiply(domino_handle h, domino_summa_spgemm S, const double *x, double *y,
                                               int64_t *nnz)
{
    if (!S) return domino_error(h, DOMINO_NULL_POINTER, WHAT ": S is NULL");
    double *all = NULL, *dx = NULL;
    int64_t *count = NULL, mine = S->c ? S->c->nnz : 0;
    domino_status s = x && y ? DOMINO_SUCCESS : domino_error(h, DOMINO_NULL_POINTER, WHAT ": x or y is NULL");
    if (!s && !S->c) s = domino_error(h, DOMINO_INVALID_VALUE, WHAT ": no product yet (run it first)");
    cudaError_t e = cudaMalloc((void **)&all, (size_t)(S->m + 1) * sizeof(double));
    if (!e) e = cudaMalloc((void **)&dx, (size_t)(S->n + 1) * sizeof(double));
    if (!e) e = cudaMalloc((void **)&count, sizeof(int64_t));
    if (!e) e = cudaMemsetAsync(all, 0, (size_t)(S->m + 1) * sizeof(double), S->stream);
    if (!e) e = cudaMemcpyAsync(count, &mine, sizeof(int64_t), cudaMemcpyHostToDevice, S->stream);
    if (!s && !e) e = cudaMemcpyAsync(dx, x, (size_t)S->n * sizeof(double), cudaMemcpyHostToDevice, S->stream);
    if (!s && !e)
        e = domino_launch_csr_apply_add(S->stream, S->type, S->c->nrows, S->c->ptr, S->c->ind, S->c->val,
                                        dx + S->cb[S->myc], all + S->rb[S->myr]);
    if (!s && e) s = domino_cuda_status(h, e, WHAT ": multiply");
    if ((s = agree(h, S, s))) { /* every PE leaves here alike */
        cudaFree(all), cudaFree(dx), cudaFree(count);
        return s;
    }
    /* every row of C on one PE, each PE's C x in its rows: the sum is C x */
    ncclResult_t r = ncclGroupStart();
    if (!r) r = ncclAllReduce(all, all, (size_t)S->m, ncclFloat64, ncclSum, S->world, S->stream);
    if (!r) r = ncclAllReduce(count, count, 1, ncclInt64, ncclSum, S->world, S->stream);
    ncclResult_t r2 = ncclGroupEnd();
    if (!r) r = r2;
    e = cudaStreamSynchronize(S->stream);
    if (!e) e = cudaMemcpy(y, all, (size_t)S->m * sizeof(double), cudaMemcpyDeviceToHost);
    if (!e && nnz) e = cudaMemcpy(nnz, count, sizeof(int64_t), cudaMemcpyDeviceToHost);
    cudaFree(all), cudaFree(dx), cudaFree(count);
    s = r ? summa_nccl_status(h, r, WHAT ": multiply", S->rank)
          : e ? domino_cuda_status(h, e, WHAT ": multiply") : DOMINO_SUCCESS;
    return agree(h, S, s); /* every PE leaves alike */
}
