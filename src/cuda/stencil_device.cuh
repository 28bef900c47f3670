/* stencil_device.cuh: device helpers shared by the structured-grid kernels
 * (stencil_trsv.cu: the queue solve; stencil_tile.cu: the tiled solve;
 * stencil_convert.cu: the check and the compact copy of a CSR triangle).
 * Coordinates: see stencil_gpu.h. */
#ifndef DOMINO_STENCIL_DEVICE_CUH
#define DOMINO_STENCIL_DEVICE_CUH

#include "stencil_gpu.h"
#include "device_util.cuh"

#ifndef FULL_MASK
#define FULL_MASK 0xffffffffu
#endif

/* the real row of solve-coordinate row r */
__device__ __forceinline__ int64_t real_row(const stencil_kernel_args &A, int64_t r)
{
    return A.upper ? A.n - 1 - r : r;
}

/* 1 if grid point (x, y, z) lies in the grid */
__device__ __forceinline__ bool inside(const stencil_kernel_args &A, int x, int y, int z)
{
    return x >= 0 && x < A.nx && y >= 0 && y < A.ny && z >= 0 && z < A.nz;
}

/* the triangle offset of row delta d for point (xl, y, z), searching from
 * *p (deltas increase along a sorted row); -1 if d is no neighbour in the
 * grid.  On tiny grids two offsets can share a delta: the one whose
 * neighbour lies inside the grid is the entry's. */
__device__ __forceinline__ int match_offset(const stencil_kernel_args &A, int64_t d, int xl, int y,
                                            int z, int *p)
{
    while (*p < A.nlow && A.lowd[*p] < d) (*p)++;
    for (int q = *p; q < A.nlow && A.lowd[q] == d; q++)
        if (inside(A, xl + A.lowx[q], y + A.lowy[q], z + A.lowz[q])) return q;
    return -1;
}

/* add the value v of a triangle entry of kind `kind` to the centre (diag),
 * the in-line M1 or M2 sums; false (nothing added) for an off-line entry */
template <typename T>
__device__ __forceinline__ bool add_in_line(int kind, T v, T *diag, T *m1, T *m2, bool *found_diag)
{
    if (kind == STENCIL_CENTRE) {
        *diag += v;
        *found_diag = true;
    } else if (kind == STENCIL_M1) {
        *m1 += v;
    } else if (kind == STENCIL_M2) {
        *m2 += v;
    } else {
        return false;
    }
    return true;
}

/* x_i = a + q1 x_{i-1} + q2 x_{i-2} along the 32 lanes of a warp, x_{-1} = c1,
 * x_{-2} = c2, as an inclusive Kogge-Stone scan of affine maps:
 * order 1 maps x -> C + M x; order 2 maps the state (x_i, x_{i-1}) by a 2x2
 * matrix plus a vector.  Composition: later after earlier. */
template <typename T, int ORDER>
__device__ __forceinline__ T recurrence_scan(T a, T q1, T q2, T c1, T c2)
{
    int lane = threadIdx.x & 31;
    if (ORDER == 1) {
        T M = q1, C = a;
#pragma unroll
        for (int o = 1; o < 32; o <<= 1) {
            T Mp = __shfl_up_sync(FULL_MASK, M, o), Cp = __shfl_up_sync(FULL_MASK, C, o);
            if (lane >= o) {
                C = C + M * Cp;
                M = M * Mp;
            }
        }
        return C + M * c1;
    }
    T t00 = q1, t01 = q2, t10 = 1, t11 = 0, v0 = a, v1 = 0;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        T p00 = __shfl_up_sync(FULL_MASK, t00, o), p01 = __shfl_up_sync(FULL_MASK, t01, o);
        T p10 = __shfl_up_sync(FULL_MASK, t10, o), p11 = __shfl_up_sync(FULL_MASK, t11, o);
        T w0 = __shfl_up_sync(FULL_MASK, v0, o), w1 = __shfl_up_sync(FULL_MASK, v1, o);
        if (lane >= o) {
            T n00 = t00 * p00 + t01 * p10, n01 = t00 * p01 + t01 * p11;
            T n10 = t10 * p00 + t11 * p10, n11 = t10 * p01 + t11 * p11;
            T u0 = t00 * w0 + t01 * w1 + v0, u1 = t10 * w0 + t11 * w1 + v1;
            t00 = n00; t01 = n01; t10 = n10; t11 = n11; v0 = u0; v1 = u1;
        }
    }
    return t00 * c1 + t01 * c2 + v0;
}

