/* bench_dist_common.h: the start of the distributed suites (spmm,
 * spgemm): joining the run and measuring the get bandwidth */
#ifndef DOMINO_CLI_BENCH_DIST_COMMON_H
#define DOMINO_CLI_BENCH_DIST_COMMON_H

#include "domino.h"

#ifdef DOMINO_HAVE_NVSHMEM
/* a handle in *h, the joined run in *D, the one-sided get bandwidth (GB/s,
 * 64 MiB from the next PE) in *gbs; 0, or the suite's exit code with the
 * reason on stderr and nothing left to free */
int bench_dist_begin(const char *suite, domino_handle *h, domino_dist *D, double *gbs);
#endif

#endif
