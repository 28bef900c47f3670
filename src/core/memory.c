/* memory.c: allocation wrappers with counters and failure injection */
#include "internal.h"

#include <stdatomic.h>
#include <stdlib.h>

static _Atomic int64_t alloc_count;   /* allocations made so far */
static _Atomic int64_t alloc_live;    /* allocations not yet freed */
static _Atomic int64_t fail_countdown; /* >0: the allocation that brings it to 0 fails */

void domino_debug_fail_alloc_after(int64_t n)
{
    atomic_store(&fail_countdown, n > 0 ? n : 0);
}

int64_t domino_debug_alloc_count(void) { return atomic_load(&alloc_count); }
int64_t domino_debug_alloc_live(void) { return atomic_load(&alloc_live); }

/* 1 if this allocation must fail (injection) */
static int injected_failure(void)
{
    int64_t c = atomic_load(&fail_countdown);
    while (c > 0) {
        if (atomic_compare_exchange_weak(&fail_countdown, &c, c - 1)) return c == 1;
    }
    return 0;
}

void *domino_malloc(size_t size)
{
    if (injected_failure()) return NULL;
    void *p = malloc(size ? size : 1);
    if (p) {
        atomic_fetch_add(&alloc_count, 1);
        atomic_fetch_add(&alloc_live, 1);
    }
    return p;
}

void *domino_calloc(size_t count, size_t size)
{
    if (injected_failure()) return NULL;
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (p) {
        atomic_fetch_add(&alloc_count, 1);
        atomic_fetch_add(&alloc_live, 1);
    }
    return p;
}

void *domino_realloc(void *p, size_t size)
{
    if (!p) return domino_malloc(size);
    if (injected_failure()) return NULL;
    void *q = realloc(p, size ? size : 1);
    if (q) atomic_fetch_add(&alloc_count, 1);
    return q;
}

void domino_free(void *p)
{
    if (!p) return;
    atomic_fetch_sub(&alloc_live, 1);
    free(p);
}

int domino_mul_size(size_t count, size_t size, size_t *out)
{
    if (size && count > SIZE_MAX / size) return 1;
    *out = count * size;
    return 0;
}
