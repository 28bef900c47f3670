/* test_onesided.c: the one-sided layer on MPI (run under mpirun, any number
 * of ranks): windows of different sizes per rank read by every rank with
 * blocking and started gets, fetch-and-add counters hit by every rank, an
 * all-reduce, a bad target refused, a rank out of memory for a window
 * (every rank fails alike).  Each rank checks; the exit code of
 * the run says whether all passed. */
#include "check.h"
#include "dist/onesided.h"

#include <stdio.h>
#include <stdlib.h>

#define PER_RANK 64 /* rank r exposes (r + 1) * PER_RANK int64 values */
#define ADDS 100    /* fetch-and-adds per rank on rank 0's counter */

static void check_reads(domino_handle h, os_world *w, os_window *win)
{
    int size = os_size(w);
    int64_t buf[PER_RANK * 64];
    for (int r = 0; r < size && r < 64; r++) {
        size_t count = (size_t)(r + 1) * PER_RANK;
        CHECK_OK(h, os_get(h, win, r, 0, buf, count * sizeof(int64_t)));
        int ok = 1;
        for (size_t i = 0; i < count; i++) ok &= buf[i] == (int64_t)r * 1000000 + (int64_t)i;
        CHECK(ok);
        /* a slice in the middle */
        CHECK_OK(h, os_get(h, win, r, 8 * sizeof(int64_t), buf, 3 * sizeof(int64_t)));
        CHECK(buf[0] == (int64_t)r * 1000000 + 8 && buf[2] == (int64_t)r * 1000000 + 10);
    }
    /* started gets from every rank at once, then waited for */
    int64_t first[64];
    os_request *req[64];
    for (int r = 0; r < size && r < 64; r++)
        CHECK_OK(h, os_get_start(h, win, r, sizeof(int64_t), &first[r], sizeof(int64_t), &req[r]));
    for (int r = 0; r < size && r < 64; r++) {
        CHECK_OK(h, os_wait(h, req[r]));
        CHECK(first[r] == (int64_t)r * 1000000 + 1);
    }
}

static void check_counters(domino_handle h, os_world *w)
{
    int rank = os_rank(w), size = os_size(w);
    os_window *win = NULL;
    int64_t *mine = NULL, old = -1, value = -1;
    CHECK_OK(h, os_window_create(h, w, 2 * sizeof(int64_t), &win, (void **)&mine));
    if (!win) return;
    for (int k = 0; k < ADDS; k++) CHECK_OK(h, os_fetch_add(h, win, 0, 0, 1, NULL));
    CHECK_OK(h, os_fetch_add(h, win, (rank + 1) % size, sizeof(int64_t), rank + 1, &old));
    CHECK(old >= 0);
    CHECK_OK(h, os_barrier(h, w));
    CHECK_OK(h, os_fetch_add(h, win, 0, 0, 0, &value)); /* an atomic read */
    CHECK(value == (int64_t)ADDS * size);
    CHECK_OK(h, os_get(h, win, rank, sizeof(int64_t), &value, sizeof(int64_t)));
    CHECK(value == (rank + size - 1) % size + 1); /* from the rank before */
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, os_fetch_add(h, win, size, 0, 1, NULL));
    CHECK_STATUS(h, DOMINO_INVALID_VALUE, os_get(h, win, -1, 0, &value, sizeof(value)));
    CHECK_OK(h, os_barrier(h, w));
    CHECK_OK(h, os_window_free(h, win));
}

int main(void)
{
    domino_handle h = NULL;
    os_world *w = NULL;
    os_window *win = NULL;
    int64_t *mine = NULL;
    CHECK_OK(h, domino_create(&h));
    CHECK_OK(h, os_world_init(h, &w));
    if (!w) return check_summary("test_onesided");
    int rank = os_rank(w), size = os_size(w);
    size_t count = (size_t)(rank + 1) * PER_RANK;
    CHECK_OK(h, os_window_create(h, w, count * sizeof(int64_t), &win, (void **)&mine));
    for (size_t i = 0; mine && i < count; i++) mine[i] = (int64_t)rank * 1000000 + (int64_t)i;
    CHECK_OK(h, os_window_sync(h, win));
    CHECK_OK(h, os_barrier(h, w));
    if (win) check_reads(h, w, win);
    CHECK_OK(h, os_barrier(h, w));
    CHECK_OK(h, os_window_free(h, win));
    check_counters(h, w);
    /* the last rank out of memory for a window's handle: every rank fails
     * alike (no rank left waiting in a collective), and the next window works */
    os_window *bad = NULL;
    void *part = NULL;
    if (rank == size - 1) domino_debug_fail_alloc_after(1);
    CHECK_STATUS(h, DOMINO_OUT_OF_MEMORY, os_window_create(h, w, 64, &bad, &part));
    domino_debug_fail_alloc_after(0);
    CHECK(bad == NULL && part == NULL);
    CHECK_OK(h, os_window_create(h, w, 64, &bad, &part));
    CHECK_OK(h, os_window_free(h, bad));
    int64_t sum = rank;
    CHECK_OK(h, os_allreduce_i64(h, w, &sum, 1));
    CHECK(sum == (int64_t)size * (size - 1) / 2);
    char name[64];
    snprintf(name, sizeof(name), "test_onesided rank %d of %d", rank, size);
    int code = check_summary(name);
    CHECK_OK(h, os_world_finalize(h, w));
    domino_destroy(h);
    return code;
}
