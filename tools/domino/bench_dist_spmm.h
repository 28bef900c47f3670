/* bench_dist_spmm.h: "domino run -n N bench --suite spmm": SpMM on GPUs,
 * one-sided (stationary-C, with random work stealing) against NCCL SUMMA and
 * single-GPU cuSPARSE */
#ifndef DOMINO_CLI_BENCH_DIST_SPMM_H
#define DOMINO_CLI_BENCH_DIST_SPMM_H

#include <stdint.h>

typedef struct spmm_bench_request {
    int quick;             /* small problems */
    const char *problems;  /* comma-separated rmat:SCALE[:EDGEFACTOR] or files, NULL = the suite's */
    const char *widths;    /* comma-separated dense widths, NULL = 128,256,512 (quick: 32) */
    int64_t tiles;         /* tiles per dimension of the one-sided algorithms, 0 = 2 x PEs */
    int repeat;            /* timed runs */
    int use_float;         /* single precision (the paper's) */
    const char *csv_path;  /* CSV output, NULL = none */
    const char *engines;   /* comma-separated one-sided algorithms and summa, NULL = all */
    int lean;              /* B made on the GPUs tile by tile, checks by C z = A (B z): no host B or C */
} spmm_bench_request;

/* every PE runs it; returns the exit code */
int bench_dist_spmm_run(const spmm_bench_request *rq);

#endif
