/* dist_tile_cut.c: what the tiled algorithms of every backend share: an
 * even split of a dimension, block counts, a random visiting order, and one
 * tile of a global CSR cut out with local column indices */
#include "dist/dist_tile_cut.h"

#include <string.h>

int64_t *dist_split(int64_t len, int parts)
{
    int64_t *b = domino_malloc(((size_t)parts + 1) * sizeof(int64_t));
    for (int p = 0; b && p <= parts; p++) b[p] = len * p / parts;
    return b;
}

int dist_lcm(int a, int b)
{
    int x = a, y = b;
    while (y) {
        int r = x % y;
        x = y;
        y = r;
    }
    return a / x * b;
}

void dist_count_blocks(domino_matrix A, const int64_t *rb, int nr, const int64_t *cb, int nc, int64_t *count)
{
    memset(count, 0, (size_t)nr * nc * sizeof(int64_t));
    for (int r = 0; r < nr; r++)
        for (int64_t i = rb[r]; i < rb[r + 1]; i++)
            for (int64_t e = A->ptr[i]; e < A->ptr[i + 1]; e++) {
                int c = 0;
                while (A->ind[e] >= cb[c + 1]) c++; /* grids are small */
                count[(size_t)r * nc + c]++;
            }
}

/* the next xorshift draw of state *x, below k + 1 */
static int64_t draw_below(uint64_t *x, int64_t k)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return (int64_t)(*x % (uint64_t)(k + 1));
}

void dist_shuffle(int *a, int n, uint64_t seed)
{
    uint64_t x = seed * 0x9e3779b97f4a7c15ULL + 1;
    for (int k = n - 1; k > 0; k--) {
        int r = (int)draw_below(&x, k), tmp = a[k];
        a[k] = a[r];
        a[r] = tmp;
    }
}

void dist_shuffle64(int64_t *a, int64_t n, uint64_t seed)
{
    uint64_t x = seed * 0x9e3779b97f4a7c15ULL + 1;
    for (int64_t k = n - 1; k > 0; k--) {
        int64_t r = draw_below(&x, k), tmp = a[k];
        a[k] = a[r];
        a[r] = tmp;
    }
}

domino_status dist_check_spgemm_operands(domino_handle h, domino_matrix A, domino_matrix B, const char *what)
{
    domino_status s = domino_check_matrix(h, A, what);
    if (!s) s = domino_check_matrix(h, B, what);
    if (s) return s;
    if (A->format != DOMINO_CSR || A->symmetry != DOMINO_GENERAL || B->format != DOMINO_CSR ||
        B->symmetry != DOMINO_GENERAL)
        return domino_error(h, DOMINO_NOT_SUPPORTED, "%s: A and B must be CSR stored general", what);
    if (A->type != B->type) return domino_error(h, DOMINO_INVALID_VALUE, "%s: A and B have different value types", what);
    if (A->ncols != B->nrows)
        return domino_error(h, DOMINO_DIMENSION_MISMATCH, "%s: A is %d x %d, B is %d x %d", what, A->nrows, A->ncols,
                            B->nrows, B->ncols);
    return DOMINO_SUCCESS;
}

void dist_copy_block(void *dst, const void *B, int64_t ldb, int64_t row0, int64_t rows, int64_t col0,
                     int64_t cols, size_t vs)
{
    for (int64_t q = 0; q < rows; q++)
        memcpy((char *)dst + (size_t)(q * cols) * vs, (const char *)B + (size_t)((row0 + q) * ldb + col0) * vs,
               (size_t)cols * vs);
}

void dist_pack_tile(domino_matrix T, int64_t *ptr, int32_t *ind, void *val)
{
    memcpy(ptr, T->ptr, ((size_t)T->nrows + 1) * sizeof(int64_t));
    memcpy(ind, T->ind, (size_t)T->nnz * sizeof(int32_t));
    memcpy(val, T->val, (size_t)T->nnz * domino_type_size(T->type));
}

domino_status dist_cut_tile(domino_handle h, domino_matrix A, const int64_t *rb, const int64_t *cb,
                            int i, int j, domino_matrix *T)
{
    int64_t count = 0;
    for (int64_t r = rb[i]; r < rb[i + 1]; r++)
        for (int64_t k = A->ptr[r]; k < A->ptr[r + 1]; k++) count += A->ind[k] >= cb[j] && A->ind[k] < cb[j + 1];
    domino_status s = domino_matrix_new(h, DOMINO_CSR, A->type, (int32_t)(rb[i + 1] - rb[i]),
                                        (int32_t)(cb[j + 1] - cb[j]), count, T);
    if (s) return s;
    size_t vs = domino_type_size(A->type);
    int64_t e = 0;
    for (int64_t r = rb[i]; r < rb[i + 1]; r++) {
        for (int64_t k = A->ptr[r]; k < A->ptr[r + 1]; k++) {
            if (A->ind[k] < cb[j] || A->ind[k] >= cb[j + 1]) continue;
            (*T)->ind[e] = (int32_t)(A->ind[k] - cb[j]);
            memcpy((char *)(*T)->val + (size_t)e * vs, (const char *)A->val + (size_t)k * vs, vs);
            e++;
        }
        (*T)->ptr[r - rb[i] + 1] = e;
    }
    return DOMINO_SUCCESS;
}

