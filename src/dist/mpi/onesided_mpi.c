/* onesided_mpi.c: the one-sided layer on MPI-3 (passive target): windows
 * from MPI_Win_allocate, one lock_all epoch for a window's life, gets with
 * MPI_Get / MPI_Rget and a flush, counters with MPI_Fetch_and_op */
#include "dist/onesided.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct os_world {
    MPI_Comm comm;    /* a duplicate of MPI_COMM_WORLD */
    int rank, size;   /* this rank, ranks */
    int initialized;  /* 1: os_world_init called MPI_Init, finalize ends MPI */
};

struct os_window {
    os_world *w;      /* its run */
    MPI_Win win;      /* the MPI window, locked (all) from creation to free */
    void *base;       /* this rank's part */
};

struct os_request {
    MPI_Request req;  /* the MPI_Rget */
    int rank;         /* target, for messages */
};

/* a status for an MPI error code, naming the call and the rank */
static domino_status mpi_status(domino_handle h, int code, const char *what, int rank)
{
    if (code == MPI_SUCCESS) return DOMINO_SUCCESS;
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(code, text, &len);
    return domino_error(h, DOMINO_DEVICE_ERROR, "%s (rank %d): %s", what, rank, text);
}

domino_status os_world_init(domino_handle h, os_world **out)
{
    int up = 0, provided = 0;
    if (!out) return domino_error(h, DOMINO_NULL_POINTER, "os_world_init: w is NULL");
    *out = NULL;
    os_world *w = domino_calloc(1, sizeof(*w));
    if (!w) return domino_error(h, DOMINO_OUT_OF_MEMORY, "os_world_init: out of memory");
    MPI_Initialized(&up);
    if (!up) {
        if (MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
            domino_free(w);
            return domino_error(h, DOMINO_DEVICE_ERROR, "os_world_init: MPI_Init_thread failed");
        }
        w->initialized = 1;
    }
    int code = MPI_Comm_dup(MPI_COMM_WORLD, &w->comm);
    if (code == MPI_SUCCESS) {
        MPI_Comm_set_errhandler(w->comm, MPI_ERRORS_RETURN);
        MPI_Comm_rank(w->comm, &w->rank);
        MPI_Comm_size(w->comm, &w->size);
    } else {
        if (w->initialized) MPI_Finalize();
        domino_free(w);
        return mpi_status(h, code, "os_world_init: MPI_Comm_dup", -1);
    }
    *out = w;
    return DOMINO_SUCCESS;
}

int os_rank(const os_world *w) { return w ? w->rank : -1; }
int os_size(const os_world *w) { return w ? w->size : 0; }

domino_status os_barrier(domino_handle h, os_world *w)
{
    return mpi_status(h, MPI_Barrier(w->comm), "os_barrier", w->rank);
}

domino_status os_allreduce_i64(domino_handle h, os_world *w, int64_t *v, int count)
{
    return mpi_status(h, MPI_Allreduce(MPI_IN_PLACE, v, count, MPI_INT64_T, MPI_SUM, w->comm),
                      "os_allreduce_i64", w->rank);
}

domino_status os_allreduce_f64(domino_handle h, os_world *w, double *v, int count, int take_max)
{
    return mpi_status(h, MPI_Allreduce(MPI_IN_PLACE, v, count, MPI_DOUBLE, take_max ? MPI_MAX : MPI_SUM,
                                       w->comm), "os_allreduce_f64", w->rank);
}

struct os_group {
    MPI_Comm comm;    /* the ranks of one color */
    int rank, size;   /* this rank in it, its ranks */
    int world_rank;   /* for messages */
};

domino_status os_group_split(domino_handle h, os_world *w, int color, int key, os_group **out)
{
    if (!out) return domino_error(h, DOMINO_NULL_POINTER, "os_group_split: g is NULL");
    *out = NULL;
    os_group *g = domino_calloc(1, sizeof(*g));
    /* every rank takes part in the split, even one out of memory */
    int code = MPI_Comm_split(w->comm, g ? color : MPI_UNDEFINED, key, g ? &g->comm : &(MPI_Comm){0});
    if (!g) return domino_error(h, DOMINO_OUT_OF_MEMORY, "os_group_split: out of memory (rank %d)", w->rank);
    if (code != MPI_SUCCESS) {
        domino_free(g);
        return mpi_status(h, code, "os_group_split", w->rank);
    }
    MPI_Comm_set_errhandler(g->comm, MPI_ERRORS_RETURN);
    MPI_Comm_rank(g->comm, &g->rank);
    MPI_Comm_size(g->comm, &g->size);
    g->world_rank = w->rank;
    *out = g;
    return DOMINO_SUCCESS;
}

