#!/usr/bin/env python3
"""End-to-end scale benchmark (issues 18 and 46): wall time and peak RSS of `tflite-analyze report
--json GRAPH --delegate ops=ADD` on gen_scale graphs at 64k / 256k / 1M nodes, and of `info` and
`report --json` on a 4 GiB model in the >2 GB form (weights outside the flatbuffer, written
sparse). The graphs (bench/gen_scale.py describes them), one case each:
  chain        an ADD chain, every 10th output live: one delegate partition (issue 18);
  alternating  ADD / MUL alternating, skips three back: a partition per node, about NODES / 2
               delegate partitions (issue 46);
  random-dag   ADD or MUL at random on a local random DAG: the delegate claims a random half
               of the nodes; greedy clustering joins them into about NODES / 17 delegate
               partitions (15k at 256k nodes) (issue 46).
Prints wall and CPU (user + sys) seconds, peak RSS and RSS bytes per node, the growth of wall and
CPU time from one size to the next against the growth in nodes, and, for sizes given an upstream
time, the speedup. The reader and the planner use every core, so wall time is below CPU time;
issues 18 and 46 target wall time. Measures only; asserts nothing.

usage: scale_bench.py BUILD_DIR [--workdir DIR] [--sizes 65536,262144,1048576]
                      [--cases chain,alternating,random-dag] [--upstream NODES=SECONDS ...]
                      [--baseline CLI] [--skip-large] [--repeat N] [--load]
BUILD_DIR holds tflite-analyze and gen_large_model. Generated files are kept in --workdir
(default /tmp/tfa-scale-bench) and reused. --baseline CLI measures another tflite-analyze (e.g.
the build before a change) on the same graphs, one row each after the BUILD_DIR row. --repeat N
runs each command N times and shows the best of each column: the least wall, the least CPU, the
least peak RSS (page faults on a shared virtual machine vary by a third from run to run). --load
adds an `info` row per size: loading the Graph JSON alone, the part of `report` before
delegation and planning. --upstream applies to the chain case.
"""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_scale import write_alternating_chain, write_chain, write_random_dag  # noqa: E402

CASES = {"chain": write_chain, "alternating": write_alternating_chain,
         "random-dag": write_random_dag}


def measure(cmd):
    """Wall seconds, CPU seconds (user + sys) and peak RSS in bytes of one run of `cmd`.

    Through /usr/bin/time: a child forked from Python would count Python's pages in its peak.
    """
    report = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"scale_bench_{os.getpid()}.time")
    with open(os.devnull, "wb") as devnull:
        proc = subprocess.run(["/usr/bin/time", "-o", report, "-f", "%e %U %S %M"] + cmd,
                              stdout=devnull, stderr=subprocess.PIPE)
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed: {proc.stderr.decode(errors='replace').strip()}")
    with open(report) as f:
        wall, user, system, rss_kb = f.read().split()[-4:]
    os.remove(report)
    return float(wall), float(user) + float(system), int(rss_kb) * 1024


def best_of(cmd, repeat):
    """The least wall, CPU and peak RSS of `repeat` runs of `cmd`, each its own minimum."""
    runs = [measure(cmd) for _ in range(repeat)]
    return tuple(min(run[i] for run in runs) for i in range(3))


def measure_case(name, args, binaries, upstream):
    """The rows of one graph case: each size, each binary."""
    previous = {}
    for nodes in (int(s) for s in args.sizes.split(",")):
        graph = os.path.join(args.workdir, f"{name}_{nodes}.json")
        if not os.path.exists(graph):
            CASES[name](nodes, graph)
        for label, binary in binaries:
            if args.load:
                wall, cpu, rss = best_of([binary, "info", graph], args.repeat)
                case = f"info, {name}, {nodes} nodes{label}"
                print(f"{case:<56} {wall:8.2f} {cpu:8.2f} {rss / 2**20:12.1f} {rss / nodes:8.0f}",
                      flush=True)
            wall, cpu, rss = best_of(
                [binary, "report", graph, "--json", "--delegate", "ops=ADD"], args.repeat)
            wall_growth = cpu_growth = ""
            if label in previous:
                before_nodes, before_wall, before_cpu = previous[label]
                wall_growth = f"{wall / before_wall:.2f}x/{nodes / before_nodes:.0f}x"
                cpu_growth = f"{cpu / before_cpu:.2f}x/{nodes / before_nodes:.0f}x"
            ratio = ""
            if name == "chain" and nodes in upstream and not label:
                ratio = f"{upstream[nodes] / wall:.1f}x"
            case = f"report --json, {name}, {nodes} nodes{label}"
            print(f"{case:<56} {wall:8.2f} {cpu:8.2f} {rss / 2**20:12.1f} {rss / nodes:8.0f} "
                  f"{wall_growth:>12} {cpu_growth:>12} {ratio:>12}", flush=True)
            previous[label] = (nodes, wall, cpu)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build_dir")
    parser.add_argument("--workdir", default="/tmp/tfa-scale-bench")
    parser.add_argument("--sizes", default="65536,262144,1048576")
    parser.add_argument("--cases", default=",".join(CASES),
                        help="comma-separated: " + ", ".join(CASES))
    parser.add_argument("--upstream", action="append", default=[],
                        help="NODES=SECONDS: upstream's partition + arena time at that size")
    parser.add_argument("--baseline", help="another tflite-analyze to measure on the same chains")
    parser.add_argument("--skip-large", action="store_true", help="no 4 GiB model rows")
    parser.add_argument("--repeat", type=int, default=1,
                        help="runs per command; the best of each column is shown")
    parser.add_argument("--load", action="store_true", help="an `info` row per size too")
    args = parser.parse_args()
    cli = os.path.join(args.build_dir, "tflite-analyze")
    os.makedirs(args.workdir, exist_ok=True)
    upstream = {int(k): float(v) for k, v in (u.split("=") for u in args.upstream)}

    print(f"{'case':<56} {'wall s':>8} {'cpu s':>8} {'peak RSS MB':>12} {'B/node':>8} "
          f"{'wall growth':>12} {'cpu growth':>12} {'vs upstream':>12}")
    binaries = [("", cli)] + ([(" (baseline)", args.baseline)] if args.baseline else [])
    for name in args.cases.split(","):
        if name not in CASES:
            sys.exit(f"unknown case {name}; cases: {', '.join(CASES)}")
        measure_case(name, args, binaries, upstream)

    if args.skip_large:
        return

    large = os.path.join(args.workdir, "large_4g.tflite")
    if not os.path.exists(large):
        subprocess.run([os.path.join(args.build_dir, "gen_large_model"), large], check=True,
                       stdout=subprocess.DEVNULL)
    size_gb = os.path.getsize(large) / 2**30
    for command in (["info", large], ["report", large, "--json"]):
        wall, cpu, rss = best_of([cli] + command, args.repeat)
        label = f"{command[0]}, {size_gb:.1f} GiB model"
        print(f"{label:<56} {wall:8.2f} {cpu:8.2f} {rss / 2**20:12.1f}")


if __name__ == "__main__":
    main()
