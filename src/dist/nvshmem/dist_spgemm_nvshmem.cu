/* dist_spgemm_nvshmem.cu: one-sided SpGEMM on GPUs over NVSHMEM (Brock,
 * Buluc, Yelick, ICS 2024), one PE per GPU.  A (m x k) and B (k x n) are
 * CSR tiles of a t x t grid, tile (i, j) of each on PE (i t + j) mod npes,
 * offsets narrowed to int32 inside a tile; every PE holds the directory of
 * every tile in its owner's symmetric windows.
 *  - Stationary-C: the owner of C(i, j) fetches the t tiles of A's row
 *    block i (merged into one CSR on the GPU, columns made global) and the
 *    t tiles of B's column block j (stacked: only their offsets move), and
 *    makes C(i, j) = A(i, :) B(:, j) in one product with domino_gpu_spgemm
 *    (cuSPARSE; the memory-frugal algorithm or smaller row blocks where
 *    cuSPARSE lacks resources; 64-bit offsets).  The paper sums the t
 *    partial products A(i, l) B(l, j) with a sparse accumulator; one
 *    product of the whole blocks needs none, and cuSPARSE merges the
 *    partial rows itself.  A PE takes its tiles in the order of their
 *    column blocks, so B's column block is fetched once for all of them;
 *    the next blocks are fetched (non-blocking gets on a second stream)
 *    while the current product runs, into the other of two buffers.
 *  - Random work stealing: each C tile is claimed with a fetch-and-add on a
 *    counter its owner keeps (a one-thread kernel's system-scope atomic
 *    through the peer pointer: NVSHMEM's host-side AMO is not implemented
 *    between peer-to-peer PEs), the first claimer makes it.  Owners take
 *    their own tiles first, then every PE takes the others' tiles, column
 *    block by column block in a random order.  The next tile is claimed
 *    before the current product starts, so that its blocks are fetched
 *    during it.
 * C's tiles stay on the GPU of the PE that made them. */
#include "cuda/gpu_internal.h"
#include "dist/dist_tile_cut.h"
#include "dist/nvshmem/dist_runtime.h"
#include "dist/nvshmem/dist_tile_kernels.cuh"

#include <nvshmem.h>
#include <nvshmemx.h>

#include <math.h>
#include <string.h>

#define WHAT "domino_dspgemm"

/* one sparse operand cut into the tile grid */
typedef struct spgemm_operand {
    int64_t *nnz;           /* entries of tile (r, c), t x t */
    int64_t *at_ptr;        /* where tile (r, c)'s offsets start in its owner's w_ptr (int32 units) */
    int64_t *at_ent;        /* where its entries start in its owner's w_ind and w_val */
    int32_t *w_ptr, *w_ind; /* symmetric windows: this PE's tiles */
    void *w_val;
} spgemm_operand;

/* a distributed SpGEMM ready to run */
struct domino_dspgemm_s {
    domino_dist D;            /* the run */
    int rank, npes;           /* this PE, PEs */
    domino_type type;         /* value type */
    int64_t m, k, n;          /* A m x k, B k x n, C m x n */
    int t;                    /* tiles per dimension */
    int64_t *rb, *kb, *cb;    /* boundaries of rows, inner dimension, columns */
    spgemm_operand a, b;      /* A cut at rb x kb, B at kb x cb */
    double *flops;            /* t x t: 2 x the multiply-adds of C(i, j) */
    int64_t a_stride;         /* largest row block + 1: tile l's offsets start at l a_stride in ra_ptr */
    int64_t *a_off;           /* t x t: where A(i, l)'s entries start in row block i's */
    int64_t *b_off;           /* t x t: where B(l, j)'s entries start in column block j's, at j t + l */
    int64_t a_most, b_most;   /* entries of the largest row block of A, column block of B */
    int32_t *ra_ptr[2], *ra_ind[2]; /* symmetric: two fetched row blocks of A */
    void *ra_val[2];
    int32_t *rb_ptr[2], *rb_ind[2]; /* symmetric: two fetched column blocks of B, tile l's
                                       offsets at kb[l] + l, entries one tile after another */
    void *rb_val[2];
    int a_in[2], b_in[2];     /* the block each buffer holds (-1: none) */
    int64_t *m_ptr;           /* device: a row block of A merged, a_stride offsets */
    int32_t *m_ind;           /* and its a_most entries */
    void *m_val;
    int64_t *s_ptr;           /* device: a column block of B stacked, k + 1 offsets */
    int64_t *d_aoff, *d_boff, *d_kb; /* device copies of a_off, b_off, kb */
    long long *w_claim;       /* symmetric: a counter per C tile (stealing), t x t */
    long long *claimed;       /* device: what the last claim fetched */
    domino_dmatrix *c;        /* t x t: the C tiles this PE made (NULL: made elsewhere or not yet) */
    cudaStream_t fetch;       /* the gets */
    cudaStream_t compute;     /* merges and products (the handle's stream) */
    cudaEvent_t got_a[2], got_b[2]; /* a buffer's gets have landed */
};

static int owner(const struct domino_dspgemm_s *P, int i, int j) { return (int)(((int64_t)i * P->t + j) % P->npes); }

static void drop_c(struct domino_dspgemm_s *P)
{
    for (int x = 0; P->c && x < P->t * P->t; x++) {
        domino_dmatrix_free(P->c[x]);
        P->c[x] = NULL;
    }
}

static void operand_free(domino_dist D, spgemm_operand *o)
{
    domino_dist_free(D, o->w_ptr);
    domino_dist_free(D, o->w_ind);
    domino_dist_free(D, o->w_val);
    domino_free(o->nnz);
    domino_free(o->at_ptr);
    domino_free(o->at_ent);
}

