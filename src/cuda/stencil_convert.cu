/* stencil_convert.cu: kernels over a caller's CSR triangle of a stencil:
 * the entry check (every entry a stencil neighbour inside the grid), the
 * compact copy (one coefficient slot per offset), and the compact copy of
 * its transpose made from the CSR of the other triangle */
#include "stencil_device.cuh"
#include "internal.h"

/* Staging: the entry check and the compact copy may stage each block's rows
 * in shared memory first.  A thread per row reads its row's entries in turn,
 * a warp's 32 loads 32 rows apart (D3N27's 14-entry rows: 112 bytes apart),
 * so at full occupancy the lines leave L1 before their next entry is read:
 * unstaged, the copy of D3N27 192^3 took 2.8 ms, about 4-6x what its 2 GB
 * at the copy bandwidth would take.  Staged, the block reads its rows'
 * entries in one coalesced sweep: 1.3 ms.  Short rows lose by it (the
 * copy of D3N7 192^3, 4 entries a row: 0.28 ms unstaged, 0.55 staged;
 * bench/results/h200x2-next22/stage), so rows are staged where the
 * triangle's rows hold STAGE_MIN_PER_ROW entries or more (its offsets,
 * centre included: D3N19, D3N27, D3N33) and the CSR holds that triangle
 * alone (a full matrix's rows, about twice as long, were not measured).
 * DOMINO_STENCIL_STAGE=1 stages always, =0 never. */
#define STAGE_ROWS 128     /* rows (threads) a block */
#define STAGE_ENTRIES 4096 /* entries a block stages at most: 32 a row on average */
#define STAGE_MIN_PER_ROW 8 /* entries of a triangle's row from which the rows are staged */

/* stage A's rows?  (the rule above, or DOMINO_STENCIL_STAGE's 0 or 1) */
static int stencil_stage(const stencil_kernel_args *A)
{
    const int forced = domino_env_int("DOMINO_STENCIL_STAGE", -1);
    if (forced == 0 || forced == 1) return forced;
    /* the triangle alone: fewer than 1.5 nlow entries a row on average (a
     * full matrix holds about 2 nlow - 1) */
    return A->nlow >= STAGE_MIN_PER_ROW && 2 * A->nnz < 3 * (int64_t)A->nlow * A->n;
}

/* Stages the entries of solve rows [r0, r0 + STAGE_ROWS) of A (real rows
 * ascending, or descending when upper: one range of the CSR) into sind and,
 * VALUES, sval, read coalesced by the whole block; *jb0 the range's first
 * entry.  Returns 0 (nothing staged: the rows read global memory) when the
 * range holds more than STAGE_ENTRIES.  Every thread of the block calls it,
 * with the same r0. */
template <bool VALUES, typename T>
__device__ __forceinline__ bool stage_rows(const stencil_kernel_args &A, int64_t r0, int32_t *sind, T *sval,
                                           int64_t *jb0)
{
    const int64_t r1 = r0 + STAGE_ROWS - 1 < A.n - 1 ? r0 + STAGE_ROWS - 1 : A.n - 1;
    const int64_t a = real_row(A, r0), b = real_row(A, r1);
    const int64_t j0 = __ldg(&A.ptr[a < b ? a : b]), j1 = __ldg(&A.ptr[(a < b ? b : a) + 1]);
    __syncthreads(); /* the block is done with the rows staged before */
    if (j1 - j0 > STAGE_ENTRIES) return false;
    for (int64_t j = j0 + threadIdx.x; j < j1; j += STAGE_ROWS) {
        sind[j - j0] = __ldg(&A.ind[j]);
        if (VALUES) sval[j - j0] = __ldg(&((const T *)A.val)[j]);
    }
    __syncthreads();
    *jb0 = j0;
    return true;
}

/* Solve row r's triangle entries in the solve's order (STAGED: from sind
 * and sval, which hold the entries from jb0; else from global memory).
 * COMPACT 0, the entry check: is every entry a neighbour of the stencil
 * inside the grid?  If not, the row goes to timeout_row (the smallest).
 * COMPACT 1, the compact copy: coef (3 + noff slots of n values: the slot
 * of an entry is its kind; the row's slots zeroed first, so coef needs no
 * clearing and its lines are in L2 for the sums) += each entry (duplicates
 * summed); entries outside the stencil are skipped (the CSR was checked
 * before). */
