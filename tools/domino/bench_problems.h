/* bench_problems.h: the problems of "domino bench": parsing a problem name,
 * building its lower triangle, reference solution and level structure, and
 * the trsv suite */
#ifndef DOMINO_CLI_BENCH_PROBLEMS_H
#define DOMINO_CLI_BENCH_PROBLEMS_H

#include "bench_engines.h"
#include "domino.h"

#include <stddef.h>

/* where a problem comes from */
typedef enum problem_kind {
    PROBLEM_STENCIL = 0, /* generated stencil, lower triangle */
    PROBLEM_DAG = 1,     /* generated random DAG */
    PROBLEM_RMAT = 2,    /* R-MAT graph, lower triangle, dominant diagonal */
    PROBLEM_FILE = 3     /* Matrix Market file, lower triangle, dominant diagonal */
} problem_kind;

/* a parsed problem name */
typedef struct problem_spec {
    problem_kind kind;       /* which generator or a file */
    domino_stencil stencil;  /* PROBLEM_STENCIL: which stencil */
    int32_t nx, ny, nz;      /* PROBLEM_STENCIL: grid */
    int32_t rows, per_row;   /* PROBLEM_DAG: rows, entries per row */
    int32_t levels, band;    /* PROBLEM_DAG: depth, band (0 = none) */
    int scale, edge_factor;  /* PROBLEM_RMAT: 2^scale vertices, edges per vertex */
    char path[1024];         /* PROBLEM_FILE: the file */
    domino_fill fill;        /* triangle solved: lower (default) or upper */
    char name[256];          /* the name printed in reports */
} problem_spec;

/* Parse "d3n27:64", "d2n5:1024x1024", "d3n7:64:upper", "stencil:d3n7:32", "dag:ROWS:PERROW:LEVELS[:BAND]",
 * "rmat:SCALE[:EDGEFACTOR]" or a path to a Matrix Market file.  0 on success,
 * else -1 with the reason in why. */
int problem_spec_parse(const char *text, problem_spec *spec, char *why, size_t why_len);

/* a built problem: its triangle, right-hand side, reference solution */
typedef struct bench_problem {
    domino_matrix T;      /* lower or upper triangle with its diagonal, CSR, owned */
    void *x_true;         /* known solution, size n, owned */
    void *b;              /* right-hand side T x_true, size n, owned */
    void *x_ref;          /* domino_ref_trsv's solution, size n, owned */
    domino_type type;     /* value type */
    int32_t n;            /* rows */
    int64_t nnz;          /* entries of T */
    domino_levels *levels; /* level structure of the solve (levels, parallelism, dependency), owned */
    double build_seconds; /* time to generate or read, and prepare */
    solve_problem solve;  /* the system as the engines see it */
} bench_problem;

/* build spec in the value type; on failure p holds nothing */
domino_status bench_problem_build(domino_handle h, const problem_spec *spec, domino_type type,
                                  bench_problem *p);
void bench_problem_free(bench_problem *p);

/* The matrix of the SpMM/SpGEMM suites' problem spec, in float when
 * use_float: R-MAT with the paper's a = 0.6, b = c = d = 0.4/3, default
 * edge factor 8; a stencil's whole matrix (d3n27:128: the 3D stencil
 * matrices of the papers' benchmarks; ":upper" is refused); or a
 * Matrix Market file as stored (general).  DOMINO_INVALID_VALUE for a
 * random DAG. */
domino_status bench_problem_product_matrix(domino_handle h, const problem_spec *spec, int use_float, domino_matrix *A);

/* The problems of the trsv suite (quick: about 1/8 of the sizes) into a new
 * array *specs (free with free()) of *count entries; matrices_dir is scanned
 * for .mtx and .mtx.gz files.  0 on success, -1 when out of memory. */
int bench_suite_trsv(int quick, const char *matrices_dir, problem_spec **specs, int *count);

/* The problems of the stencil suite: D3N7, D3N13, D3N27, D3N33 on 64^3,
 * 128^3, 192^3, 256^3 (quick: 16^3, 24^3), lower and upper. */
int bench_suite_stencil(int quick, problem_spec **specs, int *count);

#endif /* DOMINO_CLI_BENCH_PROBLEMS_H */
