/* trsv_solve.c: domino_trsv_solve: the launch of a plan's engine (the
 * analysis is in trsv_plan.c, the kernels in trsv_pull.cu, trsv_push.cu,
 * trsv_levelset.cu, trsv_block.cu, stencil_trsv.cu) */
#include "trsv_plan.h"

/* which path of trsv_pull.cu: warp per row for the warp engine; the warp
 * sweep needs sorted rows (the transposed arrays always are) */
static int pull_mode(const struct domino_trsv_plan_s *p)
{
    if (p->engine == DOMINO_ENGINE_WARP) return 1;
    if (p->forced_mode == 2) return 2;
    return (p->transposed || p->dA->sorted) ? 0 : 2;
}

/* the structured-grid engine: one solve per right-hand side (synchronous;
 * a zero pivot, found by the solve, is DOMINO_ZERO_PIVOT naming the row) */
static domino_status stencil_solve(domino_handle h, domino_trsv_plan p, const void *B, int64_t ldb,
                                   void *X, int64_t ldx)
{
    size_t vs = domino_type_size(p->type);
    for (int32_t j = 0; j < p->nrhs; j++) {
        domino_status s = domino_dstencil_trsv(h, p->dstencil, p->diag, NULL,
                                               (const char *)B + (size_t)j * ldb * vs,
                                               (char *)X + (size_t)j * ldx * vs);
        if (s) return s;
    }
    return DOMINO_SUCCESS;
}

/* DOMINO_SOLVE_TRACE=1 (diagnostics): each solve's host time, by part, on
 * stderr; mark[0] entry, [1] after the deferred choice, [2] before the
 * launch (trials, packing), [3] after it, [4] after the trials' end, [5] at
 * the return (pivot read-back) */
static int solve_trace_on(void)
{
    static int on = -1;
    if (on < 0) on = domino_env_int("DOMINO_SOLVE_TRACE", 0);
    return on;
}

static void solve_trace(const struct domino_trsv_plan_s *p, domino_engine run, const double *mark, int check)
{
    fprintf(stderr,
            "solve trace: %s n %d%s: choice %.1f, trials %.1f, launch %.1f, after %.1f, read-back %.1f, total %.1f us\n",
            domino_engine_name(run), p->n, check ? " (checked)" : "", 1e6 * (mark[1] - mark[0]),
            1e6 * (mark[2] - mark[1]), 1e6 * (mark[3] - mark[2]), 1e6 * (mark[4] - mark[3]),
            1e6 * (mark[5] - mark[4]), 1e6 * (mark[5] - mark[0]));
}

domino_status domino_trsv_solve(domino_handle h, domino_trsv_plan p, const void *B, int64_t ldb,
                                void *X, int64_t ldx, int check_pivot)
{
    return domino_trsv_solve_traced(h, p, B, ldb, X, ldx, check_pivot, NULL);
}