void domino_dspgemm_free(domino_dspgemm P)
{
    if (!P) return;
    domino_dist D = P->D;
    drop_c(P);
    domino_free(P->c);
    /* collective frees, in the same order on every PE */
    operand_free(D, &P->a);
    operand_free(D, &P->b);
    for (int q = 0; q < 2; q++) {
        domino_dist_free(D, P->ra_ptr[q]);
        domino_dist_free(D, P->ra_ind[q]);
        domino_dist_free(D, P->ra_val[q]);
        domino_dist_free(D, P->rb_ptr[q]);
        domino_dist_free(D, P->rb_ind[q]);
        domino_dist_free(D, P->rb_val[q]);
        if (P->got_a[q]) cudaEventDestroy(P->got_a[q]);
        if (P->got_b[q]) cudaEventDestroy(P->got_b[q]);
    }
    domino_dist_free(D, P->w_claim);
    cudaFree(P->m_ptr);
    cudaFree(P->m_ind);
    cudaFree(P->m_val);
    cudaFree(P->s_ptr);
    cudaFree(P->d_aoff);
    cudaFree(P->d_boff);
    cudaFree(P->d_kb);
    cudaFree(P->claimed);
    if (P->fetch) cudaStreamDestroy(P->fetch);
    domino_free(P->rb);
    domino_free(P->kb);
    domino_free(P->cb);
    domino_free(P->flops);
    domino_free(P->a_off);
    domino_free(P->b_off);
    domino_free(P);
}

/* X's directory (every PE computes the same): X cut at rows rs and columns
 * cs; *win = the largest window over PEs (offsets, entries), since
 * symmetric allocations are alike on every PE */
static domino_status directory(domino_handle h, const struct domino_dspgemm_s *P, domino_matrix X,
                               const int64_t *rs, const int64_t *cs, spgemm_operand *o, int64_t win[2])
{
    int T = P->t;
    size_t tt = (size_t)T * T;
    o->nnz = (int64_t *)domino_calloc(tt, sizeof(int64_t));
    o->at_ptr = (int64_t *)domino_calloc(tt, sizeof(int64_t));
    o->at_ent = (int64_t *)domino_calloc(tt, sizeof(int64_t));
    int64_t *next = (int64_t *)domino_calloc(2 * (size_t)P->npes, sizeof(int64_t));
    if (!o->nnz || !o->at_ptr || !o->at_ent || !next) {
        domino_free(next);
        return domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory");
    }
    dist_count_blocks(X, rs, T, cs, T, o->nnz);
    win[0] = win[1] = 1;
    for (size_t x = 0; x < tt; x++) {
        int r = (int)(x / T), pe = owner(P, r, (int)(x % T));
        o->at_ptr[x] = next[2 * pe];
        o->at_ent[x] = next[2 * pe + 1];
        next[2 * pe] += rs[r + 1] - rs[r] + 1;
        next[2 * pe + 1] += o->nnz[x];
    }
    for (int pe = 0; pe < P->npes; pe++)
        for (int q = 0; q < 2; q++)
            if (next[2 * pe + q] > win[q]) win[q] = next[2 * pe + q];
    domino_free(next);
    for (size_t x = 0; x < tt; x++)
        if (o->nnz[x] >= INT32_MAX)
            return domino_error(h, DOMINO_NOT_SUPPORTED, WHAT ": tile (%d, %d) has %lld entries; use more tiles",
                                (int)(x / T), (int)(x % T), (long long)o->nnz[x]);
    return DOMINO_SUCCESS;
}

/* this PE's tiles of X (cut at rs x cs, offsets narrowed to int32) into its windows */
static domino_status own_tiles(domino_handle h, const struct domino_dspgemm_s *P, domino_matrix X,
                               const int64_t *rs, const int64_t *cs, spgemm_operand *o)
{
    size_t vs = domino_type_size(P->type);
    int T = P->t;
    cudaError_t e = cudaSuccess;
    for (int x = 0; x < T * T && !e; x++) {
        int r = x / T, c = x % T;
        if (owner(P, r, c) != P->rank) continue;
        domino_matrix tile = NULL;
        domino_status s = dist_cut_tile(h, X, rs, cs, r, c, &tile);
        if (s) return s;
        int64_t rows = rs[r + 1] - rs[r];
        int32_t *p32 = (int32_t *)domino_malloc((size_t)(rows + 1) * sizeof(int32_t));
        if (!p32) e = cudaErrorMemoryAllocation;
        for (int64_t q = 0; p32 && q <= rows; q++) p32[q] = (int32_t)tile->ptr[q];
        if (!e) e = cudaMemcpy(o->w_ptr + o->at_ptr[x], p32, (size_t)(rows + 1) * sizeof(int32_t), cudaMemcpyHostToDevice);
        if (!e && o->nnz[x])
            e = cudaMemcpy(o->w_ind + o->at_ent[x], tile->ind, (size_t)o->nnz[x] * sizeof(int32_t), cudaMemcpyHostToDevice);
        if (!e && o->nnz[x])
            e = cudaMemcpy((char *)o->w_val + (size_t)o->at_ent[x] * vs, tile->val, (size_t)o->nnz[x] * vs,
                           cudaMemcpyHostToDevice);
        domino_free(p32);
        domino_matrix_free(tile);
    }
    return e ? domino_cuda_status(h, e, WHAT ": placing the tiles") : DOMINO_SUCCESS;
}

/* flops[i t + j] = 2 x the multiply-adds of C(i, j) = A(i, :) B(:, j): for
 * each column block j, the entries of B's rows in it, summed over A's
 * entries (t passes over A and B; every PE computes the same) */
static domino_status count_flops(domino_handle h, struct domino_dspgemm_s *P, domino_matrix A, domino_matrix B)
{
    int T = P->t;
    int32_t *cnt = (int32_t *)domino_malloc(((size_t)P->k + 1) * sizeof(int32_t));
    P->flops = (double *)domino_calloc((size_t)T * T, sizeof(double));
    if (!cnt || !P->flops) {
        domino_free(cnt);
        return domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory");
    }
    for (int j = 0; j < T; j++) {
        for (int64_t r = 0; r < P->k; r++) {
            int32_t c = 0;
            for (int64_t e = B->ptr[r]; e < B->ptr[r + 1]; e++) c += B->ind[e] >= P->cb[j] && B->ind[e] < P->cb[j + 1];
            cnt[r] = c;
        }
        for (int i = 0; i < T; i++) {
            double f = 0;
            for (int64_t r = P->rb[i]; r < P->rb[i + 1]; r++)
                for (int64_t e = A->ptr[r]; e < A->ptr[r + 1]; e++) f += cnt[A->ind[e]];
            P->flops[(size_t)i * T + j] = 2 * f;
        }
    }
    domino_free(cnt);
    return DOMINO_SUCCESS;
}

