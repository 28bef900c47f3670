/* bench_dist_common.c: the start of the distributed suites (spmm, spgemm) */
#include "bench_dist_common.h"

#include <stdio.h>

#ifdef DOMINO_HAVE_NVSHMEM
int bench_dist_begin(const char *suite, domino_handle *h, domino_dist *D, double *gbs)
{
    *h = NULL;
    *D = NULL;
    if (domino_create(h)) return 1;
    if (domino_dist_join(*h, D)) {
        fprintf(stderr, "domino bench --suite %s: %s\n(start it as domino run -n N bench --suite %s, or under "
                        "mpirun)\n", suite, domino_last_error(*h), suite);
        domino_destroy(*h);
        return 2;
    }
    if (domino_dist_get_bandwidth(*h, *D, (size_t)64 << 20, gbs)) {
        fprintf(stderr, "domino bench: %s\n", domino_last_error(*h));
        domino_dist_leave(*h, *D);
        domino_destroy(*h);
        return 1;
    }
    return 0;
}
#endif