/* 1 if a slab's lines are copied by a neighbour PE (the test, in the tiled
 * slab kernel, that kept its registers as before the SLAB instances: 8
 * bytes of spills with W = 4 against 24 without it) */
__device__ __forceinline__ bool slab_mirrored(const stencil_kernel_args &A)
{
    return A.mirror_x[0] != NULL || A.mirror_x[1] != NULL;
}

/* Slab solve over PEs (the SLAB instances of the kernels only, so the
 * single-GPU ones carry none of it): the published x_i of point xl of line
 * (y, z) (solve coordinates) also into each neighbour PE that keeps a copy
 * of the line.
 * There too the value is its own flag (the neighbour's reset made the copy
 * pending), so one single-copy-atomic store, at system scope, is all. */
template <typename T>
__device__ __forceinline__ void mirror_value(const stencil_kernel_args &A, int xl, int y, int z, T v)
{
    const int yr = A.upper ? A.ny - 1 - y : y;
#pragma unroll
    for (int s = 0; s < 2; s++) {
        if (!A.mirror_x[s] || yr < A.mirror[s].y_lo || yr >= A.mirror[s].y_hi) continue;
        const int xr = A.upper ? A.nx - 1 - xl : xl, zr = A.upper ? A.nz - 1 - z : z;
        store_relaxed_sys(&((T *)A.mirror_x[s])[dist_slab_mirror_row(&A.mirror[s], A.nx, xr, yr, zr)], v);
    }
}

/* bit q set for every offset q of the triangle (A.low*) whose neighbour
 * of a point of line (y, z) lies inside the grid in y and z: once a line */
__device__ __forceinline__ unsigned low_line_mask(const stencil_kernel_args &A, int y, int z)
{
    unsigned in = 0;
    for (int q = 0; q < A.nlow; q++) {
        const int yy = y + A.lowy[q], zz = z + A.lowz[q];
        in |= (unsigned)(yy >= 0 && yy < A.ny && zz >= 0 && zz < A.nz) << q;
    }
    return in;
}

/* ... and inside in x at point xl as well: the line's mask less the
 * offsets of each dx (-2..2, A.low_dx) that leaves the line there */
__device__ __forceinline__ unsigned low_inside(const stencil_kernel_args &A, unsigned line_mask, int xl)
{
#pragma unroll
    for (int i = 0; i < 5; i++) {
        const int xx = xl + i - 2;
        line_mask &= xx >= 0 && xx < A.nx ? ~0u : ~A.low_dx[i];
    }
    return line_mask;
}

/* A CSR triangle's row read by offset, as the compact form holds it
 * (csr_row_begin, csr_entry, csr_row_end): the row is taken to hold
 * exactly its stencil neighbours inside the grid, each once, in column
 * order, so that offset q is entry popc(in below q) of the walk, which
 * starts at the row's first entry (its last for an upper solve). */
struct csr_reader {
    int64_t jb, je;  /* the row's entries */
    int64_t start;   /* the walk's first entry: jb, or je - 1 upper */
    int step;        /* 1, or -1 upper */
    int len;         /* entries, at most 64 (more cannot all be neighbours) */
    unsigned in;     /* the offsets inside the grid here (low_inside) */
    int32_t row;     /* the real row */
    bool ok;         /* every entry read so far was there and its column */
};

/* The value of the offset of slot s in the row (s.bit 0: none, 0); r.ok
 * turns false where its entry is missing or is another column.  The
 * slot's constants are kernel parameters read at a fixed offset (the
 * callers index them at compile time), not looked up by offset. */
