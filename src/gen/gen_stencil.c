/* gen_stencil.c: finite-difference stencil matrix on a regular grid, built directly in CSR */
#include "internal.h"

/* the stencil offsets kept for a part, in increasing column order */
typedef struct stencil_offsets {
    int count;        /* offsets kept */
    int dx[33];       /* x offset of each */
    int dy[33];       /* y offset of each */
    int dz[33];       /* z offset of each */
    int64_t delta[33];/* column - row of each */
} stencil_offsets;

static int64_t positive_part(int64_t v) { return v > 0 ? v : 0; }

/* keep the offsets of s that fall in `part`: LOWER = column <= row, UPPER =
 * column >= row (the linear order of offsets is the column order) */
static void select_offsets(domino_stencil s, domino_part part, int32_t nx, int32_t ny,
                           stencil_offsets *kept)
{
    int off[3 * 33];
    int points = domino_stencil_offsets(s, off);
    kept->count = 0;
    for (int k = 0; k < points; k++) {
        int dx = off[3 * k], dy = off[3 * k + 1], dz = off[3 * k + 2];
        int64_t delta = (int64_t)dx + (int64_t)nx * ((int64_t)dy + (int64_t)ny * dz);
        int sign = dz != 0 ? dz : (dy != 0 ? dy : dx); /* lexicographic sign */
        if (part == DOMINO_PART_LOWER && sign > 0) continue;
        if (part == DOMINO_PART_UPPER && sign < 0) continue;
        kept->dx[kept->count] = dx;
        kept->dy[kept->count] = dy;
        kept->dz[kept->count] = dz;
        kept->delta[kept->count] = delta;
        kept->count++;
    }
}

/* exact number of entries: each offset contributes one entry per grid point
 * whose neighbour is inside the grid */
static int64_t count_entries(const stencil_offsets *kept, int32_t nx, int32_t ny, int32_t nz)
{
    int64_t nnz = 0;
    for (int k = 0; k < kept->count; k++)
        nnz += positive_part(nx - (int64_t)(kept->dx[k] < 0 ? -kept->dx[k] : kept->dx[k])) *
               positive_part(ny - (int64_t)(kept->dy[k] < 0 ? -kept->dy[k] : kept->dy[k])) *
               positive_part(nz - (int64_t)(kept->dz[k] < 0 ? -kept->dz[k] : kept->dz[k]));
    return nnz;
}

/* 1 if offset k from point (x, y, z) stays in the grid */
static inline int inside(const stencil_offsets *kept, int k, int32_t x, int32_t y, int32_t z,
                         int32_t nx, int32_t ny, int32_t nz)
{
    int64_t xx = (int64_t)x + kept->dx[k], yy = (int64_t)y + kept->dy[k],
            zz = (int64_t)z + kept->dz[k];
    return xx >= 0 && xx < nx && yy >= 0 && yy < ny && zz >= 0 && zz < nz;
}

/* fill row offsets (count pass, then prefix sum) and the rows of M */
static void build_rows(const stencil_offsets *kept, int32_t nx, int32_t ny, int32_t nz,
                       double diagonal, struct domino_matrix_s *M)
{
    int64_t lines = (int64_t)ny * nz;
    int64_t *ptr = M->ptr;
#pragma omp parallel for schedule(static)
    for (int64_t t = 0; t < lines; t++) {
        int32_t y = (int32_t)(t % ny), z = (int32_t)(t / ny);
        for (int32_t x = 0; x < nx; x++) {
            int64_t count = 0;
            for (int k = 0; k < kept->count; k++) count += inside(kept, k, x, y, z, nx, ny, nz);
            ptr[t * nx + x + 1] = count;
        }
    }
    int64_t n = lines * nx;
    for (int64_t i = 0; i < n; i++) ptr[i + 1] += ptr[i];
    double *val64 = M->type == DOMINO_FLOAT64 ? M->val : NULL;
    float *val32 = M->type == DOMINO_FLOAT32 ? M->val : NULL;
#pragma omp parallel for schedule(static)
    for (int64_t t = 0; t < lines; t++) {
        int32_t y = (int32_t)(t % ny), z = (int32_t)(t / ny);
        for (int32_t x = 0; x < nx; x++) {
            int64_t row = t * nx + x, out = ptr[row];
            for (int k = 0; k < kept->count; k++) {
                if (!inside(kept, k, x, y, z, nx, ny, nz)) continue;
                double v = kept->delta[k] == 0 ? diagonal : -1.0;
                M->ind[out] = (int32_t)(row + kept->delta[k]);
                if (val64) val64[out] = v;
                else val32[out] = (float)v;
                out++;
            }
        }
    }
}

/* Stencil matrix of s on an nx*ny*nz grid (nz = 1 for 2D stencils),
 * natural ordering x fastest (row = x + nx*(y + ny*z)); off-diagonals -1,
 * diagonal = number of stencil points; neighbours outside the grid are
 * dropped; `part` keeps the whole matrix or its lower/upper triangle with
 * the diagonal.  CSR, sorted, built directly (O(nnz), OpenMP). */
domino_status domino_gen_stencil(domino_handle h, domino_stencil s, int32_t nx, int32_t ny,
                                 int32_t nz, domino_part part, domino_type type,
                                 domino_matrix *A)
{
    if (!A) return domino_error(h, DOMINO_NULL_POINTER, "domino_gen_stencil: A is NULL");
    *A = NULL;
    if (!domino_handle_ok(h))
        return domino_error(NULL, DOMINO_INVALID_OBJECT, "domino_gen_stencil: h is not a live handle");
    int points = domino_stencil_points(s);
    if (points == 0)
        return domino_error(h, DOMINO_INVALID_VALUE, "domino_gen_stencil: bad stencil %d", (int)s);
    if (part != DOMINO_PART_FULL && part != DOMINO_PART_LOWER && part != DOMINO_PART_UPPER)
        return domino_error(h, DOMINO_INVALID_VALUE, "domino_gen_stencil: bad part %d", (int)part);
    if (type != DOMINO_FLOAT64 && type != DOMINO_FLOAT32)
        return domino_error(h, DOMINO_INVALID_VALUE, "domino_gen_stencil: bad type %d", (int)type);
    if (nx < 1 || ny < 1 || nz < 1)
        return domino_error(h, DOMINO_INVALID_VALUE,
                            "domino_gen_stencil: grid %d x %d x %d has a size below 1", nx, ny, nz);
    if ((s == DOMINO_D2N5 || s == DOMINO_D2N9) && nz != 1)
        return domino_error(h, DOMINO_INVALID_VALUE,
                            "domino_gen_stencil: 2D stencil %s needs nz = 1, not %d",
                            domino_stencil_name(s), nz);
    int64_t n = (int64_t)nx * ny * nz;
    if (n > INT32_MAX)
        return domino_error(h, DOMINO_INVALID_VALUE,
                            "domino_gen_stencil: grid %d x %d x %d has %lld points, over 2^31-1",
                            nx, ny, nz, (long long)n);
    stencil_offsets kept;
    select_offsets(s, part, nx, ny, &kept);
    int64_t nnz = count_entries(&kept, nx, ny, nz);
    domino_matrix M = NULL;
    domino_status status = domino_matrix_new(h, DOMINO_CSR, type, (int32_t)n, (int32_t)n, nnz, &M);
    if (status) return status;
    build_rows(&kept, nx, ny, nz, (double)points, M);
    *A = M;
    return DOMINO_SUCCESS;
}