/* where the tiles of each row block of A and column block of B start
 * inside the block, the largest blocks, and the buffers that hold them
 * (collective: every PE sizes them alike) */
static domino_status block_buffers(domino_handle h, struct domino_dspgemm_s *P)
{
    size_t vs = domino_type_size(P->type), tt = (size_t)P->t * P->t;
    int T = P->t;
    P->a_off = (int64_t *)domino_calloc(tt, sizeof(int64_t));
    P->b_off = (int64_t *)domino_calloc(tt, sizeof(int64_t));
    if (!P->a_off || !P->b_off) return domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory");
    P->a_stride = P->a_most = P->b_most = 1;
    for (int i = 0; i < T; i++) {
        int64_t at = 0, bt = 0;
        for (int l = 0; l < T; l++) {
            P->a_off[i * T + l] = at;
            at += P->a.nnz[i * T + l];
            P->b_off[i * T + l] = bt; /* column block i of B */
            bt += P->b.nnz[l * T + i];
        }
        if (P->rb[i + 1] - P->rb[i] + 1 > P->a_stride) P->a_stride = P->rb[i + 1] - P->rb[i] + 1;
        if (at > P->a_most) P->a_most = at;
        if (bt > P->b_most) P->b_most = bt;
    }
    if (P->a_most >= INT32_MAX || P->b_most >= INT32_MAX)
        return domino_error(h, DOMINO_NOT_SUPPORTED, WHAT ": a row block of A has %lld entries, a column block of "
                            "B %lld (cuSPARSE takes fewer than 2^31 a product); use more tiles",
                            (long long)P->a_most, (long long)P->b_most);
    return DOMINO_SUCCESS;
}

/* the symmetric and device buffers (collective) */
static domino_status allocate(domino_handle h, struct domino_dspgemm_s *P, const int64_t wa[2], const int64_t wb[2])
{
    domino_dist D = P->D;
    size_t vs = domino_type_size(P->type);
    int T = P->t;
    domino_status a[20];
    int na = 0;
    a[na++] = domino_dist_malloc(h, D, (size_t)wa[0] * sizeof(int32_t), (void **)&P->a.w_ptr);
    a[na++] = domino_dist_malloc(h, D, (size_t)wa[1] * sizeof(int32_t), (void **)&P->a.w_ind);
    a[na++] = domino_dist_malloc(h, D, (size_t)wa[1] * vs, &P->a.w_val);
    a[na++] = domino_dist_malloc(h, D, (size_t)wb[0] * sizeof(int32_t), (void **)&P->b.w_ptr);
    a[na++] = domino_dist_malloc(h, D, (size_t)wb[1] * sizeof(int32_t), (void **)&P->b.w_ind);
    a[na++] = domino_dist_malloc(h, D, (size_t)wb[1] * vs, &P->b.w_val);
    for (int q = 0; q < 2; q++) {
        a[na++] = domino_dist_malloc(h, D, (size_t)T * P->a_stride * sizeof(int32_t), (void **)&P->ra_ptr[q]);
        a[na++] = domino_dist_malloc(h, D, (size_t)P->a_most * sizeof(int32_t), (void **)&P->ra_ind[q]);
        a[na++] = domino_dist_malloc(h, D, (size_t)P->a_most * vs, &P->ra_val[q]);
        a[na++] = domino_dist_malloc(h, D, (size_t)(P->k + T) * sizeof(int32_t), (void **)&P->rb_ptr[q]);
        a[na++] = domino_dist_malloc(h, D, (size_t)P->b_most * sizeof(int32_t), (void **)&P->rb_ind[q]);
        a[na++] = domino_dist_malloc(h, D, (size_t)P->b_most * vs, &P->rb_val[q]);
    }
    a[na++] = domino_dist_malloc(h, D, (size_t)T * T * sizeof(long long), (void **)&P->w_claim);
    domino_status s = DOMINO_SUCCESS;
    for (int q = 0; q < na && !s; q++) s = a[q];
    cudaError_t e = cudaSuccess;
    if (!s) e = cudaMalloc((void **)&P->m_ptr, (size_t)P->a_stride * sizeof(int64_t));
    if (!s && !e) e = cudaMalloc((void **)&P->m_ind, (size_t)P->a_most * sizeof(int32_t));
    if (!s && !e) e = cudaMalloc(&P->m_val, (size_t)P->a_most * vs);
    if (!s && !e) e = cudaMalloc((void **)&P->s_ptr, (size_t)(P->k + 1) * sizeof(int64_t));
    if (!s && !e) e = cudaMalloc((void **)&P->d_aoff, (size_t)T * T * sizeof(int64_t));
    if (!s && !e) e = cudaMalloc((void **)&P->d_boff, (size_t)T * T * sizeof(int64_t));
    if (!s && !e) e = cudaMalloc((void **)&P->d_kb, (size_t)(T + 1) * sizeof(int64_t));
    if (!s && !e) e = cudaMalloc((void **)&P->claimed, sizeof(long long));
    if (!s && !e) e = cudaMemcpy(P->d_aoff, P->a_off, (size_t)T * T * sizeof(int64_t), cudaMemcpyHostToDevice);
    if (!s && !e) e = cudaMemcpy(P->d_boff, P->b_off, (size_t)T * T * sizeof(int64_t), cudaMemcpyHostToDevice);
    if (!s && !e) e = cudaMemcpy(P->d_kb, P->kb, (size_t)(T + 1) * sizeof(int64_t), cudaMemcpyHostToDevice);
    if (!s && !e) e = cudaStreamCreateWithFlags(&P->fetch, cudaStreamNonBlocking);
    for (int q = 0; q < 2 && !s && !e; q++)
        if (!(e = cudaEventCreateWithFlags(&P->got_a[q], cudaEventDisableTiming)))
            e = cudaEventCreateWithFlags(&P->got_b[q], cudaEventDisableTiming);
    if (!s && e) s = domino_cuda_status(h, e, WHAT ": buffers");
    return s;
}

/* the checks every PE makes alike before any collective; names what is wrong */
static domino_status check_operands(domino_handle h, domino_matrix A, domino_matrix B, int tiles, int npes)
{
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
    if (tiles < 1 || tiles > 256 || npes > 1024)
        return domino_error(h, DOMINO_INVALID_VALUE, WHAT ": %d tiles per dimension (1 to 256), %d PEs", tiles, npes);
    return DOMINO_SUCCESS;
}

