/* bench_engines.h: the table of triangular-solve engines the CLI can run,
 * with one run function per engine kind (CPU, GPU) */
#ifndef DOMINO_CLI_BENCH_ENGINES_H
#define DOMINO_CLI_BENCH_ENGINES_H

#include "domino.h"

/* a triangular system to solve: op(T) X = B */
typedef struct solve_problem {
    domino_matrix T;           /* the triangle, CSR, not owned */
    domino_op op;              /* N or T */
    domino_fill fill;          /* which triangle T is */
    domino_diag diag;          /* unit (T stores no diagonal) or not */
    int32_t n;                 /* rows */
    int32_t nrhs;              /* right-hand sides */
    const void *B;             /* right-hand sides, n x nrhs column-major, T's type, not owned */
    domino_matrix T_transposed;/* T^T for CPU engines without op T, made on demand, owned */
    domino_dmatrix dT;         /* T on the GPU, uploaded on first GPU run, owned */
    int is_stencil;            /* 1: T is `stencil` on an nx*ny*nz grid (structured engines run) */
    domino_stencil stencil;    /* the stencil of T */
    int32_t nx, ny, nz;        /* its grid */
    int stencil_tune;          /* 1: structured engines autotune their warps per queue */
} solve_problem;

/* release what a solve_problem owns (not T or B) */
void solve_problem_release(solve_problem *p);

/* what one engine run measured */
typedef struct engine_timing {
    double analysis_ms;  /* analysis (GPU plan), 0 for CPU engines */
    double solve_ms;     /* median solve time over the timed runs */
    double solve_ms_min; /* fastest timed run */
    double first_ms;     /* the first solve after the analysis (GPU: warm-up solve) */
    char used[32];       /* the engine that ran (what auto chose) */
} engine_timing;

/* CPU engine kinds */
typedef enum cpu_kind { CPU_SEQUENTIAL = 0, CPU_SYNCFREE = 1 } cpu_kind;

struct bench_engine;
/* Run engine e on p: with repeat 0 one solve, else a warm-up solve and
 * repeat timed solves; X (n x nrhs) receives the solution. */
typedef domino_status (*engine_run_fn)(domino_handle h, const struct bench_engine *e,
                                       solve_problem *p, int repeat, void *X, engine_timing *t);

/* one engine */
typedef struct bench_engine {
    const char *name;         /* as typed: cpu-seq, cpu-syncfree, auto, warp, ... */
    int is_gpu;               /* 1: needs a GPU */
    cpu_kind cpu;             /* which CPU solver (CPU engines) */
    domino_engine gpu_engine; /* which GPU engine (GPU engines) */
    engine_run_fn run;        /* cpu_run, gpu_run or stencil_run */
    int stencil_variant;      /* structured engines: domino_stencil_variant */
    int stencil_compact;      /* structured engines: 1 compact input, 0 CSR input */
    const char *setting;      /* "NAME=VALUE": an environment setting of the engine for the run
                                 (DOMINO_LEVELSET_LANES, DOMINO_BLOCK_SHARED), NULL: as set */
} bench_engine;

/* the engines, CPU ones first, the structured-grid ones last */
extern const bench_engine bench_engines[];
extern const int bench_engine_count;
/* engine by name ("cpu" is cpu-seq); NULL if unknown */
const bench_engine *bench_engine_find(const char *name);

domino_status cpu_run(domino_handle h, const bench_engine *e, solve_problem *p, int repeat,
                      void *X, engine_timing *t);
domino_status gpu_run(domino_handle h, const bench_engine *e, solve_problem *p, int repeat,
                      void *X, engine_timing *t);

/* The structured-grid solve (domino_dstencil_trsv) of a stencil problem;
 * DOMINO_NOT_SUPPORTED when p is not one.  No analysis: analysis_ms is 0 and
 * the time of a solve is everything from the call to the result. */
domino_status stencil_run(domino_handle h, const bench_engine *e, solve_problem *p, int repeat,
                          void *X, engine_timing *t);
/* The "spmv" row: cusparseSpMV of T (domino_gpu_spmv), X = T B, timed as
 * a solve is (the plan as its analysis); the dependency-free reference of
 * a solve of the same pattern.  DOMINO_NOT_SUPPORTED unless op N with one
 * right-hand side. */
domino_status spmv_run(domino_handle h, const bench_engine *e, solve_problem *p, int repeat,
                       void *X, engine_timing *t);
/* 1 if e is the spmv row */
int bench_engine_is_spmv(const bench_engine *e);
/* 1 if e is a structured-grid engine */
int bench_engine_is_stencil(const bench_engine *e);

/* median of count times (reorders them) */
double bench_median(double *times, int count);

#endif /* DOMINO_CLI_BENCH_ENGINES_H */
