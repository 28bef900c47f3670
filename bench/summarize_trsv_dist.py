#!/usr/bin/env python3
"""summarize_trsv_dist.py CSV [CSV_1PE]: the tables the multi-GPU SpTRSV
issue asks for, from the CSV of `domino run -n N bench --suite trsv-dist`
(and optionally the same suite on 1 PE, for strong scaling):
  1. the paper's Figure 7: um, um-tasks8, zerocopy (contiguous), zerocopy-tasks8
     normalised to um, with every other multi-GPU configuration beside;
  2. task-count sensitivity (4/8/16/32 tasks per GPU) for zerocopy, push, pull;
  3. strong scaling: each solver's N-PE time against its 1-PE time, and against
     single-GPU cuSPARSE and domino in the same run, with levels, parallelism
     and dependency per matrix.
Only rows whose answer was checked (status ok) count; geometric means over
the matrices where a configuration ran."""
import csv, math, sys


def load(path):
    rows = [r for r in csv.DictReader(open(path)) if r["status"] == "ok"]
    by = {}
    for r in rows:
        by.setdefault(r["problem"], {})[r["config"]] = r
    return by


def geomean(xs):
    xs = [x for x in xs if x and x > 0 and math.isfinite(x)]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def main():
    main_csv = load(sys.argv[1])
    one = load(sys.argv[2]) if len(sys.argv) > 2 else {}
    problems = list(main_csv)
    configs = []
    for p in problems:
        for c in main_csv[p]:
            if c not in configs:
                configs.append(c)
    multi = [c for c in configs if not c.endswith("1gpu")]
    print("## 1. Figure 7: speed-up over um (same GPUs)\n")
    fig7 = [c for c in ["um", "um-tasks8", "zerocopy", "zerocopy-tasks8"] if c in multi]
    rest = [c for c in multi if c not in fig7]
    cols = fig7 + rest
    print("| problem | levels | parallelism | dependency | " + " | ".join(cols) + " |")
    print("|---" * (4 + len(cols)) + "|")
    for p in problems:
        r0 = next(iter(main_csv[p].values()))
        um = main_csv[p].get("um")
        cells = []
        for c in cols:
            r = main_csv[p].get(c)
            cells.append("%.2f" % (float(um["seconds"]) / float(r["seconds"])) if r and um else "")
        print("| %s | %s | %s | %s | %s |" % (p, r0["levels"], r0["parallelism"], r0["dependency"], " | ".join(cells)))
    means = []
    for c in cols:
        means.append("%.2f" % geomean([float(main_csv[p]["um"]["seconds"]) / float(main_csv[p][c]["seconds"])
                                       for p in problems if c in main_csv[p] and "um" in main_csv[p]]))
    print("| geomean | | | | " + " | ".join(means) + " |\n")
    print("## 2. Tasks per GPU (time relative to the contiguous distribution of the same solver)\n")
    for solver in ["zerocopy", "push", "pull"]:
        ks = [k for k in [4, 8, 16, 32] if "%s-tasks%d" % (solver, k) in configs]
        if solver not in configs or not ks:
            continue
        vals = [geomean([float(main_csv[p][solver]["seconds"]) / float(main_csv[p]["%s-tasks%d" % (solver, k)]["seconds"])
                         for p in problems if solver in main_csv[p] and "%s-tasks%d" % (solver, k) in main_csv[p]])
                for k in ks]
        print("- %s: " % solver + ", ".join("%d tasks %.2fx" % (k, v) for k, v in zip(ks, vals)))
    print("\n## 3. Strong scaling (N-PE run over: its own 1-PE run, cusparse-1gpu, domino-1gpu)\n")
    print("| problem | parallelism | config | x own 1 PE | x cuSPARSE 1 GPU | x domino 1 GPU |")
    print("|---|---|---|---|---|---|")
    for p in problems:
        for c in multi:
            r = main_csv[p].get(c)
            if not r:
                continue
            t = float(r["seconds"])
            own = one.get(p, {}).get(c)
            cus = main_csv[p].get("cusparse-1gpu")
            dom = main_csv[p].get("domino-1gpu")
            f = lambda x: "%.3g" % (float(x["seconds"]) / t) if x else ""
            print("| %s | %s | %s | %s | %s | %s |" % (p, r["parallelism"], c, f(own), f(cus), f(dom)))


if __name__ == "__main__":
    main()
