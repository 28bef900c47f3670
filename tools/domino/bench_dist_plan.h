/* bench_dist_plan.h: "domino bench --suite dist-plan": how the multi-GPU
 * distributions spread work and communication (host planning only) */
#ifndef DOMINO_CLI_BENCH_DIST_PLAN_H
#define DOMINO_CLI_BENCH_DIST_PLAN_H

/* For each problem of the trsv suite (quick: the small one) and each
 * distribution (contiguous; task pool with 4, 8, 16, 32 tasks per PE; the
 * level-tied pool of domino_dist_level_task_size) over
 * npes PEs: the largest PE's share of entries against the mean, the share
 * of entries whose contribution goes to another PE, and the largest PE's
 * bytes.  Prints a table, writes CSV when csv_path is set.  Returns the exit
 * code. */
int bench_dist_plan_run(int quick, int npes, const char *matrices_dir, const char *csv_path);

#endif
