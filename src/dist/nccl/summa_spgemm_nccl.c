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
    summa_grid g;              /* the PEs, the blocks, the communicators */
    domino_type type;          /* value type */
    int64_t m, k, n;           /* A m x k, B k x n, C m x n */
    int64_t *a_nnz;            /* entries of A(r, l), pr x K */
    int64_t *b_nnz;            /* entries of B(l, c), K x pc */
    domino_dmatrix *a;         /* K: A(myr, l) where this PE holds it, else NULL (device, 64-bit offsets) */
    domino_dmatrix *b;         /* K: B(l, myc) where this PE holds it, else NULL */
    int64_t *ra_ptr, *rb_ptr;  /* receive buffers: offsets of an A and a B block */
    int32_t *ra_ind, *rb_ind;  /* their indices */
    void *ra_val, *rb_val;     /* and values */
    domino_dmatrix c;          /* C(myr, myc) after a run */
};

void domino_summa_gpu_spgemm_free(domino_summa_spgemm S)
{
    if (!S) return;
    for (int l = 0; l < S->g.K; l++) {
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
    summa_grid_free(&S->g);
    domino_free(S->a_nnz);
    domino_free(S->b_nnz);
    domino_free(S);
}

static domino_status agree(domino_handle h, domino_summa_spgemm S, domino_status s)
{
    return summa_grid_agree(h, &S->g, s, WHAT);
}

/* this PE's blocks of A and B on its GPU, and receive buffers for the
 * largest blocks of its grid row (A) and column (B) */
static domino_status own_blocks(domino_handle h, domino_matrix A, domino_matrix B, domino_summa_spgemm S)
{
    size_t vs = domino_type_size(S->type);
    int64_t rows = S->g.rb[S->g.myr + 1] - S->g.rb[S->g.myr], max_a = 1, max_b = 1, max_k = 1;
    domino_status s = DOMINO_SUCCESS;
    for (int l = 0; l < S->g.K; l++) {
        int64_t na = S->a_nnz[(size_t)S->g.myr * S->g.K + l], nb = S->b_nnz[(size_t)l * S->g.pc + S->g.myc];
        if (na > max_a) max_a = na;
        if (nb > max_b) max_b = nb;
        if (S->g.kb[l + 1] - S->g.kb[l] > max_k) max_k = S->g.kb[l + 1] - S->g.kb[l];
        if (na >= INT32_MAX || nb >= INT32_MAX)
            return domino_error(h, DOMINO_NOT_SUPPORTED, WHAT ": block A(%d, %d) or B(%d, %d) has 2^31 entries or "
                                "more; use more PEs", S->g.myr, l, l, S->g.myc);
    }
    for (int l = 0; l < S->g.K && !s; l++) {
        domino_matrix T = NULL;
        if (l % S->g.pc == S->g.myc) {
            s = dist_cut_tile(h, A, S->g.rb, S->g.kb, S->g.myr, l, &T);
            if (!s) s = domino_dmatrix_upload(h, T, &S->a[l]);
            domino_matrix_free(T);
            T = NULL;
        }
        if (!s && l % S->g.pr == S->g.myr) {
            s = dist_cut_tile(h, B, S->g.kb, S->g.cb, l, S->g.myc, &T);
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
    if (!out) return domino_error(h, DOMINO_NULL_POINTER, WHAT ": S is NULL");
    *out = NULL;
    domino_status s = dist_check_spgemm_operands(h, A, B, WHAT);
    if (s) return s;
    if ((s = domino_gpu_context_get(h, &gpu))) return s; /* selects the PE's GPU */
    domino_summa_spgemm S = domino_calloc(1, sizeof(*S));
    if (!S) return domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory");
    S->type = A->type;
    S->m = A->nrows;
    S->k = A->ncols;
    S->n = B->ncols;
    int joined = 0;
    s = summa_grid_start(h, &S->g, S->m, S->k, S->n, pr, pc, gpu->stream, WHAT, &joined);
    if (!joined) goto failed;
    /* from here every PE takes part in every collective, failed or not */
    S->a_nnz = domino_calloc((size_t)S->g.pr * S->g.K, sizeof(int64_t));
    S->b_nnz = domino_calloc((size_t)S->g.K * S->g.pc, sizeof(int64_t));
    S->a = domino_calloc((size_t)S->g.K, sizeof(domino_dmatrix));
    S->b = domino_calloc((size_t)S->g.K, sizeof(domino_dmatrix));
    if (!s && (!S->a_nnz || !S->b_nnz || !S->a || !S->b))
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory (PE %d)", S->g.rank);
    if (!s) { /* every PE knows every block's size */
        dist_count_blocks(A, S->g.rb, S->g.pr, S->g.kb, S->g.K, S->a_nnz);
        dist_count_blocks(B, S->g.kb, S->g.K, S->g.cb, S->g.pc, S->b_nnz);
    }
    if (!s) s = own_blocks(h, A, B, S);
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
        *e = cudaMemcpyAsync(ptr, own->ptr, (size_t)(rows + 1) * sizeof(int64_t), cudaMemcpyDeviceToDevice, S->g.stream);
        if (!*e && nnz) *e = cudaMemcpyAsync(ind, own->ind, (size_t)nnz * sizeof(int32_t), cudaMemcpyDeviceToDevice, S->g.stream);
        if (!*e && nnz) *e = cudaMemcpyAsync(val, own->val, (size_t)nnz * vs, cudaMemcpyDeviceToDevice, S->g.stream);
    }
    ncclResult_t r = ncclBroadcast(ptr, ptr, (size_t)(rows + 1), ncclInt64, root, comm, S->g.stream);
    if (!r && nnz) r = ncclBroadcast(ind, ind, (size_t)nnz, ncclInt32, root, comm, S->g.stream);
    if (!r && nnz) r = ncclBroadcast(val, val, (size_t)nnz, nt, root, comm, S->g.stream);
    return r;
}

domino_status domino_summa_gpu_spgemm_run(domino_handle h, domino_summa_spgemm S, domino_summa_gpu_times *t)
{
    domino_summa_gpu_times z;
    memset(&z, 0, sizeof(z));
    if (t) *t = z;
    if (!S) return domino_error(h, DOMINO_NULL_POINTER, WHAT ": S is NULL");
    int64_t rows = S->g.rb[S->g.myr + 1] - S->g.rb[S->g.myr], cols = S->g.cb[S->g.myc + 1] - S->g.cb[S->g.myc];
    domino_dmatrix_free(S->c);
    S->c = NULL;
    domino_dmatrix *parts = domino_calloc((size_t)S->g.K + 1, sizeof(domino_dmatrix));
    int np = 0;
    domino_status s = parts ? DOMINO_SUCCESS : domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory");
    s = agree(h, S, s);
    cudaError_t e = cudaSuccess;
    ncclResult_t nr = ncclSuccess; /* the first NCCL failure */
    int stop = s != DOMINO_SUCCESS; /* agreed: every PE alike */
    double start = domino_wtime();
    for (int l = 0; l < S->g.K && !stop; l++) { /* every PE takes part in every step, failed or not */
        int aroot = l % S->g.pc, broot = l % S->g.pr;
        int64_t na = S->a_nnz[(size_t)S->g.myr * S->g.K + l], nb = S->b_nnz[(size_t)l * S->g.pc + S->g.myc];
        int64_t kr = S->g.kb[l + 1] - S->g.kb[l];
        double t0 = domino_wtime();
        if (nr == ncclSuccess) {
            cudaError_t ea = cudaSuccess, eb = cudaSuccess;
            ncclResult_t r = ncclGroupStart();
            if (!r)
                r = broadcast_block(S, aroot == S->g.myc && !e ? S->a[l] : NULL, rows, na, S->ra_ptr, S->ra_ind, S->ra_val,
                                    aroot, S->g.row, &ea);
            if (!r)
                r = broadcast_block(S, broot == S->g.myr && !e ? S->b[l] : NULL, kr, nb, S->rb_ptr, S->rb_ind, S->rb_val,
                                    broot, S->g.col, &eb);
            ncclResult_t r2 = ncclGroupEnd();
            nr = r ? r : r2;
            if (!e) e = ea ? ea : eb;
        }
        if (!e) e = cudaStreamSynchronize(S->g.stream);
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
    if (!s && nr != ncclSuccess) s = summa_nccl_status(h, nr, WHAT ": broadcast", S->g.rank);
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
    if (!e) e = cudaMemsetAsync(all, 0, (size_t)(S->m + 1) * sizeof(double), S->g.stream);
    if (!e) e = cudaMemcpyAsync(count, &mine, sizeof(int64_t), cudaMemcpyHostToDevice, S->g.stream);
    if (!s && !e) e = cudaMemcpyAsync(dx, x, (size_t)S->n * sizeof(double), cudaMemcpyHostToDevice, S->g.stream);
    if (!s && !e)
        e = domino_launch_csr_apply_add(S->g.stream, S->type, S->c->nrows, S->c->ptr, S->c->ind, S->c->val,
                                        dx + S->g.cb[S->g.myc], all + S->g.rb[S->g.myr]);
    if (!s && e) s = domino_cuda_status(h, e, WHAT ": multiply");
    if ((s = agree(h, S, s))) { /* every PE leaves here alike */
        cudaFree(all), cudaFree(dx), cudaFree(count);
        return s;
    }
    /* every row of C on one PE, each PE's C x in its rows: the sum is C x */
    ncclResult_t r = ncclGroupStart();
    if (!r) r = ncclAllReduce(all, all, (size_t)S->m, ncclFloat64, ncclSum, S->g.world, S->g.stream);
    if (!r) r = ncclAllReduce(count, count, 1, ncclInt64, ncclSum, S->g.world, S->g.stream);
    ncclResult_t r2 = ncclGroupEnd();
    if (!r) r = r2;
    e = cudaStreamSynchronize(S->g.stream);
    if (!e) e = cudaMemcpy(y, all, (size_t)S->m * sizeof(double), cudaMemcpyDeviceToHost);
    if (!e && nnz) e = cudaMemcpy(nnz, count, sizeof(int64_t), cudaMemcpyDeviceToHost);
    cudaFree(all), cudaFree(dx), cudaFree(count);
    s = r ? summa_nccl_status(h, r, WHAT ": multiply", S->g.rank)
          : e ? domino_cuda_status(h, e, WHAT ": multiply") : DOMINO_SUCCESS;
    return agree(h, S, s); /* every PE leaves alike */
}
