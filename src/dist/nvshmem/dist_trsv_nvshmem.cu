/* dist_trsv_nvshmem.cu: the NVSHMEM multi-GPU triangular solvers, one PE
 * per GPU: ZEROCOPY (Xie et al., ICPP 2021, Algorithm 3: each PE keeps
 * the counts and sums of its contributions in its own symmetric arrays, and
 * the owner of a row reads them from every PE, so no PE writes another's
 * memory) and PUSH (ours: contributions are added into the owner's
 * symmetric arrays with atomics over NVLink, and the owner polls its own
 * memory), both CSC push, and PULL (ours, CSR: a component reads the x_j
 * of its row, each value its own flag, from their owners, or by default
 * (pull_copies) from its own PE's array, where each owner stores a copy of
 * every value another PE reads).
 * They run the kernels of dist_trsv_kernel.cu through peer
 * pointers (nvshmem_ptr), so they need PEs that can address each other's
 * memory (one node, NVLink or PCIe peer access). */
#include "dist_trsv_internal.h"

#include <nvshmem.h>
#include <nvshmemx.h>

#include <string.h>

#define WHAT "domino_dist_trsv_make"

static void nvshmem_destroy(struct domino_dist_trsv_s *T)
{
    domino_dist D = (domino_dist)T->dist;
    cudaFree(T->peer_x);
    /* symmetric frees are collective: every PE frees the same T */
    domino_dist_free(D, T->s_in);
    domino_dist_free(D, T->s_sum);
    domino_dist_free(D, T->s_x);
    dist_trsv_delete(T);
}

static domino_status nvshmem_solve(domino_handle h, struct domino_dist_trsv_s *T, const double *b,
                                   double *x, double *seconds)
{
    const char *what = "domino_dist_trsv_solve";
    domino_dist D = (domino_dist)T->dist;
    dist_trsv_gpu *G = &T->g[0];
    size_t n = (size_t)T->n;
    cudaError_t e = cudaSuccess;
    double t0 = 0, t1 = 0;
    int pull = T->solver == DOMINO_DIST_PULL;
    domino_status s = n > 0 && (!b || !x)
                          ? domino_error(h, DOMINO_NULL_POINTER, "%s: PE %d: %s is NULL", what,
                                         T->pe, !b ? "b" : "x")
                          : dist_trsv_gpu_prepare(h, what, G, b);
    if (!s && pull &&
        ((e = dist_trsv_fill_pending(T->s_x, T->n, G->stream)) ||
         (e = cudaStreamSynchronize(G->stream))))
        s = domino_cuda_status(h, e, what);
    if (!s && !pull &&
        ((e = cudaMemsetAsync(T->s_in, 0, n * sizeof(int), G->stream)) ||
         (e = cudaMemsetAsync(T->s_sum, 0, n * sizeof(double), G->stream)) ||
         (e = cudaStreamSynchronize(G->stream))))
        s = domino_cuda_status(h, e, what);
    if ((s = domino_dist_agree(h, D, s))) return s; /* nobody starts unless all are ready */
    t0 = domino_wtime();
    void *args[] = {&G->a};
    int launched = nvshmemx_collective_launch(
        pull ? dist_trsv_pull_kernel_fn(G->a.lanes) : dist_trsv_kernel_fn(), dim3(G->blocks),
        dim3(DIST_WARPS_PER_BLOCK * 32), args, 0, G->stream);
    e = cudaStreamSynchronize(G->stream);
    t1 = domino_wtime();
    if (launched != 0)
        s = domino_error(h, DOMINO_DEVICE_ERROR, "%s: PE %d: the collective launch failed", what,
                         T->pe);
    else if (e)
        s = domino_cuda_status(h, e, what);
    else
        s = dist_trsv_gpu_check(h, what, G, T->pe);
    if ((s = domino_dist_agree(h, D, s))) return s;
    double mine = t1 - t0, worst = 0;
    s = domino_dist_max(h, D, mine, &worst);
    if ((s = domino_dist_agree(h, D, s))) return s;
    /* every PE's solution into its s_x (the pull kernel wrote it there),
     * then everybody gathers the rest */
    if (!pull && ((e = dist_trsv_scatter(G->a.comp, G->a.x, G->nloc, T->s_x, G->stream)) ||
                  (e = cudaStreamSynchronize(G->stream))))
        s = domino_cuda_status(h, e, what);
    if ((s = domino_dist_agree(h, D, s))) return s;
    if ((e = dist_trsv_gather(T->s_x, T->peer_x, G->task_pe, T->task_size, T->n, T->pe,
                              G->stream)) ||
        (e = cudaMemcpyAsync(x, T->s_x, n * sizeof(double), cudaMemcpyDeviceToHost, G->stream)) ||
        (e = cudaStreamSynchronize(G->stream)))
        s = domino_cuda_status(h, e, what);
    /* nobody overwrites its s_x before the others have read it */
    if ((s = domino_dist_agree(h, D, s))) return s;
    if (seconds) *seconds = worst;
    return DOMINO_SUCCESS;
}

