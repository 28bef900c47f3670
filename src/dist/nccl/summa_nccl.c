/* summa_nccl.c: the bulk-synchronous SUMMA SpMM on GPUs, the baseline of
 * the one-sided algorithms (issue 9): one PE per GPU, started by domino run
 * -n N (NCCL's unique ID through the launch's shared page) or by mpirun
 * (through MPI); A's blocks broadcast along grid rows and B's along grid
 * columns with ncclBroadcast in communicators split from the world's, and
 * every GPU adds A(r, l) B(l, c) into its C tile with cusparseSpMM.  The
 * layout is the CPU version's (dist_spmm_summa.c): K = lcm(pr, pc) inner
 * blocks, A(r, l) on (r, l mod pc), B(l, c) on (l mod pr, c), C(r, c) on
 * (r, c). */
#define _POSIX_C_SOURCE 200809L
#include "cuda/gpu_internal.h"
#include "dist/dist_tile_cut.h"
#include "dist/nccl/summa_nccl.h"

#include <nccl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h> /* nanosleep */
#ifdef DOMINO_NCCL_WITH_MPI
#include <mpi.h>
#endif

#define WHAT "domino_summa_gpu"
/* one GPU's part of a SUMMA product */
struct domino_summa_gpu_s {
    summa_grid g;              /* the PEs, the blocks, the communicators */
    domino_type type;          /* value type */
    int64_t m, k, n;           /* A m x k, B k x n, C m x n */
    int64_t *a_nnz;            /* entries of A(r, l), pr x K */
    int32_t **a_ptr, **a_ind;  /* device A(myr, l) (row offsets as int32) for the blocks held, else NULL */
    void **a_val;              /* their values */
    void **b;                  /* device B(l, myc) row-major for the blocks held, else NULL */
    void *c;                   /* device C(myr, myc), row-major, S's type */
    int32_t *r_ptr, *r_ind;    /* receive buffers of A blocks */
    void *r_val, *r_b;         /* and of B blocks */
    void *work;                /* cusparseSpMM workspace */
    size_t work_bytes;         /* its size */
    cusparseHandle_t sparse;   /* the handle's */
};

domino_status summa_nccl_status(domino_handle h, ncclResult_t r, const char *what, int rank)
{
    if (r == ncclSuccess) return DOMINO_SUCCESS;
    return domino_error(h, DOMINO_DEVICE_ERROR, "%s (PE %d): NCCL: %s", what, rank, ncclGetErrorString(r));
}

#ifdef DOMINO_NCCL_WITH_MPI
static void finalize_mpi(void) { MPI_Finalize(); }
#endif

