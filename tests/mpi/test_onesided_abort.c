/* test_onesided_abort.c: a rank that gives up (os_abort) ends the whole
 * run, the others waiting in a barrier included: the run must exit
 * non-zero, quickly (ctest: WILL_FAIL, and a timeout catches a hang) */
#include "dist/onesided.h"

int main(void)
{
    os_world *w = NULL;
    if (os_world_init(NULL, &w)) return 2;
    if (os_rank(w) == os_size(w) - 1) os_abort(w, 3, "on purpose, to test the error path");
    os_barrier(NULL, w); /* never passed by the last rank */
    os_world_finalize(NULL, w);
    return 0;
}
