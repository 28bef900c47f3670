/* stencil_detect.c: does a CSR on the GPU hold one of the generator stencils
 * on some grid?  What lets the AUTO engine of domino_trsv_analysis hand a
 * stencil system to the structured-grid solve.  Cost: a few small copies
 * and one thread-per-row pass over the entries. */
#include "stencil_gpu.h"
#include "matrix/stencil_internal.h"

#include <stdlib.h>
#include <string.h>

#define WINDOWS 2      /* sampled windows of rows */
#define WINDOW 256     /* rows per window at most (n / 2 below; one copy each): wide enough
                          to hold an interior row of thin grids (70 x 7 x 6), where two
                          windows of 16 rows could both fall on boundary lines */
#define MAX_ROW 64     /* longest row looked at */
#define MAX_TRIES DOMINO_STENCIL_CANDIDATES /* grids checked by the kernel at most */

static int compare_int64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* dst <- bytes of device src through the context's pinned staging buffer
 * (pageable memory when there is none), done when it returns */
static cudaError_t download_small(struct domino_gpu_context *gpu, void *dst, const void *src,
                                  size_t bytes)
{
    void *pinned = domino_gpu_staging(gpu, bytes);
    cudaError_t e = cudaMemcpyAsync(pinned ? pinned : dst, src, bytes, cudaMemcpyDeviceToHost, gpu->stream);
    if (!e) e = cudaStreamSynchronize(gpu->stream);
    if (!e && pinned) memcpy(dst, pinned, bytes);
    return e;
}

/* The longest row among the sampled windows, as its triangle's column
 * deltas (solve coordinates, <= 0), increasing, in d[0..*count); the
 * samples read from hptr/hind (dA's pattern on the host) when given, else
 * downloaded */
static domino_status sample_row(domino_handle h, struct domino_gpu_context *gpu, domino_dmatrix dA,
                                const int64_t *hptr, const int32_t *hind, int upper, int64_t *d,
                                int *count)
{
    int64_t n = dA->nrows, ptr[WINDOW + 1], best_row = -1, best_len = -1, best_jb = 0;
    int32_t cols[MAX_ROW];
    int64_t starts[WINDOWS] = {n / 2 + n / 7 + 3, n / 3 + 17};
    const int64_t rows = n / 2 < WINDOW ? n / 2 : WINDOW; /* n >= 32 */
    *count = 0;
    for (int w = 0; w < WINDOWS; w++) {
        int64_t s0 = starts[w] < 0 ? 0 : starts[w] > n - rows ? n - rows : starts[w];
        size_t bytes = (size_t)(rows + 1) * sizeof(int64_t);
        cudaError_t e = hptr ? cudaSuccess : download_small(gpu, ptr, dA->ptr + s0, bytes);
        if (e) return domino_cuda_status(h, e, "stencil detection");
        if (hptr) memcpy(ptr, hptr + s0, bytes);
        for (int i = 0; i < rows; i++)
            if (ptr[i + 1] - ptr[i] > best_len && ptr[i + 1] - ptr[i] <= MAX_ROW) {
                best_len = ptr[i + 1] - ptr[i];
                best_row = s0 + i;
                best_jb = ptr[i];
            }
    }
    if (best_row < 0 || best_len == 0) return DOMINO_SUCCESS;
    size_t bytes = (size_t)best_len * sizeof(int32_t);
    cudaError_t e = hind ? cudaSuccess : download_small(gpu, cols, dA->ind + best_jb, bytes);
    if (e) return domino_cuda_status(h, e, "stencil detection");
    if (hind) memcpy(cols, hind + best_jb, bytes);
    for (int64_t t = 0; t < best_len; t++) {
        int64_t delta = upper ? best_row - cols[t] : cols[t] - best_row;
        if (delta <= 0) d[(*count)++] = delta;
    }
    qsort(d, (size_t)*count, sizeof(int64_t), compare_int64);
    return DOMINO_SUCCESS;
}

/* 1 if the triangle offsets of stencil `off` on an nx*ny grid layer have
 * exactly the deltas d[0..count) */
static int deltas_match(const int *off, int npoints, int64_t nx, int64_t ny, const int64_t *d,
                        int count)
{
    int64_t want[DOMINO_STENCIL_MAX_POINTS];
    int m = 0;
    for (int p = 0; p < npoints; p++)
        if (stencil_offset_sign(off + 3 * p) <= 0)
            want[m++] = -(off[3 * p] + nx * (off[3 * p + 1] + ny * off[3 * p + 2]));
    if (m != count) return 0;
    for (int i = 0; i < m; i++) want[i] = -want[i];
    qsort(want, (size_t)m, sizeof(int64_t), compare_int64);
    for (int i = 0; i < m; i++)
        if (want[i] != d[i]) return 0;
    return 1;
}

/* the kernel's verdict on stencil st on grid nx*ny*nz: 1 every entry fits */
static domino_status grid_fits(domino_handle h, struct domino_gpu_context *gpu, domino_dmatrix dA,
                               domino_fill fill, const int *off, int npoints, int32_t nx, int32_t ny,
                               int32_t nz, domino_solve_status *dst, int *fits)
{
    stencil_kernel_args A;
    int slot_of[DOMINO_STENCIL_MAX_POINTS];
    domino_solve_status st;
    memset(&A, 0, sizeof(A));
    A.nx = nx;
    A.ny = ny;
    A.nz = nz;
    A.n = (int64_t)nx * ny * nz;
    A.upper = fill == DOMINO_UPPER;
    A.ptr = dA->ptr;
    A.ind = dA->ind;
    A.val = dA->val;
    A.nnz = dA->nnz;
    A.st = dst;
    *fits = 0;
    if (domino_stencil_args_offsets(NULL, off, npoints, fill, &A, slot_of)) return DOMINO_SUCCESS;
    cudaError_t e = domino_launch_status_reset(gpu->stream, dst);
    if (!e) e = domino_launch_stencil_validate(gpu->stream, &A);
    if (!e) e = cudaMemcpyAsync(&st, dst, sizeof(st), cudaMemcpyDeviceToHost, gpu->stream);
    if (!e) e = cudaStreamSynchronize(gpu->stream);
    if (e) return domino_cuda_status(h, e, "stencil detection");
    *fits = st.timeout_row == INT32_MAX;
    return DOMINO_SUCCESS;
}

