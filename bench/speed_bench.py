#!/usr/bin/env python3
"""The runtime's latency beside upstream's own `benchmark_model` (issue 42, item 3), model by model,
from ../shared/oracle/speed/upstream_timings.tsv (upstream LiteRT f67457790c9c, one thread,
`--num_runs=20 --warmup_runs=2`; `xnnpack` is upstream's XNNPACK at the commit it pins, `builtin`
its builtin kernels compiled at -O1, not yet a fair anchor).

    bench/speed_bench.py [--binary build/tflite-analyze] [--table TSV] [--processes 3]
                         [--num-runs 20] [--warmup-runs 2] [--threads 1,2] [--models PATTERN]
                         [--models-dir DIR ...]

For each row: `run MODEL [--delegate xnnpack] --num-runs N --warmup-runs W --threads T --json`,
the median over --processes processes of the first Invoke (`latency.first_ms`, beside
`upstream_first_ms`) and of the mean of the timed Invokes (`latency.mean_ms`, beside
`upstream_avg_ms`). ratio = ours / upstream: below 1 is faster. goal: xnnpack <= 1.1 (this project
binds Debian's 2022 libXNNPACK, not the XNNPACK upstream pins), builtin <= 1.0 (judged only once
the table holds an optimised build; until then "-O1 anchor"). With several --threads, the speed-up
of the steady state at each count over 1 thread. Times depend on the machine and its load: nothing
here is asserted by a test. Models are looked up in corpus/models, ../shared/oracle/int8 and
../shared/oracle/external, then in each --models-dir (the table's pose and objectron models are
not in the pinned corpus: `npm pack @mediapipe/pose@0.5.1675469404` and
`@mediapipe/objectron@0.4.1675468480` hold them).
"""
import argparse
import fnmatch
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SHARED = os.path.join(os.path.dirname(ROOT), "shared")
MODEL_DIRS = [os.path.join(ROOT, "corpus", "models"),
              os.path.join(SHARED, "oracle", "int8"),
              os.path.join(SHARED, "oracle", "external")]
GOALS = {"xnnpack": 1.1, "builtin": 1.0}


def model_path(name, extra_dirs):
    for directory in MODEL_DIRS + extra_dirs:
        path = os.path.join(directory, name + ".tflite")
        if os.path.exists(path):
            return path
    return None


def latency(binary, path, config, args, threads):
    """Median first-Invoke and steady-state milliseconds over --processes runs, or an error."""
    command = [binary, "run", path, "--json", "--input-seed", "1", "--threads", str(threads),
               "--num-runs", str(args.num_runs), "--warmup-runs", str(args.warmup_runs)]
    if config == "xnnpack":
        command += ["--delegate", "xnnpack"]
    firsts, means = [], []
    for _ in range(args.processes):
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            return None, None, (done.stderr.strip().splitlines() or ["exit %d" % done.returncode])[-1]
        timing = json.loads(done.stdout)["latency"]
        firsts.append(timing["first_ms"])
        means.append(timing["mean_ms"])
    return statistics.median(firsts), statistics.median(means), None


def verdict(config, ratio):
    if config == "builtin":
        return "-O1 anchor"
    return "ok" if ratio <= GOALS[config] else "slower than the goal %.1fx" % GOALS[config]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, "build", "tflite-analyze"))
    parser.add_argument("--table", default=os.path.join(SHARED, "oracle", "speed",
                                                        "upstream_timings.tsv"))
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--num-runs", type=int, default=20)
    parser.add_argument("--warmup-runs", type=int, default=2)
    parser.add_argument("--threads", default="1", help="comma-separated thread counts")
    parser.add_argument("--models", default="*", help="fnmatch pattern on the model name")
    parser.add_argument("--models-dir", action="append", default=[],
                        help="another directory of NAME.tflite files (repeatable)")
    args = parser.parse_args()
    threads = [int(t) for t in args.threads.split(",")]

    with open(args.table) as f:
        header, *rows = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    column = {name: i for i, name in enumerate(header)}
    print("%-44s %-8s %9s %9s %6s %9s %9s %6s  %s" % (
        "model", "config", "first ms", "upstream", "ratio", "mean ms", "upstream", "ratio",
        "goal" + "".join(", x%d threads" % t for t in threads[1:])))
    for row in rows:
        name, config = row[column["model"]], row[column["config"]]
        if not fnmatch.fnmatch(name, args.models):
            continue
        path = model_path(name, args.models_dir)
        if path is None:
            print("%-44s %-8s model not found in %s" % (
                name[:44], config, ", ".join(MODEL_DIRS + args.models_dir)))
            continue
        first, mean, error = latency(args.binary, path, config, args, threads[0])
        if error:
            print("%-44s %-8s refused: %s" % (name[:44], config, error))
            continue
        up_first = float(row[column["upstream_first_ms"]])
        up_mean = float(row[column["upstream_avg_ms"]])
        speedups = []
        for t in threads[1:]:
            _, mean_t, error_t = latency(args.binary, path, config, args, t)
            speedups.append("-" if error_t else "%.2fx" % (mean / mean_t))
        print("%-44s %-8s %9.2f %9.2f %6.2f %9.2f %9.2f %6.2f  %s" % (
            name[:44], config, first, up_first, first / up_first, mean, up_mean, mean / up_mean,
            ", ".join([verdict(config, mean / up_mean)] + speedups)))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