domino_status domino_dspgemm_make(domino_handle h, domino_dist D, domino_matrix A, domino_matrix B, int tiles,
                                  domino_dspgemm *out)
{
    struct domino_gpu_context *gpu = NULL;
    if (!out) return domino_error(h, DOMINO_NULL_POINTER, WHAT ": P is NULL");
    *out = NULL;
    int npes = domino_dist_npes(D);
    if (npes < 1) return domino_error(h, DOMINO_INVALID_OBJECT, WHAT ": D is not a joined run");
    struct domino_dspgemm_s *P = (struct domino_dspgemm_s *)domino_calloc(1, sizeof(*P));
    domino_status s = P ? check_operands(h, A, B, tiles, npes) : domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory");
    if (!s) s = domino_gpu_context_get(h, &gpu);
    int64_t wa[2] = {1, 1}, wb[2] = {1, 1};
    if (!s) {
        P->D = D;
        P->rank = domino_dist_rank(D);
        P->npes = npes;
        P->type = A->type;
        P->m = A->nrows;
        P->k = A->ncols;
        P->n = B->ncols;
        P->t = tiles;
        P->a_in[0] = P->a_in[1] = P->b_in[0] = P->b_in[1] = -1;
        P->rb = dist_split(P->m, tiles);
        P->kb = dist_split(P->k, tiles);
        P->cb = dist_split(P->n, tiles);
        P->c = (domino_dmatrix *)domino_calloc((size_t)tiles * tiles, sizeof(domino_dmatrix));
        if (!P->rb || !P->kb || !P->cb || !P->c) s = domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory");
    }
    if (!s) s = directory(h, P, A, P->rb, P->kb, &P->a, wa);
    if (!s) s = directory(h, P, B, P->kb, P->cb, &P->b, wb);
    if (!s) s = block_buffers(h, P);
    if (!s) s = count_flops(h, P, A, B);
    if ((s = domino_dist_agree(h, D, s))) goto failed;
    s = allocate(h, P, wa, wb);
    if (!s) {
        P->compute = gpu->stream;
        s = own_tiles(h, P, A, P->rb, P->kb, &P->a);
    }
    if (!s) s = own_tiles(h, P, B, P->kb, P->cb, &P->b);
    if ((s = domino_dist_agree(h, D, s))) goto failed;
    *out = P;
    return DOMINO_SUCCESS;
failed:
    if (P && P->D) domino_dspgemm_free(P); /* collective: every PE got this far alike */
    else domino_free(P);
    return s;
}

/* start the gets of row block i of A into buffer q (fetch stream) */
static void fetch_a(struct domino_dspgemm_s *P, int i, int q)
{
    size_t vs = domino_type_size(P->type);
    int T = P->t;
    int64_t rows = P->rb[i + 1] - P->rb[i];
    for (int l = 0; l < T; l++) {
        int x = i * T + l, o = owner(P, i, l);
        int64_t at = P->a_off[x];
        nvshmemx_getmem_nbi_on_stream(P->ra_ptr[q] + (size_t)l * P->a_stride, P->a.w_ptr + P->a.at_ptr[x],
                                      (size_t)(rows + 1) * sizeof(int32_t), o, P->fetch);
        if (P->a.nnz[x]) {
            nvshmemx_getmem_nbi_on_stream(P->ra_ind[q] + at, P->a.w_ind + P->a.at_ent[x],
                                          (size_t)P->a.nnz[x] * sizeof(int32_t), o, P->fetch);
            nvshmemx_getmem_nbi_on_stream((char *)P->ra_val[q] + (size_t)at * vs,
                                          (char *)P->a.w_val + (size_t)P->a.at_ent[x] * vs, (size_t)P->a.nnz[x] * vs,
                                          o, P->fetch);
        }
    }
    P->a_in[q] = i;
}

/* start the gets of column block j of B into buffer q (fetch stream) */
static void fetch_b(struct domino_dspgemm_s *P, int j, int q)
{
    size_t vs = domino_type_size(P->type);
    int T = P->t;
    for (int l = 0; l < T; l++) {
        int x = l * T + j, o = owner(P, l, j);
        int64_t kr = P->kb[l + 1] - P->kb[l], at = P->b_off[(size_t)j * T + l];
        nvshmemx_getmem_nbi_on_stream(P->rb_ptr[q] + P->kb[l] + l, P->b.w_ptr + P->b.at_ptr[x],
                                      (size_t)(kr + 1) * sizeof(int32_t), o, P->fetch);
        if (P->b.nnz[x]) {
            nvshmemx_getmem_nbi_on_stream(P->rb_ind[q] + at, P->b.w_ind + P->b.at_ent[x],
                                          (size_t)P->b.nnz[x] * sizeof(int32_t), o, P->fetch);
            nvshmemx_getmem_nbi_on_stream((char *)P->rb_val[q] + (size_t)at * vs,
                                          (char *)P->b.w_val + (size_t)P->b.at_ent[x] * vs, (size_t)P->b.nnz[x] * vs,
                                          o, P->fetch);
        }
    }
    P->b_in[q] = j;
}

/* the buffers of tile (i, j): where a block is already, else the fetch into
 * the buffer the current tile (buffers qa, qb) does not read; records the
 * gets' events.  *qa, *qb in: the current tile's; out: this tile's. */
static domino_status fetch_tile(domino_handle h, struct domino_dspgemm_s *P, int i, int j, int *qa, int *qb)
{
    int started = 0;
    cudaError_t e = cudaSuccess;
    if (P->a_in[*qa] != i) {
        *qa = 1 - *qa;
        if (P->a_in[*qa] != i) {
            fetch_a(P, i, *qa);
            started |= 1;
        }
    }
    if (P->b_in[*qb] != j) {
        *qb = 1 - *qb;
        if (P->b_in[*qb] != j) {
            fetch_b(P, j, *qb);
            started |= 2;
        }
    }
    if (started) nvshmemx_quiet_on_stream(P->fetch);
    if (started & 1) e = cudaEventRecord(P->got_a[*qa], P->fetch);
    if (!e && (started & 2)) e = cudaEventRecord(P->got_b[*qb], P->fetch);
    return e ? domino_cuda_status(h, e, WHAT ": fetch") : DOMINO_SUCCESS;
}