/* 1 if dA may hold a stencil at all: sorted CSR of 32 rows or more, no
 * more entries than the largest stencil has */
static int may_be_stencil(int format, int sorted, int32_t n, int64_t nnz)
{
    return format == DOMINO_CSR && sorted && n >= 32 && nnz <= (int64_t)DOMINO_STENCIL_MAX_POINTS * n;
}

/* the grids the sampled deltas d[0..count) propose, at most MAX_TRIES,
 * largest stencil first */
static int candidates_of(int64_t n, const int64_t *d, int count, domino_stencil_candidate *cand)
{
    int off[3 * DOMINO_STENCIL_MAX_POINTS], tries = 0;
    for (int k = DOMINO_D3N33; k >= DOMINO_D2N5 && tries < MAX_TRIES; k--) {
        int npoints = domino_stencil_offsets((domino_stencil)k, off);
        int is3d = k >= DOMINO_D3N7;
        /* nx is the size of some delta, nx*ny too in 3D (their (0,-1,0), (0,0,-1)) */
        for (int i = 0; i < count && tries < MAX_TRIES; i++) {
            int64_t cx = -d[i];
            for (int j = is3d ? 0 : i; j < count && tries < MAX_TRIES; j++) {
                int64_t cxy = is3d ? -d[j] : n;
                if (cx < 1 || cxy < cx || cxy % cx || n % cxy) continue;
                int64_t cy = cxy / cx, cz = n / cxy;
                if (!is3d && cz != 1) continue;
                if (!deltas_match(off, npoints, cx, cy, d, count)) continue;
                cand[tries].stencil = (domino_stencil)k;
                cand[tries].nx = (int32_t)cx;
                cand[tries].ny = (int32_t)cy;
                cand[tries].nz = (int32_t)cz;
                tries++;
            }
        }
    }
    return tries;
}

int domino_stencil_candidates(const domino_dmatrix dA, domino_fill fill, const int64_t *hptr,
                              const int32_t *hind, domino_stencil_candidate *cand)
{
    int64_t d[MAX_ROW];
    int count = 0;
    if (!may_be_stencil(dA->format, dA->sorted, dA->nrows, dA->nnz)) return 0;
    /* with the pattern on the host, sample_row needs neither handle nor device */
    if (sample_row(NULL, NULL, dA, hptr, hind, fill == DOMINO_UPPER, d, &count) || count < 2) return 0;
    return candidates_of(dA->nrows, d, count, cand);
}

domino_status domino_stencil_verify(domino_handle h, domino_dmatrix dA, domino_fill fill,
                                    const domino_stencil_candidate *cand, int ncand,
                                    domino_stencil *st, int32_t *nx, int32_t *ny, int32_t *nz,
                                    int *found)
{
    struct domino_gpu_context *gpu;
    domino_solve_status *dst = NULL;
    int off[3 * DOMINO_STENCIL_MAX_POINTS];
    *found = 0;
    if (ncand < 1) return DOMINO_SUCCESS;
    domino_status s = domino_gpu_context_get(h, &gpu);
    /* only now the verdict's word (a matrix that is no candidate costs no
     * allocation and no cudaFree, which waits for the device) */
    cudaError_t e = s ? cudaSuccess : cudaMalloc((void **)&dst, sizeof(*dst));
    if (e) s = domino_cuda_status(h, e, "stencil detection");
    for (int c = 0; c < ncand && !s && !*found; c++) {
        int npoints = domino_stencil_offsets(cand[c].stencil, off);
        s = grid_fits(h, gpu, dA, fill, off, npoints, cand[c].nx, cand[c].ny, cand[c].nz, dst, found);
        if (*found) {
            *st = cand[c].stencil;
            *nx = cand[c].nx;
            *ny = cand[c].ny;
            *nz = cand[c].nz;
        }
    }
    if (dst) cudaFree(dst);
    return s;
}

domino_status domino_stencil_detect(domino_handle h, domino_dmatrix dA, domino_fill fill,
                                    const int64_t *hptr, const int32_t *hind, domino_stencil *st,
                                    int32_t *nx, int32_t *ny, int32_t *nz, int *found)
{
    struct domino_gpu_context *gpu;
    domino_stencil_candidate cand[MAX_TRIES];
    int64_t d[MAX_ROW];
    int count = 0;
    *found = 0;
    if (!may_be_stencil(dA->format, dA->sorted, dA->nrows, dA->nnz))
        return DOMINO_SUCCESS; /* too small, or more entries than any stencil has */
    domino_status s = domino_gpu_context_get(h, &gpu);
    if (!s) s = sample_row(h, gpu, dA, hptr, hind, fill == DOMINO_UPPER, d, &count);
    if (s || count < 2) return s;
    int ncand = candidates_of(dA->nrows, d, count, cand);
    return domino_stencil_verify(h, dA, fill, cand, ncand, st, nx, ny, nz, found);
}
