/* gpu_stub.c: the GPU context hooks when libdomino is built without CUDA */
#include "internal.h"

void domino_gpu_context_free(struct domino_gpu_context *gpu)
{
    (void)gpu;
}
