#!/usr/bin/env python3
"""The resident-memory estimate of `report` beside the peak RSS of our own `run` (issue 32, item 4),
for every corpus model and delegate: none (the CPU kernels), gpu (our OpenCL delegate; PoCL where
there is no GPU) and xnnpack (our XNNPACK delegate on Debian's libXNNPACK 0.0~git20220216).

    bench/rss_bench.py [--binary build/tflite-analyze] [--models 'corpus/models/*.tflite']
                       [--delegates none,gpu,xnnpack] [--input-seed 1] [--runs 3]

estimate: `report --json`'s interpreter.resident_bytes (arenas + persistent + delegate-owned +
mapped weights). measured: `run --json --input-seed S`'s measured.rss.peak_above_baseline, the
process's VmHWM after the run's two Invokes less its VmRSS before the model was opened, the
median of --runs processes (transparent huge pages make single runs vary by a few MB). ratio:
measured / estimate. reason: why a ratio is more than 10% from 1, from the attribution in the
README's "Resident memory" section (heaptrack on `run`); "-" within 10%. MB are 10^6 bytes.
Nothing here is asserted by a test: RSS depends on the machine (page size, transparent huge
pages, the OpenCL driver).

    bench/rss_bench.py --upstream-table ../shared/oracle/memory/upstream_rss.tsv
                       [--models-dir corpus/models] [--models-dir DIR ...]

sets the estimate beside upstream's own process instead (issue 47): for every row of the table
(model, config none or xnnpack), `report --json` with the row's delegate, the estimate
(interpreter.resident_bytes), the table's upstream_above_baseline, their ratio, the terms the
estimate adds up (interpreter.resident_terms, each with its basis) and, for a row more than 10%
off, the gap with its reason: the unknown terms the report names. A model missing from every
--models-dir is listed as not here. The last line counts the rows within 10% and those below it
with an unknown term named.
"""
import argparse
import glob
import json
import os
import statistics
import subprocess
import sys

# Why our process holds more (or less) than the estimate, as found by attributing the peak with
# heaptrack and the process's RssAnon / RssFile (README, "Resident memory"). Without a delegate
# the gap is the runtime's floor; with one, a row's gap is that floor (the same model's gap
# without a delegate) and what the delegate adds beyond it.
FLOOR = ("not estimated: the code of the kernels run (file pages), the plan, malloc's own, "
         "Eigen's packing buffers")
BEYOND = {
    "gpu": (
        "PoCL's worker threads and program builds, and the host float copies of the weights "
        "until Prepare has uploaded them",
        "less than the estimate",
    ),
}
TOLERANCE = 0.10


def json_of(command):
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        last = done.stderr.strip().splitlines()[-1:] or ["exit %d" % done.returncode]
        return None, last[0].split(": ")[-1]
    return json.loads(done.stdout), None


def delegate_flags(delegate):
    return [] if delegate == "none" else ["--delegate", delegate]


def megabytes(value):
    return "%.1f" % (value / 1e6)


def peak_rss(command):
    """The peak RSS of a process running `command`, in bytes (it includes the forked Python's)."""
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(child.pid, 0)
    return usage.ru_maxrss * 1024


def opencl_platform_bytes(binary):
    """What opening the OpenCL platform costs: `devices` (which only lists it) beside `--version`."""
    return max(0, peak_rss([binary, "devices"]) - peak_rss([binary, "--version"]))


