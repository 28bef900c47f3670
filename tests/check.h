/* check.h: the tiny test harness of domino's ctest programs.
 * Each test program counts its checks and ends with "N passed, N failed". */
#ifndef DOMINO_CHECK_H
#define DOMINO_CHECK_H

#include "domino.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int check_passed, check_failed;

#define CHECK(cond)                                                                    \
    do {                                                                               \
        if (cond)                                                                      \
            check_passed++;                                                            \
        else {                                                                         \
            check_failed++;                                                            \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);   \
        }                                                                              \
    } while (0)

/* expect status `want` from expression; prints the last error otherwise */
#define CHECK_STATUS(h, want, expr)                                                    \
    do {                                                                               \
        domino_status got_ = (expr);                                                   \
        if (got_ == (want))                                                            \
            check_passed++;                                                            \
        else {                                                                         \
            check_failed++;                                                            \
            fprintf(stderr, "%s:%d: %s returned %s, expected %s (%s)\n", __FILE__,     \
                    __LINE__, #expr, domino_status_name(got_), domino_status_name(want), \
                    domino_last_error(h));                                             \
        }                                                                              \
    } while (0)

#define CHECK_OK(h, expr) CHECK_STATUS(h, DOMINO_SUCCESS, expr)

/* |a-b| <= tol, printing both on failure */
#define CHECK_NEAR(a, b, tol)                                                          \
    do {                                                                               \
        double a_ = (a), b_ = (b), t_ = (tol);                                         \
        if (fabs(a_ - b_) <= t_)                                                       \
            check_passed++;                                                            \
        else {                                                                         \
            check_failed++;                                                            \
            fprintf(stderr, "%s:%d: %s = %.17g, %s = %.17g, differ by more than %g\n", \
                    __FILE__, __LINE__, #a, a_, #b, b_, t_);                           \
        }                                                                              \
    } while (0)

/* print the summary line and return the exit code of main */
static inline int check_summary(const char *name)
{
    printf("%s: %d passed, %d failed\n", name, check_passed, check_failed);
    return check_failed ? 1 : 0;
}

#endif