domino_status summa_nccl_share_id(domino_handle h, ncclUniqueId *id, int *rank, int *size)
{
    static uint64_t generation;
    const domino_launch_info *pe = domino_launch_self();
    if (pe) {
        uint64_t want = ID_READY + (++generation & 0xffffffffULL);
        nccl_page *page = (nccl_page *)((char *)pe->shared + ID_OFFSET);
        *rank = pe->rank;
        *size = pe->npes;
        if (pe->rank == 0) {
            if (ncclGetUniqueId(id) != ncclSuccess)
                return domino_error(h, DOMINO_DEVICE_ERROR, WHAT ": PE 0 could not get an NCCL unique ID");
            memcpy(&page->id, id, sizeof(*id));
            __atomic_store_n(&page->ready, want, __ATOMIC_RELEASE);
            return DOMINO_SUCCESS;
        }
        for (double t0 = domino_wtime(); __atomic_load_n(&page->ready, __ATOMIC_ACQUIRE) != want;) {
            if (domino_wtime() - t0 > ID_WAIT_S)
                return domino_error(h, DOMINO_TIMEOUT, WHAT ": PE %d waited %d s for PE 0's NCCL ID", pe->rank,
                                    ID_WAIT_S);
            struct timespec pause = {0, 1000000};
            nanosleep(&pause, NULL);
        }
        memcpy(id, &page->id, sizeof(*id));
        return DOMINO_SUCCESS;
    }
#ifdef DOMINO_NCCL_WITH_MPI
    int up = 0;
    MPI_Initialized(&up);
    if (!up) { /* MPI lives as long as the process: products may come and go */
        if (MPI_Init(NULL, NULL) != MPI_SUCCESS) return domino_error(h, DOMINO_DEVICE_ERROR, WHAT ": MPI_Init failed");
        atexit(finalize_mpi);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
    if (*rank == 0 && ncclGetUniqueId(id) != ncclSuccess) MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Bcast(id, sizeof(*id), MPI_BYTE, 0, MPI_COMM_WORLD);
    return DOMINO_SUCCESS;
#else
    (void)id;
    return domino_error(h, DOMINO_NOT_SUPPORTED, WHAT ": this process was started neither by domino run -n N "
                        "nor by mpirun with MPI in this build");
#endif
}

void domino_summa_gpu_free(domino_summa_gpu S)
{
    if (!S) return;
    for (int l = 0; l < S->g.K; l++) {
        if (S->a_ptr) cudaFree(S->a_ptr[l]);
        if (S->a_ind) cudaFree(S->a_ind[l]);
        if (S->a_val) cudaFree(S->a_val[l]);
        if (S->b) cudaFree(S->b[l]);
    }
    domino_free(S->a_ptr);
    domino_free(S->a_ind);
    domino_free(S->a_val);
    domino_free(S->b);
    cudaFree(S->c);
    cudaFree(S->r_ptr);
    cudaFree(S->r_ind);
    cudaFree(S->r_val);
    cudaFree(S->r_b);
    cudaFree(S->work);
    summa_grid_free(&S->g);
    domino_free(S->a_nnz);
    domino_free(S);
}

/* this PE's blocks of A (row offsets narrowed to int32) and B on its GPU
 * (from the host B, or made there by domino_gen_dense(seed) when B is
 * NULL), its zeroed C, and receive buffers for the largest blocks it is
 * sent */
static domino_status own_blocks(domino_handle h, domino_matrix A, const void *B, int64_t ldb, uint64_t seed,
                                domino_summa_gpu S)
{
    size_t vs = domino_type_size(S->type);
    int64_t rows = S->g.rb[S->g.myr + 1] - S->g.rb[S->g.myr], cols = S->g.cb[S->g.myc + 1] - S->g.cb[S->g.myc];
    int64_t max_nnz = 1, max_k = 1;
    cudaError_t e = cudaSuccess;
    for (int l = 0; l < S->g.K; l++) {
        int64_t nnz = S->a_nnz[(size_t)S->g.myr * S->g.K + l], kr = S->g.kb[l + 1] - S->g.kb[l];
        if (nnz > max_nnz) max_nnz = nnz;
        if (kr > max_k) max_k = kr;
        if (nnz >= INT32_MAX)
            return domino_error(h, DOMINO_NOT_SUPPORTED, WHAT ": block A(%d, %d) has %lld entries, more than "
                                "32-bit offsets hold; use more PEs", S->g.myr, l, (long long)nnz);
    }
    for (int l = 0; l < S->g.K && !e; l++) {
        if (l % S->g.pc == S->g.myc) {
            domino_matrix T = NULL;
            domino_status s = dist_cut_tile(h, A, S->g.rb, S->g.kb, S->g.myr, l, &T);
            if (s) return s;
            int32_t *p32 = domino_malloc((size_t)(rows + 1) * sizeof(int32_t));
            for (int64_t r = 0; p32 && r <= rows; r++) p32[r] = (int32_t)T->ptr[r];
            if (!p32) e = cudaErrorMemoryAllocation;
            if (!e) e = domino_device_copy_new((void **)&S->a_ptr[l], p32, (size_t)(rows + 1) * sizeof(int32_t));
            if (!e) e = domino_device_copy_new((void **)&S->a_ind[l], T->ind, (size_t)T->nnz * sizeof(int32_t));
            if (!e) e = domino_device_copy_new(&S->a_val[l], T->val, (size_t)T->nnz * vs);
            domino_free(p32);
            domino_matrix_free(T);
        }
        if (!e && l % S->g.pr == S->g.myr && !B) {
            int64_t kr = S->g.kb[l + 1] - S->g.kb[l];
            e = domino_device_copy_new(&S->b[l], NULL, (size_t)(kr * cols) * vs);
            if (!e) e = domino_launch_gen_dense(S->g.stream, seed, S->n, S->g.kb[l], kr, S->g.cb[S->g.myc], cols,
                                                S->type, S->b[l], cols);
            if (!e) e = cudaStreamSynchronize(S->g.stream);
        } else if (!e && l % S->g.pr == S->g.myr) {
            int64_t kr = S->g.kb[l + 1] - S->g.kb[l];
            char *blk = domino_malloc((size_t)(kr * cols) * vs + 1);
            if (!blk) e = cudaErrorMemoryAllocation;
            else dist_copy_block(blk, B, ldb, S->g.kb[l], kr, S->g.cb[S->g.myc], cols, vs);
            if (!e) e = domino_device_copy_new(&S->b[l], blk, (size_t)(kr * cols) * vs);
            domino_free(blk);
        }
    }
    if (!e) e = domino_device_copy_new(&S->c, NULL, (size_t)(rows * cols) * vs);
    if (!e) e = domino_device_copy_new((void **)&S->r_ptr, NULL, (size_t)(rows + 1) * sizeof(int32_t));
    if (!e) e = domino_device_copy_new((void **)&S->r_ind, NULL, (size_t)max_nnz * sizeof(int32_t));
    if (!e) e = domino_device_copy_new(&S->r_val, NULL, (size_t)max_nnz * vs);
    if (!e) e = domino_device_copy_new(&S->r_b, NULL, (size_t)(max_k * cols) * vs);
    return e ? domino_cuda_status(h, e, WHAT) : DOMINO_SUCCESS;
}

domino_status summa_nccl_agree(domino_handle h, ncclComm_t world, cudaStream_t stream, int rank, int *flag,
                               domino_status s, const char *what)
{
    int failed = s != DOMINO_SUCCESS;
    cudaError_t e = cudaMemcpyAsync(flag, &failed, sizeof(int), cudaMemcpyHostToDevice, stream);
    ncclResult_t r = ncclAllReduce(flag, flag, 1, ncclInt32, ncclMax, world, stream); /* every PE, one int */
    if (!e) e = cudaMemcpyAsync(&failed, flag, sizeof(int), cudaMemcpyDeviceToHost, stream);
    cudaError_t e2 = cudaStreamSynchronize(stream);
    if (!e) e = e2;
    if (s) return s;
    if (e) return domino_cuda_status(h, e, what);
    if (r != ncclSuccess) return summa_nccl_status(h, r, what, rank);
    if (failed) return domino_error(h, DOMINO_DEVICE_ERROR, "%s: another PE failed (its message is on its stderr)", what);
    return DOMINO_SUCCESS;
}

domino_status summa_grid_start(domino_handle h, summa_grid *g, int64_t m, int64_t k, int64_t n, int pr, int pc,
                               cudaStream_t stream, const char *what, int *joined)
{
    ncclUniqueId id;
    domino_status s = DOMINO_SUCCESS;
    *joined = 0;
    g->stream = stream;
    setenv("NCCL_NVLS_ENABLE", "0", 1); /* never NVLink multicast objects */
    cudaError_t fe = cudaMalloc((void **)&g->flag, sizeof(int)); /* before the collectives: agree never lacks it */
    if (fe) return domino_cuda_status(h, fe, what);
    if ((s = summa_nccl_share_id(h, &id, &g->rank, &g->size))) return s;
    char step[160];
    snprintf(step, sizeof(step), "%s: ncclCommInitRank", what);
    if ((s = summa_nccl_status(h, ncclCommInitRank(&g->world, g->size, id, g->rank), step, g->rank))) return s;
    *joined = 1; /* from here every PE takes part in every collective, failed or not */
    g->pr = pr;
    g->pc = pc;
    if (pr < 1 || pc < 1 || (int64_t)pr * pc != g->size) {
        s = domino_error(h, DOMINO_INVALID_VALUE, "%s: a %d x %d grid for %d PEs", what, pr, pc, g->size);
        g->pr = 1, g->pc = g->size; /* a grid to split by, so the collectives still match */
    }
    g->K = dist_lcm(g->pr, g->pc);
    g->myr = g->rank / g->pc;
    g->myc = g->rank % g->pc;
    g->rb = dist_split(m, g->pr);
    g->kb = dist_split(k, g->K);
    g->cb = dist_split(n, g->pc);
    if (!s && (!g->rb || !g->kb || !g->cb))
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory (PE %d)", what, g->rank);
    snprintf(step, sizeof(step), "%s: grid row and column split", what);
    domino_status g1 = summa_nccl_status(h, ncclCommSplit(g->world, g->myr, g->myc, &g->row, NULL), step, g->rank);
    domino_status g2 = summa_nccl_status(h, ncclCommSplit(g->world, g->myc, g->myr, &g->col, NULL), step, g->rank);
    return s ? s : g1 ? g1 : g2;
}

domino_status summa_grid_agree(domino_handle h, summa_grid *g, domino_status s, const char *what)
{
    return summa_nccl_agree(h, g->world, g->stream, g->rank, g->flag, s, what);
}

void summa_grid_free(summa_grid *g)
{
    cudaFree(g->flag);
    if (g->row) ncclCommDestroy(g->row);
    if (g->col) ncclCommDestroy(g->col);
    if (g->world) ncclCommDestroy(g->world);
    domino_free(g->rb);
    domino_free(g->kb);
    domino_free(g->cb);
}

/* every PE learns whether one failed (a PE that stopped early must not leave the others in a broadcast) */
static domino_status agree(domino_handle h, domino_summa_gpu S, domino_status s)
{
    return summa_grid_agree(h, &S->g, s, WHAT);
}

/* domino_summa_gpu_make and _make_random: B from the host (ldb), or
 * domino_gen_dense(seed) when B is NULL */
static domino_status make(domino_handle h, domino_matrix A, const void *B, int64_t n, int64_t ldb, uint64_t seed, int pr,
                          int pc, domino_summa_gpu *out)
{
    struct domino_gpu_context *gpu;
    if (!out) return domino_error(h, DOMINO_NULL_POINTER, WHAT ": S is NULL");
    *out = NULL;
    domino_status s = domino_check_matrix(h, A, WHAT);
    if (s) return s;
    if (A->format != DOMINO_CSR || A->symmetry != DOMINO_GENERAL)
        return domino_error(h, DOMINO_NOT_SUPPORTED, WHAT ": A must be CSR stored general");
    if (n < 1 || (B && ldb < n))
        return domino_error(h, DOMINO_INVALID_VALUE, WHAT ": B of %lld columns, leading dimension %lld",
                            (long long)n, (long long)ldb);
    if ((s = domino_gpu_context_get(h, &gpu))) return s; /* selects the PE's GPU */
    domino_summa_gpu S = domino_calloc(1, sizeof(*S));
    if (!S) return domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory");
    S->sparse = gpu->cusparse;
    S->type = A->type;
    S->m = A->nrows;
    S->k = A->ncols;
    S->n = n;
    int joined = 0;
    s = summa_grid_start(h, &S->g, S->m, S->k, n, pr, pc, gpu->stream, WHAT, &joined);
    if (!joined) goto failed;
    /* from here every PE takes part in every collective, failed or not */
    S->a_nnz = domino_calloc((size_t)S->g.pr * S->g.K, sizeof(int64_t));
    S->a_ptr = domino_calloc((size_t)S->g.K, sizeof(int32_t *));
    S->a_ind = domino_calloc((size_t)S->g.K, sizeof(int32_t *));
    S->a_val = domino_calloc((size_t)S->g.K, sizeof(void *));
    S->b = domino_calloc((size_t)S->g.K, sizeof(void *));
    if (!s && (!S->a_nnz || !S->a_ptr || !S->a_ind || !S->a_val || !S->b))
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory (PE %d)", S->g.rank);
    if (!s) dist_count_blocks(A, S->g.rb, S->g.pr, S->g.kb, S->g.K, S->a_nnz); /* every PE knows every size */
    if (!s) s = own_blocks(h, A, B, ldb, seed, S);
    s = agree(h, S, s); /* everyone learns whether someone failed */
    if (s) goto failed;
    *out = S;
    return DOMINO_SUCCESS;
failed:
    domino_summa_gpu_free(S);
    return s;
}

domino_status domino_summa_gpu_make(domino_handle h, domino_matrix A, const void *B, int64_t n, int64_t ldb,
                                    int pr, int pc, domino_summa_gpu *S)
{
    if (S) *S = NULL;
    if (!B) /* every PE passes B alike: every PE returns here alike */
        return domino_error(h, DOMINO_NULL_POINTER, WHAT ": B is NULL (domino_summa_gpu_make_random makes B on the GPUs)");
    return make(h, A, B, n, ldb, 0, pr, pc, S);
}

domino_status domino_summa_gpu_make_random(domino_handle h, domino_matrix A, int64_t n, uint64_t seed, int pr, int pc,
                                           domino_summa_gpu *S)
{
    return make(h, A, NULL, n, n, seed, pr, pc, S);
}

/* C tile += A block (in the receive buffers) times B block */
static domino_status multiply(domino_handle h, domino_summa_gpu S, int64_t rows, int64_t kr, int64_t cols, int64_t nnz)
{
    if (rows == 0 || cols == 0 || kr == 0 || nnz == 0) return DOMINO_SUCCESS;
    cudaDataType vt = S->type == DOMINO_FLOAT64 ? CUDA_R_64F : CUDA_R_32F;
    cusparseSpMatDescr_t a = NULL;
    cusparseDnMatDescr_t b = NULL, c = NULL;
    double one = 1.0;
    float onef = 1.0f;
    const void *alpha = S->type == DOMINO_FLOAT64 ? (const void *)&one : (const void *)&onef;
    size_t bytes = 0;
    cusparseSpMMAlg_t alg = domino_spmm_algorithm();
    cusparseStatus_t st = cusparseCreateCsr(&a, rows, kr, nnz, S->r_ptr, S->r_ind, S->r_val, CUSPARSE_INDEX_32I,
                                            CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, vt);
    if (!st) st = cusparseCreateDnMat(&b, kr, cols, cols, S->r_b, vt, CUSPARSE_ORDER_ROW);
    if (!st) st = cusparseCreateDnMat(&c, rows, cols, cols, S->c, vt, CUSPARSE_ORDER_ROW);
    if (!st) st = cusparseSpMM_bufferSize(S->sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                          alpha, a, b, alpha, c, vt, alg, &bytes);
    domino_status s = st ? domino_cusparse_status(h, st, WHAT ": SpMM") : DOMINO_SUCCESS;
    if (!s && bytes > S->work_bytes) {
        cudaFree(S->work);
        S->work = NULL;
        cudaError_t e = cudaMalloc(&S->work, bytes);
        S->work_bytes = e ? 0 : bytes;
        if (e) s = domino_cuda_status(h, e, WHAT ": SpMM workspace");
    }
    if (!s && alg == CUSPARSE_SPMM_CSR_ALG3 &&
        (st = cusparseSpMM_preprocess(S->sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                      alpha, a, b, alpha, c, vt, alg, S->work)))
        s = domino_cusparse_status(h, st, WHAT ": SpMM preprocess");
    if (!s && (st = cusparseSpMM(S->sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha,
                                 a, b, alpha, c, vt, alg, S->work)))
        s = domino_cusparse_status(h, st, WHAT ": SpMM");
    if (a) cusparseDestroySpMat(a);
    if (b) cusparseDestroyDnMat(b);
    if (c) cusparseDestroyDnMat(c);
    return s;
}

domino_status domino_summa_gpu_spmm(domino_handle h, domino_summa_gpu S, domino_summa_gpu_times *t)
{
    domino_summa_gpu_times z;
    memset(&z, 0, sizeof(z));
    if (!S) return domino_error(h, DOMINO_NULL_POINTER, WHAT ": S is NULL");
    size_t vs = domino_type_size(S->type);
    ncclDataType_t nt = S->type == DOMINO_FLOAT64 ? ncclFloat64 : ncclFloat32;
    int64_t rows = S->g.rb[S->g.myr + 1] - S->g.rb[S->g.myr], cols = S->g.cb[S->g.myc + 1] - S->g.cb[S->g.myc];
    domino_status s = DOMINO_SUCCESS;
    cudaError_t e = rows * cols > 0 ? cudaMemsetAsync(S->c, 0, (size_t)(rows * cols) * vs, S->g.stream) : cudaSuccess;
    if (!e) e = cudaStreamSynchronize(S->g.stream);
    double start = domino_wtime();
    ncclResult_t nr = ncclSuccess; /* the first NCCL failure */
    for (int l = 0; l < S->g.K; l++) { /* every PE takes part in every step, failed or not */
        int aroot = l % S->g.pc, broot = l % S->g.pr;
        int64_t nnz = S->a_nnz[(size_t)S->g.myr * S->g.K + l], kr = S->g.kb[l + 1] - S->g.kb[l];
        double t0 = domino_wtime();
        if (!e && aroot == S->g.myc) { /* the sender's own block into the buffers it broadcasts from */
            e = cudaMemcpyAsync(S->r_ptr, S->a_ptr[l], (size_t)(rows + 1) * sizeof(int32_t), cudaMemcpyDeviceToDevice, S->g.stream);
            if (!e && nnz) e = cudaMemcpyAsync(S->r_ind, S->a_ind[l], (size_t)nnz * sizeof(int32_t), cudaMemcpyDeviceToDevice, S->g.stream);
            if (!e && nnz) e = cudaMemcpyAsync(S->r_val, S->a_val[l], (size_t)nnz * vs, cudaMemcpyDeviceToDevice, S->g.stream);
        }
        if (!e && broot == S->g.myr && kr * cols > 0)
            e = cudaMemcpyAsync(S->r_b, S->b[l], (size_t)(kr * cols) * vs, cudaMemcpyDeviceToDevice, S->g.stream);
        if (nr == ncclSuccess) {
            ncclResult_t r = ncclGroupStart();
            if (!r) r = ncclBroadcast(S->r_ptr, S->r_ptr, (size_t)(rows + 1), ncclInt32, aroot, S->g.row, S->g.stream);
            if (!r && nnz) r = ncclBroadcast(S->r_ind, S->r_ind, (size_t)nnz, ncclInt32, aroot, S->g.row, S->g.stream);
            if (!r && nnz) r = ncclBroadcast(S->r_val, S->r_val, (size_t)nnz, nt, aroot, S->g.row, S->g.stream);
            if (!r && kr * cols > 0) r = ncclBroadcast(S->r_b, S->r_b, (size_t)(kr * cols), nt, broot, S->g.col, S->g.stream);
            ncclResult_t r2 = ncclGroupEnd();
            nr = r ? r : r2;
        }
        if (!e) e = cudaStreamSynchronize(S->g.stream);
        z.communication += domino_wtime() - t0;
        t0 = domino_wtime();
        if (!s && !e && nr == ncclSuccess) s = multiply(h, S, rows, kr, cols, nnz);
        if (!e) e = cudaStreamSynchronize(S->g.stream);
        z.compute += domino_wtime() - t0;
    }
    if (!s && nr != ncclSuccess) s = summa_nccl_status(h, nr, WHAT ": broadcast", S->g.rank);
    z.total = domino_wtime() - start;
    if (!s && e) s = domino_cuda_status(h, e, WHAT);
    if (t) *t = z;
    return agree(h, S, s);
}

domino_status domino_summa_gpu_gather(domino_handle h, domino_summa_gpu S, void *C, int64_t ldc)
{
    if (!S || !C) return domino_error(h, DOMINO_NULL_POINTER, WHAT ": NULL argument");
    size_t vs = domino_type_size(S->type);
    ncclDataType_t nt = S->type == DOMINO_FLOAT64 ? ncclFloat64 : ncclFloat32;
    int64_t rows = S->g.rb[S->g.myr + 1] - S->g.rb[S->g.myr], cols = S->g.cb[S->g.myc + 1] - S->g.cb[S->g.myc];
    void *all = NULL;
    if (ldc < S->n) return agree(h, S, domino_error(h, DOMINO_INVALID_VALUE, WHAT ": ldc %lld < n %lld", (long long)ldc,
                                                    (long long)S->n));
    /* every entry of C is held by one PE: a sum over zeros is a gather */
    cudaError_t e = cudaMalloc(&all, (size_t)(S->m * S->n) * vs + 1);
    domino_status s = agree(h, S, e ? domino_cuda_status(h, e, WHAT ": gather") : DOMINO_SUCCESS);
    if (s) {
        cudaFree(all);
        return s;
    }
    e = cudaMemsetAsync(all, 0, (size_t)(S->m * S->n) * vs + 1, S->g.stream);
    if (!e && rows * cols > 0)
        e = cudaMemcpy2DAsync((char *)all + (size_t)(S->g.rb[S->g.myr] * S->n + S->g.cb[S->g.myc]) * vs, (size_t)S->n * vs,
                              S->c, (size_t)cols * vs, (size_t)cols * vs, (size_t)rows, cudaMemcpyDeviceToDevice,
                              S->g.stream);
    ncclResult_t r = ncclAllReduce(all, all, (size_t)(S->m * S->n), nt, ncclSum, S->g.world, S->g.stream);
    if (!e) e = cudaStreamSynchronize(S->g.stream);
    if (!e && r == ncclSuccess)
        e = cudaMemcpy2D(C, (size_t)ldc * vs, all, (size_t)S->n * vs, (size_t)S->n * vs, (size_t)S->m,
                         cudaMemcpyDeviceToHost);
    cudaFree(all);
    if (e) return domino_cuda_status(h, e, WHAT ": gather");
    return summa_nccl_status(h, r, WHAT ": gather", S->g.rank);
}

domino_status domino_summa_gpu_multiply(domino_handle h, domino_summa_gpu S, const double *x, double *y)
{
    if (!S) return domino_error(h, DOMINO_NULL_POINTER, WHAT ": S is NULL");
    int64_t rows = S->g.rb[S->g.myr + 1] - S->g.rb[S->g.myr], cols = S->g.cb[S->g.myc + 1] - S->g.cb[S->g.myc];
    double *dx = NULL, *dy = NULL;
    /* every PE holds one C tile: the sum over PEs of its part of C x is C x */
    cudaError_t e = x && y ? cudaMalloc((void **)&dx, (size_t)(S->n + 1) * sizeof(double)) : cudaErrorInvalidValue;
    if (!e) e = cudaMalloc((void **)&dy, (size_t)(S->m + 1) * sizeof(double));
    if (!e) e = cudaMemcpyAsync(dx, x, (size_t)S->n * sizeof(double), cudaMemcpyHostToDevice, S->g.stream);
    if (!e) e = cudaMemsetAsync(dy, 0, (size_t)(S->m + 1) * sizeof(double), S->g.stream);
    if (!e) e = domino_launch_dense_apply_add(S->g.stream, S->type, rows, cols, S->c, cols, dx + S->g.cb[S->g.myc],
                                              dy + S->g.rb[S->g.myr]);
    if (!e) e = cudaStreamSynchronize(S->g.stream);
    domino_status s = agree(h, S, e ? domino_cuda_status(h, e, WHAT ": multiply (x or y NULL, or CUDA)") : DOMINO_SUCCESS);
    if (!s) {
        ncclResult_t r = ncclAllReduce(dy, dy, (size_t)S->m, ncclFloat64, ncclSum, S->g.world, S->g.stream);
        if (r == ncclSuccess) e = cudaMemcpyAsync(y, dy, (size_t)S->m * sizeof(double), cudaMemcpyDeviceToHost, S->g.stream);
        if (r == ncclSuccess && !e) e = cudaStreamSynchronize(S->g.stream);
        s = r != ncclSuccess ? summa_nccl_status(h, r, WHAT ": multiply", S->g.rank)
                             : e ? domino_cuda_status(h, e, WHAT ": multiply") : DOMINO_SUCCESS;
        s = agree(h, S, s);
    }
    cudaFree(dx);
    cudaFree(dy);
    return s;
}
