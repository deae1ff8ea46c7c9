#!/usr/bin/env python3
"""Whole-process time of the runtime (load, plan, Prepare, one Invoke, exit: bench/run_once) at 1
and 2 threads on the corpus models of issue 15's speed table, beside upstream's builtin
interpreter at 1 thread on the same machine type (the issue's anchors; "-" where it gives none).

    bench/whole_process_bench.py [--build build] [--runs 7] [--models DIR]

Each figure is the median of --runs processes after one unmeasured warm-up run (file cache):
wall time, and for 1 thread also the CPU time (user + system), which a busy machine inflates
less. Ratios are our wall time / the anchor; the issue's target is <= 1.2 at 1 thread and < 1
at 2. Timing only: nothing here is asserted by a test.
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

# Upstream's builtin-kernel interpreter, whole process at 1 thread (issue 15), in ms.
ANCHORS_MS = {
    "face_detection__face_detection_short_range": 30,
    "hands__hand_landmark_lite": 80,
    "hands__hand_landmark_full": None,
    "hands__palm_detection_full": None,
}


def child_cpu_s():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measure(command, runs):
    """Median wall and CPU milliseconds of `runs` processes."""
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    walls, cpus = [], []
    for _ in range(runs):
        cpu = child_cpu_s()
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        walls.append((time.perf_counter() - start) * 1e3)
        cpus.append((child_cpu_s() - cpu) * 1e3)
    return statistics.median(walls), statistics.median(cpus)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(here, "..", "build"))
    parser.add_argument("--models", default=os.path.join(here, "..", "corpus", "models"))
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    binary = os.path.join(args.build, "run_once")
    if not os.access(binary, os.X_OK):
        sys.exit(f"whole_process_bench: {binary} is not built (cmake --build BUILD --target "
                 "run_once)")

    print(f"{'model':<44} {'1t wall':>8} {'1t cpu':>8} {'2t wall':>8} {'anchor':>7} "
          f"{'ratio 1t':>8} {'ratio 2t':>8}")
    for model, anchor in ANCHORS_MS.items():
        path = os.path.join(args.models, model + ".tflite")
        if not os.path.exists(path):
            print(f"{model:<44} (not in {args.models})")
            continue
        one_wall, one_cpu = measure([binary, path, "1"], args.runs)
        two_wall, _ = measure([binary, path, "2"], args.runs)
        ratios = ["-", "-"] if anchor is None else [f"{one_wall / anchor:.2f}",
                                                     f"{two_wall / anchor:.2f}"]
        anchor_text = "-" if anchor is None else f"{anchor}ms"
        print(f"{model:<44} {one_wall:>6.1f}ms {one_cpu:>6.1f}ms {two_wall:>6.1f}ms "
              f"{anchor_text:>7} {ratios[0]:>8} {ratios[1]:>8}")


if __name__ == "__main__":
    main()
