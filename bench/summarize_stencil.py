#!/usr/bin/env python3
"""summarize_stencil.py: the issue-4 figures from a `domino bench --suite stencil` CSV.

usage: summarize_stencil.py RESULTS.csv [GENERAL.csv]
Prints per problem the solve time of every engine, the speedups over
cusparse of the structured solve from CSR (stencil) and from the compact
form (stencil-compact), the paper's ablation steps, effective bandwidth, the
kernel the compact solve took (D=.. for the queue kernel, tile=UxZ), and
the averages the issue asks for; GENERAL.csv (a run of the thread engine
beside stencil-compact) adds the comparison with the general engine.
Writes RESULTS-bandwidth.dat for plot_stencil.gp.
"""
import csv
import math
import sys


def load(path):
    out = {}
    for r in csv.DictReader(open(path)):
        out.setdefault(r["problem"], {})[r["engine"]] = r
    return out


def main():
    path = sys.argv[1]
    probs = load(path)
    general = load(sys.argv[2]) if len(sys.argv) > 2 else {}
    ms = lambda d, e: float(d[e]["solve_ms"]) if e in d and d[e]["passed"] == "1" else float("nan")
    names = ["stencil", "stencil-compact", "stencil-partition", "stencil-multistage",
             "stencil-compressed", "auto", "cusparse"]
    print("%-26s" % "problem" + "".join("%10s" % n.replace("stencil-", "") for n in names) +
          "  x_csr x_cmp x_auto cmp_GB/s  cmp_kernel" + ("  thread  cmp/thr" if general else ""))
    sp_csr, sp_cmp, gain, dat = [], [], [], []
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
            line += "  %7.2f %7.1f" % (thr, thr / ms(general[p], "stencil-compact"))
        print(line)
        sp_csr.append(base / t["stencil"])
        sp_cmp.append(base / t["stencil-compact"])
        gain.append(t["stencil"] / t["stencil-compact"])
        dat.append((p, *(float(d[n]["gbs"]) if n in d else float("nan")  # nan: engine not run
                         for n in ("stencil", "stencil-compact", "stencil-partition",
                                   "stencil-multistage", "stencil-compressed", "cusparse"))))
    mean = lambda v: sum(v) / len(v)
    geo = lambda v: math.exp(sum(math.log(x) for x in v) / len(v))
    print("average speedup over cusparse: CSR input %.2fx (geomean %.2fx), compact %.2fx (geomean %.2fx)"
          % (mean(sp_csr), geo(sp_csr), mean(sp_cmp), geo(sp_cmp)))
    print("compact over CSR input: average %.2fx, range %.2f-%.2fx" % (mean(gain), min(gain), max(gain)))
    with open(path.rsplit(".", 1)[0] + "-bandwidth.dat", "w") as f:
        f.write("# problem csr compact partition multistage compressed cusparse (effective GB/s)\n")
        for i, row in enumerate(dat):
            f.write("%d %s %s\n" % (i, row[0], " ".join("%.1f" % v for v in row[1:])))


if __name__ == "__main__":
    main()
