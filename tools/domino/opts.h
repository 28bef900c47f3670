/* opts.h: the option parser shared by every domino subcommand */
#ifndef DOMINO_CLI_OPTS_H
#define DOMINO_CLI_OPTS_H

#include <stdint.h>

/* what an option takes */
typedef enum opt_kind {
    OPT_FLAG = 0,   /* no value; target is int*, set to 1 */
    OPT_STRING = 1, /* a string; target is const char** */
    OPT_INT = 2,    /* an integer in [min, max]; target is int64_t* */
    OPT_DOUBLE = 3  /* a number in [min, max]; target is double* */
} opt_kind;

/* one option of a subcommand */
typedef struct opt_spec {
    const char *name;  /* long name without the leading "--" */
    char short_name;   /* one-letter alias ("-o"), 0 if none */
    opt_kind kind;     /* what it takes */
    double min;        /* smallest accepted value (OPT_INT, OPT_DOUBLE) */
    double max;        /* largest accepted value (OPT_INT, OPT_DOUBLE) */
    void *target;      /* where the value goes */
} opt_spec;

/* the end of a spec list */
#define OPT_END {NULL, 0, OPT_FLAG, 0, 0, NULL}

/* what opts_parse found */
enum {
    OPTS_OK = 0,    /* parsed: run the command */
    OPTS_HELP = 1,  /* --help or -h: usage printed on stdout, exit 0 */
    OPTS_ERROR = 2  /* bad command line: message and usage on stderr, exit 2 */
};

/* Parse argv[first..argc) against specs ("--name value", "--name=value",
 * "-x value", flags, "--" ends the options).  Positional arguments are
 * stored in positional[] (room for max_positional) and counted in
 * *npositional.  cmd names the subcommand in messages ("domino <cmd>: ..."),
 * usage is printed after an error or for --help. */
int opts_parse(const char *cmd, const char *usage, const opt_spec *specs, int argc, char **argv,
               int first, const char **positional, int max_positional, int *npositional);

/* print "domino <cmd>: <message>" and the usage on stderr; returns 2 */
int opts_usage_error(const char *cmd, const char *usage, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* parse a whole string as an integer in [min, max]; 0 on success */
int opts_parse_int(const char *text, int64_t min, int64_t max, int64_t *value);
/* parse a whole string as a finite number in [min, max]; 0 on success */
int opts_parse_double(const char *text, double min, double max, double *value);

#endif /* DOMINO_CLI_OPTS_H */
