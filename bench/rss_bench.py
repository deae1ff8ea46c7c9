#!/usr/bin/env python3
"""The resident-memory estimate of `report` beside the peak RSS of our own `run` (issue 32, item 4),
for every corpus model and delegate: none (the CPU kernels), gpu (our OpenCL delegate; PoCL where
there is no GPU) and xnnpack (simulated: its partitions run on our CPU kernels).

    bench/rss_bench.py [--binary build/tflite-analyze] [--models 'corpus/models/*.tflite']
                       [--delegates none,gpu,xnnpack] [--input-seed 1]

estimate: `report --json`'s interpreter.resident_bytes (arenas + persistent + delegate-owned +
mapped weights). measured: `run --json --input-seed S`'s measured.rss.peak_above_baseline, the
process's VmHWM after the run's two Invokes less its VmRSS before the model was opened. ratio:
measured / estimate. reason: why a ratio is more than 10% from 1, from the attribution in the
README's "Resident memory" section (heaptrack on `run`); "-" within 10%. MB are 10^6 bytes.
Nothing here is asserted by a test: RSS depends on the machine (page size, transparent huge
pages, the OpenCL driver).
"""
import argparse
import glob
import json
import os
import subprocess
import sys

# Why our process holds more (or less) than the estimate, per delegate, as found by attributing
# the peak with heaptrack (README, "Resident memory").
REASONS = {
    "none": "not estimated: code pages, the analysis plan, malloc and Eigen's packing buffers",
    "gpu": "not estimated: the OpenCL driver's host memory (PoCL: LLVM, its kernel builds, "
           "its copies of the weights)",
    "xnnpack": "simulated on the CPU kernels, which hold no packed weights; not estimated: "
               "XNNPACK's workspace for the partitions' internal tensors",
}
TOLERANCE = 0.10


def json_of(command):
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        last = done.stderr.strip().splitlines()[-1:] or ["exit %d" % done.returncode]
        return None, last[0]
    return json.loads(done.stdout), None


def delegate_flags(delegate):
    return [] if delegate == "none" else ["--delegate", delegate]


def megabytes(value):
    return "%.1f" % (value / 1e6)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=os.path.join(here, "..", "build", "tflite-analyze"))
    parser.add_argument("--models", default=os.path.join(here, "..", "corpus", "models",
                                                         "*.tflite"))
    parser.add_argument("--delegates", default="none,gpu,xnnpack")
    parser.add_argument("--input-seed", default="1")
    args = parser.parse_args()
    if not os.access(args.binary, os.X_OK):
        sys.exit(f"rss_bench: {args.binary} is not built (cmake --build BUILD --target "
                 "tflite-analyze)")
    models = sorted(glob.glob(args.models))
    if not models:
        sys.exit(f"rss_bench: no model matches {args.models}")

    print("| model | delegate | estimate MB | measured MB | ratio | reason |")
    print("|---|---|---|---|---|---|")
    for model in models:
        name = os.path.splitext(os.path.basename(model))[0]
        for delegate in args.delegates.split(","):
            flags = delegate_flags(delegate)
            report, error = json_of([args.binary, "report", model, *flags, "--json"])
            run, run_error = json_of([args.binary, "run", model, *flags, "--json",
                                      "--input-seed", args.input_seed])
            error = error or run_error
            if error:
                print(f"| {name} | {delegate} | - | - | - | did not run: {error} |")
                continue
            estimate = report["interpreter"]["resident_bytes"]
            measured = run["measured"]["rss"]["peak_above_baseline"]
            ratio = measured / estimate if estimate else float("inf")
            reason = "-" if abs(ratio - 1) <= TOLERANCE else REASONS.get(delegate, "not attributed")
            print(f"| {name} | {delegate} | {megabytes(estimate)} | {megabytes(measured)} | "
                  f"{ratio:.2f} | {reason} |")


if __name__ == "__main__":
    main()
