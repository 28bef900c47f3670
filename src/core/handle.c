/* handle.c: create and destroy the handle; last-error messages */
#include "internal.h"

#include <stdio.h>
#include <string.h>

/* message slot of calls made with a NULL handle, one per thread */
static _Thread_local char thread_error[DOMINO_ERROR_LEN];

void domino_gpu_context_free(struct domino_gpu_context *gpu); /* src/cuda or stub */

domino_status domino_create(domino_handle *h)
{
    if (!h) return domino_error(NULL, DOMINO_NULL_POINTER, "domino_create: h is NULL");
    *h = domino_calloc(1, sizeof(struct domino_handle_s));
    if (!*h) return domino_error(NULL, DOMINO_OUT_OF_MEMORY, "domino_create: out of memory");
    (*h)->magic = DOMINO_HANDLE_MAGIC;
    return DOMINO_SUCCESS;
}

void domino_destroy(domino_handle h)
{
    if (!h || h->magic != DOMINO_HANDLE_MAGIC) return;
    domino_gpu_context_free(h->gpu);
    h->magic = DOMINO_FREED_MAGIC;
    domino_free(h);
}

int domino_handle_ok(domino_handle h)
{
    return h == NULL || h->magic == DOMINO_HANDLE_MAGIC;
}

const char *domino_last_error(domino_handle h)
{
    if (h && h->magic == DOMINO_HANDLE_MAGIC) return h->last_error;
    return thread_error;
}

void domino_clear_error(domino_handle h)
{
    if (h && h->magic == DOMINO_HANDLE_MAGIC)
        h->last_error[0] = '\0';
    else
        thread_error[0] = '\0';
}

domino_status domino_error(domino_handle h, domino_status s, const char *fmt, ...)
{
    char *slot = (h && h->magic == DOMINO_HANDLE_MAGIC) ? h->last_error : thread_error;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(slot, DOMINO_ERROR_LEN, fmt, ap);
    va_end(ap);
    return s;
}

domino_status domino_set_progress(domino_handle h, int enabled)
{
    if (!h) return domino_error(h, DOMINO_NULL_POINTER, "domino_set_progress: h is NULL");
    if (h->magic != DOMINO_HANDLE_MAGIC)
        return domino_error(NULL, DOMINO_INVALID_OBJECT, "domino_set_progress: h is not a live handle");
    h->progress = enabled != 0;
    return DOMINO_SUCCESS;
}