/* this PE's share on its GPU (nothing collective) */
static domino_status setup_local(domino_handle h, struct domino_dist_trsv_s *T,
                                 domino_dist_solver solver, domino_fill fill, domino_diag diag,
                                 domino_matrix A, const domino_dist_plan *plan, cudaStream_t stream)
{
    dist_share *S = NULL;
    dist_count_mode mode = solver == DOMINO_DIST_ZEROCOPY ? DIST_COUNT_PER_PE
                           : solver == DOMINO_DIST_PULL   ? DIST_PULL_ROWS
                                                          : DIST_COUNT_ONE;
    domino_status s = dist_share_make(h, WHAT, A, fill, diag, plan, T->pe, mode, &S);
    if (!s) s = dist_trsv_gpu_upload(h, WHAT, S, plan, &T->g[0]);
    dist_share_free(S);
    T->g[0].stream = stream;
    return s;
}

/* the symmetric arrays and every PE's address of them: each PE addressed
 * directly, else DOMINO_NOT_SUPPORTED */
static domino_status setup_symmetric(domino_handle h, struct domino_dist_trsv_s *T,
                                     domino_dist_solver solver)
{
    domino_dist D = (domino_dist)T->dist;
    size_t n = (size_t)T->n;
    int *in[DIST_MAX_GPUS], *own_in[DIST_MAX_GPUS];
    double *sum[DIST_MAX_GPUS], *own_sum[DIST_MAX_GPUS], *px[DIST_MAX_GPUS];
    /* collective: every PE makes all three calls, whatever failed before
     * (the pull solver counts nothing: a word each) */
    size_t counted = solver == DOMINO_DIST_PULL ? 1 : n;
    domino_status s1 = domino_dist_malloc(h, D, counted * sizeof(int), (void **)&T->s_in);
    domino_status s2 = domino_dist_malloc(h, D, counted * sizeof(double), (void **)&T->s_sum);
    domino_status s3 = domino_dist_malloc(h, D, n * sizeof(double), (void **)&T->s_x);
    domino_status s = s1 ? s1 : s2 ? s2 : s3;
    if ((s = domino_dist_agree(h, D, s))) return s;
    for (int q = 0; q < T->npes; q++) {
        in[q] = (int *)nvshmem_ptr(T->s_in, q);
        sum[q] = (double *)nvshmem_ptr(T->s_sum, q);
        px[q] = (double *)nvshmem_ptr(T->s_x, q);
        own_in[q] = T->s_in;
        own_sum[q] = T->s_sum;
        if (!in[q] || !sum[q] || !px[q])
            return domino_error(
                h, DOMINO_NOT_SUPPORTED,
                "%s: PE %d cannot address PE %d's memory "
                "directly (no peer access between their GPUs); the multi-GPU solvers "
                "need one node with peer access",
                WHAT, T->pe, q);
    }
    cudaError_t e = cudaMalloc((void **)&T->peer_x, T->npes * sizeof(double *));
    if (!e) e = cudaMemcpy(T->peer_x, px, T->npes * sizeof(double *), cudaMemcpyHostToDevice);
    if (e) return domino_cuda_status(h, e, WHAT);
    /* GPU scope only for words no other GPU writes or reads: the counts and
     * sums of this PE's own rows in ZEROCOPY (its own contributions); every
     * word a peer touches is updated and polled at system scope */
    unsigned me = 1u << T->pe;
    T->g[0].a.peer_x = T->peer_x;
    if (solver == DOMINO_DIST_PULL) /* reads every PE's solution (copies: its own) and writes its
                                       own (copies: and its readers') */
        return DOMINO_SUCCESS;
    if (solver == DOMINO_DIST_ZEROCOPY) /* read every PE's, write one's own */
        return dist_trsv_gpu_set_pointers(h, WHAT, &T->g[0], in, sum, T->npes, me, own_in, own_sum,
                                          T->npes, me);
    /* PUSH: read one's own (peers add into it), write the owner's */
    return dist_trsv_gpu_set_pointers(h, WHAT, &T->g[0], own_in, own_sum, 1, 0u, in, sum, T->npes,
                                      0u);
}

