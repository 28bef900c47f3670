#!/usr/bin/env python3
"""summarize_trsv.py: the issue-3 figures from a `domino bench --suite trsv` CSV.

usage: summarize_trsv.py RESULTS.csv [ENGINE] [COPY_GBS]
Prints, for ENGINE (default auto) against cusparse in the same run: the
geometric-mean solve speedup over the suite and over matrices with >= 1e4
levels, the worst matrix, the geometric-mean ratio of (analysis + first
solve), and effective bandwidth on the 10^7-row depth-1..100 DAGs against
COPY_GBS (the device's copy bandwidth, GB/s).  Where the CSV has the
spmv row (cusparseSpMV of the same triangle, no dependencies), also: the
geometric mean of cusparse's solve over that product (the ratio a solve as
fast as the product would reach), ENGINE's solve time over the product's,
and the product's effective bandwidth on those DAGs.  Writes
RESULTS-speedup.dat for bench/plot_trsv.gp (column 7: cusparse's solve
over the product, 0 where it did not run).
"""
import csv
import math
import sys


def geomean(values):
    values = [v for v in values if v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def main():
    path = sys.argv[1]
    engine = sys.argv[2] if len(sys.argv) > 2 else "auto"
    copy_gbs = float(sys.argv[3]) if len(sys.argv) > 3 else 0.0
    rows = list(csv.DictReader(open(path)))
    by_problem = {}
    for r in rows:
        by_problem.setdefault(r["problem"], {})[r["engine"]] = r
    solve, setup, deep, table = [], [], [], []
    ceiling, over_spmv, spmv_gbs = [], [], {}
    failed = [r for r in rows if r["passed"] != "1"]
    for problem, engines in by_problem.items():
        if engine not in engines or "cusparse" not in engines:
            continue
        e, c = engines[engine], engines["cusparse"]
        s = float(c["solve_ms"]) / float(e["solve_ms"])
        a = (float(c["analysis_ms"]) + float(c["first_solve_ms"])) / (
            float(e["analysis_ms"]) + float(e["first_solve_ms"]))
        solve.append(s)
        setup.append(a)
        if int(e["levels"]) >= 10000:
            deep.append(s)
        m = engines.get("spmv")
        c_over_m = 0.0
        if m and m["passed"] == "1" and float(m["solve_ms"]) > 0:
            c_over_m = float(c["solve_ms"]) / float(m["solve_ms"])
            ceiling.append(c_over_m)
            over_spmv.append(float(e["solve_ms"]) / float(m["solve_ms"]))
            spmv_gbs[problem] = float(m["gbs"])
        table.append((problem, int(e["n"]), int(e["levels"]), s, a, float(e["gbs"]), e["engine_used"], c_over_m))
    print(f"engine {engine} vs cusparse, {len(solve)} problems, {len(failed)} failed answers")
    print(f"geomean solve speedup            {geomean(solve):.3f}")
    print(f"geomean solve speedup, >=1e4 lv  {geomean(deep):.3f} over {len(deep)} problems")
    worst = min(table, key=lambda t: t[3])
    print(f"worst solve speedup              {worst[3]:.3f} ({worst[0]})")
    print(f"below 0.8x                       {sum(1 for t in table if t[3] < 0.8)} of {len(table)}")
    print(f"geomean (analysis+first solve)   {geomean(setup):.3f}")
    if ceiling:
        print(f"spmv: geomean cusparse solve / spmv  {geomean(ceiling):.3f} over {len(ceiling)} problems "
              "(a solve as fast as the product)")
        print(f"spmv: geomean {engine} solve / spmv    {geomean(over_spmv):.3f}")
    for t in table:
        if t[0].startswith("dag:10000000:8:") and t[2] <= 100:
            frac = f", {100 * t[5] / copy_gbs:.0f}% of copy" if copy_gbs else ""
            print(f"effective bandwidth {t[0]:24s} {t[5]:8.1f} GB/s{frac}")
            if t[0] in spmv_gbs:
                g = spmv_gbs[t[0]]
                frac = f", {100 * g / copy_gbs:.0f}% of copy" if copy_gbs else ""
                print(f"  its spmv (no dependencies)            {g:8.1f} GB/s{frac}")
    with open(path.rsplit(".", 1)[0] + "-speedup.dat", "w") as out:
        out.write("# index problem levels solve_speedup setup_speedup engine_used cusparse_over_spmv\n")
        for i, t in enumerate(table):
            out.write(f"{i} {t[0].replace(' ', '_')} {t[2]} {t[3]:.4f} {t[4]:.4f} {t[6]} {t[7]:.4f}\n")


if __name__ == "__main__":
    main()
