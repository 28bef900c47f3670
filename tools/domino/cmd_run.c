/* cmd_run.c: "domino run -n N <command> ...": the command in N processes
 * forked from this one, one per GPU (domino_launch) */
#include "commands.h"
#include "domino.h"
#include "opts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char run_usage[] =
    "usage: domino run -n N <command> [options]\n"
    "\n"
    "Runs the command in N processes forked from this one (PE 0 .. N-1), PE r on\n"
    "GPU r modulo the GPUs present, with NVSHMEM_DISABLE_NVLS=1.  The PEs of the\n"
    "multi-GPU commands join through NVSHMEM's unique-ID bootstrap; other\n"
    "commands simply run N times.  When a PE fails, the others are stopped and\n"
    "the run exits with the failing PE's code, naming it.  On several nodes use\n"
    "mpirun -np N domino <command> instead.\n"
    "\n"
    "  -n N, --pes N   number of processes, 1 to 64\n";

/* the subcommand's arguments, as the PEs see them */
typedef struct run_args {
    int argc;    /* arguments from the subcommand's name on */
    char **argv; /* argv[0] is the subcommand */
} run_args;

static int pe_main(const domino_launch_info *info, void *arg)
{
    (void)info;
    const run_args *a = arg;
    return cli_run_subcommand(a->argc, a->argv);
}

int cmd_run(int argc, char **argv)
{
    int64_t npes = 0;
    int i = 1;
    for (; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(run_usage, stdout);
            return 0;
        }
        if ((strcmp(argv[i], "-n") == 0 || strcmp(argv[i], "--pes") == 0) && i + 1 < argc) {
            if (opts_parse_int(argv[i + 1], 1, DOMINO_LAUNCH_MAX_PES, &npes))
                return opts_usage_error("run", run_usage, "-n: '%s' is not a whole number in "
                                        "[1, %d]", argv[i + 1], DOMINO_LAUNCH_MAX_PES);
            i++;
            continue;
        }
        if (argv[i][0] == '-') return opts_usage_error("run", run_usage, "unknown option '%s'", argv[i]);
        break; /* the command */
    }
    if (npes == 0) return opts_usage_error("run", run_usage, "-n N is required");
    if (i == argc) return opts_usage_error("run", run_usage, "no command to run");
    if (strcmp(argv[i], "run") == 0) return opts_usage_error("run", run_usage, "run cannot run itself");
    run_args a = {argc - i, argv + i};
    int code = domino_launch((int)npes, pe_main, &a);
    return code < 0 ? 1 : code;
}
