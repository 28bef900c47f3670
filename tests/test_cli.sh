#!/usr/bin/env bash
# test_cli.sh: shell-driven tests of the domino command-line tool.
# usage: test_cli.sh PATH/TO/domino [SHARED_MATRICES_DIR]
# Ends with "N passed, N failed" and exits non-zero when a check failed.
set -u
DOMINO=${1:?usage: test_cli.sh PATH/TO/domino [SHARED_MATRICES_DIR]}
MATRICES=${2:-$(dirname "$0")/../../shared/matrices}
source "$(dirname "$0")/cli_harness.sh"

# ---- help and usage errors
expect 0 "--help" -- "$DOMINO" --help
expect_grep out "usage: domino" "--help prints usage"
expect 0 "help" -- "$DOMINO" help
expect 0 "--version" -- "$DOMINO" --version
expect_grep out "domino 0" "--version prints the version"
for cmd in info gen solve bench run; do
    expect 0 "$cmd --help" -- "$DOMINO" "$cmd" --help
    expect_grep out "usage: domino $cmd" "$cmd --help prints its usage"
    expect 0 "help $cmd" -- "$DOMINO" help "$cmd"
done
expect 2 "no command" -- "$DOMINO"
expect 2 "unknown command" -- "$DOMINO" frobnicate
expect_grep err "unknown command 'frobnicate'" "unknown command message"
expect 2 "unknown top option" -- "$DOMINO" --frob
expect 2 "unknown bench option" -- "$DOMINO" bench --frob
expect_grep err "domino bench: unknown option '--frob'" "unknown option message"
expect_grep err "usage: domino bench" "unknown option prints usage"
expect 2 "non-numeric --grid" -- "$DOMINO" bench --grid abc
expect_grep err "domino bench: --grid" "non-numeric value message"
expect 2 "out-of-range --repeat" -- "$DOMINO" bench --repeat 0
expect 2 "missing value" -- "$DOMINO" bench --repeat
expect 2 "unknown engine" -- "$DOMINO" bench --engines cpu-seq,nope
expect 2 "bad problem" -- "$DOMINO" bench --problem dag:10:2
expect 2 "bad suite" -- "$DOMINO" bench --suite nope
expect 2 "--lean outside spmm" -- "$DOMINO" bench --suite spgemm --lean
expect_grep err "domino bench: --lean goes with --suite spmm" "--lean names its suite"
expect 2 "--widths outside spmm" -- "$DOMINO" bench --suite trsv --widths 128
expect 2 "info without file" -- "$DOMINO" info
expect 2 "solve bad --rhs" -- "$DOMINO" solve x.mtx --rhs -3
expect 2 "solve unknown engine" -- "$DOMINO" solve x.mtx --engine nope
expect 2 "solve --dist unknown solver" -- "$DOMINO" solve x.mtx --dist nope
expect 2 "solve --dist unknown scheme" -- "$DOMINO" solve x.mtx --dist pull --scheme blocks
expect 2 "solve --scheme needs --dist" -- "$DOMINO" solve x.mtx --scheme linked
expect 2 "solve --dist takes no --float" -- "$DOMINO" solve x.mtx --dist pull --float
expect 2 "solve --tasks goes with taskpool" -- "$DOMINO" solve x.mtx --dist pull --scheme linked --tasks 4
expect 2 "solve --tasks is no auto scheme" -- "$DOMINO" solve x.mtx --dist pull --scheme auto --tasks 4
expect_grep err "tasks goes with --scheme taskpool" "solve --tasks names the scheme it needs"
expect 2 "solve --dist takes no Krylov option" -- "$DOMINO" solve x.mtx --dist pull --precond ilu0
expect 2 "solve --krylov takes no --scheme" -- "$DOMINO" solve x.mtx --krylov cg --scheme linked
expect 2 "gen unknown kind" -- "$DOMINO" gen nope
expect 2 "gen stencil bad type" -- "$DOMINO" gen stencil --type d9n99 --grid 4 -o "$TMP/x.mtx"
expect 2 "gen stencil bad grid" -- "$DOMINO" gen stencil --type d3n7 --grid 4x -o "$TMP/x.mtx"
expect 2 "gen dag missing args" -- "$DOMINO" gen dag --rows 10 -o "$TMP/x.mtx"
expect 2 "gen rmat bad abcd" -- "$DOMINO" gen rmat --scale 4 --abcd 0.5,0.5 -o "$TMP/x.mtx"
expect 2 "--name=value bad" -- "$DOMINO" bench --grid=1x

