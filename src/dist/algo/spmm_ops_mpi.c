/* spmm_ops_mpi.c: the operations of the SpMM drivers (dist_spmm_drive.h)
 * on the one-sided layer with the CPU products: gets of tile pairs, the
 * product summed in double in one accumulator (the C tile being made or
 * the partial tile), a partial added into C's owner by an atomic
 * accumulate, claims by fetch-and-add on the counters' window.  Times go
 * to the context's dist_times: waiting for gets and deliveries is
 * communication, the products are compute. */
#include "spmm_internal.h"

#include <string.h>

static int owner_a(void *ctx, int i, int l)
{
    const spmm_mpi *m = (const spmm_mpi *)ctx;
    return dist_tile_owner(m->A->w, m->A->tc, i, l);
}

static int owner_b(void *ctx, int l, int j)
{
    const spmm_mpi *m = (const spmm_mpi *)ctx;
    return dist_tile_owner(m->B->w, m->B->tc, l, j);
}

static int owner_c(void *ctx, int i, int j)
{
    const spmm_mpi *m = (const spmm_mpi *)ctx;
    return dist_tile_owner(m->C->w, m->C->tc, i, j);
}

static int64_t nnz_a(void *ctx, int i, int l)
{
    const spmm_mpi *m = (const spmm_mpi *)ctx;
    return m->A->nnz[i * m->A->tc + l];
}

static domino_status fetch(void *ctx, int i, int l, int j, int q)
{
    spmm_mpi *m = (spmm_mpi *)ctx;
    double t0 = domino_wtime();
    domino_status s = spmm_fetch(m->h, m->A, m->B, i, l, j, &m->pair[q]);
    m->t->communication += domino_wtime() - t0;
    return s;
}

static domino_status multiply(void *ctx, int i, int l, int j, int q, int to_c, int first)
{
    (void)l, (void)to_c; /* one accumulator for both: the drivers never interleave them */
    spmm_mpi *m = (spmm_mpi *)ctx;
    int64_t rows = m->C->rb[i + 1] - m->C->rb[i], cols = m->C->cb[j + 1] - m->C->cb[j];
    double t0 = domino_wtime();
    domino_status s = spmm_wait(m->h, &m->pair[q]);
    m->t->communication += domino_wtime() - t0;
    if (s) return s;
    t0 = domino_wtime();
    if (first) memset(m->acc, 0, (size_t)(rows * cols) * sizeof(double));
    spmm_multiply(&m->pair[q], m->A->type, rows, cols, m->acc);
    m->t->compute += domino_wtime() - t0;
    return DOMINO_SUCCESS;
}

/* this rank's C tile (i, j) := the accumulator, in C's type */
static domino_status finish(void *ctx, int i, int j)
{
    spmm_mpi *m = (spmm_mpi *)ctx;
    int64_t count = (m->C->rb[i + 1] - m->C->rb[i]) * (m->C->cb[j + 1] - m->C->cb[j]);
    char *dst = (char *)m->C->local + (size_t)m->C->at[i * m->C->tc + j] * domino_type_size(m->C->type);
    for (int64_t k = 0; k < count; k++) {
        if (m->C->type == DOMINO_FLOAT64) ((double *)dst)[k] = m->acc[k];
        else ((float *)dst)[k] = (float)m->acc[k];
    }
    return DOMINO_SUCCESS;
}

static domino_status deliver(void *ctx, int i, int j)
{
    spmm_mpi *m = (spmm_mpi *)ctx;
    int64_t count = (m->C->rb[i + 1] - m->C->rb[i]) * (m->C->cb[j + 1] - m->C->cb[j]);
    return count > 0 ? spmm_deliver(m->h, m->C, i * m->C->tc + j, m->acc, count, m->t) : DOMINO_SUCCESS;
}

static domino_status claim(void *ctx, spmm_counter kind, int o, size_t k, int64_t *old)
{
    (void)kind; /* the one counters window of the algorithm that claims */
    spmm_mpi *m = (spmm_mpi *)ctx;
    double t0 = domino_wtime();
    domino_status s = os_fetch_add(m->h, m->counters, o, k * sizeof(int64_t), 1, old);
    m->t->communication += domino_wtime() - t0;
    return s;
}

domino_status spmm_mpi_begin(domino_handle h, const dist_sparse *A, const dist_dense *B, dist_dense *C,
                             os_window *counters, dist_times *t, spmm_mpi *m, spmm_ops *o)
{
    memset(m, 0, sizeof(*m));
    memset(o, 0, sizeof(*o));
    m->h = h, m->A = A, m->B = B, m->C = C, m->counters = counters, m->t = t;
    *o = (spmm_ops){h, m, C->tr, A->tc, C->tc, os_rank(C->w), owner_a, owner_b, owner_c, nnz_a,
                    fetch, NULL, multiply, finish, deliver, claim};
    return spmm_buffers_new(h, A, B, m->pair, &m->acc);
}

void spmm_mpi_end(spmm_mpi *m)
{
    spmm_wait(m->h, &m->pair[0]); /* gets a failure left under way */
    spmm_wait(m->h, &m->pair[1]);
    spmm_buffers_free(m->pair, m->acc);
    m->acc = NULL;
}
