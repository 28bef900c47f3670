/* onesided.h: the one-sided communication layer the distributed algorithms
 * are written against (internal).  One implementation per backend: MPI-3
 * one-sided communication on CPUs (src/dist/mpi, passive target, library
 * domino_mpi) and NVSHMEM on GPUs (later).  Every rank exposes a window of
 * its own memory; others read it with gets (blocking or started and waited
 * for), update counters with fetch-and-add and add into others' values
 * with accumulate; nobody writes another rank's window otherwise.  Errors are statuses with a message naming the rank; a
 * rank that must give up calls os_abort, which ends every rank. */
#ifndef DOMINO_ONESIDED_H
#define DOMINO_ONESIDED_H

#include "internal.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct os_world os_world;     /* the ranks of a run */
typedef struct os_window os_window;   /* memory every rank exposes */
typedef struct os_request os_request; /* a get under way */

/* join the run (MPI: initializes MPI when the caller has not) */
domino_status os_world_init(domino_handle h, os_world **w);
int os_rank(const os_world *w);
int os_size(const os_world *w);
domino_status os_barrier(domino_handle h, os_world *w);
/* element-wise sum of v[0..count) over the ranks, on every rank (collective) */
domino_status os_allreduce_i64(domino_handle h, os_world *w, int64_t *v, int count);
/* element-wise sum (take_max 0) or maximum (1) of v[0..count) over the
 * ranks, on every rank (collective) */
domino_status os_allreduce_f64(domino_handle h, os_world *w, double *v, int count, int take_max);
/* Groups for the bulk-synchronous baselines (SUMMA): the ranks of one row
 * or one column of a process grid.  Collective over the world: ranks that
 * pass the same color form a group, ordered by key. */
typedef struct os_group os_group;
domino_status os_group_split(domino_handle h, os_world *w, int color, int key, os_group **g);
int os_group_rank(const os_group *g);
int os_group_size(const os_group *g);
/* bytes of buf from the group's rank root to every rank of the group */
domino_status os_bcast(domino_handle h, os_group *g, void *buf, size_t bytes, int root);
void os_group_free(os_group *g);
/* leave the run (MPI: finalizes MPI when os_world_init initialized it) */
domino_status os_world_finalize(domino_handle h, os_world *w);
/* end every rank at once with this exit code, the reason on stderr */
void os_abort(os_world *w, int code, const char *why);

/* Collective: this rank exposes `bytes` (ranks may differ), zeroed; *local
 * is its own part, written with plain stores then published with
 * os_window_sync before the others read it. */
domino_status os_window_create(domino_handle h, os_world *w, size_t bytes, os_window **win,
                               void **local);
/* make this rank's plain stores to its part visible to the others' gets */
domino_status os_window_sync(domino_handle h, os_window *win);
/* collective */
domino_status os_window_free(domino_handle h, os_window *win);

/* bytes at byte offset off of rank's part into dst (blocking) */
domino_status os_get(domino_handle h, os_window *win, int rank, size_t off, void *dst, size_t bytes);
/* the same, started: dst is filled once os_wait returns */
domino_status os_get_start(domino_handle h, os_window *win, int rank, size_t off, void *dst,
                           size_t bytes, os_request **req);
domino_status os_wait(domino_handle h, os_request *req);
/* atomically add `add` to the int64 at byte offset off of rank's part; *old
 * (may be NULL) gets the value before */
domino_status os_fetch_add(domino_handle h, os_window *win, int rank, size_t off, int64_t add,
                           int64_t *old);

/* atomically add count values of type t (double or float) at src to rank's
 * part from byte offset off (element-wise; the order of concurrent adds is
 * not fixed, so sums may differ in the last bits from run to run) */
domino_status os_accumulate_sum(domino_handle h, os_window *win, int rank, size_t off,
                                const void *src, size_t count, domino_type t);

#ifdef __cplusplus
}
#endif
#endif