template <bool STAGED, bool COMPACT, typename T>
__device__ __forceinline__ void walk_row(const stencil_kernel_args &A, int64_t r, T *coef, const int32_t *sind,
                                         const T *sval, int64_t jb0)
{
    int64_t row = real_row(A, r);
    if (COMPACT)
        for (int k = 0; k < 3 + A.noff; k++) coef[k * A.n + row] = (T)0;
    int xl = (int)(r % A.nx), y = (int)((r / A.nx) % A.ny), z = (int)(r / ((int64_t)A.nx * A.ny));
    int64_t jb = __ldg(&A.ptr[row]), je = __ldg(&A.ptr[row + 1]);
    int p = 0;
    for (int64_t t = 0; t < je - jb; t++) {
        int64_t j = A.upper ? je - 1 - t : jb + t;
        int64_t c = STAGED ? sind[j - jb0] : __ldg(&A.ind[j]);
        int64_t d = A.upper ? row - c : c - row;
        if (d > 0) break;
        int q = match_offset(A, d, xl, y, z, &p);
        if (COMPACT && q >= 0) {
            coef[A.lowkind[q] * A.n + row] += STAGED ? sval[j - jb0] : __ldg(&((const T *)A.val)[j]);
        } else if (!COMPACT && q < 0) {
            atomicMin(&A.st->timeout_row, (int32_t)row);
            break;
        }
    }
}

/* the entry check: a thread per row (walk_row), the rows' entries read in turn */
__global__ void stencil_validate_kernel(const stencil_kernel_args A)
{
    for (int64_t r = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; r < A.n;
         r += (int64_t)gridDim.x * blockDim.x)
        walk_row<false, false, double>(A, r, NULL, NULL, NULL, 0);
}

/* the same with the block's rows staged (stage_rows) */
__global__ void __launch_bounds__(STAGE_ROWS) stencil_validate_staged_kernel(const stencil_kernel_args A)
{
    __shared__ int32_t sind[STAGE_ENTRIES];
    for (int64_t r0 = blockIdx.x * (int64_t)STAGE_ROWS; r0 < A.n; r0 += (int64_t)gridDim.x * STAGE_ROWS) {
        int64_t jb0 = 0;
        const bool staged = stage_rows<false, double>(A, r0, sind, (double *)NULL, &jb0);
        const int64_t r = r0 + threadIdx.x;
        if (r >= A.n) continue;
        if (staged) walk_row<true, false, double>(A, r, NULL, sind, NULL, jb0);
        else walk_row<false, false, double>(A, r, NULL, NULL, NULL, 0);
    }
}

/* grid of blocks of rows for the kernels above: one a block, at most 65536 */
static unsigned stencil_grid(int64_t n, int64_t rows)
{
    int64_t blocks = (n + rows - 1) / rows;
    return (unsigned)(blocks < 65536 ? blocks : 65536);
}

extern "C" cudaError_t domino_launch_stencil_validate(cudaStream_t stream,
                                                      const stencil_kernel_args *A)
{
    if (A->n == 0) return cudaSuccess;
    if (stencil_stage(A))
        stencil_validate_staged_kernel<<<stencil_grid(A->n, STAGE_ROWS), STAGE_ROWS, 0, stream>>>(*A);
    else
        stencil_validate_kernel<<<stencil_grid(A->n, 256), 256, 0, stream>>>(*A);
    return cudaGetLastError();
}

/* the compact copy: a thread per row (walk_row), the rows' entries read in turn */
template <typename T> __global__ void stencil_compact_kernel(const stencil_kernel_args A, T *coef)
{
    for (int64_t r = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; r < A.n;
         r += (int64_t)gridDim.x * blockDim.x)
        walk_row<false, true, T>(A, r, coef, NULL, NULL, 0);
}

