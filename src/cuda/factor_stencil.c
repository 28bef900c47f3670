/* factor_stencil.c: does a factorization take the kernel's stencil path?
 * The analysis asks the stencil detector of the triangular solve
 * (stencil_detect.c) which generator stencil and grid the lower triangle
 * of the matrix holds, makes the slot tables (factor_stencil_table.c), and
 * lets a kernel check that every interior row of the factor pattern holds
 * exactly the stencil's entries.  Cost: the detector's sampling and one
 * pass over the pattern (a thread per row).  DOMINO_FACTOR_STENCIL=0 turns
 * the path off (experiments). */
#include "factor_plan.h"
#include "stencil_gpu.h"

#include <limits.h>
#include <stdlib.h>

domino_status domino_factor_stencil_setup(domino_handle h, struct domino_gpu_context *gpu,
                                          struct domino_factor_plan_s *p, const char *fn)
{
    const char *env = getenv("DOMINO_FACTOR_STENCIL");
    domino_stencil st;
    int32_t nx, ny, nz;
    int found = 0, off[3 * DOMINO_STENCIL_MAX_POINTS];
    factor_stencil_args a;
    domino_factor_status hst;
    p->stencil.nx = 0;
    if (env && atoi(env) == 0) return DOMINO_SUCCESS;
    domino_status s = domino_stencil_detect(h, p->dA, DOMINO_LOWER, &st, &nx, &ny, &nz, &found);
    if (s || !found) return s;
    int npoints = domino_stencil_offsets(st, off);
    if (!domino_factor_stencil_table(off, npoints, nx, ny, nz, p->kind == DOMINO_FACTOR_IC0, &a))
        return DOMINO_SUCCESS;
    cudaError_t e;
    if ((e = domino_launch_factor_status_reset(gpu->stream, p->st)) ||
        (e = domino_launch_factor_stencil_check(gpu->stream, p->ptr, p->ind, &a, p->st)) ||
        (e = cudaMemcpyAsync(&hst, p->st, sizeof(hst), cudaMemcpyDeviceToHost, gpu->stream)) ||
        (e = cudaStreamSynchronize(gpu->stream)))
        return domino_cuda_status(h, e, fn);
    if (hst.stencil_mismatch == INT32_MAX) p->stencil = a;
    return DOMINO_SUCCESS;
}
