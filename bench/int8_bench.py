#!/usr/bin/env python3
"""Speed of the runtime's int8/uint8 kernels at 1 thread on the real quantized models (issue 31,
item 5): one Invoke (`tflite-analyze run --profile`'s total) and the whole process (load, plan,
Prepare, one Invoke, exit: bench/run_once), for this build beside a baseline build (before a
kernel change), with the ratio new / baseline.

    bench/int8_bench.py [--build build] [--baseline DIR] [--runs 5] [--oracle /work/shared/oracle]

--baseline is a folder holding a `tflite-analyze` and a `run_once` built from the commit to
compare with; without it only this build is measured. Each figure is the median of --runs
processes after one unmeasured warm-up run.

Upstream anchor: the issue's target is the whole process at 1 thread <= 1.0x upstream's builtin
interpreter (TFLite's benchmark_model --num_threads=1 --use_xnnpack=false, whole process timed as
bench/whole_process_bench.py times its anchors) on the same machine type. Upstream cannot run
here, so ANCHORS_MS holds none yet ("-"): fill them in from such a run and the last column gives
the ratio. Timing only: nothing here is asserted by a test.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import time

MODELS = [
    "int8/face_detection_full_range_int8",
    "int8/face_detection_short_range_floatio",
    "int8/face_detection_short_range_int8",
    "int8/face_landmark_int8",
    "int8/hand_landmark_lite_floatio",
    "int8/hand_landmark_lite_int8",
    "int8/palm_detection_lite_int8",
    "external/coral-test_data__mobilenet_v1_0.25_128_quant",
    "external/coral-test_data__deeplabv3_mnv2_dm05_pascal_quant",
    "external/tflite_gles_app__gl2handpose_handpose_model_palm_detection_builtin_256_integer_quant",
]
# Upstream's builtin interpreter, whole process at 1 thread, in ms (none measured yet; see above).
# The oracle holds no int8 style-transfer model (only the f16 one), so none is listed.
ANCHORS_MS = {model: None for model in MODELS}

PROFILE_TOTAL = re.compile(r"profile of one Invoke: \d+ nodes, ([0-9.]+) ms")


def invoke_ms(binary, model, runs):
    """Median of the profiled Invoke times of `runs` processes."""
    times = []
    for _ in range(runs):
        out = subprocess.run([binary, "run", "--profile", model], check=True,
                             capture_output=True, text=True).stdout
        times.append(float(PROFILE_TOTAL.search(out).group(1)))
    return statistics.median(times)


def process_ms(binary, model, runs):
    """Median wall milliseconds of `runs` whole processes at 1 thread."""
    subprocess.run([binary, model, "1"], check=True, stdout=subprocess.DEVNULL)
    walls = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([binary, model, "1"], check=True, stdout=subprocess.DEVNULL)
        walls.append((time.perf_counter() - start) * 1e3)
    return statistics.median(walls)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(here, "..", "build"))
    parser.add_argument("--baseline", help="folder with the baseline tflite-analyze and run_once")
    parser.add_argument("--oracle", default="/work/shared/oracle")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    builds = [args.build] + ([args.baseline] if args.baseline else [])
    for build in builds:
        for tool in ("tflite-analyze", "run_once"):
            if not os.access(os.path.join(build, tool), os.X_OK):
                sys.exit(f"int8_bench: {build}/{tool} is not built")

    print(f"{'model':<44} {'invoke':>8} {'base':>8} {'ratio':>6} {'process':>8} {'base':>8} "
          f"{'ratio':>6} {'anchor':>7} {'/anchor':>7}")
    for model in MODELS:
        path = os.path.join(args.oracle, model + ".tflite")
        name = os.path.basename(model)[:44]
        if not os.path.exists(path):
            print(f"{name:<44} (not in {args.oracle})")
            continue
        new_invoke = invoke_ms(os.path.join(args.build, "tflite-analyze"), path, args.runs)
        new_process = process_ms(os.path.join(args.build, "run_once"), path, args.runs)
        base = ["-", "-", "-", "-"]
        if args.baseline:
            old_invoke = invoke_ms(os.path.join(args.baseline, "tflite-analyze"), path, args.runs)
            old_process = process_ms(os.path.join(args.baseline, "run_once"), path, args.runs)
            base = [f"{old_invoke:.1f}", f"{new_invoke / old_invoke:.2f}", f"{old_process:.1f}",
                    f"{new_process / old_process:.2f}"]
        anchor = ANCHORS_MS[model]
        anchor_text = "-" if anchor is None else f"{anchor}"
        anchor_ratio = "-" if anchor is None else f"{new_process / anchor:.2f}"
        print(f"{name:<44} {new_invoke:>8.1f} {base[0]:>8} {base[1]:>6} {new_process:>8.1f} "
              f"{base[2]:>8} {base[3]:>6} {anchor_text:>7} {anchor_ratio:>7}")


if __name__ == "__main__":
    main()
