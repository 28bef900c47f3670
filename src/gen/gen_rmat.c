/* gen_rmat.c: R-MAT random graph (Chakrabarti, Zhan and Faloutsos, SDM 2004) as a CSR matrix */
#include "internal.h"

#include <math.h>

/* edges drawn from one random stream; streams are seeded by chunk index so
 * the graph does not depend on the number of threads */
#define RMAT_CHUNK 65536

/* draw edges [first, last) of the graph into rows/cols */
static void draw_edges(int scale, double a, double ab, double abc, uint64_t seed, int64_t chunk,
                       int64_t first, int64_t last, int32_t *rows, int32_t *cols)
{
    domino_rng rng;
    domino_rng_seed(&rng, seed ^ (0x9e3779b97f4a7c15ULL * (uint64_t)(chunk + 1)));
    for (int64_t e = first; e < last; e++) {
        uint32_t row = 0, col = 0;
        for (int level = 0; level < scale; level++) {
            double u = domino_rng_uniform(&rng);
            uint32_t row_bit = u >= ab;                  /* quadrants c, d */
            uint32_t col_bit = (u >= a && u < ab) || u >= abc; /* quadrants b, d */
            row = (row << 1) | row_bit;
            col = (col << 1) | col_bit;
        }
        rows[e] = (int32_t)row;
        cols[e] = (int32_t)col;
    }
}

/* R-MAT graph of 2^scale vertices: edge_factor*2^scale edges, each placed
 * by descending `scale` levels of the adjacency matrix and picking the
 * quadrant (top-left, top-right, bottom-left, bottom-right) with
 * probabilities a, b, c, d (no noise).  Duplicates merged, self loops
 * kept, values 1, CSR sorted; reproducible for a seed. */
domino_status domino_gen_rmat(domino_handle h, int scale, int edge_factor, double a, double b,
                              double c, double d, uint64_t seed, domino_type type,
                              domino_matrix *A)
{
    if (!A) return domino_error(h, DOMINO_NULL_POINTER, "domino_gen_rmat: A is NULL");
    *A = NULL;
    if (!domino_handle_ok(h))
        return domino_error(NULL, DOMINO_INVALID_OBJECT, "domino_gen_rmat: h is not a live handle");
    if (scale < 1 || scale > 30)
        return domino_error(h, DOMINO_INVALID_VALUE, "domino_gen_rmat: scale %d outside [1, 30]",
                            scale);
    if (edge_factor < 1)
        return domino_error(h, DOMINO_INVALID_VALUE, "domino_gen_rmat: edge_factor %d below 1",
                            edge_factor);
    if (!(a >= 0) || !(b >= 0) || !(c >= 0) || !(d >= 0) || !(fabs(a + b + c + d - 1.0) <= 1e-9))
        return domino_error(h, DOMINO_INVALID_VALUE,
                            "domino_gen_rmat: probabilities a=%g b=%g c=%g d=%g must be >= 0 and "
                            "sum to 1",
                            a, b, c, d);
    if (type != DOMINO_FLOAT64 && type != DOMINO_FLOAT32)
        return domino_error(h, DOMINO_INVALID_VALUE, "domino_gen_rmat: bad type %d", (int)type);
    int32_t n = (int32_t)1 << scale;
    int64_t edges = (int64_t)edge_factor << scale;
    int32_t *rows = NULL, *cols = NULL;
    domino_matrix M = NULL;
    domino_status s = DOMINO_SUCCESS;
    size_t bytes;
    if (domino_mul_size((size_t)edges, sizeof(int32_t), &bytes) ||
        !(rows = domino_malloc(bytes)) || !(cols = domino_malloc(bytes))) {
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, "domino_gen_rmat: out of memory for %lld edges",
                         (long long)edges);
        goto cleanup;
    }
    int64_t chunks = (edges + RMAT_CHUNK - 1) / RMAT_CHUNK;
#pragma omp parallel for schedule(dynamic, 4)
    for (int64_t chunk = 0; chunk < chunks; chunk++) {
        int64_t first = chunk * RMAT_CHUNK;
        int64_t last = first + RMAT_CHUNK < edges ? first + RMAT_CHUNK : edges;
        draw_edges(scale, a, a + b, a + b + c, seed, chunk, first, last, rows, cols);
    }
    s = domino_matrix_from_coo(h, DOMINO_CSR, type, n, n, edges, rows, cols, NULL, &M);
    if (s) goto cleanup;
    for (int64_t k = 0; k < M->nnz; k++) domino_matrix_set_value(M, k, 1.0); /* merged: back to 1 */
    M->is_pattern = 1;
    *A = M;
    M = NULL;
cleanup:
    domino_free(rows);
    domino_free(cols);
    domino_matrix_free(M);
    return s;
}
