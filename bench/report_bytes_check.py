#!/usr/bin/env python3
"""Check that two tflite-analyze builds write the same `report --json` bytes (issue 18).

A representation or speed change must not change a byte of the report. This runs both binaries
on every corpus model and every oracle model (families, control_flow, int8, external) with no
delegate, `--delegate gpu`, `--delegate xnnpack` and `--delegate ops=ADD`, and on every generated
oracle graph (graphs/*.jsonl) with no delegate, its `nodes=` delegate and `ops=ADD`; it compares
stdout, stderr and the exit code, and prints the cases that differ and a last line 'SAME k/n'.

usage: report_bytes_check.py BASELINE_CLI CANDIDATE_CLI [--corpus DIR] [--oracle DIR]
                             [--workdir DIR] [--cache DIR]
The oracle graphs are written to --workdir (default /tmp/tfa-report-bytes-check; a fixed path,
since the report names its model). --cache keeps the baseline's results (keyed by case), so re-checking a candidate reruns only it.
"""
import argparse
import glob
import hashlib
import json
import os
import subprocess
import sys

MODEL_VARIANTS = [[], ["--delegate", "gpu"], ["--delegate", "xnnpack"],
                  ["--delegate", "ops=ADD"]]


def run(cli, args):
    proc = subprocess.run([cli, "report", "--json"] + args, capture_output=True, timeout=300)
    return proc.returncode, proc.stdout, proc.stderr


def model_cases(corpus, oracle):
    models = sorted(glob.glob(os.path.join(corpus, "*.tflite")))
    for sub in ("families", "control_flow", "int8", "external"):
        models += sorted(glob.glob(os.path.join(oracle, sub, "*.tflite")))
    for model in models:
        for variant in MODEL_VARIANTS:
            yield f"{os.path.basename(model)} {' '.join(variant)}", [model] + variant


def graph_cases(oracle, workdir):
    for path in sorted(glob.glob(os.path.join(oracle, "graphs", "*.jsonl"))):
        with open(path) as f:
            for number, line in enumerate(f):
                case = json.loads(line)
                graph = os.path.join(workdir, f"{os.path.basename(path)}.{number}.json")
                with open(graph, "w") as g:
                    json.dump(case["graph"], g)
                flags = [] if case["greedy"] else ["--no-greedy"]
                name = f"{os.path.basename(path)}#{number}"
                yield name, [graph]
                yield name + " ops=ADD", [graph, "--delegate", "ops=ADD"] + flags
                if case["delegate_nodes"]:
                    nodes = "nodes=" + ",".join(map(str, case["delegate_nodes"]))
                    yield name + " " + nodes, [graph, "--delegate", nodes] + flags


def baseline_result(cli, name, args, cache):
    if cache is None:
        return run(cli, args)
    key = os.path.join(cache, hashlib.sha256(name.encode()).hexdigest())
    if os.path.exists(key):
        with open(key, "rb") as f:
            rc, out_len = map(int, f.readline().split())
            data = f.read()
        return rc, data[:out_len], data[out_len:]
    rc, out, err = run(cli, args)
    with open(key, "wb") as f:
        f.write(f"{rc} {len(out)}\n".encode() + out + err)
    return rc, out, err


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("baseline")
    parser.add_argument("candidate")
    parser.add_argument("--corpus", default="corpus/models")
    parser.add_argument("--oracle", default="/work/shared/oracle")
    parser.add_argument("--workdir", default="/tmp/tfa-report-bytes-check")
    parser.add_argument("--cache")
    args = parser.parse_args()
    if args.cache:
        os.makedirs(args.cache, exist_ok=True)
    same = total = 0
    os.makedirs(args.workdir, exist_ok=True)
    cases = list(model_cases(args.corpus, args.oracle)) + list(
        graph_cases(args.oracle, args.workdir))
    for name, case_args in cases:
        total += 1
        expected = baseline_result(args.baseline, name, case_args, args.cache)
        got = run(args.candidate, case_args)
        if got == expected:
            same += 1
        else:
            what = [w for w, a, b in zip(("exit code", "stdout", "stderr"), expected, got)
                    if a != b]
            print(f"DIFFERS {name}: {', '.join(what)}")
    print(f"SAME {same}/{total}")
    return 0 if same == total else 1


if __name__ == "__main__":
    sys.exit(main())
