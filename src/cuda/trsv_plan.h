/* trsv_plan.h: the plan of a GPU triangular solve (internal) */
#ifndef DOMINO_TRSV_PLAN_H
#define DOMINO_TRSV_PLAN_H

#include "stencil_gpu.h"
#include "trsv_level_order.h"

#define DOMINO_PLAN_MAGIC 0x646f6d696e6f5031ULL

/* The system S = op(T), T the fill triangle of dA.  The engines see either
 * CSR(S) ("pull") or CSC(S) ("push"); the caller's arrays hold one of them
 * directly, the other is made by a stable transpose in the analysis. */
struct domino_trsv_plan_s {
    uint64_t magic;            /* DOMINO_PLAN_MAGIC while alive */
    domino_engine engine;      /* engine that runs (never AUTO) */
    domino_op op;              /* as asked */
    domino_fill fill;          /* as asked */
    domino_diag diag;          /* as asked */
    int32_t nrhs;              /* right-hand sides the plan was made for */
    int32_t n;                 /* order of S */
    domino_type type;          /* value type */
    domino_dmatrix dA;         /* the caller's matrix, not owned */
    int64_t values_version;    /* dA->values_version the derived data match */
    int deterministic;         /* asked for bitwise-reproducible results */
    int64_t max_wait_ns;       /* bound on a dependency wait, 0 = none */
    int forced_mode;           /* DOMINO_PULL_MODE=2 forces thread per row (experiments), else -1 */
    int level_launches;        /* level-set engine: one launch per level (else one sync-free launch) */
    int level_lanes;           /* level-set engine: 0 = thread per row; lanes per row, 4, 8, 16 or 32,
                                  from DOMINO_LEVELSET_LANES (a number, or "auto": from the levels,
                                  domino_dist_pull_lanes); not yet the default: unmeasured */
    int block_lanes;           /* block engine: lanes per row (2-32; DOMINO_BLOCK_LANES, else
                                  from the average row length) */
    int block_shared;          /* block engine: 1 x in shared memory, 0 in X (n too large, or
                                  DOMINO_BLOCK_SHARED=0) */
    int block_threads;         /* block engine: threads of its block (128-1024; DOMINO_BLOCK_THREADS,
                                  else from the levels) */
    domino_pull_tuning tune;   /* thread engine's thresholds (DOMINO_LONG_ROW, DOMINO_SWEEP_MAX_ROW,
                                  DOMINO_SWEEP_MIN_CHAINED, DOMINO_OVERLAP_FILL; defaults in
                                  trsv_plan.c) */
    unsigned backoff_ns;       /* sleep of a pull warp that made no progress (DOMINO_BACKOFF_NS) */
    int push_chunk;            /* CSC engine: a column pushed in rounds of this many entries,
                                  doubled each round (DOMINO_PUSH_CHUNK, experiments; 0: one;
                                  default DOMINO_PUSH_CHUNK_DEFAULT) */
    int s_upper;               /* S is upper triangular */
    int arrays_are_csr_of_s;   /* dA's arrays are CSR(S) (else CSC(S)) */
    /* the arrays the engine reads (CSR(S) for pull engines, CSC(S) for push) */
    const int64_t *eptr;       /* offsets, n+1 */
    const int32_t *eind;       /* indices */
    const void *eval;          /* values */
    int transposed;            /* 1: e* are the owned transposed arrays below */
    int copied;                /* 1: e* are the owned arrays below holding a copy of the caller's
                                  CSR(S) restricted to S's triangle, upper rows reversed (pull
                                  engines, when S is upper or the arrays hold the other triangle) */
    int64_t *tptr;             /* owned transposed (or copied) offsets, n+1 (or NULL) */
    int32_t *tind;             /* owned transposed (or copied) indices, dA->nnz bound */
    void *tval;                /* owned transposed (or copied) values */
    void *copy_alloc;          /* the copy's arrays when the plan allocated them apart */
    int64_t *work;             /* n+1 int64 scratch */
    void *scan_tmp;            /* cub scan scratch */
    size_t scan_tmp_bytes;     /* its size */
    domino_solve_status *st;   /* device status record */
    /* one-launch pull solve (domino_pull_flags; NULL when not used) */
    void *flags[2];            /* n values each: the ready flags of alternate solves */
    domino_solve_status *flags_st[2]; /* the status of each */
    int flags_turn;            /* the next solve publishes into flags[flags_turn] */
    /* the thread engine's packed walk (trsv_packed.cu, trsv_plan_packed.c) */
    int32_t *pack_first;       /* the packing, in the workspace (n + 1 values; thread engine of
                                  one right-hand side on at most DOMINO_PACK_MAX_ROWS rows,
                                  trsv_plan.c; else NULL): warp w holds logical rows
                                  pack_first[w] .. pack_first[w + 1] - 1 */
    int32_t pack_warps;        /* warps of the packing; 0: not packed */
    int pack_pending;          /* 1: AUTO's walk trial packs on its first packed solve */
    int packed;                /* 1: solves take the packed walk */
    /* auto's choice of the thread engine's walk (trsv_walk_trial.c) */
    int walk_trial;            /* the next trial solve, 0 to walk_trials - 1; walk_trials: the
                                  choice is pending; -1: no trial (not auto, deterministic,
                                  DOMINO_ANY_ORDER set) or made */
    int walk_trials;           /* 4 (stored, arrival order) or 6 (and packed) */
    cudaEvent_t trial_ev[6][2]; /* start and end of each trial solve (NULL until made) */
    /* auto's choice between the thread and step-block engines (trsv_step_trial.c) */
    int step_trial;            /* 0: time the next solve (thread); 1: its time pending, then a
                                  step-block solve; 2: that one's time pending; -1: no trial (not
                                  auto on the thread engine, deterministic, DOMINO_STEP_TRIAL=0)
                                  or decided (the engine is then set) */
    int step_timing;           /* the event pair the solve under way records, -1 none */
    float step_thread_ms;      /* the thread engine's timed solve */
    cudaEvent_t step_ev[2][2]; /* start and end of the two timed solves (NULL until made) */
    int step_groups;           /* step-block engine: loader groups, 1-3 (DOMINO_STEPBLOCK_GROUPS,
                                  default 3) */
    int step_warp;             /* 1: its one-warp kernel (trsv_stepwarp.cu, the default), 0: the
                                  256-thread one (DOMINO_STEPBLOCK_WARP=0) */
    int step_loaders;          /* the one-warp kernel's loader warps, 1-15 (DOMINO_STEPBLOCK_LOADERS,
                                  default 15; other values become 15) */
    int step_profile;          /* the variant reports where its cycles went after each solve
                                  (DOMINO_STEPBLOCK_PROFILE=1, experiments) */
    /* CSC push */
    int32_t *in_degree;        /* strict entries per row of S, n */
    int32_t *done_count;       /* producers finished per row, n */
    double *left_sum;          /* accumulated partial sums, n */
    /* level sets */
    int32_t *row_level;        /* level of each row, n */
    int32_t *level_rows;       /* rows by level, n */
    int64_t *level_count;      /* 2(n+1) scratch, then level offsets */
    int32_t nlevels;           /* number of levels */
    int64_t *level_ptr_host;   /* level offsets on the host, nlevels+1 */
    double avg_row_len;        /* nnz / n of the arrays */
    /* level-block engine (trsv_levelblock.cu; its order made on the host,
     * trsv_level_order.c, from the caller's arrays, never transposed) */
    domino_levelblock_args lb; /* the device copy of the order and the launch shape */
    int64_t lb_m;              /* entries of the order */
    const int32_t *lb_src;     /* index in dA's values of each entry, lb_m */
    /* structured-grid engine */
    domino_dstencil dstencil;  /* the stencil found in the analysis: a compact copy made
                                  from dA's arrays (scattered when they hold S's transpose) */
    int64_t tnnz;              /* entries of the transposed arrays */
    /* cuSPARSE baseline */
    int32_t *ptr32;            /* 32-bit offsets for cuSPARSE */
    void *cusparse_plan;       /* struct in trsv_cusparse.c */
    /* bookkeeping */
    int32_t zero_pivot_row;    /* smallest zero pivot (non-unit), INT32_MAX if none */
    int diagonal_only;         /* every row holds exactly its diagonal entry (nnz = n, none
                                  missing): the thread engine solves it by scaling
                                  (trsv_diagonal.cu) */
    /* AUTO's choice on a small system, made beside the first solves (trsv_plan_deferred.c) */
    struct trsv_deferred *deferred; /* the job making it; NULL: none, or applied */
    struct domino_defer_pool *defer_pool; /* the pool taken for it, until the job holds it */
    size_t lb_room[3];         /* workspace offsets kept for the level-block order's block,
                                  values and diagonal (domino_levelblock_setup) */
    int solves;                /* solves launched while the choice was pending */
    double analysis_seconds;   /* wall time of the analysis */
    void *buffer;              /* workspace (caller's or owned) */
    int owns_buffer;           /* 1: buffer is freed with the plan */
};

