/* env.c: domino_env_int, the reader of the integer experiment switches */
#include "internal.h"

#include <stdlib.h>

int domino_env_int(const char *name, int dflt)
{
    const char *v = getenv(name);
    return v && *v ? atoi(v) : dflt;
}
