/* trsv_plan_packed.c: the packed walk's part of a thread-engine plan
 * (contracts in trsv_plan.h): domino_trsv_pack_setup at analysis, and
 * domino_trsv_pack_make, the packing made on the GPU (domino_launch_pack_rows,
 * trsv_packed.cu) into the workspace's room for it; a system with a row of
 * more than DOMINO_PACK_MAX_ROW entries is not packed.  AUTO's plans make it
 * when their walk trial first takes the packed walk (its third solve), so
 * that neither the analysis nor the first solve waits for it. */
#include "trsv_plan.h"

domino_status domino_trsv_pack_make(domino_handle h, struct domino_gpu_context *gpu,
                                    struct domino_trsv_plan_s *p)
{
    int32_t warps = -1;
    p->pack_pending = 0;
    cudaError_t e = domino_launch_pack_rows(gpu->stream, p->n, p->eptr, p->s_upper, p->work, p->scan_tmp,
                                            p->scan_tmp_bytes, p->pack_first, &warps);
    if (e) return domino_cuda_status(h, e, "domino_trsv: packing");
    p->pack_warps = warps < 1 ? 0 : warps; /* 0: a row too long, not packed */
    return DOMINO_SUCCESS;
}

domino_status domino_trsv_pack_setup(domino_handle h, struct domino_gpu_context *gpu,
                                     struct domino_trsv_plan_s *p)
{
    int want = domino_env_int("DOMINO_PACKED", -1); /* 0: never, 1: always (experiments) */
    /* room for it means a thread-engine plan of one right-hand side */
    if (want == 0 || (want != 1 && p->walk_trial != 0) || !p->pack_first || p->deterministic)
        return DOMINO_SUCCESS; /* no one would take the walk */
    if (want != 1) { /* auto times it too, and packs on the trial's first packed solve */
        p->pack_pending = 1;
        p->walk_trials = 6;
        return DOMINO_SUCCESS;
    }
    domino_status s = domino_trsv_pack_make(h, gpu, p);
    if (s || !p->pack_warps) return s;
    p->packed = 1; /* forced: no trial */
    p->walk_trial = -1;
    return DOMINO_SUCCESS;
}