/* the plan's work that depends on dA's values (trsv_plan.c): the transpose
 * or triangle copy, the diagonal check, the engine's preparation; the
 * solve calls it again after domino_dmatrix_update_values */
domino_status domino_trsv_prepare_values(domino_handle h, struct domino_gpu_context *gpu,
                                         struct domino_trsv_plan_s *p);

/* the level-block engine's part of the plan (trsv_plan_levelblock.c):
 * may a plan of engine `asked` on dA take it (forced, or AUTO on a small
 * system with one right-hand side; sizing = 1: whatever the device's
 * shared memory, for domino_trsv_buffer_size); AUTO's choice (*engine
 * THREAD or LEVELBLOCK in, LEVELBLOCK out when it takes it, the order then
 * made in *order, else *order is empty); the order to the plan's
 * workspace (block, val, diag) and the launch shape in p->lb */
int domino_levelblock_possible(domino_engine asked, domino_dmatrix dA, int32_t nrhs, int sizing);
/* AUTO's rule: does the level-block engine pay for n rows in nlevels levels? */
int domino_levelblock_pays(int32_t n, int32_t nlevels);
/* dA's pattern on the host (AUTO on a small system: read by the stencil
 * detection's samples and the level count, downloaded once) */
typedef struct domino_host_pattern {
    int64_t *ptr;   /* offsets, nrows + 1; NULL: not downloaded */
    int32_t *ind;   /* indices, nnz */
    int staged;     /* 1: both in the context's staging buffer (not freed) */
    double seconds; /* the download's time */
} domino_host_pattern;
domino_status domino_host_pattern_get(domino_handle h, struct domino_gpu_context *gpu,
                                      domino_dmatrix dA, domino_host_pattern *pat);
