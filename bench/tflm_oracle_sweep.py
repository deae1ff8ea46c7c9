#!/usr/bin/env python3
"""`--target tflm` against TFLite Micro's own figures (issue 41): every model of the oracle's
external/tflm/ in its four builds (64-bit and 32-bit x86 -m32, each without and with
TF_LITE_STATIC_MEMORY, measured with RecordingMicroAllocator), replayed as

    report MODEL --json --target tflm   [--static-memory] --recording-allocator
    report MODEL --json --target tflm-32 --abi i386 [--static-memory] --recording-allocator

and counted: exact (head, model-only tail and arena_used_bytes all equal), refused as TFLM
refuses (TFLM's status is an error and the report exits 2 naming a reason other than "not
modelled"), not modelled (the report exits 2 with "not modelled yet"), wrong (anything else: a
figure that differs, a plan where TFLM refuses, a refusal where TFLM allocates).

    bench/tflm_oracle_sweep.py [--build build] [--oracle /work/shared/oracle] [--verbose]
"""
import argparse
import glob
import json
import os
import subprocess
import sys

BUILDS = {
    "tflm": ["--target", "tflm"],
    "tflm_static": ["--target", "tflm", "--static-memory"],
    "tflm32": ["--target", "tflm-32", "--abi", "i386"],
    "tflm32_static": ["--target", "tflm-32", "--abi", "i386", "--static-memory"],
}


def classify(binary, model, oracle):
    # Returns (category, detail).
    args = [binary, "report", model, "--json", "--recording-allocator"] + BUILDS[oracle["variant_key"]]
    run = subprocess.run(args, capture_output=True, text=True)
    tflm_ok = oracle["status"] == "ok"
    if run.returncode == 2:
        message = run.stderr.strip().splitlines()[-1] if run.stderr.strip() else ""
        if "not modelled" in message:
            return "not-modelled", message
        return ("refused-as-TFLM" if not tflm_ok else "wrong"), message
    if run.returncode != 0:
        return "wrong", f"exit {run.returncode}: {run.stderr.strip()[:200]}"
    if not tflm_ok:
        return "wrong", "planned where TFLM refuses: " + oracle["status"][:120]
    ours = json.loads(run.stdout)["tflm"]
    want = (oracle["head"], oracle["tail_model_only"], oracle["arena_used_bytes"])
    got = (ours["head"], ours["tail"], ours["arena_used_bytes"])
    if got == want:
        return "exact", ""
    return "wrong", f"head/tail/arena_used_bytes {got} != TFLM's {want}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default="build")
    parser.add_argument("--oracle", default="/work/shared/oracle")
    parser.add_argument("--verbose", action="store_true")
    opts = parser.parse_args()
    binary = os.path.join(opts.build, "tflite-analyze")
    counts = {"exact": 0, "refused-as-TFLM": 0, "not-modelled": 0, "wrong": 0}
    for path in sorted(glob.glob(os.path.join(opts.oracle, "external", "tflm", "*.json"))):
        name, variant = os.path.basename(path)[: -len(".json")].rsplit(".", 1)
        oracle = json.load(open(path))
        oracle["variant_key"] = variant
        model = os.path.join(opts.oracle, "external", name + ".tflite")
        category, detail = classify(binary, model, oracle)
        counts[category] += 1
        if opts.verbose or category in ("wrong", "not-modelled"):
            print(f"{category:16} {variant:14} {name}  {detail}")
    total = sum(counts.values())
    print(f"{total} cases: " + ", ".join(f"{v} {k}" for k, v in counts.items()))
    return 1 if counts["wrong"] else 0


if __name__ == "__main__":
    sys.exit(main())