int os_group_rank(const os_group *g) { return g ? g->rank : -1; }
int os_group_size(const os_group *g) { return g ? g->size : 0; }

domino_status os_bcast(domino_handle h, os_group *g, void *buf, size_t bytes, int root)
{
    /* in pieces that an int count can say */
    const size_t piece = (size_t)1 << 30;
    for (size_t at = 0; at < bytes; at += piece) {
        size_t len = bytes - at < piece ? bytes - at : piece;
        int code = MPI_Bcast((char *)buf + at, (int)len, MPI_BYTE, root, g->comm);
        if (code != MPI_SUCCESS) return mpi_status(h, code, "os_bcast", g->world_rank);
    }
    return DOMINO_SUCCESS;
}

void os_group_free(os_group *g)
{
    if (!g) return;
    MPI_Comm_free(&g->comm);
    domino_free(g);
}

domino_status os_world_finalize(domino_handle h, os_world *w)
{
    if (!w) return DOMINO_SUCCESS;
    int code = MPI_Comm_free(&w->comm);
    if (w->initialized && code == MPI_SUCCESS) code = MPI_Finalize();
    int rank = w->rank;
    domino_free(w);
    return mpi_status(h, code, "os_world_finalize", rank);
}

void os_abort(os_world *w, int code, const char *why)
{
    fprintf(stderr, "rank %d of %d gives up: %s\n", w ? w->rank : -1, w ? w->size : 0,
            why ? why : "(no reason given)");
    fflush(stderr);
    MPI_Abort(w ? w->comm : MPI_COMM_WORLD, code ? code : 1);
}

domino_status os_window_create(domino_handle h, os_world *w, size_t bytes, os_window **out,
                               void **local)
{
    if (!out || !local) return domino_error(h, DOMINO_NULL_POINTER, "os_window_create: NULL argument");
    *out = NULL;
    *local = NULL;
    /* every rank allocates the window, even one without memory for its
     * handle, and then all agree: a rank that returned early would leave
     * the others in a collective call */
    os_window *win = domino_calloc(1, sizeof(*win));
    MPI_Win mw = MPI_WIN_NULL;
    void *base = NULL;
    int code = MPI_Win_allocate((MPI_Aint)(bytes ? bytes : 1), 1, MPI_INFO_NULL, w->comm, &base, &mw);
    if (code != MPI_SUCCESS) {
        domino_free(win);
        return mpi_status(h, code, "os_window_create", w->rank);
    }
    memset(base, 0, bytes ? bytes : 1);
    MPI_Win_set_errhandler(mw, MPI_ERRORS_RETURN);
    code = MPI_Win_lock_all(MPI_MODE_NOCHECK, mw);
    int mine = win != NULL, ok = mine && code == MPI_SUCCESS, all = 0;
    MPI_Win_sync(mw);
    /* every part zeroed before anyone reads one, and every rank ready */
    int agreed = MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, w->comm);
    if (agreed != MPI_SUCCESS || !all) {
        if (code == MPI_SUCCESS) MPI_Win_unlock_all(mw);
        MPI_Win_free(&mw);
        domino_free(win);
        if (agreed != MPI_SUCCESS) return mpi_status(h, agreed, "os_window_create: agreement", w->rank);
        if (code != MPI_SUCCESS) return mpi_status(h, code, "os_window_create: lock", w->rank);
        return domino_error(h, DOMINO_OUT_OF_MEMORY, "os_window_create: rank %d: %s", w->rank,
                            mine ? "another rank ran out of memory" : "out of memory");
    }
    win->w = w;
    win->win = mw;
    win->base = base;
    *out = win;
    *local = base;
    return DOMINO_SUCCESS;
}

