/* dist_spgemm_plan.cu: the plan of the one-sided SpGEMM on NVSHMEM
 * (dist_spgemm_nvshmem.cu runs it): the directory of A's and B's tiles,
 * the flops of every product, the symmetric windows and fetch buffers, each
 * PE's own tiles copied in; domino_dspgemm_make and domino_dspgemm_free,
 * both collective. */
#include "dist/dist_tile_cut.h"
#include "dist/nvshmem/dist_spgemm_internal.h"
#include "dist/nvshmem/dist_tile_place.h"

#include <string.h>

void dspgemm_drop_c(struct domino_dspgemm_s *P)
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
    if (P->fetch) cudaStreamSynchronize(P->fetch); /* no get lands in a freed buffer */
    dspgemm_drop_c(P);
    domino_free(P->c);
    dspgemm_drop_partials(P);
    domino_free(P->parts);
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
    domino_free(P->flops3);
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
        int r = (int)(x / T), pe = dspgemm_owner(P, r, (int)(x % T));
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
    domino_status s = DOMINO_SUCCESS;
    for (int x = 0; x < T * T && !e && !s; x++)
        if (dspgemm_owner(P, x / T, x % T) == P->rank)
            e = dist_place_tile(h, X, rs, cs, x / T, x % T, o->w_ptr + o->at_ptr[x], o->w_ind + o->at_ent[x],
                                (char *)o->w_val + (size_t)o->at_ent[x] * vs, &s);
    if (s) return s;
    return e ? domino_cuda_status(h, e, WHAT ": placing the tiles") : DOMINO_SUCCESS;
}

/* flops[i t + j] = 2 x the multiply-adds of C(i, j) = A(i, :) B(:, j), and
 * (t <= DSPGEMM_PRODUCT_TILES) flops3 those of each A(i, l) B(l, j): for
 * each column block j, the entries of B's rows in it, summed over A's
 * entries (t passes over A and B; every PE computes the same) */
static domino_status count_flops(domino_handle h, struct domino_dspgemm_s *P, domino_matrix A, domino_matrix B)
{
    int T = P->t;
    int32_t *cnt = (int32_t *)domino_malloc(((size_t)P->k + 1) * sizeof(int32_t));
    int32_t *inner = (int32_t *)domino_malloc(((size_t)P->k + 1) * sizeof(int32_t)); /* inner index -> l */
    P->flops = (double *)domino_calloc((size_t)T * T, sizeof(double));
    if (T <= DSPGEMM_PRODUCT_TILES) P->flops3 = (double *)domino_calloc((size_t)T * T * T, sizeof(double));
    if (!cnt || !inner || !P->flops || (T <= DSPGEMM_PRODUCT_TILES && !P->flops3)) {
        domino_free(cnt);
        domino_free(inner);
        return domino_error(h, DOMINO_OUT_OF_MEMORY, WHAT ": out of memory");
    }
    for (int l = 0; l < T; l++)
        for (int64_t r = P->kb[l]; r < P->kb[l + 1]; r++) inner[r] = l;
    for (int j = 0; j < T; j++) {
        for (int64_t r = 0; r < P->k; r++) {
            int32_t c = 0;
            for (int64_t e = B->ptr[r]; e < B->ptr[r + 1]; e++) c += B->ind[e] >= P->cb[j] && B->ind[e] < P->cb[j + 1];
            cnt[r] = c;
        }
        for (int i = 0; i < T; i++) {
            double f = 0;
            double *f3 = P->flops3 ? P->flops3 + ((size_t)i * T + j) * T : NULL;
            for (int64_t r = P->rb[i]; r < P->rb[i + 1]; r++)
                for (int64_t e = A->ptr[r]; e < A->ptr[r + 1]; e++) {
                    f += cnt[A->ind[e]];
                    if (f3) f3[inner[A->ind[e]]] += 2.0 * cnt[A->ind[e]];
                }
            P->flops[(size_t)i * T + j] = 2 * f;
        }
    }
    domino_free(cnt);
    domino_free(inner);
    return DOMINO_SUCCESS;
}

/* where the tiles of each row block of A and column block of B start
 * inside the block, the largest blocks, and the buffers that hold them
 * (collective: every PE sizes them alike) */
static domino_status block_buffers(domino_handle h, struct domino_dspgemm_s *P)
{
    size_t tt = (size_t)P->t * P->t;
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
    size_t slots = (size_t)T * T + (T <= DSPGEMM_PRODUCT_TILES ? (size_t)T * T * T : 0);
    a[na++] = domino_dist_malloc(h, D, slots * sizeof(long long), (void **)&P->w_claim);
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
    domino_status s = dist_check_spgemm_operands(h, A, B, WHAT);
    if (s) return s;
    if ((int64_t)B->ncols + 256 >= INT32_MAX)
        return domino_error(h, DOMINO_NOT_SUPPORTED, WHAT ": B has %d columns (at most 2^31 - 258)", B->ncols);
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