# ---- gen -> info -> solve round trips
expect 0 "gen stencil" -- "$DOMINO" gen stencil --type d3n7 --grid 6 -o "$TMP/s.mtx"
expect_grep err "nnz" "gen reports what it wrote"
expect 0 "gen stencil lower gz" -- "$DOMINO" gen stencil --type d2n5 --grid=8x5 --part lower -o "$TMP/s2.mtx.gz"
expect 0 "gen rmat" -- "$DOMINO" gen rmat --scale 7 --seed 3 -o "$TMP/r.mtx"
expect 0 "gen dag" -- "$DOMINO" gen dag --rows 500 --per-row 4 --levels 25 --band 40 -o "$TMP/d.mtx"
expect 0 "info stencil" -- "$DOMINO" info "$TMP/s.mtx"
expect_grep out "216 x 216" "info size"
expect_grep out "levels 16" "info levels of a 6^3 7-point lower triangle"
expect 0 "info gz" -- "$DOMINO" info "$TMP/s2.mtx.gz"
expect_grep out "40 x 40" "info of a .gz file"
expect 0 "info dag json" -- "$DOMINO" info "$TMP/d.mtx" --json
expect_json "info json is valid"
expect_grep out '"levels": 25' "dag has the levels asked for"
expect 0 "info rmat (pattern)" -- "$DOMINO" info "$TMP/r.mtx"
expect_grep out "pattern" "rmat is a pattern file"
expect 0 "solve stencil" -- "$DOMINO" solve "$TMP/s.mtx"
expect_grep out "check: *ok" "solve stencil check"
expect 0 "solve upper transposed 3 rhs" -- "$DOMINO" solve "$TMP/s.mtx" --upper --transpose --rhs 3
expect 0 "solve syncfree transposed" -- "$DOMINO" solve "$TMP/s.mtx" --engine cpu-syncfree --transpose --rhs 2
expect 0 "solve unit float" -- "$DOMINO" solve "$TMP/d.mtx" --unit --float
expect 0 "solve gz json" -- "$DOMINO" solve "$TMP/s2.mtx.gz" --json
expect_json "solve json is valid"
expect 0 "solve pattern rmat" -- "$DOMINO" solve "$TMP/r.mtx"
expect_grep err "values assigned" "solve notes assigned values"
expect 1 "solve GPU engine without GPU" -- "$DOMINO" solve "$TMP/s.mtx" --engine warp
expect_grep err "needs a GPU" "GPU engine message"
expect 1 "solve --dist outside a run" -- "$DOMINO" solve "$TMP/s.mtx" --dist pull
expect_grep err "domino run -n N\|NVSHMEM" "solve --dist says how to start it"

# ---- errors in files
printf '%%%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 2.0\n2 1 1.0\n3 3 x\n' >"$TMP/bad.mtx"
expect 1 "info bad file" -- "$DOMINO" info "$TMP/bad.mtx"
expect_grep err "bad.mtx:5" "bad file message names file:line"
expect 1 "solve bad file" -- "$DOMINO" solve "$TMP/bad.mtx"
expect_grep err "bad.mtx:5" "solve bad file message names file:line"
expect 1 "info missing file" -- "$DOMINO" info "$TMP/none.mtx"
printf '%%%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 2.0\n2 1 1.0\n3 3 4\n' >"$TMP/nodiag.mtx"
expect 1 "solve missing diagonal" -- "$DOMINO" solve "$TMP/nodiag.mtx"
expect_grep err "row 1" "missing diagonal names the row"
expect_grep err "counted from 0" "the row's numbering is stated"
expect 1 "bench on a missing file" -- "$DOMINO" bench --problem "$TMP/none.mtx" --repeat 1