domino_status os_window_sync(domino_handle h, os_window *win)
{
    return mpi_status(h, MPI_Win_sync(win->win), "os_window_sync", win->w->rank);
}

domino_status os_window_free(domino_handle h, os_window *win)
{
    if (!win) return DOMINO_SUCCESS;
    int rank = win->w->rank;
    int code = MPI_Win_unlock_all(win->win);
    if (code == MPI_SUCCESS) code = MPI_Win_free(&win->win);
    domino_free(win);
    return mpi_status(h, code, "os_window_free", rank);
}

/* rank inside the run, else an error naming it */
static domino_status check_target(domino_handle h, const os_window *win, int rank, const char *what)
{
    if (rank < 0 || rank >= win->w->size)
        return domino_error(h, DOMINO_INVALID_VALUE, "%s: rank %d outside 0..%d", what, rank,
                            win->w->size - 1);
    return DOMINO_SUCCESS;
}

domino_status os_get(domino_handle h, os_window *win, int rank, size_t off, void *dst, size_t bytes)
{
    domino_status s = check_target(h, win, rank, "os_get");
    if (s || bytes == 0) return s;
    int code = MPI_Get(dst, (int)bytes, MPI_BYTE, rank, (MPI_Aint)off, (int)bytes, MPI_BYTE, win->win);
    if (code == MPI_SUCCESS) code = MPI_Win_flush(rank, win->win);
    return mpi_status(h, code, "os_get", win->w->rank);
}

domino_status os_get_start(domino_handle h, os_window *win, int rank, size_t off, void *dst,
                           size_t bytes, os_request **out)
{
    if (!out) return domino_error(h, DOMINO_NULL_POINTER, "os_get_start: req is NULL");
    *out = NULL;
    domino_status s = check_target(h, win, rank, "os_get_start");
    if (s) return s;
    os_request *r = domino_calloc(1, sizeof(*r));
    if (!r) return domino_error(h, DOMINO_OUT_OF_MEMORY, "os_get_start: out of memory");
    r->rank = rank;
    int code = MPI_Rget(dst, (int)bytes, MPI_BYTE, rank, (MPI_Aint)off, (int)bytes, MPI_BYTE,
                        win->win, &r->req);
    if (code != MPI_SUCCESS) {
        domino_free(r);
        return mpi_status(h, code, "os_get_start", win->w->rank);
    }
    *out = r;
    return DOMINO_SUCCESS;
}

domino_status os_wait(domino_handle h, os_request *r)
{
    if (!r) return domino_error(h, DOMINO_NULL_POINTER, "os_wait: req is NULL");
    int code = MPI_Wait(&r->req, MPI_STATUS_IGNORE), rank = r->rank;
    domino_free(r);
    return mpi_status(h, code, "os_wait (get from a rank)", rank);
}

domino_status os_fetch_add(domino_handle h, os_window *win, int rank, size_t off, int64_t add,
                           int64_t *old)
{
    int64_t before = 0;
    domino_status s = check_target(h, win, rank, "os_fetch_add");
    if (s) return s;
    int code = MPI_Fetch_and_op(&add, &before, MPI_INT64_T, rank, (MPI_Aint)off, MPI_SUM, win->win);
    if (code == MPI_SUCCESS) code = MPI_Win_flush(rank, win->win);
    if (old) *old = before;
    return mpi_status(h, code, "os_fetch_add", win->w->rank);
}

domino_status os_accumulate_sum(domino_handle h, os_window *win, int rank, size_t off,
                                const void *src, size_t count, domino_type t)
{
    domino_status s = check_target(h, win, rank, "os_accumulate_sum");
    if (s || count == 0) return s;
    MPI_Datatype dt = t == DOMINO_FLOAT64 ? MPI_DOUBLE : MPI_FLOAT;
    int code = MPI_Accumulate(src, (int)count, dt, rank, (MPI_Aint)off, (int)count, dt, MPI_SUM,
                              win->win);
    if (code == MPI_SUCCESS) code = MPI_Win_flush(rank, win->win);
    return mpi_status(h, code, "os_accumulate_sum", win->w->rank);
}