/* the same with the block's rows staged (stage_rows) */
template <typename T>
__global__ void __launch_bounds__(STAGE_ROWS) stencil_compact_staged_kernel(const stencil_kernel_args A, T *coef)
{
    __shared__ int32_t sind[STAGE_ENTRIES];
    __shared__ T sval[STAGE_ENTRIES];
    for (int64_t r0 = blockIdx.x * (int64_t)STAGE_ROWS; r0 < A.n; r0 += (int64_t)gridDim.x * STAGE_ROWS) {
        int64_t jb0 = 0;
        const bool staged = stage_rows<true, T>(A, r0, sind, sval, &jb0);
        const int64_t r = r0 + threadIdx.x;
        if (r >= A.n) continue;
        if (staged) walk_row<true, true, T>(A, r, coef, sind, sval, jb0);
        else walk_row<false, true, T>(A, r, coef, NULL, NULL, 0);
    }
}

extern "C" cudaError_t domino_launch_stencil_compact(cudaStream_t stream, domino_type type,
                                                     const stencil_kernel_args *A, void *coef)
{
    if (A->n == 0) return cudaSuccess;
    const int stage = stencil_stage(A);
    const unsigned grid = stencil_grid(A->n, stage ? STAGE_ROWS : 256);
    if (type == DOMINO_FLOAT64 && stage)
        stencil_compact_staged_kernel<double><<<grid, STAGE_ROWS, 0, stream>>>(*A, (double *)coef);
    else if (type == DOMINO_FLOAT64)
        stencil_compact_kernel<double><<<grid, 256, 0, stream>>>(*A, (double *)coef);
    else if (stage)
        stencil_compact_staged_kernel<float><<<grid, STAGE_ROWS, 0, stream>>>(*A, (float *)coef);
    else
        stencil_compact_kernel<float><<<grid, 256, 0, stream>>>(*A, (float *)coef);
    return cudaGetLastError();
}

/* thread per row i of src, the CSR holding the transpose of A's triangle
 * (its other triangle: entries c <= i when A is upper, c >= i when lower):
 * entry (i, c) is A's (c, i), added to coef (zeroed) at its offset's slot,
 * row c.  Each (slot, c) has one source row, so no two threads meet; src's
 * triangle was validated before (the transposes of stencil neighbours are
 * stencil neighbours).  What makes the Lᵀ of an IC(0) without transposing. */
template <typename T>
__global__ void stencil_compact_transposed_kernel(const stencil_kernel_args A,
                                                  const int64_t *__restrict__ ptr,
                                                  const int32_t *__restrict__ ind,
                                                  const T *__restrict__ val, T *coef)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < A.n;
         i += (int64_t)gridDim.x * blockDim.x) {
        for (int64_t j = __ldg(&ptr[i]), je = __ldg(&ptr[i + 1]); j < je; j++) {
            int64_t c = __ldg(&ind[j]);
            int64_t d = A.upper ? c - i : i - c; /* A's row c, column i: solve delta */
            if (d > 0) continue;
            int64_t r = real_row(A, c); /* solve coordinates of row c */
            int xl = (int)(r % A.nx), y = (int)((r / A.nx) % A.ny), z = (int)(r / ((int64_t)A.nx * A.ny));
            int p = 0;
            int q = match_offset(A, d, xl, y, z, &p);
            if (q >= 0) coef[A.lowkind[q] * A.n + c] += __ldg(&val[j]);
        }
    }
}

extern "C" cudaError_t domino_launch_stencil_compact_transposed(cudaStream_t stream,
                                                                domino_type type,
                                                                const stencil_kernel_args *A,
                                                                const int64_t *ptr,
                                                                const int32_t *ind,
                                                                const void *val, void *coef)
{
    if (A->n == 0) return cudaSuccess;
    const unsigned grid = stencil_grid(A->n, 256);
    if (type == DOMINO_FLOAT64)
        stencil_compact_transposed_kernel<double><<<grid, 256, 0, stream>>>(
            *A, ptr, ind, (const double *)val, (double *)coef);
    else
        stencil_compact_transposed_kernel<float><<<grid, 256, 0, stream>>>(
            *A, ptr, ind, (const float *)val, (float *)coef);
    return cudaGetLastError();
}
