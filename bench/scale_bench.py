#!/usr/bin/env python3
"""End-to-end scale benchmark (issue 18): wall time and peak RSS of `tflite-analyze report --json`
on gen_scale chains (every 10th output live, --delegate ops=ADD) at 64k / 256k / 1M nodes, and of
`info` and `report --json` on a 4 GiB model in the >2 GB form (weights outside the flatbuffer,
written sparse). Prints growth ratios between sizes and, for sizes given an upstream time, the
speedup. Measures only; asserts nothing.

usage: scale_bench.py BUILD_DIR [--workdir DIR] [--sizes 65536,262144,1048576]
                      [--upstream NODES=SECONDS ...]
BUILD_DIR holds tflite-analyze and gen_large_model. Generated files are kept in --workdir
(default /tmp/tfa-scale-bench) and reused.
"""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_scale import write_chain  # noqa: E402


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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build_dir")
    parser.add_argument("--workdir", default="/tmp/tfa-scale-bench")
    parser.add_argument("--sizes", default="65536,262144,1048576")
    parser.add_argument("--upstream", action="append", default=[],
                        help="NODES=SECONDS: upstream's partition + arena time at that size")
    args = parser.parse_args()
    cli = os.path.join(args.build_dir, "tflite-analyze")
    os.makedirs(args.workdir, exist_ok=True)
    upstream = {int(k): float(v) for k, v in (u.split("=") for u in args.upstream)}

    print(f"{'case':<34} {'wall s':>8} {'cpu s':>8} {'peak RSS MB':>12} {'B/node':>8} "
          f"{'wall growth':>12} {'vs upstream':>12}")
    previous = None
    for nodes in (int(s) for s in args.sizes.split(",")):
        graph = os.path.join(args.workdir, f"chain_{nodes}.json")
        if not os.path.exists(graph):
            write_chain(nodes, graph)
        wall, cpu, rss = measure([cli, "report", graph, "--json", "--delegate", "ops=ADD"])
        growth = ""
        if previous:
            growth = f"{wall / previous[1]:.2f}x/{nodes / previous[0]:.0f}x"
        ratio = f"{upstream[nodes] / wall:.1f}x" if nodes in upstream else ""
        print(f"{'report --json, ' + str(nodes) + ' nodes':<34} {wall:8.2f} {cpu:8.2f} "
              f"{rss / 2**20:12.1f} {rss / nodes:8.0f} {growth:>12} {ratio:>12}")
        previous = (nodes, wall)

    large = os.path.join(args.workdir, "large_4g.tflite")
    if not os.path.exists(large):
        subprocess.run([os.path.join(args.build_dir, "gen_large_model"), large], check=True,
                       stdout=subprocess.DEVNULL)
    size_gb = os.path.getsize(large) / 2**30
    for command in (["info", large], ["report", large, "--json"]):
        wall, cpu, rss = measure([cli] + command)
        label = f"{command[0]}, {size_gb:.1f} GiB model"
        print(f"{label:<34} {wall:8.2f} {cpu:8.2f} {rss / 2**20:12.1f}")


if __name__ == "__main__":
    main()
