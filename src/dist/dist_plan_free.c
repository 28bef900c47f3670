/* dist_plan_free.c: free a plan made by domino_dist_plan_make */
#include "internal.h"

/* free plan and its arrays; NULL is accepted */
void domino_dist_plan_free(domino_dist_plan *plan)
{
    if (!plan) return;
    domino_free(plan->task_pe);
    domino_free(plan->pe_tasks);
    domino_free(plan->pe_components);
    domino_free(plan->pe_nnz);
    domino_free(plan->pe_bytes);
    domino_free(plan->pe_remote);
    domino_free(plan->row_level);
    domino_free(plan);
}
