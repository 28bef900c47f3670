/* cmd_solve_dist.h: the multi-GPU mode of "domino solve" (--dist SOLVER),
 * run on every PE of "domino run -n N solve ..." (or under mpirun) */
#ifndef DOMINO_CLI_CMD_SOLVE_DIST_H
#define DOMINO_CLI_CMD_SOLVE_DIST_H

#include "domino.h"

/* what "domino solve FILE --dist ..." was asked */
typedef struct dist_solve_request {
    const char *path;   /* matrix file */
    int upper, unit;    /* the upper triangle; unit diagonal (the stored one dropped) */
    int json;           /* print a JSON document */
    const char *solver; /* "pull", "zerocopy", "push" or "unified" */
    const char *scheme; /* "taskpool", "contiguous" or "linked" */
    int64_t tasks;      /* taskpool: tasks per PE, 0 = the plan's default (tied to the levels) */
    int64_t budget_mb;  /* bytes each GPU's share may take, MiB; 0 = no budget */
} dist_solve_request;

/* the names --dist and --scheme take; 1 when name is one of them */
int dist_solve_solver_known(const char *name);
int dist_solve_scheme_known(const char *name);

/* Join the run, read the triangle on every PE, plan, solve b = T x_true
 * (one warm-up solve, then a timed one), check on PE 0 against the CPU
 * (scaled residual, forward error) and print there; returns the exit
 * code: 0 the answer is right, 1 wrong or an error (message on stderr) */
int dist_solve_run(const dist_solve_request *rq);

#endif /* DOMINO_CLI_CMD_SOLVE_DIST_H */
