/* cli_util.h: helpers shared by the domino subcommands (vectors, checks, JSON) */
#ifndef DOMINO_CLI_UTIL_H
#define DOMINO_CLI_UTIL_H

#include "domino.h"

#include <stdio.h>

/* remember the whole command line (for JSON reports) */
void cli_set_command_line(int argc, char **argv);
/* the command line as typed, arguments separated by spaces */
const char *cli_command_line(void);

/* print "domino <cmd>: <last error of h>" on stderr (with the numbering of
 * the row that a DOMINO_ZERO_DIAGONAL or DOMINO_ZERO_PIVOT names); returns
 * 1 (the exit code) */
int cli_fail(domino_handle h, domino_status s, const char *cmd);
/* print "domino <cmd>: this build has no NVSHMEM" and how to get it, on
 * stderr (the multi-GPU commands in a build without it); returns 1 */
int cli_no_nvshmem(const char *cmd);

/* value i of a vector of type t, as a double */
double cli_get(domino_type t, const void *v, int64_t i);
/* store value i of a vector of type t */
void cli_set(domino_type t, void *v, int64_t i, double value);

/* New n x nrhs column-major block of type t holding the known solution
 * x_ij = (1 + (i % 7) / 8) * (j + 1).  NULL when out of memory. */
void *cli_true_solution(domino_type t, int32_t n, int32_t nrhs);
/* New block of type t, n x nrhs, zeroed; NULL when out of memory */
void *cli_zero_block(domino_type t, int32_t n, int32_t nrhs);
/* B = op(T) X column by column; when diag is UNIT, T holds no diagonal and
 * B += X adds the implied ones. */
domino_status cli_make_rhs(domino_handle h, domino_op op, domino_diag diag, domino_matrix T,
                           int32_t nrhs, const void *X, void *B);
/* *T = the lower (upper) triangle of the Matrix Market file at path, of
 * type t: real files keep their diagonal (DOMINO_DIAG_KEEP: a missing or
 * zero one is an error naming the row), pattern files get a dominant one;
 * with unit the diagonal is dropped.  *is_pattern: the file had no values. */
domino_status cli_read_triangle(domino_handle h, const char *path, domino_type t, int upper, int unit,
                                int *is_pattern, domino_matrix *T);
/* max over entries of |x - y| / max(|y|, tiny): the max relative difference */
double cli_max_rel_diff(domino_type t, int64_t count, const void *x, const void *y);
/* tolerance on the scaled residual of a correct solve of type t */
double cli_residual_tol(domino_type t);
/* tolerance on the relative difference to the reference solution */
double cli_diff_tol(domino_type t);
/* "double" or "float" */
const char *cli_type_name(domino_type t);

/* the end of a solve's report on stdout: the scaled residual, the max
 * relative forward error and the verdict, as three text lines or (json) as
 * the last three members of a JSON object, which it closes */
void cli_print_answer(int json, double residual, double forward_error, int passed);
/* write s as a JSON string (quoted, escaped) */
void cli_json_string(FILE *f, const char *s);
/* write a number as JSON (null for Inf/NaN) */
void cli_json_number(FILE *f, double v);
/* current date and time in UTC, ISO 8601, into buf */
void cli_utc_date(char *buf, size_t len);

/* Parse a grid "N", "NXxNY" or "NXxNYxNZ" for stencil s: a single N is a
 * square for 2D stencils and a cube for 3D ones; rows must fit in int32.
 * 0 on success, -1 when malformed or too large. */
int cli_parse_grid(const char *text, domino_stencil s, int32_t *nx, int32_t *ny, int32_t *nz);

#endif /* DOMINO_CLI_UTIL_H */