/* g < k: the offsets of B's column block stacked, from tile l's fetched
 * offsets (at kb[l] + l) and where its entries start (boff[l]); s_ptr[k] = total */
__global__ void stack_offsets_kernel(int64_t k, int T, const int64_t *kb, const int32_t *ptrs, const int64_t *boff,
                                     int64_t total, int64_t *s_ptr)
{
    for (int64_t g = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; g <= k; g += (int64_t)gridDim.x * blockDim.x) {
        if (g == k) {
            s_ptr[g] = total;
            continue;
        }
        int lo = 0, hi = T - 1; /* the tile l with kb[l] <= g < kb[l + 1] */
        while (lo < hi) {
            int mid = (lo + hi + 1) / 2;
            if (kb[mid] <= g) lo = mid;
            else hi = mid - 1;
        }
        s_ptr[g] = boff[lo] + ptrs[g + lo];
    }
}

/* A(i, :) merged and B(:, j) stacked from buffers qa and qb, as device
 * matrices over the plan's arrays (borrowed: domino_dmatrix_free leaves them) */
static domino_status join_blocks(domino_handle h, struct domino_dspgemm_s *P, int i, int j, int qa, int qb,
                                 struct domino_dmatrix_s *a, struct domino_dmatrix_s *b)
{
    int T = P->t;
    int64_t rows = P->rb[i + 1] - P->rb[i], anz = 0, bnz = 0;
    for (int l = 0; l < T; l++) {
        anz += P->a.nnz[(size_t)i * T + l];
        bnz += P->b.nnz[(size_t)l * T + j];
    }
    cudaError_t e = cudaStreamWaitEvent(P->compute, P->got_a[qa], 0);
    if (!e) e = cudaStreamWaitEvent(P->compute, P->got_b[qb], 0);
    int blocks = (int)((rows + 1 + 7) / 8 < 4096 ? (rows + 1 + 7) / 8 : 4096); /* 8 warps a block, a warp a row */
    if (!e && P->type == DOMINO_FLOAT64)
        dist_merge_rows_kernel<double, int64_t><<<blocks, 256, 0, P->compute>>>(
            rows, T, P->ra_ptr[qa], P->a_stride, P->ra_ind[qa], (const double *)P->ra_val[qa], P->d_aoff + (size_t)i * T,
            P->d_kb, P->m_ptr, P->m_ind, (double *)P->m_val);
    else if (!e)
        dist_merge_rows_kernel<float, int64_t><<<blocks, 256, 0, P->compute>>>(
            rows, T, P->ra_ptr[qa], P->a_stride, P->ra_ind[qa], (const float *)P->ra_val[qa], P->d_aoff + (size_t)i * T,
            P->d_kb, P->m_ptr, P->m_ind, (float *)P->m_val);
    if (!e) e = cudaGetLastError();
    int sblocks = (int)((P->k + 1 + 255) / 256 < 4096 ? (P->k + 1 + 255) / 256 : 4096);
    if (!e)
        stack_offsets_kernel<<<sblocks, 256, 0, P->compute>>>(P->k, T, P->d_kb, P->rb_ptr[qb], P->d_boff + (size_t)j * T,
                                                             bnz, P->s_ptr);
    if (!e) e = cudaGetLastError();
    if (!e) e = cudaStreamSynchronize(P->compute);
    if (e) return domino_cuda_status(h, e, WHAT ": joining the tiles of a block");
    memset(a, 0, sizeof(*a));
    memset(b, 0, sizeof(*b));
    a->magic = b->magic = DOMINO_DMATRIX_MAGIC;
    a->format = b->format = DOMINO_CSR;
    a->type = b->type = P->type;
    a->borrowed = b->borrowed = 1;
    a->sorted = b->sorted = 0;
    a->nrows = (int32_t)rows, a->ncols = (int32_t)P->k, a->nnz = anz;
    a->ptr = P->m_ptr, a->ind = P->m_ind, a->val = P->m_val;
    b->nrows = (int32_t)P->k, b->ncols = (int32_t)(P->cb[j + 1] - P->cb[j]), b->nnz = bnz;
    b->ptr = P->s_ptr, b->ind = P->rb_ind[qb], b->val = P->rb_val[qb];
    return DOMINO_SUCCESS;
}

/* *c = C tile (i, j) with no entries (a product with nothing to multiply:
 * an empty block, or no rows or columns; not cuSPARSE's case) */
static domino_status empty_tile(domino_handle h, const struct domino_dspgemm_s *P, int i, int j, domino_dmatrix *c)
{
    int64_t rows = P->rb[i + 1] - P->rb[i];
    struct domino_dmatrix_s *z = (struct domino_dmatrix_s *)domino_calloc(1, sizeof(*z));
    if (!z) return domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory");
    z->magic = DOMINO_DMATRIX_MAGIC;
    z->format = DOMINO_CSR;
    z->type = P->type;
    z->nrows = (int32_t)rows;
    z->ncols = (int32_t)(P->cb[j + 1] - P->cb[j]);
    z->sorted = 1;
    cudaError_t e = cudaMalloc((void **)&z->ptr, ((size_t)rows + 1) * sizeof(int64_t));
    if (!e) e = cudaMemset(z->ptr, 0, ((size_t)rows + 1) * sizeof(int64_t));
    if (e) {
        cudaFree(z->ptr);
        domino_free(z);
        return domino_cuda_status(h, e, WHAT ": an empty tile");
    }
    *c = z;
    return DOMINO_SUCCESS;
}

/* the tiles a run visits, each claimed first when `claims` */
typedef struct tile_walk {
    const int *order; /* tiles x = i t + j, in visiting order */
    int count, at;    /* tiles, the next to look at */
    int claims;       /* 1: claim each on its owner's counter */
} tile_walk;

/* *x = the next tile of the walk this PE makes (claimed where the walk
 * claims), or -1 when none is left */
