/* commands.h: the subcommands of the domino tool, one file each */
#ifndef DOMINO_CLI_COMMANDS_H
#define DOMINO_CLI_COMMANDS_H

/* Each takes the arguments after the subcommand name (argv[0] is the
 * subcommand) and returns the exit code: 0 success, 1 failure of the work
 * (bad file, failed check), 2 bad command line. */
int cmd_info(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_solve(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_trace(int argc, char **argv);

/* run the subcommand argv[0] (any but "run"): what a launched PE does */
int cli_run_subcommand(int argc, char **argv);

#endif /* DOMINO_CLI_COMMANDS_H */