def xnnpack_parts(report, run):
    """What libXNNPACK 2022 and the delegate's kernels held (run's `xnnpack` section) beside the
    estimate's parts for upstream's XNNPACK (report's delegate_memory)."""
    estimated = {}
    for subgraph in report["subgraphs"]:
        for memory in subgraph.get("delegate_memory", []):
            for part in memory["parts"]:
                estimated[part["kind"]] = estimated.get(part["kind"], 0) + part["bytes"]
    held = {"packed": 0, "workspace": 0, "setup": 0, "owned": 0}
    for summary in run.get("xnnpack", []):
        held["packed"] += summary["packed_weights_and_operators_bytes"]
        held["workspace"] += summary["workspace_bytes"]
        held["setup"] += summary["setup_bytes"]
        held["owned"] += summary["kernel_owned_bytes"]
    return [
        f"libXNNPACK's packed weights and operators {megabytes(held['packed'])} MB (estimated "
        f"{megabytes(estimated.get('packed_weights', 0))}: x86 tiles, operator structs)",
        f"workspaces {megabytes(held['workspace'])} MB (estimated "
        f"{megabytes(estimated.get('workspace', 0))} for upstream's XNNPACK, in-place outputs and "
        "one shared workspace)",
        f"indirection buffers {megabytes(held['setup'])} MB (not estimated)",
        f"the kernels' float32 copies of fp16 and unpacked weights {megabytes(held['owned'])} MB "
        f"(upstream: {megabytes(estimated.get('unpacked_static_weights', 0))} MB; the 2022 "
        "library takes no fp16 weights)",
    ]


def explain(delegate, gap, floor, platform, report, run):
    """The reason for a gap of `gap` bytes; `floor` is the same model's gap without a delegate,
    `platform` what opening the OpenCL platform costs."""
    if delegate == "none":
        return f"{megabytes(gap)} MB {FLOOR}"
    parts = []
    if floor is not None:
        parts.append(f"{megabytes(floor)} MB as without a delegate")
        gap -= floor
    if delegate == "xnnpack":
        return "; ".join(parts + xnnpack_parts(report, run))
    if delegate == "gpu":
        parts.append(f"{megabytes(platform)} MB opening the OpenCL platform (`devices`: PoCL, "
                     "libLLVM's code)")
        gap -= platform
    more, less = BEYOND.get(delegate, ("not attributed", "not attributed"))
    parts.append(f"{megabytes(gap)} MB: {more if gap > 0 else less}")
    return "; ".join(parts)


def term_summary(interpreter):
    """The resident terms as `name bytes(basis)`, largest first; unknown terms named."""
    terms = interpreter.get("resident_terms")
    if terms is None:  # a build before the terms: the totals it had
        return "arenas %s + persistent %s + delegates %s + weights %s" % tuple(
            megabytes(interpreter[k]) for k in
            ("arena_bytes", "persistent_bytes", "delegate_bytes", "constant_bytes"))
    parts = []
    for term in sorted(terms, key=lambda t: -t["bytes"]):
        if term["basis"] == "unknown":
            parts.append(f"{term['term']} unknown")
        elif term["bytes"]:
            parts.append(f"{term['term']} {megabytes(term['bytes'])}"
                         f"{'' if term['basis'] == 'predicted' else ' (' + term['basis'] + ')'}")
    return ", ".join(parts)


def gap_reason(interpreter, gap):
    """Why the estimate is `gap` bytes short of upstream's figure (negative: above it): the
    unknown terms the report names, each with the first clause of its method."""
    unknown = [t for t in interpreter.get("resident_terms", []) if t["basis"] == "unknown"]
    if gap < 0:
        return (f"estimate {megabytes(-gap)} MB above upstream: a predicted term counts pages "
                "upstream does not touch")
    if not unknown:
        return f"{megabytes(gap)} MB not explained: no term is unknown"
    return f"{megabytes(gap)} MB short: " + "; ".join(
        f"{t['term']} unknown ({t['method'].split(': ')[0]})" for t in unknown)