static domino_status next_tile(domino_handle h, struct domino_dspgemm_s *P, tile_walk *w, int *x,
                               domino_dspgemm_times *z)
{
    *x = -1;
    while (w->at < w->count) {
        int y = w->order[w->at++];
        if (!w->claims) {
            *x = y;
            return DOMINO_SUCCESS;
        }
        double t0 = domino_wtime();
        int o = owner(P, y / P->t, y % P->t);
        unsigned long long *counter = (unsigned long long *)nvshmem_ptr(P->w_claim + y, o);
        if (!counter)
            return domino_error(h, DOMINO_NOT_SUPPORTED, WHAT ": PE %d cannot address PE %d's counters directly "
                                "(stealing needs peer access)", P->rank, o);
        long long got = 1;
        dist_claim_kernel<<<1, 1, 0, P->compute>>>(counter, P->claimed);
        cudaError_t e = cudaGetLastError();
        if (!e) e = cudaMemcpyAsync(&got, P->claimed, sizeof(long long), cudaMemcpyDeviceToHost, P->compute);
        if (!e) e = cudaStreamSynchronize(P->compute);
        z->claim += domino_wtime() - t0;
        if (e) return domino_cuda_status(h, e, WHAT ": claim");
        if (got == 0) {
            *x = y;
            return DOMINO_SUCCESS;
        }
    }
    return DOMINO_SUCCESS;
}

/* make the tiles of the walk: join the current tile's blocks, claim the
 * next tile and start its gets, then multiply the current one */
static domino_status walk(domino_handle h, struct domino_dspgemm_s *P, tile_walk *w, domino_dspgemm_times *z)
{
    int T = P->t, x = -1, nx = -1, qa = 0, qb = 0;
    domino_status s = next_tile(h, P, w, &x, z);
    if (!s && x >= 0) s = fetch_tile(h, P, x / T, x % T, &qa, &qb);
    while (!s && x >= 0) {
        int i = x / T, j = x % T;
        struct domino_dmatrix_s a, b;
        double t0 = domino_wtime();
        cudaError_t e = cudaEventSynchronize(P->got_a[qa]);
        if (!e) e = cudaEventSynchronize(P->got_b[qb]);
        if (e) return domino_cuda_status(h, e, WHAT ": fetch");
        double t1 = domino_wtime();
        z->fetch += t1 - t0;
        if ((s = join_blocks(h, P, i, j, qa, qb, &a, &b))) break;
        z->merge += domino_wtime() - t1;
        if ((s = next_tile(h, P, w, &nx, z))) break;
        int na = qa, nb = qb; /* the next tile's gets, during this product */
        if (nx >= 0 && (s = fetch_tile(h, P, nx / T, nx % T, &na, &nb))) break;
        domino_gpu_spgemm_info info = {0, 0, 0};
        double t2 = domino_wtime();
        if (a.nnz == 0 || b.nnz == 0 || a.nrows == 0 || b.ncols == 0) s = empty_tile(h, P, i, j, &P->c[x]);
        else s = domino_gpu_spgemm(h, &a, &b, &P->c[x], &info);
        if (s) break;
        z->compute += domino_wtime() - t2;
        z->tiles++;
        z->stolen += owner(P, i, j) != P->rank;
        z->nnz += info.nnz;
        z->flops += P->flops[x];
        x = nx, qa = na, qb = nb;
    }
    return s;
}

/* this PE's tiles in the order of their column blocks, then (stealing) the
 * others' column block by column block in a random order, each block's
 * tiles shuffled; *count = tiles listed, *mine = of them this PE's */
static int *visiting_order(const struct domino_dspgemm_s *P, int steal, unsigned long long seed, int *count)
{
    int T = P->t, k = 0;
    int *order = (int *)domino_malloc(((size_t)T * T + 1) * sizeof(int));
    int *js = (int *)domino_malloc(((size_t)T + 1) * sizeof(int));
    if (!order || !js) {
        domino_free(order);
        domino_free(js);
        return NULL;
    }
    for (int j = 0; j < T; j++)
        for (int i = 0; i < T; i++)
            if (owner(P, i, j) == P->rank) order[k++] = i * T + j;
    if (steal) {
        for (int j = 0; j < T; j++) js[j] = j;
        dist_shuffle(js, T, seed + (uint64_t)P->rank);
        for (int q = 0; q < T; q++) {
            int first = k;
            for (int i = 0; i < T; i++)
                if (owner(P, i, js[q]) != P->rank) order[k++] = i * T + js[q];
            dist_shuffle(order + first, k - first, seed + 7919ULL * (uint64_t)(q + 1) + (uint64_t)P->rank);
        }
    }
    domino_free(js);
    *count = k;
    return order;
}

domino_status domino_dspgemm_run(domino_handle h, domino_dspgemm P, domino_dspgemm_algorithm algorithm,
                                 domino_dspgemm_times *times)
{
    domino_dspgemm_times z;
    memset(&z, 0, sizeof(z));
    if (times) *times = z;
    if (!P) return domino_error(h, DOMINO_NULL_POINTER, WHAT ": P is NULL");
    domino_status s = DOMINO_SUCCESS;
    if (algorithm != DOMINO_DSPGEMM_STATIONARY_C && algorithm != DOMINO_DSPGEMM_STATIONARY_C_STEAL)
        s = domino_error(h, DOMINO_INVALID_VALUE, WHAT ": algorithm %d", (int)algorithm);
    int steal = algorithm == DOMINO_DSPGEMM_STATIONARY_C_STEAL, count = 0;
    int *order = s ? NULL : visiting_order(P, steal, 12345ULL, &count);
    if (!s && !order) s = domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory");
    /* the last C dropped, the counters zero and nothing fetched on every PE before anyone starts */
    drop_c(P);
    P->a_in[0] = P->a_in[1] = P->b_in[0] = P->b_in[1] = -1;
    cudaError_t e = cudaSuccess;
    if (!s) e = cudaMemset(P->w_claim, 0, (size_t)P->t * P->t * sizeof(long long));
    if (!s && !e) e = cudaDeviceSynchronize();
    if (!s && e) s = domino_cuda_status(h, e, WHAT);
    if ((s = domino_dist_agree(h, P->D, s))) {
        domino_free(order);
        return s;
    }
    double start = domino_wtime();
    tile_walk w = {order, count, 0, steal};
    s = walk(h, P, &w, &z);
    if (!s && (e = cudaStreamSynchronize(P->fetch))) s = domino_cuda_status(h, e, WHAT);
    double done = domino_wtime();
    domino_free(order);
    if (s) drop_c(P);
    s = domino_dist_agree(h, P->D, s); /* the closing barrier: its wait is the imbalance */
    z.imbalance = domino_wtime() - done;
    z.total = domino_wtime() - start;
    if (times) *times = z;
    return s;
}

