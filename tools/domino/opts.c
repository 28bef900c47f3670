/* opts.c: long options, flags and positional arguments of the domino subcommands */
#include "opts.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int opts_usage_error(const char *cmd, const char *usage, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "domino %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n%s", usage);
    return OPTS_ERROR;
}

int opts_parse_int(const char *text, int64_t min, int64_t max, int64_t *value)
{
    char *end = NULL;
    if (!text || !*text) return -1;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (errno || end == text) return -1;
    if (*end) {
        /* accept exact forms like 1e6 */
        char *dend = NULL;
        double d = strtod(text, &dend);
        if (*dend || !isfinite(d) || d != floor(d) || fabs(d) > 9.0e18) return -1;
        v = (long long)d;
    }
    if (v < min || v > max) return -2;
    *value = (int64_t)v;
    return 0;
}

int opts_parse_double(const char *text, double min, double max, double *value)
{
    char *end = NULL;
    if (!text || !*text) return -1;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || *end || !isfinite(v)) return -1;
    if (v < min || v > max) return -2;
    *value = v;
    return 0;
}

/* the spec of "--name" (name_len chars) or of "-c"; NULL if unknown */
static const opt_spec *find_spec(const opt_spec *specs, const char *name, size_t name_len,
                                 char short_name)
{
    for (const opt_spec *s = specs; s->name; s++) {
        if (short_name) {
            if (s->short_name == short_name) return s;
        } else if (strlen(s->name) == name_len && strncmp(s->name, name, name_len) == 0) {
            return s;
        }
    }
    return NULL;
}

/* store value into spec's target; OPTS_OK or OPTS_ERROR (message printed) */
static int store_value(const char *cmd, const char *usage, const opt_spec *s, const char *value)
{
    int rc;
    switch (s->kind) {
    case OPT_STRING:
        *(const char **)s->target = value;
        return OPTS_OK;
    case OPT_INT:
        rc = opts_parse_int(value, (int64_t)s->min, (int64_t)s->max, (int64_t *)s->target);
        break;
    case OPT_DOUBLE:
        rc = opts_parse_double(value, s->min, s->max, (double *)s->target);
        break;
    default:
        return opts_usage_error(cmd, usage, "option --%s takes no value", s->name);
    }
    if (rc == -1)
        return opts_usage_error(cmd, usage, "--%s: '%s' is not a %s", s->name, value,
                                s->kind == OPT_INT ? "whole number" : "number");
    if (rc == -2)
        return opts_usage_error(cmd, usage, "--%s: %s is out of range [%.17g, %.17g]", s->name,
                                value, s->min, s->max);
    return OPTS_OK;
}

/* one option argument at argv[*i]; advances *i past a separate value */
static int parse_option(const char *cmd, const char *usage, const opt_spec *specs, int argc,
                        char **argv, int *i)
{
    const char *arg = argv[*i];
    const char *value = NULL;
    const opt_spec *s;
    if (arg[1] == '-') {
        const char *name = arg + 2;
        const char *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        if (eq) value = eq + 1;
        s = find_spec(specs, name, len, 0);
        if (!s) return opts_usage_error(cmd, usage, "unknown option '--%.*s'", (int)len, name);
    } else {
        if (arg[2] != '\0') return opts_usage_error(cmd, usage, "unknown option '%s'", arg);
        s = find_spec(specs, NULL, 0, arg[1]);
        if (!s) return opts_usage_error(cmd, usage, "unknown option '%s'", arg);
    }
    if (s->kind == OPT_FLAG) {
        if (value) return opts_usage_error(cmd, usage, "option --%s takes no value", s->name);
        *(int *)s->target = 1;
        return OPTS_OK;
    }
    if (!value) {
        if (*i + 1 >= argc) return opts_usage_error(cmd, usage, "option --%s needs a value", s->name);
        value = argv[++*i];
    }
    return store_value(cmd, usage, s, value);
}

int opts_parse(const char *cmd, const char *usage, const opt_spec *specs, int argc, char **argv,
               int first, const char **positional, int max_positional, int *npositional)
{
    int only_positional = 0;
    *npositional = 0;
    for (int i = first; i < argc; i++) {
        const char *arg = argv[i];
        if (!only_positional && (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)) {
            fputs(usage, stdout);
            return OPTS_HELP;
        }
        if (!only_positional && strcmp(arg, "--") == 0) {
            only_positional = 1;
            continue;
        }
        if (!only_positional && arg[0] == '-' && arg[1] != '\0') {
            int rc = parse_option(cmd, usage, specs, argc, argv, &i);
            if (rc != OPTS_OK) return rc;
            continue;
        }
        if (*npositional >= max_positional)
            return opts_usage_error(cmd, usage, "unexpected argument '%s'", arg);
        positional[(*npositional)++] = arg;
    }
    return OPTS_OK;
}
