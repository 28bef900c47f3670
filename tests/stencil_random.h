/* stencil_random.h: a compact stencil matrix with random coefficients for
 * the tests of the structured solves (test_dist_slabs, test_dist_stencil):
 * generator stencil st on nx x ny x nz, off-grid-point neighbours 0, every
 * other off-centre coefficient in [-1, -0.2], the centre 1 plus the sum of
 * the others' magnitudes (diagonally dominant), the same for a seed on every
 * process; float: the same values rounded.  NULL (checks failed) when a
 * call fails. */
#ifndef DOMINO_TEST_STENCIL_RANDOM_H
#define DOMINO_TEST_STENCIL_RANDOM_H

#include "check.h"
#include "domino.h"
#include "internal.h" /* domino_malloc: S's coefficients are freed with domino_free */

#include <math.h>
#include <stdlib.h>

static domino_stencil_matrix *stencil_random(domino_handle h, domino_stencil st, int32_t nx,
                                             int32_t ny, int32_t nz, domino_type type,
                                             unsigned seed)
{
    domino_matrix A = NULL;
    domino_stencil_matrix *S = NULL;
    CHECK_OK(h, domino_gen_stencil(h, st, nx, ny, nz, DOMINO_PART_FULL, DOMINO_FLOAT64, &A));
    if (A) CHECK_OK(h, domino_stencil_from_csr(h, A, nx, ny, nz, &S));
    domino_matrix_free(A);
    if (!S) return NULL;
    int64_t N = (int64_t)nx * ny * nz;
    double *c = S->coef;
    int centre = -1;
    srand(seed);
    for (int p = 0; p < S->npoints; p++) {
        const int *o = S->offsets + 3 * p;
        if (!o[0] && !o[1] && !o[2])
            centre = p;
        else
            for (int64_t i = 0; i < N; i++)
                if (c[p * N + i] != 0) c[p * N + i] = -0.2 - 0.8 * rand() / (double)RAND_MAX;
    }
    for (int64_t i = 0; i < N && centre >= 0; i++) {
        double sum = 1;
        for (int p = 0; p < S->npoints; p++)
            if (p != centre) sum += fabs(c[p * N + i]);
        c[centre * N + i] = sum;
    }
    if (type == DOMINO_FLOAT32) {
        float *f = domino_malloc((size_t)(S->npoints * N) * sizeof(float));
        CHECK(f != NULL);
        if (!f) {
            domino_stencil_matrix_free(S);
            return NULL;
        }
        for (int64_t i = 0; i < S->npoints * N; i++)
            f[i] = (float)c[i];
        domino_free(S->coef);
        S->coef = f;
        S->type = DOMINO_FLOAT32;
    }
    return S;
}

#endif
