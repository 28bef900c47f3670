/* dist_runtime.h: what the algorithms on NVSHMEM take from the runtime
 * beyond the public domino_dist_* calls (internal) */
#ifndef DOMINO_DIST_RUNTIME_H
#define DOMINO_DIST_RUNTIME_H

#include "domino.h"

#include <stddef.h>

/* Collective: dst[i] = the sum over PEs of their src[i], i < count (dst and
 * src symmetric device arrays of doubles; also where PEs share a GPU) */
domino_status dist_sum_doubles(domino_handle h, domino_dist D, double *dst, double *src, size_t count);

#endif
