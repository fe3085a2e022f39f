#!/usr/bin/env python3
"""Peak memory and time on hostile input, at several -j (issue #38: at most 1 GiB whatever
the input, at any -j).

    bench/hostile.py [--bin PATH]

Generates under `bench/out/hostile/` (deterministic) three trees, each the worst this tool's
budgets allow of one kind, and runs `plan --no-render --format json` on each at -j 1, 16
64 and 256 (-j is capped at 64) under GNU time, printing peak RSS, wall time and the budget diagnostics the report
holds (a budget that is hit must show):

- `bombs-max`: 256 files of two documents replaying about the per-document limit (50,000
  events): one file per thread at any -j.
- `bombs-many`: 64 files of 200 documents, each expanding to about 38,000 nodes (under the
  per-document limit; the per-file and per-run budgets stop them).
- `scalars`: 40 files of 9 MiB, each one document holding one huge scalar (under the
  10 MiB file limit): 360 MiB to parse, past the run's budget of 256 MiB.
"""

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out" / "hostile"


def anchors(depth):
    text = "a0: &a0 [lol,lol,lol,lol,lol,lol,lol,lol,lol]\n"
    for i in range(1, depth):
        text += f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 9) + "]\n"
    return text


def service(name, body):
    return f"apiVersion: v1\nkind: Service\nmetadata:\n  name: {name}\n{body}"


def generate():
    trees = {}
    tree = OUT / "bombs-max"
    tree.mkdir(parents=True, exist_ok=True)
    for f in range(256):
        under = service(f"u{f}", anchors(4) + "b: [" + ",".join(["*a3"] * 6) + "]\n")
        over = service(f"o{f}", anchors(5))
        (tree / f"f{f}.yaml").write_text(f"---\n{under}---\n{over}")
    trees["bombs-max"] = tree
    tree = OUT / "bombs-many"
    tree.mkdir(parents=True, exist_ok=True)
    doc = anchors(4) + "b: [*a3, *a3, *a3, *a3]\n"
    for f in range(64):
        (tree / f"f{f}.yaml").write_text(
            "".join(f"---\n{service(f's{f}-{i}', doc)}" for i in range(200))
        )
    trees["bombs-many"] = tree
    tree = OUT / "scalars"
    tree.mkdir(parents=True, exist_ok=True)
    for f in range(40):
        (tree / f"f{f}.yaml").write_text(
            service(f"big{f}", "data: " + "x" * (9 * 1024 * 1024) + "\n")
        )
    trees["scalars"] = tree
    return trees


def run(binary, tree, jobs):
    cmd = ["/usr/bin/time", "-f", "%M %e", str(binary), "plan", ".", "--no-render",
           "--format", "json", "-j", str(jobs)]
    p = subprocess.run(cmd, cwd=tree, capture_output=True, text=True)
    rss_kb, seconds = p.stderr.strip().splitlines()[-1].split()
    report = json.loads(p.stdout)
    codes = {}
    for d in report["diagnostics"]:
        if d["code"] in ("load/parse-budget", "load/invalid-yaml"):
            codes[d["code"]] = codes.get(d["code"], 0) + 1
    return int(rss_kb) // 1024, float(seconds), codes


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=str(ROOT / "target" / "release" / "gateway-migrate"))
    args = ap.parse_args()
    trees = generate()
    print("| tree | -j | peak RSS | wall | budget diagnostics |")
    print("|---|---|---|---|---|")
    worst = 0
    for name, tree in trees.items():
        for jobs in (1, 16, 64, 256):
            rss, seconds, codes = run(args.bin, tree, jobs)
            worst = max(worst, rss)
            shown = ", ".join(f"{c}: {n}" for c, n in sorted(codes.items())) or "none"
            print(f"| {name} | {jobs} | {rss} MiB | {seconds:.1f} s | {shown} |")
    print(f"\nworst peak: {worst} MiB (target: at most 1024 MiB)")
    return 0 if worst <= 1024 else 1


if __name__ == "__main__":
    sys.exit(main())
