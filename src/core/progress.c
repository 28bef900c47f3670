/* progress.c: progress indicator on stderr for long work; wall clock */
#define _POSIX_C_SOURCE 200809L
#include "internal.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

double domino_wtime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void domino_progress_begin(domino_handle h, domino_progress *p, const char *label)
{
    p->active = h && h->magic == DOMINO_HANDLE_MAGIC && h->progress && isatty(2);
    p->start = p->last = domino_wtime();
    p->label = label;
}

/* prints at most every 0.25 s, and only once the work has run a second */
void domino_progress_update(domino_progress *p, double fraction)
{
    if (!p->active) return;
    double now = domino_wtime();
    if (now - p->start < 1.0 || now - p->last < 0.25) return;
    p->last = now;
    fprintf(stderr, "\r%s: %5.1f%% (%.1f s)", p->label, 100.0 * fraction, now - p->start);
    fflush(stderr);
}

void domino_progress_end(domino_progress *p)
{
    if (!p->active) return;
    double now = domino_wtime();
    if (p->last > p->start) fprintf(stderr, "\r%s: done (%.1f s)          \n", p->label, now - p->start);
    p->active = 0;
}