domino_status domino_dspgemm_multiply(domino_handle h, domino_dspgemm P, const double *x, double *y)
{
    if (!P) return domino_error(h, DOMINO_NULL_POINTER, WHAT ": P is NULL");
    int T = P->t;
    double *dx = NULL, *mine = NULL, *sum = NULL;
    domino_status s = x && y ? DOMINO_SUCCESS : domino_error(h, DOMINO_NULL_POINTER, WHAT ": x or y is NULL");
    domino_status s1 = domino_dist_malloc(h, P->D, (size_t)(P->m + 1) * sizeof(double), (void **)&mine);
    domino_status s2 = domino_dist_malloc(h, P->D, (size_t)(P->m + 1) * sizeof(double), (void **)&sum);
    if (!s) s = s1 ? s1 : s2;
    cudaError_t e = cudaSuccess;
    if (!s) e = cudaMalloc((void **)&dx, (size_t)(P->n + 1) * sizeof(double));
    if (!s && !e) e = cudaMemcpy(dx, x, (size_t)P->n * sizeof(double), cudaMemcpyHostToDevice);
    if (!s && !e) e = cudaMemset(mine, 0, (size_t)(P->m + 1) * sizeof(double));
    for (int q = 0; !s && !e && q < T * T; q++) {
        domino_dmatrix c = P->c[q];
        if (!c || c->nrows == 0) continue;
        int i = q / T, j = q % T; /* the tiles one after another on one stream: no races on y */
        e = domino_launch_csr_apply_add(P->compute, P->type, c->nrows, c->ptr, c->ind, c->val, dx + P->cb[j],
                                        mine + P->rb[i]);
    }
    if (!s && !e) e = cudaDeviceSynchronize();
    if (!s && e) s = domino_cuda_status(h, e, WHAT ": multiply");
    if (!(s = domino_dist_agree(h, P->D, s))) {
        s = dist_sum_doubles(h, P->D, sum, mine, (size_t)P->m);
        if (!s && (e = cudaMemcpy(y, sum, (size_t)P->m * sizeof(double), cudaMemcpyDeviceToHost)))
            s = domino_cuda_status(h, e, WHAT ": multiply");
        s = domino_dist_agree(h, P->D, s);
    }
    cudaFree(dx);
    domino_dist_free(P->D, mine);
    domino_dist_free(P->D, sum);
    return s;
}

/* every tile this PE made, copied into symmetric windows for the others to
 * read: dir[2 x] = where tile x's offsets and entries start (-1: not here) */
static domino_status expose(domino_handle h, struct domino_dspgemm_s *P, int64_t **g_ptr, int32_t **g_ind, void **g_val,
                            int64_t **dir)
{
    size_t vs = domino_type_size(P->type), tt = (size_t)P->t * P->t;
    int64_t offs = 0, ents = 0;
    int64_t *here = (int64_t *)domino_malloc(2 * tt * sizeof(int64_t));
    for (size_t x = 0; here && x < tt; x++) {
        here[2 * x] = here[2 * x + 1] = -1;
        if (!P->c[x]) continue;
        here[2 * x] = offs, here[2 * x + 1] = ents;
        offs += P->c[x]->nrows + 1;
        ents += P->c[x]->nnz;
    }
    double most_offs = 0, most_ents = 0;
    domino_status s = here ? DOMINO_SUCCESS : domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory");
    if (!(s = domino_dist_agree(h, P->D, s))) s = domino_dist_max(h, P->D, (double)offs, &most_offs);
    if (!s) s = domino_dist_max(h, P->D, (double)ents, &most_ents);
    domino_status a[4] = {s, s, s, s};
    if (!s) {
        a[0] = domino_dist_malloc(h, P->D, (size_t)most_offs * sizeof(int64_t) + 8, (void **)g_ptr);
        a[1] = domino_dist_malloc(h, P->D, (size_t)most_ents * sizeof(int32_t) + 8, (void **)g_ind);
        a[2] = domino_dist_malloc(h, P->D, (size_t)most_ents * vs + 8, g_val);
        a[3] = domino_dist_malloc(h, P->D, 2 * tt * sizeof(int64_t), (void **)dir);
    }
    for (int q = 0; q < 4 && !s; q++) s = a[q];
    cudaError_t e = cudaSuccess;
    if (!s) e = cudaMemcpy(*dir, here, 2 * tt * sizeof(int64_t), cudaMemcpyHostToDevice);
    for (size_t x = 0; !s && !e && x < tt; x++) {
        domino_dmatrix c = P->c[x];
        if (!c) continue;
        e = cudaMemcpy(*g_ptr + here[2 * x], c->ptr, ((size_t)c->nrows + 1) * sizeof(int64_t), cudaMemcpyDeviceToDevice);
        if (!e && c->nnz)
            e = cudaMemcpy(*g_ind + here[2 * x + 1], c->ind, (size_t)c->nnz * sizeof(int32_t), cudaMemcpyDeviceToDevice);
        if (!e && c->nnz)
            e = cudaMemcpy((char *)*g_val + (size_t)here[2 * x + 1] * vs, c->val, (size_t)c->nnz * vs,
                           cudaMemcpyDeviceToDevice);
    }
    if (!s && e) s = domino_cuda_status(h, e, WHAT ": gather");
    domino_free(here);
    return domino_dist_agree(h, P->D, s);
}

/* tile x of C, made by some PE, read through the peer pointers into host
 * arrays (*ptr: rows + 1 offsets from 0; *ind, *val: its entries) */