void domino_host_pattern_release(domino_host_pattern *pat);
/* (pat: dA's pattern on the host, or NULL: downloaded here) */
domino_status domino_levelblock_choose(domino_handle h, struct domino_gpu_context *gpu,
                                       domino_dmatrix dA, domino_engine asked, int csr_of_s,
                                       int s_upper, const domino_host_pattern *pat,
                                       domino_engine *engine, trsv_level_order *order);
domino_status domino_levelblock_setup(domino_handle h, struct domino_gpu_context *gpu,
                                      struct domino_trsv_plan_s *p, char *block, void *val,
                                      void *diag, const trsv_level_order *o);
/* dA's values gathered into the order's (p->lb.val, p->lb.diag), synchronized */
domino_status domino_levelblock_values(domino_handle h, struct domino_gpu_context *gpu,
                                       struct domino_trsv_plan_s *p);

/* AUTO's choice on a small system beside its first solves
 * (trsv_plan_deferred.c): the pinned bytes its download takes
 * (domino_defer_pool_take, into p->defer_pool, before the analysis
 * decides); its start (the plan set up on the thread engine with room for
 * the level-block order at p->lb_room: the download and the host function
 * queued on the pool's side stream); its application from a solve (before
 * the launch: nothing while it runs, unless DOMINO_DEFER_WAIT_SOLVES
 * solves have gone by or force is set, domino_trsv_plan_settle; then the
 * stencil candidates verified and the plan moved to the engine chosen);
 * and, from domino_trsv_plan_free, the wait for it and its findings
 * dropped */
