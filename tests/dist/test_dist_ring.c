/* test_dist_ring.c: the distributed runtime on NVSHMEM, one PE per GPU of
 * the machine (at least 2 for a real ring): join through the launcher's
 * unique-ID page, a GPU-initiated ring of puts, a barrier, leave; a PE that
 * fails on purpose ends the whole run with its code.  Label dist. */
#include "check.h"
#include "domino.h"

#include <stdio.h>
#include <stdlib.h>

/* join, ring, barrier, leave; the exit code of the PE (0 ok) */
static int pe_ring(const domino_launch_info *info, void *arg)
{
    int fail_pe = *(int *)arg;
    domino_handle h = NULL;
    domino_dist D = NULL;
    int code = 0;
    if (domino_create(&h)) return 10;
    domino_status s = domino_dist_join(h, &D);
    if (!s && (domino_dist_rank(D) != info->rank || domino_dist_npes(D) != info->npes)) s = DOMINO_DEVICE_ERROR;
    if (!s && info->rank == fail_pe) {
        fprintf(stderr, "PE %d fails on purpose\n", info->rank);
        exit(9); /* the others are now waiting in the ring or barrier */
    }
    if (!s) s = domino_dist_ring_check(h, D);
    if (!s) s = domino_dist_barrier(h, D);
    if (!s) s = domino_dist_leave(h, D);
    if (s) {
        fprintf(stderr, "PE %d: %s\n", info->rank, domino_last_error(h));
        code = 11;
    }
    domino_destroy(h);
    return code;
}

int main(void)
{
    int npes = domino_launch_gpu_count(); /* CUDA stays out of this process */
    if (npes == 0) {
        printf("test_dist_ring: no CUDA device, skipped\n");
        return 0;
    }
    int none = -1;
    CHECK(domino_launch(npes, pe_ring, &none) == 0);
    if (npes >= 2) {
        int last = npes - 1;
        CHECK(domino_launch(npes, pe_ring, &last) == 9); /* stops everyone, no hang */
    }
    return check_summary("test_dist_ring");
}