domino_status domino_dist_trsv_make(domino_handle h, domino_dist D, domino_dist_solver solver,
                                    domino_fill fill, domino_diag diag, domino_matrix A,
                                    const domino_dist_plan *plan, domino_dist_trsv *out)
{
    struct domino_gpu_context *gpu = NULL;
    struct domino_dist_trsv_s *T = NULL;
    domino_status s = DOMINO_SUCCESS, s2 = DOMINO_SUCCESS;
    double mine = 0, most = 0, least = 0; /* solver and copies, agreed over the PEs */
    if (!out) return domino_error(h, DOMINO_NULL_POINTER, WHAT ": T is NULL");
    *out = NULL;
    int npes = domino_dist_npes(D), rank = domino_dist_rank(D);
    if (npes < 1) return domino_error(h, DOMINO_INVALID_OBJECT, WHAT ": D is not a joined run");
    /* everything local first: a PE that fails here must not leave the
     * others in a collective allocation */
    if (solver != DOMINO_DIST_ZEROCOPY && solver != DOMINO_DIST_PUSH && solver != DOMINO_DIST_PULL)
        s = domino_error(h, DOMINO_INVALID_VALUE,
                         WHAT ": solver %d is not ZEROCOPY, PUSH or PULL (the "
                              "unified-memory one is domino_dist_trsv_unified)",
                         (int)solver);
    else if (!plan)
        s = domino_error(h, DOMINO_NULL_POINTER, WHAT ": plan is NULL");
    else if (plan->npes != npes)
        s = domino_error(h, DOMINO_DIMENSION_MISMATCH, WHAT ": the plan has %d PEs, the run %d",
                         plan->npes, npes);
    else if (npes > DIST_MAX_GPUS)
        s = domino_error(h, DOMINO_NOT_SUPPORTED, WHAT ": %d PEs, at most %d", npes, DIST_MAX_GPUS);
    if (!s) s = domino_gpu_context_get(h, &gpu);
    if (!s && !(T = dist_trsv_new(plan, solver, rank, 1)))
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of host memory");
    if (!s) {
        T->dist = D;
        T->solve = nvshmem_solve;
        T->destroy = nvshmem_destroy;
        s = setup_local(h, T, solver, fill, diag, A, plan, gpu->stream);
    }
    if ((s = domino_dist_agree(h, D, s))) goto failed;
    /* the same solver and copies everywhere (a reader of copies would wait
     * on its own array for values nobody stores there) */
    mine = 2.0 * (int)solver + (plan ? plan->pull_copies : 0);
    s = domino_dist_max(h, D, mine, &most); /* collective: both calls on every PE */
    s2 = domino_dist_max(h, D, -mine, &least);
    if (!s) s = s2;
    if (!s && most != -least)
        s = domino_error(h, DOMINO_INVALID_VALUE,
                         WHAT ": PE %d: the PEs' solvers or plans' pull_copies differ", rank);
    if ((s = domino_dist_agree(h, D, s))) goto failed;
    s = setup_symmetric(h, T, solver);
    if ((s = domino_dist_agree(h, D, s))) goto failed;
    *out = T;
    return DOMINO_SUCCESS;
failed:
    if (T) nvshmem_destroy(T);
    return s;
}
