/* trsv_plan_packed.c: domino_trsv_pack_setup, the packed walk's part of a
 * thread-engine plan (contract in trsv_plan.h): the packing made on the GPU
 * (domino_launch_pack_rows, trsv_packed.cu) into the workspace's room for
 * it; a system with a row of more than DOMINO_PACK_MAX_ROW entries is not
 * packed. */
#include "trsv_plan.h"

domino_status domino_trsv_pack_setup(domino_handle h, struct domino_gpu_context *gpu,
                                     struct domino_trsv_plan_s *p)
{
    int want = domino_env_int("DOMINO_PACKED", -1); /* 0: never, 1: always (experiments) */
    /* room for it means a thread-engine plan of one right-hand side */
    if (want == 0 || (want != 1 && p->walk_trial != 0) || !p->pack_first || p->deterministic)
        return DOMINO_SUCCESS; /* no one would take the walk */
    int32_t warps = -1;
    cudaError_t e = domino_launch_pack_rows(gpu->stream, p->n, p->eptr, p->s_upper, p->work, p->scan_tmp,
                                            p->scan_tmp_bytes, p->pack_first, &warps);
    if (e) return domino_cuda_status(h, e, "domino_trsv_analysis: packing");
    if (warps < 1) return DOMINO_SUCCESS; /* not packed */
    p->pack_warps = warps;
    p->packed = want == 1;
    if (p->packed) p->walk_trial = -1;             /* forced: no trial */
    else if (p->walk_trial == 0) p->walk_trials = 6; /* auto times it too */
    return DOMINO_SUCCESS;
}
