/* main.c: the domino command: dispatch to the subcommands */
#include "cli_util.h"
#include "commands.h"
#include "domino.h"

#include <stdio.h>
#include <string.h>

static const char main_usage[] =
    "usage: domino <command> [options]\n"
    "\n"
    "Synchronization-free sparse triangular solves on CPUs and GPUs.\n"
    "\n"
    "commands:\n"
    "  info FILE.mtx [--json]              size, symmetry, diagonal and level structure\n"
    "  gen stencil|rmat|dag ... -o FILE    write a generated matrix (Matrix Market)\n"
    "  solve FILE.mtx [options]            solve with a triangle of a matrix, check the answer;\n"
    "                                      --krylov cg|bicgstab: preconditioned Krylov solve\n"
    "  bench [options]                     time the triangular-solve engines\n"
    "  run -n N <command> [options]        run a command in N processes, one per GPU\n"
    "  trace PROBLEM [--csv FILE]          where the GPU thread engine's solve time goes\n"
    "  help [command]                      this text, or a command's usage\n"
    "\n"
    "options: --help (also after a command), --version\n";

/* one subcommand */
typedef struct cli_command {
    const char *name;               /* what is typed */
    int (*run)(int argc, char **argv); /* the subcommand, argv[0] = name */
} cli_command;

static const cli_command commands[] = {{"info", cmd_info},   {"gen", cmd_gen},
                                       {"solve", cmd_solve}, {"bench", cmd_bench},
                                       {"run", cmd_run},     {"trace", cmd_trace}};
#define NCOMMANDS ((int)(sizeof(commands) / sizeof(commands[0])))

static const cli_command *find_command(const char *name)
{
    for (int i = 0; i < NCOMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0) return &commands[i];
    return NULL;
}

int cli_run_subcommand(int argc, char **argv)
{
    const cli_command *c = argc > 0 ? find_command(argv[0]) : NULL;
    if (!c || c->run == cmd_run) {
        fprintf(stderr, "domino: '%s' is not a command a PE can run\n%s", argc > 0 ? argv[0] : "",
                main_usage);
        return 2;
    }
    return c->run(argc, argv);
}

/* "domino help [cmd]" */
static int run_help(int argc, char **argv)
{
    if (argc < 3) {
        fputs(main_usage, stdout);
        return 0;
    }
    const cli_command *c = find_command(argv[2]);
    if (!c) {
        fprintf(stderr, "domino help: unknown command '%s'\n%s", argv[2], main_usage);
        return 2;
    }
    char *help_argv[] = {argv[2], "--help", NULL};
    return c->run(2, help_argv);
}

int main(int argc, char **argv)
{
    cli_set_command_line(argc, argv);
    if (argc < 2) {
        fputs(main_usage, stderr);
        return 2;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
        fputs(main_usage, stdout);
        return 0;
    }
    if (strcmp(name, "help") == 0) return run_help(argc, argv);
    if (strcmp(name, "--version") == 0 || strcmp(name, "version") == 0) {
        printf("domino %d.%d (%s)\n", DOMINO_VERSION_MAJOR, DOMINO_VERSION_MINOR,
               domino_gpu_count() > 0 ? "CUDA engines available" : "no GPU available");
        return 0;
    }
    const cli_command *c = find_command(name);
    if (!c) {
        if (name[0] == '-')
            fprintf(stderr, "domino: unknown option '%s'\n%s", name, main_usage);
        else
            fprintf(stderr, "domino: unknown command '%s'\n%s", name, main_usage);
        return 2;
    }
    return c->run(argc - 1, argv + 1);
}
