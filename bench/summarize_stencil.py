#!/usr/bin/env python3
"""summarize_stencil.py: the issue-4 figures from a `domino bench --suite stencil` CSV.

usage: summarize_stencil.py RESULTS.csv [GENERAL.csv]
Prints per problem the solve time of every engine, the speedups over
cusparse of the structured solve from CSR (stencil) and from the compact
form (stencil-compact), the paper's ablation steps, effective bandwidth, the
kernel the compact solve took (D=.. for the queue kernel, tile=UxZ), and
the averages the issue asks for, and the first call (the structured solve
has no analysis) against cusparse's analysis + solve.  The general thread
engine is compared with both input forms when RESULTS.csv holds it (same
process), else from GENERAL.csv (a run of it beside stencil-compact).
Writes RESULTS-bandwidth.dat for plot_stencil.gp and, for a CSV gathered
from per-problem processes (bench/stencil-run.sh), RESULTS.json: its rows.
"""
import csv
import json
import math
import os
import sys


def load(path):
    out = {}
    for r in csv.DictReader(open(path)):
        out.setdefault(r["problem"], {})[r["engine"]] = r
    return out


def number(v):
    """a CSV field as JSON writes it, as the bench's --json-out does: an int,
    else a finite float, else null (nan, inf), else the string itself"""
    for kind in (int, float):
        try:
            x = kind(v)
            return x if math.isfinite(x) else None
        except ValueError:
            pass
    return v


def ours(json_path):
    """1 if json_path is absent or was written by this script (a "source"
    key), not by domino bench --json-out"""
    if not os.path.exists(json_path):
        return 1
    try:
        return "source" in json.load(open(json_path))
    except ValueError:
        return 0


def main():
    path = sys.argv[1]
    probs = load(path)
    general = load(sys.argv[2]) if len(sys.argv) > 2 else {}
    if not general and any("thread" in d for d in probs.values()):
        general = probs
    ms = lambda d, e: float(d[e]["solve_ms"]) if e in d and d[e]["passed"] == "1" else float("nan")
    names = ["stencil", "stencil-compact", "stencil-partition", "stencil-multistage",
             "stencil-compressed", "auto", "cusparse"]
    print("%-26s" % "problem" + "".join("%10s" % n.replace("stencil-", "") for n in names) +
          "  x_csr x_cmp x_auto cmp_GB/s  cmp_kernel" + ("  thread thr/csr thr/cmp" if general else ""))
    sp_csr, sp_cmp, gain, dat, over_thr, first = [], [], [], [], [], []
    slower_of = "stencil" if general is probs else "stencil-compact"  # the input form checked against thread
    for p, d in probs.items():
        t = {n: ms(d, n) for n in names}
        base = t["cusparse"]
        line = "%-26s" % p + "".join("%10.3f" % t[n] for n in names)
        used = d["stencil-compact"].get("engine_used", "").split(" ")[-1]  # D=.. or tile=UxZ
        line += "  %5.2f %5.2f %6.2f %8.0f  %10s" % (base / t["stencil"], base / t["stencil-compact"],
                                                    base / t["auto"], float(d["stencil-compact"]["gbs"]),
                                                    used)
        if general and p in general:
            thr = ms(general[p], "thread")
            csr = ms(general[p], "stencil") if general is probs else float("nan")
            line += "  %7.2f %7.1f %7.1f" % (thr, thr / csr, thr / ms(general[p], "stencil-compact"))
            ratio = thr / ms(general[p], slower_of)
            over_thr.append((ratio if math.isfinite(ratio) else None, p))  # None: one of them did not pass
        print(line)
        sp_csr.append(base / t["stencil"])
        sp_cmp.append(base / t["stencil-compact"])
        gain.append(t["stencil"] / t["stencil-compact"])
        ran = all(e in d and d[e]["passed"] == "1" and float(d[e].get("first_solve_ms") or 0) > 0
                  for e in ("cusparse", "stencil", "stencil-compact"))
        if ran:  # cusparse's analysis + solve against our first call
            cus = float(d["cusparse"]["analysis_ms"]) + base
            first.append((cus / float(d["stencil"]["first_solve_ms"]),
                          cus / float(d["stencil-compact"]["first_solve_ms"])))
        dat.append((p, *(float(d[n]["gbs"]) if n in d else float("nan")  # nan: engine not run
                         for n in ("stencil", "stencil-compact", "stencil-partition",
                                   "stencil-multistage", "stencil-compressed", "cusparse"))))
    mean = lambda v: sum(v) / len(v)
    geo = lambda v: math.exp(sum(math.log(x) for x in v) / len(v))
    print("average speedup over cusparse: CSR input %.2fx (geomean %.2fx), compact %.2fx (geomean %.2fx)"
          % (mean(sp_csr), geo(sp_csr), mean(sp_cmp), geo(sp_cmp)))
    print("compact over CSR input: average %.2fx, range %.2f-%.2fx" % (mean(gain), min(gain), max(gain)))
    if first:
        span = lambda v: "%.1fx (range %.1f-%.1fx)" % (mean(v), min(v), max(v))
        print("first call against cusparse analysis + solve: CSR input %s, compact %s"
              % (span([f[0] for f in first]), span([f[1] for f in first])))
    if over_thr:
        both = [(r, p) for r, p in over_thr if r is not None]
        lo = min(both) if both else (float("nan"), "none")
        print("general thread engine over the structured solve (%s): slower on %d of %d problems, slowest "
              "margin %.1fx (%s); not compared (one of them failed or did not run): %d"
              % ("CSR input" if slower_of == "stencil" else "compact", sum(r > 1 for r, _ in both),
                 len(over_thr), lo[0], lo[1], len(over_thr) - len(both)))
    stem = path.rsplit(".", 1)[0]
    if ours(stem + ".json"):  # domino bench --json-out's own is never overwritten
        rows = [{k: (v == "1" if k == "passed" else number(v)) for k, v in r.items()}
                for r in csv.DictReader(open(path))]
        with open(stem + ".json", "w") as f:
            json.dump({"source": os.path.basename(path), "results": rows}, f, indent=1)
    with open(stem + "-bandwidth.dat", "w") as f:
        f.write("# problem csr compact partition multistage compressed cusparse (effective GB/s)\n")
        for i, row in enumerate(dat):
            f.write("%d %s %s\n" % (i, row[0], " ".join("%.1f" % v for v in row[1:])))


if __name__ == "__main__":
    main()