static domino_status read_tile(domino_handle h, struct domino_dspgemm_s *P, int x, int64_t *g_ptr, int32_t *g_ind,
                               void *g_val, int64_t *dir, int64_t **ptr, int32_t **ind, void **val)
{
    size_t vs = domino_type_size(P->type);
    int64_t rows = P->rb[x / P->t + 1] - P->rb[x / P->t], where[2] = {-1, -1};
    int maker = -1;
    cudaError_t e = cudaSuccess;
    for (int pe = 0; pe < P->npes && maker < 0 && !e; pe++) {
        const int64_t *d = (const int64_t *)nvshmem_ptr(dir + 2 * x, pe);
        if (!d) return domino_error(h, DOMINO_NOT_SUPPORTED, WHAT ": PE %d cannot address PE %d's tiles", P->rank, pe);
        e = cudaMemcpy(where, d, sizeof(where), cudaMemcpyDeviceToHost);
        if (!e && where[0] >= 0) maker = pe;
    }
    if (e) return domino_cuda_status(h, e, WHAT ": gather");
    if (maker < 0) return domino_error(h, DOMINO_INVALID_VALUE, WHAT ": no PE made C tile %d (run it first)", x);
    *ptr = (int64_t *)domino_malloc(((size_t)rows + 1) * sizeof(int64_t));
    if (!*ptr) return domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory");
    e = cudaMemcpy(*ptr, nvshmem_ptr(g_ptr + where[0], maker), ((size_t)rows + 1) * sizeof(int64_t),
                   cudaMemcpyDeviceToHost);
    int64_t nnz = e ? 0 : (*ptr)[rows];
    *ind = (int32_t *)domino_malloc((size_t)nnz * sizeof(int32_t) + 8);
    *val = domino_malloc((size_t)nnz * vs + 8);
    if (!e && (!*ind || !*val)) return domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory");
    if (!e && nnz) e = cudaMemcpy(*ind, nvshmem_ptr(g_ind + where[1], maker), (size_t)nnz * sizeof(int32_t), cudaMemcpyDeviceToHost);
    if (!e && nnz)
        e = cudaMemcpy(*val, nvshmem_ptr((char *)g_val + (size_t)where[1] * vs, maker), (size_t)nnz * vs,
                       cudaMemcpyDeviceToHost);
    return e ? domino_cuda_status(h, e, WHAT ": gather") : DOMINO_SUCCESS;
}

domino_status domino_dspgemm_gather(domino_handle h, domino_dspgemm P, domino_matrix *C)
{
    if (!P || !C) return domino_error(h, DOMINO_NULL_POINTER, WHAT ": NULL argument");
    *C = NULL;
    int T = P->t;
    size_t vs = domino_type_size(P->type), tt = (size_t)T * T;
    int64_t *g_ptr = NULL, *dir = NULL;
    int32_t *g_ind = NULL;
    void *g_val = NULL;
    domino_status s = expose(h, P, &g_ptr, &g_ind, &g_val, &dir);
    int64_t **tp = (int64_t **)domino_calloc(tt, sizeof(int64_t *));
    int32_t **ti = (int32_t **)domino_calloc(tt, sizeof(int32_t *));
    void **tv = (void **)domino_calloc(tt, sizeof(void *));
    if (!s && (!tp || !ti || !tv)) s = domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory");
    int64_t nnz = 0;
    for (size_t x = 0; !s && x < tt; x++) {
        s = read_tile(h, P, (int)x, g_ptr, g_ind, g_val, dir, &tp[x], &ti[x], &tv[x]);
        if (!s) nnz += tp[x][P->rb[x / T + 1] - P->rb[x / T]];
    }
    domino_matrix G = NULL;
    if (!s) s = domino_matrix_new(h, DOMINO_CSR, P->type, (int32_t)P->m, (int32_t)P->n, nnz, &G);
    /* row r of C: its row in tiles (i, 0) .. (i, t-1), columns shifted by the column block's start */
    for (int i = 0; !s && i < T; i++)
        for (int64_t r = P->rb[i]; r < P->rb[i + 1]; r++) {
            int64_t at = G->ptr[r], q = r - P->rb[i];
            for (int j = 0; j < T; j++) {
                size_t x = (size_t)i * T + j;
                for (int64_t e = tp[x][q]; e < tp[x][q + 1]; e++, at++) {
                    G->ind[at] = ti[x][e] + (int32_t)P->cb[j];
                    memcpy((char *)G->val + (size_t)at * vs, (char *)tv[x] + (size_t)e * vs, vs);
                }
            }
            G->ptr[r + 1] = at;
        }
    for (size_t x = 0; x < tt; x++) {
        if (tp) domino_free(tp[x]);
        if (ti) domino_free(ti[x]);
        if (tv) domino_free(tv[x]);
    }
    domino_free(tp);
    domino_free(ti);
    domino_free(tv);
    s = domino_dist_agree(h, P->D, s); /* nobody frees the windows while another still reads */
    domino_dist_free(P->D, g_ptr);
    domino_dist_free(P->D, g_ind);
    domino_dist_free(P->D, g_val);
    domino_dist_free(P->D, dir);
    if (s) domino_matrix_free(G);
    else *C = G;
    return s;
}

void domino_dspgemm_model(domino_dspgemm P, double *remote_bytes_max, double *flops_max)
{
    *remote_bytes_max = *flops_max = 0;
    if (!P) return;
    size_t vs = domino_type_size(P->type);
    int T = P->t;
    for (int pe = 0; pe < P->npes; pe++) {
        double bytes = 0, flops = 0;
        int last_i = -1, last_j = -1, prev_i = -1, prev_j = -1; /* the two blocks of each kind held */
        for (int j = 0; j < T; j++)
            for (int i = 0; i < T; i++) { /* stationary-C's order; a block held in a buffer is not fetched */
                if (owner(P, i, j) != pe) continue;
                flops += P->flops[(size_t)i * T + j];
                if (i != last_i && i != prev_i) {
                    for (int l = 0; l < T; l++)
                        if (owner(P, i, l) != pe)
                            bytes += (double)(P->rb[i + 1] - P->rb[i] + 1) * 4 + (double)P->a.nnz[(size_t)i * T + l] * (4 + vs);
                    prev_i = last_i, last_i = i;
                }
                if (j != last_j && j != prev_j) {
                    for (int l = 0; l < T; l++)
                        if (owner(P, l, j) != pe)
                            bytes += (double)(P->kb[l + 1] - P->kb[l] + 1) * 4 + (double)P->b.nnz[(size_t)l * T + j] * (4 + vs);
                    prev_j = last_j, last_j = j;
                }
            }
        if (bytes > *remote_bytes_max) *remote_bytes_max = bytes;
        if (flops > *flops_max) *flops_max = flops;
    }
}

double domino_dspgemm_flops(domino_dspgemm P)
{
    double f = 0;
    for (int x = 0; P && x < P->t * P->t; x++) f += P->flops[x];
    return f;
}