domino_status domino_trsv_solve_traced(domino_handle h, domino_trsv_plan p, const void *B,
                                       int64_t ldb, void *X, int64_t ldx, int check_pivot,
                                       uint64_t *trace)
{
    const char *fn = "domino_trsv_solve";
    if (!p || !B || !X) return domino_error(h, DOMINO_NULL_POINTER, "%s: NULL plan, B or X", fn);
    if (p->magic != DOMINO_PLAN_MAGIC) return domino_error(h, DOMINO_INVALID_OBJECT, "%s: plan is not live", fn);
    if (p->dA->magic != DOMINO_DMATRIX_MAGIC)
        return domino_error(h, DOMINO_INVALID_OBJECT, "%s: the plan's matrix was freed", fn);
    if (ldb < p->n || ldx < p->n || ldb < 1 || ldx < 1)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: ldb %lld or ldx %lld < n %d", fn,
                            (long long)ldb, (long long)ldx, p->n);
    size_t vs = domino_type_size(p->type);
    const char *b0 = B, *b1 = b0 + ((size_t)ldb * (p->nrhs - 1) + p->n) * vs;
    const char *x0 = X, *x1 = x0 + ((size_t)ldx * (p->nrhs - 1) + p->n) * vs;
    if (p->n > 0 && b0 < x1 && x0 < b1)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: X overlaps B (GPU engines solve out of place)", fn);
    struct domino_gpu_context *gpu;
    domino_status s = domino_gpu_context_get(h, &gpu);
    if (s) return s;
    double mark[6] = {0};
    const int traced = solve_trace_on() && !trace;
    if (traced) mark[0] = domino_wtime();
    if (p->values_version != p->dA->values_version && (s = domino_trsv_prepare_values(h, gpu, p))) return s;
    /* AUTO's choice on a small system, once its thread has made it */
    if (p->deferred && !trace && (s = domino_trsv_deferred_apply(h, gpu, p, 0))) return s;
    if (p->deferred) p->solves++;
    if (traced) mark[1] = domino_wtime();
    /* the values' zero pivot, found when they were prepared: reported before
     * anything runs (X untouched), whatever check_pivot says */
    if (p->zero_pivot_row != INT32_MAX)
        return domino_error(h, DOMINO_ZERO_PIVOT, "%s: zero pivot at row %d", fn, p->zero_pivot_row);
    if (p->engine == DOMINO_ENGINE_CUSPARSE) {
        s = domino_cusparse_trsv_solve(h, gpu, p, B, ldb, X, ldx);
        if (!s && check_pivot) s = domino_cuda_status(h, cudaStreamSynchronize(gpu->stream), fn);
        return s;
    }
    if (p->engine == DOMINO_ENGINE_STENCIL) return stencil_solve(h, p, B, ldb, X, ldx);
    int unit = p->diag == DOMINO_UNIT;
    /* the thread engine on a diagonal system: no dependencies, no flags, a
     * streaming kernel (a trace wants the pull kernel's) */
    if (p->engine == DOMINO_ENGINE_THREAD && p->diagonal_only && !trace) {
        cudaError_t e = domino_launch_trsv_diagonal(gpu->stream, gpu->num_sms, p->type, p->n, p->nrhs,
                                                    p->dA->ptr, p->dA->val, unit, B, ldb, X, ldx);
        if (!e && check_pivot) e = cudaStreamSynchronize(gpu->stream);
        return domino_cuda_status(h, e, fn);
    }
    /* the engine of this solve: the plan's, or auto's trial of the step-block engine */
    domino_engine run = trace ? p->engine : domino_step_trial_begin(p, gpu->stream);
    /* the pull engines reset the status with their sentinel fill, the block
     * engine the one field it reports through: one launch fewer per solve */
    int resets_itself = run == DOMINO_ENGINE_BLOCK || run == DOMINO_ENGINE_THREAD ||
                        run == DOMINO_ENGINE_LEVELBLOCK || run == DOMINO_ENGINE_STEPBLOCK || /* report nothing */
                        run == DOMINO_ENGINE_WARP ||
                        (run == DOMINO_ENGINE_LEVELSET && !p->level_launches);
    cudaError_t e = resets_itself ? cudaSuccess : domino_launch_status_reset(gpu->stream, p->st);
    if (e) return domino_cuda_status(h, e, fn);
    /* the one-launch pull solve: this solve's flags were filled, its status
     * reset, by the solve before it (or the analysis) */
    domino_pull_flags flags = {NULL, NULL, NULL}, *one = NULL;
    domino_solve_status *st = p->st;
    if (p->flags[0] && !trace && run != DOMINO_ENGINE_STEPBLOCK &&
        !(run == DOMINO_ENGINE_LEVELSET && (p->level_launches || p->level_lanes))) {
        flags.flags = p->flags[p->flags_turn];
        flags.next_flags = p->flags[!p->flags_turn];
        flags.next_st = p->flags_st[!p->flags_turn];
        st = p->flags_st[p->flags_turn];
        one = &flags;
    }
    /* auto's walk trial packs the rows on its first packed solve (the third):
     * not packed (a row too long), its last two solves are the other walks' */
    if (!trace && run == p->engine && p->pack_pending && p->walk_trial == 2) {
        if ((s = domino_trsv_pack_make(h, gpu, p))) return s;
        if (!p->pack_warps) p->walk_trials = 4;
    }
    if (!trace && run == p->engine) domino_walk_trial_begin(p, gpu->stream); /* auto: which walk */
    if (traced) mark[2] = domino_wtime();
    switch (run) {
    case DOMINO_ENGINE_STEPBLOCK:
        e = p->step_warp ? domino_launch_trsv_stepwarp(gpu->stream, p->type, p->n, p->eptr, p->eind,
                                                       p->eval, p->s_upper, unit, p->step_loaders,
                                                       p->nrhs, B, ldb, X, ldx, p->step_profile)
                         : domino_launch_trsv_stepblock(gpu->stream, p->type, p->n, p->eptr, p->eind,
                                                        p->eval, p->s_upper, unit, p->step_groups,
                                                        p->nrhs, B, ldb, X, ldx);
        break;
    case DOMINO_ENGINE_BLOCK:
        e = domino_launch_trsv_block(gpu->stream, p->type, p->n, p->eptr, p->eind, p->eval,
                                     p->s_upper, unit, p->block_lanes, p->block_threads,
                                     p->block_shared, p->nrhs, B,
                                     ldb, X, ldx, p->max_wait_ns, p->backoff_ns, p->st);
        break;
    case DOMINO_ENGINE_LEVELSET:
        /* rows in level order, one synchronization-free launch, thread per
         * row (mode 3), or groups of lanes per row with DOMINO_LEVELSET_LANES;
         * DOMINO_LEVELSET_LAUNCHES=1 runs one launch per level */
        if (p->level_launches)
            e = domino_launch_trsv_levelset(gpu->stream, p->type, p->n, p->eptr, p->eind, p->eval,
                                            p->s_upper, unit, p->nrhs, B, ldb, X, ldx,
                                            p->level_rows, p->nlevels, p->level_ptr_host,
                                            p->avg_row_len);
        else if (!p->level_lanes)
            e = domino_launch_trsv_pull(gpu->stream, p->type, p->n, p->eptr, p->eind, p->eval,
                                        p->s_upper, unit, 3, p->nrhs, B, ldb, X, ldx,
                                        p->max_wait_ns, p->backoff_ns, st, p->level_rows, p->tune,
                                        NULL, one);
        else
            e = domino_launch_trsv_pull_groups(gpu->stream, p->type, p->n, p->eptr, p->eind, p->eval,
                                               p->s_upper, unit, p->level_lanes, p->nrhs, B, ldb, X, ldx,
                                               p->max_wait_ns, p->backoff_ns, p->st, p->level_rows);
        break;
    case DOMINO_ENGINE_LEVELBLOCK:
        e = domino_launch_trsv_levelblock(gpu->stream, p->type, &p->lb, p->nrhs, B, ldb, X, ldx);
        break;
    case DOMINO_ENGINE_CSC:
        e = domino_launch_trsv_push(gpu->stream, p->type, p->n, p->eptr, p->eind, p->eval,
                                    p->s_upper, unit, B, X, p->in_degree, p->done_count,
                                    p->left_sum, 0, p->max_wait_ns, p->push_chunk, p->st);
        break;
    default:
        if (run == DOMINO_ENGINE_THREAD && p->packed && p->pack_warps > 0 && !trace) {
            e = domino_launch_trsv_packed(gpu->stream, p->type, p->n, p->pack_warps, p->pack_first,
                                          p->eptr, p->eind, p->eval, p->s_upper, unit, B, X,
                                          p->max_wait_ns, p->backoff_ns, st, one);
            break;
        }
        e = domino_launch_trsv_pull(gpu->stream, p->type, p->n, p->eptr, p->eind, p->eval,
                                    p->s_upper, unit, pull_mode(p),
                                    p->nrhs, B, ldb, X, ldx, p->max_wait_ns, p->backoff_ns, st, NULL,
                                    p->tune, trace, one);
        break;
    }
    if (e && run == DOMINO_ENGINE_STEPBLOCK && run != p->engine) {
        /* auto's trial launch failed: the trial ends, the plan's engine solves */
        (void)cudaGetLastError();
        p->step_trial = -1;
        return domino_trsv_solve_traced(h, p, B, ldb, X, ldx, check_pivot, trace);
    }
    if (e) return domino_cuda_status(h, e, fn);
    if (traced) mark[3] = domino_wtime();
    if (one) p->flags_turn = !p->flags_turn;
    if (!trace && run == p->engine) domino_walk_trial_end(p, gpu->stream);
    if (!trace) domino_step_trial_end(p, gpu->stream);
    if (run == DOMINO_ENGINE_STEPBLOCK && p->step_warp && p->step_profile &&
        (e = domino_stepwarp_profile_report(gpu->stream)))
        return domino_cuda_status(h, e, fn);
    if (traced) mark[4] = domino_wtime();
    if (run == DOMINO_ENGINE_STEPBLOCK) /* no waits, nothing reported; check_pivot synchronizes */
        return check_pivot ? domino_cuda_status(h, cudaStreamSynchronize(gpu->stream), fn) : DOMINO_SUCCESS;
    if (check_pivot || p->max_wait_ns > 0) {
        domino_solve_status hst;
        if ((e = domino_solve_status_read(gpu, st, &hst))) return domino_cuda_status(h, e, fn);
        if (hst.timeout_row != INT32_MAX)
            return domino_error(h, DOMINO_TIMEOUT, "%s: row %d waited more than %lld ms for a dependency",
                                fn, hst.timeout_row, (long long)(p->max_wait_ns / 1000000));
    }
    if (traced) {
        mark[5] = domino_wtime();
        solve_trace(p, run, mark, check_pivot);
    }
    return DOMINO_SUCCESS;
}

