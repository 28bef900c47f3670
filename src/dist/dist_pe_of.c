/* dist_pe_of.c: the PE that holds one component of a distribution plan */
#include "internal.h"

/* PE of component i: the PE of its task i / task_size.  Returns -1 for a
 * NULL plan or i outside [0, n). */
int domino_dist_pe_of(const domino_dist_plan *plan, int32_t i)
{
    if (!plan || i < 0 || i >= plan->n || plan->task_size < 1) return -1;
    return plan->task_pe[i / plan->task_size];
}