size_t domino_trsv_deferred_bytes(domino_dmatrix dA);
domino_status domino_trsv_deferred_start(domino_handle h, struct domino_trsv_plan_s *p);
domino_status domino_trsv_deferred_apply(domino_handle h, struct domino_gpu_context *gpu,
                                         struct domino_trsv_plan_s *p, int force);
void domino_trsv_deferred_free(struct domino_trsv_plan_s *p);

/* the events of auto's trials (trsv_walk_trial.c): count made into ev
 * (NULL where one failed, the error cleared; -1 then, else 0), and
 * destroyed (the NULL ones skipped) */
int domino_trial_events_make(cudaEvent_t *ev, int count);
void domino_trial_events_free(cudaEvent_t *ev, int count);
/* auto's walk trial (trsv_walk_trial.c): before a solve's launch (sets
 * p->tune.any_order), after it, and the plan's events freed */
void domino_walk_trial_begin(struct domino_trsv_plan_s *p, cudaStream_t stream);
void domino_walk_trial_end(struct domino_trsv_plan_s *p, cudaStream_t stream);
void domino_walk_trial_free(struct domino_trsv_plan_s *p);
/* the packed walk's warps (trsv_plan_packed.c), set up once the triangle
 * is in place, for an auto plan on the thread engine with room for them
 * (one right-hand side, at most DOMINO_PACK_MAX_ROWS rows) that is not
 * deterministic, unless DOMINO_PACKED=0: AUTO's made on the walk trial's
 * first packed solve; DOMINO_PACKED=1 makes them now and every solve of a
 * thread-engine plan take the walk */
domino_status domino_trsv_pack_setup(domino_handle h, struct domino_gpu_context *gpu,
                                     struct domino_trsv_plan_s *p);
/* the packing made now (p->pack_warps 0 when a row is too long), from the
 * trial's solve that first takes the packed walk or a forced setup */
domino_status domino_trsv_pack_make(domino_handle h, struct domino_gpu_context *gpu,
                                    struct domino_trsv_plan_s *p);
/* auto's engine trial (trsv_step_trial.c): the engine the solve about to
 * launch runs (call before the launch), the end of a timed solve (after a
 * successful launch), the events */
domino_engine domino_step_trial_begin(struct domino_trsv_plan_s *p, cudaStream_t stream);
void domino_step_trial_end(struct domino_trsv_plan_s *p, cudaStream_t stream);
void domino_step_trial_free(struct domino_trsv_plan_s *p);

/* cuSPARSE engine (trsv_cusparse.c) */
domino_status domino_cusparse_trsv_analysis(domino_handle h, struct domino_gpu_context *gpu,
                                            struct domino_trsv_plan_s *p);
domino_status domino_cusparse_trsv_solve(domino_handle h, struct domino_gpu_context *gpu,
                                         struct domino_trsv_plan_s *p, const void *B, int64_t ldb,
                                         void *X, int64_t ldx);
domino_status domino_cusparse_trsv_update(domino_handle h, struct domino_gpu_context *gpu,
                                          struct domino_trsv_plan_s *p);
void domino_cusparse_trsv_free(struct domino_trsv_plan_s *p);

/* domino_trsv_solve, the thread engine recording into the device array
 * trace (n values, NULL: none) the GPU clock when each row is published
 * (domino_trsv_trace; the other engines ignore it) */
domino_status domino_trsv_solve_traced(domino_handle h, domino_trsv_plan p, const void *B,
                                       int64_t ldb, void *X, int64_t ldx, int check_pivot,
                                       uint64_t *trace);

#endif