def upstream_table(args):
    """Each row of the upstream RSS table beside the estimate, with the terms, and each gap
    beyond the tolerance with its reason."""
    rows = [line.rstrip("\n").split("\t") for line in open(args.upstream_table)]
    header, rows = rows[0], rows[1:]
    column = {name: i for i, name in enumerate(header)}
    print("| model | config | estimate MB | upstream MB | ratio | terms (MB) | gap |")
    print("|---|---|---|---|---|---|---|")
    within = named = counted = 0
    for row in rows:
        model, config = row[column["model"]], row[column["config"]]
        upstream = int(row[column["upstream_above_baseline"]])
        path = next((os.path.join(d, model + ".tflite") for d in args.models_dir
                     if os.path.exists(os.path.join(d, model + ".tflite"))), None)
        if path is None:
            print(f"| {model} | {config} | - | {megabytes(upstream)} | - | not here | - |")
            continue
        report, error = json_of([args.binary, "report", path, *delegate_flags(config), "--json"])
        if error:
            print(f"| {model} | {config} | - | {megabytes(upstream)} | - | {error} | - |")
            continue
        interpreter = report["interpreter"]
        estimate = interpreter["resident_bytes"]
        ratio = estimate / upstream
        counted += 1
        close = abs(ratio - 1) <= TOLERANCE
        within += close
        reason = "-" if close else gap_reason(interpreter, upstream - estimate)
        named += not close and estimate < upstream and interpreter.get("resident_unknown", False)
        print(f"| {model} | {config} | {megabytes(estimate)} | {megabytes(upstream)} | "
              f"{ratio:.2f} | {term_summary(interpreter)} | {reason} |")
    print(f"\nwithin {TOLERANCE:.0%}: {within} of {counted} rows here ({len(rows)} in the table); "
          f"below it with an unknown term named: {named}; other: {counted - within - named}")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=os.path.join(here, "..", "build", "tflite-analyze"))
    parser.add_argument("--models", default=os.path.join(here, "..", "corpus", "models",
                                                         "*.tflite"))
    parser.add_argument("--delegates", default="none,gpu,xnnpack")
    parser.add_argument("--input-seed", default="1")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--upstream-table", help="compare with upstream's RSS table instead")
    parser.add_argument("--models-dir", action="append",
                        help="where --upstream-table's models are (repeatable)")
    args = parser.parse_args()
    if not os.access(args.binary, os.X_OK):
        sys.exit(f"rss_bench: {args.binary} is not built (cmake --build BUILD --target "
                 "tflite-analyze)")
    if args.upstream_table:
        args.models_dir = args.models_dir or [os.path.join(here, "..", "corpus", "models")]
        upstream_table(args)
        return
    models = sorted(glob.glob(args.models))
    if not models:
        sys.exit(f"rss_bench: no model matches {args.models}")

    floors = {}  # per model: the gap without a delegate
    platform = opencl_platform_bytes(args.binary) if "gpu" in args.delegates.split(",") else 0
    print("| model | delegate | estimate MB | measured MB | ratio | reason |")
    print("|---|---|---|---|---|---|")
    for model in models:
        name = os.path.splitext(os.path.basename(model))[0]
        for delegate in args.delegates.split(","):
            flags = delegate_flags(delegate)
            report, error = json_of([args.binary, "report", model, *flags, "--json"])
            peaks = []
            for _ in range(args.runs if not error else 0):
                run, error = json_of([args.binary, "run", model, *flags, "--json",
                                      "--input-seed", args.input_seed])
                if error:
                    break
                peaks.append(run["measured"]["rss"]["peak_above_baseline"])
            if error:
                print(f"| {name} | {delegate} | - | - | - | did not run: {error} |")
                continue
            estimate = report["interpreter"]["resident_bytes"]
            measured = statistics.median(peaks)
            ratio = measured / estimate if estimate else float("inf")
            gap = measured - estimate
            if delegate == "none":
                floors[name] = gap
            reason = "-" if abs(ratio - 1) <= TOLERANCE else explain(
                delegate, gap, floors.get(name), platform, report, run)
            print(f"| {name} | {delegate} | {megabytes(estimate)} | {megabytes(measured)} | "
                  f"{ratio:.2f} | {reason} |")


if __name__ == "__main__":
    main()
