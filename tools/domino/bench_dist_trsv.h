/* bench_dist_trsv.h: "domino run -n N bench --suite trsv-dist": the
 * multi-GPU triangular solvers against the unified-memory baseline and the
 * single-GPU solves (cuSPARSE SpSV, domino's own) */
#ifndef DOMINO_CLI_BENCH_DIST_TRSV_H
#define DOMINO_CLI_BENCH_DIST_TRSV_H

#include <stdint.h>

/* what the suite was asked */
typedef struct dist_bench_request {
    int quick;             /* small problems */
    const char *problems;  /* comma-separated problem names, NULL = the suite's */
    const char *configs;   /* comma-separated configurations, NULL = all */
    int repeat;            /* timed solves per configuration */
    int64_t budget_mb;     /* per-GPU budget of the multi-GPU plans, 0 = none */
    const char *csv_path;  /* CSV output, NULL = none */
} dist_bench_request;

/* Run the suite on this PE (started by domino run -n N or mpirun; every
 * PE runs it).  Returns the exit code. */
int bench_dist_trsv_run(const dist_bench_request *rq);

#endif
