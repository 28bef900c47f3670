/* bench_report.h: the results of "domino bench" and how they are written
 * (table, JSON, CSV) */
#ifndef DOMINO_CLI_BENCH_REPORT_H
#define DOMINO_CLI_BENCH_REPORT_H

#include "domino.h"

#include <stdio.h>

/* one engine on one problem */
typedef struct bench_row {
    char problem[256];    /* problem name */
    int32_t n;            /* rows */
    int64_t nnz;          /* entries of the triangle */
    int32_t nlevels;      /* levels */
    double parallelism;   /* rows / levels */
    double dependency;    /* entries / row */
    char engine[32];      /* engine asked for */
    char used[32];        /* engine that ran (what auto chose) */
    double analysis_ms;   /* analysis time */
    double solve_ms;      /* median solve time */
    double solve_ms_min;  /* fastest solve */
    double first_ms;      /* first solve after the analysis */
    double gbs;           /* effective bandwidth */
    double speedup;       /* baseline time / solve time (0 when no baseline) */
    char baseline[32];    /* the engine of the speedup's baseline */
    double residual;      /* scaled residual */
    double diff;          /* max relative difference to the reference solution */
    int failed;           /* 1: wrong answer or error */
    char status[256];     /* "ok", "FAILED ..." or "ERROR: message" */
} bench_row;

/* all results and the context they were measured in */
typedef struct bench_report {
    bench_row *rows;      /* results, size count */
    int count;            /* results so far */
    int capacity;         /* room in rows */
    domino_type type;     /* value type */
    int repeat;           /* timed runs per engine */
    int has_gpu;          /* a GPU was used */
    char device[256];     /* GPU name, "" without one */
    double copy_gbs;      /* the GPU's device copy bandwidth */
    char suite[32];       /* "default" or "trsv" */
} bench_report;

/* append a row; 0 on success, -1 when out of memory */
int bench_report_add(bench_report *r, const bench_row *row);
void bench_report_free(bench_report *r);

/* bytes a solve moves: nnz*(value+4) + (n+1)*8 + 2*n*value */
double bench_bytes(domino_type t, int32_t n, int64_t nnz);
/* the formula as text, for headers */
const char *bench_bytes_formula(domino_type t);

void bench_print_table_header(FILE *f, const bench_report *r);
void bench_print_table_row(FILE *f, const bench_row *row);
void bench_write_json(FILE *f, const bench_report *r);
void bench_write_csv(FILE *f, const bench_report *r);

#endif /* DOMINO_CLI_BENCH_REPORT_H */
