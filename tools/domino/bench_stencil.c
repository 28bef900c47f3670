/* bench_stencil.c: the structured-grid engines of "domino bench": the
 * stencil problem's triangle solved by domino_dstencil_trsv from its CSR
 * (in every variant) or from the compact form */
#include "bench_engines.h"
#include "internal.h"

#include <stdio.h>
#include <string.h>

domino_status stencil_run(domino_handle h, const bench_engine *e, solve_problem *p, int repeat,
                          void *X, engine_timing *t)
{
    domino_stencil_matrix *S = NULL;
    domino_dstencil D = NULL;
    domino_stencil_options opt;
    domino_matrix_view v;
    void *dB = NULL, *dX = NULL;
    double *times = NULL;
    int runs = repeat > 0 ? repeat : 1;
    memset(t, 0, sizeof(*t));
    snprintf(t->used, sizeof(t->used), "%s", e->name);
    if (!p->is_stencil || p->op != DOMINO_OP_N || p->nrhs != 1)
        return domino_error(h, DOMINO_NOT_SUPPORTED,
                            "bench: %s runs on stencil problems (op N, one right-hand side) only",
                            e->name);
    domino_status s = domino_matrix_get_view(h, p->T, &v);
    if (s) return s;
    size_t bytes = (size_t)p->n * domino_type_size(v.type);
    times = domino_malloc((size_t)runs * sizeof(double));
    if (!times) return domino_error(h, DOMINO_OUT_OF_MEMORY, "bench: out of memory");
    if (e->stencil_compact) {
        if ((s = domino_stencil_from_csr(h, p->T, p->nx, p->ny, p->nz, &S))) goto cleanup;
        if ((s = domino_dstencil_upload(h, S, p->fill, &D))) goto cleanup;
    } else {
        if (!p->dT && (s = domino_dmatrix_upload(h, p->T, &p->dT))) goto cleanup;
        if ((s = domino_dstencil_from_dmatrix(h, p->dT, p->stencil, p->nx, p->ny, p->nz, p->fill, &D)))
            goto cleanup;
    }
    domino_stencil_options_init(&opt);
    opt.variant = (domino_stencil_variant)e->stencil_variant;
    opt.warps_per_queue = p->stencil_tune ? -1 : 0;
    if ((s = domino_gpu_malloc(h, bytes, &dB)) || (s = domino_gpu_malloc(h, bytes, &dX)) ||
        (s = domino_gpu_upload(h, dB, p->B, bytes)))
        goto cleanup;
    /* a first solve loads the kernel (and autotunes when asked); then the
     * first timed solve and the median of the others */
    if ((s = domino_dstencil_trsv(h, D, p->diag, &opt, dB, dX))) goto cleanup;
    if ((s = domino_gpu_timer_begin(h)) || (s = domino_dstencil_trsv(h, D, p->diag, &opt, dB, dX)) ||
        (s = domino_gpu_timer_end(h, &t->first_ms)))
        goto cleanup;
    for (int r = 0; r < runs; r++) {
        if ((s = domino_gpu_timer_begin(h))) goto cleanup;
        if ((s = domino_dstencil_trsv(h, D, p->diag, &opt, dB, dX))) goto cleanup;
        if ((s = domino_gpu_timer_end(h, &times[r]))) goto cleanup;
    }
    t->solve_ms = bench_median(times, runs);
    t->solve_ms_min = times[0];
    int tile_u, tile_z;
    domino_dstencil_tile(D, &tile_u, &tile_z);
    if (tile_u > 0)
        snprintf(t->used, sizeof(t->used), "%s tile=%dx%d", e->name, tile_u, tile_z);
    else
        snprintf(t->used, sizeof(t->used), "%s D=%d", e->name, domino_dstencil_warps_per_queue(D));
    s = domino_gpu_download(h, X, dX, bytes);
cleanup:
    domino_free(times);
    domino_dstencil_free(D);
    domino_stencil_matrix_free(S);
    domino_gpu_free(dB);
    domino_gpu_free(dX);
    return s;
}
