/* bench_precond.h: "domino bench --suite precond": GPU ILU(0) / IC(0)
 * factorization and preconditioned CG / BiCGSTAB against cuSPARSE */
#ifndef DOMINO_CLI_BENCH_PRECOND_H
#define DOMINO_CLI_BENCH_PRECOND_H

/* Run the suite: generated 3D Poisson problems (D3N7, D3N27 full; 64^3,
 * 128^3, 192^3, quick: 16^3, 24^3) and the shared SPD matrices of
 * matrices_dir (pattern files: graph Laplacian + 0.01 I; bcsstk13: A + 0.3
 * diag(A)); prints a table, writes CSV to csv_path and JSON to json_path
 * when not NULL.  Returns the exit code: 0 all ok, 1 a failure or no GPU. */
int bench_precond_run(int quick, const char *matrices_dir, const char *csv_path,
                      const char *json_path);

#endif
