/* test_values.h: what the tests share for making and reading values:
 * reproducible uniform generators and typed access to double/float arrays */
#ifndef DOMINO_TEST_VALUES_H
#define DOMINO_TEST_VALUES_H

#include "domino.h"

#include <stdint.h>

static uint64_t test_rng_state = 0x9e3779b97f4a7c15ULL;

/* splitmix64 in [0, 1); the sequence restarts with test_rng_state */
static inline double rng_uniform(void)
{
    uint64_t z = (test_rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return (double)((z ^ (z >> 31)) >> 11) / 9007199254740992.0;
}

static uint64_t lcg_state = 12345;

/* a 64-bit LCG, uniform in [0, 1); the sequence restarts with lcg_state */
static inline double lcg_uniform(void)
{
    lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(lcg_state >> 11) / 9007199254740992.0;
}
/* uniform in 0 .. bound-1 */
static inline int32_t lcg_below(int32_t bound) { return (int32_t)(lcg_uniform() * bound); }

/* v[i] of a double or float array */
static inline double get_value(const void *v, domino_type t, int64_t i)
{
    return t == DOMINO_FLOAT64 ? ((const double *)v)[i] : (double)((const float *)v)[i];
}

/* v[i] = x in a double or float array */
static inline void set_value(void *v, domino_type t, int64_t i, double x)
{
    if (t == DOMINO_FLOAT64) ((double *)v)[i] = x;
    else ((float *)v)[i] = (float)x;
}

#endif