template <typename T>
__device__ __forceinline__ T csr_entry(const stencil_kernel_args &A, csr_reader *r, const stencil_csr_slot &s)
{
    const bool use = (r->in & s.bit) != 0u;
    const int t = __popc(r->in & s.below);
    const bool there = use && t < r->len;
    const int64_t j = r->start + r->step * t;
    const int32_t c = there ? __ldg(&A.ind[j]) : -1;
    r->ok = r->ok && (!use || (there && c == r->row + s.delta));
    return there ? __ldg(&((const T *)A.val)[j]) : (T)0;
}

/* Open row `row` (solve-coordinate point xl of a line whose
 * low_line_mask is line_mask) for csr_entry: its range and its mask */
__device__ __forceinline__ void csr_row_open(const stencil_kernel_args &A, int64_t row, int xl,
                                             unsigned line_mask, csr_reader *r)
{
    r->jb = __ldg(&A.ptr[row]);
    r->je = __ldg(&A.ptr[row + 1]);
    r->start = A.upper ? r->je - 1 : r->jb;
    r->step = A.upper ? -1 : 1;
    r->len = (int)min(r->je - r->jb, (int64_t)64);
    r->in = low_inside(A, line_mask, xl);
    r->row = (int32_t)row;
    r->ok = true;
}

/* csr_row_open, then the in-line coefficients of the row; csr_row_end
 * finishes the check once the off-line ones are read */
template <typename T, int ORDER>
__device__ __forceinline__ void csr_row_begin(const stencil_kernel_args &A, int64_t row, int xl,
                                              unsigned line_mask, csr_reader *r, T *diag, T *m1, T *m2)
{
    csr_row_open(A, row, xl, line_mask, r);
    *diag = csr_entry<T>(A, r, A.csr_centre);
    *m1 = csr_entry<T>(A, r, A.csr_m1);
    *m2 = ORDER == 2 ? csr_entry<T>(A, r, A.csr_m2) : (T)0;
}

/* The end of that check: true where every offset read was there (ok) and
 * the row holds nothing more of this triangle: after its popc(in) entries
 * comes its end or the other triangle.  False for a row that is not
 * exactly its stencil neighbours inside the grid in column order, each
 * once (duplicates, an entry missing, one of no neighbour). */
__device__ __forceinline__ bool csr_row_end(const stencil_kernel_args &A, const csr_reader *r)
{
    const int count = __popc(r->in);
    const int32_t next = count < r->len ? __ldg(&A.ind[r->start + r->step * count]) : r->row;
    return r->ok && count <= r->len && (count == r->len || (r->step > 0 ? next > r->row : next < r->row));
}

/* Bring the next chunk's right-hand side and coefficients (solve-coordinate
 * row rn) into L1 while this chunk waits: its loads then cost an L1 hit,
 * not a DRAM trip, on the critical path. */
template <typename T>
__device__ __forceinline__ void prefetch_compact(const stencil_kernel_args &A, const T *b,
                                                 const T *coef, int64_t rn, bool inside_line)
{
    if (!inside_line) return;
    int64_t row = real_row(A, rn);
    prefetch_l1(&b[row]);
    int slots = 3 + A.noff;
    for (int k = 0; k < slots; k++) prefetch_l1(&coef[k * A.n + row]);
}

/* prefetch_compact for a CSR row: the next chunk's row is 32 rows on (back for an
 * upper solve); its entries are guessed 32 rows of this length away */
template <typename T>
__device__ __forceinline__ void prefetch_csr(const stencil_kernel_args &A, const T *b, int64_t row,
                                             int64_t jb, int64_t je)
{
    int64_t next = A.upper ? row - 32 : row + 32;
    if (next < 0 || next >= A.n) return;
    int64_t len = je - jb, guess = A.upper ? jb - 32 * len : jb + 32 * len;
    prefetch_l1(&b[next]);
    prefetch_l1(&A.ptr[next]);
    if (guess < 0 || guess + len > A.nnz) return;
    const T *val = (const T *)A.val;
    prefetch_l1(&A.ind[guess]);
    prefetch_l1(&val[guess]);
    if (len > 1) {
        prefetch_l1(&A.ind[guess + len - 1]);
        prefetch_l1(&val[guess + len - 1]);
    }
}

#endif