# ---- shared matrices
if [ -f "$MATRICES/cage8.mtx" ]; then
    expect 0 "solve cage8" -- "$DOMINO" solve "$MATRICES/cage8.mtx"
    expect_grep out "check: *ok" "cage8 check"
    expect 0 "solve cage8 upper cpu" -- "$DOMINO" solve "$MATRICES/cage8.mtx" --upper --engine cpu
    expect 0 "solve bcspwr10 (pattern)" -- "$DOMINO" solve "$MATRICES/bcspwr10.mtx"
    expect_grep err "values assigned" "bcspwr10 values note"
    expect 0 "info bcsstk13 (symmetric)" -- "$DOMINO" info "$MATRICES/bcsstk13.mtx"
    expect_grep out "nnz stored: *42943" "bcsstk13 stored nnz"
    expect 0 "bench on a shared file" -- "$DOMINO" bench --problem "$MATRICES/cage8.mtx" --repeat 2
    expect 1 "ic0 breaks down on bcsstk13" -- "$DOMINO" solve "$MATRICES/bcsstk13.mtx" --krylov cg --precond ic0
    expect_grep err "pivot at row 95" "ic0 breakdown names the row"
    expect 0 "ic0 with a diagonal shift on bcsstk13" -- "$DOMINO" solve "$MATRICES/bcsstk13.mtx" --krylov cg --precond ic0 --diag-shift 0.3 --maxit 2000
    expect_grep out "converged: *yes" "shifted ic0 converged"
else
    skipped=$((skipped + 1))
    echo "skipped: no shared matrices in $MATRICES" >&2
fi

# ---- Krylov mode (CPU reference)
expect 0 "gen d3n7 10^3 full" -- "$DOMINO" gen stencil --type d3n7 --grid 10x10x10 --part full -o "$TMP/k.mtx"
expect 0 "krylov cg ic0 on d3n7" -- "$DOMINO" solve "$TMP/k.mtx" --krylov cg --precond ic0
expect_grep out "converged: *yes" "cg ic0 converged"
expect_grep out "engine: *cpu" "krylov engine is cpu"
expect_grep out "pivots replaced: *0" "cg ic0 pivots replaced"
expect 0 "krylov cg jacobi random rhs" -- "$DOMINO" solve "$TMP/k.mtx" --krylov cg --precond jacobi --rhs random --rtol 1e-10
expect 0 "krylov bicgstab none on d3n7" -- "$DOMINO" solve "$TMP/k.mtx" --krylov bicgstab --precond none
expect 0 "krylov json" -- "$DOMINO" solve "$TMP/k.mtx" --krylov cg --precond ic0 --json
expect_json "krylov json is valid"
expect_grep out '"history": \[' "krylov json has the history array"
expect_grep out '"converged": true' "krylov json converged"
expect 0 "krylov json history parses as a list" -- python3 -c \
    'import json,sys; d=json.load(open(sys.argv[1])); assert isinstance(d["history"], list) and len(d["history"]) == d["iterations"] + 1' "$TMP/last.json"
