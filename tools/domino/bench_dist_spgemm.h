/* bench_dist_spgemm.h: "domino run -n N bench --suite spgemm": C = A A on
 * GPUs, one-sided stationary-C (plain, with random and with locality-aware
 * work stealing) and stationary-A against single-GPU cuSPARSE */
#ifndef DOMINO_CLI_BENCH_DIST_SPGEMM_H
#define DOMINO_CLI_BENCH_DIST_SPGEMM_H

#include <stdint.h>

typedef struct spgemm_bench_request {
    int quick;            /* small problems */
    const char *problems; /* comma-separated rmat:SCALE[:EDGEFACTOR] or files, NULL = the suite's */
    int64_t tiles;        /* tiles per dimension, 0 = 2 x PEs */
    int repeat;           /* timed runs */
    int use_float;        /* single precision (the paper's) */
    const char *csv_path; /* CSV output, NULL = none */
} spgemm_bench_request;

/* every PE runs it; returns the exit code */
int bench_dist_spgemm_run(const spgemm_bench_request *rq);

#endif
