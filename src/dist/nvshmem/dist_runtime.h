/* dist_runtime.h: what the algorithms on NVSHMEM take from the runtime
 * beyond the public domino_dist_* calls (internal) */
#ifndef DOMINO_DIST_RUNTIME_H
#define DOMINO_DIST_RUNTIME_H

#include "domino.h"

#include <stddef.h>

/* Collective: dst[i] = the sum over PEs of their src[i], i < count (dst and
 * src symmetric device arrays of doubles; also where PEs share a GPU) */
domino_status dist_sum_doubles(domino_handle h, domino_dist D, double *dst, double *src, size_t count);

/* Collective: once every PE agrees on s (its status so far), y (host,
 * count doubles, the same on every PE) = the sum over PEs of their mine
 * (symmetric; sum: symmetric scratch of count doubles); what names the
 * caller in an error.  The end of the C x checks of the distributed
 * products. */
domino_status dist_sum_to_host(domino_handle h, domino_dist D, domino_status s, double *sum, double *mine,
                               size_t count, double *y, const char *what);

/* Collective: whether every PE's GPU has room for `bytes` more of
 * symmetric memory (with a margin; where PEs share a GPU, for all of
 * theirs); call it before a large collective allocation, since NVSHMEM's
 * heap cannot fail cleanly on one PE alone.  Free space already mapped in
 * the heap is not counted, so the check errs on the side of refusing.  It
 * also refuses a request that, with what domino_dist_malloc has handed out
 * and not yet freed, passes the heap NVSHMEM_SYMMETRIC_SIZE sets (NVSHMEM
 * 3.4 fails inside nvshmem_malloc there, with an illegal address, instead
 * of returning NULL).  what names the caller in the error. */
domino_status dist_check_room(domino_handle h, domino_dist D, size_t bytes, const char *what);

#endif