expect 1 "krylov not converged" -- "$DOMINO" solve "$TMP/k.mtx" --krylov cg --maxit 2
expect_grep out "converged: *no" "not converged is reported"
expect_grep err "did not converge" "not converged says why"
expect 2 "krylov bad --precond" -- "$DOMINO" solve "$TMP/k.mtx" --krylov cg --precond ilu9
expect_grep err "unknown preconditioner 'ilu9'" "bad --precond message"
expect 2 "krylov bad method" -- "$DOMINO" solve "$TMP/k.mtx" --krylov gmres
expect 2 "krylov rtol 0" -- "$DOMINO" solve "$TMP/k.mtx" --krylov cg --rtol 0
expect 2 "krylov maxit 0" -- "$DOMINO" solve "$TMP/k.mtx" --krylov cg --maxit 0
expect 2 "krylov negative diag shift" -- "$DOMINO" solve "$TMP/k.mtx" --krylov cg --precond ic0 --diag-shift -1
expect 2 "--precond without --krylov" -- "$DOMINO" solve "$TMP/k.mtx" --precond ic0
expect 2 "--engine with --krylov" -- "$DOMINO" solve "$TMP/k.mtx" --krylov cg --engine cpu
printf '%%%%MatrixMarket matrix coordinate real general\n7 1 2\n1 1 2.0\n3 1 1.0\n' >"$TMP/rhs7.mtx"
expect 1 "krylov rhs of the wrong size" -- "$DOMINO" solve "$TMP/k.mtx" --krylov cg --rhs "$TMP/rhs7.mtx"
expect_grep err "rhs7.mtx" "wrong-size rhs message names the file"
printf '%%%%MatrixMarket matrix coordinate real general\n1000 1 2\n1 1 2.0\n999 1 -1.0\n' >"$TMP/rhs1000.mtx"
expect 0 "krylov rhs file" -- "$DOMINO" solve "$TMP/k.mtx" --krylov cg --precond ic0 --rhs "$TMP/rhs1000.mtx"
expect_grep out "converged: *yes" "rhs file solve converged"
if [ -f "$MATRICES/cage8.mtx" ]; then
    expect 0 "krylov bicgstab ilu0 cage8" -- "$DOMINO" solve "$MATRICES/cage8.mtx" --krylov bicgstab --precond ilu0
    expect_grep out "converged: *yes" "cage8 bicgstab ilu0 converged"
    expect 0 "krylov cg bcspwr10 (pattern)" -- "$DOMINO" solve "$MATRICES/bcspwr10.mtx" --krylov cg --precond ic0 --rhs random
    expect_grep err "graph Laplacian" "bcspwr10 Laplacian note"
    expect_grep out "converged: *yes" "bcspwr10 cg converged"
else
    skipped=$((skipped + 1))
    echo "skipped: Krylov tests on shared matrices (none in $MATRICES)" >&2
fi

# ---- bench
expect 0 "bench small" -- "$DOMINO" bench --grid 8 --repeat 2
expect_grep out "GB/s = (nnz\*(8+4)" "bench states the bandwidth formula"
expect_grep out "cpu-syncfree" "bench runs cpu-syncfree"
expect 0 "bench json" -- "$DOMINO" bench --grid 8 --repeat 2 --json
expect_json "bench json is valid"
expect_grep out '"command"' "bench json has the command line"
expect 0 "bench problems and files" -- "$DOMINO" bench --problem dag:2000:4:30 --repeat 1 \
    --csv "$TMP/b.csv" --json-out "$TMP/b.json" --engines cpu-seq,cpu-syncfree --float
expect 0 "bench json-out is valid" -- python3 -m json.tool "$TMP/b.json"
expect_grep b.csv "^problem,n,nnz" "csv header"
expect_grep b.csv "dag:2000:4:30" "csv row"
expect 0 "bench rmat" -- "$DOMINO" bench --problem rmat:8 --repeat 1
expect 0 "bench 2D stencil" -- "$DOMINO" bench --problem d2n9:20x10 --repeat 1
expect 1 "bench GPU engine without GPU" -- "$DOMINO" bench --engines warp --grid 4
expect 0 "bench suite quick" -- env DOMINO_MATRICES="$MATRICES" "$DOMINO" bench --suite trsv --quick --engines cpu-seq --repeat 1
expect_grep out "dag:125000:2:125000" "suite has the chain"
expect_grep out "rmat:14" "suite has R-MAT"

# structured-grid and preconditioner suites, GPU Krylov options
expect 0 "stencil problem, upper, CPU engine" -- "$DOMINO" bench --problem d3n7:12:upper --engines cpu-seq --repeat 1
expect_grep out "D3N7:12x12x12:upper" "upper stencil problem name"
expect 2 "bad stencil side" -- "$DOMINO" bench --problem d3n7:12:sideways
expect 2 "stencil suite takes no --upper" -- "$DOMINO" bench --suite stencil --upper
expect 2 "precond suite takes no --engines" -- "$DOMINO" bench --suite precond --engines auto
expect 2 "--gpu needs --krylov" -- "$DOMINO" solve "$TMP/k.mtx" --gpu
expect 2 "--cusparse needs --gpu" -- "$DOMINO" solve "$TMP/k.mtx" --krylov cg --cusparse
HAVE_GPU=0
nvidia-smi -L > /dev/null 2>&1 && HAVE_GPU=1
if [ "$HAVE_GPU" = 0 ]; then
    expect 1 "gpu krylov without a GPU" -- "$DOMINO" solve "$TMP/k.mtx" --krylov cg --precond ic0 --gpu
    expect_grep err "CUDA" "gpu krylov says why"
    expect 1 "bench spmv row without a GPU" -- "$DOMINO" bench --engines cpu-seq,spmv --grid 4
    expect_grep err "engine 'spmv' needs a GPU" "bench spmv says why"
fi

# domino trace: usage errors; without a GPU it says so
expect 2 "trace without a problem" -- "$DOMINO" trace
expect 2 "trace of an unknown problem" -- "$DOMINO" trace nosuch:3
expect_grep err "unknown problem 'nosuch:3'" "trace names the bad problem"
expect 2 "trace of an upper triangle" -- "$DOMINO" trace d2n5:8x8:upper
expect 2 "trace with an unknown option" -- "$DOMINO" trace d2n5:8x8 --frob
expect 0 "trace --help" -- "$DOMINO" trace --help
expect_grep out "usage: domino trace" "trace --help prints usage"
if [ "$HAVE_GPU" = 0 ]; then
    expect 1 "trace without a GPU" -- "$DOMINO" trace d2n5:8x8
    expect_grep err "needs a GPU" "trace says why"
fi

# the distribution planning suite (no GPU)
expect 0 "dist-plan quick on 3 PEs" -- env DOMINO_MATRICES="$TMP/none" "$DOMINO" bench --suite dist-plan --quick --pes 3 --csv "$TMP/dp.csv"
expect_grep out "taskpool-32" "dist-plan lists the task pools"
[ "$(wc -l < "$TMP/dp.csv")" -gt 10 ] && ok || bad "dist-plan writes its CSV"
expect 2 "dist-plan takes no --upper" -- "$DOMINO" bench --suite dist-plan --upper
expect 2 "--pes needs dist-plan" -- "$DOMINO" bench --pes 2

# domino run: N processes, a failing PE named, usage errors
expect 0 "run -n 3 info" -- "$DOMINO" run -n 3 info "$TMP/k.mtx"
[ "$(grep -c '^size:' "$TMP/out")" = 3 ] && ok || bad "run -n 3: three PEs printed"
expect 1 "run -n 2 on a missing file" -- "$DOMINO" run -n 2 info "$TMP/missing.mtx"
expect_grep err "PE [01] of 2 failed (exit code 1)" "run names the failing PE"
expect 2 "run without -n" -- "$DOMINO" run info "$TMP/k.mtx"
expect 2 "run -n 0" -- "$DOMINO" run -n 0 info "$TMP/k.mtx"
expect 2 "run runs no run" -- "$DOMINO" run -n 2 run -n 2 info "$TMP/k.mtx"
expect 2 "run of an unknown command" -- "$DOMINO" run -n 2 frob

echo "test_cli: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
